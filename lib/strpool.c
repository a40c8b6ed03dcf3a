/*
 * strpool: one copy of each name, by offset (strpool.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/grow.h"
#include "lib/strpool.h"

static uint32_t hash_str(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The slot of s, or the empty slot where it goes. */
static size_t slot_of(const struct sr_strpool *p, const char *s)
{
	size_t i = hash_str(s) & (p->nslots - 1);

	while (p->slots[i] && strcmp(p->buf + p->slots[i] - 1, s))
		i = (i + 1) & (p->nslots - 1);
	return i;
}

static int rehash(struct sr_strpool *p)
{
	size_t n = p->nslots ? 2 * p->nslots : 256;
	uint32_t *sl = calloc(n, sizeof(*sl));
	struct sr_strpool q = *p;

	if (!sl)
		return SR_ENOMEM;
	q.slots = sl;
	q.nslots = n;
	for (size_t j = 0; j < p->nslots; j++)
		if (p->slots[j])
			sl[slot_of(&q, p->buf + p->slots[j] - 1)] = p->slots[j];
	free(p->slots);
	p->slots = sl;
	p->nslots = n;
	return SR_OK;
}

int sr_strpool_add(struct sr_strpool *p, const char *s, uint32_t *off)
{
	size_t len = strlen(s) + 1, i;
	char *b;

	if (2 * (p->used + 1) > p->nslots && rehash(p))
		return SR_ENOMEM;
	i = slot_of(p, s);
	if (p->slots[i]) {
		*off = p->slots[i] - 1;
		return SR_OK;
	}
	if (p->n + len >= UINT32_MAX)
		return SR_ENOMEM;
	b = sr_grow(p->buf, &p->cap, p->n + len - 1, 1, 4096, 0);
	if (!b)
		return SR_ENOMEM;
	p->buf = b;
	memcpy(b + p->n, s, len);
	p->slots[i] = (uint32_t)p->n + 1;
	*off = (uint32_t)p->n;
	p->n += len;
	p->used++;
	return SR_OK;
}

const char *sr_strpool_get(const struct sr_strpool *p, uint32_t off)
{
	return off < p->n ? p->buf + off : "";
}

size_t sr_strpool_bytes(const struct sr_strpool *p)
{
	return p->cap + p->nslots * sizeof(*p->slots);
}

void sr_strpool_free(struct sr_strpool *p)
{
	free(p->buf);
	free(p->slots);
	memset(p, 0, sizeof(*p));
}
