/*
 * verdict: the answer to "is B better than A for this workload?", per
 * group of tasks as a person sees them: the display server and its
 * clients, audio, terminals and shells, the compile and other batch work,
 * everything else.  A task's group comes from one table of comm patterns
 * (cmp_groups_default, overridden or extended with --group NAME=REGEX),
 * and a task started by a build task (make's shells, rm, mkdir, ...) is
 * build work whatever its name.  For each group one line: better, worse
 * or unchanged under B; the figure that decided it (deadlines met on the
 * replay's own clock for periodic tasks; the completion time for batch
 * work; else p99 and max delay, all the group's waits pooled); and the
 * main reason from the attribution of the waits (compare/why.h): what
 * changed most, and behind which tasks, saying which were outside the
 * recorded command.  Then how much CPU came from outside the recorded
 * command's tree (perf-exec's, or --tree's) and whether it was replayed.
 * docs/plots.md, "The verdict", has the rules.
 *
 *	struct cmp_verdicts v;
 *	if (cmp_verdict_build(&v, set, a, b, d)) ...
 *	cmp_verdict_lines(&v, fn, ctx);      // diff's top, the report's
 *	cmp_verdict_free(&v);
 */
#ifndef CMP_VERDICT_H
#define CMP_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/runset.h"
#include "lib/diag.h"

#define CMP_MAX_GROUPS 16
#define CMP_GROUP_NAME_MAX 32
/* A change that counts: p99 as diff's (compare/diff.h); the share of
 * deadlines missed by at least half a point and 25 % of the larger; a
 * completion time by 1 % and 10 ms. */
#define CMP_VERDICT_MISSED_PTS 0.5
#define CMP_VERDICT_MISSED_PCT 25
#define CMP_VERDICT_DONE_PCT 1
#define CMP_VERDICT_DONE_MIN_NS 10000000LL
#define CMP_VERDICT_BEHIND 2       /* tasks named per line */
#define CMP_VERDICT_NAMES 3        /* tasks named as the group's */

/* A group: its name, the comm pattern (pcre2; NULL: every other task),
 * and what it is. */
struct cmp_group_def {
	const char *name;
	const char *regex;
	const char *what;
};

/* The default table, in the order a task's comm is tried (the last has
 * no pattern). */
extern const struct cmp_group_def cmp_groups_default[];

/* --group NAME=REGEX (a parse-options callback; opt->value: a struct
 * cmp_group_opts). */
struct cmp_group_opts {
	char name[CMP_MAX_GROUPS][CMP_GROUP_NAME_MAX];
	const char *regex[CMP_MAX_GROUPS];
	size_t n;
};
struct po_option;
int cmp_opt_group(const struct po_option *opt, const char *arg,
		  struct sr_diag *d);

enum cmp_verdict_kind {
	CMP_VK_LATENCY,   /* decided by p99 (and max) delay */
	CMP_VK_PERIODIC,  /* by deadlines met on the replay's own clock */
	CMP_VK_BATCH,     /* by the completion time */
};

struct cmp_verdict_group {
	char name[CMP_GROUP_NAME_MAX];
	const char *what;
	size_t ntasks, nbatch;    /* its tasks, the batch ones */
	char names[160];          /* "mpv/ao, mpv x2, ..." */
	enum cmp_verdict_kind kind;
	int verdict;              /* enum cmp_verdict (compare/diff.h) */
	int64_t p99[2], max[2];   /* the pooled delays, under A and B (of
				     the tasks not batch, if any) */
	double met[2];            /* deadlines met on the replay's own clock */
	int64_t done[2];          /* completion, after the trace's start */
	int64_t wait[2];          /* the group's total wait */
	int main_why;             /* the reason that changed most */
	int64_t why_change;       /* its change, B - A */
	struct {
		int32_t pid;
		char comm[CMP_COMM_MAX];
		int64_t change;       /* B - A behind it */
		bool outside;         /* outside the recorded command */
	} behind[CMP_VERDICT_BEHIND];
	size_t nbehind;
	int64_t behind_total;     /* the change of the whole wait it shares */
};

struct cmp_verdicts {
	const struct cmp_set *s;
	size_t a, b;
	struct cmp_verdict_group g[CMP_MAX_GROUPS];
	size_t ng;
	/* the recorded command: its tree's root, and the CPU outside it */
	const char *cmd_root;     /* NULL: no tree to speak of */
	size_t cmd_tasks, out_tasks;
	int64_t cmd_cpu_ns, out_cpu_ns;
	/* left out of the replay (--only, --tree, --exclude) */
	bool left_known;
	size_t left_tasks;
	int64_t left_cpu_ns;
};

/* Every task's group (tasks[].group) from the set's group table, then the
 * lines' figures for runs a (A) and b (B). */
int cmp_verdict_build(struct cmp_verdicts *v, struct cmp_set *s, size_t a,
		      size_t b, struct sr_diag *d);
/* The lines (no newline), one call each: fn(ctx, line). */
typedef void (*cmp_verdict_line_fn)(void *ctx, const char *line);
void cmp_verdict_lines(const struct cmp_verdicts *v, cmp_verdict_line_fn fn,
		       void *ctx);
/* What the verdict covers: the CPU outside the recorded command's tree,
 * what the replay left out (the same for every pair). */
void cmp_verdict_scope(const struct cmp_verdicts *v, cmp_verdict_line_fn fn,
		       void *ctx);
void cmp_verdict_free(struct cmp_verdicts *v);

/* Every pair of a diff (the baseline against each other run): its
 * verdict in nd->verdicts[k], pair[k].verdict; and their lines, the
 * scope's once at the end. */
struct cmp_ndiff;
int cmp_verdict_build_n(struct cmp_ndiff *nd, struct cmp_set *s,
			struct sr_diag *d);
void cmp_ndiff_verdict(const struct cmp_ndiff *nd, cmp_verdict_line_fn fn,
		       void *ctx);

/* "better", "worse", "unchanged" */
const char *cmp_verdict_name(int verdict);

#endif
