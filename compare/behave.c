/*
 * behave: task behaviour from the reference run, periods, the spread of
 * delays and interbench's periodic-task metrics (see behave.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "lib/grow.h"
#include "lib/rank.h"
#include "compare/behave.h"

enum run_state { ST_UNKNOWN, ST_RUNNING, ST_RUNNABLE, ST_SLEEPING, ST_DEAD };

/* The state a timeline event leaves a task in; -1: unchanged. */
static int next_state(enum cmp_tl_event ev)
{
	static const int table[] = {
		[CMP_EV_OTHER] = -1,
		[CMP_EV_NEW] = ST_SLEEPING,   /* alive before the trace: asleep */
		[CMP_EV_FORK] = ST_RUNNABLE,
		[CMP_EV_WAKE] = ST_RUNNABLE,
		[CMP_EV_RUN] = ST_RUNNING,
		[CMP_EV_PREEMPT] = ST_RUNNABLE,
		[CMP_EV_BLOCK] = ST_SLEEPING,
		[CMP_EV_EXIT] = ST_DEAD,
		[CMP_EV_REAP] = ST_DEAD,
		[CMP_EV_GONE] = ST_DEAD,
		[CMP_EV_SKIP] = -1,
		[CMP_EV_MIGRATE] = -1,
	};
	return table[ev];
}

/* One burst as a run ran it: when it began (its wakeup, or the end of the
 * burst before when the task ran straight on), when it ended, and the
 * task's CPU used by its end. */
struct burst {
	int64_t start, end, cpu;
};

struct tstate {
	bool seen;
	int st;
	int64_t since;
	int64_t cpu;     /* CPU time so far */
	uint32_t bursts; /* bursts ended so far */
	size_t k;        /* periodic pass: next deadline to evaluate */
	/* periodic pass: when each burst ended, and the CPU used by then;
	 * the CPU used by each period's deadline */
	struct burst *b;           /* bursts 0..nb-1 as this run ran them */
	size_t nb, capb;
	int64_t cur_start;         /* when the current burst began */
	int64_t *cpu_at_deadline;
	/* reference pass: its last wakeup, and whether every CPU was busy */
	int64_t woke;
	bool waking, busy_at_wake;
};

/* Does this event end a burst (the task sleeps, exits, or skips a sleep)? */
static bool ends_burst(enum cmp_tl_event ev)
{
	return ev == CMP_EV_BLOCK || ev == CMP_EV_EXIT || ev == CMP_EV_GONE ||
	       ev == CMP_EV_SKIP;
}

static int grow_states(struct tstate **v, size_t *cap, size_t need,
		       struct sr_diag *d)
{
	struct tstate *p = sr_grow(*v, cap, need, sizeof(*p), 64, 0);

	if (!p)
		return sr_oom(d);
	*v = p;
	return SR_OK;
}

/* ---- reference behaviour ----------------------------------------------- */

struct ref_ctx {
	struct cmp_set *s;
	struct tstate *st;
	size_t cap;
	int nrunning;           /* tasks running now */
};

static int add_period(struct cmp_task *t, int64_t wake_ns, uint32_t burst,
		      struct sr_diag *d)
{
	if (t->nper == t->perc) {
		struct cmp_period *p = sr_grow(t->per, &t->perc, t->nper,
					       sizeof(*p), 16, 0);

		if (!p)
			return sr_oom(d);
		t->per = p;
	}
	t->per[t->nper].wake_ns = wake_ns;
	t->per[t->nper].first = burst;
	t->per[t->nper].last = burst;
	t->nper++;
	return SR_OK;
}

static void close_interval(struct cmp_task *t, struct tstate *x, int64_t now)
{
	int64_t dt = now - x->since;

	if (dt <= 0)
		return;
	switch (x->st) {
	case ST_RUNNING:
		t->run_ns += dt;
		x->cpu += dt;
		break;
	case ST_RUNNABLE:
		t->wait_ns += dt;
		break;
	case ST_SLEEPING:
		t->sleep_ns += dt;
		break;
	default:
		break;
	}
}

/* A wakeup, and the run after it: late when it waited
 * CMP_STARVED_WAIT_NS or more, every CPU busy when it woke. */
