/*
 * strpool: task names kept once each, named by a 32-bit offset.  Rows,
 * ops and records that are held in large numbers carry the offset instead
 * of a copy of the name; equal names share one copy (a hash set over the
 * pool), so the pool grows with the distinct names, not with the rows.
 *
 *	struct sr_strpool p = { 0 };
 *	uint32_t off;
 *	if (sr_strpool_add(&p, "firefox", &off))
 *		return SR_ENOMEM;
 *	puts(sr_strpool_get(&p, off));
 *	sr_strpool_free(&p);
 */
#ifndef SR_STRPOOL_H
#define SR_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

struct sr_strpool {
	char *buf;          /* the names, NUL-terminated, one after another */
	size_t n, cap;
	uint32_t *slots;    /* hash set: offset + 1, 0 = empty */
	size_t nslots, used;
};

/* s's offset in the pool, added if new; SR_ENOMEM when out of memory
 * or past 4 GiB of names. */
int sr_strpool_add(struct sr_strpool *p, const char *s, uint32_t *off);
/* The name at off ("" for an offset the pool never gave). */
const char *sr_strpool_get(const struct sr_strpool *p, uint32_t off);
/* Bytes held (names and the hash set). */
size_t sr_strpool_bytes(const struct sr_strpool *p);
void sr_strpool_free(struct sr_strpool *p);

#endif
