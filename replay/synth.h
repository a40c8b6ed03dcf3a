/*
 * synth: closed-loop synthetic programs, replayed under one policy.
 *
 * A recording fixes what each task did and when; a synthetic program
 * decides its next step when it gets there, from the time the simulator
 * has reached: a periodic task that ran late sleeps less, or skips a
 * frame, as the real one would.  So every policy is given its own run of
 * the same programs (docs/interbench.md, "Closed loop").
 *
 * Each task has a step function, called when the task runs and has
 * reached the end of its program so far; it appends what the task does
 * now (posts, forks, a nice change) and ends with one thing that takes
 * time or ends the task: burn CPU, sleep until a time, wait on a
 * semaphore that is not posted, fork, exit.  The ops go into a demand
 * (replay/demand.h, its synthetic entry points) read by one simulator
 * (replay/sim.h): the simulator stops where a running task's next op is
 * not written yet, and the step writes it.
 *
 *	struct sr_synth *sy;
 *	sr_synth_new(&sy, &opts, d);
 *	sr_synth_spawn(sy, &(struct sr_synth_task){ .comm = "main",
 *			       .step = main_step, .prog = &m }, 0, d);
 *	sr_synth_run(sy, d);              // until every program has exited
 *	... read the programs' own figures, sr_synth_sim(sy) ...
 *	sr_synth_free(sy);
 *
 * The run can be written as a native trace (docs/trace-format.md) as it
 * happens: replayed under the same policy it gives the same schedule.
 */
#ifndef SR_SYNTH_H
#define SR_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"
#include "replay/metrics.h"
#include "replay/sim.h"

struct sr_synth;

/*
 * The step of task `task`, at sr_synth_now(): append its ops.  0, or an
 * error code (the ops' own errors are kept by the synth and returned by
 * sr_synth_run).
 */
typedef int (*sr_synth_step_fn)(struct sr_synth *sy, uint32_t task,
				void *prog);

/* A task to make: spawned (arrives), or forked (its parent's class and
   nice, as fork copies them). */
struct sr_synth_task {
	const char *comm;
	int32_t tgid;              /* its process: a pid, 0 for its own */
	int nice;                  /* spawned: its nice */
	sr_synth_step_fn step;
	void *prog;                /* the step's state */
};

/*
 * A semaphore (or a wait queue): sr_synth_wait blocks while its count
 * is 0; sr_synth_post wakes the longest waiter, else counts.  Zeroed is
 * empty; sr_synth_sem_free gives back its queue.
 */
struct sr_synth_sem {
	uint64_t count;
	uint32_t *q;               /* waiting tasks, q[head .. n-1] */
	size_t head, n, cap;
};

struct sr_synth_opts {
	const struct sm_policy *policy;
	struct sm_sched *sched;    /* tuned; NULL: the policy's defaults */
	int cpus;
	bool check;                /* the policy's invariants every instant */
	/* every wait as it ends (latency rows), task ids as sr_synth's;
	   NULL: none */
	sr_acct_wait_fn wait;
	void *wait_ctx;
	/* the run as a native trace (NULL: none), headed by comment */
	FILE *trace;
	const char *trace_comment;
	int32_t first_pid;         /* pids handed out from it (0: 1000) */
};

int sr_synth_new(struct sr_synth **sy, const struct sr_synth_opts *o,
		 struct sr_diag *d);
void sr_synth_free(struct sr_synth *sy);

/* A task that arrives at `at` (before sr_synth_run); its id. */
int sr_synth_spawn(struct sr_synth *sy, const struct sr_synth_task *t,
		   int64_t at, uint32_t *id, struct sr_diag *d);
/* Run every program to its exit. */
int sr_synth_run(struct sr_synth *sy, struct sr_diag *d);

int64_t sr_synth_now(const struct sr_synth *sy);
struct sr_sim *sr_synth_sim(struct sr_synth *sy);
int32_t sr_synth_pid(const struct sr_synth *sy, uint32_t task);
int32_t sr_synth_tgid(const struct sr_synth *sy, uint32_t task);
const char *sr_synth_comm(const struct sr_synth *sy, uint32_t task);
size_t sr_synth_ntasks(const struct sr_synth *sy);

/* ---- what a step appends (task: the stepping task) ----------------------- */

/* Has the step appended nothing yet?  A wait that blocks must be a step's
   first op (done at once with the decision): a step with ops already
   ends, and comes back to the wait when the task next runs. */
bool sr_synth_fresh(const struct sr_synth *sy);

/* Use ns of CPU (ns > 0). */
void sr_synth_burn(struct sr_synth *sy, uint32_t task, int64_t ns);
/* Sleep until t, woken by an interrupt (a timer, a disk); false, and no
   sleep, when t is not after now. */
bool sr_synth_sleep_until(struct sr_synth *sy, uint32_t task, int64_t t);
/* Take the semaphore, or block on it until a post: true if it blocks. */
bool sr_synth_wait(struct sr_synth *sy, uint32_t task,
		   struct sr_synth_sem *sem);
/* Wake its longest waiter, or count one. */
void sr_synth_post(struct sr_synth *sy, uint32_t task,
		   struct sr_synth_sem *sem);
/* Wake every waiter (a broadcast: a wait queue's wake_up_all); counts
   nothing. */
void sr_synth_post_all(struct sr_synth *sy, uint32_t task,
		       struct sr_synth_sem *sem);
/* Fork a child (it inherits class and nice); its id in *child. */
void sr_synth_fork(struct sr_synth *sy, uint32_t task,
		   const struct sr_synth_task *t, uint32_t *child);
void sr_synth_nice(struct sr_synth *sy, uint32_t task, int nice);
/* SCHED_FIFO (rt 1..99) or back to SCHED_NORMAL (rt 0). */
void sr_synth_fifo(struct sr_synth *sy, uint32_t task, int rt);
void sr_synth_exit(struct sr_synth *sy, uint32_t task);

void sr_synth_sem_free(struct sr_synth_sem *sem);

#endif
