/*
 * runset: one trace replayed under several policies, side by side, task
 * by task (the runs' rows in memory, compare/result.h), with each task's
 * behaviour taken from a reference run.
 *
 * A task is named across runs by (pid, comm, occ): occ counts the tasks
 * that had this pid and comm before it (pid reuse after exit, or an exec
 * back to an earlier name), in order of appearance.  The reference run is
 * `observed` (the recorded schedule) when ROOT holds it, else the first
 * policy compared: it says how each task behaves (how much it sleeps, how
 * often it wakes, whether it wakes at a steady period) independently of
 * the policies being compared.
 *
 * Loading goes over each run's rows once or twice; besides the rows,
 * memory grows with the number of tasks and, for the reference run, with
 * its wakeups.
 */
#ifndef CMP_RUNSET_H
#define CMP_RUNSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/result.h"
#include "lib/diag.h"
#include "replay/selection.h"

struct sr_loss;

#define CMP_COMM_MAX 64
#define CMP_MAX_RUNS 8

struct cmp_procs;
struct cmp_group_opts;

enum cmp_class {
	CMP_CLASS_OTHER,
	CMP_CLASS_INTERACTIVE, /* sleeps most of its life and wakes often */
	CMP_CLASS_BATCH,       /* CPU-bound: runnable most of its life */
};

const char *cmp_class_name(enum cmp_class c);

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
	uint32_t late_wakes;    /* wakeups it waited CMP_STARVED_WAIT_NS or
				   more after, every CPU busy (behave.h) */
	bool starved;           /* the recording starved it (behave.h) */
	bool lost;              /* lost events touched its recorded figures
				   (marked '!') */
	struct cmp_figs *figs;   /* [set->nruns] */
	bool selected;          /* for plots */
	bool in_focus;          /* in the --tree focus (compare/tree.h) */
	bool in_cmd;            /* in the recorded command's tree */
	long parent;            /* the task that forked it, -1 (tree.h) */
	int64_t desc_busy_ns;   /* asleep while a descendant was busy */
	int group;              /* compare/verdict.h, -1: none */
	int notice;             /* the order a person notices tasks in,
				   lowest first (compare/select.h); 0 for
				   all until cmp_verdict_assign */
};

struct cmp_run {
	char policy[CMP_POLICY_MAX];
	const struct cmp_result *res; /* its rows */
	int cpus;               /* CPUs it ran on; 0: not known */
};

/* --period comm=ms */
struct cmp_period_opt {
	char comm[CMP_COMM_MAX];
	int64_t period_ns;
};

struct cmp_set {
	char *title;            /* names the trace in headings */
	struct cmp_run runs[CMP_MAX_RUNS];
	size_t nruns;           /* runs[0] = A, runs[1] = B in a diff */
	char ref_policy[CMP_POLICY_MAX];
	const struct cmp_result *ref; /* the reference run's rows */
	struct cmp_task *tasks;
	size_t ntasks, cap;
	uint32_t *hash;         /* open addressing over tasks, by key */
	size_t hcap;
	int ref_cpus;           /* the reference run's cpus (observed: the
				   recording's), 0 if unknown */
	int64_t t0, t1;         /* span of the reference timeline */
	bool have_t;
	const struct cmp_period_opt *period_opts;
	size_t nperiod_opts;
	uint64_t unknown_events;/* timeline events we do not interpret */
	const struct cmp_procs *procs; /* the trace's task table, NULL:
					  none (compare/tree.h) */
	bool has_cmd;           /* tasks[].in_cmd is marked */
	const char *cmd_root;   /* the comm of its root */
	const struct cmp_group_opts *groups; /* --group (verdict.h), NULL */
	char ctx_said[512];     /* what the replay took from the
				   recording's context, "" if nothing */
	char rules[160];        /* the replay's rules that are not the
				   defaults ("--external relative, ..."),
				   "" if none */
	bool left_known;        /* the replay said what it left out */
	size_t left_tasks;      /* tasks left out of the replay */
	int64_t left_cpu_ns;    /* and their CPU in the recording */
	int64_t total_cpu_ns;   /* every task's (left_known) */
	bool focus;             /* only tasks in_focus count (--tree) */
	const char *focus_regex;/* the --tree regex, for headings */
	size_t focus_tasks;     /* tasks in the focus */
	/* --pid (only those tasks are shown) and the window the runs were
	   replayed with (--start, --end), for headings; NULL: none */
	const struct sr_selection *sel;
	/* where the trace starts (its first event): "time since the trace
	   start" counts from here; without it (a replay directory), t0 */
	int64_t origin;
	int64_t trace_end;      /* its last event, 0 if not known */
	const struct sr_loss *loss; /* the recording's lost events, NULL:
				       not known (parse/read-warn.h) */
};

