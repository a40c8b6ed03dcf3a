/*
 * test-metrics: delay distributions (exact nearest rank, histogram with
 * bounded relative error, merge) and one task's figures.
 */
#include <stdint.h>

#include "lib/rank.h"
#include "replay/metrics.h"
#include "tests/lib/test.h"

/* nearest rank on a sorted copy: the reference */
static int64_t ref_pct(const int64_t *sorted, size_t n, double p)
{
	size_t k = (size_t)(p * n / 100.0);

	if ((double)k < p * n / 100.0)
		k++;
	if (k < 1)
		k = 1;
	return sorted[k - 1];
}

static void test_exact(void)
{
	static const struct {
		const char *name;
		int64_t v[8];
		size_t n;
		double p;
		int64_t want;
	} cases[] = {
		{ "empty", { 0 }, 0, 50, 0 },
		{ "one", { 7 }, 1, 50, 7 },
		{ "one p100", { 7 }, 1, 100, 7 },
		{ "two p50 is the lower", { 10, 20 }, 2, 50, 10 },
		{ "two p51", { 10, 20 }, 2, 51, 20 },
		{ "unsorted p50", { 5, 1, 4, 2, 3 }, 5, 50, 3 },
		{ "p20 of 5 is rank 1", { 5, 1, 4, 2, 3 }, 5, 20, 1 },
		{ "p21 of 5 is rank 2", { 5, 1, 4, 2, 3 }, 5, 21, 2 },
		{ "p99 of 5", { 5, 1, 4, 2, 3 }, 5, 99, 5 },
		{ "zeros", { 0, 0, 0 }, 3, 95, 0 },
		{ "tiny p", { 9, 8 }, 2, 0.001, 8 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sr_delays *d = sr_delays_new();

		CHECK_CTX("%s", cases[i].name);
		for (size_t k = 0; k < cases[i].n; k++)
			CHECK_INT(sr_delays_add(d, cases[i].v[k]), SR_OK);
		CHECK_INT(sr_delays_count(d), cases[i].n);
		CHECK(sr_delays_exact(d));
		CHECK_INT(sr_delays_percentile(d, cases[i].p), cases[i].want);
		sr_delays_free(d);
	}
	CHECK_CTX("negative");
	{
		struct sr_delays *d = sr_delays_new();
		CHECK_INT(sr_delays_add(d, -1), SR_EINTERNAL);
		CHECK_INT(sr_delays_count(d), 0);
		sr_delays_free(d);
	}
	test_ctx[0] = '\0';
}

/* deterministic spread of values over many decades */
static int64_t lcg_value(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (int64_t)((*s >> 33) % ((*s >> 20 & 1) ? 20000000000LL : 5000));
}

/* delays past 2^32 ns widen the kept samples: still exact */
static void test_wide(void)
{
	static const struct {
		const char *name;
		size_t n, wide_at; /* sample wide_at is 2^32 + k, others k */
	} cases[] = {
		{ "wide first", 3, 0 },
		{ "wide inline", 4, 2 },
		{ "wide after inline", 10, 7 },
		{ "wide at the bound", SR_DELAY_EXACT_MAX, SR_DELAY_EXACT_MAX - 1 },
		{ "wide then fold", SR_DELAY_EXACT_MAX + 5, 100 },
	};
	static const double ps[] = { 1, 50, 90, 99, 100 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static int64_t all[SR_DELAY_EXACT_MAX + 8];
		struct sr_delays *d = sr_delays_new();
		size_t n = cases[i].n;

		CHECK_CTX("%s", cases[i].name);
		for (size_t k = 0; k < n; k++) {
			all[k] = (int64_t)(k * 7919 % 1000) +
				 (k == cases[i].wide_at ? (1LL << 32) + 5 : 0);
			CHECK_INT(sr_delays_add(d, all[k]), SR_OK);
		}
		qsort(all, n, sizeof(all[0]), sr_cmp_i64);
		for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
			int64_t want = ref_pct(all, n, ps[k]);
			int64_t got = sr_delays_percentile(d, ps[k]);

			if (n <= SR_DELAY_EXACT_MAX)
				CHECK_INT(got, want);
			else
				CHECK((got > want ? got - want : want - got) *
				      SR_DELAY_HIST_ERR_DIV <= want);
		}
		CHECK_INT(sr_delays_percentile(d, 100), (1LL << 32) + 5 +
			  (int64_t)(cases[i].wide_at * 7919 % 1000));
		sr_delays_free(d);
	}
	test_ctx[0] = '\0';
}

