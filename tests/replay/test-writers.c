/*
 * test-writers: the replay's TSV rows: timeline formatting (a policy's view
 * and the recorded schedule's "-"), latency rows put in wake order behind
 * a longer wait still open, summary.tsv's added columns and cpus.tsv.
 */
#include <stdlib.h>

#include "replay/summary.h"
#include "replay/sortbuf.h"
#include "replay/writers.h"
#include "tests/lib/test.h"

static char *slurp(FILE *f)
{
	long n;
	char *s;

	fflush(f);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
		s[0] = 0;
	return s;
}

static void test_timeline(void)
{
	FILE *f = tmpfile();
	struct sm_view v = { .prio = 118, .static_prio = 120, .sleep_avg = 250,
			     .credit = -1, .time_slice = 77,
			     .array = SM_ARRAY_EXPIRED };
	struct sr_tl_row r = { .t = 1234567890, .pid = 42, .comm = "a\tb",
			       .event = "expire", .v = &v, .prio = 118,
			       .cpu = 3, .from_cpu = -1 };
	char *s;

	sr_timeline_header(f);
	sr_timeline_row(f, &r);
	r.v = NULL;
	r.event = "run";
	r.prio = -1;
	r.cpu = -1;
	sr_timeline_row(f, &r);
	r.prio = 120;
	r.cpu = 0;
	sr_timeline_row(f, &r);
	r.v = &v;
	r.event = "migrate";
	r.cpu = 1;
	r.from_cpu = 0;
	r.why = "idle-balance";
	sr_timeline_row(f, &r);
	s = slurp(f);
	CHECK_STR(s, "time_ns\tpid\tcomm\tevent\tprio\tstatic_prio\tsleep_avg\t"
		  "credit\ttime_slice\tarray\tcpu\tfrom_cpu\twhy\n"
		  "1234567890\t42\ta?b\texpire\t118\t120\t250\t-\t77\texpired"
		  "\t3\t-\t-\n"
		  "1234567890\t42\ta?b\trun\t-\t-\t-\t-\t-\t-\t-\t-\t-\n"
		  "1234567890\t42\ta?b\trun\t120\t-\t-\t-\t-\t-\t0\t-\t-\n"
		  "1234567890\t42\ta?b\tmigrate\t118\t120\t250\t-\t77\texpired"
		  "\t1\t0\tidle-balance\n");
	free(s);
	fclose(f);
}

/*
 * a waits from 0 to 30, b from 10 to 20: b's row comes first but is held
 * while a's wait (started earlier) is open; written: a, then b.  Then
 * 10000 short waits of b behind a wait of c open from 100: none can be
 * written until c runs, then all are, in wake order.
 */
static int put_lat(void *ctx, const struct sr_lat_row *r)
{
	sr_latency_row(ctx, r);
	return SR_OK;
}

