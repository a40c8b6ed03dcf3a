/*
 * tracepoint: sched tracepoint records decoded through their own formats
 * (see tracepoint.h): the field map per event, the raw-record decoder,
 * and prev_state through the format's print expression.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "parse/load.h"
#include "parse/tasktab.h"
#include "parse/tracepoint.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The sched events we deliver, and the fields each must have. */
static const struct {
	const char *name;
	uint8_t kind;
	enum sr_tp_fid need[8];   /* F__COUNT ends the list */
} events[] = {
	{ "sched_switch", SR_EV_SWITCH,
	  { F_PREV_PID, F_PREV_COMM, F_PREV_STATE, F_NEXT_PID, F_NEXT_COMM,
	    F__COUNT } },
	{ "sched_waking", SR_EV_WAKING, { F_PID, F_COMM, F__COUNT } },
	{ "sched_wakeup", SR_EV_WAKEUP, { F_PID, F_COMM, F__COUNT } },
	{ "sched_wakeup_new", SR_EV_WAKEUP_NEW, { F_PID, F_COMM, F__COUNT } },
	{ "sched_process_fork", SR_EV_FORK,
	  { F_PARENT_PID, F_PARENT_COMM, F_CHILD_PID, F_CHILD_COMM, F__COUNT } },
	{ "sched_process_exec", SR_EV_EXEC,
	  { F_FILENAME, F_PID, F_OLD_PID, F__COUNT } },
	{ "sched_process_exit", SR_EV_EXIT, { F_PID, F_COMM, F__COUNT } },
	{ "sched_process_free", SR_EV_FREE, { F_PID, F_COMM, F__COUNT } },
	{ "sched_migrate_task", SR_EV_MIGRATE,
	  { F_PID, F_COMM, F_ORIG_CPU, F_DEST_CPU, F__COUNT } },
	{ "sched_stat_runtime", SR_EV_RUNTIME,
	  { F_PID, F_COMM, F_RUNTIME, F__COUNT } },
};

static const char *const field_names[F__COUNT] = {
	[F_PID] = "pid", [F_COMM] = "comm", [F_PRIO] = "prio",
	[F_PREV_PID] = "prev_pid", [F_PREV_COMM] = "prev_comm",
	[F_PREV_PRIO] = "prev_prio", [F_PREV_STATE] = "prev_state",
	[F_NEXT_PID] = "next_pid", [F_NEXT_COMM] = "next_comm",
	[F_NEXT_PRIO] = "next_prio", [F_SUCCESS] = "success",
	[F_TARGET_CPU] = "target_cpu", [F_PARENT_PID] = "parent_pid",
	[F_PARENT_COMM] = "parent_comm", [F_CHILD_PID] = "child_pid",
	[F_CHILD_COMM] = "child_comm", [F_FILENAME] = "filename",
	[F_OLD_PID] = "old_pid", [F_ORIG_CPU] = "orig_cpu",
	[F_DEST_CPU] = "dest_cpu", [F_RUNTIME] = "runtime",
	[F_COMMON_FLAGS] = "common_flags", [F_COMMON_PID] = "common_pid",
};

/* ---- prev_state by the format's print expression ---- */

#define EVAL_DEPTH 64

static int uses_prev_state(const struct tep_print_arg *a, int depth)
{
	if (!a || depth > EVAL_DEPTH)
		return 0;
	switch (a->type) {
	case TEP_PRINT_FIELD:
		return a->field.name && !strcmp(a->field.name, "prev_state");
	case TEP_PRINT_TYPE:
		return uses_prev_state(a->typecast.item, depth + 1);
	case TEP_PRINT_FLAGS:
		return uses_prev_state(a->flags.field, depth + 1);
	case TEP_PRINT_SYMBOL:
		return uses_prev_state(a->symbol.field, depth + 1);
	case TEP_PRINT_OP:
		return uses_prev_state(a->op.left, depth + 1) ||
		       uses_prev_state(a->op.right, depth + 1);
	default:
		return 0;
	}
}

/* Does the expression turn the value into letters (a table)? */
static int has_table(const struct tep_print_arg *a, int depth)
{
	if (!a || depth > EVAL_DEPTH)
		return 0;
	switch (a->type) {
	case TEP_PRINT_FLAGS:
	case TEP_PRINT_SYMBOL:
		return 1;
	case TEP_PRINT_TYPE:
		return has_table(a->typecast.item, depth + 1);
	case TEP_PRINT_OP:
		return has_table(a->op.left, depth + 1) ||
		       has_table(a->op.right, depth + 1);
	default:
		return 0;
	}
}

