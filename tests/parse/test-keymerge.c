/*
 * test-keymerge: the merge of a binary reader's records (a record source,
 * parse/merge.h) on scripted sources: keys leave oldest first once the
 * bound a round gives covers them, nothing is read while one may leave,
 * ties leave in input order, a key read at or before the bound leaves at
 * once, a source in order hands every key out as it comes, and a key
 * older than one handed out is refused.
 *
 * Each script is what a source returns, item by item; the expected order
 * and the items read when each key leaves are worked out by hand from the
 * rule in merge.h (written beside each case).
 */
#include <stdlib.h>

#include "parse/merge.h"
#include "tests/lib/test.h"

enum { REC, ROUND, END };

struct item {
	int what;
	int64_t ts;
	uint64_t seq;
};

struct script {
	const struct item *it;
	size_t n, at;     /* items, and how many were read */
	int ordered;
};

static int s_next(void *ctx, struct sr_rkey *k, struct sr_diag *d)
{
	struct script *s = ctx;
	const struct item *it;

	(void)d;
	if (s->at == s->n)
		return SR_RS_END;
	it = &s->it[s->at++];
	k->ts = it->ts;
	k->seq = it->seq;
	return it->what == REC ? SR_RS_REC : it->what == ROUND ? SR_RS_ROUND
							      : SR_RS_END;
}

/* A record: its time, seq in line, and the items read so far in value. */
static int s_decode(void *ctx, const struct sr_rkey *k, struct sr_raw *out,
		    struct sr_diag *d)
{
	struct script *s = ctx;

	(void)d;
	out->ts = k->ts;
	out->line = k->seq;
	out->value = (int64_t)s->at;
	out->kind = SR_EV_LOST;
	return SR_P_RAW;
}

static void s_counts(void *ctx, struct sr_merge_counts *c)
{
	(void)ctx;
	memset(c, 0, sizeof(*c));
}

static void s_close(void *ctx)
{
	(void)ctx;
}

struct want {
	int64_t ts;
	uint64_t seq;
	int64_t read;     /* items read when it leaves */
};

/* Run a script; the keys out in order, or the error's status and text. */
static void run(const char *name, const struct item *it, size_t n,
		int ordered, const struct want *w, size_t nw, int want_rc,
		const char *want_msg)
{
	const struct sr_rsrc_ops ops = {
		.ordered = ordered, .next = s_next, .decode = s_decode,
		.counts = s_counts, .close = s_close,
	};
	struct script s = { it, n, 0, ordered };
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_merge *m;
	const struct sr_raw *r;
	size_t got = 0;
	int rc, bad = 0;

	CHECK_CTX("%s", name);
	CHECK_INT(sr_merge_open_records(&m, &ops, &s, "script", &d), SR_OK);
	while ((rc = sr_merge_next(m, &r, &d)) == 1) {
		/* told at the first key out of place only */
		if (got < nw && !bad) {
			bad = r->ts != w[got].ts ||
			      r->line != w[got].seq || r->value != w[got].read;
			CHECK_INT(r->ts, w[got].ts);
			CHECK_INT(r->line, w[got].seq);
			CHECK_INT(r->value, w[got].read);
		}
		got++;
	}
	CHECK_INT(got, nw);
	CHECK_INT(rc < 0 ? d.code : 0, want_rc);
	if (want_msg)
		CHECK(strstr(d.msg, want_msg) != NULL);
	sr_merge_close(m);
}

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- a long script, against the rule worked out plainly ---- */

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

