/*
 * cfs: the Completely Fair Scheduler of Linux 2.6.23 (Ingo Molnar, 2007),
 * its fair class as a documented simplified model (fair.h says what is
 * left out: groups, load tracking, wake-affine, buddies).  From 2.6.23's
 * kernel/sched_fair.c:
 *  - vruntime: each entity's run time weighted by NICE_0_LOAD / weight
 *    (calc_delta_fair: the fixed-point calc_delta_mine); min_vruntime
 *    follows the leftmost of the queue and the running entity, monotonic;
 *  - the period: sched_latency (20 ms) for up to sched_nr_latency
 *    (latency / min_granularity = 5) tasks, else nr * min_granularity
 *    (4 ms); an entity's slice is period * weight / the queue's weight;
 *  - the tick preempts the running entity once it has run more than its
 *    slice since it was picked (only with others queued);
 *  - pick: the leftmost (smallest vruntime; the running entity goes back
 *    into the tree at its new key first);
 *  - a waking entity is placed at max(its vruntime, min_vruntime -
 *    sched_latency) (NEW_FAIR_SLEEPERS: the sleeper credit), and preempts
 *    if its vruntime + wakeup_granularity (10 ms, weighted by the running
 *    entity's nice) is below the running one's;
 *  - a fork child starts at min_vruntime + the vslice it adds
 *    (START_DEBIT), swaps vruntime with the parent if the parent's is
 *    smaller (sched_child_runs_first), and the parent reschedules;
 *  - yield only updates the running entity (compat_yield 0);
 *  - a task moving CPU keeps its distance to min_vruntime (set_task_cpu).
 * The sysctls are 2.6.23's for one CPU (it scales them by 1 + log2(cpus)).
 */
#include "sched-model/fair.h"

extern const struct sm_policy sm_policy_cfs;

#define K(rq)			((rq)->rules->k)
#define sysctl_sched_latency \
	fair_scaled(rq, K(rq).sched_latency_ns, FAIR_SCALE_LATENCY)
#define sysctl_sched_min_granularity \
	fair_scaled(rq, K(rq).sched_min_granularity_ns, FAIR_SCALE_MIN_GRAN)
#define sysctl_sched_wakeup_granularity \
	((unsigned long)fair_scaled(rq, K(rq).sched_wakeup_granularity_ns, \
				    FAIR_SCALE_WAKEUP_GRAN))
#define NICE_0_LOAD		FAIR_NICE_0_LOAD

/* (s64)(a - b): the kernel's wrap-safe comparisons */
static int64_t vdiff(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b);
}

static unsigned long calc_delta_fair(unsigned long delta, struct fair_task *p)
{
	return fair_calc_delta_mine(delta, NICE_0_LOAD, p->weight,
				    &p->inv_weight);
}

/* sched_nr_latency = DIV_ROUND_UP(latency, min_granularity) */
static uint64_t __sched_period(const struct fair_rq *rq, unsigned long nr)
{
	uint64_t nr_latency = (sysctl_sched_latency +
			       sysctl_sched_min_granularity - 1) /
			      sysctl_sched_min_granularity;

	if (nr > nr_latency)
		return nr * sysctl_sched_min_granularity;
	return sysctl_sched_latency;
}

static uint64_t sched_slice(const struct fair_rq *rq, const struct fair_task *p)
{
	return __sched_period(rq, rq->cfs_nr_running) * p->weight /
		rq->load_weight;
}

static uint64_t __sched_vslice(const struct fair_rq *rq,
			       unsigned long rq_weight, unsigned long nr)
{
	return __sched_period(rq, nr) * NICE_0_LOAD / rq_weight;
}

static uint64_t sched_vslice_add(const struct fair_rq *rq,
				 const struct fair_task *p)
{
	return __sched_vslice(rq, rq->load_weight + p->weight,
			      rq->cfs_nr_running + 1);
}

static void update_curr(struct fair_rq *rq)
{
	struct fair_task *curr = rq->curr_se, *first;
	uint64_t now = fair_now(rq), vruntime;
	unsigned long delta_exec, weighted;

	if (!curr)
		return;
	delta_exec = (unsigned long)(now - curr->exec_start);
	curr->sum_exec_runtime += delta_exec;
	weighted = delta_exec;
	if (curr->weight != NICE_0_LOAD)
		weighted = calc_delta_fair(delta_exec, curr);
	curr->vruntime += weighted;
	/* min_vruntime: monotonic, tracking the leftmost */
	first = fair_q_first(rq);
	vruntime = curr->vruntime;
	if (first && vdiff(first->vruntime, vruntime) < 0)
		vruntime = first->vruntime;
	if (vdiff(vruntime, rq->min_vruntime) > 0)
		rq->min_vruntime = vruntime;
	curr->exec_start = now;
}

