/*
 * test-calib: what the replay reads of the recording machine
 * (replay/calib.h) from hand-built event sequences: the wake costs by
 * class, the tick, the pinned tasks; and what the simulator does with
 * them: a wake onto an idle CPU runs its task the wake's cost later, and
 * a wake that comes before the block it answers is kept in the recorded
 * order (--early-wake requeue) or skips the sleep (skip).  Expected values
 * worked out by hand beside each case (times in microseconds unless said).
 */
#include "replay/calib.h"
#include "tests/lib/test.h"
#include "tests/replay/rr.h"
#include "tests/replay/scen.h"

#define US 1000LL

static void calib_of(const struct scen *sc, struct sr_calib *c)
{
	struct sr_calib_builder *b = sr_calib_builder_new();
	struct sr_calib_tasks ct = { sc_get, sc };
	struct sr_diag d = SR_DIAG_INIT;

	CHECK(b != NULL);
	for (size_t i = 0; i < sc->nev; i++)
		CHECK_INT(sr_calib_event(b, &sc->ev[i], &ct, &d), SR_OK);
	CHECK_INT(sr_calib_finish(b, c, &d), SR_OK);
}

/* A wake of task onto target_cpu made on cpu by waker (NONE: an irq). */
static void wake_on(struct scen *sc, int64_t ts, int cpu, sr_tid task,
		    sr_tid waker, int target_cpu)
{
	sc_wake(sc, ts, cpu, task, waker, SR_WS_HARDIRQ);
	sc->ev[sc->nev - 1].target_cpu = target_cpu;
}

/*
 * Two CPUs.  w runs on cpu 1 throughout; t sleeps on cpu 0.
 *  - idle, remote: w wakes t at 100, 200, 300 onto idle cpu 0; t runs at
 *    +20, +30, +25: samples 20, 30, 25, median (nearest rank, 2nd of 3)
 *    25;
 *  - idle, local: an irq on cpu 0 wakes t at 400, it runs at 405: 5;
 *  - preempt, local: h runs on cpu 0 from 500; an irq there wakes t at
 *    600, h is switched out runnable for t at 603: 3;
 *  - preempt, remote: w wakes t at 700, h gives way at 712: 12; at 800,
 *    2 ms later (t waited for a slice, not for the wake): not a sample;
 *  - a wake whose CPU ran something else before its task (u at 1010):
 *    not a sample either.
 * Each class has fewer than SR_CALIB_MIN_SAMPLES on cpu 0: its cost there
 * is every CPU's.
 */
