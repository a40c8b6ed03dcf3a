/*
 * o1: the shared core of the O(1) scheduler family (Linux 2.6.0-test2 and
 * its -mm/O-int descendants): the constants, the per-task and per-runqueue
 * state, the priority arrays (140 FIFO lists, a bitmap and nr_active), and
 * every kernel function the three policies have in common.  Each policy
 * file (stock.c, test2-mm1.c, o11int.c) holds only what differs, as hooks
 * in a struct o1_rules.
 *
 * Names follow kernel/sched.c so the code can be held against the rules
 * of docs/models.md ("The O(1) rules") line by line: all scheduler
 * quantities are integer jiffies at HZ = 1000, unsigned where the kernel's
 * were, and every division is a C integer division written in the
 * kernel's order.  Nothing here is copied from the kernel; it is written
 * from those rules.
 */
#ifndef SM_O1_H
#define SM_O1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched-model/knobs.h"
#include "sched-model/policy.h"

#define HZ SM_HZ

/* Priorities (docs/models.md, "Constants"). */
#define MAX_USER_RT_PRIO	100
#define MAX_RT_PRIO		MAX_USER_RT_PRIO
#define MAX_PRIO		(MAX_RT_PRIO + 40)
#define MAX_USER_PRIO		(MAX_PRIO - MAX_RT_PRIO)	/* 40 */
#define NICE_TO_PRIO(nice)	(MAX_RT_PRIO + (nice) + 20)
#define PRIO_TO_NICE(prio)	((prio) - MAX_RT_PRIO - 20)
#define TASK_NICE(p)		PRIO_TO_NICE((p)->static_prio)
#define USER_PRIO(p)		((p) - MAX_RT_PRIO)
#define IDLE_PRIO		MAX_PRIO	/* the idle task's prio */

/* Tunables common to the family: the defaults, under names that survive
   o1-tunables.h, then the kernel's names for them. */
#define MIN_TIMESLICE_DEFAULT	(10 * HZ / 1000)
#define MAX_TIMESLICE_DEFAULT	(200 * HZ / 1000)
#define PARENT_PENALTY_DEFAULT	100
#define EXIT_WEIGHT_DEFAULT	3
#define MIN_TIMESLICE		MIN_TIMESLICE_DEFAULT
#define MAX_TIMESLICE		MAX_TIMESLICE_DEFAULT
#define PARENT_PENALTY		PARENT_PENALTY_DEFAULT
#define EXIT_WEIGHT		EXIT_WEIGHT_DEFAULT
#define PRIO_BONUS_RATIO	25
#define INTERACTIVE_DELTA	2
/* Stock has no MAX_BONUS macro; its effective_prio implies the same 10. */
#define MAX_BONUS		(MAX_USER_PRIO * PRIO_BONUS_RATIO / 100)

/* AVG_TIMESLICE of any MIN/MAX_TIMESLICE (a tuning moves it) */
#define O1_AVG_TIMESLICE(min, max) ((min) + (((max) - (min)) * \
			(MAX_PRIO - 1 - NICE_TO_PRIO(0)) / (MAX_USER_PRIO - 1)))

/* test2-mm1 and O11int (docs/models.md, "Constants", column B). */
#define AVG_TIMESLICE_DEFAULT	O1_AVG_TIMESLICE(MIN_TIMESLICE_DEFAULT, \
						 MAX_TIMESLICE_DEFAULT)
#define AVG_TIMESLICE		AVG_TIMESLICE_DEFAULT
#define MM1_TIMESLICE_GRANULARITY (HZ / 40)
#define TIMESLICE_GRANULARITY	MM1_TIMESLICE_GRANULARITY

