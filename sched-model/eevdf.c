/*
 * eevdf: the fair class of Linux 6.6 (Peter Zijlstra's EEVDF, replacing
 * CFS's pick in 2023), as a documented simplified model (fair.h says what
 * is left out).  From 6.6's kernel/sched/fair.c:
 *  - vruntime advances by run time weighted by NICE_0_LOAD / weight (the
 *    6.6 fixed point, __calc_delta);
 *  - V, the queue's weighted average vruntime (avg_vruntime, the running
 *    entity included); an entity is eligible when its vruntime is at or
 *    below V (entity_eligible: lag >= 0);
 *  - each entity asks for a slice (sysctl_sched_base_slice) and has a
 *    virtual deadline = vruntime + slice * NICE_0_LOAD / weight; when its
 *    vruntime reaches the deadline (update_deadline, at every update of
 *    the running entity) it gets a new one and, with others queued, the
 *    CPU is rescheduled;
 *  - pick: the eligible entity with the earliest deadline (pick_eevdf);
 *    RUN_TO_PARITY: the running entity keeps the CPU while eligible
 *    until its slice is used (its deadline still the one it was picked
 *    with);
 *  - lag: at dequeue vlag = V - vruntime, clamped to the weighted
 *    max(2 * slice, one tick); at every enqueue the entity is placed at
 *    V - vlag (PLACE_LAG, scaled up for the weight it adds), deadline one
 *    vslice on; a new task has vlag 0; a sleeper keeps its lag however
 *    long it sleeps (6.6 had no decay);
 *  - a wakeup preempts when the woken entity is what pick_eevdf would
 *    choose now; yield pushes the deadline one vslice on.
 * 6.6's PLACE_DEADLINE_INITIAL halving does not survive the enqueue that
 * follows the fork (fixed only in 6.7): a child gets a whole vslice.
 * base_slice defaults to 3 ms, 6.6's value on 8 or more CPUs (0.75 ms
 * times 1 + log2(min(cpus, 8))).
 */
#include "sched-model/fair.h"

extern const struct sm_policy sm_policy_eevdf;

#define K(rq)			((rq)->rules->k)
#define sysctl_sched_base_slice \
	fair_scaled(rq, K(rq).sched_base_slice_ns, FAIR_SCALE_BASE_SLICE)
#define TICK_NSEC		sm_tick_nsec(&rq->base)

static int64_t vdiff(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b);
}

static uint64_t calc_delta_fair(uint64_t delta, const struct fair_task *p)
{
	return fair_calc_delta_fair66(delta, p);
}

/* Σ (v - min_vruntime) * w and Σ w over the queue and a running entity
   that is on it (avg_vruntime's running sums, recomputed). */
static void sums(const struct fair_rq *rq, int64_t *avg, int64_t *load)
{
	const struct fair_task *curr = rq->curr_se;

	/* the sum over q of (vruntime - min_vruntime) x weight, from the
	   sums fair.c keeps: sum(v x w) - min_vruntime x sum(w), the same
	   value mod 2^64 as the walk of q, and so the same int64 */
	*avg = (int64_t)(rq->q_vw - rq->min_vruntime * rq->q_w);
	*load = (int64_t)rq->q_w;
	if (curr && curr->on_rq) {
		*avg += vdiff(curr->vruntime, rq->min_vruntime) *
			(int64_t)curr->weight;
		*load += (int64_t)curr->weight;
	}
}

static uint64_t avg_vruntime(const struct fair_rq *rq)
{
	int64_t avg, load;

	sums(rq, &avg, &load);
	if (load) {
		/* sign flips effective floor / ceil */
		if (avg < 0)
			avg -= load - 1;
		avg /= load;
	}
	return rq->min_vruntime + (uint64_t)avg;
}

/* entity_eligible, with the sums given: lag >= 0, i.e. v <= V */
static bool eligible(const struct fair_rq *rq, int64_t avg, int64_t load,
		     const struct fair_task *p)
{
	return avg >= vdiff(p->vruntime, rq->min_vruntime) * load;
}

