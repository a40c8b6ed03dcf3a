/*
 * demand: what each task asked of the CPU, extracted from the normalised
 * event stream, as a per-task program the simulator replays.
 *
 * A task here is a kernel task (the reader's sr_task.thread: exec keeps
 * it).  Its program is a sequence of ops at points of its own CPU time:
 *
 *	RUN ns          consume ns of CPU (preemptions in the recording do
 *	                not split a burst; a RUN ends where an action is)
 *	WAKE t, k       wake task t out of its k-th block (a causal wake:
 *	                it happens when this task reaches this point)
 *	FORK c          fork child c (c's program starts there)
 *	COMM s          the task's name changes (exec, rename)
 *	NICE n, SETSCHED p,rt
 *	BLOCK k         go to sleep; how block k ended is filled in when the
 *	                recording shows it: CAUSAL (some WAKE op ends it),
 *	                EXTERNAL at an absolute trace time with a wake source,
 *	                or NEVER (the trace ended first)
 *	EXIT            exit (zombie, reaped at once)
 *	END             the trace ended while the task was running or runnable
 *
 * Tasks not created by a fork the program shows "arrive" at the instant
 * they are first seen (docs/replay.md, "First sight"); the arrivals are a
 * list in time order.
 *
 * Streaming (docs/replay.md): events are fed one at a time; several
 * consumers (one per simulated policy) read the programs at their own
 * pace, each keeping a cursor per task.  Ops every consumer has passed
 * are freed, so memory holds only what some consumer has not consumed.
 * While a task runs in the recording its current burst is still open: a
 * consumer may run it up to sr_demand_open() ns past its last op and must
 * wait for more input before going further.
 */
#ifndef SR_DEMAND_H
#define SR_DEMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/context.h"
#include "parse/event.h"
#include "parse/tasks.h"
#include "replay/taskgroups.h"

enum sr_op_kind {
	SR_OP_RUN,
	SR_OP_WAKE,
	SR_OP_FORK,
	SR_OP_COMM,
	SR_OP_NICE,
	SR_OP_SETSCHED,
	SR_OP_BLOCK,
	SR_OP_EXIT,
	SR_OP_END,
	SR_OP__COUNT
};

/* How a block ended (SR_OP_BLOCK.end). */
enum sr_block_end {
	SR_BLOCK_OPEN,      /* not known yet: the task is still asleep at R */
	SR_BLOCK_CAUSAL,    /* a WAKE op of another task ends it */
	SR_BLOCK_EXTERNAL,  /* at .wake_ts (interrupt, timer, idle, unknown) */
	SR_BLOCK_NEVER,     /* the trace ended while it slept */
};

struct sr_op {
	uint8_t kind;       /* enum sr_op_kind */
	uint8_t end;        /* BLOCK: enum sr_block_end */
	uint8_t wsrc;       /* BLOCK EXTERNAL: enum sr_wake_src */
	uint8_t sync;       /* WAKE: sync wakeup; BLOCK EXTERNAL: the wake
			       was made on another CPU than its task's
			       (replay/calib.h: the class of its cost) */
	uint32_t task;      /* WAKE: target; FORK: child; BLOCK: block number;
			       COMM: index into the name pool */
	int64_t a;          /* RUN: ns; BLOCK: recorded sleep start; WAKE:
			       target's block number; NICE: nice; SETSCHED:
			       policy; FORK: flags (SM_FORK_*) */
	int64_t b;          /* BLOCK EXTERNAL: recorded wake time; SETSCHED:
			       rt priority; COMM: its cpus after the exec,
			       as ctx_pin (struct sr_dtask) */
	uint64_t seq;       /* BLOCK: trace order of the event that ended it
			       (1-based event number): simultaneous wakes
			       happen in this order */
};

/* A task as the demand knows it when it is born (arrives or is forked). */
struct sr_dtask {
	uint32_t id;        /* the reader's thread id */
	uint32_t parent;    /* forking task's id, SR_TID_NONE if unknown */
	int32_t pid;
	int32_t tgid;       /* its process (threads share it); pid if unknown */
	uint32_t comm;      /* name pool index at birth */
	int nice;
	int policy;         /* enum sr_sched_policy_id */
	int rt_priority;
	bool has_mm;        /* false for kernel threads */
	bool forked;        /* born by a FORK op of parent */
	int32_t cpu;        /* cpu of the line that first showed it (a
			       switch's cpu, a wakeup's target_cpu), -1 */
	int32_t ctx_pin;    /* its allowed cpus as the recording's context
			       read them at its birth: SR_PIN_UNKNOWN (not
			       read), SR_PIN_ANY, or the one cpu allowed */
	/* its task group (replay/taskgroups.h); NULL: the root */
	const struct sm_group *group;
	/* recorded figures, for checks and for `observed` */
	int64_t cpu_ns;     /* CPU time in the recording (so far) */
	int64_t finish_ts;  /* end of its recorded demand (valid at the end) */
	uint64_t bursts, blocks;
};

