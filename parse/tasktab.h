/*
 * tasktab: building the task table (parse/tasks.h) while events are
 * resolved: pid lookup, pid reuse, fork, exec, exit, per-cpu idle and
 * kernel-thread recognition.
 *
 * Private to parse/.
 */
#ifndef SR_TASKTAB_H
#define SR_TASKTAB_H

#include <stdint.h>

#include "lib/diag.h"
#include "parse/reader.h"
#include "parse/tasks.h"

/* records per trace: a backstop above the reader's limit (reader.h
 * SR_TASKS_LIMIT, checked after each line with its FILE:LINE), which a
 * line (at most 3 new records) cannot jump */
#define SR_TASKS_MAX (SR_TASKS_LIMIT + 8u)

struct sr_tasks *sr_tasks_new(void);
void sr_tasks_free(struct sr_tasks *t);

/*
 * The current record of pid, created if unknown or if its last record
 * is gone (exited and switched out dead, or freed): pid reuse.  comm is
 * "" if unknown; comm_auth says whether it comes from event fields (the
 * kernel's task->comm, authoritative: a change renames the record) or
 * from a line header (only names a record that has no comm yet).
 * for_free: a free event still names the gone record.
 * Returns SR_TID_NONE when the table is full (d filled).
 */
sr_tid sr_tasks_pid(struct sr_tasks *t, int32_t pid, const char *comm,
		    int comm_auth, int for_free, int64_t ts, struct sr_diag *d);
/*
 * The latest record of pid, even if gone: a reference to a task that may
 * have died since (native "by=PID" of a wakeup completing after its waker
 * exited).  Created if the pid is unknown.
 */
sr_tid sr_tasks_ref(struct sr_tasks *t, int32_t pid, int64_t ts,
		    struct sr_diag *d);
/* The idle task of cpu. */
sr_tid sr_tasks_idle(struct sr_tasks *t, int32_t cpu, int64_t ts,
		     struct sr_diag *d);
/* A new record for pid whatever is known (native "task" line). */
sr_tid sr_tasks_declare(struct sr_tasks *t, int32_t pid, const char *comm,
			int64_t ts, struct sr_diag *d);
/* parent forked child_pid: a new record unless a live one is waiting. */
sr_tid sr_tasks_fork(struct sr_tasks *t, sr_tid parent, int32_t child_pid,
		     const char *comm, int64_t ts, struct sr_diag *d);
/* old exec'd as pid with comm: the new record, linked to old. */
sr_tid sr_tasks_exec(struct sr_tasks *t, sr_tid old, int32_t pid,
		     const char *comm, int64_t ts, struct sr_diag *d);

void sr_tasks_exit(struct sr_tasks *t, sr_tid id);
void sr_tasks_gone(struct sr_tasks *t, sr_tid id);  /* switched out dead */
void sr_tasks_freed(struct sr_tasks *t, sr_tid id);
void sr_tasks_set_tgid(struct sr_tasks *t, sr_tid id, int32_t tgid);
void sr_tasks_set_comm(struct sr_tasks *t, sr_tid id, const char *comm);
void sr_tasks_set_kthread(struct sr_tasks *t, sr_tid id);
void sr_tasks_touch(struct sr_tasks *t, sr_tid id, int64_t ts);
/* A declared record: first_ts/last_ts wait for the first event. */
void sr_tasks_mark_declared(struct sr_tasks *t, sr_tid id);
struct sr_task *sr_tasks_mut(struct sr_tasks *t, sr_tid id);

/* 1 if comm is a kernel-thread name (table in tasks.c). */
int sr_comm_is_kthread(const char *comm);

#endif
