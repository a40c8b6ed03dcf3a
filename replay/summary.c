/*
 * summary: sorting, merging by comm, and the TSV and table writers for
 * per-task figure rows.  See replay/summary.h.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "lib/fmt.h"
#include "parse/read-warn.h"
#include "replay/summary.h"

static const char *const sort_names[SR_SORT__COUNT] = {
	[SR_SORT_PID] = "pid", [SR_SORT_COMM] = "comm",
	[SR_SORT_RUNTIME] = "runtime", [SR_SORT_SWITCHES] = "switches",
	[SR_SORT_WAKEUPS] = "wakeups", [SR_SORT_AVG] = "avg",
	[SR_SORT_P50] = "p50", [SR_SORT_P95] = "p95", [SR_SORT_P99] = "p99",
	[SR_SORT_MAX] = "max",
};

const char *sr_sort_keys_help(void)
{
	return "pid, comm, runtime, switches, wakeups, avg, p50, p95, p99, max";
}

int sr_sort_parse(const char *spec, struct sr_sort *s, struct sr_diag *d)
{
	const char *p = spec;

	s->nkeys = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		int k;

		for (k = 0; k < SR_SORT__COUNT; k++)
			if (strlen(sort_names[k]) == len &&
			    !strncmp(p, sort_names[k], len))
				break;
		if (k == SR_SORT__COUNT || s->nkeys == SR_SORT_MAX_KEYS)
			return sr_fail(d, SR_EUSAGE,
				       "--sort: expected keys among %s, got '%.*s'",
				       sr_sort_keys_help(), (int)len, p);
		s->keys[s->nkeys++] = (enum sr_sort_key)k;
		p += len;
		if (*p == ',')
			p++;
	}
	if (s->nkeys == 0)
		return sr_fail(d, SR_EUSAGE, "--sort: expected keys among %s, "
			       "got nothing", sr_sort_keys_help());
	return SR_OK;
}

/*
 * Sorting computes each row's sort values once: an element is the row
 * pointer followed by one value per numeric key (pid and comm are read
 * from the row), so the array costs 8 * (1 + nkeys) bytes per row.
 */
