/*
 * builtin.h: the subcommands.  Each cmd_* lives in builtin/NAME.c, declares
 * its options in one table (lib/parse-options.h), and returns an exit
 * status; errors go up as a struct sr_diag that schedreplay.c reports
 * once.  Only builtin/ and schedreplay.c include this header.
 */
#ifndef SR_BUILTIN_H
#define SR_BUILTIN_H

#include <stdio.h>

#include "lib/diag.h"
#include "lib/parse-options.h"
#include "lib/pool.h"
#include "replay/selection.h"

#define SR_VERSION "0.1"

typedef int (*sr_cmd_fn)(int argc, char **argv, struct sr_diag *d);

/* A command of the table in schedreplay.c. */
struct sr_cmd {
	const char *name;
	sr_cmd_fn fn;
	const char *usage; /* one line for `schedreplay help` */
};

/* A struct po_cmd's operands for a command of one TRACE. */
#define PO_ONE_TRACE \
	.operands = "TRACE", .min_operands = 1, .max_operands = 1

/* The commands (schedreplay.c), ending with a NULL name; help and
 * version are not among them. */
extern const struct sr_cmd sr_commands[];
const struct sr_cmd *sr_cmd_find(const char *name);
/* For a name sr_cmd_find does not know: "; did you mean 'diff'?" (the
 * nearest commands, help and version among them; lib/suggest.h) or "".
 * Returns buf. */
const char *sr_cmd_hint(const char *name, char *buf, size_t len);
/* `schedreplay help`: the usage line and the commands. */
void sr_usage(FILE *f);

/* Replay trace under the --policy list given (none: the defaults) with
 * the rest of o, drawing the progress line as cmd unless quiet; the
 * warnings after the read printed.  replay and export
 * (builtin/replay.c). */
struct sr_replay;
struct sr_replay_opts;
int builtin_replay(struct sr_replay_opts *o, const char *cmd,
		   const char *trace, const char *const *policies,
		   size_t npolicies, bool quiet, struct sr_replay **r,
		   struct sr_diag *d);

int cmd_policies(int argc, char **argv, struct sr_diag *d);
int cmd_stats(int argc, char **argv, struct sr_diag *d);
int cmd_convert(int argc, char **argv, struct sr_diag *d);
int cmd_replay(int argc, char **argv, struct sr_diag *d);
int cmd_diff(int argc, char **argv, struct sr_diag *d);
int cmd_explain(int argc, char **argv, struct sr_diag *d);
int cmd_fidelity(int argc, char **argv, struct sr_diag *d);
int cmd_plot(int argc, char **argv, struct sr_diag *d);
int cmd_report(int argc, char **argv, struct sr_diag *d);
int cmd_export(int argc, char **argv, struct sr_diag *d);
int cmd_timehist(int argc, char **argv, struct sr_diag *d);
int cmd_map(int argc, char **argv, struct sr_diag *d);
int cmd_help(int argc, char **argv, struct sr_diag *d);
int cmd_version(int argc, char **argv, struct sr_diag *d);
int cmd_sweep(int argc, char **argv, struct sr_diag *d);
int cmd_interbench(int argc, char **argv, struct sr_diag *d);
int cmd_sweep_job(int argc, char **argv, struct sr_diag *d);
int cmd_record(int argc, char **argv, struct sr_diag *d);

/* A command that ran another program exits with that program's status:
 * it returns SR_PASS_STATUS | status, which schedreplay.c passes on
 * without a message (record -- CMD). */
#define SR_PASS_STATUS 0x10000

/* Option-table rows several commands share. */

/* How a trace is read (struct sr_read_opts *r, parse/reader.h). */
#define OPT_READ(r) \
	OPT_STRING(0, "input-format", &(r)->format, "NAME", \
		   sr_input_formats_help()), \
	OPT_FLAG(0, "lenient", &(r)->lenient, \
		 "skip malformed lines and report how many")

/* How the demand is replayed (o: anything with the fields of struct
 * sr_replay_opts named causal, external, cs_cost_ns, init_sleep_pct,
 * calibrate, affinity, early, group_sched): replay and export, and the
 * commands that compare (their struct cmp_replay_rules, compare/source.h). */
