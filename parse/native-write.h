/*
 * native-write: writing the event stream in the native text format
 * (docs/trace-format.md), so that reading it back gives the same events
 * and the same task table.  Used by `schedreplay convert`.
 */
#ifndef SR_NATIVE_WRITE_H
#define SR_NATIVE_WRITE_H

#include <stdio.h>

#include "lib/diag.h"
#include "parse/event.h"
#include "parse/tasks.h"

struct sr_native_writer;

int sr_native_writer_new(struct sr_native_writer **w, FILE *f,
			 const char *comment, struct sr_diag *d);
/* The recording's context as "#context " lines: call before the first
 * event. */
struct sr_context;
int sr_native_write_context(struct sr_native_writer *w,
			    const struct sr_context *c, struct sr_diag *d);
/* Write ev (and the task lines it needs first); tasks as after ev. */
int sr_native_write(struct sr_native_writer *w, const struct sr_event *ev,
		    const struct sr_tasks *tasks, struct sr_diag *d);
/* The recording's own count of events lost on cpu (-1: unknown), as a
 * "lost count=N tally" line at ts: st's tallies (sr_read_stats) after the
 * last event. */
void sr_native_write_tally(struct sr_native_writer *w, int64_t ts,
			   int32_t cpu, uint64_t n);
void sr_native_writer_free(struct sr_native_writer *w);

#endif
