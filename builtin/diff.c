/*
 * builtin/diff: `schedreplay diff TRACE [--policy A --policy B...] [--task
 * REGEX] [--pid N] [--start T] [--end T] [--period COMM=MS]... [--tsv|--json]
 * [--all] [-o FILE]`: what each policy changed against the first.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "lib/progress.h"
#include "compare/diff.h"
#include "compare/load.h"
#include "compare/source.h"
#include "compare/style.h"
#include "lib/outfile.h"

int cmd_diff(int argc, char **argv, struct sr_diag *d)
{
	struct cmp_load_opts o = { .cmd = "diff" };
	struct sr_progress pg;
	bool quiet = false;
	int format = OUT_TEXT;
	bool all = false, why = false;
	enum cmp_color color = CMP_COLOR_AUTO;
	const char *out = "-";
	const struct po_option opts[] = {
		OPT_COMPARE(&o, "the policies compared: the first (A, the "
				"baseline) against each of the others "
				"(default: stock, o11int); repeat for up to 8",
			    "only tasks whose comm matches this pcre2 regex"),
		OPT_GROUPS(&o),
		OPT_OUTPUT_FILE(&quiet, &out),
		OPT_SET_INT(0, "tsv", &format, "every figure of A and B with "
			    "change and ratio,\ntab-separated", OUT_TSV),
		OPT_SET_INT(0, "json", &format, "the same as JSON", OUT_JSON),
		OPT_FLAG('v', "verbose", &why, "under each group of the verdict, "
			 "why: its tasks, its wait, the reason that changed "
			 "most and the tasks it waited behind"),
		OPT_FLAG(0, "all", &all, "every task in the table (default: the "
			 "first 30\nby change)"),
		OPT_CHOICE(0, "color", &color, cmp_color_names, "WHEN",
			   "colour each policy's name as the plots draw it: "
			   "auto (default: on a terminal, unless NO_COLOR is "
			   "set), always, never"),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "diff",
		PO_ONE_TRACE,
		.about = "What policy B changed against policy A, task by task; with "
			"more policies, each against the first. " CMP_TRACE_ABOUT,
		.footer = "docs/plots.md defines the figures.",
		.opts = opts,
	};
	struct cmp_loaded ld;
	struct cmp_ndiff nd = { 0 };
	struct sr_outfile *f = NULL;
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &o.trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	sr_progress_init(&pg, "diff", quiet);
	o.progress = &pg;
	rc = cmp_cmd_load(&o, 2, CMP_MAX_RUNS, &ld, d);
	if (rc == SR_OK)
		rc = cmp_ndiff_build(&nd, &ld.set, ld.re, d);
	if (rc == SR_OK)
		rc = cmp_verdict_build_n(&nd, &ld.set, d);
	if (rc == SR_OK)
		rc = sr_outfile_open(&f, out, d);
	if (rc == SR_OK) {
		FILE *fp = sr_outfile_fp(f);

		if (format == OUT_TSV)
			rc = cmp_ndiff_write_tsv(&nd, fp);
		else if (format == OUT_JSON)
			rc = cmp_ndiff_write_json(&nd, fp);
		else
			rc = cmp_ndiff_write_table(&nd, fp, all,
						   cmp_color_wanted(color, fp),
						   why);
		rc = sr_outfile_finish(f, rc, out, d);
	}
	cmp_ndiff_free(&nd);
	cmp_loaded_free(&ld);
	return rc;
}
