/*
 * selection: which tasks and which stretch of time a command reports
 * (--pid, --start, --end), shared by every command that reads a trace.
 *
 *   --pid N[,N...]   the tasks with these pids (the kernel's task ids, as
 *                    the trace prints them; repeatable)
 *   --start T        from T; --end T: up to T (excluded)
 *
 * T is either seconds from the trace's first event ("2.5", or with a
 * unit: "2500ms", "2500000us"), or, after '@', an absolute timestamp on
 * the trace's clock in seconds as the trace prints it ("@5012.345678").
 * The two cannot be confused: a relative time never starts with '@'.
 *
 * A window narrows what is reported, never what is replayed: the replay
 * and the accounting run from the trace's start, so every task's state at
 * the window's start is what it was; then a wait counts when it began in
 * the window, a wakeup when it happened there, and runtime is the part of
 * each run inside it (docs/metrics.md, "A window").
 */
#ifndef SR_SELECTION_H
#define SR_SELECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "lib/parse-options.h"

#define SR_SEL_MAX_PIDS 256

/* One end of the window as given. */
struct sr_sel_time {
	bool set;
	bool abs;             /* '@': on the trace's clock; else from its start */
	int64_t ns;
};

struct sr_selection {
	int32_t pids[SR_SEL_MAX_PIDS]; /* sorted, without repeats */
	size_t npids;                  /* 0: every task */
	struct sr_sel_time start, end;
};

/* Parse-options callbacks; opt->value is a struct sr_selection. */
int sr_sel_opt_pid(const struct po_option *opt, const char *arg,
		   struct sr_diag *d);
int sr_sel_opt_start(const struct po_option *opt, const char *arg,
		     struct sr_diag *d);
int sr_sel_opt_end(const struct po_option *opt, const char *arg,
		   struct sr_diag *d);

/* Parse T (see above) for option what ("--start"). */
int sr_sel_time_parse(const char *what, const char *arg, struct sr_sel_time *t,
		      struct sr_diag *d);

/* After parsing: an end before the start (both relative or both
 * absolute) is a usage error.  sel may be NULL. */
int sr_sel_check(const struct sr_selection *sel, struct sr_diag *d);

/* Anything selected at all; a window given; pids given (sel may be
 * NULL: nothing). */
bool sr_sel_any(const struct sr_selection *sel);
bool sr_sel_windowed(const struct sr_selection *sel);
bool sr_sel_has_pids(const struct sr_selection *sel);

/* pid is selected (no --pid: every pid). */
bool sr_sel_pid(const struct sr_selection *sel, int32_t pid);

/*
 * The window on the trace's clock, for a trace whose first event is at
 * first_ts: [*lo, *hi), INT64_MIN / INT64_MAX where open.
 */
void sr_sel_window(const struct sr_selection *sel, int64_t first_ts,
		   int64_t *lo, int64_t *hi);

/* t is in the window [lo, hi). */
static inline bool sr_sel_in(int64_t lo, int64_t hi, int64_t t)
{
	return t >= lo && t < hi;
}

/* The part of [from, to) inside [lo, hi), in ns (0 if none). */
int64_t sr_sel_overlap(int64_t lo, int64_t hi, int64_t from, int64_t to);

/*
 * The selection in words for headings and notes ("pids 812, 813; from
 * 2 s to 5 s after the trace start"), "" when nothing is selected.
 */
void sr_sel_describe(const struct sr_selection *sel, char *buf, size_t len);

/*
 * After a replay or a read: a window that holds none of the trace
 * (which ran from first_ts to last_ts) is a usage error saying where the
 * trace is.
 */
int sr_sel_check_span(const struct sr_selection *sel, int64_t first_ts,
		      int64_t last_ts, struct sr_diag *d);

#endif
