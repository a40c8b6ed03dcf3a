/*
 * prng: splitmix64 and the few draws the synthetic workloads make
 * (lib/prng.h).
 */
#include "lib/prng.h"

#define GOLDEN_GAMMA 0x9e3779b97f4a7c15ULL

/* splitmix64's finaliser (a variant of MurmurHash3's fmix64). */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sr_prng_seed(struct sr_prng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t sr_prng_next(struct sr_prng *r)
{
	r->state += GOLDEN_GAMMA;
	return mix64(r->state);
}

uint64_t sr_prng_below(struct sr_prng *r, uint64_t n)
{
	uint64_t x, limit;

	if (n == 0)
		return 0;
	/* the largest multiple of n that fits: values from it up are
	   drawn again, so every residue is equally likely */
	limit = UINT64_MAX - UINT64_MAX % n;
	do
		x = sr_prng_next(r);
	while (x >= limit);
	return x % n;
}

int64_t sr_prng_range(struct sr_prng *r, int64_t lo, int64_t hi)
{
	uint64_t span;

	if (hi <= lo)
		return lo;
	span = (uint64_t)hi - (uint64_t)lo;
	if (span == UINT64_MAX)
		return (int64_t)sr_prng_next(r);
	return (int64_t)((uint64_t)lo + sr_prng_below(r, span + 1));
}

uint64_t sr_prng_mix(uint64_t seed, uint64_t stream)
{
	return mix64(mix64(seed + GOLDEN_GAMMA) ^ (stream * GOLDEN_GAMMA));
}

uint64_t sr_prng_name(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ULL;
	}
	return h;
}
