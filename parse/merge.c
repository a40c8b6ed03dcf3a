/*
 * merge: cross-cpu time ordering (see merge.h for the strategy): the
 * reorder window, its slots in memory or spilled to a file, and the
 * choice of a per-cpu merge (parse/merge-kway.c); a record source's keys
 * are merged in parse/merge-keys.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fmt.h"
#include "lib/grow.h"
#include "lib/path.h"
#include "parse/merge-int.h"
#include "parse/merge.h"

/* A window entry carries its key, so ordering stays in cache. */
struct hent {
	int64_t ts;
	uint64_t seq;
	uint32_t idx;
};

static inline int hent_less(const struct hent *a, const struct hent *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

/*
 * A record waiting in the window, packed: the fields before the names as
 * they are, the three names one after the other (most are short, the
 * native format's usually empty), so a full window takes four fifths of the
 * memory of whole records (their names are 3 x SR_COMM_MAX bytes); names
 * too long for the slot go to a block of their own.
 */
#define RAW_HEAD offsetof(struct sr_raw, ctx_comm)
#define SLOT_NAMES 48

struct slot {
	_Alignas(8) unsigned char head[RAW_HEAD];
	char *over;                 /* the names, when they do not fit */
	char names[SLOT_NAMES];     /* ctx_comm, comm, comm2, each ended */
};

static int slot_pack(struct slot *s, const struct sr_raw *r)
{
	size_t a = strlen(r->ctx_comm) + 1, b = strlen(r->comm) + 1;
	size_t c = strlen(r->comm2) + 1;
	char *p = s->names;

	memcpy(s->head, r, RAW_HEAD);
	s->over = NULL;
	if (a + b + c > SLOT_NAMES) {
		p = s->over = malloc(a + b + c);
		if (!p)
			return SR_ENOMEM;
	}
	memcpy(p, r->ctx_comm, a);
	memcpy(p + a, r->comm, b);
	memcpy(p + a + b, r->comm2, c);
	return SR_OK;
}

/* The record back, whole, into *r; the slot is free afterwards. */
static void slot_unpack(struct slot *s, struct sr_raw *r)
{
	const char *p = s->over ? s->over : s->names;
	size_t a = strlen(p) + 1, b = strlen(p + a) + 1;

	memcpy(r, s->head, RAW_HEAD);
	memcpy(r->ctx_comm, p, a);
	memcpy(r->comm, p + a, b);
	memcpy(r->comm2, p + a + b, strlen(p + a + b) + 1);
	free(s->over);
	s->over = NULL;
}

static int32_t slot_cpu(const struct slot *s)
{
	int32_t c;

	memcpy(&c, s->head + offsetof(struct sr_raw, cpu), sizeof(c));
	return c;
}
static int slots_init(struct slots *st, size_t total, size_t nmem)
{
	memset(st, 0, sizeof(*st));
	st->total = total;
	st->nmem = nmem < total ? nmem : total;
	st->fd = -1;
	st->rblk = UINT32_MAX;
	st->mem = malloc(st->nmem * sizeof(*st->mem));
	st->mfree = malloc(st->nmem * sizeof(*st->mfree));
	if (!st->mem || !st->mfree)
		return SR_ENOMEM;
	for (size_t i = 0; i < st->nmem; i++)
		st->mfree[i] = (uint32_t)(st->nmem - 1 - i);
	st->nmfree = st->nmem;
	return SR_OK;
}

/* Make the file; without one, the memory grows to every slot instead. */
static int spill_open(struct slots *st)
{
	size_t old = st->nmem;
	struct slot *all;
	uint32_t *fr;

	st->fd = sr_tmpfile("schedreplay-merge");
	if (st->fd >= 0) {
		/* zeroed: the names' unused bytes go to the file too */
		st->wbuf = calloc(SPILL_BLOCK, sizeof(*st->wbuf));
		st->rbuf = malloc(SPILL_BLOCK * sizeof(*st->rbuf));
		return st->wbuf && st->rbuf ? SR_OK : SR_ENOMEM;
	}
	all = realloc(st->mem, st->total * sizeof(*all));
	if (!all)
		return SR_ENOMEM;
	st->mem = all;
	fr = realloc(st->mfree, st->total * sizeof(*fr));
	if (!fr)
		return SR_ENOMEM;
	st->mfree = fr;
	for (size_t i = st->total; i-- > old;)
		st->mfree[st->nmfree++] = (uint32_t)i;
	st->nmem = st->total;
	return SR_OK;
}

static off_t blk_at(uint32_t b)
{
	return (off_t)b * (off_t)(SPILL_BLOCK * sizeof(struct slot));
}

/* Write the block being filled out, and close it. */
static int wbuf_flush(struct slots *st)
{
	size_t n = SPILL_BLOCK * sizeof(*st->wbuf);

	errno = 0;
	if (pwrite(st->fd, st->wbuf, n, blk_at(st->wblk)) != (ssize_t)n)
		return SR_EIO;
	if (st->rblk == st->wblk)
		st->rblk = UINT32_MAX;
	st->wn = 0;
	return SR_OK;
}

/* Block b holds no record any more: it may be filled again. */
static int blk_free(struct slots *st, uint32_t b)
{
	uint32_t *v = sr_grow(st->bfree, &st->capbfree, st->nbfree,
			      sizeof(*v), 64, 0);

	if (!v)
		return SR_ENOMEM;
	st->bfree = v;
	st->bfree[st->nbfree++] = b;
	if (st->rblk == b)
		st->rblk = UINT32_MAX;
	return SR_OK;
}

/* A slot for a new record: in memory if one is free, else in the file. */
static int slots_alloc(struct slots *st, uint32_t *idx)
{
	int rc;

	/* the first time memory is full: the file, or more memory */
	if (!st->nmfree && st->fd < 0 && (rc = spill_open(st)) != SR_OK)
		return rc;
	if (st->nmfree) {
		*idx = st->mfree[--st->nmfree];
		return SR_OK;
	}
	if (st->wn == SPILL_BLOCK) { /* full: out, unless all have left */
		rc = st->live[st->wblk] ? wbuf_flush(st) :
					  blk_free(st, st->wblk);
		if (rc != SR_OK)
			return rc;
		st->wn = 0;
	}
	if (st->wn == 0) { /* open a block */
		if (st->nbfree) {
			st->wblk = st->bfree[--st->nbfree];
		} else {
			uint16_t *l = sr_grow(st->live, &st->capblk, st->nblk,
					      sizeof(*l), 64, 0);

			if (!l || st->nblk >= (UINT32_MAX - st->nmem) /
						       SPILL_BLOCK)
				return SR_ENOMEM;
			st->live = l;
			st->wblk = (uint32_t)st->nblk++;
		}
		st->live[st->wblk] = 0;
	}
	st->live[st->wblk]++;
	*idx = (uint32_t)(st->nmem + (size_t)st->wblk * SPILL_BLOCK + st->wn++);
	return SR_OK;
}

/* The slot idx refers to, read in if it is in the file (NULL: error). */
static struct slot *slots_get(struct slots *st, uint32_t idx)
{
	size_t f;
	uint32_t b;
	size_t n = SPILL_BLOCK * sizeof(*st->rbuf);

	if (idx < st->nmem)
		return &st->mem[idx];
	f = idx - st->nmem;
	b = (uint32_t)(f / SPILL_BLOCK);
	if (st->wn && b == st->wblk)
		return &st->wbuf[f % SPILL_BLOCK];
	if (b != st->rblk) {
		errno = 0;
		if (pread(st->fd, st->rbuf, n, blk_at(b)) != (ssize_t)n)
			return NULL;
		st->rblk = b;
	}
	return &st->rbuf[f % SPILL_BLOCK];
}

/* Slot idx has left: free it (its block, when the block's last). */
static int slots_release(struct slots *st, uint32_t idx)
{
	uint32_t b;

	if (idx < st->nmem) {
		st->mfree[st->nmfree++] = idx;
		return SR_OK;
	}
	b = (uint32_t)((idx - st->nmem) / SPILL_BLOCK);
	if (--st->live[b] || (st->wn && b == st->wblk))
		return SR_OK;
	return blk_free(st, b);
}

/* Record r into a new slot; its number in *idx. */
static int slots_put(struct slots *st, const struct sr_raw *r, uint32_t *idx)
{
	int rc = slots_alloc(st, idx);

	return rc ? rc : slot_pack(slots_get(st, *idx), r);
}

/* The record of slot idx into *r (whole); the slot is free afterwards. */
static int slots_take(struct slots *st, uint32_t idx, struct sr_raw *r)
{
	struct slot *s = slots_get(st, idx);

	if (!s)
		return SR_EIO;
	slot_unpack(s, r);
	return slots_release(st, idx);
}

/* The cpu of slot idx; -2 on a read error. */
static int32_t slots_cpu(struct slots *st, uint32_t idx)
{
	struct slot *s = slots_get(st, idx);

	return s ? slot_cpu(s) : -2;
}

/* Forget slot idx's record (only its names need freeing). */
static void slots_drop(struct slots *st, uint32_t idx)
{
	struct slot *s = slots_get(st, idx);

	if (s) {
		free(s->over);
		s->over = NULL;
	}
}

static void slots_fini(struct slots *st)
{
	free(st->mem);
	free(st->mfree);
	free(st->live);
	free(st->bfree);
	free(st->wbuf);
	free(st->rbuf);
	if (st->fd >= 0)
		close(st->fd);
	memset(st, 0, sizeof(*st));
	st->fd = -1;
}

/* A slot could not be stored or read back: memory, or the file's errno. */
static int spill_fail(struct sr_merge *m, struct sr_diag *d)
{
	if (m->pool.fd < 0 || errno == ENOMEM)
		return sr_oom(d);
	return sr_fail(d, SR_EIO, "%s: the merge window's temporary file "
		       "(in %s): %s", m->path, sr_tmpdir(),
		       errno ? strerror(errno) : "short read or write");
}

/* A cpu's own records must not go back in time. */
int mg_check_cpu_order(struct sr_merge *m, const struct sr_raw *r,
			   const char *file, struct sr_diag *d)
{
	size_t i = (size_t)(r->cpu + 1);

	if (i >= m->narr) {
		/* two arrays by cpu, grown alike */
		size_t n = m->narr, c = n;
		int64_t *t = sr_grow(m->arr_ts, &c, i, sizeof(*t), 8, 0);
		uint64_t *l;

		if (t)
			m->arr_ts = t;
		c = n;
		l = sr_grow(m->arr_line, &c, i, sizeof(*l), 8, 0);
		if (l)
			m->arr_line = l;
		if (!t || !l)
			return sr_oom(d);
		for (size_t k = n; k < c; k++)
			t[k] = INT64_MIN;
		m->narr = c;
	}
	if (m->arr_ts[i] == INT64_MIN)
		m->wm_valid = 0; /* a new cpu: the watermark may go down */
	if (r->ts < m->arr_ts[i]) {
		char a[32], b[32];

		sr_fmt_s(a, sizeof(a), r->ts, 9);
		sr_fmt_s(b, sizeof(b), m->arr_ts[i], 9);
		return sr_fail(d, SR_EDATA, "%s:%llu: cpu %d: time goes "
			       "backwards: %s after %s (line %llu)", file,
			       (unsigned long long)r->line, (int)r->cpu, a, b,
			       (unsigned long long)m->arr_line[i]);
	}
	m->arr_ts[i] = r->ts;
	m->arr_line[i] = r->line;
	return SR_OK;
}

/*
 * The watermark: no cpu seen so far can still produce a record older than
 * the oldest of their latest times (each cpu's own records are in order),
 * so a record at or before it may leave the window early.  Records of
 * unknown cpu (-1) do not hold it back.  ncpus_seen counts the cpus.
 */
static int64_t watermark(const struct sr_merge *m, int *ncpus_seen)
{
	int64_t wm = INT64_MAX;
	int n = 0;

	for (size_t i = 1; i < m->narr; i++) {
		if (m->arr_ts[i] == INT64_MIN)
			continue;
		n++;
		if (m->arr_ts[i] < wm)
			wm = m->arr_ts[i];
	}
	*ncpus_seen = n;
	return wm;
}

/* ---- the reorder window: a ring of entries sorted by (ts, seq) ----
 *
 * In-order input (the usual case) appends at the tail in O(1); a record
 * older than the tail is inserted by moving the newer entries up one slot,
 * which costs as much as the record is out of order.
 */

static inline struct hent *ring_at(struct sr_merge *m, size_t i)
{
	return &m->heap[(m->head + i) % m->rcap];
}

static void heap_push(struct sr_merge *m, uint32_t idx, const struct sr_raw *r)
{
	struct hent e = { r->ts, r->seq, idx };
	size_t i = m->hn;

	/* find the slot: walk down from the tail while e is older */
	while (i > 0 && hent_less(&e, ring_at(m, i - 1))) {
		*ring_at(m, i) = *ring_at(m, i - 1);
		i--;
	}
	*ring_at(m, i) = e;
	m->hn++;
}

static uint32_t heap_pop(struct sr_merge *m)
{
	uint32_t top = ring_at(m, 0)->idx;

	m->head = (m->head + 1) % m->rcap;
	m->hn--;
	return top;
}

/*
 * Decide whether the window is enough or the input is per-cpu blocks that
 * need one cursor per cpu: when the first window fills with one cpu, or
 * (behind) when a cpu first appears older than records already in the
 * window, before anything has left it.  A sorted or interleaved input never
 * shows a new cpu behind the others; blocks of three or more cpus do, each
 * after the window has begun to release the first two.
 */
static int decide(struct sr_merge *m, int behind, struct sr_diag *d)
{
	int32_t first = -2;
	int single = 1;
	uint8_t *cpus;
	int32_t ncpu;
	int rc;

	m->decided = 1;
	if (!sr_input_seekable(m->src.in) || !m->proto.ops->peek ||
	    m->proto.ncpus_hint == 1 || m->src.fc.ncpus_hint == 1)
		return SR_OK;
	for (size_t i = 0; i < m->hn && single && !behind; i++) {
		int32_t c = slots_cpu(&m->pool, ring_at(m, i)->idx);

		if (c == -2)
			return spill_fail(m, d);
		if (c < 0)
			continue;
		if (first == -2)
			first = c;
		else if (c != first)
			single = 0;
	}
	if (!single)
		return SR_OK;
	rc = mg_needs_kway(m, &cpus, &ncpu, d);
	if (rc < 0)
		return d->code;
	if (rc == 1) {
		m->proto.ncpus_hint = m->src.fc.ncpus_hint;
		m->proto.state_enc = m->src.fc.state_enc;
		sr_source_fini(&m->src);
		for (size_t k = 0; k < m->hn; k++)
			slots_drop(&m->pool, ring_at(m, k)->idx);
		m->hn = 0;
		for (size_t k = 0; k < m->narr; k++) {
			m->arr_ts[k] = INT64_MIN;
			m->arr_line[k] = 0;
		}
		rc = mg_kway_start(m, cpus, ncpu, d);
	} else {
		/* the scan found the full window enough: it modelled no
		 * early release, so none may happen now */
		m->window_only = 1;
		rc = SR_OK;
	}
	free(cpus);
	return rc;
}

int sr_merge_open(struct sr_merge **mp, struct sr_input *in, const char *path,
		  const struct sr_fmtctx *proto, int lenient, size_t window,
		  struct sr_diag *d)
{
	struct sr_merge *m = calloc(1, sizeof(*m));

	*mp = NULL;
	if (!m) {
		sr_input_close(in);
		return sr_oom(d);
	}
	m->path = strdup(path);
	m->proto = *proto;
	m->lenient = lenient;
	m->window = window ? window : SR_MERGE_WINDOW_DEFAULT;
	m->hold_min = m->window / 8 ? m->window / 8 : 1;
	m->heap = malloc((m->window + 1) * sizeof(*m->heap));
	m->rcap = m->window + 1;
	sr_source_init(&m->src, in, proto, -1, 1, lenient);
	if (!m->path || slots_init(&m->pool, m->window + 1, m->hold_min) ||
	    !m->heap) {
		sr_merge_close(m);
		return sr_oom(d);
	}
	m->released_ts = INT64_MIN;
	*mp = m;
	return SR_OK;
}

/*
 * May the oldest record leave before the window is full?  Yes once it is
 * at or before the watermark and the window holds at least hold_min
 * records of two or more cpus (a window of one cpu may be per-cpu blocks:
 * decide() looks at it when full).  In-order input from busy cpus then
 * keeps a few thousand records in the window instead of all `window`, so
 * the slots stay in cache.
 */
static int early_release(struct sr_merge *m)
{
	int n;
	int64_t wm;

	if (m->wm_valid && ring_at(m, 0)->ts <= m->wm)
		return 1;
	wm = watermark(m, &n);
	if (n < 2)
		return 0;
	m->wm = wm;
	m->wm_valid = 1;
	m->decided = 1;
	return ring_at(m, 0)->ts <= wm;
}

int sr_merge_next(struct sr_merge *m, const struct sr_raw **out,
		  struct sr_diag *d)
{
	uint32_t idx;

	if (m->rops)
		return mg_records_next(m, out, d);
	if (m->kway)
		return mg_kway_next(m, out, d);
	while (!m->src_eof && m->hn < m->window) {
		struct sr_raw *r;
		int rc;

		r = &m->in;
		rc = sr_source_next(&m->src, r, d);
		if (rc <= 0) {
			if (rc < 0)
				return -1;
			m->src_eof = 1;
			break;
		}
		int fresh = (size_t)(r->cpu + 1) >= m->narr ||
			    m->arr_ts[r->cpu + 1] == INT64_MIN;

		if (mg_check_cpu_order(m, r, m->src.fc.file, d))
			return -1;
		if (fresh && !m->released_any && !m->kway_checked &&
		    m->hn > 0 && r->ts < ring_at(m, m->hn - 1)->ts) {
			m->kway_checked = 1;
			if (slots_put(&m->pool, r, &idx))
				return spill_fail(m, d), -1;
			heap_push(m, idx, r);
			if (decide(m, 1, d) != SR_OK)
				return -1;
			if (m->kway)
				return mg_kway_next(m, out, d);
			continue;
		}
		if (m->released_any && r->ts < m->released_ts) {
			char a[32], b[32];

			sr_fmt_s(a, sizeof(a), r->ts, 9);
			sr_fmt_s(b, sizeof(b), m->released_ts, 9);
			sr_fail(d, SR_EDATA, "%s:%llu: cpu %d: event at "
				"%s is older than the event at %s (line "
				"%llu) already merged: the input "
				"interleaves cpus out of time order by "
				"more than the %zu-event merge window%s",
				m->src.fc.file, (unsigned long long)r->line,
				(int)r->cpu, a, b,
				(unsigned long long)m->released_line,
				m->window,
				sr_input_seekable(m->src.in) ?
				"; sort it by time (trace-cmd report "
				"sorts), or give it as a file with "
				"per-cpu blocks" :
				"; standard input or a pipe cannot be "
				"re-read for a per-cpu merge: give the "
				"file instead");
			return -1;
		}
		if (slots_put(&m->pool, r, &idx))
			return spill_fail(m, d), -1;
		heap_push(m, idx, r);
		if (m->hn == m->window && !m->decided && !m->src_eof) {
			if (decide(m, 0, d) != SR_OK)
				return -1;
			if (m->kway)
				return mg_kway_next(m, out, d);
		}
		if (m->hn >= m->hold_min && !m->window_only && early_release(m))
			break;
	}
	if (m->hn == 0) {
		/* the end: the window's memory is not needed any more */
		slots_fini(&m->pool);
		free(m->heap);
		m->heap = NULL;
		m->rcap = 0;
		return 0;
	}
	idx = heap_pop(m);
	if (slots_take(&m->pool, idx, &m->out))
		return spill_fail(m, d), -1;
	m->released_any = 1;
	m->released_ts = m->out.ts;
	m->released_line = m->out.line;
	*out = &m->out;
	return 1;
}

void sr_merge_counts(const struct sr_merge *m, struct sr_merge_counts *c)
{
	memset(c, 0, sizeof(*c));
	if (m->rops) {
		m->rops->counts(m->rctx, c);
		return;
	}
	c->kway = m->kway;
	if (!m->kway) {
		if (m->src.in) {
			c->lines = sr_input_lineno(m->src.in);
			c->bytes = sr_input_bytes(m->src.in);
			sr_input_position(m->src.in, &c->file_read,
					  &c->file_size);
		}
		c->bad_lines = m->src.bad_lines;
		c->skipped_events = m->src.fc.skipped_events;
		c->failed_wakeups = m->src.fc.failed_wakeups;
		c->tally_lost = m->src.fc.tally_lost;
		return;
	}
	for (size_t i = 0; i < m->ncur; i++) {
		const struct sr_source *s = &m->cur[i];

		if (s->primary && s->in) {
			c->lines = sr_input_lineno(s->in);
			c->bytes = sr_input_bytes(s->in);
			sr_input_position(s->in, &c->file_read,
					  &c->file_size);
			c->bad_lines = s->bad_lines;
		}
		c->skipped_events += s->fc.skipped_events;
		c->failed_wakeups += s->fc.failed_wakeups;
		c->tally_lost += s->fc.tally_lost;
	}
}

void sr_merge_close(struct sr_merge *m)
{
	if (!m)
		return;
	if (m->rops)
		m->rops->close(m->rctx);
	sr_bigmem_free(&m->kmem);
	free(m->run);
	free(m->rheap);
	if (m->src.in)
		sr_source_fini(&m->src);
	for (size_t i = 0; i < m->ncur; i++)
		sr_source_fini(&m->cur[i]);
	free(m->cur);
	free(m->heads);
	free(m->kheap);
	for (size_t k = 0; m->pool.mem && !m->kway && k < m->hn; k++)
		slots_drop(&m->pool, ring_at(m, k)->idx);
	slots_fini(&m->pool);
	free(m->heap);
	free(m->arr_ts);
	free(m->arr_line);
	free(m->path);
	free(m);
}
