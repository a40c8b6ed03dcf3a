/*
 * test-credit: O11int's interactive_credit (accrual, no accrual on the
 * > 1 s path, decrement at each expiry, staying active while sleep_avg
 * lasts, then the head of expired), and EXPIRED_STARVING forcing an
 * interactive task to expire in stock and test2-mm1 (and O11int without
 * credit; with credit it is bypassed); what O11.1 and O11.2 changed at
 * expiry.  Driven through the policy API at
 * chosen jiffies; jiffies below are relative to DRV_J0.
 */
#include "sched-model/o1.h"
#include "tests/sched-model/drv.h"

/*
 * Accrual (O11int, nice-0 user task T, warm: sleep_avg 1020, credit 0):
 *   j=0   woken (sleep_time -1: nothing), picked.
 *   j=1   tick: 1019, ts 101.  Blocks at 1 (slice not full: no charge).
 *   j=2   woken: sleep_time 2-1-1 = 0: nothing, credit 0; but B always
 *         recomputes prio: effective_prio(1019) = 116.  Blocks at 2.
 *   j=4   woken: sleep_time 1: no credit, so +min(1, 102): 1020, not
 *         above MAX_SLEEP_AVG: credit 0.  Blocks at 4 (ts 101: no charge).
 *   j=7   sleep_time 2: 1022 > 1020: capped, credit 1.  Blocks at 7.
 *   j=10  with credit the one-level jump: (1020*10/1020 + 1)*102 = 1122
 *         > 1020: capped, credit 2.  And so on every 3 jiffies:
 *   j = 7 + 3(c-1) gives credit c; c = 12 at j = 40.
 * Each row: the wakeup's jiffy, then sleep_avg, credit and prio after it
 * (1020 gives 115).
 */
static const struct { long j; long sleep_avg, credit; int prio; } accrual[] = {
	{ 2, 1019, 0, 116 }, { 4, 1020, 0, 115 }, { 7, 1020, 1, 115 },
	{ 10, 1020, 2, 115 }, { 13, 1020, 3, 115 }, { 16, 1020, 4, 115 },
	{ 19, 1020, 5, 115 }, { 22, 1020, 6, 115 }, { 25, 1020, 7, 115 },
	{ 28, 1020, 8, 115 }, { 31, 1020, 9, 115 }, { 34, 1020, 10, 115 },
	{ 37, 1020, 11, 115 }, { 40, 1020, 12, 115 },
};

static void accrue(struct drv *d)
{
	struct sm_view v;

	api_add(d, 0, true, 100);
	api_wake(d, 0, 0);
	CHECK_INT(drv_curr(d), 0);
	api_tick(d, 1);
	api_block(d, 0, 1);
	for (size_t i = 0; i < sizeof(accrual) / sizeof(accrual[0]); i++) {
		api_wake(d, 0, accrual[i].j);
		v = api_view(d, 0);
		CHECK_CTX("accrual wake at %ld", accrual[i].j);
		CHECK_INT(v.sleep_avg, accrual[i].sleep_avg);
		CHECK_INT(v.credit, accrual[i].credit);
		CHECK_INT(v.prio, accrual[i].prio);
		CHECK_INT(drv_curr(d), 0);
		CHECK_INT(v.time_slice, 101);
		api_block(d, 0, accrual[i].j);
	}
}

/*
 * After accrual (credit 12, sleep_avg 1020, ts 101, blocked at 40):
 *   j=41  woken, runs; tick: 1019, ts 100.  Blocks at 41.
 *   j=44  woken: credit > 0, jump from level 1019*10/1020 = 9 to
 *         10*102 = 1020, not above: credit stays 12.  Blocks at 44.
 *   j=1544 woken after 1499 jiffies (> HZ), a user task:
 *         JUST_INTERACTIVE_SLEEP(nice 0) = 816, credit still 12.
 */
