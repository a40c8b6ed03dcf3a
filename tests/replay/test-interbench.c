/*
 * test-interbench: the synthetic programs' driver (replay/synth.h) on
 * hand-made programs, and interbench's figures (replay/interbench.h) on
 * two pairs whose answers follow from the rules alone, under every policy
 * of the table.  The derivations are beside the expected values.
 */
#include <math.h>
#include <string.h>

#include "replay/interbench.h"
#include "replay/synth.h"
#include "sched-model/knobs.h"
#include "tests/lib/test.h"

#define MS 1000000LL

/* ---- the driver ------------------------------------------------------------ */

/* A program of a few steps, by a script: what each step does. */
enum { A_BURN, A_SLEEP, A_WAIT, A_POST, A_EXIT, A_WAIT_RAW };

struct act {
	int what;
	int64_t v;                 /* burn ns, sleep until */
	int sem;                   /* wait, post: which */
};

struct prog {
	const struct act *a;
	size_t n, at;
	int64_t seen[16];          /* the time of each step */
	size_t nseen;
	struct sr_synth_sem *sems;
};

static int step(struct sr_synth *sy, uint32_t id, void *p)
{
	struct prog *g = p;

	if (g->nseen < 16)
		g->seen[g->nseen++] = sr_synth_now(sy);
	while (g->at < g->n) {
		const struct act *a = &g->a[g->at++];

		switch (a->what) {
		case A_BURN:
			sr_synth_burn(sy, id, a->v);
			return 0;
		case A_SLEEP:
			if (sr_synth_sleep_until(sy, id, a->v))
				return 0;
			break;
		case A_WAIT:
			/* a wait starts a step of its own */
			if (!sr_synth_fresh(sy) && !g->sems[a->sem].count) {
				g->at--;
				return 0;
			}
			/* fall through */
		case A_WAIT_RAW:
			if (sr_synth_wait(sy, id, &g->sems[a->sem]))
				return 0;
			break;
		case A_POST:
			sr_synth_post(sy, id, &g->sems[a->sem]);
			break;
		case A_EXIT:
			sr_synth_exit(sy, id);
			return 0;
		}
	}
	return 0;
}

static struct sr_diag run_err;

