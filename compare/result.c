/*
 * result: one policy's rows in memory, from a replay or from its
 * directory (see result.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/qsort.h"
#include "compare/result.h"
#include "compare/tsv.h"
#include "lib/fmt.h"
#include "lib/grow.h"
#include "lib/path.h"
#include "replay/sim.h"

void cmp_result_init(struct cmp_result *r, const char *policy)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->policy, sizeof(r->policy), "%s", policy);
}

void cmp_result_free(struct cmp_result *r)
{
	sr_strpool_free(&r->names);
	free(r->sum);
	free(r->lat);
	free(r->tl);
	free(r->seg);
	memset(r, 0, sizeof(*r));
}

const char *cmp_result_comm(const struct cmp_result *r, uint32_t comm)
{
	return sr_strpool_get(&r->names, comm);
}

/* A task name as the files have it (control characters as '?'). */
static int add_comm(struct cmp_result *r, const char *comm, bool clean,
		    uint32_t *off)
{
	char buf[SR_COMM_MAX];

	if (clean)
		comm = sr_comm_clean(buf, sizeof(buf), comm ? comm : "");
	return sr_strpool_add(&r->names, comm, off);
}

/*
 * The next row of an array (arrp: the address of its pointer, n rows
 * used, *cap allocated), grown when full: NULL when out of memory (the
 * array as it was).  The pointer is read and written with memcpy, so one
 * function serves every row type.
 */
static void *next_row(void *arrp, size_t *cap, size_t n, size_t elem)
{
	void *v, *p;

	memcpy(&v, arrp, sizeof(v));
	p = n < *cap ? v : sr_grow(v, cap, n, elem, 1024, 0);
	if (!p)
		return NULL;
	memcpy(arrp, &p, sizeof(p));
	return (char *)p + n * elem;
}

/*
 * A new last row of an array (as next_row, *n counted) whose task name,
 * the uint32_t comm_off bytes into the row, is comm added to the pool
 * (add_comm): the row, for its other fields, or NULL when out of memory.
 */
static void *add_row(struct cmp_result *r, void *arrp, size_t *cap,
		     size_t *n, size_t elem, size_t comm_off, const char *comm,
		     bool clean)
{
	char *row = next_row(arrp, cap, *n, elem);
	uint32_t off;

	if (!row || add_comm(r, comm, clean, &off))
		return NULL;
	memcpy(row + comm_off, &off, sizeof(off));
	++*n;
	return row;
}

/* ---- events ------------------------------------------------------------- */

static const struct {
	const char *name;
	enum cmp_tl_event ev;
} event_names[] = {
	{ "new", CMP_EV_NEW },
	{ "fork", CMP_EV_FORK },
	{ "wake", CMP_EV_WAKE },
	{ "run", CMP_EV_RUN },
	{ "preempt", CMP_EV_PREEMPT },
	{ "block", CMP_EV_BLOCK },
	{ "exit", CMP_EV_EXIT },
	{ "reap", CMP_EV_REAP },
	{ "late", CMP_EV_SKIP },
	{ "early", CMP_EV_SKIP },
	/* the models' other reasons (sched-model/policies.c): no change of
	 * running, runnable or asleep */
	{ "expire", CMP_EV_OTHER }, { "requeue", CMP_EV_OTHER },
	{ "state", CMP_EV_OTHER }, { "tick", CMP_EV_OTHER },
	{ "recalc", CMP_EV_OTHER }, { "charge", CMP_EV_OTHER },
	{ "swap", CMP_EV_OTHER }, { "yield", CMP_EV_OTHER },
	{ "nice", CMP_EV_OTHER }, { "setsched", CMP_EV_OTHER },
	{ "refund", CMP_EV_OTHER }, { "migrate", CMP_EV_MIGRATE },
};

