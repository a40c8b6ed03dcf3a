/*
 * tdwrite: a trace.dat of file version 6 (trace-cmd.dat.v6(5)) written
 * from its parts: the ring buffer's page and event headers, the event
 * formats, the saved command lines, options, and each cpu's raw pages as
 * the kernel's trace_pipe_raw gave them.  `schedreplay record` writes its
 * recording with it, and the tests make small trace.dat files with it.
 *
 * The recording's context travels as an option of its own
 * (SR_TD_OPTION_CONTEXT, its text by parse/ctxtext.h); libtracecmd and
 * trace-cmd skip an option they do not know.
 */
#ifndef SR_TDWRITE_H
#define SR_TDWRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"

/* Our option's id: "SR" as a 16-bit number, far above trace-cmd's own
 * (1..25 in trace-cmd 3.3); its data starts with SR_CTXTEXT_MAGIC. */
#define SR_TD_OPTION_CONTEXT 0x5352
#define SR_TD_OPTION_CPUSTAT 2  /* trace-cmd's: a cpu's stats text */

struct sr_tdw_block {
	const char *data;
	size_t len;
};

struct sr_tdw_format {
	const char *system;   /* formats of one system are given together */
	const char *text;     /* events/SYSTEM/EVENT/format */
	size_t len;
};

struct sr_tdw_option {
	uint16_t id;
	const void *data;
	uint32_t len;
};

/* One cpu's data: len bytes (whole pages) of the file fd from offset 0. */
struct sr_tdw_cpu {
	int fd;
	uint64_t len;
};

struct sr_tdw {
	uint32_t page_size;
	struct sr_tdw_block header_page, header_event;
	const struct sr_tdw_format *formats;
	size_t nformats;
	struct sr_tdw_block cmdlines;
	const struct sr_tdw_option *opts;
	size_t nopts;
	const struct sr_tdw_cpu *cpu;
	size_t ncpu;
};

/*
 * Write the file to f (a file or a pipe: offsets are counted, not asked
 * of f).  SR_OK, or SR_EIO naming path when a read of the cpu data or a
 * write failed.
 */
int sr_tdw_write(FILE *f, const struct sr_tdw *w, const char *path,
		 struct sr_diag *d);

#endif
