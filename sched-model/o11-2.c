/*
 * o11-2: O11.2int (Con Kolivas, 2003-07-31, on top of O11.1: "backs out a
 * little section which isn't quite right and just might in the wrong
 * circumstances cause unfairness"): credit no longer exempts a task from
 * expiry; a used-up slice goes where stock's and test2-mm1's go.  Credit
 * is still earned, decremented at each expiry, and still buys the
 * one-level jump at wakeup.  Source: the O11.2 diff (spec section 10,
 * lore id 2344676476), exact: its one hunk leaves the decrement above it.
 */
#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"

extern const struct sm_policy sm_policy_o11_2;

/* scheduler_tick(), slice used up (after dequeue, prio, refill). */
static void slice_expired(struct o1_rq *rq, struct o1_task *p)
{
	if (p->interactive_credit)
		p->interactive_credit--;
	o1_expire_plain(rq, p);
}

static const struct o1_rules o11_2_rules = {
	.policy = &sm_policy_o11_2,
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

O1_POLICY_GLUE(o11_2, o11_2_rules)

const struct sm_policy sm_policy_o11_2 = {
	.name = "o11.2",
	.aliases = { "2.6.0-test2-mm1-O11.2int", NULL },
	.summary = "O11.1 without the credit exemption from expiry "
		   "(2003-07-31)",
	.confidence = "high",
	.reconstructed = NULL,
	.rq_new = o11_2_rq_new,
	O1_POLICY_OPS,
	.sched_init = o11_2_sched_init,
	.knobs = o1_mm1_knobs,
	.knob_derive = o1_derive_mm1,
	.max_sleep_avg = MM1_MAX_SLEEP_AVG,
	.has_credit = true,
};
