/*
 * fair-balance: the simplified SMP balancing of the fair-class models
 * (cfs.c, eevdf.c), over their per-CPU runqueues.  Both kernels balance
 * through sched domains; on the machine the replay simulates (every CPU
 * alike, one cache, no SMT, no NUMA) that is one domain of single-CPU
 * groups, and what is left is this:
 *
 *  - the load of a CPU is the weight of what it can run (the fair
 *    entities' load.weight; 2.6.23 also counts an RT task as twice a
 *    nice -20 one), not a decayed average: no cpu_load[] history
 *    (2.6.23), no PELT (6.6);
 *  - when a CPU's schedule() finds nothing to run it balances at once
 *    (SD_BALANCE_NEWIDLE: idle_balance, 6.6's newidle_balance), and every
 *    CPU balances from its tick every balance interval: 2.6.23 (SD_CPU_INIT)
 *    1 jiffy, times busy_factor 64 when the CPU is busy; 6.6 as many
 *    jiffies as CPUs (sd_weight), times busy_factor 16 when busy;
 *  - the busiest CPU is the most loaded other one that has a task to give
 *    (two runnable, one not running; ties: the lowest number);
 *  - 2.6.23 (find_busiest_group, move_tasks): nothing moves when this CPU
 *    is at or above the average load or the busiest is within
 *    imbalance_pct (125 %) of it; else up to min(busiest - average,
 *    average - this, the busiest's load per task), at least one task's
 *    worth when they differ by two; RT tasks first (by prio, the tail of
 *    each list first), then the fair queue from the leftmost, a task
 *    skipped when half its weight is more than what is left to move;
 *    nothing is cache-hot (2.6.23's can_migrate_task has no such test);
 *  - 6.6 (calculate_imbalance, detach_tasks): an idle CPU takes tasks by
 *    count, half the difference and at least one (migrate_task: single
 *    CPU groups with spare capacity); a busy one balances load as above
 *    with imbalance_pct 117 (the MC domain), a task skipped when its
 *    weight is more than what is left; only fair tasks move (the RT
 *    class's push and pull are not modelled), least recently queued or
 *    picked first (the tail of rq->cfs_tasks); a task that ran within
 *    sysctl_sched_migration_cost (0.5 ms, the knob
 *    sched_migration_cost_ns) is cache-hot and stays, unless
 *    this CPU's periodic balancing failed more than cache_nice_tries (1)
 *    times in a row;
 *  - a pulled task is dequeued, its vruntime carried over (2.6.23
 *    set_task_cpu keeps its distance to min_vruntime; 6.6 keeps its lag),
 *    enqueued and tested for preemption on this CPU;
 *  - wakeups: 2.6.23 as the simulator's 2.6.0 rule (its CPU; a sync
 *    wakeup the waker's), without wake_affine's load arithmetic; 6.6
 *    wake_affine_idle, then select_idle_sibling over all CPUs (one LLC):
 *    the target if idle, else its previous CPU if idle, else the first
 *    idle CPU after the target, else the target.  A new task starts on its
 *    parent's CPU (no fork balancing).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "sched-model/fair.h"
#include "sched-model/smp.h"

#define RT_LOAD_WEIGHT	(fair_prio_weights[0].weight * 2)	/* 2.6.23 */

struct fair_balancer {
	struct fair_rq **rq;
	int n;
	struct sm_balance_hooks h;
	struct sm_balance_stats *st;
	unsigned long *last_balance;	/* jiffies */
	unsigned *nr_balance_failed;
	struct fair_task **cand;	/* a balance's candidates */
	size_t ncand, capcand;
	bool nomem;			/* no room for them: said by the tick */
};

static const struct fair_balance *rules(const struct fair_rq *rq)
{
	return rq->rules->cls->balance;
}

/* weighted_cpuload(): what the balancer compares */
static unsigned long cpu_load(const struct fair_rq *rq)
{
	unsigned long load = rq->load_weight;

	if (rules(rq)->rt_moves)
		load += rq->rt_nr_running * RT_LOAD_WEIGHT;
	return load;
}

static unsigned long task_load(const struct fair_rq *rq,
			       const struct fair_task *p)
{
	return fair_is_rt(p) ? RT_LOAD_WEIGHT : p->weight;
}

static bool idle_cpu(const struct fair_rq *rq)
{
	return !rq->base.curr && !rq->nr_running;
}

