/*
 * fair: what the two fair-class models (cfs.c: 2.6.23's CFS; eevdf.c:
 * 6.6's EEVDF) share: a per-CPU runqueue holding an RT class (SCHED_FIFO
 * and SCHED_RR by priority, above everything) and a fair class whose
 * queue is a set of entities ordered by the class's own keys; the core
 * schedule() (deactivate a sleeping prev, put it back, pick RT first, then
 * the fair class), wakeups and their preemption test, fork, exit, yield,
 * nice and class changes, the nice-to-weight tables and the kernel's
 * fixed-point weight arithmetic; the observer reports and the invariant
 * check.  What differs between the two comes in through struct
 * fair_class.  All times are integer ns of rq->clock; ticks are the
 * simulator's (HZ = 1000).
 *
 * Simplified, and said so in docs/models.md: no group scheduling (every
 * task is an entity of its CPU's root queue), no PELT load tracking, no
 * bandwidth control, no buddies (NEXT_BUDDY and LAST_BUDDY off, as their
 * defaults; 2.6.23 had none), no SCHED_BATCH or SCHED_IDLE; on several
 * CPUs a simplified balancer and wakeup placement (fair-balance.c).
 */
#ifndef SM_FAIR_H
#define SM_FAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched-model/knobs.h"
#include "sched-model/policy.h"

#define FAIR_MAX_RT_PRIO	100
#define FAIR_NICE_0_LOAD	1024UL
#define FAIR_NICE_TO_PRIO(n)	(120 + (n))

/* The nice-to-weight tables every fair scheduler since 2.6.23 uses, a
   row per nice level (static_prio - FAIR_MAX_RT_PRIO): the kernel's
   prio_to_weight[] (nice 0 = 1024, about 1.25x per nice level) and
   prio_to_wmult[] (2^32 / weight, as the kernel rounded it). */
struct fair_prio_weight {
	unsigned long weight;	/* prio_to_weight[] */
	uint32_t wmult;		/* prio_to_wmult[] */
};
extern const struct fair_prio_weight fair_prio_weights[40];

/* enqueue/dequeue flags */
#define FAIR_WAKEUP	1u	/* a wakeup (placement as a sleeper) */
#define FAIR_INITIAL	2u	/* a new task (fork) */
#define FAIR_MIGRATED	4u	/* arriving from another runqueue */
#define FAIR_RESTORE	8u	/* a change (nice, class): no placement */
#define FAIR_SLEEP	16u	/* dequeue: the task goes to sleep (it may
				   stay queued, delayed: DELAY_DEQUEUE) */

struct fair_rq;

/* How a class balances on several CPUs (fair-balance.c says what). */
struct fair_balance {
	int imbalance_pct;		/* 125 (2.6.23 SD_CPU), 117 (6.6 MC) */
	int busy_factor;		/* 64, 16 */
	bool interval_by_ncpus;		/* 6.6: min_interval = sd_weight */
	bool rt_moves;			/* 2.6.23: RT tasks move and weigh */
	bool per_task_cap;		/* 2.6.23: max_pull, fix_small_imbalance */
	bool count_when_idle;		/* 6.6: migrate_task onto an idle CPU */
	bool mru_order;			/* 6.6: the tail of cfs_tasks first;
					   2.6.23: the leftmost first */
	bool skip_by_half;		/* 2.6.23 skip_for_load */
	bool cache_hot;			/* 6.6 task_hot() by
					   sched_migration_cost_ns */
	unsigned cache_nice_tries;	/* 6.6: 1 */
	bool wake_idle;			/* 6.6: select_idle_sibling */
};

/* One task: its RT-class and fair-class state. */
struct fair_task {
	struct sm_task base;
	struct fair_rq *rq;
	int state;			/* enum sm_state */
	int policy;			/* SM_SCHED_* */
	int rt_priority;
	int static_prio, prio;		/* 120 + nice; RT: 99 - rt_priority */
	unsigned long last_run;		/* jiffies it last left the CPU */

