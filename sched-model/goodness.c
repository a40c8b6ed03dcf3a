/*
 * goodness: the Linux 2.4 scheduler (as in 2.4.22), one global runqueue
 * that every CPU's schedule() scans with goodness():
 *  - a SCHED_OTHER task's goodness is its counter (ticks left of its
 *    quantum; 0: exhausted), + 20 - nice, + 1 if it shares the previous
 *    task's mm (or has none, a kernel thread), + PROC_CHANGE_PENALTY (15)
 *    on the CPU it last ran on (SMP only); a task that yielded: -1; an RT
 *    task: 1000 + rt_priority;
 *  - schedule() takes the first best of the list (strictly greater wins:
 *    the list order breaks ties); when the best is 0 every task's counter,
 *    asleep or not, is recalculated: counter = counter / 2 +
 *    NICE_TO_TICKS(nice) (the epoch; a sleeper's counter approaches twice
 *    its quantum), and the scan repeats;
 *  - NICE_TO_TICKS(nice) = TICK_SCALE(20 - nice) + 1, TICK_SCALE(x) = x << 1
 *    at HZ = 1000: 41 ms for nice 0 (60 ms at the HZ = 100 of i386);
 *  - the tick decrements the running task's counter; at 0 it reschedules;
 *  - a wakeup puts the task at the head of the list and reschedules the
 *    CPU when the task's goodness beats the running one's
 *    (preemption_goodness > 0; SMP: reschedule_idle picks the task's last
 *    CPU if idle, else the least recently active idle CPU, else the CPU
 *    whose current task it beats most); a sync wakeup does not;
 *  - fork shares the counter: the child gets (c + 1) / 2, the parent c / 2
 *    (rescheduling if that is 0); reaping gives the child's counter back
 *    to the parent, up to MAX_COUNTER;
 *  - sched_yield: the caller goes to the end of the list with goodness -1
 *    until its next switch; SCHED_RR: an exhausted counter is refilled
 *    and the task moved to the end in schedule();
 *  - nice changes only the nice; setscheduler moves the task to the head
 *    and reschedules the caller.
 * Each CPU has its sm_rq; the list is shared by them through the
 * configured policy (struct sm_sched); a lone runqueue keeps its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched-model/knobs.h"
#include "sched-model/policy.h"
#include "sched-model/smp.h"

#define HZ			SM_HZ
#define TICK_SCALE(x)		((x) << 1)	/* HZ < 1600 */
#define NICE_TO_TICKS(nice)	(TICK_SCALE(20 - (nice)) + 1)
#define G24_MAX_CPUS		64

extern const struct sm_policy sm_policy_24;

struct g24_consts {
	long proc_change_penalty;	/* PROC_CHANGE_PENALTY (i386: 15) */
	long max_counter;		/* MAX_COUNTER: 20 * HZ / 100 */
};

struct g24_list {
	struct g24_list *next, *prev;
};

struct g24_rq;

/* The machine: the runqueue, every task, the CPUs. */
struct g24_shared {
	struct g24_consts k;
	struct g24_list runqueue;	/* runqueue_head */
	struct g24_list tasks;		/* for_each_task */
	unsigned long nr_running;
	struct g24_rq *cpu[G24_MAX_CPUS];
	int ncpus;
	bool lone;			/* owned by its one runqueue */
	struct sm_balance_hooks h;	/* SMP: affinity, moves, kicks */
	struct sm_balance_stats nostats;
};

struct g24_rq {
	struct sm_rq base;
	struct g24_shared *sh;
	int32_t active_mm;		/* the mm the CPU has loaded */
	uint64_t last_schedule;		/* when it last switched (clock) */
};

struct g24_task {
	struct sm_task base;
	struct g24_shared *sh;
	struct g24_rq *rq;		/* p->processor */
	struct g24_list run_list, all_list;
	bool on_runqueue;
	int state;
	int policy, rt_priority, nice;
	bool yielded;			/* SCHED_YIELD */
	long counter;
	int32_t mm;			/* 0: none (a kernel thread) */
	unsigned long last_run;
	struct sm_reported reported;
};

#define K(sh)	((sh)->k)
#define list_entry_run(l) \
	((struct g24_task *)((char *)(l) - offsetof(struct g24_task, run_list)))
#define list_entry_all(l) \
	((struct g24_task *)((char *)(l) - offsetof(struct g24_task, all_list)))

