/*
 * bigmem: a large buffer grown in place in huge pages (see bigmem.h).
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "lib/bigmem.h"

#define HUGE_PAGE ((size_t)2 << 20)

static size_t round_up(size_t n)
{
	return (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void sr_bigmem_init(struct sr_bigmem *b, size_t max)
{
	b->p = NULL;
	b->cap = 0;
	b->max = max;
	b->reserved = 0;
}

/* The address space, aligned to a huge page (one more mapped, then the
 * ends trimmed), nothing usable yet. */
static int reserve(struct sr_bigmem *b)
{
	size_t span = round_up(b->max);
	uint8_t *p, *a;

	if (span < b->max)
		return -1;
	p = mmap(NULL, span + HUGE_PAGE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	a = (uint8_t *)(((uintptr_t)p + HUGE_PAGE - 1) &
			~(uintptr_t)(HUGE_PAGE - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	munmap(a + span, (size_t)(p + HUGE_PAGE - a));
	/* where the system gives huge pages (transparent_hugepage
	 * "madvise" or "always"); ignored otherwise */
	madvise(a, span, MADV_HUGEPAGE);
	b->p = a;
	b->reserved = 1;
	return 0;
}

int sr_bigmem_grow(struct sr_bigmem *b, size_t want)
{
	size_t cap;
	uint8_t *p;

	if (want <= b->cap)
		return 0;
	if (want > b->max)
		return -1;
	/* whole huge pages (a part of one cannot be a huge page) */
	cap = round_up(want);
	if (cap > b->max || cap < want)
		cap = b->max;
	if (!b->p && !b->reserved)
		(void)reserve(b);
	if (b->reserved) {
		if (mprotect(b->p + b->cap, cap - b->cap,
			     PROT_READ | PROT_WRITE) != 0)
			return -1;
		b->cap = cap;
		return 0;
	}
	p = realloc(b->p, cap);
	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

void sr_bigmem_free(struct sr_bigmem *b)
{
	if (b->reserved)
		munmap(b->p, round_up(b->max));
	else
		free(b->p);
	sr_bigmem_init(b, b->max);
}
