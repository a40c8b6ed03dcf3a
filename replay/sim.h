/*
 * sim: the discrete-event simulator.  It replays the demand (replay/demand.h)
 * through one scheduler policy (sched-model/policy.h) on one or more CPUs
 * (per-CPU runqueues, the 2.6.0-test2 load balancer of
 * sched-model/balance.h), in integer nanoseconds on the trace's own clock,
 * with a tick every jiffy (HZ = 1000), and drives the shared accounting
 * (replay/metrics.h) so that its delays mean what `observed` means by a
 * delay.
 *
 * Streaming: sr_sim_advance() runs as far as what the demand has read so
 * far decides, and returns; the caller feeds more events and calls it
 * again.  Results never depend on where those pauses fall (docs/replay.md).
 *
 *	sr_sim_new(&s, &opts, dm, consumer, &hooks, d);
 *	while (more input) { feed dm; sr_sim_advance(s, d); }
 *	sr_demand_finish(dm, ...); sr_sim_advance(s, d);   // runs to the end
 *	sr_sim_finish(s, d);
 */
#ifndef SR_SIM_H
#define SR_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"
#include "replay/calib.h"
#include "replay/demand.h"
#include "replay/metrics.h"
#include "replay/rtrules.h"
#include "sched-model/knobs.h"
#include "sched-model/policy.h"

#define SR_NSEC_PER_JIFFY (1000000000LL / SM_HZ)

/* A policy that takes the recording's HZ, when neither its context nor
   its ticks say it: the models' own (the unit their rule tests are worked
   out in; a hand-written trace shows no tick). */
#define SR_HZ_FALLBACK SM_HZ

/* Where a replay's tick rate came from. */
enum sr_hz_source {
	SR_HZ_POLICY,    /* the policy's own (2.6.0-era: 1000) or set */
	SR_HZ_CONTEXT,   /* the recording's context (record) */
	SR_HZ_TICKS,     /* read from the recording's tick preemptions */
	SR_HZ_DEFAULT,   /* SR_HZ_FALLBACK: nothing said it */
};
#define SR_SIM_MAX_CPUS 1024   /* SM_BALANCE_MAX_CPUS */

/* Largest context-switch cost (--cs-cost): one jiffy. */
#define SR_CS_COST_MAX SR_NSEC_PER_JIFFY
/* A busy CPU that advances no task's demand for this long is a simulator
 * bug, reported (SR_EINTERNAL) instead of running forever. */
#define SR_PROGRESS_MAX (1000000000LL)

/* A causal wake that reaches its task before the task reaches the block
   the wake answers (docs/replay.md, "Wakes"). */
enum sr_early_mode {
	SR_EARLY_REQUEUE, /* the recorded order: it sleeps, and is woken at
			     the instant it went to sleep */
	SR_EARLY_SKIP,    /* it does not sleep there at all */
};

/* "requeue", "skip"; NULL-terminated, for --early-wake */
extern const char *const sr_early_names[];

enum sr_external_mode {
	SR_EXTERNAL_ABSOLUTE, /* wake at the recorded trace time */
	SR_EXTERNAL_RELATIVE, /* sleep as long as recorded */
};

/* "absolute", "relative"; NULL-terminated, for --external. */
extern const char *const sr_external_names[];

struct sr_sim_opts {
	const struct sm_policy *policy;
	struct sm_sched *sched;   /* the policy tuned (sched-model/knobs.h);
				     NULL: policy with its defaults */
	int cpus;                 /* CPUs simulated, 1..SR_SIM_MAX_CPUS */
	/* cache_decay_ticks for the balancer (docs/models.md, "The SMP
	   balancer"); without
	   has_cache_decay, SM_CACHE_DECAY_TICKS_DEFAULT (10 jiffies) */
	bool has_cache_decay;
	unsigned long cache_decay_ticks;
	enum sr_external_mode external;
	int64_t cs_cost_ns;       /* context-switch cost, default 0 */
	int init_sleep_pct;       /* tasks alive at start: initial sleep_avg
				     as % of MAX_SLEEP_AVG (0 = cold) */
	bool check;               /* run the policy's invariant check after
				     every instant (tests) */
	/* the recording's wake costs and pinned tasks (replay/calib.h);
	   NULL: wakes take effect at once, nothing pinned but by name */
	const struct sr_calib *calib;
	bool infer_affinity;      /* pin the tasks calib found pinned */
	bool infer_busy;          /* ... by its busy test too (--affinity
				     infer) */
	bool ctx_affinity;        /* the recording's context pins first:
				     each task's cpus at its birth and after
				     its execs (sr_dtask.ctx_pin, a COMM
				     op's b), where it read them */
	int ctx_hz;               /* the recording context's CONFIG_HZ, 0 */
	enum sr_early_mode early; /* a causal wake that comes before the
				     block it answers */
	struct sr_rtrules *rt;    /* --rt: tasks whose name matches run
				     SCHED_RR (NULL: none) */
	bool no_why;              /* no attribution of waits (timing); it
				     is made only for a wait hook */
};

/*
 * One segment of a wait (docs/replay.md, "Why a task waited"): while a
 * task waits runnable, the task running on the CPU it waits on and the
 * policy's reason it is not running (sched-model/policy.h, sm_why), one
 * segment per stretch where neither changes.  The segments of a wait
 * tile it: the first starts when it became runnable, each ends where the
 * next starts, the last when it ran.
 */
