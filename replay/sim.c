/*
 * sim: the event loop that replays the demand through one policy on one or
 * more CPUs.  Owns time (integer ns), the ticks, the CPUs (what each runs,
 * its time), each task's place in its program and its CPU, the
 * external-wake timers, the load balancer's calls (sched-model/balance.h)
 * and the order of things at one instant (docs/replay.md, "The
 * simulator"); the policy owns priorities and queues.
 *
 * While a task waits runnable its wait is attributed (docs/replay.md, "Why
 * a task waited"): each CPU keeps a list of the tasks waiting on it, and
 * at the end of an instant that changed something on a CPU (a switch, a
 * wake, a queue or prio change the policy reports, a migration; every
 * tick for a policy whose reasons move with the clock; on several CPUs,
 * the idle CPUs changing) the policy is asked again why each of them
 * waits; a new answer, or a new running task, starts a new segment.
 *
 * The next instant is the earliest of: a CPU's current task reaching its
 * next op (a heap of CPUs keyed by that time), the next tick, the next
 * external wake (a heap of timers) and the next arrival; so the cost of an
 * event does not grow with the number of CPUs, except at a tick, which
 * every CPU takes.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "replay/affinity.h"
#include "replay/sim.h"
#include "sched-model/balance.h"
#include "sched-model/smp.h"

enum tstate {
	T_NONE,     /* not born yet */
	T_READY,    /* runnable: queued, maybe current */
	T_BLOCKED,  /* asleep in block .block */
	T_ZOMBIE,   /* exited, not switched out yet */
	T_DONE,     /* demand consumed (reaped, or asleep for good) */
};

/* Phases of one instant, in the order docs/models.md "Conventions" fixes. */
enum phase {
	PH_NONE,    /* between instants */
	PH_OPS1,    /* ops due now of the current tasks (bursts ending now) */
	PH_TICK,    /* every CPU's scheduler_tick and rebalance_tick */
	PH_WAKES,   /* external wakes and arrivals due now, in trace order */
	PH_SCHED,   /* schedule() where need_resched, then the ops due now */
};

struct stask {
	struct sm_task *pt;
	uint64_t op;        /* next op of its program */
	int64_t off;        /* CPU consumed in the RUN at .op (or open burst) */
	uint8_t state;      /* enum tstate */
	uint8_t blk;        /* T_BLOCKED: enum sr_block_end of that block */
	uint32_t block;     /* number of the block it sleeps in */
	uint32_t next_block;/* blocks passed so far */
	uint32_t comm;      /* name pool index */
	int32_t pid;
	int32_t cpu;        /* its runqueue (task_cpu), -1 before the first */
	int32_t pin;        /* the CPU its name or affinity pins it to,
			       -1: any */
	int8_t pin_aff;     /* pin is its affinity (inherited at fork) */
	int last_prio;
	int8_t rec_policy;  /* the trace's scheduling class (SM_SCHED_*) */
	int8_t rec_rtprio;  /* and rt priority, as last recorded */
	int8_t rt_forced;   /* --rt made it SCHED_RR at this prio (0: no) */
	int64_t blocked_at; /* sim time it went to sleep */
	int64_t rec_block;  /* recorded start of that sleep */
	struct pend *pend;  /* causal wakes that came before their block */
	uint32_t npend, cappend;
	int16_t early_waker;/* T_BLOCKED in BLK_EARLY: its waker's CPU */
	uint8_t early_sync; /* ... and whether the wake was sync */
	/* the attribution of its current wait */
	bool in_wait;       /* waiting runnable since wait_from */
	bool wseg;          /* .seg is open */
	int32_t wcpu;       /* in that CPU's list of waiting tasks, -1 */
	uint32_t wprev, wnext;
	int64_t wait_from;
	struct sr_wait_seg seg;
	struct sr_wait_seg *segs;
	uint32_t nsegs, capsegs;
};

/* A causal wake kept until its target reaches the block it answers. */
struct pend {
	uint32_t block;
	int16_t waker;      /* the CPU its waker ran on */
	uint8_t sync;
};

/* stask.blk beyond enum sr_block_end: asleep in a block whose wake came
   first (--early-wake requeue): woken at the instant it went to sleep */
#define BLK_EARLY 0x80

struct timer {
	int64_t t;
	uint64_t seq;       /* trace order of the wake */
	uint32_t id;
};

struct scpu {
	struct sm_rq *rq;
	uint32_t cur;       /* running task, SR_TID_NONE = idle */
	int64_t charged_to; /* its current's CPU counted up to here */
	int64_t busy_until; /* end of a context switch */
	int64_t busy_ns;
	uint64_t switches;
	int64_t progress_at;/* last time its current's demand advanced, or
			       it was idle (check()) */
	uint32_t hpos;      /* place in the run-end heap + 1; 0: not in it */
	bool soft;          /* key: the end of the CPU known so far */
	int64_t key;        /* when its current reaches its next op */
	uint32_t whead;     /* tasks waiting on it (a list), SR_TID_NONE */
	uint32_t nwait;
	int64_t kick_at;    /* a wake asked it to reschedule: it does at
			       this instant (the wake's cost), 0: none */
};

struct sr_sim {
	struct sr_sim_opts o;
	const struct sm_policy *pol;
	struct sr_demand *dm;
	int cid;
	struct sr_sim_hooks h;
	struct sr_acct *acct;
	/* tasks by id (docs/replay.md, "Memory"): each in a slot of its own
	 * (the slots come in chunks that never move); a reaped task's slot
	 * is freed at the next instant and taken by a new task, its summary
	 * (sum, by id) stays */
	size_t nt;
	uint32_t *tslot;           /* by id: its slot, SLOT_GONE once freed */
	struct sr_sim_task *sum;   /* by id */
	size_t capid;
	struct stask **tch;        /* the slots, TCH a chunk */
	size_t ntch, captch;
	uint32_t *tfree;           /* free slots */
	size_t ntfree, captfree;
	uint32_t *reaped;          /* tasks reaped this instant */
	size_t nreaped, capreaped;
	struct scpu *cpu;
	int ncpu, nbusy;
	const struct sm_balancer_ops *bops; /* the policy's (smp.h) */
	void *bal;                 /* its balancer; NULL on one CPU */
	unsigned long cache_decay_ticks;
	uint32_t *rh;              /* run-end heap: CPU numbers */
	size_t nrh;
	uint32_t *rhstack;         /* due_cpus()'s walk */
	uint64_t *resched, *pending, *touched; /* CPU bitmaps */
	uint64_t *wdirty;          /* CPUs whose waiters to attribute anew */
	uint64_t *widle;           /* the idle CPUs they were attributed with */
	size_t nw;
	uint64_t bits1[5];         /* the five, up to 64 CPUs */
	bool why_on;               /* attribute waits */
	uint64_t nwaiting;         /* tasks waiting, on every CPU */
	bool started, finished;
	int phase;
	bool tick_instant;          /* this instant took the jiffy's tick */
	int64_t start, now, end_mark;
	int64_t last_tick;          /* instant of the last tick done */
	int64_t jbase;              /* jiffies = t / J - jbase */
	int64_t tick_ns;            /* J: a jiffy at the policy's HZ */
	int tick_hz;                /* that HZ */
	enum sr_hz_source hz_from;  /* where it came from */
	unsigned long jiffies;      /* what every rq->jiffies holds */
	uint64_t acts;              /* what happened, at instant start */
	uint64_t pops;              /* timers and arrivals taken */
	int mig_why;                /* cause of the migration being made */
	struct timer *heap;
	size_t nheap, capheap;
	uint64_t arr;               /* next arrival to take */
	uint32_t *hlist;            /* relative mode: asleep, end not known */
	size_t nh, caph;
	int64_t hz;                 /* horizon: no instant at or after it */
	uint64_t nready, live;
	uint32_t nkick;             /* CPUs with a kick to come */
	uint32_t *seen;             /* check: walk stamps per task */
	size_t nseen;
	uint32_t stamp;
	int err;
	char errmsg[320];
	struct sr_sim_stats st;
};

#define TCH_BITS 8
#define TCH (1u << TCH_BITS)
#define SLOT_GONE UINT32_MAX

/* Task id's state; not for a task whose slot is gone (gone()). */
static inline struct stask *tk(const struct sr_sim *s, uint32_t id)
{
	uint32_t k = s->tslot[id];

	return &s->tch[k >> TCH_BITS][k & (TCH - 1)];
}

/* Was task id reaped at an earlier instant (its slot given back)? */
static inline bool gone(const struct sr_sim *s, uint32_t id)
{
	return s->tslot[id] == SLOT_GONE;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static void fail(struct sr_sim *s, int code, const char *msg, uint32_t id)
{
	if (s->err)
		return;
	s->err = code;
	snprintf(s->errmsg, sizeof(s->errmsg), "%s (task %u at %lld ns)",
		 msg, id, (long long)s->now);
}

static const char *comm_of(const struct sr_sim *s, const struct stask *t)
{
	return sr_demand_comm(s->dm, t->comm);
}

const char *const sr_early_names[] = {
	[SR_EARLY_REQUEUE] = "requeue", [SR_EARLY_SKIP] = "skip", NULL,
};

const char *const sr_external_names[] = {
	[SR_EXTERNAL_ABSOLUTE] = "absolute", [SR_EXTERNAL_RELATIVE] = "relative",
	NULL,
};

/* ---- CPU bitmaps --------------------------------------------------------- */

static void bit_set(uint64_t *m, int c)
{
	m[c / 64] |= (uint64_t)1 << (c % 64);
}

static void bit_clear(uint64_t *m, int c)
{
	m[c / 64] &= ~((uint64_t)1 << (c % 64));
}

static int bit_first(const uint64_t *m, size_t nw)
{
	if (nw == 1) /* up to 64 CPUs */
		return m[0] ? __builtin_ctzll(m[0]) : -1;
	for (size_t w = 0; w < nw; w++)
		if (m[w])
			return (int)(w * 64) + __builtin_ctzll(m[w]);
	return -1;
}

/* A policy call on CPU c's runqueue may have set its need_resched (a
 * wake's, while its cost runs, waits for the kick). */
static void mark(struct sr_sim *s, int c)
{
	if (s->cpu[c].rq->need_resched && s->cpu[c].kick_at <= s->now)
		bit_set(s->resched, c);
	bit_set(s->touched, c);
}

/* ---- the run-end heap: CPUs by when their current reaches its next op ---- */

static bool rh_less(const struct sr_sim *s, uint32_t a, uint32_t b)
{
	const struct scpu *x = &s->cpu[a], *y = &s->cpu[b];

	if (x->key != y->key)
		return x->key < y->key;
	if (x->soft != y->soft)
		return x->soft; /* a bound of what is known first: wait */
	return a < b;
}

static void rh_put(struct sr_sim *s, size_t i, uint32_t c)
{
	s->rh[i] = c;
	s->cpu[c].hpos = (uint32_t)i + 1;
}

static void rh_up(struct sr_sim *s, size_t i)
{
	uint32_t c = s->rh[i];

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!rh_less(s, c, s->rh[p]))
			break;
		rh_put(s, i, s->rh[p]);
		i = p;
	}
	rh_put(s, i, c);
}

