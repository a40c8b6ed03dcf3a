/*
 * tree: focus on one process tree.  A system-wide recording holds the
 * machine's other work too (services, kernel threads, other users' jobs);
 * they compete for the CPU in the replay, as they did, but the question
 * is usually about the recorded command.  `--tree REGEX` keeps, in the
 * diff, its headline and the plots, the first task (in order of
 * appearance) whose comm matches REGEX, everything it became by exec,
 * and every task it forked, directly or not.  For `perf sched record`
 * traces the recorded command is `perf-exec`.
 *
 * Ancestry is in the trace (fork events), not in the replay's files, so
 * TRACE must be the trace file.
 */
#ifndef CMP_TREE_H
#define CMP_TREE_H

#include <stddef.h>

#include "compare/runset.h"
#include "compare/select.h"
#include "lib/diag.h"

/* Read trace, mark s->tasks[].in_focus and set s->focus; *n: tasks marked. */
int cmp_tree_mark(struct cmp_set *s, const char *trace,
		 const struct cmp_taskre *root, size_t *n, struct sr_diag *d);

#endif
