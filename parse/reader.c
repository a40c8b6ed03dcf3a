/*
 * reader: the public face of parse/: opening and format detection, and
 * resolution of the merged raw records into struct sr_event: task ids
 * (parse/tasks.c), wake sources, lost-event ranges and the counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/binary.h"
#include "parse/merge.h"
#include "lib/grow.h"
#include "lib/progress.h"
#include "parse/context.h"
#include "parse/reader.h"
#include "parse/tasktab.h"

#define DETECT_BYTES (256 * 1024)
#define MAGIC_BYTES 16      /* a binary format's magic is in there */
/* Lost ranges kept one by one; beyond this, a cpu's later losses are
 * added to its last range, so memory stays bounded. */
#define LOST_RANGES_MAX 65536

/*
 * The input formats, one row each, in the order detection tries them: a
 * binary format by its magic bytes (then read from bytes), a text format
 * by the score its line decoder gives the input's head, ties going to the
 * earlier row (the more specific first).  --input-format, its help line
 * and every message that names the formats are made from this table: a
 * new format is its reader plus one row here.
 */
static const struct input_format {
	const char *name;   /* --input-format NAME */
	const char *what;   /* in "expected a scheduler trace (WHAT, ...)" */
	const struct sr_fmt_ops *text;          /* a text format's decoder */
	int (*is)(const char *head, size_t n);  /* a binary format's magic */
	int (*open)(struct sr_merge **m, struct sr_input *in,
		    const char *name, struct sr_context **ctx,
		    struct sr_diag *d);
} formats[] = {
	{ .name = "perf.data", .what = "perf.data",
	  .is = sr_is_perfdata, .open = sr_perfdata_open },
	{ .name = "trace.dat", .what = "trace.dat",
	  .is = sr_is_tracedat, .open = sr_tracedat_open },
	{ .name = "native", .what = "schedreplay native",
	  .text = &sr_fmt_native },
	{ .name = "systrace", .what = "systrace HTML",
	  .text = &sr_fmt_systrace },
	{ .name = "perf", .what = "perf script", .text = &sr_fmt_perf },
	{ .name = "trace-cmd", .what = "trace-cmd report",
	  .text = &sr_fmt_tracecmd },
	{ .name = "ftrace", .what = "ftrace", .text = &sr_fmt_ftrace },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

const char *sr_input_format_name(size_t i)
{
	return i < NFORMATS ? formats[i].name : NULL;
}

/* The formats' names or whats, text formats only if text_only, as "a, b
 * or c" into buf. */
static void format_list(char *buf, size_t len, bool whats, bool text_only)
{
	size_t n = 0, k = 0, last = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NFORMATS; i++)
		if (!text_only || formats[i].text)
			last = i;
	for (size_t i = 0; i < NFORMATS && n < len; i++) {
		if (text_only && !formats[i].text)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      !k++ ? "" : i == last ? " or " : ", ",
				      whats ? formats[i].what : formats[i].name);
	}
}

const char *sr_input_formats_help(void)
{
	static char help[256];

	if (!help[0]) {
		char list[200];

		format_list(list, sizeof(list), false, false);
		snprintf(help, sizeof(help), "%s (default: detect)", list);
	}
	return help;
}

struct pending_wake {
	uint8_t set;
	uint8_t wsrc;
	uint8_t wguess;
	sr_tid waker;
};

struct sr_reader {
	char *path;
	const char *fmt_name;     /* the format read */
	const struct sr_fmt_ops *ops;
	struct sr_patterns pat;
	struct sr_merge *merge;
	struct sr_tasks *tasks;
	struct sr_read_stats st;
	struct sr_lost_range *lost;
	size_t caplost;
	int64_t *cpu_last;        /* last delivered time per cpu (+1) */
	size_t *cpu_lost;         /* per cpu (+1): its last lost range + 1 */
	/* per cpu (+1): events lost by markers, by the tally, and the
	 * larger (what st.lost_cpu shows) */
	uint64_t *loss_mark, *loss_tally, *loss_cpu;
	size_t nloss;
	uint64_t marks_total;     /* every marker's count */
	int64_t *cpu_charged;     /* per cpu (+1): sched_stat_runtime total */
	size_t ncpu_last;
	struct pending_wake *pend; /* per task: a waking awaiting its wakeup */
	size_t npend;
	int done;
	size_t max_tasks;         /* SR_TASKS_LIMIT or less (opts) */
	uint64_t first_line;      /* line of the first event delivered */
	struct sr_progress *progress; /* or NULL */
	struct sr_context *context;   /* the recording's context, or NULL */
};

static const char *base_name(const char *p)
{
	return strcmp(p, "-") ? p : "<stdin>";
}

