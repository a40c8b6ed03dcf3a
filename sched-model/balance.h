/*
 * balance: the SMP load balancer of Linux 2.6.0-test2, shared by every
 * policy (docs/models.md, "The SMP balancer"):
 * find_busiest_queue() with its prev_cpu_load smoothing, the imbalance and
 * the "~25 %" threshold; load_balance() pulling from the expired array
 * first, best priority first, tail first, skipping running, disallowed
 * and (idle only) cache-hot tasks; rebalance_tick() every jiffy on an idle
 * CPU and every BUSY_REBALANCE_TICK jiffies on a busy one; and the idle
 * balance schedule() runs when its queue is empty.
 *
 * It works only through the sm_policy interface (nr_running,
 * balance_walk, last_run, migrate), so any policy that provides those
 * gets it.  It owns prev_cpu_load[][] and cache_decay_ticks; the
 * simulator owns time (it sets every rq->jiffies), affinity (the allowed
 * hook) and what runs where.
 *
 *	sm_balancer_new(&b, policy, rqs, ncpus, cache_decay_ticks, &hooks);
 *	... at every tick, after policy->tick(rqs[c]):
 *	sm_rebalance_tick(b, c);
 *	... schedule() calls the balancer itself through rq->idle_balance.
 */
#ifndef SM_BALANCE_H
#define SM_BALANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "sched-model/policy.h"

/* rebalance_tick's intervals at HZ = 1000 (docs/models.md, "Constants"). */
#define IDLE_REBALANCE_TICK	(SM_HZ / 1000 ? SM_HZ / 1000 : 1)
#define BUSY_REBALANCE_TICK	(SM_HZ / 5 ? SM_HZ / 5 : 1)
/* cache_decay_ticks: per machine in the kernel (i386 derives it from the
   cache size); 10 jiffies was typical at HZ = 1000 in 2003 */
#define SM_CACHE_DECAY_TICKS_DEFAULT 10
/* the most CPUs a balancer takes (prev_cpu_load is ncpus x ncpus) */
#define SM_BALANCE_MAX_CPUS 1024

/* A balancer's runqueues: 1..SM_BALANCE_MAX_CPUS of them, CPU i's at i,
   each of policy pol. */
bool sm_balance_rqs_ok(const struct sm_policy *pol, struct sm_rq *const *rqs,
		       int ncpus);

/* Why a task changed CPU (timeline.tsv's `why` column). */
enum sm_migrate_why {
	SM_MIG_IDLE_BALANCE,  /* load_balance(idle = 1): schedule() found its
				 queue empty, or an idle CPU's tick */
	SM_MIG_TICK_BALANCE,  /* load_balance(idle = 0): a busy CPU's tick
				 every BUSY_REBALANCE_TICK jiffies */
	SM_MIG_SYNC_WAKE,     /* try_to_wake_up's sync fast migration */
	SM_MIG_AFFINITY,      /* woken on the CPU its name pins it to */
	SM_MIG_GLOBAL_PICK,   /* 2.4: schedule() on another CPU took it
				 from the one global runqueue */
	SM_MIG_WAKE_IDLE,     /* a fair class's wakeup onto an idle CPU
				 (6.6's select_idle_sibling) */
	SM_MIG__COUNT
};

const char *sm_migrate_why_name(enum sm_migrate_why why);

struct sm_balance_hooks {
	/* may t run on cpu (cpus_allowed)?  NULL: every task everywhere */
	bool (*allowed)(void *ctx, const struct sm_task *t, int cpu);
	/* t is about to move from -> to (called before policy->migrate) */
	void (*moving)(void *ctx, const struct sm_task *t, int from, int to,
		       enum sm_migrate_why why);
	void *ctx;
	/* a call on one CPU's runqueue may have set cpu's need_resched
	   (2.4's reschedule_idle); NULL: only the CPU called on */
	void (*kick)(void *ctx, int cpu);
};

struct sm_balance_stats {
	uint64_t balances;    /* load_balance() calls on this CPU */
	uint64_t pulls;       /* tasks it pulled onto this CPU */
};

struct sm_balancer;

/* CAN_MIGRATE_TASK's cache-hot test for a pull onto rq's CPU: the
   policy's task_hot, or jiffies - last_run <= cache_decay_ticks. */
static inline bool sm_task_hot(const struct sm_policy *pol,
			       const struct sm_rq *rq, const struct sm_task *t,
			       unsigned long cache_decay_ticks)
{
	if (pol->task_hot)
		return pol->task_hot(rq, t, cache_decay_ticks);
	return rq->jiffies - pol->last_run(t) <= cache_decay_ticks;
}

/*
 * rqs[i] is CPU i's runqueue (rqs[i]->cpu == i), all of one policy that
 * provides nr_running, balance_walk, last_run and migrate.  Sets every
 * rq's idle_balance.  0, or -1 (bad arguments, out of memory).
 */
int sm_balancer_new(struct sm_balancer **b, const struct sm_policy *pol,
		    struct sm_rq *const *rqs, int ncpus,
		    unsigned long cache_decay_ticks,
		    const struct sm_balance_hooks *hooks);
void sm_balancer_free(struct sm_balancer *b);

/* find_busiest_queue(cpu's rq, idle): the busiest CPU and the imbalance,
   or -1.  Updates cpu's prev_cpu_load[] as the kernel does. */
int sm_find_busiest_queue(struct sm_balancer *b, int cpu, bool idle,
			  unsigned long *imbalance);
/* load_balance(cpu's rq, idle): the number of tasks pulled onto cpu. */
int sm_load_balance(struct sm_balancer *b, int cpu, bool idle);
/* rebalance_tick() at rqs[cpu]->jiffies, idle = no current task: the
   number of tasks pulled. */
int sm_rebalance_tick(struct sm_balancer *b, int cpu);

/* t waits on cpu while idle_cpu idles: why no idle balance took it
   (SM_WHYSUB_*: cache-hot for idle_cpu; its queue not the busiest by
   current length, or holding fewer than two; else the next balance). */
int sm_balancer_why_stays(const struct sm_balancer *b, const struct sm_task *t,
			  int cpu, int idle_cpu);
/* Every prev_cpu_load is 0: idle ticks of an all-idle machine change
   nothing and may be skipped (docs/models.md, "SMP: readings" 21). */
bool sm_balancer_quiet(const struct sm_balancer *b);
unsigned long sm_balancer_prev_load(const struct sm_balancer *b, int cpu,
				    int of);
const struct sm_balance_stats *sm_balancer_stats(const struct sm_balancer *b,
						 int cpu);

#endif
