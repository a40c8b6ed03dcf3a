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
#include "replay/sortbuf.h"
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
	      "credit\ttime_slice\tarray\tcpu\tfrom_cpu\twhy\n", f);
}

static void put_long_or_dash(FILE *f, long v, bool known)
{
	if (known)
		fprintf(f, "\t%ld", v);
	else
		fputs("\t-", f);
}

/* "\tV", or "\t-" when not known */
static void line_long_or_dash(struct sr_line *l, long v, bool known)
{
	sr_line_ch(l, '\t');
	if (known)
		sr_line_i64(l, v);
	else
		sr_line_ch(l, '-');
}

/* A name as the files give it: cleaned, cut as a reader's buffer cuts it
 * (sr_comm_clean) */
static void put_comm(struct sr_line *l, const char *comm)
{
	char c[SR_COMM_MAX];

	sr_line_str(l, sr_comm_clean(c, sizeof(c), comm));
}

/* Written without printf, as the waits' rows: a replay writes millions. */
void sr_timeline_row(FILE *f, const struct sr_tl_row *r)
{
	const struct sm_view *v = r->v;
	struct sr_line l;

	l.n = 0;
	sr_line_i64(&l, r->t);
	sr_line_ch(&l, '\t');
	sr_line_i64(&l, r->pid);
	sr_line_ch(&l, '\t');
	put_comm(&l, r->comm);
	sr_line_ch(&l, '\t');
	sr_line_str(&l, r->event);
	if (!v) {
		line_long_or_dash(&l, r->prio, r->prio >= 0);
		sr_line_str(&l, "\t-\t-\t-\t-\t-");
	} else {
		sr_line_ch(&l, '\t');
		sr_line_i64(&l, v->prio);
		sr_line_ch(&l, '\t');
		sr_line_i64(&l, v->static_prio);
		line_long_or_dash(&l, v->sleep_avg, v->sleep_avg >= 0);
		line_long_or_dash(&l, v->credit, v->credit >= 0);
		sr_line_ch(&l, '\t');
		sr_line_i64(&l, v->time_slice);
		sr_line_ch(&l, '\t');
		sr_line_str(&l, (unsigned)v->array < 3 ? array_names[v->array]
						       : "-");
	}
	line_long_or_dash(&l, r->cpu, r->cpu >= 0);
	line_long_or_dash(&l, r->from_cpu, r->from_cpu >= 0);
	sr_line_ch(&l, '\t');
	sr_line_str(&l, r->why ? r->why : "-");
	sr_line_ch(&l, '\n');
	sr_line_put(&l, f);
}

/* ---- latency ------------------------------------------------------------ */

struct lrow {
	int64_t wake, run;
	int32_t pid;
	uint32_t comm;      /* offset in the name pool */
	uint64_t seq;       /* arrival order, the last tie-break */
	uint8_t cause;
	uint8_t attributed, why;
	int32_t behind_pid;
};

struct sr_latw {
	sr_lat_fn emit;
	sr_wait_fn emit_wait;
	void *ctx;
	int err;            /* the first error emit returned */
	const struct sr_acct *acct;
	struct sr_sortbuf *q; /* by (wake, run, pid, seq) */
	uint64_t next_check, seq;
	struct sr_strpool names;
};

#define LATW_CHECK_MIN 4096
#define LATW_MEM_ROWS 16384 /* rows in memory; more go to a temporary file */

static bool lless(const void *pa, const void *pb)
{
	const struct lrow *a = pa, *b = pb;

	if (a->wake != b->wake)
		return a->wake < b->wake;
	if (a->run != b->run)
		return a->run < b->run;
	if (a->pid != b->pid)
		return a->pid < b->pid;
	return a->seq < b->seq;
}

void sr_latency_header(FILE *f)
{
	fputs("wake_ns\trun_ns\tdelay_ns\tpid\tcomm\tcause\twhy\t"
	      "behind_pid\n", f);
}

void sr_latency_row(FILE *f, const struct sr_lat_row *r)
{
	struct sr_line l;

	l.n = 0;
	sr_line_i64(&l, r->wake);
	sr_line_ch(&l, '\t');
	sr_line_i64(&l, r->run);
	sr_line_ch(&l, '\t');
	sr_line_i64(&l, r->run - r->wake);
	sr_line_ch(&l, '\t');
	sr_line_i64(&l, r->pid);
	sr_line_ch(&l, '\t');
	put_comm(&l, r->comm);
	sr_line_ch(&l, '\t');
	sr_line_str(&l, sr_acct_cause_name(r->cause));
	if (!r->attributed) {
		sr_line_str(&l, "\t-\t-\n");
	} else {
		sr_line_ch(&l, '\t');
		sr_line_str(&l, sm_why_name(r->why));
		sr_line_ch(&l, '\t');
		if (r->behind_pid >= 0)
			sr_line_i64(&l, r->behind_pid);
		else
			sr_line_ch(&l, '-');
		sr_line_ch(&l, '\n');
	}
	sr_line_put(&l, f);
}

