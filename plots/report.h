/*
 * report: one self-contained HTML page (DIR/index.html) that reads the
 * same offline and archived: no link, font, image or script from
 * elsewhere.  In order:
 *
 *   the policies, each with the colour and dash every plot draws it in
 *   (compare/style.h), and what is shown (--tree, --pid, the window);
 *   the verdict: what each policy changed against the baseline (the
 *   diff's headline, compare/diff.h);
 *   the periodic tasks' deadlines (interbench's figures);
 *   the task table, sorted and filtered in the page by a small inline
 *   script from the figures embedded as JSON (a row per task, a column
 *   per policy: p99, max or average delay, runtime or switches, with the
 *   change against the baseline);
 *   the plots, inline SVG, as panels that the page lays out in as many
 *   columns as fit (never shrunk below their drawn size): the bars, then
 *   a section per task drawn with its priority, delay and CDF panels;
 *   each plotted element's tooltip names the task and the policy.
 *
 * What the page holds grows with the tasks shown, not with the events:
 * the table's figures are a few numbers per task and policy, and each
 * panel's series are bounded (plots/plot.h, "Panels").
 */
#ifndef PL_REPORT_H
#define PL_REPORT_H

#include "compare/diff.h"
#include "lib/diag.h"
#include "plots/plot.h"

/*
 * Write dir/index.html.  pf: the plots rendered as SVG panels into dir
 * (pl_plot_opts.panels); those not rendered are named with plots_note,
 * e.g. why gnuplot failed.  pf may be NULL (no plots).
 */
int pl_report_write(const struct cmp_ndiff *nd, const struct pl_plot_files *pf,
		    const char *dir, const char *plots_note, struct sr_diag *d);

#endif
