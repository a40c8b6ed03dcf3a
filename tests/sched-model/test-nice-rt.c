/*
 * test-nice-rt: set_user_nice mid-run, SCHED_FIFO and SCHED_RR beside
 * normal tasks, sched_yield (normal and RT), setscheduler.  Jiffies and
 * times relative to driver start.
 */
#include "sched-model/o1.h"
#include "tests/sched-model/drv.h"

static const char *const all[] = { "stock", "test2-mm1", "o11int" };
static const struct drv_op hog[] = { RUN(FOREVER), END };

/*
 * Nice change mid-run.  T (id 0, warm, nice 0, prio 115) runs 10 ms, then
 * renices itself to 5, then runs on; Q (id 1) is a cold nice-0 hog (125).
 * T runs first (115 < 125); ticks 1..9 are T's: ts 93.  At t=10 the
 * burst ends, set_user_nice: T is dequeued, static_prio = prio = 125
 * (bonus lost), re-enqueued at the tail of active[125] behind Q, and
 * rescheduled because it is running: Q runs from 10 (in B after its
 * pick-time recalc).  T's slice is unchanged (93); the new nice applies at
 * the next refill.
 * stock, on: Q runs its whole slice, ticks 10..111, and expires; T runs
 *   its 93 ticks, 112..204.  At 204: sleep_avg 10000 - 9 - 93 = 9898,
 *   prio 125 - (9 - 5) = 121, slice task_timeslice(nice 5) = 78,
 *   interactive (121 <= 125 - DELTA 3): back to active.
 *   T[0,10) Q[10,111) T[111,...)
 */
static void test_nice_mid_run(void)
{
	static const struct drv_op tprog[] = {
		RUN(10 * MS), NICE(5), RUN(FOREVER), END,
	};
	static const struct span stock[] = {
		{ 0, 0, 10 }, { 1, 10, 111 }, { 0, 111, 204 },
	};

	for (size_t p = 0; p < 3; p++) {
		struct drv d;
		struct sm_task_info info = { 0, 0, SM_SCHED_NORMAL, 0, true,
					     100, 0, NULL };
		struct sm_view v;
		bool b = p > 0;

		drv_init(&d, sm_policy_find(all[p]));
		drv_add_info(&d, info, tprog, 0);
		drv_add(&d, 0, true, hog, 0);
		drv_run(&d, 10 * MS);
		drv_view(&d, 0, &v);
		CHECK_CTX("%s at 10", all[p]);
		CHECK_INT(v.static_prio, 125);
		CHECK_INT(v.prio, 125);
		CHECK_INT(v.time_slice, 93);
		CHECK_INT(v.sleep_avg, b ? 1011 : 9991);
		CHECK_INT(v.array, SM_ARRAY_ACTIVE);
		CHECK(!v.on_cpu);
		CHECK_INT(drv_curr(&d), 1);
		CHECK(drv_last(&d, 0, SM_CH_NICE) != NULL);
		if (!b) {
			drv_run(&d, 204 * MS);
			check_spans(&d, stock, 3);
			drv_view(&d, 0, &v);
			CHECK_CTX("stock at 204");
			CHECK_INT(v.prio, 121);
			CHECK_INT(v.time_slice, 78);
			CHECK_INT(v.sleep_avg, 9898);
			CHECK_INT(v.array, SM_ARRAY_ACTIVE);
			CHECK_INT(drv_curr(&d), 0);
		}
		drv_free(&d);
	}
}

/*
 * set_user_nice on a sleeping task: prio = the new static prio at once,
 * no resched, slice unchanged; on an RT task only static_prio moves;
 * unchanged or out of range: ignored.
 */
