/*
 * builtin.h: the subcommands.  Each cmd_* lives in builtin/NAME.c, declares
 * its options in one table (lib/parse-options.h), and returns an exit
 * status; errors go up as a struct sr_diag that schedreplay.c reports
 * once.  Only builtin/ and schedreplay.c include this header.
 */
#ifndef SR_BUILTIN_H
#define SR_BUILTIN_H

#include "lib/diag.h"
#include "lib/parse-options.h"

typedef int (*sr_cmd_fn)(int argc, char **argv, struct sr_diag *d);

int cmd_policies(int argc, char **argv, struct sr_diag *d);
int cmd_stats(int argc, char **argv, struct sr_diag *d);
int cmd_convert(int argc, char **argv, struct sr_diag *d);
int cmd_replay(int argc, char **argv, struct sr_diag *d);
int cmd_diff(int argc, char **argv, struct sr_diag *d);
int cmd_plot(int argc, char **argv, struct sr_diag *d);
int cmd_report(int argc, char **argv, struct sr_diag *d);

/* Option-table rows several commands share. */

/* How a trace is read (struct sr_read_opts *r, parse/reader.h). */
#define OPT_READ(r) \
	OPT_STRING(0, "input-format", &(r)->format, "NAME", \
		   "perf, ftrace, trace-cmd, systrace, native " \
		   "(default: detect)"), \
	OPT_FLAG(0, "lenient", &(r)->lenient, \
		 "skip malformed lines and report how many")

/* How `observed` counts (enum sr_perf_compat *c, replay/observed.h). */
#define OPT_COMPAT(c) \
	OPT_CHOICE(0, "compat", (c), sr_perf_compat_names, "NAME", \
		   "perf (default): sched_waking starts a wait, R and " \
		   "R+ switch-outs are preemptions; perf-6.1: what perf " \
		   "6.1 counts (sched_waking ignored, only R)")

/* What diff, plot and report compare (struct cmp_load_opts *o,
 * compare/load.h); policy_help and task_help differ by command. */
#define OPT_COMPARE(o, policy_help, task_help) \
	OPT_GROUP("what to compare"), \
	OPT_LIST(0, "policy", (o)->policies, &(o)->npolicies, CMP_MAX_RUNS, \
		 "P", policy_help), \
	OPT_STRING(0, "task", &(o)->task, "REGEX", task_help), \
	OPT_CALLBACK(0, "period", (o), "COMM=MS", \
		     "treat COMM as periodic with this period (ms, or " \
		     "with a unit: 500us); repeatable", cmp_opt_period), \
	OPT_STRING(0, "exclude", &(o)->exclude, "REGEX", \
		   "leave tasks whose comm matches this pcre2 regex out " \
		   "of the replay (e.g. '^perf$', the tracer), as " \
		   "replay --exclude"), \
	OPT_STRING(0, "tree", &(o)->tree, "REGEX", \
		   "show only the process tree of the first task whose " \
		   "comm matches this regex (e.g. perf-exec: the command " \
		   "perf sched record ran)"), \
	OPT_STRING(0, "title", &(o)->title, "TEXT", \
		   "how headings name the trace (default: its file name)")

/* How plot and report draw (struct pl_plot_opts *po, plots/plot.h). */
#define OPT_DRAW(po) \
	OPT_NUMBER(0, "max-tasks", &(po)->max_tasks, "N", \
		   "tasks in the per-task plots (default 8)", 1, 64, NULL), \
	OPT_STRING(0, "gnuplot", &(po)->gnuplot, "PATH", \
		   "the gnuplot to run (default: gnuplot on PATH)")

/* The operand of diff, plot and report, for --help. */
#define CMP_TRACE_ABOUT \
	"TRACE is a trace file (replayed here under the policies and the " \
	"recorded schedule) or a directory from `schedreplay replay -o`."

#endif
