/*
 * test-balance: the SMP load balancer (sched-model/balance.c) against
 * docs/models.md, "The SMP balancer", case by case, with
 * the expected outcomes worked out by hand: the smoothing of
 * find_busiest_queue, the imbalance and the "~25 %" threshold (2+1, 3+0,
 * 4+1, 5+2, 6+0), cache-hot tasks skipped by the idle balance only, the
 * expired array first, the best priority first, the tail of a list first,
 * exactly one task pulled when idle, running and disallowed tasks
 * skipped, pull_task's placement and preemption test, rebalance_tick's
 * intervals.  Every case runs under each policy: the balancer is the
 * same for all.
 */
#include "sched-model/balance.h"
#include "sched-model/o1.h"
#include "tests/lib/test.h"

#define J0 1000UL
#define NCPU 3
#define MAXT 16

/* the O(1) policies that keep the stock pull rule and jiffy last_run (G3
   and A3: tests/sched-model/test-smp-policies.c) */
static const char *const all[] = { "stock", "test2-mm1", "o11int", "o11.1",
				   "o11.2", "iso" };
#define NALL (sizeof(all) / sizeof(all[0]))

struct mig {
	uint32_t task;
	int from, to;
	enum sm_migrate_why why;
};

struct m {
	const struct sm_policy *pol;
	struct sm_rq *rq[NCPU];
	struct sm_balancer *b;
	struct sm_task *t[MAXT];
	int nt;
	int pinned[MAXT];         /* -1: anywhere */
	struct mig log[64];
	int nlog;
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

	if (m->nlog < 64)
		m->log[m->nlog++] = (struct mig){ t->info.id, from, to, why };
}

static void m_init(struct m *m, const char *policy, unsigned long decay)
{
	struct sm_balance_hooks h = { .allowed = allowed, .moving = moving,
				      .ctx = m };

	memset(m, 0, sizeof(*m));
	m->pol = sm_policy_find(policy);
	for (int c = 0; c < NCPU; c++)
		m->rq[c] = m->pol->rq_new(NULL, c, J0, NULL);
	for (int i = 0; i < MAXT; i++)
		m->pinned[i] = -1;
	if (sm_balancer_new(&m->b, m->pol, m->rq, NCPU, decay, &h))
		fprintf(stderr, "test-balance: balancer refused\n");
}

static void m_free(struct m *m)
{
	for (int i = 0; i < m->nt; i++)
		if (m->t[i])
			m->pol->task_free(m->rq[0], m->t[i]);
	sm_balancer_free(m->b);
	for (int c = 0; c < NCPU; c++)
		m->pol->rq_free(m->rq[c]);
}

static void at(struct m *m, unsigned long j)
{
	for (int c = 0; c < NCPU; c++)
		sm_rq_set_jiffies(m->rq[c], j);
}

/* A task woken on cpu's queue (its tail); nice sets the prio. */
static int add(struct m *m, int cpu, int nice)
{
	struct sm_task_info info = { .id = (uint32_t)m->nt, .nice = nice,
				     .policy = SM_SCHED_NORMAL,
				     .has_mm = true };
	struct sm_task *t = m->pol->task_new(m->rq[cpu], &info);

	m->pol->wake(m->rq[cpu], t, false);
	m->t[m->nt] = t;
	return m->nt++;
}

/* n tasks on cpu, the first one running. */
static void load(struct m *m, int cpu, int n)
{
	for (int i = 0; i < n; i++)
		add(m, cpu, 0);
	if (n)
		m->pol->schedule(m->rq[cpu]);
}

static int cpu_of(const struct m *m, int i)
{
	return ((const struct o1_task *)m->t[i])->rq->base.cpu;
}

static int array_of(const struct m *m, int i)
{
	struct sm_view v;

	m->pol->view(m->t[i], &v);
	return v.array;
}

static void check_all(const struct m *m)
{
	char why[200];

	for (int c = 0; c < NCPU; c++) {
		CHECK_INT(m->pol->check(m->rq[c], why, sizeof(why)), 0);
	}
}

