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
 * Calls happen at rq->jiffies and rq->clock, which the simulator sets
 * with sm_rq_set_clock() (or sm_rq_set_jiffies(), the clock at the start
 * of the jiffy) before each call.  rq->clock is the kernel's
 * sched_clock(): nanoseconds, for the policies that keep time in them
 * (G3, A3); the others work in jiffies.  Policies never see trace lines
 * or files.  jiffies must be >= 1: 0 is the kernel's "unset" for
 * expired_timestamp and test2-mm1's "never ran" for last_run.
 *
 * The simulator's side of the contract (docs/models.md, "Conventions"):
 *  - block(), exit() and yield() of rq->curr, fork() without VFORK, and a
 *    wake() that preempts set rq->need_resched; the simulator then calls
 *    schedule() at once (on every CPU with need_resched, ascending),
 *    except at a tick instant, where the order is: bursts ending now
 *    (with their schedule()), every CPU's tick() and rebalance, the
 *    external wakeups due now in trace order, then schedule() on each CPU
 *    with need_resched, ascending (docs/models.md, "Conventions").
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

/*
 * A task group (the kernel's struct task_group: an autogroup, a cgroup of
 * the cpu controller): the fair classes share a CPU first between the
 * groups (and tasks) of the root, as entities weighing at most `shares`,
 * then within each group (docs/replay.md, "Task groups").  The replay
 * makes them (replay/taskgroups.h) and they live for the whole run; the
 * policies that do not schedule groups ignore them.
 */
