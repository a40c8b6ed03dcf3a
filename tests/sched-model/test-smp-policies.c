/*
 * test-smp-policies: the policies that do not balance with the 2.6.0-test2
 * rules as they are, on two CPUs, against hand-derived cases:
 *  - G3 and A3: pull_task's TASK_PREEMPTS_CURR (twice the slice) and the
 *    cache-hot test in ns >> 10 against cache_decay_ticks;
 *  - 2.4: one global runqueue, reschedule_idle() (the last CPU if idle,
 *    else the least recently active idle one, else the CPU whose task it
 *    beats most), PROC_CHANGE_PENALTY, a sync wakeup kicking no one,
 *    cpus_allowed;
 *  - CFS (2.6.23) and EEVDF (6.6): fair-balance.c's idle and periodic
 *    balancing, the vruntime carried over, EEVDF's count-based pull onto
 *    an idle CPU and its cache-hot tasks, select_idle_sibling.
 * Each case drives the policy API directly: tasks woken on a CPU, ticks,
 * schedule(), and the policy's balancer (sched-model/smp.h) with hooks that
 * log moves and kicks.
 */
#include "sched-model/fair.h"
#include "sched-model/o1.h"
#include "sched-model/smp.h"
#include "tests/lib/test.h"

#define NCPU	2
#define MAXT	8
#define J0	1000UL
#define MS	1000000ULL

struct mig {
	uint32_t task;
	int from, to;
	enum sm_migrate_why why;
};

struct m {
	const struct sm_policy *pol;
	const struct sm_balancer_ops *ops;
	struct sm_sched *sched;
	struct sm_rq *rq[NCPU];
	void *b;
	struct sm_task *t[MAXT];
	int nt;
	int pinned[MAXT];	/* -1: anywhere */
	struct mig log[32];
	int nlog;
	int kicks[NCPU];
	unsigned long j;
	uint64_t ns;
};

static bool allowed(void *ctx, const struct sm_task *t, int cpu)
{
	struct m *m = ctx;
	int p = m->pinned[t->info.id];

	return p < 0 || p == cpu;
}

static void moving(void *ctx, const struct sm_task *t, int from, int to,
		   enum sm_migrate_why why)
{
	struct m *m = ctx;

	if (m->nlog < 32)
		m->log[m->nlog++] = (struct mig){ t->info.id, from, to, why };
}

static void kick(void *ctx, int cpu)
{
	((struct m *)ctx)->kicks[cpu]++;
}

static void at_ns(struct m *m, uint64_t ns)
{
	m->ns = ns;
	m->j = (unsigned long)(ns / SM_NSEC_PER_JIFFY);
	for (int c = 0; c < NCPU; c++)
		sm_rq_set_clock(m->rq[c], m->j, ns);
}

static void at(struct m *m, unsigned long j)
{
	at_ns(m, (uint64_t)j * SM_NSEC_PER_JIFFY);
}

static void m_init(struct m *m, const char *policy)
{
	struct sm_balance_hooks h = { .allowed = allowed, .moving = moving,
				      .ctx = m, .kick = kick };

	memset(m, 0, sizeof(*m));
	m->pol = sm_policy_find(policy);
	m->sched = sm_sched_new(m->pol, NULL);
	m->ops = sm_balancer_of(m->pol);
	if (!m->sched || !m->ops) {
		fprintf(stderr, "test-smp-policies: %s\n", policy);
		exit(2);
	}
	for (int c = 0; c < NCPU; c++) {
		m->rq[c] = m->pol->rq_new(m->sched, c, J0, NULL);
		m->rq[c]->ncpus = NCPU; /* as the simulator sets it */
	}
	for (int i = 0; i < MAXT; i++)
		m->pinned[i] = -1;
	at(m, J0);
	if (m->ops->create(&m->b, m->pol, m->rq, NCPU, 10, &h)) {
		fprintf(stderr, "test-smp-policies: balancer refused\n");
		exit(2);
	}
}

static void m_free(struct m *m)
{
	for (int i = 0; i < m->nt; i++)
		if (m->t[i])
			m->pol->task_free(m->rq[0], m->t[i]);
	m->ops->destroy(m->b);
	for (int c = 0; c < NCPU; c++)
		m->pol->rq_free(m->rq[c]);
	sm_sched_free(m->sched);
}

