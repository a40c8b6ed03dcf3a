/*
 * fmt-tracedat: trace-cmd's trace.dat (file versions 6 and 7, with or
 * without instance buffers) through libtracecmd, without running
 * trace-cmd.  libtracecmd reads the file's sections, pages and event
 * formats; records are decoded through their formats (tracepoint.c).
 *
 * Order: each cpu of each buffer is a stream in time order; the streams
 * are merged here the way `trace-cmd report` merges them (the earliest
 * record first; on a tie the top buffer before the instances, in the
 * file's order, then the lower cpu), so the text and the binary give the
 * same sequence, and the cross-cpu merge (merge.h) passes it on in
 * order.  A record that follows dropped events (libtracecmd's
 * missed_events) is preceded by a lost-events marker on its cpu at its
 * time, as trace-cmd report prints "CPU:N [M EVENTS DROPPED]" before it.
 *
 * libtracecmd trusts the file: before handing it over, tdcheck.c walks
 * its layout and refuses what would make libtracecmd read past the end
 * (a file cut short), with FILE:OFFSET.
 *
 * A file `schedreplay record` wrote carries the recording's context in an
 * option of its own (tdwrite.h); it is read here (ctxtext.h) and handed
 * to the reader.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "parse/binary.h"
#include "parse/ctxtext.h"
#include "parse/tdcheck.h"
#include "parse/tracepoint.h"

struct stream {
	struct tracecmd_input *h;
	struct sr_tp *tp;
	int cpu;
	struct tep_record *rec;   /* its next record, NULL when done */
};

struct td {
	struct tracecmd_input *top;
	struct tracecmd_input **inst;  /* instance handles */
	size_t ninst;
	struct sr_tp *tps;             /* one per handle */
	struct stream *s;
	size_t ns;
	uint32_t *heap;                /* stream indices, min (ts, index) */
	size_t hn;
	struct tep_record *cur;        /* the record handed out last */
	struct tracecmd_input *cur_h;  /* its buffer */
	struct sr_tp *cur_tp;
	int cur_lost;                  /* the key handed out is its marker */
	int pend_lost;                 /* cur's marker went, cur is next */
	uint64_t size;
	struct sr_bin bin;             /* name, decoder context, counts */
};

int sr_is_tracedat(const char *head, size_t n)
{
	return n >= 10 && !memcmp(head, SR_TRACING_MAGIC, 10);
}

static int s_less(const struct td *t, uint32_t a, uint32_t b)
{
	const struct tep_record *x = t->s[a].rec, *y = t->s[b].rec;

	return x->ts < y->ts || (x->ts == y->ts && a < b);
}

static void sift_down(struct td *t, size_t i)
{
	uint32_t x = t->heap[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= t->hn)
			break;
		if (c + 1 < t->hn && s_less(t, t->heap[c + 1], t->heap[c]))
			c++;
		if (!s_less(t, t->heap[c], x))
			break;
		t->heap[i] = t->heap[c];
		i = c;
	}
	t->heap[i] = x;
}

static int td_fail_record(struct td *t, const struct tep_record *r,
			  struct sr_diag *d, const char *what)
{
	return sr_fail(d, SR_EDATA, "%s:%llu: %s", t->bin.file,
		       (unsigned long long)r->offset, what);
}

/*
 * libtracecmd and libtraceevent say nothing of an allocation that failed
 * inside them: a record not read looks like the end of a cpu's data, a
 * format missing a field like a bad file.  errno, ENOMEM after the call
 * (cleared before it), tells: out of memory, said as such.
 */
static int lib_oom(const struct td *t, const char *what, int n,
		   struct sr_diag *d)
{
	if (n < 0)
		return sr_fail(d, SR_ENOMEM, "%s: out of memory (libtracecmd, "
			       "%s)", t->bin.file, what);
	return sr_fail(d, SR_ENOMEM, "%s: out of memory (libtracecmd, %s %d)",
		       t->bin.file, what, n);
}

