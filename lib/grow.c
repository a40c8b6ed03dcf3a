/*
 * grow: growing id- and cpu-indexed arrays (lib/grow.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"

void *sr_grow(void *arr, size_t *cap, size_t idx, size_t elem, size_t first,
	      int fill)
{
	size_t n = *cap ? *cap : first;
	char *p;

	if (idx < *cap)
		return arr;
	while (n <= idx) {
		if (n > SIZE_MAX / 2 / elem)
			return NULL;
		n *= 2;
	}
	p = realloc(arr, n * elem);
	if (!p)
		return NULL;
	memset(p + *cap * elem, fill, (n - *cap) * elem);
	*cap = n;
	return p;
}