	/* RT class */
	bool rt_queued;
	/* its place in the FIFO list of rq->rt_head[prio], linked through
	   the tasks (queueing allocates nothing, so it cannot fail) */
	struct fair_task *rt_prev, *rt_next;
	struct fair_rq *rt_rq;		/* the list it is on, and its prio */
	int rt_qprio;
	long time_slice;		/* SCHED_RR: jiffies left */

	/* fair class (struct sched_entity) */
	bool on_rq;			/* counted in the fair queue */
	size_t qpos;			/* in rq->q when not curr */
	uint64_t seq;			/* enqueue order: ties as the tree's */
	unsigned long weight;		/* load.weight (unscaled) */
	uint32_t inv_weight;		/* load.inv_weight */
	uint64_t vruntime;
	uint64_t deadline;		/* EEVDF */
	int64_t vlag;			/* EEVDF: lag, or the pick's deadline */
	uint64_t slice;			/* EEVDF: the request (ns) */
	uint64_t vprot;			/* EEVDF 6.17+: runs to here when
					   picked (protect_slice) */
	bool delayed;			/* EEVDF 6.12+: asleep, still queued
					   until eligible (sched_delayed) */
	bool rel_deadline;		/* EEVDF 6.12+: deadline kept relative
					   while off the queue, not asleep */
	uint64_t exec_start;
	uint64_t sum_exec_runtime, prev_sum_exec_runtime;
	uint64_t mru;			/* its last enqueue or pick (rq->seq) */

	struct sm_reported reported;
};

/* What a fair class supplies. */
struct fair_class {
	/* update_curr(): charge the running entity up to rq->clock */
	void (*update_curr)(struct fair_rq *rq);
	/* enqueue_entity / dequeue_entity (the core keeps the queue and
	   nr_running; these do the class's accounting and placement) */
	void (*enqueue)(struct fair_rq *rq, struct fair_task *p, unsigned fl);
	/* false: the entity stays queued, delayed (a FAIR_SLEEP dequeue
	   under DELAY_DEQUEUE); the core then keeps counting it */
	bool (*dequeue)(struct fair_rq *rq, struct fair_task *p, unsigned fl);
	/* a delayed entity woken in place (requeue_delayed_entity); NULL
	   for a class that never delays */
	void (*requeue)(struct fair_rq *rq, struct fair_task *p);
	/* pick_next_entity + set_next_entity: the entity to run (the
	   current one may be among them), made current; the previous
	   current, if another, goes back into the queue (put_prev) */
	struct fair_task *(*pick)(struct fair_rq *rq);
	/* put_prev_entity: the current entity, if any, leaves the CPU to
	   another class or to idle (back into the queue if still on it) */
	void (*put_prev)(struct fair_rq *rq);
	/* entity_tick for the running fair task */
	void (*tick)(struct fair_rq *rq, struct fair_task *curr);
	/* check_preempt_wakeup: a fair p woken while a fair task runs */
	bool (*wakeup_preempt)(struct fair_rq *rq, struct fair_task *p);
	/* task_fork / task_new: place the child before its enqueue; may
	   change the parent (2.6.23's child-runs-first swap) */
	void (*fork)(struct fair_rq *rq, struct fair_task *parent,
		     struct fair_task *child);
	/* yield_task */
	void (*yield)(struct fair_rq *rq, struct fair_task *p);
	/* the min_vruntime of the queue, for migration (2.6.23) */
	void (*migrate)(struct fair_rq *src, struct fair_rq *dst,
			struct fair_task *p);
	/* view.time_slice of a fair task (jiffies; -1 none); its own
	   state only */
	long (*view_slice)(const struct fair_task *p);
	/* why_waiting for a queued fair p while a fair task runs (the
	   class's terms: docs/models.md, "Why a task waits") */
	void (*why)(const struct fair_rq *rq, const struct fair_task *p,
		    struct sm_why *w);
	/* a sync wakeup checks preemption too (6.6: the hint only steers
	   placement); 2.6.23 does not check on the waker's CPU */
	bool sync_wake_preempts;
	/* EEVDF 6.17+: the lag is clamped to the queue's largest slice plus
	   a tick (6.6: twice the entity's slice, at least a tick); the
	   slice protection is a vruntime (vprot) set at the pick, and every
	   update of the running entity past it reschedules */
	bool eevdf_617;
	/* SMP (fair-balance.c) */
	const struct fair_balance *balance;
};

