/*
 * o11-1: O11.1int (Con Kolivas, 2003-07-30, "backs out" the head-of-expired
 * part of O11int after a corner case): O11int in every rule except slice
 * expiry, where a task with credit and sleep_avg left still stays active,
 * but one without sleep_avg goes to the *tail* of expired like any other.
 * Source: the O11.1 diff against O11int, exact (docs/models.md, "O11.1,
 * O11.2, G3 and A3", names the message).
 */
#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"

extern const struct sm_policy sm_policy_o11_1;

/* scheduler_tick(), slice used up: to the tail of expired. */
static void slice_expired(struct o1_rq *rq, struct o1_task *p)
{
	o11_expire(rq, p, false);
}

static const struct o1_rules o11_1_rules =
	O11_RULES(&sm_policy_o11_1, slice_expired, .k = O11_CONSTS());

O1_POLICY_GLUE(o11_1, o11_1_rules)

const struct sm_policy sm_policy_o11_1 = {
	.name = "o11.1",
	.aliases = { "2.6.0-test2-mm1-O11.1int", NULL },
	.summary = "O11int with expiry to the tail of expired, not the head "
		   "(2003-07-30)",
	.colour = "#17a2b8",
	.point = 8,
	.confidence = "high",
	.reconstructed = NULL,
	O1_MM1_POLICY(o11_1),
	.knobs = o1_mm1_knobs,
	.has_credit = true,
};
