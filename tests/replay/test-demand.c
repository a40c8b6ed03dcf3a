/*
 * test-demand: demand extraction from hand-built event sequences: bursts
 * across preemptions, causal and external wakes, first sight, forks,
 * exec, exit, --exclude, and freeing what every consumer has read.
 * Expected programs are worked out by hand in the comments.
 */
#include "tests/lib/test.h"
#include "tests/replay/scen.h"

/* The program of a task as text: "run 2 wake:2/0 run 4 block0:never". */
static const char *prog(struct sr_demand *dm, sr_tid id)
{
	static char buf[1024];
	size_t n = 0;

	buf[0] = 0;
	for (uint64_t i = 0;; i++) {
		const struct sr_op *op = sr_demand_op(dm, id, i);
		static const char *const ends[] = { "open", "causal", "ext",
						    "never" };

		if (!op)
			break;
		if (n)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, " ");
		switch (op->kind) {
		case SR_OP_RUN:
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "run %lld", (long long)op->a);
			break;
		case SR_OP_WAKE:
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "wake:%u/%lld", op->task,
					      (long long)op->a);
			break;
		case SR_OP_FORK:
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "fork:%u", op->task);
			break;
		case SR_OP_COMM:
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "comm:%s",
					      sr_demand_comm(dm, op->task));
			break;
		case SR_OP_BLOCK:
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "block%u:%s", op->task,
					      ends[op->end]);
			if (op->end == SR_BLOCK_EXTERNAL)
				n += (size_t)snprintf(buf + n, sizeof(buf) - n,
						      "@%lld",
						      (long long)op->b);
			break;
		case SR_OP_NICE:
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "nice:%lld", (long long)op->a);
			break;
		case SR_OP_SETSCHED:
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      "setsched:%lld/%lld",
					      (long long)op->a, (long long)op->b);
			break;
		default:
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s",
					      sr_op_kind_name(op->kind));
			break;
		}
	}
	return buf;
}

static struct sr_demand *extract(const struct scen *sc, const char *exclude,
				 int64_t t_end)
{
	struct sr_demand_opts o = { .exclude = exclude, .task_get = sc_get,
				    .task_ctx = sc, .nconsumers = 1 };
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_demand *dm;

	if (sr_demand_new(&dm, &o, &d))
		return NULL;
	for (size_t i = 0; i < sc->nev; i++)
		if (sr_demand_event(dm, &sc->ev[i], &d))
			return NULL;
	if (sr_demand_finish(dm, t_end, &d))
		return NULL;
	return dm;
}

/* Units of 1 ms keep the expected programs readable: run 2000000 = 2 ms. */
static void test_bursts_and_wakes(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid idle = sc_task(&sc, 0, "swapper/0");
	sr_tid a = sc_task(&sc, 100, "a"), b = sc_task(&sc, 200, "b");
	struct sr_demand *dm;
	const struct sr_arrival *ar;

	/*
	 * b runs 0-1, sleeps; a runs 1-4, waking b at 3 (causal, at 2 ms of
	 * a's CPU); a preempted at 4 (no split); b runs 4-6, sleeps; a runs
	 * 6-9, blocks at 9; irq wakes b at 8; b runs 9-10; end at 10.
	 */
	sc_switch(&sc, 0, 0, idle, 'R', b);
	sc_switch(&sc, 1 * MS, 0, b, 'S', a);
	sc_wake(&sc, 3 * MS, 0, b, a, 0);
	sc_switch(&sc, 4 * MS, 0, a, 'R', b);
	sc_switch(&sc, 6 * MS, 0, b, 'S', a);
	sc_wake(&sc, 8 * MS, 0, b, SR_TID_NONE, SR_WS_HARDIRQ);
	sc_switch(&sc, 9 * MS, 0, a, 'S', b);
	dm = extract(&sc, NULL, 10 * MS);
	CHECK(dm != NULL);
	if (!dm)
		return;
	CHECK_STR(prog(dm, b), "run 1000000 block0:causal run 2000000 "
		  "block1:ext@8000000 run 1000000 end");
	CHECK_STR(prog(dm, a), "run 2000000 wake:2/0 run 4000000 "
		  "block0:never");
	/* arrivals: b at 0 (first switch in), a at 1 ms */
	ar = sr_demand_arrival(dm, 0);
	CHECK(ar && ar->task == b && ar->ts == 0);
	ar = sr_demand_arrival(dm, 1);
	CHECK(ar && ar->task == a && ar->ts == 1 * MS);
	CHECK(sr_demand_arrival(dm, 2) == NULL);
	CHECK_INT(sr_demand_task(dm, a)->cpu_ns, 6 * MS);
	CHECK_INT(sr_demand_task(dm, b)->cpu_ns, 4 * MS);
	CHECK_INT(sr_demand_task(dm, a)->finish_ts, 9 * MS);
	CHECK_INT(sr_demand_task(dm, b)->finish_ts, 10 * MS);
	CHECK(sr_demand_task(dm, idle) == NULL);
	sr_demand_free(dm);
}