static void rh_down(struct sr_sim *s, size_t i)
{
	uint32_t c = s->rh[i];

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = l;

		if (l >= s->nrh)
			break;
		if (r < s->nrh && rh_less(s, s->rh[r], s->rh[l]))
			m = r;
		if (!rh_less(s, s->rh[m], c))
			break;
		rh_put(s, i, s->rh[m]);
		i = m;
	}
	rh_put(s, i, c);
}

static void rh_remove(struct sr_sim *s, uint32_t c)
{
	size_t i;
	uint32_t last;

	if (!s->cpu[c].hpos)
		return;
	i = s->cpu[c].hpos - 1;
	s->cpu[c].hpos = 0;
	last = s->rh[--s->nrh];
	if (i == s->nrh)
		return;
	rh_put(s, i, last);
	rh_up(s, i);
	rh_down(s, s->cpu[last].hpos - 1);
}

/* CPU the current task may use before its next op; *hard: that op is
 * known (else more input may show an op sooner). */
static int64_t avail(const struct sr_sim *s, uint32_t id, bool *hard)
{
	const struct stask *t = tk(s, id);
	const struct sr_op *op = sr_demand_op(s->dm, id, t->op);

	if (op) {
		*hard = true;
		return op->kind == SR_OP_RUN ? op->a - t->off : 0;
	}
	*hard = false;
	return sr_demand_open(s->dm, id) - t->off;
}

/* Recompute CPU c's key (it stays put while nothing happens on c: its
 * current's CPU and the time pass alike). */
static void rh_update(struct sr_sim *s, uint32_t c)
{
	struct scpu *k = &s->cpu[c];
	int64_t from;
	bool hard;

	if (k->cur == SR_TID_NONE) {
		rh_remove(s, c);
		return;
	}
	from = k->charged_to > k->busy_until ? k->charged_to : k->busy_until;
	from += avail(s, k->cur, &hard);
	if (k->hpos && from == k->key && k->soft == !hard)
		return; /* in place already */
	k->key = from;
	k->soft = !hard;
	if (!k->hpos) {
		s->rh[s->nrh] = c;
		k->hpos = (uint32_t)++s->nrh;
	}
	rh_up(s, k->hpos - 1);
	rh_down(s, k->hpos - 1);
}

/* Mark pending the CPUs whose current reaches a known next op at t: the
   heap's entries with a hard key <= t (keys are >= t: t is the least),
   found from the root without taking them out. */
static void due_cpus(struct sr_sim *s, int64_t t)
{
	uint32_t *stack = s->rhstack;
	size_t n = 0;

	if (s->nrh)
		stack[n++] = 0;
	while (n) {
		size_t i = stack[--n];
		uint32_t c = s->rh[i];

		if (s->cpu[c].key > t)
			continue;
		if (!s->cpu[c].soft) {
			bit_set(s->pending, (int)c);
			bit_set(s->touched, (int)c);
		}
		/* a soft key == t sorts first, and the loop waited on it:
		   none is here; children of a key == t may still be due */
		for (size_t k = 2 * i + 1; k <= 2 * i + 2 && k < s->nrh; k++)
			stack[n++] = (uint32_t)k; /* n <= nrh: each once */
	}
}

/* ---- time ---------------------------------------------------------------- */

/* CPU c's current has run up to `to`. */
static void charge(struct sr_sim *s, int c, int64_t to)
{
	struct scpu *k = &s->cpu[c];
	int64_t from;

	if (to <= k->charged_to)
		return;
	if (k->cur != SR_TID_NONE) {
		struct stask *t = tk(s, k->cur);

		from = k->charged_to > k->busy_until ? k->charged_to
						     : k->busy_until;
		if (to > from) {
			t->off += to - from;
			s->sum[k->cur].cpu_ns += to - from;
			k->progress_at = to;
		}
		k->busy_ns += to - k->charged_to;
	} else {
		k->progress_at = to;
	}
	k->charged_to = to;
}

static unsigned long jiffies_at(const struct sr_sim *s, int64_t t)
{
	return (unsigned long)(floor_div(t, s->tick_ns) - s->jbase);
}

/* sched_clock() at t: ns on the same origin as jiffies_at() */
static uint64_t clock_at(const struct sr_sim *s, int64_t t)
{
	return (uint64_t)(t - s->jbase * s->tick_ns);
}

/* Every runqueue's jiffies and clock at t. */
static void set_clock(struct sr_sim *s, int64_t t)
{
	uint64_t ns = clock_at(s, t);

	s->jiffies = jiffies_at(s, t);
	for (int c = 0; c < s->ncpu; c++)
		sm_rq_set_clock(s->cpu[c].rq, s->jiffies, ns);
}

/* ---- the attribution of waits: each CPU's waiting tasks ------------------ */

static void wlist_add(struct sr_sim *s, uint32_t id, int c)
{
	struct stask *t = tk(s, id);
	struct scpu *k = &s->cpu[c];

	t->wcpu = c;
	t->wprev = SR_TID_NONE;
	t->wnext = k->whead;
	if (k->whead != SR_TID_NONE)
		tk(s, k->whead)->wprev = id;
	k->whead = id;
	k->nwait++;
	bit_set(s->wdirty, c);
}

static void wlist_del(struct sr_sim *s, uint32_t id)
{
	struct stask *t = tk(s, id);
	struct scpu *k;

	if (t->wcpu < 0)
		return;
	k = &s->cpu[t->wcpu];
	if (t->wprev != SR_TID_NONE)
		tk(s, t->wprev)->wnext = t->wnext;
	else
		k->whead = t->wnext;
	if (t->wnext != SR_TID_NONE)
		tk(s, t->wnext)->wprev = t->wprev;
	k->nwait--;
	bit_set(s->wdirty, t->wcpu);
	t->wcpu = -1;
}

/* The accounting just started a wait of task id (it became runnable, or
   left its CPU runnable): its attribution starts with it. */
static void wait_open(struct sr_sim *s, uint32_t id)
{
	struct stask *t = tk(s, id);

	if (!s->why_on || t->in_wait ||
	    sr_acct_state(s->acct, id) != SR_ACCT_RUNNABLE)
		return;
	t->in_wait = true;
	t->wseg = false;
	t->nsegs = 0;
	t->wait_from = sr_acct_since(s->acct, id);
	s->nwaiting++;
	wlist_add(s, id, t->cpu >= 0 && t->cpu < s->ncpu ? t->cpu : 0);
}

/* A task keeps room for this many segments between its waits. */
#define SEGS_KEPT 16

static int seg_push(struct stask *t, const struct sr_wait_seg *g)
{
	if (t->nsegs == t->capsegs) {
		size_t cap = t->capsegs;
		struct sr_wait_seg *p;

		if (cap >= UINT32_MAX / 2)
			return SR_EINTERNAL;
		p = sr_grow(t->segs, &cap, t->nsegs, sizeof(*p), 4, 0);
		if (!p)
			return SR_EINTERNAL;
		t->segs = p;
		t->capsegs = (uint32_t)cap;
	}
	t->segs[t->nsegs++] = *g;
	return SR_OK;
}

/* Close the open segment at now (one of no length is dropped). */
static void seg_close(struct sr_sim *s, uint32_t id)
{
	struct stask *t = tk(s, id);

	if (!t->wseg)
		return;
	t->wseg = false;
	if (t->seg.start >= s->now)
		return;
	t->seg.end = s->now;
	if (seg_push(t, &t->seg))
		fail(s, SR_EINTERNAL, "out of memory", id);
}

/*
 * Task id runs: its wait ends now.  Its segments must tile the wait
 * exactly (from wait_from to now): anything else is a bug of the
 * attribution, reported as one.
 */
static void wait_close(struct sr_sim *s, uint32_t id)
{
	struct stask *t = tk(s, id);
	int64_t at;

	if (!t->in_wait)
		return;
	seg_close(s, id);
	wlist_del(s, id);
	t->in_wait = false;
	s->nwaiting--;
	at = t->wait_from;
	for (uint32_t i = 0; i < t->nsegs; i++) {
		if (t->segs[i].start != at || t->segs[i].end <= at) {
			fail(s, SR_EINTERNAL, "the segments of a wait do not "
			     "tile it", id);
			return;
		}
		at = t->segs[i].end;
	}
	if (at != s->now)
		fail(s, SR_EINTERNAL, "the segments of a wait do not add up to "
		     "its delay", id);
}

/* ---- observer: timeline rows -------------------------------------------- */

/*
 * Reasons that are a change of state get a row always; the others (a
 * tick's charge, a recalculation, a refund, ...) only when prio changed.
 */
static const bool state_change_tab[SM_CH__COUNT] = {
	[SM_CH_NEW] = true, [SM_CH_FORK] = true, [SM_CH_WAKE] = true,
	[SM_CH_RUN] = true, [SM_CH_PREEMPT] = true, [SM_CH_BLOCK] = true,
	[SM_CH_EXPIRE] = true, [SM_CH_REQUEUE] = true, [SM_CH_EXIT] = true,
	[SM_CH_REAP] = true, [SM_CH_SWAP] = true, [SM_CH_YIELD] = true,
	[SM_CH_NICE] = true, [SM_CH_SETSCHED] = true, [SM_CH_MIGRATE] = true,
};

static bool state_change(enum sm_change why)
{
	return (unsigned)why < SM_CH__COUNT && state_change_tab[why];
}

static void row(struct sr_sim *s, uint32_t id, const char *event,
		const struct sm_view *v, int cpu, int from, const char *why,
		bool demand)
{
	struct stask *t = tk(s, id);
	struct sr_tl_row r = {
		.t = s->now, .task = id, .pid = t->pid, .comm = comm_of(s, t),
		.event = event, .v = v, .demand = demand, .prio = v->prio,
		.cpu = cpu, .from_cpu = from, .why = why,
	};
	int rc = s->h.row(s->h.ctx, &r);

	if (rc)
		fail(s, rc, "writing the timeline failed", id);
}