static void late_wake(struct ref_ctx *c, struct cmp_task *t, struct tstate *x,
		      const struct cmp_tl_row *r)
{
	if (r->ev == CMP_EV_WAKE) {
		x->woke = r->time_ns;
		x->waking = true;
		x->busy_at_wake = c->s->ref_cpus > 0 &&
				  c->nrunning >= c->s->ref_cpus;
	} else if (r->ev == CMP_EV_RUN && x->waking) {
		if (x->busy_at_wake && r->time_ns - x->woke >= CMP_STARVED_WAIT_NS)
			t->late_wakes++;
		x->waking = false;
	}
}

static int ref_row(void *ctx, const struct cmp_tl_row *r, struct sr_diag *d)
{
	struct ref_ctx *c = ctx;
	struct cmp_set *s = c->s;
	struct cmp_task *t;
	struct tstate *x;
	int ns;

	if (grow_states(&c->st, &c->cap, (size_t)r->task, d))
		return d->code;
	t = &s->tasks[r->task];
	x = &c->st[r->task];
	if (!s->have_t) {
		s->t0 = s->t1 = r->time_ns;
		s->have_t = true;
	}
	s->t1 = r->time_ns;
	if (!t->in_ref) {
		t->in_ref = true;
		t->first_ns = r->time_ns;
		x->since = r->time_ns;
	}
	t->last_ns = r->time_ns;
	if (r->static_prio >= 0)
		t->static_prio = r->static_prio;
	if (x->st == ST_DEAD)
		return SR_OK;
	close_interval(t, x, r->time_ns);
	x->since = r->time_ns;
	if (r->ev == CMP_EV_WAKE) {
		t->wakes++;
		if (add_period(t, r->time_ns, x->bursts, d))
			return d->code;
	}
	if (ends_burst(r->ev))
		t->nbursts = ++x->bursts;
	late_wake(c, t, x, r);
	ns = next_state(r->ev);
	if (ns >= 0) {
		c->nrunning += (ns == ST_RUNNING) - (x->st == ST_RUNNING);
		x->st = ns;
	}
	return SR_OK;
}

int cmp_behave_reference(struct cmp_set *s, struct sr_diag *d)
{
	struct ref_ctx c = { .s = s };
	int rc = cmp_timeline_pass(s, s->ref, true, ref_row, &c, d);

	if (rc == SR_OK) {
		/* tasks still alive at the end: their state lasts to t1 */
		for (size_t i = 0; i < s->ntasks && i < c.cap; i++) {
			if (s->tasks[i].in_ref && c.st[i].st != ST_DEAD)
				close_interval(&s->tasks[i], &c.st[i], s->t1);
		}
	}
	free(c.st);
	return rc;
}

/* ---- waiting for its descendants ----------------------------------------- */

/*
 * How long each task slept while one of its descendants was running or
 * runnable: the task waited for work it started.  Each task's count of
 * busy descendants follows the timeline; a stretch asleep with the count
 * above 0 adds to desc_busy_ns.
 */
struct desc_ctx {
	struct cmp_set *s;
	signed char *st;        /* state by task (enum run_state) */
	uint32_t *nbusy;        /* busy descendants by task */
	int64_t *since;         /* start of the current stretch */
};

static bool busy_state(int st)
{
	return st == ST_RUNNING || st == ST_RUNNABLE;
}

static bool waiting_on_desc(const struct desc_ctx *c, long k)
{
	return c->st[k] == ST_SLEEPING && c->nbusy[k] > 0;
}

/* Task k's stretch after a change: close or open it at t. */
static void stretch(struct desc_ctx *c, long k, bool was, int64_t t)
{
	bool now = waiting_on_desc(c, k);

	if (was && !now)
		c->s->tasks[k].desc_busy_ns += t - c->since[k];
	else if (!was && now)
		c->since[k] = t;
}

