/*
 * test2-mm1: 2.6.0-test2-mm1, i.e. test2 plus Con Kolivas's o1..o10int
 * (docs/models.md, "From stock to test2-mm1"; derived in "test2-mm1,
 * derived" from the rules of B minus the O11int changes and the '-' lines
 * of the O11int patch).  What differs
 * from the shared core: MAX_SLEEP_AVG = STARVATION_LIMIT = 1020, the
 * one-level jump on every wakeup and 917 after a > 1 s sleep of a user
 * task, prio recomputed on every activation, the O10 `activated` flag with
 * its pick-time recalc, the schedule() charge of a full slice, fork
 * quantised to bonus levels with the child's last_run = 0 (first activation
 * earns no credit), TASK_PREEMPTS_CURR, and the TIMESLICE_GRANULARITY
 * requeue for every task, kernel threads included.
 *
 * The o10_* functions are the parts O11int keeps unchanged; o11int.c
 * reuses them.
 */
#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"

extern const struct sm_policy sm_policy_test2_mm1;

/* ---- O10 pieces shared with O11int ---- */

/* schedule(): a prev that ran less than a tick (slice still full) pays
   one unit; also fires right after a tick refilled the slice. */
void o10_schedule_charge(struct o1_rq *rq, struct o1_task *prev)
{
	if (prev->time_slice == task_timeslice(prev) && prev->sleep_avg) {
		prev->sleep_avg--;
		o1_note(prev, SM_CH_CHARGE);
	}
}

/* schedule(): the picked task was woken after a sleep of <= 1 jiffy;
   credit it now for the time it waited on the runqueue. */
static void rules_recalc(struct o1_rq *rq, struct o1_task *p,
			 unsigned long long now)
{
	(void)now;
	rq->rules->recalc_task_prio(rq, p);
}

void o10_schedule_recalc(struct o1_rq *rq, struct o1_task *next)
{
	if (next->activated)
		o1_pick_recalc(rq, next, rules_recalc, 0);
}

/* wake_up_forked_process: snap the parent down to its bonus level, drop
   the child CHILD_PENALTY% of its levels; the order of the kernel's
   integer arithmetic matters. */
void o10_forked_sleep_avg(struct o1_rq *rq, struct o1_task *parent,
			  struct o1_task *p)
{
	unsigned long msa = (unsigned long)MAX_SLEEP_AVG;

	parent->sleep_avg = parent->sleep_avg * MAX_BONUS / msa *
		(unsigned long)PARENT_PENALTY / 100 * msa / MAX_BONUS;
	p->sleep_avg = p->sleep_avg * MAX_BONUS / msa *
		(unsigned long)CHILD_PENALTY / 100 * msa / MAX_BONUS;
	p->prio = effective_prio(p);
}

/* scheduler_tick(), slice not used up: every TIMESLICE_GRANULARITY of
   the slice while more than MIN_TIMESLICE remains.  Unsigned int
   arithmetic, as the kernel's (wraps after a refund above the slice). */
bool o10_granularity_due(const struct o1_rq *rq, const struct o1_task *p)
{
	return TIMESLICE_GRANULARITY &&
		!((task_timeslice(p) - p->time_slice) %
		  (unsigned int)TIMESLICE_GRANULARITY) &&
		p->time_slice > MIN_TIMESLICE && p->array == rq->active;
}

/* ---- test2-mm1 only ---- */

/* recalc_task_prio: a level jump for any sleep of >= 2 jiffies, 917 for a
   user task asleep more than a second; prio recomputed always. */
static void recalc_task_prio(struct o1_rq *rq, struct o1_task *p)
{
	long sleep_time = (long)(jiffies_of(rq) - p->last_run) - 1;

	if (sleep_time > 0) {
		p->activated = 0;
		/*
		 * User tasks that sleep a long time are categorised as idle
		 * and get just under interactive status.
		 */
		if (task_mm(p) && sleep_time > HZ) {
			p->sleep_avg = (unsigned long)(MAX_SLEEP_AVG *
				(MAX_BONUS - 1) / MAX_BONUS - 1);
		} else {
			unsigned long msa = (unsigned long)MAX_SLEEP_AVG;

			/* one bonus level up for every sleep > 1 tick */
			p->sleep_avg = (p->sleep_avg * MAX_BONUS / msa + 1) *
				msa / MAX_BONUS;
			if (p->sleep_avg > msa)
				p->sleep_avg = msa;
		}
	}
	p->prio = effective_prio(p);
}

/* activate_task: a task that never ran since fork (last_run == 0) gets
   no credit, only a last_run. */
static void activate_task(struct o1_rq *rq, struct o1_task *p, bool irq)
{
	if (p->last_run) {
		p->activated = 1;
		recalc_task_prio(rq, p);
	} else {
		p->last_run = jiffies_of(rq);
	}
	__activate_task(rq, p);
}

static void forked_process(struct o1_rq *rq, struct o1_task *parent,
			   struct o1_task *p)
{
	o10_forked_sleep_avg(rq, parent, p);
	p->last_run = 0;
}

/* The requeue applies to every task, kernel threads included. */
static void slice_continues(struct o1_rq *rq, struct o1_task *p)
{
	if (o10_granularity_due(rq, p))
		o1_granularity_requeue(rq, p, false);
}

static const struct o1_rules mm1_rules = {
	.policy = &sm_policy_test2_mm1,
	.k = MM1_CONSTS(.sleep_avg_bound = MM1_MAX_SLEEP_AVG),
	.has_credit = false,
	.has_activated = true,
	.activate_task = activate_task,
	.preempts_curr = o1_task_preempts_curr,
	.forked_process = forked_process,
	.slice_expired = o1_expire_plain,
	.slice_continues = slice_continues,
	.schedule_prev = o10_schedule_charge,
	.schedule_next = o10_schedule_recalc,
	.recalc_task_prio = recalc_task_prio,
};

const struct sm_knob o1_mm1_knobs[] = {
	O1_MM1_KNOBS,
	{ 0 },
};

O1_POLICY_GLUE(mm1, mm1_rules)

const struct sm_policy sm_policy_test2_mm1 = {
	.name = "test2-mm1",
	.aliases = { "2.6.0-test2-mm1", NULL },
	.summary = "2.6.0-test2-mm1 (Kolivas o1..o10int): 1020-jiffy "
		   "sleep_avg, one-level jumps, 25 ms requeue",
	.colour = "#d68910",
	.point = 4,
	.confidence = "high",
	.reconstructed = "what the O11int patch changed, undone from its "
			 "'-' lines (docs/models.md)",
	O1_MM1_POLICY(mm1),
	.knobs = o1_mm1_knobs,
	.has_credit = false,
};
