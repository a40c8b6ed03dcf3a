/*
 * sim: the event loop that replays the demand through one policy on one or
 * more CPUs.  Owns time (integer ns), the ticks, the CPUs (what each runs,
 * its time), each task's place in its program and its CPU, the load
 * balancer's calls (sched-model/balance.h) and the order of things at one
 * instant (docs/replay.md, "The simulator"); the policy owns priorities
 * and queues.  Its parts (replay/sim-int.h): the run-end heap
 * (sim-heap.c), the external-wake timers and kicks (sim-timer.c), the
 * attribution of waits (sim-why.c), the invariant checks (sim-check.c).
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
#include "replay/sim-int.h"

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

void sim_fail(struct sr_sim *s, int code, const char *msg, uint32_t id)
{
	if (s->err)
		return;
	s->err = code;
	snprintf(s->errmsg, sizeof(s->errmsg), "%s (task %u at %lld ns)",
		 msg, id, (long long)s->now);
}

/* A status of the accounting (replay/metrics.h), said as it says it. */
static void acct_failed(struct sr_sim *s, int rc, uint32_t id)
{
	const char *why = sr_acct_error(s->acct);
	char msg[200];

	snprintf(msg, sizeof(msg), "accounting: %s", why ? why :
		 rc == SR_ENOMEM ? "out of memory" : "failed");
	sim_fail(s, rc, msg, id);
}

/* The --rt prio of a task named comm (0: none); a name pcre2 cannot
 * decide on fails the run (an error, not a mismatch) and gives 0. */
static int rt_rule(struct sr_sim *s, const char *comm)
{
	char why[sizeof(s->errmsg)];
	int prio = sr_rtrules_match(s->o.rt, comm, why, sizeof(why));

	if (prio >= 0)
		return prio;
	if (!s->err) {
		s->err = SR_EUSAGE;
		snprintf(s->errmsg, sizeof(s->errmsg), "%s", why);
	}
	return 0;
}

/* An event of the run as a trace (sr_sim_hooks.event). */
static void trace_ev(struct sr_sim *s, uint8_t kind, int cpu, uint32_t task,
		     uint32_t other, const struct sr_event *more)
{
	struct sr_event ev;
	int rc;

	if (!s->h.event)
		return;
	if (more)
		ev = *more;
	else
		memset(&ev, 0, sizeof(ev));
	ev.ts = s->now;
	ev.cpu = cpu;
	ev.kind = kind;
	ev.task = task;
	ev.other = other;
	if (!more) {
		ev.waker = SR_TID_NONE;
		ev.target_cpu = ev.orig_cpu = -1;
	}
	/* no prio in the events (a dynamic prio would read as a nice
	   change), but a policy change's rt priority */
	ev.prio = kind == SR_EV_SETSCHED && more ? more->prio : -1;
	ev.other_prio = -1;
	if ((rc = s->h.event(s->h.ctx, &ev)))
		sim_fail(s, rc, "writing the run as a trace failed", task);
}

/* A wakeup of task onto CPU target: by the task current on CPU waker,
   or (waker < 0) by src on the target itself. */
static void trace_wake(struct sr_sim *s, uint8_t kind, uint32_t task,
		       int target, int waker, int src, bool sync)
{
	struct sr_event ev;

	if (!s->h.event)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.wsrc = (uint8_t)(waker >= 0 ? SR_WS_TASK : src);
	ev.waker = waker >= 0 ? s->cpu[waker].cur : SR_TID_NONE;
	ev.sync = sync;
	ev.target_cpu = target;
	ev.orig_cpu = -1;
	trace_ev(s, kind, waker >= 0 ? waker : target, task, SR_TID_NONE,
		 &ev);
}

const char *const sr_early_names[] = {
	[SR_EARLY_REQUEUE] = "requeue", [SR_EARLY_SKIP] = "skip", NULL,
};

const char *const sr_external_names[] = {
	[SR_EXTERNAL_ABSOLUTE] = "absolute", [SR_EXTERNAL_RELATIVE] = "relative",
	NULL,
};

/* A policy call on CPU c's runqueue may have set its need_resched (a
 * wake's, while its cost runs, waits for the kick). */