static int parse_num(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	if (s[0] == '-') {
		long long v = strtoll(s, &end, 0);

		*out = (uint64_t)v;
	} else {
		*out = strtoull(s, &end, 0);
	}
	while (*end == 'U' || *end == 'L' || *end == 'u' || *end == 'l')
		end++;
	return *end ? -1 : 0;
}

static int eval_num(const struct tep_print_arg *a, uint64_t v, uint64_t *out,
		    int depth);

static int eval_op(const struct tep_print_arg *a, uint64_t v, uint64_t *out,
		   int depth)
{
	const char *op = a->op.op;
	uint64_t l = 0, r = 0;

	if (!op)
		return -1;
	if (!strcmp(op, "?")) {
		const struct tep_print_arg *c = a->op.right;

		if (!c || c->type != TEP_PRINT_OP || !c->op.op ||
		    strcmp(c->op.op, ":") || eval_num(a->op.left, v, &l, depth))
			return -1;
		return eval_num(l ? c->op.left : c->op.right, v, out, depth);
	}
	if (eval_num(a->op.right, v, &r, depth))
		return -1;
	if (!a->op.left || a->op.left->type == TEP_PRINT_NULL) {
		if (!strcmp(op, "!"))
			*out = !r;
		else if (!strcmp(op, "~"))
			*out = ~r;
		else if (!strcmp(op, "-"))
			*out = (uint64_t)0 - r;
		else if (!strcmp(op, "+"))
			*out = r;
		else
			return -1;
		return 0;
	}
	if (eval_num(a->op.left, v, &l, depth))
		return -1;
	if (!strcmp(op, "&")) *out = l & r;
	else if (!strcmp(op, "|")) *out = l | r;
	else if (!strcmp(op, "^")) *out = l ^ r;
	else if (!strcmp(op, "+")) *out = l + r;
	else if (!strcmp(op, "-")) *out = l - r;
	else if (!strcmp(op, "*")) *out = l * r;
	else if (!strcmp(op, "/")) { if (!r) return -1; *out = l / r; }
	else if (!strcmp(op, "%")) { if (!r) return -1; *out = l % r; }
	else if (!strcmp(op, "<<")) *out = r < 64 ? l << r : 0;
	else if (!strcmp(op, ">>")) *out = r < 64 ? l >> r : 0;
	else if (!strcmp(op, "&&")) *out = l && r;
	else if (!strcmp(op, "||")) *out = l || r;
	else if (!strcmp(op, "==")) *out = l == r;
	else if (!strcmp(op, "!=")) *out = l != r;
	else if (!strcmp(op, "<")) *out = l < r;
	else if (!strcmp(op, ">")) *out = l > r;
	else if (!strcmp(op, "<=")) *out = l <= r;
	else if (!strcmp(op, ">=")) *out = l >= r;
	else return -1;
	return 0;
}

static int eval_num(const struct tep_print_arg *a, uint64_t v, uint64_t *out,
		    int depth)
{
	if (!a || ++depth > EVAL_DEPTH)
		return -1;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		return parse_num(a->atom.atom, out);
	case TEP_PRINT_FIELD:
		if (!a->field.name || strcmp(a->field.name, "prev_state"))
			return -1;
		*out = v;
		return 0;
	case TEP_PRINT_TYPE:
		return eval_num(a->typecast.item, v, out, depth);
	case TEP_PRINT_OP:
		return eval_op(a, v, out, depth);
	default:
		return -1;
	}
}

struct sbuf {
	char s[96];
	size_t n;
};

static void put(struct sbuf *b, const char *s)
{
	while (s && *s && b->n + 1 < sizeof(b->s))
		b->s[b->n++] = *s++;
	b->s[b->n] = '\0';
}

/* A value as libtraceevent prints what its table leaves over. */
static void put_hex(struct sbuf *b, uint64_t v)
{
	char h[24];

	snprintf(h, sizeof(h), "0x%llx", (unsigned long long)v);
	put(b, h);
}

