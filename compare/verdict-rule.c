/*
 * verdict-rule: one rule for the words of every verdict (see
 * verdict-rule.h).
 */
#include <stdbool.h>
#include <stdio.h>

#include "compare/verdict-rule.h"
#include "lib/fmt.h"

const struct cmp_vrule cmp_vrules[CMP_VK__COUNT] = {
	[CMP_VK_LATENCY] = {
		.figure = "p99", .key = "p99_ms", .shift = 6, .decimals = 2,
		.min_abs = CMP_CHANGE_MIN_NS, .abs_shift = 6,
		.abs_decimals = 1, .abs_unit = "ms",
		.min_pct = CMP_CHANGE_MIN_PCT,
		.min_waits = CMP_VERDICT_MIN_WAITS,
	},
	[CMP_VK_PERIODIC] = {
		.figure = "missed", .key = "deadlines_missed_pct", .shift = 1,
		.decimals = 1, .min_abs = CMP_VERDICT_MISSED_PM, .abs_shift = 1,
		.abs_decimals = 1, .abs_unit = "pt",
		.min_pct = CMP_VERDICT_MISSED_PCT,
	},
	[CMP_VK_BATCH] = {
		.figure = "done", .key = "done_s", .shift = 9, .decimals = 3,
		.min_abs = CMP_VERDICT_DONE_MIN_NS, .abs_shift = 6,
		.abs_decimals = 0, .abs_unit = "ms",
		.min_pct = CMP_VERDICT_DONE_PCT,
	},
};

const char *cmp_verdict_name(int verdict)
{
	static const char *const names[] = { "unchanged", "better", "worse" };

	return verdict >= 0 && verdict <= 2 ? names[verdict] : "?";
}

int64_t cmp_vrule_printed(enum cmp_verdict_kind k, int64_t v)
{
	const struct cmp_vrule *r = &cmp_vrules[k];

	return sr_round_scaled(v, r->shift, r->decimals);
}

enum cmp_verdict cmp_vrule_decide(enum cmp_verdict_kind k, int64_t a,
				  int64_t b, size_t na, size_t nb)
{
	const struct cmp_vrule *r = &cmp_vrules[k];
	int64_t pa = cmp_vrule_printed(k, a), pb = cmp_vrule_printed(k, b);
	int64_t least = cmp_vrule_printed(k, r->min_abs);
	int64_t d = pb - pa, ad = d < 0 ? -d : d;
	int64_t base = pa > pb ? pa : pb;

	if (na < r->min_waits || nb < r->min_waits)
		return CMP_SAME; /* too few waits to judge a p99 by */
	if (ad < least || ad * 100 < base * r->min_pct)
		return CMP_SAME;
	return d < 0 ? CMP_BETTER : CMP_WORSE;
}

void cmp_vrule_line(unsigned kinds, char *buf, size_t len)
{
	size_t o;
	bool first = true;

	o = (size_t)snprintf(buf, len, "  rule: the first figure decides:");
	for (int k = 0; k < CMP_VK__COUNT && o < len; k++) {
		const struct cmp_vrule *r = &cmp_vrules[k];
		char least[SR_FMT_NUM], waits[32] = "";

		if (!(kinds & (1u << k)))
			continue;
		if (r->min_waits)
			snprintf(waits, sizeof(waits), " (%zu+ waits)",
				 r->min_waits);
		o += (size_t)snprintf(buf + o, len - o, "%s %s %d%% & %s %s%s",
				      first ? "" : ",", r->figure, r->min_pct,
				      sr_fmt_scaled(least, sizeof(least),
						    r->min_abs, r->abs_shift,
						    r->abs_decimals),
				      r->abs_unit, waits);
		first = false;
	}
}