static void mark(struct sr_sim *s, int c)
{
	if (s->cpu[c].rq->need_resched && s->cpu[c].kick_at <= s->now)
		bit_set(s->resched, c);
	bit_set(s->touched, c);
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
		sim_fail(s, rc, rc == SR_ENOMEM ? "out of memory (a timeline "
			 "row)" : "writing the timeline failed", id);
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
			sim_wlist_del(s, id);
			sim_wlist_add(s, id, rq->cpu);
		}
		/* set_task_cpu: pulled, or woken elsewhere */
		if (t->cpu >= 0) {
			s->sum[id].migrations++;
			s->st.migrations++;
			if (s->h.event) {
				struct sr_event ev = {
					.waker = SR_TID_NONE,
					.target_cpu = rq->cpu,
					.orig_cpu = t->cpu,
				};

				trace_ev(s, SR_EV_MIGRATE, rq->cpu, id,
					 SR_TID_NONE, &ev);
			}
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
		return sr_oom(d);
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
	sr_prng_seed(&s->wake_rng, sr_prng_mix(0, sr_prng_name("wake-cost")));
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
		return d->code ? d->code : sr_fail(d, SR_ENOMEM,
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
		return SR_ENOMEM;
	s->tch = c;
	f = sr_grow(s->tfree, &s->captfree, TCH - 1 + s->ntch * TCH,
		    sizeof(*f), TCH, 0);
	if (!f)
		return SR_ENOMEM;
	s->tfree = f;
	if (!(chunk = malloc(TCH * sizeof(*chunk))))
		return SR_ENOMEM;
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
			return SR_ENOMEM;
		s->tslot = x;
		cap = s->capid;
		u = sr_grow(s->sum, &cap, n - 1, sizeof(*u), 256, 0);
		if (!u)
			return SR_ENOMEM;
		s->sum = u;
		s->capid = cap;
	}
	while (s->nt < n) {
		struct stask *t;

		if (slot_new(s, &s->tslot[s->nt]))
			return SR_ENOMEM;
		t = tk(s, (uint32_t)s->nt++);
		memset(t, 0, sizeof(*t));
		t->last_prio = -1;
		t->cpu = -1;
		t->pin = -1;
		t->wcpu = -1;
	}
	/* a policy whose queues grow: room for every task now, so that
	   queueing one never runs out of memory half-way (policy.h) */
	for (int c = 0; s->pol->reserve && c < s->ncpu && s->cpu[c].rq; c++)
		if (s->pol->reserve(s->cpu[c].rq, s->nt))
			return SR_ENOMEM;
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
			return sr_oom(d);
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
			return sr_oom(d);
		for (int c = 0; c < s->ncpu; c++)
			rqs[c] = s->cpu[c].rq;
		rc = s->bops->create(&s->bal, s->pol, rqs, s->ncpu,
				     s->cache_decay_ticks, &bh);
		free(rqs);
		if (rc)
			return sr_oom(d);
	}
	s->st.start = s->start;
	s->st.end = s->start;
	s->st.cpus = s->ncpu;
	s->st.hz = s->tick_hz;
	s->st.hz_from = (int)s->hz_from;
	s->started = true;
	return SR_OK;
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
	t->rt_forced = (int8_t)rt_rule(s,
				       sr_demand_comm(s->dm, dt->comm));
	if (t->rt_forced) {
		/* --rt: SCHED_RR from birth */
		info->policy = SM_SCHED_RR;
		info->rt_priority = t->rt_forced;
	}
	info->has_mm = dt->has_mm;
	info->mm = dt->has_mm ? dt->tgid : 0;
	info->group = dt->group;
	/* tasks alive at the start may be warmed up; forks inherit */
	info->init_sleep_pct = dt->forked ? 0 : s->o.init_sleep_pct;
}

/* Where task id may run on this replay: the CPU its name pins it to (a
 * per-CPU kernel thread), else its affinity: as the recording's context
 * read it (ctx_pin, when it did), else inferred from the recording
 * (--affinity) or inherited from its parent; -1: any. */