static int desc_row(void *ctx, const struct cmp_tl_row *r, struct sr_diag *d)
{
	struct desc_ctx *c = ctx;
	struct cmp_set *s = c->s;
	long k = r->task, a;
	int ns = next_state(r->ev), old = c->st[k];
	bool was;

	if (ns < 0 || old == ST_DEAD)
		return SR_OK;
	was = waiting_on_desc(c, k);
	c->st[k] = (signed char)ns;
	stretch(c, k, was, r->time_ns);
	if (busy_state(old) == busy_state(ns))
		return SR_OK;
	a = s->tasks[k].parent;
	for (int depth = 0; a >= 0 && (size_t)a < s->ntasks &&
			    depth < CMP_DESC_DEPTH; depth++) {
		was = waiting_on_desc(c, a);
		if (busy_state(ns))
			c->nbusy[a]++;
		else if (c->nbusy[a])
			c->nbusy[a]--;
		stretch(c, a, was, r->time_ns);
		a = s->tasks[a].parent;
	}
	return SR_OK;
}

int cmp_behave_descendants(struct cmp_set *s, struct sr_diag *d)
{
	struct desc_ctx c = { .s = s };
	size_t n = s->ntasks ? s->ntasks : 1;
	int rc;

	c.st = calloc(n, sizeof(*c.st));
	c.nbusy = calloc(n, sizeof(*c.nbusy));
	c.since = calloc(n, sizeof(*c.since));
	if (!c.st || !c.nbusy || !c.since) {
		rc = sr_oom(d);
		goto out;
	}
	for (size_t i = 0; i < s->ntasks; i++) {
		c.st[i] = ST_UNKNOWN;
		s->tasks[i].desc_busy_ns = 0;
	}
	rc = cmp_timeline_pass(s, s->ref, false, desc_row, &c, d);
	for (size_t i = 0; rc == SR_OK && i < s->ntasks; i++)
		if (waiting_on_desc(&c, (long)i))
			s->tasks[i].desc_busy_ns += s->t1 - c.since[i];
out:
	free(c.st);
	free(c.nbusy);
	free(c.since);
	return rc;
}

/* ---- classes and periods ----------------------------------------------- */

static double regular_share(const int64_t *w, size_t n, int64_t period)
{
	int64_t tol = period * CMP_PERIOD_TOL_PCT / 100;
	size_t ok = 0;

	if (n < 2 || period <= 0)
		return 0;
	if (tol < CMP_PERIOD_MIN_TOL_NS)
		tol = CMP_PERIOD_MIN_TOL_NS;
	for (size_t i = 1; i < n; i++) {
		int64_t g = w[i] - w[i - 1];

		if (g >= period - tol && g <= period + tol)
			ok++;
	}
	return (double)ok / (double)(n - 1);
}

/*
 * Period starts for a candidate period: a wakeup less than half of it
 * after the current start joins that period.  Writes the starts into out
 * (n entries available); returns how many.
 */
static size_t period_starts(const int64_t *w, size_t n, int64_t cand,
			    int64_t *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!k || w[i] - out[k - 1] >= cand / 2)
			out[k++] = w[i];
	return k;
}

/* The lower median (p50, nearest rank) of the gaps between n sorted
 * times (scratch: n-1). */
static int64_t median_gap(const int64_t *w, size_t n, int64_t *scratch)
{
	for (size_t i = 0; i + 1 < n; i++)
		scratch[i] = w[i + 1] - w[i];
	sr_qsort(scratch, n - 1, sizeof(*scratch), sr_cmp_i64);
	return sr_percentile_sorted(scratch, n - 1, 50);
}

int64_t cmp_detect_period(const int64_t *wake_ns, size_t n, double *regular)
{
	static const int quantiles[] = { 50, 60, 70, 80, 90 };
	int64_t *g, *starts, *scratch, best = 0, prev_cand = -1;
	double best_r = 0;
	size_t m;

	*regular = 0;
	if (n < CMP_PERIOD_MIN_WAKES)
		return 0;
	m = n - 1;
	g = malloc(m * sizeof(*g));
	starts = malloc(n * sizeof(*starts));
	scratch = malloc(n * sizeof(*scratch));
	if (!g || !starts || !scratch) {
		best = -1; /* not "no period": out of memory */
		goto out;
	}
	for (size_t i = 0; i < m; i++)
		g[i] = wake_ns[i + 1] - wake_ns[i];
	sr_qsort(g, m, sizeof(*g), sr_cmp_i64);
	/*
	 * Candidates from the gaps' upper half: a task woken by a timer with
	 * a few quick extra wakeups around each tick (mpv's audio thread, X
	 * delivering a key press) has mostly short gaps and its period among
	 * the long ones.  Each candidate groups the wakeups into periods; the
	 * most regular grouping wins, the shortest period on a tie.
	 */
	for (size_t q = 0; q < sizeof(quantiles) / sizeof(quantiles[0]); q++) {
		int64_t cand = sr_percentile_sorted(g, m, quantiles[q]), period;
		size_t k;
		double r;

		if (cand < CMP_PERIOD_MIN_NS || cand == prev_cand)
			continue;
		prev_cand = cand;
		k = period_starts(wake_ns, n, cand, starts);
		if (k < CMP_PERIOD_MIN_WAKES)
			continue;
		period = median_gap(starts, k, scratch);
		if (period < CMP_PERIOD_MIN_NS)
			continue;
		r = regular_share(starts, k, period);
		if (r > best_r) {
			best_r = r;
			best = period;
		}
	}
out:
	free(g);
	free(starts);
	free(scratch);
	*regular = best_r;
	return best < 0 || best_r >= CMP_PERIOD_REGULAR ? best : 0;
}

