/*
 * merge: cross-cpu time ordering (see merge.h for the strategy).
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
			return SR_EINTERNAL;
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

/*
 * Where the slots live: window/8 of them in memory (what busy cpus keep in
 * the window), the others in an unlinked temporary file, made when first
 * needed: a quiet cpu holding the watermark back fills the window, and its
 * records then cost disk, not memory.  Memory slots are taken first.  The
 * file is written and read in blocks of SPILL_BLOCK slots: a new record
 * takes the next slot of the block being filled (in memory until full),
 * and records leave about in the order they came, so a read brings in a
 * block whose next records leave next.  A block is reused once all its
 * records have left.  When no file can be made, the slots are all kept in
 * memory.
 */
#define SPILL_BLOCK 256

struct slots {
	struct slot *mem;
	uint32_t *mfree;      /* free memory slots, a stack */
	size_t nmem, nmfree, total;
	int fd;               /* the file, or -1 */
	uint16_t *live;       /* by file block: records in it */
	uint32_t *bfree;      /* blocks free to fill, a stack */
	size_t nblk, capblk, nbfree, capbfree;
	struct slot *wbuf;    /* the block being filled */
	uint32_t wblk, wn;    /* its number, and slots taken (0: none open) */
	struct slot *rbuf;    /* the block last read */
	uint32_t rblk;        /* its number, UINT32_MAX: none */
};

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
		return SR_EINTERNAL;
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
		return st->wbuf && st->rbuf ? SR_OK : SR_EINTERNAL;
	}
	all = realloc(st->mem, st->total * sizeof(*all));
	if (!all)
		return SR_EINTERNAL;
	st->mem = all;
	fr = realloc(st->mfree, st->total * sizeof(*fr));
	if (!fr)
		return SR_EINTERNAL;
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
		return SR_EINTERNAL;
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
				return SR_EINTERNAL;
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

struct sr_merge {
	char *path;
	struct sr_fmtctx proto;
	int lenient;
	size_t window;
	/* heap mode */
	struct sr_source src;
	struct slots pool;
	struct sr_raw in;     /* the record being read */
	struct hent *heap;    /* ring sorted on (ts, seq) of pool slots */
	size_t head, rcap;
	size_t hn;
	int src_eof;
	int decided;
	size_t hold_min;      /* records kept before an early release */
	int64_t wm;           /* last watermark computed (see watermark()) */
	int wm_valid;
	/* handed out so far */
	int released_any;
	int64_t released_ts;
	uint64_t released_line;
	struct sr_raw out;
	/* per-cpu arrival order (index cpu + 1; 0 = cpu -1) */
	int64_t *arr_ts;
	uint64_t *arr_line;
	size_t narr;
	/* k-way mode */
	int kway;
	int kway_checked;        /* decide() ran for a cpu first seen behind */
	int window_only;         /* a scan showed the window orders the
				    input: no early release */
	struct sr_source *cur;
	struct sr_raw *heads;
	uint32_t *kheap;
	size_t ncur, kn;
	/* record-source mode: the keys waiting, k[lo, sorted) in (ts, seq)
	 * order, then k[sorted, n) as read (see records_next) */
	const struct sr_rsrc_ops *rops;
	void *rctx;
	struct sr_rkey *k, *k2;  /* the keys, and the merge's other buffer */
	size_t lo, sorted, n, cap;
	int64_t new_min;      /* the oldest time of k[sorted, n) */
	uint64_t sorted_seq;  /* the lowest seq of k[.., sorted) at the last
			       * sort: at most that of any still waiting */
	size_t *runs;         /* where the runs of k[lo, n) start (scratch) */
	size_t caprun;
	int64_t bound;        /* keys at or before it may leave */
	int bound_set;
	int rs_eof;
	uint64_t pops;
};

static int records_next(struct sr_merge *m, const struct sr_raw **out,
			struct sr_diag *d);

/* A slot could not be stored or read back: memory, or the file's errno. */
static int spill_fail(struct sr_merge *m, struct sr_diag *d)
{
	if (m->pool.fd < 0 || errno == ENOMEM)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	return sr_fail(d, SR_EIO, "%s: the merge window's temporary file "
		       "(in %s): %s", m->path, sr_tmpdir(),
		       errno ? strerror(errno) : "short read or write");
}

