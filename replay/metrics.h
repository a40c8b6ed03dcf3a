/*
 * metrics: per-task scheduling figures shared by `stats` (the recorded
 * schedule), `replay` (each policy) and `diff`: runtime, switches,
 * wakeups, and the distribution of scheduling delays (from a wakeup, a
 * fork or a preemption while runnable, to running again).
 *
 * Three layers, each usable alone:
 *
 *  - sr_delays: one task's delay distribution.  Percentiles are exact
 *    (nearest rank) while a task has at most SR_DELAY_EXACT_MAX delays;
 *    beyond that the samples fold into a mergeable log-linear histogram
 *    whose relative error is at most 1/SR_DELAY_HIST_ERR_DIV (0.79%, see
 *    docs/metrics.md), so memory stays bounded whatever the trace length.
 *
 *  - struct sr_task_metrics: the figures of one task (or of several merged
 *    by comm).  Count, sum (avg) and max with its start/end are exact.
 *
 *  - sr_acct: the accounting state machine that turns per-task
 *    transitions into those figures.  The simulator (replay/sim) and the
 *    recorded schedule (replay/observed) both drive it, so a delay means
 *    the same thing in both:
 *
 *	sr_acct_runnable(a, task, t, cause)   task may run from t
 *	sr_acct_run(a, task, t)               task gets a cpu at t
 *	sr_acct_stop(a, task, t, still_runnable)  task leaves its cpu at t
 *	sr_acct_exit(a, task, t)              task is gone
 *	sr_acct_finish(a, t_end, d)           end of the schedule
 *
 *    The rules (docs/metrics.md has the full table):
 *    - runnable() on a task that is sleeping (or never seen) starts a
 *      wait at t with its cause; on a task already runnable or running it
 *      is ignored (the earlier wait start stands).  cause WAKEUP counts a
 *      wakeup.
 *    - run() on a runnable task ends the wait: one delay of t - start is
 *      recorded and `switches` counts one (perf sched latency's count is
 *      exactly this: one per wait ended by running).  A wait whose end
 *      is before its start (out-of-order input) is dropped, as perf does.
 *      run() on a sleeping task just marks it running (nothing counted).
 *    - stop() closes the running interval (on-cpu time) and leaves the
 *      task runnable from t (cause PREEMPT) if still_runnable, else
 *      sleeping.
 *    - Runtime is the on-cpu time of run()..stop() intervals, unless the
 *      caller charges cpu time explicitly with sr_acct_charge() (the
 *      recorded schedule does, from sched_stat_runtime): once any charge
 *      was made, every task's runtime is the sum of its charges.
 *    - Waits still open at finish() are not counted (perf does not
 *      either); tasks still running get their on-cpu time up to t_end.
 *
 *    Task ids are the caller's dense ids (observed uses the reader's
 *    sr_task.thread, one id per kernel task across exec, as perf does).
 *    Every call returns SR_OK or an error code; the first error is also
 *    kept and returned again by sr_acct_finish().
 */
#ifndef SR_METRICS_H
#define SR_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"

/* ---- delay distribution ------------------------------------------------ */

#define SR_DELAY_EXACT_MAX 256    /* exact samples kept per task */
#define SR_DELAY_HIST_SUB_BITS 6  /* 64 sub-buckets per power of two */
#define SR_DELAY_HIST_ERR_DIV 128 /* relative error <= 1/128 */

struct sr_delays;   /* opaque distribution */

struct sr_delays *sr_delays_new(void);
void sr_delays_free(struct sr_delays *d);
/* SR_OK, SR_ENOMEM, SR_EDATA (4 billion delays in one slice), or
   SR_EINTERNAL (a negative delay: the caller's bug). */
int sr_delays_add(struct sr_delays *d, int64_t delay_ns);
/* merge src into dst (for --by-comm); src is unchanged */
int sr_delays_merge(struct sr_delays *dst, const struct sr_delays *src);
uint64_t sr_delays_count(const struct sr_delays *d);
/* true while every sample is kept (percentiles exact) */
bool sr_delays_exact(const struct sr_delays *d);
/* p in (0,100]; nearest rank (lib/rank.h, the one definition of every
 * figure); 0 when empty */
int64_t sr_delays_percentile(const struct sr_delays *d, double p);
/* several at once (one sort); out[i] for p[i] */
void sr_delays_percentiles(const struct sr_delays *d, const double *p,
			   int64_t *out, size_t n);

/* ---- one task's figures ------------------------------------------------ */

struct sr_task_metrics {
	uint32_t id;            /* task id (parse tid, or merged key) */
	int32_t pid;            /* -1 when merged over several pids */
	const char *comm;       /* "" if unnamed; sr_acct_name() interns it
				 * (lives as long as the acct) */
	uint32_t ntasks;        /* tasks merged into this row (1 if one) */
	bool lost_touched;      /* figures touched by lost events */
	int64_t runtime_ns;
	uint64_t switches;      /* waits ended by running (perf's count):
				   one delay each, so also the delays */
	uint64_t wakeups;       /* sleeping -> runnable by a wakeup */
	int64_t sum_delay_ns;
	int64_t max_delay_ns;
	int64_t max_delay_start; /* ns, trace clock; 0 if no delay > 0 */
	int64_t max_delay_end;
	struct sr_delays *delays; /* NULL until the first delay */
};