/*
 * The recorded command's first task, by the name it has until it execs
 * the command: schedreplay record's (record-exec) or perf record's
 * (perf-exec).  An empty --tree or --only-tree means its tree.
 */
#define SR_CMD_TREE "^(record|perf)-exec$"

/* A task's cpus from the recording's context (sr_dtask.ctx_pin, a COMM
 * op's b): not read, any cpu (several allowed), or the one cpu it may
 * run on. */
#define SR_PIN_UNKNOWN (-2)
#define SR_PIN_ANY (-1)

struct sr_arrival {
	int64_t ts;
	uint64_t seq;       /* trace order (event number) of its first line */
	uint32_t task;
};

/*
 * Which wakes the trace attributes to a task W become causal (W's WAKE op).
 * A trace without interrupt flags (perf script's text) attributes a timer
 * or device interrupt's wake to whatever task was running on that cpu.
 */
enum sr_causal_mode {
	/* W's wakes when the trace tells them from interrupts (it has irq
	   flags, or is native with by=PID), else only when W and the woken
	   task are related: threads of one process, parent and child, or
	   the woken task has woken W before (a conversation) */
	SR_CAUSAL_KNOWN,
	SR_CAUSAL_ALL,         /* every wake attributed to a task */
	SR_CAUSAL_NONE,        /* none: every sleep ends when recorded */
	SR_CAUSAL__COUNT
};

/* "known", "all", "none"; NULL-terminated, for --causal */
extern const char *const sr_causal_names[];

struct sr_demand_opts {
	/* pcre2 patterns on comm, NULL for none: tasks whose comm matches
	   exclude are left out, and those whose comm does not match only;
	   with tree, all but the first task whose comm matches it (at first
	   sight or renamed) and the tasks it forks, directly or not */
	const char *exclude;
	const char *only;
	const char *tree;      /* "": the recorded command (SR_CMD_TREE) */
	enum sr_causal_mode causal;
	/* how to look up the reader's task records */
	const struct sr_task *(*task_get)(const void *ctx, sr_tid id);
	const void *task_ctx;
	int nconsumers;        /* readers of the programs (>= 0) */
	/* the recording's context (parse/context.h), or NULL: each task's
	   cpus at its birth and after each exec, its policy, and its nice
	   where the events do not give it */
	const struct sr_context *ctx;
	/* where a task born goes (replay/taskgroups.h); NULL: the root */
	struct sr_taskgroups *groups;
};

/* Called when block `block` of `task` gets its end (not OPEN). */
typedef void (*sr_demand_resolve_fn)(void *ctx, uint32_t task,
				     uint32_t block, const struct sr_op *op);

struct sr_demand;

int sr_demand_new(struct sr_demand **dm, const struct sr_demand_opts *o,
		  struct sr_diag *d);
void sr_demand_free(struct sr_demand *dm);
void sr_demand_on_resolve(struct sr_demand *dm, sr_demand_resolve_fn fn,
			  void *ctx);

/* Feed one event, in stream order.  SR_OK or an error in d. */
int sr_demand_event(struct sr_demand *dm, const struct sr_event *ev,
		    struct sr_diag *d);
/* End of input at t_end: close every program. */
int sr_demand_finish(struct sr_demand *dm, int64_t t_end, struct sr_diag *d);

bool sr_demand_done(const struct sr_demand *dm);    /* finish() called */
int64_t sr_demand_now(const struct sr_demand *dm);  /* last event ts, R */
int64_t sr_demand_start(const struct sr_demand *dm);/* first event ts */
bool sr_demand_started(const struct sr_demand *dm); /* any event yet */

/* Task ids are < sr_demand_ntasks(); NULL for ids that are not tasks
 * (idle, excluded, later exec records, not born yet). */
size_t sr_demand_ntasks(const struct sr_demand *dm);
const struct sr_dtask *sr_demand_task(const struct sr_demand *dm,
				      uint32_t id);
const char *sr_demand_comm(const struct sr_demand *dm, uint32_t idx);
/* Name of the task at the end: last record's pid and comm. */
int32_t sr_demand_last_pid(const struct sr_demand *dm, uint32_t id);
const char *sr_demand_last_comm(const struct sr_demand *dm, uint32_t id);
/* Was the task ever included (not left out by --exclude)? */
bool sr_demand_included(const struct sr_demand *dm, uint32_t id);
/* Tasks seen so far that never were (exclude, only, tree). */
size_t sr_demand_left_out(const struct sr_demand *dm);

