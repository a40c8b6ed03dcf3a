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
 * early, so busy in-order input keeps the window small and in cache.
 * Window/8 records are kept in memory, the others (a quiet cpu holding the
 * watermark back fills the window) in an unlinked temporary file, in
 * blocks.  If the first full window holds a single cpu while the input is a re-readable file, the input may be
 * per-cpu blocks (concatenated per_cpu/cpuN/trace files, trace-cmd
 * --cpu dumps); a quick scan of line headers then decides, and if the
 * heap cannot order it, the merge switches, before handing out anything,
 * to one cursor per cpu over the same file (k-way merge: memory is one
 * buffer per cpu, still streaming).  A record older than one already
 * handed out is an error: on a pipe it cannot be re-read.
 *
 * A cpu's own records going back in time is always an error.
 *
 * Binary inputs (perf.data, trace.dat) come as a record source instead
 * (struct sr_rsrc_ops): next() scans the next record in input order and
 * gives only its key; the merge keeps the keys where they were read, as
 * runs in order, and merges the runs through a heap of their first keys
 * (see merge-keys.c), and asks decode() for the record as it leaves, so
 * the window costs a key per record, not a decoded record.  A record
 * leaves once the source has said that nothing older can follow: a round
 * bound (perf.data's PERF_RECORD_FINISHED_ROUND, see fmt-perfdata.c), or
 * at once if the source hands out records already in order (trace.dat's
 * per-cpu streams merged as trace-cmd report merges them).  A cpu's own
 * records may go back in time there (perf takes a sample's time before
 * it reserves ring-buffer space, so an interrupt's event can be written
 * first); they are sorted like any others.  A record older than one
 * already handed out is an error.
 *
 * Private to parse/.
 */
#ifndef SR_MERGE_H
#define SR_MERGE_H

#include "parse/source.h"

#define SR_MERGE_WINDOW_DEFAULT 32768
#define SR_KWAY_MAX_CPUS 128

/* Keys kept at most for a record source (2^24 x 16 bytes: 256 MB, and as
 * much again for the buffer they are merged into). */
#define SR_MERGE_KEYS_MAX (1u << 24)

struct sr_merge;

struct sr_merge_counts {
	uint64_t lines, bad_lines, skipped_events, failed_wakeups, bytes;
	uint64_t tally_lost;           /* a tally of unknown cpu (text) */
	uint64_t file_read, file_size; /* the primary input's file bytes */
	int kway;
};

/* The merge's view of one binary record: 16 bytes. */
struct sr_rkey {
	int64_t ts;
	uint64_t seq;   /* the record's file offset: input order, unique,
			 * ties leave in it (an ordered source's keys never
			 * wait, so theirs only names the record) */
};

enum sr_rsrc_rc {
	SR_RS_ERR = -1,
	SR_RS_END = 0,
	SR_RS_REC = 1,   /* *k is the next record */
	SR_RS_ROUND = 2, /* no record older than k->ts follows: they may go */
};

struct sr_rsrc_ops {
	int ordered;     /* records come in (ts, seq) order: none waits */
	int (*next)(void *ctx, struct sr_rkey *k, struct sr_diag *d);
	/* SR_P_RAW (*out filled), SR_P_NONE (nothing to deliver), SR_P_ERR */
	int (*decode)(void *ctx, const struct sr_rkey *k, struct sr_raw *out,
		      struct sr_diag *d);
	/* every record before seq has been decoded (optional) */
	void (*done_below)(void *ctx, uint64_t seq);
	void (*counts)(void *ctx, struct sr_merge_counts *c);
	void (*close)(void *ctx);
};

/* Takes ownership of in (already peeked for detection). */
int sr_merge_open(struct sr_merge **m, struct sr_input *in, const char *path,
		  const struct sr_fmtctx *proto, int lenient, size_t window,
		  struct sr_diag *d);
/* 1: *out points at the next record (valid until the next call). */
/* The same over a record source; ctx is closed with the merge. */
int sr_merge_open_records(struct sr_merge **m, const struct sr_rsrc_ops *ops,
			  void *ctx, const char *path, struct sr_diag *d);
int sr_merge_next(struct sr_merge *m, const struct sr_raw **out,
		  struct sr_diag *d);
void sr_merge_counts(const struct sr_merge *m, struct sr_merge_counts *c);
void sr_merge_close(struct sr_merge *m);

#endif