static void test_nice_other(void)
{
	for (size_t p = 0; p < 3; p++) {
		struct drv d;
		struct sm_view v;
		struct sm_task_info rt = { 0, 0, SM_SCHED_FIFO, 10, true,
					   0, 0, NULL };
		int s, r;

		drv_init(&d, sm_policy_find(all[p]));
		s = api_add(&d, 0, true, 100);
		r = drv_add_info(&d, rt, hog, FOREVER);
		drv_at_jiffy(&d, 0);
		d.pol->set_nice(d.rq, d.task[s].t, -5);
		v = api_view(&d, s);
		CHECK_CTX("%s sleeping", all[p]);
		CHECK_INT(v.static_prio, 115);
		CHECK_INT(v.prio, 115);
		CHECK_INT(v.time_slice, 102);
		CHECK_INT(v.array, SM_ARRAY_NONE);
		CHECK(!d.rq->need_resched);
		d.pol->set_nice(d.rq, d.task[s].t, 20);
		d.pol->set_nice(d.rq, d.task[s].t, -21);
		CHECK_INT(api_view(&d, s).static_prio, 115);
		d.pol->set_nice(d.rq, d.task[r].t, 10);
		v = api_view(&d, r);
		CHECK_CTX("%s rt", all[p]);
		CHECK_INT(v.static_prio, 130);
		CHECK_INT(v.prio, 89);
		drv_free(&d);
	}
}

/*
 * SCHED_FIFO beside a normal hog.  F: FIFO, rt_priority 50 (prio 99-50 =
 * 49), runs 300 ms, sleeps 50 ms, again.  Ticks never expire a FIFO task;
 * the hog runs only while F sleeps; F's wakeup preempts it at once.
 *   F[0,300) H[300,350) F[350,650) H[650,700) F[700,...)
 * F's prio stays 49 whatever its sleep_avg does: at 350 its wakeup
 * credits 350 - 300 - 1 = 49 jiffies (stock: 49; test2-mm1: a level,
 * 102; O11int: 49, no credit yet), prio still 49; its slice is untouched
 * (102).
 */
static void test_fifo(void)
{
	static const struct drv_op fprog[] = {
		RUN(300 * MS), SLEEP(50 * MS), LOOP,
	};
	static const struct span want[] = {
		{ 0, 0, 300 }, { 1, 300, 350 }, { 0, 350, 650 },
		{ 1, 650, 700 },
	};
	static const long sa[] = { 49, 102, 49 };

	for (size_t p = 0; p < 3; p++) {
		struct drv d;
		struct sm_task_info info = { 0, 0, SM_SCHED_FIFO, 50, true,
					     0, 0, NULL };
		struct sm_view v;

		drv_init(&d, sm_policy_find(all[p]));
		drv_add_info(&d, info, fprog, 0);
		drv_add(&d, 0, true, hog, 0);
		drv_run(&d, 350 * MS);
		drv_view(&d, 0, &v);
		CHECK_CTX("%s at 350", all[p]);
		CHECK_INT(v.prio, 49);
		CHECK_INT(v.sleep_avg, sa[p]);
		CHECK_INT(v.time_slice, 102);
		CHECK(!v.interactive);
		CHECK_INT(drv_curr(&d), 0);
		drv_run(&d, 700 * MS);
		check_spans(&d, want, 4);
		drv_free(&d);
	}
}

/*
 * SCHED_RR beside a normal hog: R1 and R2 (rt_priority 10, prio 89)
 * round-robin on their nice-based slice and the hog never runs.  Nice 0:
 * 102-tick turns; nice 10: 53.  At each turn's end the slice is refilled,
 * first_time_slice cleared, the task goes to the tail of its list.
 *   nice 0:  R1[0,102) R2[102,204) R1[204,306) R2[306,408)
 *   nice 10: R1[0,53) R2[53,106) R1[106,159) R2[159,212)
 */