static void test_wake_costs(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid i0 = sc_task(&sc, 0, "swapper/0"), i1 = sc_task(&sc, 0,
								"swapper/1");
	sr_tid w = sc_task(&sc, 10, "w"), t = sc_task(&sc, 20, "t");
	sr_tid h = sc_task(&sc, 30, "h"), u = sc_task(&sc, 40, "u");
	static const int64_t lat[] = { 20, 30, 25 };
	struct sr_calib c;

	sc_switch(&sc, 0, 1, i1, 'R', w);
	sc_switch(&sc, 0, 0, i0, 'R', t);
	sc_switch(&sc, 1 * US, 0, t, 'S', i0);
	for (int k = 0; k < 3; k++) {
		int64_t at = (k + 1) * 100 * US;

		wake_on(&sc, at, 1, t, w, 0);
		sc_switch(&sc, at + lat[k] * US, 0, i0, 'R', t);
		sc_switch(&sc, at + 50 * US, 0, t, 'S', i0);
	}
	wake_on(&sc, 400 * US, 0, t, SR_TID_NONE, 0);
	sc_switch(&sc, 405 * US, 0, i0, 'R', t);
	sc_switch(&sc, 410 * US, 0, t, 'S', i0);
	sc_switch(&sc, 500 * US, 0, i0, 'R', h);
	wake_on(&sc, 600 * US, 0, t, SR_TID_NONE, 0);
	sc_switch(&sc, 603 * US, 0, h, 'R', t);
	sc_switch(&sc, 610 * US, 0, t, 'S', h);
	wake_on(&sc, 700 * US, 1, t, w, 0);
	sc_switch(&sc, 712 * US, 0, h, 'R', t);
	sc_switch(&sc, 720 * US, 0, t, 'S', h);
	wake_on(&sc, 800 * US, 1, t, w, 0);
	sc_switch(&sc, 2800 * US, 0, h, 'R', t);
	sc_switch(&sc, 2810 * US, 0, t, 'S', i0);
	wake_on(&sc, 3000 * US, 1, t, w, 0);
	sc_switch(&sc, 3005 * US, 0, i0, 'R', u);
	sc_switch(&sc, 3010 * US, 0, u, 'S', t);
	sc_switch(&sc, 3020 * US, 0, t, 'S', i0);

	calib_of(&sc, &c);
	CHECK_INT(c.ncpus, 2);
	CHECK_INT(c.all.n[SR_WAKE_IDLE_REMOTE], 3);
	CHECK_INT(c.all.lat[SR_WAKE_IDLE_REMOTE], 25 * US);
	CHECK_INT(c.all.n[SR_WAKE_IDLE_LOCAL], 1);
	CHECK_INT(c.all.lat[SR_WAKE_IDLE_LOCAL], 5 * US);
	CHECK_INT(c.all.n[SR_WAKE_PREEMPT_LOCAL], 1);
	CHECK_INT(c.all.lat[SR_WAKE_PREEMPT_LOCAL], 3 * US);
	CHECK_INT(c.all.n[SR_WAKE_PREEMPT_REMOTE], 1);
	CHECK_INT(c.all.lat[SR_WAKE_PREEMPT_REMOTE], 12 * US);
	CHECK_INT(c.cpu[0].n[SR_WAKE_IDLE_REMOTE], 3);
	CHECK_INT(c.cpu[1].n[SR_WAKE_IDLE_REMOTE], 0);
	CHECK_INT(sr_calib_wake_cost(&c, 0, SR_WAKE_IDLE_REMOTE), 25 * US);
	CHECK_INT(sr_calib_wake_cost(&c, 1, SR_WAKE_PREEMPT_LOCAL), 3 * US);
	CHECK_INT(sr_calib_wake_cost(NULL, 0, SR_WAKE_IDLE_LOCAL), 0);
	/* the spread: stratum i's middle is sample rank ceil((2i + 1) 3 /
	   200) of 20, 25, 30: rank 1 for i <= 32, 2 for 33..66, 3 from 67 */
	CHECK_INT(sr_calib_wake_cost_at(&c, 0, SR_WAKE_IDLE_REMOTE, 0), 20 * US);
	CHECK_INT(sr_calib_wake_cost_at(&c, 0, SR_WAKE_IDLE_REMOTE, 32), 20 * US);
	CHECK_INT(sr_calib_wake_cost_at(&c, 0, SR_WAKE_IDLE_REMOTE, 33), 25 * US);
	CHECK_INT(sr_calib_wake_cost_at(&c, 0, SR_WAKE_IDLE_REMOTE, 66), 25 * US);
	CHECK_INT(sr_calib_wake_cost_at(&c, 0, SR_WAKE_IDLE_REMOTE, 67), 30 * US);
	CHECK_INT(sr_calib_wake_cost_at(&c, 0, SR_WAKE_IDLE_REMOTE, 99), 30 * US);
	CHECK_INT(sr_calib_wake_cost_at(&c, 0, SR_WAKE_IDLE_REMOTE, 100), 0);
	CHECK_INT(sr_calib_wake_cost_at(&c, 1, SR_WAKE_PREEMPT_LOCAL, 50), 3 * US);
	CHECK_INT(sr_calib_wake_cost_at(NULL, 0, SR_WAKE_IDLE_LOCAL, 0), 0);
	CHECK_INT(c.hz, 0); /* no preemption but by wakes: no tick read */
	sr_calib_free(&c);
}

