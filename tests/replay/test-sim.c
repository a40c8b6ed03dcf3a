/*
 * test-sim: the simulator core on hand-built demand, under a plain
 * round-robin test policy (tests/replay/rr.h): the event order at an
 * instant, causal and external wakes, late and pending wakes, --external
 * relative, fork/exit, CPU time kept exactly, and results that do not
 * depend on where the input pauses fall.  Timelines worked out by hand in
 * the comments (times in ms).
 */
#include "tests/lib/test.h"
#include "tests/replay/rr.h"
#include "tests/replay/scen.h"

/*
 * b runs 0-1 and sleeps; a runs 1-4 waking b at 3 (2 ms into a's CPU),
 * preempted at 4; b runs 4-6, sleeps; a runs 6-9 and sleeps for good; an
 * irq wakes b at 8; b runs 9-10.  Demand: b = run 1, block (causal), run 2,
 * block (ext @8), run 1, end; a = run 2, wake b, run 4, block (never).
 */
static void scen_d1(struct scen *sc, sr_tid *a, sr_tid *b)
{
	sr_tid idle = sc_task(sc, 0, "swapper/0");

	*a = sc_task(sc, 100, "a");
	*b = sc_task(sc, 200, "b");
	sc_switch(sc, 0, 0, idle, 'R', *b);
	sc_switch(sc, 1 * MS, 0, *b, 'S', *a);
	sc_wake(sc, 3 * MS, 0, *b, *a, 0);
	sc_switch(sc, 4 * MS, 0, *a, 'R', *b);
	sc_switch(sc, 6 * MS, 0, *b, 'S', *a);
	sc_wake(sc, 8 * MS, 0, *b, SR_TID_NONE, SR_WS_HARDIRQ);
	sc_switch(sc, 9 * MS, 0, *a, 'S', *b);
}

/*
 * Absolute: b arrives at 0, runs 0-1, sleeps; a arrives at 1, runs 1-7
 * (its 2 ms + 4 ms; it wakes b at 3 but RR does not preempt), sleeps for
 * good at 7; b runs 7-9 (delay 4 ms), reaches its sleep after the irq's
 * 8 ms: no sleep (a late wakeup), runs on 9-10, done.
 */
static void test_d1_absolute(void)
{
	struct scen sc = { .ntasks = 0 };
	struct sc_run x;
	const struct sr_task_metrics *m;
	struct sr_sim_stats st;
	sr_tid a, b;

	scen_d1(&sc, &a, &b);
	sc_replay(&x, &sc, &rr_policy, NULL, 0, NULL, 10 * MS);
	CHECK_INT(x.rc, SR_OK);
	if (x.rc) {
		fprintf(stderr, "%s\n", x.d.msg);
		sc_done(&x);
		return;
	}
	m = sc_metrics(&x, b);
	CHECK_INT(m->runtime_ns, 4 * MS);
	CHECK_INT(sr_delays_count(m->delays), 2);
	CHECK_INT(m->max_delay_ns, 4 * MS);
	CHECK_INT(m->max_delay_start, 3 * MS);
	CHECK_INT(m->max_delay_end, 7 * MS);
	CHECK_INT(m->wakeups, 2);
	m = sc_metrics(&x, a);
	CHECK_INT(m->runtime_ns, 6 * MS);
	CHECK_INT(sr_delays_count(m->delays), 1);
	CHECK_INT(m->max_delay_ns, 0);
	CHECK_INT(sr_sim_task(x.sim, b)->late_wakeups, 1);
	CHECK_INT(sr_sim_task(x.sim, b)->finish_ts, 10 * MS);
	CHECK_INT(sr_sim_task(x.sim, a)->finish_ts, 7 * MS);
	CHECK_INT(sr_sim_task(x.sim, a)->cpu_ns, 6 * MS);
	CHECK_INT(sr_sim_task(x.sim, b)->cpu_ns, 4 * MS);
	sr_sim_stats(x.sim, &st);
	CHECK_INT(st.end, 10 * MS);
	/*
	 * ticks while a task runs: not at 0 (idle; b arrives after the tick),
	 * not at 1 (b's burst ends first, then a arrives), not at 10 (b's
	 * ends first): 2..9 ms
	 */
	CHECK_INT(st.ticks, 8);
	/* the rows: b's wake at 3 comes after a's run at 1 and before b runs
	   at 7 */
	CHECK(strstr(x.log, "T 1000000 100 a run") != NULL);
	CHECK(strstr(x.log, "T 3000000 200 b wake") != NULL);
	CHECK(strstr(x.log, "T 7000000 200 b run") != NULL);
	CHECK(strstr(x.log, "L 3000000 7000000 2 wakeup") != NULL);
	sc_done(&x);
}