/*
 * A set of the runs res[0..nruns-1] (kept by the caller while the set
 * lives), ref the reference run (NULL: res[0]).  title names the trace.
 */
int cmp_set_open(struct cmp_set *s, const char *title,
		 struct cmp_result *const *res, size_t nruns,
		 const struct cmp_result *ref, struct sr_diag *d);
/* Every run's summary rows into tasks[].figs (compare/load.h reads the
 * rest). */
int cmp_set_read_summaries(struct cmp_set *s, struct sr_diag *d);
void cmp_set_free(struct cmp_set *s);

/* Task index for a key, or -1. */
long cmp_set_find(const struct cmp_set *s, int32_t pid, const char *comm,
		 uint32_t occ);

/* The task is shown: in the --tree focus (or no focus is set), and its
 * pid selected (or no --pid). */
static inline bool cmp_task_shown(const struct cmp_set *s, const struct cmp_task *t)
{
	return (!s->focus || t->in_focus) && sr_sel_pid(s->sel, t->pid);
}

/* "comm (pid)", with "#occ" when occ > 1, then " !" when lost events
 * touched its recorded figures. */
void cmp_task_label(const struct cmp_task *t, char *buf, size_t len);

/* The opening every JSON document about the set shares: '{', its
 * "trace" (the title) and "lost_events" (null when the recording lost
 * none or did not say), without the comma after. */
void cmp_set_json_head(const struct cmp_set *s, FILE *f);

/*
 * Timeline passes, shared by loading and the plots: each timeline row of
 * a run resolved to a task index (tasks are created when create is set,
 * else rows of unknown tasks are skipped).
 */
struct cmp_tl_row {
	int64_t time_ns;
	long task;
	enum cmp_tl_event ev;
	int prio;           /* -1 if absent */
	int static_prio;    /* -1 if absent */
};

typedef int (*cmp_tl_fn)(void *ctx, const struct cmp_tl_row *r,
			struct sr_diag *d);
int cmp_timeline_pass(struct cmp_set *s, const struct cmp_result *res,
		      bool create, cmp_tl_fn fn, void *ctx, struct sr_diag *d);

/*
 * Latency rows resolved to task indexes (unknown tasks skipped).
 * The row's task is the latest occurrence of (pid, comm) first seen at or
 * before wake_ns in the reference run; when that record has no summary
 * row in the run (an earlier name of a task that exec'd or renamed
 * itself), the record of its pid that has one, the name the kernel task
 * ended with: a task's waits are those its figures count.
 */
struct cmp_lat_row {
	int64_t wake_ns, delay_ns;
	long task;
	const struct cmp_lat *lat;  /* the row itself (its attribution) */
};
typedef int (*cmp_lat_fn)(void *ctx, const struct cmp_lat_row *r,
			 struct sr_diag *d);
int cmp_latency_pass(struct cmp_set *s, const struct cmp_result *res,
		     cmp_lat_fn fn, void *ctx, struct sr_diag *d);

/* Interbench's figures of a run for a periodic task, as percentages. */
double cmp_deadlines_met_pct(const struct cmp_figs *f);
double cmp_deadlines_met_own_pct(const struct cmp_figs *f);
double cmp_desired_cpu_pct(const struct cmp_figs *f);

#endif