struct sm_group {
	uint32_t id;                   /* 1, 2, ...: dense within a run */
	int depth;                     /* 1: a child of the root group */
	const struct sm_group *parent; /* NULL: the root's child */
	unsigned long shares;          /* tg->shares as a weight (1024: what
					  a nice-0 task weighs) */
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
	/* its address space: the process (tgid) its threads share; 0 =
	   not known (then its own); 2.4's same-mm bonus */
	int32_t mm;
	/* its task group; NULL: the root group (also fork's: the child's
	   group, which the caller gives) */
	const struct sm_group *group;
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

/*
 * What a task last told the observer.  sm_report tells rq's observer of
 * task t's view v after a change `why`, unless the change is passive
 * (sm_change_passive, or a policy's own: fair and 2.4 take the pick-time
 * recalc as one) and the view is as last reported: events (a wakeup, a
 * run, an expiry, ...) are always told.
 */
struct sm_rq;
struct sm_task;
struct sm_reported {
	struct sm_view v;
	bool once;
};
/* state, tick, charge, nice, setsched, refund */
bool sm_change_passive(enum sm_change why);
/* Every field of two views alike. */
bool sm_view_equal(const struct sm_view *a, const struct sm_view *b);

void sm_report(struct sm_rq *rq, struct sm_task *t, struct sm_reported *last,
	       enum sm_change why, bool passive, const struct sm_view *v);

struct sm_task;   /* a policy's per-task block starts with this */
struct sm_rq;     /* a policy's per-cpu runqueue starts with this */
struct sm_knob;   /* sched-model/knobs.h */
struct sm_tuning;
struct sm_sched;
struct sm_balancer_ops;

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

/*
 * schedule()'s load_balance(rq, idle = 1) when its queue is empty (SMP):
 * the simulator's balancer (sched-model/balance.h) sets it on every
 * runqueue; fn returns the number of tasks pulled onto rq.  Zero (fn
 * NULL): one CPU, no balancing.
 */
struct sm_idle_balance {
	int (*fn)(void *ctx, struct sm_rq *rq);
	void *ctx;
};

struct sm_rq {
	const struct sm_policy *policy;
	int cpu;
	unsigned long jiffies;
	uint64_t clock;       /* ns, sched_clock(); in jiffy `jiffies` */
	bool need_resched;    /* current must give way: call schedule() */
	struct sm_task *curr; /* NULL = idle */
	struct sm_observer obs;
	struct sm_idle_balance idle_balance; /* added for SMP (additive) */
	/* the machine the policy runs on, as the simulator sets it after
	   rq_new (sm_rq_init: SM_HZ and one CPU): the tick's rate, and the
	   CPUs the kernel counted at boot (the fair classes scale their
	   slices by it) */
	int hz;
	int ncpus;
};

/*
 * Why a queued task does not run (docs/models.md, "Why a task waits"):
 * the policy's answer in its own terms, which the simulator asks whenever
 * something changed on the task's CPU and turns into the segments of the
 * task's wait (replay/sim.h).  The first reasons name rules of the O(1)
 * family; 2.4, CFS and EEVDF answer with their own; other-cpu is the
 * simulator's (a CPU the task may use is idle and the balancer has not
 * moved it).  Names: sm_why_name().
 */
enum sm_why_code {
	SM_WHY_NONE,            /* not waiting (running, asleep) */
	SM_WHY_LOWER_PRIO,      /* a task of better priority runs */
	SM_WHY_SAME_PRIO_QUEUE, /* tasks of its priority are ahead in its
				   list (round robin, a fork child first) */
	SM_WHY_NO_PREEMPT,      /* as good or better than the running task,
				   but the wakeup's preemption rule did not
				   fire (stock's strict <, TASK_PREEMPTS_CURR's
				   2x time_slice, a sync wakeup), or fired
				   and the running task kept its list's head */
	SM_WHY_EXPIRED,         /* in the expired array: waits for the
				   array switch */
	SM_WHY_STARVING_SWITCH, /* interactive, but EXPIRED_STARVING sent it
				   to the expired array at its expiry */
	SM_WHY_GRANULARITY,     /* its TIMESLICE_GRANULARITY requeue put it
				   behind tasks of its priority */
	SM_WHY_CREDIT,          /* the running task stays in the active
				   array only by O11int's credit rule (kept
				   active at expiry by interactive_credit) */
	SM_WHY_TICK,            /* it is next, the switch waits for a
				   schedule point (the tick's preemption
				   check, need_resched pending) */
	SM_WHY_OTHER_CPU,       /* a CPU it may run on is idle; the balancer
				   has not moved it (sub: why) */
	SM_WHY_GOODNESS,        /* 2.4: the running task's goodness() is not
				   below its own */
	SM_WHY_COUNTER_OUT,     /* 2.4: its counter is 0: waits for every
				   runnable counter to run out (the epoch) */
	SM_WHY_VRUNTIME,        /* CFS: tasks with a smaller vruntime are
				   ahead */
	SM_WHY_NOT_ELIGIBLE,    /* EEVDF: its lag is negative (v > V) */
	SM_WHY_DEADLINE,        /* EEVDF: an eligible task has an earlier
				   virtual deadline */
	SM_WHY__COUNT
};

/* The rule behind a reason, where one says more (sm_why_sub_name()). */
enum sm_why_sub {
	SM_WHYSUB_NONE,
	SM_WHYSUB_STRICT,       /* no-preempt: stock's p->prio < curr->prio */
	SM_WHYSUB_SLICE2X,      /* no-preempt: TASK_PREEMPTS_CURR, equal prio
				   needs more than twice curr's time_slice */
	SM_WHYSUB_HEAD,         /* no-preempt: the rule fired, the running
				   task keeps the head of the list */
	SM_WHYSUB_SYNC,         /* no-preempt: a sync wakeup, no test */
	SM_WHYSUB_PULL,         /* no-preempt: pulled by the balancer
				   (pull_task's rule) */
	SM_WHYSUB_CACHE_HOT,    /* other-cpu: cache-hot for the idle balance */
	SM_WHYSUB_THRESHOLD,    /* other-cpu: its queue is not the one the
				   balancer takes from (not the busiest, or
				   within the imbalance threshold) */
	SM_WHYSUB_INTERVAL,     /* other-cpu: waits for the next balance */
	SM_WHYSUB__COUNT
};

struct sm_why {
	uint8_t code;         /* enum sm_why_code */
	uint8_t sub;          /* enum sm_why_sub */
	int32_t ahead;        /* tasks ahead of it (its list; the active
				   array for expired; tasks with a smaller
				   vruntime or earlier deadline), -1: not
				   said */
	int64_t value;        /* credit: the running task's
				   interactive_credit; other-cpu: the idle
				   CPU; -1: none */
};

/* "lower-prio", "same-prio-queue", ...; "-" for SM_WHY_NONE. */
const char *sm_why_name(int code);
/* SM_WHY_* of a name, -1 if unknown. */
int sm_why_find(const char *name);
/* "strict-prio", "2x-slice", ...; NULL for none. */
const char *sm_why_sub_name(int sub);
/* SM_WHYSUB_* of a name, -1 if unknown. */
int sm_why_sub_find(const char *name);
/* The detail column: "2x-slice,ahead=1", "credit=87", "idle=1", "-". */
char *sm_why_detail(char *buf, size_t len, const struct sm_why *w);
/* Back from the detail column into w (code set): 0, or -1 if it is not
 * one (a token neither a rule's name nor ahead=, credit=, idle=). */
int sm_why_parse_detail(const char *s, struct sm_why *w);

/* Wake flags. */
#define SM_WAKE_SYNC    1u  /* the waker is about to sleep (sync wakeup) */
#define SM_WAKE_IRQ     2u  /* woken from interrupt context (a timer or a
			       device, not a task): A3's in_interrupt() */