static void list_init(struct g24_list *l)
{
	l->next = l->prev = l;
}

static void list_add(struct g24_list *n, struct g24_list *head)
{
	n->next = head->next;
	n->prev = head;
	head->next->prev = n;
	head->next = n;
}

static void list_add_tail(struct g24_list *n, struct g24_list *head)
{
	n->next = head;
	n->prev = head->prev;
	head->prev->next = n;
	head->prev = n;
}

static void list_del(struct g24_list *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	list_init(e);
}

static struct g24_task *task_of(struct sm_task *t)
{
	return (struct g24_task *)t;
}

static struct g24_rq *rq_of(struct sm_rq *rq)
{
	return (struct g24_rq *)rq;
}

static struct g24_task *curr_of(const struct g24_rq *rq)
{
	return (struct g24_task *)rq->base.curr;
}

/* ---- the runqueue list ---- */

static void add_to_runqueue(struct g24_task *p)
{
	list_add(&p->run_list, &p->sh->runqueue);
	p->sh->nr_running++;
	p->on_runqueue = true;
}

static void del_from_runqueue(struct g24_task *p)
{
	list_del(&p->run_list);
	p->sh->nr_running--;
	p->on_runqueue = false;
}

static void move_last_runqueue(struct g24_task *p)
{
	list_del(&p->run_list);
	list_add_tail(&p->run_list, &p->sh->runqueue);
}

static void move_first_runqueue(struct g24_task *p)
{
	list_del(&p->run_list);
	list_add(&p->run_list, &p->sh->runqueue);
}

/* ---- goodness ---- */

static int goodness(const struct g24_task *p, int this_cpu, int32_t this_mm)
{
	int weight;

	if (p->yielded)
		return -1;
	if (p->policy == SM_SCHED_NORMAL) {
		weight = (int)p->counter;
		if (!weight)
			return 0;
		if (p->sh->ncpus > 1 && p->rq && p->rq->base.cpu == this_cpu)
			weight += (int)K(p->sh).proc_change_penalty;
		if (p->mm == this_mm || !p->mm)
			weight += 1;
		return weight + 20 - p->nice;
	}
	return 1000 + p->rt_priority;
}

/* The mm a CPU's next goodness() compares with: its current's, or the
   one it borrowed (a kernel thread, idle). */
static int32_t active_mm(const struct g24_rq *rq)
{
	const struct g24_task *c = curr_of(rq);

	return c && c->mm ? c->mm : rq->active_mm;
}

static int preemption_goodness(const struct g24_rq *rq, const struct g24_task *p)
{
	const struct g24_task *curr = curr_of(rq);
	int32_t mm = active_mm(rq);

	return goodness(p, rq->base.cpu, mm) -
		goodness(curr, rq->base.cpu, mm);
}

/* cpus_allowed */
static bool may_run(const struct g24_task *p, const struct g24_rq *rq)
{
	const struct g24_shared *sh = p->sh;

	return !sh->h.allowed || sh->h.allowed(sh->h.ctx, &p->base,
					       rq->base.cpu);
}

static bool can_schedule(const struct g24_task *p, const struct g24_rq *rq)
{
	return curr_of(rq) == p || (!p->base.on_cpu && may_run(p, rq));
}

/* need_resched, and smp_send_reschedule when it is another CPU */
static void resched(struct g24_rq *rq)
{
	rq->base.need_resched = true;
	if (rq->sh->h.kick)
		rq->sh->h.kick(rq->sh->h.ctx, rq->base.cpu);
}

/* reschedule_idle: which CPU, if any, should run p now. */
static void reschedule_idle(struct g24_task *p)
{
	struct g24_shared *sh = p->sh;
	struct g24_rq *best = p->rq, *target = NULL, *oldest = NULL;
	int max_prio = 0;

	if (sh->ncpus <= 1 || !best) {
		struct g24_rq *rq = best ? best : sh->cpu[0];

		if (rq && (!curr_of(rq) || preemption_goodness(rq, p) > 0))
			resched(rq);
		return;
	}
	/* the task's last CPU, if idle */
	if (may_run(p, best) && !curr_of(best)) {
		resched(best);
		return;
	}
	/* the least recently active idle CPU; else the one whose current
	   task p beats most */
	for (int i = 0; i < sh->ncpus; i++) {
		struct g24_rq *rq = sh->cpu[i];

		if (!rq || !may_run(p, rq))
			continue;
		if (!curr_of(rq)) {
			if (!oldest || rq->last_schedule < oldest->last_schedule)
				oldest = rq;
		} else if (!oldest) {
			int prio = preemption_goodness(rq, p);

			if (prio > max_prio) {
				max_prio = prio;
				target = rq;
			}
		}
	}
	if (oldest)
		resched(oldest);
	else if (target)
		resched(target);
}

