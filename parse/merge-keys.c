/*
 * merge-keys: a record source's keys (perf.data), merged as runs through a
 * heap and decoded as they leave (see merge.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/bigmem.h"
#include "lib/fmt.h"
#include "parse/merge-int.h"

/* ---- record sources: runs of keys merged, decoded as they leave ----
 *
 * The rule (merge.h): a key leaves once nothing older can follow: when its
 * time is at or before the bound the source last gave (a round), or at
 * once for a source already in order; and it leaves oldest first.  So
 * after every record read, the keys waiting at or before the bound leave,
 * in (ts, seq) order, before the next is read; the others are newer than
 * the bound.  A key read at or before the bound (a late one, or every key
 * of a source in order) is the oldest waiting and leaves at once.
 *
 * The keys waiting are kept in one array in the order they were read, as
 * runs: stretches in (ts, seq) order (a cpu's records: perf writes each
 * cpu's ring buffer in turn, so a round is a run or two per cpu).  A round
 * that lets a key read since the last one leave puts their runs into a
 * heap ordered by each run's first key; the oldest key of all is then the
 * first of the heap's top run.  So a key is written once, where it is
 * read, and leaves from there: no second array to sort into, and a heap of
 * a few runs, not of keys.  When the array is full, the keys still
 * waiting are moved to its front (in order, run by run), and it grows only
 * when they fill half of it, in place (lib/bigmem.h: in huge pages, never
 * copied; a round of a busy recording holds hundreds of thousands).
 */

