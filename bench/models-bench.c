/*
 * models-bench: how fast the scheduler models run.  Each policy replays the
 * same synthetic one-CPU workload, in integer jiffies, through the policy
 * API with the conventions of docs/models.md: 8 CPU hogs, 48 tasks that
 * run 1-3 ms and sleep 2-60 ms, 8 kernel threads with short bursts, and a
 * fork + exit + reap every 50 ms.  Prints simulated seconds per wall
 * second, policy calls per second and the per-task and per-CPU state size.
 * A deterministic LCG of our own drives the workload.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched-model/o1.h"

#define NTASK 64
#define SIM_JIFFIES 600000L	/* ten simulated minutes */

struct btask {
	struct sm_task *t;
	long burst;		/* jiffies left in the current burst, -1 hog */
	long wake_at;		/* jiffy of the next wakeup, -1 none */
	int kind;		/* 0 hog, 1 sleeper, 2 kthread */
};

static unsigned long lcg(unsigned long *s)
{
	*s = *s * 6364136223846793005UL + 1442695040888963407UL;
	return *s >> 33;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int index_of(struct btask *b, int n, const struct sm_task *t)
{
	for (int i = 0; i < n; i++)
		if (b[i].t == t)
			return i;
	return -1;
}

static long calls;

static void settle(const struct sm_policy *pol, struct sm_rq *rq,
		   struct btask *b, int n, unsigned long *seed)
{
	while (rq->need_resched) {
		int i;

		pol->schedule(rq);
		calls++;
		i = rq->curr ? index_of(b, n, rq->curr) : -1;
		if (i >= 0 && b[i].burst == 0)
			b[i].burst = b[i].kind == 0 ? -1 :
				1 + (long)(lcg(seed) % 3);
	}
}

static void run(const struct sm_policy *pol)
{
	struct sm_observer obs = { NULL, NULL };
	struct sm_rq *rq = pol->rq_new(NULL, 0, 1, &obs);
	struct btask b[NTASK + 1];
	unsigned long seed = 42, j;
	double t0, t1;
	int n = NTASK;

	calls = 0;
	for (int i = 0; i < n; i++) {
		struct sm_task_info info = { .id = (uint32_t)i,
					     .policy = SM_SCHED_NORMAL,
					     .has_mm = i < 56 };

		b[i].kind = i < 8 ? 0 : i < 56 ? 1 : 2;
		b[i].t = pol->task_new(rq, &info);
		b[i].burst = 0;
		b[i].wake_at = -1;
		pol->wake(rq, b[i].t, false);
	}
	b[n].t = NULL;
	t0 = now();
	settle(pol, rq, b, n, &seed);
	for (j = 2; j < SIM_JIFFIES; j++) {
		int c = rq->curr ? index_of(b, n, rq->curr) : -1;

		sm_rq_set_jiffies(rq, j);
		/* 1. a burst ending now ends first */
		if (c >= 0 && b[c].burst > 0 && --b[c].burst == 0) {
			b[c].wake_at = (long)j + 2 + (long)(lcg(&seed) % 59);
			pol->block(rq, b[c].t);
			calls++;
			settle(pol, rq, b, n, &seed);
		}
		/* 2. the tick */
		pol->tick(rq);
		calls++;
		/* 3. wakeups due, in id order */
		for (int i = 0; i < n; i++)
			if (b[i].wake_at == (long)j) {
				b[i].wake_at = -1;
				pol->wake(rq, b[i].t, false);
				calls++;
			}
		/* a short-lived child now and then */
		if (j % 50 == 0 && rq->curr) {
			struct sm_task_info info = { .id = 999,
						     .has_mm = true };
			struct sm_task *ch = pol->fork(rq, rq->curr, &info, 0);

			pol->exit(rq, ch);
			pol->reap(rq, rq->curr, ch);
			pol->task_free(rq, ch);
			calls += 4;
		}
		/* 4. schedule() if need_resched */
		settle(pol, rq, b, n, &seed);
	}
	t1 = now();
	printf("%-10s %6.0f simulated s per wall s   %5.1f M policy calls/s\n",
	       pol->name, (double)SIM_JIFFIES / 1000.0 / (t1 - t0),
	       (double)calls / (t1 - t0) / 1e6);
	for (int i = 0; i < n; i++)
		pol->task_free(rq, b[i].t);
	pol->rq_free(rq);
}

int main(void)
{
	printf("%d tasks on one CPU, %ld simulated s per policy\n", NTASK,
	       SIM_JIFFIES / 1000);
	for (const struct sm_policy *const *p = sm_policies; *p; p++)
		run(*p);
	printf("state: %zu bytes per task, %zu bytes per CPU runqueue\n",
	       sizeof(struct o1_task), sizeof(struct o1_rq));
	return 0;
}