/* ---- the observer ---- */

static void view_of(const struct g24_task *p, struct sm_view *v)
{
	memset(v, 0, sizeof(*v));
	v->static_prio = 120 + p->nice;
	v->prio = p->policy == SM_SCHED_NORMAL ? v->static_prio :
		99 - p->rt_priority;
	v->sleep_avg = -1;
	v->credit = -1;
	v->time_slice = p->counter;
	v->array = p->on_runqueue ? SM_ARRAY_ACTIVE : SM_ARRAY_NONE;
	v->state = p->state;
	v->on_cpu = p->base.on_cpu;
	v->activated = -1;
	v->last_run = p->last_run;
}

static void note(struct g24_task *p, enum sm_change why)
{
	struct g24_rq *rq = p->rq;
	struct sm_view v;

	view_of(p, &v);
	/* no charge here; the pick-time recalc is passive */
	sm_report(rq ? &rq->base : NULL, &p->base, &p->reported, why,
		  sm_change_passive(why) || why == SM_CH_RECALC, &v);
}

/* ---- setup ---- */

static struct g24_shared *shared_new(void)
{
	struct g24_shared *sh = calloc(1, sizeof(*sh));

	if (!sh)
		return NULL;
	list_init(&sh->runqueue);
	list_init(&sh->tasks);
	sh->k.proc_change_penalty = 15;
	sh->k.max_counter = 20 * HZ / 100;
	return sh;
}

static int g24_sched_init(struct sm_sched *s)
{
	struct g24_shared *sh = shared_new();

	if (!sh)
		return -1;
	sm_tuning_store(&s->tuning, &sh->k);
	s->priv = sh;
	return 0;
}

static struct sm_rq *g24_rq_new(struct sm_sched *s, int cpu, unsigned long j,
				const struct sm_observer *obs)
{
	struct g24_rq *rq;
	struct g24_shared *sh = s ? s->priv : shared_new();

	if (!sh || cpu < 0 || cpu >= G24_MAX_CPUS || sh->cpu[cpu])
		return NULL;
	rq = calloc(1, sizeof(*rq));
	if (!rq) {
		if (!s)
			free(sh);
		return NULL;
	}
	sh->lone = !s;
	rq->sh = sh;
	sm_rq_init(&rq->base, &sm_policy_24, cpu, j, obs);
	sh->cpu[cpu] = rq;
	if (cpu >= sh->ncpus)
		sh->ncpus = cpu + 1;
	return &rq->base;
}

static void g24_rq_free(struct sm_rq *srq)
{
	struct g24_rq *rq = rq_of(srq);

	if (!rq)
		return;
	rq->sh->cpu[rq->base.cpu] = NULL;
	if (rq->sh->lone)
		free(rq->sh);
	free(rq);
}

static int32_t mm_of(const struct sm_task_info *in)
{
	if (!in->has_mm)
		return 0;
	return in->mm > 0 ? in->mm : -(int32_t)in->id - 1;
}

/*
 * A task alive before the trace: asleep, a fresh quantum
 * (NICE_TO_TICKS); warm (init_sleep_pct): towards a sleeper's 2N - 1.
 */
static struct sm_task *g24_task_new(struct sm_rq *srq,
				    const struct sm_task_info *in)
{
	struct g24_rq *rq = rq_of(srq);
	struct g24_task *p = calloc(1, sizeof(*p));
	int pct = in->init_sleep_pct < 0 ? 0 : in->init_sleep_pct > 100 ?
		100 : in->init_sleep_pct;
	long n;

	if (!p)
		return NULL;
	p->base.info = *in;
	p->sh = rq->sh;
	p->rq = rq;
	p->nice = in->nice < -20 ? -20 : in->nice > 19 ? 19 : in->nice;
	p->base.info.nice = p->nice;
	if (sm_policy_valid(in->policy, in->rt_priority, 99)) {
		p->policy = in->policy;
		p->rt_priority = in->rt_priority;
	}
	p->base.info.policy = p->policy;
	p->base.info.rt_priority = p->rt_priority;
	p->mm = mm_of(in);
	n = NICE_TO_TICKS(p->nice);
	p->counter = n + (n - 1) * pct / 100;
	p->state = SM_STATE_SLEEPING;
	p->last_run = rq->base.jiffies;
	list_init(&p->run_list);
	list_add_tail(&p->all_list, &p->sh->tasks);
	note(p, SM_CH_NEW);
	return &p->base;
}

