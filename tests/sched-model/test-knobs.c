/*
 * test-knobs: the tuning constants of every policy (sched-model/knobs.h):
 * the tables (unique kernel names, defaults in range, derived defaults
 * that equal their derivation), parsing and labels, errors naming the
 * knob and its range, --set beside inline knobs, and that a tuning moves
 * the model as the kernel's #define would (hand-derived cases).
 */
#include "sched-model/o1.h"
#include "tests/sched-model/drv.h"

static const struct drv_op hog[] = { RUN(FOREVER), END };

/* Every table: names unique, defaults inside the range, and a tuning
   with nothing set finishes to exactly the defaults, label = name. */
static void test_tables(void)
{
	for (const struct sm_policy *const *pp = sm_policies; *pp; pp++) {
		const struct sm_policy *p = *pp;
		size_t n = sm_knob_count(p);
		struct sm_tuning t;
		struct sr_diag d = SR_DIAG_INIT;

		CHECK_CTX("%s", p->name);
		CHECK(n <= SM_MAX_KNOBS);
		for (size_t i = 0; i < n; i++) {
			const struct sm_knob *k = &p->knobs[i];

			CHECK_CTX("%s %s", p->name, k->name);
			CHECK(k->min <= k->def && k->def <= k->max);
			CHECK(k->what && k->what[0] && k->unit);
			CHECK_INT(sm_knob_find(p, k->name), (long)i);
		}
		sm_tuning_init(&t, p);
		CHECK_INT(sm_tuning_finish(&t, &d), SR_OK);
		CHECK_STR(t.label, p->name);
		CHECK_INT(t.set, 0);
		for (size_t i = 0; i < n; i++) {
			CHECK_CTX("%s %s derived", p->name, p->knobs[i].name);
			CHECK_INT(t.val[i], p->knobs[i].def);
		}
	}
}

/*
 * Parsing and labels.  test2-mm1's family: MAX_SLEEP_AVG follows
 * AVG_TIMESLICE * MAX_BONUS and STARVATION_LIMIT follows MAX_SLEEP_AVG,
 * as their #defines do:
 *   o11int:MAX_SLEEP_AVG=2000 -> STARVATION_LIMIT 2000 (not in the label);
 *   MAX_TIMESLICE=100: AVG_TIMESLICE = 10 + 90 * 19 / 39 = 53, so
 *     MAX_SLEEP_AVG 530 and STARVATION_LIMIT 530;
 *   both set: neither derived.
 * The label lists the set knobs in table order, whatever the order given.
 * Stock's STARVATION_LIMIT does not follow its MAX_SLEEP_AVG.
 */
