/*
 * source: where diff, plot and report get their results.  TRACE is either
 * a trace file, replayed here, in memory, under the policies compared and
 * `observed` (the recorded schedule, the reference for behaviour), or a
 * directory that `schedreplay replay -o DIR` wrote before, read back.
 * Either way the results are the same structures (compare/result.h),
 * and the trace's tasks for --tree (compare/tree.h) come with them: from
 * the replay's task table (the trace is read once), or from DIR/tasks.tsv.
 */
#ifndef CMP_SOURCE_H
#define CMP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/result.h"
#include "compare/tree.h"
#include "lib/diag.h"
#include "replay/replay.h"

struct sr_progress;

/* How a comparison replays the demand: replay's --causal, --external,
 * --cs-cost, --warm, --calibrate, --affinity, --early-wake, passed on to
 * struct sr_replay_opts as they are (zeroed: the defaults). */
struct cmp_replay_rules {
	enum sr_causal_mode causal;
	enum sr_external_mode external;
	int64_t cs_cost_ns;
	int init_sleep_pct;
	enum sr_calibrate_mode calibrate;
	enum sr_affinity_mode affinity;
	enum sr_early_mode early;
	enum sr_group_mode group_sched;
};

struct cmp_source_opts {
	const char *trace;             /* a trace file, or a replay directory */
	const char *const *policies;   /* compared, in order */
	size_t npolicies;
	const char *exclude;           /* pcre2 on comm, as replay --exclude */
	const char *only;              /* ... as replay --only */
	const char *only_tree;         /* ... as replay --tree */
	int cpus;                      /* as replay --cpus (0: the
					  recording's); a directory: only 0 */
	int jobs;                      /* as replay -j (0: one per CPU) */
	/* a directory: only the defaults (replayed already) */
	struct cmp_replay_rules rules;
	const char *title;             /* NULL: the trace's file name */
	bool tree;                     /* the trace's tasks are needed */
	bool procs;                    /* ... wanted when there (a replay
					  directory without tasks.tsv: none) */
	struct sr_progress *progress;  /* told of the replay and ended after
					  it (lib/progress.h); NULL: none */
	const struct sr_replay_tuning *tune; /* --set, --rt; NULL: none */
	/* a replay directory: the runs' directories (their tuned labels,
	   sr_replay_label); NULL: the policy names */
	const char *const *labels;
	/* --start, --end: the window of the replay (a trace only); --pid is
	   the run set's (runset.h), NULL: none */
	const struct sr_selection *sel;
};

struct cmp_source {
	char *title;                   /* names the trace in headings */
	struct cmp_result *run;        /* [npolicies]: the compared runs */
	size_t nrun;
	struct cmp_result *ref;        /* observed, the reference: NULL when
					  a replay directory lacks it (then
					  the first run is) */
	struct cmp_result ref_own;     /* ref when observed is not compared */
	struct cmp_procs procs;        /* with opts.tree */
	bool left_known;               /* what the replay left out: */
	size_t left_tasks;             /* tasks (--exclude, --only, ...) */
	int64_t left_cpu_ns;           /* their CPU in the recording */
	int64_t total_cpu_ns;          /* every task's */
	char ctx_said[512];            /* what the replay took from the
					  recording's context ("" none:
					  replay/replay.h) */
	struct sr_loss loss;           /* the recording's lost events (a
					  directory: its lost.tsv) */
	bool have_loss;                /* known (a directory before
					  lost.tsv: not) */
	bool have_start;               /* a trace: where it starts, ends */
	int64_t trace_start;           /* its first event, trace clock */
	int64_t trace_end;             /* its last */
};

int cmp_source_open(struct cmp_source *src, const struct cmp_source_opts *o,
		    struct sr_diag *d);
void cmp_source_close(struct cmp_source *src);

#endif
