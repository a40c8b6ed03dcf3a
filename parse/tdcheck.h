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

/* SR_OK, or SR_EDATA with "FILE:OFFSET: expected ..., got ...". */
int sr_tdcheck(int fd, const char *file, uint64_t *size, struct sr_diag *d);

#endif