/* The event named name; *known false (and OTHER) for a name not listed. */
static enum cmp_tl_event event_of(const char *name, bool *known)
{
	*known = true;
	for (size_t i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
		if (!strcmp(name, event_names[i].name))
			return event_names[i].ev;
	*known = false;
	return CMP_EV_OTHER;
}

/* ---- rows from a replay --------------------------------------------------- */

/* The row functions of both inputs: a replay's rows (names cleaned as
 * the files write them) and a saved directory's (clean already). */
static int put_tl(struct cmp_result *r, const struct sr_tl_row *row,
		  bool clean)
{
	struct cmp_tl *t = add_row(r, &r->tl, &r->captl, &r->ntl, sizeof(*t),
				   offsetof(struct cmp_tl, comm), row->comm,
				   clean);
	bool known;

	if (!t)
		return SR_ENOMEM;
	t->time_ns = row->t;
	t->pid = row->pid;
	t->ev = (uint8_t)event_of(row->event, &known);
	t->known = known;
	/* as timeline.tsv shows them: the model's view, or the trace's prio */
	t->prio = (int16_t)(row->v ? row->v->prio : row->prio >= 0 ? row->prio
								   : -1);
	t->static_prio = (int16_t)(row->v ? row->v->static_prio : -1);
	return SR_OK;
}

static int put_lat(struct cmp_result *r, const struct sr_lat_row *row,
		   bool clean)
{
	struct cmp_lat *l = add_row(r, &r->lat, &r->caplat, &r->nlat,
				    sizeof(*l), offsetof(struct cmp_lat, comm),
				    row->comm, clean);

	if (!l)
		return SR_ENOMEM;
	l->wake_ns = row->wake;
	l->delay_ns = row->run - row->wake;
	l->pid = row->pid;
	l->attributed = row->attributed;
	l->why = (uint8_t)(row->attributed ? row->why : SM_WHY_NONE);
	l->behind_pid = row->attributed ? row->behind_pid : -1;
	l->seg0 = l->nseg = 0;
	return SR_OK;
}

static int put_wait(struct cmp_result *r, const struct sr_wait_row *row,
		    bool clean)
{
	struct cmp_seg *g = add_row(r, &r->seg, &r->capseg, &r->nseg,
				    sizeof(*g),
				    offsetof(struct cmp_seg, running_comm),
				    row->running_comm, clean);

	if (!g)
		return SR_ENOMEM;
	g->wake_ns = row->wake;
	g->start_ns = row->start;
	g->dur_ns = row->end - row->start;
	g->pid = row->pid;
	g->running_pid = row->running_pid;
	g->running_prio = (int16_t)row->running_prio;
	g->cpu = (int16_t)row->cpu;
	g->why = row->why;
	r->has_waits = true;
	return SR_OK;
}

int cmp_result_add_tl(struct cmp_result *r, const struct sr_tl_row *row)
{
	return put_tl(r, row, true);
}

int cmp_result_add_lat(struct cmp_result *r, const struct sr_lat_row *row)
{
	return put_lat(r, row, true);
}

int cmp_result_add_wait(struct cmp_result *r, const struct sr_wait_row *row)
{
	return put_wait(r, row, true);
}

/* Segments by their wait (pid, wake time), then in time. */
static int seg_cmp(const void *pa, const void *pb)
{
	const struct cmp_seg *a = pa, *b = pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->wake_ns != b->wake_ns)
		return a->wake_ns < b->wake_ns ? -1 : 1;
	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

/* The first segment of the wait of pid from wake, or r->nseg. */
static size_t seg_find(const struct cmp_result *r, int32_t pid, int64_t wake)
{
	struct cmp_seg key = { .pid = pid, .wake_ns = wake,
			       .start_ns = INT64_MIN };
	size_t lo = 0, hi = r->nseg;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (seg_cmp(&r->seg[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The waits' segments come in the order the waits ended (waits.tsv is
 * written as the replay ends each wait; a wait of no length has none):
 * sorted by (pid, wake time, start), each attributed wait with a delay
 * takes those of its pid and wake time (a task's waits of some length
 * start at different times), and they must add up to its delay.
 */
int cmp_result_link(struct cmp_result *r, struct sr_diag *d)
{
	size_t linked = 0;

	if (r->nseg > 1)
		sr_qsort(r->seg, r->nseg, sizeof(*r->seg), seg_cmp);
	for (size_t i = 0; i < r->nlat; i++) {
		struct cmp_lat *l = &r->lat[i];
		int64_t sum = 0;
		size_t k;

		l->seg0 = l->nseg = 0;
		if (!r->has_waits || !l->attributed || !l->delay_ns)
			continue;
		k = seg_find(r, l->pid, l->wake_ns);
		l->seg0 = (uint32_t)k;
		while (k < r->nseg && r->seg[k].pid == l->pid &&
		       r->seg[k].wake_ns == l->wake_ns && sum < l->delay_ns) {
			/* a saved file's segments: their sum checked */
			if (__builtin_add_overflow(sum, r->seg[k].dur_ns, &sum))
				sum = INT64_MAX;
			k++;
			l->nseg++;
		}
		linked += l->nseg;
		if (sum != l->delay_ns)
			return sr_fail(d, SR_EDATA, "%s: the wait of pid %d at "
				       "%lld ns (%lld ns) has %lld ns of "
				       "segments in waits.tsv", r->policy,
				       (int)l->pid, (long long)l->wake_ns,
				       (long long)l->delay_ns, (long long)sum);
	}
	if (linked != r->nseg)
		return sr_fail(d, SR_EDATA, "%s: waits.tsv has %zu segments, "
			       "the waits of latency.tsv take %zu", r->policy,
			       r->nseg, linked);
	return SR_OK;
}

int cmp_result_add_sums(struct cmp_result *r, const struct sr_replay_policy *p)
{
	static const double ps[3] = { 50, 95, 99 };

	r->sum = calloc(p->nrows ? p->nrows : 1, sizeof(*r->sum));
	if (!r->sum)
		return SR_ENOMEM;
	r->capsum = p->nrows;
	for (size_t i = 0; i < p->nrows; i++) {
		const struct sr_replay_row *row = &p->rows[i];
		const struct sr_task_metrics *m = row->m;
		struct cmp_sum *s = &r->sum[i];
		int64_t pc[3];

		if (add_comm(r, m->comm, true, &s->comm))
			return SR_ENOMEM;
		sr_delays_percentiles(m->delays, ps, pc, 3);
		s->pid = m->pid;
		s->f.runtime_ns = m->runtime_ns;
		s->f.switches = m->switches;
		s->f.wakeups = m->wakeups;
		s->f.avg_ns = sr_metrics_avg_delay(m);
		s->f.p50_ns = pc[0];
		s->f.p95_ns = pc[1];
		s->f.p99_ns = pc[2];
		s->f.max_ns = m->max_delay_ns;
		/* summary.tsv's 6 decimals, read back exactly as strtod would */
		s->f.cpu_share = (double)sr_share_ppm(m->runtime_ns,
						    p->end - p->start) / 1e6;
		s->f.expired = row->x.expired > 0 ? (uint64_t)row->x.expired : 0;
		s->f.late_wakeups = !p->observed && row->x.late_wakeups > 0 ?
				  (uint64_t)row->x.late_wakeups : 0;
		s->f.finish_ns = row->x.finish_ts;
		s->f.lost = m->lost_touched;
		r->nsum = i + 1;
	}
	return SR_OK;
}

/* ---- rows from a replay directory ----------------------------------------- */

static int bad_pid(const struct cmp_tsv *t, int64_t pid, struct sr_diag *d)
{
	return sr_fail(d, SR_EDATA, "%s:%llu: expected a pid, got %lld", t->path,
		       (unsigned long long)t->line, (long long)pid);
}

enum {
	SC_PID, SC_COMM, SC_RUNTIME, SC_SWITCHES, SC_WAKEUPS, SC_AVG, SC_P50,
	SC_P95, SC_P99, SC_MAX, SC_SHARE, SC_EXPIRED, SC_LATE, SC_FINISH,
	SC_LOST, SC__N
};

static const struct cmp_col summary_cols[SC__N] = {
	[SC_PID] = { "pid", true },
	[SC_COMM] = { "comm", true },
	[SC_RUNTIME] = { "runtime_ms", true },
	[SC_SWITCHES] = { "switches", true },
	[SC_WAKEUPS] = { "wakeups", false },
	[SC_AVG] = { "avg_delay_ms", true },
	[SC_P50] = { "p50_delay_ms", false },
	[SC_P95] = { "p95_delay_ms", true },
	[SC_P99] = { "p99_delay_ms", true },
	[SC_MAX] = { "max_delay_ms", true },
	[SC_SHARE] = { "cpu_share", false },
	[SC_EXPIRED] = { "expired", false },
	[SC_LATE] = { "late_wakeups", false },
	[SC_FINISH] = { "finish_s", false },
	[SC_LOST] = { "lost", false },
};

static int sum_row(struct cmp_result *r, struct cmp_tsv *t, struct sr_diag *d)
{
	struct cmp_sum *s = next_row(&r->sum, &r->capsum, r->nsum,
				  sizeof(*s));
	int64_t pid, v;

	if (!s)
		return sr_oom(d);
	memset(s, 0, sizeof(*s));
	if (cmp_tsv_int(t, SC_PID, &pid, d))
		return d->code;
	if (pid < 0 || pid > INT32_MAX)
		return bad_pid(t, pid, d);
	s->pid = (int32_t)pid;
	if (add_comm(r, cmp_tsv_get(t, SC_COMM), false, &s->comm))
		return sr_oom(d);
	if (cmp_tsv_fixed(t, SC_RUNTIME, 6, &s->f.runtime_ns, d) ||
	    cmp_tsv_int(t, SC_SWITCHES, &v, d))
		return d->code;
	s->f.switches = (uint64_t)v;
	if (cmp_tsv_int(t, SC_WAKEUPS, &v, d))
		return d->code;
	s->f.wakeups = (uint64_t)v;
	if (cmp_tsv_fixed(t, SC_AVG, 6, &s->f.avg_ns, d) ||
	    cmp_tsv_fixed(t, SC_P50, 6, &s->f.p50_ns, d) ||
	    cmp_tsv_fixed(t, SC_P95, 6, &s->f.p95_ns, d) ||
	    cmp_tsv_fixed(t, SC_P99, 6, &s->f.p99_ns, d) ||
	    cmp_tsv_fixed(t, SC_MAX, 6, &s->f.max_ns, d) ||
	    cmp_tsv_double(t, SC_SHARE, &s->f.cpu_share, d))
		return d->code;
	if (cmp_tsv_int(t, SC_EXPIRED, &v, d))
		return d->code;
	s->f.expired = (uint64_t)v;
	if (cmp_tsv_int(t, SC_LATE, &v, d))
		return d->code;
	s->f.late_wakeups = (uint64_t)v;
	if (cmp_tsv_fixed(t, SC_FINISH, 9, &s->f.finish_ns, d) ||
	    cmp_tsv_int(t, SC_LOST, &v, d))
		return d->code;
	s->f.lost = v != 0;
	r->nsum++;
	return SR_OK;
}

/*
 * A time in ns (the trace's clock): 0 to 2^63 - 1, as the readers take
 * them (docs/limits.md), so that the difference of two never overflows.
 */
static int time_col(struct cmp_tsv *t, size_t i, int64_t *out,
		    struct sr_diag *d)
{
	if (cmp_tsv_int(t, i, out, d))
		return d->code;
	if (*out < 0)
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a time in ns "
			       "(0 or more) in column %s, got %lld", t->path,
			       (unsigned long long)t->line, t->cols[i].name,
			       (long long)*out);
	return SR_OK;
}

enum { LC_WAKE, LC_RUN, LC_DELAY, LC_PID, LC_COMM, LC_WHY, LC_BEHIND,
       LC__N };

static const struct cmp_col latency_cols[LC__N] = {
	[LC_WAKE] = { "wake_ns", true },
	[LC_RUN] = { "run_ns", true },
	[LC_DELAY] = { "delay_ns", true },
	[LC_PID] = { "pid", true },
	[LC_COMM] = { "comm", true },
	[LC_WHY] = { "why", false },
	[LC_BEHIND] = { "behind_pid", false },
};

/* A why column (latency.tsv, waits.tsv): a reason's name, or "-". */
static int why_col(struct cmp_tsv *t, size_t i, int *out, struct sr_diag *d)
{
	const char *s = cmp_tsv_get(t, i);

	char q[96];

	*out = s && *s ? sm_why_find(s) : SM_WHY_NONE;
	if (*out < 0)
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a reason (%s, "
			       "%s, ...: docs/replay.md) in column %s, got '%s'",
			       t->path, (unsigned long long)t->line,
			       sm_why_name(SM_WHY_LOWER_PRIO),
			       sm_why_name(SM_WHY_NO_PREEMPT), t->cols[i].name,
			       sr_quote(q, sizeof(q), s, strlen(s)));
	return SR_OK;
}

/* The columns that may be empty, absent or "-" (-1 then): a pid (0 to
   INT32_MAX), a prio (-1 to INT16_MAX). */
enum dash_col { DASH_PID, DASH_PRIO };

static int dash_col(struct cmp_tsv *t, size_t i, enum dash_col what,
		    int64_t *out, struct sr_diag *d)
{
	const char *s = cmp_tsv_get(t, i);
	int64_t v;

	*out = -1;
	if (!s || !*s || !strcmp(s, "-"))
		return SR_OK;
	if (cmp_tsv_int(t, i, &v, d))
		return d->code;
	if (what == DASH_PID && (v < 0 || v > INT32_MAX))
		return bad_pid(t, v, d);
	if (what == DASH_PRIO && (v < -1 || v > INT16_MAX))
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a prio (0 to "
			       "%d) in column %s, got %lld", t->path,
			       (unsigned long long)t->line, INT16_MAX,
			       t->cols[i].name, (long long)v);
	*out = v;
	return SR_OK;
}

static int lat_row(struct cmp_result *r, struct cmp_tsv *t, struct sr_diag *d)
{
	struct sr_lat_row row = { 0 };
	int64_t delay, pid, behind = -1;
	const char *why = cmp_tsv_get(t, LC_WHY);

	if (time_col(t, LC_WAKE, &row.wake, d) ||
	    time_col(t, LC_RUN, &row.run, d) ||
	    cmp_tsv_int(t, LC_DELAY, &delay, d) ||
	    cmp_tsv_int(t, LC_PID, &pid, d))
		return d->code;
	/* both times >= 0: their difference cannot overflow */
	if (delay < 0 || delay != row.run - row.wake)
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a delay >= 0, "
			       "run_ns - wake_ns, got %lld", t->path,
			       (unsigned long long)t->line, (long long)delay);
	if (pid < 0 || pid > INT32_MAX)
		return SR_OK; /* no task of ours */
	row.pid = (int32_t)pid;
	row.comm = cmp_tsv_get(t, LC_COMM);
	row.attributed = why && *why && strcmp(why, "-");
	if (row.attributed &&
	    (why_col(t, LC_WHY, &row.why, d) ||
	     dash_col(t, LC_BEHIND, DASH_PID, &behind, d)))
		return d->code;
	row.behind_pid = (int32_t)behind;
	if (put_lat(r, &row, false))
		return sr_oom(d);
	return SR_OK;
}

enum { WC_WAKE, WC_PID, WC_START, WC_END, WC_WHY, WC_RPID, WC_RCOMM,
       WC_RPRIO, WC_CPU, WC_DETAIL, WC__N };

static const struct cmp_col waits_cols[WC__N] = {
	[WC_WAKE] = { "wake_ns", true },
	[WC_PID] = { "pid", true },
	[WC_START] = { "seg_start_ns", true },
	[WC_END] = { "seg_end_ns", true },
	[WC_WHY] = { "why", true },
	[WC_RPID] = { "running_pid", true },
	[WC_RCOMM] = { "running_comm", true },
	[WC_RPRIO] = { "running_prio", true },
	[WC_CPU] = { "cpu", true },
	[WC_DETAIL] = { "detail", false },
};

static int waits_row(struct cmp_result *r, struct cmp_tsv *t,
		     struct sr_diag *d)
{
	struct sr_wait_row row = { 0 };
	int64_t pid, cpu, rpid, prio;
	int why;
	const char *detail = cmp_tsv_get(t, WC_DETAIL);
	char q[96];

	if (time_col(t, WC_WAKE, &row.wake, d) ||
	    cmp_tsv_int(t, WC_PID, &pid, d) ||
	    time_col(t, WC_START, &row.start, d) ||
	    time_col(t, WC_END, &row.end, d) ||
	    why_col(t, WC_WHY, &why, d) ||
	    dash_col(t, WC_RPID, DASH_PID, &rpid, d) ||
	    dash_col(t, WC_RPRIO, DASH_PRIO, &prio, d) ||
	    cmp_tsv_int(t, WC_CPU, &cpu, d))
		return d->code;
	if (pid < 0 || pid > INT32_MAX)
		return bad_pid(t, pid, d);
	if (row.end < row.start || row.start < row.wake)
		return sr_fail(d, SR_EDATA, "%s:%llu: expected wake_ns <= "
			       "seg_start_ns <= seg_end_ns, got %lld, %lld, "
			       "%lld", t->path, (unsigned long long)t->line,
			       (long long)row.wake, (long long)row.start,
			       (long long)row.end);
	if (cpu < 0 || cpu > INT16_MAX)
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a cpu, got %lld",
			       t->path, (unsigned long long)t->line,
			       (long long)cpu);
	row.pid = (int32_t)pid;
	row.cpu = (int)cpu;
	row.running_pid = (int32_t)rpid;
	row.running_prio = (int)prio;
	row.why.code = (uint8_t)why;
	if (sm_why_parse_detail(detail && *detail ? detail : "-", &row.why))
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a detail such "
			       "as 2x-slice,ahead=1 in column detail, got '%s'",
			       t->path, (unsigned long long)t->line,
			       sr_quote(q, sizeof(q), detail ? detail : "",
					detail ? strlen(detail) : 0));
	row.running_comm = row.running_pid >= 0 ? cmp_tsv_get(t, WC_RCOMM) : "";
	if (put_wait(r, &row, false))
		return sr_oom(d);
	return SR_OK;
}