/* Per-policy values (docs/models.md, "Constants": stock and B). */
#define STOCK_MAX_SLEEP_AVG		(10 * HZ)
#define STOCK_STARVATION_LIMIT		(10 * HZ)
#define STOCK_CHILD_PENALTY		50
#define MM1_MAX_SLEEP_AVG		(AVG_TIMESLICE_DEFAULT * MAX_BONUS)
#define MM1_STARVATION_LIMIT		(MM1_MAX_SLEEP_AVG)
#define MM1_CHILD_PENALTY		90
/* Ingo Molnar's sched-2.6.0-test1-G3 (its diff; docs/models.md, "O11.1,
   O11.2, G3 and A3") and
   A3 as in 2.6.0-test2-mm2 (the '-' lines of O12.2int against test2-mm3):
   sleep_avg in nanoseconds of sched_clock() */
#define NSEC_PER_JIFFY			(1000000000UL / HZ)
#define G3_MAX_SLEEP_AVG		(2 * 1000000000L)
#define G3_STARVATION_LIMIT		(10 * HZ)
#define G3_TIMESLICE_GRANULARITY	(HZ / 20)
#define A3_MAX_SLEEP_AVG		(1 * 1000000000L)
#define A3_STARVATION_LIMIT		HZ
#define A3_TIMESLICE_GRANULARITY	(HZ / 40)
#define A3_ON_RUNQUEUE_WEIGHT		30
#define A3_CHILD_PENALTY		95

/* SCALE(v1, v1_max, v2_max) and DELTA(p): nice*10/40 + 2, C truncation. */
#define SCALE(v1, v1_max, v2_max)	((v1) * (v2_max) / (v1_max))
#define DELTA(p) \
	(SCALE(TASK_NICE(p), 40, MAX_USER_PRIO * PRIO_BONUS_RATIO / 100) + \
	 INTERACTIVE_DELTA)
#define TASK_INTERACTIVE(p)	((p)->prio <= (p)->static_prio - DELTA(p))

#define rt_task(p)		((p)->prio < MAX_RT_PRIO)
#define task_mm(p)		((p)->base.info.has_mm)	/* p->mm != NULL */

/* p->state, as the kernel's TASK_* (S and D are credited alike). */
enum o1_state {
	TASK_RUNNING = SM_STATE_RUNNABLE,
	TASK_SLEEPING = SM_STATE_SLEEPING,
	TASK_STOPPED = SM_STATE_STOPPED,
	TASK_ZOMBIE = SM_STATE_ZOMBIE,
	TASK_DEAD = SM_STATE_DEAD,
};

/* A list_head of our own: circular, doubly linked, with a head node. */
struct o1_list {
	struct o1_list *next, *prev;
};

#define BITMAP_BITS	(MAX_PRIO + 1)	/* bit MAX_PRIO: the delimiter */
#define BITMAP_WORDS	((BITMAP_BITS + 63) / 64)

struct prio_array {
	unsigned int nr_active;
	uint64_t bitmap[BITMAP_WORDS];
	struct o1_list queue[MAX_PRIO];
};

struct o1_rq;

struct o1_task {
	struct sm_task base;		/* info, on_cpu */
	struct o1_rq *rq;		/* its runqueue (task_cpu) */
	struct o1_list run_list;	/* position in array->queue[prio] */
	struct prio_array *array;	/* NULL: not queued */
	int state;			/* enum o1_state */

	int policy;			/* enum sm_sched_class */
	unsigned long rt_priority;
	int prio, static_prio;
	unsigned long sleep_avg;	/* jiffies */
	unsigned long last_run;		/* jiffies */
	unsigned int time_slice, first_time_slice;
	int activated;			/* O10: woken, recalc at pick; A3: 2
					   after a wakeup from interrupt */
	unsigned long interactive_credit; /* O11 */
	unsigned long long timestamp;	/* G3, A3: sched_clock() ns of the
					   last wakeup or switch */
	bool iso, isoref;		/* SCHED_ISO (iso.c): the class, and
					   PF_ISOREF (its quota used up) */
	/* for why_waiting (not the kernel's): how it came to its place in
	   its queue, what its wakeup's preemption test said, and whether
	   O11int's credit rule kept it in the active array at its last
	   expiry */
	uint8_t entry;			/* enum o1_entry */
	uint8_t wake_sub;		/* enum sm_why_sub */
	bool credit_kept;

