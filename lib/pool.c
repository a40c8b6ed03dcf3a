/*
 * pool: threads that run a job's items at once (see pool.h).  A job is
 * posted under the mutex with a new generation number; every thread, the
 * caller too, takes items by an atomic counter until none is left; the
 * last one to finish wakes the caller.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/pool.h"

struct sr_pool {
	int nthreads;
	pthread_t *tid;             /* the nthreads - 1 started */
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	unsigned long gen;          /* bumped for every job */
	int quit;
	/* the job */
	size_t n;
	const size_t *order;
	void (*fn)(void *ctx, size_t item);
	void *ctx;
	atomic_size_t next;         /* the next item to take */
	int busy;                   /* started threads still in the job */
	int64_t *spent;             /* per thread: its CPU in the job */
	struct sr_pool_stats st;
};

struct worker_arg {
	struct sr_pool *p;
	int idx;
};

int sr_pool_cpus(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)(n < SR_POOL_MAX_THREADS ? n : SR_POOL_MAX_THREADS)
		     : 1;
}

static int64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Items of the current job, until none is left; thread idx's CPU noted. */
static void take(struct sr_pool *p, int idx)
{
	int64_t t0 = thread_cpu_ns();
	size_t k;

	while ((k = atomic_fetch_add(&p->next, 1)) < p->n)
		p->fn(p->ctx, p->order ? p->order[k] : k);
	p->spent[idx] = thread_cpu_ns() - t0;
}

static void *worker(void *arg)
{
	struct sr_pool *p = ((struct worker_arg *)arg)->p;
	int idx = ((struct worker_arg *)arg)->idx;
	unsigned long seen = 0;

	free(arg);
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->quit && p->gen == seen)
			pthread_cond_wait(&p->work, &p->mu);
		if (p->quit)
			break;
		seen = p->gen;
		pthread_mutex_unlock(&p->mu);
		take(p, idx);
		pthread_mutex_lock(&p->mu);
		if (--p->busy == 0)
			pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int sr_pool_new(struct sr_pool **out, int threads, struct sr_diag *d)
{
	struct sr_pool *p;

	*out = NULL;
	if (threads < 1)
		threads = 1;
	if (threads > SR_POOL_MAX_THREADS)
		threads = SR_POOL_MAX_THREADS;
	p = calloc(1, sizeof(*p));
	if (!p)
		return sr_oom(d);
	p->nthreads = 1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	atomic_init(&p->next, 0);
	p->spent = calloc((size_t)threads, sizeof(*p->spent));
	if (threads > 1)
		p->tid = calloc((size_t)threads - 1, sizeof(*p->tid));
	if (!p->spent || (threads > 1 && !p->tid)) {
		sr_pool_free(p);
		return sr_oom(d);
	}
	for (int i = 1; i < threads; i++) {
		struct worker_arg *a = malloc(sizeof(*a));

		if (!a) {
			sr_pool_free(p);
			return sr_oom(d);
		}
		*a = (struct worker_arg){ p, i };
		if (pthread_create(&p->tid[i - 1], NULL, worker, a)) {
			free(a);
			sr_pool_free(p);
			return sr_fail(d, SR_EINTERNAL, "cannot start a thread "
				       "(%d of %d)", i + 1, threads);
		}
		p->nthreads++;
	}
	*out = p;
	return SR_OK;
}

int sr_pool_threads(const struct sr_pool *p)
{
	return p ? p->nthreads : 1;
}

void sr_pool_run(struct sr_pool *p, size_t n, const size_t *order,
		 void (*fn)(void *ctx, size_t item), void *ctx)
{
	int64_t most = 0;

	if (!p || p->nthreads == 1 || n < 2) {
		int64_t t0 = p ? thread_cpu_ns() : 0;

		for (size_t k = 0; k < n; k++)
			fn(ctx, order ? order[k] : k);
		if (p) {
			most = thread_cpu_ns() - t0;
			p->st.jobs++;
			p->st.cpu_ns += most;
			p->st.longest_ns += most;
		}
		return;
	}
	pthread_mutex_lock(&p->mu);
	p->n = n;
	p->order = order;
	p->fn = fn;
	p->ctx = ctx;
	atomic_store(&p->next, 0);
	p->busy = p->nthreads - 1;
	p->gen++;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	take(p, 0);
	pthread_mutex_lock(&p->mu);
	while (p->busy)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
	p->st.jobs++;
	for (int i = 0; i < p->nthreads; i++) {
		p->st.cpu_ns += p->spent[i];
		if (p->spent[i] > most)
			most = p->spent[i];
	}
	p->st.longest_ns += most;
}

void sr_pool_stats(const struct sr_pool *p, struct sr_pool_stats *st)
{
	if (p)
		*st = p->st;
	else
		*st = (struct sr_pool_stats){ 0, 0, 0 };
}

void sr_pool_free(struct sr_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (int i = 1; i < p->nthreads; i++)
		pthread_join(p->tid[i - 1], NULL);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->mu);
	free(p->tid);
	free(p->spent);
	free(p);
}
