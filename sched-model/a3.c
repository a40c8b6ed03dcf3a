/*
 * a3: Ingo Molnar's A3 as merged in 2.6.0-test2-mm2 (sched-2.6.0-test2-
 * mm2-A3.patch), G3's successor through G6.  Its text is known from the
 * '-' lines and context of Con Kolivas's O12.2int, a diff against
 * test2-mm3 (= mm2's A3 + SMP-only patches; docs/models.md, "O11.1,
 * O11.2, G3 and A3", names the message).  What changes from G3:
 *  - MAX_SLEEP_AVG = 1 s (G6: "sleep average interval to 1 second");
 *  - STARVATION_LIMIT = HZ and EXPIRED_STARVING without the nr_running
 *    factor (exact); expired_timestamp is set at every expiry, before
 *    the interactive test (G6's "fix starvation detection": the context
 *    of O12.2 shows the assignment right after the refill);
 *  - TIMESLICE_GRANULARITY = HZ/40, counted from the start of the slice
 *    ((task_timeslice - time_slice) % 25), no MIN_TIMESLICE test, every
 *    task, prio recomputed (exact);
 *  - ON_RUNQUEUE_WEIGHT 30: a task woken from interrupt context
 *    (activated = 2) is credited its whole wait on the runqueue at the
 *    pick, one woken by a task (activated = 1) 30% of it;
 *  - CHILD_PENALTY 95.
 * Reconstructed (not in the O12.2 text): activate_task's in_interrupt()
 * choice of 2 or 1 (its comment and `p->activated = 1` are context;
 * the form is 2.6.0's), the 30% as delta * (30 * 128 / 100) / 128 (the
 * 64-bit-division-free form 2.6.0 has: 38/128, not 30/100), and
 * schedule()'s run_time charge and stamps (G3's; 2.6.0 keeps them).
 */
#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"

extern const struct sm_policy sm_policy_a3;

/* activate_task: as G3, activated = 2 from interrupt context, else 1. */
static void activate_task(struct o1_rq *rq, struct o1_task *p, bool irq)
{
	unsigned long long now = sched_clock_of(rq);

	g3_recalc_task_prio(rq, p, now);
	p->activated = irq ? 2 : 1;
	p->timestamp = now;
	__activate_task(rq, p);
}

/* schedule(), the picked task: its wait on the runqueue since the
   wakeup, weighted down to ON_RUNQUEUE_WEIGHT % after a wakeup by a
   task. */
static void schedule_next(struct o1_rq *rq, struct o1_task *next)
{
	unsigned long long delta;

	if (!next->activated)
		return;
	delta = sched_clock_of(rq) - next->timestamp;
	if (next->activated == 1)
		delta = delta * (unsigned long long)(ON_RUNQUEUE_WEIGHT *
						     128 / 100) / 128;
	o1_pick_recalc(rq, next, g3_recalc_task_prio,
		       next->timestamp + delta);
}

/* EXPIRED_STARVING: one limit, whatever the queue's length. */
static bool a3_expired_starving(const struct o1_rq *rq)
{
	return STARVATION_LIMIT && rq->expired_timestamp &&
		jiffies - rq->expired_timestamp >=
			(unsigned long)STARVATION_LIMIT;
}

/* scheduler_tick(), slice used up: the timestamp first, then where. */
static void slice_expired(struct o1_rq *rq, struct o1_task *p)
{
	if (!rq->expired_timestamp)
		rq->expired_timestamp = jiffies;
	if (!TASK_INTERACTIVE(p) || expired_starving(rq)) {
		enum o1_entry e = o1_expired_entry(rq, p);

		enqueue_task(p, rq->expired);
		o1_note_entry(p, SM_CH_EXPIRE, e);
	} else {
		enqueue_task(p, rq->active);
		o1_note(p, SM_CH_REQUEUE);
	}
}

/* scheduler_tick(), slice not used up: every 25 ms of the slice. */
static void slice_continues(struct o1_rq *rq, struct o1_task *p)
{
	if (TIMESLICE_GRANULARITY &&
	    !((task_timeslice(p) - p->time_slice) %
	      (unsigned int)TIMESLICE_GRANULARITY) &&
	    p->array == rq->active)
		o1_granularity_requeue(rq, p, true);
}

static const struct o1_rules a3_rules = G3_RULES(&sm_policy_a3,
	.k = O1_CONSTS(.max_sleep_avg = A3_MAX_SLEEP_AVG,
		       .starvation_limit = A3_STARVATION_LIMIT,
		       .timeslice_granularity = A3_TIMESLICE_GRANULARITY,
		       .child_penalty = A3_CHILD_PENALTY,
		       .on_runqueue_weight = A3_ON_RUNQUEUE_WEIGHT,
		       .sleep_avg_bound = A3_MAX_SLEEP_AVG),
	.activate_task = activate_task,
	.slice_expired = slice_expired,
	.slice_continues = slice_continues,
	.schedule_next = schedule_next,
	.expired_starving = a3_expired_starving);

static const struct sm_knob a3_knobs[] = {
	O1_KNOB_MAX_SLEEP_AVG_NS(A3_MAX_SLEEP_AVG),
	O1_KNOB_STARVATION_LIMIT(A3_STARVATION_LIMIT, NULL,
			 "an expired task waits at most this; 0: no limit"),
	O1_KNOB_TIMESLICES,
	O1_KNOB_GRANULARITY(A3_TIMESLICE_GRANULARITY,
			    "the mid-slice round-robin: every this much of the slice"),
	O1_KNOB("ON_RUNQUEUE_WEIGHT", "%", A3_ON_RUNQUEUE_WEIGHT, 0, 100,
		on_runqueue_weight, NULL,
		"the share of its runqueue wait a task woken by a task is credited"),
	O1_KNOB_CHILD_PENALTY(A3_CHILD_PENALTY),
	O1_KNOB_PARENT_EXIT,
	O1_KNOB_CACHE_DECAY("ms"),
	{ 0 },
};

O1_POLICY_GLUE(a3, a3_rules)

const struct sm_policy sm_policy_a3 = {
	.name = "a3",
	.aliases = { "sched-2.6.0-test2-mm2-A3", "2.6.0-test2-mm2", NULL },
	.summary = "Ingo Molnar's A3 (test2-mm2): 1 s ns sleep_avg, 30% "
		   "runqueue-wait credit, CHILD_PENALTY 95, 1 s starvation",
	.colour = "#9a7d0a",
	.point = 14,
	.confidence = "medium",
	.reconstructed = "activate_task's interrupt/task split, the 30% wait credit "
			 "as 38/128, schedule()'s run-time charge (as in 2.6.0; the "
			 "rest is in the O12.2 diff's text)",
	.rq_new = a3_rq_new,
	O1_POLICY_OPS,
	.sched_init = a3_sched_init,
	.knobs = a3_knobs,
	.max_sleep_avg = A3_MAX_SLEEP_AVG / NSEC_PER_JIFFY,
	.has_credit = false,
};