/*
 * Record one delay from start_ns to end_ns on m: count, sum, the
 * distribution, and the max (replaced only by a strictly larger delay, so
 * the first of equal maxima keeps its start/end, as in perf).  SR_EDATA if
 * the sum would overflow 64 bits, SR_EINTERNAL if end < start, SR_ENOMEM.
 */
int sr_metrics_add_delay(struct sr_task_metrics *m, int64_t start_ns,
			 int64_t end_ns);
/* Fold src into dst (sums, counts, distribution, max as above, lost).
 * SR_EDATA (dst unchanged) if a sum would overflow 64 bits. */
int sr_metrics_merge(struct sr_task_metrics *dst,
		     const struct sr_task_metrics *src);
/* Average delay in ns: sum / count, truncated (perf's integer division). */
int64_t sr_metrics_avg_delay(const struct sr_task_metrics *m);
/* Free the distribution; the struct itself is the caller's. */
void sr_metrics_release(struct sr_task_metrics *m);

/* ---- one CPU's figures (cpus.tsv) -------------------------------------- */

struct sr_cpu_figs {
	int64_t busy_ns, idle_ns; /* over the span: running a task, or not */
	uint64_t switches;        /* context switches (to and from idle too) */
	int64_t balances;         /* load_balance() calls; -1: unknown */
	int64_t pulls;            /* tasks that came from another CPU */
};

/* ---- accounting state machine ------------------------------------------ */

enum sr_acct_cause {
	SR_CAUSE_WAKEUP,  /* woken from a sleep */
	SR_CAUSE_PREEMPT, /* left the cpu still runnable */
	SR_CAUSE_FORK,    /* new task (wakeup_new) */
	SR_CAUSE_UNKNOWN, /* already runnable when first seen */
	SR_CAUSE__COUNT
};

const char *sr_acct_cause_name(enum sr_acct_cause c); /* "wakeup", ... */

/*
 * Called for every wait ended by run() (after the figures are updated):
 * from = wait start, to = run time.  For latency.tsv-style outputs.
 */
typedef int (*sr_acct_wait_fn)(void *ctx, uint32_t task, int64_t from,
			       int64_t to, enum sr_acct_cause cause);

struct sr_acct;

int sr_acct_new(struct sr_acct **a, struct sr_diag *d);
void sr_acct_free(struct sr_acct *a);
void sr_acct_on_wait(struct sr_acct *a, sr_acct_wait_fn fn, void *ctx);

int sr_acct_runnable(struct sr_acct *a, uint32_t task, int64_t t,
		     enum sr_acct_cause cause);
int sr_acct_run(struct sr_acct *a, uint32_t task, int64_t t);
int sr_acct_stop(struct sr_acct *a, uint32_t task, int64_t t,
		 bool still_runnable);
int sr_acct_exit(struct sr_acct *a, uint32_t task, int64_t t);
/* Charge ns of cpu time to task (switches runtime to charged time). */
int sr_acct_charge(struct sr_acct *a, uint32_t task, int64_t ns);
/* The same for the cpu time of [t - ns, t): with a window, its part
 * inside the window. */
int sr_acct_charge_at(struct sr_acct *a, uint32_t task, int64_t t,
		      int64_t ns);
/*
 * Count only what happens in [lo, hi) on the caller's clock (set before
 * the first call; default: everything): a wakeup at its time, a wait
 * (delay, switch, the per-wait callback still sees every wait) when it
 * began, runtime as the part of each run (or charge) inside.  The state
 * machine itself runs over everything, so a task's state at lo is right.
 */
void sr_acct_window(struct sr_acct *a, int64_t lo, int64_t hi);
/* Mark a task's figures as touched by lost events. */
int sr_acct_mark_lost(struct sr_acct *a, uint32_t task);
/* Name a task for its output row (comm is copied into the acct's pool
 * of names, one copy per distinct name). */
int sr_acct_name(struct sr_acct *a, uint32_t task, int32_t pid,
		 const char *comm);

/* Where a task stands now (for callers that must check consistency). */
enum sr_acct_state {
	SR_ACCT_UNSEEN,   /* never named by a call */
	SR_ACCT_SLEEPING,
	SR_ACCT_RUNNABLE,
	SR_ACCT_RUNNING,
	SR_ACCT_DEAD,
};
enum sr_acct_state sr_acct_state(const struct sr_acct *a, uint32_t task);
/* Start of the current wait (RUNNABLE) or run (RUNNING), else 0. */
int64_t sr_acct_since(const struct sr_acct *a, uint32_t task);
/* Time of the task's last stop(), 0 if none. */
int64_t sr_acct_last_stop(const struct sr_acct *a, uint32_t task);

/* The first error's description ("out of memory", ...), NULL if none. */
const char *sr_acct_error(const struct sr_acct *a);

/* End of schedule at t_end: close running intervals; returns first error. */
int sr_acct_finish(struct sr_acct *a, int64_t t_end, struct sr_diag *d);

/* Tasks 0 .. sr_acct_ntasks()-1; metrics is NULL for ids never used. */
size_t sr_acct_ntasks(const struct sr_acct *a);
struct sr_task_metrics *sr_acct_metrics(struct sr_acct *a, uint32_t task);

#endif
