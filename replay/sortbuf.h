/*
 * sortbuf: a priority queue of fixed-size records in bounded memory.  At
 * most mem_max records are kept in memory (a binary heap); when more are
 * held, the heap is written out, sorted, as a run of a temporary file, and
 * the least record is found among the heap and the runs' heads (each run
 * read back through a small buffer).  What comes out, and in what order,
 * is the same as with everything in memory: memory stays flat however
 * long records are held.  Without a temporary file (TMPDIR unwritable, a
 * full disk) the heap just grows.
 *
 * The replay's latency rows wait here until no open wait can precede them
 * (replay/writers.h): a wait that never ends (a task left runnable at the
 * end of a recording, or whose events were lost) holds every row after it.
 *
 *	struct sr_sortbuf *b;
 *	if (sr_sortbuf_new(&b, sizeof(struct row), row_less, 16384, d))
 *		return d->code;
 *	sr_sortbuf_push(b, &row);
 *	const struct row *m;
 *	while (sr_sortbuf_min(b, (const void **)&m) == SR_OK && m && ...)
 *		use(m), sr_sortbuf_pop(b);
 *	sr_sortbuf_free(b);
 */
#ifndef SR_SORTBUF_H
#define SR_SORTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

/* A strict weak order: a before b.  Give it a total order (a last
 * tie-break such as an arrival number) for a deterministic output. */
typedef bool (*sr_sortbuf_less)(const void *a, const void *b);

struct sr_sortbuf;

struct sr_sortbuf_stats {
	uint64_t peak;       /* most records held at once */
	uint64_t peak_mem;   /* most of them in memory at once */
	uint64_t spilled;    /* records written to the temporary file */
	uint64_t runs;       /* runs written */
};

int sr_sortbuf_new(struct sr_sortbuf **b, size_t elem, sr_sortbuf_less less,
		   size_t mem_max, struct sr_diag *d);
void sr_sortbuf_free(struct sr_sortbuf *b);

/* Add a copy of x: SR_OK, or SR_EINTERNAL when out of memory. */
int sr_sortbuf_push(struct sr_sortbuf *b, const void *x);
/* *out: the least record held (valid until the next call), NULL when
 * none.  SR_EIO when a run cannot be read back. */
int sr_sortbuf_min(struct sr_sortbuf *b, const void **out);
/* Drop the least record (after sr_sortbuf_min gave it). */
int sr_sortbuf_pop(struct sr_sortbuf *b);
uint64_t sr_sortbuf_count(const struct sr_sortbuf *b);
void sr_sortbuf_stats(const struct sr_sortbuf *b, struct sr_sortbuf_stats *st);

#endif