enum { TC_TIME, TC_PID, TC_COMM, TC_EVENT, TC_PRIO, TC_SPRIO, TC__N };

static const struct cmp_col timeline_cols[TC__N] = {
	[TC_TIME] = { "time_ns", true },
	[TC_PID] = { "pid", true },
	[TC_COMM] = { "comm", true },
	[TC_EVENT] = { "event", true },
	[TC_PRIO] = { "prio", false },
	[TC_SPRIO] = { "static_prio", false },
};

static int tl_row(struct cmp_result *r, struct cmp_tsv *t, struct sr_diag *d)
{
	struct sr_tl_row row = { .prio = -1 };
	struct sm_view v = { .prio = -1 };
	int64_t pid, prio, sprio;

	if (time_col(t, TC_TIME, &row.t, d) ||
	    cmp_tsv_int(t, TC_PID, &pid, d))
		return d->code;
	if (r->ntl && row.t < r->tl[r->ntl - 1].time_ns)
		return sr_fail(d, SR_EDATA, "%s:%llu: expected rows sorted by "
			       "time_ns, got %lld after %lld", t->path,
			       (unsigned long long)t->line, (long long)row.t,
			       (long long)r->tl[r->ntl - 1].time_ns);
	if (pid < 0 || pid > INT32_MAX)
		return bad_pid(t, pid, d);
	if (dash_col(t, TC_PRIO, DASH_PRIO, &prio, d) ||
	    dash_col(t, TC_SPRIO, DASH_PRIO, &sprio, d))
		return d->code;
	row.pid = (int32_t)pid;
	row.comm = cmp_tsv_get(t, TC_COMM);
	row.event = cmp_tsv_get(t, TC_EVENT);
	row.prio = (int)prio;
	if (sprio >= 0) {
		/* a model's row: its view's prio and static_prio */
		v.prio = (int)prio;
		v.static_prio = (int)sprio;
		row.v = &v;
	}
	if (put_tl(r, &row, false))
		return sr_oom(d);
	return SR_OK;
}