/* A class's tunables, by knob offset (long each). */
struct fair_consts {
	long sched_latency_ns;
	long sched_min_granularity_ns;
	long sched_wakeup_granularity_ns;
	long sched_child_runs_first;
	long new_fair_sleepers;		/* SCHED_FEAT_NEW_FAIR_SLEEPERS */
	long start_debit;		/* SCHED_FEAT_START_DEBIT */
	long wakeup_preempt;		/* SCHED_FEAT_WAKEUP_PREEMPT(ION) */
	long sched_base_slice_ns;	/* EEVDF */
	long run_to_parity;		/* EEVDF: SCHED_FEAT_RUN_TO_PARITY */
	long place_lag;			/* EEVDF: SCHED_FEAT_PLACE_LAG */
	long sched_rr_timeslice_ms;	/* RT class */
	long sched_migration_cost_ns;	/* EEVDF, SMP: task_hot() */
	long hz;			/* CONFIG_HZ; 0: the recording's */
	long delay_dequeue;		/* EEVDF 6.12+: DELAY_DEQUEUE */
	long delay_zero;		/* ... DELAY_ZERO */
	long place_deadline_initial;	/* ... PLACE_DEADLINE_INITIAL */
	long place_rel_deadline;	/* ... PLACE_REL_DEADLINE */
	/* not a knob: which of the tunables the kernel scales by the CPUs
	   it counts at boot were left at their defaults (FAIR_SCALE_*) */
	long scaled;
};

/*
 * The tunables the kernel scales by the CPUs it counts at boot
 * (sched_init_granularity, update_sysctl: 2.6.23 by 1 + ilog2(cpus),
 * capped at 100 ms; 6.x by 1 + ilog2(min(cpus, 8))).  A knob left at its
 * default (its normalized value) is scaled so; one set explicitly is
 * taken as given, as a sysctl written after boot is.
 */
#define FAIR_SCALE_LATENCY	1L	/* sched_latency_ns */
#define FAIR_SCALE_MIN_GRAN	2L	/* sched_min_granularity_ns */
#define FAIR_SCALE_WAKEUP_GRAN	4L	/* sched_wakeup_granularity_ns */
#define FAIR_SCALE_BASE_SLICE	8L	/* base_slice_ns */
#define FAIR_SCALE_ALL		15L
unsigned fair_ilog2(unsigned long x);
/* the value of knob v (flag: its FAIR_SCALE_* bit) on rq's machine */
uint64_t fair_scaled(const struct fair_rq *rq, long v, long flag);

/* the HZ knob: the tick's rate, read by the simulator */
#define FAIR_KNOB_HZ \
	FAIR_KNOB("HZ", "Hz", 0, 0, 1000, hz, \
		  "0: the recording's (its context, else the period of its " \
		  "tick preemptions, else 1000)", \
		  "the tick: slices end, balancing and RR slices count in " \
		  "its jiffies")

struct fair_rules {
	const struct sm_policy *policy;
	const struct fair_class *cls;
	/* how the kernel scales its tunables by the CPUs (fair_scaled) */
	bool scale_cap8;		/* 6.x: at most 8 CPUs count */
	uint64_t scale_limit_ns;	/* 2.6.23: 100 ms; 0 none */
	struct fair_consts k;
};

