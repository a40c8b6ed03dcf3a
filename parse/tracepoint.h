/*
 * tracepoint: the scheduler tracepoints of a binary trace (perf.data,
 * trace.dat), decoded from the event formats the trace itself carries.
 * libtraceevent parses the formats; this module keeps, per sched event,
 * where each field sits in a raw record, and decodes records into struct
 * sr_raw exactly as the text decoders (fields.c) decode the same fields
 * printed.
 *
 * prev_state is read as a number and turned into a state by the format's
 * own print expression (its __print_flags table, the "R" of a zero value
 * and the "+" of a preemption), so a value means what the recording
 * kernel meant (docs/trace-format.md, "prev_state").  Only when the format
 * has no such expression does the kernel release the file states pick the
 * table (sr_state_enc_for_release()).
 *
 * Private to parse/.
 */
#ifndef SR_TRACEPOINT_H
#define SR_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "parse/format.h"
#include "parse/raw.h"

struct tep_handle;
struct tep_event;

/* Where a field sits in a raw record; size 0: the format has none. */
struct sr_tp_field {
	uint16_t offset;
	uint16_t size;
	uint8_t is_signed;
	uint8_t dynamic;     /* __data_loc (string) */
	uint8_t relative;    /* __rel_loc: offset counts from the field's end */
	uint8_t read;        /* how a number is read: enum in tracepoint.c,
			      * from size, sign and the file's byte order */
};

enum sr_tp_fid {
	F_PID, F_COMM, F_PRIO, F_PREV_PID, F_PREV_COMM, F_PREV_PRIO,
	F_PREV_STATE, F_NEXT_PID, F_NEXT_COMM, F_NEXT_PRIO, F_SUCCESS,
	F_TARGET_CPU, F_PARENT_PID, F_PARENT_COMM, F_CHILD_PID, F_CHILD_COMM,
	F_FILENAME, F_OLD_PID, F_ORIG_CPU, F_DEST_CPU, F_RUNTIME,
	F_COMMON_FLAGS, F_COMMON_PID,
	F__COUNT
};

/* prev_state values already decoded, per event (most traces use a few). */
#define SR_TP_STATE_CACHE 16

struct sr_tp_event {
	int id;                      /* the format's ID: */
	uint8_t kind;                /* enum sr_ev_kind */
	uint16_t min_size;           /* bytes the fixed fields need */
	struct sr_tp_field f[F__COUNT];
	const struct tep_event *ev;  /* for prev_state's print expression */
	int fast;                    /* the fields this kind reads have the
				      * sizes every kernel since 3.x gives
				      * them, in this machine's byte order:
				      * read without a case per field */
	int state_by_format;         /* the print expression decodes it */
	uint64_t cache_val[SR_TP_STATE_CACHE];
	uint8_t cache_state[SR_TP_STATE_CACHE];
	uint8_t cache_preempt[SR_TP_STATE_CACHE];
	uint8_t ncache;
};

#define SR_TP_EVENTS_MAX 16

struct sr_tp {
	struct tep_handle *tep;      /* not owned */
	int swap;                    /* file endianness differs from ours */
	int state_enc;               /* fallback table (enum sr_state_enc) */
	size_t n;
	struct sr_tp_event ev[SR_TP_EVENTS_MAX];
	int last;                    /* index of the last event looked up */
};

/*
 * Learn the sched events tep knows.  state_enc: the table to use for a
 * prev_state whose format has no print expression for it.  Fails (in c)
 * when a sched event's format lacks a field it must have.
 */
int sr_tp_init(struct sr_tp *t, struct tep_handle *tep, int state_enc,
	       struct sr_fmtctx *c);

/* The event with this format ID, or NULL if it is not a sched event. */
static inline struct sr_tp_event *sr_tp_find(struct sr_tp *t, int id)
{
	if (t->n && t->ev[t->last].id == id)
		return &t->ev[t->last];
	for (size_t i = 0; i < t->n; i++)
		if (t->ev[i].id == id) {
			t->last = (int)i;
			return &t->ev[i];
		}
	return NULL;
}

/*
 * Decode the raw record of e (data, size bytes, as the kernel wrote it)
 * into out: SR_P_RAW, SR_P_NONE (success=0 wakeup, counted), SR_P_ERR
 * (message in c, c->line being the record's offset).  Sets out->kind,
 * the task fields, out->irq and out->ctx_pid (common_pid).
 */
int sr_tp_decode(struct sr_tp *t, struct sr_tp_event *e, const uint8_t *data,
		 size_t size, struct sr_raw *out, struct sr_fmtctx *c);

/*
 * What a binary reader calls per record: sr_tp_decode() and sr_raw_check()
 * on the record at file offset (c->line), c->d a scratch diag whose
 * message is moved into d on an error.  SR_P_RAW, SR_P_NONE or SR_P_ERR.
 */
int sr_tp_record(struct sr_tp *t, struct sr_tp_event *e, const uint8_t *data,
		 size_t size, uint64_t offset, struct sr_raw *out,
		 struct sr_fmtctx *c, struct sr_diag *d);

/*
 * The state of a prev_state value by the format's print expression:
* 0 with *state and *preempt set, or -1 if the expression cannot be evaluated.
 */
int sr_tp_state_by_format(const struct tep_event *ev, uint64_t v,
			  uint8_t *state, uint8_t *preempt);

/* The prev_state table of a kernel release ("6.1.0-13-amd64"), or
 * SR_ENC_UNKNOWN if it cannot be read. */
int sr_state_enc_for_release(const char *release);

#endif