static void observe(void *ctx, const struct sm_rq *rq, const struct sm_task *pt,
		    enum sm_change why, const struct sm_view *v)
{
	struct sr_sim *s = ctx;
	uint32_t id = pt->info.id;
	struct stask *t;

	if (id >= s->nt)
		return;
	t = tk(s, id);
	if (why == SM_CH_EXPIRE)
		s->sum[id].expired++;
	if (s->why_on && rq && (state_change(why) || v->prio != t->last_prio))
		bit_set(s->wdirty, rq->cpu);
	if (rq && rq->cpu != t->cpu) {
		if (t->wcpu >= 0) {
			/* a waiting task moved: it waits there now */
			wlist_del(s, id);
			wlist_add(s, id, rq->cpu);
		}
		/* set_task_cpu: pulled, or woken elsewhere */
		if (t->cpu >= 0) {
			s->sum[id].migrations++;
			s->st.migrations++;
			if (s->h.row)
				row(s, id, "migrate", v, rq->cpu, t->cpu,
				    sm_migrate_why_name(s->mig_why), false);
		}
		t->cpu = rq->cpu;
		if (why == SM_CH_MIGRATE) {
			t->last_prio = v->prio;
			return;
		}
	}
	if (s->h.row && (state_change(why) || v->prio != t->last_prio))
		row(s, id, sm_change_name(why), v, t->cpu, -1, NULL, false);
	t->last_prio = v->prio;
}

/* ---- the balancer's view of affinity ------------------------------------- */

static bool allowed(const struct sr_sim *s, const struct stask *t, int c)
{
	return t->pin < 0 || t->pin == c;
}

static bool bal_allowed(void *ctx, const struct sm_task *pt, int c)
{
	struct sr_sim *s = ctx;

	return pt->info.id >= s->nt || allowed(s, tk(s, pt->info.id), c);
}

static void bal_moving(void *ctx, const struct sm_task *pt, int from, int to,
		       enum sm_migrate_why why)
{
	struct sr_sim *s = ctx;

	s->mig_why = why;
	bit_set(s->touched, from);
	bit_set(s->touched, to);
}

static void bal_kick(void *ctx, int c)
{
	mark(ctx, c);
}

/* ---- setup -------------------------------------------------------------- */

/*
 * The tick's rate: the policy's HZ knob when it has one and it is set
 * (or has a default), 0 there meaning the recording's: its context's
 * CONFIG_HZ, else the period its tick preemptions keep to (calib.h),
 * else SR_HZ_FALLBACK; a policy without the knob ticks at SM_HZ.
 */
static void resolve_hz(struct sr_sim *s)
{
	const struct sm_policy *pol = s->pol;
	int k = sm_knob_find(pol, "HZ");
	long v = k < 0 ? SM_HZ : s->o.sched ? sm_tuning_get(&s->o.sched->tuning,
							    "HZ", SM_HZ)
				       : pol->knobs[k].def;

	s->hz_from = SR_HZ_POLICY;
	if (v <= 0) {
		if (s->o.ctx_hz > 0) {
			v = s->o.ctx_hz;
			s->hz_from = SR_HZ_CONTEXT;
		} else if (s->o.calib && s->o.calib->hz > 0) {
			v = s->o.calib->hz;
			s->hz_from = SR_HZ_TICKS;
		} else {
			v = SR_HZ_FALLBACK;
			s->hz_from = SR_HZ_DEFAULT;
		}
	}
	s->tick_hz = (int)v;
	s->tick_ns = (1000000000LL + v / 2) / v;
}

int sr_sim_new(struct sr_sim **out, const struct sr_sim_opts *o,
	       struct sr_demand *dm, int consumer,
	       const struct sr_sim_hooks *hooks, struct sr_diag *d)
{
	struct sr_sim *s;
	const struct sm_policy *pol = o->sched ? o->sched->policy : o->policy;

	*out = NULL;
	if (!pol)
		return sr_fail(d, SR_EINTERNAL, "sim: no policy");
	if (o->cpus < 1 || o->cpus > SR_SIM_MAX_CPUS)
		return sr_fail(d, SR_EUSAGE, "--cpus %d: expected 1 to %d",
			       o->cpus, SR_SIM_MAX_CPUS);
	if (o->cpus > 1 && !sm_balancer_of(pol))
		return sr_fail(d, SR_EUSAGE, "policy %s runs on one CPU only: "
			       "use --cpus 1", pol->name);
	if (o->cs_cost_ns < 0 || o->cs_cost_ns > SR_CS_COST_MAX)
		return sr_fail(d, SR_EUSAGE, "--cs-cost: expected 0 to 1ms (a "
			       "switch costing a tick would let tick-driven "
			       "switches take every slice), got %lld ns",
			       (long long)o->cs_cost_ns);
	s = calloc(1, sizeof(*s));
	if (!s)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	s->o = *o;
	s->pol = pol;
	s->bops = sm_balancer_of(pol);
	s->dm = dm;
	s->cid = consumer;
	s->ncpu = o->cpus;
	/* the policy's knob if set, else --cache-decay, else the default */
	if (o->sched && sm_tuning_is_set(&o->sched->tuning,
					 "cache_decay_ticks"))
		s->cache_decay_ticks = (unsigned long)sm_tuning_get(
			&o->sched->tuning, "cache_decay_ticks", 0);
	else
		s->cache_decay_ticks = o->has_cache_decay ?
			o->cache_decay_ticks : SM_CACHE_DECAY_TICKS_DEFAULT;
	resolve_hz(s);
	if (hooks)
		s->h = *hooks;
	s->nw = ((size_t)s->ncpu + 63) / 64;
	s->cpu = calloc((size_t)s->ncpu, sizeof(*s->cpu));
	s->rh = calloc((size_t)s->ncpu, sizeof(*s->rh));
	s->rhstack = calloc((size_t)s->ncpu, sizeof(*s->rhstack));
	if (s->nw == 1) {
		s->resched = &s->bits1[0];
		s->pending = &s->bits1[1];
		s->touched = &s->bits1[2];
		s->wdirty = &s->bits1[3];
		s->widle = &s->bits1[4];
	} else {
		s->resched = calloc(s->nw, sizeof(uint64_t));
		s->pending = calloc(s->nw, sizeof(uint64_t));
		s->touched = calloc(s->nw, sizeof(uint64_t));
		s->wdirty = calloc(s->nw, sizeof(uint64_t));
		s->widle = calloc(s->nw, sizeof(uint64_t));
	}
	/* the segments go to the wait hook: without one, nobody wants them */
	s->why_on = !o->no_why && hooks && hooks->wait;
	if (!s->cpu || !s->rh || !s->rhstack || !s->resched || !s->pending ||
	    !s->touched || !s->wdirty || !s->widle ||
	    sr_acct_new(&s->acct, d)) {
		sr_sim_free(s);
		return d->code ? d->code : sr_fail(d, SR_EINTERNAL,
						   "out of memory");
	}
	for (int c = 0; c < s->ncpu; c++) {
		s->cpu[c].cur = SR_TID_NONE;
		s->cpu[c].whead = SR_TID_NONE;
	}
	if (s->h.wait)
		sr_acct_on_wait(s->acct, s->h.wait, s->h.ctx);
	*out = s;
	return SR_OK;
}

static struct sm_rq *rq_of_task(const struct sr_sim *s, const struct stask *t)
{
	return s->cpu[t->cpu >= 0 && t->cpu < s->ncpu ? t->cpu : 0].rq;
}

void sr_sim_free(struct sr_sim *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nt; i++) {
		struct stask *t;

		if (gone(s, (uint32_t)i))
			continue;
		t = tk(s, (uint32_t)i);
		if (t->pt && s->cpu && s->cpu[0].rq)
			s->pol->task_free(rq_of_task(s, t), t->pt);
		free(t->pend);
		free(t->segs);
	}
	if (s->bal)
		s->bops->destroy(s->bal);
	for (int c = 0; s->cpu && c < s->ncpu; c++)
		if (s->cpu[c].rq)
			s->pol->rq_free(s->cpu[c].rq);
	sr_acct_free(s->acct);
	free(s->cpu);
	free(s->rh);
	free(s->rhstack);
	if (s->nw > 1) {
		free(s->resched);
		free(s->pending);
		free(s->touched);
		free(s->wdirty);
		free(s->widle);
	}
	for (size_t k = 0; k < s->ntch; k++)
		free(s->tch[k]);
	free(s->tch);
	free(s->tslot);
	free(s->sum);
	free(s->tfree);
	free(s->reaped);
	free(s->heap);
	free(s->hlist);
	free(s->seen);
	free(s);
}

/* A free slot for a new task: one given back, or one of a new chunk. */
static int slot_new(struct sr_sim *s, uint32_t *k)
{
	struct stask **c, *chunk;
	uint32_t *f;

	if (s->ntfree) {
		*k = s->tfree[--s->ntfree];
		return SR_OK;
	}
	if (s->ntch >= (SLOT_GONE >> TCH_BITS) ||
	    !(c = sr_grow(s->tch, &s->captch, s->ntch, sizeof(*c), 16, 0)))
		return SR_EINTERNAL;
	s->tch = c;
	f = sr_grow(s->tfree, &s->captfree, TCH - 1 + s->ntch * TCH,
		    sizeof(*f), TCH, 0);
	if (!f)
		return SR_EINTERNAL;
	s->tfree = f;
	if (!(chunk = malloc(TCH * sizeof(*chunk))))
		return SR_EINTERNAL;
	s->tch[s->ntch] = chunk;
	/* the chunk's slots, the lowest taken first */
	for (uint32_t i = TCH; i-- > 1;)
		s->tfree[s->ntfree++] = (uint32_t)(s->ntch * TCH) + i;
	*k = (uint32_t)(s->ntch++ * TCH);
	return SR_OK;
}

/* Tasks reaped at an earlier instant: nothing refers to them any more
 * (they run, wait and sleep nowhere); their slots are freed. */
static void free_reaped(struct sr_sim *s)
{
	for (size_t i = 0; i < s->nreaped; i++) {
		uint32_t id = s->reaped[i];
		struct stask *t = tk(s, id);

		free(t->pend);
		free(t->segs);
		s->tfree[s->ntfree++] = s->tslot[id];
		s->tslot[id] = SLOT_GONE;
	}
	s->nreaped = 0;
}

