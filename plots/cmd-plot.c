/*
 * cmd-plot: `schedreplay plot TRACE [--policy P]... [--task REGEX]
 * [--format png|svg|pdf] [-o DIR] [--gnuplot PATH]`: gnuplot scripts, data
 * and images of priorities and scheduling delays.
 */
#include <stdio.h>

#include "builtin.h"
#include "plots/cmdopts.h"
#include "plots/gnuplot.h"
#include "plots/plot.h"
#include "plots/source.h"

static const char usage[] =
	"usage: schedreplay plot TRACE [--policy P]... [--task REGEX] [--format png|svg|pdf]\n"
	"                        [-o DIR] [--gnuplot PATH] [--max-tasks N] [--period COMM=MS]...\n"
	"                        [--exclude REGEX] [--tree REGEX] [--title TEXT]\n"
	"  TRACE        a trace file (replayed here) or a directory from `schedreplay replay -o`\n"
	"  --policy     policies drawn, overlaid (default: stock, o11int)\n"
	"               (P:NAME=VALUE,... tunes P: e.g. o11int:MAX_SLEEP_AVG=2000)\n"
	"  --set        NAME=VALUE: kernel constant NAME of every policy that has it\n"
	"  --rt         REGEX[:PRIO]: tasks whose comm matches run SCHED_RR (default prio 50)\n"
	"  --task       tasks whose comm matches this pcre2 regex (default: the interactive\n"
	"               tasks and the largest changes in p99 delay, at most 8)\n"
	"  --format     image format (default: png)\n"
	"  -o DIR       where NAME.gp, NAME.dat and the images go (default: out/plots)\n"
	"  --gnuplot    the gnuplot to run (default: gnuplot on PATH)\n"
	"  --max-tasks  tasks in the per-task plots (default 8)\n"
	"  --period     treat COMM as periodic with this period (ms)\n"
	"  --exclude    leave tasks whose comm matches this pcre2 regex out of the replay\n"
	"  --tree       show only the process tree of the first task whose comm matches\n"
	"               this regex (e.g. perf-exec: the command perf sched record ran)\n"
	"  --title      how titles name the trace (default: its file name)\n";

int cmd_plot(int argc, char **argv, struct sr_diag *d)
{
	struct pl_cmdopts o;
	struct pl_source src;
	struct pl_set set;
	struct pl_taskre *re = NULL;
	struct pl_plot_opts po = { 0 };
	struct pl_plot_files pf;
	int rc, fmt = PL_FMT_PNG;

	if (pl_cmdopts_parse(&o, argc, argv,
			     PO_POLICY | PO_TUNE | PO_TASK | PO_PERIOD | PO_TITLE | PO_EXCLUDE | PO_TREE | PO_GNUPLOT |
				     PO_OUT | PO_FORMAT | PO_MAXTASKS,
			     usage, d))
		return d->code;
	if (o.help)
		return SR_OK;
	if (o.format && (fmt = pl_format_parse(o.format)) < 0)
		return sr_fail(d, SR_EUSAGE,
			       "--format: expected png, svg or pdf, got '%s'",
			       o.format);
	rc = pl_cmd_load(&o, 1, PL_MAX_RUNS, &src, &set, &re, d);
	if (rc == SR_OK) {
		po.outdir = o.out ? o.out : "out/plots";
		po.format = (enum pl_format)fmt;
		po.gnuplot = o.gnuplot;
		po.re = re;
		po.max_tasks = o.max_tasks;
		po.render = true;
		rc = pl_plot_all(&set, &po, &pf, d);
		if (rc == SR_OK || rc == SR_ENOGNUPLOT) {
			for (size_t i = 0; i < pf.n; i++) {
				printf("%s/%s.gp  %s/%s.dat", po.outdir, pf.name[i],
				       po.outdir, pf.name[i]);
				if (pf.rendered[i])
					printf("  %s/%s.%s", po.outdir, pf.name[i],
					       pl_format_ext(po.format));
				putchar('\n');
			}
		}
	}
	pl_set_free(&set);
	pl_source_close(&src);
	pl_taskre_free(re);
	return rc;
}