void sr_waits_header(FILE *f)
{
	fputs("wake_ns\tpid\tcomm\tseg_start_ns\tseg_end_ns\twhy\t"
	      "running_pid\trunning_comm\trunning_prio\tcpu\tdetail\n", f);
}

/* Written without printf: the file has a few rows per wait. */
void sr_waits_row(FILE *f, const struct sr_wait_row *r)
{
	struct sr_line l;
	char detail[64];

	l.n = 0;
	sr_line_i64(&l, r->wake);
	sr_line_ch(&l, '\t');
	sr_line_i64(&l, r->pid);
	sr_line_ch(&l, '\t');
	sr_line_comm(&l, r->comm);
	sr_line_ch(&l, '\t');
	sr_line_i64(&l, r->start);
	sr_line_ch(&l, '\t');
	sr_line_i64(&l, r->end);
	sr_line_ch(&l, '\t');
	sr_line_str(&l, sm_why_name(r->why.code));
	sr_line_ch(&l, '\t');
	if (r->running_pid >= 0) {
		sr_line_i64(&l, r->running_pid);
		sr_line_ch(&l, '\t');
		sr_line_comm(&l, r->running_comm);
		sr_line_ch(&l, '\t');
		sr_line_i64(&l, r->running_prio);
	} else {
		sr_line_str(&l, "-\t-\t-");
	}
	sr_line_ch(&l, '\t');
	sr_line_i64(&l, r->cpu);
	sr_line_ch(&l, '\t');
	if (r->why.sub || r->why.ahead >= 0 || r->why.value >= 0)
		sr_line_str(&l, sm_why_detail(detail, sizeof(detail), &r->why));
	else
		sr_line_ch(&l, '-');
	sr_line_ch(&l, '\n');
	sr_line_put(&l, f);
}

int sr_latw_new(struct sr_latw **out, const struct sr_acct *acct,
		sr_lat_fn emit, sr_wait_fn emit_wait, void *ctx,
		struct sr_diag *d)
{
	struct sr_latw *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (!w)
		return sr_oom(d);
	w->emit = emit;
	w->emit_wait = emit_wait;
	w->ctx = ctx;
	w->acct = acct;
	w->next_check = LATW_CHECK_MIN;
	if (sr_sortbuf_new(&w->q, sizeof(struct lrow), lless, LATW_MEM_ROWS,
			   d)) {
		sr_latw_free(w);
		return d->code;
	}
	*out = w;
	return SR_OK;
}

void sr_latw_free(struct sr_latw *w)
{
	if (!w)
		return;
	sr_sortbuf_free(w->q);
	sr_strpool_free(&w->names);
	free(w);
}

void sr_latw_stats(const struct sr_latw *w, struct sr_sortbuf_stats *st)
{
	sr_sortbuf_stats(w->q, st);
}

static void put_row(struct sr_latw *w, const struct lrow *r)
{
	struct sr_lat_row row = {
		.wake = r->wake, .run = r->run, .pid = r->pid,
		.comm = sr_strpool_get(&w->names, r->comm),
		.cause = (enum sr_acct_cause)r->cause,
		.attributed = r->attributed, .why = r->why,
		.behind_pid = r->behind_pid,
	};
	int rc = w->emit(w->ctx, &row);

	if (rc && !w->err)
		w->err = rc;
}

/* Pass on the rows that come before bound (INT64_MAX: all). */
static int put_before(struct sr_latw *w, int64_t bound)
{
	const struct lrow *m;
	int rc;

	while ((rc = sr_sortbuf_min(w->q, (const void **)&m)) == SR_OK && m &&
	       m->wake < bound) {
		put_row(w, m);
		if ((rc = sr_sortbuf_pop(w->q)))
			break;
	}
	if (rc && !w->err)
		w->err = rc;
	return w->err;
}

/* Write the rows no wait to come can precede. */
static void drain(struct sr_latw *w, int64_t now)
{
	int64_t bound = now;
	size_t n = sr_acct_ntasks(w->acct);

	uint64_t held;

	for (size_t i = 0; i < n; i++)
		if (sr_acct_state(w->acct, (uint32_t)i) == SR_ACCT_RUNNABLE &&
		    sr_acct_since(w->acct, (uint32_t)i) < bound)
			bound = sr_acct_since(w->acct, (uint32_t)i);
	put_before(w, bound);
	held = sr_sortbuf_count(w->q);
	w->next_check = 2 * held > LATW_CHECK_MIN ? 2 * held : LATW_CHECK_MIN;
}

