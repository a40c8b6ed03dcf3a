/*
 * builtin/diff: `schedreplay diff TRACE [--policy A --policy B] [--task REGEX]
 * [--period COMM=MS]... [--tsv|--json] [--all] [-o FILE]`: what B changed
 * against A.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "lib/progress.h"
#include "compare/diff.h"
#include "compare/load.h"
#include "compare/source.h"
#include "lib/outfile.h"

int cmd_diff(int argc, char **argv, struct sr_diag *d)
{
	struct cmp_load_opts o = { .cmd = "diff" };
	struct sr_progress pg;
	bool quiet = false;
	bool tsv = false, json = false, all = false;
	const char *out = "-";
	const struct po_option opts[] = {
		OPT_COMPARE(&o, "the two policies compared, A then B "
				"(default: stock, o11int)",
			    "only tasks whose comm matches this pcre2 regex"),
		OPT_GROUP("output"),
		OPT_FLAG('q', "quiet", &quiet, "no progress line on a terminal"),
		OPT_PATH('o', "output", &out, "FILE",
			 "write to FILE (temporary, then renamed; default "
			 "and - : stdout)"),
		OPT_FLAG(0, "tsv", &tsv, "every figure of A and B with change "
			 "and ratio,\ntab-separated"),
		OPT_FLAG(0, "json", &json, "the same as JSON"),
		OPT_FLAG(0, "all", &all, "every task in the table (default: the "
			 "first 30\nby change)"),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		"diff", "TRACE", 1, 1,
		"What policy B changed against policy A, task by task. "
		CMP_TRACE_ABOUT, "docs/plots.md defines the figures.", opts,
	};
	struct cmp_source src;
	struct cmp_set set;
	struct cmp_taskre *re = NULL;
	struct cmp_diff df = { 0 };
	struct sr_outfile *f = NULL;
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &o.trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	sr_progress_init(&pg, "diff", quiet);
	o.progress = &pg;
	if (tsv && json)
		return sr_fail(d, SR_EUSAGE, "diff: --tsv and --json exclude "
			       "each other");
	rc = cmp_cmd_load(&o, 2, 2, &src, &set, &re, d);
	if (rc == SR_OK)
		rc = cmp_diff_build(&df, &set, 0, 1, re, d);
	if (rc == SR_OK)
		rc = sr_outfile_open(&f, out, d);
	if (rc == SR_OK) {
		FILE *fp = sr_outfile_fp(f);

		if (tsv)
			rc = cmp_diff_write_tsv(&df, fp);
		else if (json)
			rc = cmp_diff_write_json(&df, fp);
		else
			rc = cmp_diff_write_table(&df, fp, all);
		if (rc) {
			sr_outfile_abort(f);
			sr_fail(d, rc, "write error on %s", strcmp(out, "-") ?
				out : "stdout");
		} else {
			rc = sr_outfile_commit(f, d);
		}
	}
	cmp_diff_free(&df);
	cmp_set_free(&set);
	cmp_source_close(&src);
	cmp_taskre_free(re);
	return rc;
}