/*
 * Relative: b's irq sleep keeps its recorded 2 ms: b reaches it at 9,
 * sleeps to 11 (cpu idle), runs 11-12.
 */
static void test_d1_relative(void)
{
	struct scen sc = { .ntasks = 0 };
	struct sr_sim_opts o = { .cpus = 1, .check = true,
				 .external = SR_EXTERNAL_RELATIVE };
	struct sc_run x;
	const struct sr_task_metrics *m;
	sr_tid a, b;

	scen_d1(&sc, &a, &b);
	sc_replay(&x, &sc, &rr_policy, &o, 0, NULL, 10 * MS);
	CHECK_INT(x.rc, SR_OK);
	if (x.rc) {
		sc_done(&x);
		return;
	}
	m = sc_metrics(&x, b);
	CHECK_INT(m->runtime_ns, 4 * MS);
	CHECK_INT(sr_delays_count(m->delays), 3);
	CHECK_INT(m->max_delay_ns, 4 * MS);
	CHECK_INT(sr_sim_task(x.sim, b)->late_wakeups, 0);
	CHECK_INT(sr_sim_task(x.sim, b)->finish_ts, 12 * MS);
	CHECK(strstr(x.log, "T 11000000 200 b wake") != NULL);
	sc_done(&x);
}

/*
 * The same replay whatever the pauses: the input fed 1, 2, 3 or 7 events
 * at a time gives the very same rows as all at once.
 */
static void test_pauses_do_not_matter(void)
{
	static const size_t steps[] = { 1, 2, 3, 7 };
	struct scen sc = { .ntasks = 0 };
	struct sc_run ref, x;
	sr_tid a, b;

	scen_d1(&sc, &a, &b);
	for (int rel = 0; rel < 2; rel++) {
		struct sr_sim_opts o = { .cpus = 1, .check = true,
					 .external = rel ? SR_EXTERNAL_RELATIVE
							 : SR_EXTERNAL_ABSOLUTE };

		sc_replay(&ref, &sc, &rr_policy, &o, 0, NULL, 10 * MS);
		CHECK_INT(ref.rc, SR_OK);
		for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
			CHECK_CTX("relative %d, step %zu", rel, steps[i]);
			sc_replay(&x, &sc, &rr_policy, &o, steps[i], NULL,
				  10 * MS);
			CHECK_INT(x.rc, SR_OK);
			CHECK(x.log && ref.log && !strcmp(x.log, ref.log));
			sc_done(&x);
		}
		sc_done(&ref);
	}
}

/*
 * A wake that comes before its target has gone to sleep is kept: a (cpu 0)
 * runs 0-10 and wakes b at 6 out of the sleep b began at 5 on cpu 1.  On
 * one cpu a runs first (0-10, RR slice 10), so its wake at 6 finds b not
 * yet asleep; b then runs 10-15, reaches that sleep, does not sleep, runs
 * its last 2 ms: done at 17, never lost.
 */