/*
 * load_balance's scan of a runqueue (docs/models.md, "The SMP balancer"):
 * fn gets each
 * queued task, the expired array first when it holds tasks, then the
 * active one; in each array from the best priority; in each list from the
 * tail (the most recently queued) toward the head.  fn returns false to
 * stop; it may migrate the task it was given (only that one).
 */
typedef bool (*sm_walk_fn)(void *ctx, struct sm_task *t);

/* Fork flags. */
#define SM_FORK_VFORK   1u  /* parent blocks: no parent resched */
#define SM_FORK_STOPPED 2u  /* child not enqueued until woken */

struct sm_policy {
	const char *name;        /* command-line name */
	const char *aliases[3];  /* other accepted names, NULL-terminated */
	const char *summary;     /* one line for `schedreplay policies` */
	/* how close to the kernel: "high" (every rule from kernel text that
	   was read), "medium" (some rules reconstructed from neighbouring
	   versions), "model" (a documented simplified model) */
	const char *confidence;
	const char *reconstructed; /* which parts, plainly; NULL: none */
	/* how it is drawn everywhere, plots, page and terminal
	   (compare/style.c): its colour ("#rrggbb") and gnuplot point
	   type, each its own among the policies (tests/compare/test-style) */
	const char *colour;
	int point;

	/* s: the configured policy (its tuning, the state its runqueues
	   share: sm_sched_new()); NULL: the defaults, for a lone rq */
	struct sm_rq *(*rq_new)(struct sm_sched *s, int cpu,
				unsigned long jiffies,
				const struct sm_observer *obs);
	void (*rq_free)(struct sm_rq *rq);
	/* Room for ntasks tasks in rq's queues (NULL: a policy whose queues
	   never allocate): the simulator calls it whenever its task count
	   grows, so that no later call (wake, migrate, ...) can run out of
	   memory half-way.  0, or -1 when out of memory. */
	int (*reserve)(struct sm_rq *rq, size_t ntasks);

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
	   enqueue on rq, which becomes t's runqueue; flags SM_WAKE_* */
	void (*wake)(struct sm_rq *rq, struct sm_task *t, unsigned flags);
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
	   of dst's active array (prio and time_slice kept); sets
	   dst->need_resched if t's prio is higher than dst's current's, or
	   equal with a larger time_slice (idle: always).  May be NULL. */
	void (*migrate)(struct sm_rq *src, struct sm_rq *dst,
			struct sm_task *t);
	unsigned long max_sleep_avg; /* MAX_SLEEP_AVG, jiffies (plot scales) */
	bool has_credit;             /* view.credit is meaningful */

	/* added with the tunings (additive; sched-model/knobs.h): */
	const struct sm_knob *knobs; /* name NULL ends it; NULL: none */
	/* the derived knobs not set explicitly (sm_tuning_derive) */
	void (*knob_derive)(struct sm_tuning *t);
	/* constraints between knobs: 0 ok, else writes why */
	int (*knob_check)(const struct sm_tuning *t, char *why, size_t len);
	/* build s->priv from s->tuning (may be NULL); sched_fini frees
	   it (NULL: sm_sched_free frees it as one block) */
	int (*sched_init)(struct sm_sched *s);
	void (*sched_fini)(struct sm_sched *s);

