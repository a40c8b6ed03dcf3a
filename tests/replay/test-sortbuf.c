/*
 * test-sortbuf: the bounded-memory priority queue gives exactly the order
 * of a full sort, with pops interleaved with pushes, whether records go
 * to the temporary file (most of them) or not (no usable TMPDIR: memory
 * only); its figures say which.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "replay/sortbuf.h"
#include "tests/lib/test.h"

struct rec {
	int64_t key;
	uint64_t seq;
};

static bool rless(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;

	return a->key != b->key ? a->key < b->key : a->seq < b->seq;
}

static int rcmp(const void *a, const void *b)
{
	return rless(a, b) ? -1 : rless(b, a) ? 1 : 0;
}

/*
 * n records with keys from a fixed LCG, mostly rising, a few far back
 * (the long waits); every 7th push, pop what lies below every key still
 * to come (the latency writer's bound: no wait to come starts before it);
 * then pop all.  The records come out sorted, and are all of them.
 */
static void run(size_t n, size_t mem_max, struct sr_sortbuf_stats *st)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_sortbuf *b;
	struct rec *in = malloc(n * sizeof(*in)), *out = malloc(n * sizeof(*out));
	int64_t *later = malloc((n + 1) * sizeof(*later));
	uint64_t x = 12345;
	size_t nout = 0;
	int64_t bound;
	const void *m;

	CHECK(in && out && later);
	if (!in || !out || !later)
		return;
	for (size_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		in[i].key = (int64_t)i * 10 - (int64_t)((x >> 33) % 1000) -
			    ((x >> 20) % 997 == 0 ? (int64_t)(i * 5) : 0);
		in[i].seq = i;
	}
	later[n] = INT64_MAX;
	for (size_t i = n; i-- > 0;)
		later[i] = in[i].key < later[i + 1] ? in[i].key : later[i + 1];
	CHECK_INT(sr_sortbuf_new(&b, sizeof(struct rec), rless, mem_max, &d),
		  SR_OK);
	for (size_t i = 0; i < n; i++) {
		CHECK_INT(sr_sortbuf_push(b, &in[i]), SR_OK);
		if (i % 7 == 0) {
			bound = later[i + 1];
			while (sr_sortbuf_min(b, &m) == SR_OK && m &&
			       ((const struct rec *)m)->key < bound) {
				out[nout++] = *(const struct rec *)m;
				sr_sortbuf_pop(b);
			}
		}
	}
	CHECK_INT(sr_sortbuf_count(b), n - nout);
	while (sr_sortbuf_min(b, &m) == SR_OK && m) {
		out[nout++] = *(const struct rec *)m;
		CHECK_INT(sr_sortbuf_pop(b), SR_OK);
	}
	CHECK_INT(nout, n);
	CHECK_INT(sr_sortbuf_count(b), 0);
	sr_sortbuf_stats(b, st);
	/* the popped prefix (below each bound) was sorted already: the whole
	   output is the sorted input */
	qsort(in, n, sizeof(*in), rcmp);
	CHECK(!memcmp(in, out, n * sizeof(*in)));
	sr_sortbuf_free(b);
	free(in);
	free(out);
	free(later);
}

int main(void)
{
	struct sr_sortbuf_stats st;

	run(200000, 1000, &st);
	CHECK(st.peak > 50000);
	CHECK(st.peak_mem <= 1024);   /* the heap's first size over 1000 */
	CHECK(st.runs > 50);
	CHECK(st.spilled > 50000);

	run(5000, 100000, &st);       /* fits: no file */
	CHECK_INT(st.runs, 0);

	setenv("TMPDIR", "/nonexistent/schedreplay-test", 1);
	run(50000, 1000, &st);        /* no file can be made: memory only */
	CHECK_INT(st.runs, 0);
	CHECK(st.peak_mem == st.peak);
	return test_done("test-sortbuf");
}