/* Queued tasks that are not running (RT ones where they move). */
static unsigned long movable(const struct fair_rq *rq)
{
	const struct fair_task *curr = (const struct fair_task *)rq->base.curr;
	unsigned long n = rq->nq - rq->nr_delayed;

	if (rules(rq)->rt_moves)
		n += rq->rt_nr_running -
			(curr && fair_is_rt(curr) && curr->rt_queued);
	return n;
}

static bool may_run(const struct fair_balancer *b, const struct fair_task *p,
		    int cpu)
{
	return !b->h.allowed || b->h.allowed(b->h.ctx, &p->base, cpu);
}

/* Room for the candidates of src is made first (candidates()). */
static void add_cand(struct fair_balancer *b, struct fair_task *p)
{
	b->cand[b->ncand++] = p;
}

static int by_vruntime(const void *x, const void *y)
{
	const struct fair_task *a = *(struct fair_task *const *)x;
	const struct fair_task *c = *(struct fair_task *const *)y;
	int64_t d = (int64_t)(a->vruntime - c->vruntime);

	if (d)
		return d < 0 ? -1 : 1;
	return a->seq < c->seq ? -1 : a->seq > c->seq;
}

static int by_mru(const void *x, const void *y)
{
	const struct fair_task *a = *(struct fair_task *const *)x;
	const struct fair_task *c = *(struct fair_task *const *)y;

	return a->mru < c->mru ? -1 : a->mru > c->mru;
}

/* The tasks of src in the order the kernel's iterators offer them. */
static void candidates(struct fair_balancer *b, const struct fair_rq *src)
{
	const struct fair_balance *r = rules(src);
	size_t need = src->rt_nr_running + src->nq + 1;

	b->ncand = 0;
	if (need > b->capcand) {
		struct fair_task **c = realloc(b->cand, need * sizeof(*c));

		if (!c) {
			b->nomem = true; /* nothing moves; the tick says why */
			return;
		}
		b->cand = c;
		b->capcand = need;
	}
	if (r->rt_moves)
		for (int prio = 0; prio < FAIR_MAX_RT_PRIO; prio++)
			for (struct fair_task *p = src->rt_tail[prio]; p;
			     p = p->rt_prev)
				if (!p->base.on_cpu)
					add_cand(b, p);
	{
		size_t first = b->ncand;

		for (size_t i = 0; i < src->nq; i++)
			if (!src->q[i]->delayed) /* asleep: not moved */
				add_cand(b, src->q[i]);
		sr_qsort(b->cand + first, b->ncand - first, sizeof(*b->cand),
		      r->mru_order ? by_mru : by_vruntime);
	}
}

/* 6.6 task_hot(): ran on src within sysctl_sched_migration_cost */
static bool task_hot(const struct fair_rq *src, const struct fair_task *p)
{
	long cost = src->rules->k.sched_migration_cost_ns;

	return rules(src)->cache_hot &&
		(int64_t)(fair_now(src) - p->exec_start) < (int64_t)cost;
}

/* The busiest other CPU with a task to give, or -1. */
static int find_busiest(const struct fair_balancer *b, int this_cpu,
			unsigned long *max_load, unsigned long *total)
{
	int busiest = -1;

	*max_load = 0;
	*total = 0;
	for (int i = 0; i < b->n; i++) {
		unsigned long load = cpu_load(b->rq[i]);

		*total += load;
		if (i == this_cpu || b->rq[i]->nr_running < 2 ||
		    !movable(b->rq[i]))
			continue;
		if (busiest < 0 || load > *max_load) {
			busiest = i;
			*max_load = load;
		}
	}
	return busiest;
}

enum move_by { BY_LOAD, BY_COUNT };

