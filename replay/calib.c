/*
 * calib: the recording machine's wake costs, tick and pinned tasks, read
 * from the event stream (calib.h says what and why).
 *
 * Wake costs: each wake remembers when and where it was made and what its
 * target CPU was doing (idle, or running some task, and how many switches
 * that CPU had made); the woken task's next switch-in on that CPU, with
 * nothing else run there in between (and, for a preemption, the task it
 * found there switched out runnable), gives one sample of its class.
 * Samples go into histograms of 1 us bins per CPU and class; the figure is
 * the median, to the microsecond below (a wake that took less than a
 * microsecond costs nothing: a hand-written trace's wake and switch at
 * one instant).
 *
 * The tick: every switch-out of a runnable task in favour of one that was
 * not just woken there is a preemption the tick (or a slice running out
 * at a tick) made.  For each HZ a kernel can be built with, the phase of
 * those instants within the tick period is averaged as a unit vector per
 * CPU; a tick that falls every 1/HZ keeps them in phase (a long vector).
 * A shorter period divides a longer one's ticks evenly (HZ = 1000 keeps
 * HZ = 250's instants in phase too), so the tick is the longest period
 * they keep to.  Where preemptions do not say it (CPU hogs each alone on
 * a CPU), charges do: a sched_stat_runtime of the running task with no
 * switch or wake on its CPU within CHARGE_NEAR after it is the tick's
 * update_curr.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "replay/calib.h"

#define BINS 2000            /* 1 us bins up to 2 ms, then one overflow */
#define BIN_NS 1000
#define WAIT_PIN_MIN 100000  /* a wait long enough to have been moved */
#define PIN_EVIDENCE_MIN 3   /* such waits it takes to call it pinned */
#define TICK_FIT_MIN 0.5     /* vector length that says "in phase" */
#define CHARGE_NEAR 50000    /* a charge this close before a switch or a
				wake on its CPU was theirs, not the tick's */

static const int tick_hz[] = { 100, 250, 300, 1000 }; /* CONFIG_HZ_* */
#define NHZ (sizeof(tick_hz) / sizeof(tick_hz[0]))

static const char *const class_names[SR_WAKE__COUNT] = {
	[SR_WAKE_IDLE_LOCAL] = "idle-local",
	[SR_WAKE_IDLE_REMOTE] = "idle-remote",
	[SR_WAKE_PREEMPT_LOCAL] = "preempt-local",
	[SR_WAKE_PREEMPT_REMOTE] = "preempt-remote",
};

const char *sr_wake_class_name(enum sr_wake_class c)
{
	return c < SR_WAKE__COUNT ? class_names[c] : "?";
}

struct hist {
	uint32_t bin[BINS + 1];
	uint64_t n;
};

/* Where instants fall in each HZ's period: a sum of unit vectors. */
struct phase {
	double ts[NHZ], tc[NHZ];
	uint64_t n;
};

struct bcpu {
	sr_tid cur;             /* thread running, SR_TID_NONE idle/unknown */
	bool known, idle;
	int64_t since;          /* its last switch */
	uint64_t nswitch;
	struct hist *h[SR_WAKE__COUNT]; /* made at its first sample */
	struct phase pre;       /* preemptions no wake made */
	struct phase run;       /* charges in the middle of a run */
	int64_t charge;         /* a charge not yet judged, -1 none */
	int32_t nr;             /* tasks queued or running there */
};

struct bthread {
	/* a wake not yet followed by the task's switch-in */
	bool pending, from_waking;
	int8_t klass;           /* idle or preempt (local/remote decided at
				   the sample) */
	int32_t wcpu, tcpu;     /* where it was made, its target */
	sr_tid victim;          /* preempt: the task it found running */
	uint64_t nswitch;       /* the target's switches then */
	int64_t wts;
	/* runnable since (woken or preempted); -1: not runnable */
	int64_t runnable;
	bool could_move;        /* another CPU idled meanwhile */
	/* where it ran */
	uint64_t switches;
	int32_t only_cpu;       /* -1: none yet; -2: several */
	uint32_t evidence;      /* waits while another CPU idled */
	uint32_t stays;         /* the busy test's long waits (calib.h) */
	int32_t qcpu;           /* where it is queued or runs, -1 asleep */
	bool heavy;             /* its wait began on a CPU with two tasks
				   more queued than another */
	uint32_t gen;           /* its record's attr_gen when last seen */
	bool gen_known;
};