static void test_no_accrual(void)
{
	struct drv d;
	struct sm_view v;

	drv_init(&d, sm_policy_find("o11int"));
	accrue(&d);
	api_wake(&d, 0, 41);
	api_tick(&d, 41);
	api_block(&d, 0, 41);
	api_wake(&d, 0, 44);
	v = api_view(&d, 0);
	CHECK_CTX("jump to 1020 from 1019");
	CHECK_INT(v.sleep_avg, 1020);
	CHECK_INT(v.credit, 12);
	api_block(&d, 0, 44);
	api_wake(&d, 0, 1544);
	v = api_view(&d, 0);
	CHECK_CTX("> 1 s");
	CHECK_INT(v.sleep_avg, 816);
	CHECK_INT(v.credit, 12);
	CHECK_INT(v.prio, 117);
	drv_free(&d);
}

/*
 * Expiry with credit.  After accrual T (credit 12) is blocked at 40.
 * A cold nice-0 hog H is created and woken at 40 and runs; at tick 142
 * its slice ends (125, not interactive): expired, expired_timestamp = 142.
 * T is woken at 142 (sleep_time 101, credit: jump, capped: credit 13)
 * and runs, H waiting in expired.  T hogs; its slice has 101 left.
 * Each expiry: sleep_avg decayed by the slice, credit - 1, prio =
 * effective_prio, then (if it stays active) the O10 charge takes 1 more:
 *   k  jiffy  sleep_avg at expiry  credit  prio  where          after charge
 *   1  243    1020-101 = 919       12      116   active (inter.)  918
 *   2  345    816                  11      117   active (inter.)  815
 *   3  447    713                  10      119   active: credit   712
 *   4  549    610                  9       120   active: credit   609
 *   5  651    507                  8       121   active: credit   506
 *   6  753    404                  7       122   active: credit   403
 *   7  855    301                  6       123   active: credit   300
 *   8  957    198                  5       124   active: credit   197
 *   9  1059   95                   4       125   active: credit   94
 *  10  1161   0                    3       125   HEAD of expired  (0)
 * (EXPIRED_STARVING needs jiffies - 142 >= 2*1020 + 1: not before 2183.)
 * At 1161 active is empty, the arrays swap and T, at the head, runs
 * before H although H was expired 1019 jiffies earlier.  T's granularity
 * requeue at ts 77 (jiffy 1186) then lets H run.
 */
