/*
 * drv.h: a small uniprocessor driver for the model tests.  Tasks follow
 * little programs (run, sleep, fork, exit, yield, nice, setscheduler) in
 * integer microseconds; the driver applies the conventions of
 * docs/models.md at every instant, so the tests exercise them:
 *
 *   1. a burst ending now ends first (block/exit/yield), and the
 *      schedule() it causes runs at once;
 *   2. then, on a jiffy boundary, scheduler_tick() for whoever is current;
 *   3. then the wakeups due now, in the order their timers were armed
 *      (the recorded order); between ticks each is followed at once by
 *      schedule() if it set need_resched;
 *   4. then schedule() if need_resched.
 *
 * Only model tests use it, so it lives here, header-only (static
 * functions: each test program is one translation unit).  After every
 * instant it runs the policy's check() and fails the test on a broken
 * invariant.  jiffies = DRV_J0 + t_us / 1000.
 */
#ifndef DRV_H
#define DRV_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sched-model/knobs.h"
#include "sched-model/policy.h"
#include "tests/lib/test.h"

#define DRV_J0		1000UL	/* jiffies at driver time 0 */
#define DRV_MAX_TASKS	64
#define MS		1000L	/* microseconds per millisecond (jiffy) */
#define FOREVER		(1L << 60)

enum drv_op_kind {
	OP_END,		/* block forever */
	OP_RUN,		/* a = microseconds of CPU */
	OP_SLEEP,	/* a = microseconds asleep, b = woken by a sync wakeup */
	OP_LOOP,	/* back to the first op */
	OP_EXIT,
	OP_YIELD,
	OP_NICE,	/* a = new nice */
	OP_SCHED,	/* a = policy, b = rt_priority */
	OP_FORK,	/* a = index in drv.progs, b = SM_FORK_* flags,
			   c = child has no mm */
};

struct drv_op {
	int kind;
	long a, b, c;
};

#define RUN(us)		{ OP_RUN, (us), 0, 0 }
#define SLEEP(us)	{ OP_SLEEP, (us), 0, 0 }
#define SLEEP_SYNC(us)	{ OP_SLEEP, (us), 1, 0 }
#define LOOP		{ OP_LOOP, 0, 0, 0 }
#define END		{ OP_END, 0, 0, 0 }
#define EXIT		{ OP_EXIT, 0, 0, 0 }
#define YIELD		{ OP_YIELD, 0, 0, 0 }
#define NICE(n)		{ OP_NICE, (n), 0, 0 }
#define SCHED(p, r)	{ OP_SCHED, (p), (r), 0 }
#define FORK(i, fl)	{ OP_FORK, (i), (fl), 0 }

struct drv_span {
	long start, end;	/* microseconds on the CPU */
};

struct drv_wake {
	long t;
	bool set_resched;	/* this wakeup set need_resched */
	bool ran_at_once;	/* current right after this instant */
};

struct drv_task {
	struct sm_task *t;	/* NULL once reaped */
	uint32_t id;
	const struct drv_op *prog;
	int pc;
	bool in_burst;
	long rem;		/* microseconds left of the burst */
	long wake_at;		/* -1: not sleeping on a timer */
	unsigned long wake_seq;	/* when the timer was armed: the order of
				   wakeups due at one instant */
	bool wake_sync;
	bool zombie, reaped;
	int parent;		/* index, -1 none */
	int vfork_parent;	/* index waiting for our exit, -1 none */
	long run_start;		/* -1: not on the CPU */
	struct drv_span *runs;
	size_t nruns, capruns;
	struct drv_wake *wakes;
	size_t nwakes, capwakes;
	long first_interactive;	/* t of the first view with interactive */
};

struct drv_rec {
	long t;
	uint32_t id;
	enum sm_change why;
	struct sm_view v;
};

struct drv {
	const struct sm_policy *pol;
	struct sm_rq *rq;
	long t;				/* microseconds since start */
	struct drv_task task[DRV_MAX_TASKS];
	int n;
	const struct drv_op *const *progs;	/* for OP_FORK */
	struct drv_rec *log;
	size_t nlog, caplog;
	int bad_checks;
	unsigned long seq;		/* timers armed so far */
};

