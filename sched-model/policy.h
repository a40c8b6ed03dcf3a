/*
 * policy: the interface every scheduler model implements, and the table of
 * models.  A new policy is one file in sched-model/ plus one row in
 * sched-model/policies.c.
 *
 * Who owns what: the simulator (replay/) owns time, ticks, the CPU(s) and
 * what each task will do next; it tells the policy what happened (fork,
 * wake, block, exit, reap, tick, yield, nice, setscheduler) and asks it what
 * to run (schedule) and whether the current task must give way
 * (rq->need_resched).  The policy owns priorities, slices and queues, in
 * integer jiffies (HZ = 1000), and reports every change of a task's
 * scheduler state to an observer so the simulator can write timelines
 * without knowing model internals.
 *
 * Calls happen at rq->jiffies, which the simulator sets with
 * sm_rq_set_jiffies() before each call.  Policies never see trace lines,
 * files or nanoseconds.
 */
#ifndef SM_POLICY_H
#define SM_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SM_HZ 1000

enum sm_sched_class {
	SM_SCHED_NORMAL = 0,
	SM_SCHED_FIFO = 1,
	SM_SCHED_RR = 2,
};

enum sm_array {
	SM_ARRAY_NONE,    /* not queued: sleeping, zombie or new */
	SM_ARRAY_ACTIVE,
	SM_ARRAY_EXPIRED,
};

/* What the simulator knows of a task when it creates it. */
struct sm_task_info {
	uint32_t id;          /* simulator's task id, stable */
	int nice;             /* -20..19 */
	int policy;           /* enum sm_sched_class */
	int rt_priority;      /* 1..99 for FIFO/RR */
	bool has_mm;          /* false for kernel threads */
};

/* Observable scheduler state of one task, for timelines. */
struct sm_view {
	int prio;             /* 0..139, 140 = idle */
	int static_prio;
	long sleep_avg;       /* jiffies; -1 if the policy has none */
	long credit;          /* interactive_credit; -1 if none */
	long time_slice;      /* jiffies */
	int array;            /* enum sm_array */
};

/* Why the observer is called. */
enum sm_change {
	SM_CH_NEW,      /* task created (pre-existing at trace start) */
	SM_CH_FORK,     /* created by fork */
	SM_CH_WAKE,     /* made runnable by a wakeup */
	SM_CH_RUN,      /* picked by schedule(), now current */
	SM_CH_PREEMPT,  /* switched out while still runnable */
	SM_CH_BLOCK,    /* switched out asleep (dequeued) */
	SM_CH_EXPIRE,   /* slice used up: refilled, moved to expired */
	SM_CH_REQUEUE,  /* moved to the tail of its list (slice refill kept
			   active, granularity requeue, RR, yield) */
	SM_CH_EXIT,     /* became a zombie */
	SM_CH_REAP,     /* removed; sched_exit refunds applied */
	SM_CH_STATE,    /* any other change of prio/sleep_avg/credit/slice */
};

struct sm_task;   /* a policy's per-task block starts with this */
struct sm_rq;     /* a policy's per-cpu runqueue starts with this */

struct sm_observer {
	void (*changed)(void *ctx, const struct sm_rq *rq,
			const struct sm_task *t, enum sm_change why,
			const struct sm_view *v);
	void *ctx;
};

struct sm_task {
	struct sm_task_info info;
	bool on_cpu;          /* it is rq->curr */
};

struct sm_rq {
	const struct sm_policy *policy;
	int cpu;
	unsigned long jiffies;
	bool need_resched;    /* current must give way: call schedule() */
	struct sm_task *curr; /* NULL = idle */
	struct sm_observer obs;
};

/* Fork flags. */
#define SM_FORK_VFORK   1u  /* parent blocks: no parent resched */
#define SM_FORK_STOPPED 2u  /* child not enqueued until woken */

struct sm_policy {
	const char *name;        /* command-line name */
	const char *aliases[3];  /* other accepted names, NULL-terminated */
	const char *summary;     /* one line for `schedreplay policies` */

	struct sm_rq *(*rq_new)(int cpu, unsigned long jiffies,
				const struct sm_observer *obs);
	void (*rq_free)(struct sm_rq *rq);

	/* A task alive before the trace starts: not queued, asleep. */
	struct sm_task *(*task_new)(struct sm_rq *rq,
				    const struct sm_task_info *info);
	/* rq->curr forks; returns the child, queued unless STOPPED. */
	struct sm_task *(*fork)(struct sm_rq *rq, struct sm_task *parent,
				const struct sm_task_info *child,
				unsigned flags);
	void (*wake)(struct sm_rq *rq, struct sm_task *t, bool sync);
	/* rq->curr goes to sleep; it leaves the queue at the next schedule */
	void (*block)(struct sm_rq *rq, struct sm_task *t);
	/* rq->curr exits: zombie, leaves the queue at the next schedule */
	void (*exit)(struct sm_rq *rq, struct sm_task *t);
	/* zombie child reaped: sched_exit refunds to parent (may be NULL) */
	void (*reap)(struct sm_rq *rq, struct sm_task *parent,
		     struct sm_task *child);
	/* one scheduler_tick for rq->curr at rq->jiffies */
	void (*tick)(struct sm_rq *rq);
	/* schedule(): returns the task to run (rq->curr), NULL = idle */
	struct sm_task *(*schedule)(struct sm_rq *rq);
	void (*yield)(struct sm_rq *rq, struct sm_task *t);
	void (*set_nice)(struct sm_rq *rq, struct sm_task *t, int nice);
	void (*setscheduler)(struct sm_rq *rq, struct sm_task *t, int policy,
			     int rt_priority);
	void (*view)(const struct sm_task *t, struct sm_view *v);
	/* frees a task's block (after reap, or at the end) */
	void (*task_free)(struct sm_rq *rq, struct sm_task *t);
	/* invariant check for tests: 0 ok, else writes why */
	int (*check)(const struct sm_rq *rq, char *why, size_t whylen);
};

static inline void sm_rq_set_jiffies(struct sm_rq *rq, unsigned long j)
{
	rq->jiffies = j;
}

/* The table: NULL-terminated, in `schedreplay policies` order. */
extern const struct sm_policy *const sm_policies[];

/* By name or alias; NULL if unknown. */
const struct sm_policy *sm_policy_find(const char *name);

#endif
