/*
 * rank: one order, one nearest-rank percentile (see rank.h).
 */
#include "lib/rank.h"

int sr_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

uint64_t sr_rank(double p, uint64_t n)
{
	/* p * n first: a whole p times n is exact below 2^53, and so is
	   its quotient's comparison with its truncation */
	double r = p * (double)n / 100.0;
	uint64_t k = r > 0 ? (uint64_t)r : 0;

	if ((double)k < r)
		k++;
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return k;
}

int64_t sr_percentile_sorted(const int64_t *v, size_t n, double p)
{
	return n ? v[sr_rank(p, n) - 1] : 0;
}
