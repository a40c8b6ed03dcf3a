/*
 * fuzz-stats: the whole `stats` pipeline on whatever parses: format
 * detection, the reader, the recorded schedule (replay/observed.c) under
 * both perf compat modes, the rows sorted by every key, merged by comm,
 * and written as TSV and as the table.  Checks that the figures hold
 * together: counts add up across --by-comm, percentiles are ordered and
 * within the max, a max delay has start <= end, and the outputs have one
 * line per row.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/observed.h"
#include "replay/summary.h"
#include "tests/fuzz/fuzz.h"

static const struct sr_task *view_get(const void *ctx, sr_tid id)
{
	return sr_tasks_get(ctx, id);
}

static size_t view_count(const void *ctx)
{
	return sr_tasks_count(ctx);
}

struct feed {
	struct sr_observed *obs[SR_COMPAT__COUNT];
	struct sr_task_view view;
	int64_t t_end;
};

/* The observers need the reader's task table: made at the first event. */
static void feed_start(struct feed *f, struct sr_reader *r)
{
	struct sr_diag d = SR_DIAG_INIT;

	if (f->obs[0])
		return;
	f->view = (struct sr_task_view){ view_get, view_count,
					 sr_reader_tasks(r) };
	for (int c = 0; c < SR_COMPAT__COUNT; c++) {
		struct sr_observed_opts oo = { .compat = c };

		FZ_ASSERT(sr_observed_new(&f->obs[c], &oo, &f->view, &d) ==
			  SR_OK, "observed: %s", d.msg);
	}
}

static int feed_event(void *ctx, struct sr_reader *r, const struct sr_event *ev)
{
	struct feed *f = ctx;

	feed_start(f, r);
	for (int c = 0; c < SR_COMPAT__COUNT; c++) {
		int rc = sr_observed_event(f->obs[c], ev);

		/* SR_EDATA: sums beyond 2^63 ns, implausible input */
		FZ_ASSERT(rc == SR_OK || rc == SR_EDATA, "observed refused "
			  "line %llu (%s) with status %d",
			  (unsigned long long)ev->line,
			  sr_ev_kind_name(ev->kind), rc);
		if (rc)
			return 2;
	}
	f->t_end = ev->ts;
	return 0;
}

