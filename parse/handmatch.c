/*
 * handmatch: the usual lines matched by hand, exactly as their pcre2
 * patterns (patterns.c) would match them, or not at all: a matcher here
 * either gives the very groups and end pcre2 gives, or declines, and
 * sr_match() asks pcre2.  So a line nothing here expects (another layout,
 * a damaged line, one whose name repeats a field's text) costs a refusal,
 * never a different reading.  tests/parse/test-handmatch checks every
 * line of the samples and thousands of mangled ones against pcre2.
 *
 * Why the hand matches are pcre2's own.  Every pattern here is anchored
 * and has this shape: fixed text and runs of one character class, each
 * run greedy and followed by text its class cannot hold (\s+ by a digit,
 * \d+ by a space or a colon, \w+ by a colon, \S+ by a space), optional
 * parts that begin with text the part after them cannot begin with, and
 * one or two lazy names (.*?) each followed by literal text.  A greedy run
 * that gives back a character leaves it for text its class excludes, and
 * an optional part left out leaves its own first characters for what
 * follows, which cannot take them: so backtracking into either never
 * leads to another match, and from a given end of the names the rest
 * matches in one way or not at all.  pcre2 tries a lazy name's ends
 * shortest first (an outer name's before an inner one's): the matchers
 * here try the same ends in the same order, so the first that lets the
 * rest match is pcre2's.  The perf header's leading \s* is greedy: pcre2
 * tries all the blanks first, as here; should no end of the name work
 * after all of them, pcre2 would try fewer, and here the line is declined.
 * Character classes are pcre2's defaults (no UTF, no UCP): \s is space,
 * \t, \n, \v, \f and \r; \d the ASCII digits; \w letters, digits and '_'.
 * $ (no multiline) is the end, or before a newline that ends the subject:
 * after a greedy \s* that is the end.
 *
 * Private to parse/.
 */
#include <stdint.h>
#include <string.h>

#include "parse/patterns.h"

/* Lazy names tried at most this many ends; a line needing more goes to
 * pcre2 (quadratic lines are its business, as before). */
#define HM_MAX_ENDS 32

struct hm {
	const char *s;
	size_t n;
	PCRE2_SIZE *ov;     /* indexed by sr_grp + 1 (see sr_hand_match) */
};

/* The classes, by byte: pcre2's default tables for these three */
enum { C_S = 1, C_D = 2, C_W = 4 };
#define W4(a) C_W, C_W, C_W, C_W
#define W26 W4(0), W4(0), W4(0), W4(0), W4(0), W4(0), C_W, C_W
static const unsigned char cls[256] = {
	['\t'] = C_S, ['\n'] = C_S, ['\v'] = C_S, ['\f'] = C_S, ['\r'] = C_S,
	[' '] = C_S,
	['0'] = C_D | C_W, C_D | C_W, C_D | C_W, C_D | C_W, C_D | C_W,
	C_D | C_W, C_D | C_W, C_D | C_W, C_D | C_W, C_D | C_W,
	['A'] = W26, ['_'] = C_W, ['a'] = W26,
};
#undef W4
#undef W26

static inline int is_s(unsigned char c)
{
	return cls[c] & C_S;
}

static inline int is_d(unsigned char c)
{
	return cls[c] & C_D;
}

static inline int is_w(unsigned char c)
{
	return cls[c] & C_W;
}

static inline void grp(struct hm *h, enum sr_grp g, size_t so, size_t eo)
{
	h->ov[2 * (g + 1)] = so;
	h->ov[2 * (g + 1) + 1] = eo;
}

static inline void unset(struct hm *h, enum sr_grp g)
{
	h->ov[2 * (g + 1)] = h->ov[2 * (g + 1) + 1] = PCRE2_UNSET;
}

/* Literal text at *i: moved past it, 1; or 0. */
static inline int lit(const struct hm *h, size_t *i, const char *t, size_t tn)
{
	if (h->n - *i < tn || memcmp(h->s + *i, t, tn) != 0)
		return 0;
	*i += tn;
	return 1;
}

#define LIT(h, i, t) lit((h), (i), (t), sizeof(t) - 1)

/* A greedy run of at least min characters of class cls at *i: its end. */
#define RUN(cls, h, i, min) run_##cls((h), (i), (min))
#define DEF_RUN(cls) \
	static inline int run_##cls(const struct hm *h, size_t *i, size_t min) \
	{ \
		size_t k = *i; \
		while (k < h->n && cls((unsigned char)h->s[k])) \
			k++; \
		if (k - *i < min) \
			return 0; \
		*i = k; \
		return 1; \
	}