static void g24_block(struct sm_rq *srq, struct sm_task *t);

/* do_fork: share the counter, then wake_up_process(child). */
static struct sm_task *g24_fork(struct sm_rq *srq, struct sm_task *sparent,
				const struct sm_task_info *in, unsigned flags)
{
	struct g24_task *parent = task_of(sparent);
	struct g24_task *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->base.info = parent->base.info;
	p->base.info.id = in->id;
	p->base.info.has_mm = in->has_mm;
	p->base.info.mm = in->mm;
	p->base.info.init_sleep_pct = 0;
	p->sh = parent->sh;
	p->rq = parent->rq;
	p->policy = parent->policy;
	p->rt_priority = parent->rt_priority;
	p->nice = parent->nice;
	p->mm = mm_of(&p->base.info);
	p->last_run = parent->rq->base.jiffies;
	list_init(&p->run_list);
	list_add_tail(&p->all_list, &p->sh->tasks);
	/* the total of dynamic priorities in the system doesn't change */
	p->counter = (parent->counter + 1) >> 1;
	parent->counter >>= 1;
	if (!parent->counter && parent->base.on_cpu)
		resched(parent->rq);
	if (flags & SM_FORK_STOPPED) {
		p->state = SM_STATE_STOPPED;
	} else {
		p->state = SM_STATE_RUNNABLE;
		add_to_runqueue(p);
		reschedule_idle(p);
	}
	note(parent, SM_CH_FORK);
	if (flags & SM_FORK_VFORK)
		g24_block(&parent->rq->base, &parent->base);
	note(p, SM_CH_FORK);
	return &p->base;
}

/* try_to_wake_up: head of the list; a sync wakeup does not preempt (an
   idle CPU still takes the task: our reading, as in the O(1) models). */
static void g24_wake(struct sm_rq *srq, struct sm_task *t, unsigned flags)
{
	struct g24_task *p = task_of(t);

	if (p->state != SM_STATE_SLEEPING && p->state != SM_STATE_STOPPED)
		return;
	p->state = SM_STATE_RUNNABLE;
	if (!p->on_runqueue) {
		if (!p->rq)
			p->rq = rq_of(srq);
		add_to_runqueue(p);
		if (!(flags & SM_WAKE_SYNC))
			reschedule_idle(p);
		else if (!curr_of(rq_of(srq)))
			resched(rq_of(srq));
	}
	note(p, SM_CH_WAKE);
}

static bool g24_queued(const struct g24_task *p)
{
	return p->on_runqueue;
}

SM_TASK_STEPS(static, g24, struct g24_task, task_of, note, resched,
	      g24_queued, del_from_runqueue)

/* release_task: the child's counter goes back to the parent. */
static void g24_reap(struct sm_rq *srq, struct sm_task *sparent,
		     struct sm_task *t)
{
	struct g24_task *p = task_of(t);
	struct g24_task *parent = sparent ? task_of(sparent) : NULL;

	if (p->state == SM_STATE_DEAD)
		return;
	if (parent && parent != p) {
		parent->counter += p->counter;
		if (parent->counter >= K(p->sh).max_counter)
			parent->counter = K(p->sh).max_counter;
		note(parent, SM_CH_REFUND);
	}
	sm_task_step(t, &p->state, SM_STEP_REAP, &g24_steps);
}

/*
 * Why p, on the runqueue and not running, waits on rq (docs/why.md,
 * "The attribution"): its counter is out (it waits for the epoch), or
 * the running task's goodness is not below its own, or it is (the
 * running task's counter ticked down since) but 2.4 compares only at a
 * wakeup and in schedule(): no-preempt until the running task's counter
 * runs out or it sleeps.
 */
static void g24_why_waiting(const struct sm_rq *srq, const struct sm_task *t,
			    struct sm_why *w)
{
	const struct g24_rq *rq = (const struct g24_rq *)srq;
	const struct g24_task *p = (const struct g24_task *)t;
	const struct g24_task *curr = curr_of(rq);
	int32_t mm = active_mm(rq);