static int eval_str(const struct tep_print_arg *a, uint64_t v, struct sbuf *b,
		    int depth)
{
	uint64_t x, fv;
	int printed = 0;

	if (!a || ++depth > EVAL_DEPTH)
		return -1;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		put(b, a->atom.atom);
		return 0;
	case TEP_PRINT_FLAGS:
		if (eval_num(a->flags.field, v, &x, depth))
			return -1;
		for (const struct tep_print_flag_sym *f = a->flags.flags; f;
		     f = f->next) {
			if (parse_num(f->value, &fv))
				return -1;
			if (!x && !fv) {
				put(b, f->str);
				return 0;
			}
			if (fv && (x & fv) == fv) {
				if (printed)
					put(b, a->flags.delim);
				put(b, f->str);
				printed = 1;
				x &= ~fv;
			}
		}
		if (x) {
			if (printed)
				put(b, a->flags.delim);
			put_hex(b, x);
		}
		return 0;
	case TEP_PRINT_SYMBOL:
		if (eval_num(a->symbol.field, v, &x, depth))
			return -1;
		for (const struct tep_print_flag_sym *f = a->symbol.symbols; f;
		     f = f->next) {
			if (parse_num(f->value, &fv))
				return -1;
			if (fv == x) {
				put(b, f->str);
				return 0;
			}
		}
		put_hex(b, x);
		return 0;
	case TEP_PRINT_OP:
		if (a->op.op && !strcmp(a->op.op, "?")) {
			const struct tep_print_arg *c = a->op.right;

			if (!c || c->type != TEP_PRINT_OP || !c->op.op ||
			    strcmp(c->op.op, ":") ||
			    eval_num(a->op.left, v, &x, depth))
				return -1;
			return eval_str(x ? c->op.left : c->op.right, v, b,
					depth);
		}
		/* a number printed as such */
		/* fall through */
	case TEP_PRINT_FIELD:
	case TEP_PRINT_TYPE: {
		char num[24];

		if (eval_num(a, v, &x, depth - 1))
			return -1;
		snprintf(num, sizeof(num), "%llu", (unsigned long long)x);
		put(b, num);
		return 0;
	}
	default:
		return -1;
	}
}

int sr_tp_state_by_format(const struct tep_event *ev, uint64_t v,
			  uint8_t *state, uint8_t *preempt)
{
	struct sbuf b = { { 0 }, 0 };
	int any = 0;

	for (const struct tep_print_arg *a = ev->print_fmt.args; a; a = a->next) {
		if (!uses_prev_state(a, 0))
			continue;
		if (eval_str(a, v, &b, 0))
			return -1;
		any = 1;
	}
	if (!any || !b.n)
		return -1;
	if (sr_state_from_letters(b.s, b.n, state, preempt) != 0)
		*state = SR_STATE_UNKNOWN; /* bits the table does not name */
	return 0;
}

int sr_state_enc_for_release(const char *rel)
{
	unsigned maj = 0, min = 0;

	if (!rel || sscanf(rel, "%u.%u", &maj, &min) != 2)
		return SR_ENC_UNKNOWN;
	if (maj < 3 || (maj == 3 && min < 9))
		return SR_ENC_2_6;
	if (maj == 3 || (maj == 4 && min < 2))
		return SR_ENC_3_9;
	if (maj == 4 && min < 8)
		return SR_ENC_4_2;
	if (maj == 4 && min < 14)
		return SR_ENC_4_8;
	return SR_ENC_4_15;
}

/* ---- the field map ---- */

/*
 * How a number field is read, one case per size, sign and byte order, so
 * that a read is one jump (set by sr_tp_init, sr_tp_read_of()).
 */
enum {
	RD_NONE, RD_U8, RD_S8, RD_U16, RD_S16, RD_U32, RD_S32, RD_U64,
	RD_U16X, RD_S16X, RD_U32X, RD_S32X, RD_U64X,
};

static uint8_t read_of(const struct sr_tp_field *f, int swap)
{
	switch (f->size) {
	case 1: return f->is_signed ? RD_S8 : RD_U8;
	case 2: return f->is_signed ? (swap ? RD_S16X : RD_S16) :
				      (swap ? RD_U16X : RD_U16);
	case 4: return f->is_signed ? (swap ? RD_S32X : RD_S32) :
				      (swap ? RD_U32X : RD_U32);
	case 8: return swap ? RD_U64X : RD_U64;
	default: return RD_NONE;
	}
}

static void map_field(struct tep_event *ev, struct sr_tp_field *f,
		      const char *name)
{
	struct tep_format_field *ff = tep_find_any_field(ev, name);

	memset(f, 0, sizeof(*f));
	if (!ff || ff->offset < 0 || ff->size <= 0 ||
	    ff->offset + ff->size > 65535)
		return;
	f->offset = (uint16_t)ff->offset;
	f->size = (uint16_t)ff->size;
	f->is_signed = (ff->flags & TEP_FIELD_IS_SIGNED) != 0;
	f->dynamic = (ff->flags & TEP_FIELD_IS_DYNAMIC) != 0;
	f->relative = (ff->flags & TEP_FIELD_IS_RELATIVE) != 0;
}