static void update_min_vruntime(struct fair_rq *rq)
{
	struct fair_task *first = fair_q_first(rq), *curr = rq->curr_se;
	uint64_t vruntime = rq->min_vruntime;

	if (curr && !curr->on_rq)
		curr = NULL;
	if (curr)
		vruntime = curr->vruntime;
	if (first) {
		if (!curr || vdiff(first->vruntime, vruntime) < 0)
			vruntime = first->vruntime;
	}
	/* never backwards */
	if (vdiff(vruntime, rq->min_vruntime) > 0)
		rq->min_vruntime = vruntime;
}

/* The slice is used: a new request, and the CPU to the next deadline. */
static bool update_deadline(struct fair_rq *rq, struct fair_task *p)
{
	if (vdiff(p->vruntime, p->deadline) < 0)
		return false;
	p->slice = sysctl_sched_base_slice;
	p->deadline = p->vruntime + calc_delta_fair(p->slice, p);
	return true;
}

/* RUN_TO_PARITY's protection of the running entity: 6.6 stashes the
   deadline it was picked with in vlag; 6.17 keeps vprot, the vruntime it
   may run to (protect_slice). */
static bool protect_slice(const struct fair_rq *rq, const struct fair_task *p)
{
	if (rq->rules->cls->eevdf_617)
		return vdiff(p->vprot, p->vruntime) > 0;
	return p->vlag == (int64_t)p->deadline;
}

static void update_curr(struct fair_rq *rq)
{
	struct fair_task *curr = rq->curr_se;
	uint64_t now = fair_now(rq);
	int64_t delta_exec;
	bool resched;

	if (!curr)
		return;
	delta_exec = (int64_t)(now - curr->exec_start);
	if (delta_exec <= 0)
		return;
	curr->exec_start = now;
	curr->sum_exec_runtime += (uint64_t)delta_exec;
	curr->vruntime += calc_delta_fair((uint64_t)delta_exec, curr);
	resched = update_deadline(rq, curr);
	update_min_vruntime(rq);
	if (rq->cfs_nr_running < 2)
		return;
	/* 6.6: the slice used; 6.17: also the protected run over */
	if (resched || (rq->rules->cls->eevdf_617 && !protect_slice(rq, curr))) {
		fair_resched(rq);
		if (resched)
			fair_note(curr, SM_CH_EXPIRE);
	}
}

/* place_entity: V less the lag kept, scaled for the weight it adds; a
   deadline one vslice on (half of one for a new task under
   PLACE_DEADLINE_INITIAL), or the relative one it kept (PLACE_REL_
   DEADLINE, a move that was not a sleep). */
static void place_entity(struct fair_rq *rq, struct fair_task *p,
			 unsigned fl)
{
	uint64_t vslice, vruntime = avg_vruntime(rq);
	int64_t lag = 0;

	p->slice = sysctl_sched_base_slice;
	vslice = calc_delta_fair(p->slice, p);
	if (K(rq).place_lag && rq->cfs_nr_running) {
		int64_t avg, load;

		sums(rq, &avg, &load);
		lag = p->vlag;
		lag *= load + (int64_t)p->weight;
		if (!load)
			load = 1;
		lag /= load;
	}
	p->vruntime = vruntime - (uint64_t)lag;
	if (K(rq).place_rel_deadline && p->rel_deadline) {
		p->deadline += p->vruntime;
		p->rel_deadline = false;
		return;
	}
	if (K(rq).place_deadline_initial && (fl & FAIR_INITIAL))
		vslice /= 2;
	p->deadline = p->vruntime + vslice;
}

/* the largest request of the queue and its running entity (6.17's
   cfs_rq_max_slice) */
static uint64_t max_slice(const struct fair_rq *rq)
{
	uint64_t m = rq->curr_se && rq->curr_se->on_rq ? rq->curr_se->slice : 0;

	for (size_t i = 0; i < rq->nq; i++)
		if (rq->q[i]->slice > m)
			m = rq->q[i]->slice;
	return m;
}

static void update_entity_lag(struct fair_rq *rq, struct fair_task *p)
{
	int64_t lag = vdiff(avg_vruntime(rq), p->vruntime);
	uint64_t span = 2 * p->slice > TICK_NSEC ? 2 * p->slice : TICK_NSEC;
	int64_t limit;

	if (rq->rules->cls->eevdf_617)
		span = max_slice(rq) + TICK_NSEC;
	limit = (int64_t)calc_delta_fair(span, p);

	p->vlag = lag < -limit ? -limit : lag > limit ? limit : lag;
}

