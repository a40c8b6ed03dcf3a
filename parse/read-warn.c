/*
 * read-warn: the warnings after a read (read-warn.h).
 */
#include <inttypes.h>
#include <stdio.h>

#include "lib/fmt.h"
#include "parse/read-warn.h"

/* Distinct cpus among the lost ranges (the first SR_CPU_SEEN counted). */
#define SR_CPU_SEEN 256

static int lost_cpus(const struct sr_read_stats *st)
{
	uint64_t seen[SR_CPU_SEEN / 64] = { 0 };
	int n = 0;

	for (size_t i = 0; i < st->nlost; i++) {
		int32_t c = st->lost[i].cpu;

		if (c >= 0 && c < SR_CPU_SEEN && !(seen[c / 64] >> (c % 64) & 1)) {
			seen[c / 64] |= 1ULL << (c % 64);
			n++;
		}
	}
	return n;
}

void sr_read_warn(const char *path, const struct sr_read_stats *st,
		  long marked)
{
	char a[SR_FMT_NUM], b[SR_FMT_NUM], why[96] = "";

	if (st->bad_lines)
		sr_warn("%s: %" PRIu64 " malformed line(s) skipped (--lenient)",
			path, st->bad_lines);
	if (st->nlost == 0 && st->lost_events == 0)
		return;
	if (marked >= 0)
		snprintf(why, sizeof(why), "; %ld task(s) whose figures they "
			 "touch are marked (lost=1, '!')", marked);
	sr_warn("%s: %" PRIu64 " events lost in %zu range(s) on %d cpu(s)%s",
		path, st->lost_events, st->nlost, lost_cpus(st), why);
	for (size_t i = 0; i < st->nlost && i < SR_READ_WARN_RANGES; i++) {
		const struct sr_lost_range *l = &st->lost[i];
		char cpu[24], cnt[48];

		if (l->cpu >= 0)
			snprintf(cpu, sizeof(cpu), "cpu %" PRId32, l->cpu);
		else
			snprintf(cpu, sizeof(cpu), "unknown cpu");
		if (l->count)
			snprintf(cnt, sizeof(cnt), "%" PRIu64 " events",
				 l->count);
		else
			snprintf(cnt, sizeof(cnt), "an unknown number of events");
		sr_warn("  %s: %s lost between %s s and %s s", cpu, cnt,
			sr_fmt_s(a, sizeof(a), l->from_ts, 9),
			sr_fmt_s(b, sizeof(b), l->to_ts, 9));
	}
	if (st->nlost > SR_READ_WARN_RANGES)
		sr_warn("  ... and %zu more range(s)",
			st->nlost - SR_READ_WARN_RANGES);
}
