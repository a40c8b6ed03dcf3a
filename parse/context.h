/*
 * context: what the recording machine knew and its trace does not say.
 *
 * A scheduler trace records switches and wakeups; it does not record the
 * kernel's HZ, its preemption model, whether autogroup was on, the CPU
 * topology, the fair class's tunables, nor each task's group, cgroup
 * weight, allowed CPUs, nice and policy.  A replay under the model of the
 * recording kernel needs them.  `schedreplay record` captures them; the
 * readers hand them over with the events (sr_reader_context(), NULL when
 * the input carries none), and the replay takes what is there and says so
 * in its headline.
 *
 * Every field has an "unknown" value: a context may be partial (a file
 * that could not be read, a task that exited before it was looked at), and
 * a consumer uses only what is known.
 *
 * This header is the contract between the recorder (which fills it) and
 * the replay (which reads it).  The file format it is stored in is the
 * recorder's and the readers' business (docs/trace-format.md, "Context").
 */
#ifndef SR_CONTEXT_H
#define SR_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parse/tasks.h"

/* A set of CPU numbers, as a bitmap of nbits bits (cpu i is bit i%64 of
 * word i/64).  nbits 0: unknown (every CPU allowed). */
struct sr_cpuset {
	uint32_t nbits;
	uint64_t *w;
};

static inline bool sr_cpuset_has(const struct sr_cpuset *s, int32_t cpu)
{
	if (!s->nbits)
		return true;
	if (cpu < 0 || (uint32_t)cpu >= s->nbits)
		return false;
	return (s->w[cpu / 64] >> (cpu % 64)) & 1;
}

/* One CPU of the recording machine, from /sys/devices/system/cpu. */
struct sr_ctx_cpu {
	int32_t cpu;
	int32_t core;     /* topology/core_id, -1 unknown */
	int32_t package;  /* topology/physical_package_id, -1 unknown */
	int32_t node;     /* NUMA node, -1 unknown */
	int32_t llc;      /* id of its last-level cache (the lowest cpu
			   * sharing it), -1 unknown */
	int32_t smt;      /* the lowest cpu of its SMT siblings, -1 unknown */
	int8_t online;    /* 1, 0, -1 unknown */
};

/* A cgroup some task was in (cgroup v2 path, or the v1 cpu controller's). */
struct sr_ctx_cgroup {
	char *path;
	int32_t weight;   /* cpu.weight (1..10000; v1 cpu.shares converted
			   * as the kernel does), -1 unknown */
};

/* Which fields of a struct sr_ctx_task were read. */
enum sr_ctx_has {
	SR_CTX_NICE = 1u << 0,
	SR_CTX_POLICY = 1u << 1,      /* policy and rtprio */
	SR_CTX_AFFINITY = 1u << 2,    /* cpus */
	SR_CTX_AUTOGROUP = 1u << 3,   /* autogroup and autogroup_nice */
	SR_CTX_CGROUP = 1u << 4,      /* cgroup */
	SR_CTX_SESSION = 1u << 5,     /* sid */
};

/* One task as /proc showed it, at the start or when it appeared. */
struct sr_ctx_task {
	int64_t ts;          /* when it was read, on the trace's clock (ns);
			      * INT64_MIN: before the first event */
	int32_t pid;
	int32_t tgid;        /* -1 unknown */
	int32_t sid;         /* session id, -1 unknown */
	int32_t nice;
	int32_t policy;      /* enum sr_sched_policy_id */
	int32_t rtprio;      /* 1..99 for FIFO/RR, else 0 */
	int64_t autogroup;   /* /proc/PID/autogroup's number (0: in none,
			      * the root group), -1 unknown */
	int32_t autogroup_nice;
	uint32_t cgroup;     /* index into sr_context.cgroup, UINT32_MAX none */
	uint32_t has;        /* enum sr_ctx_has */
	uint8_t in_tree;     /* the recorded command or one of its
			      * descendants (record -- CMD) */
	struct sr_cpuset cpus;
	char comm[SR_COMM_MAX];
};

/* Events lost on one CPU while recording, as the recorder counted them. */
struct sr_ctx_loss {
	int32_t cpu;
	uint64_t lost;
};

struct sr_ctx_key {
	int32_t pid;
	int64_t ts;
	size_t i;         /* index into sr_context.task */
};

struct sr_context {
	/* the kernel */
	char *release;        /* uname -r, NULL unknown */
	int32_t hz;           /* CONFIG_HZ, 0 unknown */
	char *preempt;        /* "none", "voluntary", "full", "lazy",
			       * "dynamic:MODE"; NULL unknown */
	int8_t autogroup;     /* sched_autogroup_enabled: 1, 0, -1 unknown */
	int64_t base_slice_ns;/* sched/base_slice_ns, 0 unknown (then the
			       * model's default for the CPU count) */
	int64_t rt_runtime_us;/* sched_rt_runtime_us, INT64_MIN unknown
			       * (-1 is the kernel's "no limit") */
	int64_t rt_period_us; /* sched_rt_period_us, 0 unknown */

	/* the machine */
	int32_t ncpus;        /* CPUs online while recording, 0 unknown */
	struct sr_ctx_cpu *cpu;
	size_t ncpu;

	/* the tasks, in the order they were read; a pid may appear more than
	 * once (reused, or read again after a change) */
	struct sr_ctx_task *task;
	size_t ntask;
	struct sr_ctx_cgroup *cgroup;
	size_t ncgroup;

	int32_t root_pid;     /* the recorded command's pid, -1 none */
	int8_t system_wide;   /* record -a: 1, 0, -1 unknown */

	/* what could not be read, one line each, for the headline */
	char **unread;
	size_t nunread;

	/* losses the recorder counted */
	struct sr_ctx_loss *loss;
	size_t nloss;

	/* private to context.c: task[] sorted by (pid, ts), made by
	 * sr_context_done() */
	struct sr_ctx_key *by_pid;
};

/* A zeroed context with every field "unknown".  NULL if out of memory. */
struct sr_context *sr_context_new(void);
void sr_context_free(struct sr_context *c);

/*
 * Call once the context is filled (by the loader): sorts the pid index
 * sr_context_task() searches.  Returns 0, or -1 when out of memory.
 */
int sr_context_done(struct sr_context *c);

/*
 * The context of pid at time ts: the last entry for pid read at or before
 * ts, else the first one read after it (a task read as it appeared is read
 * a little after its first event).  NULL if the context has none for pid.
 */
const struct sr_ctx_task *sr_context_task(const struct sr_context *c,
					  int32_t pid, int64_t ts);

#endif
