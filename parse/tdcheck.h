/*
 * tdcheck: the layout of a trace.dat walked before libtracecmd reads it
 * (libtracecmd trusts sizes and offsets): header, format blocks,
 * options and each buffer's per-cpu data sections (version 6), or the
 * section chain (version 7), all within the file.
 *
 * Private to parse/.
 */
#ifndef SR_TDCHECK_H
#define SR_TDCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

struct sr_tdinfo {
	uint64_t size;     /* the file's */
	/* 1 + the highest cpu number any buffer lists (version 7 lists cpus
	 * by number, and a recording of some cpus only has gaps: 0 and 2),
	 * or the version 6 cpu count: records are asked of libtracecmd for
	 * every cpu number below it */
	uint32_t cpus;
	/* the recording's context option (tdwrite.h): its data's offset
	 * and length in the file; 0 and 0 when there is none */
	uint64_t ctx_at, ctx_len;
};

/* SR_OK, or SR_EDATA with "FILE:OFFSET: expected ..., got ...". */
int sr_tdcheck(int fd, const char *file, struct sr_tdinfo *info,
	       struct sr_diag *d);

#endif