static void test_histogram(void)
{
	enum { N = 100000 };
	static int64_t all[N];
	static const double ps[] = { 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 100 };
	int64_t got[sizeof(ps) / sizeof(ps[0])];
	struct sr_delays *d = sr_delays_new();
	uint64_t s = 42;

	for (size_t i = 0; i < N; i++) {
		all[i] = lcg_value(&s);
		CHECK_INT(sr_delays_add(d, all[i]), SR_OK);
		if (i + 1 == SR_DELAY_EXACT_MAX)
			CHECK(sr_delays_exact(d));
	}
	CHECK(!sr_delays_exact(d));
	CHECK_INT(sr_delays_count(d), N);
	qsort(all, N, sizeof(all[0]), sr_cmp_i64);
	sr_delays_percentiles(d, ps, got, sizeof(ps) / sizeof(ps[0]));
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		int64_t want = ref_pct(all, N, ps[i]);
		int64_t err = got[i] > want ? got[i] - want : want - got[i];

		CHECK_CTX("p%g want %lld got %lld", ps[i], (long long)want,
			  (long long)got[i]);
		/* relative error bound of docs/metrics.md */
		CHECK(err * SR_DELAY_HIST_ERR_DIV <= want);
	}
	CHECK_CTX("p100 is the exact max");
	CHECK_INT(sr_delays_percentile(d, 100), all[N - 1]);
	test_ctx[0] = '\0';
	sr_delays_free(d);
}

/* every value from 0 to 2^20 and a sweep above: bucket error bound */
static void test_bucket_bound(void)
{
	int64_t v;
	int bad = 0;

	for (v = 0; v < (1 << 20) + 5000; v += (v < 4096 ? 1 : 977)) {
		struct sr_delays *d = sr_delays_new();
		int64_t got;

		/* fold into histogram mode with many copies of v and one 0 */
		sr_delays_add(d, 0);
		for (int k = 0; k < SR_DELAY_EXACT_MAX + 1; k++)
			sr_delays_add(d, v);
		sr_delays_add(d, v + 1000000);
		got = sr_delays_percentile(d, 50);
		if ((got > v ? got - v : v - got) * SR_DELAY_HIST_ERR_DIV > v)
			bad++;
		sr_delays_free(d);
	}
	CHECK_INT(bad, 0);
}

static void test_merge(void)
{
	static const struct {
		const char *name;
		size_t na, nb;
	} cases[] = {
		{ "exact+exact stays exact", 100, 100 },
		{ "exact+exact overflows", 200, 100 },
		{ "hist+exact", 1000, 10 },
		{ "exact+hist", 10, 1000 },
		{ "hist+hist", 5000, 7000 },
		{ "empty+hist", 0, 700 },
		{ "hist+empty", 700, 0 },
	};
	static const double ps[] = { 50, 95, 99, 100 };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sr_delays *a = sr_delays_new(), *b = sr_delays_new();
		struct sr_delays *all = sr_delays_new();
		int64_t g[4], w[4];
		uint64_t s = i + 1;

		CHECK_CTX("%s", cases[i].name);
		for (size_t k = 0; k < cases[i].na; k++) {
			int64_t v = lcg_value(&s);
			sr_delays_add(a, v);
			sr_delays_add(all, v);
		}
		for (size_t k = 0; k < cases[i].nb; k++) {
			int64_t v = lcg_value(&s);
			sr_delays_add(b, v);
			sr_delays_add(all, v);
		}
		CHECK_INT(sr_delays_merge(a, b), SR_OK);
		CHECK_INT(sr_delays_count(a), cases[i].na + cases[i].nb);
		CHECK_INT(sr_delays_count(b), cases[i].nb);
		CHECK_INT(sr_delays_exact(a), sr_delays_exact(all));
		sr_delays_percentiles(a, ps, g, 4);
		sr_delays_percentiles(all, ps, w, 4);
		for (int k = 0; k < 4; k++)
			CHECK_INT(g[k], w[k]);
		sr_delays_free(a);
		sr_delays_free(b);
		sr_delays_free(all);
	}
	test_ctx[0] = '\0';
}

