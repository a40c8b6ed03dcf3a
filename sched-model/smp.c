/*
 * smp: the choice of balancer per policy, and 2.6.0-test2's (balance.c)
 * behind the common calls.
 */
#include "sched-model/smp.h"

static int o1_create(void **b, const struct sm_policy *pol,
		     struct sm_rq *const *rqs, int ncpus,
		     unsigned long cache_decay_ticks,
		     const struct sm_balance_hooks *h)
{
	struct sm_balancer *bal;
	int rc = sm_balancer_new(&bal, pol, rqs, ncpus, cache_decay_ticks, h);

	*b = rc ? NULL : bal;
	return rc;
}

static void o1_destroy(void *b)
{
	sm_balancer_free(b);
}

static int o1_tick(void *b, int cpu)
{
	return sm_rebalance_tick(b, cpu);
}

static bool o1_quiet(const void *b)
{
	return sm_balancer_quiet(b);
}

static const struct sm_balance_stats *o1_stats(const void *b, int cpu)
{
	return sm_balancer_stats(b, cpu);
}

static int o1_why_stays(const void *b, const struct sm_task *t, int cpu,
			int idle_cpu)
{
	return sm_balancer_why_stays(b, t, cpu, idle_cpu);
}

const struct sm_balancer_ops sm_balancer_o1 = {
	.name = "the 2.6.0-test2 load balancer",
	.create = o1_create,
	.destroy = o1_destroy,
	.tick = o1_tick,
	.quiet = o1_quiet,
	.stats = o1_stats,
	.why_stays = o1_why_stays,
	.idle_pull_check = true,
};

const struct sm_balancer_ops *sm_balancer_of(const struct sm_policy *pol)
{
	if (pol->balancer)
		return pol->balancer;
	if (pol->nr_running && pol->balance_walk && pol->last_run &&
	    pol->migrate)
		return &sm_balancer_o1;
	return NULL;
}
