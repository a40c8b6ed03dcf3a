/*
 * cmdopts: the command-line options shared by diff, plot and report, in
 * one table; each command says which it accepts.
 */
#ifndef PL_CMDOPTS_H
#define PL_CMDOPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/diag.h"
#include "plots/runset.h"
#include "replay/replay.h"

enum {
	PO_POLICY = 1u << 0,
	PO_TASK = 1u << 1,
	PO_PERIOD = 1u << 2,
	PO_TITLE = 1u << 3,
	PO_GNUPLOT = 1u << 4,
	PO_OUT = 1u << 5,
	PO_FORMAT = 1u << 6,
	PO_TSV = 1u << 7,
	PO_JSON = 1u << 8,
	PO_ALL = 1u << 9,
	PO_MAXTASKS = 1u << 10,
	PO_EXCLUDE = 1u << 11,
	PO_TREE = 1u << 12,
	PO_TUNE = 1u << 13,	/* --set, --rt: the replay's tuning */
};

#define PL_MAX_PERIOD_OPTS 32
#define PL_MAX_TUNE_OPTS 32

struct pl_cmdopts {
	const char *policies[PL_MAX_RUNS];
	size_t npolicies;
	const char *task;
	struct pl_period_opt periods[PL_MAX_PERIOD_OPTS];
	size_t nperiods;
	const char *title;
	const char *exclude;
	const char *tree;
	const char *gnuplot;
	const char *out;
	const char *format;
	bool tsv, json, all;
	size_t max_tasks;
	const char *sets[PL_MAX_TUNE_OPTS];	/* --set NAME=VALUE */
	const char *rt[PL_MAX_TUNE_OPTS];	/* --rt REGEX[:PRIO] */
	struct sr_replay_tuning tune;		/* over sets and rt */
	/* the policies as the replay labels them (with --set) */
	char labels[PL_MAX_RUNS][PL_POLICY_MAX];
	const char *trace;
	const char *cmd;    /* argv[0]: the command, for messages */
	bool help;          /* --help given: usage printed, exit 0 */
};

/*
 * Parse argv (argv[0] is the command name).  Exactly one TRACE operand.
 * usage: the command's usage text, printed for --help.
 */
int pl_cmdopts_parse(struct pl_cmdopts *o, int argc, char **argv,
		     unsigned allowed, const char *usage, struct sr_diag *d);

/*
 * Get the replay TRACE names (a trace file replayed under the policies and
 * observed, or a replay directory) and load it: o->policies default to
 * stock and o11int, between min_policies and max_policies; --task is
 * compiled into *re (NULL without it), --tree applied.  Close with
 * pl_source_close, pl_set_free and pl_taskre_free, also after an error.
 */
struct pl_source;
struct pl_taskre;
int pl_cmd_load(struct pl_cmdopts *o, size_t min_policies, size_t max_policies,
		struct pl_source *src, struct pl_set *set, struct pl_taskre **re,
		struct sr_diag *d);

#endif