static inline void *drv_grow(void *p, size_t *cap, size_t need, size_t sz)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap < need)
		*cap = need;
	p = realloc(p, *cap * sz);
	if (!p) {
		fprintf(stderr, "drv: out of memory\n");
		exit(2);
	}
	return p;
}

static inline int drv_index(const struct drv *d, const struct sm_task *t)
{
	for (int i = 0; i < d->n; i++)
		if (d->task[i].t == t)
			return i;
	return -1;
}

static inline void drv_observe(void *ctx, const struct sm_rq *rq,
			       const struct sm_task *t, enum sm_change why,
			       const struct sm_view *v)
{
	struct drv *d = ctx;
	int i = drv_index(d, t);

	(void)rq;
	d->log = drv_grow(d->log, &d->caplog, d->nlog + 1, sizeof(*d->log));
	d->log[d->nlog++] = (struct drv_rec){ d->t, t->info.id, why, *v };
	if (i >= 0 && v->interactive && d->task[i].first_interactive < 0)
		d->task[i].first_interactive = d->t;
}

static inline unsigned long drv_jiffies(const struct drv *d)
{
	return DRV_J0 + (unsigned long)(d->t / MS);
}

/* sched_clock() now: ns on the same origin as the jiffies */
static inline uint64_t drv_clock(const struct drv *d)
{
	return DRV_J0 * SM_NSEC_PER_JIFFY + (uint64_t)d->t * 1000;
}

static inline void drv_set_time(struct drv *d)
{
	sm_rq_set_clock(d->rq, drv_jiffies(d), drv_clock(d));
}

static inline void drv_check(struct drv *d)
{
	char why[256];

	test_checks++;
	if (d->pol->check(d->rq, why, sizeof(why))) {
		test_failures++;
		if (d->bad_checks++ < 5)
			test_report(__FILE__, __LINE__,
				    "%s: invariant broken at t=%ldus: %s",
				    d->pol->name, d->t, why);
	}
}

/* A configured policy (sched-model/knobs.h; NULL: pol's defaults); the
   caller frees it after drv_free(). */
static inline void drv_init_sched(struct drv *d, const struct sm_policy *pol,
				  struct sm_sched *s)
{
	struct sm_observer obs = { drv_observe, d };

	memset(d, 0, sizeof(*d));
	d->pol = pol;
	d->rq = pol->rq_new(s, 0, DRV_J0, &obs);
	if (!d->rq) {
		fprintf(stderr, "drv: rq_new failed\n");
		exit(2);
	}
}

static inline void drv_init(struct drv *d, const struct sm_policy *pol)
{
	drv_init_sched(d, pol, NULL);
}

static inline void drv_free(struct drv *d)
{
	for (int i = 0; i < d->n; i++) {
		if (d->task[i].t)
			d->pol->task_free(d->rq, d->task[i].t);
		free(d->task[i].runs);
		free(d->task[i].wakes);
	}
	d->pol->rq_free(d->rq);
	free(d->log);
	memset(d, 0, sizeof(*d));
}

static inline struct drv_task *drv_slot(struct drv *d, struct sm_task *t,
					const struct drv_op *prog, int parent)
{
	struct drv_task *k;

	if (d->n >= DRV_MAX_TASKS) {
		fprintf(stderr, "drv: too many tasks\n");
		exit(2);
	}
	k = &d->task[d->n];
	memset(k, 0, sizeof(*k));
	k->t = t;
	k->id = (uint32_t)d->n;
	k->prog = prog;
	k->wake_at = -1;
	k->parent = parent;
	k->vfork_parent = -1;
	k->run_start = -1;
	k->first_interactive = -1;
	d->n++;
	return k;
}

/* Index of the task now current, -1 if idle. */
static inline int drv_curr(const struct drv *d)
{
	return d->rq->curr ? drv_index(d, d->rq->curr) : -1;
}

static inline void drv_view(const struct drv *d, int i, struct sm_view *v)
{
	d->pol->view(d->task[i].t, v);
}

/*
 * A task alive at the start: created asleep, then either woken now (as by
 * a wakeup at that instant, the documented default) or at start_us.
 */