/*
 * A CPU's own median once it has SR_CALIB_MIN_SAMPLES: 20 idle-local
 * wakes of 7 us on cpu 0 and one of 40 us on cpu 1: cpu 0 costs 7, cpu 1
 * (one sample) every CPU's, the median of 21 samples: 7.
 */
static void test_own_median(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid i0 = sc_task(&sc, 0, "swapper/0"), i1 = sc_task(&sc, 0,
								"swapper/1");
	sr_tid t = sc_task(&sc, 20, "t"), v = sc_task(&sc, 21, "v");
	struct sr_calib c;

	sc_switch(&sc, 0, 0, i0, 'R', t);
	sc_switch(&sc, 1 * US, 0, t, 'S', i0);
	sc_switch(&sc, 0, 1, i1, 'R', v);
	sc_switch(&sc, 1 * US, 1, v, 'S', i1);
	for (int k = 0; k < 20; k++) {
		int64_t at = (k + 1) * 100 * US;

		wake_on(&sc, at, 0, t, SR_TID_NONE, 0);
		sc_switch(&sc, at + 7 * US, 0, i0, 'R', t);
		sc_switch(&sc, at + 10 * US, 0, t, 'S', i0);
	}
	wake_on(&sc, 5000 * US, 1, v, SR_TID_NONE, 1);
	sc_switch(&sc, 5040 * US, 1, i1, 'R', v);
	sc_switch(&sc, 5050 * US, 1, v, 'S', i1);
	calib_of(&sc, &c);
	CHECK_INT(c.cpu[0].n[SR_WAKE_IDLE_LOCAL], 20);
	CHECK_INT(c.cpu[1].lat[SR_WAKE_IDLE_LOCAL], 40 * US);
	CHECK_INT(sr_calib_wake_cost(&c, 0, SR_WAKE_IDLE_LOCAL), 7 * US);
	CHECK_INT(sr_calib_wake_cost(&c, 1, SR_WAKE_IDLE_LOCAL), 7 * US);
	sr_calib_free(&c);
}

/*
 * The tick: two hogs on one CPU preempting each other, neither woken, at
 * period * k + 10 us for 40 turns.  Every 4 ms: in phase at 4 ms (and at
 * 1 ms, which divides it) but spread at 10 ms (4 ms steps: phases 0, 4,
 * 8, 2, 6 ms) and 3.3 ms: the longest period kept is HZ 250.  Every 1 ms:
 * HZ 1000.  Twenty turns only: too few to say (SR_CALIB_TICK_MIN 30).
 */