	struct sm_reported reported;	/* last view sent to the observer */
};

/* How a task came to its place in its queue (o1_note sets it from the
   event; a policy's hook says more with o1_note_entry). */
enum o1_entry {
	O1_IN_WAKE,		/* woken, forked, new */
	O1_IN_PREEMPT,		/* switched out, kept its place */
	O1_IN_REQUEUE,		/* to the tail of active at its expiry
				   (interactive), RR, ISO round robin */
	O1_IN_GRAN,		/* TIMESLICE_GRANULARITY requeue */
	O1_IN_EXPIRE,		/* to the expired array at its expiry */
	O1_IN_STARVING,		/* to expired although interactive:
				   EXPIRED_STARVING */
	O1_IN_CREDIT,		/* kept active at expiry by its credit */
	O1_IN_YIELD,
	O1_IN_PULL,		/* pulled by the balancer */
	O1_IN_RAN,		/* picked: at its place since before it ran
				   (a switch-out then keeps it: PREEMPT) */
};

struct o1_rq {
	struct sm_rq base;		/* policy, cpu, jiffies, need_resched,
					   curr, obs */
	const struct o1_rules *rules;
	unsigned long nr_running;	/* queued tasks, current included */
	unsigned long expired_timestamp;
	struct prio_array *active, *expired, arrays[2];
	unsigned long iso_ticks;	/* SCHED_ISO: the decaying RT share */
	bool iso_refractory;
};

/*
 * The tunables of one policy run, under the kernel's names (o1-tunables.h
 * spells them so): the policy's defaults, or a tuning (--set).
 */
struct o1_consts {
	long max_sleep_avg;		/* MAX_SLEEP_AVG: jiffies, or ns
					   when sleep_avg_ns */
	long starvation_limit;		/* STARVATION_LIMIT, jiffies */
	long min_timeslice;		/* MIN_TIMESLICE, jiffies */
	long max_timeslice;		/* MAX_TIMESLICE, jiffies */
	long timeslice_granularity;	/* TIMESLICE_GRANULARITY, jiffies */
	long child_penalty;		/* CHILD_PENALTY, % */
	long parent_penalty;		/* PARENT_PENALTY, % */
	long exit_weight;		/* EXIT_WEIGHT */
	long on_runqueue_weight;	/* ON_RUNQUEUE_WEIGHT, % (A3) */
	long cache_decay_ticks;		/* SMP: the balancer's (smp.h) */
	long iso_cpu;			/* SCHED_ISO: iso_cpu, % */
	long iso_period;		/* SCHED_ISO: iso_period, s */
	unsigned long sleep_avg_bound;	/* largest sleep_avg reachable, for
					   check(): O11's uncapped JIS */
};

/*
 * What a policy supplies.  Hooks left NULL mean "stock behaviour" or, for
 * the B-only hooks, "no such step".
 */
struct o1_rules {
	const struct sm_policy *policy;
	struct o1_consts k;
	bool has_credit, has_activated;
	/* G3, A3: sleep_avg and timestamp in ns of sched_clock(); no
	   per-tick sleep_avg decay; bonus from sleep_avg/1024 */
	bool sleep_avg_ns;