static int grow_tasks(struct sr_sim *s, size_t n)
{
	if (n > s->nt) {
		size_t cap = s->capid;
		uint32_t *x = sr_grow(s->tslot, &cap, n - 1, sizeof(*x), 256,
				      0xff);
		struct sr_sim_task *u;

		if (!x)
			return SR_EINTERNAL;
		s->tslot = x;
		cap = s->capid;
		u = sr_grow(s->sum, &cap, n - 1, sizeof(*u), 256, 0);
		if (!u)
			return SR_EINTERNAL;
		s->sum = u;
		s->capid = cap;
	}
	while (s->nt < n) {
		struct stask *t;

		if (slot_new(s, &s->tslot[s->nt]))
			return SR_EINTERNAL;
		t = tk(s, (uint32_t)s->nt++);
		memset(t, 0, sizeof(*t));
		t->last_prio = -1;
		t->cpu = -1;
		t->pin = -1;
		t->wcpu = -1;
	}
	return SR_OK;
}

static int start(struct sr_sim *s, struct sr_diag *d)
{
	struct sm_observer obs = { .changed = observe, .ctx = s };

	s->start = sr_demand_start(s->dm);
	s->now = s->start;
	s->end_mark = s->start;
	s->last_tick = INT64_MIN;
	/* jiffies >= 1 from the start: 0 means "unset" to the models */
	s->jbase = floor_div(s->start, s->tick_ns) - 1;
	s->jiffies = jiffies_at(s, s->start);
	for (int c = 0; c < s->ncpu; c++) {
		s->cpu[c].rq = s->pol->rq_new(s->o.sched, c, s->jiffies, &obs);
		if (!s->cpu[c].rq)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		s->cpu[c].rq->hz = s->tick_hz;
		s->cpu[c].rq->ncpus = s->ncpu;
		sm_rq_set_clock(s->cpu[c].rq, s->jiffies, clock_at(s, s->start));
		s->cpu[c].charged_to = s->start;
		s->cpu[c].busy_until = s->start;
		s->cpu[c].progress_at = s->start;
	}
	if (s->ncpu > 1) {
		struct sm_rq **rqs = malloc((size_t)s->ncpu * sizeof(*rqs));
		struct sm_balance_hooks bh = { .allowed = bal_allowed,
					       .moving = bal_moving,
					       .kick = bal_kick, .ctx = s };
		int rc;

		if (!rqs)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		for (int c = 0; c < s->ncpu; c++)
			rqs[c] = s->cpu[c].rq;
		rc = s->bops->create(&s->bal, s->pol, rqs, s->ncpu,
				     s->cache_decay_ticks, &bh);
		free(rqs);
		if (rc)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
	}
	s->st.start = s->start;
	s->st.end = s->start;
	s->st.cpus = s->ncpu;
	s->started = true;
	return SR_OK;
}

/* ---- timers: external wakes, by time then trace order ------------------- */

/* A timer whose id has this bit is CPU (id without it)'s kick. */
#define KICK_TIMER 0x80000000u

static bool tless(const struct timer *a, const struct timer *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->seq != b->seq)
		return a->seq < b->seq;
	return a->id < b->id;
}

static int timer_push(struct sr_sim *s, int64_t t, uint64_t seq, uint32_t id)
{
	size_t i;

	{
		struct timer *h = sr_grow(s->heap, &s->capheap, s->nheap,
					  sizeof(*h), 64, 0);

		if (!h)
			return SR_EINTERNAL;
		s->heap = h;
	}
	i = s->nheap++;
	s->heap[i] = (struct timer){ t, seq, id };
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct timer tmp;

		if (!tless(&s->heap[i], &s->heap[p]))
			break;
		tmp = s->heap[i];
		s->heap[i] = s->heap[p];
		s->heap[p] = tmp;
		i = p;
	}
	return SR_OK;
}

static void timer_pop(struct sr_sim *s)
{
	size_t i = 0, n = --s->nheap;

	s->heap[0] = s->heap[n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct timer tmp;

		if (l < n && tless(&s->heap[l], &s->heap[m]))
			m = l;
		if (r < n && tless(&s->heap[r], &s->heap[m]))
			m = r;
		if (m == i)
			break;
		tmp = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = tmp;
		i = m;
	}
}

/* ---- task life ----------------------------------------------------------- */

static void set_op(struct sr_sim *s, uint32_t id, uint64_t idx)
{
	struct stask *t = tk(s, id);

	t->op = idx;
	t->off = 0;
	sr_demand_consumed(s->dm, s->cid, id, idx);
}

static void task_done(struct sr_sim *s, uint32_t id, int64_t when)
{
	if (s->sum[id].done)
		return;
	s->sum[id].done = true;
	s->sum[id].finish_ts = when;
	s->live--;
}

static void info_of(struct sr_sim *s, const struct sr_dtask *dt,
		    struct sm_task_info *info)
{
	struct stask *t = tk(s, dt->id);

	memset(info, 0, sizeof(*info));
	info->id = dt->id;
	info->nice = dt->nice < -20 ? -20 : dt->nice > 19 ? 19 : dt->nice;
	switch (dt->policy) {
	case SR_SCHED_FIFO:
		info->policy = SM_SCHED_FIFO;
		break;
	case SR_SCHED_RR:
		info->policy = SM_SCHED_RR;
		break;
	default:
		info->policy = SM_SCHED_NORMAL;
		break;
	}
	if (info->policy != SM_SCHED_NORMAL)
		info->rt_priority = dt->rt_priority < 1 ? 1 :
				    dt->rt_priority > 99 ? 99 :
				    dt->rt_priority;
	t->rec_policy = (int8_t)info->policy;
	t->rec_rtprio = (int8_t)info->rt_priority;
	t->rt_forced = (int8_t)sr_rtrules_match(s->o.rt,
		sr_demand_comm(s->dm, dt->comm));
	if (t->rt_forced) {
		/* --rt: SCHED_RR from birth */
		info->policy = SM_SCHED_RR;
		info->rt_priority = t->rt_forced;
	}
	info->has_mm = dt->has_mm;
	info->mm = dt->has_mm ? dt->tgid : 0;
	/* tasks alive at the start may be warmed up; forks inherit */
	info->init_sleep_pct = dt->forked ? 0 : s->o.init_sleep_pct;
}

/* Where task id may run on this replay: the CPU its name pins it to (a
 * per-CPU kernel thread), else its affinity, inferred from the recording
 * (--affinity) or inherited from its parent; -1: any. */
static void pin_of(struct sr_sim *s, struct stask *t, uint32_t id,
		   int32_t parent_pin)
{
	int32_t c = sr_pinned_cpu(comm_of(s, t));

	t->pin_aff = 0;
	if (s->ncpu < 2) {
		t->pin = -1;
		return;
	}
	if (c >= 0) {
		t->pin = sr_fold_cpu(c, s->ncpu);
		return;
	}
	c = s->o.infer_affinity ? sr_calib_pinned(s->o.calib, id) : -1;
	if (c < 0)
		c = parent_pin;
	t->pin = c < 0 ? -1 : sr_fold_cpu(c, s->ncpu);
	t->pin_aff = c >= 0;
}

static struct stask *born(struct sr_sim *s, uint32_t id,
			  const struct sr_dtask **dtp)
{
	const struct sr_dtask *dt = sr_demand_task(s->dm, id);
	struct stask *t;

	if (!dt || id >= s->nt) {
		fail(s, SR_EINTERNAL, "a task born unknown to the demand", id);
		return NULL;
	}
	if (s->sum[id].born) { /* (gone, if it was reaped) */
		fail(s, SR_EINTERNAL, "a task born twice", id);
		return NULL;
	}
	t = tk(s, id);
	s->sum[id].born = true;
	t->pid = dt->pid;
	t->comm = dt->comm;
	t->op = 0;
	t->off = 0;
	pin_of(s, t, id, -1);
	s->live++;
	*dtp = dt;
	return t;
}

static void make_ready(struct sr_sim *s, uint32_t id, enum sr_acct_cause why)
{
	struct stask *t = tk(s, id);
	int rc;

	t->state = T_READY;
	s->nready++;
	s->st.wakes++;
	rc = sr_acct_runnable(s->acct, id, s->now, why);
	if (rc)
		fail(s, rc, "accounting failed", id);
	wait_open(s, id);
}

/*
 * First seen (docs/replay.md, "First sight"): task_new, then woken at
 * that instant, on the CPU of the line that first showed it (folded), or
 * the one its name pins it to (docs/models.md, "SMP: readings" 18).
 */
static void arrive(struct sr_sim *s, uint32_t id)
{
	const struct sr_dtask *dt;
	struct sm_task_info info;
	struct stask *t = born(s, id, &dt);
	int c;

	if (!t)
		return;
	info_of(s, dt, &info);
	c = t->pin >= 0 ? t->pin : sr_fold_cpu(dt->cpu, s->ncpu);
	t->pt = s->pol->task_new(s->cpu[c].rq, &info);
	if (!t->pt) {
		fail(s, SR_EINTERNAL, "out of memory", id);
		return;
	}
	s->pol->wake(s->cpu[c].rq, t->pt, false);
	mark(s, c);
	make_ready(s, id, SR_CAUSE_WAKEUP);
}

/*
 * --rt after a fork or a change of name: exactly the tasks whose name
 * matches run SCHED_RR at the rule's prio; one that stops matching goes
 * back to the class the trace gave it.  c: the task's CPU; `inherited`:
 * what the policy's fork copied from the parent (its forced prio, 0 if
 * none).
 */
static void apply_rt(struct sr_sim *s, int c, uint32_t id, int inherited)
{
	struct stask *t = tk(s, id);
	int want = sr_rtrules_match(s->o.rt, comm_of(s, t));

	if (!s->o.rt || want == inherited)
		return;
	if (want)
		s->pol->setscheduler(s->cpu[c].rq, t->pt, SM_SCHED_RR, want);
	else
		s->pol->setscheduler(s->cpu[c].rq, t->pt, t->rec_policy,
				     t->rec_rtprio);
	t->rt_forced = (int8_t)want;
}

/* A fork by the task current on CPU c: the child starts there. */
static void fork_child(struct sr_sim *s, int c, uint32_t parent,
		       uint32_t child)
{
	const struct sr_dtask *dt;
	struct sm_task_info info;
	struct stask *t = born(s, child, &dt), *p = tk(s, parent);

	if (!t)
		return;
	info_of(s, dt, &info);
	t->pt = s->pol->fork(s->cpu[c].rq, p->pt, &info, 0);
	if (!t->pt) {
		fail(s, SR_EINTERNAL, "out of memory", child);
		return;
	}
	mark(s, c);
	/* a pinned parent's child is pinned too (dup_task_struct copies
	   the CPU mask) */
	if (p->pin_aff && t->pin < 0)
		pin_of(s, t, child, p->pin);
	/* the policy's fork gave it its parent's class (sched_fork) */
	apply_rt(s, c, child, p->rt_forced);
	make_ready(s, child, SR_CAUSE_FORK);
}

