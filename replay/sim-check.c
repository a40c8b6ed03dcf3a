/*
 * sim-check: the simulator's invariants: checked at the end of every
 * instant (no CPU idle while a task is runnable, progress, and with
 * --check the policy's own and the runqueues'), at an idle balance with
 * --check, and at the end (work conserved per task).
 */
#include <stdio.h>
#include <string.h>

#include "lib/grow.h"
#include "replay/sim-int.h"

struct pull_probe {
	const struct sr_sim *s;
	int cpu;
	uint32_t found;
};

static bool probe(void *ctx, struct sm_task *pt)
{
	struct pull_probe *p = ctx;
	const struct sr_sim *s = p->s;

	if (pt->on_cpu || pt->info.id >= s->nt ||
	    !allowed(s, tk(s, pt->info.id), p->cpu) ||
	    sm_task_hot(s->pol, s->cpu[p->cpu].rq, pt, s->cache_decay_ticks))
		return true;
	p->found = pt->info.id;
	return false;
}

/*
 * docs/models.md, "SMP: readings" 25, "no CPU idle while it could pull":
 * CPU c stayed idle after a load_balance(idle = 1), so the busiest queue
 * by current length (first of the longest, at least 2 and 2 more than
 * c's) holds no task that is neither running, nor pinned elsewhere, nor
 * cache-hot.
 */
void sim_check_idle_pull(struct sr_sim *s, int c)
{
	unsigned long own = s->pol->nr_running(s->cpu[c].rq), max = 1;
	struct pull_probe p = { s, c, SR_TID_NONE };
	int busiest = -1;

	for (int i = 0; i < s->ncpu; i++) {
		unsigned long nr = s->pol->nr_running(s->cpu[i].rq);

		if (i != c && nr > max) {
			busiest = i;
			max = nr;
		}
	}
	if (busiest < 0 || max <= own + 1)
		return;
	s->pol->balance_walk(s->cpu[busiest].rq, probe, &p);
	if (p.found != SR_TID_NONE) {
		char msg[160];

		snprintf(msg, sizeof(msg), "cpu %d stays idle while it could "
			 "pull a task from cpu %d", c, busiest);
		sim_fail(s, SR_EINTERNAL, msg, p.found);
	}
}

struct walk_count {
	struct sr_sim *s;
	int cpu;
	uint32_t bad;
	const char *why;
};

static bool count_one(void *ctx, struct sm_task *pt)
{
	struct walk_count *w = ctx;
	struct sr_sim *s = w->s;
	uint32_t id = pt->info.id;

	if (id >= s->nt || id >= s->nseen || gone(s, id)) {
		w->bad = id;
		w->why = "a task unknown to the simulator is queued";
		return false;
	}
	if (s->seen[id] == s->stamp) {
		w->bad = id;
		w->why = "a task is on two runqueues";
		return false;
	}
	s->seen[id] = s->stamp;
	if (tk(s, id)->cpu != w->cpu) {
		w->bad = id;
		w->why = "a task is queued on another cpu than its own";
		return false;
	}
	return true;
}

/* "A task is on at most one runqueue" (--check; docs/models.md, "The SMP
   balancer", invariants). */
static void check_queues(struct sr_sim *s)
{
	struct walk_count w = { s, 0, SR_TID_NONE, NULL };

	if (!s->pol->balance_walk)
		return;
	if (s->nt) {
		/* a stamp per task, new ones 0 */
		uint32_t *p = sr_grow(s->seen, &s->nseen, s->nt - 1,
				      sizeof(*p), 256, 0);

		if (!p) {
			sim_fail(s, SR_ENOMEM, "out of memory", SR_TID_NONE);
			return;
		}
		s->seen = p;
	}
	if (++s->stamp == 0) {
		memset(s->seen, 0, s->nseen * sizeof(*s->seen));
		s->stamp = 1;
	}
	for (w.cpu = 0; w.cpu < s->ncpu && !w.why; w.cpu++)
		s->pol->balance_walk(s->cpu[w.cpu].rq, count_one, &w);
	if (w.why)
		sim_fail(s, SR_EINTERNAL, w.why, w.bad);
}

/* At the end of an instant, on the CPUs it touched. */
void sim_check(struct sr_sim *s)
{
	char why[200];

	if (s->nready > 0 && s->nbusy == 0 && !s->nkick) {
		sim_fail(s, SR_EINTERNAL, "every CPU is idle while a task is "
		     "runnable", SR_TID_NONE);
		return;
	}
	for (size_t w = 0; w < s->nw; w++) {
		for (uint64_t m = s->touched[w]; m; m &= m - 1) {
			int c = (int)(w * 64) + __builtin_ctzll(m);
			struct sm_rq *rq = s->cpu[c].rq;

			if (s->cpu[c].cur == SR_TID_NONE && s->pol->nr_running &&
			    s->cpu[c].kick_at <= s->now &&
			    s->pol->nr_running(rq)) {
				snprintf(why, sizeof(why), "cpu %d is idle "
					 "while its queue holds %lu task(s)",
					 c, s->pol->nr_running(rq));
				sim_fail(s, SR_EINTERNAL, why, SR_TID_NONE);
				return;
			}
			/* progress: a busy CPU advances some task's demand;
			 * simulated time that passes without it (switches
			 * that cost every slice) would run forever and write
			 * without end */
			if (s->cpu[c].cur != SR_TID_NONE &&
			    s->now - s->cpu[c].progress_at > SR_PROGRESS_MAX) {
				snprintf(why, sizeof(why), "no progress: cpu %d "
					 "was busy for 1 s of simulated time "
					 "and no task's demand advanced", c);
				sim_fail(s, SR_EINTERNAL, why, SR_TID_NONE);
				return;
			}
			if (s->o.check && s->pol->check &&
			    s->pol->check(rq, why, sizeof(why))) {
				sim_fail(s, SR_EINTERNAL, why, SR_TID_NONE);
				return;
			}
		}
	}
	if (s->o.check && s->ncpu > 1)
		check_queues(s);
}

/*
 * Work conserved per task (docs/models.md, "The SMP balancer",
 * invariants): what each task ran is
 * exactly its recorded demand.
 */
int sim_the_end(struct sr_sim *s)
{
	for (size_t i = 0; i < s->nt; i++) {
		const struct sr_dtask *dt;

		if (!s->sum[i].born)
			continue;
		if (!s->sum[i].done) {
			sim_fail(s, SR_EINTERNAL, tk(s, i)->state == T_BLOCKED ?
			     "a task still waits for its wake at the end" :
			     "a task did not finish its demand", (uint32_t)i);
			return -1;
		}
		dt = sr_demand_task(s->dm, (uint32_t)i);
		if (dt && dt->cpu_ns != s->sum[i].cpu_ns) {
			char msg[160];

			snprintf(msg, sizeof(msg), "a task ran %lld ns of its "
				 "%lld ns of demand",
				 (long long)s->sum[i].cpu_ns,
				 (long long)dt->cpu_ns);
			sim_fail(s, SR_EINTERNAL, msg, (uint32_t)i);
			return -1;
		}
	}
	s->finished = true;
	s->st.end = s->end_mark;
	return 0;
}
