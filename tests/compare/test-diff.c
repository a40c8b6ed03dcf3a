/*
 * test-diff: the diff and the periodic-task metrics on the hand-written
 * replay in tests/compare/data/hogplayer (README.md there gives the
 * scenario and works out every expected value below), the exact number
 * parsers and formatters, period detection, the two spreads, and that the
 * JSON output is valid JSON.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/behave.h"
#include "compare/diff.h"
#include "compare/load.h"
#include "compare/runset.h"
#include "compare/source.h"
#include "compare/tsv.h"
#include "lib/fmt.h"
#include "tests/lib/test.h"

#define FIXTURE "tests/compare/data/hogplayer"

/* The set of replay directory dir's runs pol[0..n-1] (rows in src). */
static int open_dir(struct cmp_source *src, struct cmp_set *s,
		    const char *dir, const char *title,
		    const char *const *pol, size_t n, struct sr_diag *d)
{
	struct cmp_source_opts o = { .trace = dir, .policies = pol,
				     .npolicies = n, .title = title };

	memset(s, 0, sizeof(*s));
	if (cmp_source_open(src, &o, d))
		return d->code;
	return cmp_set_of(s, src, d);
}

static void close_dir(struct cmp_source *src, struct cmp_set *s)
{
	cmp_set_free(s);
	cmp_source_close(src);
}

/* ---- a small JSON validator (RFC 8259 grammar, no extensions) --------- */

static const char *json_value(const char *p, int depth);

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20)
			return NULL;
		if (c == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 5;
				continue;
			}
			if (!*p || !strchr("\"\\/bfnrt", *p))
				return NULL;
		}
		p++;
	}
	return p + 1;
}

static const char *json_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p;
}