	/* activate_task(): non-sync wakeup; sleep credit, then enqueue;
	   irq: woken from interrupt context (A3) */
	void (*activate_task)(struct o1_rq *rq, struct o1_task *p, bool irq);
	/* wakeup preemption test against rq->curr (curr non-NULL) */
	bool (*preempts_curr)(const struct o1_rq *rq, const struct o1_task *p);
	/* SMP: pull_task's test against the local CPU's curr (NULL: the
	   stock rule, kept by test2-mm1: docs/models.md, "From stock to
	   test2-mm1" 9; G3 and A3 use their
	   TASK_PREEMPTS_CURR) */
	bool (*pull_preempts)(const struct o1_rq *rq, const struct o1_task *p);
	/* wake_up_forked_process(): sleep_avg penalties, child prio,
	   last_run, credit; placement is common */
	void (*forked_process)(struct o1_rq *rq, struct o1_task *parent,
			       struct o1_task *child);
	/* scheduler_tick(), slice used up: called after the common dequeue,
	   need_resched, effective_prio and refill; enqueues p */
	void (*slice_expired)(struct o1_rq *rq, struct o1_task *p);
	/* scheduler_tick(), slice not used up (B: granularity requeue) */
	void (*slice_continues)(struct o1_rq *rq, struct o1_task *p);
	/* schedule(), on prev before it may be deactivated (B: O10 charge) */
	void (*schedule_prev)(struct o1_rq *rq, struct o1_task *prev);
	/* schedule(), on the picked task (B: activated -> recalc) */
	void (*schedule_next)(struct o1_rq *rq, struct o1_task *next);
	/* schedule(), after the pick, before the switch; prev or next may
	   be NULL (idle) (G3, A3: run_time charge, timestamps) */
	void (*schedule_switch)(struct o1_rq *rq, struct o1_task *prev,
				struct o1_task *next);
	/* B: recalc_task_prio(), used by activate_task and schedule_next */
	void (*recalc_task_prio)(struct o1_rq *rq, struct o1_task *p);
	/* sched_exit(): the parent's sleep_avg after reaping a child (NULL:
	   (EXIT_WEIGHT * parent + child) / (EXIT_WEIGHT + 1) if lower) */
	void (*exit_sleep_avg)(struct o1_rq *rq, struct o1_task *parent,
			       const struct o1_task *child);
	/* EXPIRED_STARVING(rq) (NULL: the limit times nr_running, + 1) */
	bool (*expired_starving)(const struct o1_rq *rq);
	/* SCHED_ISO (iso.c): after a class change sets p's policy fields
	   (may make an RT request the policy's own class); effective_prio's
	   answer for p if it has one; scheduler_tick's first look at the
	   running p (true: the tick is done) */
	void (*policy_set)(struct o1_task *p);
	bool (*prio_override)(const struct o1_task *p, int *prio);
	bool (*tick_task)(struct o1_rq *rq, struct o1_task *p);
	/* k.sleep_avg_bound of a tuning (NULL: MAX_SLEEP_AVG) */
	unsigned long (*sleep_avg_bound)(const struct o1_consts *k);
};

/*
 * The knobs (sched-model/knobs.h) of the O(1) family: one row each, the
 * policy's default and what it follows; a policy's table picks the rows
 * it has.  Ranges: jiffies up to 1000 s; MAX_SLEEP_AVG in ns (G3, A3) from
 * 1024 (effective_prio divides it by 1024) to 100 s.
 */
#define O1_KNOB(name, unit, def, min, max, field, derived, what) \
	{ name, unit, def, min, max, offsetof(struct o1_consts, field), \
	  derived, what }
#define O1_KNOB_MAX_SLEEP_AVG(def, derived) \
	O1_KNOB("MAX_SLEEP_AVG", "jiffies", def, 1, 1000000, max_sleep_avg, \
		derived, "sleep_avg's ceiling; a bonus level is a tenth of it")
#define O1_KNOB_MAX_SLEEP_AVG_NS(def) \
	O1_KNOB("MAX_SLEEP_AVG", "ns", def, 1024, 100000000000L, \
		max_sleep_avg, NULL, \
		"sleep_avg's ceiling; a bonus level is a tenth of it")
