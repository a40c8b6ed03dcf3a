/*
 * test-fair: the fair-class models, CFS (2.6.23) and EEVDF (6.6), against
 * hand-derived tables: two nice-0 hogs, a nice-0 and a nice-5 hog (CFS),
 * a light sleeper beside a hog, a fork, and the RT class above them.
 * Times in ms from the start; vruntimes relative to the queue's first
 * min_vruntime (M0, the kernel's -2^20); ticks every ms.
 */
#include "sched-model/fair.h"
#include "sched-model/knobs.h"
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

/*
 * The tables below were worked out with EEVDF's base slice at 3 ms (6.6's
 * on 8 CPUs or more: 0.75 ms x (1 + ilog2(8))).  A lone runqueue counts
 * one CPU, where the kernel's (and the model's) default is 0.75 ms
 * (test_scaling checks that), so EEVDF runs here with base_slice_ns set
 * to 3 ms, as a sysctl written after boot: taken as given.
 */
static struct sm_sched *tuned;

static void fair_init(struct drv *d, const char *name)
{
	const struct sm_policy *p = pol(name);
	struct sm_tuning t;
	struct sr_diag dg = SR_DIAG_INIT;

	tuned = NULL;
	if (sm_knob_find(p, "base_slice_ns") >= 0) {
		sm_tuning_init(&t, p);
		if (sm_tuning_set(&t, "base_slice_ns", "3000000", &dg) ||
		    sm_tuning_finish(&t, &dg) || !(tuned = sm_sched_new(p, &t)))
			exit(2);
	}
	drv_init_sched(d, p, tuned);
}

/* A tuned policy: "POLICY:NAME=VALUE,..." (sched-model/knobs.h). */
static void tuned_init(struct drv *d, const char *spec)
{
	struct sm_tuning t;
	struct sr_diag dg = SR_DIAG_INIT;

	if (sm_tuning_parse(&t, spec, &dg) || sm_tuning_finish(&t, &dg) ||
	    !(tuned = sm_sched_new(t.policy, &t)))
		exit(2);
	drv_init_sched(d, t.policy, tuned);
}

static void fair_free(struct drv *d)
{
	drv_free(d);
	sm_sched_free(tuned);
	tuned = NULL;
}

static struct fair_task *ft(struct drv *d, int i)
{
	return (struct fair_task *)d->task[i].t;
}

/*
 * Two nice-0 hogs A (id 0) and B (id 1), both woken at 0 (placed at M0:
 * CFS's sleeper placement max(M0, M0 - 20 ms); EEVDF's V with no lag,
 * deadline M0 + 3 ms).  A is first (equal keys: the first queued).
 *
 * CFS: the slice is 20 ms * 1024 / 2048 = 10 ms; the tick preempts once
 * the run since the pick is *more* than that: at 11 ms.  Then the
 * leftmost: the other one (vruntime 0 against 11), and at equal vruntime
 * the first queued: 11 ms turns.
 *   A[0,11) B[11,22) A[22,33) B[33,44) A[44,55)
 * EEVDF: A's vruntime reaches its deadline (3) at 3 ms: a new deadline
 * (6) and, with B queued, a resched; V = (3 + 0) / 2 = 1.5: A is not
 * eligible, B is (deadline 3): B runs to its deadline; at 6 both are at
 * 3 with deadline 6: eligible both, B's protection is gone (its deadline
 * moved), the earliest deadline ties and the queued one wins: A.
 *   A[0,3) B[3,6) A[6,9) B[9,12) A[12,15)
 */
static void test_two_hogs(void)
{
	static const struct span cfs[] = {
		{ 0, 0, 11 }, { 1, 11, 22 }, { 0, 22, 33 }, { 1, 33, 44 },
		{ 0, 44, 55 },
	};
	static const struct span eevdf[] = {
		{ 0, 0, 3 }, { 1, 3, 6 }, { 0, 6, 9 }, { 1, 9, 12 },
		{ 0, 12, 15 },
	};
	static const struct {
		const char *policy;
		const struct span *spans;
		size_t n;
		long turn;
	} runs[] = {
		{ "cfs", cfs, sizeof(cfs) / sizeof(cfs[0]), 11 },
		{ "eevdf", eevdf, sizeof(eevdf) / sizeof(eevdf[0]), 3 },
	};

	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		struct drv d;

		fair_init(&d, runs[r].policy);
		drv_add(&d, 0, true, hog, 0);
		drv_add(&d, 0, true, hog, 0);
		drv_run(&d, runs[r].spans[runs[r].n - 1].end * MS);
		check_spans(&d, runs[r].spans, runs[r].n);
		/* steady: the same turns for a second */
		drv_run(&d, 1000 * MS);
		drv_close_runs(&d);
		for (int t = 0; t < 2; t++)
			for (size_t j = 0; j + 1 < d.task[t].nruns; j++) {
				CHECK_CTX("%s task %d run %zu", runs[r].policy,
					  t, j);
				CHECK_INT(d.task[t].runs[j].end -
					  d.task[t].runs[j].start,
					  runs[r].turn * MS);
			}
		fair_free(&d);
	}
}

