/*
 * test-fork: fork (slice split, the parent's ts == 0 tick, child penalty,
 * placement before the parent, parent resched, VFORK, STOPPED), exit and
 * reap (sched_exit refunds) under each policy.  Jiffies relative to
 * DRV_J0.
 */
#include "sched-model/o1.h"
#include "tests/sched-model/drv.h"

static const char *const all[] = { "stock", "test2-mm1", "o11int" };

/*
 * Slice split: child = (ts + 1) >> 1, parent = ts >> 1, the same under
 * every policy.  A cold nice-0 parent alone, ticked k times first
 * (ts = 102 - k; k avoids the requeue ticks 25/50/75):
 *   ts 102 -> child 51, parent 51;  101 -> 51, 50;  3 -> 2, 1;
 *   2 -> 1, 1.
 * The child has first_time_slice set; the parent must reschedule and the
 * child, placed before it, runs.
 */
static void test_split(void)
{
	static const struct { int k; long child, parent; } cases[] = {
		{ 0, 51, 51 }, { 1, 51, 50 }, { 99, 2, 1 }, { 100, 1, 1 },
	};

	for (size_t p = 0; p < 3; p++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct drv d;
			struct sm_view pv, cv;
			int c;

			drv_init(&d, sm_policy_find(all[p]));
			api_add(&d, 0, true, 0);
			api_wake(&d, 0, 0);
			for (int k = 1; k <= cases[i].k; k++)
				api_tick(&d, k);
			c = api_fork(&d, 0, true, 0);
			CHECK_CTX("%s split at ts %d", all[p],
				  102 - cases[i].k);
			CHECK(d.rq->need_resched);
			cv = api_view(&d, c);
			pv = api_view(&d, 0);
			CHECK_INT(cv.time_slice, cases[i].child);
			CHECK_INT(pv.time_slice, cases[i].parent);
			CHECK(cv.first_time_slice);
			CHECK_INT(cv.state, SM_STATE_RUNNABLE);
			CHECK_INT(cv.array, SM_ARRAY_ACTIVE);
			CHECK_INT(cv.prio, pv.prio);
			api_settle(&d);
			CHECK_INT(drv_curr(&d), c);
			drv_free(&d);
		}
}

/*
 * The parent's slice was 1: the child gets (1+1)>>1 = 1, the parent 0,
 * which copy_process turns into 1 and ticks at once: ts 0, the slice
 * expires with no wall time passing.  Warm parent at 50%, 101 ticks first.
 *
 * stock: sleep_avg 5000 - 101 = 4899 at the fork; the child copies it.
 *   The fork's tick: 4898; expiry: effective_prio(4898) = 120 - (4 - 5)
 *   = 121, not interactive: expired, ts 102.  wake_up_forked_process:
 *   parent 4898*100/100 = 4898; child 4899*50/100 = 2449 (its own prio
 *   would be 123) but it takes the parent's 121 and goes before it, in
 *   the expired array.  schedule(): active is empty, swap, the child
 *   (head) runs.
 * test2-mm1: 510 - 101 = 409 at the fork; tick: 408; expiry:
 *   effective_prio(408) = 120 - (4 - 5) = 121, expired.  Parent
 *   408*10/1020*100/100*1020/10 = 408; child 409*10/1020 = 4, *90/100 =
 *   3, *1020/10 = 306, last_run 0.  schedule() charges the parent, whose
 *   slice is full again: 407.
 * o11int: the same, with the child's last_run = jiffies (101) and credit
 *   0; with a parent credit of 3 the expiry takes it to 2 and, credit left
 *   and sleep_avg > 0, the parent stays in active (the child too, before
 *   it).
 */
