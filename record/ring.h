/*
 * ring: a tracefs instance of our own that records the scheduler events a
 * replay uses (the table in ring.c), its ring buffers drained into one
 * unlinked temporary file per cpu, page by page as trace_pipe_raw gives
 * them.  The instance is ours alone (other tracers, perf and trace-cmd
 * keep their buffers), and is removed at the end.
 *
 * While it drains, the task events the context needs (a fork, an exec)
 * are decoded from the pages and handed to a callback in time order, so
 * the recorder reads a new task's /proc entry as it appears.
 */
#ifndef SR_RING_H
#define SR_RING_H

#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/tdwrite.h"

struct sr_ring;

/* A fork (parent and child) or an exec (pid; parent -1), at ts. */
struct sr_ring_task_ev {
	int64_t ts;
	int32_t parent;
	int32_t pid;
	int exec;
};

/* One cpu's loss, from the instance's per_cpu/cpuN/stats at the end:
 * events overwritten before they were read (overrun, marked in the pages
 * as missed events) and events dropped (dropped events). */
struct sr_ring_cpu_stats {
	int32_t cpu;
	uint64_t overrun, dropped;
	uint64_t read;  /* events read from the buffer: those recorded */
	char *text;   /* the stats file, for trace.dat's CPUSTAT option */
};

/*
 * Make the instance, buffer_kb KiB of buffer per cpu, the events enabled
 * but not yet on.  SR_ENOINPUT when there is no tracefs, SR_EIO naming
 * the file that refused.  *missing: the events of the table this kernel
 * does not have, comma-separated ("" if none; the ring's).
 */
int sr_ring_open(struct sr_ring **out, size_t buffer_kb, const char **missing,
		 struct sr_diag *d);
int sr_ring_start(struct sr_ring *r, struct sr_diag *d);
int sr_ring_stop(struct sr_ring *r, struct sr_diag *d);

/*
 * Read what the buffers hold into the cpu files; each fork and exec seen
 * goes to on_task in time order.  SR_OK or the callback's or the read's
 * error.
 */
int sr_ring_drain(struct sr_ring *r,
		  int (*on_task)(void *ctx, const struct sr_ring_task_ev *e,
				 struct sr_diag *d),
		  void *ctx, struct sr_diag *d);

/* The cpus' stats (call after the last drain); n of them. */
int sr_ring_stats(struct sr_ring *r, const struct sr_ring_cpu_stats **st,
		  size_t *n, struct sr_diag *d);

/* The parts of a trace.dat the ring knows: page size, headers, the
 * recorded events' formats, the saved command lines, the cpu files.
 * Valid until sr_ring_close. */
int sr_ring_tdw(struct sr_ring *r, struct sr_tdw *w, struct sr_diag *d);

/* Pages written so far, all cpus. */
uint64_t sr_ring_pages(const struct sr_ring *r);

/* Removes the instance and the files. Safe on NULL. */
void sr_ring_close(struct sr_ring *r);

#endif
