/*
 * runset: one trace replayed under several policies, read back from the
 * replay's output directory (ROOT/POLICY/{timeline,latency,summary}.tsv),
 * with each task's behaviour taken from a reference run.
 *
 * A task is named across runs by (pid, comm, occ): occ counts the tasks
 * that had this pid and comm before it (pid reuse after exit, or an exec
 * back to an earlier name), in order of appearance.  The reference run is
 * `observed` (the recorded schedule) when ROOT holds it, else the first
 * policy compared: it says how each task behaves (how much it sleeps, how
 * often it wakes, whether it wakes at a steady period) independently of
 * the policies being compared.
 *
 * Loading reads each file once or twice, streaming; memory grows with the
 * number of tasks and, for the reference run, with its wakeups.
 */
#ifndef CMP_RUNSET_H
#define CMP_RUNSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

#define CMP_POLICY_MAX 64
#define CMP_COMM_MAX 64
#define CMP_MAX_RUNS 8

enum cmp_class {
	CMP_CLASS_OTHER,
	CMP_CLASS_INTERACTIVE, /* sleeps most of its life and wakes often */
	CMP_CLASS_BATCH,       /* CPU-bound: runnable most of its life */
};

const char *cmp_class_name(enum cmp_class c);

/* What one task got under one policy. */
struct cmp_figs {
	bool present;            /* a row in this run's summary.tsv */
	int64_t runtime_ns;
	uint64_t switches, wakeups;
	int64_t avg_ns, p50_ns, p95_ns, p99_ns, max_ns;
	double cpu_share;        /* summary's cpu_share, a fraction */
	uint64_t expired, late_wakeups;
	int64_t finish_ns;       /* trace clock; 0 if unknown */
	/* from latency.tsv */
	uint64_t ndelays;
	long double sum_ns, sumsq_ns;
	double sd_ns;            /* true sample standard deviation */
	double ib_sd_ns;         /* interbench's printed "SD" (docs/plots.md) */
	/* periodic tasks (interbench): over the reference periods */
	uint64_t periods, deadlines_met;
	uint64_t deadlines_met_own; /* on the run's own clock (docs/plots.md) */
	int64_t cpu_wanted_ns, cpu_got_ns;
};

/*
 * One period of a periodic task, from the reference run.  Bursts (CPU
 * work between two sleeps) are numbered from 0 in the order the task
 * ran them; every policy replays the same bursts in the same order, so
 * burst j is the same work in every run.
 */
struct cmp_period {
	int64_t wake_ns;    /* period start: the reference wakeup */
	uint32_t first;     /* its first burst (the one this wakeup began) */
	uint32_t last;      /* its last burst (wakeups within P/2 join) */
};

struct cmp_task {
	int32_t pid;
	uint32_t occ;
	char comm[CMP_COMM_MAX];
	/* behaviour in the reference run */
	int64_t first_ns, last_ns;
	int64_t run_ns, wait_ns, sleep_ns;
	uint64_t wakes;
	int static_prio;        /* last seen, -1 if unknown */
	bool in_ref;            /* seen in the reference timeline */
	enum cmp_class cls;
	double sleep_share;     /* sleep / (run + wait + sleep) */
	double wake_rate;       /* wakeups per second alive */
	int64_t period_ns;      /* steady wake period, 0 if none */
	bool period_forced;     /* given with --period */
	double period_regular;  /* share of wake gaps near the period */
	struct cmp_period *per;
	size_t nper, perc;
	uint32_t nbursts;       /* bursts ended in the reference run */
	struct cmp_figs *figs;   /* [set->nruns] */
	bool selected;          /* for plots */
	bool in_focus;          /* in the --tree focus (compare/tree.h) */
};

struct cmp_run {
	char policy[CMP_POLICY_MAX];
	char *dir;              /* ROOT/policy */
};

/* --period comm=ms */
struct cmp_period_opt {
	char comm[CMP_COMM_MAX];
	int64_t period_ns;
};