/* enqueue_entity: every enqueue places the entity (6.6). */
static void enqueue(struct fair_rq *rq, struct fair_task *p, unsigned fl)
{
	bool curr = rq->curr_se == p;

	if (curr)
		place_entity(rq, p, fl);
	update_curr(rq);
	if (!curr)
		place_entity(rq, p, fl);
	rq->load_weight += p->weight;
	rq->cfs_nr_running++;
	if (!curr)
		fair_q_add(rq, p);
	p->on_rq = true;
}

/*
 * dequeue_entity: a task going to sleep that is not eligible stays queued,
 * delayed (DELAY_DEQUEUE, 6.12): it keeps competing with its negative lag
 * until a pick takes it (it leaves then) or a wake requeues it; else it
 * leaves with its lag (clamped), and a move that is not a sleep keeps its
 * deadline relative (PLACE_REL_DEADLINE).  A delayed entity leaving at
 * last loses any positive lag (DELAY_ZERO).
 */
static bool dequeue(struct fair_rq *rq, struct fair_task *p, unsigned fl)
{
	bool was_delayed = p->delayed;

	update_curr(rq);
	if (!was_delayed && K(rq).delay_dequeue && (fl & FAIR_SLEEP)) {
		int64_t avg, load;

		sums(rq, &avg, &load);
		if (!eligible(rq, avg, load, p)) {
			p->delayed = true;
			rq->nr_delayed++;
			return false;
		}
	}
	update_entity_lag(rq, p);
	if (K(rq).place_rel_deadline && !(fl & FAIR_SLEEP) && !was_delayed) {
		p->deadline -= p->vruntime;
		p->rel_deadline = true;
	}
	if (p != rq->curr_se)
		fair_q_del(rq, p);
	p->on_rq = false;
	rq->load_weight -= p->weight;
	rq->cfs_nr_running--;
	update_min_vruntime(rq);
	if (was_delayed) {
		p->delayed = false;
		rq->nr_delayed--;
		if (K(rq).delay_zero && p->vlag > 0)
			p->vlag = 0;
	}
	return true;
}

/* requeue_delayed_entity: woken while still queued; under DELAY_ZERO an
   entity that is owed service now is placed again with none. */
static void requeue(struct fair_rq *rq, struct fair_task *p)
{
	update_curr(rq);
	if (K(rq).delay_zero) {
		update_entity_lag(rq, p);
		if (p->vlag > 0) {
			rq->cfs_nr_running--;
			if (p != rq->curr_se)
				fair_q_del(rq, p);
			p->vlag = 0;
			place_entity(rq, p, 0);
			if (p != rq->curr_se)
				fair_q_add(rq, p);
			rq->cfs_nr_running++;
		}
	}
	p->delayed = false;
	rq->nr_delayed--;
}

static bool deadline_gt(const struct fair_task *a, const struct fair_task *b)
{
	return vdiff(a->deadline, b->deadline) > 0;
}

/*
 * pick_eevdf: the eligible entity with the earliest deadline (ties: the
 * smaller vruntime, then the first queued), the running one if it is
 * eligible and still on its first slice (RUN_TO_PARITY), or not later.
 */
static struct fair_task *pick_eevdf(const struct fair_rq *rq)
{
	struct fair_task *curr = rq->curr_se, *best = NULL;
	int64_t avg, load;

	sums(rq, &avg, &load);
	if (curr && (!curr->on_rq || !eligible(rq, avg, load, curr)))
		curr = NULL;
	if (rq->rules->cls->eevdf_617 && rq->cfs_nr_running == 1)
		return curr ? curr : fair_q_first(rq);
	if (K(rq).run_to_parity && curr && protect_slice(rq, curr))
		return curr;
	for (size_t i = 0; i < rq->nq; i++) {
		struct fair_task *p = rq->q[i];

		if (!eligible(rq, avg, load, p))
			continue;
		if (!best || deadline_gt(best, p) ||
		    (p->deadline == best->deadline &&
		     (vdiff(p->vruntime, best->vruntime) < 0 ||
		      (p->vruntime == best->vruntime && p->seq < best->seq))))
			best = p;
	}
	if (!best || (curr && deadline_gt(best, curr)))
		best = curr;
	if (!best)
		best = fair_q_first(rq);	/* rounding left none eligible */
	return best;
}