static void test_pending_wake(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid i0 = sc_task(&sc, 0, "swapper/0"), i1 = sc_task(&sc, 0,
								"swapper/1");
	sr_tid a = sc_task(&sc, 100, "a"), b = sc_task(&sc, 200, "b");
	struct sc_run x;

	sc_switch(&sc, 0, 0, i0, 'R', a);
	sc_switch(&sc, 0, 1, i1, 'R', b);
	sc_switch(&sc, 5 * MS, 1, b, 'S', i1);
	sc_wake(&sc, 6 * MS, 0, b, a, 0);
	sc_switch(&sc, 6 * MS, 1, i1, 'R', b);
	sc_switch(&sc, 8 * MS, 1, b, 'S', i1);
	sc_switch(&sc, 10 * MS, 0, a, 'S', i0);
	for (size_t step = 0; step < 3; step++) {
		CHECK_CTX("step %zu", step);
		sc_replay(&x, &sc, &rr_policy, NULL, step, NULL, 10 * MS);
		CHECK_INT(x.rc, SR_OK);
		if (x.rc) {
			fprintf(stderr, "%s\n", x.d.msg);
			sc_done(&x);
			continue;
		}
		CHECK_INT(sr_sim_task(x.sim, b)->early_wakes, 1);
		CHECK_INT(sr_sim_task(x.sim, b)->cpu_ns, 7 * MS);
		CHECK_INT(sr_sim_task(x.sim, b)->finish_ts, 17 * MS);
		CHECK_INT(sc_metrics(&x, b)->max_delay_ns, 10 * MS);
		sc_done(&x);
	}
}

/*
 * Fork and exit: sh runs 2 ms, forks kid (RR: child to the tail, parent
 * rescheduled but alone at the head... the parent stays first), sh runs
 * 1 more ms and waits for kid; kid runs 3 ms, wakes sh, exits after 1 ms.
 */
static void test_fork_exit(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid idle = sc_task(&sc, 0, "swapper/0");
	sr_tid sh = sc_task(&sc, 10, "sh"), kid = sc_task(&sc, 11, "kid");
	struct sc_run x;

	sc_switch(&sc, 0, 0, idle, 'R', sh);
	sc_fork(&sc, 2 * MS, 0, sh, kid);
	sc_switch(&sc, 3 * MS, 0, sh, 'S', kid);
	sc_simple(&sc, 6 * MS, 0, SR_EV_EXIT, kid, SR_TID_NONE, 0);
	sc_wake(&sc, 6 * MS, 0, sh, kid, 0);
	sc_switch(&sc, 7 * MS, 0, kid, 'X', sh);
	sc_switch(&sc, 8 * MS, 0, sh, 'S', idle);
	sc_replay(&x, &sc, &rr_policy, NULL, 1, NULL, 8 * MS);
	CHECK_INT(x.rc, SR_OK);
	if (x.rc) {
		fprintf(stderr, "%s\n", x.d.msg);
		sc_done(&x);
		return;
	}
	/*
	 * RR fork: the child goes to the tail and the parent reschedules;
	 * sh is at the head so it goes on: sh 0-3, kid 3-7 (fork delay 1 ms,
	 * from 2 to 3), sh 7-8.
	 */
	CHECK(strstr(x.log, "T 2000000 11 kid fork") != NULL);
	CHECK(strstr(x.log, "L 2000000 3000000 2 fork") != NULL);
	CHECK(strstr(x.log, "T 7000000 11 kid exit") != NULL);
	CHECK(strstr(x.log, "T 7000000 11 kid reap") != NULL);
	CHECK_INT(sr_sim_task(x.sim, kid)->finish_ts, 7 * MS);
	CHECK_INT(sc_metrics(&x, kid)->runtime_ns, 4 * MS);
	CHECK_INT(sc_metrics(&x, sh)->runtime_ns, 4 * MS);
	sc_done(&x);
}

