/*
 * test-g3-a3: Ingo Molnar's G3 and A3, the nanosecond sleep_avg policies,
 * against hand-derived tables:
 *  - one nice-0 hog, cold and warm: which ticks requeue it (G3 counts
 *    time_slice % 50 from the end of the slice, A3 (slice - ts) % 25 from
 *    its start, neither tests MIN_TIMESLICE), and sleep_avg lowered only
 *    by schedule()'s run-time charge, in ns;
 *  - two nice-0 hogs: who runs when;
 *  - a light sleeper beside a hog: its wakeup and runqueue-wait credit,
 *    the first wakeup that preempts, the first interactive one;
 *  - A3's ON_RUNQUEUE_WEIGHT (a wakeup from interrupt context credits the
 *    whole wait, one by a task 38/128 of it) and its starvation limit
 *    (HZ, no nr_running factor, timestamp at every expiry);
 *  - the fork penalties and sched_exit with their divisions first;
 *  - G3's sleep and run-time caps, and A3's starvation limit, exactly.
 * Times are in ms from the start (jiffies relative to DRV_J0).
 */
#include "sched-model/o1.h"
#include "tests/sched-model/drv.h"

static const struct drv_op hog[] = { RUN(FOREVER), END };
static const struct drv_op sleeper[] = { RUN(1 * MS), SLEEP(10 * MS), LOOP };

static const struct sm_policy *pol(const char *name)
{
	const struct sm_policy *p = sm_policy_find(name);

	if (!p)
		exit(1);
	return p;
}

