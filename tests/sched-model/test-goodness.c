/*
 * test-goodness: the 2.4 scheduler against hand-derived tables: two
 * nice-0 hogs (the epoch and the +1 same-mm bonus), a light sleeper beside
 * a hog, a fork (the shared counter), sched_yield, SCHED_RR above the
 * rest, NICE_TO_TICKS at HZ = 1000, the reap's refund, and a wakeup of
 * equal goodness (no preemption; a kernel thread's mm bonus), the refund
 * capped at MAX_COUNTER exactly.  Times in ms;
 * NICE_TO_TICKS(0) = (20 << 1) + 1 = 41.
 */
#include "sched-model/knobs.h"
#include "tests/sched-model/drv.h"

static const struct drv_op hog[] = { RUN(FOREVER), END };
static const struct drv_op sleeper[] = { RUN(1 * MS), SLEEP(10 * MS), LOOP };

static const struct sm_policy *pol(void)
{
	const struct sm_policy *p = sm_policy_find("2.4");

	if (!p)
		exit(1);
	return p;
}

/*
 * NICE_TO_TICKS(nice) = ((20 - nice) << 1) + 1: a task alive at the start
 * has that counter (cold), or up to the sleeper's 2N - 1 (warm 100%).
 */
static void test_quanta(void)
{
	static const struct { int nice, pct; long counter; } cases[] = {
		{ 0, 0, 41 }, { 19, 0, 3 }, { -20, 0, 81 }, { 10, 0, 21 },
		{ 0, 100, 81 }, { 0, 50, 61 }, { -20, 100, 161 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		struct sm_task_info in = { 0, cases[i].nice, SM_SCHED_NORMAL, 0,
					   true, cases[i].pct, 0, NULL };

		drv_init(&d, pol());
		drv_add_info(&d, in, hog, FOREVER);
		CHECK_CTX("nice %d, %d%%", cases[i].nice, cases[i].pct);
		CHECK_INT(api_view(&d, 0).time_slice, cases[i].counter);
		CHECK_INT(api_view(&d, 0).prio, 120 + cases[i].nice);
		drv_free(&d);
	}
}

/*
 * Two nice-0 hogs A (id 0) and B (id 1), woken at 0 in that order: each
 * goes to the head of the list, so the list is B, A and B (goodness 41 +
 * 20 = 61, as A's; the first best wins) runs first.  Each runs its 41
 * ticks; at 41 B's counter is 0 and A (61) runs; at 82 both are 0: the
 * epoch gives both 0 / 2 + 41, and A, whose mm is the one loaded, gets the
 * +1: 62 against 61, A runs on for another 41; at 123 B (61) runs, at
 * 164 the epoch favours B: turns of two quanta after the first.
 *   B[0,41) A[41,123) B[123,205) A[205,287) B[287,369)
 */
static void test_two_hogs(void)
{
	static const struct span want[] = {
		{ 1, 0, 41 }, { 0, 41, 123 }, { 1, 123, 205 },
		{ 0, 205, 287 }, { 1, 287, 369 },
	};
	struct drv d;

	drv_init(&d, pol());
	drv_add(&d, 0, true, hog, 0);
	drv_add(&d, 0, true, hog, 0);
	drv_run(&d, 369 * MS);
	check_spans(&d, want, sizeof(want) / sizeof(want[0]));
	drv_free(&d);
}

/*
 * H (id 0): nice-0 hog from 0.  S (id 1): runs 1 ms, sleeps 10 ms, first
 * woken at 0.5 ms; it always runs from a tick for 1 ms, so it is never
 * charged a tick and keeps its counter.
 *   t=0.5 S (41 + 20 = 61) against H (41 + 1, its own mm, + 20 = 62):
 *     preemption_goodness -1: S waits until H's counter is out at 41;
 *     runs [41,42); then H (0) alone: the epoch: H 41, S (asleep) 41 / 2
 *     + 41 = 61.
 *   t=52 S 61 + 20 = 81 against H 30 + 21 = 51: it preempts, and at every
 *     wakeup after (S's counter only grows: each epoch, every 41 ms of H,
 *     takes it towards 2 * 41 - 1 = 81; H's goodness is at most 62).
 *   wake  t            ran at once
 *   0     0.5          no (at 41)
 *   m     52 + 11(m-1) yes
 * S's counter: 41, then 61 from 42, 71 from 82, 76 from 123, ...
 */
static void test_sleeper(void)
{
	struct drv d;
	struct drv_task *s;

	drv_init(&d, pol());
	drv_add(&d, 0, true, hog, 0);
	drv_add(&d, 0, true, sleeper, MS / 2);
	drv_run(&d, 60 * MS);
	CHECK_CTX("sleeper at 60");
	CHECK_INT(api_view(&d, 1).time_slice, 61);
	drv_run(&d, 90 * MS);
	CHECK_CTX("sleeper at 90");
	CHECK_INT(api_view(&d, 1).time_slice, 71);
	drv_run(&d, 1000 * MS);
	s = &d.task[1];
	drv_close_runs(&d);
	CHECK_CTX("sleeper");
	CHECK(s->nwakes > 50);
	CHECK_INT(s->runs[0].start, 41 * MS);
	CHECK(!s->wakes[0].ran_at_once);
	for (size_t m = 1; m < s->nwakes; m++) {
		CHECK_CTX("sleeper wake %zu", m);
		CHECK_INT(s->wakes[m].t, (52 + 11 * ((long)m - 1)) * MS);
		CHECK(s->wakes[m].ran_at_once);
	}
	CHECK_INT(api_view(&d, 1).time_slice, 81);
	drv_free(&d);
}

/*
 * P (nice-0 hog) forks a hog C when its 10 ms burst ends (before the
 * tick at 10: counter 32): C gets (32 + 1) / 2 = 16, P 16.  C's goodness
 * 16 + 20 (its own mm) = 36 does not beat P's 16 + 1 + 20 = 37: P runs
 * on (the tick at 10 leaves it 15) until its counter is out at 25; C (16)
 * to 41; then the epoch (both 0 -> 41) and the mm bonus keep C: [41,82);
 * P [82,123), the epoch keeps P: [123,164); C [164, 246) ...
 *   P[0,25) C[25,82) P[82,164) C[164,246)
 * When C exits and is reaped its counter goes back to P (up to
 * MAX_COUNTER = 200).
 */
static void test_fork(void)
{
	static const struct drv_op child[] = { RUN(FOREVER), END };
	static const struct drv_op parent[] = {
		RUN(10 * MS), FORK(0, 0), RUN(FOREVER), END,
	};
	static const struct drv_op *const progs[] = { child };
	static const struct span want[] = {
		{ 0, 0, 25 }, { 1, 25, 82 }, { 0, 82, 164 }, { 1, 164, 246 },
	};
	struct drv d;
	int c;

	drv_init(&d, pol());
	d.progs = progs;
	drv_add(&d, 0, true, parent, 0);
	drv_run(&d, 10 * MS);
	CHECK_CTX("fork at 10");
	CHECK_INT(d.n, 2);
	CHECK_INT(api_view(&d, 0).time_slice, 15);
	CHECK_INT(api_view(&d, 1).time_slice, 16);
	CHECK_INT(drv_curr(&d), 0);
	drv_run(&d, 246 * MS);
	check_spans(&d, want, sizeof(want) / sizeof(want[0]));
	drv_free(&d);

	/* the refund: P (counter 41) forks C at 0: 21 and 20; C exits at
	   once (reaped with 21): P 20 + 21 = 41 */
	drv_init(&d, pol());
	api_add(&d, 0, true, 0);
	api_wake(&d, 0, 0);
	c = api_fork(&d, 0, true, 0);
	CHECK_CTX("refund");
	CHECK_INT(api_view(&d, c).time_slice, 21);
	CHECK_INT(api_view(&d, 0).time_slice, 20);
	d.pol->exit(d.rq, d.task[c].t);
	api_settle(&d);
	d.pol->reap(d.rq, d.task[0].t, d.task[c].t);
	d.pol->task_free(d.rq, d.task[c].t);
	d.task[c].t = NULL;
	CHECK_INT(api_view(&d, 0).time_slice, 41);
	drv_free(&d);
}

/*
 * sched_yield: A (nice 0, counter 41) and B (nice 19, counter 3) woken at
 * 0 (list B, A: B's goodness 3 + 20 - 19 = 4 loses to A's 61; A runs).
 * A's burst ends at 5 before that tick (counter 37) and it yields: to the
 * end of the list with goodness -1, so B (4) runs; the ticks 5, 6, 7 empty
 * it: A (37 + 20, its flag cleared at its switch) runs again, its 37
 * ticks out at 44.
 *   A[0,5) B[5,7) A[7,44)
 */
static void test_yield(void)
{
	static const struct drv_op a[] = { RUN(5 * MS), YIELD, RUN(FOREVER),
					   END };
	static const struct span want[] = {
		{ 0, 0, 5 }, { 1, 5, 7 }, { 0, 7, 44 },
	};
	struct drv d;

	drv_init(&d, pol());
	drv_add(&d, 0, true, a, 0);
	drv_add(&d, 19, true, hog, 0);
	drv_run(&d, 44 * MS);
	check_spans(&d, want, sizeof(want) / sizeof(want[0]));
	drv_free(&d);
}

/*
 * SCHED_RR at prio 10 (goodness 1010) twice, and a nice -20 hog F: the RR
 * tasks take 41-tick turns (an exhausted counter is refilled and the task
 * moved to the end in schedule()); F never runs.  The list is F, R2, R1
 * after the wakeups: R2 is the first of the two 1010s.
 *   R2[0,41) R1[41,82) R2[82,123) R1[123,164)
 */
static void test_rr(void)
{
	static const struct span want[] = {
		{ 1, 0, 41 }, { 0, 41, 82 }, { 1, 82, 123 }, { 0, 123, 164 },
	};
	struct drv d;
	struct sm_task_info rr = { 0, 0, SM_SCHED_RR, 10, true, 0, 0, NULL };

	drv_init(&d, pol());
	drv_add_info(&d, rr, hog, 0);
	drv_add_info(&d, rr, hog, 0);
	drv_add(&d, -20, true, hog, 0);
	drv_run(&d, 164 * MS);
	check_spans(&d, want, sizeof(want) / sizeof(want[0]));
	CHECK_INT(d.task[2].nruns, 0);
	CHECK_INT(d.task[2].run_start, -1);
	drv_free(&d);
}

/*
 * A wakeup of equal goodness does not preempt, and the waiter is told it
 * is its goodness.  A and B, nice-0 user tasks of their own mm, counter
 * 41.  A woken at 0 runs; the tick at 1 leaves it 40: goodness 40 + 1
 * (the mm A's) + 20 = 61.  B woken right after: 41 + 20 = 61, so
 * preemption_goodness 0 is not > 0: A runs on, and B waits on goodness.
 * Woken after the tick at 2 instead, A is at 39 + 21 = 60 < 61: B
 * preempts (at the head of the list, it is scanned first).  A kernel
 * thread K (no mm) in B's place, woken after the tick at 1, has the mm
 * bonus whatever the mm: 41 + 1 + 20 = 62 > 61, it preempts.
 */
static void test_equal_wakeup(void)
{
	static const struct { long j; bool mm; int runs; int why; } cases[] = {
		{ 1, true, 0, SM_WHY_GOODNESS }, { 2, true, 1, -1 },
		{ 1, false, 1, -1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		struct sm_why w = { 0 };

		drv_init(&d, pol());
		api_add(&d, 0, true, 0);
		api_add(&d, 0, cases[i].mm, 0);
		api_wake(&d, 0, 0);
		for (long k = 1; k <= cases[i].j; k++)
			api_tick(&d, k);
		api_wake(&d, 1, cases[i].j);
		CHECK_CTX("%s woken at %ld", cases[i].mm ? "B" : "K",
			  cases[i].j);
		CHECK_INT(api_view(&d, 0).time_slice, 41 - cases[i].j);
		CHECK_INT(drv_curr(&d), cases[i].runs);
		if (cases[i].why >= 0) {
			d.pol->why_waiting(d.rq, d.task[1].t, &w);
			CHECK_INT(w.code, cases[i].why);
		}
		drv_free(&d);
	}
}

/*
 * The refund's cap, MAX_COUNTER, at its boundary (set as a knob): P
 * (counter 41) forks C at 0 (P 20, C 21); C exits at once and is reaped:
 * P 20 + 21 = 41, kept to MAX_COUNTER when it is >= that:
 *   MAX_COUNTER 40: 41 >= 40, 40;   41: 41;   42: 41 (below the cap).
 */
static void test_refund_cap(void)
{
	static const struct { const char *spec; long after; } cases[] = {
		{ "2.4:MAX_COUNTER=40", 40 },
		{ "2.4:MAX_COUNTER=41", 41 },
		{ "2.4:MAX_COUNTER=42", 41 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sm_tuning t;
		struct sr_diag dg = SR_DIAG_INIT;
		struct sm_sched *tuned;
		struct drv d;
		int c;

		if (sm_tuning_parse(&t, cases[i].spec, &dg) ||
		    sm_tuning_finish(&t, &dg) ||
		    !(tuned = sm_sched_new(t.policy, &t)))
			exit(2);
		drv_init_sched(&d, t.policy, tuned);
		api_add(&d, 0, true, 0);
		api_wake(&d, 0, 0);
		c = api_fork(&d, 0, true, 0);
		CHECK_CTX("%s", cases[i].spec);
		CHECK_INT(api_view(&d, 0).time_slice, 20);
		CHECK_INT(api_view(&d, c).time_slice, 21);
		d.pol->exit(d.rq, d.task[c].t);
		api_settle(&d);
		d.pol->reap(d.rq, d.task[0].t, d.task[c].t);
		d.pol->task_free(d.rq, d.task[c].t);
		d.task[c].t = NULL;
		CHECK_INT(api_view(&d, 0).time_slice, cases[i].after);
		drv_free(&d);
		sm_sched_free(tuned);
	}
}

int main(void)
{
	test_quanta();
	test_two_hogs();
	test_sleeper();
	test_fork();
	test_yield();
	test_rr();
	test_equal_wakeup();
	test_refund_cap();
	return test_done("test-goodness");
}
