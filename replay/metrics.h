/*
 * metrics: per-task scheduling figures shared by `stats` (the recorded
 * schedule), `replay` (each policy) and `diff`: runtime, switches,
 * wakeups, and the distribution of scheduling delays (from a wakeup, a
 * fork or a preemption while runnable, to running again).
 *
 * Percentiles: exact (nearest-rank on the kept samples) while a task has at
 * most SR_DELAY_EXACT_MAX delays; beyond that the samples fold into a
 * log-linear histogram whose relative error is bounded (docs/metrics.md),
 * so memory stays bounded whatever the trace length.  Count, sum (avg) and
 * max with its start/end are always exact.
 */
#ifndef SR_METRICS_H
#define SR_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"

struct sr_delays;   /* opaque distribution */

struct sr_task_metrics {
	uint32_t id;            /* task id (parse tid, or merged key) */
	int32_t pid;
	char comm[64];
	int64_t runtime_ns;
	uint64_t switches;      /* as perf sched latency counts them */
	uint64_t wakeups;
	uint64_t ndelays;
	int64_t sum_delay_ns;
	int64_t max_delay_ns;
	int64_t max_delay_start; /* ns, trace clock; 0 if no delay */
	int64_t max_delay_end;
	bool lost_touched;      /* figures touched by lost events */
	struct sr_delays *delays;
};

struct sr_delays *sr_delays_new(void);
void sr_delays_free(struct sr_delays *d);
int sr_delays_add(struct sr_delays *d, int64_t delay_ns);
/* merge src into dst (for --by-comm) */
int sr_delays_merge(struct sr_delays *dst, const struct sr_delays *src);
uint64_t sr_delays_count(const struct sr_delays *d);
/* p in (0,100]; nearest rank; 0 when empty */
int64_t sr_delays_percentile(const struct sr_delays *d, double p);

/* Record one delay on m (updates count, sum, max and its bounds). */
int sr_metrics_add_delay(struct sr_task_metrics *m, int64_t start_ns,
			 int64_t end_ns);

#endif
