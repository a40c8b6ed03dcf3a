/*
 * result: one policy's results in memory, as diff, plot and report read
 * them: its summary rows, latency rows and timeline rows, with the
 * columns compare/ uses.
 *
 * Filled either from a replay as it runs (cmp_result_add_*: the rows the
 * replay hands its sink, replay/replay.h, and its summary rows at the
 * end) or from a replay directory (cmp_result_read: DIR/P/summary.tsv,
 * latency.tsv, timeline.tsv and waits.tsv read back by column name).  The
 * rows are the same either way, field for field, so a saved replay gives
 * diff, plot and report exactly what the trace gives.  Memory: 40 bytes a
 * latency row, 24 a timeline row, 48 a segment of a wait, about 200 a
 * summary row, each task name once.
 */
#ifndef CMP_RESULT_H
#define CMP_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "lib/strpool.h"
#include "replay/replay.h"

#define CMP_POLICY_MAX 256 /* a policy's label: its tuning too */

/* What a timeline row says happened to its task. */
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
	CMP_EV_MIGRATE,/* moved to another CPU: no change of state */
};

/*
 * What one task got under one policy: its summary row's figures (times
 * in ns; expired and late_wakeups 0 where unknown, as for observed), then
 * what compare/ derives from the other rows (compare/behave.h).
 */
struct cmp_figs {
	bool present;            /* a summary row in this run */
	int64_t runtime_ns;
	uint64_t switches, wakeups;
	int64_t avg_ns, p50_ns, p95_ns, p99_ns, max_ns;
	double cpu_share;        /* summary's cpu_share, a fraction */
	uint64_t expired, late_wakeups;
	int64_t finish_ns;       /* trace clock; 0 if unknown */
	bool lost;               /* lost events touched its figures (the
				    recorded schedule's summary says so) */
	/* from the latency rows */
	uint64_t ndelays;
	long double sum_ns, sumsq_ns;
	double sd_ns;            /* true sample standard deviation */
	double ib_sd_ns;         /* interbench's printed "SD" (docs/plots.md) */
	/* periodic tasks (interbench): over the reference periods */
	uint64_t periods, deadlines_met;
	uint64_t deadlines_met_own; /* on the run's own clock (docs/plots.md) */
	int64_t cpu_wanted_ns, cpu_got_ns;
};

/* A summary row. */
struct cmp_sum {
	int32_t pid;
	uint32_t comm;           /* in the result's name pool */
	struct cmp_figs f;       /* the summary's figures only */
};

/* A latency row: one wait. */
struct cmp_lat {
	int64_t wake_ns, delay_ns;
	int32_t pid;
	uint32_t comm;
	/* its attribution (latency.tsv's why and behind_pid; its segments
	   seg[seg0 .. seg0 + nseg - 1], linked by cmp_result_link) */
	bool attributed;
	uint8_t why;                /* enum sm_why_code */
	int32_t behind_pid;         /* -1: none */
	uint32_t seg0, nseg;
};

/* A segment of a wait: waits.tsv's row. */
struct cmp_seg {
	int64_t wake_ns;            /* its wait's */
	int64_t start_ns, dur_ns;
	int32_t pid;                /* the waiting task */
	int32_t running_pid;        /* -1: none */
	uint32_t running_comm;      /* in the name pool */
	int16_t running_prio, cpu;  /* -1: none */
	struct sm_why why;
};

/* A timeline row. */
struct cmp_tl {
	int64_t time_ns;
	int32_t pid;
	uint32_t comm;
	int16_t prio, static_prio;  /* -1: not known */
	uint8_t ev;                 /* enum cmp_tl_event */
	uint8_t known;              /* an event name compare/ knows */
};

struct cmp_result {
	char policy[CMP_POLICY_MAX];
	int cpus;                   /* CPUs it ran on (observed: recorded);
				       0: not known */
	struct sr_strpool names;
	struct cmp_sum *sum;        /* as summary.tsv: sorted by pid */
	size_t nsum, capsum;
	struct cmp_lat *lat;        /* as latency.tsv: by wake time */
	size_t nlat, caplat;
	struct cmp_tl *tl;          /* as timeline.tsv: by time */
	size_t ntl, captl;
	struct cmp_seg *seg;        /* as waits.tsv: by wait, then time */
	size_t nseg, capseg;
	bool has_waits;             /* the run's waits are attributed */
};

/* An empty result named policy (copied, at most CMP_POLICY_MAX - 1). */
void cmp_result_init(struct cmp_result *r, const char *policy);
void cmp_result_free(struct cmp_result *r);
const char *cmp_result_comm(const struct cmp_result *r, uint32_t comm);

/* Rows from a replay: what its sink gets, and its summary rows with the
 * replay's span (for cpu_share).  SR_EINTERNAL when out of memory. */
int cmp_result_add_tl(struct cmp_result *r, const struct sr_tl_row *row);
int cmp_result_add_lat(struct cmp_result *r, const struct sr_lat_row *row);
int cmp_result_add_wait(struct cmp_result *r, const struct sr_wait_row *row);
/* Give each latency row its segments (after the last row is in): the
 * waits' segments come in the latency rows' order.  SR_EDATA when they
 * do not match (a segment of no wait, segments that do not add up to
 * their wait's delay), naming what. */
int cmp_result_link(struct cmp_result *r, struct sr_diag *d);
int cmp_result_add_sums(struct cmp_result *r, const struct sr_replay_policy *p);

/*
 * A policy's directory of a replay directory: cmp_result_check says
 * whether DIR holds summary.tsv, latency.tsv and timeline.tsv (an error
 * naming the one missing); cmp_result_read reads those of them `what`
 * asks for (a missing column or a bad number is an error naming
 * FILE:LINE).
 */
#define CMP_READ_SUM 1u
#define CMP_READ_LAT 2u
#define CMP_READ_TL 4u
#define CMP_READ_WAITS 8u  /* waits.tsv, when the run has it */
#define CMP_READ_ALL 15u
int cmp_result_check(const char *dir, const char *policy, struct sr_diag *d);
int cmp_result_read(struct cmp_result *r, const char *dir, unsigned what,
		    struct sr_diag *d);

#endif