/*
 * Op number idx of task (numbers start at 0 and never change), NULL if
 * not known yet.  Valid until the next sr_demand_event/finish call.
 */
const struct sr_op *sr_demand_op(const struct sr_demand *dm, uint32_t task,
				 uint64_t idx);
/* CPU ns known past the task's last op (its open burst at R). */
int64_t sr_demand_open(const struct sr_demand *dm, uint32_t task);
/* Consumer c has consumed every op of task below idx (frees them). */
void sr_demand_consumed(struct sr_demand *dm, int c, uint32_t task,
			uint64_t idx);
/*
 * Consumers that run at once, each on its own thread: from now on
 * sr_demand_consumed() and sr_demand_arrivals_consumed() only move the
 * consumer's own cursors (nothing two consumers share is written), and
 * sr_demand_settle(), called when none runs, frees what all have passed.
 * Memory, not results: the ops are the same either way.  SR_EINTERNAL
 * when out of memory.
 */
int sr_demand_defer(struct sr_demand *dm);
void sr_demand_settle(struct sr_demand *dm);

/* Arrival number idx (0-based, time order), NULL if not known yet. */
const struct sr_arrival *sr_demand_arrival(const struct sr_demand *dm,
					   uint64_t idx);
void sr_demand_arrivals_consumed(struct sr_demand *dm, int c, uint64_t idx);

/* Memory: ops and arrivals held now, and the most ever held. */
struct sr_demand_stats {
	uint64_t events, ops, arrivals;
	uint64_t held_ops, peak_held_ops;
	uint64_t causal_wakes, external_wakes, never_woken;
	uint64_t task_wakes_external; /* attributed to a task, judged not
					 caused by it (SR_CAUSAL_KNOWN) */
	uint64_t nice_changes;        /* NICE ops read from prio fields */
	uint64_t policy_changes;      /* SETSCHED ops read from them */
	/* what the recording's context gave (tasks: at birth or exec) */
	uint64_t ctx_read;            /* tasks it held a reading of */
	uint64_t ctx_cpus;            /* tasks whose cpus it read */
	uint64_t ctx_pinned;          /* tasks it pinned to one cpu (at
					 birth or after an exec) */
	uint64_t ctx_partial;         /* tasks allowed some cpus, not one
					 or all: replayed on any (not
					 modelled) */
	uint64_t ctx_policy;          /* a policy the events cannot show:
					 RR (FIFO has the same prio), batch
					 and idle (a fair prio) */
	uint64_t ctx_unmodelled;      /* of them batch or idle, which the
					 models replay as normal */
	uint64_t ctx_nice;            /* nice from it, the events lacking */
};
void sr_demand_stats(const struct sr_demand *dm, struct sr_demand_stats *st);

const char *sr_op_kind_name(enum sr_op_kind k);

/*
 * Synthetic programs (replay/synth.h): a generator writes the programs
 * instead of the events, deciding each op when the simulator reaches
 * that point (a closed loop), into a demand that reads no event.  Task
 * ids are the records' of o->task_get, each its own thread.
 *
 *	sr_demand_synth_start(dm, 0);
 *	sr_demand_synth_task(dm, id, SR_TID_NONE, 0, 0, d);   // arrives at 0
 *	sr_demand_synth_op(dm, id, &(struct sr_op){ .kind = SR_OP_RUN,
 *						    .a = 1000000 }, d);
 *	...
 *	sr_demand_synth_end(dm, t_end);   // every program ended (EXIT)
 *
 * A BLOCK is CAUSAL (a WAKE op of another task ends it) or EXTERNAL at
 * its .b; its .task (block number) and .seq (the order of wakes at one
 * instant) are filled here.  Until the end the demand's "now" is far
 * ahead, so the simulator never waits for input but for a program's
 * next op.
 */
int sr_demand_synth_start(struct sr_demand *dm, int64_t t0);
/* Task id is born at ts: arrives, or forked by parent (whose FORK op the
 * caller appends next); cpu: where it arrives (-1: 0). */
int sr_demand_synth_task(struct sr_demand *dm, uint32_t id, uint32_t parent,
			 int64_t ts, int32_t cpu, struct sr_diag *d);
/* Append op to task id's program (an EXIT ends it). */
int sr_demand_synth_op(struct sr_demand *dm, uint32_t id,
		       const struct sr_op *op, struct sr_diag *d);
/* The blocks task id has had so far (the next BLOCK's number). */
uint32_t sr_demand_synth_blocks(const struct sr_demand *dm, uint32_t id);
/* Every program has ended by t_end: the input is done. */
void sr_demand_synth_end(struct sr_demand *dm, int64_t t_end);

#endif
