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
 * files or nanoseconds.  jiffies must be >= 1: 0 is the kernel's "unset"
 * for expired_timestamp and test2-mm1's "never ran" for last_run.
 *
 * The simulator's side of the contract (docs/models.md, "Conventions"):
 *  - block(), exit() and yield() of rq->curr, fork() without VFORK, and a
 *    wake() that preempts set rq->need_resched; the simulator then calls
 *    schedule() at once, except at a tick instant, where the order is:
 *    bursts ending now (with their schedule()), tick(), the wakeups due
 *    now in task-id order, then schedule() if rq->need_resched.
 *  - wake() of a task that blocked or was stopped but has not been
 *    switched out yet only makes it runnable again (kernel
 *    try_to_wake_up step 2): schedule() then keeps it, and its view's
 *    state is SM_STATE_RUNNABLE again.
 *  - reap() after the zombie was switched out; task_free() after reap()
 *    (or at the end of the run, for any task).
 *
 * Observer: every change of a task's prio, sleep_avg, credit, time_slice,
 * array or state is reported, after the change, with the reason; event
 * reasons (NEW, FORK, WAKE, RUN, PREEMPT, BLOCK, EXPIRE, REQUEUE, EXIT,
 * REAP, YIELD, SWAP, MIGRATE) are reported even when the view is unchanged.
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
	/* task_new only: initial sleep_avg as a percentage of the policy's
	   MAX_SLEEP_AVG (0..100); 0 = the documented cold start */
	int init_sleep_pct;
};

/* Scheduler state of a task, as the kernel's p->state. */
enum sm_state {
	SM_STATE_RUNNABLE,  /* TASK_RUNNING: queued (running or waiting) */
	SM_STATE_SLEEPING,  /* blocked (S or D: credited the same) */
	SM_STATE_STOPPED,   /* CLONE_STOPPED child not yet woken */
	SM_STATE_ZOMBIE,    /* exited, not reaped */
	SM_STATE_DEAD,      /* reaped */
};

/* Observable scheduler state of one task, for timelines. */
struct sm_view {
	int prio;             /* 0..139, 140 = idle */
	int static_prio;
	long sleep_avg;       /* jiffies; -1 if the policy has none */
	long credit;          /* interactive_credit; -1 if none */
	long time_slice;      /* jiffies */
	int array;            /* enum sm_array */
	int state;            /* enum sm_state */
	bool on_cpu;          /* it is rq->curr */
	bool interactive;     /* TASK_INTERACTIVE(p) now (false for RT) */
	bool first_time_slice;
	int activated;        /* O10 flag; -1 if the policy has none */
	unsigned long last_run; /* jiffies */
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
			   active, granularity requeue, RR) */
	SM_CH_EXIT,     /* became a zombie; again when switched out */
	SM_CH_REAP,     /* removed; sched_exit refunds applied */
	SM_CH_STATE,    /* any other change of prio/sleep_avg/credit/slice */
	SM_CH_TICK,     /* scheduler_tick charge: slice and sleep_avg -1 */
	SM_CH_RECALC,   /* O10 pick-time recalc_task_prio (activated) */
	SM_CH_CHARGE,   /* O10 schedule() charge: sleep_avg -1, full slice */
	SM_CH_SWAP,     /* array swap in schedule(): expired became active */
	SM_CH_YIELD,    /* sched_yield moved it */
	SM_CH_NICE,     /* set_user_nice */
	SM_CH_SETSCHED, /* setscheduler */
	SM_CH_REFUND,   /* parent's slice/sleep_avg changed by sched_exit */
	SM_CH_MIGRATE,  /* moved to another runqueue (migrate) */
	SM_CH__COUNT
};

/* Name of a change reason ("tick", "expire", ...), for timelines. */
const char *sm_change_name(enum sm_change why);

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
	/* rq->curr forks; returns the child, queued unless STOPPED (NULL if
	   out of memory).  As in the kernel the child inherits the parent's
	   nice and policy; child->id and has_mm are taken from the info.
	   VFORK blocks the parent (as block()); wake it when released. */
	struct sm_task *(*fork)(struct sm_rq *rq, struct sm_task *parent,
				const struct sm_task_info *child,
				unsigned flags);
	/* t sleeping or stopped (else ignored, as the kernel's wake mask):
	   enqueue on rq, which becomes t's runqueue */
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

	/* pull_task: move a queued, not running task t from src to the tail
	   of dst's active array; sets dst->need_resched if t's prio is
	   strictly higher than dst's current (idle always).  May be NULL. */
	void (*migrate)(struct sm_rq *src, struct sm_rq *dst,
			struct sm_task *t);
	unsigned long max_sleep_avg; /* MAX_SLEEP_AVG, jiffies (plot scales) */
	bool has_credit;             /* view.credit is meaningful */
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
