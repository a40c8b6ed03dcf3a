/*
 * g3: Ingo Molnar's sched-2.6.0-test1-G3 (2003-07-25, "interactivity
 * changes, audio latency"), on the stock test2 core.  From its diff
 * (docs/models.md, "O11.1, O11.2, G3 and A3", names the messages):
 *  - sleep_avg and p->timestamp in nanoseconds of sched_clock();
 *    MAX_SLEEP_AVG = 2 s; effective_prio divides both by 1024 first;
 *  - a wakeup adds the whole sleep (now - timestamp, capped at
 *    MAX_SLEEP_AVG) and recomputes prio only if sleep_avg moved (stock's
 *    rule), then sets activated = 1 and timestamp = now;
 *  - no per-tick sleep_avg decay: schedule() subtracts prev's run time
 *    (now - timestamp, floored at 0) and stamps prev and next with now;
 *  - the pick-time recalc of an activated task credits its wait on the
 *    runqueue (from its wakeup stamp); a preempted task has none;
 *  - TIMESLICE_GRANULARITY = HZ/20: every time_slice % 50 == 0 the
 *    running task is requeued behind its peers with prio recomputed
 *    (counted from the end of the slice: the "inconsistency" Con found,
 *    fixed in G6); kernel threads too;
 *  - TASK_PREEMPTS_CURR at wakeup; fork penalties and sched_exit with
 *    the divisions first (ns values would overflow 32 bits otherwise).
 * Unchanged from stock: STARVATION_LIMIT 10 s times nr_running, CHILD_
 * PENALTY 50, slice expiry, yield, nice, setscheduler.
 * The g3_* functions are the parts A3 keeps (a3.c).
 */
#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"

extern const struct sm_policy sm_policy_g3;

/*
 * recalc_task_prio(p, now): the sleep since p->timestamp, capped at
 * MAX_SLEEP_AVG, added to sleep_avg (capped); prio only if it moved.
 */
void g3_recalc_task_prio(struct o1_rq *rq, struct o1_task *p,
			 unsigned long long now)
{
	unsigned long long __sleep_time = now - p->timestamp;
	unsigned long sleep_time;

	if (__sleep_time > (unsigned long long)MAX_SLEEP_AVG)
		sleep_time = (unsigned long)MAX_SLEEP_AVG;
	else
		sleep_time = (unsigned long)__sleep_time;

	if (sleep_time > 0) {
		unsigned long long sleep_avg = p->sleep_avg + sleep_time;

		if (sleep_avg > (unsigned long long)MAX_SLEEP_AVG)
			sleep_avg = (unsigned long long)MAX_SLEEP_AVG;
		if (p->sleep_avg != sleep_avg) {
			p->sleep_avg = (unsigned long)sleep_avg;
			p->prio = effective_prio(p);
		}
	}
}

/* activate_task: credit the sleep, flag for the pick-time credit. */
static void activate_task(struct o1_rq *rq, struct o1_task *p, bool irq)
{
	unsigned long long now = sched_clock_of(rq);

	g3_recalc_task_prio(rq, p, now);
	p->activated = 1;
	p->timestamp = now;
	__activate_task(rq, p);
}

/* schedule(), the picked task: credit its wait since the wakeup. */
static void schedule_next(struct o1_rq *rq, struct o1_task *next)
{
	if (next->activated)
		o1_pick_recalc(rq, next, g3_recalc_task_prio,
			       sched_clock_of(rq));
}

/*
 * schedule(), at the switch: prev pays the time since its stamp (its run
 * since it was picked, or since the last schedule()), capped at
 * MAX_SLEEP_AVG, floored at 0; both are stamped now.  The kernel's
 * (long)sleep_avg < 0 test on a 32-bit unsigned long is the same floor
 * for values below 2^31 ns, which MAX_SLEEP_AVG keeps them.
 */
void g3_schedule_switch(struct o1_rq *rq, struct o1_task *prev,
			struct o1_task *next)
{
	unsigned long long now = sched_clock_of(rq);

