/*
 * stock: Linux 2.6.0-test2 as Linus released it (docs/models.md, the
 * three "Stock" sections of "The O(1) rules"), where
 * it differs from the shared O(1) core: MAX_SLEEP_AVG and
 * STARVATION_LIMIT of 10 s, the capped linear sleep credit that leaves a
 * stale prio when sleep_avg does not move, the percentage fork penalties,
 * preemption by strictly higher prio only, and no mid-slice requeue, no
 * schedule()-time charge or recalc.
 */
#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"

extern const struct sm_policy sm_policy_stock;

/*
 * activate_task (non-sync wakeup): add the sleep time, capped, and
 * recompute prio only if sleep_avg moved.  sleep_time is the kernel's
 * `long sleep_time = jiffies - p->last_run - 1`.
 */
static void activate_task(struct o1_rq *rq, struct o1_task *p, bool irq)
{
	long sleep_time = (long)(jiffies_of(rq) - p->last_run) - 1;

	if (sleep_time > 0) {
		unsigned long sleep_avg = p->sleep_avg + (unsigned long)sleep_time;

		if (sleep_avg > (unsigned long)MAX_SLEEP_AVG)
			sleep_avg = (unsigned long)MAX_SLEEP_AVG;
		if (p->sleep_avg != sleep_avg) {
			p->sleep_avg = sleep_avg;
			p->prio = effective_prio(p);
		}
		/* else: prio stays as it was, even if stale */
	}
	__activate_task(rq, p);
}

/* wake_up_forked_process: percentage penalties (parent's is 100%). */
static void forked_process(struct o1_rq *rq, struct o1_task *parent,
			   struct o1_task *p)
{
	parent->sleep_avg = parent->sleep_avg *
		(unsigned long)PARENT_PENALTY / 100;
	p->sleep_avg = p->sleep_avg * (unsigned long)CHILD_PENALTY / 100;
	p->prio = effective_prio(p);
}

static const struct o1_rules stock_rules = {
	.policy = &sm_policy_stock,
	.k = O1_CONSTS(.max_sleep_avg = STOCK_MAX_SLEEP_AVG,
		       .starvation_limit = STOCK_STARVATION_LIMIT,
		       .child_penalty = STOCK_CHILD_PENALTY,
		       .sleep_avg_bound = STOCK_MAX_SLEEP_AVG),
	.has_credit = false,
	.has_activated = false,
	.activate_task = activate_task,
	.preempts_curr = o1_prio_preempts,
	.forked_process = forked_process,
	.slice_expired = o1_expire_plain,
};

static const struct sm_knob stock_knobs[] = {
	O1_KNOB_MAX_SLEEP_AVG(STOCK_MAX_SLEEP_AVG, NULL),
	O1_KNOB_STARVATION_LIMIT(STOCK_STARVATION_LIMIT, NULL,
			 "an expired task waits at most this times nr_running (+1); 0: no limit"),
	O1_KNOB_TIMESLICES,
	O1_KNOB_CHILD_PENALTY(STOCK_CHILD_PENALTY),
	O1_KNOB_PARENT_EXIT,
	O1_KNOB_CACHE_DECAY("jiffies"),
	{ 0 },
};

O1_POLICY_GLUE(stock, stock_rules)

const struct sm_policy sm_policy_stock = {
	.name = "stock",
	.aliases = { "2.6.0-test2", NULL },
	.summary = "Linux 2.6.0-test2 as released: 10 s sleep_avg, linear "
		   "sleep credit, strict-prio wakeup preemption",
	.colour = "#c0392b",
	.point = 6,
	.confidence = "high",
	.reconstructed = "sched.c of test2 itself, from the test1 and test4 texts "
			 "around it, which agree on every rule (docs/models.md, "
			 "\"Where these rules come from\")",
	.rq_new = stock_rq_new,
	O1_POLICY_OPS,
	.sched_init = stock_sched_init,
	.knobs = stock_knobs,
	.max_sleep_avg = STOCK_MAX_SLEEP_AVG,
	.has_credit = false,
};