struct sr_calib_builder {
	struct bcpu *cpu;
	size_t ncpu, capcpu;
	struct bthread *th;
	size_t nth, capth;
	struct hist *all[SR_WAKE__COUNT];
	int32_t maxcpu;
};

struct sr_calib_builder *sr_calib_builder_new(void)
{
	return calloc(1, sizeof(struct sr_calib_builder));
}

void sr_calib_builder_free(struct sr_calib_builder *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->ncpu; i++)
		for (int k = 0; k < SR_WAKE__COUNT; k++)
			free(b->cpu[i].h[k]);
	for (int k = 0; k < SR_WAKE__COUNT; k++)
		free(b->all[k]);
	free(b->cpu);
	free(b->th);
	free(b);
}

void sr_calib_init(struct sr_calib *c)
{
	memset(c, 0, sizeof(*c));
	for (int k = 0; k < SR_WAKE__COUNT; k++)
		c->all.lat[k] = -1;
}

void sr_calib_free(struct sr_calib *c)
{
	free(c->cpu);
	free(c->pin);
	sr_calib_init(c);
}

static struct bcpu *cpu_at(struct sr_calib_builder *b, int32_t c)
{
	if (c < 0 || c >= 65536)
		return NULL;
	if ((size_t)c >= b->ncpu) {
		struct bcpu *v = sr_grow(b->cpu, &b->capcpu, (size_t)c + 1,
					 sizeof(*v), 8, 0);

		if (!v)
			return NULL;
		b->cpu = v;
		memset(b->cpu + b->ncpu, 0,
		       ((size_t)c + 1 - b->ncpu) * sizeof(*v));
		for (size_t i = b->ncpu; i <= (size_t)c; i++)
		{
			b->cpu[i].cur = SR_TID_NONE;
			b->cpu[i].charge = -1;
		}
		b->ncpu = (size_t)c + 1;
	}
	return &b->cpu[c];
}

static struct bthread *thread_at(struct sr_calib_builder *b, sr_tid th)
{
	if (th == SR_TID_NONE)
		return NULL;
	if (th >= b->nth) {
		struct bthread *v = sr_grow(b->th, &b->capth, (size_t)th + 1,
					    sizeof(*v), 64, 0);

		if (!v)
			return NULL;
		b->th = v;
		for (size_t i = b->nth; i <= th; i++)
			b->th[i] = (struct bthread){ .runnable = -1,
						     .only_cpu = -1,
						     .qcpu = -1 };
		b->nth = (size_t)th + 1;
	}
	return &b->th[th];
}

static int add(struct hist **hp, int64_t ns)
{
	size_t i = ns < 0 ? 0 : (size_t)(ns / BIN_NS);

	if (!*hp && !(*hp = calloc(1, sizeof(**hp))))
		return -1;
	(*hp)->bin[i > BINS ? BINS : i]++;
	(*hp)->n++;
	return 0;
}

static int sample(struct sr_calib_builder *b, struct bcpu *c,
		  enum sr_wake_class k, int64_t ns)
{
	return add(&c->h[k], ns) || add(&b->all[k], ns) ? -1 : 0;
}

static sr_tid thread_of(const struct sr_calib_tasks *t, sr_tid id)
{
	const struct sr_task *k = id == SR_TID_NONE ? NULL : t->get(t->ctx, id);

	return k ? k->thread : SR_TID_NONE;
}

static bool is_idle(const struct sr_calib_tasks *t, sr_tid id)
{
	const struct sr_task *k = id == SR_TID_NONE ? NULL : t->get(t->ctx, id);

	return k && k->is_idle;
}

/* Did another CPU than c idle since before `from`? */
static bool other_idle(const struct sr_calib_builder *b, int32_t c,
		       int64_t from)
{
	for (size_t i = 0; i < b->ncpu; i++)
		if ((int32_t)i != c && b->cpu[i].known && b->cpu[i].idle &&
		    b->cpu[i].since <= from)
			return true;
	return false;
}

/* An instant the tick made, or may have made. */
static void tick_phase(struct phase *f, int64_t ts)
{
	for (size_t i = 0; i < NHZ; i++) {
		int64_t period = 1000000000LL / tick_hz[i];
		double ph = 2.0 * M_PI * (double)(ts % period) / (double)period;

		f->tc[i] += cos(ph);
		f->ts[i] += sin(ph);
	}
	f->n++;
}