DEF_RUN(is_d)
DEF_RUN(is_w)

/* \s+ (min 1) or \s* (min 0) at *i, spaces eight at a time (perf script
 * pads its columns with them) */
static inline int blanks(const struct hm *h, size_t *i, size_t min)
{
	size_t k = *i;
	uint64_t w;

	while (k + 8 <= h->n) {
		memcpy(&w, h->s + k, 8);
		if (w != 0x2020202020202020ull)
			break;
		k += 8;
	}
	while (k < h->n && is_s((unsigned char)h->s[k]))
		k++;
	if (k - *i < min)
		return 0;
	*i = k;
	return 1;
}

static inline int not_s(unsigned char c)
{
	return !is_s(c);
}
DEF_RUN(not_s)

/* -?\d+ at *i, as group g. */
static inline int snum(struct hm *h, size_t *i, enum sr_grp g)
{
	size_t a = *i;

	if (*i < h->n && h->s[*i] == '-')
		(*i)++;
	if (!RUN(is_d, h, i, 1))
		return 0;
	grp(h, g, a, *i);
	return 1;
}

/* \d+ at *i, as group g. */
static inline int num(struct hm *h, size_t *i, enum sr_grp g)
{
	size_t a = *i;

	if (!RUN(is_d, h, i, 1))
		return 0;
	grp(h, g, a, *i);
	return 1;
}

/* \s*$ at i: only blanks to the end. */
static inline int tail(const struct hm *h, size_t i)
{
	for (; i < h->n; i++)
		if (!is_s((unsigned char)h->s[i]))
			return 0;
	return 1;
}

/* The pattern's end at i: \s*$, the match ending with the subject. */
static int ends(const struct hm *h, size_t i, size_t *end)
{
	if (!tail(h, i))
		return 0;
	*end = h->n;
	return 1;
}

/* The next end of a lazy name, from *from on, where text t begins: its
 * offset, or h->n when there is none. */
static size_t next_at(const struct hm *h, size_t from, const char *t,
		      size_t tn)
{
	const char *p = h->s + from, *last = h->s + h->n - tn;

	if (from > h->n || h->n - from < tn)
		return h->n;
	while (p <= last && (p = memchr(p, t[0], (size_t)(last - p) + 1))) {
		if (!memcmp(p + 1, t + 1, tn - 1))
			return (size_t)(p - h->s);
		p++;
	}
	return h->n;
}

/*
 * A lazy name from a at *i, then what rest() matches from its end: the
 * ends tried where the text after the name (t) begins, shortest first.
 * rest(h, e, &end) sees the name's end e; 1 with the match's end.
 */
static int lazy(struct hm *h, size_t a, enum sr_grp g, const char *t,
		size_t tn, int (*rest)(struct hm *, size_t, size_t *),
		size_t *end)
{
	size_t e = next_at(h, a, t, tn);

	for (int k = 0; e < h->n && k < HM_MAX_ENDS; k++) {
		if (rest(h, e, end)) {
			grp(h, g, a, e);
			return 1;
		}
		e = next_at(h, e + 1, t, tn);
	}
	return 0;
}

/* ---- perf script's line header ----------------------------------------
 * \s*(?<comm>.*?)\s+(?<pid>-?\d+)(?:/(?<tid>-?\d+))?\s+\[(?<cpu>\d+)\]\s+
 * (?<ts>-?\d+\.\d+):\s+(?:\d+\s+)?(?<sys>\w+):(?<ev>\w+):\s*
 */
static int perf_hdr_rest(struct hm *h, size_t i, size_t *end)
{
	size_t a;

	if (!blanks(h, &i, 1) || !snum(h, &i, G_PID))
		return 0;
	unset(h, G_TID);
	if (i < h->n && h->s[i] == '/') {
		/* the optional /tid: taken when it matches (left out, \s+
		 * would have to match the '/') */
		i++;
		if (!snum(h, &i, G_TID))
			return 0;
	}
	if (!blanks(h, &i, 1) || !LIT(h, &i, "[") || !num(h, &i, G_CPU) ||
	    !LIT(h, &i, "]") || !blanks(h, &i, 1))
		return 0;
	a = i;
	if (i < h->n && h->s[i] == '-')
		i++;
	if (!RUN(is_d, h, &i, 1) || !LIT(h, &i, ".") || !RUN(is_d, h, &i, 1))
		return 0;
	grp(h, G_TS, a, i);
	if (!LIT(h, &i, ":") || !blanks(h, &i, 1))
		return 0;
	/* the optional sample period: digits then blanks (left out, \w+
	 * would take the digits and then need a ':' where a blank is) */
	a = i;
	if (RUN(is_d, h, &a, 1) && blanks(h, &a, 1))
		i = a;
	a = i;
	if (!RUN(is_w, h, &i, 1))
		return 0;
	grp(h, G_SYS, a, i);
	if (!LIT(h, &i, ":"))
		return 0;
	a = i;
	if (!RUN(is_w, h, &i, 1))
		return 0;
	grp(h, G_EV, a, i);
	if (!LIT(h, &i, ":"))
		return 0;
	blanks(h, &i, 0);
	*end = i;
	return 1;
}

