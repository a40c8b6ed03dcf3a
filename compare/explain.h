/*
 * explain: why a set of tasks waited, under each policy side by side
 * (compare/why.h adds the waits up): their worst waits with their
 * segments in words, the verdict of their groups, and the total wait by
 * reason and by the task waited behind; written as text, TSV or JSON.
 * builtin/explain.c selects the tasks and fills struct cmp_explain.
 */
#ifndef CMP_EXPLAIN_H
#define CMP_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/runset.h"
#include "compare/select.h"
#include "compare/verdict.h"
#include "compare/why.h"

#define CMP_EXPLAIN_BEHIND 12  /* rows of the table by task waited behind */
#define CMP_EXPLAIN_NAMES 8    /* tasks named in the heading */

/* Which tasks: those shown whose comm matches re, decided once for each
 * (pcre2 may give up on a name: an error, not a mismatch) into hit. */
struct cmp_explain_sel {
	const struct cmp_taskre *re; /* NULL: by --pid alone */
	const struct cmp_set *s;
	bool *hit;                   /* per task of s: it counts */
};

/* Does task t count (ctx: a struct cmp_explain_sel, its hit filled)?
 * For cmp_why_run. */
bool cmp_explain_wanted(const struct cmp_task *t, void *ctx);

struct cmp_explain {
	struct cmp_set *s;
	struct cmp_explain_sel sel;
	const char *what;       /* the selection, for headings */
	struct cmp_why w[CMP_MAX_RUNS];
	size_t top;
	long *tasks;            /* the tasks selected */
	size_t ntasks;
	/* the verdict of each policy but the first against it
	   (compare/verdict.h), for the groups of the tasks selected */
	struct cmp_verdicts *v;
	size_t nv;
};

/* x as text, TSV (in ns) or JSON (the worst waits' segments too). */
int cmp_explain_write_text(FILE *f, const struct cmp_explain *x);
int cmp_explain_write_tsv(FILE *f, const struct cmp_explain *x);
int cmp_explain_write_json(FILE *f, const struct cmp_explain *x);

#endif