static inline int drv_add_info(struct drv *d, struct sm_task_info info,
			       const struct drv_op *prog, long start_us)
{
	struct drv_task *k;
	struct sm_task *t;

	info.id = (uint32_t)d->n;
	drv_set_time(d);
	t = d->pol->task_new(d->rq, &info);
	if (!t) {
		fprintf(stderr, "drv: task_new failed\n");
		exit(2);
	}
	k = drv_slot(d, t, prog, -1);
	if (start_us <= d->t) {
		d->pol->wake(d->rq, t, false);
	} else {
		k->wake_at = start_us;
		k->wake_seq = ++d->seq;
	}
	drv_check(d);
	return (int)k->id;
}

static inline int drv_add(struct drv *d, int nice, bool has_mm,
			  const struct drv_op *prog, long start_us)
{
	struct sm_task_info info = { 0, nice, SM_SCHED_NORMAL, 0, has_mm,
				     0, 0, NULL };

	return drv_add_info(d, info, prog, start_us);
}

static inline void drv_switch_log(struct drv *d, int prev, int next)
{
	if (prev == next)
		return;
	if (prev >= 0 && d->task[prev].run_start >= 0) {
		struct drv_task *k = &d->task[prev];

		if (d->t > k->run_start) {
			k->runs = drv_grow(k->runs, &k->capruns, k->nruns + 1,
					   sizeof(*k->runs));
			k->runs[k->nruns++] =
				(struct drv_span){ k->run_start, d->t };
		}
		k->run_start = -1;
	}
	if (next >= 0)
		d->task[next].run_start = d->t;
}

static void drv_ops(struct drv *d, int i);

/* schedule() while need_resched; start the new current's next op. */
static inline void drv_settle(struct drv *d)
{
	int guard = 0;

	while (d->rq->need_resched) {
		int prev = drv_curr(d), next;

		d->pol->schedule(d->rq);
		next = drv_curr(d);
		drv_switch_log(d, prev, next);
		/* reap a zombie as soon as it is switched out */
		if (prev >= 0 && prev != next && d->task[prev].zombie &&
		    !d->task[prev].reaped) {
			struct drv_task *z = &d->task[prev];
			int pa = z->parent;
			struct sm_task *pt = pa >= 0 && d->task[pa].t &&
				!d->task[pa].zombie ? d->task[pa].t : NULL;

			d->pol->reap(d->rq, pt, z->t);
			z->reaped = true;
			d->pol->task_free(d->rq, z->t);
			z->t = NULL;
		}
		if (next >= 0 && !d->task[next].in_burst)
			drv_ops(d, next);
		if (++guard > 10000) {
			fprintf(stderr, "drv: schedule loop\n");
			exit(2);
		}
	}
}

/* Run task i's instantaneous ops until it starts a burst or gives way. */
static void drv_ops(struct drv *d, int i)
{
	struct drv_task *k = &d->task[i];

	for (int steps = 0; steps < 1000; steps++) {
		const struct drv_op *op = &k->prog[k->pc];
		struct drv_task *c;
		struct sm_task *ct;
		struct sm_task_info info;

		switch (op->kind) {
		case OP_RUN:
			k->in_burst = true;
			k->rem = op->a;
			return;
		case OP_SLEEP:
			k->in_burst = false;
			k->pc++;
			k->wake_at = d->t + op->a;
			k->wake_seq = ++d->seq;
			k->wake_sync = op->b != 0;
			d->pol->block(d->rq, k->t);
			return;
		case OP_END:
			k->in_burst = false;
			k->wake_at = -1;
			d->pol->block(d->rq, k->t);
			return;
		case OP_LOOP:
			k->pc = 0;
			continue;
		case OP_EXIT:
			k->in_burst = false;
			k->zombie = true;
			if (k->vfork_parent >= 0) {
				d->pol->wake(d->rq,
					     d->task[k->vfork_parent].t, false);
				k->vfork_parent = -1;
			}
			d->pol->exit(d->rq, k->t);
			return;
		case OP_YIELD:
			k->in_burst = false;
			k->pc++;
			d->pol->yield(d->rq, k->t);
			return;
		case OP_NICE:
			k->pc++;
			d->pol->set_nice(d->rq, k->t, (int)op->a);
			break;
		case OP_SCHED:
			k->pc++;
			d->pol->setscheduler(d->rq, k->t, (int)op->a,
					     (int)op->b);
			break;
		case OP_FORK:
			k->pc++;
			memset(&info, 0, sizeof(info));
			info.id = (uint32_t)d->n;
			info.has_mm = op->c == 0;
			ct = d->pol->fork(d->rq, k->t, &info, (unsigned)op->b);
			if (!ct) {
				fprintf(stderr, "drv: fork failed\n");
				exit(2);
			}
			k = &d->task[i];
			c = drv_slot(d, ct, d->progs[op->a], i);
			if (op->b & SM_FORK_VFORK)
				c->vfork_parent = i;
			if (op->b & SM_FORK_VFORK)
				return;
			break;
		default:
			fprintf(stderr, "drv: bad op %d\n", op->kind);
			exit(2);
		}
		if (d->rq->need_resched) {
			k->in_burst = false;
			return;
		}
	}
	fprintf(stderr, "drv: program does not start a burst\n");
	exit(2);
}