struct cmp_set {
	char *title;            /* names the trace in headings */
	char *root;
	struct cmp_run runs[CMP_MAX_RUNS];
	size_t nruns;           /* runs[0] = A, runs[1] = B in a diff */
	char ref_policy[CMP_POLICY_MAX];
	char *ref_dir;
	struct cmp_task *tasks;
	size_t ntasks, cap;
	uint32_t *hash;         /* open addressing over tasks, by key */
	size_t hcap;
	int64_t t0, t1;         /* span of the reference timeline */
	bool have_t;
	const struct cmp_period_opt *period_opts;
	size_t nperiod_opts;
	uint64_t unknown_events;/* timeline events we do not interpret */
	bool focus;             /* only tasks in_focus count (--tree) */
	const char *focus_regex;/* the --tree regex, for headings */
	size_t focus_tasks;     /* tasks in the focus */
};

/*
 * Open ROOT for the given policies (their directories must hold
 * summary.tsv, latency.tsv, timeline.tsv).  title names the trace.
 */
int cmp_set_open(struct cmp_set *s, const char *root, const char *title,
		const char *const *policies, size_t npolicies,
		struct sr_diag *d);
/* Read every run's summary.tsv into tasks[].figs (compare/load.h reads
 * the rest). */
int cmp_set_read_summaries(struct cmp_set *s, struct sr_diag *d);
void cmp_set_free(struct cmp_set *s);

/* Task index for a key, or -1. */
long cmp_set_find(const struct cmp_set *s, int32_t pid, const char *comm,
		 uint32_t occ);

/* The task is shown: in the --tree focus, or no focus is set. */
static inline bool cmp_task_shown(const struct cmp_set *s, const struct cmp_task *t)
{
	return !s->focus || t->in_focus;
}

/* "comm (pid)", with "#occ" when occ > 1. */
void cmp_task_label(const struct cmp_task *t, char *buf, size_t len);

/*
 * Timeline passes, shared by loading and the plots: each row of
 * DIR/timeline.tsv resolved to a task index (tasks are created when
 * create is set, else rows of unknown tasks are skipped).
 */
enum cmp_tl_event {
	CMP_EV_OTHER,  /* expire, requeue, state, ...: no change of state */
	CMP_EV_NEW,
	CMP_EV_FORK,
	CMP_EV_WAKE,
	CMP_EV_RUN,
	CMP_EV_PREEMPT,
	CMP_EV_BLOCK,
	CMP_EV_EXIT,
	CMP_EV_REAP,
	CMP_EV_GONE,   /* the record ends: its pid shows up under a new comm */
	CMP_EV_SKIP,   /* late, early: a burst ended but the task ran on (its
			 wake was already due): no change of state */
};

struct cmp_tl_row {
	int64_t time_ns;
	long task;
	enum cmp_tl_event ev;
	int prio;           /* -1 if absent */
	int static_prio;    /* -1 if absent */
};

typedef int (*cmp_tl_fn)(void *ctx, const struct cmp_tl_row *r,
			struct sr_diag *d);
int cmp_timeline_pass(struct cmp_set *s, const char *dir, bool create,
		     cmp_tl_fn fn, void *ctx, struct sr_diag *d);

/*
 * Latency rows resolved to task indexes (unknown tasks skipped).
 * The row's task is the latest occurrence of (pid, comm) first seen at or
 * before wake_ns in the reference run.
 */
struct cmp_lat_row {
	int64_t wake_ns, run_ns, delay_ns;
	long task;
};
typedef int (*cmp_lat_fn)(void *ctx, const struct cmp_lat_row *r,
			 struct sr_diag *d);
int cmp_latency_pass(struct cmp_set *s, const char *dir, cmp_lat_fn fn,
		    void *ctx, struct sr_diag *d);

/* Interbench's figures of a run for a periodic task, as percentages. */
double cmp_deadlines_met_pct(const struct cmp_figs *f);
double cmp_deadlines_met_own_pct(const struct cmp_figs *f);
double cmp_desired_cpu_pct(const struct cmp_figs *f);

#endif