static void test_latency_order(void)
{
	FILE *f = tmpfile();
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_acct *acct;
	struct sr_latw *w;
	static const char want[] =
		"wake_ns\trun_ns\tdelay_ns\tpid\tcomm\tcause\twhy\t"
		"behind_pid\n"
		"0\t30\t30\t100\ta\twakeup\t-\t-\n"
		"10\t20\t10\t200\tb\tpreempt\t-\t-\n"
		"100\t500000\t499900\t300\tc\tfork\t-\t-\n";
	char *s, *line;
	long long prev = -1, n = 0;
	int bad = 0;

	CHECK_INT(sr_acct_new(&acct, &d), SR_OK);
	sr_latency_header(f);
	CHECK_INT(sr_latw_new(&w, acct, put_lat, NULL, f, &d), SR_OK);
	sr_acct_runnable(acct, 1, 0, SR_CAUSE_WAKEUP);
	sr_acct_runnable(acct, 2, 10, SR_CAUSE_PREEMPT);
	sr_acct_run(acct, 2, 20);
	CHECK_INT(sr_latw_add(w, 10, 20, 200, "b", SR_CAUSE_PREEMPT, NULL), SR_OK);
	sr_acct_run(acct, 1, 30);
	CHECK_INT(sr_latw_add(w, 0, 30, 100, "a", SR_CAUSE_WAKEUP, NULL), SR_OK);
	sr_acct_runnable(acct, 3, 100, SR_CAUSE_FORK);
	/* more rows than the buffer keeps in memory: the rest go to a
	   temporary file and come back in order */
	for (int i = 0; i < 40000; i++) {
		int64_t t = 200 + 10 * (int64_t)i;

		sr_acct_stop(acct, 2, t, true);
		sr_acct_run(acct, 2, t + 5);
		CHECK_INT(sr_latw_add(w, t, t + 5, 200, "b", SR_CAUSE_PREEMPT,
				      NULL),
			  SR_OK);
	}
	/* c's wait, open since 100, holds every row after it */
	{
		struct sr_sortbuf_stats st;

		sr_latw_stats(w, &st);
		CHECK(st.peak >= 40000);
		CHECK(st.peak_mem <= 16384);
		CHECK(st.spilled >= 40000 - 16384);
	}
	sr_acct_run(acct, 3, 500000);
	CHECK_INT(sr_latw_add(w, 100, 500000, 300, "c", SR_CAUSE_FORK, NULL), SR_OK);
	sr_latw_flush(w);
	s = slurp(f);
	CHECK(!strncmp(s, want, strlen(want)));
	for (line = strchr(s, '\n'); line && line[1]; line = strchr(line + 1,
								    '\n')) {
		long long wake = atoll(line + 1);

		if (wake < prev)
			bad = 1;
		prev = wake;
		n++;
	}
	CHECK(!bad);
	CHECK_INT(n, 40003);
	free(s);
	sr_latw_free(w);
	sr_acct_free(acct);
	fclose(f);
}

static void test_summary(void)
{
	FILE *f = tmpfile();
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_acct *acct;
	struct sr_task_metrics *m;
	struct sr_summary_extra x = { .span_ns = 3000000000LL, .expired = 4,
				      .late_wakeups = 2,
				      .finish_ts = 12000000001LL,
				      .has_finish = true, .migrations = 5 };
	char *s, *tab;

	CHECK_INT(sr_acct_new(&acct, &d), SR_OK);
	sr_acct_runnable(acct, 0, 0, SR_CAUSE_WAKEUP);
	sr_acct_run(acct, 0, 0);
	sr_acct_stop(acct, 0, 1000000000, false);
	sr_acct_name(acct, 0, 7, "x");
	CHECK_INT(sr_acct_finish(acct, 3000000000LL, &d), SR_OK);
	m = sr_acct_metrics(acct, 0);
	sr_summary_header(f);
	sr_summary_row(f, m, &x);
	x.expired = x.late_wakeups = x.migrations = -1;
	x.span_ns = 0;
	sr_summary_row(f, m, &x);
	s = slurp(f);
	CHECK(strstr(s, "\tlost\tcpu_share\texpired\tlate_wakeups\tfinish_s"
		     "\tmigrations\n") != NULL);
	/* 1 s of 3 s: 0.333333 (rounded to nearest) */
	tab = strstr(s, "\t0.333333\t4\t2\t12.000000001\t5\n");
	CHECK(tab != NULL);
	CHECK(strstr(s, "\t0.000000\t-\t-\t12.000000001\t-\n") != NULL);
	free(s);
	sr_acct_free(acct);
	fclose(f);
}

static void test_cpus(void)
{
	FILE *f = tmpfile();
	struct sr_cpu_figs c = { .busy_ns = 7, .idle_ns = 3, .switches = 2,
				 .balances = 11, .pulls = 1 };
	char *s;

	sr_cpus_header(f);
	sr_cpus_row(f, 0, &c);
	c.balances = -1;
	sr_cpus_row(f, 1, &c);
	s = slurp(f);
	CHECK_STR(s, "cpu\tbusy_ns\tidle_ns\tswitches\tbalances\tpulls\n"
		  "0\t7\t3\t2\t11\t1\n"
		  "1\t7\t3\t2\t-\t1\n");
	free(s);
	fclose(f);
}