static void test_credit_expiry(void)
{
	static const struct {
		long j, sleep_avg, credit;
		int prio;
		bool head;
	} slices[] = {
		{ 243, 918, 12, 116, false }, { 345, 815, 11, 117, false },
		{ 447, 712, 10, 119, false }, { 549, 609, 9, 120, false },
		{ 651, 506, 8, 121, false }, { 753, 403, 7, 122, false },
		{ 855, 300, 6, 123, false }, { 957, 197, 5, 124, false },
		{ 1059, 94, 4, 125, false }, { 1161, 0, 3, 125, true },
	};
	struct drv d;
	struct sm_view v;
	long j = 142;
	int h;

	drv_init(&d, sm_policy_find("o11int"));
	accrue(&d);
	drv_at_jiffy(&d, 40);
	h = api_add(&d, 0, true, 0);
	api_wake(&d, h, 40);
	CHECK_INT(drv_curr(&d), h);
	for (long k = 41; k < 142; k++)
		api_tick(&d, k);
	api_tick_wake(&d, 142, 0);
	CHECK_INT(api_view(&d, h).array, SM_ARRAY_EXPIRED);
	CHECK_INT(o1_rq_of(d.rq)->expired_timestamp, DRV_J0 + 142);
	v = api_view(&d, 0);
	CHECK_INT(v.credit, 13);
	CHECK_INT(drv_curr(&d), 0);

	for (size_t s = 0; s < sizeof(slices) / sizeof(slices[0]); s++) {
		size_t mark;

		while (j < slices[s].j - 1)
			api_tick(&d, ++j);
		mark = d.nlog;
		api_tick(&d, ++j);
		v = api_view(&d, 0);
		CHECK_CTX("slice %zu, jiffy %ld", s + 1, j);
		CHECK_INT(v.sleep_avg, slices[s].sleep_avg);
		CHECK_INT(v.credit, slices[s].credit);
		CHECK_INT(v.prio, slices[s].prio);
		CHECK_INT(v.time_slice, 102);
		CHECK_INT(v.array, SM_ARRAY_ACTIVE);
		CHECK_INT(drv_curr(&d), 0);
		CHECK_INT(api_view(&d, h).array, slices[s].head ?
			  SM_ARRAY_ACTIVE : SM_ARRAY_EXPIRED);
		/* what the expiry reported */
		for (size_t i = mark; i < d.nlog; i++)
			if (d.log[i].id == 0 && (d.log[i].why == SM_CH_EXPIRE ||
			    d.log[i].why == SM_CH_REQUEUE)) {
				CHECK_INT(d.log[i].why, slices[s].head ?
					  SM_CH_EXPIRE : SM_CH_REQUEUE);
				CHECK_INT(d.log[i].v.array, slices[s].head ?
					  SM_ARRAY_EXPIRED : SM_ARRAY_ACTIVE);
				break;
			}
		CHECK_INT(o1_rq_of(d.rq)->expired_timestamp,
			  slices[s].head ? 0 : DRV_J0 + 142);
	}
	CHECK_CTX("after the head of expired");
	while (j < 1185)
		api_tick(&d, ++j);
	CHECK_INT(drv_curr(&d), 0);
	api_tick(&d, ++j);
	CHECK_INT(drv_curr(&d), h);
	drv_free(&d);
}

/*
 * The same expiries under O11int's successors (T, credit 13, runs from
 * 142; H waits in expired since 142).
 *
 * O11.1: identical up to the tenth expiry at 1161 (credit 3, sleep_avg 0):
 * T goes to the *tail* of expired, behind H; active is empty, the arrays
 * swap and H (125, ahead of T at 125) runs at 1161.
 *
 * O11.2: credit no longer keeps T active.  At 243 and 345 it is still
 * interactive (116, 117: REQUEUE).  At 447 (713, prio 119) it goes to
 * expired; active is empty, the arrays swap, and T (119) is picked
 * before H (125); the O10 charge takes it to 712.  At 549 (610, prio 120)
 * it expires again with H in active: H runs whole slices, T the next,
 * and so on, each of T's expiries costing 102 + 1:
 *   jiffy  runs  T.sleep_avg  credit  prio  T's array
 *   243    T     918          12      116   active
 *   345    T     815          11      117   active
 *   447    T     712          10      119   active (expired, swapped)
 *   549    H     609          9       120   expired
 *   651    T     609          9       120   active (H expired, swapped)
 *   753    H     506          8       121   expired
 *   855    T     506          8       121   active
 *   957    H     403          7       122   expired
 */