static int raw_less(const struct sr_raw *a, const struct sr_raw *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

/* A cpu's own records must not go back in time. */
static int check_cpu_order(struct sr_merge *m, const struct sr_raw *r,
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
			return sr_fail(d, SR_EINTERNAL, "out of memory");
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

/* ---- k-way ---- */

static void kheap_sift_down(struct sr_merge *m, size_t i)
{
	uint32_t x = m->kheap[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= m->kn)
			break;
		if (c + 1 < m->kn && raw_less(&m->heads[m->kheap[c + 1]],
					      &m->heads[m->kheap[c]]))
			c++;
		if (!raw_less(&m->heads[m->kheap[c]], &m->heads[x]))
			break;
		m->kheap[i] = m->kheap[c];
		i = c;
	}
	m->kheap[i] = x;
}

static int kway_start(struct sr_merge *m, const uint8_t *cpus, int32_t ncpu,
		      struct sr_diag *d)
{
	size_t n = 0;

	for (int32_t c = 0; c < ncpu; c++)
		n += cpus[c] != 0;
	if (n > SR_KWAY_MAX_CPUS)
		return sr_fail(d, SR_EDATA, "%s: the input holds per-cpu blocks "
			       "out of time order for %zu cpus; the per-cpu "
			       "merge handles at most %d", m->path, n,
			       SR_KWAY_MAX_CPUS);
	m->cur = calloc(n, sizeof(*m->cur));
	m->heads = calloc(n, sizeof(*m->heads));
	m->kheap = calloc(n, sizeof(*m->kheap));
	if (!m->cur || !m->heads || !m->kheap)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	for (int32_t c = 0; c < ncpu; c++) {
		struct sr_input *in;

		if (!cpus[c])
			continue;
		if (sr_input_open(&in, m->path, 1u << 18, d) != SR_OK)
			return d->code;
		sr_source_init(&m->cur[m->ncur], in, &m->proto, c,
			       m->ncur == 0, m->lenient);
		m->ncur++;
	}
	for (size_t i = 0; i < m->ncur; i++) {
		int rc = sr_source_next(&m->cur[i], &m->heads[i], d);

		if (rc < 0)
			return d->code;
		if (rc == 0)
			continue;
		if (check_cpu_order(m, &m->heads[i], m->path, d))
			return d->code;
		m->kheap[m->kn++] = (uint32_t)i;
	}
	for (size_t i = m->kn; i-- > 0;)
		kheap_sift_down(m, i);
	m->kway = 1;
	return SR_OK;
}

static int kway_next(struct sr_merge *m, const struct sr_raw **out,
		     struct sr_diag *d)
{
	uint32_t i;
	int rc;

	if (m->kn == 0)
		return 0;
	i = m->kheap[0];
	m->out = m->heads[i];
	rc = sr_source_next(&m->cur[i], &m->heads[i], d);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		m->kheap[0] = m->kheap[--m->kn];
	} else if (check_cpu_order(m, &m->heads[i], m->cur[i].fc.file, d)) {
		return -1;
	}
	if (m->kn)
		kheap_sift_down(m, 0);
	*out = &m->out;
	return 1;
}

/*
 * Scan the line headers of the whole file: which cpus, and would the
 * reorder heap put them in order?  Returns 1 if a per-cpu merge is needed.
 */
static int needs_kway(struct sr_merge *m, uint8_t **cpusp, int32_t *ncpup,
		      struct sr_diag *d)
{
	struct sr_input *in;
	struct sr_fmtctx fc = m->proto;
	struct sr_diag quiet = SR_DIAG_INIT;
	int64_t *h, released = INT64_MIN;
	size_t hn = 0;
	uint8_t *cpus = calloc(SR_CPU_MAX, 1);
	int32_t ncpu = 0;
	int blocked = 0, rc;
	const char *line;
	size_t len;