/*
 * Attributed waits: a (pid 100) waits 0..30, 10 ns behind x (pid 7,
 * lower-prio) then 20 ns behind y (pid 8, no-preempt); b (pid 200) waits
 * 10..20 in the expired array behind z.  latency.tsv names each wait's
 * main reason and the task it waited behind longest; waits.tsv has their
 * segments as the waits end (b's first: a's wait starts first but ends
 * last), while latency.tsv is in wake order.
 */
static const char *seg_name(const void *ctx, uint32_t comm)
{
	static const char *const names[] = { "x", "y", "z\tq" };

	(void)ctx;
	return comm < 3 ? names[comm] : "?";
}

struct two_files {
	FILE *lat, *waits;
};

static int put_lat2(void *ctx, const struct sr_lat_row *r)
{
	sr_latency_row(((struct two_files *)ctx)->lat, r);
	return SR_OK;
}

static int put_wait2(void *ctx, const struct sr_wait_row *r)
{
	sr_waits_row(((struct two_files *)ctx)->waits, r);
	return SR_OK;
}

static void test_waits(void)
{
	struct two_files f = { tmpfile(), tmpfile() };
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_acct *acct;
	struct sr_latw *w;
	struct sr_wait_seg a[2] = {
		{ 0, 10, 1, 7, 0, 110, 0, { SM_WHY_LOWER_PRIO, 0, -1, -1 } },
		{ 10, 30, 2, 8, 1, 120, 0,
		  { SM_WHY_NO_PREEMPT, SM_WHYSUB_SLICE2X, 1, -1 } },
	}, b[1] = {
		{ 10, 20, 3, 9, 2, 125, 1, { SM_WHY_EXPIRED, 0, 2, -1 } },
	};
	struct sr_lat_why wa = { a, 2, seg_name, NULL };
	struct sr_lat_why wb = { b, 1, seg_name, NULL };
	char *s;

	CHECK_INT(sr_acct_new(&acct, &d), SR_OK);
	sr_latency_header(f.lat);
	sr_waits_header(f.waits);
	CHECK_INT(sr_latw_new(&w, acct, put_lat2, put_wait2, &f, &d), SR_OK);
	sr_acct_runnable(acct, 1, 0, SR_CAUSE_WAKEUP);
	sr_acct_runnable(acct, 2, 10, SR_CAUSE_WAKEUP);
	sr_acct_run(acct, 2, 20);
	CHECK_INT(sr_latw_add(w, 10, 20, 200, "b", SR_CAUSE_WAKEUP, &wb),
		  SR_OK);
	sr_acct_run(acct, 1, 30);
	CHECK_INT(sr_latw_add(w, 0, 30, 100, "a", SR_CAUSE_WAKEUP, &wa),
		  SR_OK);
	CHECK_INT(sr_latw_flush(w), SR_OK);
	sr_latw_free(w);
	sr_acct_free(acct);
	s = slurp(f.lat);
	CHECK_STR(s, "wake_ns\trun_ns\tdelay_ns\tpid\tcomm\tcause\twhy\t"
		  "behind_pid\n"
		  "0\t30\t30\t100\ta\twakeup\tno-preempt\t8\n"
		  "10\t20\t10\t200\tb\twakeup\texpired\t9\n");
	free(s);
	s = slurp(f.waits);
	CHECK_STR(s, "wake_ns\tpid\tcomm\tseg_start_ns\tseg_end_ns\twhy\t"
		  "running_pid\trunning_comm\trunning_prio\tcpu\tdetail\n"
		  "10\t200\tb\t10\t20\texpired\t9\tz?q\t125\t1\tahead=2\n"
		  "0\t100\ta\t0\t10\tlower-prio\t7\tx\t110\t0\t-\n"
		  "0\t100\ta\t10\t30\tno-preempt\t8\ty\t120\t0\t"
		  "2x-slice,ahead=1\n");
	free(s);
	fclose(f.lat);
	fclose(f.waits);
}

int main(void)
{
	test_timeline();
	test_latency_order();
	test_waits();
	test_summary();
	test_cpus();
	return test_done("test-writers");
}