static void test_credit_expiry_successors(void)
{
	static const struct {
		long j;
		int runs_h;
		long sleep_avg, credit;
		int prio, array;
	} o11_2[] = {
		{ 243, 0, 918, 12, 116, SM_ARRAY_ACTIVE },
		{ 345, 0, 815, 11, 117, SM_ARRAY_ACTIVE },
		{ 447, 0, 712, 10, 119, SM_ARRAY_ACTIVE },
		{ 549, 1, 609, 9, 120, SM_ARRAY_EXPIRED },
		{ 651, 0, 609, 9, 120, SM_ARRAY_ACTIVE },
		{ 753, 1, 506, 8, 121, SM_ARRAY_EXPIRED },
		{ 855, 0, 506, 8, 121, SM_ARRAY_ACTIVE },
		{ 957, 1, 403, 7, 122, SM_ARRAY_EXPIRED },
	};
	struct drv d;
	struct sm_view v;
	int h;

	/* O11.1 */
	drv_init(&d, sm_policy_find("o11.1"));
	accrue(&d);
	drv_at_jiffy(&d, 40);
	h = api_add(&d, 0, true, 0);
	api_wake(&d, h, 40);
	for (long k = 41; k < 142; k++)
		api_tick(&d, k);
	api_tick_wake(&d, 142, 0);
	for (long k = 143; k < 1161; k++) {
		api_tick(&d, k);
		CHECK_CTX("o11.1 jiffy %ld", k);
		CHECK_INT(drv_curr(&d), 0);
		CHECK_INT(api_view(&d, 0).array, SM_ARRAY_ACTIVE);
	}
	api_tick(&d, 1161);
	v = api_view(&d, 0);
	CHECK_CTX("o11.1 at 1161");
	CHECK_INT(v.sleep_avg, 0);
	CHECK_INT(v.credit, 3);
	CHECK_INT(v.prio, 125);
	CHECK_INT(drv_curr(&d), h);
	CHECK_INT(drv_last(&d, 0, SM_CH_EXPIRE) != NULL, 1);
	CHECK_INT(o1_rq_of(d.rq)->expired_timestamp, 0);
	drv_free(&d);

	/* O11.2 */
	drv_init(&d, sm_policy_find("o11.2"));
	accrue(&d);
	drv_at_jiffy(&d, 40);
	h = api_add(&d, 0, true, 0);
	api_wake(&d, h, 40);
	for (long k = 41; k < 142; k++)
		api_tick(&d, k);
	api_tick_wake(&d, 142, 0);
	CHECK_INT(api_view(&d, 0).credit, 13);
	for (size_t r = 0, k = 143; r < sizeof(o11_2) / sizeof(o11_2[0]);
	     r++) {
		for (; (long)k <= o11_2[r].j; k++)
			api_tick(&d, (long)k);
		v = api_view(&d, 0);
		CHECK_CTX("o11.2 at %ld", o11_2[r].j);
		CHECK_INT(drv_curr(&d), o11_2[r].runs_h ? h : 0);
		CHECK_INT(v.sleep_avg, o11_2[r].sleep_avg);
		CHECK_INT(v.credit, o11_2[r].credit);
		CHECK_INT(v.prio, o11_2[r].prio);
		CHECK_INT(v.array, o11_2[r].array);
	}
	drv_free(&d);
}

/*
 * expired_timestamp is set at a non-interactive expiry even when credit
 * keeps the task in active.  T alone after accrual (credit 12, woken at
 * 40, ts 101): expiries at 141 (919: credit 11, interactive), 243 (816:
 * credit 10, interactive: timestamp still 0), 345 (713, prio 119, not
 * interactive: timestamp := 345, stays active with credit 9).
 */
static void test_credit_timestamp(void)
{
	struct drv d;

	drv_init(&d, sm_policy_find("o11int"));
	accrue(&d);
	api_wake(&d, 0, 40);
	for (long j = 41; j <= 345; j++) {
		api_tick(&d, j);
		CHECK_CTX("jiffy %ld", j);
		if (j == 243)
			CHECK_INT(o1_rq_of(d.rq)->expired_timestamp, 0);
	}
	CHECK_INT(api_view(&d, 0).credit, 9);
	CHECK_INT(api_view(&d, 0).array, SM_ARRAY_ACTIVE);
	CHECK_INT(o1_rq_of(d.rq)->expired_timestamp, DRV_J0 + 345);
	drv_free(&d);
}

