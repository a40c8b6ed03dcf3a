/*
 * progress: the one progress line a long command draws on a terminal while
 * it reads and replays a trace:
 *
 *	schedreplay replay: stock, o11int, observed: 41% of 29.5 MB, 1.25M events/s
 *
 * Drawn on stderr only when stderr is a terminal and the command was not
 * told --quiet; first drawn once SR_PROGRESS_DELAY_NS of wall time has
 * passed (a run of a second or two shows nothing), redrawn at most ten
 * times a second, cut to the terminal's width, and erased (blanked, the
 * cursor back at the start of the line) by sr_progress_end, before
 * anything else is written to stderr.  The wall clock drives this display
 * only: nothing a command writes depends on it.
 *
 *	struct sr_progress pg;
 *	sr_progress_init(&pg, "replay", quiet);
 *	ropts.progress = &pg;            // the reader reports bytes and events
 *	sr_progress_what(&pg, "stock, o11int");
 *	...
 *	sr_progress_end(&pg);
 *
 * SCHEDREPLAY_PROGRESS_DELAY (seconds, decimals allowed) replaces the
 * delay, as GIT_PROGRESS_DELAY does for git: 0 draws from the start
 * (tests).
 */
#ifndef SR_PROGRESS_H
#define SR_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SR_PROGRESS_DELAY_NS (2 * 1000000000LL)
#define SR_PROGRESS_INTERVAL_NS (100 * 1000000LL) /* 10 redraws/s at most */
#define SR_PROGRESS_WHAT_MAX 96

struct sr_progress {
	int fd;                 /* where it draws (stderr), -1: off */
	const char *cmd;        /* "replay" */
	int64_t start, last;    /* CLOCK_MONOTONIC ns: first call, last draw */
	int64_t delay;          /* ns before the first draw */
	bool drawn;             /* something is on the line now */
	size_t len;             /* columns drawn last time */
	uint64_t done, total;   /* input bytes read, of total (0: unknown) */
	uint64_t events;        /* events read */
	uint64_t draws;         /* lines drawn (tests, bench) */
	char what[SR_PROGRESS_WHAT_MAX]; /* the policies, a phase */
};

/* On when !quiet and stderr is a terminal; cmd names the command. */
void sr_progress_init(struct sr_progress *p, const char *cmd, bool quiet);
/* What is being done now ("stock, o11int, observed"); NULL: nothing. */
void sr_progress_what(struct sr_progress *p, const char *what);
/* Input read so far: bytes of total (0: unknown), events delivered. */
void sr_progress_input(struct sr_progress *p, uint64_t done, uint64_t total,
		       uint64_t events);
/* Redraw if due (after sr_progress_what, or from a long loop). */
void sr_progress_tick(struct sr_progress *p);
/* Erase the line; the progress is off afterwards.  Safe on NULL. */
void sr_progress_end(struct sr_progress *p);

#endif
