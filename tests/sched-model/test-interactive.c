/*
 * test-interactive: how a light sleeper climbs under each policy, what
 * a sleep of more than a second gives, the wakeup credit and O10's
 * granularity requeue at their boundaries.
 */
#include "sched-model/o1.h"
#include "tests/sched-model/drv.h"

static const struct drv_op hog[] = { RUN(FOREVER), END };
static const struct drv_op sleeper[] = { RUN(1 * MS), SLEEP(10 * MS), LOOP };

/*
 * H (id 0): nice-0 user hog from t=0.  S (id 1): nice-0 user task that
 * runs 1 ms and sleeps 10 ms, first woken at t=0.5 ms.  Both cold.
 * wake m = S's m-th wakeup after its first run (wakes[m] in the driver;
 * wakes[0] is the start at 0.5 ms, which never preempts: S 125 vs H 125
 * and, for TASK_PREEMPTS_CURR, 102 > 2*102 is false).
 *
 * S always runs from a tick instant (it is picked at one) for exactly
 * 1 ms, so its burst ends on the next tick, before that tick is charged:
 * S is never charged a tick.  Every sleep_time is (block + 10) - block - 1
 * = 9.
 *
 * stock: H runs whole slices; S is picked only when H expires (ticks
 * 102, 204, ...), runs [102k, 102k+1), wakes at 102k+11 and waits.  Wake
 * m is at 113 + 102(m-1) ms with sleep_avg 9m (no charge in stock);
 * prio 125 until 9m >= 1000: m = 112 (t = 11435, sleep_avg 1008,
 * prio 124 < 125) is the first wakeup that preempts; from then on S runs
 * at each wakeup, every 11 ms.  Interactive needs prio <= 118, i.e.
 * sleep_avg >= 7000: m = 778 (7002), t = 11435 + 11*(778-112) = 18761.
 *
 * test2-mm1: at tick 25 H is requeued behind S; S's pick-time recalc
 * (activated, sleep_time 24) jumps it to 102, prio 124.  S runs [25,26);
 * the O10 charge (slice still full) takes it to 101.  Each later wakeup:
 * 101 is level 0, the jump gives 102 again, prio 124 < 125: every wake
 * m >= 1 preempts (first at t=36), and S never climbs further, so it is
 * never interactive.
 *
 * O11int: no credit, so the wait at the pick adds 24 (sleep_avg 24,
 * prio 125); each wakeup adds 9 and each run's charge takes 1: at wake m
 * sleep_avg = 24 + 8m.  Until m = 10 (104, prio 124) S is at 125 like H.
 * At equal prio TASK_PREEMPTS_CURR (102 > 2 * H's slice) does set
 * need_resched, but H, running, keeps its place at the head of
 * active[125] and schedule() picks it again: S only runs when H is
 * requeued (ts 77, 52, 27) or expires.
 *   m  t    H.ts  need_resched   S runs
 *   1  36   66    no             [50,51)   H requeued at ts 52
 *   2  61   41    yes (no effect) [75,76)  H requeued at ts 27
 *   3  86   16    yes (no effect) [102,103) H expires; then swap
 *   4  113  91    no             [127,128)
 *   5  138  66    no             [152,153)
 *   6  163  41    yes (no effect) [177,178)
 *   7  188  16    yes (no effect) [204,205)
 *   8  215  91    no             [229,230)
 *   9  240  66    no             [254,255)
 *  10  265  55    prio 124: runs at once
 * then every 11 ms, always at once.  Interactive (prio 118) needs
 * 24 + 8m >= 714: m = 87 (720), t = 265 + 11*(87-10) = 1112.
 */
