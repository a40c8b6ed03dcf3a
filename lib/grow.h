/*
 * grow: arrays indexed by a task id, key or cpu number, grown by doubling
 * so that an index fits, the new elements set to one fill byte (0, or
 * 0xff for arrays of SR_TID_NONE).
 *
 *	uint32_t *c = sr_grow(o->cur, &o->ncur, cpu, sizeof(*c), 8, 0xff);
 *	if (!c)
 *		return SR_ENOMEM;
 *	o->cur = c;
 */
#ifndef SR_GROW_H
#define SR_GROW_H

#include <stddef.h>

/*
 * arr with at least idx + 1 elements of size elem: arr itself when idx <
 * *cap, else arr reallocated to the first power-of-two multiple of *cap
 * (first when *cap is 0) above idx, *cap updated.  NULL when out of
 * memory, arr and *cap then unchanged.
 */
void *sr_grow(void *arr, size_t *cap, size_t idx, size_t elem, size_t first,
	      int fill);

#endif