static int td_next(void *ctx, struct sr_rkey *k, struct sr_diag *d)
{
	struct td *t = ctx;

	if (t->pend_lost) {
		/* the record whose marker went out last */
		t->pend_lost = 0;
		t->cur_lost = 0;
		k->ts = (int64_t)t->cur->ts;
		k->seq = t->cur->offset;
		return SR_RS_REC;
	}
	for (;;) {
		struct stream *s;
		struct sr_tp_event *e;
		uint32_t i;
		int id;

		if (t->cur) {
			tracecmd_free_record(t->cur);
			t->cur = NULL;
		}
		if (t->hn == 0)
			return SR_RS_END;
		i = t->heap[0];
		s = &t->s[i];
		t->cur = s->rec;
		t->cur_h = s->h;
		t->cur_tp = s->tp;
		errno = 0;
		s->rec = tracecmd_read_data(s->h, s->cpu);
		if (!s->rec && errno == ENOMEM)
			return lib_oom(t, "reading cpu", s->cpu, d), SR_RS_ERR;
		if (s->rec)
			sift_down(t, 0);
		else {
			t->heap[0] = t->heap[--t->hn];
			if (t->hn)
				sift_down(t, 0);
		}
		t->bin.records++;
		if (t->cur->ts > (unsigned long long)INT64_MAX)
			return td_fail_record(t, t->cur, d, "impossible "
					      "timestamp: beyond the 64-bit "
					      "nanosecond range"), SR_RS_ERR;
		if (t->cur->size < 2)
			return td_fail_record(t, t->cur, d, "expected an event "
					      "record of at least 2 bytes (its "
					      "type), got less"), SR_RS_ERR;
		id = tep_data_type(tracecmd_get_tep(s->h), t->cur);
		e = sr_tp_find(t->cur_tp, id);
		if (t->cur->missed_events) {
			/* the marker first, at the record's time */
			t->cur_lost = 1;
			t->pend_lost = e != NULL;
			k->ts = (int64_t)t->cur->ts;
			k->seq = t->cur->offset;
			if (!e)
				t->bin.skipped++;
			return SR_RS_REC;
		}
		if (!e) {
			t->bin.skipped++;
			continue;
		}
		t->cur_lost = 0;
		k->ts = (int64_t)t->cur->ts;
		k->seq = t->cur->offset;
		return SR_RS_REC;
	}
}

static int td_decode(void *ctx, const struct sr_rkey *k, struct sr_raw *out,
		     struct sr_diag *d)
{
	struct td *t = ctx;
	struct tep_record *r = t->cur;
	struct tep_handle *tep;
	struct sr_tp_event *e;
	const char *comm;
	int rc;

	out->line = r->offset;
	out->seq = k->seq;
	out->ts = (int64_t)r->ts;
	if (r->cpu < 0 || r->cpu >= SR_CPU_MAX)
		return td_fail_record(t, r, d, "cpu number out of range"),
		       SR_P_ERR;
	out->cpu = r->cpu;
	if (t->cur_lost) {
		out->kind = SR_EV_LOST;
		out->value = r->missed_events > 0 ? r->missed_events : 0;
		if (out->value > UINT32_MAX)
			out->value = UINT32_MAX;
		return SR_P_RAW;
	}
	tep = tracecmd_get_tep(t->cur_h);
	e = sr_tp_find(t->cur_tp, tep_data_type(tep, r));
	rc = sr_tp_record(t->cur_tp, e, r->data, (size_t)r->size, r->offset,
			  out, &t->bin.fc, d);
	if (rc != SR_P_RAW)
		return rc;
	if (out->ctx_pid > 0) {
		comm = tep_data_comm_from_pid(tep, out->ctx_pid);
		/* "<...>": the saved command lines do not name it */
		if (comm && strcmp(comm, "<...>") != 0)
			sr_copy_comm(out->ctx_comm, comm, strlen(comm));
	}
	return SR_P_RAW;
}

static void td_counts(void *ctx, struct sr_merge_counts *c)
{
	struct td *t = ctx;

	sr_bin_counts(&t->bin, c);
	c->bytes = t->size;
}

static void td_close(void *ctx)
{
	struct td *t = ctx;

	if (!t)
		return;
	if (t->cur)
		tracecmd_free_record(t->cur);
	for (size_t i = 0; i < t->ns; i++)
		if (t->s[i].rec)
			tracecmd_free_record(t->s[i].rec);
	for (size_t i = 0; i < t->ninst; i++)
		if (t->inst[i])
			tracecmd_close(t->inst[i]);
	if (t->top)
		tracecmd_close(t->top);
	free(t->inst);
	free(t->tps);
	free(t->s);
	free(t->heap);
	free(t->bin.file);
	free(t);
}

static const struct sr_rsrc_ops td_ops = {
	.ordered = 1,
	.next = td_next,
	.decode = td_decode,
	.counts = td_counts,
	.close = td_close,
};

/*
 * Streams for every cpu of handle h (index hi among the handles).  The
 * cpus are asked for by number, up to the highest number a buffer lists
 * (cpu_end, from tdcheck), not up to the file's cpu count: a version 7
 * buffer of cpus 0 and 2 has a count of 2, and cpu 2's records would be
 * left unread.  A number without data gives no stream.
 */
static int add_streams(struct td *t, struct tracecmd_input *h, size_t hi,
		       uint32_t cpu_end, struct sr_diag *d)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	int ncpu = tep ? tep_get_cpus(tep) : 0;
	struct stream *s;

	if (ncpu >= 0 && (uint32_t)ncpu < cpu_end)
		ncpu = (int)cpu_end;

	t->bin.fc.line = 0;
	t->bin.scratch = (struct sr_diag)SR_DIAG_INIT;
	if (sr_tp_init(&t->tps[hi], tep, SR_ENC_UNKNOWN, &t->bin.fc) != SR_OK)
		return sr_fail(d, SR_EDATA, "%s", t->bin.scratch.msg);
	if (ncpu < 0 || ncpu > SR_CPU_MAX)
		return sr_fail(d, SR_EDATA, "%s:0: expected at most %d cpus, got "
			       "%d", t->bin.file, SR_CPU_MAX, ncpu);
	s = realloc(t->s, (t->ns + (size_t)ncpu) * sizeof(*s));
	if (!s)
		return sr_oom(d);
	t->s = s;
	for (int c = 0; c < ncpu; c++) {
		struct stream *x = &t->s[t->ns];

		x->h = h;
		x->tp = &t->tps[hi];
		x->cpu = c;
		errno = 0;
		x->rec = tracecmd_read_cpu_first(h, c);
		if (!x->rec && errno == ENOMEM)
			return lib_oom(t, "reading cpu", c, d);
		if (x->rec)
			t->ns++;
	}
	return SR_OK;
}