/* One instant: the four steps of the conventions. */
static inline void drv_instant(struct drv *d)
{
	int c = drv_curr(d);

	drv_set_time(d);
	/* 1. a burst ending now ends first, and gives way at once */
	if (c >= 0 && d->task[c].in_burst && d->task[c].rem == 0) {
		d->task[c].in_burst = false;
		d->task[c].pc++;
		drv_ops(d, c);
		drv_settle(d);
	}
	/* 2. the tick, for whoever is current now */
	if (d->t % MS == 0)
		d->pol->tick(d->rq);
	/* 3. wakeups due now, in the order they were armed; between ticks
	   each acts at once */
	for (;;) {
		struct drv_task *k = NULL;
		bool before;

		for (int i = 0; i < d->n; i++)
			if (d->task[i].wake_at == d->t && d->task[i].t &&
			    (!k || d->task[i].wake_seq < k->wake_seq))
				k = &d->task[i];
		if (!k)
			break;
		k->wake_at = -1;
		before = d->rq->need_resched;
		/* a timer's wakeup comes from interrupt context */
		d->pol->wake(d->rq, k->t,
			     k->wake_sync ? SM_WAKE_SYNC : SM_WAKE_IRQ);
		k->wakes = drv_grow(k->wakes, &k->capwakes, k->nwakes + 1,
				    sizeof(*k->wakes));
		k->wakes[k->nwakes++] = (struct drv_wake){
			d->t, !before && d->rq->need_resched, false };
		if (d->t % MS)
			drv_settle(d);
	}
	/* 4. schedule() if need_resched */
	drv_settle(d);
	for (int i = 0; i < d->n; i++) {
		struct drv_task *k = &d->task[i];

		if (k->nwakes && k->wakes[k->nwakes - 1].t == d->t)
			k->wakes[k->nwakes - 1].ran_at_once =
				drv_curr(d) == i;
	}
	drv_check(d);
}

/* Run every instant up to and including until_us. */
static inline void drv_run(struct drv *d, long until_us)
{
	if (d->t == 0 && d->rq->need_resched) {
		drv_set_time(d);
		drv_settle(d);
		drv_check(d);
	}
	while (d->t < until_us) {
		long next = (d->t / MS + 1) * MS;
		int c = drv_curr(d);

		if (c >= 0 && d->task[c].in_burst &&
		    d->t + d->task[c].rem < next)
			next = d->t + d->task[c].rem;
		for (int i = 0; i < d->n; i++)
			if (d->task[i].t && d->task[i].wake_at > d->t &&
			    d->task[i].wake_at < next)
				next = d->task[i].wake_at;
		if (next > until_us)
			next = until_us;
		if (c >= 0 && d->task[c].in_burst)
			d->task[c].rem -= next - d->t;
		d->t = next;
		drv_instant(d);
	}
}

/* Close the open run spans (call before reading runs at the end). */
static inline void drv_close_runs(struct drv *d)
{
	int c = drv_curr(d);

	drv_switch_log(d, c, -1);
	if (c >= 0)
		d->task[c].run_start = d->t;
}

/* An expected run span, in milliseconds. */
struct span { int task; long start, end; };