static int cmp3(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

_Static_assert(sizeof(struct sr_task_metrics *) <= sizeof(int64_t),
	       "a row pointer fits in a sort element slot");

static const struct sr_task_metrics *elem_row(const int64_t *e)
{
	const struct sr_task_metrics *m;

	memcpy(&m, e, sizeof(m));
	return m;
}

static int cmp_elem(const void *pa, const void *pb, void *ctx)
{
	const int64_t *ea = pa, *eb = pb;
	const struct sr_task_metrics *a = elem_row(ea), *b = elem_row(eb);
	const struct sr_sort *s = ctx;
	int c;

	for (int i = 0; i < s->nkeys; i++) {
		enum sr_sort_key k = s->keys[i];

		if (k == SR_SORT_COMM)
			c = strcmp(a->comm, b->comm);
		else if (k == SR_SORT_PID)
			c = cmp3(a->pid, b->pid);
		else
			c = cmp3(eb[1 + i], ea[1 + i]); /* largest first */
		if (c)
			return c;
	}
	if ((c = cmp3(a->pid, b->pid)))
		return c;
	if ((c = strcmp(a->comm, b->comm)))
		return c;
	return cmp3(a->id, b->id);
}

static int64_t sort_value(const struct sr_task_metrics *m, enum sr_sort_key k)
{
	switch (k) {
	case SR_SORT_RUNTIME:
		return m->runtime_ns;
	case SR_SORT_SWITCHES:
		return (int64_t)m->switches;
	case SR_SORT_WAKEUPS:
		return (int64_t)m->wakeups;
	case SR_SORT_AVG:
		return sr_metrics_avg_delay(m);
	case SR_SORT_P50:
		return sr_delays_percentile(m->delays, 50);
	case SR_SORT_P95:
		return sr_delays_percentile(m->delays, 95);
	case SR_SORT_P99:
		return sr_delays_percentile(m->delays, 99);
	case SR_SORT_MAX:
		return m->max_delay_ns;
	default:
		return 0;
	}
}

int sr_rows_sort(struct sr_task_metrics **rows, size_t n,
		 const struct sr_sort *s, struct sr_diag *d)
{
	size_t stride = 1 + (size_t)s->nkeys;
	int64_t *e = malloc((n ? n : 1) * stride * sizeof(*e));

	if (!e)
		return sr_oom(d);
	for (size_t i = 0; i < n; i++) {
		int64_t *x = e + i * stride;

		memcpy(x, &rows[i], sizeof(rows[i]));
		for (int k = 0; k < s->nkeys; k++)
			x[1 + k] = sort_value(rows[i], s->keys[k]);
	}
	qsort_r(e, n, stride * sizeof(*e), cmp_elem, (void *)s);
	for (size_t i = 0; i < n; i++)
		memcpy(&rows[i], e + i * stride, sizeof(rows[i]));
	free(e);
	return SR_OK;
}

static int cmp_comm_id(const void *pa, const void *pb)
{
	const struct sr_task_metrics *a = *(struct sr_task_metrics *const *)pa;
	const struct sr_task_metrics *b = *(struct sr_task_metrics *const *)pb;
	int c = strcmp(a->comm, b->comm);

	return c ? c : cmp3(a->id, b->id);
}

void sr_rows_free_merged(struct sr_task_metrics *rows, size_t n)
{
	if (!rows)
		return;
	for (size_t i = 0; i < n; i++)
		sr_metrics_release(&rows[i]);
	free(rows);
}

int sr_rows_by_comm(struct sr_task_metrics *const *rows, size_t n,
		    struct sr_task_metrics **out, size_t *nout,
		    struct sr_diag *d)
{
	struct sr_task_metrics **by = malloc((n ? n : 1) * sizeof(*by));
	struct sr_task_metrics *res = calloc(n ? n : 1, sizeof(*res));
	size_t k = 0;

	*out = NULL;
	*nout = 0;
	if (!by || !res) {
		free(by);
		free(res);
		return sr_oom(d);
	}
	memcpy(by, rows, n * sizeof(*by));
	/* by comm, then id: the merge order (and so max ties) is fixed */
	sr_qsort(by, n, sizeof(*by), cmp_comm_id);
	for (size_t i = 0; i < n; i++) {
		struct sr_task_metrics *r;

		if (k == 0 || strcmp(res[k - 1].comm, by[i]->comm)) {
			r = &res[k++];
			r->id = by[i]->id;
			r->pid = by[i]->pid;
			r->comm = by[i]->comm;
		} else {
			r = &res[k - 1];
		}
		int rc = sr_metrics_merge(r, by[i]);

		if (rc) {
			sr_fail(d, rc, rc == SR_EDATA ? "--by-comm: the figures "
				"of '%s' overflow 64-bit nanoseconds" :
				"out of memory (merging '%s')", r->comm);
			free(by);
			sr_rows_free_merged(res, k);
			return rc;
		}
		if (r->ntasks > 1)
			r->pid = -1;
	}
	free(by);
	*out = res;
	*nout = k;
	return SR_OK;
}

/* The figures between comm and tasks, in column order: TSV header names
 * and JSON keys. */
enum { NFIGS = 10 };
static const char *const fig_names[NFIGS] = {
	"runtime_ms", "switches", "wakeups", "avg_delay_ms", "p50_delay_ms",
	"p95_delay_ms", "p99_delay_ms", "max_delay_ms", "max_delay_start_s",
	"max_delay_end_s",
};

/* m's figures as text, exact decimals (the same in TSV and JSON) */
static void figs(const struct sr_task_metrics *m, char v[NFIGS][SR_FMT_NUM])
{
	static const double ps[3] = { 50, 95, 99 };
	int64_t p[3];

	sr_delays_percentiles(m->delays, ps, p, 3);
	sr_fmt_ms(v[0], SR_FMT_NUM, m->runtime_ns, 6);
	snprintf(v[1], SR_FMT_NUM, "%" PRIu64, m->switches);
	snprintf(v[2], SR_FMT_NUM, "%" PRIu64, m->wakeups);
	sr_fmt_ms(v[3], SR_FMT_NUM, sr_metrics_avg_delay(m), 6);
	for (int i = 0; i < 3; i++)
		sr_fmt_ms(v[4 + i], SR_FMT_NUM, p[i], 6);
	sr_fmt_ms(v[7], SR_FMT_NUM, m->max_delay_ns, 6);
	sr_fmt_s(v[8], SR_FMT_NUM, m->max_delay_start, 9);
	sr_fmt_s(v[9], SR_FMT_NUM, m->max_delay_end, 9);
}

/* a row of one task has its pid; a merged one has none */
static bool has_pid(const struct sr_task_metrics *m)
{
	return m->pid >= 0 && m->ntasks <= 1;
}

void sr_tsv_header(FILE *f)
{
	fputs("pid\tcomm", f);
	for (int i = 0; i < NFIGS; i++)
		fprintf(f, "\t%s", fig_names[i]);
	fputs("\ttasks\tlost", f);
}

void sr_tsv_row(FILE *f, const struct sr_task_metrics *m)
{
	char v[NFIGS][SR_FMT_NUM];

	figs(m, v);
	if (has_pid(m))
		fprintf(f, "%" PRId32 "\t", m->pid);
	else
		fputs("-\t", f);
	sr_put_comm(f, m->comm);
	for (int i = 0; i < NFIGS; i++)
		fprintf(f, "\t%s", v[i]);
	fprintf(f, "\t%" PRIu32 "\t%d", m->ntasks ? m->ntasks : 1,
		m->lost_touched ? 1 : 0);
}

void sr_write_tsv(FILE *f, struct sr_task_metrics *const *rows, size_t n)
{
	sr_tsv_header(f);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		sr_tsv_row(f, rows[i]);
		fputc('\n', f);
	}
}

