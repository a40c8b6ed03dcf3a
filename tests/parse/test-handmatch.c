/*
 * test-handmatch: the hand matchers (parse/handmatch.c) against pcre2,
 * the patterns they stand for.  A hand match must be pcre2's match: the
 * same end and, for every group of the pattern, the same offsets (or
 * both unset); a hand matcher may decline a line, never read it
 * otherwise.  The lines: every line of the perf script samples in the
 * repository (the header on the whole line, each field layout with a hand
 * matcher on what follows the header), thousands of them mangled (a byte
 * left out, doubled or replaced by one of the bytes the patterns turn on,
 * a field's text put in again elsewhere, a blank run widened), and lines
 * written for the corners (names holding a field's text, the header's
 * leading blanks that only pcre2 backtracks into, optional parts half
 * there).  And the hand matchers must read the usual lines: at least
 * 99.9 % of the samples' headers and field lines, else they save nothing.
 */
#include <glob.h>
#include <stdint.h>
#include <string.h>

#include "parse/input.h"
#include "parse/patterns.h"
#include "tests/lib/test.h"

static struct sr_patterns pat;
static uint64_t compared, hand_hits, hand_tries;

static const enum sr_pat hand_ids[] = {
	P_PERF_HDR, P_F_SWITCH, P_F_WAKE, P_F_RUNTIME, P_F_MIGRATE,
	P_F_TASKPRIO,
};
#define NIDS (sizeof(hand_ids) / sizeof(hand_ids[0]))

/* Hand against pcre2 on s[0..n): 1 if the hand matcher matched. */
static int same(enum sr_pat id, const char *s, size_t n)
{
	PCRE2_SIZE ov[2 * (G__COUNT + 1)];
	struct sr_match re, hm;
	int h, r;

	for (size_t k = 0; k < sizeof(ov) / sizeof(ov[0]); k++)
		ov[k] = PCRE2_UNSET;
	h = sr_hand_match(id, s, n, 0, ov);
	r = sr_match_re(&pat, id, s, n, 0, &re);
	compared++;
	if (!h)
		return 0;
	if (!r) {
		CHECK_CTX("pattern %d, '%.*s'", (int)id, (int)n, s);
		CHECK(!"a hand match where pcre2 finds none");
		return 1;
	}
	test_checks++;
	hm = (struct sr_match){ s, ov, sr_hand_grp };
	if (sr_match_end(&hm) != sr_match_end(&re)) {
		CHECK_CTX("pattern %d, '%.*s'", (int)id, (int)n, s);
		CHECK_INT(sr_match_end(&hm), sr_match_end(&re));
	}
	for (int g = 0; g < G__COUNT; g++) {
		const char *hp, *rp;
		size_t hn, rn;
		int hs = sr_grp(&hm, (enum sr_grp)g, &hp, &hn);
		int rs = sr_grp(&re, (enum sr_grp)g, &rp, &rn);

		if (rs && !sr_hand_groups(id, (enum sr_grp)g)) {
			CHECK_CTX("pattern %d, group %d", (int)id, g);
			CHECK(!"pcre2 sets a group the hand matcher does not know");
		}
		if (hs != rs || hp != rp || hn != rn) {
			CHECK_CTX("pattern %d, group %d of '%.*s'", (int)id, g,
				  (int)n, s);
			CHECK_INT(hs ? (long long)(hp - s) : -1,
				  rs ? (long long)(rp - s) : -1);
			CHECK_INT(hn, rn);
		}
	}
	return 1;
}

/* A line as the reader gives it: the header on all of it, and every
 * field layout on what follows a header pcre2 matches (or on all of it:
 * mangling may leave no header). */
static void line(const char *s, size_t n)
{
	struct sr_match m;
	size_t off;

	same(P_PERF_HDR, s, n);
	off = sr_match_re(&pat, P_PERF_HDR, s, n, 0, &m) ? sr_match_end(&m) : 0;
	for (size_t i = 1; i < NIDS; i++)
		same(hand_ids[i], s + off, n - off);
}

/* ---- mangled lines -------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* the bytes the patterns turn on */
static const char special[] = " \t\v\f\r-/:[].09a_=+()>\x01\xff";
/* and the texts */
static const char *const texts[] = {
	" ", "  ", " 12 [001] 5.5: a:b: ", "/7", "/-", "-", " 42 ", "[0]",
	" prev_pid=", " prev_pid=1 prev_prio=2 prev_state=S", " ==>",
	" next_comm=", " next_pid=", " next_pid=3 next_prio=120",
	" next_prio=-1", " pid=", " pid=9 prio=120", " prio=", " success=",
	" success=1", " target_cpu=", " target_cpu=002", " runtime=",
	" runtime=77 [ns]", " [ns]", " vruntime=", " vruntime=5 [ns]",
	" orig_cpu=1", " dest_cpu=", " dest_cpu=0", " group_dead=1",
	"comm=", "prev_comm=", "sched:", ":", "::", "\t\t", " 1.2:",
};

