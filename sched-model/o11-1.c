/*
 * o11-1: O11.1int (Con Kolivas, 2003-07-30, "backs out" the head-of-expired
 * part of O11int after a corner case): O11int in every rule except slice
 * expiry, where a task with credit and sleep_avg left still stays active,
 * but one without sleep_avg goes to the *tail* of expired like any other.
 * Source: the O11.1 diff against O11int (spec section 10, lore id
 * 1964316553), exact.
 */
#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"

extern const struct sm_policy sm_policy_o11_1;

/* scheduler_tick(), slice used up (after dequeue, prio, refill). */
static void slice_expired(struct o1_rq *rq, struct o1_task *p)
{
	if (p->interactive_credit)
		p->interactive_credit--;

	if (!TASK_INTERACTIVE(p) || expired_starving(rq)) {
		if (!rq->expired_timestamp)
			rq->expired_timestamp = jiffies;
		/* long term interactive tasks run out of sleep_avg first */
		if (p->interactive_credit && p->sleep_avg) {
			enqueue_task(p, rq->active);
			o1_note_entry(p, SM_CH_REQUEUE, O1_IN_CREDIT);
			return;
		}
		enqueue_task(p, rq->expired);
		o1_note_entry(p, SM_CH_EXPIRE, o1_expired_entry(rq, p));
	} else {
		enqueue_task(p, rq->active);
		o1_note(p, SM_CH_REQUEUE);
	}
}

static const struct o1_rules o11_1_rules = {
	.policy = &sm_policy_o11_1,
	.k = O11_CONSTS,
	.has_credit = true,
	.has_activated = true,
	.activate_task = o11_activate_task,
	.preempts_curr = o1_task_preempts_curr,
	.forked_process = o11_forked_process,
	.slice_expired = slice_expired,
	.slice_continues = o11_slice_continues,
	.schedule_prev = o10_schedule_charge,
	.schedule_next = o10_schedule_recalc,
	.recalc_task_prio = o11_recalc_task_prio,
	.sleep_avg_bound = o11_sleep_avg_bound,
};

O1_POLICY_GLUE(o11_1, o11_1_rules)

const struct sm_policy sm_policy_o11_1 = {
	.name = "o11.1",
	.aliases = { "2.6.0-test2-mm1-O11.1int", NULL },
	.summary = "O11int with expiry to the tail of expired, not the head "
		   "(2003-07-30)",
	.confidence = "high",
	.reconstructed = NULL,
	.rq_new = o11_1_rq_new,
	O1_POLICY_OPS,
	.sched_init = o11_1_sched_init,
	.knobs = o1_mm1_knobs,
	.knob_derive = o1_derive_mm1,
	.max_sleep_avg = MM1_MAX_SLEEP_AVG,
	.has_credit = true,
};