#define O1_KNOB_STARVATION_LIMIT(def, derived, what) \
	O1_KNOB("STARVATION_LIMIT", "jiffies", def, 0, 1000000, \
		starvation_limit, derived, what)
#define O1_KNOB_TIMESLICES \
	O1_KNOB("MIN_TIMESLICE", "jiffies", MIN_TIMESLICE_DEFAULT, 1, 1000, \
		min_timeslice, NULL, "the slice of nice 19"), \
	O1_KNOB("MAX_TIMESLICE", "jiffies", MAX_TIMESLICE_DEFAULT, 1, 1000, \
		max_timeslice, NULL, "the slice of nice -20 (nice 0: " \
		"MIN + (MAX - MIN) * 19 / 39)")
#define O1_KNOB_GRANULARITY(def, what) \
	O1_KNOB("TIMESLICE_GRANULARITY", "jiffies", def, 1, 1000, \
		timeslice_granularity, NULL, what)
#define O1_KNOB_CHILD_PENALTY(def) \
	O1_KNOB("CHILD_PENALTY", "%", def, 0, 100, child_penalty, NULL, \
		"the share of its sleep_avg a fork child keeps")
#define O1_KNOB_PARENT_EXIT \
	O1_KNOB("PARENT_PENALTY", "%", PARENT_PENALTY_DEFAULT, 0, 100, \
		parent_penalty, NULL, \
		"the share of its sleep_avg a forking parent keeps"), \
	O1_KNOB("EXIT_WEIGHT", "", EXIT_WEIGHT_DEFAULT, 0, 100, exit_weight, \
		NULL, "sched_exit: the parent's weight against a hungrier " \
		"child's sleep_avg")

/* SMP: the idle balance leaves a task this recently run (jiffies; G3's
   and A3's smpboot.c give it in ms, compared with ns >> 10) */
#define O1_KNOB_CACHE_DECAY(unit) \
	O1_KNOB("cache_decay_ticks", unit, 10, 0, 100000, cache_decay_ticks, \
		NULL, "SMP: an idle CPU does not pull a task that ran this " \
		"recently (default: --cache-decay, or 10)")

/* test2-mm1's knobs, also O11int's, O11.1's and O11.2's */
extern const struct sm_knob o1_mm1_knobs[];
/* test2-mm1's derived knobs: MAX_SLEEP_AVG = AVG_TIMESLICE * MAX_BONUS,
   STARVATION_LIMIT = MAX_SLEEP_AVG. */
void o1_derive_mm1(struct sm_tuning *t);
/* MIN_TIMESLICE <= MAX_TIMESLICE */
int o1_knob_check(const struct sm_tuning *t, char *why, size_t len);
/* sched_init: s->priv = a copy of `base` with the tuning's values */
int o1_sched_init(struct sm_sched *s, const struct o1_rules *base);

/* A policy's rq_new and sched_init over its rules: PREFIX_rq_new,
   PREFIX_sched_init. */
#define O1_POLICY_GLUE(prefix, rules) \
static struct sm_rq *prefix##_rq_new(struct sm_sched *s, int cpu, \
				     unsigned long j, \
				     const struct sm_observer *obs) \
{ \
	return o1_rq_new(s ? (const struct o1_rules *)s->priv : &(rules), \
			 cpu, j, obs); \
} \
static int prefix##_sched_init(struct sm_sched *s) \
{ \
	return o1_sched_init(s, &(rules)); \
}

/* The constants no O(1) policy changed, then the policy's own */
#define O1_CONSTS(...) { \
	.min_timeslice = MIN_TIMESLICE_DEFAULT, \
	.max_timeslice = MAX_TIMESLICE_DEFAULT, \
	.parent_penalty = PARENT_PENALTY_DEFAULT, \
	.exit_weight = EXIT_WEIGHT_DEFAULT, \
	__VA_ARGS__ \
}

/* test2-mm1's tunables, which O11int and its successors keep, then the
   bound on sleep_avg (.sleep_avg_bound = ...) and any other constant */