/* the smallest request of the queue and its running entity */
static uint64_t min_slice(const struct fair_rq *rq)
{
	uint64_t m = rq->curr_se && rq->curr_se->on_rq ? rq->curr_se->slice
						       : UINT64_MAX;

	for (size_t i = 0; i < rq->nq; i++)
		if (rq->q[i]->slice < m)
			m = rq->q[i]->slice;
	return m;
}

static void set_next_entity(struct fair_rq *rq, struct fair_task *p)
{
	if (rq->rules->cls->eevdf_617) {
		/* set_protect_slice: to its deadline, or less when a shorter
		   request waits (RUN_TO_PARITY), or the least quantum */
		uint64_t s = K(rq).run_to_parity ? min_slice(rq)
			     : (uint64_t)K(rq).sched_base_slice_ns;

		p->vprot = p->deadline;
		if (s > p->slice)
			s = p->slice;
		if (s != p->slice &&
		    vdiff(p->vruntime + calc_delta_fair(s, p), p->vprot) < 0)
			p->vprot = p->vruntime + calc_delta_fair(s, p);
	} else {
		/* the kernel's HACK: the deadline at the pick, kept in vlag
		   until the dequeue, is what RUN_TO_PARITY tests */
		p->vlag = (int64_t)p->deadline;
	}
	fair_set_next(rq, p);
}

/* pick_next_task_fair with group scheduling built in: the running entity
   is updated and considered in place.  A delayed entity picked leaves
   the queue for good (it is asleep), and the pick is made again. */
static struct fair_task *pick(struct fair_rq *rq)
{
	struct fair_task *p;

	for (;;) {
		if (rq->curr_se && rq->curr_se->on_rq)
			update_curr(rq);
		p = pick_eevdf(rq);
		if (!p || !p->delayed)
			break;
		dequeue(rq, p, FAIR_SLEEP);
		fair_delayed_gone(rq);
	}
	if (!p) {
		fair_put_prev(rq);
		return NULL;
	}
	if (p != rq->curr_se) {
		fair_put_prev(rq);
		set_next_entity(rq, p);
	}
	return p;
}

static void tick(struct fair_rq *rq, struct fair_task *curr)
{
	update_curr(rq);
}

static bool wakeup_preempt(struct fair_rq *rq, struct fair_task *p)
{
	if (rq->base.need_resched || !K(rq).wakeup_preempt || !rq->curr_se)
		return false;
	update_curr(rq);
	return pick_eevdf(rq) == p;
}

/* task_fork_fair + wake_up_new_task: placed at V with no lag (6.12: with
   half a request under PLACE_DEADLINE_INITIAL). */
static void fork_child(struct fair_rq *rq, struct fair_task *parent,
		       struct fair_task *p)
{
	update_curr(rq);
	p->vlag = 0;
	enqueue(rq, p, FAIR_INITIAL);
}

/* yield_task_fair: 6.6 pushes the deadline a request on; 6.12 forfeits
   the rest of the request, if eligible (vruntime to the deadline). */
static void yield(struct fair_rq *rq, struct fair_task *p)
{
	if (rq->nr_running == 1)
		return;
	update_curr(rq);
	if (rq->rules->cls->eevdf_617) {
		int64_t avg, load;

		sums(rq, &avg, &load);
		if (eligible(rq, avg, load, p)) {
			p->vruntime = p->deadline;
			update_deadline(rq, p);
		}
		return;
	}
	p->deadline += calc_delta_fair(p->slice, p);
}

static long view_slice(const struct fair_task *p)
{
	return (long)(p->slice / sm_tick_nsec(&p->rq->base));
}

/* 6.6 on one LLC: the MC domain (fair-balance.c). */
static const struct fair_balance eevdf_balance = {
	.imbalance_pct = 117,
	.busy_factor = 16,
	.interval_by_ncpus = true,
	.count_when_idle = true,
	.mru_order = true,
	.cache_hot = true,
	.cache_nice_tries = 1,
	.wake_idle = true,
};

