/*
 * test-rules: the constants and per-nice tables (docs/models.md,
 * "Constants"), the policy table, and effective_prio / TASK_INTERACTIVE
 * across sleep_avg under each policy.  Expected values are worked out by
 * hand from those formulas in the comment above each table.
 */
#include "sched-model/o1.h"
#include "tests/lib/test.h"

static const struct sm_policy *pol(const char *name)
{
	const struct sm_policy *p = sm_policy_find(name);

	if (!p) {
		fprintf(stderr, "no policy %s\n", name);
		exit(1);
	}
	return p;
}

/* A task of the given nice on a fresh runqueue, with sleep_avg set. */
struct fixture {
	const struct sm_policy *pol;
	struct sm_rq *rq;
	struct o1_task *p;
};

static void fixture_init(struct fixture *f, const char *policy, int nice)
{
	struct sm_task_info info = { 1, nice, SM_SCHED_NORMAL, 0, true,
				     0, 0, NULL };

	f->pol = pol(policy);
	f->rq = f->pol->rq_new(NULL, 0, 1000, NULL);
	f->p = o1_task_of(f->pol->task_new(f->rq, &info));
}

static void fixture_free(struct fixture *f)
{
	f->pol->task_free(f->rq, &f->p->base);
	f->pol->rq_free(f->rq);
}

static void test_constants(void)
{
	/* docs/models.md, "Constants", both columns */
	CHECK_INT(MAX_PRIO, 140);
	CHECK_INT(MAX_USER_PRIO, 40);
	CHECK_INT(MAX_RT_PRIO, 100);
	CHECK_INT(NICE_TO_PRIO(0), 120);
	CHECK_INT(NICE_TO_PRIO(-20), 100);
	CHECK_INT(NICE_TO_PRIO(19), 139);
	CHECK_INT(MIN_TIMESLICE, 10);
	CHECK_INT(MAX_TIMESLICE, 200);
	CHECK_INT(PARENT_PENALTY, 100);
	CHECK_INT(EXIT_WEIGHT, 3);
	CHECK_INT(PRIO_BONUS_RATIO, 25);
	CHECK_INT(MAX_BONUS, 10);
	CHECK_INT(INTERACTIVE_DELTA, 2);
	CHECK_INT(AVG_TIMESLICE, 102);		/* 10 + 190*19/39 */
	CHECK_INT(TIMESLICE_GRANULARITY, 25);	/* HZ/40 */
	CHECK_INT(STOCK_MAX_SLEEP_AVG, 10000);
	CHECK_INT(STOCK_STARVATION_LIMIT, 10000);
	CHECK_INT(STOCK_CHILD_PENALTY, 50);
	CHECK_INT(MM1_MAX_SLEEP_AVG, 1020);	/* AVG_TIMESLICE*MAX_BONUS */
	CHECK_INT(MM1_STARVATION_LIMIT, 1020);
	CHECK_INT(MM1_CHILD_PENALTY, 90);
	/* the test2-mm1 > 1 s value: 1020*9/10 - 1 */
	CHECK_INT(MM1_MAX_SLEEP_AVG * (MAX_BONUS - 1) / MAX_BONUS - 1, 917);

	CHECK_INT(pol("stock")->max_sleep_avg, 10000);
	CHECK_INT(pol("test2-mm1")->max_sleep_avg, 1020);
	CHECK_INT(pol("o11int")->max_sleep_avg, 1020);
	CHECK(!pol("stock")->has_credit);
	CHECK(!pol("test2-mm1")->has_credit);
	CHECK(pol("o11int")->has_credit);
}

/* Names and aliases (docs/models.md's table of policies); unknown names
   give NULL. */
static void test_table(void)
{
	static const struct { const char *name, *canon; } cases[] = {
		{ "stock", "stock" },
		{ "2.6.0-test2", "stock" },
		{ "test2-mm1", "test2-mm1" },
		{ "2.6.0-test2-mm1", "test2-mm1" },
		{ "o11int", "o11int" },
		{ "2.6.0-test2-mm1-O11int", "o11int" },
		{ "O11int", NULL },
		{ "", NULL },
		{ "bfs", NULL },
	};
	int n = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sm_policy *p = sm_policy_find(cases[i].name);

		CHECK_CTX("name %s", cases[i].name);
		if (!cases[i].canon)
			CHECK(p == NULL);
		else
			CHECK(p && !strcmp(p->name, cases[i].canon));
	}
	CHECK_CTX("table");
	for (const struct sm_policy *const *p = sm_policies; *p; p++) {
		CHECK((*p)->summary && (*p)->summary[0]);
		CHECK((*p)->rq_new && (*p)->schedule && (*p)->check);
		n++;
	}
	CHECK_INT(n, 12);
	CHECK(sm_policy_find(NULL) == NULL);
	CHECK_STR(sm_change_name(SM_CH_EXPIRE), "expire");
	CHECK_STR(sm_change_name(SM_CH_MIGRATE), "migrate");
	CHECK_STR(sm_change_name((enum sm_change)999), "?");
}

