/*
 * summary: per-task figure rows as output: sorting, merging by command
 * name, the TSV writer (`stats --tsv`, the first columns of replay's
 * summary.tsv), the JSON writer (`stats --json`) and the human table
 * (`stats`).
 *
 * TSV columns, in this order, stable:
 *   pid comm runtime_ms switches wakeups avg_delay_ms p50_delay_ms
 *   p95_delay_ms p99_delay_ms max_delay_ms max_delay_start_s
 *   max_delay_end_s tasks lost
 * Times in ms have 6 decimals and in s 9 (both exact nanoseconds); pid is
 * "-" on a row merging several tasks; lost is 1 if lost events touched
 * the figures; control characters in comm are written as '?'.
 */
#ifndef SR_SUMMARY_H
#define SR_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "lib/diag.h"
#include "replay/metrics.h"

enum sr_sort_key {
	SR_SORT_PID, SR_SORT_COMM, SR_SORT_RUNTIME, SR_SORT_SWITCHES,
	SR_SORT_WAKEUPS, SR_SORT_AVG, SR_SORT_P50, SR_SORT_P95, SR_SORT_P99,
	SR_SORT_MAX, SR_SORT__COUNT
};

#define SR_SORT_MAX_KEYS 8

struct sr_sort {
	int nkeys;
	enum sr_sort_key keys[SR_SORT_MAX_KEYS];
};

/* Default orders: TSV by pid; the table like perf (avg,max,switches,runtime). */
#define SR_SORT_DEFAULT_TSV "pid"
#define SR_SORT_DEFAULT_TABLE "avg,max,switches,runtime"

/*
 * Parse "key[,key...]" (pid comm runtime switches wakeups avg p50 p95 p99
 * max).  Measures sort largest first, pid and comm ascending; ties end
 * with pid, comm, then task id ascending, so the order is total.
 */
int sr_sort_parse(const char *spec, struct sr_sort *s, struct sr_diag *d);
/* Names accepted, for usage messages: "pid, comm, ..." */
const char *sr_sort_keys_help(void);
int sr_rows_sort(struct sr_task_metrics **rows, size_t n,
		 const struct sr_sort *s, struct sr_diag *d);

/*
 * Merge rows by comm, as perf sched latency does without -p: one row per
 * distinct comm (sums, counts, distributions, the max with its bounds).
 * *out is a malloc'd array of rows that sr_rows_free_merged() frees.
 */
int sr_rows_by_comm(struct sr_task_metrics *const *rows, size_t n,
		    struct sr_task_metrics **out, size_t *nout,
		    struct sr_diag *d);
void sr_rows_free_merged(struct sr_task_metrics *rows, size_t n);

/* Header line and one row of the TSV columns above, without the newline,
 * so callers can append columns of their own. */
void sr_tsv_header(FILE *f);
void sr_tsv_row(FILE *f, const struct sr_task_metrics *m);
void sr_write_tsv(FILE *f, struct sr_task_metrics *const *rows, size_t n);

/* The same figures as JSON: {"trace": NAME, "lost_events": LOSS,
 * "tasks": [{"pid": .., "comm": .., "runtime_ms": .., ... "lost": false},
 * ...]}, a key per TSV column with the same exact decimals; pid null on a
 * merged row.  LOSS: the recording's (parse/read-warn.h, sr_loss_json),
 * null without a loss or loss NULL. */
struct sr_loss;
void sr_write_json(FILE *f, const char *trace, const struct sr_loss *loss,
		   struct sr_task_metrics *const *rows, size_t n);

/* The human table (perf-like, ms with 3 decimals), with a TOTAL line. */
void sr_write_table(FILE *f, struct sr_task_metrics *const *rows, size_t n);

#endif
