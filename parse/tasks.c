/*
 * tasks: the task table: records, the pid -> current record map, per-cpu
 * idle records, and the kernel-thread name table.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "lib/grow.h"
#include "parse/tasktab.h"

/*
 * Kernel-thread names: a comm starting with one of these (or equal, for
 * the exact ones) is a kernel thread.  Kernel threads have no mm; the
 * models treat them differently.  Keep docs/trace-format.md in step.
 */
static const struct {
	const char *name;
	int exact;
} kthread_names[] = {
	{ "kthreadd", 1 }, { "swapper", 0 }, { "kworker/", 0 },
	{ "ksoftirqd/", 0 }, { "migration/", 0 }, { "rcu_", 0 },
	{ "rcuc/", 0 }, { "rcub/", 0 }, { "rcuop/", 0 }, { "rcuos/", 0 },
	{ "rcuog/", 0 }, { "cpuhp/", 0 }, { "irq/", 0 }, { "watchdog/", 0 },
	{ "watchdogd", 1 }, { "idle_inject/", 0 }, { "kswapd", 0 },
	{ "kcompactd", 0 }, { "khugepaged", 1 }, { "ksmd", 1 },
	{ "kauditd", 1 }, { "khungtaskd", 1 }, { "oom_reaper", 1 },
	{ "kdevtmpfs", 1 }, { "kblockd", 1 }, { "kintegrityd", 1 },
	{ "writeback", 1 }, { "jbd2/", 0 }, { "ext4-rsv-conver", 1 },
	{ "xfsaild/", 0 }, { "scsi_eh_", 0 }, { "scsi_tmf_", 0 },
	{ "mmcqd/", 0 }, { "ktimersoftd/", 0 }, { "kthrotld", 1 },
	{ "netns", 1 }, { "pool_workqueue_", 0 }, { "sugov:", 0 },
	{ "card0-crtc", 0 }, { "hwrng", 1 }, { "kstrp", 1 },
	{ "ipv6_addrconf", 1 }, { "zswap-shrink", 1 }, { "psimon", 1 },
};

int sr_comm_is_kthread(const char *comm)
{
	for (size_t i = 0; i < sizeof(kthread_names) / sizeof(kthread_names[0]); i++) {
		const char *k = kthread_names[i].name;
		size_t n = strlen(k);

		if (kthread_names[i].exact ? !strcmp(comm, k)
					   : !strncmp(comm, k, n))
			return 1;
	}
	return 0;
}

struct sr_tasks *sr_tasks_new(void)
{
	return calloc(1, sizeof(struct sr_tasks));
}

void sr_tasks_free(struct sr_tasks *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nch; i++)
		free(t->ch[i]);
	free(t->ch);
	free(t->map);
	free(t->idle);
	free(t);
}

size_t sr_tasks_count(const struct sr_tasks *t)
{
	return t ? t->n : 0;
}

const struct sr_task *sr_tasks_get(const struct sr_tasks *t, sr_tid id)
{
	return t && id < t->n ? &V(t, id) : NULL;
}

static int map_grow(struct sr_tasks *t)
{
	size_t ocap = t->mcap;
	struct sr_pidslot *old = t->map;
	size_t ncap = ocap ? ocap * 2 : 1024;

	t->map = malloc(ncap * sizeof(*t->map));
	if (!t->map) {
		t->map = old;
		return -1;
	}
	for (size_t i = 0; i < ncap; i++)
		t->map[i].pid = -1;
	t->mcap = ncap;
	for (size_t i = 0; i < ocap; i++)
		if (old[i].pid != -1)
			t->map[sr_tasks_slot_of(t, old[i].pid)] = old[i];
	free(old);
	return 0;
}

static int map_set(struct sr_tasks *t, int32_t pid, sr_tid tid)
{
	size_t h;

	if ((t->mused + 1) * 2 > t->mcap && map_grow(t) != 0)
		return -1;
	h = sr_tasks_slot_of(t, pid);
	if (t->map[h].pid == -1)
		t->mused++;
	t->map[h].pid = pid;
	t->map[h].tid = tid;
	return 0;
}