static int detect(struct sr_reader *r, struct sr_fmtctx *fc,
		  const char *head, size_t n, struct sr_diag *d)
{
	int best = 0;
	const struct input_format *pick = NULL;
	size_t k = 0;
	char why[512];

	while (k < n && (head[k] == ' ' || head[k] == '\t' || head[k] == '\n' ||
			 head[k] == '\r'))
		k++;
	if (k == n)
		return sr_fail(d, SR_EDATA, "%s: empty input: no trace lines",
			       base_name(r->path));
	for (size_t i = 0; i < NFORMATS; i++) {
		struct sr_fmtctx probe = *fc;
		int s;

		if (!formats[i].text)
			continue;
		probe.ops = formats[i].text;
		sr_match_clear(fc->pat);
		s = formats[i].text->detect(&probe, head, n);
		if (sr_match_error(fc->pat, why, sizeof(why)))
			return sr_fail(d, SR_EDATA, "%s: detecting the format "
				       "(%s): %s", base_name(r->path),
				       formats[i].name, why);
		if (s > best) {
			best = s;
			pick = &formats[i];
			fc->html = probe.html;
		}
	}
	if (!pick) {
		char q[120], whats[200];
		const char *nl = memchr(head + k, '\n', n - k);

		sr_quote(q, sizeof(q), head + k, nl ? (size_t)(nl - head - k)
						    : n - k);
		format_list(whats, sizeof(whats), true, true);
		return sr_fail(d, SR_EDATA, "%s:1: expected a scheduler trace "
			       "(%s), got '%s'", base_name(r->path), whats, q);
	}
	fc->ops = pick->text;
	r->fmt_name = pick->name;
	return SR_OK;
}

/* A native trace's context, read from the head before the events (the
 * replay wants it before the first event): the head is peeked further
 * while the "#context " block runs past it, up to NATIVE_CONTEXT_MAX. */
#define NATIVE_CONTEXT_MAX (64u << 20)

static int native_context(struct sr_reader *r, struct sr_input *in,
			  const char **head, size_t *n, struct sr_diag *d)
{
	size_t want = *n;
	int rc;

	/* the head holds all of the input when the peek gave less than it
	 * could: the input ended */
	while ((rc = sr_native_context(*head, *n, *n < want || *n == 0,
				       base_name(r->path), &r->context,
				       d)) == 1) {
		if (want >= NATIVE_CONTEXT_MAX)
			return sr_fail(d, SR_EDATA, "%s: expected the "
				       "recording context in the first %u MiB, "
				       "got more", base_name(r->path),
				       NATIVE_CONTEXT_MAX >> 20);
		want = *n * 4;
		if (sr_input_peek_grow(in, want, head, n, d) != SR_OK)
			return d->code;
	}
	return rc;
}

int sr_reader_open(struct sr_reader **rp, const char *path,
		   const struct sr_read_opts *opts, struct sr_diag *d)
{
	struct sr_reader *r;
	struct sr_input *in = NULL;
	struct sr_fmtctx fc;
	const char *head;
	size_t n;

	*rp = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return sr_oom(d);
	r->path = strdup(path);
	r->tasks = sr_tasks_new();
	if (!r->path || !r->tasks) {
		sr_reader_close(r);
		return sr_oom(d);
	}
	if (sr_input_open(&in, path, opts ? opts->input_buffer : 0, d) != SR_OK)
		goto fail;
	/* the magic bytes first: a binary input is read no further here */
	if (sr_input_peek(in, MAGIC_BYTES, &head, &n, d) != SR_OK)
		goto fail;
	for (size_t i = 0; i < NFORMATS; i++) {
		const struct input_format *f = &formats[i];
		int asked = opts && opts->format && !strcmp(opts->format,
							     f->name);

		if (!f->is || (!asked && ((opts && opts->format &&
					   strcmp(opts->format, "auto")) ||
					  !f->is(head, n))))
			continue;
		r->fmt_name = f->name;
		if (f->open(&r->merge, in, base_name(path), &r->context,
			    d) != SR_OK) {
			in = NULL;
			goto fail;
		}
		r->max_tasks = opts && opts->max_tasks &&
			       opts->max_tasks < SR_TASKS_LIMIT ? opts->max_tasks
								: SR_TASKS_LIMIT;
		*rp = r;
		return SR_OK;
	}
	if (sr_input_peek(in, DETECT_BYTES, &head, &n, d) != SR_OK ||
	    sr_patterns_init(&r->pat, d) != SR_OK)
		goto fail;
	memset(&fc, 0, sizeof(fc));
	fc.pat = &r->pat;
	fc.file = sr_input_name(in);
	fc.d = d;
	if (opts && opts->format && strcmp(opts->format, "auto") != 0) {
		for (size_t i = 0; i < NFORMATS; i++)
			if (formats[i].text &&
			    !strcmp(formats[i].name, opts->format)) {
				fc.ops = formats[i].text;
				r->fmt_name = formats[i].name;
			}
		if (!fc.ops) {
			char names[200];

			format_list(names, sizeof(names), false, false);
			sr_fail(d, SR_EUSAGE, "unknown input format '%s' "
				"(known: %s)", opts->format, names);
			goto fail;
		}
		if (n == 0) {
			sr_fail(d, SR_EDATA, "%s: empty input: no trace lines",
				base_name(path));
			goto fail;
		}
	} else if (detect(r, &fc, head, n, d) != SR_OK) {
		goto fail;
	}
	if (fc.ops == &sr_fmt_native && native_context(r, in, &head, &n, d))
		goto fail;
	sr_state_enc_guess(&fc, head, n);
	r->ops = fc.ops;
	if (sr_merge_open(&r->merge, in, path, &fc, opts && opts->lenient,
			  opts ? opts->reorder_window : 0, d) != SR_OK) {
		in = NULL;
		goto fail;
	}
	r->st.first_ts = r->st.last_ts = 0;
	r->progress = opts ? opts->progress : NULL;
	r->max_tasks = opts && opts->max_tasks &&
		       opts->max_tasks < SR_TASKS_LIMIT ? opts->max_tasks
							: SR_TASKS_LIMIT;
	*rp = r;
	return SR_OK;
fail:
	sr_input_close(in);
	sr_reader_close(r);
	return d->code ? d->code : SR_EINTERNAL;
}