static void test_rr(void)
{
	static const struct span n0[] = {
		{ 0, 0, 102 }, { 1, 102, 204 }, { 0, 204, 306 },
		{ 1, 306, 408 },
	};
	static const struct span n10[] = {
		{ 0, 0, 53 }, { 1, 53, 106 }, { 0, 106, 159 },
		{ 1, 159, 212 },
	};

	for (size_t p = 0; p < 3; p++)
		for (int nice = 0; nice <= 10; nice += 10) {
			struct drv d;
			struct sm_task_info info = { 0, nice, SM_SCHED_RR, 10,
						     true, 0, 0, NULL };
			struct sm_view v;

			drv_init(&d, sm_policy_find(all[p]));
			drv_add_info(&d, info, hog, 0);
			drv_add_info(&d, info, hog, 0);
			drv_add(&d, 0, true, hog, 0);
			drv_run(&d, (nice ? 212 : 408) * MS);
			check_spans(&d, nice ? n10 : n0, 4);
			CHECK_CTX("%s rr nice %d", all[p], nice);
			CHECK_INT(d.task[2].nruns, 0);
			drv_view(&d, 0, &v);
			CHECK_INT(v.prio, 89);
			CHECK(!v.first_time_slice);
			drv_free(&d);
		}
}

/*
 * sched_yield.
 * (a) T and Q cold nice 0, T picked first: [T, Q].  T yields after 5
 *     ticks: to the tail of expired[125], prio 125 and slice 97
 *     unchanged, expired_timestamp untouched (0).  Q runs, its whole slice
 *     (in B alone in active), and expires at 5 + 102 = 107 behind T in
 *     expired; the swap gives T first.
 * (b) T alone yields: expired, active empty, swap: T runs again at once.
 * (c) RT: R1 and R2 FIFO rt_priority 10: R1 yields to the tail of its
 *     active list and R2 runs; R1 stays in active.
 */
static void test_yield(void)
{
	for (size_t p = 0; p < 3; p++) {
		struct drv d;
		struct sm_view v;
		struct sm_task_info rt = { 0, 0, SM_SCHED_FIFO, 10, true,
					   0, 0, NULL };
		static const struct drv_op none[] = { END };

		drv_init(&d, sm_policy_find(all[p]));
		api_add(&d, 0, true, 0);
		api_add(&d, 0, true, 0);
		api_wake(&d, 0, 0);
		api_wake(&d, 1, 0);
		for (int k = 1; k <= 5; k++)
			api_tick(&d, k);
		d.pol->yield(d.rq, d.task[0].t);
		v = api_view(&d, 0);
		CHECK_CTX("%s yield", all[p]);
		CHECK_INT(v.array, SM_ARRAY_EXPIRED);
		CHECK_INT(v.prio, 125);
		CHECK_INT(v.time_slice, 97);
		CHECK(d.rq->need_resched);
		CHECK_INT(o1_rq_of(d.rq)->expired_timestamp, 0);
		api_settle(&d);
		CHECK_INT(drv_curr(&d), 1);
		for (int k = 6; k <= 106; k++)
			api_tick(&d, k);
		CHECK_INT(drv_curr(&d), 1);
		api_tick(&d, 107);
		CHECK_INT(drv_curr(&d), 0);
		CHECK_INT(api_view(&d, 1).array, SM_ARRAY_ACTIVE);
		drv_free(&d);

		drv_init(&d, sm_policy_find(all[p]));
		api_add(&d, 0, true, 0);
		api_wake(&d, 0, 0);
		api_tick(&d, 1);
		d.pol->yield(d.rq, d.task[0].t);
		api_settle(&d);
		CHECK_CTX("%s yield alone", all[p]);
		CHECK_INT(drv_curr(&d), 0);
		CHECK_INT(api_view(&d, 0).array, SM_ARRAY_ACTIVE);
		CHECK(drv_last(&d, 0, SM_CH_YIELD) != NULL);
		CHECK(drv_last(&d, 0, SM_CH_SWAP) != NULL);
		drv_free(&d);

		drv_init(&d, sm_policy_find(all[p]));
		drv_add_info(&d, rt, none, FOREVER);
		drv_add_info(&d, rt, none, FOREVER);
		api_wake(&d, 0, 0);
		api_wake(&d, 1, 0);
		CHECK_CTX("%s rt yield", all[p]);
		CHECK_INT(drv_curr(&d), 0);
		d.pol->yield(d.rq, d.task[0].t);
		api_settle(&d);
		CHECK_INT(drv_curr(&d), 1);
		CHECK_INT(api_view(&d, 0).array, SM_ARRAY_ACTIVE);
		drv_free(&d);
	}
}

