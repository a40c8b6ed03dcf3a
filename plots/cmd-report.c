/*
 * cmd-report: `schedreplay report TRACE -o DIR`: DIR/index.html, one
 * self-contained page with the diff and the plots inline as SVG.
 */
#include <stdio.h>

#include "builtin.h"
#include "plots/cmdopts.h"
#include "plots/diff.h"
#include "plots/plot.h"
#include "plots/report.h"
#include "plots/source.h"

static const char usage[] =
	"usage: schedreplay report TRACE -o DIR [--policy A --policy B] [--task REGEX]\n"
	"                          [--period COMM=MS]... [--gnuplot PATH] [--max-tasks N]\n"
	"                          [--exclude REGEX] [--tree REGEX] [--title TEXT]\n"
	"  TRACE        a trace file (replayed here) or a directory from `schedreplay replay -o`\n"
	"  -o DIR       where index.html (and the plots' scripts, data and SVG) go\n"
	"  --policy     the two policies compared, A then B (default: stock, o11int)\n"
	"               (P:NAME=VALUE,... tunes P: e.g. o11int:MAX_SLEEP_AVG=2000)\n"
	"  --set        NAME=VALUE: kernel constant NAME of every policy that has it\n"
	"  --rt         REGEX[:PRIO]: tasks whose comm matches run SCHED_RR (default prio 50)\n"
	"  --task       tasks whose comm matches this pcre2 regex\n"
	"  --period     treat COMM as periodic with this period (ms)\n"
	"  --gnuplot    the gnuplot to run (default: gnuplot on PATH)\n"
	"  --exclude    leave tasks whose comm matches this pcre2 regex out of the replay\n"
	"  --tree       show only the process tree of the first task whose comm matches\n"
	"               this regex (e.g. perf-exec: the command perf sched record ran)\n"
	"  --title      how headings name the trace (default: its file name)\n";

int cmd_report(int argc, char **argv, struct sr_diag *d)
{
	struct pl_cmdopts o;
	struct pl_source src;
	struct pl_set set;
	struct pl_taskre *re = NULL;
	struct pl_diff df = { 0 };
	struct pl_plot_opts po = { 0 };
	struct pl_plot_files pf = { 0 };
	struct sr_diag pd = SR_DIAG_INIT;
	int rc, prc = SR_OK;

	if (pl_cmdopts_parse(&o, argc, argv,
			     PO_POLICY | PO_TUNE | PO_TASK | PO_PERIOD | PO_TITLE | PO_EXCLUDE | PO_TREE | PO_GNUPLOT |
				     PO_OUT | PO_MAXTASKS,
			     usage, d))
		return d->code;
	if (o.help)
		return SR_OK;
	if (!o.out)
		return sr_fail(d, SR_EUSAGE, "report: expected -o DIR\n%s", usage);
	rc = pl_cmd_load(&o, 2, 2, &src, &set, &re, d);
	if (rc == SR_OK)
		rc = pl_diff_build(&df, &set, 0, 1, re, d);
	if (rc == SR_OK) {
		po.outdir = o.out;
		po.format = PL_FMT_SVG;
		po.gnuplot = o.gnuplot;
		po.re = re;
		po.max_tasks = o.max_tasks;
		po.render = true;
		prc = pl_plot_all(&set, &po, &pf, &pd);
		if (prc != SR_OK && prc != SR_ENOGNUPLOT) {
			rc = sr_fail(d, prc, "%s", pd.msg);
		} else {
			rc = pl_report_write(&df, &pf, o.out,
					     prc ? "The plots could not be drawn: gnuplot is missing or failed (see the message on stderr); install it with apt-get install gnuplot-nox and run schedreplay report again."
						 : NULL,
					     d);
			if (rc == SR_OK && prc) {
				/* the page is written; report why it has no plots */
				rc = sr_fail(d, prc, "%s (%s/index.html has the tables only)",
					     pd.msg, o.out);
			}
			if (rc == SR_OK)
				printf("%s/index.html\n", o.out);
		}
	}
	pl_diff_free(&df);
	pl_set_free(&set);
	pl_source_close(&src);
	pl_taskre_free(re);
	return rc;
}
