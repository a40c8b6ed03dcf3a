/*
 * sim: the event loop that replays the demand through one policy.  Owns
 * time (integer ns), the tick, the CPU, each task's place in its program,
 * the external-wake timers and the order of things at one instant
 * (docs/replay.md, "The simulator"); the policy owns priorities and
 * queues.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/sim.h"

enum tstate {
	T_NONE,     /* not born yet */
	T_READY,    /* runnable: queued, maybe current */
	T_BLOCKED,  /* asleep in block .block */
	T_ZOMBIE,   /* exited, not switched out yet */
	T_DONE,     /* demand consumed (reaped, or asleep for good) */
};

/* Phases of one instant, in the order issue 4 item 6 fixes. */
enum phase {
	PH_NONE,    /* between instants */
	PH_OPS1,    /* the current task's ops due now (bursts ending now) */
	PH_TICK,    /* scheduler_tick for whoever is current */
	PH_WAKES,   /* external wakes and arrivals due now, by task id */
	PH_SCHED,   /* schedule() if need_resched */
	PH_OPS2,    /* the ops of whoever runs now */
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
	int last_prio;
	int64_t blocked_at; /* sim time it went to sleep */
	int64_t rec_block;  /* recorded start of that sleep */
	uint32_t *pend;     /* causal wakes that came before their block */
	uint32_t npend, cappend;
	struct sr_sim_task st;
};

struct timer {
	int64_t t;
	uint32_t id;
};

struct sr_sim {
	struct sr_sim_opts o;
	const struct sm_policy *pol;
	struct sr_demand *dm;
	int cid;
	struct sr_sim_hooks h;
	struct sm_rq *rq;
	struct sr_acct *acct;
	struct stask *t;
	size_t nt, capt;
	uint32_t cur;           /* running task, SR_TID_NONE = idle */
	bool started, finished;
	int phase;
	int64_t start, now;
	int64_t charged_to;     /* current's CPU counted up to here */
	int64_t busy_until;     /* end of a context switch */
	int64_t last_tick;      /* instant of the last tick done */
	int64_t progress_at;    /* last instant a task's demand advanced
				   or the CPU was idle (check()) */
	int64_t jbase;          /* jiffies = t / J - jbase */
	struct timer *heap;
	size_t nheap, capheap;
	uint64_t arr;           /* next arrival to take */
	uint32_t *due;
	size_t ndue, capdue;
	uint32_t *hlist;        /* relative mode: asleep, end not known */
	size_t nh, caph;
	int64_t hz;             /* horizon: no instant at or after it */
	uint64_t nready, live;
	int err;
	char errmsg[320];
	struct sr_sim_stats st;
};

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

static const char *change_name(enum sm_change why)
{
	return sm_change_name(why);
}

static void observe(void *ctx, const struct sm_rq *rq, const struct sm_task *pt,
		    enum sm_change why, const struct sm_view *v)
{
	struct sr_sim *s = ctx;
	uint32_t id = pt->info.id;
	struct stask *t;

	if (id >= s->nt)
		return;
	t = &s->t[id];
	if (why == SM_CH_EXPIRE)
		t->st.expired++;
	if (s->h.row && (state_change(why) || v->prio != t->last_prio)) {
		struct sr_tl_row r = {
			.t = s->now, .task = id, .pid = t->pid,
			.comm = comm_of(s, t), .event = change_name(why),
			.v = v, .prio = v->prio,
		};
		int rc = s->h.row(s->h.ctx, &r);

		if (rc)
			fail(s, rc, "writing the timeline failed", id);
	}
	t->last_prio = v->prio;
}

/* ---- setup -------------------------------------------------------------- */

