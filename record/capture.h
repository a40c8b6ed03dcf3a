/*
 * capture: the recording machine's context (parse/context.h) read from
 * /proc and /sys while `schedreplay record` runs: the kernel (release,
 * CONFIG_HZ, preemption model, autogroup), its scheduler tunables, the
 * cpus and their topology, and every task (its session, autogroup,
 * cgroup and cpu.weight, allowed cpus, nice, policy and rt priority):
 * every task at the start, and each new one as its fork or exec is seen.
 * What could not be read is said in the context's `unread` lines.
 *
 * The recorded command's process tree is followed through the forks, so
 * its tasks are marked (in_tree) without a name to match.
 */
#ifndef SR_CAPTURE_H
#define SR_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/context.h"

struct sr_capture;

/* root_pid: the recorded command (its tree is followed), -1 none. */
int sr_capture_new(struct sr_capture **out, int32_t root_pid,
		   bool system_wide, struct sr_diag *d);
void sr_capture_free(struct sr_capture *c);

/* Read /proc, /sys and /boot under other roots (tests: a tree of files
 * made by hand). */
void sr_capture_roots(struct sr_capture *c, const char *proc,
		      const char *sys, const char *boot);

/* The kernel, its tunables and the cpus. */
int sr_capture_machine(struct sr_capture *c, struct sr_diag *d);

/* Every task there is now, as at the start of the recording. */
int sr_capture_scan(struct sr_capture *c, struct sr_diag *d);

/* A fork (child read, in the tree if its parent is) and an exec (pid
 * read again), at ts on the trace's clock. */
int sr_capture_fork(struct sr_capture *c, int32_t parent, int32_t child,
		    int64_t ts, struct sr_diag *d);
int sr_capture_exec(struct sr_capture *c, int32_t pid, int64_t ts,
		    struct sr_diag *d);

/* A cpu's lost events, for the context's loss lines. */
int sr_capture_loss(struct sr_capture *c, int32_t cpu, uint64_t lost,
		    struct sr_diag *d);

/* Tasks read, and those that could not be (gone before). */
void sr_capture_counts(const struct sr_capture *c, uint64_t *read,
		       uint64_t *gone);

/* The context, with the summary of what was not read; c keeps nothing. */
int sr_capture_take(struct sr_capture *c, struct sr_context **out,
		    struct sr_diag *d);

#endif
