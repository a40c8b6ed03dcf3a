/*
 * test-acct: the accounting state machine shared by the simulator and the
 * recorded schedule.  Each case is a script of transitions and the
 * figures expected for task 1 (and the waits reported, in order).
 */
#include <stdint.h>

#include "replay/metrics.h"
#include "tests/lib/test.h"

enum { END = 0, WAKE, FORK, UNKN, RUN, STOP_S, STOP_R, EXIT, CHARGE };

struct op {
	int what;
	uint32_t task;
	int64_t t; /* time, or ns for CHARGE */
};

struct want {
	int64_t runtime;
	uint64_t switches, wakeups;
	int64_t sum, max, max_start, max_end;
	const char *waits; /* "cause:from-to;" for task 1, in order */
	int state;         /* enum sr_acct_state of task 1 at the end */
};

struct rec {
	char buf[512];
	size_t len;
};

static int on_wait(void *ctx, uint32_t task, int64_t from, int64_t to,
		   enum sr_acct_cause cause)
{
	struct rec *r = ctx;

	if (task == 1)
		r->len += (size_t)snprintf(r->buf + r->len,
					   sizeof(r->buf) - r->len,
					   "%s:%lld-%lld;",
					   sr_acct_cause_name(cause),
					   (long long)from, (long long)to);
	return 0;
}

static const struct {
	const char *name;
	struct op ops[12];
	int64_t t_end;
	struct want w;
} cases[] = {
	{ "wakeup then run",
	  { { WAKE, 1, 100 }, { RUN, 1, 130 }, { STOP_S, 1, 200 } }, 300,
	  { 70, 1, 1, 30, 30, 100, 130, "wakeup:100-130;", SR_ACCT_SLEEPING } },
	{ "second wakeup while runnable keeps the first",
	  { { WAKE, 1, 100 }, { WAKE, 1, 120 }, { RUN, 1, 130 } }, 130,
	  { 0, 1, 1, 30, 30, 100, 130, "wakeup:100-130;", SR_ACCT_RUNNING } },
	{ "wakeup while running is ignored",
	  { { WAKE, 1, 100 }, { RUN, 1, 110 }, { WAKE, 1, 150 },
	    { STOP_S, 1, 160 }, { RUN, 1, 170 } }, 170,
	  { 50, 1, 1, 10, 10, 100, 110, "wakeup:100-110;", SR_ACCT_RUNNING } },
	{ "preempted then run again",
	  { { FORK, 1, 0 }, { RUN, 1, 5 }, { STOP_R, 1, 50 }, { RUN, 1, 80 },
	    { STOP_S, 1, 90 } }, 100,
	  { 55, 2, 0, 35, 30, 50, 80, "fork:0-5;preempt:50-80;",
	    SR_ACCT_SLEEPING } },
	{ "run while sleeping counts nothing",
	  { { RUN, 1, 10 }, { STOP_S, 1, 20 }, { RUN, 1, 40 },
	    { STOP_S, 1, 45 } }, 50,
	  { 15, 0, 0, 0, 0, 0, 0, "", SR_ACCT_SLEEPING } },
	{ "wait ending before it began is dropped",
	  { { WAKE, 1, 100 }, { RUN, 1, 90 }, { STOP_S, 1, 95 } }, 100,
	  { 5, 0, 1, 0, 0, 0, 0, "", SR_ACCT_SLEEPING } },
	{ "zero delay counts a switch, sets no max bounds",
	  { { UNKN, 1, 10 }, { RUN, 1, 10 } }, 20,
	  { 10, 1, 0, 0, 0, 0, 0, "unknown:10-10;", SR_ACCT_RUNNING } },
	{ "equal maxima keep the first",
	  { { WAKE, 1, 0 }, { RUN, 1, 10 }, { STOP_S, 1, 11 },
	    { WAKE, 1, 20 }, { RUN, 1, 30 }, { STOP_R, 1, 31 },
	    { RUN, 1, 35 } }, 40,
	  { 7, 3, 2, 24, 10, 0, 10, "wakeup:0-10;wakeup:20-30;preempt:31-35;",
	    SR_ACCT_RUNNING } },
	{ "open wait at the end is not counted",
	  { { WAKE, 1, 0 }, { RUN, 1, 10 }, { STOP_R, 1, 20 } }, 1000,
	  { 10, 1, 1, 10, 10, 0, 10, "wakeup:0-10;", SR_ACCT_RUNNABLE } },
	{ "charges replace on-cpu time",
	  { { WAKE, 1, 0 }, { RUN, 1, 10 }, { CHARGE, 1, 3 },
	    { CHARGE, 1, 4 }, { STOP_S, 1, 100 } }, 100,
	  { 7, 1, 1, 10, 10, 0, 10, "wakeup:0-10;", SR_ACCT_SLEEPING } },
	{ "a charge to another task switches all to charges",
	  { { WAKE, 1, 0 }, { RUN, 1, 10 }, { STOP_S, 1, 100 },
	    { CHARGE, 2, 5 } }, 100,
	  { 0, 1, 1, 10, 10, 0, 10, "wakeup:0-10;", SR_ACCT_SLEEPING } },
	{ "exit closes the run; later transitions ignored",
	  { { FORK, 1, 0 }, { RUN, 1, 0 }, { EXIT, 1, 40 },
	    { STOP_S, 1, 45 }, { WAKE, 1, 50 }, { RUN, 1, 60 } }, 100,
	  { 40, 1, 0, 0, 0, 0, 0, "fork:0-0;", SR_ACCT_DEAD } },
	{ "other tasks do not disturb task 1",
	  { { WAKE, 2, 0 }, { WAKE, 1, 1 }, { RUN, 2, 2 }, { STOP_R, 2, 9 },
	    { RUN, 1, 9 }, { RUN, 2, 12 } }, 20,
	  { 11, 1, 1, 8, 8, 1, 9, "wakeup:1-9;", SR_ACCT_RUNNING } },
};

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct want *w = &cases[i].w;
		struct sr_diag d = SR_DIAG_INIT;
		struct sr_acct *a;
		struct sr_task_metrics *m;
		struct rec r = { "", 0 };

		CHECK_CTX("%s", cases[i].name);
		CHECK_INT(sr_acct_new(&a, &d), SR_OK);
		sr_acct_on_wait(a, on_wait, &r);
		for (const struct op *o = cases[i].ops; o->what != END; o++) {
			int rc = SR_OK;

			switch (o->what) {
			case WAKE:
				rc = sr_acct_runnable(a, o->task, o->t,
						      SR_CAUSE_WAKEUP);
				break;
			case FORK:
				rc = sr_acct_runnable(a, o->task, o->t,
						      SR_CAUSE_FORK);
				break;
			case UNKN:
				rc = sr_acct_runnable(a, o->task, o->t,
						      SR_CAUSE_UNKNOWN);
				break;
			case RUN:
				rc = sr_acct_run(a, o->task, o->t);
				break;
			case STOP_S:
				rc = sr_acct_stop(a, o->task, o->t, false);
				break;
			case STOP_R:
				rc = sr_acct_stop(a, o->task, o->t, true);
				break;
			case EXIT:
				rc = sr_acct_exit(a, o->task, o->t);
				break;
			case CHARGE:
				rc = sr_acct_charge(a, o->task, o->t);
				break;
			}
			CHECK_INT(rc, SR_OK);
		}
		CHECK_INT(sr_acct_state(a, 1), w->state);
		CHECK_INT(sr_acct_finish(a, cases[i].t_end, &d), SR_OK);
		m = sr_acct_metrics(a, 1);
		CHECK(m != NULL);
		if (!m) {
			sr_acct_free(a);
			continue;
		}
		CHECK_INT(m->runtime_ns, w->runtime);
		CHECK_INT(m->switches, w->switches);
		CHECK_INT(sr_delays_count(m->delays), w->switches);
		CHECK_INT(sr_delays_count(m->delays), w->switches);
		CHECK_INT(m->wakeups, w->wakeups);
		CHECK_INT(m->sum_delay_ns, w->sum);
		CHECK_INT(m->max_delay_ns, w->max);
		CHECK_INT(m->max_delay_start, w->max_start);
		CHECK_INT(m->max_delay_end, w->max_end);
		CHECK_STR(r.buf, w->waits);
		sr_acct_free(a);
	}
	test_ctx[0] = '\0';
}