	if (!p->on_runqueue || p->base.on_cpu)
		return;
	if (!curr) {
		w->code = SM_WHY_TICK;
		return;
	}
	if (p->policy == SM_SCHED_NORMAL && !p->counter) {
		w->code = SM_WHY_COUNTER_OUT;
		return;
	}
	if (goodness(p, rq->base.cpu, mm) <= goodness(curr, rq->base.cpu, mm)) {
		w->code = SM_WHY_GOODNESS;
		return;
	}
	w->code = rq->base.need_resched ? SM_WHY_TICK : SM_WHY_NO_PREEMPT;
}

/* update_process_times: the running task's counter. */
static void g24_tick(struct sm_rq *srq)
{
	struct g24_rq *rq = rq_of(srq);
	struct g24_task *p = curr_of(rq);

	if (!p)
		return;
	if (--p->counter <= 0) {
		p->counter = 0;
		resched(rq);
		if (p->policy == SM_SCHED_NORMAL) {
			note(p, SM_CH_EXPIRE);
			return;
		}
	}
	note(p, SM_CH_TICK);
}

/* The epoch: every task's counter halved plus its quantum. */
static void recalculate(struct g24_shared *sh)
{
	for (struct g24_list *l = sh->tasks.next; l != &sh->tasks;
	     l = l->next) {
		struct g24_task *p = list_entry_all(l);

		p->counter = (p->counter >> 1) + NICE_TO_TICKS(p->nice);
	}
	for (struct g24_list *l = sh->tasks.next; l != &sh->tasks;
	     l = l->next)
		note(list_entry_all(l), SM_CH_RECALC);
}

static struct sm_task *g24_schedule(struct sm_rq *srq)
{
	struct g24_rq *rq = rq_of(srq);
	struct g24_shared *sh = rq->sh;
	struct g24_task *prev = curr_of(rq), *next;
	int32_t this_mm = active_mm(rq);
	bool prev_yielded = prev && prev->yielded;
	int c;

	/* move an exhausted RR process to be last */
	if (prev && prev->policy == SM_SCHED_RR && !prev->counter) {
		prev->counter = NICE_TO_TICKS(prev->nice);
		if (prev->on_runqueue)
			move_last_runqueue(prev);
	}
	if (prev && prev->state != SM_STATE_RUNNABLE && prev->on_runqueue)
		del_from_runqueue(prev);
	rq->base.need_resched = false;
	for (;;) {
		next = NULL;
		c = -1000;
		for (struct g24_list *l = sh->runqueue.next;
		     l != &sh->runqueue; l = l->next) {
			struct g24_task *p = list_entry_run(l);

			if (can_schedule(p, rq)) {
				int weight = goodness(p, rq->base.cpu,
						      this_mm);

				if (weight > c) {
					c = weight;
					next = p;
				}
			}
		}
		if (c)
			break;
		recalculate(sh);
	}
	if (prev)
		prev->yielded = false;
	if (prev == next) {
		if (prev)
			note(prev, SM_CH_STATE);
		return rq->base.curr;
	}
	rq->last_schedule = rq->base.clock;
	if (prev) {
		prev->base.on_cpu = false;
		prev->last_run = rq->base.jiffies;
		note(prev, sm_switch_why(prev->on_runqueue, prev->state));
	}
	rq->base.curr = next ? &next->base : NULL;
	if (next) {
		if (next->rq != rq) {
			/* it last ran elsewhere: p->processor = this_cpu */
			if (next->rq && sh->h.moving)
				sh->h.moving(sh->h.ctx, &next->base,
					     next->rq->base.cpu, rq->base.cpu,
					     SM_MIG_GLOBAL_PICK);
			next->rq = rq;
			note(next, SM_CH_MIGRATE);
		}
		next->base.on_cpu = true;
		if (next->mm)
			rq->active_mm = next->mm;
		note(next, SM_CH_RUN);
	}
	/* __schedule_tail (SMP): a preempted prev may go to another CPU */
	if (prev && prev->on_runqueue && prev->state == SM_STATE_RUNNABLE &&
	    !prev_yielded && sh->ncpus > 1)
		reschedule_idle(prev);
	return rq->base.curr;
}

