/*
 * replay: one trace replayed under several policies in one pass, the API
 * `replay`, `diff`, `plot` and `report` share.
 *
 * The trace is read once.  Its events feed the demand extraction (one
 * program per task), one simulator per policy, and `observed` (the
 * recorded schedule itself) side by side; the simulators advance as far as
 * the input read so far decides, so memory holds only the demand some
 * simulator has not consumed yet (docs/replay.md).
 *
 *	struct sr_replay_opts o = { .trace = "mix.perf.txt.gz",
 *				    .outdir = "out" };   // defaults otherwise
 *	struct sr_replay *r;
 *	if (sr_replay_run(&o, &r, d))
 *		return d->code;
 *	for (size_t i = 0; i < sr_replay_count(r); i++) {
 *		const struct sr_replay_policy *p = sr_replay_get(r, i);
 *		... p->name, p->rows[0 .. p->nrows-1] (sorted by pid)
 *	}
 *	sr_replay_free(r);
 *
 * What a policy gave each task comes three ways: its summary rows (kept,
 * above), and its timeline and latency rows, handed to a sink as they
 * are produced (struct sr_replay_sink: nothing is kept unless the caller
 * keeps it), the same rows the files get.  compare/ keeps them in memory
 * for diff, plot and report (compare/result.h); an exporter can write
 * them out as they come.
 */
#ifndef SR_REPLAY_H
#define SR_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/read-warn.h"
#include "lib/pool.h"
#include "parse/reader.h"
#include "replay/tlfilter.h"
#include "replay/demand.h"
#include "replay/metrics.h"
#include "replay/observed.h"
#include "replay/selection.h"
#include "replay/sim.h"
#include "replay/writers.h"

#define SR_REPLAY_OBSERVED "observed"
#define SR_REPLAY_MAX_POLICIES 16
#define SR_REPLAY_MAX_TUNE 32    /* --set, --rt: at most this many each */
#define SR_REPLAY_DEFAULT_BATCH 4096

/* The default policies, in order: stock, o11int, observed. */
extern const char *const sr_replay_default_policies[];

/*
 * Where each policy's rows go as they are produced, besides the files (or
 * instead of them, with outdir NULL): the same rows, in the same order,
 * as its timeline.tsv and latency.tsv get them.  policy is the index of
 * sr_replay_get().  A callback returns 0, or an error code that stops the
 * replay; pointers in a row are valid during the call only.  Either
 * callback may be NULL.
 */
struct sr_replay_sink {
	int (*timeline)(void *ctx, size_t policy, const struct sr_tl_row *r);
	int (*latency)(void *ctx, size_t policy, const struct sr_lat_row *r);
	void *ctx;
	/* the segments of each wait (waits.tsv's rows) as the wait ends,
	   before or after its latency row (held to be put in wake order):
	   simulated policies with attribution only */
	int (*waits)(void *ctx, size_t policy, const struct sr_wait_row *r);
};

/* A wait as it ends (latency.tsv's row), for sr_replay_hooks. */
struct sr_replay_wait {
	uint32_t task;                /* the timeline rows' task */
	int32_t pid;
	const char *comm;
	int64_t from, to;             /* runnable from, ran at */
	enum sr_acct_cause cause;
};

/*
 * What a caller sees of each policy's schedule while the replay runs
 * (`export` draws it): every timeline row the simulator reports, before
 * --timeline filters it (observed: the rows of its timeline.tsv), and
 * every wait as it ends.  policy: its index, as in sr_replay_get.  Each
 * policy's calls come in its own time order; calls of different policies
 * interleave in an order that depends on the batching, so a caller that
 * writes them keeps each policy apart.  A non-zero return stops the
 * replay with that status.
 */
struct sr_replay_hooks {
	int (*row)(void *ctx, size_t policy, const struct sr_tl_row *r);
	int (*wait)(void *ctx, size_t policy, const struct sr_replay_wait *w);
	void *ctx;
};

/* What --set and --rt ask of every replaying command. */
struct sr_replay_tuning {
	/* NAME=VALUE: set kernel constant NAME of every policy that has it
	   (sched-model/knobs.h); one policy at least must */
	const char *const *sets;
	size_t nsets;
	/* REGEX[:PRIO]: tasks whose comm matches run SCHED_RR at PRIO
	   (default SR_RT_DEFAULT_PRIO) under every policy (replay/sim.h) */
	const char *const *rt;
	size_t nrt;
};