int sr_sim_new(struct sr_sim **out, const struct sr_sim_opts *o,
	       struct sr_demand *dm, int consumer,
	       const struct sr_sim_hooks *hooks, struct sr_diag *d)
{
	struct sr_sim *s;

	*out = NULL;
	if (!o->policy)
		return sr_fail(d, SR_EINTERNAL, "sim: no policy");
	if (o->cpus != 1)
		return sr_fail(d, SR_EUSAGE, "--cpus %d: the replay simulates "
			       "one CPU for now (SMP replay comes later); "
			       "use --cpus 1", o->cpus);
	if (o->cs_cost_ns < 0 || o->cs_cost_ns > SR_CS_COST_MAX)
		return sr_fail(d, SR_EUSAGE, "--cs-cost: expected 0 to 1ms (a "
			       "switch costing a tick would let tick-driven "
			       "switches take every slice), got %lld ns",
			       (long long)o->cs_cost_ns);
	s = calloc(1, sizeof(*s));
	if (!s)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	s->o = *o;
	s->pol = o->policy;
	s->dm = dm;
	s->cid = consumer;
	if (hooks)
		s->h = *hooks;
	s->cur = SR_TID_NONE;
	if (sr_acct_new(&s->acct, d)) {
		free(s);
		return d->code;
	}
	if (s->h.wait)
		sr_acct_on_wait(s->acct, s->h.wait, s->h.ctx);
	*out = s;
	return SR_OK;
}

void sr_sim_free(struct sr_sim *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nt; i++) {
		if (s->t[i].pt && s->rq)
			s->pol->task_free(s->rq, s->t[i].pt);
		free(s->t[i].pend);
	}
	if (s->rq)
		s->pol->rq_free(s->rq);
	sr_acct_free(s->acct);
	free(s->t);
	free(s->heap);
	free(s->due);
	free(s->hlist);
	free(s);
}

static int grow_tasks(struct sr_sim *s, size_t n)
{
	if (n > s->capt) {
		size_t cap = s->capt ? s->capt : 256;
		struct stask *t;

		while (cap < n)
			cap *= 2;
		t = realloc(s->t, cap * sizeof(*t));
		if (!t)
			return SR_EINTERNAL;
		s->t = t;
		s->capt = cap;
	}
	while (s->nt < n) {
		struct stask *t = &s->t[s->nt++];

		memset(t, 0, sizeof(*t));
		t->last_prio = -1;
	}
	return SR_OK;
}

static unsigned long jiffies_at(const struct sr_sim *s, int64_t t)
{
	return (unsigned long)(floor_div(t, SR_NSEC_PER_JIFFY) - s->jbase);
}

static int start(struct sr_sim *s, struct sr_diag *d)
{
	struct sm_observer obs = { .changed = observe, .ctx = s };

	s->start = sr_demand_start(s->dm);
	s->now = s->start;
	s->progress_at = s->start;
	s->charged_to = s->start;
	s->busy_until = s->start;
	s->last_tick = INT64_MIN;
	/* jiffies >= 1 from the start: 0 means "unset" to the models */
	s->jbase = floor_div(s->start, SR_NSEC_PER_JIFFY) - 1;
	s->rq = s->pol->rq_new(0, jiffies_at(s, s->start), &obs);
	if (!s->rq)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	s->st.start = s->start;
	s->st.end = s->start;
	s->started = true;
	return SR_OK;
}

/* ---- timers -------------------------------------------------------------- */

static bool tless(const struct timer *a, const struct timer *b)
{
	return a->t < b->t || (a->t == b->t && a->id < b->id);
}

static int timer_push(struct sr_sim *s, int64_t t, uint32_t id)
{
	size_t i;

	if (s->nheap == s->capheap) {
		size_t cap = s->capheap ? s->capheap * 2 : 64;
		struct timer *h = realloc(s->heap, cap * sizeof(*h));

		if (!h)
			return SR_EINTERNAL;
		s->heap = h;
		s->capheap = cap;
	}
	i = s->nheap++;
	s->heap[i] = (struct timer){ t, id };
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
	s->t[id].op = idx;
	s->t[id].off = 0;
	sr_demand_consumed(s->dm, s->cid, id, idx);
}

static void task_done(struct sr_sim *s, uint32_t id, int64_t when)
{
	struct stask *t = &s->t[id];

	if (t->st.done)
		return;
	t->st.done = true;
	t->st.finish_ts = when;
	s->live--;
}

