/*
 * verdict-rule: the words of every verdict (better, worse, unchanged),
 * one rule for all (docs/why.md, "The rule").  Each kind of group is
 * judged by one figure, the one printed first beside the word: p99
 * delay, deadlines missed (100 % - deadlines met, the recording's
 * clock), or the time the batch work was done.  Lower is better.  The
 * figure is taken as printed (rounded to its last printed decimal), so
 * the word follows from what the reader sees: a change from A to B
 * counts when it is at least the kind's least change and at least its
 * share of the larger of the two; a p99 pooled from fewer than
 * CMP_VERDICT_MIN_WAITS waits under either policy counts for nothing.
 * The rule line on the first screen is printed from the same table.
 *
 *	enum cmp_verdict w = cmp_vrule_decide(CMP_VK_LATENCY, p99_a, p99_b,
 *					      na, nb);
 */
#ifndef CMP_VERDICT_RULE_H
#define CMP_VERDICT_RULE_H

#include <stddef.h>
#include <stdint.h>

enum cmp_verdict { CMP_SAME, CMP_BETTER, CMP_WORSE };

/* The kinds of group, by the figure that judges them. */
enum cmp_verdict_kind {
	CMP_VK_LATENCY,   /* p99 delay, every wait of its tasks pooled */
	CMP_VK_PERIODIC,  /* deadlines missed, on the recording's clock */
	CMP_VK_BATCH,     /* when its batch work was done */
	CMP_VK__COUNT
};

/* The thresholds, named so docs and tests quote them. */
#define CMP_CHANGE_MIN_PCT 10        /* p99: 10 % of the larger ... */
#define CMP_CHANGE_MIN_NS 100000LL   /* ... and 0.1 ms */
#define CMP_VERDICT_MIN_WAITS 20     /* pooled waits to judge a p99 by */
#define CMP_VERDICT_MISSED_PCT 25    /* deadlines missed: 25 % ... */
#define CMP_VERDICT_MISSED_PM 5      /* ... and 0.5 point (per mille) */
#define CMP_VERDICT_DONE_PCT 1       /* done: 1 % ... */
#define CMP_VERDICT_DONE_MIN_NS 10000000LL /* ... and 10 ms */

struct cmp_vrule {
	const char *figure;      /* its name in the rule line */
	const char *key;         /* in JSON */
	int shift, decimals;     /* printed: value / 10^shift, to decimals */
	int64_t min_abs;         /* the least change, in the value's unit */
	int abs_shift, abs_decimals; /* how the least change is printed */
	const char *abs_unit;
	int min_pct;             /* ... and this share of the larger */
	size_t min_waits;        /* pooled waits needed (0: none) */
};

/* Indexed by enum cmp_verdict_kind.  Values: p99 and done in ns,
 * deadlines missed in per mille. */
extern const struct cmp_vrule cmp_vrules[CMP_VK__COUNT];

/* A value as printed: in units of its last printed decimal. */
int64_t cmp_vrule_printed(enum cmp_verdict_kind k, int64_t v);
/* The word for kind k's figure going from a (A) to b (B), with na and
 * nb pooled waits (SIZE_MAX: not counted). */
enum cmp_verdict cmp_vrule_decide(enum cmp_verdict_kind k, int64_t a,
				  int64_t b, size_t na, size_t nb);
/* The rule line for the kinds whose bits (1 << kind) are in kinds. */
void cmp_vrule_line(unsigned kinds, char *buf, size_t len);
/* "better", "worse", "unchanged" */
const char *cmp_verdict_name(int verdict);

#endif
