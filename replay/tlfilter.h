/*
 * tlfilter: which simulated timeline rows reach timeline.tsv.
 *
 * SR_TL_ALL writes every row the simulator reports (each tick charge that
 * moved prio, each requeue, expiry and array swap).  SR_TL_CHANGES (the
 * default) writes a task's rows only where what a timeline shows changed:
 * its prio, its array, its scheduler state, its CPU or whether it runs,
 * judged once per instant: the rows of one task at one instant collapse
 * into the last of them, written only if it differs from the task's last
 * row written; a migrate row (its from_cpu and why) is always written.  A lone CPU hog's expiries and requeues (expire, swap, run
 * at one instant: nothing changed) then write nothing, and the output
 * grows with the schedule's changes, not with the trace's span.  Rows stay
 * in time order; within an instant, in the order tasks first appeared.
 */
#ifndef SR_TLFILTER_H
#define SR_TLFILTER_H

#include <stdio.h>

#include "lib/diag.h"
#include "replay/sim.h"
#include "replay/writers.h"

enum sr_tl_mode {
	SR_TL_CHANGES = 0,
	SR_TL_ALL,
};

/* "changes", "all"; NULL-terminated, for --timeline */
extern const char *const sr_tl_mode_names[];

struct sr_tlfilter;

/* The rows kept go to emit(ctx, row), in time order. */
int sr_tlfilter_new(struct sr_tlfilter **f, enum sr_tl_mode mode,
		    sr_tl_fn emit, void *ctx, struct sr_diag *d);
/* One row from the simulator: passed on, held for its instant, or
 * dropped; an error emit returned. */
int sr_tlfilter_row(struct sr_tlfilter *f, const struct sr_tl_row *r);
/* Pass on what the last instant holds (at the end of the replay). */
int sr_tlfilter_flush(struct sr_tlfilter *f);
/* The most rows one instant held (memory: rows held, not demand). */
size_t sr_tlfilter_peak(const struct sr_tlfilter *f);
void sr_tlfilter_free(struct sr_tlfilter *f);

#endif
