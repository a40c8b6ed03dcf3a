/*
 * rank: one order, one nearest-rank percentile (see rank.h).
 */
#include "lib/rank.h"

int sr_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void insertion(int64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int64_t x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void sift(int64_t *v, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;
		int64_t t;

		if (c >= n)
			return;
		if (c + 1 < n && v[c + 1] > v[c])
			c++;
		if (v[i] >= v[c])
			return;
		t = v[i];
		v[i] = v[c];
		v[c] = t;
		i = c;
	}
}

/* The heap sort a quicksort falls back to when its splits go badly. */
static void heapsort_i64(int64_t *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(v, i, n);
	for (size_t i = n; i-- > 1;) {
		int64_t t = v[0];

		v[0] = v[i];
		v[i] = t;
		sift(v, 0, i);
	}
}

static void quick(int64_t *v, size_t n, int depth)
{
	while (n > 16) {
		int64_t a = v[0], b = v[n / 2], c = v[n - 1], pivot, t;
		size_t i = 0, j = n - 1;

		if (depth-- == 0) {
			heapsort_i64(v, n);
			return;
		}
		/* the median of three */
		pivot = a < b ? (b < c ? b : a < c ? c : a)
			      : (a < c ? a : b < c ? c : b);
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			t = v[i];
			v[i] = v[j];
			v[j] = t;
			i++;
			j--;
		}
		/* v[0..j] <= pivot <= v[j+1..n): the smaller side first */
		if (j + 1 < n - j - 1) {
			quick(v, j + 1, depth);
			v += j + 1;
			n -= j + 1;
		} else {
			quick(v + j + 1, n - j - 1, depth);
			n = j + 1;
		}
	}
	insertion(v, n);
}

void sr_sort_i64(int64_t *v, size_t n)
{
	int depth = 0;

	for (size_t k = n; k > 1; k >>= 1)
		depth += 2;
	quick(v, n, depth);
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