static void info_of(const struct sr_sim *s, const struct sr_dtask *dt,
		    struct sm_task_info *info)
{
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
	info->has_mm = dt->has_mm;
	/* tasks alive at the start may be warmed up; forks inherit */
	info->init_sleep_pct = dt->forked ? 0 : s->o.init_sleep_pct;
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
	t = &s->t[id];
	if (t->st.born) {
		fail(s, SR_EINTERNAL, "a task born twice", id);
		return NULL;
	}
	t->st.born = true;
	t->pid = dt->pid;
	t->comm = dt->comm;
	t->op = 0;
	t->off = 0;
	s->live++;
	*dtp = dt;
	return t;
}

static void make_ready(struct sr_sim *s, uint32_t id, enum sr_acct_cause why)
{
	struct stask *t = &s->t[id];
	int rc;

	t->state = T_READY;
	s->nready++;
	s->st.wakes++;
	rc = sr_acct_runnable(s->acct, id, s->now, why);
	if (rc)
		fail(s, rc, "accounting failed", id);
}

/* First seen (issue 4 item 5): task_new, then woken at that instant. */
static void arrive(struct sr_sim *s, uint32_t id)
{
	const struct sr_dtask *dt;
	struct sm_task_info info;
	struct stask *t = born(s, id, &dt);

	if (!t)
		return;
	info_of(s, dt, &info);
	t->pt = s->pol->task_new(s->rq, &info);
	if (!t->pt) {
		fail(s, SR_EINTERNAL, "out of memory", id);
		return;
	}
	s->pol->wake(s->rq, t->pt, false);
	make_ready(s, id, SR_CAUSE_WAKEUP);
}

static void fork_child(struct sr_sim *s, uint32_t parent, uint32_t child)
{
	const struct sr_dtask *dt;
	struct sm_task_info info;
	struct stask *t = born(s, child, &dt);

	if (!t)
		return;
	info_of(s, dt, &info);
	t->pt = s->pol->fork(s->rq, s->t[parent].pt, &info, 0);
	if (!t->pt) {
		fail(s, SR_EINTERNAL, "out of memory", child);
		return;
	}
	make_ready(s, child, SR_CAUSE_FORK);
}

/* Wake a task asleep in its current block: it passes the BLOCK op. */
static void wake_task(struct sr_sim *s, uint32_t id, bool sync)
{
	struct stask *t = &s->t[id];

	set_op(s, id, t->op + 1);
	t->next_block = t->block + 1;
	s->pol->wake(s->rq, t->pt, sync);
	make_ready(s, id, SR_CAUSE_WAKEUP);
}

static int pend_add(struct stask *t, uint32_t block)
{
	if (t->npend == t->cappend) {
		uint32_t cap = t->cappend ? t->cappend * 2 : 2;
		uint32_t *p = realloc(t->pend, cap * sizeof(*p));

		if (!p)
			return SR_EINTERNAL;
		t->pend = p;
		t->cappend = cap;
	}
	t->pend[t->npend++] = block;
	return SR_OK;
}

static bool pend_take(struct stask *t, uint32_t block)
{
	for (uint32_t i = 0; i < t->npend; i++) {
		if (t->pend[i] == block) {
			t->pend[i] = t->pend[--t->npend];
			return true;
		}
	}
	return false;
}

/* A WAKE op of a running task: wake target out of its block `block`. */
static void causal_wake(struct sr_sim *s, uint32_t id, uint32_t block,
			bool sync)
{
	struct stask *t;

	if (id >= s->nt) {
		fail(s, SR_EINTERNAL, "a wake of an unknown task", id);
		return;
	}
	t = &s->t[id];
	if (t->state == T_BLOCKED && t->block == block) {
		s->st.wakes++;
		wake_task(s, id, sync);
	} else if (t->next_block <= block && t->state != T_DONE) {
		/* it has not reached that block yet: keep the wake */
		if (pend_add(t, block))
			fail(s, SR_EINTERNAL, "out of memory", id);
	} else {
		fail(s, SR_EINTERNAL, "a causal wake for a block already "
		     "passed", id);
	}
}