static sr_tid new_record(struct sr_tasks *t, int32_t pid, const char *comm,
			 int64_t ts, struct sr_diag *d)
{
	struct sr_task *k;

	if (t->n >= SR_TASKS_MAX) {
		sr_fail(d, SR_EDATA, "more than %u task records: the trace is "
			"beyond the supported size", SR_TASKS_MAX);
		return SR_TID_NONE;
	}
	if ((t->n >> SR_TASKS_CHUNK_BITS) == t->nch) {
		struct sr_task **nc = t->ch, *c;

		if (t->nch == t->capch)
			nc = sr_grow(t->ch, &t->capch, t->nch, sizeof(*nc), 16, 0);
		c = nc ? malloc(SR_TASKS_CHUNK * sizeof(*c)) : NULL;
		if (!c) {
			sr_oom(d);
			return SR_TID_NONE;
		}
		t->ch = nc;
		t->ch[t->nch++] = c;
	}
	k = &V(t, t->n);
	memset(k, 0, sizeof(*k));
	k->id = (sr_tid)t->n;
	k->thread = k->id;
	k->exec_prev = SR_TID_NONE;
	k->parent = SR_TID_NONE;
	k->pid = pid;
	k->tgid = -1;
	k->cpu = -1;
	k->prio = -1;
	k->policy = -1;
	k->first_ts = ts;
	k->last_ts = ts;
	if (comm)
		strncpy(k->comm, comm, SR_COMM_MAX - 1);
	k->kthread = pid == 2 || (comm && sr_comm_is_kthread(comm));
	k->pidprev = pid > 0 ? sr_tasks_map_get(t, pid) : SR_TID_NONE;
	if (pid > 0 && map_set(t, pid, k->id) != 0) {
		sr_oom(d);
		return SR_TID_NONE;
	}
	return (sr_tid)t->n++;
}

sr_tid sr_tasks_pid_slow(struct sr_tasks *t, int32_t pid, const char *comm,
			 int comm_auth, int for_free, int64_t ts,
			 struct sr_diag *d)
{
	sr_tid id = sr_tasks_map_get(t, pid);
	struct sr_task *k;

	if (for_free && id != SR_TID_NONE && !V(t, id).exited) {
		/* the pid was reused before the old task was reaped: the
		 * latest earlier record of the pid not reaped yet (walking
		 * the pid's records, not the whole table: a trace without
		 * exit events frees live records all the time) */
		for (sr_tid i = V(t, id).pidprev; i != SR_TID_NONE;
		     i = V(t, i).pidprev)
			if (V(t, i).exited && !V(t, i).freed)
				return i;
	}
	if (id == SR_TID_NONE || (V(t, id).gone && !for_free))
		return new_record(t, pid, comm, ts, d);
	k = &V(t, id);
	if (comm && comm[0] && strcmp(comm, k->comm) != 0 &&
	    (comm_auth || !k->comm[0]))
		sr_tasks_set_comm(t, id, comm);
	return id;
}

sr_tid sr_tasks_ref(struct sr_tasks *t, int32_t pid, int64_t ts,
		    struct sr_diag *d)
{
	sr_tid id = sr_tasks_map_get(t, pid);

	if (id != SR_TID_NONE)
		return id;
	return new_record(t, pid, "", ts, d);
}

sr_tid sr_tasks_idle_slow(struct sr_tasks *t, int32_t cpu, int64_t ts,
			  struct sr_diag *d)
{
	char comm[32];
	sr_tid id;

	if (cpu < 0)
		cpu = 0;
	if ((size_t)cpu >= t->nidle) {
		sr_tid *ni = sr_grow(t->idle, &t->nidle, (size_t)cpu,
				     sizeof(*ni), 4, 0xff);

		if (!ni) {
			sr_oom(d);
			return SR_TID_NONE;
		}
		t->idle = ni;
	}
	if (t->idle[cpu] != SR_TID_NONE)
		return t->idle[cpu];
	snprintf(comm, sizeof(comm), "swapper/%d", (int)cpu);
	id = new_record(t, 0, comm, ts, d);
	if (id == SR_TID_NONE)
		return id;
	V(t, id).is_idle = 1;
	V(t, id).kthread = 1;
	V(t, id).cpu = cpu;
	V(t, id).tgid = 0;
	t->idle[cpu] = id;
	return id;
}

