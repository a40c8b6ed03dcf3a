/*
 * test-verdict: the rule that chooses the verdict's words
 * (compare/verdict-rule.h, docs/why.md "The rule"), at each of its
 * thresholds, for each kind of group, through cmp_verdict_decide (the
 * group as the verdict builds it) and the rule line printed from the
 * same table.
 *
 * The rule, as the cases below apply it by hand: the kind's figure is
 * taken as printed (p99 in ms to 2 decimals, so in units of 10 us;
 * deadlines missed = 100 % - met, in % to 1 decimal, so per mille; done
 * in s to 3 decimals, so ms).  Lower is better.  With A and B those
 * printed values, d = B - A and L = max(A, B): the word is "better" (d <
 * 0) or "worse" (d > 0) when |d| >= the least change (p99 0.1 ms = 10
 * units, missed 0.5 point = 5, done 10 ms = 10) and |d| * 100 >= L *
 * the kind's percentage (10, 25, 1); else "unchanged".  A p99 pooled
 * from fewer than 20 waits under A or under B is "unchanged" whatever
 * it did.
 */
#include <stdint.h>
#include <string.h>

#include "compare/verdict.h"
#include "tests/lib/test.h"

#define MS 1000000LL            /* ns */
#define US 1000LL

enum { SAME = CMP_SAME, BETTER = CMP_BETTER, WORSE = CMP_WORSE };

/*
 * Each case: its kind, why (worked out by the rule above), A's and B's
 * figure (p99 and done in ns, deadlines met in per mille) and pooled
 * waits (0: not counted for the kind), and the word.  The group's other
 * figures are set to words of their own, so only the kind's may decide.
 */
enum { LAT = CMP_VK_LATENCY, PER = CMP_VK_PERIODIC, BAT = CMP_VK_BATCH };

static const struct rule_case {
	int kind;
	const char *why;
	int64_t a, b;
	size_t na, nb;
	int want;
} cases[] = {
	/* waits: exactly the least number counts, one less does not */
	{ LAT, "20 waits each: 10.00 -> 5.00 ms, d = -500 units, 50 %",
	  10 * MS, 5 * MS, 20, 20, BETTER },
	{ LAT, "19 waits under A: too few, whatever p99 did",
	  10 * MS, 5 * MS, 19, 20, SAME },
	{ LAT, "19 waits under B", 10 * MS, 5 * MS, 20, 19, SAME },
	{ LAT, "20 waits each, worse: 5.00 -> 10.00 ms",
	  5 * MS, 10 * MS, 20, 20, WORSE },
	/* the share of the larger, A the larger */
	{ LAT, "10.00 -> 9.00: |d| 100, 100 * 100 >= 1000 * 10: exactly 10 %",
	  10 * MS, 9 * MS, 20, 20, BETTER },
	{ LAT, "10.00 -> 9.01: 99 * 100 = 9900 < 10000: just under 10 %",
	  10 * MS, 9010 * US, 20, 20, SAME },
	/* B the larger */
	{ LAT, "9.00 -> 10.00: exactly 10 % of B", 9 * MS, 10 * MS, 20, 20,
	  WORSE },
	{ LAT, "9.01 -> 10.00: just under 10 % of B", 9010 * US, 10 * MS, 20,
	  20, SAME },
	/* the least change */
	{ LAT, "0.50 -> 0.40: |d| 10 units = 0.1 ms exactly, 20 %",
	  500 * US, 400 * US, 20, 20, BETTER },
	{ LAT, "0.50 -> 0.41: 9 units < 10", 500 * US, 410 * US, 20, 20,
	  SAME },
	{ LAT, "0.40 -> 0.50: 0.1 ms exactly, worse", 400 * US, 500 * US, 20,
	  20, WORSE },
	/* as printed: 0.505 ms prints 0.51 (half away from zero),
	   0.4051 prints 0.41: d = 10 units although the exact change,
	   0.0999 ms, is under 0.1 */
	{ LAT, "0.505 -> 0.4051 ms print 0.51 -> 0.41: judged as printed",
	  505 * US, 405100, 20, 20, BETTER },
	{ LAT, "0.50499 -> 0.4051 print 0.50 -> 0.41: 9 units", 504990,
	  405100, 20, 20, SAME },
	{ LAT, "equal", 3 * MS, 3 * MS, 500, 500, SAME },
	{ LAT, "0 -> 0.10 ms: 10 units, 100 % of the larger", 0, 100 * US,
	  20, 20, WORSE },
	/* missed 2.0 -> 1.5 %: |d| 5 = 0.5 point exactly; 5 * 100 =
	   500 >= 20 * 25 = 500: 25 % of the larger exactly */
	{ PER, "met 98.0 -> 98.5 %: both least changes exactly", 980, 985, 0, 0,
	  BETTER },
	{ PER, "met 98.0 -> 98.4 %: 0.4 point", 980, 984, 0, 0, SAME },
	{ PER, "met 98.5 -> 98.0 %: worse, both exactly", 985, 980, 0, 0, WORSE },
	/* missed 4.0 -> 3.0: 10 * 100 >= 40 * 25 */
	{ PER, "met 96.0 -> 97.0 %: 25 % of A's missed exactly", 960, 970, 0, 0,
	  BETTER },
	/* missed 4.0 -> 3.1: 9 * 100 = 900 < 1000 */
	{ PER, "met 96.0 -> 96.9 %: just under 25 % of A's", 960, 969, 0, 0, SAME },
	{ PER, "met 97.0 -> 96.0 %: 25 % of B's missed exactly", 970, 960, 0, 0,
	  WORSE },
	{ PER, "met 96.9 -> 96.0 %: just under 25 % of B's", 969, 960, 0, 0, SAME },
	{ PER, "all met under both", 1000, 1000, 0, 0, SAME },
	{ PER, "none met -> all met", 0, 1000, 0, 0, BETTER },
	/* missed 0.3 -> 0.8: 5 >= 5, 500 >= 8 * 25 = 200 */
	{ PER, "met 99.7 -> 99.2 %: two in 400 periods more missed", 997,
	  992, 0, 0, WORSE },
	/* 0.990 -> 1.000 s: |d| 10 ms exactly; 10 * 100 = 1000 >=
	   1000 * 1: 1 % of the larger exactly */
	{ BAT, "0.990 -> 1.000 s: 10 ms and 1 % exactly", 990 * MS,
	  1000 * MS, 0, 0, WORSE },
	{ BAT, "1.000 -> 0.990 s: the same, better", 1000 * MS, 990 * MS, 0, 0,
	  BETTER },
	{ BAT, "0.990 -> 0.999 s: 9 ms", 990 * MS, 999 * MS, 0, 0, SAME },
	/* 2.000 -> 2.020: 20 * 100 = 2000 < 2020: just under 1 % of
	   B, the larger (2000 >= 2000, A: 1 % of the smaller) */
	{ BAT, "2.000 -> 2.020 s: just under 1 % of B", 2000 * MS,
	  2020 * MS, 0, 0, SAME },
	{ BAT, "2.020 -> 2.000 s: just under 1 % of A", 2020 * MS,
	  2000 * MS, 0, 0, SAME },
	{ BAT, "2.000 -> 2.021 s: 2100 >= 2021", 2000 * MS, 2021 * MS, 0, 0,
	  WORSE },
	/* 21.541 -> 21.580 (the demo): 39 * 100 = 3900 < 21580 */
	{ BAT, "21.541 -> 21.580 s: 0.2 %", 21541 * MS, 21580 * MS, 0, 0, SAME },
	/* as printed: 0.9904 s prints 0.990, 1.0005 prints 1.001 */
	{ BAT, "0.9904 -> 0.9995 s print 0.990 -> 1.000", 990400 * US,
	  999500 * US, 0, 0, WORSE },
};

