/*
 * perfzstd: perf.data recorded with `perf record -z`: its compressed
 * records inflated (libzstd) into a temporary perf.data that holds what
 * perf would have written without -z (see perfzstd.c).
 *
 * Private to parse/.
 */
#ifndef SR_PERFZSTD_H
#define SR_PERFZSTD_H

#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/input.h"

/* Does the perf.data of len bytes at m hold compressed records? */
int sr_perf_is_compressed(const uint8_t *m, size_t len);

/*
 * Write it anew, each compressed record replaced by the records it holds,
 * into an unlinked temporary file: *fd (the caller's), or an error in d
 * naming name:OFFSET.
 */
int sr_perf_inflate(const uint8_t *m, size_t len, const char *name, int *fd,
		    struct sr_diag *d);

#endif