/*
 * task_timeslice = 10 + 190*(19 - nice)/39, C truncation (docs/models.md,
 * "The runqueue"):
 *   -20: 10 + 190*39/39 = 200     -15: 10 + 6460/39 = 10 + 165 = 175
 *   -12: 10 + 5890/39 = 161       -10: 10 + 5510/39 = 10 + 141 = 151
 *    -5: 10 + 4560/39 = 126         0: 10 + 3610/39 = 10 + 92 = 102
 *     5: 10 + 2660/39 = 78         10: 10 + 1710/39 = 10 + 43 = 53
 *    15: 10 + 760/39 = 29          19: 10 + 0 = 10
 * The same under every policy; it depends on nice only.
 */
static void test_timeslice(void)
{
	static const struct { int nice; unsigned ts; } cases[] = {
		{ -20, 200 }, { -15, 175 }, { -12, 161 }, { -10, 151 },
		{ -5, 126 }, { 0, 102 }, { 5, 78 }, { 10, 53 }, { 15, 29 },
		{ 19, 10 },
	};

	for (const struct sm_policy *const *pp = sm_policies; *pp; pp++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct fixture f;
			struct sm_view v;

			if (!(*pp)->max_sleep_avg)
				break;	/* not of the O(1) family */
			fixture_init(&f, (*pp)->name, cases[i].nice);
			CHECK_CTX("%s nice %d", (*pp)->name, cases[i].nice);
			CHECK_INT(task_timeslice(f.p), cases[i].ts);
			/* a new task starts with a full slice */
			f.pol->view(&f.p->base, &v);
			CHECK_INT(v.time_slice, cases[i].ts);
			CHECK_INT(v.static_prio, 120 + cases[i].nice);
			/* the slice ignores the dynamic prio */
			f.p->prio = 100;
			CHECK_INT(task_timeslice(f.p), cases[i].ts);
			fixture_free(&f);
		}
}

/*
 * DELTA(p) = nice*10/40 (truncated toward zero) + 2, for every nice, as
 * docs/models.md's ranges ("Constants"): -20 -> -3; -19..-16 -> -2; -15..-12 -> -1;
 * -11..-8 -> 0; -7..-4 -> 1; -3..3 -> 2; 4..7 -> 3; 8..11 -> 4;
 * 12..15 -> 5; 16..19 -> 6.  E.g. -19: -190/40 = -4 (not -5) + 2 = -2.
 */
static void test_delta(void)
{
	static const struct { int lo, hi, delta; } ranges[] = {
		{ -20, -20, -3 }, { -19, -16, -2 }, { -15, -12, -1 },
		{ -11, -8, 0 }, { -7, -4, 1 }, { -3, 3, 2 }, { 4, 7, 3 },
		{ 8, 11, 4 }, { 12, 15, 5 }, { 16, 19, 6 },
	};
	int seen = 0;

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		for (int nice = ranges[i].lo; nice <= ranges[i].hi; nice++) {
			struct o1_task t;

			memset(&t, 0, sizeof(t));
			t.static_prio = NICE_TO_PRIO(nice);
			CHECK_CTX("nice %d", nice);
			CHECK_INT(DELTA(&t), ranges[i].delta);
			seen++;
		}
	CHECK_INT(seen, 40);
}