/*
 * A task running when the trace starts (first seen switching out) ran
 * since the first event on its cpu; its run is its first burst.  Two cpus:
 * the hog on cpu 1 from the cpu's first event at 2 ms to its switch-out.
 */
static void test_first_sight_running(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid idle0 = sc_task(&sc, 0, "swapper/0");
	sr_tid idle1 = sc_task(&sc, 0, "swapper/1");
	sr_tid hog = sc_task(&sc, 300, "hog"), x = sc_task(&sc, 400, "x");
	struct sr_demand *dm;

	sc_switch(&sc, 1 * MS, 0, idle0, 'R', x);
	sc_wake(&sc, 2 * MS, 1, x, hog, 0);           /* x running: ignored */
	sc_switch(&sc, 5 * MS, 1, hog, 'R', idle1);   /* hog ran 2..5 */
	sc_switch(&sc, 6 * MS, 0, x, 'D', idle0);
	sc_switch(&sc, 7 * MS, 1, idle1, 'R', hog);
	dm = extract(&sc, NULL, 8 * MS);
	CHECK(dm != NULL);
	if (!dm)
		return;
	CHECK_STR(prog(dm, hog), "run 4000000 end");
	CHECK_STR(prog(dm, x), "run 5000000 block0:never");
	CHECK_INT(sr_demand_task(dm, hog)->cpu_ns, 4 * MS);
	sr_demand_free(dm);
}

/*
 * Fork at a point of the parent's CPU time; the child's first run; exec
 * keeps the task (a COMM op); exit ends the program at the last switch.
 * A wake before the target went to sleep (stamped earlier) is ignored, and
 * a switch-in with no wake ends a sleep as an unknown external wake.
 */
static void test_fork_exec_exit(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid idle = sc_task(&sc, 0, "swapper/0");
	sr_tid sh = sc_task(&sc, 10, "sh"), kid = sc_task(&sc, 11, "sh");
	sr_tid kid2;
	struct sr_demand *dm;

	sc_switch(&sc, 0, 0, idle, 'R', sh);
	sc_fork(&sc, 2 * MS, 0, sh, kid);
	sc_switch(&sc, 3 * MS, 0, sh, 'S', kid);
	kid2 = sc_exec_rec(&sc, kid, "make");
	sc_simple(&sc, 4 * MS, 0, SR_EV_EXEC, kid, kid2, 0);
	sc_simple(&sc, 6 * MS, 0, SR_EV_EXIT, kid2, SR_TID_NONE, 0);
	sc_wake(&sc, 6 * MS, 0, sh, kid2, 0);
	sc_switch(&sc, 7 * MS, 0, kid2, 'X', sh);
	sc_switch(&sc, 8 * MS, 0, sh, 'S', idle);
	sc_switch(&sc, 9 * MS, 0, idle, 'R', sh);  /* no wake seen */
	dm = extract(&sc, NULL, 10 * MS);
	CHECK(dm != NULL);
	if (!dm)
		return;
	CHECK_STR(prog(dm, sh), "run 2000000 fork:2 run 1000000 "
		  "block0:causal run 1000000 block1:ext@9000000 "
		  "run 1000000 end");
	CHECK_STR(prog(dm, kid), "run 1000000 comm:make run 2000000 "
		  "wake:1/0 run 1000000 exit");
	CHECK(sr_demand_task(dm, kid)->forked);
	CHECK_INT(sr_demand_task(dm, kid)->parent, sh);
	CHECK(sr_demand_task(dm, kid2) == NULL); /* same task as kid */
	CHECK_STR(sr_demand_last_comm(dm, kid), "make");
	CHECK(sr_demand_arrival(dm, 1) == NULL); /* only sh arrives */
	sr_demand_free(dm);
}