static void pin_of(struct sr_sim *s, struct stask *t, uint32_t id,
		   int32_t parent_pin, int32_t ctx_pin)
{
	int32_t c = sr_pinned_cpu(comm_of(s, t));

	t->pin_aff = 0;
	t->pin_ctx = 0;
	if (s->ncpu < 2) {
		t->pin = -1;
		return;
	}
	if (c >= 0) {
		t->pin = sr_fold_cpu(c, s->ncpu);
		return;
	}
	if (s->o.ctx_affinity && ctx_pin != SR_PIN_UNKNOWN) {
		t->pin_ctx = 1;
		t->pin = ctx_pin < 0 ? -1 : sr_fold_cpu(ctx_pin, s->ncpu);
		t->pin_aff = ctx_pin >= 0;
		return;
	}
	c = s->o.infer_affinity ? sr_calib_pinned(s->o.calib, id,
						  s->o.infer_busy) : -1;
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
		sim_fail(s, SR_EINTERNAL, "a task born unknown to the demand", id);
		return NULL;
	}
	if (s->sum[id].born) { /* (gone, if it was reaped) */
		sim_fail(s, SR_EINTERNAL, "a task born twice", id);
		return NULL;
	}
	t = tk(s, id);
	s->sum[id].born = true;
	t->pid = dt->pid;
	t->comm = dt->comm;
	t->op = 0;
	t->off = 0;
	pin_of(s, t, id, -1, dt->ctx_pin);
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
		acct_failed(s, rc, id);
	sim_wait_open(s, id);
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
		sim_fail(s, SR_ENOMEM, "out of memory", id);
		return;
	}
	s->pol->wake(s->cpu[c].rq, t->pt, false);
	trace_wake(s, SR_EV_WAKEUP, id, c, -1, SR_WS_UNKNOWN, false);
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
	int want = rt_rule(s, comm_of(s, t));

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
	bool away;

	if (!t)
		return;
	info_of(s, dt, &info);
	trace_ev(s, SR_EV_FORK, c, parent, child, NULL);
	/* a child the context pins to another CPU than its parent's starts
	   there (wake_up_new_task picks an allowed CPU): forked stopped,
	   then woken onto its CPU */
	away = t->pin >= 0 && t->pin != c;
	t->pt = s->pol->fork(s->cpu[c].rq, p->pt, &info,
			     away ? SM_FORK_STOPPED : 0);
	if (!t->pt) {
		sim_fail(s, SR_ENOMEM, "out of memory", child);
		return;
	}
	mark(s, c);
	if (away) {
		/* where it starts is not a migration (the kernel's
		   wake_up_new_task sets its cpu without one) */
		t->cpu = -1;
		s->pol->wake(s->cpu[t->pin].rq, t->pt, 0);
		mark(s, t->pin);
	}
	trace_wake(s, SR_EV_WAKEUP_NEW, child, t->cpu >= 0 ? t->cpu : c, c,
		   SR_WS_TASK, false);
	/* a pinned parent's child is pinned too (dup_task_struct copies
	   the CPU mask) */
	if (p->pin_aff && t->pin < 0 && !t->pin_ctx)
		pin_of(s, t, child, p->pin, SR_PIN_UNKNOWN);
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
	trace_wake(s, SR_EV_WAKEUP, id, c, waker, SR_WS_HARDIRQ,
		   flags & SM_WAKE_SYNC);
	sim_kick_later(s, c, idle, waker >= 0 ? waker != c : remote);
	mark(s, c);
	make_ready(s, id, SR_CAUSE_WAKEUP);
}