/* The charge pending on c, judged by an event at ts on c: a charge with
   a switch or a wake there within CHARGE_NEAR was that event's
   update_curr; one without was the tick's. */
static void judge_charge(struct bcpu *c, int64_t ts, bool near_kind)
{
	if (c->charge < 0)
		return;
	if (!near_kind || ts - c->charge > CHARGE_NEAR)
		tick_phase(&c->run, c->charge);
	c->charge = -1;
}

/* t is queued on (or runs on) CPU c from now; -1: asleep. */
static void queue_on(struct sr_calib_builder *b, struct bthread *t, int32_t c)
{
	if (t->qcpu == c)
		return;
	if (t->qcpu >= 0 && (size_t)t->qcpu < b->ncpu)
		b->cpu[t->qcpu].nr--;
	if (c >= 0 && (size_t)c < b->ncpu)
		b->cpu[c].nr++;
	t->qcpu = c;
}

/* Has another CPU than c two tasks fewer queued (the balancer would have
   moved one)? */
static bool other_lighter(const struct sr_calib_builder *b, int32_t c)
{
	if (c < 0 || (size_t)c >= b->ncpu)
		return false;
	for (size_t i = 0; i < b->ncpu; i++)
		if ((int32_t)i != c && b->cpu[i].known &&
		    b->cpu[i].nr + 2 <= b->cpu[c].nr)
			return true;
	return false;
}

static void wake(struct sr_calib_builder *b, const struct sr_event *ev,
		 const struct sr_calib_tasks *tasks)
{
	sr_tid th = thread_of(tasks, ev->task);
	struct bthread *t = thread_at(b, th);
	int32_t tc = ev->target_cpu >= 0 ? ev->target_cpu : ev->cpu;
	struct bcpu *c = cpu_at(b, tc);

	if (c)
		judge_charge(c, ev->ts, true);
	if (!t || !c || is_idle(tasks, ev->task))
		return;
	if (ev->kind != SR_EV_WAKING)
		queue_on(b, t, tc);
	/* a waking, then its wakeup: the waking is the wake, the wakeup
	   says where it goes (select_task_rq ran in between) */
	if (ev->kind == SR_EV_WAKEUP && t->pending && t->from_waking) {
		if (tc != t->tcpu) {
			t->tcpu = tc;
			t->nswitch = c->nswitch;
			t->victim = c->cur;
			t->klass = !c->known ? -1 : c->idle ?
				   SR_WAKE_IDLE_LOCAL : SR_WAKE_PREEMPT_LOCAL;
		}
		t->from_waking = false;
		return;
	}
	if (c->known && c->cur == th)
		return; /* woken while it runs: no switch to come */
	t->pending = true;
	t->from_waking = ev->kind == SR_EV_WAKING;
	t->wts = ev->ts;
	t->wcpu = ev->cpu;
	t->tcpu = tc;
	t->nswitch = c->nswitch;
	t->victim = c->cur;
	t->klass = !c->known ? -1 : c->idle ? SR_WAKE_IDLE_LOCAL
					    : SR_WAKE_PREEMPT_LOCAL;
	if (t->runnable < 0) {
		t->runnable = ev->ts;
		t->could_move = other_idle(b, tc, ev->ts);
		t->heavy = other_lighter(b, tc);
	}
}