static const char *json_value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = ws(p);
	switch (*p) {
	case '{':
		p = ws(p + 1);
		if (*p == '}')
			return p + 1;
		for (;;) {
			p = json_string(ws(p));
			if (!p || *(p = ws(p)) != ':')
				return NULL;
			p = json_value(p + 1, depth + 1);
			if (!p)
				return NULL;
			p = ws(p);
			if (*p == '}')
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	case '[':
		p = ws(p + 1);
		if (*p == ']')
			return p + 1;
		for (;;) {
			p = json_value(p, depth + 1);
			if (!p)
				return NULL;
			p = ws(p);
			if (*p == ']')
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	case '"':
		return json_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return json_number(p);
	}
}

static int json_valid(const char *s)
{
	const char *end = json_value(s, 0);

	return end && *ws(end) == '\0';
}

/* ---- helpers ----------------------------------------------------------- */

static char *capture(int (*fn)(const struct cmp_ndiff *, FILE *),
		     const struct cmp_ndiff *df)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (fn(df, f) != SR_OK) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

static int table_all(const struct cmp_ndiff *df, FILE *f)
{
	return cmp_ndiff_write_table(df, f, true, false, false);
}

static const struct cmp_task *task(const struct cmp_set *s, int pid,
				  const char *comm)
{
	long k = cmp_set_find(s, pid, comm, 1);

	return k < 0 ? NULL : &s->tasks[k];
}

static void test_parsers(void)
{
	static const struct {
		const char *in;
		int digits;
		int ok;
		int64_t want;
	} fixed[] = {
		{ "12.345", 6, 0, 12345000 },
		{ "0.000001", 6, 0, 1 },
		{ "0.0000005", 6, 0, 1 },     /* rounds half up */
		{ "0.0000004", 6, 0, 0 },
		{ "-1.5", 3, 0, -1500 },
		{ "7", 9, 0, 7000000000LL },
		{ ".5", 1, 0, 5 },
		{ "", 6, -1, 0 },
		{ "1.2.3", 6, -1, 0 },
		{ "abc", 6, -1, 0 },
		{ "1e3", 6, -1, 0 },
		{ "99999999999999999999", 6, -1, 0 },
	};
	static const struct {
		int64_t v;
		int shift, dec;
		const char *want;
	} fmt[] = {
		{ 9500000, 6, 3, "9.500" },
		{ 1234567, 6, 2, "1.23" },
		{ 1235000, 6, 2, "1.24" },    /* half away from zero */
		{ -1235000, 6, 2, "-1.24" },
		{ -4, 6, 3, "0.000" },        /* no "-0.000" */
		{ 102000000, 9, 3, "0.102" },
		{ 5, 0, 3, "5" },
		{ 1, 6, 6, "0.000001" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		int64_t v = 0;
		int rc = cmp_parse_fixed(fixed[i].in, fixed[i].digits, &v);

		CHECK_CTX("parse_fixed('%s')", fixed[i].in);
		CHECK_INT(rc, fixed[i].ok);
		if (!rc)
			CHECK_INT(v, fixed[i].want);
	}
	for (size_t i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		CHECK_CTX("fmt_scaled(%lld)", (long long)fmt[i].v);
		CHECK_STR(sr_fmt_scaled(buf, sizeof(buf), fmt[i].v, fmt[i].shift,
					fmt[i].dec), fmt[i].want);
	}
	CHECK_CTX("%s", "");
}

static void test_period_detection(void)
{
	int64_t w[40];
	double reg;

	/* a steady 20 ms period with up to 1 ms of jitter: gaps 21, 21, 18 */
	for (int i = 0; i < 40; i++)
		w[i] = 5000000000LL + i * 20000000LL + (i % 3 - 1) * 1000000LL;
	CHECK_INT(cmp_detect_period(w, 40, &reg), 21000000); /* the median gap */
	CHECK(reg >= 0.99);
	/* one wake in three missing: most gaps still 20 ms */
	{
		int64_t v[30];
		size_t n = 0;

		for (int i = 0; i < 40 && n < 30; i++)
			if (i % 7 != 3)
				v[n++] = i * 20000000LL;
		CHECK_INT(cmp_detect_period(v, n, &reg), 20000000);
	}
	/* a 47 ms timer with two quick extra wakeups after each tick (mpv's
	 * audio thread): most gaps are short, the period is still found */
	{
		int64_t v[90];

		for (int i = 0; i < 30; i++) {
			v[3 * i] = i * 47000000LL + (i % 2) * 500000LL;
			v[3 * i + 1] = v[3 * i] + 300000LL;
			v[3 * i + 2] = v[3 * i] + 1000000LL;
		}
		/* starts alternate 47.5 and 46.5 ms apart: 15 and 14 of them,
		 * the lower median of the 29 gaps is 47.5 */
		CHECK_INT(cmp_detect_period(v, 90, &reg), 47500000);
		CHECK(reg >= 0.99);
	}
	/* gaps that double each time: not periodic */
	for (int i = 0; i < 20; i++)
		w[i] = (1LL << i) * 1000000LL;
	CHECK_INT(cmp_detect_period(w, 20, &reg), 0);
	/* too few wakeups */
	for (int i = 0; i < 8; i++)
		w[i] = i * 10000000LL;
	CHECK_INT(cmp_detect_period(w, 8, &reg), 0);
	/* periods under 1 ms are noise */
	for (int i = 0; i < 20; i++)
		w[i] = i * 500000LL;
	CHECK_INT(cmp_detect_period(w, 20, &reg), 0);
}

static void test_spreads(void)
{
	/* delays 2,2,2,9.5,2,2,2,2,2,2 ms (the player under stock) */
	long double s1 = 0, s2 = 0;
	double sd, ib;

	for (int i = 0; i < 10; i++) {
		long double x = i == 3 ? 9.5e6L : 2e6L;

		s1 += x;
		s2 += x * x;
	}
	sd = cmp_true_sd(10, s1, s2);
	ib = cmp_interbench_sd(10, s1, s2);
	/* mean 2.75; sum of squared deviations 9*0.5625 + 45.5625 = 50.625;
	 * /9 = 5.625; sqrt = 2.371708 ms */
	CHECK(fabs(sd - 2371708.245) < 1.0);
	/* interbench: (126.25 - 2.75^2/10) / 9 = 13.943750; sqrt = 3.734133 */
	CHECK(fabs(ib - 3734133.3) < 1.0);
	/* constant delays: no deviation, but interbench's "SD" is the value */
	s1 = 5 * 3e6L;
	s2 = 5 * 9e12L;
	CHECK(cmp_true_sd(5, s1, s2) < 1e-3);
	CHECK(fabs(cmp_interbench_sd(5, s1, s2) - 3e6 * sqrt(5.0 / 4.0 - 1.0 / 20.0)) < 1.0);
	CHECK_INT((long long)cmp_true_sd(1, 5, 25), 0);
}

static void test_fixture(void)
{
	static const char *const pol[] = { "stock", "o11int" };
	struct sr_diag d = SR_DIAG_INIT;
	struct cmp_source src;
	struct cmp_set s;
	struct cmp_diff df;
	struct cmp_ndiff nd;
	const struct cmp_task *player, *hog;
	char *out;

	if (open_dir(&src, &s, FIXTURE, "hogplayer", pol, 2, &d) ||
	    cmp_set_load(&s, &d)) {
		fprintf(stderr, "%s\n", d.msg);
		CHECK(!"fixture loads");
		close_dir(&src, &s);
		return;
	}
	CHECK_STR(s.ref_policy, "observed");
	CHECK_INT(s.t0, 1000000000LL);
	CHECK_INT(s.t1, 1100000000LL);
	player = task(&s, 200, "player");
	hog = task(&s, 100, "hog");
	CHECK(player && hog);
	if (!player || !hog) {
		close_dir(&src, &s);
		return;
	}
	/* behaviour in the recorded run: the player sleeps 90 ms of 100 */
	CHECK_INT(player->run_ns, 10000000);
	CHECK_INT(player->sleep_ns, 90000000);
	CHECK_INT(player->wakes, 11);
	CHECK_INT(player->cls, CMP_CLASS_INTERACTIVE);
	CHECK_INT(hog->cls, CMP_CLASS_BATCH);
	CHECK_INT(hog->run_ns, 90000000);
	CHECK_INT(hog->wait_ns, 10000000);
	/* the period, and the ten complete periods that fit the trace */
	CHECK_INT(player->nbursts, 10);
	CHECK_INT(player->per[3].first, 3);
	CHECK_INT(player->per[3].last, 3);
	CHECK_INT(player->period_ns, 10000000);
	CHECK_INT(player->period_forced, 0);
	CHECK_INT(hog->period_ns, 0);
	CHECK_INT(player->nper, 10);
	/* interbench under stock: period 3's burst ends at 40.5 ms > 40 ms */
	CHECK_INT(player->figs[0].periods, 10);
	CHECK_INT(player->figs[0].deadlines_met, 9);
	CHECK_INT(player->figs[0].cpu_wanted_ns, 10000000);
	CHECK_INT(player->figs[0].cpu_got_ns, 9500000);
	CHECK(fabs(cmp_deadlines_met_pct(&player->figs[0]) - 90.0) < 1e-9);
	CHECK(fabs(cmp_desired_cpu_pct(&player->figs[0]) - 95.0) < 1e-9);
	/* on stock's own clock the same: period 3 began at its wakeup (30 ms)
	 * and ended at 40.5; period 4 began when stock ran straight on into
	 * it (40.5) and ended at 41.5 */
	CHECK_INT(player->figs[0].deadlines_met_own, 9);
	/* and under o11int every period is met */
	CHECK_INT(player->figs[1].deadlines_met, 10);
	CHECK_INT(player->figs[1].cpu_got_ns, 10000000);
	/* summary figures as read */
	CHECK_INT(player->figs[0].p99_ns, 9500000);
	CHECK_INT(player->figs[0].avg_ns, 2750000);
	CHECK_INT(player->figs[0].late_wakeups, 1);
	CHECK_INT(player->figs[0].ndelays, 10);
	CHECK(fabs(player->figs[0].sd_ns - 2371708.245) < 1.0);

	if (cmp_diff_build(&df, &s, 0, 1, NULL, &d)) {
		CHECK(!"diff builds");
		close_dir(&src, &s);
		return;
	}
	CHECK_INT(df.nrows, 2);
	CHECK_INT(df.rows[0], player - s.tasks); /* -9.5 ms beats -1 ms */
	CHECK_INT(df.ninter, 1);
	CHECK_INT(df.nbetter, 1);
	CHECK_INT(df.nworse, 0);
	CHECK_INT(df.nperiodic, 1);
	CHECK_INT(df.nbatch, 1);
	CHECK_INT(df.batch_done_known, 1);
	CHECK_INT(df.batch_done_a, 102000000);
	CHECK_INT(df.batch_done_b, 100000000);
	CHECK_INT(cmp_verdict_of(player, 0, 1), CMP_BETTER);
	CHECK_INT(cmp_verdict_of(hog, 0, 1), CMP_BETTER);

	CHECK_INT(cmp_ndiff_build(&nd, &s, NULL, &d), SR_OK);
	out = capture(cmp_ndiff_write_json, &nd);
	CHECK(out && json_valid(out));
	CHECK(out && strstr(out, "\"deadlines_met_pct\": 90.000"));
	CHECK(out && strstr(out, "\"batch_done_a_s\": 0.102000000"));
	CHECK(out && strstr(out, "\"interactive_better\": [{\"pid\": 200, \"comm\": \"player\", \"occ\": 1}]"));
	free(out);
	out = capture(table_all, &nd);
	CHECK(out && strstr(out, "better under o11int: player (200) deadlines met 90.0% -> 100.0%"));
	CHECK(out && strstr(out, "deadlines met 90.0% -> 100.0% (own clock 90.0% -> 100.0%)"));
	CHECK(out && strstr(out, "done 0.102 -> 0.100 s (-0.002 s, -2.0%)"));
	free(out);
	out = capture(cmp_ndiff_write_tsv, &nd);
	CHECK(out && !strncmp(out, "policy_a\tpolicy_b\tpid\tcomm\t", 27));
	CHECK(out && strstr(out, "\nstock\to11int\t200\tplayer\t1\tinteractive\t0.9000\t110.000\t10.000000\t"));
	free(out);
	cmp_ndiff_free(&nd);
	cmp_diff_free(&df);

	/* --task: only the hog */
	{
		struct cmp_taskre *re;

		CHECK_INT(cmp_taskre_new(&re, "^h.g$", NULL, &d), SR_OK);
		CHECK_INT(cmp_diff_build(&df, &s, 0, 1, re, &d), SR_OK);
		CHECK_INT(df.nrows, 1);
		CHECK_INT(df.ninter, 0);
		cmp_diff_free(&df);
		cmp_taskre_free(re);
		d.code = SR_OK;
		CHECK_INT(cmp_taskre_new(&re, "(unclosed", NULL, &d), SR_EUSAGE);
		CHECK(strstr(d.msg, "offset") != NULL);
	}
	close_dir(&src, &s);
}

/* --period forces a period on a comm, whatever the detection says */
static void test_forced_period(void)
{
	static const char *const pol[] = { "stock", "o11int" };
	struct cmp_period_opt po = { "player", 25000000 };
	struct sr_diag d = SR_DIAG_INIT;
	struct cmp_source src;
	struct cmp_set s;
	const struct cmp_task *player;

	CHECK_INT(open_dir(&src, &s, FIXTURE, "hogplayer", pol, 2, &d), SR_OK);
	s.period_opts = &po;
	s.nperiod_opts = 1;
	CHECK_INT(cmp_set_load(&s, &d), SR_OK);
	player = task(&s, 200, "player");
	CHECK(player != NULL);
	if (player) {
		CHECK_INT(player->period_forced, 1);
		CHECK_INT(player->period_ns, 25000000);
		/* a wake under half a period after a period's start joins it, so
		 * wakes pair up: periods start at 0, 20, 40, 60 (80 + 25 ms is
		 * past the trace's end) */
		CHECK_INT(player->nper, 4);
		CHECK_INT(player->per[1].wake_ns, 1020000000);
		CHECK_INT(player->per[1].first, 2);  /* bursts 2 and 3 */
		CHECK_INT(player->per[1].last, 3);
		CHECK_INT(player->figs[1].deadlines_met, 4);
		CHECK_INT(player->figs[0].deadlines_met, 4);
		/* period starts 20 ms apart against a 25 ms period: all within
		 * the 20% tolerance (5 ms) */
		CHECK(player->period_regular > 0.99);
	}
	close_dir(&src, &s);
}

/*
 * tests/compare/data/lives: pid 400 execs from bash to cc1 while running;
 * pid 500 (sh) exits and the pid is reused by another sh.
 */
static void test_lives(void)
{
	static const char *const pol[] = { "stock", "o11int" };
	struct sr_diag d = SR_DIAG_INIT;
	struct cmp_source src;
	struct cmp_set s;
	long bash, cc1, sh1, sh2;

	CHECK_INT(open_dir(&src, &s, "tests/compare/data/lives", NULL, pol, 2,
			   &d), SR_OK);
	CHECK_INT(cmp_set_load(&s, &d), SR_OK);
	bash = cmp_set_find(&s, 400, "bash", 1);
	cc1 = cmp_set_find(&s, 400, "cc1", 1);
	sh1 = cmp_set_find(&s, 500, "sh", 1);
	sh2 = cmp_set_find(&s, 500, "sh", 2);
	CHECK(bash >= 0 && cc1 >= 0 && sh1 >= 0 && sh2 >= 0);
	CHECK_INT(cmp_set_find(&s, 500, "sh", 3), -1);
	if (bash < 0 || cc1 < 0 || sh1 < 0 || sh2 < 0) {
		close_dir(&src, &s);
		return;
	}
	/* the exec ends bash's record at 2 ms: its running stops there */
	CHECK_INT(s.tasks[bash].run_ns, 2000000);
	CHECK_INT(s.tasks[bash].figs[0].present, 0);
	/* cc1 runs 2-50, 51-61, 64-75, 76-100 ms and waits 5 ms */
	CHECK_INT(s.tasks[cc1].run_ns, 93000000);
	CHECK_INT(s.tasks[cc1].wait_ns, 5000000);
	CHECK_INT(s.tasks[cc1].cls, CMP_CLASS_BATCH);
	CHECK_INT(s.tasks[cc1].figs[0].ndelays, 3);
	/* first sh: 1 ms of CPU, one wait of 0; the second: run 4, wait 6,
	 * asleep 6 ms, and the waits at 60 and 70 ms are its own */
	CHECK_INT(s.tasks[sh1].run_ns, 1000000);
	CHECK_INT(s.tasks[sh1].figs[0].ndelays, 1);
	CHECK_INT(s.tasks[sh1].figs[0].runtime_ns, 1000000);
	CHECK_INT(s.tasks[sh2].first_ns, 1060000000);
	CHECK_INT(s.tasks[sh2].run_ns, 4000000);
	CHECK_INT(s.tasks[sh2].wait_ns, 6000000);
	CHECK_INT(s.tasks[sh2].sleep_ns, 6000000);
	CHECK_INT(s.tasks[sh2].wakes, 1);
	CHECK_INT(s.tasks[sh2].figs[0].ndelays, 2);
	CHECK_INT(s.tasks[sh2].figs[0].runtime_ns, 4000000);
	CHECK((long long)s.tasks[sh2].figs[1].sum_ns == 6000000);
	{
		char lab[64];

		cmp_task_label(&s.tasks[sh2], lab, sizeof(lab));
		CHECK_STR(lab, "sh (500#2)");
	}
	close_dir(&src, &s);
}

static void test_bad_input(void)
{
	static const char *const pol[] = { "stock", "o11int" };
	static const char *const missing[] = { "stock", "nosuch" };
	struct sr_diag d = SR_DIAG_INIT;
	struct cmp_source src;
	struct cmp_set s;

	CHECK_INT(open_dir(&src, &s, FIXTURE, NULL, missing, 2, &d),
		  SR_ENOINPUT);
	CHECK(strstr(d.msg, "nosuch") != NULL);
	close_dir(&src, &s);
	d.code = SR_OK;
	/* the rows are read when the source opens */
	CHECK_INT(open_dir(&src, &s, "tests/compare/data/badtsv", NULL, pol, 2,
			   &d), SR_EDATA);
	CHECK(strstr(d.msg, "tests/compare/data/badtsv/stock/summary.tsv:3: expected a decimal number in column p99_delay_ms, got 'fast'") != NULL);
	close_dir(&src, &s);
}

int main(void)
{
	test_parsers();
	test_period_detection();
	test_spreads();
	test_fixture();
	test_forced_period();
	test_lives();
	test_bad_input();
	return test_done("test-diff");
}
