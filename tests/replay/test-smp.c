/*
 * test-smp: the replay on several CPUs and the rules at one instant, end
 * to end (demand, simulator, policy, balancer) on hand-built recordings:
 * three hogs on two CPUs keep 100/50/50 % (2+1 never moves), two hogs get
 * a CPU each within one balance interval, a sync wakeup moves its task to
 * the waker's CPU, a fork starts on the parent's CPU, tasks alive at the
 * start are placed on the CPU that first showed them (folded), per-CPU
 * kernel threads stay pinned; two wakeups at one instant between ticks
 * are two events, at a tick one batch, in trace order either way; and
 * the results do not depend on where the input pauses.  Every replay runs
 * with the invariant checks on (scen.h).
 */
#include "sched-model/policy.h"
#include "tests/lib/test.h"
#include "tests/replay/scen.h"

#define SEC (1000 * MS)

static const char *const all[] = { "stock", "test2-mm1", "o11int" };

static struct sr_sim_opts on_cpus(int n)
{
	struct sr_sim_opts o = { .cpus = n, .check = true };

	return o;
}

/* Replay sc under policy; false (and x cleaned up) if it failed. */
static bool replayed(struct sc_run *x, const struct scen *sc,
		     const char *policy, const struct sr_sim_opts *o,
		     size_t step)
{
	sc_replay(x, sc, sm_policy_find(policy), o, step, NULL, 0);
	CHECK_INT(x->rc, SR_OK);
	if (x->rc) {
		fprintf(stderr, "%s\n", x->d.msg);
		sc_done(x);
		return false;
	}
	return true;
}

