/*
 * builtin/diff: `schedreplay diff TRACE [--policy A --policy B] [--task REGEX]
 * [--period COMM=MS]... [--tsv|--json] [--all]`: what B changed against A.
 */
#include <stdio.h>

#include "builtin.h"
#include "compare/diff.h"
#include "compare/load.h"
#include "compare/source.h"

static const char usage[] =
	"usage: schedreplay diff TRACE [--policy A --policy B] [--task REGEX]\n"
	"                        [--period COMM=MS]... [--tsv | --json] [--all] [--title TEXT]\n"
	"                        [--exclude REGEX] [--tree REGEX]\n"
	"  TRACE        a trace file (replayed here) or a directory from `schedreplay replay -o`\n"
	"  --policy     the two policies compared, A then B (default: stock, o11int)\n"
	"  --task       only tasks whose comm matches this pcre2 regex\n"
	"  --period     treat COMM as periodic with this period (ms) for interbench's figures\n"
	"  --tsv/--json every figure of A and B with change and ratio, machine-readable\n"
	"  --all        every task in the table (default: the first 30 by change)\n"
	"  --title      how headings name the trace (default: its file name)\n"
	"  --exclude    leave tasks whose comm matches this pcre2 regex out of the replay\n"
	"  --tree       show only the process tree of the first task whose comm matches\n"
	"               this regex (e.g. perf-exec: the command perf sched record ran)\n"
	"               (e.g. '^perf$', the tracer), as replay --exclude\n";

int cmd_diff(int argc, char **argv, struct sr_diag *d)
{
	struct cmp_cmdopts o;
	struct cmp_source src;
	struct cmp_set set;
	struct cmp_taskre *re = NULL;
	struct cmp_diff df = { 0 };
	int rc;

	if (cmp_cmdopts_parse(&o, argc, argv,
			     CO_POLICY | CO_TASK | CO_PERIOD | CO_TITLE | CO_EXCLUDE | CO_TREE | CO_TSV |
				     CO_JSON | CO_ALL,
			     usage, d))
		return d->code;
	if (o.help)
		return SR_OK;
	rc = cmp_cmd_load(&o, 2, 2, &src, &set, &re, d);
	if (rc == SR_OK)
		rc = cmp_diff_build(&df, &set, 0, 1, re, d);
	if (rc == SR_OK) {
		if (o.tsv)
			rc = cmp_diff_write_tsv(&df, stdout);
		else if (o.json)
			rc = cmp_diff_write_json(&df, stdout);
		else
			rc = cmp_diff_write_table(&df, stdout, o.all);
		if (rc)
			sr_fail(d, rc, "write error on stdout");
	}
	cmp_diff_free(&df);
	cmp_set_free(&set);
	cmp_source_close(&src);
	cmp_taskre_free(re);
	return rc;
}