#define MM1_CONSTS(...) O1_CONSTS( \
	.max_sleep_avg = MM1_MAX_SLEEP_AVG, \
	.starvation_limit = MM1_STARVATION_LIMIT, \
	.timeslice_granularity = MM1_TIMESLICE_GRANULARITY, \
	.child_penalty = MM1_CHILD_PENALTY, \
	__VA_ARGS__)

/* test2-mm1's knobs (the rows of o1_mm1_knobs, which iso extends) */
#define O1_MM1_KNOBS \
	O1_KNOB_MAX_SLEEP_AVG(MM1_MAX_SLEEP_AVG, "AVG_TIMESLICE * MAX_BONUS"), \
	O1_KNOB_STARVATION_LIMIT(MM1_STARVATION_LIMIT, "MAX_SLEEP_AVG", \
		"an expired task waits at most this times nr_running (+1); " \
		"0: no limit"), \
	O1_KNOB_TIMESLICES, \
	O1_KNOB_GRANULARITY(MM1_TIMESLICE_GRANULARITY, \
		"the mid-slice round-robin: every this much of the slice"), \
	O1_KNOB_CHILD_PENALTY(MM1_CHILD_PENALTY), \
	O1_KNOB_PARENT_EXIT, \
	O1_KNOB_CACHE_DECAY("jiffies")

/*
 * The rules G3 and A3 share: POLICY, then the constants (.k =
 * O1_CONSTS(...)) and the rules of the policy's own (activate_task,
 * slice_expired, slice_continues, schedule_next, ...).
 */
#define G3_RULES(pol, ...) { \
	.policy = (pol), \
	.has_credit = false, \
	.has_activated = true, \
	.sleep_avg_ns = true, \
	.preempts_curr = o1_task_preempts_curr, \
	.pull_preempts = o1_task_preempts_curr, \
	.forked_process = g3_forked_process, \
	.schedule_switch = g3_schedule_switch, \
	.exit_sleep_avg = g3_exit_sleep_avg, \
	__VA_ARGS__ \
}

/* O11int's: sleep_avg bounded by JUST_INTERACTIVE_SLEEP of nice -20, never
   capped */
#define O11_CONSTS(...) \
	MM1_CONSTS(.sleep_avg_bound = MM1_MAX_SLEEP_AVG + \
		   3 * AVG_TIMESLICE_DEFAULT, __VA_ARGS__)

/*
 * The rules of O11int and the policies built on it (O11.1, O11.2, iso):
 * POLICY, what a used-up slice does (slice_expired), then the constants
 * (.k = O11_CONSTS(...)) and any rule of the policy's own.
 */
#define O11_RULES(pol, expired, ...) { \
	.policy = (pol), \
	.has_credit = true, \
	.has_activated = true, \
	.activate_task = o11_activate_task, \
	.preempts_curr = o1_task_preempts_curr, \
	.forked_process = o11_forked_process, \
	.slice_expired = (expired), \
	.slice_continues = o11_slice_continues, \
	.schedule_prev = o10_schedule_charge, \
	.schedule_next = o10_schedule_recalc, \
	.recalc_task_prio = o11_recalc_task_prio, \
	.sleep_avg_bound = o11_sleep_avg_bound, \
	__VA_ARGS__ \
}

/* The sm_policy rows of test2-mm1's family after their names: PREFIX's
   glue (O1_POLICY_GLUE), the entry points, test2-mm1's derived knobs and
   MAX_SLEEP_AVG. */
#define O1_MM1_POLICY(prefix) \
	.rq_new = prefix##_rq_new, \
	O1_POLICY_OPS, \
	.sched_init = prefix##_sched_init, \
	.knob_derive = o1_derive_mm1, \
	.max_sleep_avg = MM1_MAX_SLEEP_AVG