/* A new task (asleep, last on cpu), nice 0, its own mm. */
static int task(struct m *m, int cpu, int nice)
{
	struct sm_task_info info = { .id = (uint32_t)m->nt, .nice = nice,
				     .policy = SM_SCHED_NORMAL,
				     .has_mm = true };

	m->t[m->nt] = m->pol->task_new(m->rq[cpu], &info);
	return m->nt++;
}

static void wake(struct m *m, int cpu, int i, unsigned flags)
{
	m->pol->wake(m->rq[cpu], m->t[i], flags);
}

/* schedule() on cpu: the id running there, -1 idle. */
static int sched(struct m *m, int cpu)
{
	struct sm_task *t = m->pol->schedule(m->rq[cpu]);

	return t ? (int)t->info.id : -1;
}

static int curr(const struct m *m, int cpu)
{
	return m->rq[cpu]->curr ? (int)m->rq[cpu]->curr->info.id : -1;
}

static void check_all(const struct m *m)
{
	char why[200];

	for (int c = 0; c < NCPU; c++)
		CHECK_INT(m->pol->check(m->rq[c], why, sizeof(why)), 0);
}

/* ---- G3, A3 ---- */

/*
 * pull_task onto CPU 1 running X (prio 120, time_slice 30): P of prio 120
 * with 50 left preempts X under the stock rule (50 > 30) and not under
 * TASK_PREEMPTS_CURR (50 > 2 * 30 is false); with 70 it does under both.
 * Set up by hand: X and P nice 0, slices written directly.
 */