static void test_slots(void)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_acct *a;

	CHECK_INT(sr_acct_new(&a, &d), SR_OK);
	CHECK(sr_acct_metrics(a, 0) == NULL);
	CHECK_INT(sr_acct_state(a, 5000), SR_ACCT_UNSEEN);
	CHECK_INT(sr_acct_name(a, 3000, 42, "xmms"), SR_OK);
	CHECK_INT(sr_acct_ntasks(a), 3001);
	CHECK(sr_acct_metrics(a, 2999) == NULL); /* gap filler, unused */
	CHECK(sr_acct_metrics(a, 3000) != NULL);
	CHECK_INT(sr_acct_metrics(a, 3000)->pid, 42);
	CHECK_STR(sr_acct_metrics(a, 3000)->comm, "xmms");
	{
		char buf[16] = "cc1";
		/* names are copied once per distinct name */
		for (uint32_t i = 0; i < 200; i++) {
			snprintf(buf, sizeof(buf), "%s", i % 2 ? "cc1" : "as");
			CHECK_INT(sr_acct_name(a, 10 + i, (int32_t)i, buf), SR_OK);
		}
		strcpy(buf, "changed");
		CHECK_STR(sr_acct_metrics(a, 11)->comm, "cc1");
		CHECK_STR(sr_acct_metrics(a, 10)->comm, "as");
		CHECK(sr_acct_metrics(a, 11)->comm == sr_acct_metrics(a, 209)->comm);
		CHECK(sr_acct_metrics(a, 10)->comm != sr_acct_metrics(a, 11)->comm);
		CHECK_STR(sr_acct_metrics(a, 3000)->comm, "xmms");
	}
	CHECK_INT(sr_acct_mark_lost(a, 3000), SR_OK);
	CHECK(sr_acct_metrics(a, 3000)->lost_touched);
	CHECK(sr_acct_error(a) == NULL);
	CHECK_INT(sr_acct_charge(a, 3000, -1), SR_EDATA);
	CHECK_STR(sr_acct_error(a), "negative cpu time charged");
	CHECK_INT(sr_acct_finish(a, 0, &d), SR_EDATA); /* sticky */
	CHECK_STR(d.msg, "accounting: negative cpu time charged");
	sr_acct_free(a);

	/* 64-bit overflow of a charged total is bad data, not a wrap */
	d = (struct sr_diag)SR_DIAG_INIT;
	CHECK_INT(sr_acct_new(&a, &d), SR_OK);
	CHECK_INT(sr_acct_charge(a, 1, INT64_MAX - 1), SR_OK);
	CHECK_INT(sr_acct_charge(a, 1, 1), SR_OK);
	CHECK_INT(sr_acct_charge(a, 1, 1), SR_EDATA);
	CHECK(strstr(sr_acct_error(a), "overflows") != NULL);
	CHECK_INT(sr_acct_finish(a, 0, &d), SR_EDATA);
	sr_acct_free(a);
}