static struct o1_task *task_of(struct drv *d, int i)
{
	return (struct o1_task *)d->task[i].t;
}

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
 * One nice-0 user hog alone, woken at 0.  time_slice after tick k: 102 - k,
 * refilled to 102 at k = 102, then 204 - k.
 *
 * Requeues (REQUEUE, the task alone is picked again):
 *   G3: time_slice % 50 == 0: ts 100 and 50, ticks 2, 52, 104, 154;
 *   A3: (102 - time_slice) % 25 == 0: ts 77, 52, 27, 2, ticks 25, 50, 75,
 *       100, 127, 152, 177, 202.
 * Expiry at 102 and 204: cold (sleep_avg 0, prio 125, not interactive):
 * EXPIRE and SWAP; warm (100%): interactive, REQUEUE.
 *
 * sleep_avg (ns) changes only at a schedule(): each requeue or expiry sets
 * need_resched, schedule() picks the task again and charges it the time
 * since its stamp (its last pick or charge).  Cold it stays 0.  Warm:
 *   G3 (2e9): 1.998e9 from 2, 1.948e9 from 52, 1.898e9 from 102, 1.896e9
 *     from 104, 1.846e9 from 154, 1.796e9 at 204.  prio: the requeue and
 *     the expiry recompute it before the charge: eff(2e9) = 115 at 2,
 *     then 1000 * (sa / 1024) / 1953125 / 100 = 9 (bonus 4): 116 from 52
 *     on (998, 973, 948, 947, 922 before the last /100);
 *   A3 (1e9): 25 ms per requeue: 0.975e9 at 25, 0.950e9 at 50, 0.925e9
 *     at 75, 0.9e9 at 100, 0.898e9 at 102 (expiry after 2 ms), then
 *     0.873e9, 0.848e9, 0.823e9, 0.798e9 at 127..202, 0.796e9 at 204.
 *     prio, 120 - (1000 * (sa / 1024) / 976562 / 100 - 5): 115 at 25
 *     (eff(1e9): 1000), 116 at 50, 75, 100 and the expiry at 102 (974,
 *     949, 924, 900: bonus 4; interactive), 117 at 127, 152, 177, 202
 *     (898, 872, 848, 822), 118 at 204 (eff(0.798e9): 797, bonus 2,
 *     still interactive).
 * A3 sets expired_timestamp at every expiry, even one that stays active:
 * 102 after the first; G3 (stock's rule) only when a task goes to expired.
 */
static void test_one_hog(void)
{
	static const long g3_sa[] = { 2000000000, 1998000000, 1948000000,
				      1898000000, 1896000000, 1846000000,
				      1796000000 };
	static const long g3_at[] = { 0, 2, 52, 102, 104, 154, 204 };
	static const long a3_sa[] = { 1000000000, 975000000, 950000000,
				      925000000, 900000000, 898000000,
				      873000000, 848000000, 823000000,
				      798000000, 796000000 };
	static const long a3_at[] = { 0, 25, 50, 75, 100, 102, 127, 152, 177,
				      202, 204 };
	static const int a3_prio[] = { 115, 115, 116, 116, 116, 116, 117, 117,
				       117, 117, 118 };

	for (int g = 0; g < 2; g++) {
		for (int warm = 0; warm < 2; warm++) {
			const char *name = g ? "a3" : "g3";
			const long *sa_t = g ? a3_sa : g3_sa;
			const long *at = g ? a3_at : g3_at;
			size_t nat = g ? sizeof(a3_at) / sizeof(a3_at[0]) :
				sizeof(g3_at) / sizeof(g3_at[0]);
			struct sm_task_info info = { 0, 0, SM_SCHED_NORMAL, 0,
						     true, warm ? 100 : 0, 0, NULL };
			struct drv d;
			size_t seg = 0;

			drv_init(&d, pol(name));
			drv_add_info(&d, info, hog, 0);
			drv_run(&d, 0);
			for (long k = 1; k <= 204; k++) {
				struct o1_task *p;
				unsigned want = 0, got;
				bool expiry = k == 102 || k == 204;
				bool requeue = g ?
					k % 102 > 0 && (k % 102) % 25 == 0 :
					k % 102 == 2 || k % 102 == 52;
				long ts = k < 102 ? 102 - k : k == 102 ? 102 :
					k < 204 ? 204 - k : 102;
				int prio;

				drv_run(&d, k * MS);
				p = task_of(&d, 0);
				while (seg + 1 < nat && at[seg + 1] <= k)
					seg++;
				CHECK_CTX("%s %s tick %ld", name,
					  warm ? "warm" : "cold", k);
				CHECK_INT(p->time_slice, ts);
				CHECK_INT(p->array == p->rq->active, 1);
				if (!warm) {
					CHECK_INT(p->sleep_avg, 0);
					prio = 125;
				} else {
					CHECK_INT(p->sleep_avg, sa_t[seg]);
					prio = g ? a3_prio[seg] :
						k < 52 ? 115 : 116;
				}
				CHECK_INT(p->prio, prio);
				if (expiry && !warm)
					want = R(EXPIRE) | R(SWAP);
				else if (expiry || requeue)
					want = R(REQUEUE);
				got = reasons_at(&d, 0, k * MS) &
					(R(EXPIRE) | R(SWAP) | R(REQUEUE));
				CHECK_INT(got, want);
				if (k == 102 && warm)
					CHECK_INT(p->rq->expired_timestamp,
						  g ? DRV_J0 + 102 : 0);
			}
			drv_free(&d);
		}
	}
}

/*
 * Two nice-0 hogs A (id 0) and B (id 1), woken at 0 (B by a task: A3
 * activated = 1).  A runs first.
 *
 * G3: A's first requeue comes after 2 ms (ts 100); B, credited its 2 ms
 * wait at the pick (sleep_avg 2e6, prio still 125), runs 2 ms to its own
 * ts 100; then 50 ms turns; A's slice ends at 154 (ts 50 -> 0), B's at
 * 204; the swap puts A first again: every 204 ms 2, 2, 50, 50, 50, 50.
 *   A[0,2) B[2,4) A[4,54) B[54,104) A[104,154) B[154,204) A[204,206)
 *   B[206,208) A[208,258) B[258,308) A[308,358) B[358,408)
 * A3: 25 ms turns counted from the slice's start; the fourth leaves ts 2,
 * requeued too (no MIN_TIMESLICE test): 2 ms each before the expiries at
 * 202 and 204.  B's pick-time credit: 25 ms * 38 / 128 = 7421875 ns,
 * prio 125.
 *   A[0,25) B[25,50) A[50,75) B[75,100) A[100,125) B[125,150)
 *   A[150,175) B[175,200) A[200,202) B[202,204) A[204,229) B[229,254)
 */
static void test_two_hogs(void)
{
	static const struct span g3[] = {
		{ 0, 0, 2 }, { 1, 2, 4 }, { 0, 4, 54 }, { 1, 54, 104 },
		{ 0, 104, 154 }, { 1, 154, 204 }, { 0, 204, 206 },
		{ 1, 206, 208 }, { 0, 208, 258 }, { 1, 258, 308 },
		{ 0, 308, 358 }, { 1, 358, 408 },
	};
	static const struct span a3[] = {
		{ 0, 0, 25 }, { 1, 25, 50 }, { 0, 50, 75 }, { 1, 75, 100 },
		{ 0, 100, 125 }, { 1, 125, 150 }, { 0, 150, 175 },
		{ 1, 175, 200 }, { 0, 200, 202 }, { 1, 202, 204 },
		{ 0, 204, 229 }, { 1, 229, 254 },
	};
	static const struct {
		const char *policy;
		const struct span *spans;
		size_t n;
		long b_credit;		/* B's sleep_avg after its first pick */
	} runs[] = {
		{ "g3", g3, sizeof(g3) / sizeof(g3[0]), 2000000 },
		{ "a3", a3, sizeof(a3) / sizeof(a3[0]), 7421875 },
	};

	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		struct drv d;

		drv_init(&d, pol(runs[r].policy));
		drv_add(&d, 0, true, hog, 0);
		drv_add(&d, 0, true, hog, 0);
		drv_run(&d, runs[r].spans[1].start * MS);
		CHECK_CTX("%s B's first pick", runs[r].policy);
		CHECK_INT(task_of(&d, 1)->sleep_avg, runs[r].b_credit);
		CHECK_INT(task_of(&d, 1)->prio, 125);
		drv_run(&d, runs[r].spans[runs[r].n - 1].end * MS);
		check_spans(&d, runs[r].spans, runs[r].n);
		/* the run-time charge brought both back to 0 */
		CHECK_INT(task_of(&d, 0)->sleep_avg, 0);
		CHECK_INT(task_of(&d, 1)->sleep_avg, 0);
		drv_free(&d);
	}
}

