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

/*
 * A trace no reader made (a synthetic run, replay/synth.h): the writer
 * keeps the task table itself, built as the reader will build it from
 * what is written.  A task is declared (its "task" line goes out before
 * the next event), or made by the fork event the caller writes next
 * (forked_by: the parent's id).  Ids are this table's.
 */
struct sr_native_synth;

int sr_native_synth_new(struct sr_native_synth **w, FILE *f,
			const char *comment, struct sr_diag *d);
/* A new record like proto (pid, tgid, comm, nice, policy, rtprio); its
 * id, or SR_TID_NONE with d filled. */
sr_tid sr_native_synth_task(struct sr_native_synth *w,
			    const struct sr_task *proto, sr_tid forked_by,
			    int64_t ts, struct sr_diag *d);
/* Write ev (ids of this table; a switch's SR_TID_NONE is the CPU's idle
 * task); exits and deaths are noted as the reader notes them. */
int sr_native_synth_write(struct sr_native_synth *w, const struct sr_event *ev,
			  struct sr_diag *d);
void sr_native_synth_free(struct sr_native_synth *w);

#endif
