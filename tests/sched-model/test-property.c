/*
 * test-property: thousands of random event sequences per policy, on one
 * or two CPUs, through the whole policy API (ticks, clock jumps, wakeups
 * sync or not, blocks, exits, reaps, forks with every flag, yields, nice
 * and policy changes valid or not, migrations, schedule() at once or
 * deferred; on two CPUs the policy's balancer at every tick and on
 * every CPU that goes idle, and its wakeup placement), checking after
 * every step:
 *  - the policy's check() on every runqueue: prio in range, sleep_avg
 *    within the bound the rules allow, slices in 1..MAX_TIMESLICE, array
 *    counts equal list lengths, bitmap bit set exactly for non-empty
 *    lists, exactly one running task per busy CPU, nr_running;
 *  - from outside, on every task's view: runnable iff queued (except the
 *    current task between its block/exit and schedule()), on_cpu iff it is
 *    its runqueue's curr, credit never negative;
 *  - the observer: the last view reported for each task equals its view
 *    now (every change was reported).
 * The PRNG is our own xorshift64*, seeded per sequence: runs are
 * reproducible; a failure prints policy, sequence and step.
 */
#include "sched-model/knobs.h"
#include "sched-model/policy.h"
#include "sched-model/smp.h"
#include "tests/lib/test.h"

#define SEQS		2000
#define STEPS		300
#define MAX_TASKS	40

struct rng { uint64_t s; };

