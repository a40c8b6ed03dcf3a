/*
 * builtin/plot: `schedreplay plot TRACE [--policy P]... [--task REGEX]
 * [--format png|svg|pdf] [-o DIR] [--gnuplot PATH]`: gnuplot scripts, data
 * and images of priorities and scheduling delays.
 */
#include <stdio.h>

#include "builtin.h"
#include "lib/progress.h"
#include "compare/load.h"
#include "compare/source.h"
#include "parse/read-warn.h"
#include "plots/gnuplot.h"
#include "plots/plot.h"

static const char *const format_names[] = {
	[PL_FMT_PNG] = "png", [PL_FMT_SVG] = "svg", [PL_FMT_PDF] = "pdf", NULL,
};

int cmd_plot(int argc, char **argv, struct sr_diag *d)
{
	struct cmp_load_opts o = { .cmd = "plot" };
	struct sr_progress pg;
	bool quiet = false;
	struct pl_plot_opts po = { .outdir = "out/plots", .format = PL_FMT_PNG,
				   .render = true };
	const struct po_option opts[] = {
		OPT_COMPARE(&o, "policies drawn, overlaid (default: stock, "
			    "o11int)",
			    "tasks whose comm matches this pcre2 regex "
			    "(default: the interactive tasks and the largest "
			    "changes in p99 delay, at most 8)"),
		OPT_GROUP("output"),
		OPT_FLAG('q', "quiet", &quiet, "no progress line on a terminal"),
		OPT_PATH('o', "output", &po.outdir, "DIR",
			   "where NAME.gp, NAME.dat and the images go "
			   "(default: out/plots)"),
		OPT_CHOICE(0, "format", &po.format, format_names, "FMT",
			   "image format: png (default), svg, pdf"),
		OPT_DRAW(&po),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "plot",
		PO_ONE_TRACE,
		.about = "gnuplot scripts, data and images of priorities and "
			"scheduling "
			"delays.  " CMP_TRACE_ABOUT,
		.footer = "docs/plots.md describes each plot.",
		.opts = opts,
	};
	struct cmp_loaded ld;
	struct pl_plot_files pf;
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &o.trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	sr_progress_init(&pg, "plot", quiet);
	o.progress = &pg;
	rc = cmp_cmd_load(&o, 1, CMP_MAX_RUNS, &ld, d);
	if (rc == SR_OK) {
		po.re = ld.re;
		rc = pl_plot_all(&ld.set, &po, &pf, d);
		if (rc == SR_OK || rc == SR_ENOGNUPLOT) {
			if (ld.set.loss)
				sr_loss_put(stdout, ld.set.loss, "");
			for (size_t i = 0; i < pf.n; i++) {
				printf("%s/%s.gp  %s/%s.dat", po.outdir,
				       pf.fig[i].name, po.outdir,
				       pf.fig[i].kind);
				if (pf.fig[i].rendered)
					printf("  %s/%s.%s", po.outdir,
					       pf.fig[i].name,
					       pl_format_ext(po.format));
				putchar('\n');
			}
		}
		pl_plot_files_free(&pf);
	}
	cmp_loaded_free(&ld);
	return rc;
}