static void test_split_last_jiffy(void)
{
	static const struct {
		const char *policy;
		long credit;
		long parent_sa, child_sa, child_last_run;
		int prio, array;
		long parent_credit;
	} cases[] = {
		{ "stock", 0, 4898, 2449, 101, 121, SM_ARRAY_EXPIRED, -1 },
		{ "test2-mm1", 0, 407, 306, -(long)DRV_J0, 121,
		  SM_ARRAY_EXPIRED, -1 },
		{ "o11int", 0, 407, 306, 101, 121, SM_ARRAY_EXPIRED, 0 },
		{ "o11int", 3, 407, 306, 101, 121, SM_ARRAY_ACTIVE, 2 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		struct sm_view pv, cv;
		int c;

		drv_init(&d, sm_policy_find(cases[i].policy));
		api_add(&d, 0, true, 50);
		api_wake(&d, 0, 0);
		o1_task_of(d.task[0].t)->interactive_credit =
			(unsigned long)cases[i].credit;
		for (int k = 1; k <= 101; k++)
			api_tick(&d, k);
		CHECK_CTX("%s credit %ld", cases[i].policy, cases[i].credit);
		CHECK_INT(api_view(&d, 0).time_slice, 1);
		c = api_fork(&d, 0, true, 0);
		cv = api_view(&d, c);
		pv = api_view(&d, 0);
		CHECK_INT(cv.time_slice, 1);
		CHECK_INT(pv.time_slice, 102);
		CHECK_INT(pv.prio, cases[i].prio);
		CHECK_INT(cv.prio, cases[i].prio);
		CHECK_INT(pv.array, cases[i].array);
		CHECK_INT(cv.array, cases[i].array);
		CHECK_INT(cv.sleep_avg, cases[i].child_sa);
		CHECK_INT(cv.last_run, (long)DRV_J0 + cases[i].child_last_run);
		CHECK_INT(pv.credit, cases[i].parent_credit);
		CHECK_INT(cv.credit, cases[i].parent_credit < 0 ? -1 : 0);
		CHECK(d.rq->need_resched);
		api_settle(&d);
		CHECK_INT(drv_curr(&d), c);
		CHECK_INT(api_view(&d, 0).sleep_avg, cases[i].parent_sa);
		drv_free(&d);
	}
}

/*
 * Child penalty at a fork right after the parent's first pick (no ticks).
 * stock: parent * 100/100, child * 50/100; the child's own effective
 *   prio is overridden by the parent's (placement).
 *   50% = 5000 -> parent 5000, child 2500 (own prio 123), prio 120.
 *   100% = 10000 -> 10000, 5000, prio 115.
 * test2-mm1 / O11int: parent snapped to its level, child dropped
 *   CHILD_PENALTY% of its levels:
 *   100% = 1020: level 10 -> parent 1020; child 10*90/100 = 9 -> 918;
 *     prio 115.
 *   49% = 1020*49/100 = 499: level 4 -> parent 408; child 3 -> 306;
 *     the parent's prio is not recomputed: effective_prio(499) = 121.
 *   19% = 193: level 1 -> parent 102; child 1*90/100 = 0 -> 0; prio 124.
 * The child's last_run: jiffies (0) in stock and O11int, 0 in test2-mm1.
 */
static void test_penalty(void)
{
	static const struct {
		const char *policy;
		int pct;
		long parent, child;
		int prio;
	} cases[] = {
		{ "stock", 50, 5000, 2500, 120 },
		{ "stock", 100, 10000, 5000, 115 },
		{ "test2-mm1", 100, 1020, 918, 115 },
		{ "test2-mm1", 49, 408, 306, 121 },
		{ "test2-mm1", 19, 102, 0, 124 },
		{ "o11int", 100, 1020, 918, 115 },
		{ "o11int", 49, 408, 306, 121 },
		{ "o11int", 19, 102, 0, 124 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		struct sm_view pv, cv;
		int c;
		bool mm1 = !strcmp(cases[i].policy, "test2-mm1");

		drv_init(&d, sm_policy_find(cases[i].policy));
		api_add(&d, 0, true, cases[i].pct);
		api_wake(&d, 0, 0);
		c = api_fork(&d, 0, true, 0);
		cv = api_view(&d, c);
		pv = api_view(&d, 0);
		CHECK_CTX("%s %d%%", cases[i].policy, cases[i].pct);
		CHECK_INT(pv.sleep_avg, cases[i].parent);
		CHECK_INT(cv.sleep_avg, cases[i].child);
		CHECK_INT(pv.prio, cases[i].prio);
		CHECK_INT(cv.prio, cases[i].prio);
		CHECK_INT(cv.last_run, mm1 ? 0 : (long)DRV_J0);
		if (!strcmp(cases[i].policy, "stock") && cases[i].pct == 50)
			CHECK_INT(effective_prio(o1_task_of(d.task[c].t)), 123);
		drv_free(&d);
	}

	/* O11int: the child's credit is 0 whatever the parent's */
	{
		struct drv d;
		int c;

		drv_init(&d, sm_policy_find("o11int"));
		api_add(&d, 0, true, 100);
		api_wake(&d, 0, 0);
		o1_task_of(d.task[0].t)->interactive_credit = 3;
		c = api_fork(&d, 0, true, 0);
		CHECK_CTX("o11int credit");
		CHECK_INT(api_view(&d, c).credit, 0);
		CHECK_INT(api_view(&d, 0).credit, 3);
		drv_free(&d);
	}
}

/*
 * Placement.  P and Q are nice-0 cold tasks.
 * (a) P is woken and picked, then Q is woken: active[125] = [P, Q], P
 *     runs.  P forks C: [C, P, Q], need_resched, C runs (child first).
 *     C blocks at once: the next pick is P, not Q, because C went in
 *     before P, not at the tail.  The same under every policy.
 * (b) P and Q are woken together before the first pick: [P, Q].  In
 *     stock P is picked and stays at the head: as (a).  In test2-mm1 and
 *     O11int P was woken with `activated` set: the pick-time recalc
 *     re-enqueues it at the tail (docs/models.md, "test2-mm1 and O11int",
 *     schedule()): [Q, P] with P
 *     running.  The fork gives [Q, C, P] and Q, not the child, runs next;
 *     when Q blocks, C (now the head) runs, then P.
 */
static void test_placement(void)
{
	static const struct {
		const char *policy;
		bool together;
		int first, second, third;	/* 0 = P, 1 = Q, 2 = C */
	} cases[] = {
		{ "stock", false, 2, 0, 1 },
		{ "test2-mm1", false, 2, 0, 1 },
		{ "o11int", false, 2, 0, 1 },
		{ "stock", true, 2, 0, 1 },
		{ "test2-mm1", true, 1, 2, 0 },
		{ "o11int", true, 1, 2, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		int c;

		drv_init(&d, sm_policy_find(cases[i].policy));
		api_add(&d, 0, true, 0);
		api_add(&d, 0, true, 0);
		drv_at_jiffy(&d, 0);
		d.pol->wake(d.rq, d.task[0].t, false);
		if (!cases[i].together)
			api_settle(&d);
		d.pol->wake(d.rq, d.task[1].t, false);
		api_settle(&d);
		CHECK_CTX("%s %s", cases[i].policy,
			  cases[i].together ? "woken together" : "P first");
		CHECK_INT(drv_curr(&d), 0);
		c = api_fork(&d, 0, true, 0);
		CHECK_INT(c, 2);
		CHECK_INT(api_view(&d, c).prio, 125);
		api_settle(&d);
		CHECK_INT(drv_curr(&d), cases[i].first);
		api_block(&d, cases[i].first, 0);
		CHECK_INT(drv_curr(&d), cases[i].second);
		api_block(&d, cases[i].second, 0);
		CHECK_INT(drv_curr(&d), cases[i].third);
		drv_free(&d);
	}
}

/*
 * VFORK: the parent blocks (no need_resched from do_fork, but blocking
 * sets it); after schedule() it is off the queue and the child runs.
 * Waking it later is an ordinary wakeup.
 * STOPPED: the child is not queued (state STOPPED, nr_running unchanged);
 * wake_up_forked_process is skipped, so it keeps the parent's sleep_avg
 * (1020*49/100 = 499 under B, not 306) and the parent is not snapped (499,
 * not 408); its last_run is copy_process's jiffies even in test2-mm1.
 * The parent still reschedules (do_fork).  A later wakeup queues it.
 */
static void test_vfork_stopped(void)
{
	for (size_t p = 0; p < 3; p++) {
		struct drv d;
		struct sm_view v;
		int c;
		bool stock = p == 0;

		drv_init(&d, sm_policy_find(all[p]));
		api_add(&d, 0, true, 49);
		api_wake(&d, 0, 0);
		c = api_fork(&d, 0, true, SM_FORK_VFORK);
		CHECK_CTX("%s vfork", all[p]);
		CHECK_INT(api_view(&d, 0).state, SM_STATE_SLEEPING);
		CHECK(d.rq->need_resched);
		api_settle(&d);
		CHECK_INT(drv_curr(&d), c);
		CHECK_INT(api_view(&d, 0).array, SM_ARRAY_NONE);
		api_wake(&d, 0, 5);
		CHECK_INT(api_view(&d, 0).state, SM_STATE_RUNNABLE);
		CHECK_INT(api_view(&d, 0).array, SM_ARRAY_ACTIVE);
		drv_free(&d);

		drv_init(&d, sm_policy_find(all[p]));
		api_add(&d, 0, true, 49);
		api_wake(&d, 0, 0);
		c = api_fork(&d, 0, true, SM_FORK_STOPPED);
		v = api_view(&d, c);
		CHECK_CTX("%s stopped", all[p]);
		CHECK_INT(v.state, SM_STATE_STOPPED);
		CHECK_INT(v.array, SM_ARRAY_NONE);
		CHECK_INT(v.sleep_avg, stock ? 4900 : 499);
		CHECK_INT(v.last_run, DRV_J0);
		CHECK_INT(api_view(&d, 0).sleep_avg, stock ? 4900 : 499);
		CHECK(d.rq->need_resched);
		api_settle(&d);
		CHECK_INT(drv_curr(&d), 0);
		CHECK_INT(o1_rq_of(d.rq)->nr_running, 1);
		api_wake(&d, c, 3);
		CHECK_INT(api_view(&d, c).array, SM_ARRAY_ACTIVE);
		CHECK_INT(o1_rq_of(d.rq)->nr_running, 2);
		drv_free(&d);
	}
}

/*
 * Exit and reap, through the driver's conventions: P [fork, run] and its
 * child C [run 10 ms, exit].  C runs first (before P), ticks 1..9 are
 * charged to C; at t=10 C's burst ends before tick 10: C exits, schedule()
 * picks P, C is reaped (sched_exit), then tick 10 goes to P.
 *   stock, P at 50% (5000): C 2500, both slices 51.  C after 9 ticks:
 *     2491, ts 42.  Refund: P.ts 51 + 42 = 93; 2491 < 5000: P.sleep_avg
 *     (5000*3 + 2491)/4 = 17491/4 = 4372; prio not recomputed (120).
 *     Tick 10: 4371, ts 92.
 *   test2-mm1 / O11int, P at 100% (1020): C 918, after 9 ticks 909, ts
 *     42 (no requeue: 102 - ts is never a multiple of 25 in 50..42).
 *     Refund: ts 93; (1020*3 + 909)/4 = 3969/4 = 992.  Tick 10: 991, 92.
 */
static void test_exit_reap(void)
{
	static const struct drv_op child[] = { RUN(10 * MS), EXIT };
	static const struct drv_op parent[] = { FORK(0, 0), RUN(FOREVER), END };
	static const struct drv_op *const progs[] = { child };
	static const struct {
		const char *policy;
		int pct;
		long refund_sa, after_sa;
		int prio;
	} cases[] = {
		{ "stock", 50, 4372, 4371, 120 },
		{ "test2-mm1", 100, 992, 991, 115 },
		{ "o11int", 100, 992, 991, 115 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		struct sm_task_info info = { 0, 0, SM_SCHED_NORMAL, 0, true,
					     cases[i].pct, 0, NULL };
		const struct drv_rec *r;
		struct sm_view v;

		drv_init(&d, sm_policy_find(cases[i].policy));
		d.progs = progs;
		drv_add_info(&d, info, parent, 0);
		drv_run(&d, 9 * MS);
		CHECK_CTX("%s", cases[i].policy);
		CHECK_INT(drv_curr(&d), 1);
		drv_view(&d, 1, &v);
		CHECK_INT(v.time_slice, 42);
		drv_run(&d, 10 * MS);
		CHECK_INT(drv_curr(&d), 0);
		CHECK(d.task[1].reaped);
		r = drv_last(&d, 0, SM_CH_REFUND);
		CHECK(r != NULL);
		if (r) {
			CHECK_INT(r->v.time_slice, 93);
			CHECK_INT(r->v.sleep_avg, cases[i].refund_sa);
			CHECK_INT(r->v.prio, cases[i].prio);
		}
		CHECK(drv_last(&d, 1, SM_CH_REAP) != NULL);
		drv_view(&d, 0, &v);
		CHECK_INT(v.time_slice, 92);
		CHECK_INT(v.sleep_avg, cases[i].after_sa);
		drv_free(&d);
	}
}

/*
 * Refund cap and first_time_slice (stock, direct).
 * Cap: P nice -20 (slice 200, cold, prio 105) forks C at 0: 100 each.  C
 * runs first and sleeps at once.  P ticks 1..100: its slice ends (105 is
 * not interactive for nice -20: needs <= 103), the arrays swap, ts 200.
 * Ticks 101..150: ts 150.  C is woken at 150 (waits: 105 vs 105), P
 * blocks at 150, C runs and exits, and is reaped: P.ts 150 + 100 = 250,
 * capped at MAX_TIMESLICE: 200 (the cap is global, not P's own slice).
 * C.sleep_avg 149 is not below P's 0: P.sleep_avg stays 0.
 * No first slice: C used its whole first slice (first_time_slice = 0):
 * P (cold) forks C at 0 (51 each), C runs ticks 1..51 and expires (into
 * expired; P runs); at 52 P is ticked (50) and blocks, C runs (swap), C
 * exits; the reap gives P nothing: ts 50.
 */
static void test_refund_cap(void)
{
	struct drv d;
	int c;
	struct sm_view v;
	const struct drv_rec *r;

	drv_init(&d, sm_policy_find("stock"));
	api_add(&d, -20, true, 0);
	api_wake(&d, 0, 0);
	c = api_fork(&d, 0, true, 0);
	api_settle(&d);
	CHECK_CTX("cap");
	CHECK_INT(drv_curr(&d), c);
	api_block(&d, c, 0);
	for (int k = 1; k <= 150; k++)
		api_tick(&d, k);
	CHECK_INT(api_view(&d, 0).time_slice, 150);
	drv_at_jiffy(&d, 150);
	d.pol->wake(d.rq, d.task[c].t, false);
	CHECK(!d.rq->need_resched);
	api_block(&d, 0, 150);
	CHECK_INT(drv_curr(&d), c);
	CHECK_INT(api_view(&d, c).sleep_avg, 149);
	d.pol->exit(d.rq, d.task[c].t);
	api_settle(&d);
	d.pol->reap(d.rq, d.task[0].t, d.task[c].t);
	r = drv_last(&d, 0, SM_CH_REFUND);
	CHECK(r != NULL);
	v = api_view(&d, 0);
	CHECK_INT(v.time_slice, 200);
	CHECK_INT(v.sleep_avg, 0);
	drv_free(&d);

	drv_init(&d, sm_policy_find("stock"));
	api_add(&d, 0, true, 0);
	api_wake(&d, 0, 0);
	c = api_fork(&d, 0, true, 0);
	api_settle(&d);
	for (int k = 1; k <= 51; k++)
		api_tick(&d, k);
	CHECK_CTX("first slice used");
	CHECK_INT(drv_curr(&d), 0);
	CHECK(!api_view(&d, c).first_time_slice);
	CHECK_INT(api_view(&d, c).array, SM_ARRAY_EXPIRED);
	api_tick(&d, 52);
	api_block(&d, 0, 52);
	CHECK_INT(drv_curr(&d), c);
	d.pol->exit(d.rq, d.task[c].t);
	api_settle(&d);
	d.pol->reap(d.rq, d.task[0].t, d.task[c].t);
	CHECK_INT(api_view(&d, 0).time_slice, 50);
	drv_free(&d);
}

int main(void)
{
	test_split();
	test_split_last_jiffy();
	test_penalty();
	test_placement();
	test_vfork_stopped();
	test_exit_reap();
	test_refund_cap();
	return test_done("test-fork");
}
