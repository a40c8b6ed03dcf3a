/*
 * test-iso: SCHED_ISO on O11int against hand-derived cases:
 *  - who becomes ISO: a user task asking for SCHED_RR or SCHED_FIFO (prio
 *    99), not a kernel thread (its RT prio), not SCHED_NORMAL;
 *  - two ISO hogs beside a nice-0 hog: round robin every 10 ms, the hog
 *    starved until the quota runs out, at the 3550th tick; then each ISO
 *    task is marked (PF_ISOREF) at its next tick and runs as SCHED_NORMAL;
 *  - the hysteresis: an ISO task is unmarked at the first tick it runs
 *    once iso_ticks / ISO_PERIOD is below 63 (90 % of 70), exactly at
 *    62 vs 63;
 *  - over a long run an ISO hog gets about iso_cpu of the CPU beside a
 *    normal hog; iso_cpu = 100 never marks it.
 * Times in ms from the start (jiffies relative to DRV_J0).
 */
#include "sched-model/o1.h"
#include "tests/sched-model/drv.h"

static const struct drv_op hog[] = { RUN(FOREVER), END };

static const struct sm_policy *iso(void)
{
	const struct sm_policy *p = sm_policy_find("iso");

	if (!p)
		exit(1);
	return p;
}

static struct o1_task *task_of(struct drv *d, int i)
{
	return (struct o1_task *)d->task[i].t;
}

static struct o1_rq *rq_of(struct drv *d)
{
	return (struct o1_rq *)d->rq;
}

/* A task asking for `policy` at rt_priority 50 (or NORMAL), woken at 0. */
static int add(struct drv *d, int policy, bool mm)
{
	struct sm_task_info info = { .policy = policy,
				     .rt_priority = policy ? 50 : 0,
				     .has_mm = mm };

	return drv_add_info(d, info, hog, 0);
}