/*
 * CFS, a nice-0 hog A and a nice-5 hog B (weight 335): the queue weighs
 * 1359; the slices are 20 ms * 1024 / 1359 = 15069904 ns and 20 ms * 335
 * / 1359 = 4930095 ns, so the tick preempts A after 16 ms and B after 5.
 * B's vruntime grows at every tick by calc_delta_mine(1e6, 1024, 335):
 * 1e6 * 1024 fits 32 bits, so (1.024e9 * 12820798 + 2^31) >> 32 =
 * 3056716 ns per ms, 15283580 per 5 ms; A's 1:1.  Leftmost each time:
 *   A[0,16): A 16e6; B[16,21): B 15283580 < A: B again [21,26): 30567160;
 *   A[26,42): 32e6; B[42,47): 45850740; A[47,63): 48e6; B[63,68):
 *   61134320; A[68,84): 64e6; B[84,89): 76417900; A[89,105).
 */
static void test_nice(void)
{
	static const struct span want[] = {
		{ 0, 0, 16 }, { 1, 16, 26 }, { 0, 26, 42 }, { 1, 42, 47 },
		{ 0, 47, 63 }, { 1, 63, 68 }, { 0, 68, 84 }, { 1, 84, 89 },
		{ 0, 89, 105 },
	};
	struct drv d;
	uint64_t m0;

	fair_init(&d, "cfs");
	m0 = fair_rq_of(d.rq)->min_vruntime;
	drv_add(&d, 0, true, hog, 0);
	drv_add(&d, 5, true, hog, 0);
	drv_run(&d, 89 * MS);
	CHECK_CTX("cfs nice 0 and 5 at 89 ms");
	CHECK_INT(ft(&d, 0)->vruntime - m0, 64000000);
	CHECK_INT(ft(&d, 1)->vruntime - m0, 76417900);
	drv_run(&d, 105 * MS);
	check_spans(&d, want, sizeof(want) / sizeof(want[0]));
	fair_free(&d);
}

/*
 * H (id 0): nice-0 hog from 0.  S (id 1): runs 1 ms, sleeps 10 ms, first
 * woken at 0.5 ms.
 *
 * CFS: S is placed at max(its M0, min_vruntime 0.5 - 20) = M0; it does
 * not preempt (0 + 10 ms granularity is not below H's 0.5) and waits for
 * H's tick preemption at 11 ms (its 10 ms slice exceeded), runs [11,12)
 * (vruntime 1).  At 22 H is at 21 (alone, no tick preemption), S is
 * placed at max(1, 21 - 20) = 1 and 1 + 10 < 21: it preempts, and from
 * then on at every wakeup (it is placed 20 ms behind H, and 10 < 20).
 *   wake  t    ran at once  set resched
 *   0     0.5  no (at 11)   no
 *   1     22   yes          yes
 *   m     22 + 11 (m - 1), always at once
 * EEVDF (3 ms slices; lag kept across sleeps):
 *   t=0.5 S placed at V = 0.5, deadline 3.5; H is running on its first
 *     slice (RUN_TO_PARITY): no preemption; at 3 H's slice is used, V =
 *     (3 + 0.5) / 2: H not eligible, S runs [3,4) and leaves with lag
 *     V - 1.5 = (1.5 + 3) / 2 - 1.5 = 0.75.
 *   t=14 H at 13 (alone since 4); S placed at 13 - 0.75 * 2048 / 1024 =
 *     11.5: V = 12.25, H not eligible, S is the pick: it preempts; runs
 *     [14,15), leaves with lag (12.5 + 13) / 2 - 12.5 = 0.25.
 *   t=25 H at 23: S at 23 - 0.5 = 22.5, preempts, runs [25,26), lag
 *     (23.5 + 23) / 2 - 23.5 = -0.25.
 *   t=36 H at 33 (its deadline renewed to 36 by the tick just before):
 *     S at 33.5, V = 33.25: S is not eligible, H is and is the only
 *     pick: S waits until H's deadline, 36 in vruntime, at 39; runs
 *     [39,40), leaves with lag (34.5 + 36) / 2 - 34.5 = 0.75.
 *   t=50 as at 14: the cycle repeats every 36 ms (61 as 25, 72 as 36).
 *   wake  t    S runs     set resched
 *   0     0.5  [3,4)      no
 *   1     14   at once    yes
 *   2     25   at once    yes
 *   3     36   [39,40)    no
 *   4     50   at once    yes
 *   5     61   at once    yes
 *   6     72   [75,76)    no
 *   7     86   at once    yes
 */
