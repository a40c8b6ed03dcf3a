/*
 * test-pool: lib/pool, the threads the replay's simulators run on.  Every
 * item of a job runs exactly once whatever the number of threads; a pool
 * of one thread runs them in the order given, in the calling thread; with
 * two threads, two items that each wait for the other to start can only
 * finish if both run at once; the stats count every job and the longest
 * thread of each.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "lib/pool.h"
#include "tests/lib/test.h"

#define N 40

struct job {
	atomic_int ran[N];
	size_t seq[N];          /* one thread: the order items ran in */
	atomic_size_t nseq;
	pthread_t caller;
	atomic_int others;      /* items run outside the calling thread */
	atomic_int started;     /* the rendezvous: items that began */
	int rendezvous;
};

static void item(void *ctx, size_t i)
{
	struct job *j = ctx;

	atomic_fetch_add(&j->ran[i], 1);
	j->seq[atomic_fetch_add(&j->nseq, 1)] = i;
	if (!pthread_equal(pthread_self(), j->caller))
		atomic_fetch_add(&j->others, 1);
	if (j->rendezvous) {
		/* items 0 and 1 each wait (at most 10 s) for the other */
		struct timespec ts = { 0, 1000000 };

		atomic_fetch_add(&j->started, 1);
		for (int k = 0; k < 10000 && atomic_load(&j->started) < 2; k++)
			nanosleep(&ts, NULL);
	}
}

static void fresh(struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->caller = pthread_self();
}

static void test_threads(int threads)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_pool *p;
	struct sr_pool_stats st;
	static struct job j;
	size_t order[N];

	CHECK_CTX("%d threads", threads);
	CHECK_INT(sr_pool_new(&p, threads, &d), SR_OK);
	CHECK_INT(sr_pool_threads(p), threads);
	for (int round = 0; round < 3; round++) {
		fresh(&j);
		for (size_t i = 0; i < N; i++)
			order[i] = N - 1 - i;
		sr_pool_run(p, N, order, item, &j);
		for (size_t i = 0; i < N; i++)
			CHECK_INT(atomic_load(&j.ran[i]), 1);
		CHECK_INT(atomic_load(&j.nseq), N);
		if (threads == 1) {
			/* in order, in the caller */
			for (size_t i = 0; i < N; i++)
				CHECK_INT(j.seq[i], N - 1 - i);
			CHECK_INT(atomic_load(&j.others), 0);
		}
	}
	/* no order: items 0..n-1; an empty job returns at once */
	fresh(&j);
	sr_pool_run(p, 3, NULL, item, &j);
	CHECK_INT(atomic_load(&j.ran[0]) + atomic_load(&j.ran[1]) +
		  atomic_load(&j.ran[2]), 3);
	CHECK_INT(atomic_load(&j.ran[3]), 0);
	sr_pool_run(p, 0, NULL, item, &j);
	CHECK_INT(atomic_load(&j.nseq), 3);
	if (threads > 1) {
		/* two items that need each other running at once */
		fresh(&j);
		j.rendezvous = 1;
		sr_pool_run(p, 2, NULL, item, &j);
		CHECK_INT(atomic_load(&j.started), 2);
		CHECK(atomic_load(&j.others) >= 1);
	}
	sr_pool_stats(p, &st);
	/* 3 rounds, the 3-item job, the empty one (n < 2: run in place),
	 * the rendezvous */
	CHECK_INT(st.jobs, threads > 1 ? 6 : 5);
	CHECK(st.longest_ns <= st.cpu_ns);
	CHECK(st.cpu_ns >= 0);
	sr_pool_free(p);
	test_ctx[0] = '\0';
}

int main(void)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_pool *p;

	CHECK(sr_pool_cpus() >= 1);
	test_threads(1);
	test_threads(2);
	test_threads(5);
	/* out of range: clamped */
	CHECK_INT(sr_pool_new(&p, 0, &d), SR_OK);
	CHECK_INT(sr_pool_threads(p), 1);
	sr_pool_free(p);
	sr_pool_free(NULL);
	CHECK_INT(sr_pool_threads(NULL), 1);
	return test_done("test-pool");
}