/*
 * effective_prio and TASK_INTERACTIVE across sleep_avg.
 * bonus = 1000*sleep_avg/MAX_SLEEP_AVG/100 - 5; prio = static - bonus,
 * clamped to [100, 139]; interactive iff prio <= static - DELTA.
 *
 * stock (MAX_SLEEP_AVG 10000): bonus = floor(sleep_avg/1000) - 5
 *   nice 0:  0 -> -5 -> 125;  999 -> 125;  1000 -> 124;  5000 -> 120;
 *            6999 -> bonus 1 -> 119 (not interactive: needs <= 118);
 *            7000 -> 118 (interactive);  9999 -> 116;  10000 -> +5 -> 115
 *   nice -20: 0 -> 105;  10000 -> 95, clamped to 100
 *   nice 19:  0 -> 144, clamped to 139;  10000 -> 134 (never interactive:
 *            DELTA 6 needs prio <= 133)
 * test2-mm1 and O11int (MAX_SLEEP_AVG 1020): bonus = floor(s/102) - 5
 *   nice 0:  0 -> 125; 101 -> 125; 102 -> 124; 203 -> 124; 204 -> 123;
 *            510 -> 120; 713 -> bonus 1 -> 119 (not interactive);
 *            714 -> 118 (interactive); 816 -> 117; 917 -> 117;
 *            918 -> 116; 1019 -> 116; 1020 -> 115;
 *            1326 (O11's JIS of nice -20, uncapped) -> bonus 8 -> 112
 *   nice -20: 1326 -> 92, clamped to 100
 *   nice 19:  1020 -> 134 (not interactive)
 */