	/* added for SMP (additive; NULL: the policy runs on one CPU only).
	   The load balancer (sched-model/balance.h) needs these three and
	   migrate; schedule() calls rq->idle_balance when its queue is
	   empty, then picks again if something was pulled. */
	unsigned long (*nr_running)(const struct sm_rq *rq); /* current too */
	void (*balance_walk)(struct sm_rq *rq, sm_walk_fn fn, void *ctx);
	/* p->last_run in jiffies (cache-hotness) */
	unsigned long (*last_run)(const struct sm_task *t);
	/* CAN_MIGRATE_TASK's cache-hot test on the pulling CPU's rq (its
	   clock and jiffies); NULL: jiffies - last_run <= cache_decay_ticks */
	bool (*task_hot)(const struct sm_rq *rq, const struct sm_task *t,
			 unsigned long cache_decay_ticks);
	/* its own SMP balancing (sched-model/smp.h); NULL: the 2.6.0-test2
	   balancer over the four entries above */
	const struct sm_balancer_ops *balancer;

	/* added for the attribution of waits (additive; NULL: no reason
	   but the simulator's other-cpu).  t is queued on rq and not
	   running: why (enum sm_why_code), in the policy's terms; w is
	   zeroed with ahead and value -1 by the caller. */
	void (*why_waiting)(const struct sm_rq *rq, const struct sm_task *t,
			    struct sm_why *w);
	/* its answers move with the clock (counters, vruntimes): ask again
	   at every tick, not only when something on the CPU changed */
	bool why_at_tick;

	/* added for delayed dequeue (EEVDF 6.12+; NULL: never): t, asleep,
	   is still on its runqueue; a wake then requeues it there, on the
	   CPU it is on, whatever the wakeup placement would choose */
	bool (*still_queued)(const struct sm_task *t);
};

#define SM_NSEC_PER_JIFFY (1000000000ULL / SM_HZ)

/* TICK_NSEC at rq's HZ: (NSEC_PER_SEC + HZ/2) / HZ, the kernel's
   rounding. */
static inline uint64_t sm_tick_nsec(const struct sm_rq *rq)
{
	return (1000000000ULL + (uint64_t)rq->hz / 2) / (uint64_t)rq->hz;
}

/* msecs_to_jiffies(ms) at rq's HZ: rounded up. */
static inline unsigned long sm_msecs_to_jiffies(const struct sm_rq *rq,
						unsigned long ms)
{
	return (unsigned long)(((uint64_t)ms * (uint64_t)rq->hz + 999) / 1000);
}

/* The time of the next call: jiffy j, at ns (within that jiffy). */
static inline void sm_rq_set_clock(struct sm_rq *rq, unsigned long j,
				   uint64_t ns)
{
	rq->jiffies = j;
	rq->clock = ns;
}

/* The time of the next call: the start of jiffy j. */
static inline void sm_rq_set_jiffies(struct sm_rq *rq, unsigned long j)
{
	sm_rq_set_clock(rq, j, (uint64_t)j * SM_NSEC_PER_JIFFY);
}

/* A runqueue's common part: its policy, CPU, clock at jiffy j, observer
   (obs may be NULL). */
void sm_rq_init(struct sm_rq *rq, const struct sm_policy *policy, int cpu,
		unsigned long j, const struct sm_observer *obs);
/*
 * The state steps every policy takes alike (sched-model/policies.c): a
 * task blocks (runnable -> sleeping), exits (-> zombie), is reaped (->
 * dead, after what the policy gives back); its CPU is told to reschedule
 * if it runs there, the observer is told, and a task queued but not
 * running leaves its queue at once.  A family gives its own ways to do
 * the three.
 */
enum sm_step { SM_STEP_BLOCK, SM_STEP_EXIT, SM_STEP_REAP };
struct sm_step_ops {
	void (*resched)(struct sm_task *t);
	void (*note)(struct sm_task *t, enum sm_change why);
	/* off its queue now (and told WHY) if queued and not running */
	void (*leave)(struct sm_task *t, enum sm_change why);
};
/* *state is the task's enum sm_state; nothing if the step does not apply
   (block: not runnable; exit: exited already; reap: reaped already) */
void sm_task_step(struct sm_task *t, int *state, enum sm_step step,
		  const struct sm_step_ops *ops);

