/*
 * pool: a few threads that run the items of a job at once, for work whose
 * items share nothing while they run (the replay's simulators, one per
 * policy).  The calling thread is one of the pool's: a pool of one thread
 * starts none and runs every item itself, in order.
 *
 *	struct sr_pool *p;
 *	if (sr_pool_new(&p, sr_pool_cpus(), d)) return d->code;
 *	sr_pool_run(p, n, order, fn, ctx);  // fn(ctx, order[0..n-1]), at once
 *	sr_pool_free(p);
 *
 * Items are taken in the order given, each by the next thread free, so a
 * caller that knows which items take longest puts them first.  What an
 * item does must not depend on which thread runs it or when: the results
 * are then the same whatever the number of threads.
 */
#ifndef SR_POOL_H
#define SR_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

#define SR_POOL_MAX_THREADS 256

/* What the jobs cost, in thread CPU time: all threads', and each job's
 * longest thread summed (how long the jobs would take on idle CPUs, one
 * per thread: the machine's other load does not count). */
struct sr_pool_stats {
	uint64_t jobs;
	int64_t cpu_ns;
	int64_t longest_ns;
};

struct sr_pool;

/* The CPUs this process may run on (its affinity mask), at least 1. */
int sr_pool_cpus(void);

/* threads: 1 to SR_POOL_MAX_THREADS; those past the first are started
 * now and wait for work.  SR_EINTERNAL (out of memory or threads). */
int sr_pool_new(struct sr_pool **out, int threads, struct sr_diag *d);
int sr_pool_threads(const struct sr_pool *p);
/* fn(ctx, order[k]) for k in 0..n-1 (order NULL: k itself), spread over
 * the threads; returns when every call has returned. */
void sr_pool_run(struct sr_pool *p, size_t n, const size_t *order,
		 void (*fn)(void *ctx, size_t item), void *ctx);
void sr_pool_stats(const struct sr_pool *p, struct sr_pool_stats *st);
/* The threads stopped and joined (NULL: nothing). */
void sr_pool_free(struct sr_pool *p);

#endif