struct sr_wait_seg {
	int64_t start, end;
	uint32_t running;         /* task id; SR_TID_NONE: the CPU idles */
	int32_t running_pid;
	uint32_t running_comm;    /* sr_sim_name() */
	int16_t running_prio;     /* -1: none */
	int16_t cpu;              /* the CPU it waits on */
	struct sm_why why;
};

/* One timeline row (replay/writers.h formats it). */
struct sr_tl_row {
	int64_t t;
	uint32_t task;
	int32_t pid;
	const char *comm;
	const char *event;
	const struct sm_view *v;  /* NULL: no scheduler state (observed) */
	bool demand;              /* about the demand, not the scheduler's
				     state (a skipped sleep): written in
				     every --timeline mode */
	int prio;                 /* observed: trace prio, -1 unknown */
	int cpu;                  /* the task's cpu (migrate: to), -1 */
	int from_cpu;             /* migrate: from, else -1 */
	const char *why;          /* migrate: why (sm_migrate_why_name) */
};

struct sr_sim_hooks {
	/* a timeline row; may be NULL */
	int (*row)(void *ctx, const struct sr_tl_row *r);
	/* a completed wait (latency row); may be NULL */
	sr_acct_wait_fn wait;
	/* the replay as a trace would record it, for a synthetic run saved
	   as a trace (replay/synth.h): each switch (the idle task as
	   SR_TID_NONE), wakeup (an arrival's first, by SR_WS_UNKNOWN;
	   an external one by SR_WS_HARDIRQ on its own CPU), fork and
	   wakeup_new, exit, nice and policy change, migration; task ids are
	   the demand's; may be NULL */
	int (*event)(void *ctx, const struct sr_event *ev);
	/* a running task reached the end of its program known so far (a
	   synthetic one, replay/synth.h): write its next ops now, at
	   sr_sim_now(); the first of them is done at once.  0, or an error
	   code that stops the replay.  NULL: wait for input instead */
	int (*need)(void *ctx, uint32_t task);
	void *ctx;
};

/* Per-task figures beyond the shared metrics. */
struct sr_sim_task {
	uint64_t expired;         /* slices that ended in the expired array */
	uint64_t late_wakeups;    /* blocks skipped: external wake already past */
	uint64_t early_wakes;     /* blocks skipped: causal wake came first */
	int64_t finish_ts;        /* when its demand was done */
	int64_t cpu_ns;           /* CPU consumed from its demand */
	uint64_t migrations;      /* times it changed CPU */
	bool born, done;
};

struct sr_sim_stats {
	uint64_t events;          /* ticks + ops + wakes + schedules */
	uint64_t ticks, ops, wakes, schedules, switches, instants;
	uint64_t idle_ticks;      /* of the ticks, on an idle CPU (SMP) */
	uint64_t migrations, balances, pulls;
	int64_t start, end;       /* ns, trace clock */
	int cpus;
	int hz;                   /* its tick rate */
	int hz_from;              /* enum sr_hz_source: where that came from */
};

struct sr_sim;

int sr_sim_new(struct sr_sim **s, const struct sr_sim_opts *o,
	       struct sr_demand *dm, int consumer,
	       const struct sr_sim_hooks *hooks, struct sr_diag *d);
void sr_sim_free(struct sr_sim *s);

/* Block `block` of `task` got its end: forward sr_demand's callback here. */
void sr_sim_resolved(struct sr_sim *s, uint32_t task, uint32_t block,
		     const struct sr_op *op);

/* The time the replay has reached (its last instant). */
int64_t sr_sim_now(const struct sr_sim *s);
/* CPU task id has had up to now (its current run counted to now). */
int64_t sr_sim_cpu_ns(const struct sr_sim *s, uint32_t id);

/* Run as far as the demand allows.  SR_OK (check sr_sim_finished), or an
 * error in d. */
int sr_sim_advance(struct sr_sim *s, struct sr_diag *d);
bool sr_sim_finished(const struct sr_sim *s);
/* After the end: close the accounting and name the tasks. */
int sr_sim_finish(struct sr_sim *s, struct sr_diag *d);

struct sr_acct *sr_sim_acct(struct sr_sim *s);
const struct sr_sim_task *sr_sim_task(const struct sr_sim *s, uint32_t id);
void sr_sim_stats(const struct sr_sim *s, struct sr_sim_stats *st);
/* During the wait hook: the segments of the wait that just ended (NULL
 * and 0 without attribution). */
const struct sr_wait_seg *sr_sim_wait_segs(const struct sr_sim *s,
					   uint32_t task, size_t *n);
/* A name of the demand's pool (sr_wait_seg.running_comm). */
const char *sr_sim_name(const struct sr_sim *s, uint32_t comm);
/*
 * What a wait's segments add up to: the reason covering most of it (the
 * first of the longest, in order of first appearance) and the task that
 * ran longest during it (likewise; SR_TID_NONE when none ran), with its
 * pid.  SM_WHY_NONE for a wait of no length.
 */
void sr_wait_main(const struct sr_wait_seg *segs, size_t n, int *why,
		  uint32_t *behind, int32_t *behind_pid);

/* Current pid and name of a task (for rows written as it runs). */
const char *sr_sim_comm(const struct sr_sim *s, uint32_t id);
int32_t sr_sim_pid(const struct sr_sim *s, uint32_t id);
int sr_sim_ncpus(const struct sr_sim *s);
/* The tick rate it replays at, and where that came from. */
int sr_sim_hz(const struct sr_sim *s, enum sr_hz_source *from);
/* CPU cpu's figures, up to the end of the replay (after sr_sim_finish). */
void sr_sim_cpu_stats(const struct sr_sim *s, int cpu, struct sr_cpu_figs *out);

#endif