struct fair_rq {
	struct sm_rq base;
	const struct fair_rules *rules;
	unsigned long nr_running;	/* all classes, the running one too */
	/* RT class: a FIFO list per priority, linked through the tasks */
	struct fair_task *rt_head[FAIR_MAX_RT_PRIO], *rt_tail[FAIR_MAX_RT_PRIO];
	size_t nrt[FAIR_MAX_RT_PRIO];
	unsigned long rt_nr_running;
	/* fair class: the queued entities (curr excluded while it runs);
	   room for every task of the replay is made ahead (fair_reserve),
	   so queueing cannot run out of memory half-way */
	struct fair_task **q;
	size_t nq, capq;
	/* over q, kept as entities come and go (fair_q_add, fair_q_del,
	   a nice change): the sum of vruntime x weight (mod 2^64) and of
	   the weights, so EEVDF's avg_vruntime needs no walk of q */
	uint64_t q_vw, q_w;
	struct fair_task *curr_se;	/* cfs_rq->curr */
	unsigned long cfs_nr_running;	/* queued + curr if on_rq */
	unsigned long load_weight;	/* sum of their weights */
	uint32_t load_inv_weight;	/* 2.6.23: lazily (0 = stale) */
	uint64_t min_vruntime;
	uint64_t seq;
	unsigned long nr_delayed;	/* entities queued asleep (delayed) */
};

/* ---- arithmetic ---- */
/* 2.6.23 calc_delta_mine(delta, weight, lw) with lw = (lw_weight,
   *lw_inv); *lw_inv computed if 0 */
unsigned long fair_calc_delta_mine(unsigned long delta, unsigned long weight,
				   unsigned long lw_weight, uint32_t *lw_inv);
/* 6.6 __calc_delta(delta, NICE_0_LOAD, se->load) */
uint64_t fair_calc_delta_fair66(uint64_t delta, const struct fair_task *p);

/* ---- the queue (for the classes) ---- */
/* sm_policy.reserve: room for ntasks entities in rq's queue */
int fair_reserve(struct sm_rq *rq, size_t ntasks);
void fair_q_add(struct fair_rq *rq, struct fair_task *p);
void fair_q_del(struct fair_rq *rq, struct fair_task *p);
/* leftmost by vruntime (ties: first queued); NULL if empty */
struct fair_task *fair_q_first(const struct fair_rq *rq);
struct fair_task *fair_q_last(const struct fair_rq *rq);
/* put_prev_entity: the running entity, brought up to date (the class's
   update_curr), back into the tree if still queued; none running */
void fair_put_prev(struct fair_rq *rq);
/* a delayed entity the class dequeued at last (picked while asleep): it
   no longer counts in rq's nr_running */
void fair_delayed_gone(struct fair_rq *rq);
/* t asleep but still on its runqueue (delayed): a wake requeues it there
   (the simulator wakes it on that CPU) */
bool fair_still_queued(const struct sm_task *t);
/* set_next_entity: p out of the tree, running from now */
void fair_set_next(struct fair_rq *rq, struct fair_task *p);
/* a class's why: N tasks ahead for reason CODE, or none: the tick */
void fair_why_ahead(struct sm_why *w, enum sm_why_code code, int32_t n);
/* the fair class's clock and ticks */
static inline uint64_t fair_now(const struct fair_rq *rq)
{
	return rq->base.clock;
}
void fair_resched(struct fair_rq *rq);
void fair_note(struct fair_task *p, enum sm_change why);
bool fair_is_rt(const struct fair_task *p);

/* ---- sm_policy entry points shared by CFS and EEVDF ---- */
struct sm_rq *fair_rq_new(const struct fair_rules *rules, int cpu,
			  unsigned long jiffies, const struct sm_observer *obs);
void fair_rq_free(struct sm_rq *rq);
struct sm_task *fair_task_new(struct sm_rq *rq, const struct sm_task_info *in);
struct sm_task *fair_fork(struct sm_rq *rq, struct sm_task *parent,
			  const struct sm_task_info *child, unsigned flags);
