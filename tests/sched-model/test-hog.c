/*
 * test-hog: CPU hogs under each policy.
 *  - one nice-0 hog, tick by tick through two slices (prio, slice,
 *    sleep_avg, array, and the reasons reported at each tick), cold and
 *    warm;
 *  - two nice-0 hogs sharing the CPU: who runs when (whole slices in
 *    stock, the 25 ms requeue in test2-mm1 and O11int);
 *  - kernel thread vs user task under the granularity requeue.
 */
#include "tests/sched-model/drv.h"

static const struct drv_op hog[] = { RUN(FOREVER), END };

static const struct sm_policy *pol(const char *name)
{
	const struct sm_policy *p = sm_policy_find(name);

	if (!p)
		exit(1);
	return p;
}

/* Reasons reported for task `id` at driver time t, as a bit set. */
static unsigned reasons_at(const struct drv *d, uint32_t id, long t)
{
	unsigned set = 0;

	for (size_t i = 0; i < d->nlog; i++)
		if (d->log[i].id == id && d->log[i].t == t)
			set |= 1u << d->log[i].why;
	return set;
}

#define R(x) (1u << SM_CH_##x)

/*
 * One nice-0 user hog alone, started at t=0 as by a wakeup (sleep_avg 0
 * cold, or warm at 100% of MAX_SLEEP_AVG).  Values after the instant of
 * tick k (tick, then schedule()), k = 1..204:
 *
 * time_slice, all policies: 102 - k for k < 102; refilled to 102 at
 *   k = 102; 204 - k for 102 < k < 204; 102 again at k = 204.
 *
 * cold, all policies: sleep_avg stays 0 (nothing to decay), prio
 *   effective_prio(0) = 125 throughout.  At k = 102 and 204 the slice
 *   expires: 125 is not TASK_INTERACTIVE (needs <= 118), so it goes to
 *   expired (EXPIRE), active is empty, the arrays swap (SWAP) and it runs
 *   again (array ACTIVE after the instant; prev == next, so no RUN).
 *
 * warm stock: sleep_avg 10000 - k (the tick's -1; never 0 here); prio 115
 *   until the first expiry recomputes it: effective_prio(9898) = 120 -
 *   (9 - 5) = 116, still interactive, so it goes back to active
 *   (REQUEUE, no SWAP); at k = 204 effective_prio(9796) = 116 again.
 *
 * warm test2-mm1 and O11int: sleep_avg 1020 - k for k < 102.  At k = 102
 *   the tick makes it 918, expiry: effective_prio(918) = 120 - (9 - 5) =
 *   116, interactive, back to active; then schedule() charges the full
 *   slice (O10): 917.  For 102 < k < 204: 917 - (k - 102) = 1019 - k.
 *   At k = 204: 815, effective_prio(815) = 120 - (7 - 5) = 118, still
 *   interactive (118 <= 120 - 2), active; charge: 814.
 *
 * The granularity requeue (test2-mm1, O11int, user task): at
 *   (102 - ts) % 25 == 0 with ts > 10, i.e. ts = 77, 52, 27: ticks 25,
 *   50, 75 and 127, 152, 177 report REQUEUE.  Stock never does.
 */
