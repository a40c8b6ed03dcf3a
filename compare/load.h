/*
 * cmdopts: the command-line options shared by diff, plot and report, in
 * one table; each command says which it accepts.
 */
#ifndef CMP_LOAD_H
#define CMP_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/runset.h"
#include "lib/diag.h"

enum {
	CO_POLICY = 1u << 0,
	CO_TASK = 1u << 1,
	CO_PERIOD = 1u << 2,
	CO_TITLE = 1u << 3,
	CO_GNUPLOT = 1u << 4,
	CO_OUT = 1u << 5,
	CO_FORMAT = 1u << 6,
	CO_TSV = 1u << 7,
	CO_JSON = 1u << 8,
	CO_ALL = 1u << 9,
	CO_MAXTASKS = 1u << 10,
	CO_EXCLUDE = 1u << 11,
	CO_TREE = 1u << 12,
};

#define CMP_MAX_PERIOD_OPTS 32

struct cmp_cmdopts {
	const char *policies[CMP_MAX_RUNS];
	size_t npolicies;
	const char *task;
	struct cmp_period_opt periods[CMP_MAX_PERIOD_OPTS];
	size_t nperiods;
	const char *title;
	const char *exclude;
	const char *tree;
	const char *gnuplot;
	const char *out;
	const char *format;
	bool tsv, json, all;
	size_t max_tasks;
	const char *trace;
	const char *cmd;    /* argv[0]: the command, for messages */
	bool help;          /* --help given: usage printed, exit 0 */
};

/*
 * Parse argv (argv[0] is the command name).  Exactly one TRACE operand.
 * usage: the command's usage text, printed for --help.
 */
int cmp_cmdopts_parse(struct cmp_cmdopts *o, int argc, char **argv,
		     unsigned allowed, const char *usage, struct sr_diag *d);

/*
 * Get the replay TRACE names (a trace file replayed under the policies and
 * observed, or a replay directory) and load it: o->policies default to
 * stock and o11int, between min_policies and max_policies; --task is
 * compiled into *re (NULL without it), --tree applied.  Close with
 * cmp_source_close, cmp_set_free and cmp_taskre_free, also after an error.
 */
struct cmp_source;
struct cmp_taskre;
int cmp_cmd_load(struct cmp_cmdopts *o, size_t min_policies, size_t max_policies,
		struct cmp_source *src, struct cmp_set *set, struct cmp_taskre **re,
		struct sr_diag *d);

/* Read a whole set: summaries, reference behaviour, classes, periods,
 * delay spreads and the periodic metrics of every run. */
int cmp_set_load(struct cmp_set *s, struct sr_diag *d);

#endif
