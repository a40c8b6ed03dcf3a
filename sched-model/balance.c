/*
 * balance: load_balance, find_busiest_queue and rebalance_tick as in
 * Linux 2.6.0-test2 (docs/models.md, "The SMP balancer"), over any
 * policy's runqueues through the sm_policy interface.  NUMA node balancing is out of scope:
 * every CPU is in the node mask.
 */
#include <stdlib.h>

#include "sched-model/balance.h"

struct sm_balancer {
	const struct sm_policy *pol;
	struct sm_rq **rq;
	int n;
	unsigned long cache_decay_ticks;
	struct sm_balance_hooks h;
	/* prev_cpu_load[this * n + i]: the length of CPU i's queue that CPU
	   `this` saw at its previous balance */
	uint32_t *prev_cpu_load;
	uint64_t nonzero;             /* prev_cpu_load entries not 0 */
	struct sm_balance_stats *st;
};

static const char *const why_names[SM_MIG__COUNT] = {
	[SM_MIG_IDLE_BALANCE] = "idle-balance",
	[SM_MIG_TICK_BALANCE] = "tick-balance",
	[SM_MIG_SYNC_WAKE] = "sync-wake",
	[SM_MIG_AFFINITY] = "affinity",
	[SM_MIG_GLOBAL_PICK] = "global-runqueue",
	[SM_MIG_WAKE_IDLE] = "wake-idle",
};

const char *sm_migrate_why_name(enum sm_migrate_why why)
{
	return (unsigned)why < SM_MIG__COUNT ? why_names[why] : "?";
}

static int idle_balance(void *ctx, struct sm_rq *rq)
{
	return sm_load_balance(ctx, rq->cpu, true);
}

bool sm_balance_rqs_ok(const struct sm_policy *pol, struct sm_rq *const *rqs,
		       int ncpus)
{
	if (ncpus < 1 || ncpus > SM_BALANCE_MAX_CPUS)
		return false;
	for (int i = 0; i < ncpus; i++)
		if (!rqs[i] || rqs[i]->cpu != i || rqs[i]->policy != pol)
			return false;
	return true;
}

int sm_balancer_new(struct sm_balancer **out, const struct sm_policy *pol,
		    struct sm_rq *const *rqs, int ncpus,
		    unsigned long cache_decay_ticks,
		    const struct sm_balance_hooks *hooks)
{
	struct sm_balancer *b;

	*out = NULL;
	if (!pol || !pol->nr_running || !pol->balance_walk ||
	    !pol->last_run || !pol->migrate ||
	    !sm_balance_rqs_ok(pol, rqs, ncpus))
		return -1;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -1;
	b->pol = pol;
	b->n = ncpus;
	b->cache_decay_ticks = cache_decay_ticks;
	if (hooks)
		b->h = *hooks;
	b->rq = calloc((size_t)ncpus, sizeof(*b->rq)); /* NULLs until set */
	b->prev_cpu_load = calloc((size_t)ncpus * (size_t)ncpus,
				  sizeof(*b->prev_cpu_load));
	b->st = calloc((size_t)ncpus, sizeof(*b->st));
	if (!b->rq || !b->prev_cpu_load || !b->st) {
		sm_balancer_free(b);
		return -1;
	}
	for (int i = 0; i < ncpus; i++) {
		b->rq[i] = rqs[i];
		rqs[i]->idle_balance = (struct sm_idle_balance){ idle_balance,
								 b };
	}
	*out = b;
	return 0;
}

void sm_balancer_free(struct sm_balancer *b)
{
	if (!b)
		return;
	if (b->rq)
		for (int i = 0; i < b->n; i++)
			if (b->rq[i])
				b->rq[i]->idle_balance =
					(struct sm_idle_balance){ NULL, NULL };
	free(b->rq);
	free(b->prev_cpu_load);
	free(b->st);
	free(b);
}

static void set_prev(struct sm_balancer *b, uint32_t *slot, unsigned long v)
{
	b->nonzero -= *slot != 0;
	*slot = (uint32_t)v;
	b->nonzero += *slot != 0;
}

/*
 * The remote load is the smaller of its current and previously seen
 * length, the local one the larger (with idle: both current), so a queue
 * must stay long across two balances before anything moves
 * (docs/models.md, "The SMP balancer", find_busiest_queue).
 */