/*
 * The threshold, with the smoothing: CPU 1 balances (busy, idle = 0)
 * twice against CPU 0's queue of `busy` tasks, its own holding `own`.
 * The first sees prev_cpu_load = 0 for CPU 0 (remote load: the smaller
 * of now and before) and never moves anything.  The second: imbalance =
 * (max_load - own) / 2, moved when >= (max_load + 3) / 4 and max_load >
 * own + 1:
 *   2+1: (2-1)/2 = 0 < 1          nothing (3 hogs on 2 CPUs stay 2+1)
 *   3+0: (3-0)/2 = 1 >= 1         one
 *   4+1: (4-1)/2 = 1 >= 1         one
 *   5+2: (5-2)/2 = 1 <  2         nothing
 *   6+0: (6-0)/2 = 3 >= 2         three (the imbalance)
 * The idle balance (idle = 1) uses current loads and no threshold: it
 * pulls exactly one at its first call whenever max_load > own + 1.
 */
static void test_threshold(void)
{
	static const struct {
		int busy, own;
		long imbalance;    /* at the second busy balance */
		int moved;         /* by it */
	} cases[] = {
		{ 2, 1, -1, 0 },
		{ 3, 0, 1, 1 },
		{ 4, 1, 1, 1 },
		{ 5, 2, -1, 0 },
		{ 6, 0, 3, 3 },
	};

	for (size_t p = 0; p < NALL; p++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct m m;
			unsigned long imb;
			int busiest;

			CHECK_CTX("%s %d+%d", all[p], cases[i].busy,
				  cases[i].own);
			m_init(&m, all[p], SM_CACHE_DECAY_TICKS_DEFAULT);
			load(&m, 0, cases[i].busy);
			load(&m, 1, cases[i].own);
			at(&m, J0 + 1); /* hot: the busy balance does not care */
			CHECK_INT(sm_find_busiest_queue(m.b, 1, false, &imb),
				  -1);
			CHECK_INT(sm_balancer_prev_load(m.b, 1, 0),
				  cases[i].busy);
			busiest = sm_find_busiest_queue(m.b, 1, false, &imb);
			CHECK_INT(busiest, cases[i].imbalance < 0 ? -1 : 0);
			if (busiest >= 0)
				CHECK_INT(imb, cases[i].imbalance);
			/* a third time, for real: the smoothed loads hold */
			CHECK_INT(sm_load_balance(m.b, 1, false),
				  cases[i].moved);
			CHECK_INT(m.pol->nr_running(m.rq[1]),
				  cases[i].own + cases[i].moved);
			for (int k = 0; k < m.nlog; k++)
				CHECK_INT(m.log[k].why, SM_MIG_TICK_BALANCE);
			check_all(&m);
			m_free(&m);

			/* the idle balance of an empty CPU 2, tasks cold */
			m_init(&m, all[p], SM_CACHE_DECAY_TICKS_DEFAULT);
			load(&m, 0, cases[i].busy);
			load(&m, 1, cases[i].own);
			at(&m, J0 + 11);
			CHECK_INT(sm_load_balance(m.b, 2, true),
				  cases[i].busy >= 2 ? 1 : 0);
			CHECK_INT(m.nlog, cases[i].busy >= 2 ? 1 : 0);
			if (m.nlog) {
				CHECK_INT(m.log[0].from, 0);
				CHECK_INT(m.log[0].why, SM_MIG_IDLE_BALANCE);
			}
			check_all(&m);
			m_free(&m);
		}
}

/*
 * Cache-hot: CPU 0 runs A with B waiting, both last_run = J0 (task_new,
 * then schedule() at J0).  The idle CPU 1 does not pull B while jiffies -
 * last_run <= cache_decay_ticks (10): not at J0 + 10, yes at J0 + 11.
 * With cache_decay_ticks 0, at J0 + 1.  The busy balance ignores hotness
 * (3+0 at J0 + 1 above).
 */
