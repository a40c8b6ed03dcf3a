/*
 * taskgroups: the task group of every task of a replay (sched-model's
 * struct sm_group), so the fair models can share a CPU between groups as
 * the recording kernel did (docs/replay.md, "Task groups").
 *
 * Linux groups the tasks of a session into an autogroup (CONFIG_SCHED_
 * AUTOGROUP: one group per setsid(), each weighing what one nice-0 task
 * weighs), or by cgroup where the cpu controller is on; kernel threads
 * stay in the root group.  A perf or ftrace trace records none of this.
 * The group of a task comes, in this order, from:
 *
 *  - the recording's context (parse/context.h, `schedreplay record`): its
 *    cgroup when the cpu controller groups it (a known weight; nested by
 *    path), else its autogroup when autogroup was on (autogroup 0 is the
 *    root; the group weighs the weight of its autogroup nice);
 *  - else inferred: a kernel thread is in the root group; a task whose
 *    parent the trace shows is in its parent's group (fork copies it, and
 *    a session lasts until a setsid() the trace does not show); any other
 *    task (alive before the trace, parent unknown) is in a group of its
 *    own process, shared by its threads.
 *
 * A task's group is fixed at its birth (a setsid() or a move between
 * cgroups later is not seen).  With SR_GROUPS_NONE every task is in the
 * root group.
 *
 *	sr_taskgroups_new(&g, SR_GROUPS_AUTO, ctx, d);
 *	sr_taskgroups_assign(g, &(struct sr_tg_task){ ... }, &grp, d);
 *	... info.group = grp (NULL: the root)
 *	sr_taskgroups_free(g);
 */
#ifndef SR_TASKGROUPS_H
#define SR_TASKGROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/context.h"
#include "sched-model/policy.h"

/* --group-sched */
enum sr_group_mode {
	SR_GROUPS_AUTO,     /* the context's groups, else inferred */
	SR_GROUPS_NONE,     /* every task in the root group */
};

/* "auto", "none"; NULL-terminated, for --group-sched */
extern const char *const sr_group_mode_names[];

/* Where a group came from. */
enum sr_group_origin {
	SR_GROUP_AUTOGROUP, /* the context's autogroup */
	SR_GROUP_CGROUP,    /* the context's cgroup */
	SR_GROUP_PROCESS,   /* inferred: one process and what it forks */
};

/* What the table needs of a task at its birth. */
struct sr_tg_task {
	uint32_t id;        /* the demand's task id */
	uint32_t parent;    /* its parent's id (born before it), SR_TID_NONE */
	int32_t pid, tgid;  /* tgid <= 0: its pid */
	bool kthread;
	int64_t ts;         /* its birth, on the trace's clock (the context
			       entry in force then is the one read) */
};

struct sr_taskgroups;

/* ctx may be NULL (a trace without context).  SR_OK or out of memory. */
int sr_taskgroups_new(struct sr_taskgroups **out, enum sr_group_mode mode,
		      const struct sr_context *ctx, struct sr_diag *d);
void sr_taskgroups_free(struct sr_taskgroups *g);

/*
 * Task t is born: its group, in *out (NULL: the root group), kept until
 * the table is freed.  A task assigned twice keeps its first group.
 * SR_OK or out of memory.
 */
int sr_taskgroups_assign(struct sr_taskgroups *g, const struct sr_tg_task *t,
			 const struct sm_group **out, struct sr_diag *d);

/* The group assigned to task id, NULL: the root (or not assigned). */
const struct sm_group *sr_taskgroups_of(const struct sr_taskgroups *g,
					uint32_t id);

/* The groups made so far, by id (1 .. count). */
size_t sr_taskgroups_count(const struct sr_taskgroups *g);
const struct sm_group *sr_taskgroups_get(const struct sr_taskgroups *g,
					 uint32_t id);
enum sr_group_origin sr_taskgroups_origin(const struct sr_taskgroups *g,
					  const struct sm_group *grp);
/* Its name: "autogroup-38", the cgroup's path, "process 1234". */
const char *sr_taskgroups_name(const struct sr_taskgroups *g,
			       const struct sm_group *grp);
/* Tasks put in a group by the context, and by inference. */
size_t sr_taskgroups_from_context(const struct sr_taskgroups *g);
size_t sr_taskgroups_inferred(const struct sr_taskgroups *g);

#endif