void sr_reader_close(struct sr_reader *r)
{
	if (!r)
		return;
	sr_merge_close(r->merge);
	sr_patterns_free(&r->pat);
	sr_tasks_free(r->tasks);
	free(r->lost);
	free(r->cpu_last);
	free(r->cpu_charged);
	free(r->cpu_lost);
	free(r->loss_mark);
	free(r->loss_tally);
	free(r->loss_cpu);
	free(r->pend);
	free(r->path);
	sr_context_free(r->context);
	free(r);
}

const struct sr_tasks *sr_reader_tasks(const struct sr_reader *r)
{
	return r->tasks;
}

/* The loss arrays' slot of cpu (-1: unknown), grown; NULL: no memory. */
static int loss_grow(struct sr_reader *r, int32_t cpu, struct sr_diag *d)
{
	size_t i = (size_t)(cpu + 1), n = r->nloss, c;
	uint64_t *a;

	if (i < n)
		return SR_OK;
	c = n;
	if ((a = sr_grow(r->loss_mark, &c, i, sizeof(*a), 8, 0)))
		r->loss_mark = a;
	c = a ? n : c;
	if (a && (a = sr_grow(r->loss_tally, &c, i, sizeof(*a), 8, 0)))
		r->loss_tally = a;
	c = a ? n : c;
	if (a && (a = sr_grow(r->loss_cpu, &c, i, sizeof(*a), 8, 0)))
		r->loss_cpu = a;
	if (!a)
		return sr_oom(d);
	r->nloss = c;
	return SR_OK;
}

/*
 * Markers and tallies count the same loss (perf: the kernel's LOST
 * records of a cpu's ring buffer, and the lost samples perf record reads
 * from each event of that cpu at the end), so a cpu lost the larger of
 * the two; a tally whose cpu is unknown (text) counts every cpu's.
 */
static void loss_reconcile(const struct sr_reader *cr, uint64_t tally_any)
{
	struct sr_reader *r = (struct sr_reader *)cr;
	struct sr_read_stats *st = &r->st;
	uint64_t sum = 0, only_tally = 0;

	for (size_t i = 0; i < r->nloss; i++) {
		uint64_t m = r->loss_mark[i], t = r->loss_tally[i];

		r->loss_cpu[i] = m > t ? m : t;
		only_tally += m > t ? 0 : t - m;
		sum += r->loss_cpu[i];
	}
	if (tally_any > sum) {
		struct sr_diag nomem = SR_DIAG_INIT;

		only_tally += tally_any - sum;
		if (loss_grow(r, -1, &nomem) == SR_OK)
			r->loss_cpu[0] += tally_any - sum;
		sum = tally_any;
	}
	st->lost_events = sum > r->marks_total ? sum : r->marks_total;
	st->lost_tally = only_tally;
	st->lost_cpu = r->loss_cpu;
	st->nlost_cpu = r->nloss;
	st->tally_cpu = r->loss_tally;
	st->tally_nocpu = tally_any;
}

/* A tally (SR_DIR_TALLY): the recording's count for the cpu, summed. */
static int add_tally(struct sr_reader *r, const struct sr_raw *x,
		     struct sr_diag *d)
{
	if (x->value <= 0)
		return SR_OK;
	if (loss_grow(r, x->cpu, d))
		return -1;
	r->loss_tally[x->cpu + 1] += (uint64_t)x->value;
	return SR_OK;
}

