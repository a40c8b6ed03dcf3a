/*
 * prng: the one pseudo-random generator, splitmix64 (Steele, Lea and
 * Flood, "Fast splittable pseudorandom number generators", 2014): a
 * 64-bit counter advanced by the golden-ratio increment and mixed.  Small,
 * the same on every machine, and every seed gives a full-period stream,
 * so a run is reproduced from the seed it prints.
 *
 *	struct sr_prng r;
 *	sr_prng_seed(&r, sr_prng_mix(seed, stream));   // one stream per user
 *	int64_t x = sr_prng_range(&r, lo, hi);           // lo..hi, uniform
 *
 * Deterministic users take one stream each, derived from the seed and a
 * fixed name of their own (sr_prng_mix), never from the order in which
 * threads happen to run them.
 */
#ifndef SR_PRNG_H
#define SR_PRNG_H

#include <stdint.h>

struct sr_prng {
	uint64_t state;
};

void sr_prng_seed(struct sr_prng *r, uint64_t seed);
/* The next 64 random bits. */
uint64_t sr_prng_next(struct sr_prng *r);
/* Uniform in 0 .. n - 1 (n > 0), without bias (rejection of the top
 * 2^64 mod n values); 0 for n == 0. */
uint64_t sr_prng_below(struct sr_prng *r, uint64_t n);
/* Uniform in lo .. hi, both included (lo <= hi; lo when hi < lo). */
int64_t sr_prng_range(struct sr_prng *r, int64_t lo, int64_t hi);
/* A seed for stream `stream` of seed `seed`: both mixed, so that nearby
 * seeds and streams give unrelated sequences. */
uint64_t sr_prng_mix(uint64_t seed, uint64_t stream);
/* A stream number from a name (FNV-1a, 64 bits). */
uint64_t sr_prng_name(const char *name);

#endif