static void mangle(const char *s, size_t n)
{
	char b[SR_LINE_MAX + 128];
	size_t i, k, t;

	if (n + 64 > sizeof(b))
		return;
	for (int round = 0; round < 6; round++) {
		i = n ? (size_t)(next() % n) : 0;
		switch (next() % 5) {
		case 0: /* a byte left out */
			memcpy(b, s, i);
			memcpy(b + i, s + i + 1, n - i - 1);
			line(b, n ? n - 1 : 0);
			break;
		case 1: /* a byte doubled */
			memcpy(b, s, i + 1);
			memcpy(b + i + 1, s + i, n - i);
			line(b, n + 1);
			break;
		case 2: /* a byte replaced */
			memcpy(b, s, n);
			b[i] = special[next() % (sizeof(special) - 1)];
			line(b, n);
			break;
		case 3: /* a text put in */
			t = (size_t)(next() % (sizeof(texts) / sizeof(texts[0])));
			k = strlen(texts[t]);
			memcpy(b, s, i);
			memcpy(b + i, texts[t], k);
			memcpy(b + i + k, s + i, n - i);
			line(b, n + k);
			break;
		default: /* the end cut off, or blanks after it */
			memcpy(b, s, n);
			if (next() % 2) {
				line(b, i);
			} else {
				memcpy(b + n, " \t ", 3);
				line(b, n + 3);
			}
			break;
		}
	}
}

/* ---- the corners ------------------------------------------------------------ */

static const char *const corners[] = {
	/* pcre2 gives fewer of the leading blanks to \s* and an empty name */
	" 5 [001] 1.000001: sched:sched_switch: ",
	"  12/13  [000]  99.5:  sched:x: ",
	/* names with blanks, digits and brackets */
	"   Web Content 1234 [001]   10.000001: sched:sched_waking: comm=a b pid=1 prio=120 target_cpu=001",
	" a 1 [0] 2 3 [001] 1.5: sched:sched_wakeup: ",
	" kworker/u8:2-events 77/78 [003] 12.000000001: 1 sched:sched_switch: ",
	" x -5 [001] -1.5: sched:sched_switch:",
	" x 5/-6 [001] 1.5:\t\v100\tsched:sched_switch:\t\t",
	" x 5/ [001] 1.5: sched:a:",
	" x 5 [001] 1.5: 12sched:a:",
	" x 5 [001] 1.5: 12 :a:",
	" x 5 [001] 1.5 : sched:a:",
	" x  5 [] 1.5: sched:a:",
	" x 5 [001] 1.: sched:a:",
	/* field layouts: texts inside names, optional parts half there */
	"prev_comm=a prev_pid=1 prev_pid=2 prev_prio=120 prev_state=S ==> next_comm=b next_pid=3 next_prio=120",
	"prev_comm=a prev_pid=1 prev_prio=120 prev_state=R+ ==> next_comm=b next_pid=3 next_prio=120 next_pid=4 next_prio=5",
	"prev_comm=a prev_pid=1 prev_prio=120 prev_state=S next_comm=b next_pid=3 next_prio=-1  \t",
	"prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==>next_comm=b next_pid=3 next_prio=1",
	"prev_comm= prev_pid=1 prev_prio=120 prev_state=S ==> next_comm= next_pid=3 next_prio=1",
	"comm=a pid=1 prio=120 success=1 target_cpu=003",
	"comm=a pid=1 prio=120 success= target_cpu=003",
	"comm=a pid=1 prio=120 target_cpu=003 success=1",
	"comm=a pid=1 prio=2 pid=3 prio=4",
	"comm=a pid=1 prio=-2\r",
	"comm=a pid=1 runtime=5 [ns] vruntime=6 [ns]",
	"comm=a pid=1 runtime=5 vruntime=6",
	"comm=a pid=1 runtime=5 [ns] vruntime= [ns]",
	"comm=a pid=1 runtime=5 [ns] [ns]",
	"comm=a pid=1 prio=120 orig_cpu=1 dest_cpu=2",
	"comm=a pid=1 prio=120 orig_cpu=1 dest_cpu=",
	"comm=a pid=1 prio=120 group_dead=1",
	"comm=a pid=1 prio=120 group_dead=",
	"comm=a pid=1 prio=120 group_dead=1 x",
};

#define SAME(id, str) same((id), (str), strlen(str))

