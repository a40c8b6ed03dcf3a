/*
 * merge-keys: a record source's keys (perf.data), sorted by runs and
 * decoded as they leave (see merge.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/fmt.h"
#include "parse/merge-int.h"

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
			return sr_oom(d);
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
		return sr_oom(d);
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

int mg_records_next(struct sr_merge *m, const struct sr_raw **out,
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