/* n switched in on c at ts: a sample of its wake's cost, if clean. */
static int switched_in(struct sr_calib_builder *b, struct bcpu *c, int32_t cn,
		       struct bthread *t, sr_tid prev, bool prev_runnable,
		       int64_t ts)
{
	int64_t lat = ts - t->wts;
	bool remote = t->wcpu != cn;
	int rc = 0;

	if (t->pending && t->tcpu == cn && t->nswitch == c->nswitch &&
	    t->klass >= 0 && lat >= 0) {
		if (t->klass == SR_WAKE_IDLE_LOCAL && c->idle)
			rc = sample(b, c, remote ? SR_WAKE_IDLE_REMOTE
						 : SR_WAKE_IDLE_LOCAL, lat);
		else if (t->klass == SR_WAKE_PREEMPT_LOCAL &&
			 prev == t->victim && prev_runnable &&
			 lat < SR_CALIB_PREEMPT_MAX)
			rc = sample(b, c, remote ? SR_WAKE_PREEMPT_REMOTE
						 : SR_WAKE_PREEMPT_LOCAL, lat);
	}
	t->pending = false;
	/* where it ran, and whether it could have run elsewhere */
	t->switches++;
	if (t->only_cpu == -1)
		t->only_cpu = cn;
	else if (t->only_cpu != cn)
		t->only_cpu = -2;
	if (t->runnable >= 0 && ts - t->runnable >= WAIT_PIN_MIN &&
	    (t->could_move || other_idle(b, cn, t->runnable)))
		t->evidence++;
	if (t->runnable >= 0 && ts - t->runnable >= SR_CALIB_STAY_NS &&
	    (t->heavy || other_lighter(b, cn)))
		t->stays++;
	t->runnable = -1;
	return rc;
}

/* Forget where a thread ran: it exec'd (taskset, nice, chrt set the
   affinity and exec), so where it ran before says nothing. */
static void forget_cpu(struct bthread *t)
{
	t->switches = 0;
	t->only_cpu = -1;
	t->evidence = 0;
	t->stays = 0;
}

/* A comm or tgid change of the thread's record is an exec where the trace
   has no exec events (perf sched record's perf.data gives COMM records,
   which rename the task in place). */
static void note_gen(struct bthread *t, const struct sr_calib_tasks *tasks,
		     sr_tid id)
{
	const struct sr_task *k = t && id != SR_TID_NONE ?
				  tasks->get(tasks->ctx, id) : NULL;

	if (!k)
		return;
	if (t->gen_known && t->gen != k->attr_gen)
		forget_cpu(t);
	t->gen = k->attr_gen;
	t->gen_known = true;
}

static int on_switch(struct sr_calib_builder *b, const struct sr_event *ev,
		     const struct sr_calib_tasks *tasks)
{
	struct bcpu *c = cpu_at(b, ev->cpu);
	bool pidle = is_idle(tasks, ev->task), nidle = is_idle(tasks, ev->other);
	sr_tid pth = pidle ? SR_TID_NONE : thread_of(tasks, ev->task);
	sr_tid nth = nidle ? SR_TID_NONE : thread_of(tasks, ev->other);
	bool prun = ev->prev_state == SR_STATE_RUNNING;
	struct bthread *p, *n;

	/* both grown first: a growth moves the array */
	if (!c || (pth != SR_TID_NONE && !thread_at(b, pth)) ||
	    (nth != SR_TID_NONE && !thread_at(b, nth)))
		return -1;
	p = pth == SR_TID_NONE ? NULL : &b->th[pth];
	n = nth == SR_TID_NONE ? NULL : &b->th[nth];
	if (ev->cpu > b->maxcpu)
		b->maxcpu = ev->cpu;
	if (!pidle && !nidle && prun && n && !n->pending && c->known)
		tick_phase(&c->pre, ev->ts);
	judge_charge(c, ev->ts, true);
	if (p && prun && p->runnable < 0) {
		p->runnable = ev->ts;
		p->could_move = other_idle(b, ev->cpu, ev->ts);
		p->heavy = other_lighter(b, ev->cpu);
	}
	if (p && !prun) {
		p->runnable = -1;
		queue_on(b, p, -1);
	}
	if (n)
		queue_on(b, n, ev->cpu);
	note_gen(n, tasks, ev->other);
	if (n && switched_in(b, c, ev->cpu, n, pth, prun, ev->ts))
		return -1;
	c->known = true;
	c->idle = nidle;
	c->cur = nth;
	c->since = ev->ts;
	c->nswitch++;
	return 0;
}

/* A charge (sched_stat_runtime) to the task running on its CPU, after
   it was switched in: update_curr at the tick, or at a wake that
   checked for preemption, or at the switch-out to come.  The ticks are
   the many in a long run, in phase with one another. */
static int on_runtime(struct sr_calib_builder *b, const struct sr_event *ev,
		      const struct sr_calib_tasks *tasks)
{
	struct bcpu *c = cpu_at(b, ev->cpu);

	if (!c)
		return -1;
	judge_charge(c, ev->ts, false);
	if (c->known && !c->idle && !is_idle(tasks, ev->task) &&
	    c->cur == thread_of(tasks, ev->task) && ev->ts > c->since)
		c->charge = ev->ts;
	return 0;
}