static void test_one_hog(void)
{
	static const struct { const char *policy; int warm; } runs[] = {
		{ "stock", 0 }, { "test2-mm1", 0 }, { "o11int", 0 },
		{ "stock", 1 }, { "test2-mm1", 1 }, { "o11int", 1 },
	};

	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		const char *name = runs[r].policy;
		bool stock = !strcmp(name, "stock"), warm = runs[r].warm;
		struct drv d;
		struct sm_task_info info = { 0, 0, SM_SCHED_NORMAL, 0, true,
					     warm ? 100 : 0, 0, NULL };

		drv_init(&d, pol(name));
		drv_add_info(&d, info, hog, 0);
		drv_run(&d, 0);
		for (long k = 1; k <= 204; k++) {
			struct sm_view v;
			long ts, sa, prio;
			unsigned want = 0, got;
			bool expiry = k == 102 || k == 204;

			drv_run(&d, k * MS);
			drv_view(&d, 0, &v);
			CHECK_CTX("%s %s tick %ld", name, warm ? "warm" : "cold",
				  k);
			ts = k < 102 ? 102 - k : k == 102 ? 102 :
				k < 204 ? 204 - k : 102;
			if (!warm) {
				sa = 0;
				prio = 125;
			} else if (stock) {
				sa = 10000 - k;
				prio = k < 102 ? 115 : 116;
			} else {
				sa = k < 102 ? 1020 - k : k == 102 ? 917 :
					k < 204 ? 1019 - k : 814;
				prio = k < 102 ? 115 : k < 204 ? 116 : 118;
			}
			CHECK_INT(v.time_slice, ts);
			CHECK_INT(v.sleep_avg, sa);
			CHECK_INT(v.prio, prio);
			CHECK_INT(v.array, SM_ARRAY_ACTIVE);
			CHECK(v.on_cpu);
			CHECK_INT(drv_curr(&d), 0);

			if (expiry && !warm)
				want = R(EXPIRE) | R(SWAP); /* picked
					again: no switch, so no RUN */
			else if (expiry)
				want = R(REQUEUE);
			else if (!stock && (k % 102) % 25 == 0 && k % 102 <= 75)
				want = R(REQUEUE);
			got = reasons_at(&d, 0, k * MS) &
				(R(EXPIRE) | R(SWAP) | R(REQUEUE) | R(RUN));
			CHECK_INT(got, want);
		}
		drv_free(&d);
	}
}

/*
 * Two nice-0 hogs A (id 0) and B (id 1), both woken at t=0; A is at the
 * head of active[125] and runs first.
 *
 * stock: whole slices.  A runs 102 ticks and expires (125 is not
 * interactive); B runs 102 and expires; the arrays swap with A first.
 *   A[0,102) B[102,204) A[204,306) B[306,408)
 *
 * test2-mm1: A is requeued behind B at tick 25 (ts 77).  B was woken with
 * activated = 1 (its sleep_time at the wakeup was -1), so at the pick the
 * O10 recalc sees sleep_time = 25 - 0 - 1 = 24 > 0 and jumps it one
 * level: sleep_avg 102, prio 124.  Alone at 124 its requeues go back to
 * itself: B runs its whole slice, 102 ticks, sleep_avg decays to 0 and
 * at tick 127 it expires at prio 125.  A (ts 77) runs alone in active
 * until its slice ends at tick 127 + 77 = 204.  The swap puts B (expired
 * first) ahead of A; from then on both are at 125 with activated = 0 and
 * alternate every 25 ticks; the fourth turn of a slice is 27 (no requeue
 * once ts <= 10):
 *   A[0,25) B[25,127) A[127,204) B[204,229) A[229,254) B[254,279)
 *   A[279,304) B[304,329) A[329,354) B[354,381) A[381,408)
 *
 * O11int: the same pick-time recalc, but without credit B adds its wait
 * (24, below a slice) linearly: sleep_avg 24, prio still 125.  So they
 * alternate at once: 25, 25, 25, 25, 25, 25, then A's fourth turn is 27
 * (ts 27 -> 0: A expires at 177), B's fourth 27 (expires at 204); the
 * swap puts A first again.
 *   A[0,25) B[25,50) A[50,75) B[75,100) A[100,125) B[125,150)
 *   A[150,177) B[177,204) A[204,229) B[229,254)
 */