static void test_who(void)
{
	static const struct {
		int policy;
		bool mm;
		int prio;
		bool iso;
	} cases[] = {
		{ SM_SCHED_RR, true, 99, true },
		{ SM_SCHED_FIFO, true, 99, true },
		{ SM_SCHED_RR, false, 49, false },	/* kernel thread */
		{ SM_SCHED_NORMAL, true, 125, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct drv d;
		struct sm_view v;
		int t;

		CHECK_CTX("case %zu", i);
		drv_init(&d, iso());
		t = add(&d, cases[i].policy, cases[i].mm);
		drv_view(&d, t, &v);
		CHECK_INT(v.prio, cases[i].prio);
		CHECK_INT(task_of(&d, t)->iso, cases[i].iso);
		/* and by sched_setscheduler later, from SCHED_NORMAL */
		drv_free(&d);
		drv_init(&d, iso());
		t = add(&d, SM_SCHED_NORMAL, cases[i].mm);
		d.pol->setscheduler(d.rq, d.task[t].t, cases[i].policy,
				    cases[i].policy ? 50 : 0);
		CHECK_INT(task_of(&d, t)->iso, cases[i].iso);
		drv_view(&d, t, &v);
		if (cases[i].policy)
			CHECK_INT(v.prio, cases[i].prio);
		drv_free(&d);
	}
}

/*
 * ISO hogs A (0) and B (1), a nice-0 hog H (2), all woken at 0.  A and B
 * at 99 alternate 10-ms turns (the first tick cuts the 102-jiffy slice to
 * the ISO round robin's 10): A [20k, 20k + 10), B [20k + 10, 20k + 20).
 * Every tick runs an ISO task within its quota: iso_ticks = 100 n after
 * tick n; the runqueue turns refractory when 100 n / 5000 > 70: n = 3550,
 * the end of A's turn [3540, 3550).  That tick marks A (requeued at its
 * dynamic prio, 125, with a 102 slice) and B, at 99, runs.  At 3551 B's
 * tick does not count (ISO on a refractory queue): iso_ticks = 355000 *
 * 4999 / 5000 = 354929, refractory still, B marked too.  H, whose 3551 ms
 * of waiting O11int's pick-time recalc credits as sleep, now beats them.
 */
static void test_two_iso_and_a_hog(void)
{
	struct span want[400];
	size_t n = 0;
	struct drv d;
	int a, b, h;
	struct sm_view v;

	drv_init(&d, iso());
	a = add(&d, SM_SCHED_RR, true);
	b = add(&d, SM_SCHED_RR, true);
	h = add(&d, SM_SCHED_NORMAL, true);
	for (long k = 0; k < 177; k++) {
		want[n++] = (struct span){ a, 20 * k, 20 * k + 10 };
		want[n++] = (struct span){ b, 20 * k + 10, 20 * k + 20 };
	}
	want[n++] = (struct span){ a, 3540, 3550 };
	want[n++] = (struct span){ b, 3550, 3551 };
	drv_run(&d, 3549 * MS);
	CHECK_CTX("at 3549 ms");
	CHECK_INT(rq_of(&d)->iso_ticks, 354900);
	CHECK_INT(rq_of(&d)->iso_refractory, false);
	drv_run(&d, 3550 * MS);
	CHECK_CTX("at 3550 ms");
	CHECK_INT(rq_of(&d)->iso_ticks, 355000);
	CHECK_INT(rq_of(&d)->iso_refractory, true);
	CHECK_INT(task_of(&d, a)->isoref, true);
	drv_view(&d, a, &v);
	CHECK_INT(v.prio, 125);
	CHECK_INT(drv_curr(&d), b);
	drv_run(&d, 3551 * MS);
	CHECK_CTX("at 3551 ms");
	CHECK_INT(rq_of(&d)->iso_ticks, 354929);
	CHECK_INT(task_of(&d, b)->isoref, true);
	CHECK_INT(drv_curr(&d), h);
	drv_run(&d, 3552 * MS);
	check_spans(&d, want, n);
	CHECK_INT(d.task[h].nruns, 1);
	CHECK_INT(d.task[h].runs[0].start, 3551 * MS);
	drv_free(&d);
}

/*
 * One ISO hog I beside a nice-0 hog H.  I alone until 3550 (as above),
 * then marked.  While marked, no tick counts: iso_ticks = iso_ticks *
 * 4999 / 5000 at each (integer), from 355000: it is below 315000 (63 %
 * of 5 s) after 594 ticks.  I is unmarked at the first tick it runs from
 * then on, back at 99 with a 10-ms turn; the test follows the decay by
 * the same arithmetic tick by tick.  Over 30 s I gets about 70 %.
 */
static void test_hysteresis(void)
{
	struct drv d;
	int i, h;
	unsigned long ticks = 355000;
	long unmarked = -1, below = -1;

	drv_init(&d, iso());
	i = add(&d, SM_SCHED_RR, true);
	h = add(&d, SM_SCHED_NORMAL, true);
	drv_run(&d, 3550 * MS);
	CHECK_INT(task_of(&d, i)->isoref, true);
	CHECK_INT(d.task[h].nruns, 0);
	for (long t = 3551; t < 6000 && unmarked < 0; t++) {
		bool ran_iso = drv_curr(&d) == i;

		drv_run(&d, t * MS);
		if (!task_of(&d, i)->isoref) {
			unmarked = t;
			CHECK(ran_iso);
			/* this tick decayed it below the line, or an
			   earlier one did while H ran */
			ticks = ticks * 4999 / 5000;
			CHECK(ticks / 5000 < 63);
			CHECK_INT(rq_of(&d)->iso_ticks, ticks);
			break;
		}
		ticks = ticks * 4999 / 5000;
		CHECK_INT(rq_of(&d)->iso_ticks, ticks);
		if (below < 0 && ticks / 5000 < 63)
			below = t;
	}
	CHECK_CTX("unmarked at %ld, below at %ld", unmarked, below);
	CHECK(unmarked > 0);
	CHECK_INT(below < 0 ? unmarked : below, 3550 + 594);
	CHECK(unmarked >= 3550 + 594);
	{
		struct sm_view v;

		drv_view(&d, i, &v);
		CHECK_INT(v.prio, 99);
	}
	/* the share over the next 30 s */
	drv_run(&d, 40000 * MS);
	drv_close_runs(&d);
	{
		long on = 0;

		for (size_t k = 0; k < d.task[i].nruns; k++) {
			long s = d.task[i].runs[k].start, e = d.task[i].runs[k].end;

			if (e > 10000 * MS)
				on += e - (s > 10000 * MS ? s : 10000 * MS);
		}
		CHECK_CTX("ISO share %ld ms of 30000", on / MS);
		CHECK(on >= 19500 * MS && on <= 22500 * MS);
	}
	drv_free(&d);
}

/* iso_cpu = 100: an ISO hog is never marked; the normal hog starves. */
static void test_iso_cpu_100(void)
{
	struct sm_tuning t;
	struct sr_diag dg = SR_DIAG_INIT;
	struct sm_sched *s;
	struct drv d;
	int i, h;

	sm_tuning_init(&t, iso());
	CHECK_INT(sm_tuning_set(&t, "iso_cpu", "100", &dg), 0);
	CHECK_INT(sm_tuning_finish(&t, &dg), 0);
	s = sm_sched_new(iso(), &t);
	drv_init_sched(&d, iso(), s);
	i = add(&d, SM_SCHED_RR, true);
	h = add(&d, SM_SCHED_NORMAL, true);
	drv_run(&d, 20000 * MS);
	CHECK_INT(task_of(&d, i)->isoref, false);
	CHECK_INT(d.task[h].nruns, 0);
	/* iso_ticks stops at ISO_PERIOD * 100 - 100 + 100 */
	CHECK_INT(rq_of(&d)->iso_ticks, 500000);
	drv_free(&d);
	sm_sched_free(s);
}

/*
 * The hysteresis line exactly: an ISO hog I alone, marked at 3550 (its
 * tick there takes iso_ticks to 355000 > 70 * 5000).  Before its tick at
 * 3551 iso_ticks is set to X; that tick (a marked task's: no count)
 * decays it to X * 4999 / 5000, and I is unmarked if that / 5000 < 63
 * (90 % of 70 is 63):
 *   X 315000: 314937 / 5000 = 62, unmarked;
 *   X 316000: 315936 / 5000 = 63, still marked.
 */
static void test_hysteresis_line(void)
{
	static const struct {
		unsigned long x, after;
		bool marked;
	} cases[] = {
		{ 315000, 314937, false },
		{ 316000, 315936, true },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct drv d;
		int i;

		drv_init(&d, iso());
		i = add(&d, SM_SCHED_RR, true);
		drv_run(&d, 3550 * MS);
		CHECK_CTX("iso_ticks %lu before 3551", cases[k].x);
		CHECK_INT(task_of(&d, i)->isoref, true);
		rq_of(&d)->iso_ticks = cases[k].x;
		drv_run(&d, 3551 * MS);
		CHECK_INT(rq_of(&d)->iso_ticks, cases[k].after);
		CHECK_INT(task_of(&d, i)->isoref, cases[k].marked);
		drv_free(&d);
	}
}

int main(void)
{
	test_who();
	test_two_iso_and_a_hog();
	test_hysteresis();
	test_hysteresis_line();
	test_iso_cpu_100();
	return test_done("test-iso");
}