int sr_calib_event(struct sr_calib_builder *b, const struct sr_event *ev,
		   const struct sr_calib_tasks *tasks, struct sr_diag *d)
{
	int rc = 0;

	switch (ev->kind) {
	case SR_EV_SWITCH:
		rc = on_switch(b, ev, tasks);
		break;
	case SR_EV_WAKING:
	case SR_EV_WAKEUP:
		wake(b, ev, tasks);
		break;
	case SR_EV_WAKEUP_NEW: {
		/* a new task queued: only counted (no wake cost sample) */
		struct bthread *t = thread_at(b, thread_of(tasks, ev->task));
		int32_t tc = ev->target_cpu >= 0 ? ev->target_cpu : ev->cpu;

		if (t && !is_idle(tasks, ev->task) && cpu_at(b, tc))
			queue_on(b, t, tc);
		break;
	}
	case SR_EV_MIGRATE: {
		struct bthread *t = thread_at(b, thread_of(tasks, ev->task));

		if (t && t->qcpu >= 0 && ev->target_cpu >= 0 &&
		    cpu_at(b, ev->target_cpu))
			queue_on(b, t, ev->target_cpu);
		break;
	}
	case SR_EV_RUNTIME:
		if (on_runtime(b, ev, tasks))
			rc = -1;
		break;
	case SR_EV_EXEC: {
		/* taskset, nice, chrt set the affinity and exec: where it
		   ran before says nothing */
		struct bthread *t = thread_at(b, thread_of(tasks, ev->task));

		if (t)
			forget_cpu(t);
		break;
	}
	default:
		break;
	}
	if (rc)
		return sr_oom(d);
	return SR_OK;
}

static int64_t median(const struct hist *h)
{
	uint64_t half, acc = 0;

	if (!h || !h->n)
		return -1;
	half = (h->n + 1) / 2; /* nearest rank */
	for (size_t i = 0; i <= BINS; i++) {
		acc += h->bin[i];
		if (acc >= half) /* the microsecond below: bin 0 is none */
			return (int64_t)i * BIN_NS;
	}
	return (int64_t)BINS * BIN_NS;
}

/* The strata's quantiles: the sample of rank ceil((i + 0.5) n / S),
   to the microsecond below. */
static void strata(int32_t *q, const struct hist *h)
{
	uint64_t acc = 0;
	size_t b = 0;

	for (size_t i = 0; i < SR_CALIB_STRATA; i++) {
		/* rank (1-based) of the stratum's middle */
		uint64_t r = ((2 * i + 1) * h->n + 2 * SR_CALIB_STRATA - 1) /
			     (2 * SR_CALIB_STRATA);

		if (r < 1)
			r = 1;
		while (b <= BINS && acc + h->bin[b] < r)
			acc += h->bin[b++];
		q[i] = (int32_t)(b > BINS ? BINS : b) * BIN_NS;
	}
}

static void figures(struct sr_calib_cpu *out, struct hist *const h[])
{
	for (int k = 0; k < SR_WAKE__COUNT; k++) {
		out->n[k] = h[k] ? h[k]->n : 0;
		out->lat[k] = median(h[k]);
		if (h[k] && h[k]->n)
			strata(out->q[k], h[k]);
	}
}

/* The longest period the instants of one kind keep to, 0: none. */
static int fit(const struct sr_calib_builder *b, size_t off, double *lenp,
	       uint64_t *np)
{
	uint64_t n = 0;

	for (size_t i = 0; i < b->ncpu; i++)
		n += ((const struct phase *)((const char *)&b->cpu[i] +
					     off))->n;
	*np = n;
	if (n < SR_CALIB_TICK_MIN)
		return 0;
	for (size_t h = 0; h < NHZ; h++) {
		double len = 0;

		/* each CPU ticks in its own phase: their lengths, summed */
		for (size_t i = 0; i < b->ncpu; i++) {
			const struct phase *f = (const struct phase *)
				((const char *)&b->cpu[i] + off);

			len += sqrt(f->tc[h] * f->tc[h] + f->ts[h] * f->ts[h]);
		}
		len /= (double)n;
		if (len >= TICK_FIT_MIN) {
			*lenp = len;
			return tick_hz[h];
		}
	}
	return 0;
}

