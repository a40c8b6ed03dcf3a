/*
 * schedview: perf sched's two views of a schedule, line for line as
 * perf 6.1 prints them, for the recorded schedule and for any policy's
 * replay, so that perf's users keep their habits:
 *
 *   timehist  a line per context switch, for the task switched out:
 *             when, on which cpu, how long it had been off the cpu (wait
 *             time), from its wakeup to running (sch delay), and how long
 *             it ran (run time); "lost N events on cpu C" where the
 *             recording lost some (`perf sched timehist`);
 *   map       a line per context switch: each cpu's task as a two-letter
 *             name, '*' on the cpu that switched, and "A0 => comm:tid"
 *             the first time a name is given (`perf sched map`).
 *
 * The schedule comes as switches, wakeups and losses (sr_sv_switch,
 * sr_sv_wake, sr_sv_lost: the recorded events, in time order), or as a
 * policy's timeline rows (sr_sv_row: the replay's runs, preemptions,
 * blocks and wakeups, made into switches: a task leaving a cpu and
 * another starting there at the same time are one switch).  They are
 * spooled to an unlinked temporary file, a record each, and drawn at the
 * end (sr_sv_write), when the number of cpus is known: memory grows with
 * tasks and names, not events.  docs/replay.md, "perf sched's views".
 */
#ifndef SR_SCHEDVIEW_H
#define SR_SCHEDVIEW_H

#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"
#include "parse/tasks.h"
#include "replay/sim.h"

enum sr_sv_view { SR_SV_TIMEHIST, SR_SV_MAP };

/* A task as the views name it: key (one per kernel task, dense; the
 * timeline rows' task), tid, tgid (-1 unknown) and its comm now.  A cpu's
 * idle task is SR_SV_IDLE. */
#define SR_SV_IDLE UINT32_MAX
struct sr_sv_task {
	uint32_t key;
	int32_t tid, tgid;
	const char *comm;
};

struct sr_sv;

int sr_sv_new(struct sr_sv **v, struct sr_diag *d);
/* prev leaves cpu at t in state (a prev_state letter: 'R' preempted,
 * 'S', 'D', ...), next runs there. */
int sr_sv_switch(struct sr_sv *v, int64_t t, int32_t cpu,
		 const struct sr_sv_task *prev, char state,
		 const struct sr_sv_task *next, struct sr_diag *d);
/* A wakeup of task: how ('w' sched_waking, 'u' sched_wakeup, 'n'
 * sched_wakeup_new; a replay's: 'r'). */
int sr_sv_wake(struct sr_sv *v, int64_t t, const struct sr_sv_task *task,
	       char how, struct sr_diag *d);
int sr_sv_lost(struct sr_sv *v, int64_t t, int32_t cpu, uint64_t n,
	       struct sr_diag *d);
/*
 * A policy's timeline row (its rows in time order).  The tasks' tgids are
 * looked up at the end (sr_sv_write's tasks); rows of one time are held
 * until a later one comes (or sr_sv_write).
 */
int sr_sv_row(struct sr_sv *v, const struct sr_tl_row *row, struct sr_diag *d);
/* The view, to f: ncpus the cpus the map shows (perf: those the machine
 * has); tasks (NULL: none) gives the tgids of the rows' tasks. */
int sr_sv_write(struct sr_sv *v, enum sr_sv_view view, int ncpus,
		const struct sr_tasks *tasks, FILE *f, struct sr_diag *d);
void sr_sv_free(struct sr_sv *v);

#endif