static void go_to_sleep(struct sr_sim *s, uint32_t id, const struct sr_op *op)
{
	struct stask *t = &s->t[id];

	t->state = T_BLOCKED;
	t->blk = op->end;
	t->blocked_at = s->now;
	t->rec_block = op->a;
	s->nready--;
	s->pol->block(s->rq, t->pt);
}

/*
 * A timeline row for a sleep the task skipped (what: "early", its causal
 * wake came first; "late", its external wake time was already past): the
 * task goes on running, but its burst ended here, and plots/ needs every
 * burst's end to judge periodic deadlines (docs/plots.md).
 */
static void skipped_row(struct sr_sim *s, uint32_t id, const char *what)
{
	struct stask *t = &s->t[id];
	struct sm_view v;
	struct sr_tl_row r;
	int rc;

	if (!s->h.row)
		return;
	s->pol->view(t->pt, &v);
	memset(&r, 0, sizeof(r));
	r.t = s->now;
	r.task = id;
	r.pid = t->pid;
	r.comm = comm_of(s, t);
	r.event = what;
	r.v = &v;
	r.prio = v.prio;
	r.demand = true;
	rc = s->h.row(s->h.ctx, &r);
	if (rc)
		fail(s, rc, "writing the timeline failed", id);
}

static void reach_block(struct sr_sim *s, uint32_t id, const struct sr_op *op)
{
	struct stask *t = &s->t[id];
	int64_t w;

	t->block = op->task;
	if (pend_take(t, op->task)) {
		/* the wake came before the sleep: no sleep at all */
		t->st.early_wakes++;
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
				t->st.late_wakeups++;
				skipped_row(s, id, "late");
				t->next_block = op->task + 1;
				set_op(s, id, t->op + 1);
				return;
			}
		} else {
			w = s->now + (op->b - op->a);
		}
		go_to_sleep(s, id, op);
		if (timer_push(s, w, id))
			fail(s, SR_EINTERNAL, "out of memory", id);
		break;
	case SR_BLOCK_OPEN:
		go_to_sleep(s, id, op);
		if (s->o.external == SR_EXTERNAL_RELATIVE) {
			if (s->nh == s->caph) {
				size_t cap = s->caph ? s->caph * 2 : 64;
				uint32_t *h = realloc(s->hlist,
						      cap * sizeof(*h));

				if (!h) {
					fail(s, SR_EINTERNAL, "out of memory",
					     id);
					return;
				}
				s->hlist = h;
				s->caph = cap;
			}
			s->hlist[s->nh++] = id;
			/* its wake may come as soon as the recording allows */
			w = s->now + (sr_demand_now(s->dm) - op->a);
			if (w < s->hz)
				s->hz = w;
		}
		break;
	case SR_BLOCK_CAUSAL:
		go_to_sleep(s, id, op);
		break;
	default: /* NEVER: asleep for good, its demand is done */
		go_to_sleep(s, id, op);
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

	if (!s->started || id >= s->nt)
		return;
	t = &s->t[id];
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
		else if (timer_push(s, w, id))
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
	struct stask *t = &s->t[id];
	const struct sr_dtask *dt = sr_demand_task(s->dm, id);
	struct sm_task *parent = NULL;

	if (dt && dt->parent != SR_TID_NONE && dt->parent < s->nt)
		parent = s->t[dt->parent].pt;
	if (s->pol->reap)
		s->pol->reap(s->rq, parent, t->pt);
	s->pol->task_free(s->rq, t->pt);
	t->pt = NULL;
	t->state = T_DONE;
	task_done(s, id, s->now);
}

