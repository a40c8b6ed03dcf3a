/*
 * reader: open a trace (any supported format, plain or gzip, "-" for
 * stdin), and pull normalised events from it one at a time, merged across
 * CPUs in time order.  Memory grows with the number of tasks and CPUs,
 * never with the number of events.
 *
 *	struct sr_reader *r;
 *	struct sr_event ev;
 *	int rc;
 *	if (sr_reader_open(&r, path, &opts, d))
 *		return d->code;
 *	while ((rc = sr_reader_next(r, &ev, d)) == 1)
 *		use(&ev, sr_reader_tasks(r));
 *	sr_reader_close(r);
 *	return rc < 0 ? d->code : 0;
 */
#ifndef SR_READER_H
#define SR_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/event.h"
#include "parse/tasks.h"

struct sr_progress;
struct sr_context;

struct sr_read_opts {
	const char *format; /* NULL or "auto": detect; else a format name */
	bool lenient;       /* skip malformed lines, count them */
	/* limits: zero means the default */
	size_t reorder_window; /* events held to merge cpus (default 32768) */
	size_t input_buffer;   /* input buffer bytes (default 256 KiB; at
				* least two lines of SR_LINE_MAX) */
	size_t max_tasks;      /* task records allowed (default and at most
				* SR_TASKS_LIMIT) */
	/* told the bytes and events read as they go (lib/progress.h);
	 * NULL: none */
	struct sr_progress *progress;
};

/* One contiguous stretch of lost events on one cpu. */
struct sr_lost_range {
	int32_t cpu;        /* -1 if the trace does not say */
	uint64_t count;     /* events lost, 0 if unknown */
	int64_t from_ts;    /* last event before the loss on that cpu */
	int64_t to_ts;      /* first event after it */
};

struct sr_read_stats {
	uint64_t lines;
	uint64_t events;                   /* delivered */
	uint64_t by_kind[SR_EV__COUNT];
	uint64_t skipped_events;           /* other tracepoints, counted */
	uint64_t bad_lines;                /* lenient mode only */
	/* Lost events: the markers in the stream (their ranges in lost[],
	 * chunks: how many), and the recording's own count (a tally: perf
	 * record's closing LOST_SAMPLES per cpu).  A cpu lost the larger of
	 * its markers' sum and its tally (both count the same loss);
	 * lost_events is that, over every cpu, and lost_tally the part only
	 * the tally knows (when, unknown).  lost_cpu[cpu + 1] (index 0: cpu
	 * unknown) per cpu, nlost_cpu entries.  lost_uncounted: markers that
	 * did not say how many (trace-cmd's "[EVENTS DROPPED]"). */
	uint64_t lost_events;
	uint64_t lost_chunks;
	uint64_t lost_uncounted;
	uint64_t lost_tally;
	const uint64_t *lost_cpu;
	size_t nlost_cpu;
	/* the tallies as read: per cpu (+1), nlost_cpu entries, and one of
	 * no cpu (text) */
	const uint64_t *tally_cpu;
	uint64_t tally_nocpu;
	size_t nlost;                      /* entries in lost[] */
	const struct sr_lost_range *lost;
	int32_t ncpus;                     /* highest cpu seen + 1 */
	int64_t first_ts, last_ts;
	uint64_t failed_wakeups;           /* success=0: not wakeups, dropped */
	uint64_t bytes;                    /* text bytes read (uncompressed) */
	int kway;                          /* 1: per-cpu merge was needed */
};

/*
 * Limits (docs/limits.md).  Beyond them the reader stops with
 * "FILE:LINE: expected ..." and SR_EDATA, never a wrong figure: a line
 * longer than SR_LINE_MAX (parse/input.h), a cpu number of SR_CPU_MAX or
 * more (parse/format.h), more than SR_TASKS_LIMIT task records, or events
 * more than SR_SPAN_MAX ns after the first one (a trace longer than a
 * day is far more likely a corrupt timestamp than a recording, and the
 * replay simulates every tick of the span).
 */
#define SR_TASKS_LIMIT 10000000u
#define SR_SPAN_MAX (86400LL * 1000000000LL) /* 24 hours, in ns */

struct sr_reader;

int sr_reader_open(struct sr_reader **r, const char *path,
		   const struct sr_read_opts *opts, struct sr_diag *d);
/* 1: *ev filled; 0: end of input; -1: error in d (d->code is the status). */
int sr_reader_next(struct sr_reader *r, struct sr_event *ev, struct sr_diag *d);
const struct sr_tasks *sr_reader_tasks(const struct sr_reader *r);
const struct sr_read_stats *sr_reader_stats(const struct sr_reader *r);
const char *sr_reader_format(const struct sr_reader *r); /* detected name */
/* What the recording machine knew (parse/context.h), NULL if the input
 * carries no context. */
const struct sr_context *sr_reader_context(const struct sr_reader *r);
/* The input's name for messages: its path, or "<stdin>" for "-". */
const char *sr_reader_path(const struct sr_reader *r);
void sr_reader_close(struct sr_reader *r);

/* The input formats' names (--input-format NAME), from the format
 * table of parse/reader.c in its order: the i-th, NULL past the last. */
const char *sr_input_format_name(size_t i);
/* Their names for --input-format's help line: "perf.data, ..., or
 * ftrace (default: detect)". */
const char *sr_input_formats_help(void);

#endif
