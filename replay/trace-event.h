/*
 * trace-event: a replay's schedules in the Chrome JSON trace event format
 * (the JSON Object Format, {"traceEvents": [...]}), which ui.perfetto.dev
 * and chrome://tracing open.  It listens to the replay (replay/replay.h,
 * sr_replay_hooks: timeline rows and waits as the simulators make them)
 * and writes, for each policy in the order given, observed included:
 *
 *   process "POLICY: CPUs"    a track (thread) per CPU, with a complete
 *                             event (ph X) per run: name the task's comm,
 *                             args pid (process), tid (thread), prio and
 *                             sleep_avg at its start (observed: the
 *                             recorded prio, no sleep_avg) and end (the
 *                             timeline event that ended it);
 *   process "POLICY: COMM"    per thread group (pid = its tgid), a thread
 *                             per task (tid = its pid) with its waits (X
 *                             named "wait", args cause), and a counter
 *                             (ph C) per task, named "COMM PID", of its
 *                             prio;
 *   metadata (ph M)           process and thread names and sort order.
 *
 * Policy k's ids are k * 10000000 + the trace's (policy 0's the trace's
 * own), its CPUs' process k * 10000000 + 9000000.
 *
 * With a selection (--pid, --start, --end: replay/selection.h), only
 * the selected tasks' runs, waits and tracks are written, and only what
 * lies in the window, runs and waits cut at its edges, each prio counter
 * starting at the window's start with the value it had then.
 *
 * Times are microseconds from the trace's first event, with three
 * decimals (exact nanoseconds); otherData.start_s says where that is on
 * the trace's clock.  Runs and waits of zero length are left out.  Each
 * policy's events are spooled to an unlinked temporary file as the replay
 * makes them, then written after its metadata, so the output depends
 * only on each policy's schedule, not on how the replay interleaved
 * them.  Memory grows with tasks and CPUs, not with events.
 *
 *	struct sr_te *te;
 *	sr_te_new(&te, d);
 *	o.hooks = sr_te_hooks(te);
 *	sr_replay_run(&o, &r, d);
 *	sr_te_write(te, r, trace_name, sel, fp, d);   (fp: gzip too,
 *							lib/gzout.h)
 *	sr_te_free(te);
 */
#ifndef SR_TRACE_EVENT_H
#define SR_TRACE_EVENT_H

#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"
#include "replay/replay.h"

/* Events written, by phase (for the command's summary line and tests). */
struct sr_te_counts {
	uint64_t x, c, m;
};

struct sr_te;

int sr_te_new(struct sr_te **te, struct sr_diag *d);
/* The hooks to put in sr_replay_opts.hooks (they live as long as te). */
const struct sr_replay_hooks *sr_te_hooks(struct sr_te *te);
/* After sr_replay_run: runs still open end at each policy's end; the
 * whole JSON document to f.  title names the trace in otherData; sel
 * (NULL: everything) what of it is written. */
int sr_te_write(struct sr_te *te, const struct sr_replay *r,
		const char *title, const struct sr_selection *sel, FILE *f,
		struct sr_diag *d);
void sr_te_counts(const struct sr_te *te, struct sr_te_counts *c);
/* What a hook met, if the replay failed in one (else NULL). */
const char *sr_te_error(const struct sr_te *te);
void sr_te_free(struct sr_te *te);

#endif
