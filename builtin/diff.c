/*
 * builtin/diff: `schedreplay diff TRACE [--policy A --policy B] [--task REGEX]
 * [--period COMM=MS]... [--tsv|--json] [--all]`: what B changed against A.
 */
#include <stdio.h>

#include "builtin.h"
#include "compare/diff.h"
#include "compare/load.h"
#include "compare/source.h"

int cmd_diff(int argc, char **argv, struct sr_diag *d)
{
	struct cmp_load_opts o = { .cmd = "diff" };
	bool tsv = false, json = false, all = false;
	const struct po_option opts[] = {
		OPT_COMPARE(&o, "the two policies compared, A then B "
				"(default: stock, o11int)",
			    "only tasks whose comm matches this pcre2 regex"),
		OPT_GROUP("output"),
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
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &o.trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	if (tsv && json)
		return sr_fail(d, SR_EUSAGE, "diff: --tsv and --json exclude "
			       "each other");
	rc = cmp_cmd_load(&o, 2, 2, &src, &set, &re, d);
	if (rc == SR_OK)
		rc = cmp_diff_build(&df, &set, 0, 1, re, d);
	if (rc == SR_OK) {
		if (tsv)
			rc = cmp_diff_write_tsv(&df, stdout);
		else if (json)
			rc = cmp_diff_write_json(&df, stdout);
		else
			rc = cmp_diff_write_table(&df, stdout, all);
		if (rc)
			sr_fail(d, rc, "write error on stdout");
	}
	cmp_diff_free(&df);
	cmp_set_free(&set);
	cmp_source_close(&src);
	cmp_taskre_free(re);
	return rc;
}
