/*
 * tracing: parse the tracing-data block of a perf.data file (the event
 * formats) into a libtraceevent handle.  See tracing.c for the layout.
 *
 * Private to parse/.
 */
#ifndef SR_TRACING_H
#define SR_TRACING_H

#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

#define SR_TRACING_BLOCK_MAGIC "\x17\x08\x44tracing"

struct tep_handle;

struct tracing_info {
	size_t size;      /* bytes the block took */
	int long_size;
	uint32_t *other_ids; /* the ids of other systems' events, never
			      * parsed (malloc'd: the caller's to free) */
	size_t nother, capother;
};

/*
 * What libtraceevent 1.7 needs of an event format before it parses it:
 * every REC->NAME its print expression names, and every field a helper
 * such as __get_str(NAME) names, is a field the format declares (a
 * missing one is a NULL it dereferences); every '/' and '%' of the print
 * expression divides by a field or a non-zero number (it folds constant
 * operations as it parses, and a zero divisor is SIGFPE).  0, or -1 with
 * a reason in why.
 */
int sr_format_check(const char *fmt, size_t n, char *why, size_t whylen);

/*
 * Parse n bytes at p, found at file offset base of file, into a new tep
 * handle (*tep, the caller's to tep_free()).  The sched formats are
 * checked (sr_format_check) and parsed, and one that does not hold
 * together or parse is an error; of another system's, only the id is
 * kept (info->other_ids), so libtraceevent never reads it.
 */
int sr_tracing_load(struct tep_handle **tep, const uint8_t *p, size_t n,
		    uint64_t base, const char *file, struct tracing_info *info,
		    struct sr_diag *d);

#endif
