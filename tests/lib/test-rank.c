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

/* sr_sort_i64 sorts as qsort does: random values, few distinct ones,
 * runs in order and reversed, all equal, the extremes; every length to
 * 300 and some long ones (the fallback when splits go badly) */
static void test_sort(void)
{
	static int64_t a[5000], b[5000];
	uint64_t x = 88172645463325252ull;
	size_t lens[] = { 0, 1, 2, 3, 17, 255, 256, 257, 1000, 5000 };

	for (int shape = 0; shape < 6; shape++) {
		for (size_t li = 0; li < 300 + sizeof(lens) / sizeof(lens[0]); li++) {
			size_t n = li < 300 ? li : lens[li - 300];
			int same = 1;

			for (size_t i = 0; i < n; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				switch (shape) {
				case 0: a[i] = (int64_t)x; break;
				case 1: a[i] = (int64_t)(x % 5) - 2; break;
				case 2: a[i] = (int64_t)i; break;
				case 3: a[i] = -(int64_t)i; break;
				case 4: a[i] = 7; break;
				default: a[i] = x & 1 ? INT64_MAX : INT64_MIN; break;
				}
				b[i] = a[i];
			}
			sr_sort_i64(a, n);
			qsort(b, n, sizeof(*b), sr_cmp_i64);
			for (size_t i = 0; i < n; i++)
				same &= a[i] == b[i];
			CHECK_CTX("shape %d, %zu values", shape, n);
			CHECK(same);
		}
	}
	test_ctx[0] = '\0';
}

int main(void)
{
	test_rank();
	test_sorted();
	test_order();
	test_sort();
	return test_done("test-rank");
}
