/*
 * test-fidelity: the figures of compare/fidelity.h from hand-made rows,
 * each worked out beside its case; the model of a kernel release.
 */
#include "compare/fidelity.h"
#include "tests/lib/test.h"

#define MS 1000000LL
#define US 1000LL

/*
 * Four judged tasks, |log2((r + 0.01) / (o + 0.01))| with times in ms:
 *   a: p50 1.99 -> 3.99: 4.00 / 2.00 = 2, |log2| 1; p99 3.99 -> 7.99: 1
 *   b: p50 0.09 -> 0.39: 0.40 / 0.10, 2;   p99 0.99 -> 0.99: 0
 *   c: p50 0.49 -> 0.49: 0;                p99 5 -> 5: 0
 *   f: p50 0.99 -> 7.99: 8.00 / 1.00, 3;   p99 0.99 -> 2.99: log2 3
 * p50 |log2| {0, 1, 2, 3}: median (1 + 2) / 2 = 1.5; p99 {0, 0, 1,
 * 1.585}: (0 + 1) / 2 = 0.5.  Within 2x on both: a and c.  d has 19
 * switches (not judged, though far off); e has no replayed row; g has no
 * recorded row.  Switches: recorded 30+20+25+19+40+21 = 155, replayed
 * 31+22+25+19+21+7 = 125.  Sleeps: the recorded wakeups
 * 10+5+5+1+1+2 = 24; skipped: early 1+2 = 3, late 4.  Migrations: 10
 * recorded, 30 replayed over 2 s: 5/s and 15/s.  The ends: recorded 3.5
 * s (e), replayed 2.25 s (a), from the start at 1 s: 2.5 s and 1.25 s.
 */
static void test_figures(void)
{
	static const struct cmp_fid_row obs[] = {
		{ 1, "a", 30, 10, 1990 * US, 3990 * US, 2 * MS, 0, 0, 1 },
		{ 2, "b", 20, 5, 90 * US, 990 * US, 2 * MS, 0, 0, 2 },
		{ 3, "c", 25, 5, 490 * US, 5 * MS, 2 * MS, 0, 0, 3 },
		{ 4, "d", 19, 1, 1 * US, 1 * US, 2 * MS, 0, 0, 4 },
		{ 5, "e", 40, 1, 1 * MS, 1 * MS, 3500 * MS, 0, 0, 0 },
		{ 6, "f", 21, 2, 990 * US, 990 * US, 2 * MS, 0, 0, 0 },
	};
	static const struct cmp_fid_row rep[] = {
		{ 1, "a", 31, 10, 3990 * US, 7990 * US, 2250 * MS, 1, 0, 10 },
		{ 2, "b", 22, 5, 390 * US, 990 * US, 2 * MS, 2, 4, 10 },
		{ 3, "c", 25, 5, 490 * US, 5 * MS, 2 * MS, 0, 0, 10 },
		{ 4, "d", 19, 1, 50 * MS, 50 * MS, 2 * MS, 0, 0, 0 },
		{ 6, "f", 21, 2, 7990 * US, 2990 * US, 2 * MS, 0, 0, 0 },
		{ 7, "g", 7, 2, 1 * MS, 1 * MS, 2 * MS, 0, 0, 0 },
	};
	struct cmp_fid f;
	struct sr_diag d = SR_DIAG_INIT;

	CHECK_INT(cmp_fid_compute(obs, 6, rep, 6, 1000 * MS, 2000 * MS, &f,
				  &d), SR_OK);
	CHECK_INT(f.ntasks, 6);
	CHECK_INT(f.judged, 4);
	CHECK(f.p50 == 1.5);
	CHECK(f.p99 == 0.5);
	CHECK_INT(f.within2x, 2);
	CHECK_INT(f.o_sw, 155);
	CHECK_INT(f.r_sw, 125);
	CHECK_INT(f.sleeps, 24);
	CHECK_INT(f.early, 3);
	CHECK_INT(f.late, 4);
	CHECK(f.o_mig_s == 5.0);
	CHECK(f.r_mig_s == 15.0);
	CHECK(f.o_end_s == 2.5);
	CHECK(f.r_end_s == 1.25);
	/* farthest: f (3), b (2), a (1), c (0); d is not judged */
	CHECK_INT(f.nfar, 4);
	CHECK_INT(f.far[0].pid, 6);
	CHECK_INT(f.far[1].pid, 2);
	CHECK_INT(f.far[2].pid, 1);
	CHECK_INT(f.far[3].pid, 3);
	CHECK(cmp_fid_factor(f.p50) > 2.828 && cmp_fid_factor(f.p50) < 2.829);
	cmp_fid_release(&f);

	/* nothing judged: medians 0 */
	CHECK_INT(cmp_fid_compute(obs + 3, 1, rep + 3, 1, 0, 0, &f, &d),
		  SR_OK);
	CHECK_INT(f.judged, 0);
	CHECK(f.p50 == 0 && f.p99 == 0);
	CHECK(f.o_mig_s < 0);    /* no span: unknown */
	cmp_fid_release(&f);
}