static void test_sleeper(void)
{
	static const long eevdf_t[] = { 14, 25, 36, 50, 61, 72, 86 };
	static const bool eevdf_once[] = { 1, 1, 0, 1, 1, 0, 1 };
	static const struct span eevdf_s[] = {
		{ 1, 3, 4 }, { 1, 14, 15 }, { 1, 25, 26 }, { 1, 39, 40 },
		{ 1, 50, 51 }, { 1, 61, 62 }, { 1, 75, 76 }, { 1, 86, 87 },
	};
	struct drv d;
	struct drv_task *s;

	fair_init(&d, "cfs");
	drv_add(&d, 0, true, hog, 0);
	drv_add(&d, 0, true, sleeper, MS / 2);
	drv_run(&d, 1000 * MS);
	s = &d.task[1];
	drv_close_runs(&d);
	CHECK_CTX("cfs sleeper");
	CHECK(s->nwakes > 50);
	CHECK_INT(s->runs[0].start, 11 * MS);
	CHECK(!s->wakes[0].ran_at_once);
	for (size_t m = 1; m < s->nwakes; m++) {
		CHECK_CTX("cfs sleeper wake %zu", m);
		CHECK_INT(s->wakes[m].t, (22 + 11 * ((long)m - 1)) * MS);
		CHECK(s->wakes[m].ran_at_once);
		CHECK(s->wakes[m].set_resched);
	}
	fair_free(&d);

	fair_init(&d, "eevdf");
	drv_add(&d, 0, true, hog, 0);
	drv_add(&d, 0, true, sleeper, MS / 2);
	drv_run(&d, 87 * MS);
	s = &d.task[1];
	CHECK_CTX("eevdf sleeper");
	CHECK(s->nwakes >= 8);
	for (size_t m = 1; m < 8 && m < s->nwakes; m++) {
		CHECK_CTX("eevdf sleeper wake %zu", m);
		CHECK_INT(s->wakes[m].t, eevdf_t[m - 1] * MS);
		CHECK_INT(s->wakes[m].ran_at_once, eevdf_once[m - 1]);
		CHECK_INT(s->wakes[m].set_resched, eevdf_once[m - 1]);
	}
	drv_close_runs(&d);
	for (size_t j = 0; j < sizeof(eevdf_s) / sizeof(eevdf_s[0]); j++) {
		CHECK_CTX("eevdf sleeper run %zu", j);
		CHECK(j < s->nruns);
		if (j >= s->nruns)
			break;
		CHECK_INT(s->runs[j].start, eevdf_s[j].start * MS);
		CHECK_INT(s->runs[j].end, eevdf_s[j].end * MS);
	}
	fair_free(&d);
}

/*
 * A nice-0 hog P alone from 0 forks a hog C at 5 ms.
 * CFS: C starts at min_vruntime 5 + the vslice it adds (20 ms * 1024 /
 * 2048 = 10): 15; P's 5 is smaller, so they swap (child runs first): C 5,
 * P 15; P reschedules, C is leftmost and runs until its 10 ms slice is
 * exceeded (16); then P (15 against 16) for 11, and so on.
 *   P[0,5) C[5,16) P[16,27) C[27,38) P[38,49)
 * EEVDF: C is placed at V = 5 with no lag, deadline 8; P (vruntime 5,
 * deadline 6) is past its first slice, so no protection, but its deadline
 * is earlier: no preemption.  At 6 P's slice ends (deadline 9); V = 5.5:
 * P not eligible, C runs to its deadline 8 at 9; then P (6, eligible,
 * deadline 9) to 12, C (8, deadline 11) to 15: 3 ms turns.
 *   P[0,6) C[6,9) P[9,12) C[12,15) P[15,18)
 */