static int perf_hdr(struct hm *h, size_t *end)
{
	size_t a = 0, e;

	blanks(h, &a, 0);
	/* the name ends where a blank begins (\s+ follows it) */
	e = a;
	for (int k = 0; k < HM_MAX_ENDS; k++) {
		while (e < h->n && !is_s((unsigned char)h->s[e]))
			e++;
		if (e >= h->n)
			return 0;
		if (perf_hdr_rest(h, e, end)) {
			grp(h, G_COMM, a, e);
			return 1;
		}
		e++;
	}
	return 0;
}

/* ---- sched_switch ------------------------------------------------------
 * prev_comm=(?<pcomm>.*?) prev_pid=(?<ppid>\d+) prev_prio=(?<pprio>-?\d+)
 * prev_state=(?<state>\S+)(?: ==>)? next_comm=(?<ncomm>.*?)
 * next_pid=(?<npid>\d+) next_prio=(?<nprio>-?\d+)\s*$
 */
static int switch_next(struct hm *h, size_t i, size_t *end)
{
	if (!LIT(h, &i, " next_pid=") || !num(h, &i, G_NPID) ||
	    !LIT(h, &i, " next_prio=") || !snum(h, &i, G_NPRIO) ||
	    !ends(h, i, end))
		return 0;
	return 1;
}

static int switch_rest(struct hm *h, size_t i, size_t *end)
{
	size_t a;

	if (!LIT(h, &i, " prev_pid=") || !num(h, &i, G_PPID) ||
	    !LIT(h, &i, " prev_prio=") || !snum(h, &i, G_PPRIO) ||
	    !LIT(h, &i, " prev_state="))
		return 0;
	a = i;
	if (!RUN(not_s, h, &i, 1))
		return 0;
	grp(h, G_STATE, a, i);
	LIT(h, &i, " ==>"); /* optional: taken when there */
	if (!LIT(h, &i, " next_comm="))
		return 0;
	return lazy(h, i, G_NCOMM, " next_pid=", 10, switch_next, end);
}

static int f_switch(struct hm *h, size_t *end)
{
	size_t i = 0;

	if (!LIT(h, &i, "prev_comm="))
		return 0;
	return lazy(h, i, G_PCOMM, " prev_pid=", 10, switch_rest, end);
}

/* The layouts that start "comm=NAME pid=": the name lazy up to " pid=",
 * what follows it matched by rest(). */
static int comm_pid(struct hm *h, int (*rest)(struct hm *, size_t, size_t *),
		    size_t *end)
{
	size_t i = 0;

	if (!LIT(h, &i, "comm="))
		return 0;
	return lazy(h, i, G_COMM, " pid=", 5, rest, end);
}

/* ---- wakeups -----------------------------------------------------------
 * comm=(?<comm>.*?) pid=(?<pid>\d+) prio=(?<prio>-?\d+)
 * (?: success=(?<succ>\d+))?(?: target_cpu=(?<tcpu>\d+))?\s*$
 */
static int wake_rest(struct hm *h, size_t i, size_t *end)
{
	size_t a;

	if (!LIT(h, &i, " pid=") || !num(h, &i, G_PID) ||
	    !LIT(h, &i, " prio=") || !snum(h, &i, G_PRIO))
		return 0;
	/* each optional part: taken when it matches whole (left out, what
	 * follows cannot begin where it begins) */
	a = i;
	if (LIT(h, &a, " success=") && num(h, &a, G_SUCC))
		i = a;
	else
		unset(h, G_SUCC);
	a = i;
	if (LIT(h, &a, " target_cpu=") && num(h, &a, G_TCPU))
		i = a;
	else
		unset(h, G_TCPU);
	return ends(h, i, end);
}

static int f_wake(struct hm *h, size_t *end)
{
	return comm_pid(h, wake_rest, end);
}

/* ---- sched_stat_runtime ------------------------------------------------
 * comm=(?<comm>.*?) pid=(?<pid>\d+) runtime=(?<rt>\d+)(?: \[ns\])?
 * (?: vruntime=\d+(?: \[ns\])?)?\s*$
 */
