/*
 * metrics: delay distributions (exact, then log-linear histogram), one
 * task's figures, and the accounting state machine shared by the
 * simulator and the recorded schedule.  See replay/metrics.h.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/rank.h"
#include "replay/metrics.h"

/* ---- delay distribution ------------------------------------------------ */

/*
 * Histogram buckets.  Values below 2 * SUB are their own bucket (exact).
 * Above, a value v with top bit e (2^e <= v < 2^(e+1), e >= SUB_BITS + 1)
 * falls in one of SUB equal slices of [2^e, 2^(e+1)): the slice width is
 * 2^(e - SUB_BITS) <= v / SUB, so reporting its midpoint is off by at
 * most v / (2 * SUB).  Buckets are stored for the index window in use only.
 */
#define SUB (1u << SR_DELAY_HIST_SUB_BITS)
#define LINEAR (2u * SUB)

/*
 * Exact mode keeps the samples as 32-bit nanoseconds (delays under 4.29
 * s, nearly all) until a longer one comes, then as 64-bit: exact either
 * way, half the memory usually.  The first INLINE live in the struct.
 */
#define INLINE 4

/*
 * The mode follows from the count: exact while n <= SR_DELAY_EXACT_MAX,
 * a histogram beyond.  Each mode's fields share the space of the other's
 * (40 bytes a task: a task's distribution is allocated with its first
 * delay, and a replay keeps one per task and policy).
 */
struct sr_delays {
	uint64_t n;
	union {
		struct {                /* exact: samples[0..n) */
			void *samples;  /* uint32_t[cap], or int64_t[cap] if
					   wide; NULL: inl[] */
			uint32_t cap;
			uint32_t wide;
		};
		struct {                /* histogram */
			uint32_t *hist; /* counts for buckets [lo, lo + nb) */
			uint32_t lo, nb;
		};
	};
	union {
		uint32_t inl[INLINE];   /* exact, while samples is NULL */
		struct {
			int64_t min, max; /* histogram: the extremes, exact */
		};
	};
};

static bool exact(const struct sr_delays *d)
{
	return d->n <= SR_DELAY_EXACT_MAX;
}

static int64_t sample(const struct sr_delays *d, uint64_t k)
{
	if (!d->samples)
		return d->inl[k];
	return d->wide ? ((const int64_t *)d->samples)[k]
		       : ((const uint32_t *)d->samples)[k];
}

