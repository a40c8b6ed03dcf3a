/*
 * bigmem: one large buffer that grows in place, in huge pages where the
 * system gives them.  Address space for the most the buffer may ever hold
 * is set aside at once (nothing is committed), and the part in use is
 * made usable as it grows: the bytes never move, so growing never copies,
 * and a fresh 2 MB costs one page fault, not 512 (a fault is dear on a
 * virtual machine, and a busy recording's merge holds tens of MB).
 * Without the address space (a 32-bit system, a tight limit) it is a
 * plain buffer grown by realloc: it may move then, so callers keep
 * offsets, not pointers, across sr_bigmem_grow().
 *
 *	struct sr_bigmem b;
 *	sr_bigmem_init(&b, max_bytes);
 *	if (sr_bigmem_grow(&b, want)) ... out of memory (or want > max)
 *	... b.p[0 .. b.cap) ...
 *	sr_bigmem_free(&b);
 */
#ifndef SR_BIGMEM_H
#define SR_BIGMEM_H

#include <stddef.h>
#include <stdint.h>

struct sr_bigmem {
	uint8_t *p;       /* the buffer; NULL until grown */
	size_t cap;       /* bytes usable */
	size_t max;       /* the most it may hold */
	int reserved;     /* p is the address space set aside */
};

/* An empty buffer that may grow to max bytes. */
void sr_bigmem_init(struct sr_bigmem *b, size_t max);
/* At least want bytes usable (want <= max); 0, or -1 out of memory. */
int sr_bigmem_grow(struct sr_bigmem *b, size_t want);
void sr_bigmem_free(struct sr_bigmem *b);

#endif