/* CPU time pid ran in [0, until) by the log's run/preempt/block rows. */
static int64_t ran_until(const struct sc_run *x, int pid, int64_t until)
{
	const char *l = x->log;
	int64_t since = -1, total = 0;

	while (l && *l) {
		long long t;
		int p;
		char ev[32];

		if (sscanf(l, "T %lld %d %*s %31s", &t, &p, ev) == 3 &&
		    p == pid) {
			if (!strcmp(ev, "run")) {
				since = t;
			} else if (since >= 0 && (!strcmp(ev, "preempt") ||
						  !strcmp(ev, "block") ||
						  !strcmp(ev, "exit"))) {
				if (since < until)
					total += (t < until ? t : until) - since;
				since = -1;
			}
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	if (since >= 0 && since < until)
		total += until - since;
	return total;
}

/* Lines of the log containing s. */
static int count_lines(const struct sc_run *x, const char *s)
{
	int n = 0;

	for (const char *l = x->log; l && (l = strstr(l, s)); l++)
		n++;
	return n;
}

/*
 * n hogs of `len` ms of CPU each, recorded at once on cpus 0, 2, 4, ...
 * (so on two CPUs they all start on CPU 0), asleep for good at the end.
 */
static void hogs(struct scen *sc, int n, int64_t len, sr_tid *ids)
{
	sr_tid idle = sc_task(sc, 0, "swapper");

	for (int i = 0; i < n; i++)
		ids[i] = sc_task(sc, 100 + i, "hog");
	for (int i = 0; i < n; i++)
		sc_switch(sc, 0, 2 * i, idle, 'R', ids[i]);
	for (int i = 0; i < n; i++)
		sc_switch(sc, len, 2 * i, ids[i], 'S', idle);
}

/*
 * Three nice-0 hogs of 20 s on two CPUs, all on CPU 0 at first (cache-hot
 * for their first 10 jiffies).  CPU 1, idle, balances every jiffy and
 * pulls one at jiffy 12 (jiffies - last_run = 11 > 10; the tail of
 * CPU 0's list: the third hog); then 2+1: the busy balance every 200
 * jiffies finds (2 - 1) / 2 = 0 and never moves a task.  Over the first
 * 10 s: the lone hog ~100 %, the other two ~50 % each, one migration.
 */
static void test_three_hogs(void)
{
	for (size_t p = 0; p < 3; p++) {
		struct scen sc = { .ntasks = 0 };
		struct sr_sim_opts o = on_cpus(2);
		struct sc_run x;
		sr_tid h[3];
		int64_t r[3];

		hogs(&sc, 3, 20 * SEC, h);
		CHECK_CTX("%s", all[p]);
		if (!replayed(&x, &sc, all[p], &o, 0))
			continue;
		for (int i = 0; i < 3; i++)
			r[i] = ran_until(&x, 100 + i, 10 * SEC);
		/* the third, pulled at 11 ms: all but 11 ms of 10 s */
		CHECK_INT(r[2], 10 * SEC - 11 * MS);
		/* the other two share CPU 0: 50 % each, within a slice */
		CHECK(r[0] + r[1] == 10 * SEC);
		CHECK(r[0] > 5 * SEC - 200 * MS && r[0] < 5 * SEC + 200 * MS);
		CHECK_INT(sr_sim_task(x.sim, h[2])->migrations, 1);
		CHECK_INT(sr_sim_task(x.sim, h[0])->migrations +
			  sr_sim_task(x.sim, h[1])->migrations, 1);
		CHECK(strstr(x.log, "T 11000000 102 hog migrate 125 102 1 "
			     "idle-balance\n") != NULL);
		sc_done(&x);
	}
}

/*
 * Two hogs of 10 s, both on CPU 0 at first: CPU 1 pulls the waiting one
 * as soon as it is cold (11 ms), well within one balance interval (200
 * jiffies), and then each keeps its CPU: one migration, both done at
 * 10 s + 11 ms at the latest.
 */
static void test_two_hogs(void)
{
	for (size_t p = 0; p < 3; p++) {
		struct scen sc = { .ntasks = 0 };
		struct sr_sim_opts o = on_cpus(2);
		struct sc_run x;
		sr_tid h[2];
		struct sr_sim_stats st;
		int64_t f0, f1;

		hogs(&sc, 2, 10 * SEC, h);
		CHECK_CTX("%s", all[p]);
		if (!replayed(&x, &sc, all[p], &o, 0))
			continue;
		sr_sim_stats(x.sim, &st);
		CHECK_INT(st.migrations, 1);
		CHECK_INT(count_lines(&x, " migrate "), 1);
		CHECK(strstr(x.log, "T 11000000 101 hog migrate 125 102 1 "
			     "idle-balance\n") != NULL);
		CHECK(strstr(x.log, "T 11000000 101 hog run ") != NULL);
		f0 = sr_sim_task(x.sim, h[0])->finish_ts;
		f1 = sr_sim_task(x.sim, h[1])->finish_ts;
		CHECK_INT(f0, 10 * SEC);
		CHECK_INT(f1, 10 * SEC + 11 * MS);
		sc_done(&x);
	}
}

/*
 * Sync wakeup (docs/models.md, "The SMP balancer", where tasks go): A runs on
 * CPU 0 from 0 to 10 ms and at 5 ms wakes B, which last ran on CPU 1 (0-1
 * ms).  Non-sync: B wakes on CPU 1 (idle) and runs at once, 5-6 ms.  Sync: B
 * first moves to A's CPU (a migrate row, why sync-wake), is queued there with
 * no preemption test, and runs when A sleeps at 10 ms.
 */
static void test_sync_wake(void)
{
	for (size_t p = 0; p < 3; p++)
		for (int sync = 0; sync <= 1; sync++) {
			struct scen sc = { .ntasks = 0 };
			struct sr_sim_opts o = on_cpus(2);
			struct sc_run x;
			sr_tid idle = sc_task(&sc, 0, "swapper");
			sr_tid a = sc_task(&sc, 100, "a");
			sr_tid b = sc_task(&sc, 200, "b");

			sc_switch(&sc, 0, 0, idle, 'R', a);
			sc_switch(&sc, 0, 1, idle, 'R', b);
			sc_switch(&sc, 1 * MS, 1, b, 'S', idle);
			sc_wake(&sc, 5 * MS, 0, b, a, 0);
			sc.ev[sc.nev - 1].sync = (uint8_t)sync;
			sc_switch(&sc, 5 * MS, 1, idle, 'R', b);
			sc_switch(&sc, 6 * MS, 1, b, 'S', idle);
			sc_switch(&sc, 10 * MS, 0, a, 'S', idle);
			CHECK_CTX("%s sync %d", all[p], sync);
			if (!replayed(&x, &sc, all[p], &o, 0))
				continue;
			CHECK_INT(sr_sim_task(x.sim, b)->migrations, sync);
			if (sync) {
				CHECK(strstr(x.log, "T 5000000 200 b migrate ")
				      != NULL);
				CHECK(strstr(x.log, " 0 sync-wake\n") != NULL);
				CHECK(strstr(x.log, "T 10000000 200 b run ")
				      != NULL);
				CHECK_INT(sc_metrics(&x, b)->max_delay_ns,
					  5 * MS);
			} else {
				CHECK(strstr(x.log, "T 5000000 200 b run ")
				      != NULL);
				CHECK_INT(sc_metrics(&x, b)->max_delay_ns, 0);
			}
			sc_done(&x);
		}
}

/*
 * Placement: P, first shown on cpu 1, forks C there (the child starts on
 * the parent's CPU); Q is first seen woken with target_cpu 1; R first
 * runs on cpu 3, which folds onto CPU 1 of two; ksoftirqd/0, first shown
 * on cpu 1, is pinned to CPU 0 by its name.  With one CPU, all on 0.
 */
static void test_placement(void)
{
	for (int cpus = 1; cpus <= 2; cpus++) {
		struct scen sc = { .ntasks = 0 };
		struct sr_sim_opts o = on_cpus(cpus);
		struct sc_run x;
		sr_tid idle = sc_task(&sc, 0, "swapper");
		sr_tid pp = sc_task(&sc, 100, "p");
		sr_tid c = sc_task(&sc, 101, "c");
		sr_tid q = sc_task(&sc, 200, "q");
		sr_tid r = sc_task(&sc, 300, "r");
		sr_tid k = sc_task(&sc, 400, "ksoftirqd/0");
		struct sr_event *e;
		int want = cpus - 1;
		char pat[80];

		sc_switch(&sc, 0, 1, idle, 'R', pp);
		sc_fork(&sc, 1 * MS, 1, pp, c);
		sc_switch(&sc, 2 * MS, 1, pp, 'S', c);
		sc_switch(&sc, 3 * MS, 1, c, 'S', idle);
		sc_wake(&sc, 4 * MS, 1, q, SR_TID_NONE, SR_WS_HARDIRQ);
		e = &sc.ev[sc.nev - 1];
		e->target_cpu = 1;
		sc_switch(&sc, 4 * MS, 1, idle, 'R', q);
		sc_switch(&sc, 5 * MS, 1, q, 'S', idle);
		sc_switch(&sc, 6 * MS, 3, idle, 'R', r);
		sc_switch(&sc, 7 * MS, 3, r, 'S', idle);
		sc_switch(&sc, 8 * MS, 1, idle, 'R', k);
		sc_switch(&sc, 9 * MS, 1, k, 'S', idle);
		CHECK_CTX("%d cpus", cpus);
		if (!replayed(&x, &sc, "stock", &o, 0))
			continue;
		snprintf(pat, sizeof(pat), "100 p new 125 102 %d -", want);
		CHECK(strstr(x.log, pat) != NULL);
		snprintf(pat, sizeof(pat), "101 c fork 125 51 %d -", want);
		CHECK(strstr(x.log, pat) != NULL);
		snprintf(pat, sizeof(pat), "200 q new 125 102 %d -", want);
		CHECK(strstr(x.log, pat) != NULL);
		snprintf(pat, sizeof(pat), "300 r new 125 102 %d -", want);
		CHECK(strstr(x.log, pat) != NULL);
		CHECK(strstr(x.log, "400 ksoftirqd/0 new 125 102 0 -") != NULL);
		CHECK_INT(count_lines(&x, " migrate "), 0);
		sc_done(&x);
	}
}

/*
 * A per-CPU kernel thread is never pulled: a hog on CPU 1 runs 50 ms;
 * ksoftirqd/1, first seen on cpu 3, is put on CPU 1 by its name and waits
 * behind the hog from 0; CPU 0 is idle after 1 ms but may not take it: it
 * waits 50 ms.  An unpinned task in its place (cpu 3 folds onto CPU 1
 * too) is pulled once cold, at 11 ms (jiffy 12, last_run jiffy 1).
 */
static void test_pinned(void)
{
	static const char *const names[] = { "ksoftirqd/1", "worker" };

	for (int i = 0; i < 2; i++) {
		struct scen sc = { .ntasks = 0 };
		struct sr_sim_opts o = on_cpus(2);
		struct sc_run x;
		sr_tid idle = sc_task(&sc, 0, "swapper");
		sr_tid h = sc_task(&sc, 100, "hog");
		sr_tid k = sc_task(&sc, 200, names[i]);
		sr_tid z = sc_task(&sc, 300, "z");

		sc_switch(&sc, 0, 0, idle, 'R', z);
		sc_switch(&sc, 0, 1, idle, 'R', h);
		sc_switch(&sc, 0, 3, idle, 'R', k);
		sc_switch(&sc, 1 * MS, 0, z, 'S', idle);
		sc_switch(&sc, 1 * MS, 3, k, 'S', idle);
		sc_wake(&sc, 1 * MS, 1, k, SR_TID_NONE, SR_WS_HARDIRQ);
		sc_switch(&sc, 1 * MS, 3, idle, 'R', k);
		sc_switch(&sc, 2 * MS, 3, k, 'S', idle);
		sc_switch(&sc, 50 * MS, 1, h, 'S', idle);
		CHECK_CTX("%s", names[i]);
		if (!replayed(&x, &sc, "stock", &o, 0))
			continue;
		CHECK_INT(sr_sim_task(x.sim, k)->migrations, i);
		CHECK_INT(sc_metrics(&x, k)->max_delay_ns,
			  i ? 11 * MS : 50 * MS);
		sc_done(&x);
	}
}

/*
 * Same instant (docs/models.md, "Conventions at one instant" 3: two
 * wakeups at one instant are two events), on one CPU: idle,
 * then 300 (nice 0) and 301 (nice -5) woken by interrupts at one instant;
 * 301 runs 2 ms.
 *   between ticks (10.5 ms), 300 first: two events: 300 runs for 0 ns
 *     and 301 preempts it; 300 waits twice (0, then 2 ms);
 *   between ticks, 301 first: 301 runs, 300 does not preempt it: one
 *     wait of 2 ms;
 *   at a tick (10 ms), 300 first: both wakeups, then one schedule(): 301
 *     runs, 300 waits once, 2 ms.
 */
static void test_same_instant(void)
{
	static const struct {
		int64_t at;
		bool first_300;
		int waits;
	} cases[] = {
		{ 10 * MS + 500000, true, 2 },
		{ 10 * MS + 500000, false, 1 },
		{ 10 * MS, true, 1 },
	};

	for (size_t p = 0; p < 3; p++)
		for (size_t i = 0; i < 3; i++) {
			struct scen sc = { .ntasks = 0 };
			struct sc_run x;
			sr_tid idle = sc_task(&sc, 0, "swapper");
			sr_tid a = sc_task(&sc, 300, "a");
			sr_tid b = sc_task(&sc, 301, "b");
			int64_t at = cases[i].at;
			const struct sr_task_metrics *m;

			sc.tasks[b].nice = -5;
			sc_switch(&sc, 0, 0, idle, 'R', a);
			sc_switch(&sc, 1 * MS, 0, a, 'S', b);
			sc_switch(&sc, 2 * MS, 0, b, 'S', idle);
			sc_wake(&sc, at, 0, cases[i].first_300 ? a : b,
				SR_TID_NONE, SR_WS_HARDIRQ);
			sc_wake(&sc, at, 0, cases[i].first_300 ? b : a,
				SR_TID_NONE, SR_WS_HARDIRQ);
			sc_switch(&sc, at, 0, idle, 'R', b);
			sc_switch(&sc, at + 2 * MS, 0, b, 'S', a);
			sc_switch(&sc, at + 3 * MS, 0, a, 'S', idle);
			CHECK_CTX("%s case %zu", all[p], i);
			if (!replayed(&x, &sc, all[p], NULL, 1))
				continue;
			m = sc_metrics(&x, a);
			/* its first run at 0, then the waits at `at` */
			CHECK_INT(sr_delays_count(m->delays), 1 + cases[i].waits);
			CHECK_INT(m->max_delay_ns, 2 * MS);
			CHECK_INT(m->max_delay_start, at);
			CHECK_INT(sc_metrics(&x, b)->max_delay_ns, 0);
			sc_done(&x);
		}
}

/*
 * Timer wakeups at a jiffy go in trace order too: an idle CPU, two
 * equal tasks woken at 10 ms, the later-created one first in the trace:
 * it runs first (task-id order would run the other).
 */
static void test_tick_trace_order(void)
{
	for (size_t p = 0; p < 3; p++) {
		struct scen sc = { .ntasks = 0 };
		struct sc_run x;
		sr_tid idle = sc_task(&sc, 0, "swapper");
		sr_tid a = sc_task(&sc, 300, "a");
		sr_tid b = sc_task(&sc, 301, "b");

		sc_switch(&sc, 0, 0, idle, 'R', a);
		sc_switch(&sc, 1 * MS, 0, a, 'S', b);
		sc_switch(&sc, 2 * MS, 0, b, 'S', idle);
		sc_wake(&sc, 10 * MS, 0, b, SR_TID_NONE, SR_WS_HARDIRQ);
		sc_wake(&sc, 10 * MS, 0, a, SR_TID_NONE, SR_WS_HARDIRQ);
		sc_switch(&sc, 10 * MS, 0, idle, 'R', b);
		sc_switch(&sc, 11 * MS, 0, b, 'S', a);
		sc_switch(&sc, 12 * MS, 0, a, 'S', idle);
		sc_replay(&x, &sc, sm_policy_find(all[p]), NULL, 1, NULL, 0);
		CHECK_CTX("%s", all[p]);
		CHECK_INT(x.rc, SR_OK);
		if (!x.rc) {
			CHECK(strstr(x.log, "T 10000000 301 b run ") != NULL);
			CHECK_INT(sc_metrics(&x, a)->max_delay_ns, 1 * MS);
		}
		sc_done(&x);
	}
}

/* The same log whatever the pauses in the input, on 1, 2 and 3 CPUs. */
static void test_pauses(void)
{
	for (int cpus = 1; cpus <= 3; cpus++) {
		struct scen sc = { .ntasks = 0 };
		struct sr_sim_opts o = on_cpus(cpus);
		struct sc_run x, y;
		sr_tid h[4];

		hogs(&sc, 4, 300 * MS, h);
		sc_replay(&x, &sc, sm_policy_find("o11int"), &o, 0, NULL, 0);
		sc_replay(&y, &sc, sm_policy_find("o11int"), &o, 1, NULL, 0);
		CHECK_CTX("%d cpus", cpus);
		CHECK_INT(x.rc, SR_OK);
		CHECK_INT(y.rc, SR_OK);
		CHECK(x.log && y.log && !strcmp(x.log, y.log));
		sc_done(&x);
		sc_done(&y);
	}
}

int main(void)
{
	test_three_hogs();
	test_two_hogs();
	test_sync_wake();
	test_placement();
	test_pinned();
	test_same_instant();
	test_tick_trace_order();
	test_pauses();
	return test_done("test-smp");
}
