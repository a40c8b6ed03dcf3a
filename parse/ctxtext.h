/*
 * ctxtext: the recording's context (parse/context.h) as text, the one form
 * it is stored in: trace.dat carries it in an option of its own, a native
 * trace as "#context " lines at its head (docs/trace-format.md, "Context").
 *
 * One record a line, its kind first, then key=value fields; a field left
 * out is unknown.  Strings are always double-quoted, with \" \\ \n \t and
 * \xHH for other control bytes, so a cgroup path or a command name of any
 * bytes reads back as it was written.
 *
 *	schedreplay-context 1
 *	kernel release="6.18.4" hz=250 preempt="dynamic:none" autogroup=1
 *	machine ncpus=2 system_wide=0 root_pid=4242
 *	cpu cpu=0 core=0 package=0 node=0 llc=0 smt=0 online=1
 *	cgroup id=0 weight=100 path="/"
 *	task pid=4242 ts=start tgid=4242 sid=4242 nice=0 policy=normal
 *	     rtprio=0 autogroup=40 autogroup_nice=0 cgroup=0 cpus=0-1 tree=1
 *	     comm="sh"                                  (one line)
 *	unread what="/sys/kernel/debug/sched/base_slice_ns: Permission denied"
 *	loss cpu=1 lost=12
 */
#ifndef SR_CTXTEXT_H
#define SR_CTXTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/diag.h"
#include "parse/context.h"

#define SR_CTXTEXT_MAGIC "schedreplay-context 1"

/*
 * Write c, each line preceded by prefix ("" or "#context ").  Returns 0,
 * or -1 when a write failed (ferror(f) then says so).
 */
int sr_ctxtext_write(FILE *f, const struct sr_context *c, const char *prefix);

/*
 * Reading, a line at a time: sr_ctxread_start() begins an empty context;
 * sr_ctxtext_line() takes one line (without its newline and prefix), the
 * first of which must be the magic line.  On a bad line it returns -1 with
 * "expected ..., got ..." in why (no location: the caller names the file
 * and the line or offset).  sr_ctxtext_end() checks the whole (the magic
 * was seen), indexes it (sr_context_done) and hands it over in *out;
 * sr_ctxread_abort() frees what was read instead.
 */
struct sr_ctxread {
	struct sr_context *c;
	int magic;                 /* the first line was read */
	size_t capcpu, capcg, captask, capunread, caploss;
};

int sr_ctxread_start(struct sr_ctxread *r);
int sr_ctxtext_line(struct sr_ctxread *r, const char *line, size_t len,
		    char *why, size_t whysz);
int sr_ctxtext_end(struct sr_ctxread *r, struct sr_context **out, char *why,
		   size_t whysz);
void sr_ctxread_abort(struct sr_ctxread *r);

/*
 * A whole context from buf[0..n) (a trace.dat option's bytes; a final NUL
 * is allowed).  Errors are SR_EDATA naming FILE:OFFSET, the offset of the
 * bad line in the file being base + its offset in buf.  *out is NULL on
 * error.
 */
int sr_ctxtext_parse(struct sr_context **out, const char *buf, size_t n,
		     const char *file, unsigned long long base,
		     struct sr_diag *d);

/* The n bytes at s, a cpu list ("0-3,5", as the kernel prints one), into
 * set (its old bits freed; nbits a multiple of 64); false when malformed
 * or a cpu is SR_CPU_MAX or more. */
bool sr_cpuset_parse(const char *s, size_t n, struct sr_cpuset *set);

#endif
