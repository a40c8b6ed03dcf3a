/*
 * writers: the replay's three per-policy TSV files, the contract diff, plot
 * and report read (docs/replay.md, "Output files"):
 *
 *   timeline.tsv  time_ns pid comm event prio static_prio sleep_avg credit
 *                 time_slice array cpu from_cpu why  (rows in time order)
 *   latency.tsv   wake_ns run_ns delay_ns pid comm cause why behind_pid
 *                 (sorted by wake_ns, then run_ns, pid, arrival order;
 *                 a bounded reorder buffer, sr_latw, puts them so)
 *   waits.tsv     wake_ns pid comm seg_start_ns seg_end_ns why
 *                 running_pid running_comm running_prio cpu detail
 *                 (the segments of each wait, docs/why.md: written as
 *                 each wait ends, so in the order of the waits' ends,
 *                 a wait's segments together in time order; its
 *                 latency.tsv row has the same pid and wake_ns)
 *   summary.tsv   the columns of `stats --tsv`, then cpu_share expired
 *                 late_wakeups finish_s migrations  (sorted by pid)
 *   cpus.tsv      cpu busy_ns idle_ns switches balances pulls
 *   tasks.tsv, seen.tsv  (once per replay) the trace's tasks, below
 *
 * Unknown values are "-".  Control characters (tab, newline) in a comm
 * are written as '?', as in stats.
 */
#ifndef SR_WRITERS_H
#define SR_WRITERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"
#include "replay/metrics.h"
#include "parse/tasks.h"
#include "replay/sim.h"

/* Where rows go as they are produced (a file, a caller's sink): 0 or an
 * error code; pointers in the row are valid during the call only. */
typedef int (*sr_tl_fn)(void *ctx, const struct sr_tl_row *r);

void sr_timeline_header(FILE *f);
void sr_timeline_row(FILE *f, const struct sr_tl_row *r);

/* One latency.tsv row: a wait from wake (runnable) to run. */
struct sr_lat_row {
	int64_t wake, run;
	int32_t pid;
	const char *comm;
	enum sr_acct_cause cause;
	bool attributed;          /* why and behind_pid say something (a
				     simulated policy's, with attribution) */
	int why;                  /* the reason covering most of the wait
				     (enum sm_why_code; NONE: no length) */
	int32_t behind_pid;       /* the task that ran longest during it,
				     -1: none */
};
typedef int (*sr_lat_fn)(void *ctx, const struct sr_lat_row *r);

void sr_latency_header(FILE *f);
void sr_latency_row(FILE *f, const struct sr_lat_row *r);

/* One waits.tsv row: a segment of a wait. */
struct sr_wait_row {
	int64_t wake, run;        /* the wait's (its latency row's) */
	int32_t pid;
	const char *comm;
	int64_t start, end;       /* the segment */
	struct sm_why why;
	int32_t running_pid;      /* -1: none */
	const char *running_comm; /* "" when none */
	int running_prio;         /* -1: none */
	int cpu;
};
typedef int (*sr_wait_fn)(void *ctx, const struct sr_wait_row *r);

void sr_waits_header(FILE *f);
void sr_waits_row(FILE *f, const struct sr_wait_row *r);

/* A wait's attribution, for sr_latw_add: its segments (replay/sim.h),
 * their running tasks' names through name(name_ctx, comm). */
struct sr_lat_why {
	const struct sr_wait_seg *segs;
	size_t nsegs;
	const char *(*name)(const void *ctx, uint32_t comm);
	const void *name_ctx;
};

/*
 * latency.tsv rows arrive as waits end (in run order); they go out, to
 * emit, in wake order.  A row is held until no wait still open, and none
 * to come, can start before it: the open waits are read from the
 * accounting the rows come from, so the rows held are those overtaken by
 * a longer wait.  At most LATW_MEM_ROWS of them are in memory, the rest in
 * a temporary file (replay/sortbuf.h): a wait that never ends holds every
 * row after it, in flat memory.
 */
struct sr_latw;

int sr_latw_new(struct sr_latw **w, const struct sr_acct *acct,
		sr_lat_fn emit, sr_wait_fn emit_wait, void *ctx,
		struct sr_diag *d);
/* A wait of task (pid, comm) from `from` to `to`; `to` is the time now;
 * why: its attribution (NULL: none, the latency row says "-"), whose
 * segments go to emit_wait in the latency rows' order. */
int sr_latw_add(struct sr_latw *w, int64_t from, int64_t to, int32_t pid,
		const char *comm, enum sr_acct_cause cause,
		const struct sr_lat_why *why);
/* Every row still held goes out (at the end). */
int sr_latw_flush(struct sr_latw *w);
void sr_latw_free(struct sr_latw *w);
/* Rows held: at most, at most in memory, written to the file. */
struct sr_sortbuf_stats;
void sr_latw_stats(const struct sr_latw *w, struct sr_sortbuf_stats *st);

/* What summary.tsv adds to a task's stats figures. */
struct sr_summary_extra {
	int64_t span_ns;        /* the replay's length, for cpu_share */
	int64_t expired;        /* -1: unknown ("-") */
	int64_t late_wakeups;   /* -1: unknown */
	int64_t finish_ts;      /* trace clock */
	bool has_finish;
	int64_t migrations;     /* -1: unknown */
};

/* runtime / span in millionths, rounded (summary's cpu_share). */
int64_t sr_share_ppm(int64_t runtime_ns, int64_t span_ns);

void sr_summary_header(FILE *f);
void sr_summary_row(FILE *f, const struct sr_task_metrics *m,
		    const struct sr_summary_extra *x);

/*
 * The trace's tasks, for `--tree` on a replay directory:
 *   tasks.tsv  id pid tgid thread parent idle comm  (one row per record
 *              of the reader's task table, parse/tasks.h, in id order;
 *              thread and parent are ids, "-" when none)
 *   seen.tsv   id comm  (the names events showed each record under, in
 *              the order they first did)
 */
void sr_tasks_write(FILE *f, const struct sr_tasks *t);
void sr_seen_header(FILE *f);
void sr_seen_row(FILE *f, sr_tid id, const char *comm);

void sr_cpus_header(FILE *f);
void sr_cpus_row(FILE *f, int cpu, const struct sr_cpu_figs *c);

#endif