const struct sr_read_stats *sr_reader_stats(const struct sr_reader *r)
{
	struct sr_read_stats *st = (struct sr_read_stats *)&r->st;
	struct sr_merge_counts c;

	if (r->merge) {
		sr_merge_counts(r->merge, &c);
		st->lines = c.lines;
		st->bad_lines = c.bad_lines;
		st->skipped_events = c.skipped_events;
		st->failed_wakeups = c.failed_wakeups;
		st->bytes = c.bytes;
		st->kway = c.kway;
		loss_reconcile(r, c.tally_lost);
	}
	st->lost = r->lost;
	return st;
}

const struct sr_context *sr_reader_context(const struct sr_reader *r)
{
	return r->context;
}

const char *sr_reader_format(const struct sr_reader *r)
{
	return r->fmt_name ? r->fmt_name : "?";
}

const char *sr_reader_path(const struct sr_reader *r)
{
	return base_name(r->path);
}

/* ---- resolution ---- */

static int64_t *cpu_grow(struct sr_reader *r, int32_t cpu, struct sr_diag *d)
{
	size_t i = (size_t)(cpu + 1), n = r->ncpu_last, c;
	int64_t *last, *charged;
	size_t *lost;

	/* three arrays by cpu, grown alike */
	c = n;
	if ((last = sr_grow(r->cpu_last, &c, i, sizeof(*last), 8, 0)))
		r->cpu_last = last;
	c = n;
	if ((charged = sr_grow(r->cpu_charged, &c, i, sizeof(*charged), 8, 0)))
		r->cpu_charged = charged;
	c = n;
	if ((lost = sr_grow(r->cpu_lost, &c, i, sizeof(*lost), 8, 0)))
		r->cpu_lost = lost;
	if (!last || !charged || !lost) {
		sr_oom(d);
		return NULL;
	}
	for (size_t k = n; k < c; k++)
		last[k] = INT64_MIN;
	r->ncpu_last = c;
	return &last[i];
}

/* The cpu's slot in the per-cpu arrays (grown out of line). */
static inline int64_t *cpu_slot(struct sr_reader *r, int32_t cpu,
				struct sr_diag *d)
{
	size_t i = (size_t)(cpu + 1);

	return i < r->ncpu_last ? &r->cpu_last[i] : cpu_grow(r, cpu, d);
}

static struct pending_wake *pend_grow(struct sr_reader *r, sr_tid t,
				      struct sr_diag *d)
{
	struct pending_wake *p = sr_grow(r->pend, &r->npend, t, sizeof(*p),
					 64, 0);

	if (!p) {
		sr_oom(d);
		return NULL;
	}
	r->pend = p;
	return &r->pend[t];
}

static inline struct pending_wake *pend_of(struct sr_reader *r, sr_tid t,
					   struct sr_diag *d)
{
	return t < r->npend ? &r->pend[t] : pend_grow(r, t, d);
}

/* The task a pid names on this cpu (pid 0 is the cpu's idle task). */
static inline sr_tid who(struct sr_reader *r, int32_t pid, const char *comm,
			 int32_t cpu, int64_t ts, int for_free,
			 struct sr_diag *d)
{
	if (pid == 0)
		return sr_tasks_idle(r->tasks, cpu, ts, d);
	return sr_tasks_pid(r->tasks, pid, comm, 1, for_free, ts, d);
}

static int add_lost(struct sr_reader *r, const struct sr_event *ev,
		    int64_t from, struct sr_diag *d)
{
	struct sr_lost_range *l;
	size_t *mine = &r->cpu_lost[ev->cpu + 1];

	if (loss_grow(r, ev->cpu, d))
		return -1;
	r->loss_mark[ev->cpu + 1] += (uint64_t)ev->value;
	r->marks_total += (uint64_t)ev->value;
	r->st.lost_events = r->marks_total;
	r->st.lost_chunks++;
	if (ev->value <= 0)
		r->st.lost_uncounted++;
	if (r->st.nlost >= LOST_RANGES_MAX && *mine) {
		l = &r->lost[*mine - 1];
		l->count += (uint64_t)ev->value;
		l->to_ts = ev->ts;
		return SR_OK;
	}
	l = sr_grow(r->lost, &r->caplost, r->st.nlost, sizeof(*l), 16, 0);
	if (!l)
		return sr_oom(d);
	r->lost = l;
	l = &r->lost[r->st.nlost++];
	l->cpu = ev->cpu;
	l->count = (uint64_t)ev->value;
	l->from_ts = from;
	l->to_ts = ev->ts;
	*mine = r->st.nlost;
	r->st.lost = r->lost;
	return SR_OK;
}