/* A context-switch cost delays each task's start but not its CPU use. */
static void test_cs_cost(void)
{
	struct scen sc = { .ntasks = 0 };
	struct sr_sim_opts o = { .cpus = 1, .check = true,
				 .cs_cost_ns = 100000 };
	struct sc_run x;
	sr_tid a, b;

	scen_d1(&sc, &a, &b);
	sc_replay(&x, &sc, &rr_policy, &o, 2, NULL, 10 * MS);
	CHECK_INT(x.rc, SR_OK);
	if (x.rc) {
		sc_done(&x);
		return;
	}
	/* b: 0-1.1 (0.1 switching), a: 1.1-7.2, b: 7.2-10.3 */
	CHECK_INT(sr_sim_task(x.sim, a)->cpu_ns, 6 * MS);
	CHECK_INT(sr_sim_task(x.sim, b)->cpu_ns, 4 * MS);
	CHECK_INT(sr_sim_task(x.sim, a)->finish_ts, 7200000);
	CHECK_INT(sr_sim_task(x.sim, b)->finish_ts, 10300000);
	sc_done(&x);
}

/* 0 and more than SR_SIM_MAX_CPUS CPUs are refused, and so is SMP for a
   policy without the balancer's hooks (rr-test). */
static void test_cpus_refused(void)
{
	static const struct { int cpus; const char *msg; } cases[] = {
		{ 0, "--cpus 0: expected 1 to 1024" },
		{ SR_SIM_MAX_CPUS + 1, "--cpus 1025: expected 1 to 1024" },
		{ 2, "policy rr-test runs on one CPU only" },
	};
	struct scen sc = { .ntasks = 0 };
	struct sr_demand_opts dopts = { .task_get = sc_get, .task_ctx = &sc,
					.nconsumers = 1 };
	struct sr_demand *dm;

	CHECK_INT(sr_demand_new(&dm, &dopts, &(struct sr_diag)SR_DIAG_INIT),
		  SR_OK);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sr_sim_opts o = { .policy = &rr_policy,
					 .cpus = cases[i].cpus };
		struct sr_diag d = SR_DIAG_INIT;
		struct sr_sim *s = NULL;

		CHECK_CTX("cpus %d", cases[i].cpus);
		CHECK_INT(sr_sim_new(&s, &o, dm, 0, NULL, &d), SR_EUSAGE);
		CHECK(strstr(d.msg, cases[i].msg) != NULL);
		CHECK(s == NULL);
	}
	sr_demand_free(dm);
}

/* A 25 ms hog alone: 25 ticks, RR requeues it at 10 and 20 (no switch). */
static void test_hog_ticks(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid idle = sc_task(&sc, 0, "swapper/0");
	sr_tid hog = sc_task(&sc, 5, "hog");
	struct sr_sim_stats st;
	struct sc_run x;

	sc_switch(&sc, 500000, 0, idle, 'R', hog);
	sc_switch(&sc, 25500000, 0, hog, 'S', idle);
	sc_replay(&x, &sc, &rr_policy, NULL, 1, NULL, 30 * MS);
	CHECK_INT(x.rc, SR_OK);
	sr_sim_stats(x.sim, &st);
	CHECK_INT(st.ticks, 25);   /* 1, 2, ..., 25 ms */
	CHECK_INT(st.switches, 2); /* idle -> hog -> idle */
	CHECK(strstr(x.log, "T 10000000 5 hog requeue 120 10") != NULL);
	CHECK(strstr(x.log, "T 20000000 5 hog requeue 120 10") != NULL);
	CHECK_INT(sr_sim_task(x.sim, hog)->finish_ts, 25500000);
	sc_done(&x);
}

int main(void)
{
	test_d1_absolute();
	test_d1_relative();
	test_pauses_do_not_matter();
	test_pending_wake();
	test_fork_exit();
	test_cs_cost();
	test_cpus_refused();
	test_hog_ticks();
	return test_done("test-sim");
}