static int run_progs(const char *policy, struct prog *p, size_t n,
		     int64_t *end)
{
	struct sm_tuning t;
	struct sm_sched *s;
	struct sr_synth *sy;
	struct sr_synth_opts o = { .cpus = 1, .check = true };
	uint32_t id;
	int rc;

	run_err.code = SR_OK;
	run_err.msg[0] = '\0';
	if (sm_tuning_parse(&t, policy, &run_err) ||
	    sm_tuning_finish(&t, &run_err))
		return run_err.code;
	s = sm_sched_new(t.policy, &t);
	o.policy = t.policy;
	o.sched = s;
	if ((rc = sr_synth_new(&sy, &o, &run_err)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		char name[8];

		snprintf(name, sizeof(name), "p%zu", i);
		if ((rc = sr_synth_spawn(sy, &(struct sr_synth_task){
				.comm = name, .step = step, .prog = &p[i] },
				0, &id, &run_err)))
			goto out;
	}
	rc = sr_synth_run(sy, &run_err);
	if (end) {
		struct sr_sim_stats st;

		sr_sim_stats(sr_synth_sim(sy), &st);
		*end = st.end;
	}
out:
	sr_synth_free(sy);
	sm_sched_free(s);
	return rc;
}

/*
 * A ping-pong on one CPU: a burns 2 ms, posts b and waits; b waits, burns
 * 3 ms, posts a and exits; a burns 1 ms and exits.  Both arrive at 0, a
 * first.  If a runs first: 0-2 a; its post finds b not waiting yet
 * (counted), its wait blocks; b takes the count at 2 without sleeping,
 * runs 2-5, posts a; a runs 5-6.  If b runs first, it blocks at once and
 * a's post at 2 wakes it: the same times.  Either way a steps at 0, 2, 5
 * and 6, b's burn starts at 2, and the run ends at 6 ms.
 */
static void test_pingpong(void)
{
	static const struct act a[] = {
		{ A_BURN, 2 * MS, 0 }, { A_POST, 0, 1 }, { A_WAIT, 0, 0 },
		{ A_BURN, 1 * MS, 0 }, { A_EXIT, 0, 0 },
	};
	static const struct act b[] = {
		{ A_WAIT, 0, 1 }, { A_BURN, 3 * MS, 0 }, { A_POST, 0, 0 },
		{ A_EXIT, 0, 0 },
	};
	static const char *const pols[] = { "stock", "o11int", "2.4", "cfs",
					    "eevdf" };

	for (size_t i = 0; i < sizeof(pols) / sizeof(*pols); i++) {
		struct sr_synth_sem sems[2] = { { 0 }, { 0 } };
		struct prog p[2] = {
			{ .a = a, .n = 5, .sems = sems },
			{ .a = b, .n = 4, .sems = sems },
		};
		int64_t end = 0;

		CHECK_CTX("ping-pong under %s", pols[i]);
		CHECK_INT(run_progs(pols[i], p, 2, &end), 0);
		CHECK_INT(end, 6 * MS);
		CHECK_INT(p[0].seen[0], 0);
		CHECK_INT(p[0].seen[1], 2 * MS);
		CHECK_INT(p[0].seen[p[0].nseen - 2], 5 * MS);
		CHECK_INT(p[0].seen[p[0].nseen - 1], 6 * MS);
		/* b's last two steps: its burn at 2, its post at 5 */
		CHECK_INT(p[1].seen[p[1].nseen - 2], 2 * MS);
		CHECK_INT(p[1].seen[p[1].nseen - 1], 5 * MS);
		sr_synth_sem_free(&sems[0]);
		sr_synth_sem_free(&sems[1]);
	}
	test_ctx[0] = '\0';
}

/* A sleep is woken at its time exactly; one that is not in the future
   (now itself, or past) is no sleep: the step goes on.  Ends at 9: burns
   0-1, sleeps to 8, burns 8-9; steps at 0, 1, 8 and 9. */
static void test_sleep(void)
{
	static const struct act a[] = {
		{ A_BURN, 1 * MS, 0 }, { A_SLEEP, 1 * MS, 0 },
		{ A_SLEEP, 8 * MS, 0 }, { A_SLEEP, 3 * MS, 0 },
		{ A_BURN, 1 * MS, 0 }, { A_EXIT, 0, 0 },
	};
	struct prog p = { .a = a, .n = 6 };
	int64_t end = 0;

	CHECK_INT(run_progs("stock", &p, 1, &end), 0);
	CHECK_INT(end, 9 * MS);
	CHECK_INT(p.nseen, 4);
	CHECK_INT(p.seen[2], 8 * MS);
}

/* Two programs that wait for each other: an error, not a hang. */
static void test_deadlock(void)
{
	static const struct act a[] = { { A_WAIT, 0, 0 }, { A_EXIT, 0, 0 } };
	static const struct act b[] = { { A_WAIT, 0, 1 }, { A_EXIT, 0, 0 } };
	struct sr_synth_sem sems[2] = { { 0 }, { 0 } };
	struct prog p[2] = { { .a = a, .n = 2, .sems = sems },
			     { .a = b, .n = 2, .sems = sems } };

	CHECK_INT(run_progs("stock", p, 2, NULL), SR_EINTERNAL);
	CHECK(strstr(run_err.msg, "wait for each other") != NULL);
	sr_synth_sem_free(&sems[0]);
	sr_synth_sem_free(&sems[1]);
}

/*
 * A wait after other ops in one step is refused: the post would come
 * between the decision and the sleep.  b runs first and blocks; a burns
 * 1 ms, posts b (an op: b waits) and then waits in the same step.
 */
static void test_wait_first(void)
{
	static const struct act a[] = {
		{ A_BURN, 1 * MS, 0 }, { A_POST, 0, 1 }, { A_WAIT_RAW, 0, 0 },
		{ A_EXIT, 0, 0 },
	};
	static const struct act b[] = { { A_WAIT, 0, 1 }, { A_EXIT, 0, 0 } };
	struct sr_synth_sem sems[2] = { { 0 }, { 0 } };
	struct prog p[2] = { { .a = b, .n = 2, .sems = sems },
			     { .a = a, .n = 4, .sems = sems } };

	CHECK_INT(run_progs("stock", p, 2, NULL), SR_EINTERNAL);
	CHECK(strstr(run_err.msg, "a wait after other ops") != NULL);
	sr_synth_sem_free(&sems[0]);
	sr_synth_sem_free(&sems[1]);
}

/* ---- interbench's figures ---------------------------------------------------- */

static int ib(const char *policy, int task, int load, int nice_load,
	      int64_t duration, struct sr_ib_result *r)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sm_tuning t;
	struct sr_ib_spec sp = {
		.task = task, .load = load, .tuning = &t, .cpus = 1,
		.duration_ns = duration, .nice_load = nice_load, .seed = 1,
	};
	int rc;

	if (sm_tuning_parse(&t, policy, &d) || sm_tuning_finish(&t, &d))
		return d.code;
	rc = sr_ib_run(&sp, r, &d);
	if (rc)
		fprintf(stderr, "%s: %s\n", policy, d.msg);
	return rc;
}