/* Whether the replay takes the recording machine's wake costs and pinned
   tasks (replay/calib.h). */
enum sr_calibrate_mode {
	SR_CALIBRATE_AUTO,            /* read them from the recording */
	SR_CALIBRATE_NONE,            /* wakes at once, pins by name only;
					 a pipe streams without waiting */
};

/* "auto", "none"; NULL-terminated, for --calibrate */
extern const char *const sr_calibrate_names[];

/* Where the replay lets a task run (docs/replay.md, "Where tasks go"). */
enum sr_affinity_mode {
	SR_AFFINITY_AUTO,   /* the recording's context says, else inferred
			       from where tasks ran (replay/calib.h) */
	SR_AFFINITY_INFER,  /* inferred, whatever the context says */
	SR_AFFINITY_NONE,   /* every CPU (but per-CPU kernel threads) */
};

/* "auto", "infer", "none"; NULL-terminated, for --affinity */
extern const char *const sr_affinity_names[];

struct sr_replay_opts {
	const char *trace;            /* path, "-" for stdin */
	struct sr_read_opts read;     /* input format, lenient */
	/* names or aliases (sched-model/policies.c) or "observed";
	   NULL/0: sr_replay_default_policies */
	const char *const *policies;  /* POLICY[:NAME=VALUE,...] too */
	size_t npolicies;
	struct sr_replay_tuning tune; /* --set, --rt */
	const char *outdir;           /* write DIR/P/ files; NULL: none */
	const struct sr_replay_sink *sink; /* rows as they come; NULL: none */
	bool no_timeline, no_latency; /* skip those files */
	bool no_why;                  /* no attribution of waits: no
					 waits.tsv, latency.tsv's why and
					 behind_pid "-" (timing) */
	enum sr_tl_mode timeline;     /* simulated rows: changes (0) or all */
	const char *exclude;          /* pcre2 on comm: tasks left out */
	const char *only;             /* pcre2 on comm: only those tasks */
	const char *tree;             /* pcre2 on comm: only the tree of the
					 first task matching (demand.h) */
	enum sr_causal_mode causal;   /* which task wakes are causal */
	/* CPUs to replay on; 0: the recording's (its highest cpu that ran
	   a task, + 1); 1: the uniprocessor of 2003 */
	int cpus;
	bool has_cache_decay;         /* else SM_CACHE_DECAY_TICKS_DEFAULT */
	unsigned long cache_decay_ticks;
	enum sr_external_mode external;
	int64_t cs_cost_ns;
	int init_sleep_pct;           /* warm start of tasks alive at start */
	enum sr_calibrate_mode calibrate;
	enum sr_early_mode early;     /* --early-wake */
	enum sr_affinity_mode affinity;
	enum sr_group_mode group_sched; /* --group-sched (taskgroups.h) */
	enum sr_perf_compat compat;   /* how `observed` counts, as stats */
	size_t batch;                 /* events between simulator steps;
					 results do not depend on it */
	bool check;                   /* policy invariants every instant */
	/* threads the simulators run on at once (lib/pool.h): 0 every CPU
	   this process may use, 1 none (in the calling thread); never more
	   than the policies simulated.  Results do not depend on it.  With
	   more than one, the sink's and hooks' calls of different policies
	   may come at once from different threads (one policy's calls come
	   one at a time, in order): a caller whose callbacks share state
	   across policies asks for 1 */
	int jobs;
	const struct sr_replay_hooks *hooks; /* NULL: none */
	/* --pid, --start, --end (replay/selection.h): the summary rows,
	   timeline and latency rows (files and sink) of the tasks and the
	   window selected; the hooks still see everything.  NULL: all */
	const struct sr_selection *sel;
	/* the progress line (lib/progress.h) is read.progress: told the
	 * input read and the policies replayed */
};

/* One task's figures under one policy (a summary.tsv row). */
struct sr_replay_row {
	const struct sr_task_metrics *m;  /* pid, comm, runtime, delays... */
	struct sr_summary_figs {
		int64_t expired;          /* -1: unknown (observed) */
		int64_t late_wakeups;     /* -1: unknown */
		int64_t early_wakes;      /* causal wakes before their block
					     (replay/sim.h); -1: unknown */
		int64_t finish_ts;        /* end of its demand, trace clock */
		int64_t cpu_ns;           /* CPU consumed from its demand
					     (observed: recorded demand) */
		int64_t migrations;       /* cpu changes (observed: as
					     recorded) */
	} x;
};