static uint64_t rng_next(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

static int rnd(struct rng *r, int n)
{
	return (int)(rng_next(r) % (uint64_t)n);
}

struct ptask {
	struct sm_task *t;
	bool zombie;		/* exited, not reaped */
	int parent;		/* index, -1 none */
	struct sm_view seen;	/* last view the observer reported */
	bool reported;
};

struct world {
	const struct sm_policy *pol;
	struct sm_rq *rq[2];
	int ncpu;
	const struct sm_balancer_ops *bops;	/* on two CPUs */
	void *bal;
	unsigned long jiffies;
	uint64_t clock;		/* ns, monotonic, within jiffy `jiffies` */
	struct ptask task[MAX_TASKS];
	int n;
	int failed;
	char where[128];
};

static int windex(const struct world *w, const struct sm_task *t)
{
	for (int i = 0; i < w->n; i++)
		if (w->task[i].t == t)
			return i;
	return -1;
}

static void observe(void *ctx, const struct sm_rq *rq, const struct sm_task *t,
		    enum sm_change why, const struct sm_view *v)
{
	struct world *w = ctx;
	int i = windex(w, t);

	(void)rq;
	(void)why;
	if (i < 0)
		return; /* a fork child reported before we recorded it */
	w->task[i].seen = *v;
	w->task[i].reported = true;
}

static void fail(struct world *w, const char *what)
{
	test_failures++;
	if (w->failed++ < 3)
		test_report(__FILE__, __LINE__, "%s: %s", w->where, what);
}

static void check_world(struct world *w)
{
	char why[256];

	for (int c = 0; c < w->ncpu; c++) {
		test_checks++;
		if (w->pol->check(w->rq[c], why, sizeof(why)))
			fail(w, why);
	}
	for (int i = 0; i < w->n; i++) {
		struct sm_view v;
		const struct sm_task *t = w->task[i].t;
		bool curr = false;

		if (!t)
			continue;
		for (int c = 0; c < w->ncpu; c++)
			curr |= w->rq[c]->curr == t;
		w->pol->view(t, &v);
		test_checks++;
		if (v.on_cpu != curr)
			fail(w, "on_cpu differs from being a runqueue's curr");
		if (v.state == SM_STATE_RUNNABLE && v.array == SM_ARRAY_NONE)
			fail(w, "runnable but not queued");
		if (v.state != SM_STATE_RUNNABLE && v.array != SM_ARRAY_NONE &&
		    !curr)
			fail(w, "not runnable, queued, not current");
		if (v.prio < 0 || v.prio > 139 || v.static_prio < 100 ||
		    v.static_prio > 139 ||
		    (w->pol->has_credit && v.credit < 0) ||
		    (!w->pol->has_credit && v.credit != -1))
			fail(w, "view out of range");
		if (w->pol->max_sleep_avg) {
			/* the O(1) family: a slice, a sleep_avg */
			if (v.time_slice < 1 || v.time_slice > 200 ||
			    v.sleep_avg < 0)
				fail(w, "O(1) view out of range");
			if ((unsigned long)v.sleep_avg >
			    w->pol->max_sleep_avg + 306)
				fail(w, "sleep_avg beyond MAX_SLEEP_AVG + 3 "
				     "levels");
		} else if (v.sleep_avg != -1 || v.time_slice < -1 ||
			   v.time_slice > 1000 || v.interactive ||
			   v.array == SM_ARRAY_EXPIRED) {
			/* the others: no sleep_avg, a slice or none */
			fail(w, "view out of range");
		}
		if (!w->task[i].reported || !sm_view_equal(&v, &w->task[i].seen))
			fail(w, "a change was not reported to the observer");
	}
}

static void settle(struct world *w, int c)
{
	for (int guard = 0; w->rq[c]->need_resched; guard++) {
		w->pol->schedule(w->rq[c]);
		if (guard > 3) {
			fail(w, "need_resched stays set after schedule()");
			break;
		}
	}
}

static void set_jiffies(struct world *w)
{
	for (int c = 0; c < w->ncpu; c++)
		sm_rq_set_clock(w->rq[c], w->jiffies, w->clock);
}

/* A new jiffy: the clock somewhere in it (the ns policies' sched_clock). */
static void new_jiffy(struct world *w, struct rng *r)
{
	w->clock = w->jiffies * SM_NSEC_PER_JIFFY +
		(uint64_t)rnd(r, (int)SM_NSEC_PER_JIFFY);
	set_jiffies(w);
}

/* Time passes within the jiffy. */
static void some_ns(struct world *w, struct rng *r)
{
	uint64_t end = (w->jiffies + 1) * SM_NSEC_PER_JIFFY - 1;

	w->clock += (uint64_t)rnd(r, 300000);
	if (w->clock > end)
		w->clock = end;
	set_jiffies(w);
}

/* A random live task matching a predicate on its view, or -1. */
static int pick(struct world *w, struct rng *r, bool (*ok)(const struct sm_view *))
{
	int cand[MAX_TASKS], n = 0;

	for (int i = 0; i < w->n; i++) {
		struct sm_view v;

		if (!w->task[i].t)
			continue;
		w->pol->view(w->task[i].t, &v);
		if (ok(&v))
			cand[n++] = i;
	}
	return n ? cand[rnd(r, n)] : -1;
}

static bool is_asleep(const struct sm_view *v)
{
	return v->state == SM_STATE_SLEEPING || v->state == SM_STATE_STOPPED;
}

static bool is_waiting(const struct sm_view *v)
{
	return v->array != SM_ARRAY_NONE && !v->on_cpu &&
		v->state == SM_STATE_RUNNABLE;
}

static bool is_alive(const struct sm_view *v)
{
	return v->state != SM_STATE_ZOMBIE && v->state != SM_STATE_DEAD;
}

static bool is_reapable(const struct sm_view *v)
{
	return v->state == SM_STATE_ZOMBIE && !v->on_cpu;
}

static void add_task(struct world *w, struct rng *r, int c)
{
	struct sm_task_info info;
	int i = w->n;

	if (w->n >= MAX_TASKS)
		return;
	memset(&info, 0, sizeof(info));
	info.id = (uint32_t)i;
	info.nice = rnd(r, 40) - 20;
	info.has_mm = rnd(r, 4) != 0;
	info.init_sleep_pct = rnd(r, 3) ? 0 : rnd(r, 101);
	if (rnd(r, 8) == 0) {
		info.policy = rnd(r, 2) ? 1 : 2;
		info.rt_priority = 1 + rnd(r, 99);
	}
	w->task[i] = (struct ptask){ .parent = -1 };
	w->n++;
	w->task[i].t = w->pol->task_new(w->rq[c], &info);
	if (!w->task[i].t) {
		fprintf(stderr, "task_new failed\n");
		exit(2);
	}
	/* its NEW report came before we knew it */
	w->pol->view(w->task[i].t, &w->task[i].seen);
	w->task[i].reported = true;
	if (rnd(r, 4))
		w->pol->wake(w->rq[c], w->task[i].t, false);
}

static void reap(struct world *w, int i)
{
	int p = w->task[i].parent;
	struct sm_task *pt = p >= 0 ? w->task[p].t : NULL;
	struct sm_view pv;

	if (pt) {
		w->pol->view(pt, &pv);
		if (!is_alive(&pv))
			pt = NULL;
	}
	w->pol->reap(w->rq[0], pt, w->task[i].t);
	w->pol->task_free(w->rq[0], w->task[i].t);
	w->task[i].t = NULL;
	for (int k = 0; k < w->n; k++)
		if (w->task[k].parent == i)
			w->task[k].parent = -1;
}

static void step(struct world *w, struct rng *r)
{
	int c = rnd(r, w->ncpu), i;
	struct sm_task *curr = w->rq[c]->curr;
	bool defer = rnd(r, 5) == 0;

	some_ns(w, r);

	switch (rnd(r, 16)) {
	case 0: case 1: case 2: case 3: case 4:	/* a jiffy passes */
		w->jiffies++;
		new_jiffy(w, r);
		for (int k = 0; k < w->ncpu; k++) {
			w->pol->tick(w->rq[k]);
			if (w->bal)
				w->bops->tick(w->bal, k);
		}
		for (int k = 0; k < w->ncpu; k++)
			settle(w, k);
		return;
	case 5:				/* the clock jumps */
		w->jiffies += 2 + (unsigned long)rnd(r, rnd(r, 4) ? 50 : 3000);
		new_jiffy(w, r);
		break;
	case 6: case 7:			/* a wakeup */
		i = pick(w, r, is_asleep);
		if (i >= 0) {
			bool sync = rnd(r, 4) == 0;
			int to = c;

			if (w->bal && w->bops->wake_cpu) {
				enum sm_migrate_why why;

				to = w->bops->wake_cpu(w->bal, w->task[i].t,
						       rnd(r, 2), sync,
						       rnd(r, 3) - 1, &why);
			}
			w->pol->wake(w->rq[to], w->task[i].t,
				     sync ? SM_WAKE_SYNC : 0);
		}
		break;
	case 8:				/* current blocks */
		if (curr)
			w->pol->block(w->rq[c], curr);
		break;
	case 9:				/* current exits */
		if (curr)
			w->pol->exit(w->rq[c], curr);
		break;
	case 10:			/* current forks */
		if (curr && w->n < MAX_TASKS) {
			static const unsigned flags[] = {
				0, 0, 0, SM_FORK_VFORK, SM_FORK_STOPPED,
			};
			struct sm_task_info info;
			int p = windex(w, curr), k = w->n;

			memset(&info, 0, sizeof(info));
			info.id = (uint32_t)k;
			info.has_mm = rnd(r, 4) != 0;
			w->task[k] = (struct ptask){ .parent = p };
			w->n++;
			w->task[k].t = w->pol->fork(w->rq[c], curr, &info,
						    flags[rnd(r, 5)]);
			if (!w->task[k].t) {
				fprintf(stderr, "fork failed\n");
				exit(2);
			}
			/* the child's first report came before we knew it */
			w->pol->view(w->task[k].t, &w->task[k].seen);
			w->task[k].reported = true;
		}
		break;
	case 11:			/* current yields */
		if (curr)
			w->pol->yield(w->rq[c], curr);
		break;
	case 12:			/* nice, valid or not */
		i = pick(w, r, is_alive);
		if (i >= 0)
			w->pol->set_nice(w->rq[c], w->task[i].t,
					 rnd(r, 44) - 22);
		break;
	case 13:			/* policy change, valid or not */
		i = pick(w, r, is_alive);
		if (i >= 0)
			w->pol->setscheduler(w->rq[c], w->task[i].t,
					     rnd(r, 4), rnd(r, 3) ?
					     rnd(r, 100) : rnd(r, 2));
		break;
	case 14:			/* migrate, or a new task */
		i = pick(w, r, is_waiting);
		if (w->ncpu == 2 && i >= 0 && rnd(r, 2))
			w->pol->migrate(w->rq[0], w->rq[rnd(r, 2)],
					w->task[i].t);
		else
			add_task(w, r, c);
		break;
	case 15:			/* reap a switched-out zombie */
		i = pick(w, r, is_reapable);
		if (i >= 0)
			reap(w, i);
		break;
	}
	if (!defer)
		for (int k = 0; k < w->ncpu; k++)
			settle(w, k);
}

static void run_sequence(const struct sm_policy *pol, int pidx, int seq)
{
	struct world w;
	struct rng r = { 0x9E3779B97F4A7C15ULL ^
			 ((uint64_t)(pidx + 1) << 40) ^ (uint64_t)seq };
	struct sm_observer obs;
	/* one configured policy per machine: the CPUs' runqueues share it;
	   SCHED_ISO's quota, every other sequence, small enough to run out
	   and come back within a sequence */
	struct sm_tuning tune;
	struct sr_diag dg = SR_DIAG_INIT;
	bool small_iso = (seq & 1) && sm_knob_find(pol, "iso_cpu") >= 0;
	struct sm_sched *sched;

	sm_tuning_init(&tune, pol);
	if (small_iso && (sm_tuning_set(&tune, "iso_cpu", "2", &dg) ||
			  sm_tuning_set(&tune, "iso_period", "1", &dg) ||
			  sm_tuning_finish(&tune, &dg))) {
		fprintf(stderr, "%s: %s\n", pol->name, dg.msg);
		exit(2);
	}
	sched = sm_sched_new(pol, small_iso ? &tune : NULL);

	if (!sched) {
		fprintf(stderr, "sm_sched_new failed\n");
		exit(2);
	}
	memset(&w, 0, sizeof(w));
	obs.changed = observe;
	obs.ctx = &w;
	rng_next(&r);
	w.pol = pol;
	w.ncpu = 1 + rnd(&r, 2);
	w.jiffies = 1 + (unsigned long)rnd(&r, 100000);
	w.clock = w.jiffies * SM_NSEC_PER_JIFFY;
	for (int c = 0; c < w.ncpu; c++)
		w.rq[c] = pol->rq_new(sched, c, w.jiffies, &obs);
	if (w.ncpu == 2) {
		w.bops = sm_balancer_of(pol);
		if (!w.bops || w.bops->create(&w.bal, pol, w.rq, 2,
					      10, NULL)) {
			fprintf(stderr, "%s: no balancer\n", pol->name);
			exit(2);
		}
	}
	for (int k = 0, n = 1 + rnd(&r, 6); k < n; k++)
		add_task(&w, &r, rnd(&r, w.ncpu));
	for (int s = 0; s < STEPS && w.failed < 3; s++) {
		snprintf(w.where, sizeof(w.where), "%s seq %d step %d",
			 pol->name, seq, s);
		step(&w, &r);
		check_world(&w);
	}
	for (int i = 0; i < w.n; i++)
		if (w.task[i].t)
			pol->task_free(w.rq[0], w.task[i].t);
	if (w.bal)
		w.bops->destroy(w.bal);
	for (int c = 0; c < w.ncpu; c++)
		pol->rq_free(w.rq[c]);
	sm_sched_free(sched);
}

int main(void)
{
	int pidx = 0;

	for (const struct sm_policy *const *p = sm_policies; *p; p++, pidx++)
		for (int seq = 0; seq < SEQS; seq++)
			run_sequence(*p, pidx, seq);
	return test_done("test-property");
}
