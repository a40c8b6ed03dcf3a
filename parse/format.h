/*
 * format: the per-format line decoders behind the reader.  Each text
 * input format is a struct sr_fmt_ops named by one row of the format
 * table (reader.c); its parse() turns one line into at most one struct
 * sr_raw.
 *
 * Private to parse/.
 */
#ifndef SR_FORMAT_H
#define SR_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/patterns.h"
#include "parse/raw.h"

/* How a trace prints a numeric prev_state (trace-cmd -R, raw fields). */
enum sr_state_enc {
	SR_ENC_UNKNOWN = 0, /* not decided yet: guessed as SR_ENC_4_15 */
	SR_ENC_2_6,         /* up to 3.8: 64 TASK_DEAD, 512 preempted (3.2+) */
	SR_ENC_3_9,         /* 3.9 - 4.1: 512 TASK_PARKED, 1024 preempted */
	SR_ENC_4_2,         /* 4.2 - 4.7: 1024 TASK_NOLOAD, 2048 preempted */
	SR_ENC_4_8,         /* 4.8 - 4.13: 2048 TASK_NEW, 4096 preempted */
	SR_ENC_4_15,        /* 4.14 on: 0 R, 1 S, 2 D ... 128 I, 256 R+ */
	SR_ENC_SHIFTED,     /* vendor kernels with the first 4.14 rework:
			     * 1 << index: 1 R, 2 S ... 256 I or R+ */
};

/* Result of one parse() call. */
enum sr_parse_rc {
	SR_P_ERR = -1,   /* malformed: message in ctx->d */
	SR_P_NONE = 0,   /* no record: comment, header, skipped event */
	SR_P_RAW = 1,    /* *out filled */
};

struct sr_fmt_ops;

struct sr_fmtctx {
	const struct sr_fmt_ops *ops;
	struct sr_patterns *pat;
	const char *file;          /* for messages */
	uint64_t line;             /* current line number */
	int last_line;             /* current line is the input's last, unterminated */
	struct sr_diag *d;
	/* learned from the input */
	int state_enc;             /* enum sr_state_enc */
	int32_t ncpus_hint;        /* #P:N or cpus=N, 0 if none */
	int html;                  /* systrace wrapper state (fmt-ftrace.c) */
	int native_magic;          /* native: magic line seen */
	int kernel_414;            /* the file's kernel is 4.14 or later: 1,
				    * earlier: -1, not stated: 0 */
	int warned;                /* warnings given once (fields.c) */
	/* counters for sr_read_stats */
	uint64_t skipped_events;   /* known format, other event names */
	uint64_t failed_wakeups;   /* success=0 wakeups, not delivered */
	uint64_t tally_lost;       /* perf's closing count of lost samples
				    * as text prints it (time 0, cpu
				    * unknown): sr_read_stats.lost_tally */
};

struct sr_fmt_ops {
	/* Score how well the head of the input looks like this format. */
	int (*detect)(struct sr_fmtctx *c, const char *head, size_t n);
	int (*parse)(struct sr_fmtctx *c, char *line, size_t len,
		     struct sr_raw *out);
	/* cpu and time of an event line, cheaply; 0 if not an event line */
	int (*peek)(struct sr_fmtctx *c, char *line, size_t len,
		    int32_t *cpu, int64_t *ts);
	/* what its events look like, for "no events found" (may be NULL) */
	const char *expect;
};

extern const struct sr_fmt_ops sr_fmt_perf;
extern const struct sr_fmt_ops sr_fmt_ftrace;
extern const struct sr_fmt_ops sr_fmt_tracecmd;
extern const struct sr_fmt_ops sr_fmt_systrace;
extern const struct sr_fmt_ops sr_fmt_native;

/*
 * A native trace's context: the "#context " lines right after its magic
 * line, in head[0..n) (all: that is the whole input).  SR_OK with *ctx
 * (NULL when there is none, or the head is not native); 1 when the block
 * runs past n and more of the input is needed; or an error naming
 * FILE:LINE.
 */
struct sr_context;
int sr_native_context(const char *head, size_t n, bool all, const char *file,
		      struct sr_context **ctx, struct sr_diag *d);

/* ---- helpers shared by the decoders (fields.c) ---- */

#define SR_CPU_MAX 8192 /* cpu numbers 0 .. SR_CPU_MAX-1 */
#define SR_PID_MAX 0x3fffffff

/* "FILE:LINE: expected WHAT, got 'LINE'"; returns SR_P_ERR. */
int sr_fmt_expected(struct sr_fmtctx *c, const char *what, const char *s,
		    size_t n);
int sr_fmt_fail(struct sr_fmtctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int sr_parse_ts(struct sr_fmtctx *c, const char *s, size_t n, int64_t *ns);
/*
 * What no kernel can record, whatever the format: a task forking itself.
 * SR_P_RAW, or SR_P_ERR with the message.
 */
int sr_raw_check(struct sr_fmtctx *c, const struct sr_raw *r);
int sr_parse_u32(const char *s, size_t n, uint32_t max, uint32_t *v);
int sr_parse_cpu(struct sr_fmtctx *c, const char *s, size_t n, int32_t *cpu);
void sr_copy_comm(char *dst, const char *s, size_t n);

/*
 * Decode the fields of a scheduler event named ev (after "ev: ") into
 * out.  Returns SR_P_RAW, SR_P_NONE (an event we do not deliver, counted
 * in skipped_events or failed_wakeups) or SR_P_ERR.
 */
int sr_fields_decode(struct sr_fmtctx *c, const char *ev, size_t evlen,
		     const char *s, size_t n, struct sr_raw *out);

/* The cpu and time of a header match m (G_CPU, G_TS) into out: SR_P_RAW
 * or SR_P_ERR. */
int sr_fields_cpu_ts(struct sr_fmtctx *c, const struct sr_match *m,
		     struct sr_raw *out);
/*
 * A line of a header format (perf, ftrace) after its header matched as m:
 * the event's fields (what follows m), then the cpu and time from m's
 * G_CPU and G_TS groups.  Returns as sr_fields_decode.
 */
int sr_fields_decode_line(struct sr_fmtctx *c, const struct sr_match *m,
			  const char *ev, size_t evlen, const char *line,
			  size_t len, struct sr_raw *out);
/* A peek at a header match m: 1 if its cpu and time parse, else 0 (no
 * error reported). */
int sr_fields_peek(struct sr_fmtctx *c, const struct sr_match *m,
		   int32_t *cpu, int64_t *ts);

/*
 * prev_state text ("S", "R+", "D|K") or number to enum sr_task_state;
 * *preempt = 1 when the trace marks a preemption ("R+", or the preempt
 * flag of the numeric encoding).
 */
int sr_state_decode(struct sr_fmtctx *c, const char *s, size_t n,
		    const char *comm, uint8_t *state, uint8_t *preempt);

/*
 * prev_state letters as a kernel's own table prints them ("S", "R+",
 * "D|K", "I"): 0 and the state, or -1 if the first letter is none of them.
 */
int sr_state_from_letters(const char *s, size_t n, uint8_t *state,
			  uint8_t *preempt);

/* Interrupt context from an ftrace flags column ("d.h2.", "..s1"). */
uint8_t sr_flags_irq(const char *f, size_t n);

/* Is a too-long line acceptable here (HTML outside the trace text)? */
int sr_fmt_long_line_ok(const struct sr_fmtctx *c);

/* Pick a numeric prev_state encoding from the head of a trace. */
int sr_state_enc_guess(struct sr_fmtctx *c, const char *head, size_t n);

#endif