#define OPT_REPLAY_RULES(o) \
	OPT_CHOICE(0, "causal", &(o)->causal, sr_causal_names, "MODE", \
		   "which wakes a task gets in the trace it causes in " \
		   "the replay: known (default: where the trace tells " \
		   "them from interrupts, else between related " \
		   "tasks), all, none"), \
	OPT_CHOICE(0, "external", &(o)->external, sr_external_names, \
		   "MODE", "absolute (default): external wakeups at their " \
		   "recorded time; relative: sleeps keep their " \
		   "recorded length"), \
	OPT_NUMBER(0, "cs-cost", &(o)->cs_cost_ns, "TIME", \
		   "context-switch cost: ns, or with a unit (us, ms, " \
		   "s); default 0, at most 1ms", 0, SR_CS_COST_MAX, \
		   po_time_units), \
	OPT_NUMBER(0, "warm", &(o)->init_sleep_pct, "PCT", \
		   "tasks alive at the start begin with sleep_avg " \
		   "PCT% of MAX_SLEEP_AVG (default 0: cold)", 0, 100, \
		   NULL), \
	OPT_CHOICE(0, "calibrate", &(o)->calibrate, sr_calibrate_names, \
		   "MODE", "auto (default): wake costs, the tick and pinned " \
		   "tasks as the recording shows them; none: wakes take " \
		   "effect at once, no tick or pin read (a pipe then " \
		   "streams)"), \
	OPT_CHOICE(0, "affinity", &(o)->affinity, sr_affinity_names, \
		   "MODE", "auto (default): the recording's context, else " \
		   "tasks that ran on one CPU only while others idled stay " \
		   "there; infer: that whatever the context, and tasks " \
		   "that never moved while another CPU had two tasks " \
		   "fewer; none: any CPU"), \
	OPT_CHOICE(0, "early-wake", &(o)->early, sr_early_names, "MODE", \
		   "a wake that reaches its task before the sleep it ends: " \
		   "requeue (default: the task sleeps and is woken at " \
		   "once, in the recorded order), skip (it does not sleep)"), \
	OPT_CHOICE(0, "group-sched", &(o)->group_sched, \
		   sr_group_mode_names, "MODE", "auto (default): the fair " \
		   "models share CPUs between task groups, the recording's " \
		   "context's or inferred (a process and what it forks); " \
		   "none: every task in the root group")

/* --tree shows one process tree (diff, plot, report, explain); --only
 * and --only-tree restrict what is replayed, in every command.  --tree
 * meant the latter in replay and export: it is refused there, so a
 * command line written for the old meaning cannot answer another
 * question silently. */
#define CMP_TREE_MOVED \
	"shows one process tree in diff, plot, report and explain (every " \
	"task replayed); to replay only the tree here, say --only-tree REGEX"

/* What is replayed and how (struct sr_replay_opts *o, replay/replay.h;
 * the --policy list in pol[SR_REPLAY_MAX_POLICIES], *npol of them):
 * replay and export. */
#define OPT_REPLAY(o, pol, npol) \
	OPT_GROUP("the replay"), \
	OPT_LIST(0, "policy", (pol), (npol), SR_REPLAY_MAX_POLICIES, "P", \
		 "a policy (`schedreplay policies`) or observed; repeat " \
		 "for several (default: stock, o11int, observed); " \
		 "P:NAME=VALUE,... tunes it (e.g. o11int:MAX_SLEEP_AVG=2000)"), \
	OPT_STRING(0, "exclude", &(o)->exclude, "REGEX", \
		   "leave out tasks whose name matches (pcre2), e.g. " \
		   "'^perf$'"), \
	OPT_STRING(0, "only", &(o)->only, "REGEX", \
		   "replay only the tasks whose name matches (pcre2); " \
		   "the others' CPU is left out (said after the replay)"), \
	OPT_STRING(0, "only-tree", &(o)->tree, "REGEX", \
		   "replay only the process tree of the first task whose " \
		   "name matches (pcre2): it and what it forked; '' (empty): " \
		   "the recorded command's (schedreplay record's " \
		   "record-exec, perf sched record's perf-exec)"), \
	OPT_MOVED("tree", CMP_TREE_MOVED), \
	OPT_REPLAY_RULES(o), \
	OPT_NUMBER(0, "cpus", &(o)->cpus, "N", \
		   "CPUs to replay on (default: as many as the " \
		   "recording used; 1: one CPU, as in 2003)", 1, \
		   SR_SIM_MAX_CPUS, NULL)

/* --pid, --start, --end (struct sr_selection *sel, replay/selection.h):
 * the rows alone, for a group of the command's own; OPT_SELECT with its
 * heading. */
#define OPT_SELECT_ROWS(sel) \
	OPT_CALLBACK(0, "pid", (sel), "PID[,PID...]", \
		     "only the tasks with these pids (thread ids, as the " \
		     "trace prints them); repeatable", sr_sel_opt_pid), \
	OPT_CALLBACK(0, "start", (sel), "TIME", \
		     "report from TIME: seconds from the trace's first " \
		     "event (2.5, or 2500ms), or @SECONDS on the trace's " \
		     "own clock (@5012.345678); the replay still runs " \
		     "from the start", sr_sel_opt_start), \
	OPT_CALLBACK(0, "end", (sel), "TIME", \
		     "report up to TIME (excluded), given as for --start", \
		     sr_sel_opt_end)
