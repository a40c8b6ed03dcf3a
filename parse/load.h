/*
 * load: a value in the machine's byte order read from any address of a
 * record (unaligned: memcpy, which compilers make one load).  The binary
 * readers' one way to read a field (parse/fmt-perfdata.c,
 * parse/tracepoint.c, parse/perfzstd.c): sr_ld16, sr_ld32, sr_ld64, and
 * sr_ld32s for a signed field (a pid, a prio).
 */
#ifndef SR_LOAD_H
#define SR_LOAD_H

#include <stdint.h>
#include <string.h>

#define SR_LOAD(name, type) \
static inline type name(const uint8_t *p) \
{ \
	type v; \
\
	memcpy(&v, p, sizeof(v)); \
	return v; \
}

SR_LOAD(sr_ld16, uint16_t)
SR_LOAD(sr_ld32, uint32_t)
SR_LOAD(sr_ld32s, int32_t)
SR_LOAD(sr_ld64, uint64_t)

#undef SR_LOAD

#endif