static int field_ok(enum sr_tp_fid id, const struct sr_tp_field *f)
{
	if (!f->size)
		return 0;
	if (f->dynamic)
		return f->size == 4;
	switch (id) {
	case F_COMM: case F_PREV_COMM: case F_NEXT_COMM: case F_PARENT_COMM:
	case F_CHILD_COMM:
		return 1;  /* char[N] */
	case F_FILENAME:
		return 0;  /* must be a __data_loc string */
	default:
		return f->size == 1 || f->size == 2 || f->size == 4 ||
		       f->size == 8;
	}
}

/* Is field id a fixed number of size bytes (signed or not)? */
static int has_int(const struct sr_tp_event *e, enum sr_tp_fid id,
		   uint16_t size, int is_signed)
{
	const struct sr_tp_field *f = &e->f[id];

	return f->size == size && !f->dynamic && f->is_signed == is_signed;
}

/* A comm of char[16], the kernel's TASK_COMM_LEN, or a __data_loc one. */
static int has_comm(const struct sr_tp_event *e, enum sr_tp_fid id,
		    int data_loc)
{
	const struct sr_tp_field *f = &e->f[id];

	return data_loc && f->dynamic ? f->size == 4 && !f->relative
				      : !f->dynamic && f->size == 16;
}

/*
 * Can decode_fast() read this event: the fields its kind reads have the
 * sizes the kernel's formats give them (pids and prios int, comms
 * char[16] or a __data_loc string for sched_stat_runtime's, prev_state
 * long, runtime u64), and no success field (gone since 4.x)?
 */
static int fast_layout(const struct sr_tp_event *e)
{
	if (!has_int(e, F_COMMON_FLAGS, 1, 0) ||
	    !has_int(e, F_COMMON_PID, 4, 1))
		return 0;
	switch (e->kind) {
	case SR_EV_SWITCH:
		return has_int(e, F_PREV_PID, 4, 1) &&
		       has_int(e, F_NEXT_PID, 4, 1) &&
		       has_int(e, F_PREV_PRIO, 4, 1) &&
		       has_int(e, F_NEXT_PRIO, 4, 1) &&
		       e->f[F_PREV_STATE].size == 8 &&
		       !e->f[F_PREV_STATE].dynamic &&
		       has_comm(e, F_PREV_COMM, 0) && has_comm(e, F_NEXT_COMM, 0);
	case SR_EV_WAKING:
	case SR_EV_WAKEUP:
	case SR_EV_WAKEUP_NEW:
		return has_int(e, F_PID, 4, 1) && has_int(e, F_PRIO, 4, 1) &&
		       has_int(e, F_TARGET_CPU, 4, 1) && !e->f[F_SUCCESS].size &&
		       has_comm(e, F_COMM, 0);
	case SR_EV_RUNTIME:
		return has_int(e, F_PID, 4, 1) && has_comm(e, F_COMM, 1) &&
		       e->f[F_RUNTIME].size == 8 && !e->f[F_RUNTIME].dynamic;
	default:
		return 0;
	}
}

int sr_tp_init(struct sr_tp *t, struct tep_handle *tep, int state_enc,
	       struct sr_fmtctx *c)
{
	memset(t, 0, sizeof(*t));
	t->tep = tep;
	t->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
	t->state_enc = state_enc;
	for (size_t i = 0; i < NELEM(events); i++) {
		struct tep_event *ev = tep_find_event_by_name(tep, "sched",
							      events[i].name);
		struct sr_tp_event *e;

		if (!ev)
			continue;
		e = &t->ev[t->n];
		memset(e, 0, sizeof(*e));
		e->id = ev->id;
		e->kind = events[i].kind;
		e->ev = ev;
		for (int k = 0; k < F__COUNT; k++) {
			map_field(ev, &e->f[k], field_names[k]);
			e->f[k].read = read_of(&e->f[k], t->swap);
		}
		for (int k = 0; k < F__COUNT; k++) {
			const struct sr_tp_field *f = &e->f[k];

			if (f->size && !field_ok((enum sr_tp_fid)k, f))
				return sr_fmt_fail(c, "expected field %s of "
						   "sched:%s to be %s, got "
						   "%u bytes at %u%s",
						   field_names[k],
						   events[i].name,
						   k == F_FILENAME ?
						   "a __data_loc string" :
						   "a 1, 2, 4 or 8 byte number",
						   f->size, f->offset,
						   f->dynamic ? " (dynamic)" :
						   "");
			if (f->size && f->offset + f->size > e->min_size)
				e->min_size = (uint16_t)(f->offset + f->size);
		}
		for (int k = 0; events[i].need[k] != F__COUNT; k++)
			if (!e->f[events[i].need[k]].size)
				return sr_fmt_fail(c, "expected the format of "
						   "sched:%s to have a field "
						   "'%s', got none",
						   events[i].name,
						   field_names[events[i].need[k]]);
		e->fast = !t->swap && fast_layout(e);
		if (e->kind == SR_EV_SWITCH) {
			uint8_t st, pr;

			e->state_by_format = has_table(ev->print_fmt.args, 0) &&
				sr_tp_state_by_format(ev, 1, &st, &pr) == 0;
		}
		for (size_t j = 0; j < t->n; j++)
			if (t->ev[j].id == e->id)
				return sr_fmt_fail(c, "expected one format per "
						   "event ID, got ID %d for "
						   "sched:%s and another",
						   e->id, events[i].name);
		t->n++;
	}
	return SR_OK;
}