static void test_two_hogs(void)
{
	static const struct span stock[] = {
		{ 0, 0, 102 }, { 1, 102, 204 }, { 0, 204, 306 },
		{ 1, 306, 408 },
	};
	static const struct span mm1[] = {
		{ 0, 0, 25 }, { 1, 25, 127 }, { 0, 127, 204 },
		{ 1, 204, 229 }, { 0, 229, 254 }, { 1, 254, 279 },
		{ 0, 279, 304 }, { 1, 304, 329 }, { 0, 329, 354 },
		{ 1, 354, 381 }, { 0, 381, 408 },
	};
	static const struct span o11[] = {
		{ 0, 0, 25 }, { 1, 25, 50 }, { 0, 50, 75 }, { 1, 75, 100 },
		{ 0, 100, 125 }, { 1, 125, 150 }, { 0, 150, 177 },
		{ 1, 177, 204 }, { 0, 204, 229 }, { 1, 229, 254 },
	};
	static const struct {
		const char *policy;
		const struct span *spans;
		size_t n;
	} runs[] = {
		{ "stock", stock, sizeof(stock) / sizeof(stock[0]) },
		{ "test2-mm1", mm1, sizeof(mm1) / sizeof(mm1[0]) },
		{ "o11int", o11, sizeof(o11) / sizeof(o11[0]) },
	};

	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		struct drv d;
		struct sm_view v;

		drv_init(&d, pol(runs[r].policy));
		drv_add(&d, 0, true, hog, 0);
		drv_add(&d, 0, true, hog, 0);
		drv_run(&d, runs[r].spans[runs[r].n - 1].end * MS);
		check_spans(&d, runs[r].spans, runs[r].n);
		/* test2-mm1's B got one level from the pick-time recalc */
		CHECK_CTX("%s B's first prio", runs[r].policy);
		for (size_t i = 0; i < d.nlog; i++)
			if (d.log[i].id == 1 && d.log[i].why == SM_CH_RUN) {
				v = d.log[i].v;
				CHECK_INT(v.prio, !strcmp(runs[r].policy,
					  "test2-mm1") ? 124 : 125);
				CHECK_INT(v.sleep_avg, !strcmp(runs[r].policy,
					  "test2-mm1") ? 102 :
					  !strcmp(runs[r].policy, "o11int") ?
					  24 : 0);
				break;
			}
		/* steady state: B policies alternate 25/27, stock 102 */
		drv_run(&d, 3000 * MS);
		drv_close_runs(&d);
		for (int t = 0; t < 2; t++)
			for (size_t j = 3; j + 1 < d.task[t].nruns; j++) {
				long len = (d.task[t].runs[j].end -
					    d.task[t].runs[j].start) / MS;

				CHECK_CTX("%s steady, task %d run %zu",
					  runs[r].policy, t, j);
				if (!strcmp(runs[r].policy, "stock"))
					CHECK_INT(len, 102);
				else
					CHECK(len == 25 || len == 27);
			}
		drv_free(&d);
	}
}

/*
 * Kernel thread vs user task under the granularity requeue, a lone hog:
 * which ticks of its first slice report REQUEUE (ts = 77, 52, 27 are
 * ticks 25, 50, 75).  test2-mm1 requeues every task; O11int only tasks
 * with an mm ("exclude kernel threads"); stock never.
 */