static const struct {
	const char *file;
	const struct cmp_col *cols;
	size_t ncols;
	int (*row)(struct cmp_result *r, struct cmp_tsv *t, struct sr_diag *d);
} files[] = {
	{ "summary.tsv", summary_cols, SC__N, sum_row },
	{ "latency.tsv", latency_cols, LC__N, lat_row },
	{ "timeline.tsv", timeline_cols, TC__N, tl_row },
	{ "waits.tsv", waits_cols, WC__N, waits_row },	/* optional */
};
#define NFILES_NEEDED 3	/* waits.tsv: only a simulated run has it */

static int read_file(struct cmp_result *r, const char *dir, size_t f,
		     struct sr_diag *d)
{
	struct cmp_tsv t;
	char *path = sr_path_join(dir, files[f].file, NULL);
	int rc;

	if (!path)
		return sr_oom(d);
	rc = cmp_tsv_open(&t, path, files[f].cols, files[f].ncols, d);
	free(path);
	if (rc)
		return rc;
	while ((rc = cmp_tsv_next(&t, d)) == 1)
		if (files[f].row(r, &t, d))
			break;
	cmp_tsv_close(&t);
	return rc < 0 || d->code ? d->code : SR_OK;
}

int cmp_result_check(const char *dir, const char *policy, struct sr_diag *d)
{
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return sr_fail(d, SR_ENOINPUT,
			       "%s: expected the replay output of policy '%s' (a directory), got %s",
			       dir, policy, strerror(errno ? errno : ENOTDIR));
	for (size_t i = 0; i < NFILES_NEEDED; i++) {
		char *p = sr_path_join(dir, files[i].file, NULL);
		int rc = SR_OK;

		if (!p)
			return sr_oom(d);
		if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
			rc = sr_fail(d, SR_ENOINPUT, "%s: missing: expected the "
				     "replay's %s for policy '%s'", p,
				     files[i].file, policy);
		free(p);
		if (rc)
			return rc;
	}
	return SR_OK;
}