/*
 * Audio under None on one CPU, 30 s: nothing else wants the CPU, so every
 * policy runs it as soon as its timekeeper has posted.  Main posts the
 * benchmark's process at t_bench; that process's thread works IB_GO_NS
 * = 2 us and starts the benchmarked thread, whose first deadline is its
 * start, t0 = t_bench + 2 us.  Each period it burns 2.5 ms of its 50 ms
 * and sleeps to the next deadline, where its timekeeper (SCHED_FIFO,
 * woken by the timer) works IB_TK_NS = 2 us and posts it.  Latency: 0 at
 * the first entry (the deadline is the start itself), 2 us after each
 * sleep.  The stop is set at t_bench + 30 s (main, SCHED_FIFO, and the
 * process's thread run at once on the idle CPU); the loop looks at it
 * after each period, so the 600th (ending at t0 + 30 s + 2 us, after the
 * stop) is the last: 600 samples, 600 deadlines met (2.5 ms burned long
 * before each 50 ms deadline), 600 burns, none missed, max 2 us, sum
 * 599 x 2 us.
 */
static void test_audio_none(void)
{
	for (const struct sm_policy *const *p = sm_policies; *p; p++) {
		struct sr_ib_result r;

		CHECK_CTX("Audio under None, %s", (*p)->name);
		CHECK_INT(ib((*p)->name, SR_IB_AUDIO, SR_IB_NONE, 0,
			     30 * SR_IB_S, &r), 0);
		CHECK_INT(r.samples, 600);
		CHECK_INT(r.deadlines_met, 600);
		CHECK_INT(r.deadlines_missed, 0);
		CHECK_INT(r.max_latency, 2000);
		CHECK_INT((int64_t)r.sum_latency, 599 * 2000);
		CHECK_INT((int64_t)r.achieved_burns, 600);
		CHECK_INT((int64_t)r.missed_burns, 0);
		CHECK(sr_ib_desired_cpu(&r) == 100);
		CHECK(sr_ib_deadlines_met(&r) == 100);
	}
	test_ctx[0] = '\0';
}

/*
 * X under None on one CPU, 30 s: alone, as Audio above.  Its loop (i =
 * 0..100: burn i ms with (100 - i) ms to spare, then the deadline moves
 * i ms on) spans 100 ms a step, so 300 steps and the one that sees the
 * stop: 301 samples.  Step 99 burns 99 ms with 1 ms to spare and its
 * wakeup came 2 us after its deadline (the timekeeper): it ends 2 us
 * late, one period missed, latency 1 ms (interbench adds the periods
 * missed); two of them in 30 s (at about 10 s and 20 s).  Step 100 has no
 * interval: no sleep, no deadline counted; two of them.  The first step
 * after each step 0 is woken 2 us after its deadline (the others' deadlines
 * lie i ms after their wakeups): three of them.  So 297 met, 2 missed,
 * max 1 ms, sum 2 ms + 3 x 2 us, every burn done (100 % of the CPU
 * wanted).
 */
static void test_x_none(void)
{
	for (const struct sm_policy *const *p = sm_policies; *p; p++) {
		struct sr_ib_result r;

		CHECK_CTX("X under None, %s", (*p)->name);
		CHECK_INT(ib((*p)->name, SR_IB_X, SR_IB_NONE, 0, 30 * SR_IB_S,
			     &r), 0);
		CHECK_INT(r.samples, 301);
		CHECK_INT(r.deadlines_met, 297);
		CHECK_INT(r.deadlines_missed, 2);
		CHECK_INT(r.max_latency, 1000000);
		CHECK_INT((int64_t)r.sum_latency, 2 * 1000000 + 3 * 2000);
		CHECK(sr_ib_desired_cpu(&r) == 100);
	}
	test_ctx[0] = '\0';
}

