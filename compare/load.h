/*
 * load: what diff, plot and report share between their options and their
 * output: the options that say what to compare (struct cmp_load_opts,
 * filled by the command's option table), and loading the run set they
 * name (the replay, the behaviour of every task, the --tree focus).
 */
#ifndef CMP_LOAD_H
#define CMP_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/runset.h"
#include "compare/source.h"
#include "compare/verdict.h"
#include "lib/diag.h"
#include "lib/parse-options.h"
#include "replay/selection.h"
#include "replay/sim.h"   /* SR_SIM_MAX_CPUS, for --cpus */

#define CMP_MAX_PERIOD_OPTS 32
#define CMP_MAX_TUNE_OPTS 32

struct sr_progress;

struct cmp_load_opts {
	const char *policies[CMP_MAX_RUNS];
	size_t npolicies;
	const char *task;
	struct sr_selection sel;	/* --pid, --start, --end */
	struct cmp_period_opt periods[CMP_MAX_PERIOD_OPTS];
	size_t nperiods;
	const char *title;
	const char *exclude;
	const char *only;       /* --only: replay only these tasks */
	const char *only_tree;  /* --only-tree: only this tree */
	const char *tree;
	int cpus;           /* --cpus: 0 = the recording's */
	int jobs;           /* -j: the replay's threads (0: one per CPU) */
	struct cmp_replay_rules rules;	/* --causal ... --early-wake */
	const char *sets[CMP_MAX_TUNE_OPTS];	/* --set NAME=VALUE */
	size_t nsets;
	const char *rt[CMP_MAX_TUNE_OPTS];	/* --rt REGEX[:PRIO] */
	size_t nrt;
	/* the policies as the replay labels them (their tuning) */
	char labels[CMP_MAX_RUNS][CMP_POLICY_MAX];
	struct cmp_group_opts groups;		/* --group NAME=REGEX */
	const char *trace;
	const char *cmd;    /* the command, for messages */
	struct sr_progress *progress; /* while a trace is replayed, or NULL */
};

/* --period COMM=MS (MS may carry a unit: 16.7, 500us), opt->value a
 * struct cmp_load_opts: a parse-options callback. */
int cmp_opt_period(const struct po_option *opt, const char *arg,
		   struct sr_diag *d);

/* What a comparing command loads: where the results come from, the runs
 * side by side, and --task compiled (NULL without it). */
struct cmp_taskre;
struct cmp_loaded {
	struct cmp_source src;
	struct cmp_set set;
	struct cmp_taskre *re;
};

/*
 * Get the results TRACE names (a trace file replayed in memory under the
 * policies and observed, or a replay directory) and load them into *l:
 * o->policies default to stock and o11int, between min_policies and
 * max_policies; --tree applied.  Close with cmp_loaded_free, also after
 * an error.
 */
int cmp_cmd_load(struct cmp_load_opts *o, size_t min_policies, size_t max_policies,
		struct cmp_loaded *l, struct sr_diag *d);
void cmp_loaded_free(struct cmp_loaded *l);

/* The set of src's runs and reference (src outlives it). */
int cmp_set_of(struct cmp_set *s, const struct cmp_source *src,
	       struct sr_diag *d);

/* Read a whole set: summaries, reference behaviour, classes, periods,
 * delay spreads and the periodic metrics of every run. */
int cmp_set_load(struct cmp_set *s, struct sr_diag *d);

#endif