static void test_cache_hot(void)
{
	static const struct {
		unsigned long decay, j;
		int pulled;
	} cases[] = {
		{ 10, J0 + 10, 0 }, { 10, J0 + 11, 1 },
		{ 0, J0, 0 }, { 0, J0 + 1, 1 },
		{ 3, J0 + 3, 0 }, { 3, J0 + 4, 1 },
	};

	for (size_t p = 0; p < NALL; p++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct m m;

			CHECK_CTX("%s decay %lu at +%lu", all[p],
				  cases[i].decay, cases[i].j - J0);
			m_init(&m, all[p], cases[i].decay);
			load(&m, 0, 2);
			at(&m, cases[i].j);
			CHECK_INT(sm_load_balance(m.b, 1, true),
				  cases[i].pulled);
			CHECK_INT(cpu_of(&m, 1), cases[i].pulled ? 1 : 0);
			CHECK_INT(cpu_of(&m, 0), 0); /* running: never */
			m_free(&m);
		}
}

/* Tick rq's current until its slice expires into the expired array. */
static void expire_current(struct m *m, int cpu, unsigned long *j)
{
	const struct sm_task *c = m->rq[cpu]->curr;

	for (int k = 0; k < 300; k++) {
		struct sm_view v;

		at(m, ++*j);
		m->pol->tick(m->rq[cpu]);
		m->pol->view(c, &v);
		if (v.array == SM_ARRAY_EXPIRED)
			break;
	}
	m->pol->schedule(m->rq[cpu]);
}

/*
 * The order of the scan: CPU 0 holds A (expires first, into expired), then
 * B running, C and D waiting in active (C queued before D, same prio),
 * E waiting at a better prio (nice -5).  Idle balances of CPU 1, one task
 * each, all cold: A (expired first), then E (best prio), then D (tail of
 * its list), then C.  B runs: never.
 */
static void test_scan_order(void)
{
	for (size_t p = 0; p < NALL; p++) {
		struct m m;
		unsigned long j = J0;
		int a, b, c, dd, e;

		CHECK_CTX("%s", all[p]);
		m_init(&m, all[p], SM_CACHE_DECAY_TICKS_DEFAULT);
		a = add(&m, 0, 0);
		b = add(&m, 0, 0);
		m.pol->schedule(m.rq[0]);
		expire_current(&m, 0, &j);
		CHECK_INT(array_of(&m, a), SM_ARRAY_EXPIRED);
		CHECK(m.rq[0]->curr == m.t[b]);
		c = add(&m, 0, 0);
		dd = add(&m, 0, 0);
		e = add(&m, 0, -5);
		j += 20;
		at(&m, j);
		CHECK_INT(sm_load_balance(m.b, 1, true), 1);
		CHECK_INT(cpu_of(&m, a), 1);
		/* pulled into the active array, its prio and slice kept */
		CHECK_INT(array_of(&m, a), SM_ARRAY_ACTIVE);
		CHECK(m.rq[1]->need_resched); /* CPU 1 was idle */
		m.pol->schedule(m.rq[1]);
		CHECK(m.rq[1]->curr == m.t[a]);
		/* CPU 2 now: E, D, C in turn */
		CHECK_INT(sm_load_balance(m.b, 2, true), 1);
		CHECK_INT(cpu_of(&m, e), 2);
		m.pol->schedule(m.rq[2]);
		m.pol->block(m.rq[2], m.t[e]);
		m.pol->schedule(m.rq[2]); /* idle again: pulls D itself */
		CHECK_INT(cpu_of(&m, dd), 2);
		CHECK(m.rq[2]->curr == m.t[dd]);
		CHECK_INT(cpu_of(&m, c), 0);
		CHECK_INT(cpu_of(&m, b), 0);
		CHECK_INT(m.nlog, 3);
		CHECK_INT(m.log[2].why, SM_MIG_IDLE_BALANCE);
		check_all(&m);
		m_free(&m);
	}
}

/*
 * Skipped: a task pinned elsewhere (the allowed hook) is passed over for
 * the next one; with only pinned tasks waiting nothing moves.  CPU 0:
 * A running, B and C waiting (C at the tail); C pinned to CPU 0: CPU 1
 * pulls B.  Then pin B back to 0 too: CPU 2 pulls nothing.
 */
static void test_pinned(void)
{
	for (size_t p = 0; p < NALL; p++) {
		struct m m;

		CHECK_CTX("%s", all[p]);
		m_init(&m, all[p], SM_CACHE_DECAY_TICKS_DEFAULT);
		load(&m, 0, 3);
		m.pinned[2] = 0;
		at(&m, J0 + 20);
		CHECK_INT(sm_load_balance(m.b, 1, true), 1);
		CHECK_INT(cpu_of(&m, 1), 1);
		CHECK_INT(cpu_of(&m, 2), 0);
		add(&m, 0, 0);
		m.pinned[3] = 0;
		CHECK_INT(sm_load_balance(m.b, 2, true), 0);
		CHECK_INT(m.pol->nr_running(m.rq[0]), 3);
		m_free(&m);
	}
}