static void place_entity(struct fair_rq *rq, struct fair_task *p, bool initial)
{
	uint64_t vruntime = rq->min_vruntime;

	/* the current period is promised to the others: a new task fits
	   in the slot that stays open at its end */
	if (initial && K(rq).start_debit)
		vruntime += sched_vslice_add(rq, p);
	if (!initial) {
		/* sleeps up to a single latency don't count */
		if (K(rq).new_fair_sleepers)
			vruntime -= sysctl_sched_latency;
		/* never gain time by being placed backwards */
		if (vdiff(p->vruntime, vruntime) > 0)
			vruntime = p->vruntime;
	}
	p->vruntime = vruntime;
}

static void account_enqueue(struct fair_rq *rq, struct fair_task *p)
{
	rq->load_weight += p->weight;
	rq->load_inv_weight = 0;
	rq->cfs_nr_running++;
	p->on_rq = true;
}

static void enqueue(struct fair_rq *rq, struct fair_task *p, unsigned fl)
{
	update_curr(rq);
	if (fl & FAIR_WAKEUP)
		place_entity(rq, p, false);
	if (p != rq->curr_se)
		fair_q_add(rq, p);
	account_enqueue(rq, p);
}

static bool dequeue(struct fair_rq *rq, struct fair_task *p, unsigned fl)
{
	update_curr(rq);
	if (p != rq->curr_se)
		fair_q_del(rq, p);
	rq->load_weight -= p->weight;
	rq->load_inv_weight = 0;
	rq->cfs_nr_running--;
	p->on_rq = false;
	return true;
}

/* schedule(): put_prev_task, then the leftmost. */
static struct fair_task *pick(struct fair_rq *rq)
{
	struct fair_task *p;

	fair_put_prev(rq);
	p = fair_q_first(rq);
	if (p)
		fair_set_next(rq, p);
	return p;
}

/* entity_tick: preempt once the slice is used (others queued). */
static void tick(struct fair_rq *rq, struct fair_task *curr)
{
	update_curr(rq);
	if (rq->cfs_nr_running > 1 || !K(rq).wakeup_preempt) {
		uint64_t ideal = sched_slice(rq, curr);
		uint64_t delta = curr->sum_exec_runtime -
			curr->prev_sum_exec_runtime;

		if (delta > ideal) {
			fair_resched(rq);
			fair_note(curr, SM_CH_EXPIRE);
		}
	}
}

static bool wakeup_preempt(struct fair_rq *rq, struct fair_task *p)
{
	struct fair_task *curr = rq->curr_se;
	unsigned long gran = sysctl_sched_wakeup_granularity;

	if (!K(rq).wakeup_preempt || !curr)
		return false;
	if (curr->weight != NICE_0_LOAD)
		gran = calc_delta_fair(gran, curr);
	return vdiff(p->vruntime + gran, curr->vruntime) < 0;
}

/* task_new_fair: START_DEBIT, the child-runs-first swap, resched. */
static void fork_child(struct fair_rq *rq, struct fair_task *parent,
		       struct fair_task *p)
{
	struct fair_task *curr = rq->curr_se;

	update_curr(rq);
	place_entity(rq, p, true);
	if (K(rq).sched_child_runs_first && curr &&
	    vdiff(curr->vruntime, p->vruntime) < 0) {
		uint64_t v = curr->vruntime;

		curr->vruntime = p->vruntime;
		p->vruntime = v;
	}
	fair_q_add(rq, p);
	account_enqueue(rq, p);
	fair_resched(rq);
}

static void yield(struct fair_rq *rq, struct fair_task *p)
{
	if (rq->cfs_nr_running == 1)
		return;
	update_curr(rq);
}

/* set_task_cpu: keep the distance to min_vruntime. */
static void migrate(struct fair_rq *src, struct fair_rq *dst,
		    struct fair_task *p)
{
	p->vruntime -= src->min_vruntime - dst->min_vruntime;
}

/* 2.6.23 on a plain SMP machine: SD_CPU_INIT (fair-balance.c). */
static const struct fair_balance cfs_balance = {
	.imbalance_pct = 125,
	.busy_factor = 64,
	.rt_moves = true,
	.per_task_cap = true,
	.skip_by_half = true,
};