static void test_fork(void)
{
	static const struct drv_op child[] = { RUN(FOREVER), END };
	static const struct drv_op parent[] = {
		RUN(5 * MS), FORK(0, 0), RUN(FOREVER), END,
	};
	static const struct drv_op *const progs[] = { child };
	static const struct span cfs[] = {
		{ 0, 0, 5 }, { 1, 5, 16 }, { 0, 16, 27 }, { 1, 27, 38 },
		{ 0, 38, 49 },
	};
	static const struct span eevdf[] = {
		{ 0, 0, 6 }, { 1, 6, 9 }, { 0, 9, 12 }, { 1, 12, 15 },
		{ 0, 15, 18 },
	};
	static const struct {
		const char *policy;
		const struct span *spans;
		size_t n;
	} runs[] = {
		{ "cfs", cfs, sizeof(cfs) / sizeof(cfs[0]) },
		{ "eevdf", eevdf, sizeof(eevdf) / sizeof(eevdf[0]) },
	};

	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		struct drv d;

		fair_init(&d, runs[r].policy);
		d.progs = progs;
		drv_add(&d, 0, true, parent, 0);
		drv_run(&d, runs[r].spans[runs[r].n - 1].end * MS);
		check_spans(&d, runs[r].spans, runs[r].n);
		fair_free(&d);
	}
}

/*
 * The RT class above the fair one, in both: two SCHED_RR hogs at prio 10
 * (prio 89) and a nice -20 fair hog F, all woken at 0.  The RR ones
 * alternate whole 100 ms slices (a requeue behind the peer at each) and F
 * never runs; a SCHED_FIFO task at prio 20 woken at 250 ms preempts at
 * once and runs until it blocks at 260; the RR one it preempted resumes
 * at the head of its list with the 50 ticks its slice has left (201..250
 * were charged to it); the tick at 260 is its (the FIFO task's burst ends
 * first), so the slice ends at 309.
 *   R1[0,100) R2[100,200) R1[200,250) FIFO[250,260) R1[260,309)
 *   R2[309,409)
 */
static void test_rt(void)
{
	static const struct drv_op fifo[] = { RUN(10 * MS), END };
	static const struct span want[] = {
		{ 0, 0, 100 }, { 1, 100, 200 }, { 0, 200, 250 },
		{ 3, 250, 260 }, { 0, 260, 309 }, { 1, 309, 409 },
	};
	static const char *const names[] = { "cfs", "eevdf" };

	for (size_t r = 0; r < 2; r++) {
		struct drv d;
		struct sm_task_info rr = { 0, 0, SM_SCHED_RR, 10, true,
					   0, 0, NULL };
		struct sm_task_info ff = { 0, 0, SM_SCHED_FIFO, 20, true,
					   0, 0, NULL };

		fair_init(&d, names[r]);
		drv_add_info(&d, rr, hog, 0);
		drv_add_info(&d, rr, hog, 0);
		drv_add(&d, -20, true, hog, 0);
		drv_add_info(&d, ff, fifo, 250 * MS);
		drv_run(&d, 409 * MS);
		check_spans(&d, want, sizeof(want) / sizeof(want[0]));
		CHECK_CTX("%s: the fair hog", names[r]);
		CHECK_INT(d.task[2].nruns, 0);
		CHECK_INT(d.task[2].run_start, -1);
		fair_free(&d);
	}
}

/*
 * EEVDF 6.18's delayed dequeue (base slice 3 ms, ticks every ms): B (4 ms
 * of CPU, then a 20 ms sleep, then for good) is woken first, hog A second,
 * both at V = 0 with deadline 3 (a wakeup: a whole request); vruntimes in
 * ms from the start.
 *   B[0,3): at 3 its deadline is reached: a new one, 6; V = 1.5, B (3) not
 *     eligible, A is: A runs to parity (protected to its deadline 3);
 *   A[3,6): deadline 6 at 6; V = 3: both eligible, both deadlines 6, A's
 *     protection over: the queued B;
 *   B[6,7): its burst ends at vruntime 4 with A at 3: V = 3.5, B owes
 *     nothing (4 > 3.5): DELAY_DEQUEUE keeps it queued, delayed, still
 *     counted (nr_running 2); a wake would requeue it in place;
 *   A[7,10): protected to 6 (its deadline at the pick); at 10 it reaches
 *     it: deadline 9; V = (6 + 4) / 2 = 5: B (4, deadline 6) eligible and
 *     the pick: it leaves for good, with lag 5 - 4 = 1 ms, which
 *     DELAY_ZERO drops (positive: 0); nr_running 1.
 * Woken at 27 (its sleep began at 7) B is placed at V (A's vruntime, alone)
 * with no lag.  Without DELAY_DEQUEUE it leaves at 7 with lag 3.5 - 4 =
 * -0.5 ms, placed at 27 that lag scaled for the weight it adds (-0.5 *
 * (1024 + 1024) / 1024 = -1 ms) behind V: 1 ms after A.
 */