static const struct cmp_period_opt *forced_period(const struct cmp_set *s,
						 const char *comm)
{
	for (size_t i = 0; i < s->nperiod_opts; i++)
		if (!strcmp(s->period_opts[i].comm, comm))
			return &s->period_opts[i];
	return NULL;
}

/*
 * Turn a periodic task's wakeups into periods: a wakeup less than half a
 * period after the start of the current period belongs to it (its burst
 * adds to the period's work); keep only periods whose work ended in the
 * reference run and whose deadline (start + period) falls inside it.
 */
static void make_periods(struct cmp_task *t, int64_t t1)
{
	size_t out = 0;
	struct cmp_period cur;

	if (!t->nper)
		return;
	cur = t->per[0];
	for (size_t i = 1; i <= t->nper; i++) {
		if (i < t->nper && t->per[i].wake_ns - cur.wake_ns < t->period_ns / 2) {
			cur.last = t->per[i].first;
			continue;
		}
		if (cur.last < t->nbursts && cur.wake_ns + t->period_ns <= t1)
			t->per[out++] = cur;
		if (i < t->nper)
			cur = t->per[i];
	}
	t->nper = out;
}

int cmp_behave_classify(struct cmp_set *s, struct sr_diag *d)
{
	int64_t span = s->have_t ? s->t1 - s->t0 : 0;

	for (size_t i = 0; i < s->ntasks; i++) {
		struct cmp_task *t = &s->tasks[i];
		int64_t alive = t->run_ns + t->wait_ns + t->sleep_ns;
		int64_t awake_or_asleep = t->run_ns + t->sleep_ns;
		const struct cmp_period_opt *po = forced_period(s, t->comm);
		bool long_lived;

		t->cls = CMP_CLASS_OTHER;
		if (alive > 0) {
			t->sleep_share = (double)t->sleep_ns / (double)alive;
			t->wake_rate = (double)t->wakes * 1e9 / (double)alive;
		}
		long_lived = alive >= CMP_INTERACTIVE_MIN_LIFE_NS ||
			     (span > 0 && alive * 100 >= span * CMP_INTERACTIVE_MIN_LIFE_PCT);
		if (t->sleep_ns > 0 && (double)t->desc_busy_ns >=
				CMP_DRIVER_SLEEP_SHARE * (double)t->sleep_ns)
			t->cls = CMP_CLASS_BATCH; /* waits for work it started */
		else if (t->wakes >= CMP_INTERACTIVE_MIN_WAKES &&
		    t->sleep_share >= CMP_INTERACTIVE_SLEEP_SHARE &&
		    t->wake_rate >= CMP_INTERACTIVE_WAKE_RATE && long_lived)
			t->cls = CMP_CLASS_INTERACTIVE;
		else if (t->run_ns >= CMP_BATCH_MIN_RUN_NS && awake_or_asleep > 0 &&
			 (double)t->run_ns / (double)awake_or_asleep >=
				 CMP_BATCH_RUN_SHARE)
			t->cls = CMP_CLASS_BATCH;

		t->starved = !strcmp(s->ref_policy, "observed") &&
			     t->cls != CMP_CLASS_BATCH &&
			     t->wakes >= CMP_PERIOD_MIN_WAKES &&
			     (uint64_t)t->late_wakes * 100 >=
				     t->wakes * CMP_STARVED_PCT;
		t->period_ns = 0;
		if (t->nper) {
			int64_t *w = malloc(t->nper * sizeof(*w));

			if (!w)
				return sr_oom(d);
			for (size_t k = 0; k < t->nper; k++)
				w[k] = t->per[k].wake_ns;
			if (po) {
				int64_t *st = malloc(t->nper * sizeof(*st));

				if (!st) {
					free(w);
					return sr_oom(d);
				}
				t->period_ns = po->period_ns;
				t->period_forced = true;
				t->period_regular = regular_share(st,
					period_starts(w, t->nper, po->period_ns,
						      st), po->period_ns);
				free(st);
			} else {
				t->period_ns = cmp_detect_period(
					w, t->nper, &t->period_regular);
			}
			free(w);
			if (t->period_ns < 0)
				return sr_oom(d);
		}
		if (t->period_ns > 0) {
			make_periods(t, s->t1);
		} else {
			free(t->per);
			t->per = NULL;
			t->nper = t->perc = 0;
		}
	}
	return SR_OK;
}

