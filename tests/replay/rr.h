/*
 * rr.h: a plain round-robin policy behind the sm_policy interface, for
 * testing the simulator core on its own (never shipped as a policy).
 * One FIFO of runnable tasks; the running task stays at its head; a slice
 * of RR_SLICE ticks, then the tail; a wakeup preempts only the idle CPU;
 * a fork puts the child at the tail and reschedules the parent.
 */
#ifndef TEST_RR_H
#define TEST_RR_H

#include <stdio.h>
#include <stdlib.h>

#include "sched-model/policy.h"

#define RR_SLICE 10

struct rr_task {
	struct sm_task base;
	struct rr_task *next;  /* in the queue */
	int queued;
	int runnable;          /* 0 asleep/zombie */
	long slice;
};

struct rr_rq {
	struct sm_rq base;
	struct rr_task *head, *tail;
	int n;
};

static void rr_view(const struct sm_task *t, struct sm_view *v)
{
	const struct rr_task *p = (const struct rr_task *)t;

	v->prio = 120;
	v->static_prio = 120;
	v->sleep_avg = -1;
	v->credit = -1;
	v->time_slice = p->slice;
	v->array = p->queued ? SM_ARRAY_ACTIVE : SM_ARRAY_NONE;
}

static void rr_note(struct rr_rq *rq, struct rr_task *p, enum sm_change why)
{
	struct sm_view v;

	if (!rq->base.obs.changed)
		return;
	rr_view(&p->base, &v);
	rq->base.obs.changed(rq->base.obs.ctx, &rq->base, &p->base, why, &v);
}

static void rr_enqueue(struct rr_rq *rq, struct rr_task *p)
{
	p->next = NULL;
	if (rq->tail)
		rq->tail->next = p;
	else
		rq->head = p;
	rq->tail = p;
	p->queued = 1;
	rq->n++;
}

static void rr_dequeue(struct rr_rq *rq, struct rr_task *p)
{
	struct rr_task **pp = &rq->head, *prev = NULL;

	while (*pp && *pp != p) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	if (!*pp)
		return;
	*pp = p->next;
	if (rq->tail == p)
		rq->tail = prev;
	p->queued = 0;
	rq->n--;
}

static struct sm_rq *rr_rq_new(struct sm_sched *s, int cpu, unsigned long jiffies,
			       const struct sm_observer *obs)
{
	struct rr_rq *rq = calloc(1, sizeof(*rq));

	if (!rq)
		return NULL;
	rq->base.cpu = cpu;
	rq->base.jiffies = jiffies;
	if (obs)
		rq->base.obs = *obs;
	return &rq->base;
}

static void rr_rq_free(struct sm_rq *rq)
{
	free(rq);
}

static struct rr_task *rr_alloc(const struct sm_task_info *info)
{
	struct rr_task *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->base.info = *info;
	p->slice = RR_SLICE;
	return p;
}

static struct sm_task *rr_task_new(struct sm_rq *srq,
				   const struct sm_task_info *info)
{
	struct rr_task *p = rr_alloc(info);

	if (p)
		rr_note((struct rr_rq *)srq, p, SM_CH_NEW);
	return p ? &p->base : NULL;
}

static void rr_wake(struct sm_rq *srq, struct sm_task *t, unsigned flags)
{
	struct rr_rq *rq = (struct rr_rq *)srq;
	struct rr_task *p = (struct rr_task *)t;

	if (p->runnable)
		return;
	p->runnable = 1;
	if (!p->queued)
		rr_enqueue(rq, p);
	if (!srq->curr)
		srq->need_resched = true;
	rr_note(rq, p, SM_CH_WAKE);
}

static struct sm_task *rr_fork(struct sm_rq *srq, struct sm_task *parent,
			       const struct sm_task_info *info, unsigned flags)
{
	struct rr_rq *rq = (struct rr_rq *)srq;
	struct rr_task *p = rr_alloc(info);

	if (!p)
		return NULL;
	p->runnable = 1;
	rr_enqueue(rq, p);
	srq->need_resched = true;
	rr_note(rq, p, SM_CH_FORK);
	return &p->base;
}