/* The source of a wakeup from the line's own context. */
static void ctx_source(struct sr_reader *r, const struct sr_raw *x,
		       struct sr_event *ev, struct sr_diag *d)
{
	ev->waker = SR_TID_NONE;
	if (x->irq == SR_CTX_HARDIRQ || x->irq == SR_CTX_NMI) {
		ev->wsrc = SR_WS_HARDIRQ;
	} else if (x->irq == SR_CTX_SOFTIRQ) {
		ev->wsrc = SR_WS_SOFTIRQ;
	} else if (x->ctx_pid == 0) {
		ev->wsrc = SR_WS_IDLE;
	} else if (x->ctx_pid > 0) {
		ev->wsrc = SR_WS_TASK;
		ev->wguess = 1;
		ev->waker = sr_tasks_pid(r->tasks, x->ctx_pid, x->ctx_comm, 0,
					 0, x->ts, d);
		if (x->ctx_tgid >= 0)
			sr_tasks_set_tgid(r->tasks, ev->waker, x->ctx_tgid);
	} else {
		ev->wsrc = SR_WS_UNKNOWN;
	}
}

static int resolve_wake(struct sr_reader *r, const struct sr_raw *x,
			struct sr_event *ev, struct sr_diag *d)
{
	struct pending_wake *pw;

	ev->task = who(r, x->pid, x->comm, x->target_cpu >= 0 ?
		       x->target_cpu : x->cpu, x->ts, 0, d);
	if (ev->task == SR_TID_NONE)
		return -1;
	pw = pend_of(r, ev->task, d);
	if (!pw)
		return -1;
	switch (x->by) {
	case SR_BY_PID:
		ev->wsrc = SR_WS_TASK;
		ev->wguess = x->guessed;
		ev->waker = sr_tasks_ref(r->tasks, x->by_pid, x->ts, d);
		break;
	case SR_BY_HARDIRQ: ev->wsrc = SR_WS_HARDIRQ; break;
	case SR_BY_SOFTIRQ: ev->wsrc = SR_WS_SOFTIRQ; break;
	case SR_BY_IDLE: ev->wsrc = SR_WS_IDLE; break;
	case SR_BY_UNKNOWN: ev->wsrc = SR_WS_UNKNOWN; break;
	default:
		pw = pend_of(r, ev->task, d);
		if (ev->kind == SR_EV_WAKEUP && pw->set) {
			ev->wsrc = pw->wsrc;
			ev->wguess = pw->wguess;
			ev->waker = pw->waker;
		} else {
			ctx_source(r, x, ev, d);
		}
		break;
	}
	if (d->code)
		return -1;
	pw = pend_of(r, ev->task, d);
	if (!pw)
		return -1;
	if (ev->kind == SR_EV_WAKING) {
		pw->set = 1;
		pw->wsrc = ev->wsrc;
		pw->wguess = ev->wguess;
		pw->waker = ev->waker;
	} else {
		pw->set = 0;
	}
	ev->target_cpu = x->target_cpu;
	ev->sync = x->sync;
	return 0;
}

/*
 * resolve() for the two events most records are, a switch and a runtime
 * charge, in one straight line: the same steps, the task looked up once.
 */
static int resolve_switch(struct sr_reader *r, const struct sr_raw *x,
			  struct sr_event *ev, struct sr_diag *d)
{
	struct sr_tasks *t = r->tasks;
	struct pending_wake *pw;
	struct sr_task *k;
	sr_tid a, b;

	a = who(r, x->pid, x->comm, x->cpu, x->ts, 0, d);
	if (a == SR_TID_NONE)
		return -1;
	b = who(r, x->pid2, x->comm2, x->cpu, x->ts, 0, d);
	if (b == SR_TID_NONE)
		return -1;
	*ev = (struct sr_event){
		.ts = x->ts, .line = x->line, .cpu = x->cpu, .kind = x->kind,
		.prev_state = x->state, .wsrc = SR_WS_UNKNOWN,
		.preempt = x->preempt, .task = a, .other = b,
		.waker = SR_TID_NONE, .prio = x->prio, .other_prio = x->prio2,
		.target_cpu = -1, .orig_cpu = -1,
	};
	k = sr_tasks_mut(t, a);
	sr_tasks_touch(t, a, x->ts);
	if (x->ctx_tgid >= 0 && x->ctx_pid == k->pid && k->pid > 0)
		sr_tasks_set_tgid(t, a, x->ctx_tgid);
	k->cpu = x->cpu;
	if (x->prio >= 0)
		k->prio = x->prio;
	if (b != a) {
		k = sr_tasks_mut(t, b);
		sr_tasks_touch(t, b, x->ts);
		k->cpu = x->cpu;
		if (x->prio2 >= 0)
			k->prio = x->prio2;
	}
	if (!(pw = pend_of(r, b, d)))
		return -1;
	pw->set = 0; /* running again: any waking is consumed */
	if (x->state == SR_STATE_DEAD || x->state == SR_STATE_ZOMBIE)
		sr_tasks_gone(t, a);
	return 1;
}

static int resolve_runtime(struct sr_reader *r, const struct sr_raw *x,
			   struct sr_event *ev, struct sr_diag *d)
{
	struct sr_tasks *t = r->tasks;
	struct sr_task *k;
	sr_tid a = who(r, x->pid, x->comm, x->cpu, x->ts, 0, d);