/* After a family's yield moved t in its queues: t's CPU is told to
   reschedule if t runs there, and the observer is told SM_CH_YIELD. */
void sm_task_yielded(struct sm_task *t, const struct sm_step_ops *ops);

/*
 * The end of a family's schedule() on rq, prev to next (either NULL:
 * idle): need_resched cleared; if they differ, prev leaves the CPU (the
 * observer told why, as the family's off op says: preempt, exit or
 * block) and next takes it (told SM_CH_RUN, after the on op, if any);
 * if not, prev is told SM_CH_STATE.  Returns rq->curr.
 */
struct sm_switch_ops {
	void (*note)(struct sm_task *t, enum sm_change why);
	/* prev is off the CPU: why (it may also record the time) */
	enum sm_change (*off)(struct sm_task *prev);
	/* next is on the CPU, not yet told: NULL, or what it records */
	void (*on)(struct sm_task *next);
};
struct sm_task *sm_rq_switch(struct sm_rq *rq, struct sm_task *prev,
			     struct sm_task *next,
			     const struct sm_switch_ops *ops);
/* Why a task left the CPU at a switch: still queued, SM_CH_PREEMPT; a
   zombie or dead, SM_CH_EXIT; else SM_CH_BLOCK. */
enum sm_change sm_switch_why(bool queued, int state);

/* A task freed (task_free) while it runs on rq: rq is left idle, to
   reschedule. */
void sm_rq_task_gone(struct sm_rq *rq, const struct sm_task *t);

/*
 * A family's ways for sm_task_step (PREFIX_steps) and its block and exit
 * entry points (PREFIX_block, PREFIX_exit; SCOPE: static, or empty),
 * from its task type T, OF (T * of a struct sm_task *), NOTE(T *, why)
 * (its observer call), RESCHED(its rq), QUEUED(T *) (on its queue) and
 * DEQUEUE(T *) (off it).  The leave is only for tasks that are queued but
 * not running, which the kernel never blocks; kept so a confused caller
 * cannot leave a sleeping task on a queue.
 */
#define SM_TASK_STEPS(scope, prefix, T, OF, NOTE, RESCHED, QUEUED, DEQUEUE) \
static void prefix##_step_resched(struct sm_task *t) \
{ \
	RESCHED(OF(t)->rq); \
} \
static void prefix##_step_note(struct sm_task *t, enum sm_change why) \
{ \
	NOTE(OF(t), why); \
} \
static void prefix##_step_leave(struct sm_task *t, enum sm_change why) \
{ \
	T *p = OF(t); \
	if (QUEUED(p) && !p->base.on_cpu) { \
		DEQUEUE(p); \
		NOTE(p, why); \
	} \
} \
static const struct sm_step_ops prefix##_steps = { \
	prefix##_step_resched, prefix##_step_note, prefix##_step_leave \
}; \
scope void prefix##_block(struct sm_rq *srq, struct sm_task *t) \
{ \
	(void)srq; \
	sm_task_step(t, &OF(t)->state, SM_STEP_BLOCK, &prefix##_steps); \
} \
scope void prefix##_exit(struct sm_rq *srq, struct sm_task *t) \
{ \
	(void)srq; \
	sm_task_step(t, &OF(t)->state, SM_STEP_EXIT, &prefix##_steps); \
}

/* sched_setscheduler's test: NORMAL with rt_priority 0, FIFO or RR with
   1..max_rt */
bool sm_policy_valid(int policy, int rt_priority, int max_rt);

/* The class a task starts in (task_new): in's policy and rt_priority if
   sm_policy_valid takes them, else SCHED_NORMAL and 0. */
void sm_task_class(const struct sm_task_info *in, int max_rt, int *policy,
		   int *rt_priority);

/* The table: NULL-terminated, in `schedreplay policies` order. */
extern const struct sm_policy *const sm_policies[];

/* By name or alias; NULL if unknown. */
const struct sm_policy *sm_policy_find(const char *name);
/* For a name sm_policy_find does not know: "; did you mean 'stock'?"
 * (the nearest names and aliases, lib/suggest.h) or "".  Returns buf. */
const char *sm_policy_hint(const char *name, char *buf, size_t len);

#endif