static void test_task_metrics(void)
{
	struct sr_task_metrics m = { .pid = 1, .ntasks = 1 };
	struct sr_task_metrics o = { .pid = 2, .ntasks = 1 };

	CHECK_INT(sr_metrics_add_delay(&m, 100, 100), SR_OK);
	CHECK_INT(m.max_delay_ns, 0);
	CHECK_INT(m.max_delay_start, 0); /* a zero delay sets no bounds */
	CHECK_INT(sr_metrics_add_delay(&m, 200, 250), SR_OK);
	CHECK_INT(sr_metrics_add_delay(&m, 300, 350), SR_OK); /* tie */
	CHECK_INT(sr_metrics_add_delay(&m, 400, 390), SR_EINTERNAL);
	CHECK_INT(m.switches, 3);
	CHECK_INT(sr_delays_count(m.delays), 3);
	CHECK_INT(m.sum_delay_ns, 100);
	CHECK_INT(sr_metrics_avg_delay(&m), 33); /* truncated like perf */
	CHECK_INT(m.max_delay_ns, 50);
	CHECK_INT(m.max_delay_start, 200); /* first of equal maxima */
	CHECK_INT(m.max_delay_end, 250);

	CHECK_INT(sr_metrics_add_delay(&o, 1000, 1050), SR_OK); /* tie */
	o.runtime_ns = 7;
	o.lost_touched = true;
	CHECK_INT(sr_metrics_merge(&m, &o), SR_OK);
	CHECK_INT(m.max_delay_start, 200);
	CHECK_INT(sr_metrics_add_delay(&o, 2000, 2100), SR_OK);
	{
		struct sr_task_metrics z = { .ntasks = 1 };
		CHECK_INT(sr_metrics_merge(&z, &o), SR_OK);
		CHECK_INT(z.max_delay_start, 2000);
		CHECK_INT(z.ntasks, 2);
		CHECK_INT(sr_delays_count(z.delays), 2);
		sr_metrics_release(&z);
	}
	CHECK_INT(m.ntasks, 2);
	CHECK_INT(m.switches, 4);
	CHECK_INT(m.runtime_ns, 7);
	CHECK(m.lost_touched);
	CHECK_INT(sr_delays_count(m.delays), 4);
	CHECK_INT(sr_delays_percentile(m.delays, 100), 50);
	sr_metrics_release(&m);
	sr_metrics_release(&o);
	CHECK(m.delays == NULL);

	/* sums that would overflow 64 bits are refused, figures unchanged */
	{
		struct sr_task_metrics x = { .ntasks = 1 }, y = { .ntasks = 1 };

		CHECK_INT(sr_metrics_add_delay(&x, 0, INT64_MAX - 10), SR_OK);
		CHECK_INT(sr_metrics_add_delay(&x, 0, 11), SR_EDATA);
		CHECK_INT(x.switches, 1);
		CHECK_INT(sr_metrics_add_delay(&y, 5, 20), SR_OK);
		CHECK_INT(sr_metrics_merge(&x, &y), SR_EDATA);
		CHECK_INT(x.switches, 1);
		CHECK_INT(x.ntasks, 1);
		y.runtime_ns = INT64_MAX;
		x.runtime_ns = 1;
		x.sum_delay_ns = 0;
		CHECK_INT(sr_metrics_merge(&x, &y), SR_EDATA);
		CHECK_INT(sr_metrics_add_delay(&x, 10, 5), SR_EINTERNAL);
		CHECK_INT(sr_metrics_add_delay(&x, INT64_MIN, INT64_MAX),
			  SR_EINTERNAL);
		sr_metrics_release(&x);
		sr_metrics_release(&y);
	}
}

int main(void)
{
	test_exact();
	test_wide();
	test_histogram();
	test_bucket_bound();
	test_merge();
	test_task_metrics();
	return test_done("test-metrics");
}
