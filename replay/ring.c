/*
 * ring: a multi-consumer queue numbered for life (ring.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "replay/ring.h"

#define RING_MIN 8

/* Move the elements to a buffer of cap (>= n), unwrapped to the front. */
static int resize(struct sr_ring *r, uint32_t cap, size_t elem)
{
	char *b = malloc((size_t)cap * elem);
	uint32_t first;

	if (!b)
		return SR_ENOMEM;
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
	return SR_OK;
}

int sr_ring_push(struct sr_ring *r, const void *x, size_t elem)
{
	if (r->n == r->cap) {
		uint32_t cap = r->cap ? r->cap * 2 : RING_MIN;

		if (cap <= r->cap || resize(r, cap, elem))
			return SR_ENOMEM;
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

bool sr_ring_oversized(const struct sr_ring *r, bool done)
{
	if (!r->n)
		return done && r->cap;
	return r->cap > RING_MIN && r->n <= r->cap / 4;
}

void sr_ring_shrink(struct sr_ring *r, size_t elem, bool done)
{
	uint32_t cap = r->cap;

	if (!r->n && done) {
		free(r->buf);
		r->buf = NULL;
		r->cap = r->head = 0;
		return;
	}
	while (cap > RING_MIN && r->n <= cap / 4)
		cap /= 2;
	if (!r->n) {
		r->head = 0; /* empty: nothing to move */
		if (cap < r->cap) {
			char *b = realloc(r->buf, (size_t)cap * elem);

			if (b) {
				r->buf = b;
				r->cap = cap;
			}
		}
		return;
	}
	if (cap < r->cap)
		resize(r, cap, elem); /* out of memory: keep the larger one */
}

void sr_ring_free(struct sr_ring *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}
