/*
 * read-warn: what every command says on stderr after reading a trace,
 * worded alike: the malformed lines --lenient skipped, and the events the
 * recording lost (how many, where, when) with the tasks whose figures they
 * touch.
 */
#ifndef SR_READ_WARN_H
#define SR_READ_WARN_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/diag.h"
#include "parse/reader.h"

/* Shown per range; more are summed up in one line. */
#define SR_READ_WARN_RANGES 8

/*
 * Warn about what st says of the read of path: nothing when nothing was
 * skipped or lost.  marked: tasks marked lost=1 in the figures, or -1 when
 * the command keeps no figures (convert).
 */
void sr_read_warn(const char *path, const struct sr_read_stats *st,
		  long marked);

/*
 * The recording's loss as every command's headline says it (as perf
 * sched latency's closing "INFO: N% lost events" does):
 *
 *	the recording lost 708 events (12.4 % of 5708) in 8 chunks:
 *	cpu 0 80, cpu 1 628; 32 tasks it touched are marked !
 *
 * The share is of what the recording would have held: the events it kept
 * (every kind, other tracepoints too) and those it lost.  At most
 * SR_LOSS_CPUS cpus are listed, in cpu order, the others summed.  A
 * replay directory keeps it in DIR/lost.tsv (sr_loss_write, read back by
 * sr_loss_read).
 */
#define SR_LOSS_CPUS 8

struct sr_loss {
	uint64_t lost;          /* events lost */
	uint64_t kept;          /* events the recording kept */
	uint64_t chunks;        /* lost-event markers */
	uint64_t uncounted;     /* markers that did not say how many */
	uint64_t tally_only;    /* known from the recording's closing count
				 * only: when, unknown */
	long marked;            /* tasks marked as touched, -1: not known */
	size_t ncpus;           /* cpus with a loss (listed: the first
				 * SR_LOSS_CPUS) */
	struct { int32_t cpu; uint64_t n; } cpu[SR_LOSS_CPUS]; /* -1: the
				 * cpu is not known; n 0: not counted */
	uint64_t rest;          /* lost on the cpus not listed */
};

/* The loss st tells of (marked: as sr_read_warn's). */
void sr_loss_of(const struct sr_read_stats *st, long marked,
		struct sr_loss *l);
/* Any loss at all (a count, a marker)? */
bool sr_loss_any(const struct sr_loss *l);
/* The sentence above into buf (no newline); "" without a loss. */
void sr_loss_say(const struct sr_loss *l, char *buf, size_t len);
/* Its first words, for a plot's title: "the recording lost 708 events
 * (12.4 %)"; "" without a loss. */
void sr_loss_brief(const struct sr_loss *l, char *buf, size_t len);
/* The sentence as a line of f, prefix first, wrapped at 100 columns;
 * nothing without a loss. */
void sr_loss_put(FILE *f, const struct sr_loss *l, const char *prefix);
/* The same as JSON: {"lost": N, "kept": N, "chunks": N, "uncounted": N,
 * "tally_only": N, "marked": N|null, "cpus": [{"cpu": N|null, "lost": N},
 * ...]}, "null" without a loss. */
void sr_loss_json(const struct sr_loss *l, FILE *f);

/* DIR/lost.tsv: a header "what<TAB>value", then rows lost, kept, chunks,
 * uncounted, tally_only, marked, and "cpu N" (N or -: unknown) per cpu;
 * "rest" for the cpus beyond the list.  Errors say FILE:LINE. */
void sr_loss_write(const struct sr_loss *l, FILE *f);
int sr_loss_read(const char *path, struct sr_loss *l, struct sr_diag *d);

#endif