static inline int key_less(const struct sr_rkey *a, const struct sr_rkey *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static inline int run_less(const struct sr_merge *m, uint32_t a, uint32_t b)
{
	return key_less(&m->k[m->run[a].cur], &m->k[m->run[b].cur]);
}

static void rheap_down(struct sr_merge *m, size_t i)
{
	uint32_t *h = m->rheap;
	size_t n = m->nrheap;

	for (;;) {
		size_t l = 2 * i + 1, c = i;

		if (l < n && run_less(m, h[l], h[c]))
			c = l;
		if (l + 1 < n && run_less(m, h[l + 1], h[c]))
			c = l + 1;
		if (c == i)
			return;
		uint32_t t = h[i];

		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

static void rheap_up(struct sr_merge *m, size_t i)
{
	uint32_t *h = m->rheap;

	while (i > 0 && run_less(m, h[i], h[(i - 1) / 2])) {
		uint32_t t = h[i];

		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/* The runs read since the last round into the heap. */
static void seal_runs(struct sr_merge *m)
{
	for (; m->sealed < m->nrun; m->sealed++) {
		m->rheap[m->nrheap++] = (uint32_t)m->sealed;
		rheap_up(m, m->nrheap - 1);
	}
	m->new_min = INT64_MAX;
}

/* The keys still waiting moved to the front, run by run (in order: a
 * run never moves right); the runs used up dropped, the heap made again. */
static void compact(struct sr_merge *m)
{
	size_t dst = 0, nr = 0, sealed = 0;

	for (size_t i = 0; i < m->nrun; i++) {
		struct krun r = m->run[i];
		size_t len = r.end - r.cur;

		if (!len)
			continue;
		if (r.cur != dst)
			memmove(m->k + dst, m->k + r.cur, len * sizeof(*m->k));
		m->run[nr].cur = dst;
		m->run[nr].end = dst + len;
		dst += len;
		sealed += i < m->sealed;
		nr++;
	}
	m->n = dst;
	m->nrun = nr;
	m->sealed = sealed;
	m->nrheap = 0;
	for (size_t i = 0; i < sealed; i++)
		m->rheap[m->nrheap++] = (uint32_t)i;
	for (size_t i = m->nrheap / 2; i-- > 0;)
		rheap_down(m, i);
}

/* Room for one more key (and run): the waiting ones moved to the front,
 * and the array grown when they fill half of it. */
static int key_room(struct sr_merge *m, struct sr_diag *d)
{
	if (m->n == m->cap) {
		compact(m);
		/* in place (lib/bigmem.h): a key is read only while fewer
		 * than SR_MERGE_KEYS_MAX wait, so it always has room */
		if (m->n >= m->cap / 2) {
			size_t want = (m->cap ? 2 * m->cap : 1) * sizeof(*m->k);

			if (want > m->kmem.max)
				want = m->kmem.max;
			if (sr_bigmem_grow(&m->kmem, want) && m->n == m->cap)
				return sr_oom(d);
			m->k = (struct sr_rkey *)m->kmem.p;
			m->cap = m->kmem.cap / sizeof(*m->k);
		}
	}
	if (m->nrun == m->caprun) {
		size_t c2 = m->caprun ? 2 * m->caprun : 64;
		struct krun *r = realloc(m->run, c2 * sizeof(*r));
		uint32_t *h = r ? realloc(m->rheap, c2 * sizeof(*h)) : NULL;

		if (r)
			m->run = r;
		if (!h)
			return sr_oom(d);
		m->rheap = h;
		m->caprun = c2;
	}
	return SR_OK;
}

int sr_merge_open_records(struct sr_merge **mp, const struct sr_rsrc_ops *ops,
			  void *ctx, const char *path, struct sr_diag *d)
{
	struct sr_merge *m = calloc(1, sizeof(*m));

	*mp = NULL;
	if (!m) {
		ops->close(ctx);
		return sr_oom(d);
	}
	m->rops = ops;
	m->rctx = ctx;
	m->pool.fd = -1; /* no slots: sr_merge_close must not close fd 0 */
	m->path = strdup(strcmp(path, "-") ? path : "<stdin>");
	if (!m->path) {
		sr_merge_close(m);
		return sr_oom(d);
	}
	m->released_ts = INT64_MIN;
	m->new_min = INT64_MAX;
	sr_bigmem_init(&m->kmem, (size_t)(SR_MERGE_KEYS_MAX + 1) *
		       sizeof(struct sr_rkey));
	*mp = m;
	return SR_OK;
}

/*
 * Every record read before the oldest waiting key (by seq: input order)
 * was decoded.  Within a run keys are in input order, so a run's oldest is
 * its first.
 */
static void report_done(struct sr_merge *m)
{
	uint64_t low = UINT64_MAX;

	if (!m->rops->done_below)
		return;
	for (size_t i = 0; i < m->nrun; i++)
		if (m->run[i].cur < m->run[i].end &&
		    m->k[m->run[i].cur].seq < low)
			low = m->k[m->run[i].cur].seq;
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

/* May the oldest key of the heap leave? */
static inline int may_leave(const struct sr_merge *m)
{
	return m->nrheap &&
	       (m->rs_eof || (m->bound_set &&
			      m->k[m->run[m->rheap[0]].cur].ts <= m->bound));
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
 * leaves at once (at or before the bound), 0 when the heap's oldest may
 * leave or the input ended (every run in the heap then), -1 on an error.
 */
static int read_keys(struct sr_merge *m, struct sr_rkey *k, struct sr_diag *d)
{
	int (*next)(void *, struct sr_rkey *, struct sr_diag *) = m->rops->next;
	void *ctx = m->rctx;
	int64_t rts = m->released_any ? m->released_ts : INT64_MIN;
	int ordered = m->rops->ordered, rc;

	for (;;) {
		rc = next(ctx, k, d);
		if (rc == SR_RS_REC) {
			struct krun *last;

			if (k->ts < rts)
				return broken_promise(m, k, d);
			if (ordered) {
				m->bound = k->ts;
				m->bound_set = 1;
			}
			if (m->bound_set && k->ts <= m->bound)
				return 1; /* the oldest of all: the others are
					   * newer than the bound */
			if (m->waiting >= SR_MERGE_KEYS_MAX)
				return too_many_keys(m, k, d);
			if ((m->n == m->cap || m->nrun == m->caprun) &&
			    key_room(m, d))
				return -1;
			last = m->nrun > m->sealed ? &m->run[m->nrun - 1] : NULL;
			if (last && last->end == m->n &&
			    !key_less(k, &m->k[m->n - 1])) {
				last->end++;
			} else {
				m->run[m->nrun].cur = m->n;
				m->run[m->nrun].end = m->n + 1;
				m->nrun++;
			}
			m->k[m->n++] = *k;
			m->waiting++;
			if (k->ts < m->new_min)
				m->new_min = k->ts;
			continue;
		}
		if (rc == SR_RS_ROUND) {
			if (!m->bound_set || k->ts > m->bound)
				m->bound = k->ts;
			m->bound_set = 1;
			if (m->new_min <= m->bound) {
				seal_runs(m); /* some key read since may leave */
				return 0;
			}
			if (may_leave(m))
				return 0;
			continue;
		}
		if (rc == SR_RS_END) {
			m->rs_eof = 1;
			seal_runs(m);
			return 0;
		}
		if (!d->code)
			sr_fail(d, SR_EINTERNAL, "record source: status %d", rc);
		return -1;
	}
}

/* The oldest key of the heap, taken. */
static void take_oldest(struct sr_merge *m, struct sr_rkey *k)
{
	struct krun *r = &m->run[m->rheap[0]];

	*k = m->k[r->cur++];
	m->waiting--;
	if (r->cur == r->end) {
		m->rheap[0] = m->rheap[--m->nrheap];
		if (!m->nrheap) {
			/* nothing sealed waits: the array's front is free */
			if (m->sealed == m->nrun) {
				m->n = 0;
				m->nrun = m->sealed = 0;
			}
			return;
		}
	}
	rheap_down(m, 0);
}

int mg_records_next(struct sr_merge *m, const struct sr_raw **out,
		    struct sr_diag *d)
{
	for (;;) {
		struct sr_rkey k;
		int rc;

		/* the keys at or before the bound leave first; the keys read
		 * since are all newer than it (else in the heap) */
		if (may_leave(m)) {
			take_oldest(m, &k);
		} else if (m->rs_eof) {
			return 0; /* every run in the heap: none left */
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
