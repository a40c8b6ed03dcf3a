/*
 * plot: gnuplot scripts and their data for a replayed trace, and their
 * rendering.  Four plots, each NAME.gp + NAME.dat (+ NAME.png/svg/pdf):
 *
 *   priority    priority over time per task, policies overlaid (steps, prio
 *               axis reversed so higher priority is up, interactive
 *               threshold drawn)
 *   delay-time  the p99 scheduling delay of the waits begun in each slice
 *               of time, per task (steps, log y, a line per policy)
 *   delay-cdf   distribution of delays per task and policy (CDF, log x,
 *               p99 marked)
 *   diff-bars   p99 and max delay per task, the policies side by side
 *               (needs two policies or more)
 *
 * Each policy is drawn in its own colour and dash (compare/style.h),
 * whatever its place in the comparison; the first policy (the baseline)
 * is drawn widest, underneath, so that where lines coincide both show.
 *
 * Panels (the report's way): each task's priority, delay and CDF plots
 * are separate images NAME-K (K = 1, 2, ... in drawing order), a panel
 * of PL_PANEL_WIDTH x PL_PANEL_HEIGHT that a page lays out in as many
 * columns as fit, never shrunk; the bars are two images, diff-bars-p99
 * and diff-bars-max, horizontal (one row per task); and what each panel
 * draws is bounded, not the events: per series at most PL_PANEL_BINS
 * time bins (a step of priority keeps each bin's extremes, a delay plot
 * draws each bin's p99) and PL_PANEL_CDF_POINTS points of a CDF.
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
#define PL_CDF_POINTS 1000        /* per half (body, tail) of a CDF */
#define PL_PANEL_WIDTH 600        /* a panel's size (SVG user units, px) */
#define PL_PANEL_HEIGHT 330
#define PL_PANEL_BINS 200         /* time bins of a panel's series */
#define PL_PANEL_CDF_POINTS 120   /* a panel's CDF: below p99, and half
				     as many again above */

struct pl_plot_opts {
	const char *outdir;
	enum pl_format format;
	const char *gnuplot;          /* NULL: "gnuplot" on PATH */
	const struct cmp_taskre *re;   /* NULL: default selection */
	size_t max_tasks;             /* 0: CMP_PLOT_MAX_TASKS */
	bool render;                  /* run gnuplot */
	bool panels;                  /* an image per task and plot (above) */
};

/* One image: NAME.gp (and NAME.png/svg/pdf), its data in KIND.dat. */
struct pl_figure {
	char name[40];                /* "priority", "priority-3", ... */
	const char *kind;             /* "priority", "delay-time",
					 "delay-cdf", "diff-bars" */
	long task;                    /* the task of a panel (an index of
					 the set's tasks); -1: several */
	char title[256];              /* what it shows, in a few words */
	char caption[256];            /* the longer story, for the report */
	bool rendered;
	/* panels: each plotted element's tooltip, in the order gnuplot's
	   SVG numbers them (gnuplot_plot_1, _2, ...), one per line */
	char *tips;
	bool tips_lost;               /* a tooltip found no memory */
};

struct pl_plot_files {
	struct pl_figure *fig;
	size_t n;
	long *tasks;                  /* the tasks drawn, in drawing order */
	size_t ntasks;
};

/*
 * Write every script and data file into o->outdir (created), then, when
 * o->render, run gnuplot on each.  Returns SR_ENOGNUPLOT (with the
 * scripts and data written) if gnuplot is missing or fails.  *out is
 * filled (free it with pl_plot_files_free) whenever the scripts were
 * written.
 */
int pl_plot_all(struct cmp_set *s, const struct pl_plot_opts *o,
		struct pl_plot_files *out, struct sr_diag *d);
void pl_plot_files_free(struct pl_plot_files *pf);

#endif