	if (a == SR_TID_NONE)
		return -1;
	*ev = (struct sr_event){
		.ts = x->ts, .line = x->line, .cpu = x->cpu, .kind = x->kind,
		.wsrc = SR_WS_UNKNOWN, .task = a, .other = SR_TID_NONE,
		.waker = SR_TID_NONE, .prio = x->prio, .other_prio = -1,
		.target_cpu = -1, .orig_cpu = -1, .value = x->value,
	};
	k = sr_tasks_mut(t, a);
	sr_tasks_touch(t, a, x->ts);
	if (x->ctx_tgid >= 0 && x->ctx_pid == k->pid && k->pid > 0)
		sr_tasks_set_tgid(t, a, x->ctx_tgid);
	if (x->prio >= 0)
		k->prio = x->prio;
	return 1;
}

/* 1: ev filled; 0: a directive, nothing to deliver; -1: error. */
static int resolve(struct sr_reader *r, const struct sr_raw *x,
		   struct sr_event *ev, struct sr_diag *d)
{
	struct sr_tasks *t = r->tasks;
	struct sr_task *k;
	sr_tid id;

	if (x->dir == SR_DIR_EVENT && x->kind == SR_EV_SWITCH)
		return resolve_switch(r, x, ev, d);
	if (x->dir == SR_DIR_EVENT && x->kind == SR_EV_RUNTIME)
		return resolve_runtime(r, x, ev, d);

	memset(ev, 0, sizeof(*ev));
	ev->ts = x->ts;
	ev->line = x->line;
	ev->cpu = x->cpu;
	ev->kind = x->kind;
	ev->prev_state = 0;
	ev->wsrc = SR_WS_UNKNOWN;
	ev->task = ev->other = ev->waker = SR_TID_NONE;
	ev->prio = x->prio;
	ev->other_prio = -1;
	ev->target_cpu = -1;
	ev->orig_cpu = -1;

	if (x->dir == SR_DIR_TASK) {
		id = x->pid == 0 ? sr_tasks_idle(t, x->cpu, x->ts, d)
				 : sr_tasks_declare(t, x->pid, x->comm, x->ts, d);
		if (id == SR_TID_NONE)
			return -1;
		if (x->pid == 0)
			sr_tasks_mark_declared(t, id);
		k = sr_tasks_mut(t, id);
		if (x->tgid >= 0)
			k->tgid = x->tgid;
		if (x->kthread)
			k->kthread = 1;
		if (x->prio >= 0)
			k->prio = x->prio;
		k->nice = x->nice;
		if (x->policy >= 0) {
			k->policy = x->policy;
			k->rtprio = x->rtprio;
		}
		if (x->running && x->cpu >= 0)
			k->cpu = x->cpu;
		return 0;
	}
	if (x->dir == SR_DIR_TALLY)
		return add_tally(r, x, d) ? -1 : 0;
	if (x->dir == SR_DIR_INFO) {
		id = who(r, x->pid, NULL, x->cpu, x->ts, 0, d);
		if (id == SR_TID_NONE)
			return -1;
		if (x->comm[0])
			sr_tasks_set_comm(t, id, x->comm);
		if (x->tgid >= 0)
			sr_tasks_set_tgid(t, id, x->tgid);
		if (x->kthread)
			sr_tasks_set_kthread(t, id);
		return 0;
	}