static void test_sleeper_beside_hog(void)
{
	static const long o11_t[] = { 36, 61, 86, 113, 138, 163, 188, 215,
				      240, 265 };
	static const bool o11_resched[] = { 0, 1, 1, 0, 0, 1, 1, 0, 0, 1 };
	static const struct {
		const char *policy;
		long horizon;		/* ms */
		int first_preempt;	/* wake index */
		long first_preempt_t;
		long first_interactive;	/* ms; -1 never */
		int interactive_wake;
	} cases[] = {
		{ "stock", 18800, 112, 11435, 18761, 778 },
		{ "test2-mm1", 3000, 1, 36, -1, 0 },
		{ "o11int", 1200, 10, 265, 1112, 87 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct drv d;
		struct drv_task *s;
		bool o11 = !strcmp(cases[c].policy, "o11int");

		drv_init(&d, sm_policy_find(cases[c].policy));
		drv_add(&d, 0, true, hog, 0);
		drv_add(&d, 0, true, sleeper, MS / 2);
		drv_run(&d, cases[c].horizon * MS);
		s = &d.task[1];

		CHECK_CTX("%s", cases[c].policy);
		CHECK(s->nwakes > 10);
		CHECK(!s->wakes[0].ran_at_once);
		CHECK_INT(s->wakes[0].t, MS / 2);
		CHECK_INT(d.task[0].first_interactive, -1);
		CHECK_INT(s->first_interactive,
			  cases[c].first_interactive < 0 ? -1 :
			  cases[c].first_interactive * MS);
		if (cases[c].interactive_wake) {
			CHECK((size_t)cases[c].interactive_wake < s->nwakes);
			CHECK_INT(s->wakes[cases[c].interactive_wake].t,
				  cases[c].first_interactive * MS);
		}
		for (size_t m = 1; m < s->nwakes; m++) {
			bool want;

			CHECK_CTX("%s wake %zu", cases[c].policy, m);
			want = (int)m >= cases[c].first_preempt;
			if (o11 && m <= 10) {
				CHECK_INT(s->wakes[m].t, o11_t[m - 1] * MS);
				CHECK_INT(s->wakes[m].set_resched,
					  o11_resched[m - 1]);
			}
			CHECK_INT(s->wakes[m].ran_at_once, want);
			if ((int)m == cases[c].first_preempt)
				CHECK_INT(s->wakes[m].t,
					  cases[c].first_preempt_t * MS);
			/* stock's waits: wake m at 113 + 102(m-1) */
			if (!strcmp(cases[c].policy, "stock") && m < 112)
				CHECK_INT(s->wakes[m].t,
					  (113 + 102 * ((long)m - 1)) * MS);
			/* once S preempts, it wakes every 11 ms */
			if ((int)m > cases[c].first_preempt && m > 10)
				CHECK_INT(s->wakes[m].t - s->wakes[m - 1].t,
					  11 * MS);
		}
		/* S's level in test2-mm1 never moves past 102 */
		if (!strcmp(cases[c].policy, "test2-mm1")) {
			struct sm_view v;

			drv_view(&d, 1, &v);
			CHECK(v.sleep_avg == 101 || v.sleep_avg == 102);
			CHECK_INT(v.prio, 124);
		}
		drv_free(&d);
	}
}

/*
 * A task that runs 10 ms (ticks 1..9 charged: the burst ends on tick 10
 * before it) and sleeps 1500 ms, waking at t = 1510: sleep_time =
 * 1510 - 10 - 1 = 1499 (> HZ).  Cold, so sleep_avg is 0 before.
 *
 * stock: linear add, no mm rule: sleep_avg 1499, bonus 1 - 5 = -4:
 *   nice 0 -> 124, 10 -> 134, -15 -> 109; none interactive.
 * test2-mm1, user task: 917 whatever the nice, bonus 8 - 5 = +3:
 *   nice 0 -> 117 (interactive: DELTA 2), 10 -> 127 (not: DELTA 4 needs
 *   <= 126), -15 -> 102 (interactive: DELTA -1 allows <= 106).
 * O11int, user task: JUST_INTERACTIVE_SLEEP = 1020 - 102*DELTA:
 *   nice 0 -> 816, bonus 3, 117 (interactive);
 *   nice 10 -> 612, bonus 1, 129 (not);
 *   nice -15 -> 1122, bonus 11 - 5 = 6, 105 - 6 = 99 -> clamped 100
 *   (interactive).  Credit unchanged (0): the > 1 s path gives none.
 * Kernel thread (no mm), nice 0: test2-mm1 jumps one level (102), O11int
 *   adds min(1499, 102) = 102: both 124; stock 1499, 124.
 * The slice is whatever the 9 ticks left: task_timeslice - 9.
 */
static void test_long_sleep(void)
{
	static const struct drv_op prog[] = {
		RUN(10 * MS), SLEEP(1500 * MS), RUN(FOREVER), END,
	};
	static const struct {
		const char *policy;
		int nice;
		bool mm;
		long sleep_avg;
		int prio;
		bool interactive;
		long ts;
	} cases[] = {
		{ "stock", 0, true, 1499, 124, false, 93 },
		{ "stock", 10, true, 1499, 134, false, 44 },
		{ "stock", -15, true, 1499, 109, false, 166 },
		{ "stock", 0, false, 1499, 124, false, 93 },
		{ "test2-mm1", 0, true, 917, 117, true, 93 },
		{ "test2-mm1", 10, true, 917, 127, false, 44 },
		{ "test2-mm1", -15, true, 917, 102, true, 166 },
		{ "test2-mm1", 0, false, 102, 124, false, 93 },
		{ "o11int", 0, true, 816, 117, true, 93 },
		{ "o11int", 10, true, 612, 129, false, 44 },
		{ "o11int", -15, true, 1122, 100, true, 166 },
		{ "o11int", 0, false, 102, 124, false, 93 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		struct sm_view v;

		drv_init(&d, sm_policy_find(cases[i].policy));
		drv_add(&d, cases[i].nice, cases[i].mm, prog, 0);
		drv_run(&d, 1510 * MS - 1);
		drv_view(&d, 0, &v);
		CHECK_CTX("%s nice %d %s before", cases[i].policy,
			  cases[i].nice, cases[i].mm ? "user" : "kthread");
		CHECK_INT(v.state, SM_STATE_SLEEPING);
		CHECK_INT(v.sleep_avg, 0);
		CHECK_INT(v.last_run, DRV_J0 + 10);
		/* the wakeup at 1510 (a tick instant: the tick goes to idle) */
		drv_run(&d, 1510 * MS);
		drv_view(&d, 0, &v);
		CHECK_CTX("%s nice %d %s", cases[i].policy, cases[i].nice,
			  cases[i].mm ? "user" : "kthread");
		CHECK_INT(v.sleep_avg, cases[i].sleep_avg);
		CHECK_INT(v.prio, cases[i].prio);
		CHECK_INT(v.interactive, cases[i].interactive);
		CHECK_INT(v.time_slice, cases[i].ts);
		if (!strcmp(cases[i].policy, "o11int"))
			CHECK_INT(v.credit, 0);
		CHECK_INT(drv_curr(&d), 0);
		drv_free(&d);
	}
}

/*
 * The uncapped JUST_INTERACTIVE_SLEEP of nice -15 (1122) decays one per
 * tick like any sleep_avg: 50 ticks later it is 1072, still above
 * MAX_SLEEP_AVG; prio stays 100 until the next recalculation.  The table
 * of JIS per nice (docs/models.md, "Constants"), through the same path (O11int, a user task
 * sleeping 1500 ms):
 *   nice  -20   -15   -12   -10   -5    0    5    10   15   19
 *   JIS   1326  1122  1122  1020  918   816  714  612  510  408
 *   bonus +8    +6    +6    +5    +4    +3   +2   +1   0    -1
 * prio = static - bonus clamped at 100: 100, 100, 102, 105, 111, 117,
 * 123, 129, 135, 140 -> 139 (clamped); interactive iff bonus >= DELTA;
 * the bonus at JIS is 5 - DELTA, so iff DELTA <= 2, i.e. nice <= 3: the
 * first six yes; nice 5 (bonus 2 < DELTA 3), 10, 15, 19 no.
 */
static void test_jis_table(void)
{
	static const struct drv_op prog[] = {
		RUN(10 * MS), SLEEP(1500 * MS), RUN(FOREVER), END,
	};
	static const struct {
		int nice;
		long jis;
		int prio;
		bool interactive;
	} cases[] = {
		{ -20, 1326, 100, true }, { -15, 1122, 100, true },
		{ -12, 1122, 102, true }, { -10, 1020, 105, true },
		{ -5, 918, 111, true }, { 0, 816, 117, true },
		{ 5, 714, 123, false }, { 10, 612, 129, false },
		{ 15, 510, 135, false }, { 19, 408, 139, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		struct sm_view v;

		drv_init(&d, sm_policy_find("o11int"));
		drv_add(&d, cases[i].nice, true, prog, 0);
		drv_run(&d, 1510 * MS);
		drv_view(&d, 0, &v);
		CHECK_CTX("o11int JIS nice %d", cases[i].nice);
		CHECK_INT(v.sleep_avg, cases[i].jis);
		CHECK_INT(v.prio, cases[i].prio);
		CHECK_INT(v.interactive, cases[i].interactive);
		if (cases[i].nice == -15) {
			drv_run(&d, 1560 * MS);
			drv_view(&d, 0, &v);
			CHECK_INT(v.sleep_avg, 1072);
			CHECK_INT(v.prio, 100);
		}
		drv_free(&d);
	}
}

/*
 * The wakeup credit at its boundaries (docs/models.md, "The O(1)
 * policies").  One nice-0 user task, last_run set to jiffy 0 (DRV_J0),
 * sleep_avg S, credit 0, prio set to P, woken alone at jiffy J:
 * sleep_time = J - 0 - 1.  Nothing else runs, so the pick at J adds no
 * wait and charges nothing.
 *   stock, S = MAX_SLEEP_AVG 10000, P = 130 (stale), J = 6: sleep_time 5,
 *     10000 + 5 capped to 10000 equals S: prio is not recomputed, stays
 *     130 (eff(10000) would be 115).
 *   stock, S = 0, P = 125, J = 6: 0 + 5 = 5 moved: eff(5) = 125.
 *   test2-mm1, S = 0, J = 1001: sleep_time 1000 = HZ is not > HZ: one
 *     level up, (0 * 10 / 1020 + 1) * 1020 / 10 = 102; J = 1002 (1001 >
 *     HZ): 1020 * 9 / 10 - 1 = 917.
 *   O11int, S = 0, J = 1001: not > HZ; no credit: the sleep capped to the
 *     slice, min(1000, 102) = 102; J = 1002: JUST_INTERACTIVE_SLEEP =
 *     1020 - DELTA(nice 0) * 102 = 1020 - 2 * 102 = 816.  J = 104:
 *     sleep_time 103 > 102 capped to 102; J = 103: 102 is not > 102, 102.
 */
static void test_wake_boundaries(void)
{
	static const struct {
		const char *policy;
		unsigned long s0;
		int p0;
		long j;
		unsigned long sleep_avg;
		int prio;
	} cases[] = {
		{ "stock", 10000, 130, 6, 10000, 130 },
		{ "stock", 0, 125, 6, 5, 125 },
		{ "test2-mm1", 0, 125, 1001, 102, -1 },
		{ "test2-mm1", 0, 125, 1002, 917, -1 },
		{ "o11int", 0, 125, 1001, 102, -1 },
		{ "o11int", 0, 125, 1002, 816, -1 },
		{ "o11int", 0, 125, 104, 102, -1 },
		{ "o11int", 0, 125, 103, 102, -1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		struct o1_task *p;

		drv_init(&d, sm_policy_find(cases[i].policy));
		api_add(&d, 0, true, 0);
		p = (struct o1_task *)d.task[0].t;
		p->last_run = DRV_J0;
		p->sleep_avg = cases[i].s0;
		p->interactive_credit = 0;
		p->prio = cases[i].p0;
		api_wake(&d, 0, cases[i].j);
		CHECK_CTX("%s S %lu woken at %ld", cases[i].policy,
			  cases[i].s0, cases[i].j);
		CHECK_INT(drv_curr(&d), 0);
		CHECK_INT(p->sleep_avg, cases[i].sleep_avg);
		if (cases[i].prio >= 0)
			CHECK_INT(p->prio, cases[i].prio);
		drv_free(&d);
	}
}

/*
 * O10's granularity requeue (o10_granularity_due), kept by test2-mm1 and
 * O11int: (task_timeslice - time_slice) % 25 == 0 while time_slice >
 * MIN_TIMESLICE (10).  Only nice -17 (slice 10 + 190 * 36 / 39 = 185)
 * and nice 19 (10) have a slice of 10 + 25k, so only nice -17 meets the
 * boundary time_slice == 10 (175 used, 175 % 25 == 0): not due.
 * time_slice 35 (150 used): due; 11 (174 used, 174 % 25 = 24): not.
 */
static void test_granularity_boundary(void)
{
	static const struct { int ts; bool due; } cases[] = {
		{ 10, false }, { 35, true }, { 11, false },
	};
	const char *const policies[] = { "test2-mm1", "o11int" };

	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct drv d;
			struct o1_task *p;

			drv_init(&d, sm_policy_find(policies[k]));
			api_add(&d, -17, true, 0);
			api_wake(&d, 0, 0);
			p = (struct o1_task *)d.task[0].t;
			CHECK_CTX("%s time_slice %d", policies[k],
				  cases[i].ts);
			CHECK_INT(task_timeslice(p), 185);
			p->time_slice = (unsigned)cases[i].ts;
			CHECK_INT(o10_granularity_due(o1_rq_of(d.rq), p),
				  cases[i].due);
			drv_free(&d);
		}
}

int main(void)
{
	test_sleeper_beside_hog();
	test_long_sleep();
	test_jis_table();
	test_wake_boundaries();
	test_granularity_boundary();
	return test_done("test-interactive");
}