/*
 * H (id 0): nice-0 hog from 0.  S (id 1): runs 1 ms, sleeps 10 ms (a
 * timer: woken from interrupt context), first woken at 0.5 ms.  S always
 * runs from a tick instant for 1 ms, so it is never charged a tick, and
 * its slice stays full (102): at equal prio TASK_PREEMPTS_CURR fires when
 * H has 50 or less left, but H keeps the head of the list, so S waits
 * for H's requeue or expiry.  H is charged every tick: its requeue points
 * do not move.  S's sleep_avg (ms): + its sleep at each wakeup (from its
 * stamp at the block), + its wait at the pick (G3 all of it; A3 all too,
 * the wakeup being from interrupt context), - 1 at each block.
 *
 * G3: H's points 102k + {2, 52} (requeue) and 102k + 102 (expiry).
 *   wake  t    S picked  sleep_avg at wake / after the run   H.ts  resched
 *   0     0.5  2         0.5 / 1 (0.5 + 1.5 wait - 1)         102   no
 *   1     13   52        11 / 49 (+39 wait)                   89    no
 *   2     63   102       59 / 97 (+39)                        39    yes, H head
 *   3     113  154       107 / 147 (+41)                      91    no
 *   4     165  204       157 / 195 (+39)                      39    yes, H head
 *   5     215  at once   205: level 1 needs 200000512 (195313 * 1024): 124
 * then every 11 ms at once, +9 per wakeup: 205 + 9(m - 5); interactive
 * (level 7, 1400000512 ns) at m = 138 (1402), t = 215 + 11 * 133 = 1678.
 *
 * A3: H's points 102k + {25, 50, 75, 100} and the expiry at 102k + 102.
 *   wake  t    S picked  sleep_avg at wake / after the run   H.ts  resched
 *   0     0.5  25        0.5 / 24 (+24.5 wait)                102   no
 *   1     36   50        34 / 47 (+14)                        66    no
 *   2     61   75        57 / 70                              41    yes, H head
 *   3     86   100       80 / 93                              16    yes, H head
 *   4     111  at once   103: level 1 needs 100000768: 124
 * then +9 per wakeup: 103 + 9(m - 4); level 7 (700000256 ns) at m = 71
 * (706), t = 111 + 11 * 67 = 848.
 */
