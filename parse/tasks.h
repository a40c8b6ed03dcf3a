/*
 * tasks: the task table.  One record per task as the trace shows it:
 * a new record when a pid is reused after exit, and a new record (linked
 * to the old by exec_prev, same thread) when exec changes the comm.  Ids
 * are dense, assigned in order of first appearance, and never reused, so
 * they are stable for a given input.
 *
 * Per-CPU idle tasks (pid 0) get one record per cpu, flagged is_idle.
 * Kernel threads (no mm) are flagged kthread: children of kthreadd (pid 2),
 * pid 2 itself, and tasks whose comm is a known kernel-thread name (the
 * table in parse/tasks.c, listed in docs/trace-format.md).
 *
 * A comm change seen in event fields without an exec (prctl(PR_SET_NAME),
 * or a trace without sched_process_exec) renames the record in place and
 * bumps attr_gen.  docs/trace-format.md has the identity rules in full.
 */
#ifndef SR_TASKS_H
#define SR_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "parse/event.h"

/*
 * Room for a comm and its NUL: twice TASK_COMM_LEN.  The kernel's names
 * are at most 15 characters in every tracepoint field, ftrace line header
 * and perf COMM record; a longer one (a hand-written native trace) is cut.
 */
#define SR_COMM_MAX 32

/*
 * 104 bytes: the 8-byte fields first, then 4, 2 and 1 byte ones, so the
 * record has no holes (a trace with 400 000 tasks holds as many).
 */
struct sr_task {
	int64_t first_ts; /* first event naming it (a native "task" line
			   * counts only until an event names the task) */
	int64_t last_ts;  /* last event naming it */
	sr_tid id;
	sr_tid thread;    /* first record of this kernel task (exec chain) */
	sr_tid exec_prev; /* record before the exec that made this one */
	sr_tid parent;    /* forking task, SR_TID_NONE if unknown */
	int32_t pid;
	int32_t tgid;     /* -1 if unknown */
	int32_t cpu;      /* is_idle: its cpu; else last cpu seen, -1 */
	int32_t nice;     /* last nice known (0 default) */
	uint32_t attr_gen;/* bumped whenever comm or tgid changes */
	sr_tid pidprev;   /* private to tasks.c: the pid's record before */
	int16_t prio;     /* last kernel prio seen, -1 unknown */
	int16_t rtprio;   /* rt_priority when policy is FIFO/RR, else 0 */
	uint8_t is_idle;
	uint8_t kthread;
	uint8_t exited;   /* exit seen */
	uint8_t freed;    /* free (reap) seen */
	uint8_t gone;     /* switched out dead or freed: its pid is free */
	uint8_t forked;   /* created by a fork seen in the trace */
	uint8_t declared; /* created by a native "task" line */
	int8_t policy;    /* enum sr_sched_policy_id, -1 unknown */
	uint8_t untouched;/* private to tasks.c: declared, no event yet */
	char comm[SR_COMM_MAX];
};

struct sr_tasks;

size_t sr_tasks_count(const struct sr_tasks *t);
const struct sr_task *sr_tasks_get(const struct sr_tasks *t, sr_tid id);

#endif