static void row(struct cmp_fid_windows *w, size_t run, int64_t t,
		uint32_t task, const char *ev)
{
	struct sr_tl_row r = { .t = t, .task = task, .event = ev };

	CHECK_INT(cmp_fid_windows_row(w, run, &r), SR_OK);
}

/*
 * Run 0 (recorded): task 1 runs 0-1.5 s, task 2 1.5-2 s.  Run 1
 * (replayed): task 1 runs 0-1 s and 1.5-2 s, task 2 1-1.5 s.  Half-second
 * windows: [0, .5)
 * and [.5, 1) agree; [1, 1.5) recorded t1 .5, replayed t2 .5: |diff|
 * 1.0; [1.5, 2) likewise 1.0; recorded CPU 2.0 s: 2.0 / (2 x 2.0) =
 * 0.5.  One-second windows: [0, 1) agrees, [1, 2) holds .5 of each in
 * both: 0.  Task 2 of run 0 is still running at the end (2 s): closed
 * there.
 */
static void test_windows(void)
{
	struct cmp_fid_windows *w;
	struct sr_diag d = SR_DIAG_INIT;
	struct cmp_fid f = { .policy = "x" };
	const int64_t S = 1000 * MS;

	for (int k = 0; k < 2; k++) {
		int64_t win = k ? S : S / 2;

		CHECK_INT(cmp_fid_windows_new(&w, 2, win, &d), SR_OK);
		row(w, 0, 0, 1, "run");
		row(w, 1, 0, 1, "run");
		row(w, 1, S, 1, "preempt");
		row(w, 1, S, 2, "run");
		row(w, 0, S + S / 2, 1, "block");
		row(w, 0, S + S / 2, 2, "run");
		row(w, 1, S + S / 2, 2, "block");
		row(w, 1, S + S / 2, 1, "run");
		row(w, 1, S + S / 2, 1, "wake");	/* not a change */
		row(w, 1, 2 * S, 1, "exit");
		cmp_fid_windows_figure(w, 0, 1, 2 * S, &f);
		CHECK(f.have_windows);
		CHECK_INT(f.window_ns, win);
		CHECK(f.cpu_err == (k ? 0.0 : 0.5));
		cmp_fid_windows_free(w);
	}
}

static void test_model(void)
{
	CHECK_STR(cmp_fid_model(NULL), "eevdf-6.18");
	CHECK_STR(cmp_fid_model("6.18.44-fc-v1272"), "eevdf-6.18");
	CHECK_STR(cmp_fid_model("6.12.0"), "eevdf-6.18");
	CHECK_STR(cmp_fid_model("7.1"), "eevdf-6.18");
	CHECK_STR(cmp_fid_model("6.11.9"), "eevdf");
	CHECK_STR(cmp_fid_model("6.6.0-1-amd64"), "eevdf");
	CHECK_STR(cmp_fid_model("6.5"), "cfs");
	CHECK_STR(cmp_fid_model("2.6.23"), "cfs");
	CHECK_STR(cmp_fid_model("3.10.0"), "cfs");
	CHECK_STR(cmp_fid_model("2.6.22.1"), "stock");
	CHECK_STR(cmp_fid_model("junk"), "eevdf-6.18");
}

int main(void)
{
	test_figures();
	test_windows();
	test_model();
	return test_done("test-fidelity");
}
