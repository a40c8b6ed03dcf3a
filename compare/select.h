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
#define CMP_BARS_MAX_TASKS 12     /* tasks in the bar chart */
#define CMP_SELECT_MIN_WAITS 20   /* waits under each policy for a p99
				    change to pick a task by default */

/*
 * The order a person notices tasks in (tasks[].notice, set by
 * cmp_verdict_assign): the tasks of a group of their own kind (audio,
 * display, terminal, --group's) by the group table's order (0, 1, ...),
 * then these, the batch work last.  Every table and plot leads with the
 * lowest.
 */
#define CMP_NOTICE_PERIODIC 100  /* periodic or interactive */
#define CMP_NOTICE_OTHER 101
#define CMP_NOTICE_BATCH 102

struct cmp_taskre;

/* Compile REGEX (pcre2, lib/regex.h); an error says "OPT: expected a pcre2
 * regex, ..." with the offset, OPT naming the option (NULL: "--task
 * 'REGEX'"). */
int cmp_taskre_new(struct cmp_taskre **re, const char *regex, const char *opt,
		   struct sr_diag *d);
/* 1: comm matches, 0: it does not, -1: pcre2 could not decide (a match
 * limit reached: an error, not a mismatch), said in d (SR_EUSAGE). */
int cmp_taskre_match(const struct cmp_taskre *re, const char *comm,
		     struct sr_diag *d);
void cmp_taskre_free(struct cmp_taskre *re);

/* The change in p99 delay from run a to run b (0 if either lacks it). */
long long cmp_p99_change(const struct cmp_task *t, size_t a, size_t b);

/*
 * Order task indexes for a diff: the order a person notices them in
 * (tasks[].notice, above), then largest |change in p99| first, then
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
 * tasks (by the diff order, at most max); without, the worst task of
 * each group of the verdict (compare/verdict.h), in the groups' order:
 * the one with the largest p99 under any run, among its tasks with at
 * least CMP_SELECT_MIN_WAITS waits under every run, else among any that
 * waited; then, while there is room, the diff order (the tasks a person
 * notices first, each by its change in p99; with one run, the largest
 * p99), those with CMP_SELECT_MIN_WAITS waits first, at most max in all.
 * Returns the number selected; *order receives them in drawing order.
 */
int cmp_select_plot_tasks(struct cmp_set *s, const struct cmp_taskre *re,
			 size_t max, long **order, size_t *n,
			 struct sr_diag *d);

#endif
