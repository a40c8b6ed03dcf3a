/*
 * merge-int: what the merge's files share (parse/merge.c the reorder
 * window and its slots, parse/merge-kway.c the per-cpu merge,
 * parse/merge-keys.c the record sources' keys): the merge's state and
 * the calls between them.  Nothing outside parse/merge*.c includes it.
 */
#ifndef SR_MERGE_INT_H
#define SR_MERGE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/bigmem.h"
#include "parse/merge.h"

/*
 * Where the slots live: window/8 of them in memory (what busy cpus keep in
 * the window), the others in an unlinked temporary file, made when first
 * needed: a quiet cpu holding the watermark back fills the window, and its
 * records then cost disk, not memory.  Memory slots are taken first.  The
 * file is written and read in blocks of SPILL_BLOCK slots: a new record
 * takes the next slot of the block being filled (in memory until full),
 * and records leave about in the order they came, so a read brings in a
 * block whose next records leave next.  A block is reused once all its
 * records have left.  When no file can be made, the slots are all kept in
 * memory.
 */
#define SPILL_BLOCK 256

struct slots {
	struct slot *mem;
	uint32_t *mfree;      /* free memory slots, a stack */
	size_t nmem, nmfree, total;
	int fd;               /* the file, or -1 */
	uint16_t *live;       /* by file block: records in it */
	uint32_t *bfree;      /* blocks free to fill, a stack */
	size_t nblk, capblk, nbfree, capbfree;
	struct slot *wbuf;    /* the block being filled */
	uint32_t wblk, wn;    /* its number, and slots taken (0: none open) */
	struct slot *rbuf;    /* the block last read */
	uint32_t rblk;        /* its number, UINT32_MAX: none */
};

struct sr_merge {
	char *path;
	struct sr_fmtctx proto;
	int lenient;
	size_t window;
	/* heap mode */
	struct sr_source src;
	struct slots pool;
	struct sr_raw in;     /* the record being read */
	struct hent *heap;    /* ring sorted on (ts, seq) of pool slots */
	size_t head, rcap;
	size_t hn;
	int src_eof;
	int decided;
	size_t hold_min;      /* records kept before an early release */
	int64_t wm;           /* last watermark computed (see watermark()) */
	int wm_valid;
	/* handed out so far */
	int released_any;
	int64_t released_ts;
	uint64_t released_line;
	struct sr_raw out;
	/* per-cpu arrival order (index cpu + 1; 0 = cpu -1) */
	int64_t *arr_ts;
	uint64_t *arr_line;
	size_t narr;
	/* k-way mode */
	int kway;
	int kway_checked;        /* decide() ran for a cpu first seen behind */
	int window_only;         /* a scan showed the window orders the
				    input: no early release */
	struct sr_source *cur;
	struct sr_raw *heads;
	uint32_t *kheap;
	size_t ncur, kn;
	/* record-source mode: the keys waiting, k[0, n) in the order read,
	 * as runs (see merge-keys.c) */
	const struct sr_rsrc_ops *rops;
	void *rctx;
	struct sr_rkey *k;    /* in kmem */
	size_t n, cap;
	struct sr_bigmem kmem;
	struct krun {
		size_t cur, end;  /* k[cur, end): in order, waiting */
	} *run;               /* in the order read */
	uint32_t *rheap;      /* the sealed runs with keys, by their first */
	size_t nrun, caprun, nrheap;
	size_t sealed;        /* run[0, sealed) sealed: in the heap or done */
	size_t waiting;       /* keys waiting */
	int64_t new_min;      /* the oldest time of the runs not sealed */
	int64_t bound;        /* keys at or before it may leave */
	int bound_set;
	int rs_eof;
	uint64_t pops;
};

/* A cpu's own records must not go back in time (file: for the message). */
int mg_check_cpu_order(struct sr_merge *m, const struct sr_raw *r,
		       const char *file, struct sr_diag *d);

/* merge-kway.c: one cursor per cpu over a file of per-cpu blocks */
/* Scan the whole file: its cpus (*cpusp, *ncpup), and 1 when the window
 * would not put them in order (a per-cpu merge is needed), -1 on error. */
int mg_needs_kway(struct sr_merge *m, uint8_t **cpusp, int32_t *ncpup,
		  struct sr_diag *d);
int mg_kway_start(struct sr_merge *m, const uint8_t *cpus, int32_t ncpu,
		  struct sr_diag *d);
int mg_kway_next(struct sr_merge *m, const struct sr_raw **out,
		 struct sr_diag *d);

/* merge-keys.c: sr_merge_next of a record source */
int mg_records_next(struct sr_merge *m, const struct sr_raw **out,
		    struct sr_diag *d);

#endif