/*
 * Where a wakeup enqueues t: its last CPU; a sync wakeup by a task on CPU
 * waker first moves it there if it may run there (docs/models.md, "The
 * SMP balancer", where tasks go); a task pinned elsewhere (renamed into
 * a per-CPU thread's name) goes to its CPU.
 */
static int wake_cpu(struct sr_sim *s, const struct stask *t, bool sync,
		    int waker)
{
	int c = t->cpu >= 0 ? t->cpu : 0;

	if (s->bal && s->bops->wake_cpu) {
		enum sm_migrate_why why = SM_MIG_SYNC_WAKE;
		int to = s->bops->wake_cpu(s->bal, t->pt, c, sync, waker, &why);

		if (!allowed(s, t, to)) {
			s->mig_why = SM_MIG_AFFINITY;
			return t->pin;
		}
		if (to != c)
			s->mig_why = why;
		return to;
	}
	if (sync && waker >= 0 && waker != c && allowed(s, t, waker)) {
		s->mig_why = SM_MIG_SYNC_WAKE;
		return waker;
	}
	if (!allowed(s, t, c)) {
		s->mig_why = SM_MIG_AFFINITY;
		return t->pin;
	}
	return c;
}

/*
 * A wake that asked CPU c to reschedule (it found c idle, or preempts its
 * task) takes effect when the recording says such a wake took effect
 * (replay/calib.h): c reschedules then, by a kick timer, unless something
 * else makes it reschedule first.  remote: the wake was made on another
 * CPU.
 */
static void kick_later(struct sr_sim *s, int c, bool idle, bool remote)
{
	struct scpu *k = &s->cpu[c];
	enum sr_wake_class cls;
	int64_t cost;

	if (!s->o.calib || !k->rq->need_resched || k->kick_at > s->now ||
	    (s->resched[c / 64] >> (c % 64) & 1))
		return;
	cls = idle ? (remote ? SR_WAKE_IDLE_REMOTE : SR_WAKE_IDLE_LOCAL)
		   : (remote ? SR_WAKE_PREEMPT_REMOTE : SR_WAKE_PREEMPT_LOCAL);
	cost = sr_calib_wake_cost(s->o.calib, c, cls);
	if (cost <= 0)
		return;
	if (timer_push(s, s->now + cost, 0, KICK_TIMER | (uint32_t)c)) {
		fail(s, SR_EINTERNAL, "out of memory", SR_TID_NONE);
		return;
	}
	k->kick_at = s->now + cost;
	s->nkick++;
}

/* CPU c's kick is due (or moot: it rescheduled). */
static void kick_done(struct sr_sim *s, int c)
{
	if (s->cpu[c].kick_at) {
		s->cpu[c].kick_at = 0;
		s->nkick--;
	}
}

/* Wake a task asleep in its current block: it passes the BLOCK op.
 * waker: the waking task's CPU, -1 for an external wake. */
static void wake_task(struct sr_sim *s, uint32_t id, unsigned flags,
		      int waker)
{
	struct stask *t = tk(s, id);
	const struct sr_op *bop = sr_demand_op(s->dm, id, t->op);
	/* an external wake: made on another CPU in the recording? */
	bool remote = bop && bop->kind == SR_OP_BLOCK && bop->sync;
	bool idle;
	int c;

	set_op(s, id, t->op + 1);
	t->next_block = t->block + 1;
	/* still on its runqueue (a delayed dequeue): woken where it is */
	if (s->pol->still_queued && s->pol->still_queued(t->pt) && t->cpu >= 0)
		c = t->cpu;
	else
		c = wake_cpu(s, t, flags & SM_WAKE_SYNC, waker);
	idle = s->cpu[c].cur == SR_TID_NONE;
	s->pol->wake(s->cpu[c].rq, t->pt, flags);
	kick_later(s, c, idle, waker >= 0 ? waker != c : remote);
	mark(s, c);
	make_ready(s, id, SR_CAUSE_WAKEUP);
}

static int pend_add(struct stask *t, uint32_t block, int waker, bool sync)
{
	if (t->npend == t->cappend) {
		size_t cap = t->cappend;	/* uint32_t in the task */
		struct pend *p;

		if (cap >= UINT32_MAX / 2)
			return SR_EINTERNAL;
		p = sr_grow(t->pend, &cap, t->npend, sizeof(*p), 2, 0);
		if (!p)
			return SR_EINTERNAL;
		t->pend = p;
		t->cappend = (uint32_t)cap;
	}
	t->pend[t->npend++] = (struct pend){ block, (int16_t)waker, sync };
	return SR_OK;
}

static bool pend_take(struct stask *t, uint32_t block, struct pend *out)
{
	for (uint32_t i = 0; i < t->npend; i++) {
		if (t->pend[i].block == block) {
			*out = t->pend[i];
			t->pend[i] = t->pend[--t->npend];
			return true;
		}
	}
	return false;
}

/* A WAKE op of the task running on CPU waker: wake target out of its
   block `block`. */
static void causal_wake(struct sr_sim *s, uint32_t id, uint32_t block,
			bool sync, int waker)
{
	struct stask *t;

	if (id >= s->nt) {
		fail(s, SR_EINTERNAL, "a wake of an unknown task", id);
		return;
	}
	if (gone(s, id)) {
		fail(s, SR_EINTERNAL, "a causal wake for a block already "
		     "passed", id);
		return;
	}
	t = tk(s, id);
	if (t->state == T_BLOCKED && t->block == block) {
		s->st.wakes++;
		wake_task(s, id, sync ? SM_WAKE_SYNC : 0, waker);
	} else if (t->next_block <= block && t->state != T_DONE) {
		/* it has not reached that block yet: keep the wake */
		if (pend_add(t, block, waker, sync))
			fail(s, SR_EINTERNAL, "out of memory", id);
	} else {
		fail(s, SR_EINTERNAL, "a causal wake for a block already "
		     "passed", id);
	}
}

static void go_to_sleep(struct sr_sim *s, int c, uint32_t id,
			const struct sr_op *op)
{
	struct stask *t = tk(s, id);

	t->state = T_BLOCKED;
	t->blk = op->end;
	t->blocked_at = s->now;
	t->rec_block = op->a;
	s->nready--;
	s->pol->block(s->cpu[c].rq, t->pt);
	bit_set(s->resched, c);
	mark(s, c);
}

/*
 * A timeline row for a sleep the task skipped (what: "early", its causal
 * wake came first; "late", its external wake time was already past): the
 * task goes on running, but its burst ended here, and plots/ needs every
 * burst's end to judge periodic deadlines (docs/plots.md).
 */
static void skipped_row(struct sr_sim *s, uint32_t id, const char *what)
{
	struct stask *t = tk(s, id);
	struct sm_view v;

	if (!s->h.row)
		return;
	s->pol->view(t->pt, &v);
	row(s, id, what, &v, t->cpu, -1, NULL, true);
}

static void reach_block(struct sr_sim *s, int c, uint32_t id,
			const struct sr_op *op)
{
	struct stask *t = tk(s, id);
	struct pend pe;
	int64_t w;

	t->block = op->task;
	if (pend_take(t, op->task, &pe)) {
		s->sum[id].early_wakes++;
		if (s->o.early == SR_EARLY_REQUEUE) {
			/* the recorded order, the wake after the block: it
			   sleeps, and is woken at once (a timer now, after
			   the schedule() its sleep makes) */
			go_to_sleep(s, c, id, op);
			t->blk = BLK_EARLY;
			t->early_waker = pe.waker;
			t->early_sync = pe.sync;
			if (timer_push(s, s->now, 0, id))
				fail(s, SR_EINTERNAL, "out of memory", id);
			return;
		}
		/* the wake came before the sleep: no sleep at all */
		skipped_row(s, id, "early");
		t->next_block = op->task + 1;
		set_op(s, id, t->op + 1);
		return;
	}
	switch (op->end) {
	case SR_BLOCK_EXTERNAL:
		if (s->o.external == SR_EXTERNAL_ABSOLUTE) {
			w = op->b;
			if (w < s->now) {
				/* its wake time is past: a zero-length sleep */
				s->sum[id].late_wakeups++;
				skipped_row(s, id, "late");
				t->next_block = op->task + 1;
				set_op(s, id, t->op + 1);
				return;
			}
		} else {
			w = s->now + (op->b - op->a);
		}
		go_to_sleep(s, c, id, op);
		if (timer_push(s, w, op->seq, id))
			fail(s, SR_EINTERNAL, "out of memory", id);
		break;
	case SR_BLOCK_OPEN:
		go_to_sleep(s, c, id, op);
		if (s->o.external == SR_EXTERNAL_RELATIVE) {
			uint32_t *h = sr_grow(s->hlist, &s->caph, s->nh,
					      sizeof(*h), 64, 0);

			if (!h) {
				fail(s, SR_EINTERNAL, "out of memory", id);
				return;
			}
			s->hlist = h;
			s->hlist[s->nh++] = id;
			/* its wake may come as soon as the recording allows */
			w = s->now + (sr_demand_now(s->dm) - op->a);
			if (w < s->hz)
				s->hz = w;
		}
		break;
	case SR_BLOCK_CAUSAL:
		go_to_sleep(s, c, id, op);
		break;
	default: /* NEVER: asleep for good, its demand is done */
		go_to_sleep(s, c, id, op);
		t->state = T_DONE;
		task_done(s, id, s->now);
		break;
	}
}

void sr_sim_resolved(struct sr_sim *s, uint32_t id, uint32_t block,
		     const struct sr_op *op)
{
	struct stask *t;
	int64_t w;

	if (!s->started || id >= s->nt || gone(s, id))
		return;
	t = tk(s, id);
	if (t->state != T_BLOCKED || t->block != block ||
	    t->blk != SR_BLOCK_OPEN)
		return; /* it reads the end when it gets there */
	t->blk = op->end;
	switch (op->end) {
	case SR_BLOCK_EXTERNAL:
		if (s->o.external == SR_EXTERNAL_ABSOLUTE)
			w = op->b;
		else
			w = t->blocked_at + (op->b - op->a);
		if (w < s->now)
			fail(s, SR_EINTERNAL, "a wake resolved in the past", id);
		else if (timer_push(s, w, op->seq, id))
			fail(s, SR_EINTERNAL, "out of memory", id);
		break;
	case SR_BLOCK_NEVER:
		t->state = T_DONE;
		task_done(s, id, t->blocked_at);
		break;
	default:
		break;
	}
}

