/*
 * merge: raw records of all cpus in one time-ordered stream, in bounded
 * memory.
 *
 * Normally one source feeds a reorder heap of `window` records: records
 * leave in (time, input order) once the heap is full, which repairs any
 * interleaving that is out of order by fewer than `window` records
 * (trace_pipe, trappy's unsorted sample).  Once the window holds window/8
 * records of two or more cpus, a record at or before the watermark (the
 * oldest of the cpus' latest times: no seen cpu can go below it) leaves
 * early, so busy in-order input keeps the window small and in cache.  If the first full window holds
 * a single cpu while the input is a re-readable file, the input may be
 * per-cpu blocks (concatenated per_cpu/cpuN/trace files, trace-cmd
 * --cpu dumps); a quick scan of line headers then decides, and if the
 * heap cannot order it, the merge switches, before handing out anything,
 * to one cursor per cpu over the same file (k-way merge: memory is one
 * buffer per cpu, still streaming).  A record older than one already
 * handed out is an error: on a pipe it cannot be re-read.
 *
 * A cpu's own records going back in time is always an error.
 *
 * Private to parse/.
 */
#ifndef SR_MERGE_H
#define SR_MERGE_H

#include "parse/source.h"

#define SR_MERGE_WINDOW_DEFAULT 32768
#define SR_KWAY_MAX_CPUS 128

struct sr_merge;

struct sr_merge_counts {
	uint64_t lines, bad_lines, skipped_events, failed_wakeups, bytes;
	int kway;
};

/* Takes ownership of in (already peeked for detection). */
int sr_merge_open(struct sr_merge **m, struct sr_input *in, const char *path,
		  const struct sr_fmtctx *proto, int lenient, size_t window,
		  struct sr_diag *d);
/* 1: *out points at the next record (valid until the next call). */
int sr_merge_next(struct sr_merge *m, const struct sr_raw **out,
		  struct sr_diag *d);
void sr_merge_counts(const struct sr_merge *m, struct sr_merge_counts *c);
void sr_merge_close(struct sr_merge *m);

#endif
