/*
 * heatmap: the sweep's heat maps of one figure over two knobs (--heatmap
 * X,Y[,FIGURE], parsed and checked against the grid by
 * cmp_sweep_heat_parse before any job runs).
 */
#ifndef PL_HEATMAP_H
#define PL_HEATMAP_H

#include "compare/sweep.h"
#include "lib/diag.h"

/* DIR/heatmap-TRACE-POLICY-FIGURE.gp, .dat and .png for every trace and
 * policy of sw that has both knobs, from the jobs' figures; drawn by
 * gnuplot (NULL: the one on PATH). */
int pl_sweep_heatmap(const struct cmp_sweep *sw, const char *outdir,
		     const struct cmp_sweep_heat *h, const char *gnuplot,
		     struct sr_diag *d);

#endif