/*
 * --exclude: perf and its wakes are left out; a wake by a left-out task is
 * external; a child forked by a left-out parent arrives at its fork; a
 * left-out task that execs into a kept name enters then, running.
 */
static void test_exclude(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid idle = sc_task(&sc, 0, "swapper/0");
	sr_tid perf = sc_task(&sc, 50, "perf"), w = sc_task(&sc, 51, "perf");
	sr_tid x = sc_task(&sc, 60, "x"), w2;
	struct sr_demand *dm;
	const struct sr_arrival *ar;

	sc_switch(&sc, 0, 0, idle, 'R', x);
	sc_switch(&sc, 1 * MS, 0, x, 'S', perf);
	sc_wake(&sc, 2 * MS, 0, x, perf, 0);          /* perf wakes x */
	sc_fork(&sc, 2 * MS, 0, perf, w);
	sc_switch(&sc, 3 * MS, 0, perf, 'S', w);
	w2 = sc_exec_rec(&sc, w, "work");
	sc_simple(&sc, 4 * MS, 0, SR_EV_EXEC, w, w2, 0);
	sc_switch(&sc, 5 * MS, 0, w2, 'S', x);
	dm = extract(&sc, "^perf$", 6 * MS);
	CHECK(dm != NULL);
	if (!dm)
		return;
	CHECK(sr_demand_task(dm, perf) == NULL);
	CHECK(!sr_demand_included(dm, perf));
	CHECK(sr_demand_included(dm, w));
	CHECK_STR(prog(dm, x), "run 1000000 block0:ext@2000000 run 1000000 "
		  "end");
	/* w enters at its exec (4 ms), running: 1 ms, then asleep */
	CHECK_STR(prog(dm, w), "run 1000000 block0:never");
	ar = sr_demand_arrival(dm, 1);
	CHECK(ar && ar->task == w && ar->ts == 4 * MS);
	sr_demand_free(dm);
	/* a bad pattern is a usage error naming it */
	{
		struct sr_demand_opts o = { .exclude = "(perf",
					    .task_get = sc_get,
					    .task_ctx = &sc };
		struct sr_diag d = SR_DIAG_INIT;

		CHECK_INT(sr_demand_new(&dm, &o, &d), SR_EUSAGE);
		CHECK(strstr(d.msg, "--exclude '(perf'") != NULL);
	}
}

/*
 * CPU from charges (sched_stat_runtime): once a task is charged its CPU is
 * what the trace charges, with the time since the last charge placing an
 * op between charges.  a (cpu 0) runs from 0; its first charge at 2 ms is
 * 2.5 ms (it ran before the trace); it wakes b at 3 ms: 2.5 + 1 = 3.5 ms
 * into its CPU; charged 0.2 ms more by its switch-out at 4 ms: 3.7 ms in
 * all.  x (cpu 1) is charged at 3 ms while we had it asleep on an idle cpu:
 * its wake and switch-in were lost; the charge (0.5 ms) says it ran from
 * 2.5 ms, so its sleep ended then.
 */
static void test_charges(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid i0 = sc_task(&sc, 0, "swapper/0"), i1 = sc_task(&sc, 0,
								"swapper/1");
	sr_tid i2 = sc_task(&sc, 0, "swapper/2");
	sr_tid a = sc_task(&sc, 100, "a"), b = sc_task(&sc, 200, "b");
	sr_tid x = sc_task(&sc, 300, "x");
	struct sr_demand *dm;

	sc_switch(&sc, 0, 0, i0, 'R', a);
	sc_switch(&sc, 0, 1, i1, 'R', x);
	sc_switch(&sc, 0, 2, i2, 'R', b);
	sc_switch(&sc, 500000, 2, b, 'S', i2);
	sc_switch(&sc, 1 * MS, 1, x, 'S', i1);
	sc_simple(&sc, 2 * MS, 0, SR_EV_RUNTIME, a, SR_TID_NONE, 2500000);
	sc_wake(&sc, 3 * MS, 0, b, a, 0);
	sc_simple(&sc, 3 * MS, 1, SR_EV_RUNTIME, x, SR_TID_NONE, 500000);
	sc_simple(&sc, 4 * MS, 0, SR_EV_RUNTIME, a, SR_TID_NONE, 1200000);
	sc_switch(&sc, 4 * MS, 0, a, 'S', i0);
	sc_switch(&sc, 4 * MS, 1, x, 'S', i1);
	dm = extract(&sc, NULL, 5 * MS);
	CHECK(dm != NULL);
	if (!dm)
		return;
	CHECK_STR(prog(dm, a), "run 3500000 wake:4/0 run 200000 block0:never");
	CHECK_STR(prog(dm, b), "run 500000 block0:causal end");
	/*
	 * x's charge at 3 ms says it ran since 2.5 ms, but the wake it
	 * implies is put no earlier than the event read before (3 ms): the
	 * simulators may already be past 2.5 ms (docs/replay.md).
	 */
	CHECK_STR(prog(dm, x), "run 1000000 block0:ext@3000000 run 500000 "
		  "block1:never");
	CHECK_INT(sr_demand_task(dm, a)->cpu_ns, 3700000);
	sr_demand_free(dm);
}

