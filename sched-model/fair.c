/*
 * fair: the core the fair-class models share (see fair.h): the RT class,
 * schedule(), wakeups, fork, exit, yield, nice, class changes, migration,
 * the weight tables and arithmetic, the observer and the invariant check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "sched-model/fair.h"

#define K(rq)		((rq)->rules->k)
#define CLS(rq)		((rq)->rules->cls)

/* The kernel's prio_to_weight[] and prio_to_wmult[] side by side, a row
 * per nice level (-20 .. 19). */
const struct fair_prio_weight fair_prio_weights[40] = {
	{ 88761, 48388 },	/* nice -20 */
	{ 71755, 59856 },	/* nice -19 */
	{ 56483, 76040 },	/* nice -18 */
	{ 46273, 92818 },	/* nice -17 */
	{ 36291, 118348 },	/* nice -16 */
	{ 29154, 147320 },	/* nice -15 */
	{ 23254, 184698 },	/* nice -14 */
	{ 18705, 229616 },	/* nice -13 */
	{ 14949, 287308 },	/* nice -12 */
	{ 11916, 360437 },	/* nice -11 */
	{ 9548, 449829 },	/* nice -10 */
	{ 7620, 563644 },	/* nice -9 */
	{ 6100, 704093 },	/* nice -8 */
	{ 4904, 875809 },	/* nice -7 */
	{ 3906, 1099582 },	/* nice -6 */
	{ 3121, 1376151 },	/* nice -5 */
	{ 2501, 1717300 },	/* nice -4 */
	{ 1991, 2157191 },	/* nice -3 */
	{ 1586, 2708050 },	/* nice -2 */
	{ 1277, 3363326 },	/* nice -1 */
	{ 1024, 4194304 },	/* nice 0 */
	{ 820, 5237765 },	/* nice 1 */
	{ 655, 6557202 },	/* nice 2 */
	{ 526, 8165337 },	/* nice 3 */
	{ 423, 10153587 },	/* nice 4 */
	{ 335, 12820798 },	/* nice 5 */
	{ 272, 15790321 },	/* nice 6 */
	{ 215, 19976592 },	/* nice 7 */
	{ 172, 24970740 },	/* nice 8 */
	{ 137, 31350126 },	/* nice 9 */
	{ 110, 39045157 },	/* nice 10 */
	{ 87, 49367440 },	/* nice 11 */
	{ 70, 61356676 },	/* nice 12 */
	{ 56, 76695844 },	/* nice 13 */
	{ 45, 95443717 },	/* nice 14 */
	{ 36, 119304647 },	/* nice 15 */
	{ 29, 148102320 },	/* nice 16 */
	{ 23, 186737708 },	/* nice 17 */
	{ 18, 238609294 },	/* nice 18 */
	{ 15, 286331153 },	/* nice 19 */
};

/* ---- arithmetic ---- */

#define WMULT_CONST	(1ULL << 32)	/* 2.6.23 on 64-bit */
#define WMULT_SHIFT	32
#define SRR(x, y)	(((x) + (1ULL << ((y) - 1))) >> (y))

unsigned long fair_calc_delta_mine(unsigned long delta, unsigned long weight,
				   unsigned long lw_weight, uint32_t *lw_inv)
{
	uint64_t tmp;

	if (!*lw_inv)
		*lw_inv = (uint32_t)((WMULT_CONST - lw_weight / 2) / lw_weight +
				     1);
	tmp = (uint64_t)delta * weight;
	/* would the 64-bit product overflow? */
	if (tmp > WMULT_CONST)
		tmp = SRR(SRR(tmp, WMULT_SHIFT / 2) * *lw_inv,
			  WMULT_SHIFT / 2);
	else
		tmp = SRR(tmp * *lw_inv, WMULT_SHIFT);
	return tmp > (uint64_t)0x7fffffffffffffffULL ?
		(unsigned long)0x7fffffffffffffffULL : (unsigned long)tmp;
}