static int top_bit(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

static uint32_t bucket_of(int64_t v)
{
	uint64_t u = (uint64_t)v;
	int e;

	if (u < LINEAR)
		return (uint32_t)u;
	e = top_bit(u);
	return LINEAR + (uint32_t)(e - SR_DELAY_HIST_SUB_BITS - 1) * SUB +
	       (uint32_t)((u >> (e - SR_DELAY_HIST_SUB_BITS)) & (SUB - 1));
}

/* Value reported for a bucket: itself (linear) or the slice midpoint. */
static int64_t bucket_value(uint32_t i)
{
	uint32_t k, sub;
	int shift;
	uint64_t low;

	if (i < LINEAR)
		return (int64_t)i;
	k = i - LINEAR;
	shift = (int)(k / SUB) + 1; /* e - SUB_BITS */
	sub = k % SUB;
	low = (uint64_t)(SUB + sub) << shift;
	return (int64_t)(low + ((uint64_t)1 << shift) / 2);
}

struct sr_delays *sr_delays_new(void)
{
	return calloc(1, sizeof(struct sr_delays));
}

static void free_samples(struct sr_delays *d)
{
	free(d->samples);
	d->samples = NULL;
	d->cap = 0;
	d->wide = 0;
}

void sr_delays_free(struct sr_delays *d)
{
	if (!d)
		return;
	if (exact(d))
		free_samples(d);
	else
		free(d->hist);
	free(d);
}

/* Make bucket i addressable in d->hist. */
static int hist_reserve(struct sr_delays *d, uint32_t i)
{
	uint32_t lo, hi, nb;
	uint32_t *h;

	if (d->hist && i >= d->lo && i < d->lo + d->nb)
		return SR_OK;
	if (!d->hist) {
		lo = i;
		hi = i + 1;
	} else {
		lo = i < d->lo ? i : d->lo;
		hi = i >= d->lo + d->nb ? i + 1 : d->lo + d->nb;
	}
	/* grow by whole octaves to avoid many small reallocs */
	lo = lo >= LINEAR ? LINEAR + (lo - LINEAR) / SUB * SUB : 0;
	if (hi > LINEAR)
		hi = LINEAR + (hi - LINEAR + SUB - 1) / SUB * SUB;
	else
		hi = LINEAR;
	nb = hi - lo;
	h = calloc(nb, sizeof(*h));
	if (!h)
		return SR_ENOMEM;
	if (d->hist) {
		memcpy(h + (d->lo - lo), d->hist, d->nb * sizeof(*h));
		free(d->hist);
	}
	d->hist = h;
	d->lo = lo;
	d->nb = nb;
	return SR_OK;
}

static int hist_add(struct sr_delays *d, uint32_t i, uint32_t count)
{
	int rc;

	if ((rc = hist_reserve(d, i)))
		return rc;
	if (d->hist[i - d->lo] > UINT32_MAX - count)
		return SR_EDATA; /* 4 billion delays in one slice */
	d->hist[i - d->lo] += count;
	return SR_OK;
}

/* The samples of exact src into h's histogram; their extremes in *lo and
 * *hi (0 if none). */
static int add_samples(struct sr_delays *h, const struct sr_delays *src,
		       int64_t *lo, int64_t *hi)
{
	*lo = *hi = 0;
	for (uint64_t k = 0; k < src->n; k++) {
		int64_t v = sample(src, k);
		int rc;

		if ((rc = hist_add(h, bucket_of(v), 1)))
			return rc;
		if (k == 0 || v < *lo)
			*lo = v;
		if (k == 0 || v > *hi)
			*hi = v;
	}
	return SR_OK;
}

/*
 * Leave exact mode: every kept sample into a histogram, the extremes
 * kept (the caller then counts more delays than the exact maximum).
 */
static int fold(struct sr_delays *d)
{
	struct sr_delays h = { .n = 0 };
	int64_t lo, hi;
	int rc;

	if ((rc = add_samples(&h, d, &lo, &hi)) ||
	    (!h.hist && (rc = hist_reserve(&h, 0)))) {
		free(h.hist);
		return rc;
	}
	free_samples(d);
	d->hist = h.hist;
	d->lo = h.lo;
	d->nb = h.nb;
	d->min = lo;
	d->max = hi;
	return SR_OK;
}

static void minmax(struct sr_delays *d, int64_t lo, int64_t hi, uint64_t n0)
{
	if (n0 == 0 || lo < d->min)
		d->min = lo;
	if (n0 == 0 || hi > d->max)
		d->max = hi;
}

/* Room for sample n in an array of width wide (grows by doubling). */
static int reserve(struct sr_delays *d, bool wide)
{
	uint32_t have = d->samples ? d->cap : INLINE;
	uint32_t cap = have;
	size_t w = wide ? sizeof(int64_t) : sizeof(uint32_t);
	void *s;

	if (d->n < have && (bool)d->wide == wide)
		return SR_OK;
	if (d->n >= have)
		cap = have * 2 > SR_DELAY_EXACT_MAX ? SR_DELAY_EXACT_MAX : have * 2;
	if (!d->samples || (bool)d->wide != wide) {
		/* leaving the inline array, or widening: copy the samples */
		if (!(s = malloc(cap * w)))
			return SR_ENOMEM;
		for (uint64_t k = 0; k < d->n; k++) {
			if (wide)
				((int64_t *)s)[k] = sample(d, k);
			else
				((uint32_t *)s)[k] = (uint32_t)sample(d, k);
		}
		free(d->samples);
	} else if (!(s = realloc(d->samples, cap * w))) {
		return SR_ENOMEM;
	}
	d->samples = s;
	d->cap = cap;
	d->wide = wide;
	return SR_OK;
}

static int store(struct sr_delays *d, int64_t v)
{
	bool wide = d->wide || v > (int64_t)UINT32_MAX;

	if (reserve(d, wide))
		return SR_ENOMEM;
	if (!d->samples)
		d->inl[d->n] = (uint32_t)v;
	else if (d->wide)
		((int64_t *)d->samples)[d->n] = v;
	else
		((uint32_t *)d->samples)[d->n] = (uint32_t)v;
	return SR_OK;
}

int sr_delays_add(struct sr_delays *d, int64_t v)
{
	int rc;

	if (v < 0)
		return SR_EINTERNAL; /* the callers' invariant */
	if (d->n < SR_DELAY_EXACT_MAX) {
		if ((rc = store(d, v)))
			return rc;
	} else {
		if (exact(d) && (rc = fold(d)))
			return rc;
		if ((rc = hist_add(d, bucket_of(v), 1)))
			return rc;
		minmax(d, v, v, d->n);
	}
	d->n++;
	return SR_OK;
}

int sr_delays_merge(struct sr_delays *dst, const struct sr_delays *src)
{
	uint64_t n0 = dst->n;
	int64_t lo, hi;
	int rc;

	if (!src || src->n == 0)
		return SR_OK;
	if (dst->n + src->n <= SR_DELAY_EXACT_MAX) { /* both exact */
		for (uint64_t k = 0; k < src->n; k++)
			if ((rc = sr_delays_add(dst, sample(src, k))))
				return rc;
		return SR_OK;
	}
	if (exact(dst) && (rc = fold(dst)))
		return rc;
	if (!exact(src)) {
		for (uint32_t k = 0; k < src->nb; k++)
			if (src->hist[k] &&
			    (rc = hist_add(dst, src->lo + k, src->hist[k])))
				return rc;
		lo = src->min;
		hi = src->max;
	} else if ((rc = add_samples(dst, src, &lo, &hi))) {
		return rc;
	}
	minmax(dst, lo, hi, n0);
	dst->n += src->n;
	return SR_OK;
}

uint64_t sr_delays_count(const struct sr_delays *d)
{
	return d ? d->n : 0;
}

bool sr_delays_exact(const struct sr_delays *d)
{
	return !d || exact(d);
}

void sr_delays_percentiles(const struct sr_delays *d, const double *p,
			   int64_t *out, size_t np)
{
	int64_t tmp[SR_DELAY_EXACT_MAX];

	if (!d || d->n == 0) {
		for (size_t i = 0; i < np; i++)
			out[i] = 0;
		return;
	}
	if (exact(d)) {
		for (uint64_t k = 0; k < d->n; k++)
			tmp[k] = sample(d, k);
		sr_sort_i64(tmp, d->n);
		for (size_t i = 0; i < np; i++)
			out[i] = sr_percentile_sorted(tmp, d->n, p[i]);
		return;
	}
	for (size_t i = 0; i < np; i++) {
		uint64_t want = sr_rank(p[i], d->n), seen = 0;
		int64_t v = d->max;

		if (want == d->n) {
			out[i] = d->max; /* the top rank is the exact max */
			continue;
		}
		for (uint32_t k = 0; k < d->nb; k++) {
			seen += d->hist[k];
			if (seen >= want) {
				v = bucket_value(d->lo + k);
				break;
			}
		}
		if (v < d->min)
			v = d->min;
		if (v > d->max)
			v = d->max;
		out[i] = v;
	}
}

int64_t sr_delays_percentile(const struct sr_delays *d, double p)
{
	int64_t v;

	sr_delays_percentiles(d, &p, &v, 1);
	return v;
}

/* ---- one task's figures ------------------------------------------------ */

int sr_metrics_add_delay(struct sr_task_metrics *m, int64_t start_ns,
			 int64_t end_ns)
{
	int64_t delay, sum;
	int rc;

	if (__builtin_sub_overflow(end_ns, start_ns, &delay) || delay < 0)
		return SR_EINTERNAL;
	if (__builtin_add_overflow(m->sum_delay_ns, delay, &sum))
		return SR_EDATA;
	if (!m->delays && !(m->delays = sr_delays_new()))
		return SR_ENOMEM;
	if ((rc = sr_delays_add(m->delays, delay)))
		return rc;
	m->switches++;
	m->sum_delay_ns = sum;
	if (delay > m->max_delay_ns) {
		m->max_delay_ns = delay;
		m->max_delay_start = start_ns;
		m->max_delay_end = end_ns;
	}
	return SR_OK;
}

int sr_metrics_merge(struct sr_task_metrics *dst,
		     const struct sr_task_metrics *src)
{
	int64_t rt, sum;

	if (__builtin_add_overflow(dst->runtime_ns, src->runtime_ns, &rt) ||
	    __builtin_add_overflow(dst->sum_delay_ns, src->sum_delay_ns, &sum))
		return SR_EDATA;
	if (src->delays) {
		int rc;

		if (!dst->delays && !(dst->delays = sr_delays_new()))
			return SR_ENOMEM;
		if ((rc = sr_delays_merge(dst->delays, src->delays)))
			return rc;
	}
	dst->ntasks += src->ntasks ? src->ntasks : 1;
	dst->runtime_ns = rt;
	dst->switches += src->switches;
	dst->wakeups += src->wakeups;
	dst->sum_delay_ns = sum;
	if (src->max_delay_ns > dst->max_delay_ns) {
		dst->max_delay_ns = src->max_delay_ns;
		dst->max_delay_start = src->max_delay_start;
		dst->max_delay_end = src->max_delay_end;
	}
	dst->lost_touched |= src->lost_touched;
	return SR_OK;
}

int64_t sr_metrics_avg_delay(const struct sr_task_metrics *m)
{
	return m->switches ? m->sum_delay_ns / (int64_t)m->switches : 0;
}

void sr_metrics_release(struct sr_task_metrics *m)
{
	sr_delays_free(m->delays);
	m->delays = NULL;
}

/* ---- accounting state machine ------------------------------------------ */

static const char *const cause_names[SR_CAUSE__COUNT] = {
	[SR_CAUSE_WAKEUP] = "wakeup",
	[SR_CAUSE_PREEMPT] = "preempt",
	[SR_CAUSE_FORK] = "fork",
	[SR_CAUSE_UNKNOWN] = "unknown",
};

const char *sr_acct_cause_name(enum sr_acct_cause c)
{
	return (unsigned)c < SR_CAUSE__COUNT ? cause_names[c] : "?";
}

struct acct_task {
	uint8_t state;       /* enum sr_acct_state */
	uint8_t cause;       /* of the open wait */
	int64_t since;       /* wait start (RUNNABLE) or run start (RUNNING) */
	int64_t last_stop;
	int64_t oncpu_ns;
	int64_t charged_ns;
	struct sr_task_metrics m;
};

/*
 * Tasks are stored densely, in chunks that never move, and found through
 * an index by task id: ids that are never used (the caller's gaps: exec'd
 * records, idle tasks) cost 4 bytes, and growth never copies the slots.
 */
#define CHUNK_BITS 10
#define CHUNK (1u << CHUNK_BITS)

struct sr_acct {
	uint32_t *idx;       /* by task id: slot + 1, 0 if none */
	size_t nidx, idx_cap;
	struct acct_task **chunks;
	size_t nslots, nchunks, capchunks;
	char **names;        /* interned comms: open addressing, NULL = free */
	size_t nnames, names_cap;
	bool charged;
	int64_t lo, hi;      /* the window counted (sr_acct_window) */
	int err;             /* first error, kept */
	const char *errmsg;  /* what it was */
	sr_acct_wait_fn on_wait;
	void *on_wait_ctx;
};

static struct acct_task *at(const struct sr_acct *a, size_t i)
{
	return &a->chunks[i >> CHUNK_BITS][i & (CHUNK - 1)];
}

/* The slot of task, NULL if it has none. */
static struct acct_task *find(const struct sr_acct *a, uint32_t task)
{
	return task < a->nidx && a->idx[task] ? at(a, a->idx[task] - 1) : NULL;
}

int sr_acct_new(struct sr_acct **a, struct sr_diag *d)
{
	*a = calloc(1, sizeof(**a));
	if (!*a)
		return sr_oom(d);
	(*a)->lo = INT64_MIN;
	(*a)->hi = INT64_MAX;
	return SR_OK;
}

void sr_acct_window(struct sr_acct *a, int64_t lo, int64_t hi)
{
	a->lo = lo;
	a->hi = hi;
}

static bool in_window(const struct sr_acct *a, int64_t t)
{
	return t >= a->lo && t < a->hi;
}

/* The part of [from, to) in the window. */
static int64_t windowed(const struct sr_acct *a, int64_t from, int64_t to)
{
	int64_t x = from > a->lo ? from : a->lo, y = to < a->hi ? to : a->hi;

	return y > x ? y - x : 0;
}

void sr_acct_free(struct sr_acct *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nslots; i++)
		sr_metrics_release(&at(a, i)->m);
	for (size_t i = 0; i < a->nchunks; i++)
		free(a->chunks[i]);
	free(a->chunks);
	for (size_t i = 0; i < a->names_cap; i++)
		free(a->names[i]);
	free(a->names);
	free(a->idx);
	free(a);
}