/*
 * Missing switch events: the task on a cpu is contradicted by another
 * shown running there (a waker, a switch-out): the first left unseen at
 * that moment, the second runs from then.  Here t (cpu 0) is switched in
 * at 1 ms and never out; u wakes v on cpu 0 at 3 ms: t ran 1-3 ms, u runs
 * from 3 ms (to its switch-out at 4 ms).  Cpu 0 then idles with t not
 * back: t was asleep from 3 ms (test_left_unseen), never woken.
 */
static void test_missing_switch(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid i0 = sc_task(&sc, 0, "swapper/0");
	sr_tid t = sc_task(&sc, 10, "t"), u = sc_task(&sc, 20, "u");
	sr_tid v = sc_task(&sc, 30, "v");
	struct sr_demand *dm;

	sc_switch(&sc, 0, 0, i0, 'R', u);
	sc_switch(&sc, 500000, 0, u, 'R', v);
	sc_switch(&sc, 600000, 0, v, 'S', i0);
	sc_switch(&sc, 1 * MS, 0, i0, 'R', t);
	sc_wake(&sc, 3 * MS, 0, v, u, 0);
	sc_switch(&sc, 4 * MS, 0, u, 'S', i0);
	dm = extract(&sc, NULL, 5 * MS);
	CHECK(dm != NULL);
	if (!dm)
		return;
	CHECK_STR(prog(dm, t), "run 2000000 block0:never");
	CHECK_STR(prog(dm, u), "run 500000 wake:3/0 run 1000000 "
		  "block0:never");
	CHECK_STR(prog(dm, v), "run 100000 block0:causal end");
	sr_demand_free(dm);
}

/*
 * A task that left its cpu unseen: asleep or preempted is decided by what
 * comes next (docs/replay.md, "Missing events").  Two cpus, no charges.
 *  - a: cpu 0 from 0; at 2 ms cpu 0 switches from idle to b: a left at 2
 *    and the cpu idled after it, so a was asleep from 2; an interrupt
 *    wakes it at 5, it runs 5-6 and sleeps (never woken):
 *    run 2 block0:ext@5 run 1 block1:never.
 *  - c: cpu 1 from 0; d shown on cpu 1 at 1 (it forks e): c left at 1,
 *    not known how; an interrupt wakes c at 2: asleep from 1; d switches
 *    out to c at 2, c sleeps at 3: run 1 block0:ext@2 run 1 block1:never.
 *    d: ran 1-2, asleep: fork:e run 1 block0:never.
 *  - f: cpu 1 from 4; g shown switching out there at 5 (f left at 5),
 *    then f switched in again with no wake: it was preempted, one burst
 *    4-5 and 5-7, then sleeps: run 3 block0:never.
 *  - h: cpu 0 from 10; k shown there at 11 (forks m; h left); h migrated to cpu 1
 *    at 12; cpu 0 idles at 13 (k sleeps), which says nothing of h now on
 *    cpu 1; cpu 1, idle since 7, switches to h at 14 with no wake: its
 *    idle began before h came, so h was preempted: one burst, sleeps at
 *    15: run 2 block0:never.  Without its migrate, cpu 0's idle would
 *    have put h asleep at 11.
 *  - n: cpu 1 from 16; p shown there at 17 (it forks q), n left; p
 *    switches to idle at 18: n was asleep from 17: run 1 block0:never.
 */