/*
 * Why a queued p waits while a fair task runs: it is not eligible (its
 * vruntime past the queue's weighted average V: negative lag), or an
 * eligible task (the running one included) has an earlier virtual
 * deadline, or it is the one pick_eevdf() would take and the running
 * task keeps the CPU to its deadline (RUN_TO_PARITY, the tick's
 * update_deadline).
 */
static void why(const struct fair_rq *rq, const struct fair_task *p,
		struct sm_why *w)
{
	const struct fair_task *curr = rq->curr_se;
	int64_t avg, load;
	int32_t n = 0;

	sums(rq, &avg, &load);
	if (!eligible(rq, avg, load, p)) {
		w->code = SM_WHY_NOT_ELIGIBLE;
		return;
	}
	for (size_t i = 0; i < rq->nq; i++)
		if (rq->q[i] != p && !rq->q[i]->delayed &&
		    eligible(rq, avg, load, rq->q[i]) &&
		    deadline_gt(p, rq->q[i]))
			n++;
	if (curr && curr->on_rq && eligible(rq, avg, load, curr) &&
	    deadline_gt(p, curr))
		n++;
	fair_why_ahead(w, SM_WHY_DEADLINE, n);
}

static const struct fair_class eevdf_class = {
	FAIR_CLASS_OPS,
	.requeue = requeue,
	.migrate = NULL,
	.view_slice = view_slice,
	.sync_wake_preempts = true,
	.balance = &eevdf_balance,
};

/* base_slice_ns: 6.6's and later kernels' normalized value, scaled by
   1 + ilog2(min(CPUs, 8)) when left at it (fair_scaled) */
#define EEVDF_BASE_SLICE 750000

/* The constants of both EEVDF policies (6.6's values; 6.18 adds its own
   features) */
#define EEVDF_CONSTS_COMMON \
	.sched_base_slice_ns = EEVDF_BASE_SLICE, \
	.run_to_parity = 1, \
	.place_lag = 1, \
	.wakeup_preempt = 1, \
	.sched_rr_timeslice_ms = 100, \
	.sched_migration_cost_ns = 500000

static const struct fair_rules eevdf_rules = {
	.policy = &sm_policy_eevdf,
	.cls = &eevdf_class,
	.scale_cap8 = true,
	.k = {
		EEVDF_CONSTS_COMMON,
		.scaled = FAIR_SCALE_ALL,
	},
};

#define EEVDF_KNOB_BASE_SLICE \
	FAIR_KNOB("base_slice_ns", "ns", EEVDF_BASE_SLICE, 100000, \
		  1000000000, sched_base_slice_ns, \
		  "when not set: 750000 x (1 + ilog2(min(CPUs, 8))), as the " \
		  "kernel scales it at boot", \
		  "the request: each entity's slice (its deadline is this " \
		  "much weighted time on)")
#define EEVDF_KNOBS_COMMON \
	EEVDF_KNOB_BASE_SLICE, \
	FAIR_KNOB("RUN_TO_PARITY", "0/1", 1, 0, 1, run_to_parity, NULL, \
		  "the running entity keeps the CPU until its slice is used " \
		  "(if eligible)"), \
	FAIR_KNOB("PLACE_LAG", "0/1", 1, 0, 1, place_lag, NULL, \
		  "an enqueued entity keeps the lag it left with"), \
	FAIR_KNOB("WAKEUP_PREEMPTION", "0/1", 1, 0, 1, wakeup_preempt, NULL, \
		  "wakeups may preempt (else only a used-up slice does)"), \
	FAIR_KNOB_RR_TIMESLICE("SCHED_RR's slice"), \
	FAIR_KNOB("sched_migration_cost_ns", "ns", 500000, 0, 1000000000, \
		  sched_migration_cost_ns, NULL, \
		  "SMP: the balancer leaves a task that ran this recently " \
		  "(unless its balancing keeps failing)"), \
	FAIR_KNOB_HZ

static const struct sm_knob eevdf_knobs[] = {
	EEVDF_KNOBS_COMMON,
	{ 0 },
};