/* ---- priority arrays (runqueue primitives) ---- */
void dequeue_task(struct o1_task *p, struct prio_array *array);
void enqueue_task(struct o1_task *p, struct prio_array *array);
void enqueue_head_task(struct o1_task *p, struct prio_array *array);
/* list_add_tail(&p->run_list, &at->run_list): p just before `at` */
void enqueue_before(struct o1_task *p, struct o1_task *at);
/* move p to the tail of its current list (yield of RT, RR) */
void requeue_task_tail(struct o1_task *p);
int sched_find_first_bit(const uint64_t *bitmap);

/* ---- shared kernel functions ---- */
unsigned int task_timeslice(const struct o1_task *p);
int effective_prio(const struct o1_task *p);
bool expired_starving(const struct o1_rq *rq);
void __activate_task(struct o1_rq *rq, struct o1_task *p);
void deactivate_task(struct o1_rq *rq, struct o1_task *p);
void resched_curr(struct o1_rq *rq);
int curr_prio(const struct o1_rq *rq);	/* IDLE_PRIO when idle */
unsigned long long sched_clock_of(const struct o1_rq *rq);	/* ns */
void o1_tick_task(struct o1_rq *rq, struct o1_task *p);

/* Building blocks more than one policy uses. */
bool o1_prio_preempts(const struct o1_rq *rq, const struct o1_task *p);
bool o1_task_preempts_curr(const struct o1_rq *rq, const struct o1_task *p);
bool o1_task_hot(const struct sm_rq *rq, const struct sm_task *t,
		 unsigned long cache_decay_ticks);
void o1_expire_plain(struct o1_rq *rq, struct o1_task *p);
void o1_granularity_requeue(struct o1_rq *rq, struct o1_task *p,
			    bool new_prio);
/* a recalc_task_prio at a time (G3's form; O10's ignores it) */
typedef void (*o1_recalc_fn)(struct o1_rq *rq, struct o1_task *p,
			     unsigned long long now);
void o1_pick_recalc(struct o1_rq *rq, struct o1_task *next,
		    o1_recalc_fn recalc, unsigned long long now);
/* the O10 pieces test2-mm1 introduced and O11int keeps (test2-mm1.c) */
void o10_schedule_charge(struct o1_rq *rq, struct o1_task *prev);
void o10_schedule_recalc(struct o1_rq *rq, struct o1_task *next);
void o10_forked_sleep_avg(struct o1_rq *rq, struct o1_task *parent,
			  struct o1_task *child);
bool o10_granularity_due(const struct o1_rq *rq, const struct o1_task *p);
/* O11int's pieces O11.1 and O11.2 keep (o11int.c) */
void o11_recalc_task_prio(struct o1_rq *rq, struct o1_task *p);
void o11_activate_task(struct o1_rq *rq, struct o1_task *p, bool irq);
void o11_forked_process(struct o1_rq *rq, struct o1_task *parent,
			struct o1_task *child);
void o11_slice_continues(struct o1_rq *rq, struct o1_task *p);
void o11_slice_expired(struct o1_rq *rq, struct o1_task *p);
/* O11int's expiry with a task with credit and no sleep_avg left going to
   the head of expired (O11int) or its tail (O11.1) */
void o11_expire(struct o1_rq *rq, struct o1_task *p, bool head);
unsigned long o11_sleep_avg_bound(const struct o1_consts *k);
/* G3's pieces A3 keeps (g3.c) */
void g3_forked_process(struct o1_rq *rq, struct o1_task *parent,
		       struct o1_task *child);
void g3_exit_sleep_avg(struct o1_rq *rq, struct o1_task *parent,
		       const struct o1_task *child);
void g3_schedule_switch(struct o1_rq *rq, struct o1_task *prev,
			struct o1_task *next);
void g3_recalc_task_prio(struct o1_rq *rq, struct o1_task *p,
			 unsigned long long now);