static int key_cmp(const void *a, const void *b)
{
	const struct want *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/*
 * Rounds as perf writes them: four cpus' stretches each, a round's times
 * overlapping the last one's, a record now and then a little back in time
 * (an interrupt's event written first), times repeated, and rounds of a
 * few keys and of 150 000 (the keys' array grows, is compacted, goes past
 * 2 MB).  The bound after round r + 1 is round r's newest time, and no
 * record older than it follows.  What leaves and when, worked out plainly:
 * after each item, every key waiting at or before the bound, sorted by
 * (time, seq); a key read at or before the bound at once; at the end the
 * rest.
 */
static void test_long(void)
{
	enum { NROUND = 40, NCPU = 4, SPAN = 1000000 };
	size_t cap = 1 << 21, n = 0, nw = 0, nwait = 0;
	struct item *it = malloc(cap * sizeof(*it));
	struct want *w = malloc(cap * sizeof(*w)), *wait = malloc(cap * sizeof(*w));
	int64_t newest[NROUND] = { 0 }, bound = 0;
	int bset = 0;
	uint64_t seq = 1;

	if (!it || !w || !wait) {
		CHECK(!"out of memory");
		return;
	}
	for (int r = 0; r < NROUND; r++) {
		int64_t base = (int64_t)r * SPAN / 2;
		size_t per = r % 9 == 4 ? 150000 / NCPU : (size_t)rnd(3000);

		for (int c = 0; c < NCPU; c++) {
			int64_t t = base + (int64_t)rnd(SPAN / 4);

			for (size_t i = 0; i < per && n < cap - 8; i++) {
				int64_t ts = t;

				t += (int64_t)rnd((uint64_t)(SPAN / 2 / (per + 1)) + 1);
				if (t > base + SPAN - 1)
					t = base + SPAN - 1;
				if (rnd(100) == 0 && ts > base + 5)
					ts -= (int64_t)rnd(5);  /* back in time */
				it[n++] = (struct item){ REC, ts, seq++ };
				if (ts > newest[r])
					newest[r] = ts;
			}
		}
		if (r > 0)
			it[n++] = (struct item){ ROUND, newest[r - 1], 0 };
	}
	/* the rule, plainly */
	for (size_t i = 0; i < n; i++) {
		if (it[i].what == REC) {
			struct want k = { it[i].ts, it[i].seq, (int64_t)i + 1 };

			if (bset && k.ts <= bound)
				w[nw++] = k;
			else
				wait[nwait++] = k;
			continue;
		}
		if (!bset || it[i].ts > bound)
			bound = it[i].ts;
		bset = 1;
		qsort(wait, nwait, sizeof(*wait), key_cmp);
		size_t j = 0, keep = 0;

		for (; j < nwait && wait[j].ts <= bound; j++) {
			w[nw] = wait[j];
			w[nw++].read = (int64_t)i + 1;
		}
		for (; j < nwait; j++)
			wait[keep++] = wait[j];
		nwait = keep;
	}
	qsort(wait, nwait, sizeof(*wait), key_cmp);
	for (size_t j = 0; j < nwait; j++) {
		w[nw] = wait[j];
		w[nw++].read = (int64_t)n;
	}
	CHECK(n > 500000);
	run("long", it, n, 0, w, nw, 0, NULL);
	free(it);
	free(w);
	free(wait);
}

int main(void)
{
	/*
	 * Two cpus' stretches in a round, as perf writes its ring buffers:
	 * cpu 0's 10 20 30, then cpu 1's 15 25.  The round (item 6) bounds
	 * them at 22: 10, 15, 20 leave, before item 7 is read.  25 and 30
	 * wait (newer than 22); 40 and 35 are read, the round at 36 lets
	 * 25, 30, 35 go (9 items read), the end the rest.
	 */
	static const struct item runs[] = {
		{ REC, 10, 1 }, { REC, 20, 2 }, { REC, 30, 3 }, { REC, 15, 4 },
		{ REC, 25, 5 }, { ROUND, 22, 0 }, { REC, 40, 6 },
		{ REC, 35, 7 }, { ROUND, 36, 0 },
	};
	static const struct want runs_w[] = {
		{ 10, 1, 6 }, { 15, 4, 6 }, { 20, 2, 6 }, { 25, 5, 9 },
		{ 30, 3, 9 }, { 35, 7, 9 }, { 40, 6, 9 },
	};
	/*
	 * Equal times leave in input order (seq), whichever stretch they are
	 * in: 50 (seq 8), 50 (seq 10), then 60.  A round that covers nothing
	 * (5, before any key) lets nothing go.
	 */
	static const struct item ties[] = {
		{ ROUND, 5, 0 }, { REC, 50, 8 }, { REC, 60, 9 },
		{ REC, 50, 10 }, { ROUND, 100, 0 },
	};
	static const struct want ties_w[] = {
		{ 50, 8, 5 }, { 50, 10, 5 }, { 60, 9, 5 },
	};
	/*
	 * A key read at or before the bound (20 after the round at 30) is
	 * the oldest waiting (the others are newer than 30) and leaves at
	 * once, before item 5 is read; 31 waits for the end.
	 */
	static const struct item late[] = {
		{ REC, 40, 1 }, { ROUND, 30, 0 }, { REC, 31, 2 },
		{ REC, 20, 3 }, { REC, 45, 4 },
	};
	static const struct want late_w[] = {
		{ 20, 3, 4 }, { 31, 2, 5 }, { 40, 1, 5 }, { 45, 4, 5 },
	};
	/*
	 * A key older than one handed out breaks the promise: 10 and 20
	 * leave at the round at 25, then 15 comes: refused (exit 65).
	 */
	static const struct item broken[] = {
		{ REC, 10, 1 }, { REC, 20, 2 }, { ROUND, 25, 0 },
		{ REC, 15, 3 },
	};
	static const struct want broken_w[] = {
		{ 10, 1, 3 }, { 20, 2, 3 },
	};
	/*
	 * A round that covers keys already sorted, while those read since
	 * are newer: 30 (sorted when the round at 20 let 10 go) leaves at
	 * the round at 40, before item 6 is read; 50 and 60 at the end.
	 */
	static const struct item pending[] = {
		{ REC, 10, 1 }, { REC, 30, 2 }, { ROUND, 20, 0 },
		{ REC, 50, 3 }, { ROUND, 40, 0 }, { REC, 60, 4 },
	};
	static const struct want pending_w[] = {
		{ 10, 1, 3 }, { 30, 2, 5 }, { 50, 3, 6 }, { 60, 4, 6 },
	};
	/* A source in order (trace.dat's): each key leaves as it is read. */
	static const struct item inorder[] = {
		{ REC, 1, 1 }, { REC, 2, 2 }, { REC, 2, 3 }, { REC, 7, 4 },
	};
	static const struct want inorder_w[] = {
		{ 1, 1, 1 }, { 2, 2, 2 }, { 2, 3, 3 }, { 7, 4, 4 },
	};
	/*
	 * Many stretches in one round (five cpus, out of step with each
	 * other): they leave in time order, every key once, at the end.
	 */
	struct item many[60];
	struct want many_w[60];
	size_t n = 0;

	for (int c = 0; c < 5; c++)
		for (int i = 0; i < 12; i++) {
			many[n].what = REC;
			many[n].ts = 1000 + i * 50 + ((c * 37) % 50);
			many[n].seq = n + 1;
			n++;
		}
	/* by hand: time 1000 + i*50 + o, o = c*37 % 50 = 0, 37, 24, 11, 48
	 * for cpus 0..4: within each i, cpus 0, 3, 2, 1, 4 */
	{
		static const int by_offset[5] = { 0, 3, 2, 1, 4 };

		n = 0;
		for (int i = 0; i < 12; i++)
			for (int j = 0; j < 5; j++) {
				int c = by_offset[j];

				many_w[n].ts = 1000 + i * 50 + ((c * 37) % 50);
				many_w[n].seq = (uint64_t)(c * 12 + i + 1);
				many_w[n].read = 60;
				n++;
			}
	}
	run("two stretches, two rounds", runs, NELEM(runs), 0, runs_w,
	    NELEM(runs_w), 0, NULL);
	run("ties", ties, NELEM(ties), 0, ties_w, NELEM(ties_w), 0, NULL);
	run("sorted keys covered", pending, NELEM(pending), 0, pending_w,
	    NELEM(pending_w), 0, NULL);
	run("late key", late, NELEM(late), 0, late_w, NELEM(late_w), 0, NULL);
	run("broken promise", broken, NELEM(broken), 0, broken_w,
	    NELEM(broken_w), SR_EDATA, "script:3: expected records in time "
	    "order once merged, got one at 0.000000015 after the record at "
	    "0.000000020 (offset 2)");
	run("in order", inorder, NELEM(inorder), 1, inorder_w,
	    NELEM(inorder_w), 0, NULL);
	run("five stretches", many, NELEM(many), 0, many_w, NELEM(many_w), 0,
	    NULL);
	test_long();
	return test_done("test-keymerge");
}