FAIR_POLICY_GLUE(eevdf, eevdf_rules)

const struct sm_policy sm_policy_eevdf = {
	.name = "eevdf",
	.aliases = { "6.6", "EEVDF", NULL },
	.summary = "Linux 6.6's EEVDF: lag, virtual deadlines, a 0.75 ms "
		   "base slice scaled by CPUs, eligibility (simplified model)",
	.colour = "#2c3e50",
	.point = 11,
	.confidence = "model",
	.reconstructed = "a model of the fair class: no group scheduling, no "
			 "PELT, no buddies; on SMP a simplified balancer "
			 "(counts onto an idle CPU, else weighted load) and "
			 "select_idle_sibling (docs/models.md)",
	.rq_new = eevdf_rq_new,
	.sched_init = eevdf_sched_init,
	.knobs = eevdf_knobs,
	FAIR_POLICY_OPS,
};

/*
 * The recording kernel's fair class: 6.18 (the machine schedreplay was
 * calibrated on), from 6.12's text with the 6.17 changes to slice
 * protection and lag clamping (docs/models.md, "EEVDF 6.18").  Beyond
 * 6.6: delayed dequeue (DELAY_DEQUEUE, DELAY_ZERO), a new task's half
 * request (PLACE_DEADLINE_INITIAL), deadlines kept relative across
 * moves (PLACE_REL_DEADLINE), the lag clamped to the largest request plus
 * a tick, and a yield that forfeits the rest of the request.
 */
extern const struct sm_policy sm_policy_eevdf618;

static const struct fair_class eevdf618_class = {
	FAIR_CLASS_OPS,
	.requeue = requeue,
	.migrate = NULL,
	.view_slice = view_slice,
	.sync_wake_preempts = true,
	.eevdf_617 = true,
	.balance = &eevdf_balance,
};

static const struct fair_rules eevdf618_rules = {
	.policy = &sm_policy_eevdf618,
	.cls = &eevdf618_class,
	.scale_cap8 = true,
	.k = {
		EEVDF_CONSTS_COMMON,
		.delay_dequeue = 1,
		.delay_zero = 1,
		.place_deadline_initial = 1,
		.place_rel_deadline = 1,
		.scaled = FAIR_SCALE_ALL,
	},
};

static const struct sm_knob eevdf618_knobs[] = {
	EEVDF_KNOBS_COMMON,
	FAIR_KNOB("DELAY_DEQUEUE", "0/1", 1, 0, 1, delay_dequeue, NULL,
		  "a task that sleeps owing service stays queued until it "
		  "is picked or woken"),
	FAIR_KNOB("DELAY_ZERO", "0/1", 1, 0, 1, delay_zero, NULL,
		  "a delayed task leaves (or is woken) with at most zero "
		  "lag"),
	FAIR_KNOB("PLACE_DEADLINE_INITIAL", "0/1", 1, 0, 1,
		  place_deadline_initial, NULL,
		  "a new task asks for half a request first"),
	FAIR_KNOB("PLACE_REL_DEADLINE", "0/1", 1, 0, 1, place_rel_deadline,
		  NULL, "a task moved (not asleep) keeps its deadline "
		  "relative to its vruntime"),
	{ 0 },
};

FAIR_POLICY_GLUE(eevdf618, eevdf618_rules)

const struct sm_policy sm_policy_eevdf618 = {
	.name = "eevdf-6.18",
	.aliases = { "6.18", "linux-6.18", NULL },
	.summary = "Linux 6.18's EEVDF, the recording kernel: delayed "
		   "dequeue, relative deadlines, the recording's HZ "
		   "(simplified model)",
	.colour = "#117a65",
	.point = 13,
	.confidence = "model",
	.reconstructed = "a model of the fair class from 6.12's text and the "
			 "6.17 slice-protection and lag changes: no PELT, no "
			 "buddies, no custom slices; on SMP the simplified "
			 "balancer of eevdf (docs/models.md)",
	.rq_new = eevdf618_rq_new,
	.sched_init = eevdf618_sched_init,
	.knobs = eevdf618_knobs,
	FAIR_POLICY_OPS,
};
