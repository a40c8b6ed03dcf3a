/*
 * verdict: the answer to "is B better than A for this workload?", per
 * group of tasks as a person sees them: the display server and its
 * clients, audio, terminals and shells, the compile and other batch work,
 * everything else.  A task's group comes from one table of comm patterns
 * (cmp_groups_default, overridden or extended with --group NAME=REGEX),
 * and a task started by a build task (make's shells, rm, mkdir, ...) is
 * build work whatever its name.  For each group one line: better, worse
 * or unchanged under B, then first the figure that decided it by the one
 * rule of verdict-rule.h (deadlines met on the recording's clock for
 * periodic tasks; the completion time for batch work; else the p99
 * delay, all the group's waits pooled); after every pair, one line
 * stating that rule, then what the verdict covers (the CPU outside the
 * recorded command's tree, what the replay left out).  On request (-v,
 * explain, the report) the reasons under each line, from the
 * attribution of the waits (compare/why.h): what changed most, and
 * behind which tasks, saying which were outside the recorded command.
 * docs/why.md, "The verdict", has the rules.
 *
 *	struct cmp_verdicts v;
 *	if (cmp_verdict_build(&v, set, a, b, d)) ...
 *	cmp_verdict_lines(&v, why, fn, ctx);  // diff's top, the report's
 *	cmp_verdict_free(&v);
 */
#ifndef CMP_VERDICT_H
#define CMP_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/runset.h"
#include "compare/verdict-rule.h"
#include "lib/diag.h"

#define CMP_MAX_GROUPS 16
#define CMP_GROUP_NAME_MAX 32
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

struct cmp_verdict_group {
	char name[CMP_GROUP_NAME_MAX];
	int index;                /* its tasks' tasks[].group */
	const char *what;
	size_t ntasks, nbatch;    /* its tasks, the batch ones */
	char names[160];          /* "mpv/ao, mpv x2, ..." */
	enum cmp_verdict_kind kind;
	int verdict;              /* enum cmp_verdict (verdict-rule.h) */
	int64_t p99[2], max[2];   /* the pooled delays, under A and B (of
				     the tasks not batch, if any) */
	size_t npooled[2];        /* how many */
	int64_t met_pm[2];        /* deadlines met, per mille: on the
				     recording's clock ... */
	int64_t own_pm[2];        /* ... and on the replay's own */
	bool own_clock;           /* the figure is own_pm: the replay runs
				     behind the recording (diff.h,
				     cmp_replay_behind), else met_pm */
	int64_t period_ns;        /* its periodic tasks' period, 0: several */
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
	/* its tasks the recording starved (compare/behave.h): a caveat */
	size_t nstarved;
	struct {
		int32_t pid;
		char comm[CMP_COMM_MAX];
		uint32_t late, wakes;
	} starved[CMP_VERDICT_BEHIND];
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

/* Every task's group (tasks[].group) and its rank among the tasks a
 * person notices (tasks[].notice): after loading, before any order or
 * selection (compare/select.h). */
int cmp_verdict_assign(struct cmp_set *s, struct sr_diag *d);

/* g->verdict from the figure that leads its line, by its kind (p99 and
 * npooled, met_pm, or done: verdict-rule.h). */
void cmp_verdict_decide(struct cmp_verdict_group *g);

/* Every task's group (tasks[].group) from the set's group table, then the
 * lines' figures for runs a (A) and b (B). */
int cmp_verdict_build(struct cmp_verdicts *v, struct cmp_set *s, size_t a,
		      size_t b, struct sr_diag *d);
/* One line of the verdict, with what a page needs to draw it. */
enum cmp_vline_kind {
	CMP_VL_HEAD,    /* "verdict: B against A" */
	CMP_VL_GROUP,   /* a group's word and figures */
	CMP_VL_WHY,     /* a reason under it (why set) */
	CMP_VL_RULE,    /* the rule that chose the words */
	CMP_VL_SCOPE,   /* what the verdict covers */
};
struct cmp_vline {
	enum cmp_vline_kind kind;
	const char *text;         /* the line, no newline */
	size_t word, wordlen;     /* GROUP: where its word is in text */
	int verdict;              /* GROUP, WHY: enum cmp_verdict */
	const struct cmp_verdict_group *g; /* GROUP, WHY: its group */
};
typedef void (*cmp_vline_fn)(void *ctx, const struct cmp_vline *l);
/* A line's text to fn(fn_ctx, text) (ctx: a struct cmp_vtext). */
struct cmp_vtext {
	void (*fn)(void *ctx, const char *line);
	void *ctx;
};
void cmp_vline_text(void *ctx, const struct cmp_vline *l);

/* The head and a line per group (why: each with its reasons). */
void cmp_verdict_lines(const struct cmp_verdicts *v, bool why,
		       cmp_vline_fn fn, void *ctx);
/* Its parts: "verdict: B against A"; one group's line (and reasons);
 * the rule line for the kinds (cmp_verdict_kinds) judged. */
void cmp_verdict_head(const struct cmp_verdicts *v, cmp_vline_fn fn,
		      void *ctx);
void cmp_verdict_group_lines(const struct cmp_verdicts *v,
			     const struct cmp_verdict_group *g, bool why,
			     cmp_vline_fn fn, void *ctx);
void cmp_verdict_rule(unsigned kinds, cmp_vline_fn fn, void *ctx);
/* The kinds its groups were judged as (bit 1 << kind). */
unsigned cmp_verdict_kinds(const struct cmp_verdicts *v);
/* What the verdict covers: the CPU outside the recorded command's tree,
 * what the replay left out (the same for every pair). */
void cmp_verdict_scope(const struct cmp_verdicts *v, cmp_vline_fn fn,
		       void *ctx);
void cmp_verdict_free(struct cmp_verdicts *v);

/* The groups as a JSON array (docs/plots.md, "diff": "verdict"); one
 * group as its object. */
void cmp_verdict_write_json(FILE *f, const struct cmp_verdicts *v);
void cmp_verdict_group_json(FILE *f, const struct cmp_verdict_group *g);
/* The rule as a JSON object: its line's text and each kind's
 * thresholds in the figure's own unit (ms, %, s). */
void cmp_vrule_write_json(FILE *f, unsigned kinds);

/* Every pair of a diff (the baseline against each other run): its
 * verdict in nd->verdicts[k], pair[k].verdict; and their lines, then the
 * rule line and the scope's once at the end. */
struct cmp_ndiff;
int cmp_verdict_build_n(struct cmp_ndiff *nd, struct cmp_set *s,
			struct sr_diag *d);
void cmp_ndiff_verdict(const struct cmp_ndiff *nd, bool why, cmp_vline_fn fn,
		       void *ctx);

#endif