/* ---- decoding ---- */

static inline uint64_t rd(const struct sr_tp *t, const uint8_t *data,
			  const struct sr_tp_field *f)
{
	const uint8_t *p = data + f->offset;
	uint16_t h;
	uint32_t w;
	uint64_t v;

	(void)t;
	switch (f->read) {
	case RD_U8: return p[0];
	case RD_S8: return (uint64_t)(int64_t)(int8_t)p[0];
	case RD_U16: memcpy(&h, p, 2); return h;
	case RD_S16: memcpy(&h, p, 2); return (uint64_t)(int64_t)(int16_t)h;
	case RD_U32: memcpy(&w, p, 4); return w;
	case RD_S32: memcpy(&w, p, 4); return (uint64_t)(int64_t)(int32_t)w;
	case RD_U64: memcpy(&v, p, 8); return v;
	case RD_U16X: memcpy(&h, p, 2); return __builtin_bswap16(h);
	case RD_S16X:
		memcpy(&h, p, 2);
		return (uint64_t)(int64_t)(int16_t)__builtin_bswap16(h);
	case RD_U32X: memcpy(&w, p, 4); return __builtin_bswap32(w);
	case RD_S32X:
		memcpy(&w, p, 4);
		return (uint64_t)(int64_t)(int32_t)__builtin_bswap32(w);
	case RD_U64X: memcpy(&v, p, 8); return __builtin_bswap64(v);
	default: return 0;
	}
}

/*
 * Where string field f of a record lies, *off and *len: its fixed place,
 * or a __data_loc / __rel_loc field's (a u32: length << 16 | offset, the
 * offset from the field's end for __rel_loc); -1 if it lies outside the
 * record's size bytes.
 */
static inline int str_at(const struct sr_tp *t, const uint8_t *data,
			 size_t size, const struct sr_tp_field *f, size_t *off,
			 size_t *len)
{
	*off = f->offset;
	*len = f->size;
	if (f->dynamic) {
		uint32_t v = (uint32_t)rd(t, data, f);

		*off = v & 0xffff;
		*len = v >> 16;
		if (f->relative)
			*off += (size_t)f->offset + f->size;
		if (*off > size || *len > size - *off)
			return -1;
	}
	return 0;
}

/*
 * A string field: char[N], or a __data_loc / __rel_loc string (u32:
 * length << 16 | offset), as sched_stat_runtime's comm is since 6.x.
 * *s, *n: the bytes up to the NUL; -1 if it lies outside the record.
 */
static int rd_str(const struct sr_tp *t, const uint8_t *data, size_t size,
		  const struct sr_tp_field *f, const char **s, size_t *n)
{
	size_t off, len;

	if (str_at(t, data, size, f, &off, &len))
		return -1;
	*s = (const char *)data + off;
	*n = strnlen(*s, len);
	return 0;
}

static int __attribute__((noinline, cold))
comm_outside(struct sr_fmtctx *c, size_t size)
{
	return sr_fmt_fail(c, "expected a comm within the record's %zu bytes, "
			   "got one past its end", size);
}

static inline int rd_comm(struct sr_fmtctx *c, const struct sr_tp *t,
			  const uint8_t *data, size_t size,
			  const struct sr_tp_field *f, char *dst)
{
	size_t off, len;

	if (str_at(t, data, size, f, &off, &len))
		return comm_outside(c, size);
	if (len <= 16 && off + 16 <= size) {
		/* the kernel's TASK_COMM_LEN: 16 bytes copied whole, ended
		 * at len: the same string as the bytes up to the NUL */
		memcpy(dst, data + off, 16);
		dst[len] = '\0';
	} else if (len < SR_COMM_MAX) {
		memcpy(dst, data + off, len);
		dst[len] = '\0';
	} else {
		sr_copy_comm(dst, (const char *)data + off,
			     strnlen((const char *)data + off, len));
	}
	return 0;
}