/* The CPUs a run used: the rows of DIR/cpus.tsv (0: no such file). */
static int count_cpus(const char *dir, int *cpus, struct sr_diag *d)
{
	char *path = sr_path_join(dir, "cpus.tsv", NULL);
	FILE *f;
	int c, e;
	long lines = 0;

	*cpus = 0;
	if (!path)
		return sr_oom(d);
	if (!(f = fopen(path, "r"))) {
		e = errno;
		free(path);
		if (e == ENOENT)
			return SR_OK;
		return sr_fail_errno(d, SR_EIO, e, "%s/cpus.tsv: cannot open",
				     dir);
	}
	while ((c = getc(f)) != EOF && lines <= SR_SIM_MAX_CPUS + 1)
		lines += c == '\n';
	e = ferror(f);
	fclose(f);
	free(path);
	if (e)
		return sr_fail(d, SR_EIO, "%s/cpus.tsv: read error", dir);
	if (lines > SR_SIM_MAX_CPUS + 1)
		return sr_fail(d, SR_EDATA, "%s/cpus.tsv: expected a row per "
			       "CPU, at most %d, got more", dir,
			       SR_SIM_MAX_CPUS);
	*cpus = lines > 1 ? (int)lines - 1 : 0;
	return SR_OK;
}

int cmp_result_read(struct cmp_result *r, const char *dir, unsigned what,
		    struct sr_diag *d)
{
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		if (!(what & (1u << f)))
			continue;
		if (f >= NFILES_NEEDED) {
			struct stat st;
			char *p = sr_path_join(dir, files[f].file, NULL);
			bool there;

			if (!p)
				return sr_oom(d);
			there = stat(p, &st) == 0;
			free(p);
			if (!there)
				continue;
		}
		if (read_file(r, dir, f, d))
			return d->code;
	}
	if (count_cpus(dir, &r->cpus, d))
		return d->code;
	if ((what & CMP_READ_LAT) && cmp_result_link(r, d))
		return d->code;
	return SR_OK;
}