static void test_sleeper_beside_hog(void)
{
	static const long g3_t[] = { 13, 63, 113, 165, 215 };
	static const bool g3_res[] = { 0, 1, 0, 1, 1 };
	static const long a3_t[] = { 36, 61, 86, 111 };
	static const bool a3_res[] = { 0, 1, 1, 1 };
	static const struct {
		const char *policy;
		const long *t;
		const bool *resched;
		int first_preempt;
		long first_interactive;
		int interactive_wake;
		long sleep_avg_at_preempt;
	} cases[] = {
		{ "g3", g3_t, g3_res, 5, 1678, 138, 205000000 },
		{ "a3", a3_t, a3_res, 4, 848, 71, 103000000 },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct drv d;
		struct drv_task *s;
		int fp = cases[c].first_preempt;

		drv_init(&d, pol(cases[c].policy));
		drv_add(&d, 0, true, hog, 0);
		drv_add(&d, 0, true, sleeper, MS / 2);
		drv_run(&d, cases[c].t[fp - 1] * MS);
		CHECK_CTX("%s at the first preempting wakeup", cases[c].policy);
		CHECK_INT(task_of(&d, 1)->prio, 124);
		CHECK_INT(task_of(&d, 1)->sleep_avg,
			  cases[c].sleep_avg_at_preempt);
		drv_run(&d, (cases[c].first_interactive + 100) * MS);
		s = &d.task[1];
		CHECK_CTX("%s", cases[c].policy);
		CHECK(s->nwakes > (size_t)cases[c].interactive_wake);
		if (s->nwakes <= (size_t)cases[c].interactive_wake)
			goto out;
		CHECK_INT(s->wakes[0].t, MS / 2);
		CHECK(!s->wakes[0].ran_at_once);
		CHECK_INT(d.task[0].first_interactive, -1);
		CHECK_INT(s->first_interactive, cases[c].first_interactive * MS);
		CHECK_INT(s->wakes[cases[c].interactive_wake].t,
			  cases[c].first_interactive * MS);
		for (size_t m = 1; m < s->nwakes; m++) {
			CHECK_CTX("%s wake %zu", cases[c].policy, m);
			CHECK_INT(s->wakes[m].ran_at_once, (int)m >= fp);
			if ((int)m <= fp) {
				CHECK_INT(s->wakes[m].t,
					  cases[c].t[m - 1] * MS);
				CHECK_INT(s->wakes[m].set_resched,
					  cases[c].resched[m - 1]);
			} else {
				CHECK_INT(s->wakes[m].t - s->wakes[m - 1].t,
					  11 * MS);
			}
		}
out:
		drv_free(&d);
	}
}

/*
 * A3's ON_RUNQUEUE_WEIGHT.  H: cold hog from 0.  S: created asleep at 0,
 * woken at 10 ms, by interrupt (activated 2) or by a task (activated 1);
 * the wakeup credits its 10 ms of sleep (sleep_avg 10e6, prio 125), and
 * it waits for H's requeue at 25 (A3; ts 77).  The pick credits the 15 ms
 * wait: all of it from interrupt context (25e6), 15e6 * 38 / 128 =
 * 4453125 by a task (14453125).  A sync wakeup credits nothing at all
 * (activated stays 0): sleep_avg 0 when picked at 25.  G3 credits the
 * whole wait either way; its next requeue is at 52 (ts 50): 10e6 + 42e6.
 */
