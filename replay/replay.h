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
 */
#ifndef SR_REPLAY_H
#define SR_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/reader.h"
#include "replay/tlfilter.h"
#include "replay/demand.h"
#include "replay/metrics.h"
#include "replay/observed.h"
#include "replay/sim.h"

#define SR_REPLAY_OBSERVED "observed"
#define SR_REPLAY_MAX_POLICIES 16
#define SR_REPLAY_DEFAULT_BATCH 4096

/* The default policies, in order: stock, o11int, observed. */
extern const char *const sr_replay_default_policies[];

struct sr_replay_opts {
	const char *trace;            /* path, "-" for stdin */
	struct sr_read_opts read;     /* input format, lenient */
	/* names or aliases (sched-model/policies.c) or "observed";
	   NULL/0: sr_replay_default_policies */
	const char *const *policies;
	size_t npolicies;
	const char *outdir;           /* write DIR/P/ files; NULL: none */
	bool no_timeline, no_latency; /* skip those files */
	enum sr_tl_mode timeline;     /* simulated rows: changes (0) or all */
	const char *exclude;          /* pcre2 on comm: tasks left out */
	enum sr_causal_mode causal;   /* which task wakes are causal */
	int cpus;                     /* 0 or 1 (more: refused for now) */
	enum sr_external_mode external;
	int64_t cs_cost_ns;
	int init_sleep_pct;           /* warm start of tasks alive at start */
	enum sr_perf_compat compat;   /* how `observed` counts, as stats */
	size_t batch;                 /* events between simulator steps;
					 results do not depend on it */
	bool check;                   /* policy invariants every instant */
};

/* One task's figures under one policy (a summary.tsv row). */
struct sr_replay_row {
	const struct sr_task_metrics *m;  /* pid, comm, runtime, delays... */
	struct sr_summary_figs {
		int64_t expired;          /* -1: unknown (observed) */
		int64_t late_wakeups;     /* -1: unknown */
		int64_t finish_ts;        /* end of its demand, trace clock */
		int64_t cpu_ns;           /* CPU consumed from its demand
					     (observed: recorded demand) */
	} x;
};

struct sr_replay_policy {
	const char *name;             /* canonical name, or "observed" */
	const struct sm_policy *policy; /* NULL for observed */
	bool observed;
	struct sr_replay_row *rows;   /* sorted by pid (then comm, id) */
	size_t nrows;
	int64_t start, end;           /* replay span, trace clock */
	struct sr_sim_stats sim;      /* zero for observed */
	uint64_t latency_rows_held;   /* most latency rows held to sort */
};

struct sr_replay_info {
	const char *format;           /* input format detected */
	uint64_t events;              /* events read */
	int64_t first_ts, last_ts;
	int32_t ncpus;                /* cpus in the recording */
	struct sr_demand_stats demand;
	const struct sr_read_stats *read; /* lost events, skipped lines */
	long lost_tasks;              /* marked lost in observed, -1: none */
};

struct sr_replay;

int sr_replay_run(const struct sr_replay_opts *o, struct sr_replay **out,
		  struct sr_diag *d);
size_t sr_replay_count(const struct sr_replay *r);
const struct sr_replay_policy *sr_replay_get(const struct sr_replay *r,
					     size_t i);
const struct sr_replay_info *sr_replay_info(const struct sr_replay *r);
/* The warnings after the read (parse/read-warn.h), on stderr. */
void sr_replay_warn(const struct sr_replay *r);
void sr_replay_free(struct sr_replay *r);

#endif