/*
 * setscheduler (test2: dequeue, prio = 99 - rt_priority or static_prio,
 * tail of active; no resched: our reading that test2 most likely had
 * none, docs/models.md "Ambiguities and our readings" 1).
 * (a) H runs, N (normal, queued) is made FIFO 10: prio 89, but H keeps
 *     the CPU (need_resched stays clear) until H gives way; then N runs.
 * (b) The running task made FIFO and back: RT prio 89, then the static
 *     prio 120, the sleep bonus lost (warm: it was 115).
 * (c) FIFO with rt_priority 0 is invalid: ignored.
 * (d) A task in expired (put there by a yield) made RR 1 lands in active
 *     with prio 98.
 */
static void test_setscheduler(void)
{
	for (size_t p = 0; p < 3; p++) {
		struct drv d;
		struct sm_view v;

		drv_init(&d, sm_policy_find(all[p]));
		api_add(&d, 0, true, 0);
		api_add(&d, 0, true, 0);
		api_wake(&d, 0, 0);
		api_wake(&d, 1, 0);
		api_tick(&d, 1);
		d.pol->setscheduler(d.rq, d.task[1].t, SM_SCHED_FIFO, 10);
		v = api_view(&d, 1);
		CHECK_CTX("%s (a)", all[p]);
		CHECK_INT(v.prio, 89);
		CHECK_INT(v.array, SM_ARRAY_ACTIVE);
		CHECK(!d.rq->need_resched);
		CHECK_INT(drv_curr(&d), 0);
		api_tick(&d, 2);
		CHECK_INT(drv_curr(&d), 0);
		api_block(&d, 0, 2);
		CHECK_INT(drv_curr(&d), 1);
		drv_free(&d);

		drv_init(&d, sm_policy_find(all[p]));
		api_add(&d, 0, true, 100);
		api_wake(&d, 0, 0);
		CHECK_CTX("%s (b)", all[p]);
		CHECK_INT(api_view(&d, 0).prio, 115);
		d.pol->setscheduler(d.rq, d.task[0].t, SM_SCHED_FIFO, 10);
		CHECK_INT(api_view(&d, 0).prio, 89);
		CHECK(!d.rq->need_resched);
		d.pol->setscheduler(d.rq, d.task[0].t, SM_SCHED_FIFO, 0);
		CHECK_INT(api_view(&d, 0).prio, 89);
		d.pol->setscheduler(d.rq, d.task[0].t, SM_SCHED_NORMAL, 0);
		CHECK_INT(api_view(&d, 0).prio, 120);
		CHECK_INT(drv_curr(&d), 0);
		drv_free(&d);

		drv_init(&d, sm_policy_find(all[p]));
		api_add(&d, 0, true, 0);
		api_add(&d, 0, true, 0);
		api_wake(&d, 0, 0);
		api_wake(&d, 1, 0);
		api_tick(&d, 1);
		d.pol->yield(d.rq, d.task[0].t);
		api_settle(&d);
		CHECK_CTX("%s (d)", all[p]);
		CHECK_INT(drv_curr(&d), 1);
		CHECK_INT(api_view(&d, 0).array, SM_ARRAY_EXPIRED);
		d.pol->setscheduler(d.rq, d.task[0].t, SM_SCHED_RR, 1);
		CHECK_INT(api_view(&d, 0).array, SM_ARRAY_ACTIVE);
		CHECK_INT(api_view(&d, 0).prio, 98);
		drv_free(&d);
	}
}

int main(void)
{
	test_nice_mid_run();
	test_nice_other();
	test_fifo();
	test_rr();
	test_yield();
	test_setscheduler();
	return test_done("test-nice-rt");
}
