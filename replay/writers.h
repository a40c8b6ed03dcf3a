/*
 * writers: the replay's three per-policy TSV files, the contract diff, plot
 * and report read (docs/replay.md, "Output files"):
 *
 *   timeline.tsv  time_ns pid comm event prio static_prio sleep_avg credit
 *                 time_slice array          (rows in time order)
 *   latency.tsv   wake_ns run_ns delay_ns pid comm cause
 *                 (sorted by wake_ns, then run_ns, pid, arrival order)
 *   summary.tsv   the columns of `stats --tsv`, then cpu_share expired
 *                 late_wakeups finish_s     (sorted by pid)
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

void sr_timeline_header(FILE *f);
void sr_timeline_row(FILE *f, const struct sr_tl_row *r);

/*
 * latency.tsv rows arrive as waits end (in run order); they are written in
 * wake order.  A row is held until no wait still open, and none to come,
 * can start before it: the open waits are read from the accounting the
 * rows come from, so the rows held are those overtaken by a longer wait.
 */
struct sr_latw;

int sr_latw_new(struct sr_latw **w, FILE *f, const struct sr_acct *acct,
		struct sr_diag *d);
/* A wait of task (pid, comm) from `from` to `to`; `to` is the time now. */
int sr_latw_add(struct sr_latw *w, int64_t from, int64_t to, int32_t pid,
		const char *comm, enum sr_acct_cause cause);
/* Write every row still held (at the end). */
int sr_latw_flush(struct sr_latw *w);
void sr_latw_free(struct sr_latw *w);
uint64_t sr_latw_peak(const struct sr_latw *w); /* most rows ever held */

/* What summary.tsv adds to a task's stats figures. */
struct sr_summary_extra {
	int64_t span_ns;        /* the replay's length, for cpu_share */
	int64_t expired;        /* -1: unknown ("-") */
	int64_t late_wakeups;   /* -1: unknown */
	int64_t finish_ts;      /* trace clock */
	bool has_finish;
};

void sr_summary_header(FILE *f);
void sr_summary_row(FILE *f, const struct sr_task_metrics *m,
		    const struct sr_summary_extra *x);

#endif