/* ---- the observer ---- */
void o1_view(const struct o1_task *p, struct sm_view *v);
void o1_note(struct o1_task *p, enum sm_change why);
/* o1_note, and how p came to its place (an expiry or requeue the event
   alone does not tell: granularity, starvation, credit) */
void o1_note_entry(struct o1_task *p, enum sm_change why,
		   enum o1_entry entry);
/* An expiry to the expired array: EXPIRED_STARVING cancelled an
   interactive task's reinsertion, or not (o1_note_entry's entry). */
enum o1_entry o1_expired_entry(const struct o1_rq *rq, const struct o1_task *p);

/* ---- sm_policy entry points, shared by every O(1) policy ---- */
struct sm_rq *o1_rq_new(const struct o1_rules *rules, int cpu,
			unsigned long jiffies, const struct sm_observer *obs);
void o1_rq_free(struct sm_rq *rq);
struct sm_task *o1_task_new(struct sm_rq *rq, const struct sm_task_info *info);
struct sm_task *o1_fork(struct sm_rq *rq, struct sm_task *parent,
			const struct sm_task_info *child, unsigned flags);
void o1_wake(struct sm_rq *rq, struct sm_task *t, unsigned flags);
void o1_block(struct sm_rq *rq, struct sm_task *t);
void o1_exit(struct sm_rq *rq, struct sm_task *t);
void o1_reap(struct sm_rq *rq, struct sm_task *parent, struct sm_task *child);
void o1_tick(struct sm_rq *rq);
struct sm_task *o1_schedule(struct sm_rq *rq);
void o1_yield(struct sm_rq *rq, struct sm_task *t);
void o1_set_nice(struct sm_rq *rq, struct sm_task *t, int nice);
void o1_setscheduler(struct sm_rq *rq, struct sm_task *t, int policy,
		     int rt_priority);
void o1_view_sm(const struct sm_task *t, struct sm_view *v);
void o1_task_free(struct sm_rq *rq, struct sm_task *t);
int o1_check(const struct sm_rq *rq, char *why, size_t whylen);
void o1_migrate(struct sm_rq *src, struct sm_rq *dst, struct sm_task *t);
unsigned long o1_nr_running(const struct sm_rq *rq);
unsigned long o1_last_run(const struct sm_task *t);
void o1_balance_walk(struct sm_rq *rq, sm_walk_fn fn, void *ctx);
void o1_why_waiting(const struct sm_rq *rq, const struct sm_task *t,
		    struct sm_why *w);

/* The entry points of struct sm_policy, for a policy's table row. */
#define O1_POLICY_OPS \
	.rq_free = o1_rq_free, \
	.task_new = o1_task_new, \
	.fork = o1_fork, \
	.wake = o1_wake, \
	.block = o1_block, \
	.exit = o1_exit, \
	.reap = o1_reap, \
	.tick = o1_tick, \
	.schedule = o1_schedule, \
	.yield = o1_yield, \
	.set_nice = o1_set_nice, \
	.setscheduler = o1_setscheduler, \
	.view = o1_view_sm, \
	.task_free = o1_task_free, \
	.check = o1_check, \
	.migrate = o1_migrate, \
	.knob_check = o1_knob_check, \
	.nr_running = o1_nr_running, \
	.balance_walk = o1_balance_walk, \
	.last_run = o1_last_run, \
	.task_hot = o1_task_hot, \
	.why_waiting = o1_why_waiting

static inline struct o1_task *o1_task_of(struct sm_task *t)
{
	return (struct o1_task *)t;
}

static inline struct o1_rq *o1_rq_of(struct sm_rq *rq)
{
	return (struct o1_rq *)rq;
}

static inline struct o1_task *o1_curr(const struct o1_rq *rq)
{
	return (struct o1_task *)rq->base.curr;
}

static inline unsigned long jiffies_of(const struct o1_rq *rq)
{
	return rq->base.jiffies;
}

#endif