#define OPT_SELECT(sel) \
	OPT_GROUP("selection"), \
	OPT_SELECT_ROWS(sel)

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
	OPT_SELECT_ROWS(&(o)->sel), \
	OPT_CALLBACK(0, "period", (o), "COMM=MS", \
		     "treat COMM as periodic with this period (ms, or " \
		     "with a unit: 500us); repeatable", cmp_opt_period), \
	OPT_STRING(0, "exclude", &(o)->exclude, "REGEX", \
		   "leave tasks whose comm matches this pcre2 regex out " \
		   "of the replay (e.g. '^perf$', the tracer), as " \
		   "replay --exclude"), \
	OPT_STRING(0, "tree", &(o)->tree, "REGEX", \
		   "show only the process tree of the first task whose " \
		   "comm matches this regex; '' (empty): the recorded " \
		   "command's (record-exec, perf-exec); the others are " \
		   "replayed too"), \
	OPT_STRING(0, "only", &(o)->only, "REGEX", \
		   "replay only the tasks whose comm matches this pcre2 " \
		   "regex, as replay --only"), \
	OPT_STRING(0, "only-tree", &(o)->only_tree, "REGEX", \
		   "replay only the process tree of the first task whose " \
		   "comm matches this regex, as replay --only-tree ('' " \
		   "(empty): the recorded command's)"), \
	OPT_STRING(0, "title", &(o)->title, "TEXT", \
		   "how headings name the trace (default: its file name)"), \
	OPT_NUMBER(0, "cpus", &(o)->cpus, "N", \
		   "CPUs to replay on (default: as many as the recording " \
		   "used)", 1, SR_SIM_MAX_CPUS, NULL), \
	OPT_JOBS(&(o)->jobs), \
	OPT_REPLAY_RULES(&(o)->rules), \
	OPT_TUNE((o)->sets, &(o)->nsets, (o)->rt, &(o)->nrt, \
		 CMP_MAX_TUNE_OPTS)

/* The verdict's groups (struct cmp_load_opts *o, compare/verdict.h):
 * diff and report. */
#define OPT_GROUPS(o) \
	OPT_CALLBACK(0, "group", &(o)->groups, "NAME=REGEX", \
		     "the verdict's group NAME: the tasks whose comm matches " \
		     "REGEX (tried before the defaults: audio, display, " \
		     "terminal, build, other; a default's NAME replaces it); " \
		     "repeatable", cmp_opt_group)

/* --set and --rt: the policies' tuning and the soft-realtime rule of a
 * replay (struct sr_replay_tuning, replay/replay.h). */
#define OPT_TUNE(sets, nsets, rt, nrt, max) \
	OPT_LIST(0, "set", (sets), (nsets), (max), "NAME=VALUE", \
		 "set kernel constant NAME of every policy that has it " \
		 "(`schedreplay policies --knobs`); POLICY:NAME=VALUE,... " \
		 "tunes one policy; repeatable"), \
	OPT_LIST(0, "rt", (rt), (nrt), (max), "REGEX[:PRIO]", \
		 "tasks whose name matches (pcre2) run SCHED_RR at PRIO " \
		 "(1-99, default 50) under every simulated policy; " \
		 "repeatable")

/* The input and testing groups of a command that replays into its own
 * outputs (struct sr_replay_opts *o): replay and export.  BATCH_HELP says
 * what does not depend on --batch. */
#define OPT_REPLAY_INPUT(o, batch_help) \
	OPT_GROUP("input"), \
	OPT_COMPAT(&(o)->compat), \
	OPT_READ(&(o)->read), \
	OPT_GROUP("testing"), \
	OPT_NUMBER(0, "batch", &(o)->batch, "N", \
		   "events read between simulator steps " batch_help, 1, \
		   1LL << 30, NULL)

/* -j N: the threads the policies' simulators run on (replay/replay.h
 * jobs; 0, the default: every CPU). */
#define OPT_JOBS(v) \
	OPT_NUMBER('j', "jobs", (v), "N", \
		   "simulate the policies on N threads at once (default: " \
		   "one per CPU; results do not depend on it)", 1, \
		   SR_POOL_MAX_THREADS, NULL)

/* What a command writes: its table (or text), or with --tsv or --json
 * (OPT_SET_INT on one int, so the two exclude each other). */
enum { OUT_TEXT, OUT_TSV, OUT_JSON };

/* A command that writes one file: its "output" group up to the format
 * flags (bool *quiet, const char **out): diff and explain. */
#define OPT_OUTPUT_FILE(quiet, out) \
	OPT_GROUP("output"), \
	OPT_FLAG('q', "quiet", (quiet), "no progress line on a terminal"), \
	OPT_PATH('o', "output", (out), "FILE", \
		 "write to FILE (temporary, then renamed; default " \
		 "and - : stdout)")

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