/* load_balance(this_cpu, idle): the tasks pulled. */
static int balance(struct fair_balancer *b, int this_cpu, bool newidle)
{
	struct fair_rq *this_rq = b->rq[this_cpu], *src;
	const struct fair_balance *r = rules(this_rq);
	unsigned long max_load, total, this_load = cpu_load(this_rq), avg;
	long imbalance;
	enum move_by by = BY_LOAD;
	bool idle = idle_cpu(this_rq) || newidle;
	int busiest, pulled = 0;

	b->st[this_cpu].balances++;
	busiest = find_busiest(b, this_cpu, &max_load, &total);
	if (busiest < 0)
		return 0;
	src = b->rq[busiest];
	avg = total / (unsigned long)b->n;
	if (r->count_when_idle && idle) {
		by = BY_COUNT;
		imbalance = (long)(src->cfs_nr_running -
				   this_rq->cfs_nr_running) / 2;
		if (imbalance < 1)
			imbalance = 1;
	} else {
		unsigned long per_task = max_load / src->nr_running;

		if (this_load >= avg || max_load <= this_load ||
		    100 * max_load <= (unsigned long)r->imbalance_pct *
				      this_load)
			goto failed;
		imbalance = (long)(max_load - avg);
		if ((unsigned long)imbalance > avg - this_load)
			imbalance = (long)(avg - this_load);
		if (r->per_task_cap) {
			/* max_pull, then fix_small_imbalance: one task's
			   worth when two apart */
			if ((unsigned long)imbalance > per_task)
				imbalance = (long)per_task;
			if ((unsigned long)imbalance < per_task &&
			    max_load - this_load >= 2 * per_task)
				imbalance = (long)per_task;
		}
		if (imbalance <= 0)
			goto failed;
	}
	candidates(b, src);
	for (size_t i = 0; i < b->ncand && imbalance > 0; i++) {
		struct fair_task *p = b->cand[i];
		unsigned long load = task_load(src, p);
		unsigned fails = b->nr_balance_failed[this_cpu];

		if (p->base.on_cpu || !may_run(b, p, this_cpu))
			continue;
		if (task_hot(src, p) && fails <= r->cache_nice_tries)
			continue;
		if (by == BY_LOAD) {
			/* 2.6.23 skip_for_load: half the weight; 6.6
			   shr_bound(load, nr_balance_failed) */
			unsigned long need = r->skip_by_half ? load >> 1 :
				fails < 32 ? load >> fails : 0;

			if (need > (unsigned long)imbalance)
				continue;
		}
		if (b->h.moving)
			b->h.moving(b->h.ctx, &p->base, busiest, this_cpu,
				    idle ? SM_MIG_IDLE_BALANCE
					 : SM_MIG_TICK_BALANCE);
		fair_migrate(&src->base, &this_rq->base, &p->base);
		pulled++;
		b->st[this_cpu].pulls++;
		imbalance -= by == BY_COUNT ? 1 : (long)load;
	}
	if (pulled) {
		b->nr_balance_failed[this_cpu] = 0;
		return pulled;
	}
failed:
	if (!newidle)
		b->nr_balance_failed[this_cpu]++;
	return 0;
}

static int newidle_balance(void *ctx, struct sm_rq *rq)
{
	return balance(ctx, rq->cpu, true);
}

static int fb_create(void **out, const struct sm_policy *pol,
		     struct sm_rq *const *rqs, int ncpus,
		     unsigned long cache_decay_ticks,
		     const struct sm_balance_hooks *h)
{
	struct fair_balancer *b;

	*out = NULL;
	if (!sm_balance_rqs_ok(pol, rqs, ncpus))
		return -1;
	for (int i = 0; i < ncpus; i++)
		if (!fair_rq_of(rqs[i])->rules->cls->balance)
			return -1;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -1;
	b->n = ncpus;
	if (h)
		b->h = *h;
	b->rq = calloc((size_t)ncpus, sizeof(*b->rq));
	b->st = calloc((size_t)ncpus, sizeof(*b->st));
	b->last_balance = calloc((size_t)ncpus, sizeof(*b->last_balance));
	b->nr_balance_failed = calloc((size_t)ncpus,
				      sizeof(*b->nr_balance_failed));
	if (!b->rq || !b->st || !b->last_balance || !b->nr_balance_failed) {
		free(b->rq);
		free(b->st);
		free(b->last_balance);
		free(b->nr_balance_failed);
		free(b);
		return -1;
	}
	for (int i = 0; i < ncpus; i++) {
		b->rq[i] = fair_rq_of(rqs[i]);
		b->last_balance[i] = rqs[i]->jiffies;
		rqs[i]->idle_balance = (struct sm_idle_balance){
			newidle_balance, b };
	}
	*out = b;
	return 0;
}

static void fb_destroy(void *v)
{
	struct fair_balancer *b = v;

	if (!b)
		return;
	for (int i = 0; i < b->n; i++)
		b->rq[i]->base.idle_balance = (struct sm_idle_balance){
			NULL, NULL };
	free(b->rq);
	free(b->st);
	free(b->last_balance);
	free(b->nr_balance_failed);
	free(b->cand);
	free(b);
}