/* sys_sched_yield: to the end with goodness -1, if others are waiting. */
static void g24_yield(struct sm_rq *srq, struct sm_task *t)
{
	struct g24_task *p = task_of(t);
	struct g24_shared *sh = p->sh;
	long pending = (long)sh->nr_running;

	if (!p->on_runqueue || p->state != SM_STATE_RUNNABLE)
		return;
	/* less the tasks on a CPU */
	for (int i = 0; i < sh->ncpus; i++)
		if (sh->cpu[i] && curr_of(sh->cpu[i]))
			pending--;
	if (pending > 0) {
		if (p->policy == SM_SCHED_NORMAL)
			p->yielded = true;
		if (p->base.on_cpu)
			resched(p->rq);
		move_last_runqueue(p);
	}
	note(p, SM_CH_YIELD);
}

/* set_one_prio: only the nice. */
static void g24_set_nice(struct sm_rq *srq, struct sm_task *t, int nice)
{
	struct g24_task *p = task_of(t);

	if (nice < -20 || nice > 19 || nice == p->nice)
		return;
	p->nice = nice;
	p->base.info.nice = nice;
	note(p, SM_CH_NICE);
}

/* setscheduler: to the head of the list; the caller reschedules. */
static void g24_setscheduler(struct sm_rq *srq, struct sm_task *t, int policy,
			     int rtp)
{
	struct g24_task *p = task_of(t);

	if (!sm_policy_valid(policy, rtp, 99))
		return;
	p->policy = policy;
	p->rt_priority = rtp;
	p->base.info.policy = policy;
	p->base.info.rt_priority = rtp;
	if (p->on_runqueue)
		move_first_runqueue(p);
	resched(p->base.on_cpu ? p->rq : rq_of(srq));
	note(p, SM_CH_SETSCHED);
}

/* One global runqueue: nothing moves but the task's CPU of preference. */
static void g24_migrate(struct sm_rq *src, struct sm_rq *dst,
			struct sm_task *t)
{
	struct g24_task *p = task_of(t);

	if (!p->on_runqueue || p->base.on_cpu || p->rq == rq_of(dst))
		return;
	p->rq = rq_of(dst);
	if (!curr_of(p->rq))
		resched(p->rq);
	note(p, SM_CH_MIGRATE);
}

static void g24_view(const struct sm_task *t, struct sm_view *v)
{
	view_of((const struct g24_task *)t, v);
}

static void g24_task_free(struct sm_rq *srq, struct sm_task *t)
{
	struct g24_task *p = task_of(t);

	if (!p)
		return;
	if (p->on_runqueue)
		del_from_runqueue(p);
	sm_rq_task_gone(&p->rq->base, &p->base);
	list_del(&p->all_list);
	free(p);
}

#define FAIL(...) do { snprintf(why, whylen, __VA_ARGS__); return 1; } \
	while (0)

static int g24_check(const struct sm_rq *srq, char *why, size_t whylen)
{
	const struct g24_rq *rq = (const struct g24_rq *)srq;
	const struct g24_shared *sh = rq->sh;
	const struct g24_task *curr = curr_of(rq);
	unsigned long n = 0;

	for (const struct g24_list *l = sh->runqueue.next; l != &sh->runqueue;
	     l = l->next) {
		const struct g24_task *p = list_entry_run(l);

		if (l->next->prev != l || l->prev->next != l)
			FAIL("runqueue: broken links");
		if (!p->on_runqueue)
			FAIL("task %u on the list, not flagged",
			     p->base.info.id);
		if (p->state != SM_STATE_RUNNABLE && !p->base.on_cpu)
			FAIL("task %u queued, not runnable", p->base.info.id);
		if (++n > 1000000)
			FAIL("runqueue: does not end");
	}
	if (n != sh->nr_running)
		FAIL("nr_running %lu, the list holds %lu", sh->nr_running, n);
	for (const struct g24_list *l = sh->tasks.next; l != &sh->tasks;
	     l = l->next) {
		const struct g24_task *p = list_entry_all(l);

		if (p->counter < 0 || p->counter > 2 * NICE_TO_TICKS(-20) +
		    K(sh).max_counter)
			FAIL("task %u: counter %ld", p->base.info.id,
			     p->counter);
		if (p->base.on_cpu && (!p->rq || curr_of(p->rq) != p))
			FAIL("task %u flagged on a cpu it is not current on",
			     p->base.info.id);
	}
	if (curr && (!curr->base.on_cpu || curr->rq != rq))
		FAIL("curr %u not on this cpu", curr->base.info.id);
	if (curr && !curr->on_runqueue && curr->state == SM_STATE_RUNNABLE)
		FAIL("curr %u runnable, not queued", curr->base.info.id);
	return 0;
}

