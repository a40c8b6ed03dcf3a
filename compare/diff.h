/*
 * diff: what policy B changed against policy A, task by task, on the same
 * trace: the figures side by side with their change (absolute and ratio),
 * sorted by the change in p99 delay, and a headline naming the interactive
 * tasks that got better or worse, the batch work's completion time and the
 * periodic tasks' deadlines.  With more policies, each against the first
 * (the baseline) in one table (struct cmp_ndiff).  Written as a table,
 * TSV or JSON.
 */
#ifndef CMP_DIFF_H
#define CMP_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/runset.h"
#include "compare/select.h"
#include "compare/verdict.h"
#include "lib/diag.h"

/* A replay that ends this much (% of the trace) after the recording: late. */
#define CMP_LATE_PCT 10
/* A p99 change counts by the verdict's rule (verdict-rule.h: at least
 * CMP_CHANGE_MIN_PCT % and CMP_CHANGE_MIN_NS). */
#define CMP_HEADLINE_NAMES 5    /* tasks named per headline line */
#define CMP_HEADLINE_PERIODIC 4 /* periodic tasks in the headline */
#define CMP_TABLE_ROWS 30       /* rows of the human table without --all */
#define CMP_SCREEN_COLS 100     /* the first screen's lines: at most this */

struct cmp_diff {
	const struct cmp_set *s;
	size_t a, b;              /* run indexes */
	long *rows;               /* task indexes in diff order */
	size_t nrows;
	/* headline */
	long *inter;              /* interactive tasks, diff order */
	size_t ninter;
	size_t nbetter, nworse;
	long *periodic;           /* periodic tasks, diff order */
	long *periodic_head;      /* the same, headline order */
	size_t nperiodic;
	size_t nbatch;
	int64_t batch_cpu_ns;
	bool batch_done_known;
	int64_t batch_done_a, batch_done_b; /* after the trace start */
	char batch_names[160];    /* "cc1 x40, as x12, ..." */
	/* how much CPU the whole trace asks for, and when each run ended */
	int64_t demand_ns;        /* every task's runtime under A */
	int64_t end_a, end_b;     /* last finish under A, B (trace clock) */
	bool behind;              /* the replays run behind the recording:
				     deadlines on their own clock */
	/* the verdict per group (compare/verdict.h), written first; NULL:
	   none (set by the caller) */
	const struct cmp_verdicts *verdict;
};

int cmp_diff_build(struct cmp_diff *df, const struct cmp_set *s, size_t a,
		  size_t b, const struct cmp_taskre *re, struct sr_diag *d);
void cmp_diff_free(struct cmp_diff *df);

/* The word of task t's p99 (TSV's and JSON's p99_verdict). */
enum cmp_verdict cmp_verdict_of(const struct cmp_task *t, size_t a, size_t b);
/* Task t's word in the headline, by the verdict's rule on the figure
 * that leads for it (verdict-rule.h): deadlines met for a periodic task
 * (the replay's own clock when it runs behind), else p99 (20 waits). */
enum cmp_verdict cmp_task_verdict(const struct cmp_diff *df,
				  const struct cmp_task *t);

/*
 * The headline as lines of text (no newline), one call per line:
 * fn(ctx, line).  Shared by the table, the JSON and the report.
 */
typedef void (*cmp_line_fn)(void *ctx, const char *line);
void cmp_diff_headline(const struct cmp_diff *df, cmp_line_fn fn, void *ctx);
/* The replays of runs[0..nr-1] fall behind the recording's clock (the
 * headline's note says so): the work needs more CPUs than were replayed,
 * or a replay ends more than CMP_LATE_PCT % of the trace after it. */
bool cmp_replay_behind(const struct cmp_set *s, const size_t *runs, size_t nr);

/*
 * Any number of policies: the first run (the baseline) against each of
 * the others, one pair each, and every task in one order.
 */
struct cmp_ndiff {
	const struct cmp_set *s;
	struct cmp_diff pair[CMP_MAX_RUNS - 1]; /* run 0 against run k + 1 */
	size_t npairs;            /* s->nruns - 1 */
	long *rows;               /* tasks present in any run, in the order
				     of cmp_diff_order_all */
	size_t nrows;
	/* the verdict of each pair (pair[k].verdict points into it), NULL:
	   none; cmp_verdict_build_n (compare/verdict.h) */
	struct cmp_verdicts *verdicts;
};

int cmp_ndiff_build(struct cmp_ndiff *nd, const struct cmp_set *s,
		    const struct cmp_taskre *re, struct sr_diag *d);
void cmp_ndiff_free(struct cmp_ndiff *nd);

/*
 * The headline of every pair: with one pair, cmp_diff_headline's lines;
 * with more, the CPUs and the note about a replay that falls behind once,
 * then for each policy a line "POLICY against BASELINE:" and its lines.
 */
void cmp_ndiff_headline(const struct cmp_ndiff *nd, cmp_line_fn fn, void *ctx);
/* Its parts, for a page that lays them out itself: what every policy
 * shares (the CPUs, the note), and one pair's own lines. */
void cmp_ndiff_headline_common(const struct cmp_ndiff *nd, cmp_line_fn fn,
			       void *ctx);
void cmp_diff_headline_policy(const struct cmp_diff *df, cmp_line_fn fn,
			      void *ctx);

/* Table (policy names and the verdict's words coloured when color; the
 * verdict's reasons when why; the lines before the tables wrapped to
 * CMP_SCREEN_COLS), TSV (one row per task and
 * compared policy: policy_a is the baseline), JSON. */
int cmp_ndiff_write_table(const struct cmp_ndiff *nd, FILE *f, bool all,
			  bool color, bool why);
int cmp_ndiff_write_tsv(const struct cmp_ndiff *nd, FILE *f);
int cmp_ndiff_write_json(const struct cmp_ndiff *nd, FILE *f);

#endif
