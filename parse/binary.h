/*
 * binary: the readers of binary traces, perf.data (fmt-perfdata.c) and
 * trace-cmd's trace.dat (fmt-tracedat.c).  Each is recognised by its
 * magic bytes and hands its records to the cross-cpu merge as a record
 * source (merge.h); errors name FILE:OFFSET, the byte offset in the
 * (uncompressed) file of what was wrong.  What the two keep alike (the
 * name, the decoder's context, the counts) is a struct sr_bin, started
 * and counted in binary.c.
 *
 * Private to parse/.
 */
#ifndef SR_BINARY_H
#define SR_BINARY_H

#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/format.h"
#include "parse/input.h"
#include "parse/merge.h"

#define SR_PERF_MAGIC "PERFILE2"
#define SR_TRACING_MAGIC "\x17\x08\x44tracing"  /* trace.dat, tracing data */

/* Is the head of the input perf.data / trace.dat? */
int sr_is_perfdata(const char *head, size_t n);
int sr_is_tracedat(const char *head, size_t n);

struct sr_context;

/*
 * Open the reader over in (peeked, not consumed; taken over either way)
 * and a merge over its records.  name: the input's name for messages.
 * *ctx: the recording's context when the file carries one (trace.dat
 * written by `schedreplay record`), else NULL; the caller frees it.
 */
int sr_perfdata_open(struct sr_merge **m, struct sr_input *in,
		     const char *name, struct sr_context **ctx,
		     struct sr_diag *d);
int sr_tracedat_open(struct sr_merge **m, struct sr_input *in,
		     const char *name, struct sr_context **ctx,
		     struct sr_diag *d);

/* What each reader keeps alike: the input's name for messages, the
   tracepoint decoder's context (fc.d is scratch), and its counts. */
struct sr_bin {
	char *file;
	struct sr_fmtctx fc;
	struct sr_diag scratch;
	uint64_t records, skipped;
};

/*
 * A reader's start: b->file a copy of name, b->fc writing to b->scratch,
 * libtraceevent's own messages off; then *fd a descriptor of in's bytes
 * (sr_input_to_fd).  in is closed either way.
 */
int sr_bin_start(struct sr_bin *b, struct sr_input *in, const char *name,
		 int *fd, struct sr_diag *d);

/* The merge's counts of records, skipped events and failed wakeups. */
void sr_bin_counts(const struct sr_bin *b, struct sr_merge_counts *c);

#endif
