/*
 * test-rank: lib/rank, the one nearest-rank percentile and the one order
 * of int64_t values.  Each rank is worked out by hand from the definition
 * (docs/metrics.md, "Percentiles"): the p-th percentile of n values is
 * the value of rank ceil(p * n / 100), from 1, ascending; at least 1, at
 * most n.
 */
#include <stdint.h>
#include <stdlib.h>

#include "lib/rank.h"
#include "tests/lib/test.h"

static void test_rank(void)
{
	static const struct {
		double p;
		uint64_t n, want;
		const char *why;
	} cases[] = {
		{ 50, 1, 1, "one value: every percentile is it" },
		{ 100, 1, 1, "" },
		{ 50, 2, 1, "p50 of two: ceil(1) = 1, the smaller" },
		{ 51, 2, 2, "ceil(1.02) = 2" },
		{ 20, 5, 1, "ceil(1) = 1" },
		{ 21, 5, 2, "ceil(1.05) = 2" },
		{ 99, 100, 99, "ceil(99) = 99: exact, not 100" },
		{ 99, 101, 100, "ceil(99.99) = 100" },
		{ 99, 200, 198, "ceil(198) = 198" },
		{ 95, 20, 19, "ceil(19) = 19: 0.95 * 20 is 19 exactly" },
		{ 99, 7, 7, "ceil(6.93) = 7" },
		{ 90, 9, 9, "ceil(8.1) = 9" },
		{ 50, 9, 5, "ceil(4.5) = 5: the median of nine" },
		{ 50, 8, 4, "ceil(4) = 4: the lower median of eight" },
		{ 60, 8, 5, "ceil(4.8) = 5" },
		{ 100, 1000, 1000, "p100 is the largest" },
		{ 0.001, 2, 1, "a tiny p is rank 1, never 0" },
		{ 99.9, 1000, 999, "ceil(999) = 999" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_CTX("p%g of %llu (%s)", cases[i].p,
			  (unsigned long long)cases[i].n, cases[i].why);
		CHECK_INT(sr_rank(cases[i].p, cases[i].n), cases[i].want);
	}
	test_ctx[0] = '\0';
}

static void test_sorted(void)
{
	/* 1..10 ns: the p-th percentile is its rank */
	int64_t v[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

	CHECK_INT(sr_percentile_sorted(v, 10, 50), 5);
	CHECK_INT(sr_percentile_sorted(v, 10, 51), 6);
	CHECK_INT(sr_percentile_sorted(v, 10, 99), 10);
	CHECK_INT(sr_percentile_sorted(v, 10, 100), 10);
	CHECK_INT(sr_percentile_sorted(v, 10, 10), 1);
	CHECK_INT(sr_percentile_sorted(v, 0, 99), 0);
}

static void test_order(void)
{
	/* values a subtraction would overflow on */
	int64_t v[] = { INT64_MAX, -1, 0, INT64_MIN, 1, INT64_MAX - 1 };
	const int64_t want[] = { INT64_MIN, -1, 0, 1, INT64_MAX - 1, INT64_MAX };
	int64_t a = 3, b = 3;

	qsort(v, sizeof(v) / sizeof(v[0]), sizeof(v[0]), sr_cmp_i64);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		CHECK_INT(v[i], want[i]);
	CHECK_INT(sr_cmp_i64(&a, &b), 0);
}

int main(void)
{
	test_rank();
	test_sorted();
	test_order();
	return test_done("test-rank");
}
