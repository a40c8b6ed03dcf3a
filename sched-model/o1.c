/*
 * o1: the O(1) runqueue and the kernel functions every policy of the
 * family shares (docs/models.md: "The runqueue", the stock sections of
 * "The O(1) rules", "Conventions at one instant"): priority arrays,
 * enqueue at tail and head, find-first-bit pick, array swap, scheduler_tick,
 * schedule(), try_to_wake_up, fork, sched_exit, yield, set_user_nice,
 * setscheduler, pull_task, the observer reports and the invariant check.
 * What differs between policies comes in through struct o1_rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"	/* the running policy's values */

/* ---- list_head ---- */

static void list_init(struct o1_list *l)
{
	l->next = l->prev = l;
}

static bool list_empty(const struct o1_list *l)
{
	return l->next == l;
}

static void list_insert(struct o1_list *n, struct o1_list *prev,
			struct o1_list *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

/* list_add: right after head (the head of the queue) */
static void list_add(struct o1_list *n, struct o1_list *head)
{
	list_insert(n, head, head->next);
}

/* list_add_tail: right before head (the tail of the queue) */
static void list_add_tail(struct o1_list *n, struct o1_list *head)
{
	list_insert(n, head->prev, head);
}

static void list_del(struct o1_list *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	list_init(e);
}

#define task_of_list(l) \
	((struct o1_task *)((char *)(l) - offsetof(struct o1_task, run_list)))

/* ---- bitmap ---- */

static void set_bit(int nr, uint64_t *map)
{
	map[nr / 64] |= (uint64_t)1 << (nr % 64);
}

static void clear_bit(int nr, uint64_t *map)
{
	map[nr / 64] &= ~((uint64_t)1 << (nr % 64));
}

static bool test_bit(int nr, const uint64_t *map)
{
	return (map[nr / 64] >> (nr % 64)) & 1;
}

/* Lowest set bit; bit MAX_PRIO is always set, so an empty array gives
   MAX_PRIO, as the kernel's delimiter bit does. */
int sched_find_first_bit(const uint64_t *bitmap)
{
	for (int w = 0; w < BITMAP_WORDS; w++)
		if (bitmap[w])
			return w * 64 + __builtin_ctzll(bitmap[w]);
	return BITMAP_BITS;
}

static void prio_array_init(struct prio_array *a)
{
	memset(a, 0, sizeof(*a));
	for (int i = 0; i < MAX_PRIO; i++)
		list_init(&a->queue[i]);
	set_bit(MAX_PRIO, a->bitmap);
}

/* ---- enqueue / dequeue (kernel: dequeue_task, enqueue_task, ...) ---- */

void dequeue_task(struct o1_task *p, struct prio_array *array)
{
	array->nr_active--;
	list_del(&p->run_list);
	if (list_empty(array->queue + p->prio))
		clear_bit(p->prio, array->bitmap);
}

void enqueue_task(struct o1_task *p, struct prio_array *array)
{
	list_add_tail(&p->run_list, array->queue + p->prio);
	set_bit(p->prio, array->bitmap);
	array->nr_active++;
	p->array = array;
}

void enqueue_head_task(struct o1_task *p, struct prio_array *array)
{
	list_add(&p->run_list, array->queue + p->prio);
	set_bit(p->prio, array->bitmap);
	array->nr_active++;
	p->array = array;
}

/* wake_up_forked_process: list_add_tail(&p->run_list, &current->run_list)
   puts p just before `at` in at's list; p->prio == at->prio. */
void enqueue_before(struct o1_task *p, struct o1_task *at)
{
	list_add_tail(&p->run_list, &at->run_list);
	p->array = at->array;
	p->array->nr_active++;
	set_bit(p->prio, p->array->bitmap); /* already set: at is there */
}

void requeue_task_tail(struct o1_task *p)
{
	list_del(&p->run_list);
	list_add_tail(&p->run_list, p->array->queue + p->prio);
}

/* ---- the shared kernel functions ---- */

/* BASE_TIMESLICE(p): 10 + 190*(19 - nice)/39, by static_prio only. */
unsigned int task_timeslice(const struct o1_task *p)
{
	const struct o1_rq *rq = p->rq;

	return (unsigned int)(MIN_TIMESLICE + ((MAX_TIMESLICE - MIN_TIMESLICE) *
		(MAX_PRIO - 1 - p->static_prio) / (MAX_USER_PRIO - 1)));
}

/*
 * effective_prio: static_prio - bonus, clamped to the normal range, with
 * bonus = MAX_USER_PRIO*PRIO_BONUS_RATIO*sleep_avg/MAX_SLEEP_AVG/100 - 5.
 * The kernel computes the first term in unsigned long and lets the
 * subtraction wrap into an int; we subtract after the conversion, which
 * gives the same value without relying on the wrap.  G3 and A3 keep
 * sleep_avg in nanoseconds and divide both by 1024 first (32-bit room).
 */
int effective_prio(const struct o1_task *p)
{
	const struct o1_rq *rq = p->rq;
	int bonus, prio;

	if (rq->rules->prio_override && rq->rules->prio_override(p, &prio))
		return prio;
	if (rt_task(p))
		return p->prio;

	if (rq->rules->sleep_avg_ns)
		bonus = (int)(MAX_USER_PRIO * PRIO_BONUS_RATIO *
			      (p->sleep_avg / 1024) /
			      (unsigned long)(MAX_SLEEP_AVG / 1024) / 100);
	else
		bonus = (int)(MAX_USER_PRIO * PRIO_BONUS_RATIO * p->sleep_avg /
			      (unsigned long)MAX_SLEEP_AVG / 100);
	bonus -= MAX_USER_PRIO * PRIO_BONUS_RATIO / 100 / 2;

	prio = p->static_prio - bonus;
	if (prio < MAX_RT_PRIO)
		prio = MAX_RT_PRIO;
	if (prio > MAX_PRIO - 1)
		prio = MAX_PRIO - 1;
	return prio;
}

/* EXPIRED_STARVING(rq) */
bool expired_starving(const struct o1_rq *rq)
{
	if (rq->rules->expired_starving)
		return rq->rules->expired_starving(rq);
	return STARVATION_LIMIT && rq->expired_timestamp &&
	       jiffies - rq->expired_timestamp >=
			(unsigned long)STARVATION_LIMIT * rq->nr_running + 1;
}

void __activate_task(struct o1_rq *rq, struct o1_task *p)
{
	enqueue_task(p, rq->active);
	rq->nr_running++;
}

void deactivate_task(struct o1_rq *rq, struct o1_task *p)
{
	rq->nr_running--;
	dequeue_task(p, p->array);
	p->array = NULL;
}

void resched_curr(struct o1_rq *rq)
{
	rq->base.need_resched = true;
}

unsigned long long sched_clock_of(const struct o1_rq *rq)
{
	return rq->base.clock;
}

int curr_prio(const struct o1_rq *rq)
{
	const struct o1_task *c = o1_curr(rq);

	return c ? c->prio : IDLE_PRIO;
}

/* Stock try_to_wake_up: p->prio < rq->curr->prio; idle (140) always. */
bool o1_prio_preempts(const struct o1_rq *rq, const struct o1_task *p)
{
	return p->prio < curr_prio(rq);
}

/* TASK_PREEMPTS_CURR(p, rq) of O10 and later. */
bool o1_task_preempts_curr(const struct o1_rq *rq, const struct o1_task *p)
{
	const struct o1_task *curr = o1_curr(rq);

	if (!curr)
		return p->prio < IDLE_PRIO;
	return p->prio < curr->prio ||
		(p->prio == curr->prio &&
		 p->time_slice > 2 * curr->time_slice);
}

/* Slice expiry of stock and test2-mm1 (docs/models.md, "Stock: the tick
   and schedule()", scheduler_tick step 5). */
void o1_expire_plain(struct o1_rq *rq, struct o1_task *p)
{
	if (!TASK_INTERACTIVE(p) || expired_starving(rq)) {
		enum o1_entry e = o1_expired_entry(rq, p);

		if (!rq->expired_timestamp)
			rq->expired_timestamp = jiffies;
		enqueue_task(p, rq->expired);
		o1_note_entry(p, SM_CH_EXPIRE, e);
	} else {
		enqueue_task(p, rq->active);
		o1_note(p, SM_CH_REQUEUE);
	}
}

/*
 * The mid-slice round-robin (TIMESLICE_GRANULARITY, O10 and G3 on): p to
 * the tail of its active list, its prio recomputed first with NEW_PRIO
 * (G3, A3) or kept (O10 and O11int).
 */
void o1_granularity_requeue(struct o1_rq *rq, struct o1_task *p,
			    bool new_prio)
{
	dequeue_task(p, rq->active);
	resched_curr(rq);
	if (new_prio)
		p->prio = effective_prio(p);
	enqueue_task(p, rq->active);
	o1_note_entry(p, SM_CH_REQUEUE, O1_IN_GRAN);
}

/*
 * schedule(), the picked task activated by a wakeup: its runqueue wait
 * credited now, by RECALC at NOW, off its list and back at the tail of the
 * same list.
 */
void o1_pick_recalc(struct o1_rq *rq, struct o1_task *next,
		    o1_recalc_fn recalc, unsigned long long now)
{
	struct prio_array *array = next->array;

	next->activated = 0;
	dequeue_task(next, array);
	recalc(rq, next, now);
	enqueue_task(next, array);
	o1_note(next, SM_CH_RECALC);
}

/*
 * scheduler_tick() for task p, which is current (or the forking parent
 * whose slice split left nothing: copy_process ticks it at once).
 */
void o1_tick_task(struct o1_rq *rq, struct o1_task *p)
{
	if (!p)
		return; /* idle: nothing (the simulator's rebalance_tick) */

	/* Task might have expired already, but not scheduled off yet */
	if (p->array != rq->active) {
		resched_curr(rq);
		return;
	}
	if (p->sleep_avg && !rq->rules->sleep_avg_ns)
		p->sleep_avg--;
	if (rq->rules->tick_task && rq->rules->tick_task(rq, p))
		return;
	if (rt_task(p)) {
		if (p->policy == SM_SCHED_RR && !--p->time_slice) {
			p->time_slice = task_timeslice(p);
			p->first_time_slice = 0;
			resched_curr(rq);
			/* put it at the end of the queue */
			dequeue_task(p, rq->active);
			enqueue_task(p, rq->active);
			o1_note(p, SM_CH_REQUEUE);
			return;
		}
		o1_note(p, SM_CH_TICK);
		return;
	}
	if (!--p->time_slice) {
		dequeue_task(p, rq->active);
		resched_curr(rq);
		p->prio = effective_prio(p);
		p->time_slice = task_timeslice(p);
		p->first_time_slice = 0;
		rq->rules->slice_expired(rq, p);
		return;
	}
	if (rq->rules->slice_continues)
		rq->rules->slice_continues(rq, p);
	o1_note(p, SM_CH_TICK);
}

/* ---- observer ---- */

void o1_view(const struct o1_task *p, struct sm_view *v)
{
	const struct o1_rq *rq = p->rq;
	const struct o1_rules *r = rq->rules;

	memset(v, 0, sizeof(*v));
	v->prio = p->prio;
	v->static_prio = p->static_prio;
	v->sleep_avg = r->sleep_avg_ns ?
		(long)(p->sleep_avg / NSEC_PER_JIFFY) : (long)p->sleep_avg;
	v->credit = r->has_credit ? (long)p->interactive_credit : -1;
	v->time_slice = (long)p->time_slice;
	v->array = !p->array ? SM_ARRAY_NONE :
		p->array == rq->active ? SM_ARRAY_ACTIVE : SM_ARRAY_EXPIRED;
	v->state = p->state;
	v->on_cpu = p->base.on_cpu;
	v->interactive = !rt_task(p) && TASK_INTERACTIVE(p);
	v->first_time_slice = p->first_time_slice != 0;
	v->activated = r->has_activated ? p->activated : -1;
	v->last_run = r->sleep_avg_ns ?
		(unsigned long)(p->timestamp / NSEC_PER_JIFFY) : p->last_run;
}

/* Where an event leaves a task in its queue (for why_waiting). */
static void note_entry(struct o1_task *p, enum sm_change why, int entry)
{
	static const signed char by_event[SM_CH__COUNT] = {
		[SM_CH_NEW] = O1_IN_WAKE, [SM_CH_FORK] = O1_IN_WAKE,
		[SM_CH_WAKE] = O1_IN_WAKE, [SM_CH_PREEMPT] = O1_IN_PREEMPT,
		[SM_CH_REQUEUE] = O1_IN_REQUEUE, [SM_CH_EXPIRE] = O1_IN_EXPIRE,
		[SM_CH_YIELD] = O1_IN_YIELD, [SM_CH_MIGRATE] = O1_IN_PULL,
		[SM_CH_BLOCK] = -2, [SM_CH_EXIT] = -2, [SM_CH_RUN] = O1_IN_RAN,
		/* the others leave it where it is */
		[SM_CH_REAP] = -1, [SM_CH_STATE] = -1,
		[SM_CH_TICK] = -1, [SM_CH_RECALC] = -1, [SM_CH_CHARGE] = -1,
		[SM_CH_SWAP] = -1, [SM_CH_NICE] = -1, [SM_CH_SETSCHED] = -1,
		[SM_CH_REFUND] = -1,
	};
	int e = entry >= 0 ? entry : by_event[why];

	if (why == SM_CH_FORK && p->base.on_cpu)
		return; /* the parent: it stays where it is */
	if (why == SM_CH_PREEMPT && p->entry != O1_IN_RAN)
		return; /* moved while it ran (requeued, expired): that says
			   why it is where it is */
	if (e == -2) {
		p->credit_kept = false; /* off the queue */
		return;
	}
	if (e < 0)
		return;
	p->entry = (uint8_t)e;
	/* a slice's end or a yield decides anew who is kept active */
	if (why == SM_CH_EXPIRE || why == SM_CH_REQUEUE || why == SM_CH_YIELD ||
	    why == SM_CH_WAKE || why == SM_CH_FORK || why == SM_CH_NEW)
		p->credit_kept = e == O1_IN_CREDIT;
}

static void report(struct o1_task *p, enum sm_change why);

void o1_note(struct o1_task *p, enum sm_change why)
{
	note_entry(p, why, -1);
	report(p, why);
}

void o1_note_entry(struct o1_task *p, enum sm_change why, enum o1_entry entry)
{
	note_entry(p, why, (int)entry);
	report(p, why);
}

enum o1_entry o1_expired_entry(const struct o1_rq *rq, const struct o1_task *p)
{
	return !rt_task(p) && TASK_INTERACTIVE(p) && expired_starving(rq) ?
		O1_IN_STARVING : O1_IN_EXPIRE;
}

static void report(struct o1_task *p, enum sm_change why)
{
	struct o1_rq *rq = p->rq;
	struct sm_view v;

	o1_view(p, &v);
	sm_report(&rq->base, &p->base, &p->reported, why,
		  sm_change_passive(why), &v);
}

/* ---- tunings ---- */

void o1_derive_mm1(struct sm_tuning *t)
{
	long min = sm_tuning_get(t, "MIN_TIMESLICE", MIN_TIMESLICE_DEFAULT);
	long max = sm_tuning_get(t, "MAX_TIMESLICE", MAX_TIMESLICE_DEFAULT);

	sm_tuning_derive(t, "MAX_SLEEP_AVG",
			 O1_AVG_TIMESLICE(min, max) * MAX_BONUS);
	sm_tuning_derive(t, "STARVATION_LIMIT",
			 sm_tuning_get(t, "MAX_SLEEP_AVG", 0));
}

int o1_knob_check(const struct sm_tuning *t, char *why, size_t len)
{
	long min = sm_tuning_get(t, "MIN_TIMESLICE", MIN_TIMESLICE_DEFAULT);
	long max = sm_tuning_get(t, "MAX_TIMESLICE", MAX_TIMESLICE_DEFAULT);

	if (min > max) {
		snprintf(why, len, "MIN_TIMESLICE=%ld is above MAX_TIMESLICE=%ld",
			 min, max);
		return 1;
	}
	return 0;
}

int o1_sched_init(struct sm_sched *s, const struct o1_rules *base)
{
	struct o1_rules *r = sm_sched_priv_copy(s, base, sizeof(*base),
						offsetof(struct o1_rules, k));

	if (!r)
		return -1;
	r->k.sleep_avg_bound = r->sleep_avg_bound ? r->sleep_avg_bound(&r->k) :
		(unsigned long)r->k.max_sleep_avg;
	return 0;
}

/* ---- sm_policy entry points ---- */

struct sm_rq *o1_rq_new(const struct o1_rules *rules, int cpu,
			unsigned long j, const struct sm_observer *obs)
{
	struct o1_rq *rq = calloc(1, sizeof(*rq));

	if (!rq)
		return NULL;
	rq->rules = rules;
	sm_rq_init(&rq->base, rules->policy, cpu, j, obs);
	prio_array_init(&rq->arrays[0]);
	prio_array_init(&rq->arrays[1]);
	rq->active = &rq->arrays[0];
	rq->expired = &rq->arrays[1];
	return &rq->base;
}

void o1_rq_free(struct sm_rq *rq)
{
	free(rq);
}

static void set_policy_fields(struct o1_task *p, int policy, int rtp)
{
	p->policy = policy;
	p->rt_priority = (unsigned long)rtp;
	p->prio = policy != SM_SCHED_NORMAL ?
		MAX_USER_RT_PRIO - 1 - rtp : p->static_prio;
	if (p->rq->rules->policy_set)
		p->rq->rules->policy_set(p);
}

/* A valid (policy, rt_priority) pair, as sys_sched_setscheduler checks. */
/*
 * A task alive before the trace starts (docs/models.md, "Defaults"):
 * asleep and not queued, sleep_avg 0 (or init_sleep_pct of MAX_SLEEP_AVG),
 * credit 0, a full slice, last_run = now, prio = effective_prio.
 */
struct sm_task *o1_task_new(struct sm_rq *srq, const struct sm_task_info *info)
{
	struct o1_rq *rq = o1_rq_of(srq);
	struct o1_task *p = calloc(1, sizeof(*p));
	int nice = info->nice, pct = info->init_sleep_pct, policy, rtp;

	if (!p)
		return NULL;
	p->base.info = *info;
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	p->base.info.nice = nice;
	if (pct < 0)
		pct = 0;
	if (pct > 100)
		pct = 100;
	p->rq = rq;
	list_init(&p->run_list);
	p->state = TASK_SLEEPING;
	p->static_prio = NICE_TO_PRIO(nice);
	sm_task_class(info, MAX_USER_RT_PRIO - 1, &policy, &rtp);
	set_policy_fields(p, policy, rtp);
	p->base.info.policy = p->policy;
	p->base.info.rt_priority = (int)p->rt_priority;
	p->sleep_avg = MAX_SLEEP_AVG * (unsigned long)pct / 100;
	p->prio = effective_prio(p);
	p->time_slice = task_timeslice(p);
	p->first_time_slice = 0;
	p->last_run = jiffies;
	p->timestamp = sched_clock_of(rq);
	o1_note(p, SM_CH_NEW);
	return &p->base;
}

/*
 * Fork: copy_process (copy, slice split, the ts == 0 tick),
 * wake_up_forked_process (policy penalties, placement before the parent)
 * and do_fork (parent resched, VFORK, STOPPED): docs/models.md, "Stock:
 * fork and exit" and "test2-mm1 and O11int", Fork.
 */
struct sm_task *o1_fork(struct sm_rq *srq, struct sm_task *sparent,
			const struct sm_task_info *info, unsigned flags)
{
	struct o1_rq *rq = o1_rq_of(srq);
	struct o1_task *parent = o1_task_of(sparent);
	struct o1_task *p = malloc(sizeof(*p));

	if (!p)
		return NULL;
	rq = parent->rq;

	/* dup_task_struct: the child starts as a copy of the parent */
	*p = *parent;
	p->base.info.id = info->id;
	p->base.info.has_mm = info->has_mm;
	p->base.info.init_sleep_pct = 0;
	p->base.on_cpu = false;
	p->array = NULL;
	list_init(&p->run_list);
	p->reported.once = false;

	/* copy_process: share the slice */
	p->time_slice = (parent->time_slice + 1) >> 1;
	p->first_time_slice = 1;
	parent->time_slice >>= 1;
	p->last_run = jiffies;
	p->timestamp = sched_clock_of(rq);
	if (!parent->time_slice) {
		/* a single jiffy was left: tick the parent now */
		parent->time_slice = 1;
		o1_tick_task(rq, parent);
	}

	if (!(flags & SM_FORK_STOPPED)) {
		/* wake_up_forked_process */
		p->state = TASK_RUNNING;
		rq->rules->forked_process(rq, parent, p);
		p->wake_sub = SM_WHYSUB_HEAD;
		if (!parent->array) {
			__activate_task(rq, p);
		} else {
			p->prio = parent->prio;
			enqueue_before(p, parent);
			rq->nr_running++;
		}
	} else {
		p->state = TASK_STOPPED;
	}

	/* do_fork: the child runs first unless the parent waits (vfork) */
	if (flags & SM_FORK_VFORK) {
		o1_note(parent, SM_CH_FORK);
		o1_block(&rq->base, &parent->base);
	} else {
		resched_curr(rq);
		o1_note(parent, SM_CH_FORK);
	}
	o1_note(p, SM_CH_FORK);
	return &p->base;
}

/* try_to_wake_up(p, TASK_INTERRUPTIBLE|TASK_UNINTERRUPTIBLE|..., sync) */
void o1_wake(struct sm_rq *srq, struct sm_task *t, unsigned flags)
{
	struct o1_rq *rq = o1_rq_of(srq);
	struct o1_task *p = o1_task_of(t);

	if (p->state != TASK_SLEEPING && p->state != TASK_STOPPED)
		return; /* not in the wake mask */
	if (!p->array) {
		p->rq = rq; /* set_task_cpu: it wakes where it is told */
		if (flags & SM_WAKE_SYNC) {
			__activate_task(rq, p);
			p->wake_sub = SM_WHYSUB_SYNC;
			/* our reading: an idle CPU always takes the task */
			if (!rq->base.curr)
				resched_curr(rq);
		} else {
			rq->rules->activate_task(rq, p,
						 (flags & SM_WAKE_IRQ) != 0);
			if (rq->rules->preempts_curr(rq, p)) {
				resched_curr(rq);
				/* onto an idle CPU no rule decides: if another
				   task takes it first, p just queued behind */
				p->wake_sub = rq->base.curr ? SM_WHYSUB_HEAD
							    : SM_WHYSUB_NONE;
			} else {
				p->wake_sub = rq->rules->preempts_curr ==
					o1_prio_preempts ? SM_WHYSUB_STRICT
							 : SM_WHYSUB_SLICE2X;
			}
		}
	}
	/* else: blocked but not switched out yet: only the state changes */
	p->state = TASK_RUNNING;
	o1_note(p, SM_CH_WAKE);
}

static bool o1_queued(const struct o1_task *p)
{
	return p->array != NULL;
}

static void o1_dequeue(struct o1_task *p)
{
	deactivate_task(p->rq, p);
}

SM_TASK_STEPS(, o1, struct o1_task, o1_task_of, o1_note, resched_curr,
	      o1_queued, o1_dequeue)

/* release_task -> sched_exit(child): refunds to the parent. */
void o1_reap(struct sm_rq *srq, struct sm_task *sparent, struct sm_task *t)
{
	struct o1_task *p = o1_task_of(t);
	struct o1_task *parent = sparent ? o1_task_of(sparent) : NULL;
	struct o1_rq *rq = p->rq;

	if (p->state == TASK_DEAD)
		return;
	if (parent && parent != p) {
		if (p->first_time_slice) {
			parent->time_slice += p->time_slice;
			if (parent->time_slice > MAX_TIMESLICE)
				parent->time_slice =
					(unsigned int)MAX_TIMESLICE;
		}
		/* a (relative) CPU hog child lowers the parent's sleep_avg */
		if (rq->rules->exit_sleep_avg)
			rq->rules->exit_sleep_avg(rq, parent, p);
		else if (p->sleep_avg < parent->sleep_avg)
			parent->sleep_avg = (parent->sleep_avg *
					     (unsigned long)EXIT_WEIGHT +
					     p->sleep_avg) /
				(unsigned long)(EXIT_WEIGHT + 1);
		o1_note(parent, SM_CH_REFUND);
	}
	sm_task_step(t, &p->state, SM_STEP_REAP, &o1_steps);
}

void o1_tick(struct sm_rq *srq)
{
	struct o1_rq *rq = o1_rq_of(srq);

	o1_tick_task(rq, o1_curr(rq));
}

static void note_swapped(struct o1_rq *rq)
{
	struct prio_array *a = rq->active;

	for (int idx = sched_find_first_bit(a->bitmap); idx < MAX_PRIO; idx++) {
		if (!test_bit(idx, a->bitmap))
			continue;
		for (struct o1_list *l = a->queue[idx].next;
		     l != &a->queue[idx]; l = l->next)
			o1_note(task_of_list(l), SM_CH_SWAP);
	}
}

static enum sm_change o1_switch_off(struct sm_task *t)
{
	const struct o1_task *prev = o1_task_of(t);

	return sm_switch_why(prev->array != NULL, prev->state);
}

static const struct sm_switch_ops o1_switch = {
	o1_step_note, o1_switch_off, NULL
};

/* schedule(): docs/models.md, "Stock: the tick and schedule()" and
   "test2-mm1 and O11int". */
struct sm_task *o1_schedule(struct sm_rq *srq)
{
	struct o1_rq *rq = o1_rq_of(srq);
	struct o1_task *prev = o1_curr(rq), *next;
	struct prio_array *array;
	int idx;

	if (prev) {
		prev->last_run = jiffies;
		if (rq->rules->schedule_prev)
			rq->rules->schedule_prev(rq, prev);
		if (prev->state != TASK_RUNNING)
			deactivate_task(rq, prev);
	}

	if (!rq->nr_running && rq->base.idle_balance.fn) {
		/* SMP: load_balance(rq, 1); pick again if it pulled */
		rq->base.idle_balance.fn(rq->base.idle_balance.ctx, &rq->base);
	}
	if (!rq->nr_running) {
		next = NULL; /* idle */
		rq->expired_timestamp = 0;
		goto switch_tasks;
	}

	array = rq->active;
	if (!array->nr_active) {
		/* switch the active and expired arrays */
		rq->active = rq->expired;
		rq->expired = array;
		array = rq->active;
		rq->expired_timestamp = 0;
		note_swapped(rq);
	}

	idx = sched_find_first_bit(array->bitmap);
	next = task_of_list(array->queue[idx].next);
	if (rq->rules->schedule_next)
		rq->rules->schedule_next(rq, next);

switch_tasks:
	if (rq->rules->schedule_switch)
		rq->rules->schedule_switch(rq, prev, next);
	/* no switch: prev is told all the same (its last_run is new) */
	return sm_rq_switch(&rq->base, prev ? &prev->base : NULL,
			    next ? &next->base : NULL, &o1_switch);
}

/* sys_sched_yield: non-RT to the tail of expired, RT to the tail of its
   active list; then schedule() (the simulator calls it: need_resched). */
void o1_yield(struct sm_rq *srq, struct sm_task *t)
{
	struct o1_task *p = o1_task_of(t);
	struct o1_rq *rq = p->rq;

	if (!p->array || p->state != TASK_RUNNING)
		return;
	if (!rt_task(p)) {
		dequeue_task(p, p->array);
		enqueue_task(p, rq->expired);
	} else {
		requeue_task_tail(p);
	}
	sm_task_yielded(&p->base, &o1_steps);
}

/* set_user_nice as in test2 (the old one, still in test4). */
void o1_set_nice(struct sm_rq *srq, struct sm_task *t, int nice)
{
	struct o1_task *p = o1_task_of(t);
	struct o1_rq *rq = p->rq;
	struct prio_array *array;

	if (TASK_NICE(p) == nice || nice < -20 || nice > 19)
		return;
	p->base.info.nice = nice;
	if (rt_task(p)) {
		p->static_prio = NICE_TO_PRIO(nice);
		o1_note(p, SM_CH_NICE);
		return;
	}
	array = p->array;
	if (array)
		dequeue_task(p, array);
	p->static_prio = NICE_TO_PRIO(nice);
	p->prio = NICE_TO_PRIO(nice);
	if (array) {
		enqueue_task(p, array);
		/* the "priority raised" half compares against the value
		   just stored, so only "is running" can fire (docs/models.md,
		   "Stock: the tick and schedule()", set_user_nice) */
		if (NICE_TO_PRIO(nice) < p->static_prio || p->base.on_cpu)
			resched_curr(rq);
	}
	o1_note(p, SM_CH_NICE);
}

/* setscheduler: dequeue, new prio, tail of active; no resched in test2. */
void o1_setscheduler(struct sm_rq *srq, struct sm_task *t, int policy,
		     int rt_priority)
{
	struct o1_task *p = o1_task_of(t);
	struct o1_rq *rq = p->rq;
	struct prio_array *array;

	if (!sm_policy_valid(policy, rt_priority, MAX_USER_RT_PRIO - 1))
		return; /* -EINVAL */
	array = p->array;
	if (array)
		deactivate_task(rq, p);
	set_policy_fields(p, policy, rt_priority);
	p->base.info.policy = policy;
	p->base.info.rt_priority = rt_priority;
	if (array)
		__activate_task(rq, p);
	o1_note(p, SM_CH_SETSCHED);
}

/*
 * pull_task (load_balance's move, docs/models.md, "The SMP balancer"):
 * from either array of its runqueue to the tail of the local active array,
 * prio and time_slice kept; the local CPU reschedules if the task's prio
 * is higher, or equal with more time_slice left (the stock rule, kept by
 * test2-mm1: "From stock to test2-mm1" 9).
 */
void o1_migrate(struct sm_rq *ssrc, struct sm_rq *sdst, struct sm_task *t)
{
	struct o1_task *p = o1_task_of(t);
	struct o1_rq *src = p->rq, *dst = o1_rq_of(sdst);
	const struct o1_task *curr;

	if (!p->array || p->base.on_cpu || src == dst)
		return;
	deactivate_task(src, p);
	p->rq = dst;
	__activate_task(dst, p);
	curr = o1_curr(dst);
	if (dst->rules->pull_preempts) {
		if (dst->rules->pull_preempts(dst, p))
			resched_curr(dst);
	} else if (p->prio < curr_prio(dst) ||
		   (curr && p->prio == curr->prio &&
		    p->time_slice > curr->time_slice)) {
		/* idle threads have a prio of MAX_PRIO: always true */
		resched_curr(dst);
	}
	o1_note(p, SM_CH_MIGRATE);
}

/*
 * CAN_MIGRATE_TASK's cache-hot test (idle balancing only) on the pulling
 * CPU's rq: jiffies - p->last_run <= cache_decay_ticks; G3 and A3, with
 * timestamp in ns, test ((now - p->timestamp) >> 10) <= cache_decay_ticks,
 * comparing about microseconds with a count their smpboot.c now gives in
 * milliseconds (G3's "#warning fixme"): hot only for about 10 us after the
 * task was stamped (queued or switched).
 */
bool o1_task_hot(const struct sm_rq *srq, const struct sm_task *t,
		 unsigned long cache_decay_ticks)
{
	const struct o1_task *p = (const struct o1_task *)t;
	const struct o1_rq *rq = (const struct o1_rq *)srq;

	if (rq->rules->sleep_avg_ns)
		return ((srq->clock - p->timestamp) >> 10) <=
			(unsigned long long)cache_decay_ticks;
	return jiffies - p->last_run <= cache_decay_ticks;
}

unsigned long o1_nr_running(const struct sm_rq *srq)
{
	return ((const struct o1_rq *)srq)->nr_running;
}

unsigned long o1_last_run(const struct sm_task *t)
{
	return ((const struct o1_task *)t)->last_run;
}

/*
 * load_balance's scan order: busiest->expired if it holds tasks, then
 * busiest->active; from the best priority (find_first_bit, then the next
 * set bit); each list from its tail (curr = head->prev), taking the
 * previous element before fn may move the task, as the kernel does.
 */
static int find_next_bit(const uint64_t *map, int from)
{
	for (int w = from / 64; w < BITMAP_WORDS; w++) {
		uint64_t m = map[w];

		if (w == from / 64)
			m &= ~(uint64_t)0 << (from % 64);
		if (m)
			return w * 64 + __builtin_ctzll(m);
	}
	return BITMAP_BITS;
}

static bool walk_array(struct prio_array *array, sm_walk_fn fn, void *ctx)
{
	for (int idx = sched_find_first_bit(array->bitmap); idx < MAX_PRIO;
	     idx = find_next_bit(array->bitmap, idx + 1)) {
		struct o1_list *head = array->queue + idx, *curr;

		for (curr = head->prev; curr != head;) {
			struct o1_task *tmp = task_of_list(curr);

			curr = curr->prev;
			if (!fn(ctx, &tmp->base))
				return false;
		}
	}
	return true;
}

void o1_balance_walk(struct sm_rq *srq, sm_walk_fn fn, void *ctx)
{
	struct o1_rq *rq = o1_rq_of(srq);
	struct prio_array *first = rq->expired->nr_active ? rq->expired
							  : rq->active;

	if (walk_array(first, fn, ctx) && first == rq->expired)
		walk_array(rq->active, fn, ctx);
}

/* Tasks of p's priority list that run before it: those ahead of it, and
   the running one wherever it is (O10's pick-time recalc re-enqueues the
   task it picks at the tail). */
static int32_t ahead_in_list(const struct o1_task *p,
			     const struct o1_task *curr)
{
	const struct o1_list *head = &p->array->queue[p->prio], *l;
	int32_t n = 0;

	for (l = head->next; l != head && l != &p->run_list; l = l->next)
		n++;
	if (curr && curr->array == p->array && curr->prio == p->prio)
		for (l = p->run_list.next; l != head; l = l->next)
			if (l == &curr->run_list)
				n++;
	return n;
}

/*
 * Why p, queued on rq and not running, does not run (docs/why.md,
 * "The attribution"), from the running task's place and p's: the credit
 * rule first (without it the running task would be in the expired array
 * and p would run), then the arrays, then the priorities, then how p came
 * behind a task of its own priority.
 */
void o1_why_waiting(const struct sm_rq *srq, const struct sm_task *t,
		    struct sm_why *w)
{
	const struct o1_rq *rq = (const struct o1_rq *)srq;
	const struct o1_task *p = (const struct o1_task *)t;
	const struct o1_task *curr = o1_curr(rq);

	if (!p->array || p->base.on_cpu)
		return;
	if (!curr) {
		w->code = SM_WHY_TICK;
		return;
	}
	if (curr->credit_kept && curr->array == rq->active &&
	    (p->array != rq->active || p->prio >= curr->prio)) {
		w->code = SM_WHY_CREDIT;
		w->value = (int64_t)curr->interactive_credit;
		return;
	}
	if (p->array != rq->active) {
		w->code = p->entry == O1_IN_STARVING ? SM_WHY_STARVING_SWITCH
						     : SM_WHY_EXPIRED;
		w->ahead = (int32_t)rq->active->nr_active;
		return;
	}
	if (p->prio > curr->prio) {
		w->code = SM_WHY_LOWER_PRIO;
		return;
	}
	if (p->prio == curr->prio && curr->array == p->array) {
		w->ahead = ahead_in_list(p, curr);
		if (p->entry == O1_IN_GRAN) {
			w->code = SM_WHY_GRANULARITY;
		} else if ((p->entry == O1_IN_WAKE && p->wake_sub) ||
			   p->entry == O1_IN_PULL) {
			w->code = SM_WHY_NO_PREEMPT;
			w->sub = p->entry == O1_IN_PULL ? SM_WHYSUB_PULL
							: p->wake_sub;
		} else {
			w->code = SM_WHY_SAME_PRIO_QUEUE;
		}
		return;
	}
	/* better than the running task: a switch is pending, or no test
	   was made (a sync wakeup, a pull) */
	if (rq->base.need_resched) {
		w->code = SM_WHY_TICK;
	} else {
		w->code = SM_WHY_NO_PREEMPT;
		w->sub = p->entry == O1_IN_PULL ? SM_WHYSUB_PULL :
			 p->entry == O1_IN_WAKE ? p->wake_sub : SM_WHYSUB_NONE;
	}
}

void o1_view_sm(const struct sm_task *t, struct sm_view *v)
{
	o1_view((const struct o1_task *)t, v);
}

void o1_task_free(struct sm_rq *srq, struct sm_task *t)
{
	struct o1_task *p = o1_task_of(t);

	if (!p)
		return;
	if (p->array)
		deactivate_task(p->rq, p);
	sm_rq_task_gone(&p->rq->base, &p->base);
	free(p);
}

/* ---- invariants ---- */

#define FAIL(...) do { snprintf(why, whylen, __VA_ARGS__); return 1; } \
	while (0)

static int check_task(const struct o1_rq *rq, const struct o1_task *p,
		      const struct prio_array *a, int idx, char *why,
		      size_t whylen)
{
	const struct o1_rules *r = rq->rules;
	unsigned long id = p->base.info.id;

	if (p->array != a)
		FAIL("task %lu: on a list of one array, array points elsewhere",
		     id);
	if (p->prio != idx)
		FAIL("task %lu: prio %d on list %d", id, p->prio, idx);
	if (p->rq != rq)
		FAIL("task %lu: queued on cpu %d, belongs to cpu %d", id,
		     rq->base.cpu, p->rq->base.cpu);
	if (p->state != TASK_RUNNING && !p->base.on_cpu)
		FAIL("task %lu: queued, not running, state %d", id, p->state);
	if (p->policy == SM_SCHED_NORMAL) {
		/* SCHED_ISO within its quota: MAX_RT_PRIO - 1 */
		if (p->prio < MAX_RT_PRIO - (p->iso && !p->isoref) ||
		    p->prio > MAX_PRIO - 1)
			FAIL("task %lu: normal task with prio %d", id, p->prio);
	} else if (p->prio != MAX_USER_RT_PRIO - 1 - (int)p->rt_priority) {
		FAIL("task %lu: RT prio %d, rt_priority %lu", id, p->prio,
		     p->rt_priority);
	}
	if (p->static_prio < NICE_TO_PRIO(-20) ||
	    p->static_prio > NICE_TO_PRIO(19))
		FAIL("task %lu: static_prio %d", id, p->static_prio);
	if (p->sleep_avg > r->k.sleep_avg_bound)
		FAIL("task %lu: sleep_avg %lu > %lu", id, p->sleep_avg,
		     r->k.sleep_avg_bound);
	if (p->time_slice < 1 || p->time_slice > MAX_TIMESLICE)
		FAIL("task %lu: time_slice %u", id, p->time_slice);
	if (p->activated < 0 || p->activated > 2)
		FAIL("task %lu: activated %d", id, p->activated);
	if (p->last_run > jiffies)
		FAIL("task %lu: last_run %lu after jiffies %lu", id,
		     p->last_run, (unsigned long)jiffies);
	return 0;
}

static int check_array(const struct o1_rq *rq, const struct prio_array *a,
		       const char *name, unsigned *running, char *why,
		       size_t whylen)
{
	unsigned total = 0;

	if (!test_bit(MAX_PRIO, a->bitmap))
		FAIL("%s: delimiter bit %d clear", name, MAX_PRIO);
	for (int idx = 0; idx < MAX_PRIO; idx++) {
		unsigned n = 0;

		for (const struct o1_list *l = a->queue[idx].next;
		     l != &a->queue[idx]; l = l->next) {
			const struct o1_task *p = task_of_list(l);

			if (l->next->prev != l || l->prev->next != l)
				FAIL("%s[%d]: broken list links", name, idx);
			if (check_task(rq, p, a, idx, why, whylen))
				return 1;
			if (p->base.on_cpu)
				(*running)++;
			if (++n > 1000000)
				FAIL("%s[%d]: list does not end", name, idx);
		}
		if (test_bit(idx, a->bitmap) != (n > 0))
			FAIL("%s: bit %d is %d, list has %u tasks", name, idx,
			     test_bit(idx, a->bitmap), n);
		total += n;
	}
	for (int b = MAX_PRIO + 1; b < BITMAP_WORDS * 64; b++)
		if (test_bit(b, a->bitmap))
			FAIL("%s: stray bit %d", name, b);
	if (total != a->nr_active)
		FAIL("%s: nr_active %u, lists hold %u", name, a->nr_active,
		     total);
	return 0;
}

int o1_check(const struct sm_rq *srq, char *why, size_t whylen)
{
	const struct o1_rq *rq = (const struct o1_rq *)srq;
	const struct o1_task *curr = o1_curr(rq);
	unsigned running = 0;

	if (rq->active == rq->expired ||
	    (rq->active != &rq->arrays[0] && rq->active != &rq->arrays[1]) ||
	    (rq->expired != &rq->arrays[0] && rq->expired != &rq->arrays[1]))
		FAIL("active/expired do not name the two arrays");
	if (check_array(rq, rq->active, "active", &running, why, whylen) ||
	    check_array(rq, rq->expired, "expired", &running, why, whylen))
		return 1;
	if (rq->nr_running != rq->active->nr_active + rq->expired->nr_active)
		FAIL("nr_running %lu, arrays hold %u", rq->nr_running,
		     rq->active->nr_active + rq->expired->nr_active);
	if (curr) {
		if (!curr->base.on_cpu)
			FAIL("curr %lu not flagged on_cpu",
			     (unsigned long)curr->base.info.id);
		if (!curr->array)
			FAIL("curr %lu is not queued",
			     (unsigned long)curr->base.info.id);
		if (curr->rq != rq)
			FAIL("curr belongs to another runqueue");
		if (running != 1)
			FAIL("%u queued tasks flagged running, want 1", running);
	} else if (running != 0) {
		FAIL("idle, but %u queued tasks flagged running", running);
	}
	if (rq->expired_timestamp > jiffies)
		FAIL("expired_timestamp %lu after jiffies %lu",
		     rq->expired_timestamp, (unsigned long)jiffies);
	return 0;
}
