/*
 * smp: how one policy's per-CPU runqueues are kept in balance.  A policy
 * names its balancer (sm_policy.balancer); NULL means the load balancer
 * of 2.6.0-test2 (balance.c, shared by the O(1) family), which needs the
 * policy's nr_running, balance_walk, last_run and migrate.  2.4 (one
 * global runqueue: nothing to balance) and the fair classes (a simplified
 * balancer by weighted load, fair-balance.c) bring their own.  The
 * simulator calls only these, on two or more CPUs:
 *
 *	ops = sm_balancer_of(policy);
 *	ops->create(&b, policy, rqs, ncpus, cache_decay_ticks, &hooks);
 *	... at every tick, on every CPU c in order, after policy->tick:
 *	ops->tick(b, c);
 *	... where a wakeup enqueues: ops->wake_cpu (NULL: the simulator's
 *	2.6.0 rule, docs/models.md "The SMP balancer");
 *	ops->destroy(b);
 */
#ifndef SM_SMP_H
#define SM_SMP_H

#include <stdbool.h>

#include "sched-model/balance.h"
#include "sched-model/policy.h"

struct sm_balancer_ops {
	const char *name;	/* what balances, for messages and docs */
	/* rqs[i] is CPU i's runqueue; installs rq->idle_balance where the
	   balancer has one.  0, or -1 (bad arguments, out of memory). */
	int (*create)(void **b, const struct sm_policy *pol,
		      struct sm_rq *const *rqs, int ncpus,
		      unsigned long cache_decay_ticks,
		      const struct sm_balance_hooks *h);
	void (*destroy)(void *b);
	/* CPU cpu's tick, after the policy's: the tasks pulled onto it */
	int (*tick)(void *b, int cpu);
	/* nothing a balancer holds can change while every CPU idles */
	bool (*quiet)(const void *b);
	/* an allocation failed (that balance moved nothing): the simulator
	   stops, out of memory.  NULL: the balancer never allocates after
	   create */
	bool (*nomem)(const void *b);
	const struct sm_balance_stats *(*stats)(const void *b, int cpu);
	/* where a wakeup of t enqueues: prev = its CPU, waker = the waking
	   task's CPU (-1: a timer or a device); *why if it moves.  NULL:
	   the simulator's rule (its CPU; a sync wakeup the waker's) */
	int (*wake_cpu)(void *b, const struct sm_task *t, int prev, bool sync,
			int waker, enum sm_migrate_why *why);
	/* t waits on CPU cpu while CPU idle_cpu is idle: why the balancer
	   has not moved it (SM_WHYSUB_CACHE_HOT, _THRESHOLD, _INTERVAL;
	   the attribution's other-cpu).  NULL: not said. */
	int (*why_stays)(const void *b, const struct sm_task *t, int cpu,
			 int idle_cpu);
	/* the simulator's --check "no CPU idle while it could pull" holds
	   (the 2.6.0 balancer's rule: docs/models.md, "SMP: readings" 25) */
	bool idle_pull_check;
};

/* 2.6.0-test2's (balance.c) */
extern const struct sm_balancer_ops sm_balancer_o1;

/* The policy's balancer; NULL when it runs on one CPU only. */
const struct sm_balancer_ops *sm_balancer_of(const struct sm_policy *pol);

#endif