	switch (x->kind) {
	case SR_EV_SWITCH:
		ev->task = who(r, x->pid, x->comm, x->cpu, x->ts, 0, d);
		if (ev->task == SR_TID_NONE)
			return -1;
		ev->other = who(r, x->pid2, x->comm2, x->cpu, x->ts, 0, d);
		if (ev->other == SR_TID_NONE)
			return -1;
		ev->prev_state = x->state;
		ev->preempt = x->preempt;
		ev->other_prio = x->prio2;
		break;
	case SR_EV_WAKING:
	case SR_EV_WAKEUP:
	case SR_EV_WAKEUP_NEW:
		if (resolve_wake(r, x, ev, d) < 0)
			return -1;
		break;
	case SR_EV_FORK:
		ev->task = who(r, x->pid, x->comm, x->cpu, x->ts, 0, d);
		if (ev->task == SR_TID_NONE)
			return -1;
		ev->other = sr_tasks_fork(t, ev->task, x->pid2,
					  x->comm2[0] ? x->comm2 :
					  sr_tasks_get(t, ev->task)->comm,
					  x->ts, d);
		/* native: the child's thread group (its parent's for a
		   thread), known before anything reads the child */
		if (ev->other != SR_TID_NONE && x->dir == SR_DIR_EVENT &&
		    x->tgid >= 0)
			sr_tasks_set_tgid(t, ev->other, x->tgid);
		break;
	case SR_EV_EXEC:
		ev->task = who(r, x->pid2, NULL, x->cpu, x->ts, 0, d);
		if (ev->task == SR_TID_NONE)
			return -1;
		if (x->comm[0] &&
		    strcmp(x->comm, sr_tasks_get(t, ev->task)->comm) != 0)
			ev->other = sr_tasks_exec(t, ev->task, x->pid, x->comm,
						  x->ts, d);
		else
			ev->other = ev->task;
		break;
	case SR_EV_EXIT:
		ev->task = who(r, x->pid, x->comm, x->cpu, x->ts, 0, d);
		sr_tasks_exit(t, ev->task);
		break;
	case SR_EV_FREE:
		ev->task = who(r, x->pid, NULL, x->cpu, x->ts, 1, d);
		sr_tasks_freed(t, ev->task);
		break;
	case SR_EV_MIGRATE:
		ev->task = who(r, x->pid, x->comm, x->cpu, x->ts, 0, d);
		ev->orig_cpu = x->orig_cpu;
		ev->target_cpu = x->target_cpu;
		break;
	case SR_EV_RUNTIME:
		ev->task = who(r, x->pid, x->comm, x->cpu, x->ts, 0, d);
		ev->value = x->value;
		break;
	case SR_EV_NICE:
		ev->task = who(r, x->pid, NULL, x->cpu, x->ts, 0, d);
		ev->value = x->value;
		break;
	case SR_EV_SETSCHED:
		ev->task = who(r, x->pid, NULL, x->cpu, x->ts, 0, d);
		ev->value = x->value;
		ev->prio = x->rtprio;
		break;
	case SR_EV_LOST:
		ev->value = x->value;
		ev->prio = -1;
		break;
	default:
		return sr_fail(d, SR_EINTERNAL, "raw record of unknown kind %d",
			       x->kind), -1;
	}
	if (d->code)
		return -1;
	if ((ev->task == SR_TID_NONE && ev->kind != SR_EV_LOST) ||
	    (ev->kind == SR_EV_FORK && ev->other == SR_TID_NONE))
		return sr_fail(d, SR_EINTERNAL, "task not resolved"), -1;

	/* what the event tells about its tasks */
	if (ev->task != SR_TID_NONE) {
		k = sr_tasks_mut(t, ev->task);
		sr_tasks_touch(t, ev->task, ev->ts);
		if (x->ctx_tgid >= 0 && x->ctx_pid == k->pid && k->pid > 0)
			sr_tasks_set_tgid(t, ev->task, x->ctx_tgid);
		if (ev->kind == SR_EV_SWITCH)
			k->cpu = ev->cpu;
		else if (ev->kind == SR_EV_MIGRATE)
			k->cpu = ev->target_cpu;
		if (ev->kind == SR_EV_NICE)
			k->nice = (int32_t)ev->value;
		else if (ev->kind == SR_EV_SETSCHED) {
			k->policy = (int8_t)ev->value;
			k->rtprio = x->rtprio;
		} else if (x->prio >= 0 && ev->kind != SR_EV_LOST)
			k->prio = x->prio;
	}
	if (ev->other != SR_TID_NONE && ev->other != ev->task) {
		k = sr_tasks_mut(t, ev->other);
		sr_tasks_touch(t, ev->other, ev->ts);
		if (ev->kind == SR_EV_SWITCH) {
			k->cpu = ev->cpu;
			if (x->prio2 >= 0)
				k->prio = x->prio2;
		}
	}
	if (ev->waker != SR_TID_NONE)
		sr_tasks_touch(t, ev->waker, ev->ts);
	if (ev->kind == SR_EV_SWITCH) {
		struct pending_wake *pw = pend_of(r, ev->other, d);

		if (!pw)
			return -1;
		pw->set = 0; /* running again: any waking is consumed */
		if (ev->prev_state == SR_STATE_DEAD ||
		    ev->prev_state == SR_STATE_ZOMBIE)
			sr_tasks_gone(t, ev->task);
	}
	return 1;
}

/*
 * A cpu runs one task at a time, so the sched_stat_runtime charges it
 * records cannot add up to more than the trace time elapsed, plus what
 * the first charge of the task running at the start may hold from before
 * (at most SR_SPAN_MAX).  Beyond that the values are corrupt, and the
 * replay, which takes charges as CPU demand, would simulate years.
 */
static int charge_check(struct sr_reader *r, const struct sr_event *ev,
			struct sr_diag *d)
{
	int64_t *c, elapsed = r->st.events ? ev->ts - r->st.first_ts : 0;

	if (!cpu_slot(r, ev->cpu, d))
		return -1;
	c = &r->cpu_charged[ev->cpu + 1];
	/* *c <= elapsed + SR_SPAN_MAX, so neither side overflows */
	if (ev->value > elapsed + SR_SPAN_MAX - *c) {
		int64_t most = elapsed + SR_SPAN_MAX;
		uint64_t got = (uint64_t)*c + (uint64_t)ev->value;

		sr_fail(d, SR_EDATA, "%s:%llu: cpu %d: expected sched_stat_"
			"runtime charges totalling at most the trace time so far "
			"plus a day (%lld.%09lld s), got %llu.%09llu s: "
			"implausible runtime values (a cpu runs one task at a "
			"time)", base_name(r->path),
			(unsigned long long)ev->line, (int)ev->cpu,
			(long long)(most / 1000000000),
			(long long)(most % 1000000000),
			(unsigned long long)(got / 1000000000),
			(unsigned long long)(got % 1000000000));
		return -1;
	}
	*c += ev->value;
	return 0;
}

