/*
 * sortbuf: a priority queue that keeps at most a fixed number of records
 * in memory, the rest in sorted runs of a temporary file (sortbuf.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/grow.h"
#include "lib/path.h"
#include "replay/sortbuf.h"

#define RUN_BUF 64          /* records read back at a time, per run */

/* A sorted run in the file: the records not read yet, and a buffer of the
 * next ones (ib < nb while the run is in the heap of runs). */
struct run {
	uint64_t off, left;     /* file offset and count not yet buffered */
	char *buf;
	size_t nb, ib;
};

struct sr_sortbuf {
	size_t elem, mem_max;
	sr_sortbuf_less less;
	/* the records in memory: in slots of a slab, and a heap of their
	   slot numbers (sifting moves 4 bytes, not a record); the free
	   slots below the n + nfree used so far */
	char *slab;
	uint32_t *ix, *freel;
	size_t n, nfree, cap;
	int fd;                 /* the temporary file, -1 before the first run */
	bool nospill;           /* no file could be made: memory only */
	uint64_t end;           /* bytes of the file in use */
	struct run *runs;
	size_t nruns, capruns;
	size_t *rh;             /* heap of live runs by their head */
	size_t nrh, caprh;
	bool min_in_run;        /* the last min came from rh[0] */
	char *tmp;              /* one record, for swaps */
	uint64_t count;
	struct sr_sortbuf_stats st;
};

int sr_sortbuf_new(struct sr_sortbuf **out, size_t elem, sr_sortbuf_less less,
		   size_t mem_max, struct sr_diag *d)
{
	struct sr_sortbuf *b = calloc(1, sizeof(*b));

	*out = NULL;
	if (!b || !(b->tmp = malloc(elem))) {
		free(b);
		return sr_oom(d);
	}
	b->elem = elem;
	b->less = less;
	b->mem_max = mem_max ? mem_max : 1;
	b->fd = -1;
	*out = b;
	return SR_OK;
}

void sr_sortbuf_free(struct sr_sortbuf *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nruns; i++)
		free(b->runs[i].buf);
	free(b->runs);
	free(b->rh);
	free(b->slab);
	free(b->ix);
	free(b->freel);
	free(b->tmp);
	if (b->fd >= 0)
		close(b->fd);
	free(b);
}

uint64_t sr_sortbuf_count(const struct sr_sortbuf *b)
{
	return b->count;
}

void sr_sortbuf_stats(const struct sr_sortbuf *b, struct sr_sortbuf_stats *st)
{
	*st = b->st;
}

/* ---- the heap in memory ------------------------------------------------- */

static char *slot(const struct sr_sortbuf *b, uint32_t k)
{
	return b->slab + (size_t)k * b->elem;
}

/* The record at heap position i. */
static char *at(const struct sr_sortbuf *b, size_t i)
{
	return slot(b, b->ix[i]);
}

/* The record in slot k rises from the hole at heap position i to its
 * place (the hole's parents move down). */
static void rise(struct sr_sortbuf *b, size_t i, uint32_t k)
{
	const char *x = slot(b, k);

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!b->less(x, at(b, p)))
			break;
		b->ix[i] = b->ix[p];
		i = p;
	}
	b->ix[i] = k;
}

/*
 * Drop the least: its slot is free.  The hole goes down to a leaf along
 * the lesser children (one comparison a level), then the last record
 * rises from there to its place (seldom far: it was a leaf): about half
 * the comparisons of sinking the last record from the top.  The order of
 * what comes out is the same (less is a total order).
 */
static void heap_pop(struct sr_sortbuf *b)
{
	size_t i = 0, n = --b->n;
	uint32_t last;

	b->freel[b->nfree++] = b->ix[0];
	if (!n) {
		b->nfree = 0; /* every slot free */
		return;
	}
	last = b->ix[n];
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && b->less(at(b, c + 1), at(b, c)))
			c++;
		b->ix[i] = b->ix[c];
		i = c;
	}
	rise(b, i, last);
}

/* ---- runs --------------------------------------------------------------- */

static const char *head(const struct sr_sortbuf *b, size_t run)
{
	const struct run *r = &b->runs[run];

	return r->buf + r->ib * b->elem;
}

static bool run_less(const struct sr_sortbuf *b, size_t x, size_t y)
{
	return b->less(head(b, x), head(b, y));
}

static void rh_down(struct sr_sortbuf *b, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < b->nrh && run_less(b, b->rh[l], b->rh[m]))
			m = l;
		if (r < b->nrh && run_less(b, b->rh[r], b->rh[m]))
			m = r;
		if (m == i)
			break;
		t = b->rh[i];
		b->rh[i] = b->rh[m];
		b->rh[m] = t;
		i = m;
	}
}

static void rh_up(struct sr_sortbuf *b, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2, t;

		if (!run_less(b, b->rh[i], b->rh[p]))
			break;
		t = b->rh[i];
		b->rh[i] = b->rh[p];
		b->rh[p] = t;
		i = p;
	}
}

/* Read the next records of run i into its buffer; SR_EIO on a short read. */
static int refill(struct sr_sortbuf *b, struct run *r)
{
	size_t k = r->left < RUN_BUF ? (size_t)r->left : RUN_BUF;
	size_t want = k * b->elem, got = 0;

	while (got < want) {
		ssize_t n = pread(b->fd, r->buf + got, want - got,
				  (off_t)(r->off + got));

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return SR_EIO;
		}
		got += (size_t)n;
	}
	r->off += want;
	r->left -= k;
	r->nb = k;
	r->ib = 0;
	return SR_OK;
}