static void test_left_unseen(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid i0 = sc_task(&sc, 0, "swapper/0");
	sr_tid i1 = sc_task(&sc, 0, "swapper/1");
	sr_tid a = sc_task(&sc, 10, "a"), b = sc_task(&sc, 20, "b");
	sr_tid c = sc_task(&sc, 30, "c"), dd = sc_task(&sc, 40, "d");
	sr_tid e = sc_task(&sc, 50, "e"), f = sc_task(&sc, 60, "f");
	sr_tid g = sc_task(&sc, 70, "g"), h = sc_task(&sc, 80, "h");
	sr_tid k = sc_task(&sc, 90, "k"), m = sc_task(&sc, 100, "m");
	sr_tid n = sc_task(&sc, 110, "n"), p = sc_task(&sc, 120, "p");
	sr_tid q = sc_task(&sc, 130, "q");
	struct sr_event *mig;
	struct sr_demand *dm;
	struct sr_demand_stats st;

	sc_switch(&sc, 0, 0, i0, 'R', a);
	sc_switch(&sc, 0, 1, i1, 'R', c);
	sc_fork(&sc, 1 * MS, 1, dd, e);
	sc_switch(&sc, 2 * MS, 0, i0, 'R', b);
	sc_wake(&sc, 2 * MS, 1, c, SR_TID_NONE, SR_WS_HARDIRQ);
	sc_switch(&sc, 2 * MS, 1, dd, 'S', c);
	sc_switch(&sc, 3 * MS, 0, b, 'S', i0);
	sc_switch(&sc, 3 * MS, 1, c, 'S', i1);
	sc_switch(&sc, 4 * MS, 1, i1, 'R', f);
	sc_wake(&sc, 5 * MS, 0, a, SR_TID_NONE, SR_WS_HARDIRQ);
	sc_switch(&sc, 5 * MS, 0, i0, 'R', a);
	sc_switch(&sc, 5 * MS, 1, g, 'S', f);
	sc_switch(&sc, 6 * MS, 0, a, 'S', i0);
	sc_switch(&sc, 7 * MS, 1, f, 'S', i1);
	sc_switch(&sc, 10 * MS, 0, i0, 'R', h);
	sc_fork(&sc, 11 * MS, 0, k, m);
	sc_simple(&sc, 12 * MS, 0, SR_EV_MIGRATE, h, SR_TID_NONE, 0);
	mig = &sc.ev[sc.nev - 1];
	mig->orig_cpu = 0;
	mig->target_cpu = 1;
	sc_switch(&sc, 13 * MS, 0, k, 'S', i0);
	sc_switch(&sc, 14 * MS, 1, i1, 'R', h);
	sc_switch(&sc, 15 * MS, 1, h, 'S', i1);
	sc_switch(&sc, 16 * MS, 1, i1, 'R', n);
	sc_fork(&sc, 17 * MS, 1, p, q);
	sc_switch(&sc, 18 * MS, 1, p, 'S', i1);
	dm = extract(&sc, NULL, 20 * MS);
	CHECK(dm != NULL);
	if (!dm)
		return;
	CHECK_STR(prog(dm, a), "run 2000000 block0:ext@5000000 run 1000000 "
		  "block1:never");
	CHECK_INT(sr_demand_op(dm, a, 1)->a, 2 * MS); /* asleep from 2 ms */
	CHECK_STR(prog(dm, b), "run 1000000 block0:never");
	CHECK_STR(prog(dm, c), "run 1000000 block0:ext@2000000 run 1000000 "
		  "block1:never");
	CHECK_INT(sr_demand_op(dm, c, 1)->a, 1 * MS);
	CHECK_STR(prog(dm, dd), "fork:6 run 1000000 block0:never");
	CHECK_STR(prog(dm, f), "run 3000000 block0:never");
	CHECK_STR(prog(dm, g), "block0:never");
	CHECK_STR(prog(dm, h), "run 2000000 block0:never");
	CHECK_STR(prog(dm, k), "fork:11 run 2000000 block0:never");
	CHECK_STR(prog(dm, p), "fork:14 run 1000000 block0:never");
	CHECK_STR(prog(dm, n), "run 1000000 block0:never");
	CHECK_INT(sr_demand_op(dm, n, 1)->a, 17 * MS);
	CHECK_INT(sr_demand_task(dm, a)->cpu_ns, 3 * MS);
	CHECK_INT(sr_demand_task(dm, a)->blocks, 2);
	sr_demand_stats(dm, &st);
	CHECK_INT(st.external_wakes, 2);
	sr_demand_free(dm);
}