static void test_tick(void)
{
	static const struct { int64_t period; int turns, hz; } cases[] = {
		{ 4000 * US, 40, 250 },
		{ 1000 * US, 40, 1000 },
		{ 10000 * US, 40, 100 },
		{ 4000 * US, 20, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scen sc = { .ntasks = 0 };
		sr_tid i0 = sc_task(&sc, 0, "swapper/0");
		sr_tid a = sc_task(&sc, 1, "a"), b = sc_task(&sc, 2, "b");
		struct sr_calib c;

		CHECK_CTX("period %lld", (long long)cases[i].period);
		sc_switch(&sc, 0, 0, i0, 'R', a);
		for (int k = 1; k <= cases[i].turns; k++)
			sc_switch(&sc, k * cases[i].period + 10 * US, 0,
				  k % 2 ? a : b, 'R', k % 2 ? b : a);
		calib_of(&sc, &c);
		CHECK_INT(c.tick_samples, cases[i].turns);
		CHECK_INT(c.hz, cases[i].hz);
		sr_calib_free(&c);
	}
}

/*
 * The tick from charges (sched_stat_runtime) when no preemption shows it:
 * a hog a runs alone on cpu 0 from 0 to 200 ms, charged at every 4 ms +
 * 7 us (the tick's update_curr): 49 charges (4 .. 196 ms).  A wake onto
 * cpu 0 at 10 ms + 1.3 ms * k (k = 0..29) follows a charge 2 us before it
 * (the wakeup's own update_curr, its phase anywhere): 30 charges that are
 * not the tick's.  A charge of a task not running there (b on cpu 0 at
 * 150.5 ms) is not one either.  So 49 samples, all in phase at 4 ms: HZ
 * 250.  Taken as ticks, the 30 wake charges would make 79 samples.
 */
static void test_tick_charges(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid i0 = sc_task(&sc, 0, "swapper/0");
	sr_tid a = sc_task(&sc, 1, "a"), b = sc_task(&sc, 2, "b");
	int64_t tick = 4000 * US, w = 10000 * US;
	int k = 0;
	struct sr_calib c;

	sc_switch(&sc, 0, 0, i0, 'R', a);
	for (int64_t t = tick; t < 200000 * US; t += tick) {
		while (k < 30 && w < t) {
			sc_simple(&sc, w - 2 * US, 0, SR_EV_RUNTIME, a,
				  SR_TID_NONE, 1);
			wake_on(&sc, w, 0, b, SR_TID_NONE, 0);
			w += 1300 * US;
			k++;
		}
		if (t == 152000 * US)
			sc_simple(&sc, 150500 * US, 0, SR_EV_RUNTIME, b,
				  SR_TID_NONE, 1);
		sc_simple(&sc, t + 7 * US, 0, SR_EV_RUNTIME, a, SR_TID_NONE,
			  1);
	}
	sc_switch(&sc, 200000 * US, 0, a, 'S', i0);
	CHECK_INT(k, 30);
	calib_of(&sc, &c);
	CHECK_INT(c.tick_samples, 49);
	CHECK_INT(c.hz, 250);
	sr_calib_free(&c);
}

/*
 * Pinned tasks: p and h take turns on cpu 0 only (25 turns each, each
 * waiting 200 us runnable) while cpu 1 idles: both pinned to cpu 0.  The
 * same with y busy on cpu 1 throughout: nothing says they could have
 * moved, none pinned.  A task that ran on both CPUs: not pinned.
 */
static void test_pins(void)
{
	for (int busy = 0; busy < 2; busy++) {
		struct scen sc = { .ntasks = 0 };
		sr_tid i0 = sc_task(&sc, 0, "swapper/0");
		sr_tid i1 = sc_task(&sc, 0, "swapper/1");
		sr_tid p = sc_task(&sc, 10, "p"), h = sc_task(&sc, 11, "h");
		sr_tid y = sc_task(&sc, 12, "y");
		struct sr_calib c;

		CHECK_CTX("cpu 1 %s", busy ? "busy" : "idle");
		sc_switch(&sc, 0, 1, i1, 'R', y);
		if (!busy)
			sc_switch(&sc, 1 * US, 1, y, 'S', i1);
		sc_switch(&sc, 0, 0, i0, 'R', p);
		for (int k = 1; k <= 50; k++)
			sc_switch(&sc, k * 200 * US, 0, k % 2 ? p : h, 'R',
				  k % 2 ? h : p);
		calib_of(&sc, &c);
		CHECK_INT(c.npin, busy ? 0 : 2);
		CHECK_INT(sr_calib_pinned(&c, p, false), busy ? -1 : 0);
		CHECK_INT(sr_calib_pinned(&c, h, false), busy ? -1 : 0);
		CHECK_INT(sr_calib_pinned(&c, y, false), -1);
		sr_calib_free(&c);
	}
}

/*
 * The simulator draws each kick's cost from the recorded spread: half
 * the strata cost 10 us, half 30 us (the median 10 us).  b sleeps and is
 * woken by an irq on the idle CPU 40 times, 1 ms apart: its delays are
 * 10 or 30 us, both seen (a fixed stream: the same draws every run; each
 * is 30 us with odds 1/2, so 40 draws all alike would be a broken draw),
 * and the same replay gives the same delays.
 */
static void test_kick_spread(void)
{
	int64_t total[2] = { 0, 0 };

	for (int run = 0; run < 2; run++) {
		struct scen sc = { .ntasks = 0 };
		sr_tid i0 = sc_task(&sc, 0, "swapper/0");
		sr_tid b = sc_task(&sc, 200, "b");
		struct sr_calib c;
		struct sr_sim_opts o = { .cpus = 1, .check = true };
		struct sc_run x;

		CHECK_CTX("run %d", run);
		sr_calib_init(&c);
		c.all.lat[SR_WAKE_IDLE_LOCAL] = 10 * US;
		for (int i = 0; i < SR_CALIB_STRATA; i++)
			c.all.q[SR_WAKE_IDLE_LOCAL][i] =
				i < SR_CALIB_STRATA / 2 ? 10 * US : 30 * US;
		o.calib = &c;
		sc_switch(&sc, 0, 0, i0, 'R', b);
		sc_switch(&sc, 100 * US, 0, b, 'S', i0);
		for (int k = 1; k <= 40; k++) {
			sc_wake(&sc, k * MS, 0, b, SR_TID_NONE, SR_WS_HARDIRQ);
			sc_switch(&sc, k * MS, 0, i0, 'R', b);
			sc_switch(&sc, k * MS + 100 * US, 0, b, 'S', i0);
		}
		sc_replay(&x, &sc, &rr_policy, &o, 0, NULL, 50 * MS);
		CHECK_INT(x.rc, SR_OK);
		if (!x.rc) {
			const struct sr_task_metrics *m = sc_metrics(&x, b);

			CHECK_INT(m->max_delay_ns, 30 * US);
			total[run] = m->sum_delay_ns;
			/* 40 delays of 10 or 30 us: strictly between */
			CHECK(m->sum_delay_ns > 40 * 10 * US &&
			      m->sum_delay_ns < 40 * 30 * US);
		}
		sc_done(&x);
	}
	CHECK_INT(total[0], total[1]);
}

/*
 * The busy test (--affinity infer): p, h and q are woken onto cpu 0 at 0
 * and take turns there, 1 ms each, 75 turns (25 switch-ins each, every
 * wait 2 ms), so cpu 0 holds 3 tasks throughout; cpu 1 never idles.
 *  - cpu 1 runs y1 alone (1 task: two fewer; y2 and y3, woken there too,
 *    ran once and slept before 1 ms): every wait of p, h, q from
 *    their second turn on is a long wait on the busier CPU: 24 each, at
 *    least SR_CALIB_STAY_MIN (20): pinned to cpu 0 loosely (the busy
 *    test's pins only), not by the idle test (cpu 1 never idled);
 *  - cpu 1 runs y1 and y2 in turn (2 tasks: one fewer) or y1, y2, y3 (as
 *    many): not lighter, none pinned, loosely or not.
 */
static void test_pin_busy(void)
{
	for (int ny = 1; ny <= 3; ny++) {
		struct scen sc = { .ntasks = 0 };
		sr_tid p = sc_task(&sc, 10, "p"), h = sc_task(&sc, 11, "h");
		sr_tid q = sc_task(&sc, 12, "q");
		sr_tid y[3] = { sc_task(&sc, 20, "y1"), sc_task(&sc, 21, "y2"),
				sc_task(&sc, 22, "y3") };
		sr_tid on0[3] = { p, h, q };
		struct sr_calib c;

		CHECK_CTX("cpu 1 with %d tasks", ny);
		for (int i = 0; i < 3; i++) {
			wake_on(&sc, 0, 0, on0[i], SR_TID_NONE, 0);
			if (ny == 1 || i < ny)
				wake_on(&sc, 0, 1, y[i], SR_TID_NONE, 1);
		}
		sc_switch(&sc, 1 * US, 0, sc_task(&sc, 0, "swapper/0"), 'R', p);
		if (ny == 1) {
			sc_switch(&sc, 1 * US, 1, sc_task(&sc, 0, "swapper/1"),
				  'R', y[1]);
			sc_switch(&sc, 100 * US, 1, y[1], 'S', y[2]);
			sc_switch(&sc, 200 * US, 1, y[2], 'S', y[0]);
		} else {
			sc_switch(&sc, 1 * US, 1, sc_task(&sc, 0, "swapper/1"),
				  'R', y[0]);
		}
		for (int k = 1; k < 75; k++) {
			sc_switch(&sc, k * MS, 0, on0[(k - 1) % 3], 'R',
				  on0[k % 3]);
			if (ny > 1)
				sc_switch(&sc, k * MS, 1, y[(k - 1) % ny], 'R',
					  y[k % ny]);
		}
		calib_of(&sc, &c);
		CHECK_INT(c.npin, ny > 1 ? 0 : 3);
		CHECK_INT(sr_calib_pinned(&c, p, true), ny > 1 ? -1 : 0);
		CHECK_INT(sr_calib_pinned(&c, q, true), ny > 1 ? -1 : 0);
		CHECK_INT(sr_calib_pinned(&c, p, false), -1);
		CHECK_INT(sr_calib_pinned(&c, y[0], true), -1);
		sr_calib_free(&c);
	}
}

/*
 * A task renamed (perf.data's COMM record at an exec: its record's
 * attr_gen changes, no exec event): p runs 5 times on cpu 1 as "taskset",
 * is renamed "hog", then takes turns with h on cpu 0 only (25 each,
 * 200 us runnable each time) while cpu 1 idles: pinned to cpu 0, as h.
 * Without the rename p ran on both CPUs: not pinned.
 */
static void test_pin_rename(void)
{
	for (int rename = 0; rename < 2; rename++) {
		struct scen sc = { .ntasks = 0 };
		sr_tid i0 = sc_task(&sc, 0, "swapper/0");
		sr_tid i1 = sc_task(&sc, 0, "swapper/1");
		sr_tid p = sc_task(&sc, 10, "taskset"), h = sc_task(&sc, 11,
								    "h");
		struct sr_calib_builder *cb = sr_calib_builder_new();
		struct sr_calib_tasks ct = { sc_get, &sc };
		struct sr_diag d = SR_DIAG_INIT;
		struct sr_calib c;
		size_t i;

		CHECK_CTX("rename %d", rename);
		CHECK(cb != NULL);
		for (int k = 0; k < 5; k++) {
			sc_switch(&sc, k * 100 * US, 1, i1, 'R', p);
			sc_switch(&sc, k * 100 * US + 50 * US, 1, p, 'S', i1);
		}
		for (i = 0; i < sc.nev; i++)
			CHECK_INT(sr_calib_event(cb, &sc.ev[i], &ct, &d), SR_OK);
		if (rename)
			sc.tasks[p].attr_gen++;
		sc_switch(&sc, 1000 * US, 0, i0, 'R', p);
		for (int k = 1; k <= 50; k++)
			sc_switch(&sc, 1000 * US + k * 200 * US, 0,
				  k % 2 ? p : h, 'R', k % 2 ? h : p);
		for (; i < sc.nev; i++)
			CHECK_INT(sr_calib_event(cb, &sc.ev[i], &ct, &d), SR_OK);
		CHECK_INT(sr_calib_finish(cb, &c, &d), SR_OK);
		CHECK_INT(sr_calib_pinned(&c, p, false), rename ? 0 : -1);
		CHECK_INT(sr_calib_pinned(&c, h, false), 0);
		sr_calib_free(&c);
	}
}

/*
 * The simulator with a wake cost: b runs 0-1 ms and sleeps; an irq wakes
 * it at 3 ms on the idle CPU.  With an idle-local cost of 10 us b runs at
 * 3.010 ms (a delay of 10 us); without calibration at 3 ms.
 */
static void test_kick(void)
{
	for (int cost = 0; cost < 2; cost++) {
		struct scen sc = { .ntasks = 0 };
		sr_tid i0 = sc_task(&sc, 0, "swapper/0");
		sr_tid b = sc_task(&sc, 200, "b");
		struct sr_calib c;
		struct sr_sim_opts o = { .cpus = 1, .check = true };
		struct sc_run x;

		CHECK_CTX("cost %d", cost);
		sr_calib_init(&c);
		c.all.lat[SR_WAKE_IDLE_LOCAL] = 10 * US;
		for (int i = 0; i < SR_CALIB_STRATA; i++)
			c.all.q[SR_WAKE_IDLE_LOCAL][i] = 10 * US;
		if (cost)
			o.calib = &c;
		sc_switch(&sc, 0, 0, i0, 'R', b);
		sc_switch(&sc, 1 * MS, 0, b, 'S', i0);
		sc_wake(&sc, 3 * MS, 0, b, SR_TID_NONE, SR_WS_HARDIRQ);
		sc_switch(&sc, 3 * MS, 0, i0, 'R', b);
		sc_switch(&sc, 4 * MS, 0, b, 'S', i0);
		sc_replay(&x, &sc, &rr_policy, &o, 0, NULL, 10 * MS);
		CHECK_INT(x.rc, SR_OK);
		if (!x.rc) {
			CHECK(strstr(x.log, "T 3000000 200 b wake") != NULL);
			CHECK(strstr(x.log, cost ? "T 3010000 200 b run"
						 : "T 3000000 200 b run") != NULL);
			CHECK_INT(sc_metrics(&x, b)->max_delay_ns,
				  cost ? 10 * US : 0);
		}
		sc_done(&x);
	}
}

/*
 * A wake before its block, on one CPU under RR: a runs 0-10 and wakes b
 * at 6 out of the sleep b began at 5 (cpu 1 in the recording); b reaches
 * that sleep at 15 (after its first 5 ms, 10-15).  requeue: b sleeps at
 * 15 and is woken there and then, runs on at 15 (nothing else to run):
 * a block and a wake row at 15, no delay; skip: no sleep, an "early" row.
 * Either way b runs its 7 ms and ends at 17.
 */
static void test_early(void)
{
	static const struct { enum sr_early_mode mode; const char *row; }
	cases[] = {
		{ SR_EARLY_REQUEUE, "T 15000000 200 b block" },
		{ SR_EARLY_SKIP, "T 15000000 200 b early" },
	};

	for (size_t i = 0; i < 2; i++) {
		struct scen sc = { .ntasks = 0 };
		sr_tid i0 = sc_task(&sc, 0, "swapper/0"), i1 = sc_task(
			&sc, 0, "swapper/1");
		sr_tid a = sc_task(&sc, 100, "a"), b = sc_task(&sc, 200, "b");
		struct sr_sim_opts o = { .cpus = 1, .check = true,
					 .early = cases[i].mode };
		struct sc_run x;

		CHECK_CTX("%s", sr_early_names[cases[i].mode]);
		sc_switch(&sc, 0, 0, i0, 'R', a);
		sc_switch(&sc, 0, 1, i1, 'R', b);
		sc_switch(&sc, 5 * MS, 1, b, 'S', i1);
		sc_wake(&sc, 6 * MS, 0, b, a, 0);
		sc_switch(&sc, 6 * MS, 1, i1, 'R', b);
		sc_switch(&sc, 8 * MS, 1, b, 'S', i1);
		sc_switch(&sc, 10 * MS, 0, a, 'S', i0);
		sc_replay(&x, &sc, &rr_policy, &o, 0, NULL, 10 * MS);
		CHECK_INT(x.rc, SR_OK);
		if (!x.rc) {
			CHECK(strstr(x.log, cases[i].row) != NULL);
			CHECK((strstr(x.log, "T 15000000 200 b wake") != NULL) ==
			      (cases[i].mode == SR_EARLY_REQUEUE));
			CHECK_INT(sr_sim_task(x.sim, b)->early_wakes, 1);
			CHECK_INT(sr_sim_task(x.sim, b)->cpu_ns, 7 * MS);
			CHECK_INT(sr_sim_task(x.sim, b)->finish_ts, 17 * MS);
		}
		sc_done(&x);
	}
}

int main(void)
{
	test_wake_costs();
	test_own_median();
	test_tick();
	test_tick_charges();
	test_pins();
	test_pin_rename();
	test_pin_busy();
	test_kick();
	test_kick_spread();
	test_early();
	return test_done("test-calib");
}