void fair_wake(struct sm_rq *rq, struct sm_task *t, unsigned flags);
void fair_block(struct sm_rq *rq, struct sm_task *t);
void fair_exit(struct sm_rq *rq, struct sm_task *t);
void fair_reap(struct sm_rq *rq, struct sm_task *parent, struct sm_task *t);
void fair_tick(struct sm_rq *rq);
struct sm_task *fair_schedule(struct sm_rq *rq);
void fair_yield(struct sm_rq *rq, struct sm_task *t);
void fair_set_nice(struct sm_rq *rq, struct sm_task *t, int nice);
void fair_setscheduler(struct sm_rq *rq, struct sm_task *t, int policy,
		       int rt_priority);
void fair_view_sm(const struct sm_task *t, struct sm_view *v);
void fair_task_free(struct sm_rq *rq, struct sm_task *t);
int fair_check(const struct sm_rq *rq, char *why, size_t whylen);
void fair_migrate(struct sm_rq *src, struct sm_rq *dst, struct sm_task *t);
int fair_sched_init(struct sm_sched *s, const struct fair_rules *base);
/* SMP (fair-balance.c) */
extern const struct sm_balancer_ops fair_balancer_ops;
unsigned long fair_nr_running(const struct sm_rq *rq);
unsigned long fair_last_run(const struct sm_task *t);
void fair_balance_walk(struct sm_rq *rq, sm_walk_fn fn, void *ctx);
void fair_why_waiting(const struct sm_rq *rq, const struct sm_task *t,
		      struct sm_why *w);

#define FAIR_POLICY_OPS \
	.reserve = fair_reserve, \
	.rq_free = fair_rq_free, \
	.task_new = fair_task_new, \
	.fork = fair_fork, \
	.wake = fair_wake, \
	.block = fair_block, \
	.exit = fair_exit, \
	.reap = fair_reap, \
	.tick = fair_tick, \
	.schedule = fair_schedule, \
	.yield = fair_yield, \
	.set_nice = fair_set_nice, \
	.setscheduler = fair_setscheduler, \
	.view = fair_view_sm, \
	.task_free = fair_task_free, \
	.check = fair_check, \
	.migrate = fair_migrate, \
	.nr_running = fair_nr_running, \
	.balance_walk = fair_balance_walk, \
	.last_run = fair_last_run, \
	.balancer = &fair_balancer_ops, \
	.why_waiting = fair_why_waiting, \
	.why_at_tick = true, \
	.still_queued = fair_still_queued

#define FAIR_POLICY_GLUE(prefix, rules) \
static struct sm_rq *prefix##_rq_new(struct sm_sched *s, int cpu, \
				     unsigned long j, \
				     const struct sm_observer *obs) \
{ \
	return fair_rq_new(s ? (const struct fair_rules *)s->priv : &(rules), \
			   cpu, j, obs); \
} \
static int prefix##_sched_init(struct sm_sched *s) \
{ \
	return fair_sched_init(s, &(rules)); \
}

#define FAIR_KNOB(name, unit, def, min, max, field, derived, what) \
	{ name, unit, def, min, max, offsetof(struct fair_consts, field), \
	  derived, what }
/* A class's entry points, by the names each class file gives its own
   (update_curr, enqueue, dequeue, pick, tick, wakeup_preempt, fork_child,
   yield, why) */
#define FAIR_CLASS_OPS \
	.update_curr = update_curr, \
	.enqueue = enqueue, \
	.dequeue = dequeue, \
	.pick = pick, \
	.put_prev = fair_put_prev, \
	.tick = tick, \
	.wakeup_preempt = wakeup_preempt, \
	.fork = fork_child, \
	.yield = yield, \
	.why = why

/* SCHED_RR's slice, a knob of both fair policies */
#define FAIR_KNOB_RR_TIMESLICE(what) \
	FAIR_KNOB("sched_rr_timeslice_ms", "ms", 100, 1, 1000, \
		  sched_rr_timeslice_ms, NULL, what)

static inline struct fair_task *fair_task_of(struct sm_task *t)
{
	return (struct fair_task *)t;
}

static inline struct fair_rq *fair_rq_of(struct sm_rq *rq)
{
	return (struct fair_rq *)rq;
}

#endif