/* The context option's text, read from the file before libtracecmd
 * takes the descriptor. */
static int read_context(int fd, const struct sr_tdinfo *ti, const char *file,
			struct sr_context **ctx, struct sr_diag *d)
{
	char *buf;
	size_t got = 0;
	int rc;

	if (!ti->ctx_len)
		return SR_OK;
	if (ti->ctx_len > (64u << 20))
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a recording "
			       "context of at most 64 MiB, got %llu bytes",
			       file, (unsigned long long)ti->ctx_at,
			       (unsigned long long)ti->ctx_len);
	buf = malloc((size_t)ti->ctx_len);
	if (!buf)
		return sr_oom(d);
	while (got < ti->ctx_len) {
		ssize_t k = pread(fd, buf + got, (size_t)ti->ctx_len - got,
				  (off_t)(ti->ctx_at + got));

		if (k <= 0) {
			free(buf);
			return sr_fail(d, SR_EIO, "%s: reading its context: "
				       "%s", file, k < 0 ? strerror(errno)
							 : "short read");
		}
		got += (size_t)k;
	}
	rc = sr_ctxtext_parse(ctx, buf, got, file, ti->ctx_at, d);
	free(buf);
	return rc;
}

int sr_tracedat_open(struct sr_merge **m, struct sr_input *in,
		     const char *name, struct sr_context **ctx,
		     struct sr_diag *d)
{
	struct td *t = calloc(1, sizeof(*t));
	int fd = -1, n;
	uint32_t cpu_end = 0;
	struct sr_tdinfo ti;

	*m = NULL;
	*ctx = NULL;
	if (!t) {
		sr_input_close(in);
		return sr_oom(d);
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (sr_bin_start(&t->bin, in, name, &fd, d) != SR_OK)
		goto fail;
	if (sr_tdcheck(fd, t->bin.file, &ti, d) != SR_OK ||
	    read_context(fd, &ti, t->bin.file, ctx, d) != SR_OK)
		goto fail;
	t->size = ti.size;
	cpu_end = ti.cpus;
	errno = 0;
	t->top = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS |
				  TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (errno == ENOMEM) {
		if (!t->top)
			close(fd);
		fd = -1;
		lib_oom(t, "opening the file", -1, d);
		goto fail;
	}
	if (!t->top) {
		sr_fail(d, SR_EDATA, "%s:0: expected a trace.dat libtracecmd "
			"can read (file version 6 or 7), got one it refuses: "
			"corrupt, or written by a newer trace-cmd", t->bin.file);
		goto fail;
	}
	fd = -1; /* the handle's now */
	n = tracecmd_buffer_instances(t->top);
	if (n < 0)
		n = 0;
	t->inst = calloc((size_t)n + 1, sizeof(*t->inst));
	t->tps = calloc((size_t)n + 1, sizeof(*t->tps));
	if (!t->inst || !t->tps) {
		sr_oom(d);
		goto fail;
	}
	if (add_streams(t, t->top, 0, cpu_end, d) != SR_OK)
		goto fail;
	for (int i = 0; i < n; i++) {
		errno = 0;
		t->inst[i] = tracecmd_buffer_instance_handle(t->top, i);
		if (errno == ENOMEM) {
			if (t->inst[i])
				t->ninst = (size_t)i + 1;
			lib_oom(t, "opening instance buffer", i, d);
			goto fail;
		}
		if (!t->inst[i]) {
			sr_fail(d, SR_EDATA, "%s:0: expected instance buffer %d "
				"(%s) to open, got an error: corrupt trace.dat",
				t->bin.file, i,
				tracecmd_buffer_instance_name(t->top, i) ?
				tracecmd_buffer_instance_name(t->top, i) : "?");
			goto fail;
		}
		t->ninst = (size_t)i + 1;
		if (add_streams(t, t->inst[i], (size_t)i + 1, cpu_end,
				d) != SR_OK)
			goto fail;
	}
	t->heap = malloc((t->ns + 1) * sizeof(*t->heap));
	if (!t->heap) {
		sr_oom(d);
		goto fail;
	}
	for (size_t i = 0; i < t->ns; i++)
		t->heap[t->hn++] = (uint32_t)i;
	for (size_t i = t->hn; i-- > 0;)
		sift_down(t, i);
	return sr_merge_open_records(m, &td_ops, t, name, d);
fail:
	if (fd >= 0)
		close(fd);
	td_close(t);
	sr_context_free(*ctx);
	*ctx = NULL;
	return d->code ? d->code : SR_EINTERNAL;
}
