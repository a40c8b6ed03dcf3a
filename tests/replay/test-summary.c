/*
 * test-summary: sort specs and orders, merging by comm, the TSV columns
 * and number formats, the human table.
 */
#include <stdint.h>

#include "lib/fmt.h"
#include "replay/summary.h"
#include "tests/lib/test.h"

static struct sr_task_metrics mk(uint32_t id, int32_t pid, const char *comm,
				 int64_t runtime, const int64_t *delays,
				 size_t nd)
{
	struct sr_task_metrics m = { .id = id, .pid = pid, .ntasks = 1,
				     .runtime_ns = runtime };

	m.comm = comm;
	for (size_t i = 0; i < nd; i++)
		sr_metrics_add_delay(&m, 1000000000LL * (int64_t)(i + 1),
				     1000000000LL * (int64_t)(i + 1) + delays[i]);
	return m;
}

static char *capture(void (*fn)(FILE *, struct sr_task_metrics *const *,
				size_t),
		     struct sr_task_metrics *const *rows, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, rows, n);
	fclose(f);
	return buf;
}

static void test_sort_parse(void)
{
	static const struct {
		const char *spec;
		int rc, nkeys;
	} cases[] = {
		{ "pid", SR_OK, 1 },
		{ "avg,max,switches,runtime", SR_OK, 4 },
		{ "p99,comm", SR_OK, 2 },
		{ "", SR_EUSAGE, 0 },
		{ "avg,bogus", SR_EUSAGE, 0 },
		{ "a,a,a,a,a,a,a,a,a", SR_EUSAGE, 0 },
		{ "pid,pid,pid,pid,pid,pid,pid,pid,pid", SR_EUSAGE, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sr_diag d = SR_DIAG_INIT;
		struct sr_sort s;

		CHECK_CTX("'%s'", cases[i].spec);
		CHECK_INT(sr_sort_parse(cases[i].spec, &s, &d), cases[i].rc);
		if (cases[i].rc == SR_OK)
			CHECK_INT(s.nkeys, cases[i].nkeys);
		else
			CHECK(strstr(d.msg, "--sort: expected") != NULL);
	}
	test_ctx[0] = '\0';
}

static void test_sort_order(void)
{
	static const int64_t d1[] = { 10, 20 }, d2[] = { 500 }, d3[] = { 30 };
	struct sr_task_metrics m[4] = {
		mk(0, 30, "b", 5, d1, 2), mk(1, 10, "a", 9, d2, 1),
		mk(2, 20, "c", 9, d3, 1), mk(3, 10, "a", 1, NULL, 0),
	};
	static const struct {
		const char *spec;
		uint32_t want[4]; /* ids in order */
	} cases[] = {
		{ "pid", { 1, 3, 2, 0 } },
		{ "comm", { 1, 3, 0, 2 } },
		{ "runtime", { 1, 2, 0, 3 } },
		{ "avg,max,switches,runtime", { 1, 2, 0, 3 } },
		{ "switches", { 0, 1, 2, 3 } },
		{ "max", { 1, 2, 0, 3 } },
		{ "p50", { 1, 2, 0, 3 } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sr_task_metrics *rows[4] = { &m[0], &m[1], &m[2], &m[3] };
		struct sr_diag d = SR_DIAG_INIT;
		struct sr_sort s;

		CHECK_CTX("%s", cases[i].spec);
		CHECK_INT(sr_sort_parse(cases[i].spec, &s, &d), SR_OK);
		CHECK_INT(sr_rows_sort(rows, 4, &s, &d), SR_OK);
		for (int k = 0; k < 4; k++)
			CHECK_INT(rows[k]->id, cases[i].want[k]);
	}
	test_ctx[0] = '\0';
	for (int k = 0; k < 4; k++)
		sr_metrics_release(&m[k]);
}

static void test_tsv(void)
{
	static const int64_t dl[] = { 1500, 2000000, 1 };
	struct sr_task_metrics m = mk(7, 4242, "gcc\twith tab", 123456789, dl, 3);
	struct sr_task_metrics *rows[1] = { &m };
	char *out;

	m.wakeups = 2;
	m.lost_touched = true;
	out = capture(sr_write_tsv, rows, 1);
	CHECK_STR(out,
		  "pid\tcomm\truntime_ms\tswitches\twakeups\tavg_delay_ms\t"
		  "p50_delay_ms\tp95_delay_ms\tp99_delay_ms\tmax_delay_ms\t"
		  "max_delay_start_s\tmax_delay_end_s\ttasks\tlost\n"
		  "4242\tgcc?with tab\t123.456789\t3\t2\t0.667167\t0.001500\t"
		  "2.000000\t2.000000\t2.000000\t2.000000000\t2.002000000\t1\t1\n");
	free(out);
	sr_metrics_release(&m);
}

static void test_by_comm(void)
{
	static const int64_t a[] = { 100 }, b[] = { 300, 5 }, c[] = { 300 };
	struct sr_task_metrics m[4] = {
		mk(0, 10, "cc1", 1000, a, 1), mk(1, 11, "sh", 7, c, 1),
		mk(2, 12, "cc1", 2000, b, 2), mk(3, 13, "cc1", 0, c, 1),
	};
	struct sr_task_metrics *rows[4] = { &m[3], &m[1], &m[2], &m[0] };
	struct sr_task_metrics *out;
	struct sr_task_metrics *orow[2];
	struct sr_diag d = SR_DIAG_INIT;
	size_t n;
	char *txt;

	CHECK_INT(sr_rows_by_comm(rows, 4, &out, &n, &d), SR_OK);
	CHECK_INT(n, 2);
	CHECK_STR(out[0].comm, "cc1");
	CHECK_INT(out[0].ntasks, 3);
	CHECK_INT(out[0].pid, -1);
	CHECK_INT(out[0].runtime_ns, 3000);
	CHECK_INT(out[0].switches, 4);
	CHECK_INT(out[0].sum_delay_ns, 705);
	CHECK_INT(out[0].max_delay_ns, 300);
	/* equal maxima: the lowest task id's (2) is kept, not 3's */
	CHECK_INT(out[0].max_delay_start, 1000000000LL);
	CHECK_INT(sr_delays_count(out[0].delays), 4);
	CHECK_STR(out[1].comm, "sh");
	CHECK_INT(out[1].ntasks, 1);
	CHECK_INT(out[1].pid, 11);
	orow[0] = &out[0];
	orow[1] = &out[1];
	txt = capture(sr_write_tsv, orow, 2);
	CHECK(strstr(txt, "\n-\tcc1\t0.003000\t4\t") != NULL);
	CHECK(strstr(txt, "\t3\t0\n") != NULL);
	free(txt);
	txt = capture(sr_write_table, orow, 2);
	CHECK(strstr(txt, "cc1:(3)") != NULL);
	CHECK(strstr(txt, "sh:11") != NULL);
	CHECK(strstr(txt, "TOTAL:") != NULL);
	free(txt);
	sr_rows_free_merged(out, n);
	for (int k = 0; k < 4; k++)
		sr_metrics_release(&m[k]);
}

static void test_fmt(void)
{
	static const struct {
		int64_t ns;
		const char *ms, *s;
	} cases[] = {
		{ 0, "0.000000", "0.000000000" },
		{ 1, "0.000001", "0.000000001" },
		{ 999999, "0.999999", "0.000999999" },
		{ 1317481119123LL, "1317481.119123", "1317.481119123" },
		{ -1500, "-0.001500", "-0.000001500" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char b[32];

		CHECK_CTX("%lld", (long long)cases[i].ns);
		CHECK_STR(sr_fmt_ms(b, sizeof(b), cases[i].ns, 6), cases[i].ms);
		CHECK_STR(sr_fmt_s(b, sizeof(b), cases[i].ns, 9), cases[i].s);
	}
	test_ctx[0] = '\0';
}

int main(void)
{
	test_sort_parse();
	test_sort_order();
	test_tsv();
	test_by_comm();
	test_fmt();
	return test_done("test-summary");
}