static int pend_add(struct stask *t, uint32_t block, int waker, bool sync)
{
	if (t->npend == t->cappend) {
		size_t cap = t->cappend;	/* uint32_t in the task */
		struct pend *p;

		if (cap >= UINT32_MAX / 2)
			return SR_ENOMEM;
		p = sr_grow(t->pend, &cap, t->npend, sizeof(*p), 2, 0);
		if (!p)
			return SR_ENOMEM;
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
		sim_fail(s, SR_EINTERNAL, "a wake of an unknown task", id);
		return;
	}
	if (gone(s, id)) {
		sim_fail(s, SR_EINTERNAL, "a causal wake for a block already "
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
			sim_fail(s, SR_ENOMEM, "out of memory", id);
	} else {
		sim_fail(s, SR_EINTERNAL, "a causal wake for a block already "
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
			if (sim_timer_push(s, s->now, 0, id))
				sim_fail(s, SR_ENOMEM, "out of memory", id);
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
		if (sim_timer_push(s, w, op->seq, id))
			sim_fail(s, SR_ENOMEM, "out of memory", id);
		break;
	case SR_BLOCK_OPEN:
		go_to_sleep(s, c, id, op);
		if (s->o.external == SR_EXTERNAL_RELATIVE) {
			uint32_t *h = sr_grow(s->hlist, &s->caph, s->nh,
					      sizeof(*h), 64, 0);

			if (!h) {
				sim_fail(s, SR_ENOMEM, "out of memory", id);
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
			sim_fail(s, SR_EINTERNAL, "a wake resolved in the past", id);
		else if (sim_timer_push(s, w, op->seq, id))
			sim_fail(s, SR_ENOMEM, "out of memory", id);
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
			sim_fail(s, SR_ENOMEM, "out of memory", id);
			return;
		}
		s->reaped = v;
		s->reaped[s->nreaped++] = id;
	}
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
	sim_kick_done(s, c);
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
			sim_wait_open(s, prev);
		}
	}
	if (!rc && next != SR_TID_NONE) {
		struct stask *n = next < s->nt && !gone(s, next) ?
				  tk(s, next) : NULL;

		if (!n || n->state != T_READY) {
			sim_fail(s, SR_EINTERNAL, "the policy picked a task that "
			     "is not runnable", next);
			return;
		}
		sim_wait_close(s, next);
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
		acct_failed(s, rc, next);
	if (s->h.event) {
		struct sr_event ev = { .waker = SR_TID_NONE, .target_cpu = -1,
				       .orig_cpu = -1 };
		const struct stask *p = prev == SR_TID_NONE || gone(s, prev) ?
					NULL : tk(s, prev);

		ev.prev_state = prev == SR_TID_NONE || (p && p->state == T_READY)
				? SR_STATE_RUNNING
				: !p || p->state == T_ZOMBIE || p->pt == NULL
				? SR_STATE_DEAD : SR_STATE_SLEEPING;
		trace_ev(s, SR_EV_SWITCH, c, prev, next, &ev);
	}
	s->st.switches++;
	k->switches++;
	s->nbusy += (next != SR_TID_NONE) - (prev != SR_TID_NONE);
	k->cur = next;
	if (next == SR_TID_NONE && s->bal && s->o.check &&
	    s->bops->idle_pull_check)
		sim_check_idle_pull(s, c);
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
		/* the context's reading after the exec; without one, a
		   pin the context gave stays */
		if (op.b != SR_PIN_UNKNOWN || !t->pin_ctx)
			pin_of(s, t, id, t->pin_aff ? t->pin : -1,
			       (int32_t)op.b);
		break;
	case SR_OP_NICE:
		set_op(s, id, t->op + 1);
		s->pol->set_nice(rq, t->pt, clamp_nice(op.a));
		if (s->h.event) {
			struct sr_event ev = { .waker = SR_TID_NONE,
					       .target_cpu = -1, .orig_cpu = -1,
					       .value = clamp_nice(op.a) };

			trace_ev(s, SR_EV_NICE, c, id, SR_TID_NONE, &ev);
		}
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
		if (s->h.event) {
			struct sr_event ev = { .waker = SR_TID_NONE,
					       .target_cpu = -1, .orig_cpu = -1,
					       .value = cls == SM_SCHED_FIFO ?
					       SR_SCHED_FIFO : cls ==
					       SM_SCHED_RR ? SR_SCHED_RR :
					       SR_SCHED_NORMAL,
					       .prio = (int16_t)rt };

			trace_ev(s, SR_EV_SETSCHED, c, id, SR_TID_NONE, &ev);
		}
		break;
	case SR_OP_BLOCK:
		reach_block(s, c, id, &op);
		break;
	case SR_OP_EXIT:
		set_op(s, id, t->op + 1);
		trace_ev(s, SR_EV_EXIT, c, id, SR_TID_NONE, NULL);
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
		sim_fail(s, SR_EINTERNAL, "an unknown op", id);
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
	if (!op && s->h.need && sr_demand_open(s->dm, id) <= t->off &&
	    !sr_demand_done(s->dm)) {
		/* a synthetic program: its next step is decided now */
		int rc = s->h.need(s->h.ctx, id);

		if (rc) {
			sim_fail(s, rc, "a synthetic program failed", id);
			return OPS_NONE;
		}
		/* the tasks it forked (their slots never move t) */
		if (grow_tasks(s, sr_demand_ntasks(s->dm))) {
			sim_fail(s, SR_ENOMEM, "out of memory", id);
			return OPS_NONE;
		}
		op = sr_demand_op(s->dm, id, t->op);
	}
	if (!op) {
		if (sr_demand_open(s->dm, id) > t->off)
			return OPS_NONE;
		if (sr_demand_done(s->dm)) {
			sim_fail(s, SR_EINTERNAL, "a program without an end", id);
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
		if (s->bops->nomem && s->bops->nomem(s->bal))
			sim_fail(s, SR_ENOMEM, "out of memory (the load "
				 "balancer)", SR_TID_NONE);
		mark(s, c);
		if (!pulled && s->cpu[c].cur == SR_TID_NONE && s->o.check &&
		    s->bops->idle_pull_check)
			sim_check_idle_pull(s, c);
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

		sim_timer_pop(s);
		if (id & KICK_TIMER) {
			int c = (int)(id & ~KICK_TIMER);

			if (s->cpu[c].kick_at == when) {
				sim_kick_done(s, c);
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
static void end_instant(struct sr_sim *s)
{
	sim_check(s);
	if (s->why_on)
		sim_attribute(s);
	for (size_t w = 0; w < s->nw; w++) {
		for (uint64_t m = s->touched[w]; m; m &= m - 1)
			sim_rh_update(s, (uint32_t)(w * 64) +
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
		return sr_oom(d);
	s->hz = sim_horizon(s);
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
					sim_rh_update(s, (uint32_t)c);
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
				sim_fail(s, SR_EINTERNAL, "a program without an "
				     "end", top->cur);
			break;          /* a running task's next op: wait */
		}
		if (t == INT64_MAX) {
			if (eof)
				sim_the_end(s);
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
		sim_due_cpus(s, t); /* whose current reaches its next op now */
		s->phase = PH_OPS1;
	}
	s->st.events = s->st.ticks + s->st.ops + s->st.wakes +
		       s->st.schedules;
	if (s->err)
		return sr_fail(d, s->err, "replay under %s: %s",
			       sim_policy_name(s), s->errmsg);
	return SR_OK;
}

int64_t sr_sim_now(const struct sr_sim *s)
{
	return s->now;
}

int64_t sr_sim_cpu_ns(const struct sr_sim *s, uint32_t id)
{
	const struct stask *t;
	const struct scpu *k;
	int64_t from;

	if (id >= s->nt)
		return 0;
	if (gone(s, id))
		return s->sum[id].cpu_ns;
	t = tk(s, id);
	if (t->cpu < 0 || t->cpu >= s->ncpu || s->cpu[t->cpu].cur != id)
		return s->sum[id].cpu_ns;
	k = &s->cpu[t->cpu];
	from = k->charged_to > k->busy_until ? k->charged_to : k->busy_until;
	return s->sum[id].cpu_ns + (s->now > from ? s->now - from : 0);
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
	if (s->bal && s->bops->nomem && s->bops->nomem(s->bal))
		return sr_fail(d, SR_ENOMEM, "replay under %s: out of memory "
			       "(the load balancer)", sim_policy_name(s));
	if (sr_acct_finish(s->acct, s->st.end, d))
		return d->code;
	for (size_t i = 0; i < s->nt; i++) {
		if (!s->sum[i].born)
			continue;
		if (sr_acct_name(s->acct, (uint32_t)i,
				 sr_demand_last_pid(s->dm, (uint32_t)i),
				 sr_demand_last_comm(s->dm, (uint32_t)i)))
			return sr_oom(d);
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

const char *sr_sim_name(const struct sr_sim *s, uint32_t comm)
{
	return sr_demand_comm(s->dm, comm);
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
