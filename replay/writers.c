/*
 * writers: formatting of timeline.tsv, latency.tsv (with the bounded
 * re-ordering buffer that puts its rows in wake order) and summary.tsv.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/fmt.h"
#include "lib/grow.h"
#include "lib/strpool.h"
#include "replay/summary.h"
#include "replay/writers.h"

/* ---- timeline ----------------------------------------------------------- */

static const char *const array_names[] = {
	[SM_ARRAY_NONE] = "none", [SM_ARRAY_ACTIVE] = "active",
	[SM_ARRAY_EXPIRED] = "expired",
};

void sr_timeline_header(FILE *f)
{
	fputs("time_ns\tpid\tcomm\tevent\tprio\tstatic_prio\tsleep_avg\t"
	      "credit\ttime_slice\tarray\n", f);
}

static void put_long_or_dash(FILE *f, long v, bool known)
{
	if (known)
		fprintf(f, "\t%ld", v);
	else
		fputs("\t-", f);
}

void sr_timeline_row(FILE *f, const struct sr_tl_row *r)
{
	char comm[SR_COMM_MAX];
	const struct sm_view *v = r->v;

	fprintf(f, "%" PRId64 "\t%" PRId32 "\t%s\t%s", r->t, r->pid,
		sr_comm_clean(comm, sizeof(comm), r->comm), r->event);
	if (!v) {
		put_long_or_dash(f, r->prio, r->prio >= 0);
		fputs("\t-\t-\t-\t-\t-\n", f);
		return;
	}
	fprintf(f, "\t%d\t%d", v->prio, v->static_prio);
	put_long_or_dash(f, v->sleep_avg, v->sleep_avg >= 0);
	put_long_or_dash(f, v->credit, v->credit >= 0);
	fprintf(f, "\t%ld\t%s\n", v->time_slice,
		(unsigned)v->array < 3 ? array_names[v->array] : "-");
}

/* ---- latency ------------------------------------------------------------ */

struct lrow {
	int64_t wake, run;
	int32_t pid;
	uint32_t comm;      /* offset in the name pool */
	uint64_t seq;       /* arrival order, the last tie-break */
	uint8_t cause;
};

struct sr_latw {
	FILE *f;
	const struct sr_acct *acct;
	struct lrow *h;     /* min-heap by (wake, run, pid, seq) */
	size_t n, cap, next_check;
	uint64_t seq, peak;
	struct sr_strpool names;
};

#define LATW_CHECK_MIN 4096

int sr_latw_new(struct sr_latw **out, FILE *f, const struct sr_acct *acct,
		struct sr_diag *d)
{
	struct sr_latw *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (!w)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	w->f = f;
	w->acct = acct;
	w->next_check = LATW_CHECK_MIN;
	fputs("wake_ns\trun_ns\tdelay_ns\tpid\tcomm\tcause\n", f);
	*out = w;
	return SR_OK;
}

void sr_latw_free(struct sr_latw *w)
{
	if (!w)
		return;
	free(w->h);
	sr_strpool_free(&w->names);
	free(w);
}

uint64_t sr_latw_peak(const struct sr_latw *w)
{
	return w->peak;
}

static bool lless(const struct lrow *a, const struct lrow *b)
{
	if (a->wake != b->wake)
		return a->wake < b->wake;
	if (a->run != b->run)
		return a->run < b->run;
	if (a->pid != b->pid)
		return a->pid < b->pid;
	return a->seq < b->seq;
}

static void put_row(struct sr_latw *w, const struct lrow *r)
{
	char comm[SR_COMM_MAX];

	fprintf(w->f, "%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId32
		"\t%s\t%s\n", r->wake, r->run, r->run - r->wake, r->pid,
		sr_comm_clean(comm, sizeof(comm), sr_strpool_get(&w->names, r->comm)),
		sr_acct_cause_name((enum sr_acct_cause)r->cause));
}

static void pop(struct sr_latw *w)
{
	size_t i = 0, n = --w->n;

	w->h[0] = w->h[n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct lrow t;

		if (l < n && lless(&w->h[l], &w->h[m]))
			m = l;
		if (r < n && lless(&w->h[r], &w->h[m]))
			m = r;
		if (m == i)
			break;
		t = w->h[i];
		w->h[i] = w->h[m];
		w->h[m] = t;
		i = m;
	}
}

/* Write the rows no wait to come can precede. */
static void drain(struct sr_latw *w, int64_t now)
{
	int64_t bound = now;
	size_t n = sr_acct_ntasks(w->acct);

	for (size_t i = 0; i < n; i++)
		if (sr_acct_state(w->acct, (uint32_t)i) == SR_ACCT_RUNNABLE &&
		    sr_acct_since(w->acct, (uint32_t)i) < bound)
			bound = sr_acct_since(w->acct, (uint32_t)i);
	while (w->n && w->h[0].wake < bound) {
		put_row(w, &w->h[0]);
		pop(w);
	}
	w->next_check = 2 * w->n > LATW_CHECK_MIN ? 2 * w->n : LATW_CHECK_MIN;
}

int sr_latw_add(struct sr_latw *w, int64_t from, int64_t to, int32_t pid,
		const char *comm, enum sr_acct_cause cause)
{
	struct lrow r = { .wake = from, .run = to, .pid = pid,
			  .seq = w->seq++, .cause = (uint8_t)cause };
	size_t i;

	if (sr_strpool_add(&w->names, comm ? comm : "", &r.comm))
		return SR_EINTERNAL;
	if (w->n == w->cap) {
		struct lrow *h = sr_grow(w->h, &w->cap, w->n, sizeof(*h), 1024, 0);

		if (!h)
			return SR_EINTERNAL;
		w->h = h;
	}
	i = w->n++;
	w->h[i] = r;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct lrow t;

		if (!lless(&w->h[i], &w->h[p]))
			break;
		t = w->h[i];
		w->h[i] = w->h[p];
		w->h[p] = t;
		i = p;
	}
	if (w->n > w->peak)
		w->peak = w->n;
	if (w->n >= w->next_check)
		drain(w, to);
	return SR_OK;
}

int sr_latw_flush(struct sr_latw *w)
{
	while (w->n) {
		put_row(w, &w->h[0]);
		pop(w);
	}
	return SR_OK;
}

/* ---- summary ------------------------------------------------------------ */

void sr_summary_header(FILE *f)
{
	sr_tsv_header(f);
	fputs("\tcpu_share\texpired\tlate_wakeups\tfinish_s\n", f);
}

/* runtime / span as a fraction with 6 decimals, rounded, exactly. */
static void put_share(FILE *f, int64_t runtime, int64_t span)
{
	uint64_t ppm;

	if (span <= 0 || runtime <= 0) {
		fputs("\t0.000000", f);
		return;
	}
	ppm = (uint64_t)(((__int128)runtime * 1000000 + span / 2) / span);
	fprintf(f, "\t%" PRIu64 ".%06" PRIu64, ppm / 1000000, ppm % 1000000);
}

void sr_summary_row(FILE *f, const struct sr_task_metrics *m,
		    const struct sr_summary_extra *x)
{
	char b[32];

	sr_tsv_row(f, m);
	put_share(f, m->runtime_ns, x->span_ns);
	if (x->expired >= 0)
		fprintf(f, "\t%" PRId64, x->expired);
	else
		fputs("\t-", f);
	if (x->late_wakeups >= 0)
		fprintf(f, "\t%" PRId64, x->late_wakeups);
	else
		fputs("\t-", f);
	fprintf(f, "\t%s\n", x->has_finish ? sr_fmt_s(b, sizeof(b), x->finish_ts, 9) : "-");
}