/*
 * A window [1000, 2000): the state machine runs over everything, the
 * figures count what happened inside: a wait by its start (even one that
 * ends after the window), a wakeup at its time, the part of each run and
 * of each charge inside.
 */
static void test_window(void)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_acct *a, *c;
	struct sr_task_metrics *m;

	CHECK_INT(sr_acct_new(&a, &d), SR_OK);
	sr_acct_window(a, 1000, 2000);
	/* before: a wait and a run that crosses the start */
	CHECK_INT(sr_acct_runnable(a, 1, 500, SR_CAUSE_WAKEUP), SR_OK);
	CHECK_INT(sr_acct_run(a, 1, 900), SR_OK);
	CHECK_INT(sr_acct_stop(a, 1, 1100, true), SR_OK);   /* 100 inside */
	/* inside: the preemption's wait (1100-1150), a sleep, a wakeup */
	CHECK_INT(sr_acct_run(a, 1, 1150), SR_OK);
	CHECK_INT(sr_acct_stop(a, 1, 1200, false), SR_OK);  /* 50 */
	CHECK_INT(sr_acct_runnable(a, 1, 1900, SR_CAUSE_WAKEUP), SR_OK);
	/* a wait begun inside, ended after: counted */
	CHECK_INT(sr_acct_run(a, 1, 2300), SR_OK);
	CHECK_INT(sr_acct_stop(a, 1, 2400, false), SR_OK);  /* none inside */
	/* after: nothing counts */
	CHECK_INT(sr_acct_runnable(a, 1, 2500, SR_CAUSE_WAKEUP), SR_OK);
	CHECK_INT(sr_acct_run(a, 1, 2600), SR_OK);
	CHECK_INT(sr_acct_finish(a, 3000, &d), SR_OK);
	m = sr_acct_metrics(a, 1);
	CHECK(m != NULL);
	if (m) {
		CHECK_INT(m->runtime_ns, 150);
		CHECK_INT(m->switches, 2);
		CHECK_INT(sr_delays_count(m->delays), 2);
		CHECK_INT(m->wakeups, 1);
		CHECK_INT(m->sum_delay_ns, 50 + 400);
		CHECK_INT(m->max_delay_ns, 400);
		CHECK_INT(m->max_delay_start, 1900);
	}
	sr_acct_free(a);

	/* charges: the part of [t - ns, t) inside */
	CHECK_INT(sr_acct_new(&c, &d), SR_OK);
	sr_acct_window(c, 1000, 2000);
	CHECK_INT(sr_acct_charge_at(c, 1, 1100, 300), SR_OK);  /* 100 */
	CHECK_INT(sr_acct_charge_at(c, 1, 1500, 200), SR_OK);  /* 200 */
	CHECK_INT(sr_acct_charge_at(c, 1, 2200, 400), SR_OK);  /* 200 */
	CHECK_INT(sr_acct_charge_at(c, 1, 900, 100), SR_OK);   /* 0 */
	CHECK_INT(sr_acct_charge_at(c, 1, INT64_MIN + 5, 10), SR_OK); /* 0 */
	CHECK_INT(sr_acct_finish(c, 3000, &d), SR_OK);
	m = sr_acct_metrics(c, 1);
	CHECK(m != NULL);
	if (m)
		CHECK_INT(m->runtime_ns, 500);
	sr_acct_free(c);
}

int main(void)
{
	test_cases();
	test_slots();
	test_window();
	return test_done("test-acct");
}