int sr_latw_add(struct sr_latw *w, int64_t from, int64_t to, int32_t pid,
		const char *comm, enum sr_acct_cause cause,
		const struct sr_lat_why *why)
{
	struct lrow r = { .wake = from, .run = to, .pid = pid,
			  .seq = w->seq++, .cause = (uint8_t)cause,
			  .behind_pid = -1 };

	if (sr_strpool_add(&w->names, comm ? comm : "", &r.comm))
		return SR_ENOMEM;
	if (why) {
		int main_why;
		uint32_t behind;

		sr_wait_main(why->segs, why->nsegs, &main_why, &behind,
			     &r.behind_pid);
		r.attributed = 1;
		r.why = (uint8_t)main_why;
		/* the segments go out now, the wait's end being now */
		for (size_t i = 0; w->emit_wait && i < why->nsegs; i++) {
			const struct sr_wait_seg *g = &why->segs[i];
			struct sr_wait_row x = {
				.wake = from, .run = to, .pid = pid,
				.comm = comm ? comm : "",
				.start = g->start, .end = g->end, .why = g->why,
				.running_pid = g->running_pid,
				.running_comm = g->running_pid >= 0 ?
					why->name(why->name_ctx,
						  g->running_comm) : "",
				.running_prio = g->running_prio, .cpu = g->cpu,
			};
			int rc = w->emit_wait(w->ctx, &x);

			if (rc && !w->err)
				w->err = rc;
		}
	}
	if (sr_sortbuf_push(w->q, &r))
		return SR_ENOMEM;
	if (sr_sortbuf_count(w->q) >= w->next_check)
		drain(w, to);
	return w->err;
}

int sr_latw_flush(struct sr_latw *w)
{
	return put_before(w, INT64_MAX);
}

/* ---- summary ------------------------------------------------------------ */

void sr_summary_header(FILE *f)
{
	sr_tsv_header(f);
	fputs("\tcpu_share\texpired\tlate_wakeups\tfinish_s\tmigrations\n",
	      f);
}

int64_t sr_share_ppm(int64_t runtime, int64_t span)
{
	if (span <= 0 || runtime <= 0)
		return 0;
	return (int64_t)(((__int128)runtime * 1000000 + span / 2) / span);
}

/* runtime / span as a fraction with 6 decimals, rounded, exactly. */
static void put_share(FILE *f, int64_t runtime, int64_t span)
{
	int64_t ppm = sr_share_ppm(runtime, span);

	fprintf(f, "\t%" PRId64 ".%06" PRId64, ppm / 1000000, ppm % 1000000);
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
	fprintf(f, "\t%s", x->has_finish ? sr_fmt_s(b, sizeof(b), x->finish_ts, 9) : "-");
	if (x->migrations >= 0)
		fprintf(f, "\t%" PRId64 "\n", x->migrations);
	else
		fputs("\t-\n", f);
}

/* ---- cpus --------------------------------------------------------------- */

void sr_cpus_header(FILE *f)
{
	fputs("cpu\tbusy_ns\tidle_ns\tswitches\tbalances\tpulls\n", f);
}

void sr_cpus_row(FILE *f, int cpu, const struct sr_cpu_figs *c)
{
	fprintf(f, "%d\t%" PRId64 "\t%" PRId64 "\t%" PRIu64, cpu, c->busy_ns,
		c->idle_ns, c->switches);
	if (c->balances >= 0)
		fprintf(f, "\t%" PRId64, c->balances);
	else
		fputs("\t-", f);
	if (c->pulls >= 0)
		fprintf(f, "\t%" PRId64 "\n", c->pulls);
	else
		fputs("\t-\n", f);
}

/* ---- tasks and names, for --tree ----------------------------------------- */

static void put_id(FILE *f, sr_tid id)
{
	if (id == SR_TID_NONE)
		fputs("\t-", f);
	else
		fprintf(f, "\t%" PRIu32, (uint32_t)id);
}

void sr_tasks_write(FILE *f, const struct sr_tasks *tt)
{
	size_t n = sr_tasks_count(tt);

	fputs("id\tpid\ttgid\tthread\tparent\tidle\tcomm\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct sr_task *t = sr_tasks_get(tt, (sr_tid)i);

		fprintf(f, "%zu\t%" PRId32, i, t->pid);
		put_long_or_dash(f, t->tgid, t->tgid >= 0);
		put_id(f, t->thread);
		put_id(f, t->parent);
		fprintf(f, "\t%d\t", t->is_idle ? 1 : 0);
		sr_put_comm(f, t->comm);
		fputc('\n', f);
	}
}

void sr_seen_header(FILE *f)
{
	fputs("id\tcomm\n", f);
}

void sr_seen_row(FILE *f, sr_tid id, const char *comm)
{
	fprintf(f, "%" PRIu32 "\t", (uint32_t)id);
	sr_put_comm(f, comm);
	fputc('\n', f);
}