static int runtime_rest(struct hm *h, size_t i, size_t *end)
{
	size_t a;

	if (!LIT(h, &i, " pid=") || !num(h, &i, G_PID) ||
	    !LIT(h, &i, " runtime=") || !num(h, &i, G_RT))
		return 0;
	LIT(h, &i, " [ns]");
	a = i;
	if (LIT(h, &a, " vruntime=") && RUN(is_d, h, &a, 1)) {
		LIT(h, &a, " [ns]");
		i = a;
	}
	return ends(h, i, end);
}

static int f_runtime(struct hm *h, size_t *end)
{
	return comm_pid(h, runtime_rest, end);
}

/* ---- sched_migrate_task ------------------------------------------------
 * comm=(?<comm>.*?) pid=(?<pid>\d+) prio=(?<prio>-?\d+)
 * orig_cpu=(?<ocpu>\d+) dest_cpu=(?<dcpu>\d+)\s*$
 */
static int migrate_rest(struct hm *h, size_t i, size_t *end)
{
	if (!LIT(h, &i, " pid=") || !num(h, &i, G_PID) ||
	    !LIT(h, &i, " prio=") || !snum(h, &i, G_PRIO) ||
	    !LIT(h, &i, " orig_cpu=") || !num(h, &i, G_OCPU) ||
	    !LIT(h, &i, " dest_cpu=") || !num(h, &i, G_DCPU))
		return 0;
	return ends(h, i, end);
}

static int f_migrate(struct hm *h, size_t *end)
{
	return comm_pid(h, migrate_rest, end);
}

/* ---- exit, free --------------------------------------------------------
 * comm=(?<comm>.*?) pid=(?<pid>\d+) prio=(?<prio>-?\d+)
 * (?: group_dead=\w+)?\s*$
 */
static int taskprio_rest(struct hm *h, size_t i, size_t *end)
{
	size_t a;

	if (!LIT(h, &i, " pid=") || !num(h, &i, G_PID) ||
	    !LIT(h, &i, " prio=") || !snum(h, &i, G_PRIO))
		return 0;
	a = i;
	if (LIT(h, &a, " group_dead=") && RUN(is_w, h, &a, 1))
		i = a;
	return ends(h, i, end);
}

static int f_taskprio(struct hm *h, size_t *end)
{
	return comm_pid(h, taskprio_rest, end);
}

/* ---- the table --------------------------------------------------------- */

static int (*const hand[P__COUNT])(struct hm *, size_t *) = {
	[P_PERF_HDR] = perf_hdr,
	[P_F_SWITCH] = f_switch,
	[P_F_WAKE] = f_wake,
	[P_F_RUNTIME] = f_runtime,
	[P_F_MIGRATE] = f_migrate,
	[P_F_TASKPRIO] = f_taskprio,
};

/* The groups each matcher sets, the others left unset for good. */
static const enum sr_grp hand_groups[P__COUNT][10] = {
	[P_PERF_HDR] = { G_COMM, G_PID, G_TID, G_CPU, G_TS, G_SYS, G_EV,
			 G__COUNT },
	[P_F_SWITCH] = { G_PCOMM, G_PPID, G_PPRIO, G_STATE, G_NCOMM, G_NPID,
			 G_NPRIO, G__COUNT },
	[P_F_WAKE] = { G_COMM, G_PID, G_PRIO, G_SUCC, G_TCPU, G__COUNT },
	[P_F_RUNTIME] = { G_COMM, G_PID, G_RT, G__COUNT },
	[P_F_MIGRATE] = { G_COMM, G_PID, G_PRIO, G_OCPU, G_DCPU, G__COUNT },
	[P_F_TASKPRIO] = { G_COMM, G_PID, G_PRIO, G__COUNT },
};

int sr_hand_has(enum sr_pat id)
{
	return (unsigned)id < P__COUNT && hand[id] != NULL;
}

int sr_hand_groups(enum sr_pat id, enum sr_grp g)
{
	if (!sr_hand_has(id))
		return 0;
	for (int k = 0; k < 10 && hand_groups[id][k] != G__COUNT; k++)
		if (hand_groups[id][k] == g)
			return 1;
	return 0;
}

int sr_hand_match(enum sr_pat id, const char *s, size_t len, size_t start,
		  PCRE2_SIZE *ov)
{
	struct hm h = { s, len, ov };
	size_t end;

	/* anchored at the start offset: the callers give 0 */
	if (start != 0 || !sr_hand_has(id))
		return 0;
	if (!hand[id](&h, &end))
		return 0;
	ov[0] = 0;
	ov[1] = end;
	return 1;
}