static int __attribute__((noinline, cold))
pid_range(struct sr_fmtctx *c, const char *what, int64_t v)
{
	return sr_fmt_fail(c, "expected %s below 2^30, got %lld", what,
			   (long long)v);
}

static inline int rd_pid(struct sr_fmtctx *c, const struct sr_tp *t,
			 const uint8_t *data, const struct sr_tp_field *f,
			 const char *what, int32_t *pid)
{
	int64_t v = (int64_t)rd(t, data, f);

	if (v < 0 || v > SR_PID_MAX)
		return pid_range(c, what, v);
	*pid = (int32_t)v;
	return 0;
}

static int16_t rd_prio(const struct sr_tp *t, const uint8_t *data,
		       const struct sr_tp_field *f)
{
	int64_t v;

	if (!f->size)
		return -1;
	v = (int64_t)rd(t, data, f);
	return v >= 0 && v <= 999 ? (int16_t)v : -1;
}

static int rd_cpu(struct sr_fmtctx *c, const struct sr_tp *t,
		  const uint8_t *data, const struct sr_tp_field *f,
		  int32_t *cpu)
{
	int64_t v = (int64_t)rd(t, data, f);

	if (v < 0 || v >= SR_CPU_MAX)
		return sr_fmt_fail(c, "cpu number %lld out of range (0 to %d "
				   "supported)", (long long)v, SR_CPU_MAX - 1);
	*cpu = (int32_t)v;
	return 0;
}

static void state_of(struct sr_tp *t, struct sr_tp_event *e, uint64_t v,
		     const char *comm, struct sr_raw *r)
{
	for (uint8_t i = 0; i < e->ncache; i++)
		if (e->cache_val[i] == v) {
			r->state = e->cache_state[i];
			r->preempt = e->cache_preempt[i];
			return;
		}
	if (!e->state_by_format ||
	    sr_tp_state_by_format(e->ev, v, &r->state, &r->preempt) != 0) {
		char num[24];
		struct sr_fmtctx q = { 0 };
		struct sr_diag quiet = SR_DIAG_INIT;

		/* no table in the format: the release's numbers */
		q.state_enc = t->state_enc;
		q.d = &quiet;
		snprintf(num, sizeof(num), "%llu",
			 (unsigned long long)(v & 0xffffffffu));
		if (sr_state_decode(&q, num, strlen(num), comm, &r->state,
				    &r->preempt) != 0)
			r->state = SR_STATE_UNKNOWN;
		if (sr_comm_is_kthread(comm))
			return; /* SR_ENC_SHIFTED reads 256 by comm: not cached */
	}
	if (e->ncache < SR_TP_STATE_CACHE) {
		e->cache_val[e->ncache] = v;
		e->cache_state[e->ncache] = r->state;
		e->cache_preempt[e->ncache] = r->preempt;
		e->ncache++;
	}
}

/* Interrupt context from the common_flags bits (kernel/trace/trace.h). */
static uint8_t irq_of(uint64_t flags)
{
	if (flags & 0x40)
		return SR_CTX_NMI;      /* TRACE_FLAG_NMI */
	if (flags & 0x08)
		return SR_CTX_HARDIRQ;  /* TRACE_FLAG_HARDIRQ */
	if (flags & 0x10)
		return SR_CTX_SOFTIRQ;  /* TRACE_FLAG_SOFTIRQ */
	return SR_CTX_TASK;
}

static inline int16_t prio_of(int32_t v)
{
	return v >= 0 && v <= 999 ? (int16_t)v : -1;
}

/* char[16] at off, within the record (min_size): dst as rd_comm() */
static inline void comm16(char *dst, const uint8_t *data, size_t off)
{
	memcpy(dst, data + off, 16);
	dst[16] = '\0';
}

#define FAST_NO (-2)

/*
 * sr_tp_decode() of an event with e->fast, each field read as its known
 * size: the same record, or FAST_NO when anything is amiss (a number out
 * of range, a string outside the record), for the general decoder to say.
 */
static inline int decode_fast(struct sr_tp *t, struct sr_tp_event *e,
			      const uint8_t *data, size_t size,
			      struct sr_raw *r)
{
	const struct sr_tp_field *f = e->f;
	int32_t cp = sr_ld32s(data + f[F_COMMON_PID].offset), a, b;

