/*
 * o11int: 2.6.0-test2-mm1 plus Con Kolivas's O11int patch (docs/models.md,
 * "test2-mm1 and O11int" and "From test2-mm1 to O11int").  Everything
 * else is test2-mm1's (the o10_* functions); what the patch changes is
 * here: interactive_credit, JUST_INTERACTIVE_SLEEP after a > 1 s sleep,
 * the level jump only for tasks with credit (others add their sleep up to
 * a slice), no first-activation special case, the child's last_run =
 * jiffies and credit 0, tasks with credit staying active at expiry while
 * sleep_avg > 0 and going to the head of expired after, and the
 * granularity requeue limited to tasks with an mm.
 *
 * The o11_* functions are the parts O11.1 and O11.2 keep (o11-1.c,
 * o11-2.c): they differ only at slice expiry.
 */
#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"

/* in long: DELTA is negative below nice -11 */
#define JUST_INTERACTIVE_SLEEP(p) \
	(MAX_SLEEP_AVG - ((long)DELTA(p) * AVG_TIMESLICE))

extern const struct sm_policy sm_policy_o11int;

/* The largest sleep_avg: JUST_INTERACTIVE_SLEEP of nice -20, never
   capped (DELTA -3). */
unsigned long o11_sleep_avg_bound(const struct o1_consts *k)
{
	return (unsigned long)(k->max_sleep_avg + 3 *
		O1_AVG_TIMESLICE(k->min_timeslice, k->max_timeslice));
}

void o11_recalc_task_prio(struct o1_rq *rq, struct o1_task *p)
{
	long sleep_time = (long)(jiffies_of(rq) - p->last_run) - 1;

	if (sleep_time > 0) {
		p->activated = 0;
		/*
		 * User tasks that sleep a long time are categorised as idle
		 * and get just interactive status (uncapped: nice <= -12
		 * lands above MAX_SLEEP_AVG).  No credit change.
		 */
		if (task_mm(p) && sleep_time > HZ) {
			p->sleep_avg =
				(unsigned long)JUST_INTERACTIVE_SLEEP(p);
		} else {
			unsigned long msa = (unsigned long)MAX_SLEEP_AVG;

			if (p->interactive_credit) {
				/* one level up, whatever the sleep */
				p->sleep_avg = (p->sleep_avg * MAX_BONUS /
						msa + 1) * msa / MAX_BONUS;
			} else {
				/* the sleep, up to a slice */
				if (sleep_time > (long)task_timeslice(p))
					sleep_time = (long)task_timeslice(p);
				p->sleep_avg += (unsigned long)sleep_time;
			}
			/* fully interactive tasks earn credit */
			if (p->sleep_avg > msa) {
				p->sleep_avg = msa;
				p->interactive_credit++;
			}
		}
	}
	p->prio = effective_prio(p);
}

/* activate_task: always flags and recalculates (no last_run == 0 case). */
void o11_activate_task(struct o1_rq *rq, struct o1_task *p, bool irq)
{
	p->activated = 1;
	rq->rules->recalc_task_prio(rq, p);
	__activate_task(rq, p);
}

void o11_forked_process(struct o1_rq *rq, struct o1_task *parent,
			struct o1_task *p)
{
	o10_forked_sleep_avg(rq, parent, p);
	p->last_run = jiffies_of(rq);
	p->interactive_credit = 0;
}

/*
 * scheduler_tick(), slice used up (after dequeue, prio, refill).  With
 * HEAD (O11int), a task with credit but no sleep_avg left goes to the head
 * of expired; without (O11.1, which backed that out) to its tail.
 */
void o11_expire(struct o1_rq *rq, struct o1_task *p, bool head)
{
	/* tasks that slept once long enough do not keep acting
	   interactive */
	if (p->interactive_credit)
		p->interactive_credit--;

	if (!TASK_INTERACTIVE(p) || expired_starving(rq)) {
		if (!rq->expired_timestamp)
			rq->expired_timestamp = jiffies_of(rq);
		/*
		 * Long term interactive tasks must run out of sleep_avg to
		 * be expired.
		 */
		if (p->interactive_credit && p->sleep_avg) {
			enqueue_task(p, rq->active);
			o1_note_entry(p, SM_CH_REQUEUE, O1_IN_CREDIT);
			return;
		}
		if (p->interactive_credit && head)
			enqueue_head_task(p, rq->expired);
		else
			enqueue_task(p, rq->expired);
		o1_note_entry(p, SM_CH_EXPIRE, o1_expired_entry(rq, p));
	} else {
		enqueue_task(p, rq->active);
		o1_note(p, SM_CH_REQUEUE);
	}
}

void o11_slice_expired(struct o1_rq *rq, struct o1_task *p)
{
	o11_expire(rq, p, true);
}

/* The requeue excludes kernel threads ("just in case"). */
void o11_slice_continues(struct o1_rq *rq, struct o1_task *p)
{
	if (task_mm(p) && o10_granularity_due(rq, p))
		o1_granularity_requeue(rq, p, false);
}

static const struct o1_rules o11_rules =
	O11_RULES(&sm_policy_o11int, o11_slice_expired,
		  .k = O11_CONSTS());

O1_POLICY_GLUE(o11, o11_rules)

const struct sm_policy sm_policy_o11int = {
	.name = "o11int",
	.aliases = { "2.6.0-test2-mm1-O11int", NULL },
	.summary = "test2-mm1 + O11int: interactive_credit, "
		   "JUST_INTERACTIVE_SLEEP, credit tasks kept active",
	.colour = "#1f5fa8",
	.point = 7,
	.confidence = "high",
	.reconstructed = NULL,
	O1_MM1_POLICY(o11),
	.knobs = o1_mm1_knobs,
	.has_credit = true,
};
