/*
 * read-warn: what every command says on stderr after reading a trace,
 * worded alike: the malformed lines --lenient skipped, and the events the
 * recording lost (how many, where, when) with the tasks whose figures they
 * touch.
 */
#ifndef SR_READ_WARN_H
#define SR_READ_WARN_H

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

#endif
