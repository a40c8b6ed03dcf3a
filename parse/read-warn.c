/*
 * read-warn: the warnings after a read (read-warn.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (st->lost_tally) {
		/* the recording's closing count knew of more than its markers
		 * (or of all of it): when, unknown */
		int tallied = 0;

		for (size_t i = 1; i < st->nlost_cpu; i++)
			tallied += st->lost_cpu[i] != 0;
		sr_warn("%s: %" PRIu64 " events lost, %" PRIu64 " of them known "
			"only from the recording's closing count (when, "
			"unknown), in %zu range(s) on %d cpu(s)%s", path,
			st->lost_events, st->lost_tally, st->nlost,
			tallied > lost_cpus(st) ? tallied : lost_cpus(st), why);
	} else {
		sr_warn("%s: %" PRIu64 " events lost in %zu range(s) on %d "
			"cpu(s)%s", path, st->lost_events, st->nlost,
			lost_cpus(st), why);
	}
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

/* ---- the loss in a headline ---- */

static void loss_cpu_add(struct sr_loss *l, int32_t cpu, uint64_t n)
{
	if (l->ncpus < SR_LOSS_CPUS) {
		l->cpu[l->ncpus].cpu = cpu;
		l->cpu[l->ncpus].n = n;
	} else {
		l->rest += n;
	}
	l->ncpus++;
}

void sr_loss_of(const struct sr_read_stats *st, long marked,
		struct sr_loss *l)
{
	size_t ncpu = st->nlost_cpu;

	memset(l, 0, sizeof(*l));
	l->lost = st->lost_events;
	l->kept = st->events - st->by_kind[SR_EV_LOST] + st->skipped_events +
		  st->failed_wakeups;
	l->chunks = st->lost_chunks;
	l->uncounted = st->lost_uncounted;
	l->tally_only = st->lost_tally;
	l->marked = marked;
	for (size_t i = 0; i < ncpu; i++)
		if (st->lost_cpu[i])
			loss_cpu_add(l, (int32_t)i - 1, st->lost_cpu[i]);
	/* a cpu whose markers did not count: listed without a count */
	for (size_t k = 0; k < st->nlost && l->ncpus < SR_LOSS_CPUS; k++) {
		int32_t cpu = st->lost[k].cpu;
		bool seen = (size_t)(cpu + 1) < ncpu && st->lost_cpu[cpu + 1];

		for (size_t j = 0; !seen && j < l->ncpus; j++)
			seen = l->cpu[j].cpu == cpu;
		if (!seen)
			loss_cpu_add(l, cpu, 0);
	}
}

bool sr_loss_any(const struct sr_loss *l)
{
	return l->lost || l->chunks;
}

void sr_loss_say(const struct sr_loss *l, char *buf, size_t len)
{
	size_t n = 0;

#define SAY(...) do { if (n < len) n += (size_t)snprintf(buf + n, len - n, \
							 __VA_ARGS__); } while (0)
	if (len)
		buf[0] = '\0';
	if (!sr_loss_any(l))
		return;
	if (l->lost == 0) {
		SAY("the recording lost events in %" PRIu64 " chunk%s, none "
		    "counted", l->chunks, l->chunks == 1 ? "" : "s");
	} else {
		uint64_t all = l->kept + l->lost;

		SAY("the recording lost %s%" PRIu64 " events (%.1f %% of %"
		    PRIu64 ")", l->uncounted ? "at least " : "", l->lost,
		    100.0 * (double)l->lost / (double)all, all);
		if (l->chunks && l->tally_only)
			SAY(" in %" PRIu64 " chunk%s and %" PRIu64 " more by its "
			    "closing count (when, unknown)", l->chunks,
			    l->chunks == 1 ? "" : "s", l->tally_only);
		else if (l->chunks)
			SAY(" in %" PRIu64 " chunk%s", l->chunks,
			    l->chunks == 1 ? "" : "s");
		else
			SAY(" by its closing count (when, unknown)");
		if (l->uncounted)
			SAY(", %" PRIu64 " of them uncounted", l->uncounted);
	}
	for (size_t i = 0; i < l->ncpus && i < SR_LOSS_CPUS; i++) {
		SAY("%s", i ? ", " : ": ");
		if (l->cpu[i].cpu >= 0)
			SAY("cpu %" PRId32, l->cpu[i].cpu);
		else
			SAY("cpu unknown");
		if (l->cpu[i].n)
			SAY(" %" PRIu64, l->cpu[i].n);
	}
	if (l->ncpus > SR_LOSS_CPUS)
		SAY(", %zu more cpus %" PRIu64, l->ncpus - SR_LOSS_CPUS,
		    l->rest);
	if (l->marked > 0)
		SAY("; %ld task%s it touched %s marked !", l->marked,
		    l->marked == 1 ? "" : "s", l->marked == 1 ? "is" : "are");
#undef SAY
}

void sr_loss_brief(const struct sr_loss *l, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (!sr_loss_any(l))
		return;
	if (l->lost == 0)
		snprintf(buf, len, "the recording lost events (not counted)");
	else
		snprintf(buf, len, "the recording lost %s%" PRIu64 " events "
			 "(%.1f %%)", l->uncounted ? "at least " : "", l->lost,
			 100.0 * (double)l->lost / (double)(l->kept + l->lost));
}

void sr_loss_put(FILE *f, const struct sr_loss *l, const char *prefix)
{
	char say[512], line[600];

	sr_loss_say(l, say, sizeof(say));
	if (!*say)
		return;
	snprintf(line, sizeof(line), "%s%s", prefix, say);
	sr_put_wrapped(f, line, 100, 0, 0, NULL, NULL);
}