static size_t count_lines(const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

static void check_row(const struct sr_task_metrics *m)
{
	static const double pct[] = { 50, 95, 99 };
	int64_t p[3] = { 0, 0, 0 };

	FZ_ASSERT(m->runtime_ns >= 0, "pid %d: runtime %lld", (int)m->pid,
		  (long long)m->runtime_ns);
	FZ_ASSERT(m->sum_delay_ns >= 0 && m->max_delay_ns >= 0,
		  "pid %d: negative delay", (int)m->pid);
	FZ_ASSERT(sr_metrics_avg_delay(m) <= m->max_delay_ns,
		  "pid %d: avg above max", (int)m->pid);
	FZ_ASSERT(m->max_delay_start <= m->max_delay_end, "pid %d: max "
		  "delay ends before it starts", (int)m->pid);
	FZ_ASSERT(m->max_delay_ns == 0 ||
		  m->max_delay_end - m->max_delay_start == m->max_delay_ns,
		  "pid %d: max delay %lld from %lld to %lld", (int)m->pid,
		  (long long)m->max_delay_ns, (long long)m->max_delay_start,
		  (long long)m->max_delay_end);
	FZ_ASSERT((m->delays != NULL) == (m->switches > 0) || !m->delays,
		  "pid %d: delays without a count", (int)m->pid);
	if (m->delays) {
		sr_delays_percentiles(m->delays, pct, p, 3);
		FZ_ASSERT(sr_delays_count(m->delays) == m->switches,
			  "pid %d: distribution holds %llu of %llu delays "
			  "(switches)", (int)m->pid,
			  (unsigned long long)sr_delays_count(m->delays),
			  (unsigned long long)m->switches);
	}
	FZ_ASSERT(p[0] <= p[1] && p[1] <= p[2] && p[0] >= 0,
		  "pid %d: percentiles %lld %lld %lld out of order",
		  (int)m->pid, (long long)p[0], (long long)p[1],
		  (long long)p[2]);
	FZ_ASSERT(p[2] <= m->max_delay_ns + m->max_delay_ns / 128 + 1,
		  "pid %d: p99 %lld above max %lld", (int)m->pid,
		  (long long)p[2], (long long)m->max_delay_ns);
}

/* Sort, merge, write: what cmd_stats does after the read. */
static void summarize(struct sr_observed *obs)
{
	static const char *const sorts[] = {
		"pid", "comm", "runtime", "switches", "wakeups", "avg", "p50",
		"p95", "p99", "max", "avg,max,switches,runtime",
	};
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_task_metrics **rows = NULL, *merged = NULL;
	size_t n = 0, nmerged = 0;
	uint64_t sw = 0, wk = 0, msw = 0, mwk = 0, mtasks = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	FZ_ASSERT(sr_observed_rows(obs, &rows, &n, &d) == SR_OK, "rows: %s",
		  d.msg);
	for (size_t i = 0; i < n; i++) {
		check_row(rows[i]);
		sw += rows[i]->switches;
		wk += rows[i]->wakeups;
	}
	for (size_t i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++) {
		struct sr_sort s;

		FZ_ASSERT(sr_sort_parse(sorts[i], &s, &d) == SR_OK &&
			  sr_rows_sort(rows, n, &s, &d) == SR_OK,
			  "sort %s: %s", sorts[i], d.msg);
	}
	f = open_memstream(&buf, &len);
	FZ_ASSERT(f != NULL, "open_memstream");
	sr_write_tsv(f, rows, n);
	fclose(f);
	FZ_ASSERT(count_lines(buf, len) == n + 1, "TSV of %zu rows has %zu "
		  "lines", n, count_lines(buf, len));
	free(buf);
	buf = NULL;

	if (sr_rows_by_comm(rows, n, &merged, &nmerged, &d) != SR_OK) {
		FZ_ASSERT(d.code == SR_EDATA && strstr(d.msg, "64-bit"),
			  "by-comm: %s", d.msg);
		free(rows);
		return;
	}
	FZ_ASSERT(nmerged <= n, "by-comm made %zu rows of %zu", nmerged, n);
	for (size_t i = 0; i < nmerged; i++) {
		check_row(&merged[i]);
		msw += merged[i].switches;
		mwk += merged[i].wakeups;
		mtasks += merged[i].ntasks;
		rows[i] = &merged[i];
	}
	FZ_ASSERT(msw == sw && mwk == wk && mtasks == n, "by-comm sums: "
		  "%llu/%llu switches, %llu/%llu wakeups, %llu/%zu tasks",
		  (unsigned long long)msw, (unsigned long long)sw,
		  (unsigned long long)mwk, (unsigned long long)wk,
		  (unsigned long long)mtasks, n);
	f = open_memstream(&buf, &len);
	FZ_ASSERT(f != NULL, "open_memstream");
	sr_write_table(f, rows, nmerged);
	fclose(f);
	free(buf);
	sr_rows_free_merged(merged, nmerged);
	free(rows);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fz_file(0, data, size);
	struct sr_read_opts o = { .reorder_window = 64, .input_buffer = 1,
				   .lenient = size & 1 };
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_reader *r;
	struct feed f = { .t_end = 0 };

	if (fz_read(path, &o, feed_event, &f, &r, &d) == 1) {
		const struct sr_read_stats *st = sr_reader_stats(r);

		feed_start(&f, r);
		if (st->last_ts > f.t_end)
			f.t_end = st->last_ts;
		for (int c = 0; c < SR_COMPAT__COUNT; c++) {
			d = (struct sr_diag)SR_DIAG_INIT;
			if (sr_observed_finish(f.obs[c], f.t_end, &d) != SR_OK) {
				FZ_ASSERT(d.code == SR_EDATA &&
					  strstr(d.msg, "64-bit"), "finish: %s",
					  d.msg);
				continue;
			}
			summarize(f.obs[c]);
		}
	}
	for (int c = 0; c < SR_COMPAT__COUNT; c++)
		sr_observed_free(f.obs[c]);
	sr_reader_close(r);
	return 0;
}