struct sr_replay_policy {
	const char *name;             /* label: canonical name and tuning
					 ("o11int:MAX_SLEEP_AVG=2000"), or
					 "observed"; its output directory */
	const struct sm_policy *policy; /* NULL for observed */
	bool observed;
	struct sr_replay_row *rows;   /* sorted by pid (then comm, id) */
	size_t nrows;
	int64_t start, end;           /* the span reported, trace clock: the
					 replay's, or the window's part of
					 it (--start, --end) */
	struct sr_sim_stats sim;      /* zero for observed */
	/* memory: rows held for ordering (not demand, sr_replay_info) */
	uint64_t latency_rows_held;   /* most latency rows held to sort */
	uint64_t latency_rows_in_memory; /* most of them in memory (the
					    rest: a temporary file) */
	uint64_t timeline_rows_held;  /* most rows one instant held */
	struct sr_cpu_figs *cpu;      /* per cpu (observed: recorded cpus) */
	size_t ncpu;
};

struct sr_replay_info {
	const char *format;           /* input format detected */
	uint64_t events;              /* events read */
	int64_t first_ts, last_ts;
	int32_t ncpus;                /* cpus in the recording */
	int32_t ran_cpus;             /* its highest cpu that ran a task + 1 */
	int cpus;                     /* cpus replayed */
	uint64_t migrate_events;      /* sched_migrate_task events */
	struct sr_demand_stats demand; /* peak_held_ops: the demand held
					  while the slowest policy falls
					  behind the recording */
	const struct sr_read_stats *read; /* lost events, skipped lines */
	long lost_tasks;              /* marked lost in observed, -1: none */
	struct sr_loss loss;          /* the recording's loss, for headlines
					 (parse/read-warn.h); also written
					 to DIR/lost.tsv */
	/* what the replay left out (--exclude, --only, --only-tree): tasks, and
	   their CPU as the recording ran them and every task's, known
	   (left_known) when observed was replayed */
	size_t left_tasks;
	bool left_known;
	int64_t left_cpu_ns, total_cpu_ns;
	/* what the replay took from the recording's context (a trace of
	   schedreplay record, docs/record.md), as the headline says it:
	   "from the recording's context: HZ 250 for eevdf-6.18; the cpus
	   of 212 tasks (2 pinned to one)"; "" without a context */
	char ctx_said[512];
	struct sr_pool_stats steps;   /* the simulators' steps on threads
					 (jobs > 1; zero otherwise) */
	bool windowed;                /* --start or --end given */
	int64_t win_lo, win_hi;       /* the window, trace clock (open ends:
					 INT64_MIN, INT64_MAX) */
};

struct sr_replay;

/* A record first seen under a name (sr_replay_seen_at). */
struct sr_replay_seen {
	sr_tid id;
	uint32_t comm;                /* in the replay's name pool */
};

int sr_replay_run(const struct sr_replay_opts *o, struct sr_replay **out,
		  struct sr_diag *d);
size_t sr_replay_count(const struct sr_replay *r);
const struct sr_replay_policy *sr_replay_get(const struct sr_replay *r,
					     size_t i);
const struct sr_replay_info *sr_replay_info(const struct sr_replay *r);
/* The warnings after the read (parse/read-warn.h), on stderr. */
void sr_replay_warn(const struct sr_replay *r);

/*
 * The trace's task records (parse/tasks.h: pid, comm, exec chain,
 * parent), and the names events showed each record under, in the order
 * they first did (a comm can change without an exec): what `--tree`
 * needs, written to DIR/tasks.tsv and DIR/seen.tsv.
 */
const struct sr_tasks *sr_replay_tasks(const struct sr_replay *r);
size_t sr_replay_nseen(const struct sr_replay *r);
/* Sighting i: the record's id, *comm the name it was seen under. */
sr_tid sr_replay_seen_at(const struct sr_replay *r, size_t i,
			 const char **comm);

void sr_replay_free(struct sr_replay *r);

/*
 * The label `spec` (POLICY[:NAME=VALUE,...] or observed) gets in a replay
 * with tune: its output directory under -o.  Bad names or values:
 * SR_EUSAGE.
 */
int sr_replay_label(const char *spec, const struct sr_replay_tuning *tune,
		    char *buf, size_t len, struct sr_diag *d);

#endif