static void test_kthread_requeue(void)
{
	static const struct {
		const char *policy;
		bool mm;
		bool requeues;
	} cases[] = {
		{ "stock", true, false }, { "stock", false, false },
		{ "test2-mm1", true, true }, { "test2-mm1", false, true },
		{ "o11int", true, true }, { "o11int", false, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;

		drv_init(&d, pol(cases[i].policy));
		drv_add(&d, 0, cases[i].mm, hog, 0);
		drv_run(&d, 101 * MS);
		for (long k = 1; k <= 101; k++) {
			bool want = cases[i].requeues &&
				(k == 25 || k == 50 || k == 75);

			CHECK_CTX("%s %s tick %ld", cases[i].policy,
				  cases[i].mm ? "user" : "kthread", k);
			CHECK_INT((reasons_at(&d, 0, k * MS) & R(REQUEUE)) != 0,
				  want);
		}
		drv_free(&d);
	}
}

/*
 * Two kernel-thread hogs: in O11int they no longer alternate every 25
 * ticks but take whole slices as in stock.  B's pick-time recalc adds its
 * wait of 101 linearly (below a slice): sleep_avg 101, prio still 125; it
 * decays to 0 within B's slice, so B expires at 204.
 *   A[0,102) B[102,204) A[204,306)
 * test2-mm1 requeues kernel threads too: the same spans as two user hogs.
 */
static void test_two_kthreads(void)
{
	static const struct span o11[] = {
		{ 0, 0, 102 }, { 1, 102, 204 }, { 0, 204, 306 },
	};
	static const struct span mm1[] = {
		{ 0, 0, 25 }, { 1, 25, 127 }, { 0, 127, 204 },
		{ 1, 204, 229 }, { 0, 229, 254 },
	};
	struct drv d;

	drv_init(&d, pol("o11int"));
	drv_add(&d, 0, false, hog, 0);
	drv_add(&d, 0, false, hog, 0);
	drv_run(&d, 306 * MS);
	check_spans(&d, o11, sizeof(o11) / sizeof(o11[0]));
	drv_free(&d);

	drv_init(&d, pol("test2-mm1"));
	drv_add(&d, 0, false, hog, 0);
	drv_add(&d, 0, false, hog, 0);
	drv_run(&d, 254 * MS);
	check_spans(&d, mm1, sizeof(mm1) / sizeof(mm1[0]));
	drv_free(&d);
}

/*
 * The granularity test (task_timeslice - ts) % 25 is unsigned int
 * arithmetic: after a sched_exit refund has pushed ts above the task's own
 * slice, the difference wraps, and 2^32 = 21 (mod 25).
 * P (cold, nice 0, user) forks C at 0 (51 each); C runs first and blocks
 * at once; P runs out its 51 and expires at 51 (alone: swap, ts 102);
 * tick 52: 101.  C then exits from its sleep and is reaped: its
 * first_time_slice is still set, so P.ts = 101 + 51 = 152.
 * P's ticks: 151 (53), 150, 149, 148 (56): 102 - 148 wraps to 2^32 - 46,
 * = 21 - 46 = -25 = 0 (mod 25): REQUEUE at 56; 123 at 81: 21 - 21 = 0:
 * REQUEUE; 102 at 102: 0: REQUEUE; then 77, 52, 27 at 127, 152, 177.
 * Signed arithmetic would have skipped 56 and 81.
 */
static void test_requeue_wrap(void)
{
	static const char *const b[] = { "test2-mm1", "o11int" };

	for (size_t p = 0; p < 2; p++) {
		struct drv d;
		int c;

		drv_init(&d, pol(b[p]));
		api_add(&d, 0, true, 0);
		api_wake(&d, 0, 0);
		c = api_fork(&d, 0, true, 0);
		api_settle(&d);
		CHECK_INT(drv_curr(&d), c);
		api_block(&d, c, 0);
		for (long k = 1; k <= 52; k++)
			api_tick(&d, k);
		d.pol->exit(d.rq, d.task[c].t);
		d.pol->reap(d.rq, d.task[0].t, d.task[c].t);
		CHECK_CTX("%s refund", b[p]);
		CHECK_INT(api_view(&d, 0).time_slice, 152);
		for (long k = 53; k <= 180; k++) {
			bool want = k == 56 || k == 81 || k == 102 ||
				k == 127 || k == 152 || k == 177;

			api_tick(&d, k);
			CHECK_CTX("%s tick %ld", b[p], k);
			CHECK_INT((reasons_at(&d, 0, k * MS) & R(REQUEUE)) != 0,
				  want);
			CHECK_INT(drv_curr(&d), 0);
		}
		drv_free(&d);
	}
}

int main(void)
{
	test_one_hog();
	test_two_hogs();
	test_kthread_requeue();
	test_two_kthreads();
	test_requeue_wrap();
	return test_done("test-hog");
}