	switch (e->kind) {
	case SR_EV_SWITCH:
		a = sr_ld32s(data + f[F_PREV_PID].offset);
		b = sr_ld32s(data + f[F_NEXT_PID].offset);
		if ((uint32_t)a > SR_PID_MAX || (uint32_t)b > SR_PID_MAX)
			return FAST_NO;
		r->pid = a;
		r->pid2 = b;
		comm16(r->comm, data, f[F_PREV_COMM].offset);
		comm16(r->comm2, data, f[F_NEXT_COMM].offset);
		r->prio = prio_of(sr_ld32s(data + f[F_PREV_PRIO].offset));
		r->prio2 = prio_of(sr_ld32s(data + f[F_NEXT_PRIO].offset));
		state_of(t, e, sr_ld64(data + f[F_PREV_STATE].offset), r->comm,
			 r);
		break;
	case SR_EV_WAKING:
	case SR_EV_WAKEUP:
	case SR_EV_WAKEUP_NEW:
		a = sr_ld32s(data + f[F_PID].offset);
		b = sr_ld32s(data + f[F_TARGET_CPU].offset);
		if ((uint32_t)a > SR_PID_MAX || (uint32_t)b >= SR_CPU_MAX)
			return FAST_NO;
		r->pid = a;
		comm16(r->comm, data, f[F_COMM].offset);
		r->prio = prio_of(sr_ld32s(data + f[F_PRIO].offset));
		r->target_cpu = b;
		break;
	case SR_EV_RUNTIME: {
		uint32_t loc = (uint32_t)sr_ld32s(data + f[F_COMM].offset);
		size_t off = f[F_COMM].dynamic ? loc & 0xffff : f[F_COMM].offset;
		size_t len = f[F_COMM].dynamic ? loc >> 16 : 16;
		uint64_t rt = sr_ld64(data + f[F_RUNTIME].offset);

		a = sr_ld32s(data + f[F_PID].offset);
		if ((uint32_t)a > SR_PID_MAX || len > 16 || off > size ||
		    len > size - off || rt >= 1000000000000000000ull)
			return FAST_NO;
		r->pid = a;
		/* a string at the record's end may be shorter than 16 */
		memcpy(r->comm, data + off, size - off >= 16 ? 16 : len);
		r->comm[len] = '\0';
		r->value = (int64_t)rt;
		break;
	}
	default:
		return FAST_NO;
	}
	r->kind = e->kind;
	r->irq = irq_of(data[f[F_COMMON_FLAGS].offset]);
	r->ctx_pid = cp >= 0 && cp <= SR_PID_MAX ? cp : -1;
	return SR_P_RAW;
}

