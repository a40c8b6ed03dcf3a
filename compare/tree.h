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
 * Ancestry is in the trace (fork events): the replay's task table gives
 * it (struct cmp_procs, from the replay of the trace, or from the
 * tasks.tsv and seen.tsv a replay directory holds), so the trace is read
 * once, and a saved replay can be focused too.
 */
#ifndef CMP_TREE_H
#define CMP_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/runset.h"
#include "compare/select.h"
#include "lib/diag.h"
#include "lib/strpool.h"
#include "replay/replay.h"

#define CMP_PROC_NONE UINT32_MAX

/* One record of the trace's task table (parse/tasks.h). */
struct cmp_proc {
	int32_t pid;
	uint32_t comm;          /* last name, in the pool */
	uint32_t thread;        /* first record of its kernel task */
	uint32_t parent;        /* the record that forked it, or NONE */
	bool idle;
};

/* A record shown by an event under a name, in the order events did. */
struct cmp_seen {
	uint32_t id;
	uint32_t comm;
};

struct cmp_procs {
	struct sr_strpool names;
	struct cmp_proc *p;     /* by record id */
	size_t n, cap;
	struct cmp_seen *seen;
	size_t nseen, capseen;
};

/* From a replay (sr_replay_tasks, sr_replay_seen_at). */
int cmp_procs_from_replay(struct cmp_procs *pr, const struct sr_replay *r,
			  struct sr_diag *d);
/* From ROOT/tasks.tsv and ROOT/seen.tsv. */
int cmp_procs_read(struct cmp_procs *pr, const char *root, struct sr_diag *d);
void cmp_procs_free(struct cmp_procs *pr);

/*
 * Mark s->tasks[].in_focus and set s->focus; *n: tasks marked.  what
 * names the input in messages (no task matching).
 */
int cmp_tree_mark(struct cmp_set *s, const struct cmp_procs *pr,
		  const char *what, const struct cmp_taskre *root, size_t *n,
		  struct sr_diag *d);

/*
 * The recorded command's tree (the verdict's "outside the recorded
 * command", compare/verdict.h): mark s->tasks[].in_cmd as cmp_tree_mark
 * marks in_focus; *n 0 when no task matches (not an error); *name the
 * comm of its root (in pr's names) when one does.
 */
int cmp_tree_mark_cmd(struct cmp_set *s, const struct cmp_procs *pr,
		      const struct cmp_taskre *root, size_t *n,
		      const char **name, struct sr_diag *d);
/* s->tasks[].parent: the task that forked each task's first record (-1:
 * none seen). */
int cmp_tree_parents(struct cmp_set *s, const struct cmp_procs *pr,
		     struct sr_diag *d);

#endif