static void do_schedule(struct sr_sim *s)
{
	uint32_t prev = s->cur, next;
	struct sm_task *np;
	int rc = SR_OK;

	np = s->pol->schedule(s->rq);
	next = np ? np->info.id : SR_TID_NONE;
	s->st.schedules++;
	if (next == prev)
		return;
	if (prev != SR_TID_NONE) {
		struct stask *p = &s->t[prev];

		rc = sr_acct_stop(s->acct, prev, s->now, p->state == T_READY);
		if (!rc && p->state == T_ZOMBIE) {
			rc = sr_acct_exit(s->acct, prev, s->now);
			reap(s, prev);
		}
	}
	if (!rc && next != SR_TID_NONE) {
		if (next >= s->nt || s->t[next].state != T_READY) {
			fail(s, SR_EINTERNAL, "the policy picked a task that "
			     "is not runnable", next);
			return;
		}
		rc = sr_acct_run(s->acct, next, s->now);
		s->busy_until = s->now + s->o.cs_cost_ns;
	}
	if (rc)
		fail(s, rc, "accounting failed", next);
	s->st.switches++;
	s->cur = next;
	s->charged_to = s->now;
}

/* ---- the current task's program ----------------------------------------- */

/* CPU the current task may use before its next op; *hard: that op is
 * known (else more input may show an op sooner). */
static int64_t avail(const struct sr_sim *s, uint32_t id, bool *hard)
{
	const struct stask *t = &s->t[id];
	const struct sr_op *op = sr_demand_op(s->dm, id, t->op);

	if (op) {
		*hard = true;
		return op->kind == SR_OP_RUN ? op->a - t->off : 0;
	}
	*hard = false;
	return sr_demand_open(s->dm, id) - t->off;
}

static void charge(struct sr_sim *s, int64_t to)
{
	int64_t from = s->charged_to > s->busy_until ? s->charged_to
						       : s->busy_until;

	if (s->cur != SR_TID_NONE && to > from) {
		struct stask *t = &s->t[s->cur];

		t->off += to - from;
		t->st.cpu_ns += to - from;
		s->progress_at = to;
	} else if (s->cur == SR_TID_NONE) {
		s->progress_at = to;
	}
	s->charged_to = to;
}

static int clamp_nice(int64_t n)
{
	return n < -20 ? -20 : n > 19 ? 19 : (int)n;
}

static void exec_op(struct sr_sim *s, uint32_t id, const struct sr_op *opp)
{
	struct sr_op op = *opp;
	struct stask *t = &s->t[id];
	int cls, rt;

	s->st.ops++;
	s->progress_at = s->now;
	switch (op.kind) {
	case SR_OP_WAKE:
		set_op(s, id, t->op + 1);
		causal_wake(s, op.task, (uint32_t)op.a, op.sync);
		break;
	case SR_OP_FORK:
		set_op(s, id, t->op + 1);
		fork_child(s, id, op.task);
		break;
	case SR_OP_COMM:
		set_op(s, id, t->op + 1);
		t->comm = op.task;
		break;
	case SR_OP_NICE:
		set_op(s, id, t->op + 1);
		s->pol->set_nice(s->rq, t->pt, clamp_nice(op.a));
		break;
	case SR_OP_SETSCHED:
		set_op(s, id, t->op + 1);
		cls = op.a == SR_SCHED_FIFO ? SM_SCHED_FIFO :
		      op.a == SR_SCHED_RR ? SM_SCHED_RR : SM_SCHED_NORMAL;
		rt = cls == SM_SCHED_NORMAL ? 0 :
		     op.b < 1 ? 1 : op.b > 99 ? 99 : (int)op.b;
		s->pol->setscheduler(s->rq, t->pt, cls, rt);
		break;
	case SR_OP_BLOCK:
		reach_block(s, id, &op);
		break;
	case SR_OP_EXIT:
		set_op(s, id, t->op + 1);
		t->state = T_ZOMBIE;
		s->nready--;
		s->pol->exit(s->rq, t->pt);
		break;
	case SR_OP_END:
		/* the trace ended: nothing more to run, asleep for good */
		set_op(s, id, t->op + 1);
		t->state = T_DONE;
		s->nready--;
		s->pol->block(s->rq, t->pt);
		task_done(s, id, s->now);
		break;
	default:
		fail(s, SR_EINTERNAL, "an unknown op", id);
		break;
	}
}

/*
 * Run the ops due now of whoever is current, acting on need_resched at
 * once.  0: done (current needs CPU time, or idle); 1: more input needed.
 */
