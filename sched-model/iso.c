/*
 * iso: O11int with Con Kolivas's SCHED_ISO, the isochronous class: soft
 * realtime for unprivileged users, starvation free.
 *  - a task with an address space (a user task) that asks for SCHED_RR or
 *    SCHED_FIFO becomes SCHED_ISO (the patch demotes unprivileged callers;
 *    a trace does not say who was privileged, so every user task counts
 *    as one, and kernel threads keep their RT class);
 *  - within the quota an ISO task runs at prio MAX_RT_PRIO - 1 (99: above
 *    every SCHED_NORMAL task, below every real RT one), round robin with
 *    its peers every ISO_TIMESLICE (10 ms), never expiring (its sleep_avg
 *    is kept as for any task, its prio not computed from it);
 *  - the quota: each runqueue keeps iso_ticks, + 100 at every tick that
 *    runs an RT or an in-quota ISO user task (at most iso_period * HZ *
 *    100 - 100), else decayed by (ISO_PERIOD - 1) / ISO_PERIOD: iso_ticks /
 *    ISO_PERIOD is the recent RT share in %;  the runqueue turns refractory
 *    above iso_cpu (70 %) and back below 90 % of it;
 *  - a tick of an ISO task on a refractory runqueue marks it (PF_ISOREF):
 *    it runs as SCHED_NORMAL at its dynamic prio with a normal slice; a
 *    tick of a marked one on a runqueue no longer refractory unmarks it.
 * Sources: the rules and defaults from the SCHED_ISO v2 announcement for
 * 2.6.11-rc1 (Jan 2005: 70 %, 5 s, 90 % hysteresis, 10 ms round robin,
 * RT requests demoted); the quota arithmetic and PF_ISOREF from the exact
 * sched-iso-4.5 patch of 2.6.17-ck (Jun 2006, on the staircase scheduler,
 * where the tunable default had become 80 % over 3 s).  The 2005 O(1)
 * diff itself was not found: how it met the O(1) arrays (the requeue at a
 * change of PF_ISOREF, the slice) is our reading, and O11int stands in
 * for the 2.6.11 base.
 */
#include "sched-model/knobs.h"
#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"

extern const struct sm_policy sm_policy_iso;

#define ISO_PRIO		(MAX_RT_PRIO - 1)
#define ISO_TIMESLICE		(10 * HZ / 1000)	/* 10 ms */
#define ISO_PERIOD		((unsigned long)rq->rules->k.iso_period * HZ)
#define sched_iso_cpu		((unsigned long)rq->rules->k.iso_cpu)

/* RT requests of user tasks: SCHED_ISO. */
static void policy_set(struct o1_task *p)
{
	p->iso = p->policy != SM_SCHED_NORMAL && task_mm(p);
	if (p->iso) {
		p->policy = SM_SCHED_NORMAL;
		p->rt_priority = 0;
		p->prio = p->static_prio;	/* not an RT prio any more */
		p->prio = effective_prio(p);
	}
}

static bool prio_override(const struct o1_task *p, int *prio)
{
	if (!p->iso || p->isoref)
		return false;
	*prio = ISO_PRIO;
	return true;
}

/* test_ret_isorefractory(), with its 10 % hysteresis */
static bool iso_refractory(struct o1_rq *rq)
{
	if (!rq->iso_refractory) {
		if (rq->iso_ticks / ISO_PERIOD > sched_iso_cpu)
			rq->iso_refractory = true;
	} else if (rq->iso_ticks / ISO_PERIOD < sched_iso_cpu * 90 / 100) {
		rq->iso_refractory = false;
	}
	return rq->iso_refractory;
}

/* PF_ISOREF set or cleared: p runs on at its new prio, requeued. */
static void iso_switch(struct o1_rq *rq, struct o1_task *p, bool ref)
{
	dequeue_task(p, rq->active);
	p->isoref = ref;
	p->prio = p->static_prio;	/* effective_prio keeps an RT prio */
	p->prio = effective_prio(p);
	p->time_slice = ref ? task_timeslice(p) : ISO_TIMESLICE;
	p->first_time_slice = 0;
	enqueue_task(p, rq->active);
	if (ref)
		resched_curr(rq);
	o1_note(p, SM_CH_REQUEUE);
}

/* scheduler_tick(): the quota, then an in-quota ISO task's round robin. */
static bool tick_task(struct o1_rq *rq, struct o1_task *p)
{
	if ((p->policy != SM_SCHED_NORMAL ||
	     (p->iso && !rq->iso_refractory)) && task_mm(p)) {
		if (rq->iso_ticks <= ISO_PERIOD * 100 - 100)
			rq->iso_ticks += 100;
	} else {
		rq->iso_ticks = rq->iso_ticks * (ISO_PERIOD - 1) / ISO_PERIOD;
	}
	if (!p->iso)
		return false;
	if (iso_refractory(rq)) {
		if (!p->isoref) {
			iso_switch(rq, p, true);
			return true;
		}
		return false;	/* SCHED_NORMAL's tick */
	}
	if (p->isoref) {
		iso_switch(rq, p, false);
		return true;
	}
	if (p->time_slice > ISO_TIMESLICE)
		p->time_slice = ISO_TIMESLICE;
	if (!--p->time_slice) {
		p->time_slice = ISO_TIMESLICE;
		p->first_time_slice = 0;
		resched_curr(rq);
		dequeue_task(p, rq->active);
		enqueue_task(p, rq->active);
		o1_note(p, SM_CH_REQUEUE);
		return true;
	}
	o1_note(p, SM_CH_TICK);
	return true;
}

static const struct o1_rules iso_rules =
	O11_RULES(&sm_policy_iso, o11_slice_expired,
		  .k = O11_CONSTS(.iso_cpu = 70, .iso_period = 5),
		  .policy_set = policy_set,
		  .prio_override = prio_override,
		  .tick_task = tick_task);

O1_POLICY_GLUE(iso, iso_rules)

static const struct sm_knob iso_knobs[] = {
	O1_MM1_KNOBS,
	O1_KNOB("iso_cpu", "%", 70, 0, 100, iso_cpu, NULL,
		"SCHED_ISO tasks run as realtime up to this share of a CPU"),
	O1_KNOB("iso_period", "s", 5, 1, 1000, iso_period, NULL,
		"the span the SCHED_ISO share decays over"),
	{ 0 },
};

const struct sm_policy sm_policy_iso = {
	.name = "iso",
	.aliases = { "SCHED_ISO", "o11int-iso", NULL },
	.summary = "O11int + SCHED_ISO (Kolivas, 2005): user tasks asking "
		   "for RT run round robin at prio 99 within 70% of a CPU "
		   "over 5 s",
	.colour = "#d63384",
	.point = 5,
	.confidence = "medium",
	.reconstructed = "the 2005 O(1) diff was not found: its rules from "
			 "the v2 announcement, the quota arithmetic from the "
			 "2006 -ck patch; the requeue at a quota change and "
			 "O11int as the base are our reading",
	O1_MM1_POLICY(iso),
	.knobs = iso_knobs,
	.has_credit = true,
};