/* ---- spread of delays -------------------------------------------------- */

double cmp_true_sd(uint64_t n, long double s1, long double s2)
{
	long double v;

	if (n < 2)
		return 0;
	v = (s2 - s1 * s1 / (long double)n) / (long double)(n - 1);
	return v > 0 ? sqrt((double)v) : 0;
}

double cmp_interbench_sd(uint64_t n, long double s1, long double s2)
{
	long double avg, v;

	if (n < 2)
		return 0;
	avg = s1 / (long double)n;
	v = (s2 - avg * avg / (long double)n) / (long double)(n - 1);
	return v > 0 ? sqrt((double)v) : 0;
}

struct spread_ctx {
	struct cmp_set *s;
	size_t r;
};

static int spread_row(void *ctx, const struct cmp_lat_row *row,
		      struct sr_diag *d)
{
	struct spread_ctx *c = ctx;
	struct cmp_figs *f = &c->s->tasks[row->task].figs[c->r];
	long double x = (long double)row->delay_ns;

	f->ndelays++;
	f->sum_ns += x;
	f->sumsq_ns += x * x;
	return SR_OK;
}

int cmp_behave_spread(struct cmp_set *s, size_t r, struct sr_diag *d)
{
	struct spread_ctx c = { s, r };

	if (cmp_latency_pass(s, s->runs[r].res, spread_row, &c, d))
		return d->code;
	for (size_t i = 0; i < s->ntasks; i++) {
		struct cmp_figs *f = &s->tasks[i].figs[r];

		f->sd_ns = cmp_true_sd(f->ndelays, f->sum_ns, f->sumsq_ns);
		f->ib_sd_ns = cmp_interbench_sd(f->ndelays, f->sum_ns,
					       f->sumsq_ns);
	}
	return SR_OK;
}

/* ---- interbench's periodic metrics ------------------------------------- */

struct per_ctx {
	struct cmp_set *s;
	size_t r;
	struct tstate *st;
	size_t cap;
};

static int push_burst(struct tstate *x, int64_t start, int64_t end,
		      int64_t cpu)
{
	if (x->nb == x->capb) {
		struct burst *p = sr_grow(x->b, &x->capb, x->nb, sizeof(*p), 64,
					  0);

		if (!p)
			return -1;
		x->b = p;
	}
	x->b[x->nb].start = start;
	x->b[x->nb].end = end;
	x->b[x->nb].cpu = cpu;
	x->nb++;
	return 0;
}

/* The CPU used by each deadline at or before now (all: every one left). */
static void deadlines_upto(const struct cmp_task *t, struct tstate *x,
			   int64_t now, bool all)
{
	while (x->k < t->nper) {
		int64_t deadline = t->per[x->k].wake_ns + t->period_ns;
		int64_t cpu = x->cpu;

		if (!all && deadline > now)
			break;
		if (x->st == ST_RUNNING && deadline > x->since)
			cpu += deadline - x->since;
		x->cpu_at_deadline[x->k++] = cpu;
	}
}