	if (prev) {
		unsigned long run_time;

		if (now - prev->timestamp < (unsigned long long)MAX_SLEEP_AVG)
			run_time = (unsigned long)(now - prev->timestamp);
		else
			run_time = (unsigned long)MAX_SLEEP_AVG;
		prev->sleep_avg = run_time > prev->sleep_avg ? 0 :
			prev->sleep_avg - run_time;
		prev->timestamp = now;
	}
	if (next && next != prev)
		next->timestamp = now;
}

/* wake_up_forked_process: the percentages, divided first. */
void g3_forked_process(struct o1_rq *rq, struct o1_task *parent,
		       struct o1_task *p)
{
	parent->sleep_avg = parent->sleep_avg / 100 *
		(unsigned long)PARENT_PENALTY;
	p->sleep_avg = p->sleep_avg / 100 * (unsigned long)CHILD_PENALTY;
	p->prio = effective_prio(p);
}

/* sched_exit: a child with less sleep_avg lowers the parent's. */
void g3_exit_sleep_avg(struct o1_rq *rq, struct o1_task *parent,
		       const struct o1_task *p)
{
	if (p->sleep_avg < parent->sleep_avg)
		parent->sleep_avg = parent->sleep_avg /
			(unsigned long)(EXIT_WEIGHT + 1) *
			(unsigned long)EXIT_WEIGHT +
			p->sleep_avg / (unsigned long)(EXIT_WEIGHT + 1);
}

/* scheduler_tick(), slice not used up: the 50 ms round-robin, counted
   on what is left of the slice; prio recomputed. */
static void slice_continues(struct o1_rq *rq, struct o1_task *p)
{
	if (TIMESLICE_GRANULARITY &&
	    !(p->time_slice % (unsigned int)TIMESLICE_GRANULARITY) &&
	    p->array == rq->active)
		o1_granularity_requeue(rq, p, true);
}

static const struct o1_rules g3_rules = G3_RULES(&sm_policy_g3,
	.k = O1_CONSTS(.max_sleep_avg = G3_MAX_SLEEP_AVG,
		       .starvation_limit = G3_STARVATION_LIMIT,
		       .timeslice_granularity = G3_TIMESLICE_GRANULARITY,
		       .child_penalty = STOCK_CHILD_PENALTY,
		       .sleep_avg_bound = G3_MAX_SLEEP_AVG),
	.activate_task = activate_task,
	.slice_expired = o1_expire_plain,
	.slice_continues = slice_continues,
	.schedule_next = schedule_next);

static const struct sm_knob g3_knobs[] = {
	O1_KNOB_MAX_SLEEP_AVG_NS(G3_MAX_SLEEP_AVG),
	O1_KNOB_STARVATION_LIMIT(G3_STARVATION_LIMIT, NULL,
			 "an expired task waits at most this times nr_running (+1); 0: no limit"),
	O1_KNOB_TIMESLICES,
	O1_KNOB_GRANULARITY(G3_TIMESLICE_GRANULARITY,
			    "the round-robin: when what is left of the slice is a multiple"),
	O1_KNOB_CHILD_PENALTY(STOCK_CHILD_PENALTY),
	O1_KNOB_PARENT_EXIT,
	O1_KNOB_CACHE_DECAY("ms"),
	{ 0 },
};

O1_POLICY_GLUE(g3, g3_rules)

const struct sm_policy sm_policy_g3 = {
	.name = "g3",
	.aliases = { "sched-2.6.0-test1-G3", NULL },
	.summary = "Ingo Molnar's G3: ns sleep_avg (2 s), run time "
		   "subtracted in schedule(), 50 ms round-robin",
	.colour = "#1e8449",
	.point = 12,
	.confidence = "high",
	.reconstructed = "applied to test2 rather than test1-bk2 (no scheduler "
			 "change between them)",
	.rq_new = g3_rq_new,
	O1_POLICY_OPS,
	.sched_init = g3_sched_init,
	.knobs = g3_knobs,
	.max_sleep_avg = G3_MAX_SLEEP_AVG / NSEC_PER_JIFFY,
	.has_credit = false,
};