static void reap(struct sr_sim *s, uint32_t id)
{
	struct stask *t = tk(s, id);
	const struct sr_dtask *dt = sr_demand_task(s->dm, id);
	struct sm_task *parent = NULL;
	struct sm_rq *rq = rq_of_task(s, t);

	if (dt && dt->parent != SR_TID_NONE && dt->parent < s->nt &&
	    !gone(s, dt->parent))
		parent = tk(s, dt->parent)->pt;
	if (s->pol->reap)
		s->pol->reap(rq, parent, t->pt);
	s->pol->task_free(rq, t->pt);
	t->pt = NULL;
	t->state = T_DONE;
	task_done(s, id, s->now);
	{
		uint32_t *v = sr_grow(s->reaped, &s->capreaped, s->nreaped,
				      sizeof(*v), 64, 0);

		if (!v) {
			fail(s, SR_EINTERNAL, "out of memory", id);
			return;
		}
		s->reaped = v;
		s->reaped[s->nreaped++] = id;
	}
}

/* ---- checks -------------------------------------------------------------- */

struct pull_probe {
	const struct sr_sim *s;
	int cpu;
	uint32_t found;
};

static bool probe(void *ctx, struct sm_task *pt)
{
	struct pull_probe *p = ctx;
	const struct sr_sim *s = p->s;

	if (pt->on_cpu || pt->info.id >= s->nt ||
	    !allowed(s, tk(s, pt->info.id), p->cpu) ||
	    sm_task_hot(s->pol, s->cpu[p->cpu].rq, pt, s->cache_decay_ticks))
		return true;
	p->found = pt->info.id;
	return false;
}

/*
 * docs/models.md, "SMP: readings" 25, "no CPU idle while it could pull":
 * CPU c stayed idle after a load_balance(idle = 1), so the busiest queue
 * by current length (first of the longest, at least 2 and 2 more than
 * c's) holds no task that is neither running, nor pinned elsewhere, nor
 * cache-hot.
 */
static void check_idle_pull(struct sr_sim *s, int c)
{
	unsigned long own = s->pol->nr_running(s->cpu[c].rq), max = 1;
	struct pull_probe p = { s, c, SR_TID_NONE };
	int busiest = -1;

	for (int i = 0; i < s->ncpu; i++) {
		unsigned long nr = s->pol->nr_running(s->cpu[i].rq);

		if (i != c && nr > max) {
			busiest = i;
			max = nr;
		}
	}
	if (busiest < 0 || max <= own + 1)
		return;
	s->pol->balance_walk(s->cpu[busiest].rq, probe, &p);
	if (p.found != SR_TID_NONE) {
		char msg[160];

		snprintf(msg, sizeof(msg), "cpu %d stays idle while it could "
			 "pull a task from cpu %d", c, busiest);
		fail(s, SR_EINTERNAL, msg, p.found);
	}
}

struct walk_count {
	struct sr_sim *s;
	int cpu;
	uint32_t bad;
	const char *why;
};

static bool count_one(void *ctx, struct sm_task *pt)
{
	struct walk_count *w = ctx;
	struct sr_sim *s = w->s;
	uint32_t id = pt->info.id;

	if (id >= s->nt || id >= s->nseen || gone(s, id)) {
		w->bad = id;
		w->why = "a task unknown to the simulator is queued";
		return false;
	}
	if (s->seen[id] == s->stamp) {
		w->bad = id;
		w->why = "a task is on two runqueues";
		return false;
	}
	s->seen[id] = s->stamp;
	if (tk(s, id)->cpu != w->cpu) {
		w->bad = id;
		w->why = "a task is queued on another cpu than its own";
		return false;
	}
	return true;
}

/* "A task is on at most one runqueue" (--check; docs/models.md, "The SMP
   balancer", invariants). */
static void check_queues(struct sr_sim *s)
{
	struct walk_count w = { s, 0, SR_TID_NONE, NULL };

	if (!s->pol->balance_walk)
		return;
	if (s->nt) {
		/* a stamp per task, new ones 0 */
		uint32_t *p = sr_grow(s->seen, &s->nseen, s->nt - 1,
				      sizeof(*p), 256, 0);

		if (!p) {
			fail(s, SR_EINTERNAL, "out of memory", SR_TID_NONE);
			return;
		}
		s->seen = p;
	}
	if (++s->stamp == 0) {
		memset(s->seen, 0, s->nseen * sizeof(*s->seen));
		s->stamp = 1;
	}
	for (w.cpu = 0; w.cpu < s->ncpu && !w.why; w.cpu++)
		s->pol->balance_walk(s->cpu[w.cpu].rq, count_one, &w);
	if (w.why)
		fail(s, SR_EINTERNAL, w.why, w.bad);
}

/* At the end of an instant, on the CPUs it touched. */
static void check(struct sr_sim *s)
{
	char why[200];

	if (s->nready > 0 && s->nbusy == 0 && !s->nkick) {
		fail(s, SR_EINTERNAL, "every CPU is idle while a task is "
		     "runnable", SR_TID_NONE);
		return;
	}
	for (size_t w = 0; w < s->nw; w++) {
		for (uint64_t m = s->touched[w]; m; m &= m - 1) {
			int c = (int)(w * 64) + __builtin_ctzll(m);
			struct sm_rq *rq = s->cpu[c].rq;

			if (s->cpu[c].cur == SR_TID_NONE && s->pol->nr_running &&
			    s->cpu[c].kick_at <= s->now &&
			    s->pol->nr_running(rq)) {
				snprintf(why, sizeof(why), "cpu %d is idle "
					 "while its queue holds %lu task(s)",
					 c, s->pol->nr_running(rq));
				fail(s, SR_EINTERNAL, why, SR_TID_NONE);
				return;
			}
			/* progress: a busy CPU advances some task's demand;
			 * simulated time that passes without it (switches
			 * that cost every slice) would run forever and write
			 * without end */
			if (s->cpu[c].cur != SR_TID_NONE &&
			    s->now - s->cpu[c].progress_at > SR_PROGRESS_MAX) {
				snprintf(why, sizeof(why), "no progress: cpu %d "
					 "was busy for 1 s of simulated time "
					 "and no task's demand advanced", c);
				fail(s, SR_EINTERNAL, why, SR_TID_NONE);
				return;
			}
			if (s->o.check && s->pol->check &&
			    s->pol->check(rq, why, sizeof(why))) {
				fail(s, SR_EINTERNAL, why, SR_TID_NONE);
				return;
			}
		}
	}
	if (s->o.check && s->ncpu > 1)
		check_queues(s);
}

/* ---- schedule() and the current tasks' programs -------------------------- */

static void do_schedule(struct sr_sim *s, int c)
{
	struct scpu *k = &s->cpu[c];
	uint32_t prev = k->cur, next;
	struct sm_task *np;
	int rc = SR_OK;

	charge(s, c, s->now);
	bit_clear(s->resched, c);
	bit_set(s->touched, c);
	kick_done(s, c);
	np = s->pol->schedule(k->rq);
	next = np ? np->info.id : SR_TID_NONE;
	s->st.schedules++;
	if (next != SR_TID_NONE)
		bit_set(s->pending, c);
	if (next == prev)
		return;
	if (prev != SR_TID_NONE) {
		struct stask *p = tk(s, prev);

		rc = sr_acct_stop(s->acct, prev, s->now, p->state == T_READY);
		if (!rc && p->state == T_ZOMBIE) {
			rc = sr_acct_exit(s->acct, prev, s->now);
			reap(s, prev);
		} else if (!rc && p->state == T_READY) {
			wait_open(s, prev);
		}
	}
	if (!rc && next != SR_TID_NONE) {
		struct stask *n = next < s->nt && !gone(s, next) ?
				  tk(s, next) : NULL;

		if (!n || n->state != T_READY) {
			fail(s, SR_EINTERNAL, "the policy picked a task that "
			     "is not runnable", next);
			return;
		}
		wait_close(s, next);
		rc = sr_acct_run(s->acct, next, s->now);
		n->nsegs = 0;
		if (n->capsegs > SEGS_KEPT) {
			/* a long wait's segments: not kept for every task */
			free(n->segs);
			n->segs = NULL;
			n->capsegs = 0;
		}
		k->busy_until = s->now + s->o.cs_cost_ns;
	}
	if (rc)
		fail(s, rc, "accounting failed", next);
	s->st.switches++;
	k->switches++;
	s->nbusy += (next != SR_TID_NONE) - (prev != SR_TID_NONE);
	k->cur = next;
	if (next == SR_TID_NONE && s->bal && s->o.check &&
	    s->bops->idle_pull_check)
		check_idle_pull(s, c);
}

static int clamp_nice(int64_t n)
{
	return n < -20 ? -20 : n > 19 ? 19 : (int)n;
}

/* An op of the task current on CPU c. */
static void exec_op(struct sr_sim *s, int c, uint32_t id,
		    const struct sr_op *opp)
{
	struct sr_op op = *opp;
	struct stask *t = tk(s, id);
	struct sm_rq *rq = s->cpu[c].rq;
	int cls, rt;

	s->st.ops++;
	s->cpu[c].progress_at = s->now;
	switch (op.kind) {
	case SR_OP_WAKE:
		set_op(s, id, t->op + 1);
		causal_wake(s, op.task, (uint32_t)op.a, op.sync, c);
		break;
	case SR_OP_FORK:
		set_op(s, id, t->op + 1);
		fork_child(s, c, id, op.task);
		break;
	case SR_OP_COMM:
		set_op(s, id, t->op + 1);
		t->comm = op.task;
		apply_rt(s, c, id, t->rt_forced);
		pin_of(s, t, id, t->pin_aff ? t->pin : -1);
		break;
	case SR_OP_NICE:
		set_op(s, id, t->op + 1);
		s->pol->set_nice(rq, t->pt, clamp_nice(op.a));
		break;
	case SR_OP_SETSCHED:
		set_op(s, id, t->op + 1);
		cls = op.a == SR_SCHED_FIFO ? SM_SCHED_FIFO :
		      op.a == SR_SCHED_RR ? SM_SCHED_RR : SM_SCHED_NORMAL;
		rt = cls == SM_SCHED_NORMAL ? 0 :
		     op.b < 1 ? 1 : op.b > 99 ? 99 : (int)op.b;
		t->rec_policy = (int8_t)cls;
		t->rec_rtprio = (int8_t)rt;
		/* --rt wins over the recorded class while the name matches */
		if (!t->rt_forced)
			s->pol->setscheduler(rq, t->pt, cls, rt);
		break;
	case SR_OP_BLOCK:
		reach_block(s, c, id, &op);
		break;
	case SR_OP_EXIT:
		set_op(s, id, t->op + 1);
		t->state = T_ZOMBIE;
		s->nready--;
		s->pol->exit(rq, t->pt);
		bit_set(s->resched, c);
		break;
	case SR_OP_END:
		/* the trace ended: nothing more to run, asleep for good */
		set_op(s, id, t->op + 1);
		t->state = T_DONE;
		s->nready--;
		s->pol->block(rq, t->pt);
		bit_set(s->resched, c);
		task_done(s, id, s->now);
		break;
	default:
		fail(s, SR_EINTERNAL, "an unknown op", id);
		break;
	}
	mark(s, c);
}

