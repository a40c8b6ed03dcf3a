/*
 * cmd-diff: `schedreplay diff TRACE [--policy A --policy B] [--task REGEX]
 * [--period COMM=MS]... [--tsv|--json] [--all]`: what B changed against A.
 */
#include <stdio.h>

#include "builtin.h"
#include "plots/cmdopts.h"
#include "plots/diff.h"
#include "plots/source.h"

static const char usage[] =
	"usage: schedreplay diff TRACE [--policy A --policy B] [--task REGEX]\n"
	"                        [--period COMM=MS]... [--tsv | --json] [--all] [--title TEXT]\n"
	"                        [--exclude REGEX] [--tree REGEX]\n"
	"  TRACE        a trace file (replayed here) or a directory from `schedreplay replay -o`\n"
	"  --policy     the two policies compared, A then B (default: stock, o11int)\n"
	"               (P:NAME=VALUE,... tunes P: e.g. o11int:MAX_SLEEP_AVG=2000)\n"
	"  --set        NAME=VALUE: kernel constant NAME of every policy that has it\n"
	"  --rt         REGEX[:PRIO]: tasks whose comm matches run SCHED_RR (default prio 50)\n"
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
	struct pl_cmdopts o;
	struct pl_source src;
	struct pl_set set;
	struct pl_taskre *re = NULL;
	struct pl_diff df = { 0 };
	int rc;

	if (pl_cmdopts_parse(&o, argc, argv,
			     PO_POLICY | PO_TUNE | PO_TASK | PO_PERIOD | PO_TITLE | PO_EXCLUDE | PO_TREE | PO_TSV |
				     PO_JSON | PO_ALL,
			     usage, d))
		return d->code;
	if (o.help)
		return SR_OK;
	rc = pl_cmd_load(&o, 2, 2, &src, &set, &re, d);
	if (rc == SR_OK)
		rc = pl_diff_build(&df, &set, 0, 1, re, d);
	if (rc == SR_OK) {
		if (o.tsv)
			rc = pl_diff_write_tsv(&df, stdout);
		else if (o.json)
			rc = pl_diff_write_json(&df, stdout);
		else
			rc = pl_diff_write_table(&df, stdout, o.all);
		if (rc)
			sr_fail(d, rc, "write error on stdout");
	}
	pl_diff_free(&df);
	pl_set_free(&set);
	pl_source_close(&src);
	pl_taskre_free(re);
	return rc;
}