/*
 * EXPIRED_STARVING.  H (cold hog) runs from 0 and expires at tick 102
 * (expired_timestamp E = 102).  I (nice 0, warm) is woken at 102 and runs
 * ticks 103..203: ts 1.  The clock then jumps to
 *   E + STARVATION_LIMIT * nr_running + 1 + off   (nr_running = 2)
 * = 102 + 20001 + off (stock) or 102 + 2041 + off (B), and one tick ends
 * I's slice.  I is interactive there: stock 10000 - 102 = 9898, prio 116;
 * B 1020 - 102 = 918, prio 116 (O11int: the wake at 102 added 101 without
 * credit, capped: credit 1).  With off = -1 it is not starving: I goes
 * back to active.  With off = 0 it is: I goes to expired.  O11int with
 * credit (set to 5: 4 after the decrement) and sleep_avg > 0 bypasses it
 * and stays active; with only the credit 1 of the wake (0 after the
 * decrement) it expires like test2-mm1.  (Once I expires, active is
 * empty: the arrays swap and I, at 116, still runs before H.)
 */
static void test_starving(void)
{
	static const struct {
		const char *policy;
		long limit, off, credit;	/* credit -1: leave it */
		int array;
	} cases[] = {
		{ "stock", 10000, -1, -1, SM_ARRAY_ACTIVE },
		{ "stock", 10000, 0, -1, SM_ARRAY_EXPIRED },
		{ "test2-mm1", 1020, -1, -1, SM_ARRAY_ACTIVE },
		{ "test2-mm1", 1020, 0, -1, SM_ARRAY_EXPIRED },
		{ "o11int", 1020, -1, -1, SM_ARRAY_ACTIVE },
		{ "o11int", 1020, 0, -1, SM_ARRAY_EXPIRED },
		{ "o11int", 1020, 0, 5, SM_ARRAY_ACTIVE },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct drv d;
		struct sm_view v;
		int h, i, found = 0;
		size_t mark;
		long jump = 102 + cases[c].limit * 2 + 1 + cases[c].off;
		bool o11 = !strcmp(cases[c].policy, "o11int");

		drv_init(&d, sm_policy_find(cases[c].policy));
		h = api_add(&d, 0, true, 0);
		i = api_add(&d, 0, true, 100);
		api_wake(&d, h, 0);
		for (long j = 1; j < 102; j++)
			api_tick(&d, j);
		api_tick_wake(&d, 102, i);
		CHECK_CTX("%s off %ld credit %ld", cases[c].policy,
			  cases[c].off, cases[c].credit);
		CHECK_INT(api_view(&d, h).array, SM_ARRAY_EXPIRED);
		CHECK_INT(o1_rq_of(d.rq)->expired_timestamp, DRV_J0 + 102);
		CHECK_INT(drv_curr(&d), i);
		if (o11)
			CHECK_INT(api_view(&d, i).credit, 1);
		for (long j = 103; j <= 203; j++)
			api_tick(&d, j);
		CHECK_INT(api_view(&d, i).time_slice, 1);
		if (cases[c].credit >= 0)
			o1_task_of(d.task[i].t)->interactive_credit =
				(unsigned long)cases[c].credit;
		mark = d.nlog;
		api_tick(&d, jump);
		v = api_view(&d, i);
		CHECK_INT(v.prio, 116);
		/* I, at 116, runs either way; expiring empties active, so
		   the arrays swap and H is in active again */
		CHECK_INT(drv_curr(&d), i);
		CHECK_INT(api_view(&d, h).array,
			  cases[c].array == SM_ARRAY_EXPIRED ?
			  SM_ARRAY_ACTIVE : SM_ARRAY_EXPIRED);
		for (size_t r = mark; r < d.nlog; r++)
			if (d.log[r].id == (uint32_t)i &&
			    (d.log[r].why == SM_CH_EXPIRE ||
			     d.log[r].why == SM_CH_REQUEUE)) {
				CHECK_INT(d.log[r].v.array, cases[c].array);
				found++;
			}
		CHECK_INT(found, 1);
		drv_free(&d);
	}
}

int main(void)
{
	test_no_accrual();
	test_credit_expiry();
	test_credit_expiry_successors();
	test_credit_timestamp();
	test_starving();
	return test_done("test-credit");
}