enum { OPS_NONE, OPS_DID, OPS_INPUT };

/* One step of CPU c's current program at now: consume a RUN that ended,
 * or do an op due now. */
static int run_one_op(struct sr_sim *s, int c)
{
	struct scpu *k = &s->cpu[c];
	uint32_t id = k->cur;
	struct stask *t;
	const struct sr_op *op;

	if (id == SR_TID_NONE || s->now < k->busy_until)
		return OPS_NONE;
	charge(s, c, s->now);
	t = tk(s, id);
	op = sr_demand_op(s->dm, id, t->op);
	if (!op) {
		if (sr_demand_open(s->dm, id) > t->off)
			return OPS_NONE;
		if (sr_demand_done(s->dm)) {
			fail(s, SR_EINTERNAL, "a program without an end", id);
			return OPS_NONE;
		}
		return OPS_INPUT;
	}
	if (op->kind == SR_OP_RUN) {
		if (op->a > t->off)
			return OPS_NONE;
		t->off -= op->a;
		t->op++;
		sr_demand_consumed(s->dm, s->cid, id, t->op);
		return OPS_DID;
	}
	exec_op(s, c, id, op);
	return OPS_DID;
}

/*
 * Act on everything due now: schedule() on every CPU with need_resched,
 * lowest first, then one op of the lowest CPU whose current has ops due,
 * and again, so every op is followed at once by the schedule()s it
 * causes.  0: settled; 1: more input needed (call again).
 */
static int settle(struct sr_sim *s)
{
	while (!s->err) {
		int c = bit_first(s->resched, s->nw);
		int r;

		if (c >= 0) {
			do_schedule(s, c);
			continue;
		}
		c = bit_first(s->pending, s->nw);
		if (c < 0)
			return 0;
		r = run_one_op(s, c);
		if (r == OPS_INPUT)
			return 1;
		if (r == OPS_NONE)
			bit_clear(s->pending, c);
	}
	return 0;
}

/* Every CPU's scheduler_tick() then rebalance_tick(), ascending, with no
   schedule() between them (docs/models.md, "Conventions at one
   instant" 2). */
static void ticks(struct sr_sim *s)
{
	if (!s->bal) {
		if (s->cpu[0].cur != SR_TID_NONE) {
			charge(s, 0, s->now);
			s->pol->tick(s->cpu[0].rq);
			s->st.ticks++;
			mark(s, 0);
		}
		return;
	}
	if (!s->nbusy && s->bops->quiet(s->bal))
		return; /* nothing can change: every CPU idle, loads 0 */
	for (int c = 0; c < s->ncpu && !s->err; c++) {
		int pulled;

		charge(s, c, s->now);
		if (s->cpu[c].cur != SR_TID_NONE) {
			s->pol->tick(s->cpu[c].rq);
		} else {
			s->st.idle_ticks++;
		}
		s->st.ticks++;
		pulled = s->bops->tick(s->bal, c);
		mark(s, c);
		if (!pulled && s->cpu[c].cur == SR_TID_NONE && s->o.check &&
		    s->bops->idle_pull_check)
			check_idle_pull(s, c);
	}
}

/* The next external wake or arrival due now, in trace order. */
static bool wake_due(struct sr_sim *s)
{
	const struct sr_arrival *a = sr_demand_arrival(s->dm, s->arr);
	bool th = s->nheap && s->heap[0].t <= s->now;
	bool ta = a && a->ts <= s->now;

	if (!th && !ta)
		return false;
	s->pops++;
	if (th && (!ta || s->heap[0].seq < a->seq ||
		   (s->heap[0].seq == a->seq && s->heap[0].id < a->task))) {
		uint32_t id = s->heap[0].id;
		int64_t when = s->heap[0].t;

		timer_pop(s);
		if (id & KICK_TIMER) {
			int c = (int)(id & ~KICK_TIMER);

			if (s->cpu[c].kick_at == when) {
				kick_done(s, c);
				mark(s, c);
			}
			return true;
		}
		const struct stask *t = gone(s, id) ? NULL : tk(s, id);

		if (t && t->state == T_BLOCKED && t->blk == SR_BLOCK_EXTERNAL)
			wake_task(s, id, SM_WAKE_IRQ, -1);
		else if (t && t->state == T_BLOCKED && t->blk == BLK_EARLY)
			wake_task(s, id, t->early_sync ? SM_WAKE_SYNC : 0,
				  t->early_waker);
		return true;
	}
	s->arr++;
	sr_demand_arrivals_consumed(s->dm, s->cid, s->arr);
	arrive(s, a->task);
	return true;
}

/* What runs on a CPU, for its waiters' segments. */
struct running {
	uint32_t id;
	int32_t pid;
	uint32_t comm;
	int16_t prio;
};

static void running_on(struct sr_sim *s, int c, struct running *r)
{
	uint32_t id = s->cpu[c].cur;
	const struct stask *t;
	struct sm_view v;

	r->id = id;
	r->pid = -1;
	r->comm = 0;
	r->prio = -1;
	if (id == SR_TID_NONE || gone(s, id) || !(t = tk(s, id))->pt)
		return;
	s->pol->view(t->pt, &v);
	r->pid = t->pid;
	r->comm = t->comm;
	r->prio = (int16_t)v.prio;
}

static bool seg_same(const struct sr_wait_seg *a, const struct sr_wait_seg *b)
{
	return a->running == b->running && a->running_prio == b->running_prio &&
		a->cpu == b->cpu && a->why.code == b->why.code &&
		a->why.sub == b->why.sub && a->why.ahead == b->why.ahead &&
		a->why.value == b->why.value;
}

/*
 * Ask again why each task waiting on CPU c waits.  idle1, idle2: the two
 * lowest idle CPUs (-1: none), for other-cpu: a CPU the task may use
 * idles while it waits here.
 */
static void attribute_cpu(struct sr_sim *s, int c, int idle1, int idle2)
{
	struct running r;
	int idle = idle1 == c ? idle2 : idle1;

	running_on(s, c, &r);
	for (uint32_t id = s->cpu[c].whead; id != SR_TID_NONE;
	     id = tk(s, id)->wnext) {
		struct stask *t = tk(s, id);
		struct sr_wait_seg g = {
			.start = t->wseg ? s->now : t->wait_from,
			.running = r.id, .running_pid = r.pid,
			.running_comm = r.comm, .running_prio = r.prio,
			.cpu = (int16_t)c,
			.why = { SM_WHY_NONE, SM_WHYSUB_NONE, -1, -1 },
		};

		if (idle >= 0 && (t->pin < 0 || t->pin == idle)) {
			g.why.code = SM_WHY_OTHER_CPU;
			g.why.value = idle;
			if (s->bops->why_stays)
				g.why.sub = (uint8_t)s->bops->why_stays(
					s->bal, t->pt, c, idle);
		} else if (s->pol->why_waiting) {
			s->pol->why_waiting(s->cpu[c].rq, t->pt, &g.why);
		}
		if (t->wseg && seg_same(&g, &t->seg))
			continue;
		seg_close(s, id);
		t->seg = g;
		t->wseg = true;
	}
}

/* End of an instant: attribute the waits on the CPUs where something
   changed (see the head of this file). */
static void attribute(struct sr_sim *s)
{
	int idle1 = -1, idle2 = -1;
	bool all = false;

	if (!s->nwaiting) {
		for (size_t w = 0; w < s->nw; w++)
			s->wdirty[w] = 0;
		return;
	}
	if (s->tick_instant && s->pol->why_at_tick)
		all = true;
	if (s->bal) {
		bool changed = false;

		for (int c = 0; c < s->ncpu; c++) {
			bool is_idle = s->cpu[c].cur == SR_TID_NONE;
			bool was = (s->widle[c / 64] >> (c % 64)) & 1;

			if (is_idle) {
				if (idle1 < 0)
					idle1 = c;
				else if (idle2 < 0)
					idle2 = c;
			}
			if (is_idle != was) {
				changed = true;
				if (is_idle)
					bit_set(s->widle, c);
				else
					bit_clear(s->widle, c);
			}
		}
		/* an idle CPU's balance (cache-hotness, intervals) moves
		   with the ticks */
		if (changed || (s->tick_instant && idle1 >= 0))
			all = true;
	}
	for (int c = 0; c < s->ncpu; c++) {
		bool dirty = all || ((s->wdirty[c / 64] >> (c % 64)) & 1);

		if (dirty && s->cpu[c].nwait)
			attribute_cpu(s, c, idle1, idle2);
	}
	for (size_t w = 0; w < s->nw; w++)
		s->wdirty[w] = 0;
}

static void end_instant(struct sr_sim *s)
{
	check(s);
	if (s->why_on)
		attribute(s);
	for (size_t w = 0; w < s->nw; w++) {
		for (uint64_t m = s->touched[w]; m; m &= m - 1)
			rh_update(s, (uint32_t)(w * 64) +
				  (uint32_t)__builtin_ctzll(m));
		s->touched[w] = 0;
	}
	if (s->st.ops + s->st.wakes + s->st.schedules + s->pops != s->acts)
		s->end_mark = s->now; /* not only idle ticks */
}

