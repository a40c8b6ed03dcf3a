/*
 * ring: a queue that several consumers read at their own pace.  Elements
 * are numbered from 0 for the ring's whole life (an element keeps its
 * number while it is held); those every consumer has passed are dropped,
 * so memory holds only what some consumer has still to read.  The demand
 * keeps each task's program (its ops) and the arrivals of new tasks in
 * rings, one consumer per simulated policy (replay/demand.h).
 *
 *	struct sr_ring r = { 0 };
 *	if (sr_ring_push(&r, &op, sizeof(op)))
 *		return SR_ENOMEM;
 *	const struct sr_op *o = sr_ring_at(&r, i, sizeof(*o)); // NULL: gone
 *	sr_ring_trim(&r, cursors, nconsumers);
 *	sr_ring_free(&r);
 */
#ifndef SR_RING_H
#define SR_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sr_ring {
	void *buf;
	uint32_t cap, head, n;  /* cap: 0 or a power of two */
	uint64_t base;          /* the number of the element at head */
};

/* One past the number of the last element pushed. */
static inline uint64_t sr_ring_end(const struct sr_ring *r)
{
	return r->base + r->n;
}

/* Element i (elements of elem bytes), or NULL when dropped or not yet
 * pushed. */
static inline void *sr_ring_at(const struct sr_ring *r, uint64_t i,
			       size_t elem)
{
	if (i < r->base || i >= r->base + r->n)
		return NULL;
	return (char *)r->buf +
	       ((r->head + (uint32_t)(i - r->base)) & (r->cap - 1)) * elem;
}

/* Append a copy of x; SR_ENOMEM when out of memory. */
int sr_ring_push(struct sr_ring *r, const void *x, size_t elem);

/* Drop the elements every one of the n cursors (each the number of the
 * next element its consumer reads) has passed; returns how many. */
uint64_t sr_ring_trim(struct sr_ring *r, const uint64_t *cur, int n);

/*
 * Give back memory the elements held no longer need: the whole buffer
 * when empty and `done` (nothing more will be pushed), else halves of it
 * while a quarter or less is in use (down to a few elements).  Moves the
 * elements: pointers from sr_ring_at are invalid afterwards.
 * sr_ring_oversized says whether sr_ring_shrink would give anything back.
 */
bool sr_ring_oversized(const struct sr_ring *r, bool done);
void sr_ring_shrink(struct sr_ring *r, size_t elem, bool done);

void sr_ring_free(struct sr_ring *r);

#endif