void sr_acct_on_wait(struct sr_acct *a, sr_acct_wait_fn fn, void *ctx)
{
	a->on_wait = fn;
	a->on_wait_ctx = ctx;
}

/* code, from the figures or a wait's consumer, said by its kind. */
static int acct_err(struct sr_acct *a, int code)
{
	if (code && !a->err) {
		a->err = code;
		a->errmsg = code == SR_EDATA ? "a task's total delay overflows "
			"64-bit nanoseconds, or 4 billion of its delays fall "
			"in one histogram slice" :
			code == SR_ENOMEM ? "out of memory" :
			code == SR_EIO ? "writing a wait failed" :
			"a wait that ends before it begins, or a consumer of "
			"the waits failed";
	}
	return code;
}

static int acct_fail(struct sr_acct *a, int code, const char *msg)
{
	if (!a->err) {
		a->err = code;
		a->errmsg = msg;
	}
	return code;
}

const char *sr_acct_error(const struct sr_acct *a)
{
	return a->err ? a->errmsg : NULL;
}

/* The slot of task, created (UNSEEN) if needed; NULL on OOM. */
static struct acct_task *slot(struct sr_acct *a, uint32_t task)
{
	struct acct_task *s = find(a, task);
	uint32_t *x;

	if (s)
		return s;
	if (task == UINT32_MAX || a->nslots >= UINT32_MAX - 1) {
		acct_fail(a, SR_EDATA, "more than 4294967294 tasks");
		return NULL;
	}
	x = sr_grow(a->idx, &a->idx_cap, task, sizeof(*x), 1024, 0);
	if (!x) {
		acct_err(a, SR_ENOMEM);
		return NULL;
	}
	a->idx = x;
	if (a->nslots == a->nchunks * CHUNK) {
		struct acct_task **c = sr_grow(a->chunks, &a->capchunks,
					       a->nchunks, sizeof(*c), 16, 0);

		if (!c) {
			acct_err(a, SR_ENOMEM);
			return NULL;
		}
		a->chunks = c;
		if (!(c[a->nchunks] = malloc(CHUNK * sizeof(**c)))) {
			acct_err(a, SR_ENOMEM);
			return NULL;
		}
		a->nchunks++;
	}
	s = at(a, a->nslots++);
	memset(s, 0, sizeof(*s));
	s->state = SR_ACCT_UNSEEN;
	s->m.id = task;
	s->m.pid = -1;
	s->m.comm = "";
	s->m.ntasks = 1;
	a->idx[task] = (uint32_t)a->nslots;
	if (task >= a->nidx)
		a->nidx = task + 1;
	return s;
}