/*
 * --causal known on a trace without interrupt flags (perf script): a wake
 * the trace gives to an unrelated running task is an interrupt's as far as
 * we can tell (external, at its time); between related tasks it is caused.
 * a and b are unrelated: a's wake of b at 2 ms is external; b then wakes a
 * (a had woken b: a conversation) at 4 ms: causal; p forks c, c wakes p
 * at 7 ms: causal.  Once the trace shows an interrupt as a waker it has
 * the flags, and every task's wake is its own: x wakes b at 11 ms, causal.
 */
static void test_causal_known(void)
{
	struct scen sc = { .ntasks = 0, .guessed = true };
	sr_tid i0 = sc_task(&sc, 0, "swapper/0"), i1 = sc_task(&sc, 0,
								"swapper/1");
	sr_tid a = sc_task(&sc, 100, "a"), b = sc_task(&sc, 200, "b");
	sr_tid p = sc_task(&sc, 300, "p"), c = sc_task(&sc, 301, "p");
	sr_tid x = sc_task(&sc, 400, "x");
	struct sr_demand_opts o = { .task_get = sc_get, .task_ctx = &sc,
				    .nconsumers = 1 };
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_demand_stats st;
	struct sr_demand *dm;

	sc_switch(&sc, 0, 0, i0, 'R', b);
	sc_switch(&sc, 1 * MS, 0, b, 'S', a);
	sc_wake(&sc, 2 * MS, 0, b, a, 0);           /* unrelated: external */
	sc_switch(&sc, 3 * MS, 0, a, 'S', b);
	sc_wake(&sc, 4 * MS, 0, a, b, 0);           /* a woke b: causal */
	sc_switch(&sc, 5 * MS, 0, b, 'S', p);
	sc_fork(&sc, 5 * MS, 0, p, c);
	sc_switch(&sc, 6 * MS, 0, p, 'S', c);
	sc_wake(&sc, 7 * MS, 0, p, c, 0);           /* child wakes parent */
	sc_switch(&sc, 8 * MS, 0, c, 'S', i0);
	sc_wake(&sc, 9 * MS, 1, b, SR_TID_NONE, SR_WS_HARDIRQ);
	sc_switch(&sc, 9 * MS, 1, i1, 'R', b);
	sc_switch(&sc, 9500000, 1, b, 'S', x);
	sc_wake(&sc, 11 * MS, 1, b, x, 0);          /* flags known: causal */
	sc_switch(&sc, 12 * MS, 1, x, 'S', i1);
	CHECK_INT(sr_demand_new(&dm, &o, &d), SR_OK);
	for (size_t i = 0; i < sc.nev; i++)
		CHECK_INT(sr_demand_event(dm, &sc.ev[i], &d), SR_OK);
	CHECK_INT(sr_demand_finish(dm, 13 * MS, &d), SR_OK);
	CHECK_STR(prog(dm, b), "run 1000000 block0:ext@2000000 run 1000000 "
		  "wake:2/0 run 1000000 block1:ext@9000000 run 500000 "
		  "block2:causal end");
	CHECK_STR(prog(dm, p), "fork:5 run 1000000 block0:causal end");
	CHECK_STR(prog(dm, c), "run 1000000 wake:4/0 run 1000000 "
		  "block0:never");
	CHECK_STR(prog(dm, x), "run 1500000 wake:3/2 run 1000000 "
		  "block0:never");
	sr_demand_stats(dm, &st);
	CHECK_INT(st.task_wakes_external, 1);
	sr_demand_free(dm);
	/* all: the first wake is causal too; none: no wake is */
	for (int mode = SR_CAUSAL_ALL; mode <= SR_CAUSAL_NONE; mode++) {
		o.causal = (enum sr_causal_mode)mode;
		CHECK_INT(sr_demand_new(&dm, &o, &d), SR_OK);
		for (size_t i = 0; i < sc.nev; i++)
			CHECK_INT(sr_demand_event(dm, &sc.ev[i], &d), SR_OK);
		CHECK_INT(sr_demand_finish(dm, 13 * MS, &d), SR_OK);
		sr_demand_stats(dm, &st);
		CHECK_INT(st.causal_wakes, mode == SR_CAUSAL_ALL ? 4 : 0);
		sr_demand_free(dm);
	}
}

