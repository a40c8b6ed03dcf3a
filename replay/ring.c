/*
 * ring: a multi-consumer queue numbered for life (ring.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "replay/ring.h"

int sr_ring_push(struct sr_ring *r, const void *x, size_t elem)
{
	if (r->n == r->cap) {
		/* double, unwrapping the elements to the front */
		uint32_t cap = r->cap ? r->cap * 2 : 8;
		char *b = cap > r->cap ? malloc((size_t)cap * elem) : NULL;
		uint32_t first;

		if (!b)
			return SR_EINTERNAL;
		first = r->cap - r->head < r->n ? r->cap - r->head : r->n;
		if (r->n) {
			memcpy(b, (char *)r->buf + (size_t)r->head * elem,
			       (size_t)first * elem);
			memcpy(b + (size_t)first * elem, r->buf,
			       (size_t)(r->n - first) * elem);
		}
		free(r->buf);
		r->buf = b;
		r->cap = cap;
		r->head = 0;
	}
	memcpy((char *)r->buf + ((r->head + r->n) & (r->cap - 1)) * elem, x,
	       elem);
	r->n++;
	return SR_OK;
}

uint64_t sr_ring_trim(struct sr_ring *r, const uint64_t *cur, int n)
{
	uint64_t m = sr_ring_end(r), k;

	for (int i = 0; i < n; i++)
		if (cur[i] < m)
			m = cur[i];
	if (m <= r->base)
		return 0;
	k = m - r->base;
	r->head = (r->head + (uint32_t)k) & (r->cap - 1);
	r->n -= (uint32_t)k;
	r->base += k;
	return k;
}

void sr_ring_free(struct sr_ring *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