static void test_delay_dequeue(void)
{
	static const struct drv_op b_prog[] = { RUN(4 * MS), SLEEP(20 * MS),
						END };
	struct drv d;

	for (int delay = 1; delay >= 0; delay--) {
		CHECK_CTX("DELAY_DEQUEUE=%d", delay);
		tuned_init(&d, delay ? "eevdf-6.18:base_slice_ns=3000000"
				     : "eevdf-6.18:base_slice_ns=3000000,"
				       "DELAY_DEQUEUE=0");
		drv_add(&d, 0, true, b_prog, 0);  /* B, index 0 */
		drv_add(&d, 0, true, hog, 0);     /* A, index 1 */
		drv_run(&d, 7 * MS);
		CHECK_INT(drv_curr(&d), 1);
		CHECK_INT(ft(&d, 0)->delayed, delay);
		CHECK_INT(ft(&d, 0)->on_rq, delay);
		CHECK_INT(d.pol->nr_running(d.rq), delay ? 2 : 1);
		CHECK_INT(d.pol->still_queued(d.task[0].t), delay);
		if (!delay)
			CHECK_INT(ft(&d, 0)->vlag, -500000);
		drv_run(&d, 9 * MS);
		CHECK_INT(ft(&d, 0)->delayed, delay);
		drv_run(&d, 10 * MS);
		CHECK_INT(ft(&d, 0)->delayed, 0);
		CHECK_INT(ft(&d, 0)->on_rq, 0);
		CHECK_INT(d.pol->nr_running(d.rq), 1);
		if (delay)
			CHECK_INT(ft(&d, 0)->vlag, 0);
		drv_run(&d, 27 * MS);
		CHECK_INT(ft(&d, 0)->on_rq, 1);
		CHECK_INT((int64_t)(ft(&d, 0)->vruntime - ft(&d, 1)->vruntime),
			  delay ? 0 : 1000000);
		fair_free(&d);
	}
}

/*
 * The tunables the kernel scales by the CPUs it counts at boot: 6.x's
 * base slice 0.75 ms x (1 + ilog2(min(cpus, 8))): 0.75, 1.5, 2.25, 3, 3 ms
 * on 1, 2, 4, 8 and 16 CPUs; 2.6.23's latency 20 ms x (1 + ilog2(cpus)),
 * at most 100 ms: 20, 40, 60, 80, 100.  A knob set explicitly is taken as
 * given (base_slice_ns=1000000: 1 ms on 16 CPUs).  A new entity asks for
 * the base slice (its slice), so the rq's entity shows it.
 */
static void test_scaling(void)
{
	static const struct { int cpus; long slice_us, latency_ms; } cases[] = {
		{ 1, 750, 20 }, { 2, 1500, 40 }, { 4, 2250, 60 },
		{ 8, 3000, 80 }, { 16, 3000, 100 },
	};
	struct drv d;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fair_rq *rq;

		CHECK_CTX("%d cpus", cases[i].cpus);
		drv_init(&d, pol("eevdf-6.18"));
		d.rq->ncpus = cases[i].cpus;
		drv_add(&d, 0, true, hog, 0);
		CHECK_INT(ft(&d, 0)->slice, cases[i].slice_us * 1000);
		drv_free(&d);
		drv_init(&d, pol("cfs"));
		d.rq->ncpus = cases[i].cpus;
		rq = (struct fair_rq *)d.rq;
		CHECK_INT(fair_scaled(rq, rq->rules->k.sched_latency_ns,
				      FAIR_SCALE_LATENCY),
			  cases[i].latency_ms * 1000000);
		drv_free(&d);
	}
	tuned_init(&d, "eevdf-6.18:base_slice_ns=1000000");
	d.rq->ncpus = 16;
	drv_add(&d, 0, true, hog, 0);
	CHECK_INT(ft(&d, 0)->slice, 1000000);
	fair_free(&d);
}

int main(void)
{
	test_scaling();
	test_delay_dequeue();
	test_two_hogs();
	test_nice();
	test_sleeper();
	test_fork();
	test_rt();
	return test_done("test-fair");
}
