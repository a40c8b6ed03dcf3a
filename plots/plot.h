/*
 * plot: gnuplot scripts and their data for a replayed trace, and their
 * rendering.  Four plots, each NAME.gp + NAME.dat (+ NAME.png/svg/pdf):
 *
 *   priority    priority over time per task, policies overlaid (steps, prio
 *               axis reversed so higher priority is up, interactive
 *               threshold drawn)
 *   delay-time  each wait's scheduling delay over time per task (points,
 *               log y, a colour per policy)
 *   delay-cdf   distribution of delays per task and policy (CDF, log x,
 *               p99 marked)
 *   diff-bars   p99 and max delay per task, the policies side by side
 *               (needs two policies or more)
 *
 * Scripts and data are byte-identical for the same input and options; a
 * user can edit them and re-run `gnuplot NAME.gp` in DIR.
 */
#ifndef PL_PLOT_H
#define PL_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/runset.h"
#include "compare/select.h"
#include "lib/diag.h"

enum pl_format { PL_FMT_PNG, PL_FMT_SVG, PL_FMT_PDF };

/* "png", "svg", "pdf"; -1 if unknown. */
int pl_format_parse(const char *name);
const char *pl_format_ext(enum pl_format f);

#define PL_NPLOTS 4
#define PL_DELAY_FLOOR_NS 1000    /* log axes: shorter delays drawn here */
#define PL_SCATTER_MAX 5000       /* points per series before thinning */
#define PL_CDF_POINTS 1000        /* per half (body, tail) of a CDF */

struct pl_plot_opts {
	const char *outdir;
	enum pl_format format;
	const char *gnuplot;          /* NULL: "gnuplot" on PATH */
	const struct cmp_taskre *re;   /* NULL: default selection */
	size_t max_tasks;             /* 0: CMP_PLOT_MAX_TASKS */
	bool render;                  /* run gnuplot */
};

struct pl_plot_files {
	size_t n;
	char name[PL_NPLOTS][32];     /* "priority", ... */
	char caption[PL_NPLOTS][160]; /* what it shows, for the report */
	bool rendered[PL_NPLOTS];
	size_t ntasks;                /* tasks drawn */
};

/*
 * Write every script and data file into o->outdir (created), then, when
 * o->render, run gnuplot on each.  Returns SR_ENOGNUPLOT (with the
 * scripts and data written) if gnuplot is missing or fails.
 */
int pl_plot_all(struct cmp_set *s, const struct pl_plot_opts *o,
		struct pl_plot_files *out, struct sr_diag *d);

#endif