static int fls32(uint32_t x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/* (a * mul) >> shift with a 96-bit intermediate, as mul_u64_u32_shr */
static uint64_t mul_u64_u32_shr(uint64_t a, uint32_t mul, unsigned shift)
{
	uint32_t ah = (uint32_t)(a >> 32), al = (uint32_t)a;
	uint64_t ret = ((uint64_t)al * mul) >> shift;

	if (ah)
		ret += ((uint64_t)ah * mul) << (32 - shift);
	return ret;
}

uint64_t fair_calc_delta_fair66(uint64_t delta, const struct fair_task *p)
{
	uint64_t fact = FAIR_NICE_0_LOAD;	/* scale_load_down(NICE_0) */
	uint32_t fact_hi;
	int shift = WMULT_SHIFT, fs;

	if (p->weight == FAIR_NICE_0_LOAD)
		return delta;
	fact *= p->inv_weight;
	fact_hi = (uint32_t)(fact >> 32);
	if (fact_hi) {
		fs = fls32(fact_hi);
		shift -= fs;
		fact >>= fs;
	}
	return mul_u64_u32_shr(delta, (uint32_t)fact, (unsigned)shift);
}

unsigned fair_ilog2(unsigned long x)
{
	unsigned n = 0;

	while (x >>= 1)
		n++;
	return n;
}

uint64_t fair_scaled(const struct fair_rq *rq, long v, long flag)
{
	unsigned long cpus = rq->base.ncpus > 0 ? (unsigned long)rq->base.ncpus
						: 1;
	uint64_t x;

	if (!(rq->rules->k.scaled & flag))
		return (uint64_t)v;
	if (rq->rules->scale_cap8 && cpus > 8)
		cpus = 8;
	x = (uint64_t)v * (1 + fair_ilog2(cpus));
	if (rq->rules->scale_limit_ns && x > rq->rules->scale_limit_ns)
		x = rq->rules->scale_limit_ns;
	return x;
}

/* ---- the fair queue ---- */

int fair_reserve(struct sm_rq *srq, size_t ntasks)
{
	struct fair_rq *rq = fair_rq_of(srq);
	struct fair_task **q;

	if (ntasks <= rq->capq)
		return 0;
	q = realloc(rq->q, ntasks * sizeof(*q));
	if (!q)
		return -1;
	rq->q = q;
	rq->capq = ntasks;
	return 0;
}

void fair_q_add(struct fair_rq *rq, struct fair_task *p)
{
	/* the simulator reserves room for all its tasks first, so only a
	   caller of the policy alone (a test) grows the queue here */
	if (rq->nq == rq->capq && fair_reserve(&rq->base, rq->capq * 2 + 16)) {
		fprintf(stderr, "schedreplay: internal error: a fair runqueue "
			"used without room reserved (sm_policy.reserve)\n");
		abort();
	}
	p->qpos = rq->nq;
	p->seq = ++rq->seq;
	rq->q[rq->nq++] = p;
	rq->q_vw += p->vruntime * p->weight;
	rq->q_w += p->weight;
}

void fair_q_del(struct fair_rq *rq, struct fair_task *p)
{
	size_t i = p->qpos;

	rq->q_vw -= p->vruntime * p->weight;
	rq->q_w -= p->weight;
	rq->q[i] = rq->q[--rq->nq];
	rq->q[i]->qpos = i;
}

/* p is one of q's (queued, not the running entity) */
static bool in_q(const struct fair_rq *rq, const struct fair_task *p)
{
	return p->qpos < rq->nq && rq->q[p->qpos] == p;
}

static bool before(const struct fair_task *a, const struct fair_task *b)
{
	return (int64_t)(a->vruntime - b->vruntime) < 0 ||
		(a->vruntime == b->vruntime && a->seq < b->seq);
}

struct fair_task *fair_q_first(const struct fair_rq *rq)
{
	struct fair_task *best = NULL;

	for (size_t i = 0; i < rq->nq; i++)
		if (!best || before(rq->q[i], best))
			best = rq->q[i];
	return best;
}

struct fair_task *fair_q_last(const struct fair_rq *rq)
{
	struct fair_task *best = NULL;

	for (size_t i = 0; i < rq->nq; i++)
		if (!best || !before(rq->q[i], best))
			best = rq->q[i];
	return best;
}

void fair_put_prev(struct fair_rq *rq)
{
	struct fair_task *prev = rq->curr_se;

	if (!prev)
		return;
	if (prev->on_rq) {
		CLS(rq)->update_curr(rq);
		fair_q_add(rq, prev);
	}
	rq->curr_se = NULL;
}

void fair_set_next(struct fair_rq *rq, struct fair_task *p)
{
	fair_q_del(rq, p);
	p->exec_start = fair_now(rq);
	rq->curr_se = p;
	p->prev_sum_exec_runtime = p->sum_exec_runtime;
}

void fair_why_ahead(struct sm_why *w, enum sm_why_code code, int32_t n)
{
	if (n) {
		w->code = code;
		w->ahead = n;
	} else {
		w->code = SM_WHY_TICK;
	}
}

void fair_resched(struct fair_rq *rq)
{
	rq->base.need_resched = true;
}

bool fair_is_rt(const struct fair_task *p)
{
	return p->policy != SM_SCHED_NORMAL;
}

static void set_load_weight(struct fair_task *p)
{
	int i = p->static_prio - FAIR_MAX_RT_PRIO;

	p->weight = fair_prio_weights[i].weight;
	p->inv_weight = fair_prio_weights[i].wmult;
}

/* ---- the RT class ---- */

static void rt_enqueue(struct fair_rq *rq, struct fair_task *p, bool head)
{
	int prio = p->prio;

	p->rt_rq = rq;
	p->rt_qprio = prio;
	if (head) {
		p->rt_prev = NULL;
		p->rt_next = rq->rt_head[prio];
	} else {
		p->rt_prev = rq->rt_tail[prio];
		p->rt_next = NULL;
	}
	*(p->rt_prev ? &p->rt_prev->rt_next : &rq->rt_head[prio]) = p;
	*(p->rt_next ? &p->rt_next->rt_prev : &rq->rt_tail[prio]) = p;
	rq->nrt[prio]++;
	rq->rt_nr_running++;
	p->rt_queued = true;
}

/* p off rq's list of its prio (nothing if it is not on that one). */
static void rt_dequeue(struct fair_rq *rq, struct fair_task *p)
{
	int prio = p->prio;

	if (!p->rt_queued || p->rt_rq != rq || p->rt_qprio != prio)
		return;
	*(p->rt_prev ? &p->rt_prev->rt_next : &rq->rt_head[prio]) = p->rt_next;
	*(p->rt_next ? &p->rt_next->rt_prev : &rq->rt_tail[prio]) = p->rt_prev;
	p->rt_prev = p->rt_next = NULL;
	p->rt_rq = NULL;
	rq->nrt[prio]--;
	rq->rt_nr_running--;
	p->rt_queued = false;
}

static struct fair_task *rt_pick(const struct fair_rq *rq)
{
	for (int prio = 0; prio < FAIR_MAX_RT_PRIO; prio++)
		if (rq->nrt[prio])
			return rq->rt_head[prio];
	return NULL;
}

static long rr_timeslice(const struct fair_rq *rq)
{
	return K(rq).sched_rr_timeslice_ms * rq->base.hz / 1000;
}

/* ---- enqueue / dequeue of either class ---- */

static bool queued(const struct fair_task *p)
{
	return p->rt_queued || p->on_rq;
}

static void enqueue_task(struct fair_rq *rq, struct fair_task *p, unsigned fl)
{
	if (fair_is_rt(p)) {
		rt_enqueue(rq, p, false);
	} else {
		CLS(rq)->enqueue(rq, p, fl);
		p->mru = ++rq->seq;	/* to the head of rq->cfs_tasks */
	}
}

/* false: a fair entity left delayed on the queue (it still counts) */
static bool dequeue_task(struct fair_rq *rq, struct fair_task *p, unsigned fl)
{
	if (fair_is_rt(p)) {
		rt_dequeue(rq, p);
		return true;
	}
	return CLS(rq)->dequeue(rq, p, fl);
}

static void activate_task(struct fair_rq *rq, struct fair_task *p,
			  unsigned fl)
{
	enqueue_task(rq, p, fl);
	rq->nr_running++;
}

static void deactivate_task(struct fair_rq *rq, struct fair_task *p,
			    unsigned fl)
{
	if (dequeue_task(rq, p, fl))
		rq->nr_running--;
}

void fair_delayed_gone(struct fair_rq *rq)
{
	rq->nr_running--;
}

/* A delayed entity that must leave for real now (a class change, its
   end): the class's full dequeue. */
static void undelay(struct fair_task *p)
{
	if (p->delayed)
		deactivate_task(p->rq, p, 0);
}

static struct fair_task *curr_of(const struct fair_rq *rq)
{
	return (struct fair_task *)rq->base.curr;
}

/*
 * check_preempt_curr: a task of a higher class preempts at once; within
 * the RT class a strictly higher prio; within the fair class the class
 * decides; the idle task always gives way.
 */
static void check_preempt_curr(struct fair_rq *rq, struct fair_task *p)
{
	struct fair_task *curr = curr_of(rq);

	if (!curr) {
		fair_resched(rq);
		return;
	}
	if (curr == p)
		return;
	if (fair_is_rt(p)) {
		if (!fair_is_rt(curr) || p->prio < curr->prio)
			fair_resched(rq);
		return;
	}
	if (fair_is_rt(curr))
		return;
	if (CLS(rq)->wakeup_preempt(rq, p))
		fair_resched(rq);
}

/* ---- observer ---- */

static void view_of(const struct fair_task *p, struct sm_view *v)
{
	const struct fair_rq *rq = p->rq;

	memset(v, 0, sizeof(*v));
	v->prio = p->prio;
	v->static_prio = p->static_prio;
	v->sleep_avg = -1;
	v->credit = -1;
	if (fair_is_rt(p))
		v->time_slice = p->policy == SM_SCHED_RR ? p->time_slice : -1;
	else
		v->time_slice = CLS(rq)->view_slice ?
			CLS(rq)->view_slice(p) : -1;
	v->array = queued(p) && !p->delayed ? SM_ARRAY_ACTIVE : SM_ARRAY_NONE;
	v->state = p->state;
	v->on_cpu = p->base.on_cpu;
	v->interactive = false;
	v->first_time_slice = false;
	v->activated = -1;
	v->last_run = p->last_run;
}

void fair_note(struct fair_task *p, enum sm_change why)
{
	struct fair_rq *rq = p->rq;
	struct sm_view v;

	view_of(p, &v);
	/* the pick-time recalc is passive here */
	sm_report(&rq->base, &p->base, &p->reported, why,
		  sm_change_passive(why) || why == SM_CH_RECALC, &v);
}

/* ---- sm_policy entry points ---- */

struct sm_rq *fair_rq_new(const struct fair_rules *rules, int cpu,
			  unsigned long j, const struct sm_observer *obs)
{
	struct fair_rq *rq = calloc(1, sizeof(*rq));

	if (!rq)
		return NULL;
	rq->rules = rules;
	sm_rq_init(&rq->base, rules->policy, cpu, j, obs);
	/* init_cfs_rq: just below the wrap, to catch wraparound bugs */
	rq->min_vruntime = (uint64_t)(-(1LL << 20));
	return &rq->base;
}

void fair_rq_free(struct sm_rq *srq)
{
	struct fair_rq *rq = fair_rq_of(srq);

	if (!rq)
		return;
	free(rq->q);
	free(rq);
}

static void set_class(struct fair_task *p, int policy, int rtp)
{
	p->policy = policy;
	p->rt_priority = rtp;
	p->prio = policy != SM_SCHED_NORMAL ? FAIR_MAX_RT_PRIO - 1 - rtp :
		p->static_prio;
}

/* A task alive before the trace: asleep, a fresh entity (vruntime 0,
   lag 0), placed as any sleeper when it is woken. */
struct sm_task *fair_task_new(struct sm_rq *srq, const struct sm_task_info *in)
{
	struct fair_rq *rq = fair_rq_of(srq);
	struct fair_task *p = calloc(1, sizeof(*p));
	int nice = in->nice < -20 ? -20 : in->nice > 19 ? 19 : in->nice;
	int policy, rtp;

	if (!p)
		return NULL;
	p->base.info = *in;
	p->base.info.nice = nice;
	p->rq = rq;
	p->state = SM_STATE_SLEEPING;
	p->static_prio = FAIR_NICE_TO_PRIO(nice);
	sm_task_class(in, FAIR_MAX_RT_PRIO - 1, &policy, &rtp);
	set_class(p, policy, rtp);
	p->base.info.policy = p->policy;
	p->base.info.rt_priority = p->rt_priority;
	set_load_weight(p);
	p->time_slice = rr_timeslice(rq);
	p->slice = (uint64_t)K(rq).sched_base_slice_ns;
	p->vruntime = rq->min_vruntime;
	p->last_run = rq->base.jiffies;
	fair_note(p, SM_CH_NEW);
	return &p->base;
}

/* sched_fork + wake_up_new_task: a copy of the parent's class and nice,
   a fresh entity the class places; the child's queue is the parent's. */
struct sm_task *fair_fork(struct sm_rq *srq, struct sm_task *sparent,
			  const struct sm_task_info *in, unsigned flags)
{
	struct fair_task *parent = fair_task_of(sparent);
	struct fair_rq *rq = parent->rq;
	struct fair_task *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->base.info = parent->base.info;
	p->base.info.id = in->id;
	p->base.info.has_mm = in->has_mm;
	p->base.info.group = in->group;
	p->base.info.init_sleep_pct = 0;
	p->rq = rq;
	p->static_prio = parent->static_prio;
	set_class(p, parent->policy, parent->rt_priority);
	set_load_weight(p);
	p->time_slice = parent->time_slice;
	p->slice = (uint64_t)K(rq).sched_base_slice_ns;
	p->vruntime = parent->vruntime;
	p->last_run = rq->base.jiffies;
	if (flags & SM_FORK_STOPPED) {
		p->state = SM_STATE_STOPPED;
	} else {
		p->state = SM_STATE_RUNNABLE;
		if (!fair_is_rt(p) && !fair_is_rt(parent) && parent->on_rq) {
			CLS(rq)->fork(rq, parent, p);
			rq->nr_running++;
		} else {
			activate_task(rq, p, FAIR_INITIAL);
		}
		check_preempt_curr(rq, p);
	}
	if (flags & SM_FORK_VFORK) {
		fair_note(parent, SM_CH_FORK);
		fair_block(&rq->base, &parent->base);
	} else {
		fair_note(parent, SM_CH_FORK);
	}
	fair_note(p, SM_CH_FORK);
	return &p->base;
}

/* try_to_wake_up: onto rq; a sync wakeup does not preempt (2.6.23) and
   EEVDF ignores the hint (6.6's wakeup_preempt has no use for it). */
void fair_wake(struct sm_rq *srq, struct sm_task *t, unsigned flags)
{
	struct fair_rq *rq = fair_rq_of(srq);
	struct fair_task *p = fair_task_of(t);

	if (p->state != SM_STATE_SLEEPING && p->state != SM_STATE_STOPPED)
		return;
	if (p->delayed) {
		/* ttwu_runnable: back in place, on its own queue */
		CLS(p->rq)->requeue(p->rq, p);
		p->state = SM_STATE_RUNNABLE;
		if (!p->base.on_cpu)
			check_preempt_curr(p->rq, p);
		fair_note(p, SM_CH_WAKE);
		return;
	}
	if (!queued(p)) {
		if (p->rq != rq && CLS(rq)->migrate && !fair_is_rt(p))
			CLS(rq)->migrate(p->rq, rq, p);
		p->rq = rq;
		activate_task(rq, p, FAIR_WAKEUP);
		if (!(flags & SM_WAKE_SYNC) || !rq->base.curr ||
		    CLS(rq)->sync_wake_preempts)
			check_preempt_curr(rq, p);
	}
	p->state = SM_STATE_RUNNABLE;
	fair_note(p, SM_CH_WAKE);
}

static void fair_dequeue(struct fair_task *p)
{
	deactivate_task(p->rq, p, 0);
}

SM_TASK_STEPS(, fair, struct fair_task, fair_task_of, fair_note, fair_resched,
	      queued, fair_dequeue)

/* No sched_exit in these kernels: reaping gives nothing back. */
void fair_reap(struct sm_rq *srq, struct sm_task *sparent, struct sm_task *t)
{
	sm_task_step(t, &fair_task_of(t)->state, SM_STEP_REAP, &fair_steps);
}

/* scheduler_tick: the running task's class. */
void fair_tick(struct sm_rq *srq)
{
	struct fair_rq *rq = fair_rq_of(srq);
	struct fair_task *p = curr_of(rq);

	if (!p)
		return;
	if (!queued(p)) {
		fair_resched(rq);
		return;
	}
	if (fair_is_rt(p)) {
		/* task_tick_rt: only SCHED_RR's slice, and a requeue only
		   behind peers of its prio */
		if (p->policy == SM_SCHED_RR && !--p->time_slice) {
			p->time_slice = rr_timeslice(rq);
			if (rq->nrt[p->prio] > 1) {
				rt_dequeue(rq, p);
				rt_enqueue(rq, p, false);
				fair_resched(rq);
				fair_note(p, SM_CH_REQUEUE);
				return;
			}
		}
		fair_note(p, SM_CH_TICK);
		return;
	}
	CLS(rq)->tick(rq, p);
	fair_note(p, SM_CH_TICK);
}

/* schedule()'s switch: prev's last_run; a fair next goes to the head of
   rq->cfs_tasks. */
static enum sm_change fair_switch_off(struct sm_task *t)
{
	struct fair_task *prev = fair_task_of(t);

	prev->last_run = prev->rq->base.jiffies;
	return sm_switch_why(queued(prev), prev->state);
}

static void fair_switch_on(struct sm_task *t)
{
	struct fair_task *next = fair_task_of(t);

	if (!fair_is_rt(next))
		next->mru = ++next->rq->seq;
}

static const struct sm_switch_ops fair_switch = {
	fair_step_note, fair_switch_off, fair_switch_on
};

/* schedule(): deactivate a prev that sleeps, pick RT first, then fair. */
struct sm_task *fair_schedule(struct sm_rq *srq)
{
	struct fair_rq *rq = fair_rq_of(srq);
	struct fair_task *prev = curr_of(rq), *next;

	if (prev && prev->state != SM_STATE_RUNNABLE && queued(prev) &&
	    !prev->delayed)
		deactivate_task(rq, prev, prev->state == SM_STATE_SLEEPING ?
				FAIR_SLEEP : 0);
	/* SMP: idle_balance() (2.6.23), newidle_balance() (6.6) */
	if (!rq->nr_running && rq->base.idle_balance.fn)
		rq->base.idle_balance.fn(rq->base.idle_balance.ctx, &rq->base);
	if (rq->rt_nr_running) {
		next = rt_pick(rq);
		/* a fair prev goes back into its queue */
		CLS(rq)->put_prev(rq);
	} else if (rq->cfs_nr_running) {
		next = CLS(rq)->pick(rq);
	} else {
		CLS(rq)->put_prev(rq);
		next = NULL;
	}
	return sm_rq_switch(&rq->base, prev ? &prev->base : NULL,
			    next ? &next->base : NULL, &fair_switch);
}

void fair_yield(struct sm_rq *srq, struct sm_task *t)
{
	struct fair_task *p = fair_task_of(t);
	struct fair_rq *rq = p->rq;

	if (!queued(p) || p->state != SM_STATE_RUNNABLE)
		return;
	if (fair_is_rt(p)) {
		rt_dequeue(rq, p);
		rt_enqueue(rq, p, false);
	} else if (p->base.on_cpu) {
		CLS(rq)->yield(rq, p);
	}
	sm_task_yielded(&p->base, &fair_steps);
}

/*
 * set_user_nice: a new weight, the entity keeps its place (no
 * re-placement); resched if the running task got worse or a waiting one
 * better.
 */
void fair_set_nice(struct sm_rq *srq, struct sm_task *t, int nice)
{
	struct fair_task *p = fair_task_of(t);
	struct fair_rq *rq = p->rq;
	int old = p->static_prio;

	if (nice < -20 || nice > 19 || FAIR_NICE_TO_PRIO(nice) == old)
		return;
	p->base.info.nice = nice;
	if (!fair_is_rt(p) && p->on_rq) {
		if (rq->curr_se == p)
			CLS(rq)->update_curr(rq);
		rq->load_weight -= p->weight;
	}
	p->static_prio = FAIR_NICE_TO_PRIO(nice);
	if (in_q(rq, p)) { /* its share of q's sums, at its new weight */
		rq->q_vw -= p->vruntime * p->weight;
		rq->q_w -= p->weight;
		set_load_weight(p);
		rq->q_vw += p->vruntime * p->weight;
		rq->q_w += p->weight;
	} else {
		set_load_weight(p);
	}
	if (!fair_is_rt(p)) {
		p->prio = p->static_prio;
		if (p->on_rq) {
			rq->load_weight += p->weight;
			rq->load_inv_weight = 0;
		}
		if (queued(p) && ((p->base.on_cpu && p->static_prio > old) ||
				  (!p->base.on_cpu && p->static_prio < old)))
			fair_resched(rq);
	}
	fair_note(p, SM_CH_NICE);
}

/* sched_setscheduler: out of one class into the other, keeping the
   entity's vruntime and lag (neither kernel re-places it). */
void fair_setscheduler(struct sm_rq *srq, struct sm_task *t, int policy,
		       int rtp)
{
	struct fair_task *p = fair_task_of(t);
	struct fair_rq *rq = p->rq;
	bool was = queued(p), running = p->base.on_cpu;

	if (!sm_policy_valid(policy, rtp, FAIR_MAX_RT_PRIO - 1))
		return;
	if (p->delayed) {
		undelay(p);
		was = false;
	}
	if (was) {
		if (running && !fair_is_rt(p))
			CLS(rq)->update_curr(rq);
		dequeue_task(rq, p, FAIR_RESTORE);
		if (running && rq->curr_se == p)
			rq->curr_se = NULL;
	}
	set_class(p, policy, rtp);
	p->base.info.policy = policy;
	p->base.info.rt_priority = rtp;
	if (was) {
		enqueue_task(rq, p, FAIR_RESTORE);
		if (running && !fair_is_rt(p) && p->on_rq) {
			/* it runs on as the class's current entity */
			fair_q_del(rq, p);
			rq->curr_se = p;
			p->exec_start = fair_now(rq);
		}
		if (running)
			fair_resched(rq);
		else
			check_preempt_curr(rq, p);
	}
	fair_note(p, SM_CH_SETSCHED);
}

/* The balancer's move: a queued task that is not running, src to dst. */
void fair_migrate(struct sm_rq *ssrc, struct sm_rq *sdst, struct sm_task *t)
{
	struct fair_task *p = fair_task_of(t);
	struct fair_rq *src = p->rq, *dst = fair_rq_of(sdst);

	if (!queued(p) || p->base.on_cpu || src == dst || p->delayed)
		return;
	deactivate_task(src, p, FAIR_MIGRATED);
	if (!fair_is_rt(p) && CLS(src)->migrate)
		CLS(src)->migrate(src, dst, p);
	p->rq = dst;
	activate_task(dst, p, FAIR_MIGRATED);
	check_preempt_curr(dst, p);
	fair_note(p, SM_CH_MIGRATE);
}

/*
 * Why p, queued on rq and not running, waits (docs/models.md, "Why a task
 * waits"): the RT class by priority and list order, as the O(1) family
 * says it; a fair task behind an RT one by priority; two fair tasks in
 * the class's own terms.
 */
void fair_why_waiting(const struct sm_rq *srq, const struct sm_task *t,
		      struct sm_why *w)
{
	const struct fair_rq *rq = (const struct fair_rq *)srq;
	const struct fair_task *p = (const struct fair_task *)t;
	const struct fair_task *curr = curr_of(rq);

	if (!queued(p) || p->base.on_cpu || p->delayed)
		return;
	if (!curr) {
		w->code = SM_WHY_TICK;
		return;
	}
	if (fair_is_rt(curr) && (!fair_is_rt(p) || curr->prio < p->prio)) {
		w->code = SM_WHY_LOWER_PRIO;
		return;
	}
	if (fair_is_rt(p)) {
		int32_t n = 0;

		for (const struct fair_task *x = rq->rt_head[p->prio];
		     x && x != p; x = x->rt_next)
			n++;
		if (fair_is_rt(curr) && curr->prio == p->prio) {
			w->code = SM_WHY_SAME_PRIO_QUEUE;
			w->ahead = n;
		} else {
			w->code = rq->base.need_resched ? SM_WHY_TICK
							: SM_WHY_NO_PREEMPT;
		}
		return;
	}
	CLS(rq)->why(rq, p, w);
}

bool fair_still_queued(const struct sm_task *t)
{
	return ((const struct fair_task *)t)->delayed;
}

void fair_view_sm(const struct sm_task *t, struct sm_view *v)
{
	view_of((const struct fair_task *)t, v);
}

void fair_task_free(struct sm_rq *srq, struct sm_task *t)
{
	struct fair_task *p = fair_task_of(t);

	if (!p)
		return;
	undelay(p);
	if (queued(p)) {
		if (p->base.on_cpu && p->rq->curr_se == p)
			p->rq->curr_se = NULL;
		else
			deactivate_task(p->rq, p, 0);
	}
	sm_rq_task_gone(&p->rq->base, &p->base);
	free(p);
}

#define FAIL(...) do { snprintf(why, whylen, __VA_ARGS__); return 1; } \
	while (0)

int fair_check(const struct sm_rq *srq, char *why, size_t whylen)
{
	const struct fair_rq *rq = (const struct fair_rq *)srq;
	const struct fair_task *curr = curr_of(rq);
	unsigned long rt = 0, cfs = 0, load = 0, delayed = 0;
	uint64_t vw = 0, w = 0;

	for (int prio = 0; prio < FAIR_MAX_RT_PRIO; prio++)
		for (const struct fair_task *p = rq->rt_head[prio]; p;
		     p = p->rt_next) {
			if (p->rq != rq || !p->rt_queued || p->prio != prio ||
			    !fair_is_rt(p))
				FAIL("rt list %d: task %u misfiled", prio,
				     p->base.info.id);
			if (p->state != SM_STATE_RUNNABLE && !p->base.on_cpu)
				FAIL("task %u: queued, not runnable",
				     p->base.info.id);
			rt++;
		}
	if (rt != rq->rt_nr_running)
		FAIL("rt_nr_running %lu, lists hold %lu", rq->rt_nr_running,
		     rt);
	for (size_t i = 0; i < rq->nq; i++) {
		const struct fair_task *p = rq->q[i];

		if (p->qpos != i || p->rq != rq || !p->on_rq || fair_is_rt(p))
			FAIL("fair queue: task %u misfiled", p->base.info.id);
		if (p == rq->curr_se)
			FAIL("task %u both current and queued",
			     p->base.info.id);
		if (p->state != SM_STATE_RUNNABLE && !p->base.on_cpu &&
		    !p->delayed)
			FAIL("task %u: queued, not runnable", p->base.info.id);
		if (p->delayed && p->state == SM_STATE_RUNNABLE)
			FAIL("task %u: delayed, but runnable", p->base.info.id);
		delayed += p->delayed;
		cfs++;
		load += p->weight;
		vw += p->vruntime * p->weight;
		w += p->weight;
	}
	if (vw != rq->q_vw || w != rq->q_w)
		FAIL("queue sums kept %llu, %llu; the queue holds %llu, %llu",
		     (unsigned long long)rq->q_vw, (unsigned long long)rq->q_w,
		     (unsigned long long)vw, (unsigned long long)w);
	if (rq->curr_se && rq->curr_se->on_rq) {
		cfs++;
		load += rq->curr_se->weight;
	}
	if (delayed != rq->nr_delayed)
		FAIL("nr_delayed %lu, queue holds %lu", rq->nr_delayed, delayed);
	if (cfs != rq->cfs_nr_running)
		FAIL("cfs nr_running %lu, queue holds %lu", rq->cfs_nr_running,
		     cfs);
	if (load != rq->load_weight)
		FAIL("load %lu, entities weigh %lu", rq->load_weight, load);
	if (rt + cfs != rq->nr_running)
		FAIL("nr_running %lu, classes hold %lu", rq->nr_running,
		     rt + cfs);
	if (curr) {
		if (!curr->base.on_cpu || curr->rq != rq)
			FAIL("curr %u not on this cpu", curr->base.info.id);
		if (!queued(curr) && curr->state == SM_STATE_RUNNABLE)
			FAIL("curr %u runnable, not queued",
			     curr->base.info.id);
		if (!fair_is_rt(curr) && queued(curr) && rq->curr_se != curr)
			FAIL("curr %u is not the fair class's current",
			     curr->base.info.id);
	} else if (rq->curr_se) {
		FAIL("idle, but task %u is the fair current",
		     rq->curr_se->base.info.id);
	}
	return 0;
}

int fair_sched_init(struct sm_sched *s, const struct fair_rules *base)
{
	static const struct { const char *knob; long flag; } scales[] = {
		{ "sched_latency_ns", FAIR_SCALE_LATENCY },
		{ "sched_min_granularity_ns", FAIR_SCALE_MIN_GRAN },
		{ "sched_wakeup_granularity_ns", FAIR_SCALE_WAKEUP_GRAN },
		{ "base_slice_ns", FAIR_SCALE_BASE_SLICE },
	};
	struct fair_rules *r = sm_sched_priv_copy(s, base, sizeof(*base),
					offsetof(struct fair_rules, k));

	if (!r)
		return -1;
	r->k.scaled = 0;
	for (size_t i = 0; i < sizeof(scales) / sizeof(scales[0]); i++)
		if (!sm_tuning_is_set(&s->tuning, scales[i].knob))
			r->k.scaled |= scales[i].flag;
	return 0;
}