void sr_loss_json(const struct sr_loss *l, FILE *f)
{
	if (!sr_loss_any(l)) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"lost\": %" PRIu64 ", \"kept\": %" PRIu64 ", \"chunks\": %"
		PRIu64 ", \"uncounted\": %" PRIu64 ", \"tally_only\": %" PRIu64
		", \"marked\": ", l->lost, l->kept, l->chunks, l->uncounted,
		l->tally_only);
	if (l->marked >= 0)
		fprintf(f, "%ld", l->marked);
	else
		fputs("null", f);
	fputs(", \"cpus\": [", f);
	for (size_t i = 0; i < l->ncpus && i < SR_LOSS_CPUS; i++) {
		fputs(i ? ", {\"cpu\": " : "{\"cpu\": ", f);
		if (l->cpu[i].cpu >= 0)
			fprintf(f, "%" PRId32, l->cpu[i].cpu);
		else
			fputs("null", f);
		fprintf(f, ", \"lost\": %" PRIu64 "}", l->cpu[i].n);
	}
	fprintf(f, "], \"more_cpus\": %zu, \"more_cpus_lost\": %" PRIu64 "}",
		l->ncpus > SR_LOSS_CPUS ? l->ncpus - SR_LOSS_CPUS : 0, l->rest);
}

void sr_loss_write(const struct sr_loss *l, FILE *f)
{
	fputs("what\tvalue\n", f);
	fprintf(f, "lost\t%" PRIu64 "\nkept\t%" PRIu64 "\nchunks\t%" PRIu64
		"\nuncounted\t%" PRIu64 "\ntally_only\t%" PRIu64 "\n", l->lost,
		l->kept, l->chunks, l->uncounted, l->tally_only);
	if (l->marked >= 0)
		fprintf(f, "marked\t%ld\n", l->marked);
	for (size_t i = 0; i < l->ncpus && i < SR_LOSS_CPUS; i++) {
		if (l->cpu[i].cpu >= 0)
			fprintf(f, "cpu %" PRId32 "\t%" PRIu64 "\n",
				l->cpu[i].cpu, l->cpu[i].n);
		else
			fprintf(f, "cpu -\t%" PRIu64 "\n", l->cpu[i].n);
	}
	if (l->ncpus > SR_LOSS_CPUS)
		fprintf(f, "rest %zu\t%" PRIu64 "\n", l->ncpus - SR_LOSS_CPUS,
			l->rest);
}

/* One row of lost.tsv: what and its value into l. */
static int loss_row(struct sr_loss *l, const char *what, uint64_t v)
{
	static const struct { const char *name; size_t off; } keys[] = {
		{ "lost", offsetof(struct sr_loss, lost) },
		{ "kept", offsetof(struct sr_loss, kept) },
		{ "chunks", offsetof(struct sr_loss, chunks) },
		{ "uncounted", offsetof(struct sr_loss, uncounted) },
		{ "tally_only", offsetof(struct sr_loss, tally_only) },
	};
	char *end;
	long c;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(what, keys[i].name)) {
			memcpy((char *)l + keys[i].off, &v, sizeof(v));
			return 0;
		}
	if (!strcmp(what, "marked")) {
		l->marked = v > LONG_MAX ? LONG_MAX : (long)v;
		return 0;
	}
	if (!strcmp(what, "cpu -")) {
		loss_cpu_add(l, -1, v);
		return 0;
	}
	if (!strncmp(what, "cpu ", 4) && what[4] >= '0' && what[4] <= '9') {
		errno = 0;
		c = strtol(what + 4, &end, 10);
		if (*end || errno || c >= INT32_MAX)
			return -1;
		loss_cpu_add(l, (int32_t)c, v);
		return 0;
	}
	if (!strncmp(what, "rest ", 5) && what[5] >= '0' && what[5] <= '9') {
		errno = 0;
		c = strtol(what + 5, &end, 10);
		if (*end || errno || c > 1000000)
			return -1;
		l->ncpus = SR_LOSS_CPUS + (size_t)c;
		l->rest = v;
		return 0;
	}
	return -1;
}

int sr_loss_read(const char *path, struct sr_loss *l, struct sr_diag *d)
{
	FILE *f = fopen(path, "r");
	char line[256], q[256];
	unsigned long lineno = 0;

	memset(l, 0, sizeof(*l));
	l->marked = -1;
	if (!f) {
		int e = errno;

		return sr_fail_errno(d, e == ENOENT ? SR_ENOINPUT : SR_EIO, e,
				     "%s", path);
	}
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *end;
		size_t n = strlen(line);
		uint64_t v;

		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (lineno == 1) {
			if (strcmp(line, "what\tvalue"))
				goto bad;
			continue;
		}
		if (!tab || tab[1] < '0' || tab[1] > '9')
			goto bad;
		*tab = '\0';
		errno = 0;
		v = strtoull(tab + 1, &end, 10);
		if (*end || errno || loss_row(l, line, v)) {
			*tab = '\t';
			goto bad;
		}
	}
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		return sr_fail_errno(d, SR_EIO, e, "%s", path);
	}
	if (lineno == 0) {
		fclose(f);
		return sr_fail(d, SR_EDATA, "%s: expected the header "
			       "'what<TAB>value', got an empty file", path);
	}
	fclose(f);
	return SR_OK;
bad:
	fclose(f);
	sr_comm_clean(q, sizeof(q), line);
	return sr_fail(d, SR_EDATA, "%s:%lu: expected %s, got '%s'", path,
		       lineno, lineno == 1 ? "the header 'what<TAB>value'" :
		       "'lost', 'kept', 'chunks', 'uncounted', 'tally_only', "
		       "'marked', 'cpu N' or 'rest N', a tab and a count",
		       q);
}
