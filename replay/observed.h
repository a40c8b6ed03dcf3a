/*
 * observed: the recorded schedule read straight from the event stream,
 * turned into per-task figures through the shared accounting
 * (replay/metrics.h), counted the way `perf sched latency` counts them.
 *
 *	struct sr_observed *o;
 *	sr_observed_new(&o, &opts, &view, d);
 *	while (sr_reader_next(r, &ev, d) == 1)
 *		if (sr_observed_event(o, &ev))
 *			...error
 *	sr_observed_finish(o, last_ts, d);
 *	sr_observed_rows(o, &rows, &n, d);    // one per kernel task
 *
 * What each event does, and the perf quirks kept here (not in the shared
 * accounting), are in docs/metrics.md.  Rows are per kernel task: the
 * records an exec chain links (sr_task.thread) are one row, named after
 * the last record (perf names a thread by its latest comm).  Idle tasks
 * have no row.
 */
#ifndef SR_OBSERVED_H
#define SR_OBSERVED_H

#include <stddef.h>

#include "lib/diag.h"
#include "parse/event.h"
#include "parse/tasks.h"
#include "replay/metrics.h"

/* Which `perf sched latency` to agree with. */
enum sr_perf_compat {
	/*
	 * perf as it is now (and the meaning of a delay in this project):
	 * sched_waking starts a wait (sched_wakeup where the trace has no
	 * waking event), and any switch-out in state R or R+ leaves the
	 * task runnable.
	 */
	SR_COMPAT_PERF,
	/*
	 * perf 6.1 (Debian 12's linux-perf): sched_waking is ignored (only
	 * sched_wakeup and sched_wakeup_new start a wait) and only a plain
	 * "R" switch-out (prev_state 0) leaves the task runnable; a
	 * preemption ("R+") ends nothing it can count.
	 */
	SR_COMPAT_PERF_6_1,
	SR_COMPAT__COUNT
};

/* "perf", "perf-6.1"; NULL-terminated, for --compat. */
extern const char *const sr_perf_compat_names[];
int sr_perf_compat_parse(const char *name, enum sr_perf_compat *out);

/* How observed looks tasks up (the reader's table, or a test's array). */
struct sr_task_view {
	const struct sr_task *(*get)(const void *ctx, sr_tid id);
	size_t (*count)(const void *ctx);
	const void *ctx;
};

struct sr_observed_opts {
	enum sr_perf_compat compat;
};

struct sr_observed;

int sr_observed_new(struct sr_observed **o, const struct sr_observed_opts *opts,
		    const struct sr_task_view *view, struct sr_diag *d);
void sr_observed_free(struct sr_observed *o);

/* Feed one event (in stream order).  SR_OK or an error code. */
int sr_observed_event(struct sr_observed *o, const struct sr_event *ev);

/* End of the trace at t_end (the last timestamp); names the rows. */
int sr_observed_finish(struct sr_observed *o, int64_t t_end,
		       struct sr_diag *d);

/*
 * The rows, one per non-idle kernel task that the trace shows doing
 * anything (runtime, a wait, a wakeup), in task id order.  The array is
 * malloc'd (free() it); the rows belong to o.
 */
int sr_observed_rows(struct sr_observed *o, struct sr_task_metrics ***rows,
		     size_t *n, struct sr_diag *d);

/* The accounting underneath, e.g. to set a per-wait callback first. */
struct sr_acct *sr_observed_acct(struct sr_observed *o);

/* Tasks marked as touched by lost events, so far. */
size_t sr_observed_lost_tasks(const struct sr_observed *o);

/*
 * Where tasks ran, from the switches: a task's last cpu (-1: never seen
 * running) and how often it came in on another cpu than its last one
 * (migrations); per recorded cpu (0 .. sr_observed_ncpus() - 1), valid
 * after sr_observed_finish(): time running a task (the sched_stat_runtime
 * charges made there, in a trace that has them; else from the switches)
 * and idle over the trace's span, switches, and tasks that came from
 * another cpu (pulls; balances are unknown: -1).
 */
int32_t sr_observed_task_cpu(const struct sr_observed *o, uint32_t key);
uint64_t sr_observed_migrations(const struct sr_observed *o, uint32_t key);
size_t sr_observed_ncpus(const struct sr_observed *o);
void sr_observed_cpu(const struct sr_observed *o, size_t cpu,
		     struct sr_cpu_figs *out);

#endif
