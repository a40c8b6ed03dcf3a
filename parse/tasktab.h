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
#include <string.h>

#include "lib/diag.h"
#include "parse/reader.h"
#include "parse/tasks.h"

/* records per trace: a backstop above the reader's limit (reader.h
 * SR_TASKS_LIMIT, checked after each line with its FILE:LINE), which a
 * line (at most 3 new records) cannot jump */
#define SR_TASKS_MAX (SR_TASKS_LIMIT + 8u)

/*
 * Records live in chunks of SR_TASKS_CHUNK that never move: growth costs
 * one chunk, not a copy of the table, and leaves at most one chunk unused
 * (doubling an array would leave up to half of it).  The pid map is open
 * addressing, -1 an empty slot.  Defined here so that the lookups every
 * event makes (sr_tasks_pid's usual case, touch, mut) inline into the
 * reader; tasks.c owns the rest.
 */
#define SR_TASKS_CHUNK_BITS 12
#define SR_TASKS_CHUNK (1u << SR_TASKS_CHUNK_BITS)

struct sr_pidslot {
	int32_t pid;   /* -1: empty */
	sr_tid tid;
};

struct sr_tasks {
	struct sr_task **ch;   /* chunks */
	size_t nch, capch;
	size_t n;              /* records */
	struct sr_pidslot *map;
	size_t mcap, mused;
	sr_tid *idle;  /* per cpu */
	size_t nidle;
};

#define V(t, i) ((t)->ch[(i) >> SR_TASKS_CHUNK_BITS][(i) & (SR_TASKS_CHUNK - 1)])

static inline size_t sr_tasks_slot_of(const struct sr_tasks *t, int32_t pid)
{
	size_t h = ((uint32_t)pid * 2654435761u) & (t->mcap - 1);

	while (t->map[h].pid != -1 && t->map[h].pid != pid)
		h = (h + 1) & (t->mcap - 1);
	return h;
}

/* The current record of pid in the map, SR_TID_NONE if none. */
static inline sr_tid sr_tasks_map_get(const struct sr_tasks *t, int32_t pid)
{
	size_t h;

	if (!t->mcap)
		return SR_TID_NONE;
	h = sr_tasks_slot_of(t, pid);
	return t->map[h].pid == pid ? t->map[h].tid : SR_TID_NONE;
}

static inline size_t sr_tasks_n(const struct sr_tasks *t)
{
	return t->n;
}

static inline struct sr_task *sr_tasks_mut(struct sr_tasks *t, sr_tid id)
{
	return id < t->n ? &V(t, id) : NULL;
}

struct sr_tasks *sr_tasks_new(void);
void sr_tasks_free(struct sr_tasks *t);

/*
 * The current record of pid, created if unknown or if its last record
 * is gone (exited and switched out dead, or freed): pid reuse.  comm is
 * NULL, or a char[SR_COMM_MAX] array holding "" if unknown; comm_auth
 * says whether it comes from event fields (the kernel's task->comm,
 * authoritative: a change renames the record) or from a line header (only
 * names a record that has no comm yet).
 * for_free: a free event still names the gone record.
 * Returns SR_TID_NONE when the table is full (d filled).
 */
/*
 * Are two names of char[SR_COMM_MAX] arrays the same string?  Compared 8
 * bytes at a time up to the word with the first NUL (bytes after it in
 * that word are masked off); both arrays are read whole at most.
 */
static inline int sr_comm_eq(const char *a, const char *b)
{
	for (size_t i = 0; i < SR_COMM_MAX; i += 8) {
		uint64_t x, y, z;

		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		/* the lowest set bit of z marks x's first zero byte */
		z = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
		if (z)
			return ((x ^ y) & (z ^ (z - 1))) == 0;
		if (x != y)
			return 0;
	}
	return 1;
}

sr_tid sr_tasks_pid_slow(struct sr_tasks *t, int32_t pid, const char *comm,
			 int comm_auth, int for_free, int64_t ts,
			 struct sr_diag *d);
static inline sr_tid sr_tasks_pid(struct sr_tasks *t, int32_t pid,
				  const char *comm, int comm_auth,
				  int for_free, int64_t ts, struct sr_diag *d)
{
	sr_tid id = sr_tasks_map_get(t, pid);

	/* the usual case: a live record, named as the event names it */
	if (id != SR_TID_NONE && !for_free && !V(t, id).gone &&
	    (!comm || !comm[0] || sr_comm_eq(comm, V(t, id).comm)))
		return id;
	return sr_tasks_pid_slow(t, pid, comm, comm_auth, for_free, ts, d);
}
/*
 * The latest record of pid, even if gone: a reference to a task that may
 * have died since (native "by=PID" of a wakeup completing after its waker
 * exited).  Created if the pid is unknown.
 */
sr_tid sr_tasks_ref(struct sr_tasks *t, int32_t pid, int64_t ts,
		    struct sr_diag *d);
/* The idle task of cpu. */
sr_tid sr_tasks_idle_slow(struct sr_tasks *t, int32_t cpu, int64_t ts,
			  struct sr_diag *d);
static inline sr_tid sr_tasks_idle(struct sr_tasks *t, int32_t cpu,
				   int64_t ts, struct sr_diag *d)
{
	if (cpu >= 0 && (size_t)cpu < t->nidle && t->idle[cpu] != SR_TID_NONE)
		return t->idle[cpu];
	return sr_tasks_idle_slow(t, cpu, ts, d);
}
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
static inline void sr_tasks_set_tgid(struct sr_tasks *t, sr_tid id,
				     int32_t tgid)
{
	if (id < t->n && tgid >= 0 && V(t, id).tgid != tgid) {
		V(t, id).tgid = tgid;
		V(t, id).attr_gen++;
	}
}

void sr_tasks_set_comm(struct sr_tasks *t, sr_tid id, const char *comm);
void sr_tasks_set_kthread(struct sr_tasks *t, sr_tid id);
static inline void sr_tasks_touch(struct sr_tasks *t, sr_tid id, int64_t ts)
{
	struct sr_task *k;

	if (id >= t->n)
		return;
	k = &V(t, id);
	if (k->untouched) {
		/* first_ts/last_ts count events, not the declaration */
		k->untouched = 0;
		k->first_ts = k->last_ts = ts;
		return;
	}
	if (ts < k->first_ts)
		k->first_ts = ts;
	if (ts > k->last_ts)
		k->last_ts = ts;
}
/* A declared record: first_ts/last_ts wait for the first event. */
void sr_tasks_mark_declared(struct sr_tasks *t, sr_tid id);

/* 1 if comm is a kernel-thread name (table in tasks.c). */
int sr_comm_is_kthread(const char *comm);

#endif