/*
 * pull_task's preemption test, on CPU 1 running C (nice 0, prio 125, ts
 * 102 - 10 ticks = 92): a pulled task reschedules it if its prio is
 * better, or equal with more slice left (stock's rule, in every policy);
 * Q at nice -1 (124): yes; nice 0 (125, ts 102 > 92): yes; nice 1: no.
 */
static void test_pull_preempt(void)
{
	for (size_t p = 0; p < NALL; p++)
		for (int nice = -1; nice <= 1; nice++) {
			struct m m;
			unsigned long j = J0;
			int q;

			CHECK_CTX("%s nice %d", all[p], nice);
			m_init(&m, all[p], SM_CACHE_DECAY_TICKS_DEFAULT);
			load(&m, 1, 1);
			for (int k = 0; k < 10; k++) {
				at(&m, ++j);
				m.pol->tick(m.rq[1]);
			}
			CHECK(!m.rq[1]->need_resched);
			add(&m, 0, -5);
			q = add(&m, 0, nice);
			m.pol->schedule(m.rq[0]);
			at(&m, j + 20);
			/* busy CPU 1 at a busy balance: 2+1 never moves, so
			   pull through the idle path of CPU 1's queue: use
			   load_balance(idle = 1) directly */
			CHECK_INT(sm_load_balance(m.b, 1, true), 0); /* 2 vs 1 */
			m.pol->migrate(m.rq[0], m.rq[1], m.t[q]);
			CHECK_INT(m.rq[1]->need_resched, nice <= 0);
			CHECK_INT(cpu_of(&m, q), 1);
			check_all(&m);
			m_free(&m);
		}
}

/*
 * rebalance_tick: an idle CPU balances every jiffy (IDLE_REBALANCE_TICK
 * = 1), a busy one when jiffies % BUSY_REBALANCE_TICK (200) == 0.  CPU 0
 * holds 4+1 against CPU 1 (busy): nothing at 1199, one task at 1200 (the
 * loads were seen at 1000 by a first balance); CPU 2 (idle) pulls at
 * once at 1201, cold.
 */
static void test_rebalance_tick(void)
{
	for (size_t p = 0; p < NALL; p++) {
		struct m m;
		unsigned long imb;

		CHECK_CTX("%s", all[p]);
		CHECK_INT(IDLE_REBALANCE_TICK, 1);
		CHECK_INT(BUSY_REBALANCE_TICK, 200);
		m_init(&m, all[p], SM_CACHE_DECAY_TICKS_DEFAULT);
		CHECK(sm_balancer_quiet(m.b));
		load(&m, 0, 6);
		load(&m, 1, 1);
		at(&m, J0);
		sm_find_busiest_queue(m.b, 1, false, &imb); /* loads seen */
		CHECK(!sm_balancer_quiet(m.b));
		at(&m, 1199);
		CHECK_INT(sm_rebalance_tick(m.b, 1), 0);
		CHECK_INT(sm_balancer_stats(m.b, 1)->balances, 0);
		at(&m, 1200);
		/* 6+1: (6-1)/2 = 2 >= (6+3)/4 = 2: two tasks */
		CHECK_INT(sm_rebalance_tick(m.b, 1), 2);
		CHECK_INT(sm_balancer_stats(m.b, 1)->balances, 1);
		CHECK_INT(sm_balancer_stats(m.b, 1)->pulls, 2);
		at(&m, 1201);
		CHECK_INT(sm_rebalance_tick(m.b, 2), 1);
		CHECK_INT(sm_balancer_stats(m.b, 2)->pulls, 1);
		check_all(&m);
		m_free(&m);
	}
}

int main(void)
{
	test_threshold();
	test_cache_hot();
	test_scan_order();
	test_pinned();
	test_pull_preempt();
	test_rebalance_tick();
	return test_done("test-balance");
}