/* rebalance_domains() from the tick: when the interval has passed. */
static int fb_tick(void *v, int cpu)
{
	struct fair_balancer *b = v;
	struct fair_rq *rq = b->rq[cpu];
	const struct fair_balance *r = rules(rq);
	/* sd->balance_interval is in ms, msecs_to_jiffies at the tick */
	unsigned long interval = r->interval_by_ncpus ? (unsigned long)b->n : 1;

	if (!idle_cpu(rq))
		interval *= (unsigned long)r->busy_factor;
	interval = sm_msecs_to_jiffies(&rq->base, interval);
	if (!interval)
		interval = 1;
	if (rq->base.jiffies - b->last_balance[cpu] < interval)
		return 0;
	b->last_balance[cpu] = rq->base.jiffies;
	return balance(b, cpu, false);
}

static bool fb_nomem(const void *v)
{
	return ((const struct fair_balancer *)v)->nomem;
}

static bool fb_quiet(const void *v)
{
	return true; /* no history: an all-idle machine has nothing to move */
}

static const struct sm_balance_stats *fb_stats(const void *v, int cpu)
{
	return &((const struct fair_balancer *)v)->st[cpu];
}

/* 6.6 select_task_rq_fair for a wakeup (see the top of the file). */
static int fb_wake_cpu(void *v, const struct sm_task *t, int prev, bool sync,
		       int waker, enum sm_migrate_why *why)
{
	struct fair_balancer *b = v;
	const struct fair_task *p = (const struct fair_task *)t;
	int target = prev;

	if (!rules(b->rq[prev])->wake_idle)
		return sync && waker >= 0 && may_run(b, p, waker) ? waker :
			prev;
	*why = SM_MIG_WAKE_IDLE;
	if (waker >= 0 && waker != prev && may_run(b, p, waker)) {
		/* wake_affine_idle */
		if (idle_cpu(b->rq[waker])) {
			target = idle_cpu(b->rq[prev]) ? prev : waker;
		} else if (sync && b->rq[waker]->nr_running == 1) {
			target = waker;
			*why = SM_MIG_SYNC_WAKE;
		}
	}
	/* select_idle_sibling */
	if (idle_cpu(b->rq[target]) && may_run(b, p, target))
		return target;
	if (idle_cpu(b->rq[prev]) && may_run(b, p, prev))
		return prev;
	for (int k = 1; k < b->n; k++) {
		int c = (target + k) % b->n;

		if (idle_cpu(b->rq[c]) && may_run(b, p, c)) {
			*why = SM_MIG_WAKE_IDLE;
			return c;
		}
	}
	return target;
}

/* t waits on cpu while idle_cpu idles: hot (6.6), not on the busiest
   queue, or waiting for the next balance. */
static int fb_why_stays(const void *v, const struct sm_task *t, int cpu,
			int idle_cpu)
{
	const struct fair_balancer *b = v;
	const struct fair_task *p = (const struct fair_task *)t;
	unsigned long max_load, total;

	if (cpu < 0 || cpu >= b->n || idle_cpu < 0 || idle_cpu >= b->n)
		return SM_WHYSUB_NONE;
	if (!fair_is_rt(p) && task_hot(b->rq[cpu], p))
		return SM_WHYSUB_CACHE_HOT;
	return find_busiest(b, idle_cpu, &max_load, &total) == cpu ?
		SM_WHYSUB_INTERVAL : SM_WHYSUB_THRESHOLD;
}

const struct sm_balancer_ops fair_balancer_ops = {
	.name = "the fair classes' simplified balancer",
	.create = fb_create,
	.destroy = fb_destroy,
	.tick = fb_tick,
	.quiet = fb_quiet,
	.nomem = fb_nomem,
	.stats = fb_stats,
	.wake_cpu = fb_wake_cpu,
	.why_stays = fb_why_stays,
};

/* ---- what the simulator's checks walk ---- */

unsigned long fair_nr_running(const struct sm_rq *rq)
{
	return ((const struct fair_rq *)rq)->nr_running;
}

unsigned long fair_last_run(const struct sm_task *t)
{
	return ((const struct fair_task *)t)->last_run;
}

/* Every queued task that is not running: RT by prio, then the fair
   queue (in its array's order). */
void fair_balance_walk(struct sm_rq *srq, sm_walk_fn fn, void *ctx)
{
	struct fair_rq *rq = fair_rq_of(srq);

	for (int prio = 0; prio < FAIR_MAX_RT_PRIO; prio++)
		for (struct fair_task *p = rq->rt_tail[prio], *prev; p;
		     p = prev) {
			prev = p->rt_prev; /* fn may move p away */
			if (!p->base.on_cpu && !fn(ctx, &p->base))
				return;
		}
	for (size_t i = rq->nq; i-- > 0;)
		if (!rq->q[i]->delayed && !fn(ctx, &rq->q[i]->base))
			return;
}