int sr_tp_decode(struct sr_tp *t, struct sr_tp_event *e, const uint8_t *data,
		 size_t size, struct sr_raw *r, struct sr_fmtctx *c)
{
	const struct sr_tp_field *f = e->f;

	if (size < e->min_size)
		return sr_fmt_fail(c, "expected a sched:%s record of at least "
				   "%u bytes (its format), got %zu",
				   e->ev->name, e->min_size, size);
	r->kind = e->kind;
	if (f[F_COMMON_FLAGS].size)
		r->irq = irq_of(rd(t, data, &f[F_COMMON_FLAGS]));
	if (f[F_COMMON_PID].size) {
		int64_t p = (int64_t)rd(t, data, &f[F_COMMON_PID]);

		r->ctx_pid = p >= 0 && p <= SR_PID_MAX ? (int32_t)p : -1;
	}
	switch (e->kind) {
	case SR_EV_SWITCH:
		if (rd_pid(c, t, data, &f[F_PREV_PID], "prev_pid", &r->pid) ||
		    rd_pid(c, t, data, &f[F_NEXT_PID], "next_pid", &r->pid2) ||
		    rd_comm(c, t, data, size, &f[F_PREV_COMM], r->comm) ||
		    rd_comm(c, t, data, size, &f[F_NEXT_COMM], r->comm2))
			return SR_P_ERR;
		r->prio = rd_prio(t, data, &f[F_PREV_PRIO]);
		r->prio2 = rd_prio(t, data, &f[F_NEXT_PRIO]);
		state_of(t, e, rd(t, data, &f[F_PREV_STATE]), r->comm, r);
		return SR_P_RAW;
	case SR_EV_WAKING:
	case SR_EV_WAKEUP:
	case SR_EV_WAKEUP_NEW:
		if (rd_pid(c, t, data, &f[F_PID], "pid", &r->pid) ||
		    rd_comm(c, t, data, size, &f[F_COMM], r->comm))
			return SR_P_ERR;
		r->prio = rd_prio(t, data, &f[F_PRIO]);
		if (f[F_TARGET_CPU].size &&
		    rd_cpu(c, t, data, &f[F_TARGET_CPU], &r->target_cpu))
			return SR_P_ERR;
		if (f[F_SUCCESS].size && rd(t, data, &f[F_SUCCESS]) == 0) {
			/* try_to_wake_up() found it runnable: no wakeup */
			c->failed_wakeups++;
			return SR_P_NONE;
		}
		return SR_P_RAW;
	case SR_EV_FORK:
		if (rd_pid(c, t, data, &f[F_PARENT_PID], "parent_pid", &r->pid) ||
		    rd_pid(c, t, data, &f[F_CHILD_PID], "child_pid", &r->pid2) ||
		    rd_comm(c, t, data, size, &f[F_PARENT_COMM], r->comm) ||
		    rd_comm(c, t, data, size, &f[F_CHILD_COMM], r->comm2))
			return SR_P_ERR;
		return SR_P_RAW;
	case SR_EV_EXEC: {
		size_t len, base = 0;
		const char *s;

		if (rd_pid(c, t, data, &f[F_PID], "pid", &r->pid) ||
		    rd_pid(c, t, data, &f[F_OLD_PID], "old_pid", &r->pid2))
			return SR_P_ERR;
		if (rd_str(t, data, size, &f[F_FILENAME], &s, &len) != 0)
			return sr_fmt_fail(c, "expected sched_process_exec's "
					   "filename within the record's %zu "
					   "bytes, got one past its end", size);
		for (size_t i = 0; i < len; i++)
			if (s[i] == '/')
				base = i + 1;
		/* the kernel's new comm: the file name's last part, cut */
		if (len > base)
			sr_copy_comm(r->comm, s + base, len - base > 15 ? 15 :
				     len - base);
		return SR_P_RAW;
	}
	case SR_EV_EXIT:
	case SR_EV_FREE:
		if (rd_pid(c, t, data, &f[F_PID], "pid", &r->pid) ||
		    rd_comm(c, t, data, size, &f[F_COMM], r->comm))
			return SR_P_ERR;
		r->prio = rd_prio(t, data, &f[F_PRIO]);
		return SR_P_RAW;
	case SR_EV_MIGRATE:
		if (rd_pid(c, t, data, &f[F_PID], "pid", &r->pid) ||
		    rd_cpu(c, t, data, &f[F_ORIG_CPU], &r->orig_cpu) ||
		    rd_cpu(c, t, data, &f[F_DEST_CPU], &r->target_cpu) ||
		    rd_comm(c, t, data, size, &f[F_COMM], r->comm))
			return SR_P_ERR;
		r->prio = rd_prio(t, data, &f[F_PRIO]);
		return SR_P_RAW;
	case SR_EV_RUNTIME: {
		uint64_t rt = rd(t, data, &f[F_RUNTIME]);

		if (rd_pid(c, t, data, &f[F_PID], "pid", &r->pid) ||
		    rd_comm(c, t, data, size, &f[F_COMM], r->comm))
			return SR_P_ERR;
		if (rt >= 1000000000000000000ull)
			return sr_fmt_fail(c, "expected a runtime below 10^18 "
					   "ns, got %llu",
					   (unsigned long long)rt);
		r->value = (int64_t)rt;
		return SR_P_RAW;
	}
	default:
		return sr_fmt_fail(c, "internal: sched event kind %d", e->kind);
	}
}

int sr_tp_record(struct sr_tp *t, struct sr_tp_event *e, const uint8_t *data,
		 size_t size, uint64_t offset, struct sr_raw *out,
		 struct sr_fmtctx *c, struct sr_diag *d)
{
	int rc;

	if (e->fast && size >= e->min_size &&
	    decode_fast(t, e, data, size, out) == SR_P_RAW &&
	    out->cpu >= 0)
		return SR_P_RAW; /* sr_raw_check()'s rules hold: no fork */
	c->line = offset;
	c->d->code = SR_OK;     /* per record: not the whole 16 KiB message */
	c->d->msg[0] = '\0';
	rc = sr_tp_decode(t, e, data, size, out, c);
	if (rc == SR_P_RAW)
		rc = sr_raw_check(c, out);
	if (rc == SR_P_ERR)
		sr_fail(d, c->d->code, "%s", c->d->msg);
	return rc;
}