static void test_effective_prio(void)
{
	static const struct {
		const char *policy;
		int nice;
		unsigned long sleep_avg;
		int prio;
		bool interactive;
	} cases[] = {
		{ "stock", 0, 0, 125, false },
		{ "stock", 0, 999, 125, false },
		{ "stock", 0, 1000, 124, false },
		{ "stock", 0, 5000, 120, false },
		{ "stock", 0, 6999, 119, false },
		{ "stock", 0, 7000, 118, true },
		{ "stock", 0, 9999, 116, true },
		{ "stock", 0, 10000, 115, true },
		{ "stock", -20, 0, 105, false },
		{ "stock", -20, 10000, 100, true },
		{ "stock", 19, 0, 139, false },
		{ "stock", 19, 10000, 134, false },
		{ "test2-mm1", 0, 0, 125, false },
		{ "test2-mm1", 0, 101, 125, false },
		{ "test2-mm1", 0, 102, 124, false },
		{ "test2-mm1", 0, 203, 124, false },
		{ "test2-mm1", 0, 204, 123, false },
		{ "test2-mm1", 0, 510, 120, false },
		{ "test2-mm1", 0, 713, 119, false },
		{ "test2-mm1", 0, 714, 118, true },
		{ "test2-mm1", 0, 816, 117, true },
		{ "test2-mm1", 0, 917, 117, true },
		{ "test2-mm1", 0, 918, 116, true },
		{ "test2-mm1", 0, 1019, 116, true },
		{ "test2-mm1", 0, 1020, 115, true },
		{ "test2-mm1", 19, 1020, 134, false },
		{ "o11int", 0, 0, 125, false },
		{ "o11int", 0, 713, 119, false },
		{ "o11int", 0, 714, 118, true },
		{ "o11int", 0, 1020, 115, true },
		{ "o11int", 0, 1326, 112, true },
		{ "o11int", -20, 1326, 100, true },
		{ "o11int", 19, 1020, 134, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;

		fixture_init(&f, cases[i].policy, cases[i].nice);
		CHECK_CTX("%s nice %d sleep_avg %lu", cases[i].policy,
			  cases[i].nice, cases[i].sleep_avg);
		f.p->sleep_avg = cases[i].sleep_avg;
		f.p->prio = effective_prio(f.p);
		CHECK_INT(f.p->prio, cases[i].prio);
		CHECK_INT(TASK_INTERACTIVE(f.p), cases[i].interactive);
		fixture_free(&f);
	}

	/* RT tasks keep their prio whatever sleep_avg says */
	{
		struct fixture f;

		CHECK_CTX("rt");
		fixture_init(&f, "stock", 0);
		f.p->prio = 49;
		f.p->sleep_avg = 10000;
		CHECK_INT(effective_prio(f.p), 49);
		fixture_free(&f);
	}
}

/*
 * The starting state of a task alive before the trace (docs/models.md,
 * "Defaults"): sleep_avg 0, credit 0, a full slice, last_run = now,
 * prio = effective_prio(0) = static + 5; a warm start of 50% gives
 * stock 5000 (bonus 0) and B 510 (bonus 0): prio 120 either way.
 */
static void test_new_task(void)
{
	static const struct {
		const char *policy;
		int pct;
		long sleep_avg, credit;
		int prio, activated;
	} cases[] = {
		{ "stock", 0, 0, -1, 125, -1 },
		{ "stock", 50, 5000, -1, 120, -1 },
		{ "stock", 100, 10000, -1, 115, -1 },
		{ "test2-mm1", 0, 0, -1, 125, 0 },
		{ "test2-mm1", 50, 510, -1, 120, 0 },
		{ "o11int", 0, 0, 0, 125, 0 },
		{ "o11int", 100, 1020, 0, 115, 0 },
		{ "o11int", 250, 1020, 0, 115, 0 },	/* clamped to 100% */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sm_policy *p = pol(cases[i].policy);
		struct sm_task_info info = { 7, 0, SM_SCHED_NORMAL, 0, true,
					     cases[i].pct, 0, NULL };
		struct sm_rq *rq = p->rq_new(NULL, 0, 5000, NULL);
		struct sm_task *t = p->task_new(rq, &info);
		struct sm_view v;
		char why[200];

		CHECK_CTX("%s pct %d", cases[i].policy, cases[i].pct);
		p->view(t, &v);
		CHECK_INT(v.sleep_avg, cases[i].sleep_avg);
		CHECK_INT(v.credit, cases[i].credit);
		CHECK_INT(v.prio, cases[i].prio);
		CHECK_INT(v.time_slice, 102);
		CHECK_INT(v.array, SM_ARRAY_NONE);
		CHECK_INT(v.state, SM_STATE_SLEEPING);
		CHECK_INT(v.last_run, 5000);
		CHECK_INT(v.activated, cases[i].activated);
		CHECK(!v.first_time_slice);
		CHECK_INT(p->check(rq, why, sizeof(why)), 0);
		p->task_free(rq, t);
		p->rq_free(rq);
	}
}

/*
 * The wakeup preemption test (docs/models.md, "Constants"), against a
 * running A at prio 120 with 10 jiffies of slice left, for a woken B:
 *   stock, strictly better prio only: B 119 preempts; B 120 does not,
 *   whatever its slice (21, 100);
 *   TASK_PREEMPTS_CURR (every other O(1) policy): B 119 preempts; B 120
 *   preempts with 21 > 2 x 10 jiffies, not with 20 (twice, not more than
 *   twice) nor 19; B 121 never (100 jiffies).
 * A is made current through the policy (wake, schedule); the prios and
 * slices are then set as the cases say.
 */
static void test_preempts(void)
{
	static const struct {
		int prio;
		unsigned int ts;
		bool strict, tpc;   /* stock's answer, TASK_PREEMPTS_CURR's */
	} cases[] = {
		{ 119, 1, true, true },
		{ 120, 21, false, true },
		{ 120, 20, false, false },
		{ 120, 19, false, false },
		{ 120, 100, false, true },
		{ 121, 100, false, false },
	};
	static const char *const policies[] = {
		"stock", "test2-mm1", "o11int", "o11.1", "o11.2", "g3", "a3",
		"iso",
	};

	for (size_t k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
		const struct sm_policy *p = pol(policies[k]);
		struct sm_task_info ia = { 1, 0, SM_SCHED_NORMAL, 0, true,
					   0, 0, NULL };
		struct sm_task_info ib = { 2, 0, SM_SCHED_NORMAL, 0, true,
					   0, 0, NULL };
		struct sm_rq *rq = p->rq_new(NULL, 0, 1000, NULL);
		struct sm_task *a = p->task_new(rq, &ia);
		struct sm_task *b = p->task_new(rq, &ib);
		struct o1_rq *orq = o1_rq_of(rq);
		bool strict = !strcmp(policies[k], "stock");

		p->wake(rq, a, 0);
		CHECK(p->schedule(rq) == a);
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			CHECK_CTX("%s: B prio %d ts %u", policies[k],
				  cases[i].prio, cases[i].ts);
			o1_task_of(a)->prio = 120;
			o1_task_of(a)->time_slice = 10;
			o1_task_of(b)->prio = cases[i].prio;
			o1_task_of(b)->time_slice = cases[i].ts;
			CHECK_INT(orq->rules->preempts_curr(orq, o1_task_of(b)),
				  strict ? cases[i].strict : cases[i].tpc);
		}
		p->task_free(rq, b);
		p->task_free(rq, a);
		p->rq_free(rq);
	}
	CHECK_CTX("%s", "");
}

int main(void)
{
	test_constants();
	test_table();
	test_timeslice();
	test_delta();
	test_effective_prio();
	test_new_task();
	test_preempts();
	return test_done("test-rules");
}