	*cpusp = NULL;
	h = malloc((m->window + 1) * sizeof(*h));
	if (!h || !cpus) {
		free(h);
		free(cpus);
		return sr_fail(d, SR_EINTERNAL, "out of memory"), -1;
	}
	if (sr_input_open(&in, m->path, 1u << 18, d) != SR_OK) {
		free(h);
		free(cpus);
		return -1;
	}
	fc.d = &quiet;
	while ((rc = sr_input_next(in, &line, &len, &quiet)) != SR_IN_EOF) {
		int32_t cpu;
		int64_t ts;

		if (rc == SR_IN_ERR)
			break; /* the real pass reports it */
		if (rc != SR_IN_LINE ||
		    !fc.ops->peek(&fc, (char *)line, len, &cpu, &ts))
			continue;
		if (cpu >= 0 && cpu < SR_CPU_MAX) {
			cpus[cpu] = 1;
			if (cpu + 1 > ncpu)
				ncpu = cpu + 1;
		}
		if (ts < released)
			blocked = 1;
		/* push ts; pop the minimum when over the window */
		size_t i = hn++;

		while (i > 0 && h[(i - 1) / 2] > ts) {
			h[i] = h[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		h[i] = ts;
		if (hn > m->window) {
			int64_t top = h[0], last = h[--hn];

			i = 0;
			for (;;) {
				size_t c = 2 * i + 1;

				if (c >= hn)
					break;
				if (c + 1 < hn && h[c + 1] < h[c])
					c++;
				if (h[c] >= last)
					break;
				h[i] = h[c];
				i = c;
			}
			if (hn)
				h[i] = last;
			released = top;
		}
	}
	sr_input_close(in);
	free(h);
	*cpusp = cpus;
	*ncpup = ncpu;
	return blocked;
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
	rc = needs_kway(m, &cpus, &ncpu, d);
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
		rc = kway_start(m, cpus, ncpu, d);
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
		return sr_fail(d, SR_EINTERNAL, "out of memory");
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
		return sr_fail(d, SR_EINTERNAL, "out of memory");
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
		return records_next(m, out, d);
	if (m->kway)
		return kway_next(m, out, d);
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

		if (check_cpu_order(m, r, m->src.fc.file, d))
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
				return kway_next(m, out, d);
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
				return kway_next(m, out, d);
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


/* ---- record sources: keys sorted by runs, decoded as they leave ----
 *
 * The rule (merge.h): a key leaves once nothing older can follow: when its
 * time is at or before the bound the source last gave (a round), or at
 * once for a source already in order; and it leaves oldest first.  So
 * after every record read, the keys waiting at or before the bound leave,
 * in (ts, seq) order, before the next is read; the others are newer than
 * the bound.  Keys are kept in one array: those already sorted, then those
 * read since.  Only a round that lets some key leave (or the end) sorts:
 * the keys read since are runs in order (a cpu's stretch of records: perf
 * writes each cpu's ring buffer in turn), merged with the sorted ones run
 * by run, a few passes of a tight loop, instead of a heap operation a key.
 * A key read at or before the bound (a late one, or every key of a source
 * in order) is the oldest waiting (the others are newer than the bound)
 * and leaves at once.
 */

static inline int key_less(const struct sr_rkey *a, const struct sr_rkey *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

/* Merge a[0, na) and b[0, nb), both sorted, into out. */
static void merge2(const struct sr_rkey *a, size_t na, const struct sr_rkey *b,
		   size_t nb, struct sr_rkey *out)
{
	const struct sr_rkey *ae = a + na, *be = b + nb;

	if (na && nb) {
		for (;;) {
			if (key_less(b, a)) {
				*out++ = *b++;
				if (b == be)
					break;
			} else {
				*out++ = *a++;
				if (a == ae)
					break;
			}
		}
	}
	while (a < ae)
		*out++ = *a++;
	while (b < be)
		*out++ = *b++;
}

/*
 * Sort k[lo, n): the sorted keys and the runs of those read since, merged
 * pairwise into the other buffer and back until one run is left.
 */
static int sort_keys(struct sr_merge *m, struct sr_diag *d)
{
	size_t nr = 0;

	if (m->sorted == m->n)
		return SR_OK;
	/* the runs: the sorted keys (if any), then each stretch in order */
	if (m->caprun < 2 || m->n - m->sorted + 2 > m->caprun) {
		size_t c = m->n - m->sorted + 2;
		size_t *v = realloc(m->runs, c * sizeof(*v));

		if (!v)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		m->runs = v;
		m->caprun = c;
	}
	if (m->lo < m->sorted)
		m->runs[nr++] = m->lo;
	m->runs[nr++] = m->sorted;
	for (size_t i = m->sorted + 1; i < m->n; i++)
		if (key_less(&m->k[i], &m->k[i - 1]))
			m->runs[nr++] = i;
	/* the read keys continue the sorted ones: nothing to merge */
	if (nr == 2 && m->lo < m->sorted &&
	    !key_less(&m->k[m->sorted], &m->k[m->sorted - 1]))
		nr = 1;
	if (nr > 1) {
		struct sr_rkey *a = m->k, *b = m->k2, *t;

		while (nr > 1) {
			size_t j = 0, i;

			for (i = 0; i + 1 < nr; i += 2) {
				size_t s0 = m->runs[i], s1 = m->runs[i + 1];
				size_t e = i + 2 < nr ? m->runs[i + 2] : m->n;

				merge2(a + s0, s1 - s0, a + s1, e - s1, b + s0);
				m->runs[j++] = s0;
			}
			if (i < nr) {
				memcpy(b + m->runs[i], a + m->runs[i],
				       (m->n - m->runs[i]) * sizeof(*a));
				m->runs[j++] = m->runs[i];
			}
			nr = j;
			t = a, a = b, b = t;
		}
		m->k = a;
		m->k2 = b;
	}
	m->sorted = m->n;
	m->new_min = INT64_MAX;
	m->sorted_seq = UINT64_MAX;
	for (size_t i = m->lo; i < m->n; i++)
		if (m->k[i].seq < m->sorted_seq)
			m->sorted_seq = m->k[i].seq;
	return SR_OK;
}

/* Room for one more key: the waiting ones moved to the front, or both
 * buffers grown. */
static int key_room(struct sr_merge *m, struct sr_diag *d)
{
	size_t c;
	struct sr_rkey *a, *b;

	if (m->lo) {
		memmove(m->k, m->k + m->lo, (m->n - m->lo) * sizeof(*m->k));
		m->sorted -= m->lo;
		m->n -= m->lo;
		m->lo = 0;
		if (m->n < m->cap)
			return SR_OK;
	}
	c = m->cap ? 2 * m->cap : 4096;
	a = realloc(m->k, c * sizeof(*a));
	if (a)
		m->k = a;
	b = a ? realloc(m->k2, c * sizeof(*b)) : NULL;
	if (!b)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	m->k2 = b;
	m->cap = c;
	return SR_OK;
}

int sr_merge_open_records(struct sr_merge **mp, const struct sr_rsrc_ops *ops,
			  void *ctx, const char *path, struct sr_diag *d)
{
	struct sr_merge *m = calloc(1, sizeof(*m));

	*mp = NULL;
	if (!m) {
		ops->close(ctx);
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	}
	m->rops = ops;
	m->rctx = ctx;
	m->path = strdup(strcmp(path, "-") ? path : "<stdin>");
	if (!m->path) {
		sr_merge_close(m);
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	}
	m->released_ts = INT64_MIN;
	m->new_min = INT64_MAX;
	*mp = m;
	return SR_OK;
}

/*
 * Every record read before the oldest waiting key (by seq: input order)
 * was decoded.  The keys read since the last sort are in input order, so
 * the first of them is their oldest; the sorted ones' lowest was noted
 * when they were sorted (those gone since only make it lower).
 */
static void report_done(struct sr_merge *m)
{
	uint64_t low = m->sorted < m->n ? m->k[m->sorted].seq : UINT64_MAX;

	if (!m->rops->done_below)
		return;
	if (m->lo < m->sorted && m->sorted_seq < low)
		low = m->sorted_seq;
	m->rops->done_below(m->rctx, low);
}

static int broken_promise(struct sr_merge *m, const struct sr_rkey *k,
			  struct sr_diag *d)
{
	char a[32], b[32];

	sr_fmt_s(a, sizeof(a), k->ts, 9);
	sr_fmt_s(b, sizeof(b), m->released_ts, 9);
	return sr_fail(d, SR_EDATA, "%s:%llu: expected records in time order "
		       "once merged, got one at %s after the record at %s "
		       "(offset %llu) had been handed out: the input breaks "
		       "its own ordering promise", m->path,
		       (unsigned long long)k->seq, a, b,
		       (unsigned long long)m->released_line), -1;
}

/* May the oldest sorted key leave? */
static inline int may_leave(const struct sr_merge *m)
{
	return m->lo < m->sorted &&
	       (m->rs_eof || (m->bound_set && m->k[m->lo].ts <= m->bound));
}

static int too_many_keys(struct sr_merge *m, const struct sr_rkey *k,
			 struct sr_diag *d)
{
	return sr_fail(d, SR_EDATA, "%s:%llu: expected the input to say within "
		       "%u records that older ones cannot follow (perf.data: "
		       "a FINISHED_ROUND record), got more records waiting to "
		       "be merged", m->path, (unsigned long long)k->seq,
		       SR_MERGE_KEYS_MAX), -1;
}

/*
 * Read records until a key may leave: 1 with *k a key just read that
 * leaves at once (at or before the bound), 0 when the oldest sorted key
 * may leave or the input ended (sorted then), -1 on an error.  The loop
 * keeps the merge's state in locals, written back before anything else
 * looks at it.
 */
static int read_keys(struct sr_merge *m, struct sr_rkey *k, struct sr_diag *d)
{
	int (*next)(void *, struct sr_rkey *, struct sr_diag *) = m->rops->next;
	void *ctx = m->rctx;
	struct sr_rkey *keys = m->k;
	size_t n = m->n, lo = m->lo, cap = m->cap;
	int64_t new_min = m->new_min, bound = m->bound;
	int64_t rts = m->released_any ? m->released_ts : INT64_MIN;
	int bset = m->bound_set, ordered = m->rops->ordered, rc;

	for (;;) {
		rc = next(ctx, k, d);
		if (rc == SR_RS_REC) {
			if (k->ts < rts) {
				rc = broken_promise(m, k, d);
				break;
			}
			if (n - lo >= SR_MERGE_KEYS_MAX) {
				rc = too_many_keys(m, k, d);
				break;
			}
			if (ordered) {
				bound = k->ts;
				bset = 1;
			}
			if (bset && k->ts <= bound) {
				rc = 1; /* the oldest of all: the others are
					 * newer than the bound */
				break;
			}
			if (n == cap) {
				m->n = n;
				if (key_room(m, d)) {
					rc = -1;
					break;
				}
				keys = m->k;
				n = m->n;
				lo = m->lo;
				cap = m->cap;
			}
			keys[n++] = *k;
			if (k->ts < new_min)
				new_min = k->ts;
			continue;
		}
		if (rc == SR_RS_ROUND) {
			if (!bset || k->ts > bound)
				bound = k->ts;
			bset = 1;
			if (new_min <= bound) {
				rc = 2; /* sort: some key read may leave */
				break;
			}
			if (lo < m->sorted && keys[lo].ts <= bound) {
				rc = 0;
				break;
			}
			continue;
		}
		if (rc == SR_RS_END) {
			m->rs_eof = 1;
			rc = 2;
			break;
		}
		if (!d->code)
			sr_fail(d, SR_EINTERNAL, "record source: status %d", rc);
		rc = -1;
		break;
	}
	m->n = n;
	m->new_min = new_min;
	m->bound = bound;
	m->bound_set = bset;
	if (rc == 2)
		return sort_keys(m, d) ? -1 : 0;
	return rc;
}

static int records_next(struct sr_merge *m, const struct sr_raw **out,
			struct sr_diag *d)
{
	for (;;) {
		struct sr_rkey k;
		int rc;

		/* the sorted keys at or before the bound leave first; the
		 * keys read since are all newer than it (else sorted) */
		if (may_leave(m)) {
			k = m->k[m->lo++];
		} else if (m->rs_eof) {
			return 0; /* sorted at the end: none left */
		} else {
			rc = read_keys(m, &k, d);
			if (rc < 0)
				return -1;
			if (rc == 0)
				continue;
		}
		m->released_any = 1;
		m->released_ts = k.ts;
		m->released_line = k.seq;
		if ((++m->pops & 0xffff) == 0)
			report_done(m);
		sr_raw_init(&m->out);
		rc = m->rops->decode(m->rctx, &k, &m->out, d);
		if (rc == SR_P_ERR)
			return -1;
		if (rc == SR_P_RAW) {
			*out = &m->out;
			return 1;
		}
	}
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
	}
}

void sr_merge_close(struct sr_merge *m)
{
	if (!m)
		return;
	if (m->rops)
		m->rops->close(m->rctx);
	free(m->k);
	free(m->k2);
	free(m->runs);
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