int sm_find_busiest_queue(struct sm_balancer *b, int this_cpu, bool idle,
			  unsigned long *imbalance)
{
	uint32_t *prev = b->prev_cpu_load + (size_t)this_cpu * (size_t)b->n;
	unsigned long nr_running, max_load = 1;
	unsigned long this_nr = b->pol->nr_running(b->rq[this_cpu]);
	int busiest = -1;

	*imbalance = 0;
	if (idle || this_nr > prev[this_cpu])
		nr_running = this_nr;
	else
		nr_running = prev[this_cpu];
	for (int i = 0; i < b->n; i++) {
		unsigned long load, nr = b->pol->nr_running(b->rq[i]);

		if (idle || nr < prev[i])
			load = nr;
		else
			load = prev[i];
		set_prev(b, &prev[i], nr);
		if (load > max_load && i != this_cpu) {
			busiest = i;
			max_load = load;
		}
	}
	if (busiest < 0)
		return -1;
	/* only half the difference: more would shift the imbalance over */
	*imbalance = (max_load - nr_running) / 2;
	/* it needs an at least ~25% imbalance to trigger balancing */
	if (!idle && *imbalance < (max_load + 3) / 4)
		return -1;
	/* the re-check with busiest's lock held */
	if (b->pol->nr_running(b->rq[busiest]) <= nr_running + 1)
		return -1;
	return busiest;
}

struct pull {
	struct sm_balancer *b;
	int this_cpu, busiest;
	bool idle;
	unsigned long imbalance, jiffies;
	int pulled;
};

/* CAN_MIGRATE_TASK, then pull_task; false stops the scan. */
static bool try_pull(void *ctx, struct sm_task *t)
{
	struct pull *p = ctx;
	struct sm_balancer *b = p->b;

	if (t->on_cpu)
		return true; /* task_running */
	if (b->h.allowed && !b->h.allowed(b->h.ctx, t, p->this_cpu))
		return true;
	/* cache-hot, tested only when idle (as in test1's text:
	   docs/models.md, "Where these rules come from") */
	if (p->idle && sm_task_hot(b->pol, b->rq[p->this_cpu], t,
				   b->cache_decay_ticks))
		return true;
	if (b->h.moving)
		b->h.moving(b->h.ctx, t, p->busiest, p->this_cpu,
			    p->idle ? SM_MIG_IDLE_BALANCE
				    : SM_MIG_TICK_BALANCE);
	b->pol->migrate(b->rq[p->busiest], b->rq[p->this_cpu], t);
	p->pulled++;
	b->st[p->this_cpu].pulls++;
	/* idle: exactly one; otherwise until --imbalance reaches 0 */
	return !p->idle && --p->imbalance;
}

int sm_load_balance(struct sm_balancer *b, int this_cpu, bool idle)
{
	struct pull p = { .b = b, .this_cpu = this_cpu, .idle = idle,
			  .jiffies = b->rq[this_cpu]->jiffies };

	b->st[this_cpu].balances++;
	p.busiest = sm_find_busiest_queue(b, this_cpu, idle, &p.imbalance);
	if (p.busiest < 0)
		return 0;
	b->pol->balance_walk(b->rq[p.busiest], try_pull, &p);
	return p.pulled;
}

int sm_rebalance_tick(struct sm_balancer *b, int cpu)
{
	unsigned long j = b->rq[cpu]->jiffies;

	if (!b->rq[cpu]->curr) {
		if (!(j % IDLE_REBALANCE_TICK))
			return sm_load_balance(b, cpu, true);
		return 0;
	}
	if (!(j % BUSY_REBALANCE_TICK))
		return sm_load_balance(b, cpu, false);
	return 0;
}

bool sm_balancer_quiet(const struct sm_balancer *b)
{
	return b->nonzero == 0;
}

unsigned long sm_balancer_prev_load(const struct sm_balancer *b, int cpu,
				    int of)
{
	return b->prev_cpu_load[(size_t)cpu * (size_t)b->n + (size_t)of];
}

const struct sm_balance_stats *sm_balancer_stats(const struct sm_balancer *b,
						 int cpu)
{
	return &b->st[cpu];
}

int sm_balancer_why_stays(const struct sm_balancer *b, const struct sm_task *t,
			  int cpu, int idle_cpu)
{
	unsigned long max_load = 1;
	int busiest = -1;

	if (cpu < 0 || cpu >= b->n || idle_cpu < 0 || idle_cpu >= b->n)
		return SM_WHYSUB_NONE;
	if (sm_task_hot(b->pol, b->rq[idle_cpu], t, b->cache_decay_ticks))
		return SM_WHYSUB_CACHE_HOT;
	/* find_busiest_queue(idle = 1): current lengths, the first longest */
	for (int i = 0; i < b->n; i++) {
		unsigned long nr = b->pol->nr_running(b->rq[i]);

		if (i != idle_cpu && nr > max_load) {
			busiest = i;
			max_load = nr;
		}
	}
	return busiest == cpu ? SM_WHYSUB_INTERVAL : SM_WHYSUB_THRESHOLD;
}