static void rr_block(struct sm_rq *srq, struct sm_task *t)
{
	((struct rr_task *)t)->runnable = 0;
	if (t->on_cpu)
		srq->need_resched = true;
}

static void rr_exit(struct sm_rq *srq, struct sm_task *t)
{
	((struct rr_task *)t)->runnable = 0;
	if (t->on_cpu)
		srq->need_resched = true;
	rr_note((struct rr_rq *)srq, (struct rr_task *)t, SM_CH_EXIT);
}

static void rr_reap(struct sm_rq *srq, struct sm_task *parent,
		    struct sm_task *child)
{
	rr_note((struct rr_rq *)srq, (struct rr_task *)child, SM_CH_REAP);
}

static void rr_tick(struct sm_rq *srq)
{
	struct rr_rq *rq = (struct rr_rq *)srq;
	struct rr_task *p = (struct rr_task *)srq->curr;

	if (!p || !p->runnable)
		return;
	if (--p->slice > 0)
		return;
	p->slice = RR_SLICE;
	rr_dequeue(rq, p);
	rr_enqueue(rq, p);
	srq->need_resched = true;
	rr_note(rq, p, SM_CH_REQUEUE);
}

static struct sm_task *rr_schedule(struct sm_rq *srq)
{
	struct rr_rq *rq = (struct rr_rq *)srq;
	struct rr_task *prev = (struct rr_task *)srq->curr, *next;

	if (prev && !prev->runnable && prev->queued)
		rr_dequeue(rq, prev);
	next = rq->head;
	srq->need_resched = false;
	if (next != prev) {
		if (prev) {
			prev->base.on_cpu = false;
			rr_note(rq, prev, prev->runnable ? SM_CH_PREEMPT
							  : SM_CH_BLOCK);
		}
		if (next) {
			next->base.on_cpu = true;
			srq->curr = &next->base;
			rr_note(rq, next, SM_CH_RUN);
		}
	}
	srq->curr = next ? &next->base : NULL;
	return srq->curr;
}

static void rr_yield(struct sm_rq *srq, struct sm_task *t) { }
static void rr_set_nice(struct sm_rq *srq, struct sm_task *t, int nice)
{
	t->info.nice = nice;
}
static void rr_setscheduler(struct sm_rq *srq, struct sm_task *t, int pol,
			    int rt)
{
	t->info.policy = pol;
	t->info.rt_priority = rt;
}

static void rr_task_free(struct sm_rq *srq, struct sm_task *t)
{
	struct rr_rq *rq = (struct rr_rq *)srq;
	struct rr_task *p = (struct rr_task *)t;

	if (p->queued)
		rr_dequeue(rq, p);
	if (srq->curr == t)
		srq->curr = NULL;
	free(p);
}

static int rr_check(const struct sm_rq *srq, char *why, size_t len)
{
	const struct rr_rq *rq = (const struct rr_rq *)srq;
	int n = 0;

	for (const struct rr_task *p = rq->head; p; p = p->next)
		n++;
	if (n != rq->n) {
		snprintf(why, len, "rr: %d queued, count says %d", n, rq->n);
		return 1;
	}
	if (srq->curr && !((const struct rr_task *)srq->curr)->queued &&
	    ((const struct rr_task *)srq->curr)->runnable) {
		snprintf(why, len, "rr: current runnable but not queued");
		return 1;
	}
	return 0;
}

static const struct sm_policy rr_policy = {
	.name = "rr-test",
	.summary = "round robin, for the simulator's tests",
	.rq_new = rr_rq_new,
	.rq_free = rr_rq_free,
	.task_new = rr_task_new,
	.fork = rr_fork,
	.wake = rr_wake,
	.block = rr_block,
	.exit = rr_exit,
	.reap = rr_reap,
	.tick = rr_tick,
	.schedule = rr_schedule,
	.yield = rr_yield,
	.set_nice = rr_set_nice,
	.setscheduler = rr_setscheduler,
	.view = rr_view,
	.task_free = rr_task_free,
	.check = rr_check,
};

#endif