static int span_error(struct sr_reader *r, const struct sr_event *ev,
		      struct sr_diag *d)
{
	int64_t span = ev->ts - r->st.first_ts;

	sr_fail(d, SR_EDATA, "%s:%llu: expected a trace spanning at most "
		"%lld s, got an event at %lld.%09lld s, %lld.%09lld s after "
		"the first one (line %llu): a corrupt timestamp?",
		base_name(r->path), (unsigned long long)ev->line,
		(long long)(SR_SPAN_MAX / 1000000000),
		(long long)(ev->ts / 1000000000),
		(long long)(ev->ts % 1000000000),
		(long long)(span / 1000000000),
		(long long)(span % 1000000000),
		(unsigned long long)r->first_line);
	return -1;
}

/* A non-empty input that held no scheduler event is not a trace of
 * one: an error naming what the reader looked for, never zero rows. */
static int no_events(struct sr_reader *r, struct sr_diag *d)
{
	const struct sr_read_stats *st = sr_reader_stats(r);
	struct sr_merge_counts c;

	/* perf.data, trace.dat: records, not lines; the offset where they
	 * ended */
	if (!r->ops) {
		sr_merge_counts(r->merge, &c);
		return sr_fail(d, SR_EDATA, "%s:%llu: no scheduler events in "
			       "%llu record%s read as %s%s: expected samples of "
			       "the sched tracepoints (sched:sched_switch, "
			       "sched:sched_wakeup, ...)", base_name(r->path),
			       (unsigned long long)c.bytes,
			       (unsigned long long)st->lines,
			       st->lines == 1 ? "" : "s", r->fmt_name,
			       st->skipped_events ? " (other events only)" : ""),
		       -1;
	}
	return sr_fail(d, SR_EDATA, "%s: no scheduler events in %llu line%s "
		       "read as %s%s%s: expected %s", base_name(r->path),
		       (unsigned long long)st->lines, st->lines == 1 ? "" : "s",
		       r->fmt_name,
		       st->bad_lines ? ", all malformed and skipped" : "",
		       st->skipped_events ? " (other events only)" : "",
		       r->ops->expect ? r->ops->expect
				      : "sched_switch and sched_wakeup events"),
	       -1;
}

/* The progress display told how far the input is (every 1024 events). */
static void progress(struct sr_reader *r)
{
	struct sr_merge_counts c;

	sr_merge_counts(r->merge, &c);
	sr_progress_input(r->progress, c.file_read, c.file_size,
			  r->st.events);
}

int sr_reader_next(struct sr_reader *r, struct sr_event *ev,
		   struct sr_diag *d)
{
	const struct sr_raw *x;
	int rc;

	if (r->done)
		return 0;
	for (;;) {
		int64_t *last;

		rc = sr_merge_next(r->merge, &x, d);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			r->done = 1;
			if (r->progress)
				progress(r);
			return r->st.events ? 0 : no_events(r, d);
		}
		rc = resolve(r, x, ev, d);
		if (rc < 0)
			return -1;
		if (sr_tasks_n(r->tasks) > r->max_tasks)
			return sr_fail(d, SR_EDATA, "%s:%llu: expected at most "
				       "%zu task records, got more (pid reuse "
				       "and exec make new ones): the trace is "
				       "beyond the supported size",
				       base_name(r->path),
				       (unsigned long long)x->line,
				       r->max_tasks), -1;
		if (rc == 0)
			continue;
		if (r->st.events && ev->ts - r->st.first_ts > SR_SPAN_MAX)
			return span_error(r, ev, d);
		if (ev->kind == SR_EV_RUNTIME && charge_check(r, ev, d))
			return -1;
		last = cpu_slot(r, ev->cpu, d);
		if (!last)
			return -1;
		if (ev->kind == SR_EV_LOST &&
		    add_lost(r, ev, *last != INT64_MIN ? *last :
			     (r->st.events ? r->st.last_ts : ev->ts), d))
			return -1;
		*last = ev->ts;
		if (r->st.events == 0) {
			r->st.first_ts = ev->ts;
			r->first_line = ev->line;
		}
		r->st.last_ts = ev->ts;
		r->st.events++;
		r->st.by_kind[ev->kind]++;
		if (ev->cpu + 1 > r->st.ncpus)
			r->st.ncpus = ev->cpu + 1;
		if (r->progress && (r->st.events & 1023) == 0)
			progress(r);
		return 1;
	}
}
