/*
 * why: what a run's waits add up to for a set of tasks, from the
 * attribution of every wait (replay/sim.h, compare/result.h: each wait's
 * segments, each with the task running on the CPU it waited for and the
 * policy's reason it did not run): the total wait by reason, by the task
 * waited behind, and the worst waits with their segments; and the
 * segments in words.  `explain`, the verdict (compare/verdict.h) and the
 * stacked bars of wait by reason (plots/) read it.
 *
 *	struct cmp_why w;
 *	if (cmp_why_run(set, run, want, ctx, 5, &w, d)) ...
 *	w.by_why[SM_WHY_CREDIT], w.behind[0].ns, w.worst[0].lat ...
 *	cmp_why_free(&w);
 */
#ifndef CMP_WHY_H
#define CMP_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/runset.h"
#include "lib/diag.h"

/* A task the waits were behind: (pid, comm) as the segments name it. */
struct cmp_behind {
	int32_t pid;
	const char *comm;       /* the run's name pool (lives with it) */
	int64_t ns;
};

/* One of the worst waits: its latency row (segments in the run's seg[])
 * and the task that waited. */
struct cmp_worst {
	const struct cmp_lat *lat;
	long task;
};

struct cmp_why {
	bool attributed;        /* the run has the attribution at all */
	uint64_t nwaits;        /* waits with a delay */
	int64_t total_ns;       /* their delays */
	int64_t by_why[SM_WHY__COUNT]; /* SM_WHY_NONE: waits without
					  segments (not attributed) */
	struct cmp_behind *behind; /* by time, most first */
	size_t nbehind;
	struct cmp_worst *worst; /* longest first (ties: earlier wake) */
	size_t nworst;
};

/* Does task t count?  NULL: every task. */
typedef bool (*cmp_task_pred)(const struct cmp_task *t, void *ctx);

/* The waits under run `run` of the tasks want() accepts; the top worst
 * waits (0: none). */
int cmp_why_run(struct cmp_set *s, size_t run, cmp_task_pred want, void *ctx,
		size_t top, struct cmp_why *out, struct sr_diag *d);
void cmp_why_free(struct cmp_why *w);

/* The reason with the most time (SM_WHY_NONE when none). */
int cmp_why_main(const struct cmp_why *w);

/*
 * A segment in words, its reason by name first: "812.000 ms [credit]
 * behind python3 (4711, prio 115, credit 87), kept in the active array
 * at its expiry by O11int's credit rule".
 * res: the run the segment is of (its names).
 */
char *cmp_why_words(char *buf, size_t len, const struct cmp_result *res,
		    const struct cmp_seg *g);

/* What a reason means, in a few words ("a better priority ran"). */
const char *cmp_why_meaning(int why);

/* The one clock of explain and the report: "2.345678 s (trace clock
 * @5012.345678)", seconds after the trace's start, then the trace's own
 * clock as --start @SECONDS takes it. */
char *cmp_why_when(char *buf, size_t len, const struct cmp_set *s, int64_t ns);

/*
 * A wait in words, as explain and the report both say it: a line
 * "WHO waited 308.000 ms from 0.789000 s (trace clock @...):" (level 0;
 * who may be NULL), then its segments grouped by reason and running task,
 * most time first, in words (level 1), at most CMP_WHY_WAIT_GROUPS and a
 * line for the rest.  SR_EINTERNAL when out of memory.
 */
#define CMP_WHY_WAIT_GROUPS 6
typedef void (*cmp_why_line_fn)(void *ctx, int level, const char *line);
int cmp_why_wait_lines(const struct cmp_set *s, const struct cmp_result *res,
		       const struct cmp_lat *l, const char *who,
		       cmp_why_line_fn fn, void *ctx);

#endif