/* The tick: the longest period the preemptions keep to, else the one
   the charges in the middle of runs keep to. */
static void read_tick(struct sr_calib_builder *b, struct sr_calib *out)
{
	uint64_t n;

	for (size_t i = 0; i < b->ncpu; i++)
		judge_charge(&b->cpu[i], INT64_MAX, false);
	out->hz = fit(b, offsetof(struct bcpu, pre), &out->tick_fit, &n);
	out->tick_samples = n;
	if (!out->hz) {
		out->hz = fit(b, offsetof(struct bcpu, run), &out->tick_fit,
			      &n);
		if (out->hz)
			out->tick_samples = n;
	}
}

/* Did t stay on one CPU when it could have moved: it waited while
   another CPU idled (*loose false), or, the busy test, it waited long
   while another CPU had two tasks fewer (*loose true)? */
static bool pinned(const struct bthread *t, bool *loose)
{
	if (t->only_cpu < 0 || t->switches < SR_CALIB_PIN_MIN)
		return false;
	*loose = t->evidence < PIN_EVIDENCE_MIN;
	return !*loose || t->stays >= SR_CALIB_STAY_MIN;
}

int sr_calib_finish(struct sr_calib_builder *b, struct sr_calib *out,
		    struct sr_diag *d)
{
	size_t npin = 0;
	bool loose;

	sr_calib_init(out);
	if (!b)
		return SR_OK;
	out->ncpus = b->ncpu ? b->maxcpu + 1 : 0;
	figures(&out->all, b->all);
	if (out->ncpus) {
		out->cpu = calloc((size_t)out->ncpus, sizeof(*out->cpu));
		if (!out->cpu)
			goto oom;
		for (int32_t i = 0; i < out->ncpus && (size_t)i < b->ncpu; i++)
			figures(&out->cpu[i], b->cpu[i].h);
	}
	read_tick(b, out);
	for (size_t i = 0; i < b->nth; i++)
		if (pinned(&b->th[i], &loose))
			npin++;
	if (npin) {
		out->pin = calloc(npin, sizeof(*out->pin));
		if (!out->pin)
			goto oom;
		for (size_t i = 0; i < b->nth; i++)
			if (pinned(&b->th[i], &loose))
				out->pin[out->npin++] = (struct sr_calib_pin){
					(sr_tid)i, b->th[i].only_cpu,
					b->th[i].switches, loose };
	}
	sr_calib_builder_free(b);
	return SR_OK;
oom:
	sr_calib_builder_free(b);
	sr_calib_free(out);
	return sr_oom(d);
}

int64_t sr_calib_wake_cost(const struct sr_calib *c, int32_t cpu,
			   enum sr_wake_class k)
{
	int64_t v;

	if (!c || k >= SR_WAKE__COUNT)
		return 0;
	if (cpu >= 0 && cpu < c->ncpus && c->cpu &&
	    c->cpu[cpu].n[k] >= SR_CALIB_MIN_SAMPLES)
		v = c->cpu[cpu].lat[k];
	else
		v = c->all.lat[k];
	return v > 0 ? v : 0;
}

int32_t sr_calib_pinned(const struct sr_calib *c, sr_tid th, bool loose)
{
	size_t lo = 0, hi = c ? c->npin : 0;

	while (lo < hi) { /* pin[] is in thread order */
		size_t mid = lo + (hi - lo) / 2;

		if (c->pin[mid].thread == th)
			return !c->pin[mid].loose || loose ? c->pin[mid].cpu
							   : -1;
		if (c->pin[mid].thread < th)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int64_t sr_calib_wake_cost_at(const struct sr_calib *c, int32_t cpu,
			      enum sr_wake_class k, uint32_t u)
{
	const struct sr_calib_cpu *f;

	if (!c || k >= SR_WAKE__COUNT || u >= SR_CALIB_STRATA)
		return 0;
	if (cpu >= 0 && cpu < c->ncpus && c->cpu &&
	    c->cpu[cpu].n[k] >= SR_CALIB_MIN_SAMPLES)
		f = &c->cpu[cpu];
	else
		f = &c->all;
	return f->lat[k] > 0 && f->q[k][u] > 0 ? f->q[k][u] : 0;
}
