/*
 * source: one cursor over one input: lines in, raw records out, in input
 * order.  It owns lenient skipping, the line-length limit, and the timing
 * of lost-event markers (a marker takes the time of the next event on its
 * cpu).  In a per-cpu merge there is one source per cpu (only_cpu).
 *
 * Private to parse/.
 */
#ifndef SR_SOURCE_H
#define SR_SOURCE_H

#include "parse/format.h"
#include "parse/input.h"
#include "parse/raw.h"

struct sr_source {
	struct sr_input *in;
	struct sr_fmtctx fc;
	struct sr_diag scratch;  /* decoder errors land here first */
	int32_t only_cpu;        /* -1: every cpu */
	int primary;             /* reports cpu-less lines and errors */
	int lenient;
	uint64_t bad_lines;
	struct sr_raw *pend;     /* lost markers waiting for their time */
	size_t npend, cappend;
	struct sr_raw held;      /* the event that timed a lost marker */
	int has_held;
	int64_t last_ts;         /* last event time this source gave */
};

/* Takes ownership of in.  proto supplies format, patterns and state.
   Cannot fail. */
void sr_source_init(struct sr_source *s, struct sr_input *in,
		    const struct sr_fmtctx *proto, int32_t only_cpu,
		    int primary, int lenient);
void sr_source_fini(struct sr_source *s);

/* 1: *out filled; 0: end; -1: error in d. */
int sr_source_next(struct sr_source *s, struct sr_raw *out,
		   struct sr_diag *d);

#endif
