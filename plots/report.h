/*
 * report: one self-contained HTML page (DIR/index.html) with the diff's
 * headline and table and the plots inline as SVG: no scripts, no external
 * styles, fonts or images, so it reads the same offline and archived.
 */
#ifndef PL_REPORT_H
#define PL_REPORT_H

#include "compare/diff.h"
#include "lib/diag.h"
#include "plots/plot.h"

/*
 * Write dir/index.html.  pf: the plots rendered as SVG into dir (those not
 * rendered are named with plots_note, e.g. why gnuplot failed).
 */
int pl_report_write(const struct cmp_diff *df, const struct pl_plot_files *pf,
		    const char *dir, const char *plots_note, struct sr_diag *d);

#endif