static void test_corners(void)
{
	for (size_t i = 0; i < sizeof(corners) / sizeof(corners[0]); i++)
		for (size_t k = 0; k < NIDS; k++)
			same(hand_ids[k], corners[i], strlen(corners[i]));
	/* pcre2 reads these two; the hand matcher must not, in its way */
	CHECK_INT(SAME(P_PERF_HDR, " 5 [001] 1.000001: sched:sched_switch: "), 0);
	CHECK_INT(SAME(P_PERF_HDR, "  12/13  [000]  99.5:  sched:x: "), 0);
	/* these the hand matchers read */
	CHECK_INT(SAME(P_PERF_HDR, "   Web Content 1234 [001]   10.000001: "
		       "sched:sched_waking: comm=a"), 1);
	CHECK_INT(SAME(P_PERF_HDR, " kworker/u8:2-events 77/78 [003] "
		       "12.000000001: 1 sched:sched_switch: "), 1);
	CHECK_INT(SAME(P_F_SWITCH, "prev_comm=a prev_pid=1 prev_pid=2 "
		       "prev_prio=120 prev_state=S ==> next_comm=b next_pid=3 "
		       "next_prio=120"), 1);
	CHECK_INT(SAME(P_F_SWITCH, "prev_comm=a prev_pid=1 prev_prio=120 "
		       "prev_state=R+ ==> next_comm=b next_pid=3 next_prio=120 "
		       "next_pid=4 next_prio=5"), 1);
	CHECK_INT(SAME(P_F_WAKE, "comm=a pid=1 prio=2 pid=3 prio=4"), 1);
	/* a group an earlier end of the name set, unset by the one that
	 * matches */
	CHECK_INT(SAME(P_PERF_HDR, " a 1/2 b 3 [001] 1.5: sched:x: "), 1);
	CHECK_INT(SAME(P_F_WAKE, "comm=a pid=1 prio=2 success=1 target_cpu=3 "
		       "x pid=3 prio=4"), 1);
	CHECK_INT(SAME(P_F_WAKE, "comm=a pid=1 prio=2 success=1 x pid=3 "
		       "prio=4 target_cpu=5"), 1);
	test_ctx[0] = '\0';
}

/* ---- the samples --------------------------------------------------------------- */

static void test_file(const char *path)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_input *in;
	const char *s;
	size_t n;
	uint64_t lines = 0;

	CHECK_CTX("%.200s", path);
	CHECK_INT(sr_input_open(&in, path, 0, &d), SR_OK);
	if (d.code)
		return;
	while (sr_input_next(in, &s, &n, &d) == SR_IN_LINE) {
		struct sr_match m;
		PCRE2_SIZE ov[2 * (G__COUNT + 1)];

		line(s, n);
		/* how many usual lines the hand matchers read */
		if (sr_match_re(&pat, P_PERF_HDR, s, n, 0, &m)) {
			size_t off = sr_match_end(&m);

			hand_tries++;
			hand_hits += (uint64_t)sr_hand_match(P_PERF_HDR, s, n, 0,
							     ov);
			for (size_t k = 1; k < NIDS; k++)
				if (sr_match_re(&pat, hand_ids[k], s + off,
						n - off, 0, &m)) {
					hand_tries++;
					hand_hits += (uint64_t)sr_hand_match(
						hand_ids[k], s + off, n - off,
						0, ov);
					break;
				}
		}
		if (lines++ % 7 == 0)
			mangle(s, n);
	}
	sr_input_close(in);
}

int main(void)
{
	static const char *const globs[] = {
		"traces/*.perf.txt.gz", "traces/binary/*.perf.txt.gz",
		"tests/replay/data/*.perf.txt.gz", "tests/parse/data/perf-*.txt",
		"tests/parse/data/bin/*.perf.txt",
	};
	struct sr_diag d = SR_DIAG_INIT;
	size_t files = 0;

	CHECK_INT(sr_patterns_init(&pat, &d), SR_OK);
	test_corners();
	for (size_t i = 0; i < sizeof(globs) / sizeof(globs[0]); i++) {
		glob_t g;

		if (glob(globs[i], 0, NULL, &g) != 0)
			continue;
		for (size_t k = 0; k < g.gl_pathc; k++, files++)
			test_file(g.gl_pathv[k]);
		globfree(&g);
	}
	test_ctx[0] = '\0';
	CHECK(files >= 10);
	CHECK(hand_tries > 100000);
	/* at least 99.9 % of the usual lines read by hand */
	CHECK(hand_hits * 1000 >= hand_tries * 999);
	printf("test-handmatch: %llu lines compared, %llu of %llu usual "
	       "headers and fields read by hand\n",
	       (unsigned long long)compared, (unsigned long long)hand_hits,
	       (unsigned long long)hand_tries);
	sr_patterns_free(&pat);
	return test_done("test-handmatch");
}