static void test_parse(void)
{
	static const struct {
		const char *spec;
		const char *label;
		long msa, limit;
	} cases[] = {
		{ "o11int", "o11int", 1020, 1020 },
		{ "o11int:MAX_SLEEP_AVG=2000", "o11int:MAX_SLEEP_AVG=2000",
		  2000, 2000 },
		{ "test2-mm1:MAX_TIMESLICE=100", "test2-mm1:MAX_TIMESLICE=100",
		  530, 530 },
		{ "o11.2:STARVATION_LIMIT=5,MAX_SLEEP_AVG=2000",
		  "o11.2:MAX_SLEEP_AVG=2000,STARVATION_LIMIT=5", 2000, 5 },
		{ "2.6.0-test2:MAX_SLEEP_AVG=2000", "stock:MAX_SLEEP_AVG=2000",
		  2000, 10000 },
		{ "g3:MAX_SLEEP_AVG=1000000000", "g3:MAX_SLEEP_AVG=1000000000",
		  1000000000, 10000 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sm_tuning t;
		struct sr_diag d = SR_DIAG_INIT;

		CHECK_CTX("%s", cases[i].spec);
		CHECK_INT(sm_tuning_parse(&t, cases[i].spec, &d), SR_OK);
		CHECK_INT(sm_tuning_finish(&t, &d), SR_OK);
		CHECK_STR(t.label, cases[i].label);
		CHECK_INT(sm_tuning_get(&t, "MAX_SLEEP_AVG", -1), cases[i].msa);
		CHECK_INT(sm_tuning_get(&t, "STARVATION_LIMIT", -1),
			  cases[i].limit);
	}
}

/* Errors: exit 64 with a message naming the knob and its range. */
static void test_errors(void)
{
	static const struct {
		const char *spec;
		const char *msg;
	} cases[] = {
		{ "o11int:MAX_SLEEP_AVG=0", "o11int's MAX_SLEEP_AVG takes an "
		  "integer from 1 to 1000000 (jiffies; default 1020)" },
		{ "o11int:MAX_SLEEP_AVG=1000001", "from 1 to 1000000" },
		{ "o11int:MAX_SLEEP_AVG=12x", "from 1 to 1000000" },
		{ "o11int:MAX_SLEEP_AVG=", "expected NAME=VALUE" },
		{ "o11int:CHILD_PENALTY=101", "o11int's CHILD_PENALTY takes an "
		  "integer from 0 to 100 (%; default 90)" },
		{ "o11int:ON_RUNQUEUE_WEIGHT=30", "o11int has no knob "
		  "ON_RUNQUEUE_WEIGHT" },
		{ "stock:TIMESLICE_GRANULARITY=10", "stock has no knob" },
		{ "nosuch:MAX_SLEEP_AVG=1", "unknown policy 'nosuch'" },
		{ "o11int:", "expected knobs after ':'" },
		{ "o11int:MIN_TIMESLICE=300", "MIN_TIMESLICE=300 is above "
		  "MAX_TIMESLICE=200" },
		{ "g3:MAX_SLEEP_AVG=1000", "from 1024 to 100000000000" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sm_tuning t;
		struct sr_diag d = SR_DIAG_INIT;
		int rc = sm_tuning_parse(&t, cases[i].spec, &d);

		if (!rc)
			rc = sm_tuning_finish(&t, &d);
		CHECK_CTX("%s", cases[i].spec);
		CHECK_INT(rc, SR_EUSAGE);
		CHECK(strstr(d.msg, cases[i].msg) != NULL);
		if (!strstr(d.msg, cases[i].msg))
			fprintf(stderr, "    got: %s\n", d.msg);
	}
}

/*
 * --set applies to each policy that has the knob and leaves knobs set
 * inline alone; every --set must name a knob of some policy of the run.
 */
static void test_sets(void)
{
	static const char *const sets[] = {
		"MAX_SLEEP_AVG=3000", "ON_RUNQUEUE_WEIGHT=100",
	};
	const struct sm_policy *pols[2] = {
		sm_policy_find("o11int"), sm_policy_find("a3"),
	};
	const struct sm_policy *stock_only[1] = { sm_policy_find("stock") };
	static const char *const bad[] = { "ON_RUNQUEUE_WEIGHT=1" };
	static const char *const unknown[] = { "FOO=1" };
	struct sm_tuning t;
	struct sr_diag d = SR_DIAG_INIT;

	CHECK_INT(sm_tuning_parse(&t, "o11int:MAX_SLEEP_AVG=2000", &d), SR_OK);
	CHECK_INT(sm_tuning_apply_sets(&t, sets, 2, false, &d), SR_OK);
	CHECK_INT(sm_tuning_finish(&t, &d), SR_OK);
	CHECK_STR(t.label, "o11int:MAX_SLEEP_AVG=2000");
	CHECK_INT(sm_tuning_parse(&t, "o11int", &d), SR_OK);
	CHECK_INT(sm_tuning_apply_sets(&t, sets, 2, false, &d), SR_OK);
	CHECK_INT(sm_tuning_finish(&t, &d), SR_OK);
	CHECK_STR(t.label, "o11int:MAX_SLEEP_AVG=3000");
	CHECK_INT(sm_tuning_get(&t, "STARVATION_LIMIT", -1), 3000);
	CHECK_INT(sm_tuning_parse(&t, "a3", &d), SR_OK);
	d = (struct sr_diag)SR_DIAG_INIT;
	/* 3000 ns is in a3's range (ns) */
	CHECK_INT(sm_tuning_apply_sets(&t, sets, 2, false, &d), SR_OK);
	CHECK_INT(sm_tuning_finish(&t, &d), SR_OK);
	CHECK_STR(t.label, "a3:MAX_SLEEP_AVG=3000,ON_RUNQUEUE_WEIGHT=100");
	CHECK_INT(sm_sets_check(sets, 2, pols, 2, &d), SR_OK);
	CHECK_INT(sm_sets_check(bad, 1, stock_only, 1, &d), SR_EUSAGE);
	CHECK(strstr(d.msg, "no policy of this run has a knob "
		     "ON_RUNQUEUE_WEIGHT (a3 have)") != NULL);
	d = (struct sr_diag)SR_DIAG_INIT;
	CHECK_INT(sm_sets_check(unknown, 1, pols, 2, &d), SR_EUSAGE);
	CHECK(strstr(d.msg, "no policy has a knob FOO") != NULL);
}

/* A tuned policy behind a drv. */
static struct sm_sched *tuned(const char *spec)
{
	struct sm_tuning t;
	struct sr_diag d = SR_DIAG_INIT;
	struct sm_sched *s;

	if (sm_tuning_parse(&t, spec, &d) || sm_tuning_finish(&t, &d)) {
		fprintf(stderr, "%s: %s\n", spec, d.msg);
		exit(2);
	}
	s = sm_sched_new(t.policy, &t);
	if (!s)
		exit(2);
	return s;
}

/*
 * A tuning moves the model as editing the #define would.
 *
 * Long sleep (test-interactive's test_long_sleep: runs 10 ms, sleeps
 * 1500 ms; sleep_time 1499 > HZ):
 *   o11int:MAX_SLEEP_AVG=2040: JUST_INTERACTIVE_SLEEP = 2040 - 2 * 102 =
 *     1836, bonus 1000 * 1836 / 2040 / 100 - 5 = 4: prio 116 (default:
 *     816, 117);
 *   stock:MAX_SLEEP_AVG=2000: sleep_avg 1499, bonus 749 / 100 - 5 = 2:
 *     118 (default: 1499 of 10000, 124).
 * One hog's slice and requeues:
 *   stock:MAX_TIMESLICE=100: nice 0 slice 10 + 90 * 19 / 39 = 53: the
 *     first expiry at tick 53;
 *   o11int:TIMESLICE_GRANULARITY=50: requeue at (102 - ts) % 50 = 0 with
 *     ts > 10: ts 52 only (tick 50), not 25 or 75;
 *   g3:TIMESLICE_GRANULARITY=25: ts % 25 = 0: ts 100, 75, 50, 25 (ticks
 *     2, 27, 52, 77).
 */
static void test_moves(void)
{
	static const struct drv_op sleeps[] = {
		RUN(10 * MS), SLEEP(1500 * MS), RUN(FOREVER), END,
	};
	static const struct {
		const char *spec;
		long sleep_avg;
		int prio;
	} sleep_cases[] = {
		{ "o11int:MAX_SLEEP_AVG=2040", 1836, 116 },
		{ "o11int", 816, 117 },
		{ "stock:MAX_SLEEP_AVG=2000", 1499, 118 },
		{ "stock", 1499, 124 },
	};
	static const struct {
		const char *spec;
		long ticks[5];		/* requeues, 0-terminated */
		long expiry;
	} hog_cases[] = {
		{ "stock:MAX_TIMESLICE=100", { 0 }, 53 },
		{ "o11int:TIMESLICE_GRANULARITY=50", { 50, 0 }, 102 },
		{ "g3:TIMESLICE_GRANULARITY=25", { 2, 27, 52, 77, 0 }, 102 },
	};

	for (size_t i = 0; i < sizeof(sleep_cases) / sizeof(sleep_cases[0]);
	     i++) {
		struct sm_sched *s = tuned(sleep_cases[i].spec);
		struct drv d;
		struct sm_view v;

		drv_init_sched(&d, s->policy, s);
		drv_add(&d, 0, true, sleeps, 0);
		drv_run(&d, 1510 * MS);
		drv_view(&d, 0, &v);
		CHECK_CTX("%s after the long sleep", sleep_cases[i].spec);
		CHECK_INT(v.sleep_avg, sleep_cases[i].sleep_avg);
		CHECK_INT(v.prio, sleep_cases[i].prio);
		drv_free(&d);
		sm_sched_free(s);
	}
	for (size_t i = 0; i < sizeof(hog_cases) / sizeof(hog_cases[0]); i++) {
		struct sm_sched *s = tuned(hog_cases[i].spec);
		struct drv d;
		size_t r = 0;

		drv_init_sched(&d, s->policy, s);
		drv_add(&d, 0, true, hog, 0);
		drv_run(&d, 0);
		for (long k = 1; k <= hog_cases[i].expiry; k++) {
			const struct drv_rec *rq, *ex;

			drv_run(&d, k * MS);
			rq = drv_last(&d, 0, SM_CH_REQUEUE);
			ex = drv_last(&d, 0, SM_CH_EXPIRE);
			CHECK_CTX("%s tick %ld", hog_cases[i].spec, k);
			if (k == hog_cases[i].expiry) {
				CHECK(ex != NULL);
				continue;
			}
			CHECK(ex == NULL);
			if (hog_cases[i].ticks[r] == k) {
				CHECK(rq != NULL);
				r++;
			} else {
				CHECK(rq == NULL);
			}
		}
		CHECK_INT(hog_cases[i].ticks[r], 0);
		drv_free(&d);
		sm_sched_free(s);
	}
}

int main(void)
{
	test_tables();
	test_parse();
	test_errors();
	test_sets();
	test_moves();
	return test_done("test-knobs");
}