/*
 * Why a queued p waits while a fair task runs: tasks with a smaller
 * vruntime come first (the running one back in the tree at its key), or
 * it is the leftmost and the running task keeps the CPU until the tick
 * finds its slice used (check_preempt_tick; the wakeup did not preempt:
 * sched_wakeup_granularity).
 */
static void why(const struct fair_rq *rq, const struct fair_task *p,
		struct sm_why *w)
{
	const struct fair_task *curr = rq->curr_se;
	int32_t n = 0;

	for (size_t i = 0; i < rq->nq; i++)
		if (rq->q[i] != p && vdiff(rq->q[i]->vruntime, p->vruntime) <= 0 &&
		    (rq->q[i]->vruntime != p->vruntime || rq->q[i]->seq < p->seq))
			n++;
	if (curr && curr->on_rq && vdiff(curr->vruntime, p->vruntime) <= 0)
		n++;
	fair_why_ahead(w, SM_WHY_VRUNTIME, n);
}

static const struct fair_class cfs_class = {
	FAIR_CLASS_OPS,
	.migrate = migrate,
	.sync_wake_preempts = false,
	.balance = &cfs_balance,
};

static const struct fair_rules cfs_rules = {
	.policy = &sm_policy_cfs,
	.cls = &cfs_class,
	.scale_limit_ns = 100000000,	/* sched_init_granularity's limit */
	.k = {
		.scaled = FAIR_SCALE_ALL,
		.sched_latency_ns = 20000000,
		.sched_min_granularity_ns = 4000000,
		.sched_wakeup_granularity_ns = 10000000,
		.sched_child_runs_first = 1,
		.new_fair_sleepers = 1,
		.start_debit = 1,
		.wakeup_preempt = 1,
		.sched_rr_timeslice_ms = 100,
	},
};

static const struct sm_knob cfs_knobs[] = {
	FAIR_KNOB("sched_latency_ns", "ns", 20000000, 100000, 1000000000,
		  sched_latency_ns, NULL,
		  "the period every runnable task gets a turn in (up to "
		  "latency / min_granularity tasks); the sleeper credit"),
	FAIR_KNOB("sched_min_granularity_ns", "ns", 4000000, 100000,
		  1000000000, sched_min_granularity_ns, NULL,
		  "the least slice: past latency / this tasks, the period is "
		  "nr_running times this"),
	FAIR_KNOB("sched_wakeup_granularity_ns", "ns", 10000000, 0,
		  1000000000, sched_wakeup_granularity_ns, NULL,
		  "a woken task preempts if its vruntime is this much below "
		  "the running one's"),
	FAIR_KNOB("sched_child_runs_first", "0/1", 1, 0, 1,
		  sched_child_runs_first, NULL,
		  "a fork child takes the parent's smaller vruntime"),
	FAIR_KNOB("NEW_FAIR_SLEEPERS", "0/1", 1, 0, 1, new_fair_sleepers, NULL,
		  "a waking task is placed up to sched_latency before "
		  "min_vruntime"),
	FAIR_KNOB("START_DEBIT", "0/1", 1, 0, 1, start_debit, NULL,
		  "a fork child starts one vslice after min_vruntime"),
	FAIR_KNOB("WAKEUP_PREEMPT", "0/1", 1, 0, 1, wakeup_preempt, NULL,
		  "wakeups may preempt (else only the tick does)"),
	FAIR_KNOB_RR_TIMESLICE("SCHED_RR's slice (DEF_TIMESLICE)"),
	FAIR_KNOB_HZ,
	{ 0 },
};

FAIR_POLICY_GLUE(cfs, cfs_rules)

const struct sm_policy sm_policy_cfs = {
	.name = "cfs",
	.aliases = { "2.6.23", "CFS", NULL },
	.summary = "Linux 2.6.23's CFS: vruntime, 20 ms latency, 4 ms "
		   "granularity, sleeper credit (simplified model)",
	.colour = "#8e44ad",
	.point = 9,
	.confidence = "model",
	.reconstructed = "a model of the fair class: no group scheduling, no "
			 "load tracking, no wake_affine arithmetic; on SMP a "
			 "simplified balancer by weighted load, as SD_CPU_INIT "
			 "(docs/models.md)",
	.rq_new = cfs_rq_new,
	.sched_init = cfs_sched_init,
	.knobs = cfs_knobs,
	FAIR_POLICY_OPS,
};