sr_tid sr_tasks_declare(struct sr_tasks *t, int32_t pid, const char *comm,
			int64_t ts, struct sr_diag *d)
{
	sr_tid id = new_record(t, pid, comm, ts, d);

	if (id != SR_TID_NONE)
		sr_tasks_mark_declared(t, id);
	return id;
}

sr_tid sr_tasks_fork(struct sr_tasks *t, sr_tid parent, int32_t child_pid,
		     const char *comm, int64_t ts, struct sr_diag *d)
{
	sr_tid id = sr_tasks_map_get(t, child_pid);

	/* A live record without a parent: the child showed up before the
	 * fork event (clock skew between cpus).  Otherwise a new task. */
	if (id == SR_TID_NONE || V(t, id).gone || V(t, id).exited ||
	    V(t, id).parent != SR_TID_NONE || V(t, id).forked ||
	    V(t, id).exec_prev != SR_TID_NONE)
		id = new_record(t, child_pid, comm, ts, d);
	else if (comm && comm[0] && !V(t, id).comm[0])
		sr_tasks_set_comm(t, id, comm);
	if (id == SR_TID_NONE)
		return id;
	V(t, id).forked = 1;
	V(t, id).parent = parent;
	if (parent != SR_TID_NONE) {
		const struct sr_task *p = &V(t, parent);

		if (p->pid == 2 && !p->is_idle)
			V(t, id).kthread = 1;
	}
	return id;
}

sr_tid sr_tasks_exec(struct sr_tasks *t, sr_tid old, int32_t pid,
		     const char *comm, int64_t ts, struct sr_diag *d)
{
	sr_tid id, prev = sr_tasks_map_get(t, pid);

	/* a non-leader thread exec'd: it takes the leader's pid */
	if (prev != SR_TID_NONE && prev != old)
		V(t, prev).gone = 1;
	id = new_record(t, pid, comm, ts, d);
	if (id == SR_TID_NONE)
		return id;
	if (old != SR_TID_NONE) {
		struct sr_task *o = &V(t, old);

		V(t, id).thread = o->thread;
		V(t, id).exec_prev = old;
		V(t, id).parent = o->parent;
		V(t, id).tgid = o->tgid;
		V(t, id).cpu = o->cpu;
		V(t, id).prio = o->prio;
		V(t, id).nice = o->nice;
		V(t, id).policy = o->policy;
		V(t, id).rtprio = o->rtprio;
		o->gone = 1;
		if (o->pid != pid)
			map_set(t, pid, id);
	}
	return id;
}

void sr_tasks_exit(struct sr_tasks *t, sr_tid id)
{
	if (id < t->n)
		V(t, id).exited = 1;
}

void sr_tasks_gone(struct sr_tasks *t, sr_tid id)
{
	if (id < t->n && !V(t, id).is_idle)
		V(t, id).gone = 1;
}

void sr_tasks_freed(struct sr_tasks *t, sr_tid id)
{
	if (id < t->n && !V(t, id).is_idle) {
		V(t, id).freed = 1;
		V(t, id).gone = 1;
	}
}

void sr_tasks_set_comm(struct sr_tasks *t, sr_tid id, const char *comm)
{
	struct sr_task *k;

	if (id >= t->n)
		return;
	k = &V(t, id);
	if (k->is_idle || !comm[0] || !strcmp(k->comm, comm))
		return;
	memset(k->comm, 0, sizeof(k->comm));
	strncpy(k->comm, comm, SR_COMM_MAX - 1);
	if (sr_comm_is_kthread(comm))
		k->kthread = 1;
	k->attr_gen++;
}

void sr_tasks_set_kthread(struct sr_tasks *t, sr_tid id)
{
	if (id < t->n)
		V(t, id).kthread = 1;
}

void sr_tasks_mark_declared(struct sr_tasks *t, sr_tid id)
{
	if (id >= t->n)
		return;
	V(t, id).declared = 1;
	V(t, id).untouched = 1;
}