int sr_acct_runnable(struct sr_acct *a, uint32_t task, int64_t t,
		     enum sr_acct_cause cause)
{
	struct acct_task *s = slot(a, task);

	if (!s)
		return a->err;
	if (s->state != SR_ACCT_UNSEEN && s->state != SR_ACCT_SLEEPING)
		return SR_OK;
	s->state = SR_ACCT_RUNNABLE;
	s->cause = (uint8_t)cause;
	s->since = t;
	if (cause == SR_CAUSE_WAKEUP && in_window(a, t))
		s->m.wakeups++;
	return SR_OK;
}

int sr_acct_run(struct sr_acct *a, uint32_t task, int64_t t)
{
	struct acct_task *s = slot(a, task);
	int rc;

	if (!s)
		return a->err;
	switch (s->state) {
	case SR_ACCT_RUNNABLE:
		s->state = SR_ACCT_RUNNING;
		if (t < s->since) {
			/* ends before it began: out-of-order input, dropped */
			s->since = t;
			return SR_OK;
		}
		/* a wait counts in the window it began in */
		if (in_window(a, s->since) &&
		    (rc = sr_metrics_add_delay(&s->m, s->since, t)))
			return acct_err(a, rc);
		if (a->on_wait) {
			rc = a->on_wait(a->on_wait_ctx, task, s->since, t,
					(enum sr_acct_cause)s->cause);
			if (rc)
				return acct_err(a, rc);
		}
		s->since = t;
		return SR_OK;
	case SR_ACCT_UNSEEN:
	case SR_ACCT_SLEEPING:
		s->state = SR_ACCT_RUNNING;
		s->since = t;
		return SR_OK;
	default: /* already running, or dead */
		return SR_OK;
	}
}