static void test_runqueue_weight(void)
{
	static const struct {
		const char *policy;
		unsigned flags;
		int activated;
		long at_wake, pick, at_pick;
	} cases[] = {
		{ "a3", SM_WAKE_IRQ, 2, 10000000, 25, 25000000 },
		{ "a3", 0, 1, 10000000, 25, 14453125 },
		{ "a3", SM_WAKE_SYNC, 0, 0, 25, 0 },
		{ "g3", SM_WAKE_IRQ, 1, 10000000, 52, 52000000 },
		{ "g3", 0, 1, 10000000, 52, 52000000 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		int h, s;

		drv_init(&d, pol(cases[i].policy));
		h = api_add(&d, 0, true, 0);
		s = api_add(&d, 0, true, 0);
		api_wake(&d, h, 0);
		for (long k = 1; k <= 10; k++)
			api_tick(&d, k);
		api_wake_at(&d, s, 10 * MS, cases[i].flags);
		CHECK_CTX("%s flags %u at the wakeup", cases[i].policy,
			  cases[i].flags);
		CHECK_INT(drv_curr(&d), h);
		CHECK_INT(task_of(&d, s)->activated, cases[i].activated);
		CHECK_INT(task_of(&d, s)->sleep_avg, cases[i].at_wake);
		for (long k = 11; k <= cases[i].pick; k++) {
			CHECK_CTX("%s flags %u before the pick",
				  cases[i].policy, cases[i].flags);
			CHECK_INT(drv_curr(&d), h);
			api_tick(&d, k);
		}
		CHECK_CTX("%s flags %u at the pick", cases[i].policy,
			  cases[i].flags);
		CHECK_INT(drv_curr(&d), s);
		CHECK_INT(task_of(&d, s)->activated, 0);
		CHECK_INT(task_of(&d, s)->sleep_avg, cases[i].at_pick);
		CHECK_INT(task_of(&d, s)->prio, 125);
		drv_free(&d);
	}
}

/*
 * Starvation.  A warm nice-0 hog alone, its sleep_avg set back to
 * MAX_SLEEP_AVG before every tick, so it is always interactive (115).
 * A3 stamps expired_timestamp at its first expiry (102) though it stays
 * active, and EXPIRED_STARVING is jiffies - 102 >= HZ: the expiries at
 * 204 ... 1020 keep it active, the one at 1122 sends it to expired
 * (EXPIRE), the arrays swap (SWAP) and the stamp is cleared; 1224 stamps
 * it again.  G3 (stock's rule) never stamps an interactive expiry: it is
 * never starving, every expiry is a REQUEUE.
 */
static void test_starvation(void)
{
	for (int g = 0; g < 2; g++) {
		const char *name = g ? "a3" : "g3";
		struct drv d;
		struct o1_task *p;
		long msa = g ? A3_MAX_SLEEP_AVG : G3_MAX_SLEEP_AVG;

		drv_init(&d, pol(name));
		api_add(&d, 0, true, 100);
		api_wake(&d, 0, 0);
		p = task_of(&d, 0);
		for (long k = 1; k <= 1224; k++) {
			unsigned got, want = 0;

			p->sleep_avg = (unsigned long)msa;
			api_tick(&d, k);
			if (k % 102)
				continue;
			CHECK_CTX("%s expiry at %ld", name, k);
			want = g && k == 1122 ? R(EXPIRE) | R(SWAP) : R(REQUEUE);
			got = reasons_at(&d, 0, k * MS) &
				(R(EXPIRE) | R(SWAP) | R(REQUEUE));
			CHECK_INT(got, want);
			CHECK_INT(p->rq->expired_timestamp,
				  !g ? 0 : k == 1122 ? 0 :
				  k < 1122 ? DRV_J0 + 102 : DRV_J0 + 1224);
		}
		drv_free(&d);
	}
}

/*
 * Fork and exit with the divisions first.  P (nice 0), its sleep_avg set
 * to S0 ns, is woken and picked at 0 (no time passes: no credit, no
 * charge) and forks C at 0:
 *   parent = S0 / 100 * 100, child = S0 / 100 * CHILD_PENALTY (G3 50, A3
 *   95); the child's prio is the parent's (it is placed before it).
 * C runs first and exits at once (run_time 0); before the reap P's
 * sleep_avg is set to P1, and sched_exit gives, if C's is lower,
 *   P1 / 4 * 3 + C / 4  (stock's (3 * P1 + C) / 4 would differ by 2).
 * G3, S0 = 1234567891: parent 1234567800, child 617283900; P1 =
 * 1000000003: 750000000 + 154320975 = 904320975 (stock 904320977).
 * A3 (MAX_SLEEP_AVG 1e9), S0 = 987654321: parent 987654300, child
 * 938271585; P1 = 990000003: 742500000 + 234567896 = 977067896 (stock
 * 977067898).  G3, S0 = 999: parent 900, child 450; P1 = 400: the
 * child's is not lower, P keeps 400.
 */
static void test_fork_exit(void)
{
	static const struct {
		const char *policy;
		unsigned long s0, parent, child, p1, after_reap;
	} cases[] = {
		{ "g3", 1234567891, 1234567800, 617283900, 1000000003,
		  904320975 },
		{ "a3", 987654321, 987654300, 938271585, 990000003,
		  977067896 },
		{ "g3", 999, 900, 450, 400, 400 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		int c;
		struct o1_task *p;

		drv_init(&d, pol(cases[i].policy));
		api_add(&d, 0, true, 0);
		p = task_of(&d, 0);
		p->sleep_avg = cases[i].s0;
		p->prio = effective_prio(p);
		api_wake(&d, 0, 0);
		CHECK_INT(drv_curr(&d), 0);
		c = api_fork(&d, 0, true, 0);
		CHECK_CTX("%s S0 %lu at the fork", cases[i].policy,
			  cases[i].s0);
		CHECK_INT(p->sleep_avg, cases[i].parent);
		CHECK_INT(task_of(&d, c)->sleep_avg, cases[i].child);
		CHECK_INT(task_of(&d, c)->prio, p->prio);
		api_settle(&d);
		CHECK_INT(drv_curr(&d), c);
		d.pol->exit(d.rq, d.task[c].t);
		api_settle(&d);
		CHECK_INT(drv_curr(&d), 0);
		CHECK_INT(p->sleep_avg, cases[i].parent);
		p->sleep_avg = cases[i].p1;
		d.pol->reap(d.rq, d.task[0].t, d.task[c].t);
		CHECK_CTX("%s S0 %lu after the reap", cases[i].policy,
			  cases[i].s0);
		CHECK_INT(p->sleep_avg, cases[i].after_reap);
		d.pol->task_free(d.rq, d.task[c].t);
		d.task[c].t = NULL;
		drv_free(&d);
	}
}

/*
 * G3's ns sleep_avg rules at their caps (MAX_SLEEP_AVG 2e9), called
 * directly.  recalc_task_prio(now), timestamp T, sleep_avg S, prio P:
 *   sleep = min(now - T, 2e9), sleep_avg = min(S + sleep, 2e9), prio
 *   recomputed only if sleep_avg moved.
 *   S 0, sleep 1.5e9 (not above the cap): 1.5e9.
 *   S 0, sleep 2e9 + 1: capped, 2e9.
 *   S 2e9, P 130 (stale), sleep 1e6: 2e9 did not move, prio stays 130
 *     (eff(2e9) would be 115).
 * schedule()'s charge of prev, stamped T, at now: run_time = now - T if
 * below 2e9, else 2e9; sleep_avg = S - run_time, 0 if run_time > S.
 *   S 2e9, run 1e9: 1e9.   S 2e9, run 3e9: charged 2e9, 0.
 * A3's EXPIRED_STARVING: jiffies - expired_timestamp >= HZ (1000):
 *   a stamp 1000 jiffies old starves, 999 does not.
 */
static void test_caps(void)
{
	static const struct {
		int sw;
		unsigned long s0;
		int p0;
		unsigned long long ago;
		unsigned long sleep_avg;
		int prio;
	} cases[] = {
		{ 0, 0, 125, 1500000000ULL, 1500000000UL, -1 },
		{ 0, 0, 125, 2000000001ULL, 2000000000UL, -1 },
		{ 0, 2000000000UL, 130, 1000000ULL, 2000000000UL, 130 },
		{ 1, 2000000000UL, 125, 1000000000ULL, 1000000000UL, -1 },
		{ 1, 2000000000UL, 125, 3000000000ULL, 0, -1 },
	};
	static const struct { long age; bool starving; } starve[] = {
		{ 1000, true }, { 999, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		struct o1_task *p;
		unsigned long long now;

		drv_init(&d, pol("g3"));
		api_add(&d, 0, true, 0);
		drv_at_jiffy(&d, 5000);
		p = task_of(&d, 0);
		now = sched_clock_of(o1_rq_of(d.rq));
		p->timestamp = now - cases[i].ago;
		p->sleep_avg = cases[i].s0;
		p->prio = cases[i].p0;
		if (cases[i].sw)
			g3_schedule_switch(o1_rq_of(d.rq), p, NULL);
		else
			g3_recalc_task_prio(o1_rq_of(d.rq), p, now);
		CHECK_CTX("g3 %s S %lu after %llu ns",
			  cases[i].sw ? "charge" : "recalc", cases[i].s0,
			  cases[i].ago);
		CHECK_INT(p->sleep_avg, cases[i].sleep_avg);
		if (cases[i].prio >= 0)
			CHECK_INT(p->prio, cases[i].prio);
		drv_free(&d);
	}
	for (size_t i = 0; i < sizeof(starve) / sizeof(starve[0]); i++) {
		struct drv d;
		struct o1_rq *orq;

		drv_init(&d, pol("a3"));
		drv_at_jiffy(&d, 5000);
		orq = o1_rq_of(d.rq);
		orq->expired_timestamp = jiffies_of(orq) -
			(unsigned long)starve[i].age;
		CHECK_CTX("a3 stamp %ld jiffies old", starve[i].age);
		CHECK_INT(expired_starving(orq), starve[i].starving);
		orq->expired_timestamp = 0;
		drv_free(&d);
	}
}

int main(void)
{
	test_one_hog();
	test_two_hogs();
	test_sleeper_beside_hog();
	test_runqueue_weight();
	test_starvation();
	test_fork_exit();
	test_caps();
	return test_done("test-g3-a3");
}