static const struct sm_knob g24_knobs[] = {
	{ "PROC_CHANGE_PENALTY", "", 15, 0, 1000,
	  offsetof(struct g24_consts, proc_change_penalty), NULL,
	  "SMP: goodness bonus on the CPU a task last ran on (i386: 15)" },
	{ "MAX_COUNTER", "jiffies", 20 * HZ / 100, 1, 10000,
	  offsetof(struct g24_consts, max_counter), NULL,
	  "the most a parent's counter takes back from its reaped children" },
	{ 0 },
};

/*
 * SMP: one global runqueue that every CPU's schedule() scans; nothing to
 * balance.  A task moves when another CPU picks it (goodness() prefers
 * its last CPU by PROC_CHANGE_PENALTY); reschedule_idle() chooses which
 * CPU a wakeup or a fork disturbs.  A wakeup leaves p->processor as it
 * was; a sync one is offered to the waker's CPU, which takes it when it
 * is idle or its waker sleeps.
 */
static int g24_smp_create(void **b, const struct sm_policy *pol,
			  struct sm_rq *const *rqs, int ncpus,
			  unsigned long cache_decay_ticks,
			  const struct sm_balance_hooks *h)
{
	struct g24_shared *sh;

	*b = NULL;
	if (pol != &sm_policy_24 || ncpus < 1 || ncpus > G24_MAX_CPUS)
		return -1;
	sh = rq_of(rqs[0])->sh;
	for (int i = 0; i < ncpus; i++)
		if (!rqs[i] || rqs[i]->cpu != i || rq_of(rqs[i])->sh != sh)
			return -1;
	if (h)
		sh->h = *h;
	*b = sh;
	return 0;
}

static void g24_smp_destroy(void *b)
{
	struct g24_shared *sh = b;

	if (sh)
		memset(&sh->h, 0, sizeof(sh->h));
}

static int g24_smp_tick(void *b, int cpu)
{
	return 0;
}

static bool g24_smp_quiet(const void *b)
{
	return true;
}

static const struct sm_balance_stats *g24_smp_stats(const void *b, int cpu)
{
	return &((const struct g24_shared *)b)->nostats;
}

static int g24_smp_wake_cpu(void *b, const struct sm_task *t, int prev,
			    bool sync, int waker, enum sm_migrate_why *why)
{
	return sync && waker >= 0 ? waker : prev;
}

static const struct sm_balancer_ops g24_balancer = {
	.name = "2.4's global runqueue (no balancer)",
	.create = g24_smp_create,
	.destroy = g24_smp_destroy,
	.tick = g24_smp_tick,
	.quiet = g24_smp_quiet,
	.stats = g24_smp_stats,
	.wake_cpu = g24_smp_wake_cpu,
};

const struct sm_policy sm_policy_24 = {
	.name = "2.4",
	.aliases = { "2.4.22", "linux-2.4", NULL },
	.summary = "Linux 2.4.22: goodness() over one global runqueue, "
		   "counter epochs, nice, +1 same-mm bonus",
	.colour = "#784212",
	.point = 3,
	.confidence = "high",
	.reconstructed = "SMP reschedule_idle's threshold (0, as UP's since "
			 "2.4.4) and the sync-wakeup onto an idle CPU; HZ = "
			 "1000's quanta (41 ms for nice 0; i386 ran HZ = 100: "
			 "60 ms)",
	.rq_new = g24_rq_new,
	.rq_free = g24_rq_free,
	.task_new = g24_task_new,
	.fork = g24_fork,
	.wake = g24_wake,
	.block = g24_block,
	.exit = g24_exit,
	.reap = g24_reap,
	.tick = g24_tick,
	.schedule = g24_schedule,
	.yield = g24_yield,
	.set_nice = g24_set_nice,
	.setscheduler = g24_setscheduler,
	.view = g24_view,
	.task_free = g24_task_free,
	.check = g24_check,
	.migrate = g24_migrate,
	.max_sleep_avg = 0,
	.has_credit = false,
	.knobs = g24_knobs,
	.sched_init = g24_sched_init,
	.balancer = &g24_balancer,
	.why_waiting = g24_why_waiting,
	.why_at_tick = true,
};