static void close_run(const struct sr_acct *a, struct acct_task *s,
		      int64_t t)
{
	if (s->state == SR_ACCT_RUNNING && t > s->since)
		s->oncpu_ns += windowed(a, s->since, t);
}

int sr_acct_stop(struct sr_acct *a, uint32_t task, int64_t t,
		 bool still_runnable)
{
	struct acct_task *s = slot(a, task);

	if (!s)
		return a->err;
	if (s->state == SR_ACCT_DEAD)
		return SR_OK;
	close_run(a, s, t);
	s->last_stop = t;
	if (still_runnable) {
		s->state = SR_ACCT_RUNNABLE;
		s->cause = SR_CAUSE_PREEMPT;
		s->since = t;
	} else {
		s->state = SR_ACCT_SLEEPING;
		s->since = 0;
	}
	return SR_OK;
}

int sr_acct_exit(struct sr_acct *a, uint32_t task, int64_t t)
{
	struct acct_task *s = slot(a, task);

	if (!s)
		return a->err;
	close_run(a, s, t);
	s->state = SR_ACCT_DEAD;
	s->since = 0;
	return SR_OK;
}

int sr_acct_charge(struct sr_acct *a, uint32_t task, int64_t ns)
{
	return sr_acct_charge_at(a, task, INT64_MAX, ns);
}