/* Continue the instant at s->now.  0: done; 1: more input needed. */
static int instant(struct sr_sim *s)
{
	switch (s->phase) {
	case PH_OPS1:
		if (settle(s))
			return 1;
		s->phase = PH_TICK;
		/* fall through */
	case PH_TICK:
		if (s->now % s->tick_ns == 0 && s->now > s->last_tick) {
			s->last_tick = s->now;
			s->tick_instant = true;
			ticks(s);
		}
		s->phase = PH_WAKES;
		/* fall through */
	case PH_WAKES:
		/*
		 * Between ticks each wakeup is followed at once by the
		 * schedule()s it causes; at a tick all the (timer) wakeups
		 * come first (docs/models.md, "Conventions at one
		 * instant" 3).
		 */
		for (;;) {
			if (!s->tick_instant && settle(s))
				return 1;
			if (s->err || !wake_due(s))
				break;
		}
		s->phase = PH_SCHED;
		/* fall through */
	case PH_SCHED:
		if (settle(s))
			return 1;
		s->phase = PH_NONE;
		end_instant(s);
		return 0;
	default:
		return 0;
	}
}

/* Earliest time an external wake not known yet could fall. */
static int64_t horizon(struct sr_sim *s)
{
	int64_t r = sr_demand_now(s->dm), h = r;

	if (sr_demand_done(s->dm))
		return INT64_MAX;
	for (size_t i = 0; i < s->nh;) {
		struct stask *t = gone(s, s->hlist[i]) ? NULL :
				  tk(s, s->hlist[i]);

		if (!t || t->state != T_BLOCKED || t->blk != SR_BLOCK_OPEN) {
			s->hlist[i] = s->hlist[--s->nh];
			continue;
		}
		if (t->blocked_at + (r - t->rec_block) < h)
			h = t->blocked_at + (r - t->rec_block);
		i++;
	}
	return h;
}

/*
 * Work conserved per task (docs/models.md, "The SMP balancer",
 * invariants): what each task ran is
 * exactly its recorded demand.
 */
static int the_end(struct sr_sim *s)
{
	for (size_t i = 0; i < s->nt; i++) {
		const struct sr_dtask *dt;

		if (!s->sum[i].born)
			continue;
		if (!s->sum[i].done) {
			fail(s, SR_EINTERNAL, tk(s, i)->state == T_BLOCKED ?
			     "a task still waits for its wake at the end" :
			     "a task did not finish its demand", (uint32_t)i);
			return -1;
		}
		dt = sr_demand_task(s->dm, (uint32_t)i);
		if (dt && dt->cpu_ns != s->sum[i].cpu_ns) {
			char msg[160];

			snprintf(msg, sizeof(msg), "a task ran %lld ns of its "
				 "%lld ns of demand",
				 (long long)s->sum[i].cpu_ns,
				 (long long)dt->cpu_ns);
			fail(s, SR_EINTERNAL, msg, (uint32_t)i);
			return -1;
		}
	}
	s->finished = true;
	s->st.end = s->end_mark;
	return 0;
}

/* Do ticks fall now?  One CPU: only while it runs a task (an idle tick
 * does nothing there); several: while any runs, or a balancer still holds
 * a load it saw (docs/models.md, "SMP: readings" 21). */
static bool ticking(const struct sr_sim *s)
{
	if (!s->bal)
		return s->cpu[0].cur != SR_TID_NONE;
	return s->nbusy > 0 || !s->bops->quiet(s->bal);
}

/* The policy's name as its messages give it (its tuned label). */
static const char *sim_policy_name(const struct sr_sim *s)
{
	return s->o.sched ? s->o.sched->tuning.label : s->pol->name;
}

int sr_sim_advance(struct sr_sim *s, struct sr_diag *d)
{
	bool eof = sr_demand_done(s->dm), refresh;

	if (s->finished)
		return SR_OK;
	if (!s->started) {
		if (!sr_demand_started(s->dm)) {
			if (eof)
				s->finished = true;
			return SR_OK;
		}
		if (start(s, d))
			return d->code;
	}
	if (grow_tasks(s, sr_demand_ntasks(s->dm)))
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	s->hz = horizon(s);
	refresh = true;
	while (!s->err) {
		int64_t t = INT64_MAX;
		const struct sr_arrival *a;
		const struct scpu *top;

		if (s->phase != PH_NONE) {
			if (instant(s))
				break;
			continue;
		}
		if (refresh) {
			/* more is known now: every running task's next op (an
			   instant interrupted for input resumes first) */
			for (int c = 0; c < s->ncpu; c++)
				if (s->cpu[c].cur != SR_TID_NONE)
					rh_update(s, (uint32_t)c);
			refresh = false;
		}
		top = s->nrh ? &s->cpu[s->rh[0]] : NULL;
		if (top && !top->soft)
			t = top->key;
		if (ticking(s)) {
			/* next tick: the next jiffy boundary after now */
			int64_t tick = (floor_div(s->now, s->tick_ns) + 1) *
				       s->tick_ns;

			if (tick < t)
				t = tick;
		}
		if (s->nheap && s->heap[0].t < t)
			t = s->heap[0].t;
		if ((a = sr_demand_arrival(s->dm, s->arr)) && a->ts < t)
			t = a->ts;
		if (top && top->soft && top->key <= t) {
			if (eof)
				fail(s, SR_EINTERNAL, "a program without an "
				     "end", top->cur);
			break;          /* a running task's next op: wait */
		}
		if (t == INT64_MAX) {
			if (eof)
				the_end(s);
			break;
		}
		if (t >= s->hz)
			break;          /* something not read yet may come first */
		s->now = t;
		set_clock(s, t);
		free_reaped(s);
		s->st.instants++;
		s->acts = s->st.ops + s->st.wakes + s->st.schedules + s->pops;
		s->tick_instant = false;
		due_cpus(s, t); /* whose current reaches its next op now */
		s->phase = PH_OPS1;
	}
	s->st.events = s->st.ticks + s->st.ops + s->st.wakes +
		       s->st.schedules;
	if (s->err)
		return sr_fail(d, s->err, "replay under %s: %s",
			       sim_policy_name(s), s->errmsg);
	return SR_OK;
}

bool sr_sim_finished(const struct sr_sim *s)
{
	return s->finished;
}

int sr_sim_finish(struct sr_sim *s, struct sr_diag *d)
{
	if (!s->finished)
		return sr_fail(d, SR_EINTERNAL, "replay under %s: not finished",
			       sim_policy_name(s));
	if (sr_acct_finish(s->acct, s->st.end, d))
		return d->code;
	for (size_t i = 0; i < s->nt; i++) {
		if (!s->sum[i].born)
			continue;
		if (sr_acct_name(s->acct, (uint32_t)i,
				 sr_demand_last_pid(s->dm, (uint32_t)i),
				 sr_demand_last_comm(s->dm, (uint32_t)i)))
			return sr_fail(d, SR_EINTERNAL, "out of memory");
	}
	return SR_OK;
}

struct sr_acct *sr_sim_acct(struct sr_sim *s)
{
	return s->acct;
}

const struct sr_sim_task *sr_sim_task(const struct sr_sim *s, uint32_t id)
{
	return id < s->nt && s->sum[id].born ? &s->sum[id] : NULL;
}

void sr_sim_stats(const struct sr_sim *s, struct sr_sim_stats *st)
{
	*st = s->st;
	st->events = s->st.ticks + s->st.ops + s->st.wakes + s->st.schedules;
	st->cpus = s->ncpu;
	st->balances = st->pulls = 0;
	for (int c = 0; s->bal && c < s->ncpu; c++) {
		st->balances += s->bops->stats(s->bal, c)->balances;
		st->pulls += s->bops->stats(s->bal, c)->pulls;
	}
}

int sr_sim_hz(const struct sr_sim *s, enum sr_hz_source *from)
{
	if (from)
		*from = s->hz_from;
	return s->tick_hz;
}

int sr_sim_ncpus(const struct sr_sim *s)
{
	return s->ncpu;
}

void sr_sim_cpu_stats(const struct sr_sim *s, int c, struct sr_cpu_figs *out)
{
	const struct scpu *k;
	int64_t span = s->st.end - s->st.start;

	memset(out, 0, sizeof(*out));
	if (c < 0 || c >= s->ncpu || !s->started)
		return;
	k = &s->cpu[c];
	out->busy_ns = k->busy_ns;
	out->idle_ns = span > k->busy_ns ? span - k->busy_ns : 0;
	out->switches = k->switches;
	if (s->bal) {
		out->balances = (int64_t)s->bops->stats(s->bal, c)->balances;
		out->pulls = (int64_t)s->bops->stats(s->bal, c)->pulls;
	}
}

const struct sr_wait_seg *sr_sim_wait_segs(const struct sr_sim *s,
					   uint32_t id, size_t *n)
{
	const struct stask *t;

	if (id >= s->nt || !s->why_on || gone(s, id)) {
		*n = 0;
		return NULL;
	}
	t = tk(s, id);
	*n = t->nsegs;
	return t->segs;
}

const char *sr_sim_name(const struct sr_sim *s, uint32_t comm)
{
	return sr_demand_comm(s->dm, comm);
}

void sr_wait_main(const struct sr_wait_seg *g, size_t n, int *why,
		  uint32_t *behind, int32_t *behind_pid)
{
	int64_t by_why[SM_WHY__COUNT] = { 0 }, best = 0, most = 0;

	*why = SM_WHY_NONE;
	*behind = SR_TID_NONE;
	*behind_pid = -1;
	for (size_t i = 0; i < n; i++) {
		int c = g[i].why.code < SM_WHY__COUNT ? g[i].why.code : 0;

		by_why[c] += g[i].end - g[i].start;
	}
	/* the first of the longest, in order of first appearance */
	for (size_t i = 0; i < n; i++) {
		int c = g[i].why.code < SM_WHY__COUNT ? g[i].why.code : 0;
		int64_t sum = 0;
		size_t j;

		if (by_why[c] > best) {
			best = by_why[c];
			*why = c;
		}
		if (g[i].running == SR_TID_NONE)
			continue;
		for (j = 0; j < i && g[j].running != g[i].running; j++)
			;
		if (j < i)
			continue; /* counted at its first segment */
		for (j = i; j < n; j++)
			if (g[j].running == g[i].running)
				sum += g[j].end - g[j].start;
		if (sum > most) {
			most = sum;
			*behind = g[i].running;
			*behind_pid = g[i].running_pid;
		}
	}
}

/* A task reaped at an earlier instant is named as the demand last saw it. */
const char *sr_sim_comm(const struct sr_sim *s, uint32_t id)
{
	if (id >= s->nt)
		return "";
	return gone(s, id) ? sr_demand_last_comm(s->dm, id) :
			     comm_of(s, tk(s, id));
}

int32_t sr_sim_pid(const struct sr_sim *s, uint32_t id)
{
	if (id >= s->nt)
		return -1;
	return gone(s, id) ? sr_demand_last_pid(s->dm, id) : tk(s, id)->pid;
}
