/*
 * select: which tasks a diff shows and a plot draws.  --task REGEX is a
 * pcre2 pattern matched against the comm; without it, plots draw a
 * bounded set of the most telling tasks (docs/plots.md).
 */
#ifndef CMP_SELECT_H
#define CMP_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/runset.h"
#include "lib/diag.h"

#define CMP_PLOT_MAX_TASKS 8      /* tasks in the per-task plots */
#define CMP_PLOT_MAX_INTERACTIVE 4/* of which, at most, interactive ones */
#define CMP_BARS_MAX_TASKS 12     /* tasks in the bar chart */
#define CMP_SELECT_MIN_WAITS 20   /* waits under each policy for a p99
				    change to pick a task by default */

struct cmp_taskre;

/* Compile REGEX (pcre2, lib/regex.h); an error says "OPT: expected a pcre2
 * regex, ..." with the offset, OPT naming the option (NULL: "--task
 * 'REGEX'"). */
int cmp_taskre_new(struct cmp_taskre **re, const char *regex, const char *opt,
		   struct sr_diag *d);
bool cmp_taskre_match(const struct cmp_taskre *re, const char *comm);
void cmp_taskre_free(struct cmp_taskre *re);

/* The change in p99 delay from run a to run b (0 if either lacks it). */
long long cmp_p99_change(const struct cmp_task *t, size_t a, size_t b);

/*
 * Order task indexes for a diff: largest |change in p99| first, then
 * largest |change in max|, then pid, comm, occ.  Only tasks present in
 * run a or run b and matching re (NULL: all).  *out is malloc'd.
 */
int cmp_diff_order(const struct cmp_set *s, size_t a, size_t b,
		  const struct cmp_taskre *re, long **out, size_t *n,
		  struct sr_diag *d);
/* The same for every run against run 0 (the baseline): tasks present in
 * any run, by the largest |change in p99| under any run, then the
 * largest |change in max|.  With two runs, cmp_diff_order(s, 0, 1). */
int cmp_diff_order_all(const struct cmp_set *s, const struct cmp_taskre *re,
		       long **out, size_t *n, struct sr_diag *d);
/* Task t has at least `need` waits under every run it is compared in
 * (with b == SIZE_MAX: under every run of the set). */
bool cmp_enough_waits(const struct cmp_set *s, const struct cmp_task *t,
		      size_t a, size_t b, uint64_t need);

/*
 * Mark s->tasks[].selected for the per-task plots: with re, the matching
 * tasks (by the diff order, at most max); without, up to
 * CMP_PLOT_MAX_INTERACTIVE interactive tasks (most CPU used first: the
 * X server, the player, the terminal do real work when they wake), then the largest p99 changes from run 0 to any other (or the
 * largest p99 in run 0 when there is one run) among tasks with at least
 * CMP_SELECT_MIN_WAITS waits under every run, then among any that waited, at
 * most max in all.
 * Returns the number selected; *order receives them in drawing order.
 */
int cmp_select_plot_tasks(struct cmp_set *s, const struct cmp_taskre *re,
			 size_t max, long **order, size_t *n,
			 struct sr_diag *d);

#endif
