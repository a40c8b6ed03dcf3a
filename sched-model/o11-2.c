/*
 * o11-2: O11.2int (Con Kolivas, 2003-07-31, on top of O11.1: "backs out a
 * little section which isn't quite right and just might in the wrong
 * circumstances cause unfairness"): credit no longer exempts a task from
 * expiry; a used-up slice goes where stock's and test2-mm1's go.  Credit
 * is still earned, decremented at each expiry, and still buys the
 * one-level jump at wakeup.  Source: the O11.2 diff (docs/models.md,
 * "O11.1, O11.2, G3 and A3", names the message), exact: its one hunk
 * leaves the decrement above it.
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

static const struct o1_rules o11_2_rules =
	O11_RULES(&sm_policy_o11_2, slice_expired, .k = O11_CONSTS());

O1_POLICY_GLUE(o11_2, o11_2_rules)

const struct sm_policy sm_policy_o11_2 = {
	.name = "o11.2",
	.aliases = { "2.6.0-test2-mm1-O11.2int", NULL },
	.summary = "O11.1 without the credit exemption from expiry "
		   "(2003-07-31)",
	.colour = "#5b2c6f",
	.point = 10,
	.confidence = "high",
	.reconstructed = NULL,
	O1_MM1_POLICY(o11_2),
	.knobs = o1_mm1_knobs,
	.has_credit = true,
};
