/*
 * qsort: the one call of qsort(3) in the tree.  C's qsort wants a valid
 * array even when it holds nothing, and an empty array of ours is often
 * NULL (never grown): sr_qsort sorts only what has two elements or more,
 * so NULL with 0 is fine (UBSan's "null pointer passed as argument 1" is
 * what calling qsort there gave).
 */
#ifndef SR_QSORT_H
#define SR_QSORT_H

#include <stdlib.h>

static inline void sr_qsort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

#endif