/* Ops every consumer has passed are freed; the rest are kept. */
static void test_consumers_free(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid idle = sc_task(&sc, 0, "swapper/0");
	sr_tid a = sc_task(&sc, 100, "a");
	struct sr_demand_opts o = { .task_get = sc_get, .task_ctx = &sc,
				    .nconsumers = 2 };
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_demand_stats st;
	struct sr_demand *dm;
	int64_t t = 0;

	CHECK_INT(sr_demand_new(&dm, &o, &d), SR_OK);
	sc_switch(&sc, t, 0, idle, 'R', a);
	for (int i = 0; i < 100; i++) {
		t += MS;
		sc_switch(&sc, t, 0, a, 'S', idle);
		t += MS;
		sc_wake(&sc, t, 0, a, SR_TID_NONE, SR_WS_HARDIRQ);
		sc_switch(&sc, t, 0, idle, 'R', a);
	}
	for (size_t i = 0; i < sc.nev; i++) {
		CHECK_INT(sr_demand_event(dm, &sc.ev[i], &d), SR_OK);
		if (i % 3 == 0) {
			/* consumer 0 keeps up, consumer 1 lags 10 ops */
			uint64_t n;

			sr_demand_stats(dm, &st);
			n = st.ops;
			sr_demand_consumed(dm, 0, a, n);
			sr_demand_consumed(dm, 1, a, n > 10 ? n - 10 : 0);
		}
	}
	sr_demand_stats(dm, &st);
	CHECK_INT(st.ops, 200);
	CHECK(st.peak_held_ops <= 16);
	CHECK(st.held_ops <= 16);
	CHECK_INT(st.external_wakes, 100);
	sr_demand_free(dm);
}

/*
 * Nice and class changes read from the prio fields of later events: h is
 * first seen at prio 120 (nice 0); at 2 ms it is switched out with
 * prev_prio 130 (reniced to 10 meanwhile): a NICE 10 op where its first
 * burst ends; it runs again 3-5 at 130 (no change), sleeps; an irq wakes
 * it at 6 with prio 95: now SCHED_FIFO at rt priority 99 - 95 = 4 (FIFO:
 * its record does not say RR), an op after the sleep it ends; it runs 7-8
 * at 95 (no change).  x (120 throughout) gets none.
 */
static void test_prio_changes(void)
{
	struct scen sc = { .ntasks = 0 };
	sr_tid i0 = sc_task(&sc, 0, "swapper/0");
	sr_tid h = sc_task(&sc, 10, "h"), x = sc_task(&sc, 20, "x");
	struct sr_demand *dm;

	sc_switch(&sc, 0, 0, i0, 'R', h);
	sc.ev[sc.nev - 1].other_prio = 120;
	sc_switch(&sc, 2 * MS, 0, h, 'R', x);
	sc.ev[sc.nev - 1].prio = 130;
	sc.ev[sc.nev - 1].other_prio = 120;
	sc_switch(&sc, 3 * MS, 0, x, 'S', h);
	sc.ev[sc.nev - 1].prio = 120;
	sc.ev[sc.nev - 1].other_prio = 130;
	sc_switch(&sc, 5 * MS, 0, h, 'S', i0);
	sc.ev[sc.nev - 1].prio = 130;
	sc_wake(&sc, 6 * MS, 0, h, SR_TID_NONE, SR_WS_HARDIRQ);
	sc.ev[sc.nev - 1].prio = 95;
	sc_switch(&sc, 7 * MS, 0, i0, 'R', h);
	sc.ev[sc.nev - 1].other_prio = 95;
	sc_switch(&sc, 8 * MS, 0, h, 'S', i0);
	sc.ev[sc.nev - 1].prio = 95;
	dm = extract(&sc, NULL, 8 * MS);
	CHECK(dm != NULL);
	if (!dm)
		return;
	CHECK_STR(prog(dm, h), "run 2000000 nice:10 run 2000000 "
		  "block0:ext@6000000 setsched:1/4 run 1000000 block1:never");
	CHECK_STR(prog(dm, x), "run 1000000 block0:never");
	sr_demand_free(dm);
}

int main(void)
{
	test_prio_changes();
	test_bursts_and_wakes();
	test_first_sight_running();
	test_fork_exec_exit();
	test_exclude();
	test_charges();
	test_missing_switch();
	test_left_unseen();
	test_causal_known();
	test_consumers_free();
	return test_done("test-demand");
}