void sr_write_json(FILE *f, const char *trace, const struct sr_loss *loss,
		   struct sr_task_metrics *const *rows, size_t n)
{
	fputs("{\"trace\": ", f);
	sr_json_str(f, trace);
	fputs(", \"lost_events\": ", f);
	if (loss)
		sr_loss_json(loss, f);
	else
		fputs("null", f);
	fputs(", \"tasks\": [", f);
	for (size_t i = 0; i < n; i++) {
		const struct sr_task_metrics *m = rows[i];
		char v[NFIGS][SR_FMT_NUM];

		figs(m, v);
		fputs(i ? ",\n  {" : "\n  {", f);
		if (has_pid(m))
			fprintf(f, "\"pid\": %" PRId32, m->pid);
		else
			fputs("\"pid\": null", f);
		fputs(", \"comm\": ", f);
		sr_json_str(f, m->comm);
		for (int k = 0; k < NFIGS; k++)
			fprintf(f, ", \"%s\": %s", fig_names[k], v[k]);
		fprintf(f, ", \"tasks\": %" PRIu32 ", \"lost\": %s}",
			m->ntasks ? m->ntasks : 1,
			m->lost_touched ? "true" : "false");
	}
	fputs(n ? "\n]}\n" : "]}\n", f);
}

/* ns as milliseconds with 3 decimals, rounded to the microsecond */
static char *ms3(char *buf, int64_t ns)
{
	uint64_t us = ((uint64_t)(ns < 0 ? 0 : ns) + 500) / 1000;

	snprintf(buf, 32, "%" PRIu64 ".%03" PRIu64, us / 1000, us % 1000);
	return buf;
}

/* timestamp as seconds with 6 decimals, truncated (as perf prints it) */
static char *s6(char *buf, int64_t ns)
{
	uint64_t u = (uint64_t)(ns < 0 ? 0 : ns);

	snprintf(buf, 32, "%" PRIu64 ".%06" PRIu64, u / 1000000000,
		 u % 1000000000 / 1000);
	return buf;
}

static int task_name(char *buf, size_t sz, const struct sr_task_metrics *m)
{
	int n;

	if (m->ntasks > 1)
		n = snprintf(buf, sz, "%s:(%" PRIu32 ")", m->comm, m->ntasks);
	else
		n = snprintf(buf, sz, "%s:%" PRId32, m->comm, m->pid);
	sr_comm_clean(buf, sz, buf);
	return n < (int)sz ? n : (int)sz - 1;
}

static void rule(FILE *f, int w)
{
	fputc(' ', f);
	for (int i = 0; i < w; i++)
		fputc('-', f);
	fputc('\n', f);
}

void sr_write_table(FILE *f, struct sr_task_metrics *const *rows, size_t n)
{
	static const double ps[3] = { 50, 95, 99 };
	char name[96], b[8][32];
	int w = 24, width;
	int64_t total_rt = 0;
	uint64_t total_sw = 0;
	size_t nlost = 0;

	for (size_t i = 0; i < n; i++) {
		int l = task_name(name, sizeof(name), rows[i]) + 2;
		if (l > w)
			w = l;
	}
	width = w + 120;
	fputc('\n', f);
	rule(f, width);
	fprintf(f, "  %-*s | %12s | %8s | %8s | %9s | %9s | %9s | %9s | "
		"%9s | %16s | %16s\n", w - 2, "Task", "Runtime ms", "Switches",
		"Wakeups", "Avg ms", "p50 ms", "p95 ms", "p99 ms", "Max ms",
		"Max start s", "Max end s");
	rule(f, width);
	for (size_t i = 0; i < n; i++) {
		const struct sr_task_metrics *m = rows[i];
		int64_t p[3];

		sr_delays_percentiles(m->delays, ps, p, 3);
		task_name(name, sizeof(name), m);
		if (m->lost_touched) {
			strncat(name, " !", sizeof(name) - strlen(name) - 1);
			nlost++;
		}
		fprintf(f, "  %-*s | %12s | %8" PRIu64 " | %8" PRIu64
			" | %9s | %9s | %9s | %9s | %9s | %16s | %16s\n",
			w - 2, name, ms3(b[0], m->runtime_ns), m->switches,
			m->wakeups, ms3(b[1], sr_metrics_avg_delay(m)),
			ms3(b[2], p[0]), ms3(b[3], p[1]), ms3(b[4], p[2]),
			ms3(b[5], m->max_delay_ns), s6(b[6], m->max_delay_start),
			s6(b[7], m->max_delay_end));
		total_rt += m->runtime_ns;
		total_sw += m->switches;
	}
	rule(f, width);
	fprintf(f, "  %-*s | %12s | %8" PRIu64 " |\n", w - 2, "TOTAL:",
		ms3(b[0], total_rt), total_sw);
	rule(f, w + 27);
	if (nlost)
		fprintf(f, "  ! %zu task(s) whose figures lost events touched\n",
			nlost);
	fputc('\n', f);
}
