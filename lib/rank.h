/*
 * rank: the one order of 64-bit values and the one percentile of every
 * figure (the delays' p50/p95/p99 of stats, replay, diff, the verdict,
 * the tables and the plots; period detection's gap quantiles).  Nearest
 * rank (docs/metrics.md, "Percentiles"): the p-th percentile of n values
 * is the value of rank ceil(p / 100 * n), counted from 1 in ascending
 * order, so p50 of two values is the smaller and p100 the largest.
 *
 *	qsort(v, n, sizeof(*v), sr_cmp_i64);
 *	p99 = sr_percentile_sorted(v, n, 99);
 *
 * A task's delays are a distribution (replay/metrics.h, exact up to 256
 * samples, then a histogram) whose percentiles take their rank from
 * sr_rank too; a figure made of delays goes through sr_delays, so a group
 * of one task has exactly that task's p99.
 */
#ifndef SR_RANK_H
#define SR_RANK_H

#include <stddef.h>
#include <stdint.h>

/* qsort's comparison of two int64_t, ascending. */
int sr_cmp_i64(const void *a, const void *b);
/* v[0..n) sorted ascending in place, as qsort with sr_cmp_i64 sorts it
 * (the values alone: equal ones are alike), without a call per
 * comparison: a task's delays are sorted for every row written. */
void sr_sort_i64(int64_t *v, size_t n);
/* The nearest rank of percentile p (0 < p <= 100) among n > 0 values:
 * ceil(p * n / 100), within [1, n]; exact for a whole p. */
uint64_t sr_rank(double p, uint64_t n);
/* The p-th percentile of n values sorted ascending; 0 when n is 0. */
int64_t sr_percentile_sorted(const int64_t *v, size_t n, double p);

#endif