static void test_rule(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rule_case *c = &cases[i];
		struct cmp_verdict_group g = { .kind = c->kind };

		/* the other kinds' figures, each with a word of its own: a
		   p99 halved (better), every deadline met then none (worse),
		   done a second later (worse) */
		g.p99[0] = 10 * MS;
		g.p99[1] = 5 * MS;
		g.npooled[0] = g.npooled[1] = 1000;
		g.met_pm[0] = 1000;
		g.met_pm[1] = 0;
		g.done[0] = 1000 * MS;
		g.done[1] = 2000 * MS;
		switch (c->kind) {
		case LAT:
			g.p99[0] = c->a;
			g.p99[1] = c->b;
			g.npooled[0] = c->na;
			g.npooled[1] = c->nb;
			break;
		case PER:
			g.met_pm[0] = c->a;
			g.met_pm[1] = c->b;
			break;
		default:
			g.done[0] = c->a;
			g.done[1] = c->b;
			break;
		}
		CHECK_CTX("kind %d: %s", c->kind, c->why);
		cmp_verdict_decide(&g);
		CHECK_INT(g.verdict, c->want);
	}
	test_ctx[0] = '\0';
}

/* Swapping A and B swaps better and worse, for every kind and value. */
static void test_symmetry(void)
{
	static const int64_t v[] = { 0, 5, 9, 10, 11, 99, 100, 101, 1000,
				     4999, 5000, 5001, 10 * MS, 21541 * MS };
	static const int flip[] = { [CMP_SAME] = CMP_SAME,
				    [CMP_BETTER] = CMP_WORSE,
				    [CMP_WORSE] = CMP_BETTER };

	for (int k = 0; k < CMP_VK__COUNT; k++)
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			for (size_t j = 0; j < sizeof(v) / sizeof(v[0]); j++) {
				CHECK_CTX("kind %d: %lld and %lld", k,
					  (long long)v[i], (long long)v[j]);
				CHECK_INT(cmp_vrule_decide(k, v[i], v[j], 20, 20),
					  flip[cmp_vrule_decide(k, v[j], v[i],
								20, 20)]);
			}
	test_ctx[0] = '\0';
}

/* The rule line: the thresholds above, from the constants, in at most
 * 100 columns; only the kinds asked for. */
static void test_rule_line(void)
{
	char line[256];

	cmp_vrule_line(1u << CMP_VK_LATENCY | 1u << CMP_VK_PERIODIC |
		       1u << CMP_VK_BATCH, line, sizeof(line));
	CHECK_STR(line, "  rule: the first figure decides: p99 10% & 0.1 ms "
		  "(20+ waits), missed 25% & 0.5 pt, done 1% & 10 ms");
	CHECK(strlen(line) <= 100);
	cmp_vrule_line(1u << CMP_VK_BATCH, line, sizeof(line));
	CHECK_STR(line, "  rule: the first figure decides: done 1% & 10 ms");
	CHECK_STR(cmp_verdict_name(CMP_SAME), "unchanged");
	CHECK_STR(cmp_verdict_name(CMP_BETTER), "better");
	CHECK_STR(cmp_verdict_name(CMP_WORSE), "worse");
}

int main(void)
{
	test_rule();
	test_symmetry();
	test_rule_line();
	return test_done("test-verdict");
}