/*
 * Gaming under Burn on one CPU, the burners at nice 5, 120 s: Gaming burns
 * 100 ms at a time and never sleeps, so its % of desired CPU (100 ms per
 * burn over the wall time the burn took) is its share of the CPU beside
 * four CPU-bound nice 5 threads.  By the rules:
 *
 *  - O(1) (stock, test2-mm1, O11int and its follow-ups, G3, A3, SCHED_ISO):
 *    every task is a CPU hog, none interactive, so each runs out its
 *    slice once per array switch.  task_timeslice = MIN_TIMESLICE +
 *    (MAX_TIMESLICE - MIN_TIMESLICE) * (MAX_PRIO - 1 - static_prio) /
 *    (MAX_USER_PRIO - 1) = 10 + 190 * 19 / 39 = 102 jiffies at nice 0,
 *    10 + 190 * 14 / 39 = 78 at nice 5 (integer division): the share is
 *    102 / (102 + 4 * 78) = 102 / 414 = 24.64 %.
 *  - 2.4: each epoch gives a task NICE_TO_TICKS(nice) = ((20 - nice) << 1)
 *    + 1 jiffies at HZ 1000: 41 at nice 0, 31 at nice 5, all spent before
 *    the counters are recalculated: 41 / (41 + 4 * 31) = 41 / 165 =
 *    24.85 %.
 *  - CFS, EEVDF: CPU in proportion to the weights, 1024 at nice 0 and 335
 *    at nice 5 (prio_to_weight): 1024 / (1024 + 4 * 335) = 1024 / 2364 =
 *    43.32 %.
 *
 * The run's start (threads born warm from a sleeping parent, interactive
 * for their first second or so) and its last, partial epoch move the share
 * a little: within 0.3 of a point over 120 s (at 30 s, up to 0.7).
 */
static void test_gaming_burn(void)
{
	static const struct {
		const char *policy;
		double share;
	} want[] = {
		{ "stock", 24.64 }, { "test2-mm1", 24.64 }, { "o11int", 24.64 },
		{ "o11.1", 24.64 }, { "o11.2", 24.64 }, { "g3", 24.64 },
		{ "a3", 24.64 }, { "iso", 24.64 }, { "2.4", 24.85 },
		{ "cfs", 43.32 }, { "eevdf", 43.32 }, { "eevdf-6.18", 43.32 },
	};
	size_t n = 0;

	for (const struct sm_policy *const *p = sm_policies; *p; p++)
		n++;
	/* every policy of the table has its derivation here */
	CHECK_INT(n, sizeof(want) / sizeof(*want));
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		struct sr_ib_result r;

		CHECK_CTX("Gaming under Burn at nice 5, %s", want[i].policy);
		CHECK_INT(ib(want[i].policy, SR_IB_GAMING, SR_IB_BURN, 5,
			     120 * SR_IB_S, &r), 0);
		CHECK(fabs(sr_ib_desired_cpu(&r) - want[i].share) < 0.3);
		CHECK(!r.has_deadlines);
		CHECK_INT(r.deadlines_met + r.deadlines_missed, 0);
	}
	test_ctx[0] = '\0';
}

/*
 * interbench's arithmetic (show_latencies): with latencies 0, 2 and 4 ms
 * the mean is 2 and the standard deviation sqrt(((0-2)^2 + 0 + (4-2)^2)
 * / 2) = 2; desired CPU 3 burns of 4 = 75 %; deadlines 1 met of 4 = 25 %,
 * and 0 when none is met.
 */
static void test_figures(void)
{
	struct sr_ib_result r = {
		.samples = 3, .sum_latency = 6e6, .sum_latency2 = 20e12,
		.deadlines_met = 1, .deadlines_missed = 3,
		.achieved_burns = 3, .missed_burns = 1,
	};

	CHECK(fabs(sr_ib_latency_avg(&r) - 2e6) < 1e-3);
	CHECK(fabs(sr_ib_latency_sd(&r) - 2e6) < 1e-3);
	CHECK(fabs(sr_ib_desired_cpu(&r) - 75) < 1e-9);
	CHECK(fabs(sr_ib_deadlines_met(&r) - 25) < 1e-9);
	r.deadlines_met = 0;
	CHECK(sr_ib_deadlines_met(&r) == 0);
	r.samples = 1;
	CHECK(sr_ib_latency_sd(&r) == 0);
}

int main(void)
{
	test_pingpong();
	test_sleep();
	test_deadlock();
	test_wait_first();
	test_figures();
	test_audio_none();
	test_x_none();
	test_gaming_burn();
	return test_done("test-interbench");
}