static void test_g3_pull_rule(void)
{
	static const struct {
		const char *policy;
		long slice;
		bool resched;
	} cases[] = {
		{ "o11int", 50, true }, { "o11int", 70, true },
		{ "g3", 50, false }, { "g3", 70, true },
		{ "a3", 50, false }, { "a3", 70, true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct m m;
		int x, p, q;

		CHECK_CTX("%s slice %ld", cases[i].policy, cases[i].slice);
		m_init(&m, cases[i].policy);
		x = task(&m, 1, 0);
		p = task(&m, 0, 0);
		q = task(&m, 0, 0);
		wake(&m, 1, x, 0);
		wake(&m, 0, p, 0);
		wake(&m, 0, q, 0);
		CHECK_INT(sched(&m, 1), x);
		CHECK_INT(sched(&m, 0), p);
		o1_task_of(m.t[x])->time_slice = 30;
		o1_task_of(m.t[q])->time_slice = cases[i].slice;
		o1_task_of(m.t[x])->prio = 120;
		o1_task_of(m.t[q])->prio = 120;
		m.rq[1]->need_resched = false;
		m.pol->migrate(m.rq[0], m.rq[1], m.t[q]);
		CHECK_INT(m.rq[1]->need_resched, cases[i].resched);
		m_free(&m);
	}
}

/*
 * The idle balance's cache-hot test.  o11int: hot while jiffies -
 * last_run <= 10 (cache_decay_ticks).  G3/A3: while (now - timestamp) >>
 * 10 <= 10, i.e. for 11263 ns after the task was stamped (woken and
 * queued here at J0): a task queued at J0 is pulled 12 us later, while
 * o11int's waits 11 jiffies.
 */
static void test_g3_cache_hot(void)
{
	static const struct {
		const char *policy;
		uint64_t after_ns;
		int pulled;
	} cases[] = {
		{ "g3", 11263, 0 }, { "g3", 11264, 1 },
		{ "a3", 11263, 0 }, { "a3", 11264, 1 },
		{ "o11int", 10 * MS, 0 }, { "o11int", 11 * MS, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct m m;
		int a, b;

		CHECK_CTX("%s +%llu ns", cases[i].policy,
			  (unsigned long long)cases[i].after_ns);
		m_init(&m, cases[i].policy);
		a = task(&m, 0, 0);
		b = task(&m, 0, 0);
		wake(&m, 0, a, 0);
		wake(&m, 0, b, 0);
		CHECK_INT(sched(&m, 0), a);
		at_ns(&m, J0 * SM_NSEC_PER_JIFFY + cases[i].after_ns);
		/* CPU 1 goes idle: schedule() balances (idle = 1) */
		CHECK_INT(sched(&m, 1), cases[i].pulled ? b : -1);
		CHECK_INT(m.nlog, cases[i].pulled);
		check_all(&m);
		m_free(&m);
	}
}

/* ---- 2.4 ---- */

/*
 * goodness() of a nice-0 task with counter c: c + 20, + 15
 * (PROC_CHANGE_PENALTY) on its last CPU, + 1 when it shares the CPU's mm.
 * NICE_TO_TICKS(0) = 41.
 *   J0: A wakes (last CPU 0, idle): CPU 0 kicked, runs A.
 *   B wakes, last CPU 0: busy; CPU 1 idle: kicked; CPU 1 takes B (61 on
 *       CPU 1): a move, global-runqueue.
 *   two ticks on CPU 0 (A: 39), one on CPU 1 (B: 40).
 *   C wakes, last CPU 0, both busy: preemption_goodness on CPU 0 =
 *       (41 + 15 + 20) - (39 + 15 + 20 + 1) = 1; on CPU 1 = (41 + 20) -
 *       (40 + 15 + 20 + 1) = -15: CPU 0 kicked, C (76) beats A (75).
 *       A, preempted, is offered to the others (__schedule_tail): CPU 1's
 *       B beats it (59 - 76 < 0), CPU 0's C (75 - 77): no kick.
 */
static void test_24_reschedule_idle(void)
{
	struct m m;
	int a, b, c;

	m_init(&m, "2.4");
	a = task(&m, 0, 0);
	b = task(&m, 0, 0);
	c = task(&m, 0, 0);
	wake(&m, 0, a, 0);
	CHECK_INT(m.kicks[0], 1);
	CHECK_INT(m.kicks[1], 0);
	CHECK_INT(sched(&m, 0), a);
	wake(&m, 0, b, 0);
	CHECK_INT(m.kicks[1], 1);
	CHECK_INT(m.rq[0]->need_resched, false);
	CHECK_INT(m.rq[1]->need_resched, true);
	CHECK_INT(sched(&m, 1), b);
	CHECK_INT(m.nlog, 1);
	CHECK_INT(m.log[0].task, b);
	CHECK_INT(m.log[0].from, 0);
	CHECK_INT(m.log[0].to, 1);
	CHECK_INT(m.log[0].why, SM_MIG_GLOBAL_PICK);
	at(&m, J0 + 1);
	m.pol->tick(m.rq[0]);
	m.pol->tick(m.rq[1]);
	at(&m, J0 + 2);
	m.pol->tick(m.rq[0]);
	m.kicks[0] = m.kicks[1] = 0;
	wake(&m, 0, c, 0);
	CHECK_INT(m.kicks[0], 1);
	CHECK_INT(m.kicks[1], 0);
	CHECK_INT(sched(&m, 0), c);
	CHECK_INT(m.kicks[1], 0);
	CHECK_INT(m.rq[1]->need_resched, false);
	CHECK_INT(curr(&m, 1), b);
	check_all(&m);
	m_free(&m);
}

/*
 * A sync wakeup kicks no CPU: B, woken by A on CPU 0 with CPU 1 idle,
 * waits for A to sleep and runs on CPU 0; nothing moves.  A task allowed
 * only on CPU 0 is never taken by an idle CPU 1.
 */
static void test_24_sync_and_affinity(void)
{
	struct m m;
	int a, b;

	m_init(&m, "2.4");
	a = task(&m, 0, 0);
	b = task(&m, 1, 0);
	wake(&m, 0, a, 0);
	CHECK_INT(sched(&m, 0), a);
	m.kicks[0] = m.kicks[1] = 0;
	/* the simulator offers a sync wakeup to the waker's CPU */
	CHECK_INT(m.ops->wake_cpu(m.b, m.t[b], 1, true, 0, &(enum
		  sm_migrate_why){ 0 }), 0);
	wake(&m, 0, b, SM_WAKE_SYNC);
	CHECK_INT(m.kicks[0] + m.kicks[1], 0);
	m.pol->block(m.rq[0], m.t[a]);
	CHECK_INT(sched(&m, 0), b);
	CHECK_INT(sched(&m, 1), -1);
	CHECK_INT(m.nlog, 1); /* B last ran on 1 (its task_new): now 0 */
	check_all(&m);
	m_free(&m);

	m_init(&m, "2.4");
	a = task(&m, 0, 0);
	b = task(&m, 0, 0);
	m.pinned[b] = 0;
	wake(&m, 0, a, 0);
	CHECK_INT(sched(&m, 0), a);
	m.kicks[0] = m.kicks[1] = 0;
	wake(&m, 0, b, 0);
	/* B on CPU 0 against A: (41 + 15 + 20) - (41 + 15 + 20 + 1) < 0 */
	CHECK_INT(m.kicks[0] + m.kicks[1], 0);
	CHECK_INT(sched(&m, 1), -1);
	check_all(&m);
	m_free(&m);
}

/* ---- CFS, EEVDF ---- */

static struct fair_task *ft(struct m *m, int i)
{
	return (struct fair_task *)m->t[i];
}

/*
 * Two nice-0 hogs woken on CPU 0; CPU 0 runs A; CPU 1's schedule() finds
 * nothing and balances at once.  CFS: loads 2048 and 0, average 1024,
 * imbalance min(2048 - 1024, 1024 - 0, 2048 / 2) = 1024; B (the leftmost
 * queued, weight 1024, half of it 512 <= 1024) moves, keeping its
 * distance to min_vruntime.  EEVDF: CPU 1 idle takes by count, (2 - 0) / 2
 * = 1: B (never run: not cache-hot).  Either way B runs on CPU 1.
 */
static void test_fair_newidle(void)
{
	static const char *const pols[] = { "cfs", "eevdf" };

	for (size_t p = 0; p < 2; p++) {
		struct m m;
		int a, b;
		int64_t dist;

		CHECK_CTX("%s", pols[p]);
		m_init(&m, pols[p]);
		a = task(&m, 0, 0);
		b = task(&m, 0, 0);
		wake(&m, 0, a, 0);
		wake(&m, 0, b, 0);
		CHECK_INT(sched(&m, 0), a);
		dist = (int64_t)(ft(&m, b)->vruntime -
				 fair_rq_of(m.rq[0])->min_vruntime);
		CHECK_INT(sched(&m, 1), b);
		CHECK_INT(m.nlog, 1);
		CHECK_INT(m.log[0].why, SM_MIG_IDLE_BALANCE);
		CHECK(ft(&m, b)->rq == fair_rq_of(m.rq[1]));
		if (p == 0)
			CHECK_INT((int64_t)(ft(&m, b)->vruntime -
				  fair_rq_of(m.rq[1])->min_vruntime), dist);
		check_all(&m);
		m_free(&m);
	}
}

/*
 * Periodic balancing from the tick of a busy CPU: three hogs on CPU 0,
 * one on CPU 1.  CFS balances a busy CPU every 64 jiffies (1 * busy_factor
 * 64): nothing at J0 + 63, at J0 + 64 loads 3072 and 1024, average 2048,
 * 100 * 3072 > 125 * 1024, imbalance min(1024, 1024, 1024): one task,
 * 2 + 2.  EEVDF: every 2 * 16 = 32 jiffies, 100 * 3072 > 117 * 1024,
 * imbalance min(1024, 1024) = 1024, a task of 1024 fits: one task.
 */
static void test_fair_periodic(void)
{
	static const struct {
		const char *policy;
		unsigned long interval;
	} cases[] = { { "cfs", 64 }, { "eevdf", 32 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct m m;
		int t[4];

		CHECK_CTX("%s", cases[i].policy);
		m_init(&m, cases[i].policy);
		for (int k = 0; k < 4; k++) {
			t[k] = task(&m, k < 3 ? 0 : 1, 0);
			wake(&m, k < 3 ? 0 : 1, t[k], 0);
		}
		CHECK_INT(sched(&m, 0), t[0]);
		CHECK_INT(sched(&m, 1), t[3]);
		at(&m, J0 + cases[i].interval - 1);
		CHECK_INT(m.ops->tick(m.b, 1), 0);
		at(&m, J0 + cases[i].interval);
		CHECK_INT(m.ops->tick(m.b, 1), 1);
		CHECK_INT(m.pol->nr_running(m.rq[0]), 2);
		CHECK_INT(m.pol->nr_running(m.rq[1]), 2);
		CHECK_INT(m.log[0].why, SM_MIG_TICK_BALANCE);
		/* balanced now: the next interval moves nothing */
		at(&m, J0 + 2 * cases[i].interval);
		CHECK_INT(m.ops->tick(m.b, 1), 0);
		check_all(&m);
		m_free(&m);
	}
}

/*
 * EEVDF onto an idle CPU: by count.  Four hogs on CPU 0 (A runs): CPU 1
 * takes (4 - 0) / 2 = 2, the least recently queued first: B, then C.
 * CFS takes load: min(4096 - 2048, 2048 - 0, 1024) = 1024: one task, B.
 */
static void test_fair_count(void)
{
	static const struct {
		const char *policy;
		int moved;
	} cases[] = { { "cfs", 1 }, { "eevdf", 2 } };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct m m;
		int t[4];

		CHECK_CTX("%s", cases[i].policy);
		m_init(&m, cases[i].policy);
		for (int k = 0; k < 4; k++) {
			t[k] = task(&m, 0, 0);
			wake(&m, 0, t[k], 0);
		}
		CHECK_INT(sched(&m, 0), t[0]);
		CHECK_INT(sched(&m, 1) >= 0, 1);
		CHECK_INT(m.nlog, cases[i].moved);
		CHECK_INT(m.log[0].task, t[1]);
		if (cases[i].moved > 1)
			CHECK_INT(m.log[1].task, t[2]);
		CHECK_INT(m.pol->nr_running(m.rq[1]), cases[i].moved);
		check_all(&m);
		m_free(&m);
	}
}

/*
 * EEVDF's cache-hot task: X runs on CPU 0 from J0, yields at +0.1 ms (a
 * new deadline: A, queued, is picked); X last ran 0.1 ms ago.  CPU 1 goes
 * idle at +0.2 ms: X is hot (0.1 ms < 0.5 ms), the only candidate: nothing
 * moves.  At +0.7 ms (0.6 ms since X ran) it moves.
 */
static void test_eevdf_hot(void)
{
	struct m m;
	int x, a;
	uint64_t t0 = J0 * SM_NSEC_PER_JIFFY;

	m_init(&m, "eevdf");
	x = task(&m, 0, 0);
	wake(&m, 0, x, 0);
	CHECK_INT(sched(&m, 0), x);
	a = task(&m, 0, 0);
	wake(&m, 0, a, 0);
	at_ns(&m, t0 + 100000);
	m.pol->yield(m.rq[0], m.t[x]);
	CHECK_INT(sched(&m, 0), a);
	at_ns(&m, t0 + 200000);
	CHECK_INT(sched(&m, 1), -1);
	CHECK_INT(m.nlog, 0);
	at_ns(&m, t0 + 700000);
	CHECK_INT(sched(&m, 1), x);
	CHECK_INT(m.nlog, 1);
	check_all(&m);
	m_free(&m);
}

/*
 * Where a wakeup goes, CPU 0 busy (A), CPU 1 idle, W last on CPU 0:
 * EEVDF's select_idle_sibling takes the idle CPU 1 (woken by a timer, or
 * sync by A: wake_affine keeps CPU 0 as target, still busy, so the scan
 * finds 1); CFS stays on W's CPU, or the waker's for a sync wakeup.  With
 * both CPUs busy EEVDF keeps the target.
 */
static void test_fair_wake_cpu(void)
{
	static const struct {
		const char *policy;
		bool sync;
		int waker, want;
		enum sm_migrate_why why;
	} cases[] = {
		{ "eevdf", false, -1, 1, SM_MIG_WAKE_IDLE },
		{ "eevdf", true, 0, 1, SM_MIG_WAKE_IDLE },
		{ "cfs", false, -1, 0, SM_MIG__COUNT },
		{ "cfs", true, 0, 0, SM_MIG__COUNT },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct m m;
		enum sm_migrate_why why = SM_MIG__COUNT;
		int a, w;

		CHECK_CTX("%s sync %d", cases[i].policy, cases[i].sync);
		m_init(&m, cases[i].policy);
		a = task(&m, 0, 0);
		w = task(&m, 0, 0);
		wake(&m, 0, a, 0);
		CHECK_INT(sched(&m, 0), a);
		CHECK_INT(m.ops->wake_cpu(m.b, m.t[w], 0, cases[i].sync,
					  cases[i].waker, &why),
			  cases[i].want);
		if (cases[i].want)
			CHECK_INT(why, cases[i].why);
		m_free(&m);
	}
	{
		struct m m;
		enum sm_migrate_why why;
		int a, b, w;

		m_init(&m, "eevdf");
		a = task(&m, 0, 0);
		b = task(&m, 1, 0);
		w = task(&m, 0, 0);
		wake(&m, 0, a, 0);
		wake(&m, 1, b, 0);
		CHECK_INT(sched(&m, 0), a);
		CHECK_INT(sched(&m, 1), b);
		CHECK_INT(m.ops->wake_cpu(m.b, m.t[w], 0, false, -1, &why), 0);
		m_free(&m);
	}
}

/*
 * Three nice-0 hogs woken on CPU 0 of two, every CPU ticked and balanced
 * each jiffy for 3 s; CPU time over the last 2 s.  Measured, not derived
 * (docs/models.md "Consequences"), kept as bounds: the O(1) family stays
 * 2 + 1 (one hog has a CPU to itself); 2.4's global runqueue shares
 * evenly (each within 60..73 %); the CFS model moves a task every busy
 * interval, yet one hog keeps 100 %; EEVDF moves the pair's task once its
 * failures halve the weight (none at 100 %: measured 1000, 1331 and 1667
 * ms with the base slice the kernel scales for two CPUs, 1.5 ms).
 */
static void test_three_hogs(void)
{
	static const struct {
		const char *policy;
		long lo, hi;	/* each hog's ms in 2000 */
		int min_moves;
	} cases[] = {
		{ "o11int", 950, 2000, 1 }, { "g3", 950, 2000, 1 },
		{ "2.4", 1200, 1460, 20 }, { "cfs", 950, 2000, 20 },
		{ "eevdf", 950, 1900, 20 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct m m;
		long run[3] = { 0 }, top = 0;
		int t[3];

		CHECK_CTX("%s", cases[i].policy);
		m_init(&m, cases[i].policy);
		for (int k = 0; k < 3; k++) {
			t[k] = task(&m, 0, 0);
			wake(&m, 0, t[k], 0);
		}
		sched(&m, 0);
		sched(&m, 1);
		for (unsigned long j = J0 + 1; j < J0 + 3000; j++) {
			at(&m, j);
			for (int c = 0; c < NCPU; c++) {
				if (curr(&m, c) >= 0 && j > J0 + 1000)
					run[curr(&m, c)]++;
				m.pol->tick(m.rq[c]);
				m.ops->tick(m.b, c);
			}
			for (int k = 0; k < 3; k++)
				for (int c = 0; c < NCPU; c++)
					if (m.rq[c]->need_resched ||
					    curr(&m, c) < 0)
						sched(&m, c);
		}
		for (int k = 0; k < 3; k++) {
			CHECK(run[k] >= cases[i].lo && run[k] <= cases[i].hi);
			top = run[k] > top ? run[k] : top;
		}
		CHECK_INT(run[0] + run[1] + run[2], 3998);
		if (!strcmp(cases[i].policy, "o11int") ||
		    !strcmp(cases[i].policy, "g3"))
			CHECK_INT(top, 1999);
		CHECK(m.nlog >= cases[i].min_moves || m.nlog == 32);
		check_all(&m);
		m_free(&m);
	}
}

int main(void)
{
	test_g3_pull_rule();
	test_g3_cache_hot();
	test_24_reschedule_idle();
	test_24_sync_and_affinity();
	test_fair_newidle();
	test_fair_periodic();
	test_fair_count();
	test_eevdf_hot();
	test_fair_wake_cpu();
	test_three_hogs();
	return test_done("test-smp-policies");
}
