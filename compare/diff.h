/*
 * diff: what policy B changed against policy A, task by task, on the same
 * trace: the figures side by side with their change (absolute and ratio),
 * sorted by the change in p99 delay, and a headline naming the interactive
 * tasks that got better or worse, the batch work's completion time and the
 * periodic tasks' deadlines.  Written as a table, TSV or JSON.
 */
#ifndef CMP_DIFF_H
#define CMP_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/runset.h"
#include "compare/select.h"
#include "lib/diag.h"

/* A replay that ends this much (% of the trace) after the recording: late. */
#define CMP_LATE_PCT 10
/* A p99 change counts when it is at least 10% and at least 0.1 ms. */
#define CMP_CHANGE_MIN_PCT 10
#define CMP_CHANGE_MIN_NS 100000LL
#define CMP_HEADLINE_NAMES 5    /* tasks named per headline line */
#define CMP_HEADLINE_PERIODIC 4 /* periodic tasks in the headline */
#define CMP_TABLE_ROWS 30       /* rows of the human table without --all */

enum cmp_verdict { CMP_SAME, CMP_BETTER, CMP_WORSE };

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
};

int cmp_diff_build(struct cmp_diff *df, const struct cmp_set *s, size_t a,
		  size_t b, const struct cmp_taskre *re, struct sr_diag *d);
void cmp_diff_free(struct cmp_diff *df);

enum cmp_verdict cmp_verdict_of(const struct cmp_task *t, size_t a, size_t b);

/*
 * The headline as lines of text (no newline), one call per line:
 * fn(ctx, line).  Shared by the table, the JSON and the report.
 */
typedef void (*cmp_line_fn)(void *ctx, const char *line);
void cmp_diff_headline(const struct cmp_diff *df, cmp_line_fn fn, void *ctx);

int cmp_diff_write_table(const struct cmp_diff *df, FILE *f, bool all);
int cmp_diff_write_tsv(const struct cmp_diff *df, FILE *f);
int cmp_diff_write_json(const struct cmp_diff *df, FILE *f);

#endif