/* Compare each task's run spans with the table (in time order); the
   spans of one task must match its rows in order. */
static inline void check_spans(struct drv *d, const struct span *want,
			       size_t n)
{
	size_t idx[DRV_MAX_TASKS] = { 0 };

	drv_close_runs(d);
	for (size_t i = 0; i < n; i++) {
		const struct drv_task *k = &d->task[want[i].task];
		size_t j = idx[want[i].task]++;

		CHECK_CTX("%s span %zu (task %d)", d->pol->name, i,
			  want[i].task);
		CHECK(j < k->nruns);
		if (j >= k->nruns)
			return;
		CHECK_INT(k->runs[j].start, want[i].start * MS);
		CHECK_INT(k->runs[j].end, want[i].end * MS);
		/* back to back: nobody else ran in between */
		if (i + 1 < n && want[i + 1].task != want[i].task)
			CHECK_INT(want[i].end, want[i + 1].start);
	}
}

/*
 * Direct API use in tests, without programs: the test calls the policy at
 * chosen jiffies (relative to DRV_J0) and applies the conventions itself.
 */
static inline void drv_at_jiffy(struct drv *d, long j)
{
	d->t = j * MS;
	drv_set_time(d);
}

/* schedule() while need_resched, then check the invariants */
static inline void api_settle(struct drv *d)
{
	int prev = drv_curr(d);

	while (d->rq->need_resched)
		d->pol->schedule(d->rq);
	drv_switch_log(d, prev, drv_curr(d));
	drv_check(d);
}

static inline void api_tick(struct drv *d, long j)
{
	drv_at_jiffy(d, j);
	d->pol->tick(d->rq);
	api_settle(d);
}

static inline void api_wake(struct drv *d, int i, long j)
{
	drv_at_jiffy(d, j);
	d->pol->wake(d->rq, d->task[i].t, false);
	api_settle(d);
}

/* A wakeup with SM_WAKE_* flags at driver time t_us. */
static inline void api_wake_at(struct drv *d, int i, long t_us,
			       unsigned flags)
{
	d->t = t_us;
	drv_set_time(d);
	d->pol->wake(d->rq, d->task[i].t, flags);
	api_settle(d);
}

static inline void api_block(struct drv *d, int i, long j)
{
	drv_at_jiffy(d, j);
	d->pol->block(d->rq, d->task[i].t);
	api_settle(d);
}

/* The convention at one instant: tick, then the wakeup, then schedule. */
static inline void api_tick_wake(struct drv *d, long j, int i)
{
	drv_at_jiffy(d, j);
	d->pol->tick(d->rq);
	d->pol->wake(d->rq, d->task[i].t, false);
	api_settle(d);
}

/* A task created asleep at the current time, driven directly. */
static inline int api_add(struct drv *d, int nice, bool has_mm, int pct)
{
	static const struct drv_op none[] = { END };
	struct sm_task_info info = { 0, nice, SM_SCHED_NORMAL, 0, has_mm,
				     pct, 0, NULL };

	return drv_add_info(d, info, none, FOREVER);
}

/* Fork by task i (rq->curr) at the current time; returns the child. */
static inline int api_fork(struct drv *d, int i, bool has_mm, unsigned fl)
{
	struct sm_task_info info = { (uint32_t)d->n, 0, SM_SCHED_NORMAL, 0,
				     has_mm, 0, 0, NULL };
	struct sm_task *c = d->pol->fork(d->rq, d->task[i].t, &info, fl);

	if (!c) {
		fprintf(stderr, "drv: fork failed\n");
		exit(2);
	}
	return (int)drv_slot(d, c, NULL, i)->id;
}

static inline struct sm_view api_view(const struct drv *d, int i)
{
	struct sm_view v;

	d->pol->view(d->task[i].t, &v);
	return v;
}

/* The last report of a reason for task i at the current time; NULL if
   none. */
static inline const struct drv_rec *drv_last(const struct drv *d, int i,
					     enum sm_change why)
{
	for (size_t r = d->nlog; r-- > 0;) {
		if (d->log[r].t != d->t)
			break;
		if (d->log[r].id == (uint32_t)i && d->log[r].why == why)
			return &d->log[r];
	}
	return NULL;
}

#endif