int sr_acct_charge_at(struct sr_acct *a, uint32_t task, int64_t t,
		      int64_t ns)
{
	struct acct_task *s = slot(a, task);

	if (!s)
		return a->err;
	if (ns < 0)
		return acct_fail(a, SR_EDATA, "negative cpu time charged");
	/* the cpu time of [t - ns, t): its part in the window */
	if ((a->lo != INT64_MIN || a->hi != INT64_MAX) && t != INT64_MAX) {
		int64_t from;

		if (__builtin_sub_overflow(t, ns, &from))
			from = INT64_MIN;
		ns = windowed(a, from, t);
	}
	if (__builtin_add_overflow(s->charged_ns, ns, &s->charged_ns))
		return acct_fail(a, SR_EDATA, "a task's charged cpu time "
				 "overflows 64-bit nanoseconds");
	a->charged = true;
	return SR_OK;
}

int sr_acct_mark_lost(struct sr_acct *a, uint32_t task)
{
	struct acct_task *s = slot(a, task);

	if (!s)
		return a->err;
	s->m.lost_touched = true;
	return SR_OK;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The pool's copy of name, added if new; NULL on OOM. */
static const char *intern(struct sr_acct *a, const char *name)
{
	size_t i;

	if (2 * (a->nnames + 1) > a->names_cap) {
		size_t cap = a->names_cap ? a->names_cap * 2 : 64;
		char **n = calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t k = 0; k < a->names_cap; k++) {
			char *e = a->names[k];
			if (!e)
				continue;
			for (i = hash_str(e) & (cap - 1); n[i]; i = (i + 1) & (cap - 1))
				;
			n[i] = e;
		}
		free(a->names);
		a->names = n;
		a->names_cap = cap;
	}
	for (i = hash_str(name) & (a->names_cap - 1); a->names[i];
	     i = (i + 1) & (a->names_cap - 1))
		if (!strcmp(a->names[i], name))
			return a->names[i];
	if (!(a->names[i] = strdup(name)))
		return NULL;
	a->nnames++;
	return a->names[i];
}

int sr_acct_name(struct sr_acct *a, uint32_t task, int32_t pid,
		 const char *comm)
{
	struct acct_task *s = slot(a, task);
	const char *c;

	if (!s)
		return a->err;
	if (!(c = intern(a, comm ? comm : "")))
		return acct_err(a, SR_ENOMEM);
	s->m.pid = pid;
	s->m.comm = c;
	return SR_OK;
}

enum sr_acct_state sr_acct_state(const struct sr_acct *a, uint32_t task)
{
	const struct acct_task *s = find(a, task);

	return s ? (enum sr_acct_state)s->state : SR_ACCT_UNSEEN;
}

int64_t sr_acct_since(const struct sr_acct *a, uint32_t task)
{
	const struct acct_task *s = find(a, task);

	return s ? s->since : 0;
}

int64_t sr_acct_last_stop(const struct sr_acct *a, uint32_t task)
{
	const struct acct_task *s = find(a, task);

	return s ? s->last_stop : 0;
}

int sr_acct_finish(struct sr_acct *a, int64_t t_end, struct sr_diag *d)
{
	for (size_t i = 0; i < a->nslots; i++) {
		struct acct_task *s = at(a, i);

		close_run(a, s, t_end);
		if (s->state == SR_ACCT_RUNNING)
			s->since = t_end;
		s->m.runtime_ns = a->charged ? s->charged_ns : s->oncpu_ns;
	}
	if (a->err)
		return sr_fail(d, a->err, "accounting: %s", a->errmsg);
	return SR_OK;
}

size_t sr_acct_ntasks(const struct sr_acct *a)
{
	return a->nidx;
}

struct sr_task_metrics *sr_acct_metrics(struct sr_acct *a, uint32_t task)
{
	struct acct_task *s = find(a, task);

	return s ? &s->m : NULL;
}