static int run_ops(struct sr_sim *s)
{
	while (!s->err && s->cur != SR_TID_NONE && s->now >= s->busy_until) {
		uint32_t id = s->cur;
		struct stask *t = &s->t[id];
		const struct sr_op *op = sr_demand_op(s->dm, id, t->op);

		if (!op) {
			if (sr_demand_open(s->dm, id) > t->off)
				return 0;
			if (sr_demand_done(s->dm))
				fail(s, SR_EINTERNAL, "a program without an "
				     "end", id);
			return 1;
		}
		if (op->kind == SR_OP_RUN) {
			if (op->a > t->off)
				return 0;
			t->off -= op->a;
			t->op++;
			sr_demand_consumed(s->dm, s->cid, id, t->op);
			continue;
		}
		exec_op(s, id, op);
		if (s->rq->need_resched || s->t[id].state != T_READY)
			do_schedule(s);
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* External wakes and arrivals due now, in task-id order. */
static void wakes_due(struct sr_sim *s)
{
	const struct sr_arrival *a;

	s->ndue = 0;
	for (;;) {
		uint32_t id;

		if (s->nheap && s->heap[0].t <= s->now) {
			id = s->heap[0].id;
			timer_pop(s);
		} else if ((a = sr_demand_arrival(s->dm, s->arr)) &&
			   a->ts <= s->now) {
			id = a->task | 0x80000000u;
			s->arr++;
			sr_demand_arrivals_consumed(s->dm, s->cid, s->arr);
		} else {
			break;
		}
		if (s->ndue == s->capdue) {
			size_t cap = s->capdue ? s->capdue * 2 : 64;
			uint32_t *p = realloc(s->due, cap * sizeof(*p));

			if (!p) {
				fail(s, SR_EINTERNAL, "out of memory", id);
				return;
			}
			s->due = p;
			s->capdue = cap;
		}
		s->due[s->ndue++] = id;
	}
	if (s->ndue > 1)
		qsort(s->due, s->ndue, sizeof(*s->due), cmp_u32);
	for (size_t i = 0; i < s->ndue && !s->err; i++) {
		uint32_t id = s->due[i] & 0x7fffffffu;

		if (s->due[i] & 0x80000000u) {
			arrive(s, id);
			continue;
		}
		if (s->t[id].state == T_BLOCKED &&
		    s->t[id].blk == SR_BLOCK_EXTERNAL)
			wake_task(s, id, false);
	}
}

static int check(struct sr_sim *s)
{
	char why[200];

	if (s->cur == SR_TID_NONE && s->nready > 0) {
		fail(s, SR_EINTERNAL, "the CPU is idle while a task is "
		     "runnable", SR_TID_NONE);
		return -1;
	}
	/* progress: a busy CPU advances some task's demand; simulated time
	 * that passes without it (switches that cost every slice) would run
	 * forever and write without end */
	if (s->cur != SR_TID_NONE && s->now - s->progress_at > SR_PROGRESS_MAX) {
		fail(s, SR_EINTERNAL, "no progress: the CPU was busy for 1 s of "
		     "simulated time and no task's demand advanced",
		     SR_TID_NONE);
		return -1;
	}
	if (s->o.check && s->pol->check &&
	    s->pol->check(s->rq, why, sizeof(why))) {
		fail(s, SR_EINTERNAL, why, SR_TID_NONE);
		return -1;
	}
	return 0;
}

/* Continue the instant at s->now.  0: done; 1: more input needed. */
static int instant(struct sr_sim *s)
{
	switch (s->phase) {
	case PH_OPS1:
		if (run_ops(s))
			return 1;
		s->phase = PH_TICK;
		/* fall through */
	case PH_TICK:
		if (s->now % SR_NSEC_PER_JIFFY == 0 && s->now > s->last_tick) {
			s->last_tick = s->now;
			if (s->cur != SR_TID_NONE) {
				s->pol->tick(s->rq);
				s->st.ticks++;
			}
		}
		s->phase = PH_WAKES;
		/* fall through */
	case PH_WAKES:
		wakes_due(s);
		s->phase = PH_SCHED;
		/* fall through */
	case PH_SCHED:
		if (s->rq->need_resched)
			do_schedule(s);
		s->phase = PH_OPS2;
		/* fall through */
	case PH_OPS2:
		if (run_ops(s))
			return 1;
		s->phase = PH_NONE;
		check(s);
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
		struct stask *t = &s->t[s->hlist[i]];

		if (t->state != T_BLOCKED || t->blk != SR_BLOCK_OPEN) {
			s->hlist[i] = s->hlist[--s->nh];
			continue;
		}
		if (t->blocked_at + (r - t->rec_block) < h)
			h = t->blocked_at + (r - t->rec_block);
		i++;
	}
	return h;
}

static int the_end(struct sr_sim *s)
{
	for (size_t i = 0; i < s->nt; i++) {
		if (s->t[i].st.born && !s->t[i].st.done) {
			fail(s, SR_EINTERNAL, s->t[i].state == T_BLOCKED ?
			     "a task still waits for its wake at the end" :
			     "a task did not finish its demand", (uint32_t)i);
			return -1;
		}
	}
	s->finished = true;
	s->st.end = s->now;
	return 0;
}

int sr_sim_advance(struct sr_sim *s, struct sr_diag *d)
{
	bool eof = sr_demand_done(s->dm);

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
	while (!s->err) {
		int64_t t = INT64_MAX, run_end = INT64_MAX;
		const struct sr_arrival *a;
		bool hard = true;

		if (s->phase != PH_NONE) {
			if (instant(s))
				break;
			continue;
		}
		if (s->cur != SR_TID_NONE) {
			int64_t from = s->now > s->busy_until ? s->now
							      : s->busy_until;

			run_end = from + avail(s, s->cur, &hard);
			if (hard)
				t = run_end;
			/* next tick: the next jiffy boundary after now */
			int64_t tick = (floor_div(s->now, SR_NSEC_PER_JIFFY) +
					1) * SR_NSEC_PER_JIFFY;
			if (tick < t)
				t = tick;
		}
		if (s->nheap && s->heap[0].t < t)
			t = s->heap[0].t;
		if ((a = sr_demand_arrival(s->dm, s->arr)) && a->ts < t)
			t = a->ts;
		if (!hard && run_end <= t) {
			if (eof)
				fail(s, SR_EINTERNAL, "a program without an "
				     "end", s->cur);
			break;          /* the running task's next op: wait */
		}
		if (t == INT64_MAX) {
			if (eof)
				the_end(s);
			break;
		}
		if (t >= s->hz)
			break;          /* something not read yet may come first */
		charge(s, t);
		s->now = t;
		sm_rq_set_jiffies(s->rq, jiffies_at(s, t));
		s->st.instants++;
		s->phase = PH_OPS1;
	}
	s->st.events = s->st.ticks + s->st.ops + s->st.wakes +
		       s->st.schedules;
	if (s->err)
		return sr_fail(d, s->err, "replay under %s: %s", s->pol->name,
			       s->errmsg);
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
			       s->pol->name);
	if (sr_acct_finish(s->acct, s->st.end, d))
		return d->code;
	for (size_t i = 0; i < s->nt; i++) {
		if (!s->t[i].st.born)
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
	return id < s->nt && s->t[id].st.born ? &s->t[id].st : NULL;
}

void sr_sim_stats(const struct sr_sim *s, struct sr_sim_stats *st)
{
	*st = s->st;
	st->events = s->st.ticks + s->st.ops + s->st.wakes + s->st.schedules;
}

const char *sr_sim_comm(const struct sr_sim *s, uint32_t id)
{
	return id < s->nt ? comm_of(s, &s->t[id]) : "";
}

int32_t sr_sim_pid(const struct sr_sim *s, uint32_t id)
{
	return id < s->nt ? s->t[id].pid : -1;
}

const char *sr_sim_policy_name(const struct sr_sim *s)
{
	return s->pol->name;
}