static int write_all(int fd, const char *p, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int open_file(struct sr_sortbuf *b)
{
	b->fd = sr_tmpfile("schedreplay-sort");
	return b->fd >= 0 ? 0 : -1;
}

static int cmp_slot(const void *x, const void *y, void *ctx)
{
	const struct sr_sortbuf *b = ctx;
	const char *a = slot(b, *(const uint32_t *)x);
	const char *c = slot(b, *(const uint32_t *)y);

	return b->less(a, c) ? -1 : b->less(c, a) ? 1 : 0;
}

/*
 * Write the heap out, sorted, as a new run.  -1 when the file cannot be
 * made or written: the records stay in memory (a sorted array is a heap
 * still), and the heap grows from then on.
 */
static int spill(struct sr_sortbuf *b)
{
	struct run *r;
	size_t len = b->n * b->elem;
	char *sorted;

	if (b->nospill || !b->n)
		return -1;
	if ((b->fd < 0 && open_file(b)) ||
	    (b->nruns == b->capruns &&
	     !(b->runs = sr_grow(b->runs, &b->capruns, b->nruns,
				 sizeof(*b->runs), 16, 0))) ||
	    (b->nrh == b->caprh &&
	     !(b->rh = sr_grow(b->rh, &b->caprh, b->nrh, sizeof(*b->rh), 16,
			       0)))) {
		b->nospill = true;
		return -1;
	}
	r = &b->runs[b->nruns];
	memset(r, 0, sizeof(*r));
	/* sorted slot numbers are a heap still, if the run cannot be made */
	qsort_r(b->ix, b->n, sizeof(*b->ix), cmp_slot, b);
	if (!(sorted = malloc(len ? len : 1)) ||
	    !(r->buf = malloc(RUN_BUF * b->elem))) {
		free(sorted);
		b->nospill = true;
		return -1;
	}
	for (size_t i = 0; i < b->n; i++)
		memcpy(sorted + i * b->elem, at(b, i), b->elem);
	if (write_all(b->fd, sorted, len, b->end)) {
		free(sorted);
		free(r->buf);
		b->nospill = true;
		return -1;
	}
	free(sorted);
	r->off = b->end;
	r->left = b->n;
	if (refill(b, r)) {
		/* the file reads back short: the records are still here */
		free(r->buf);
		b->nospill = true;
		return -1;
	}
	b->end += len;
	b->st.spilled += b->n;
	b->st.runs++;
	b->n = 0;
	b->nfree = 0;
	b->rh[b->nrh] = b->nruns++;
	rh_up(b, b->nrh++);
	return 0;
}

/* ---- the queue ---------------------------------------------------------- */

int sr_sortbuf_push(struct sr_sortbuf *b, const void *x)
{
	uint32_t k;

	if (b->n >= b->mem_max && b->n == b->cap)
		spill(b);
	if (b->n == b->cap) {
		size_t cap = b->cap, c2 = b->cap, c3 = b->cap;
		char *h = sr_grow(b->slab, &cap, b->n, b->elem, 1024, 0);
		uint32_t *ix, *fl;

		if (!h)
			return SR_ENOMEM;
		b->slab = h;
		if (!(ix = sr_grow(b->ix, &c2, b->n, sizeof(*ix), 1024, 0)))
			return SR_ENOMEM;
		b->ix = ix;
		if (!(fl = sr_grow(b->freel, &c3, b->n, sizeof(*fl), 1024, 0)))
			return SR_ENOMEM;
		b->freel = fl;
		/* the smallest of the three (all grow alike) */
		b->cap = cap < c2 ? (cap < c3 ? cap : c3) : (c2 < c3 ? c2 : c3);
	}
	/* a free slot below those used so far, else the next one */
	k = b->nfree ? b->freel[--b->nfree] : (uint32_t)b->n;
	memcpy(slot(b, k), x, b->elem);
	/* the new record rises from the end into the hole */
	rise(b, b->n++, k);
	b->count++;
	if (b->count > b->st.peak)
		b->st.peak = b->count;
	if (b->n > b->st.peak_mem)
		b->st.peak_mem = b->n;
	return SR_OK;
}

int sr_sortbuf_min(struct sr_sortbuf *b, const void **out)
{
	*out = NULL;
	if (b->nrh && (!b->n || b->less(head(b, b->rh[0]), at(b, 0)))) {
		b->min_in_run = true;
		*out = head(b, b->rh[0]);
	} else if (b->n) {
		b->min_in_run = false;
		*out = at(b, 0);
	}
	return SR_OK;
}

int sr_sortbuf_pop(struct sr_sortbuf *b)
{
	struct run *r;

	if (!b->count)
		return SR_OK;
	b->count--;
	if (!b->min_in_run) {
		heap_pop(b);
		return SR_OK;
	}
	r = &b->runs[b->rh[0]];
	if (++r->ib == r->nb) {
		if (r->left) {
			if (refill(b, r))
				return SR_EIO;
		} else {
			/* run done: out of the heap of runs */
			free(r->buf);
			r->buf = NULL;
			b->rh[0] = b->rh[--b->nrh];
			if (!b->nrh) {
				/* every run read: the file is free again */
				b->nruns = 0;
				b->end = 0;
				if (ftruncate(b->fd, 0)) {
					/* keep going: space, not results */
				}
			}
		}
	}
	if (b->nrh)
		rh_down(b, 0);
	b->min_in_run = false;
	return SR_OK;
}