static int per_row(void *ctx, const struct cmp_tl_row *r, struct sr_diag *d)
{
	struct per_ctx *c = ctx;
	struct cmp_task *t = &c->s->tasks[r->task];
	struct tstate *x;
	int ns;

	if (!t->period_ns || !t->nper)
		return SR_OK;
	if (grow_states(&c->st, &c->cap, (size_t)r->task, d))
		return d->code;
	x = &c->st[r->task];
	if (!x->seen) {
		x->seen = true;
		x->since = r->time_ns;
		x->cur_start = r->time_ns;
		x->cpu_at_deadline = calloc(t->nper, sizeof(int64_t));
		if (!x->cpu_at_deadline)
			return sr_oom(d);
	}
	if (x->st == ST_DEAD)
		return SR_OK;
	deadlines_upto(t, x, r->time_ns, false);
	if (x->st == ST_RUNNING && r->time_ns > x->since)
		x->cpu += r->time_ns - x->since;
	x->since = r->time_ns;
	if (r->ev == CMP_EV_WAKE)
		x->cur_start = r->time_ns;
	/* the bursts the periods need */
	if (ends_burst(r->ev) && x->bursts <= t->per[t->nper - 1].last &&
	    push_burst(x, x->cur_start, r->time_ns, x->cpu))
		return sr_oom(d);
	if (ends_burst(r->ev)) {
		x->bursts++;
		x->cur_start = r->time_ns; /* it runs on unless it sleeps */
	}
	ns = next_state(r->ev);
	if (ns >= 0)
		x->st = ns;
	return SR_OK;
}

/*
 * Judge every period of t under run r.  Period k (bursts first..last,
 * deadline start + P on the recording's clock) is met when the run ended
 * its last burst by the deadline; the CPU it got in time is what the run
 * gave the task from the start of its first burst up to the deadline, at
 * most the work wanted.  On the run's own clock the period starts when the
 * run began its first burst instead.
 */
static void judge(const struct cmp_task *t, struct cmp_figs *f,
		  const struct tstate *x)
{
	for (size_t k = 0; k < t->nper; k++) {
		const struct cmp_period *p = &t->per[k];
		int64_t deadline = p->wake_ns + t->period_ns;
		int64_t base, want, got;

		f->periods++;
		if (!x || p->last >= x->nb)
			continue; /* the run never finished that work */
		base = p->first ? x->b[p->first - 1].cpu : 0;
		want = x->b[p->last].cpu - base;
		got = x->cpu_at_deadline[k] - base;
		if (got < 0)
			got = 0;
		if (got > want)
			got = want;
		f->cpu_wanted_ns += want;
		f->cpu_got_ns += got;
		if (x->b[p->last].end <= deadline)
			f->deadlines_met++;
		if (x->b[p->last].end <= x->b[p->first].start + t->period_ns)
			f->deadlines_met_own++;
	}
}

int cmp_behave_periodic(struct cmp_set *s, size_t r, struct sr_diag *d)
{
	struct per_ctx c = { .s = s, .r = r };
	bool any = false;
	int rc;

	for (size_t i = 0; i < s->ntasks && !any; i++)
		any = s->tasks[i].period_ns > 0 && s->tasks[i].nper;
	if (!any)
		return SR_OK;
	rc = cmp_timeline_pass(s, s->runs[r].res, false, per_row, &c, d);
	for (size_t i = 0; i < s->ntasks; i++) {
		struct cmp_task *t = &s->tasks[i];
		struct tstate *x = i < c.cap && c.st[i].seen ? &c.st[i] : NULL;

		if (rc == SR_OK && t->period_ns > 0) {
			if (x)
				deadlines_upto(t, x, INT64_MAX, true);
			judge(t, &t->figs[r], x);
		}
		if (x) {
			free(x->b);
			free(x->cpu_at_deadline);
		}
	}
	free(c.st);
	return rc;
}

double cmp_deadlines_met_pct(const struct cmp_figs *f)
{
	return f->periods ? 100.0 * (double)f->deadlines_met /
				    (double)f->periods
			  : 0;
}

double cmp_deadlines_met_own_pct(const struct cmp_figs *f)
{
	return f->periods ? 100.0 * (double)f->deadlines_met_own /
				    (double)f->periods
			  : 0;
}

double cmp_desired_cpu_pct(const struct cmp_figs *f)
{
	return f->cpu_wanted_ns ? 100.0 * (double)f->cpu_got_ns /
					  (double)f->cpu_wanted_ns
				: 0;
}
