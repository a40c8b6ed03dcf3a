/*
 * diff: policy B against policy A, per task, with a headline (see diff.h).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compare/behave.h"
#include "compare/diff.h"
#include "compare/style.h"
#include "lib/fmt.h"

/* ---- the figures compared, as one table ------------------------------- */

enum mkind {
	MK_NS,     /* int64 ns, shown in ms */
	MK_DNS,    /* double ns, shown in ms */
	MK_COUNT,  /* uint64 */
	MK_SHARE,  /* double fraction */
};

struct metric {
	const char *name;   /* column stem in TSV and JSON */
	enum mkind kind;
	size_t off;         /* in struct cmp_figs */
};

static const struct metric metrics[] = {
	{ "runtime_ms", MK_NS, offsetof(struct cmp_figs, runtime_ns) },
	{ "switches", MK_COUNT, offsetof(struct cmp_figs, switches) },
	{ "wakeups", MK_COUNT, offsetof(struct cmp_figs, wakeups) },
	{ "avg_delay_ms", MK_NS, offsetof(struct cmp_figs, avg_ns) },
	{ "p95_delay_ms", MK_NS, offsetof(struct cmp_figs, p95_ns) },
	{ "p99_delay_ms", MK_NS, offsetof(struct cmp_figs, p99_ns) },
	{ "max_delay_ms", MK_NS, offsetof(struct cmp_figs, max_ns) },
	{ "sd_delay_ms", MK_DNS, offsetof(struct cmp_figs, sd_ns) },
	{ "ib_sd_delay_ms", MK_DNS, offsetof(struct cmp_figs, ib_sd_ns) },
	{ "cpu_share", MK_SHARE, offsetof(struct cmp_figs, cpu_share) },
	{ "expired", MK_COUNT, offsetof(struct cmp_figs, expired) },
	{ "late_wakeups", MK_COUNT, offsetof(struct cmp_figs, late_wakeups) },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

static long double mval(const struct cmp_figs *f, const struct metric *m)
{
	const char *p = (const char *)f + m->off;

	switch (m->kind) {
	case MK_NS: return (long double)*(const int64_t *)p;
	case MK_DNS: return (long double)*(const double *)p;
	case MK_COUNT: return (long double)*(const uint64_t *)p;
	case MK_SHARE: return (long double)*(const double *)p;
	}
	return 0;
}

/* A value (or change) of metric m; exact for integer kinds. */
static char *mfmt(char *buf, size_t len, const struct cmp_figs *fa,
		  const struct cmp_figs *fb, const struct metric *m)
{
	const char *pa = fa ? (const char *)fa + m->off : NULL;
	const char *pb = (const char *)fb + m->off;

	switch (m->kind) {
	case MK_NS: {
		int64_t v = *(const int64_t *)pb;

		if (pa)
			v -= *(const int64_t *)pa;
		return sr_fmt_ms(buf, len, v, 6);
	}
	case MK_COUNT: {
		long long v = (long long)*(const uint64_t *)pb;

		if (pa)
			v -= (long long)*(const uint64_t *)pa;
		snprintf(buf, len, "%lld", v);
		return buf;
	}
	case MK_DNS: {
		double v = *(const double *)pb;

		if (pa)
			v -= *(const double *)pa;
		snprintf(buf, len, "%.6f", v / 1e6);
		return buf;
	}
	case MK_SHARE: {
		double v = *(const double *)pb;

		if (pa)
			v -= *(const double *)pa;
		snprintf(buf, len, "%.6f", v);
		return buf;
	}
	}
	buf[0] = '\0';
	return buf;
}

/* B/A, or NULL when A is 0 (undefined; 1 would hide a change from 0). */
static const char *ratio_fmt(char *buf, size_t len, const struct cmp_figs *fa,
			     const struct cmp_figs *fb, const struct metric *m)
{
	long double a = mval(fa, m), b = mval(fb, m);

	if (a == 0)
		return NULL;
	snprintf(buf, len, "%.4f", (double)(b / a));
	return buf;
}

/* ---- building ---------------------------------------------------------- */

enum cmp_verdict cmp_verdict_of(const struct cmp_task *t, size_t a, size_t b)
{
	return cmp_vrule_decide(CMP_VK_LATENCY, t->figs[a].p99_ns,
				t->figs[b].p99_ns, SIZE_MAX, SIZE_MAX);
}

/* Deadlines met by f, per mille (own: on the run's own clock). */
static int64_t met_pm(const struct cmp_figs *f, bool own)
{
	uint64_t met = own ? f->deadlines_met_own : f->deadlines_met;

	return f->periods ? (int64_t)((2000 * met + f->periods) /
				      (2 * f->periods)) : 0;
}

/* The task's figure leads: deadlines for a periodic task, else p99. */
static bool by_deadlines(const struct cmp_task *t, const struct cmp_figs *fa,
			 const struct cmp_figs *fb)
{
	return t->period_ns > 0 && fa->periods && fb->periods;
}

enum cmp_verdict cmp_task_verdict(const struct cmp_diff *df,
				  const struct cmp_task *t)
{
	const struct cmp_figs *fa = &t->figs[df->a], *fb = &t->figs[df->b];

	if (by_deadlines(t, fa, fb))
		return cmp_vrule_decide(CMP_VK_PERIODIC,
					1000 - met_pm(fa, df->behind),
					1000 - met_pm(fb, df->behind),
					SIZE_MAX, SIZE_MAX);
	return cmp_vrule_decide(CMP_VK_LATENCY, fa->p99_ns, fb->p99_ns,
				fa->ndelays, fb->ndelays);
}

/* The figure the task's word follows, as the headline names it. */
static int task_figure(char *buf, size_t len, const struct cmp_diff *df,
		       const struct cmp_task *t)
{
	const struct cmp_figs *fa = &t->figs[df->a], *fb = &t->figs[df->b];
	char x[SR_FMT_NUM], y[SR_FMT_NUM];

	if (by_deadlines(t, fa, fb))
		return snprintf(buf, len, "deadlines met %s%% -> %s%%%s",
				sr_fmt_scaled(x, sizeof(x), met_pm(fa, df->behind), 1, 1),
				sr_fmt_scaled(y, sizeof(y), met_pm(fb, df->behind), 1, 1),
				df->behind ? " (own clock)" : "");
	return snprintf(buf, len, "p99 %s -> %s ms%s",
			sr_fmt_ms(x, sizeof(x), fa->p99_ns, 2),
			sr_fmt_ms(y, sizeof(y), fb->p99_ns, 2),
			fa->ndelays < CMP_VERDICT_MIN_WAITS ||
			fb->ndelays < CMP_VERDICT_MIN_WAITS ? " (too few waits)" : "");
}

struct name_count {
	const char *comm;
	size_t n;
	int64_t cpu;
};

static int cmp_nc(const void *pa, const void *pb)
{
	const struct name_count *a = pa, *b = pb;

	if (a->cpu != b->cpu)
		return a->cpu > b->cpu ? -1 : 1;
	return strcmp(a->comm, b->comm);
}

static void batch_summary(struct cmp_diff *df)
{
	const struct cmp_set *s = df->s;
	struct name_count *nc = calloc(df->nrows + 1, sizeof(*nc));
	size_t nn = 0, o = 0;
	int64_t fa = 0, fb = 0;
	bool known = true;

	/* the tasks shown (--task, --tree), so the figures match the table */
	for (size_t r = 0; r < df->nrows; r++) {
		const struct cmp_task *t = &s->tasks[df->rows[r]];
		const struct cmp_figs *a = &t->figs[df->a], *b = &t->figs[df->b];
		size_t k;

		if (t->cls != CMP_CLASS_BATCH || !a->present || !b->present)
			continue;
		df->nbatch++;
		df->batch_cpu_ns += a->runtime_ns;
		if (!a->finish_ns || !b->finish_ns)
			known = false;
		if (a->finish_ns > fa)
			fa = a->finish_ns;
		if (b->finish_ns > fb)
			fb = b->finish_ns;
		if (!nc)
			continue;
		for (k = 0; k < nn; k++)
			if (!strcmp(nc[k].comm, t->comm))
				break;
		if (k == nn) {
			nc[nn].comm = t->comm;
			nn++;
		}
		nc[k].n++;
		nc[k].cpu += a->runtime_ns;
	}
	df->batch_done_known = df->nbatch && known && s->have_t;
	if (df->batch_done_known) {
		df->batch_done_a = fa - s->origin;
		df->batch_done_b = fb - s->origin;
	}
	df->batch_names[0] = '\0';
	if (nc) {
		qsort(nc, nn, sizeof(*nc), cmp_nc);
		for (size_t k = 0; k < nn && k < 4; k++) {
			int w = snprintf(df->batch_names + o,
					 sizeof(df->batch_names) - o, "%s%s x%zu",
					 k ? ", " : "", nc[k].comm, nc[k].n);
			if (w < 0 || (size_t)w >= sizeof(df->batch_names) - o)
				break;
			o += (size_t)w;
		}
		if (nn > 4 && o + 8 < sizeof(df->batch_names))
			snprintf(df->batch_names + o, sizeof(df->batch_names) - o,
				 ", ...");
	}
	free(nc);
}

/* Periodic task x comes before y in the headline. */
static bool periodic_before(const struct cmp_diff *df, long x, long y)
{
	const struct cmp_task *tx = &df->s->tasks[x], *ty = &df->s->tasks[y];
	double ax = cmp_deadlines_met_pct(&tx->figs[df->a]);
	double bx = cmp_deadlines_met_pct(&tx->figs[df->b]);
	double ay = cmp_deadlines_met_pct(&ty->figs[df->a]);
	double by = cmp_deadlines_met_pct(&ty->figs[df->b]);
	double cx = fabs(bx - ax) +
		    fabs(cmp_deadlines_met_own_pct(&tx->figs[df->b]) -
			 cmp_deadlines_met_own_pct(&tx->figs[df->a]));
	double cy = fabs(by - ay) +
		    fabs(cmp_deadlines_met_own_pct(&ty->figs[df->b]) -
			 cmp_deadlines_met_own_pct(&ty->figs[df->a]));
	double mx = ax < bx ? ax : bx, my = ay < by ? ay : by;

	if (cx != cy)
		return cx > cy;
	return mx < my;
}

int cmp_diff_build(struct cmp_diff *df, const struct cmp_set *s, size_t a,
		  size_t b, const struct cmp_taskre *re, struct sr_diag *d)
{
	memset(df, 0, sizeof(*df));
	df->s = s;
	df->a = a;
	df->b = b;
	if (cmp_diff_order(s, a, b, re, &df->rows, &df->nrows, d))
		return d->code;
	{
		size_t runs[2] = { a, b };

		df->behind = cmp_replay_behind(s, runs, 2);
	}
	df->inter = malloc((df->nrows + 1) * sizeof(long));
	df->periodic = malloc((df->nrows + 1) * sizeof(long));
	if (!df->inter || !df->periodic)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	for (size_t i = 0; i < df->nrows; i++) {
		const struct cmp_task *t = &s->tasks[df->rows[i]];
		bool both = t->figs[a].present && t->figs[b].present;

		if (!both)
			continue;
		if (t->cls == CMP_CLASS_INTERACTIVE) {
			enum cmp_verdict v = cmp_task_verdict(df, t);

			df->inter[df->ninter++] = df->rows[i];
			df->nbetter += v == CMP_BETTER;
			df->nworse += v == CMP_WORSE;
		}
		if (t->period_ns > 0 && t->figs[a].periods)
			df->periodic[df->nperiodic++] = df->rows[i];
	}
	batch_summary(df);
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct cmp_figs *fa = &s->tasks[i].figs[a];
		const struct cmp_figs *fb = &s->tasks[i].figs[b];

		if (fa->present)
			df->demand_ns += fa->runtime_ns;
		if (fa->present && fa->finish_ns > df->end_a)
			df->end_a = fa->finish_ns;
		if (fb->present && fb->finish_ns > df->end_b)
			df->end_b = fb->finish_ns;
	}
	/* the headline's periodic tasks: the largest change in deadlines met,
	 * then the fewest met */
	df->periodic_head = malloc((df->nperiodic + 1) * sizeof(long));
	if (!df->periodic_head)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	memcpy(df->periodic_head, df->periodic, df->nperiodic * sizeof(long));
	for (size_t i = 1; i < df->nperiodic; i++) {
		/* insertion sort: stable, and these lists are short */
		long v = df->periodic_head[i];
		size_t j = i;

		while (j > 0 && periodic_before(df, v, df->periodic_head[j - 1])) {
			df->periodic_head[j] = df->periodic_head[j - 1];
			j--;
		}
		df->periodic_head[j] = v;
	}
	return SR_OK;
}

void cmp_diff_free(struct cmp_diff *df)
{
	free(df->rows);
	free(df->inter);
	free(df->periodic);
	free(df->periodic_head);
	memset(df, 0, sizeof(*df));
}

int cmp_ndiff_build(struct cmp_ndiff *nd, const struct cmp_set *s,
		    const struct cmp_taskre *re, struct sr_diag *d)
{
	memset(nd, 0, sizeof(*nd));
	nd->s = s;
	if (s->nruns < 2)
		return sr_fail(d, SR_EUSAGE, "diff: expected two policies or "
			       "more, got %zu", s->nruns);
	nd->npairs = s->nruns - 1;
	for (size_t k = 0; k < nd->npairs; k++)
		if (cmp_diff_build(&nd->pair[k], s, 0, k + 1, re, d))
			return d->code;
	return cmp_diff_order_all(s, re, &nd->rows, &nd->nrows, d);
}

void cmp_ndiff_free(struct cmp_ndiff *nd)
{
	for (size_t k = 0; k < nd->npairs; k++)
		cmp_diff_free(&nd->pair[k]);
	free(nd->rows);
	free(nd->verdicts);
	memset(nd, 0, sizeof(*nd));
}

/* ---- the headline ------------------------------------------------------ */

static void verdict_line(const struct cmp_diff *df, enum cmp_verdict want,
			 const char *what, cmp_line_fn fn, void *ctx)
{
	const struct cmp_set *s = df->s;
	char line[1024];
	size_t o, shown = 0, n = 0;

	o = (size_t)snprintf(line, sizeof(line), "  %s under %s:", what,
			     s->runs[df->b].policy);
	for (size_t i = 0; i < df->ninter; i++) {
		const struct cmp_task *t = &s->tasks[df->inter[i]];
		char lab[96], fig[96];
		int w;

		if (cmp_task_verdict(df, t) != want)
			continue;
		n++;
		if (shown == CMP_HEADLINE_NAMES)
			continue;
		cmp_task_label(t, lab, sizeof(lab));
		task_figure(fig, sizeof(fig), df, t);
		w = snprintf(line + o, sizeof(line) - o, "%s %s %s",
			     shown ? "," : "", lab, fig);
		if (w < 0 || (size_t)w >= sizeof(line) - o)
			break;
		o += (size_t)w;
		shown++;
	}
	if (!n)
		return;
	if (n > shown)
		snprintf(line + o, sizeof(line) - o, ", and %zu more", n - shown);
	fn(ctx, line);
}

/* The work needs more CPUs than runs[0] had, or (outside a window) a
 * replay ends more than CMP_LATE_PCT % of the trace's span after it;
 * ends[k]: the last finish under runs[k]; *needs: the CPUs it needs. */
static bool behind(const struct cmp_set *s, const size_t *runs,
		   const int64_t *ends, size_t nr, int64_t demand_ns,
		   double *needs)
{
	int64_t span = s->t1 - s->t0;
	int cpus = s->runs[runs[0]].cpus;
	bool late = false;

	*needs = 0;
	if (!s->have_t || span <= 0)
		return false;
	*needs = (double)demand_ns / (double)span;
	for (size_t k = 0; k < nr; k++)
		if ((ends[k] - s->t1) * 100 > span * CMP_LATE_PCT)
			late = true;
	return (cpus && *needs > (double)cpus) ||
	       (late && !sr_sel_windowed(s->sel));
}

bool cmp_replay_behind(const struct cmp_set *s, const size_t *runs, size_t nr)
{
	int64_t ends[CMP_MAX_RUNS] = { 0 }, demand = 0;
	double needs;

	for (size_t i = 0; i < s->ntasks; i++)
		for (size_t k = 0; k < nr && k < CMP_MAX_RUNS; k++) {
			const struct cmp_figs *f = &s->tasks[i].figs[runs[k]];

			if (!f->present)
				continue;
			if (!k)
				demand += f->runtime_ns;
			if (f->finish_ns > ends[k])
				ends[k] = f->finish_ns;
		}
	return behind(s, runs, ends, nr, demand, &needs);
}

/*
 * What every policy shares: the CPUs replayed, and a note when the work
 * does not fit them or a replay ends well after the recording (runs[0]
 * the baseline, ends[k] the last finish under runs[k]).
 */
static void headline_replayed(const struct cmp_set *s, const size_t *runs,
			      const int64_t *ends, size_t nr, int64_t demand_ns,
			      cmp_line_fn fn, void *ctx)
{
	char line[1024];
	int cpus = s->runs[runs[0]].cpus;
	bool windowed = sr_sel_windowed(s->sel);

	if (cpus) {
		char rec[64] = "";

		if (!strcmp(s->ref_policy, "observed") && s->ref_cpus)
			snprintf(rec, sizeof(rec), s->ref_cpus == cpus ?
				 " (as many as the recording used)" :
				 " (the recording used %d)", s->ref_cpus);
		snprintf(line, sizeof(line), "  replayed on %d CPU%s%s", cpus,
			 cpus == 1 ? "" : "s", rec);
		fn(ctx, line);
	}
	if (s->rules[0]) {
		snprintf(line, sizeof(line), "  replayed with %s (the other "
			 "rules their defaults)", s->rules);
		fn(ctx, line);
	}
	if (s->ctx_said[0]) {
		snprintf(line, sizeof(line), "  %s", s->ctx_said);
		fn(ctx, line);
	}
	if (s->have_t && s->t1 > s->t0) {
		int64_t span = s->t1 - s->t0;
		double needs;
		char c[32], sp[32], on[32] = "";
		size_t o;

		/* in a window the replay goes on after it: only the fit */
		if (!behind(s, runs, ends, nr, demand_ns, &needs))
			return;
		if (cpus)
			snprintf(on, sizeof(on), " on %d CPU%s", cpus,
				 cpus == 1 ? "" : "s");
		sr_fmt_s(c, sizeof(c), demand_ns, 1);
		sr_fmt_s(sp, sizeof(sp), span, 1);
		if (windowed) {
			snprintf(line, sizeof(line),
				 "  note: the work in the window needs %.2f CPUs (%s s of CPU in %s s); replayed%s it falls behind the recording's clock: deadlines on it suffer under every policy (the verdict judges them on the replay's own)",
				 needs, c, sp, on);
			fn(ctx, line);
			return;
		}
		o = (size_t)snprintf(line, sizeof(line),
				     "  note: the trace's work needs %.2f CPUs (%s s of CPU in %s s); replayed%s it ends",
				     needs, c, sp, on);
		for (size_t k = 0; k < nr && o < sizeof(line); k++) {
			int64_t l = ends[k] - s->t1;
			char x[32];

			o += (size_t)snprintf(line + o, sizeof(line) - o,
					      "%s%s s%s under %s",
					      !k ? " " : k + 1 == nr ? " and " : ", ",
					      sr_fmt_s(x, sizeof(x), l > 0 ? l : 0, 1),
					      k ? "" : " after the recording",
					      s->runs[runs[k]].policy);
		}
		if (o < sizeof(line))
			snprintf(line + o, sizeof(line) - o,
				 ", so it runs behind the recording's clock: deadlines on it suffer under every policy (the verdict judges them on the replay's own)");
		fn(ctx, line);
	}
}

/* The tasks shown that the recording starved (compare/behave.h). */
static void starved_line(const struct cmp_set *s, cmp_line_fn fn, void *ctx)
{
	char line[1024], ms[SR_FMT_NUM];
	size_t o, n = 0, named = 0;

	for (size_t i = 0; i < s->ntasks; i++)
		n += s->tasks[i].starved && cmp_task_shown(s, &s->tasks[i]);
	if (!n)
		return;
	o = (size_t)snprintf(line, sizeof(line), "  the recording starved %zu "
			     "task%s (late %s ms or more, every CPU busy, after "
			     "%d%% of its wakeups or more: its period, class and "
			     "figures are the starvation's too):", n,
			     n == 1 ? "" : "s",
			     sr_fmt_ms(ms, sizeof(ms), CMP_STARVED_WAIT_NS, 0),
			     CMP_STARVED_PCT);
	for (size_t i = 0; i < s->ntasks && o < sizeof(line); i++) {
		const struct cmp_task *t = &s->tasks[i];
		char lab[96];

		if (!t->starved || !cmp_task_shown(s, t))
			continue;
		if (named++ == CMP_HEADLINE_NAMES) {
			snprintf(line + o, sizeof(line) - o, ", and %zu more",
				 n - CMP_HEADLINE_NAMES);
			break;
		}
		cmp_task_label(t, lab, sizeof(lab));
		o += (size_t)snprintf(line + o, sizeof(line) - o,
				      "%s %s late on %u of %llu", named > 1 ? "," : "",
				      lab, t->late_wakes,
				      (unsigned long long)t->wakes);
	}
	fn(ctx, line);
}

/* What every policy shares: how it was replayed, and what the recording
 * did to the tasks. */
static void headline_common(const struct cmp_set *s, const size_t *runs,
			    const int64_t *ends, size_t nr, int64_t demand_ns,
			    cmp_line_fn fn, void *ctx)
{
	headline_replayed(s, runs, ends, nr, demand_ns, fn, ctx);
	starved_line(s, fn, ctx);
}

/* What policy B changed for the interactive, periodic and batch tasks. */
static void headline_policy(const struct cmp_diff *df, cmp_line_fn fn,
			    void *ctx)
{
	const struct cmp_set *s = df->s;
	const char *B = s->runs[df->b].policy;
	char line[1024];
	size_t nsame = df->ninter - df->nbetter - df->nworse;

	if (!df->ninter) {
		fn(ctx, "  no interactive tasks: none sleeps at least half of its life and wakes at least once a second");
	} else {
		snprintf(line, sizeof(line),
			 "  %zu interactive task%s (asleep most of their life, waking often): %zu better, %zu worse, %zu unchanged under %s (the verdict's rule: deadlines met for a periodic one, else p99)",
			 df->ninter, df->ninter == 1 ? "" : "s", df->nbetter,
			 df->nworse, nsame, B);
		fn(ctx, line);
		verdict_line(df, CMP_BETTER, "better", fn, ctx);
		verdict_line(df, CMP_WORSE, "worse", fn, ctx);
		verdict_line(df, CMP_SAME, "unchanged", fn, ctx);
	}
	for (size_t j = 0; j < df->nperiodic && j < CMP_HEADLINE_PERIODIC; j++) {
		const struct cmp_task *t = &s->tasks[df->periodic_head[j]];
		const struct cmp_figs *fa = &t->figs[df->a], *fb = &t->figs[df->b];
		char lab[96], per[32];

		cmp_task_label(t, lab, sizeof(lab));
		sr_fmt_ms(per, sizeof(per), t->period_ns, 1);
		snprintf(line, sizeof(line),
			 "  periodic %s, every %s ms%s%s: deadlines met %.1f%% -> %.1f%% (own clock %.1f%% -> %.1f%%)",
			 lab, per, t->period_forced ? " (--period)" : "",
			 t->starved ? " (starved in the recording)" : "",
			 cmp_deadlines_met_pct(fa), cmp_deadlines_met_pct(fb),
			 cmp_deadlines_met_own_pct(fa), cmp_deadlines_met_own_pct(fb));
		fn(ctx, line);
	}
	if (df->nperiodic > CMP_HEADLINE_PERIODIC) {
		snprintf(line, sizeof(line),
			 "  and %zu more periodic tasks (their deadlines: the periodic table)",
			 df->nperiodic - CMP_HEADLINE_PERIODIC);
		fn(ctx, line);
	}
	if (!df->nbatch) {
		fn(ctx, "  no batch work: no task ran for most of its life");
	} else if (!df->batch_done_known) {
		char cpu[32];

		snprintf(line, sizeof(line),
			 "  batch work: %zu CPU-bound task%s (%s), %s s of CPU; completion time unknown (the replay wrote no finish_s)",
			 df->nbatch, df->nbatch == 1 ? "" : "s", df->batch_names,
			 sr_fmt_s(cpu, sizeof(cpu), df->batch_cpu_ns, 3));
		fn(ctx, line);
	} else {
		char cpu[32], ta[32], tb[32], dt[32];
		int64_t d = df->batch_done_b - df->batch_done_a;

		snprintf(line, sizeof(line),
			 "  batch work: %zu CPU-bound task%s (%s), %s s of CPU: done %s -> %s s (%s%s s, %+.1f%%)",
			 df->nbatch, df->nbatch == 1 ? "" : "s", df->batch_names,
			 sr_fmt_s(cpu, sizeof(cpu), df->batch_cpu_ns, 3),
			 sr_fmt_s(ta, sizeof(ta), df->batch_done_a, 3),
			 sr_fmt_s(tb, sizeof(tb), df->batch_done_b, 3),
			 d >= 0 ? "+" : "", sr_fmt_s(dt, sizeof(dt), d, 3),
			 df->batch_done_a ? 100.0 * (double)d /
						    (double)df->batch_done_a
					  : 0.0);
		fn(ctx, line);
	}
}

void cmp_diff_headline(const struct cmp_diff *df, cmp_line_fn fn, void *ctx)
{
	size_t runs[2] = { df->a, df->b };
	int64_t ends[2] = { df->end_a, df->end_b };

	headline_common(df->s, runs, ends, 2, df->demand_ns, fn, ctx);
	headline_policy(df, fn, ctx);
}

/* Lines passed on two spaces further in. */
struct indent {
	cmp_line_fn fn;
	void *ctx;
};

static void indent_line(void *ctx, const char *line)
{
	struct indent *in = ctx;
	char buf[1100];

	snprintf(buf, sizeof(buf), "  %s", line);
	in->fn(in->ctx, buf);
}

void cmp_ndiff_headline_common(const struct cmp_ndiff *nd, cmp_line_fn fn,
			       void *ctx)
{
	size_t runs[CMP_MAX_RUNS];
	int64_t ends[CMP_MAX_RUNS];

	runs[0] = 0;
	ends[0] = nd->pair[0].end_a;
	for (size_t k = 0; k < nd->npairs; k++) {
		runs[k + 1] = nd->pair[k].b;
		ends[k + 1] = nd->pair[k].end_b;
	}
	headline_common(nd->s, runs, ends, nd->npairs + 1,
			nd->pair[0].demand_ns, fn, ctx);
}

void cmp_diff_headline_policy(const struct cmp_diff *df, cmp_line_fn fn,
			      void *ctx)
{
	headline_policy(df, fn, ctx);
}

void cmp_ndiff_headline(const struct cmp_ndiff *nd, cmp_line_fn fn, void *ctx)
{
	const struct cmp_set *s = nd->s;
	struct indent in = { fn, ctx };

	if (nd->npairs == 1) {
		cmp_diff_headline(&nd->pair[0], fn, ctx);
		return;
	}
	cmp_ndiff_headline_common(nd, fn, ctx);
	for (size_t k = 0; k < nd->npairs; k++) {
		char line[2 * CMP_POLICY_MAX + 32];

		snprintf(line, sizeof(line), "  %s against %s:",
			 s->runs[nd->pair[k].b].policy, s->runs[0].policy);
		fn(ctx, line);
		headline_policy(&nd->pair[k], indent_line, &in);
	}
}

/* ---- the human table --------------------------------------------------- */

/* A line of the first screen, wrapped to CMP_SCREEN_COLS. */
static void print_line(void *ctx, const char *line)
{
	sr_put_wrapped(ctx, line, CMP_SCREEN_COLS, 0, 0, NULL, NULL);
}

struct vprint {
	FILE *f;
	bool color;
};

/* A verdict line, wrapped, its word in green (better), red (worse) or
 * grey (unchanged) when color. */
static void print_vline(void *ctx, const struct cmp_vline *l)
{
	const struct vprint *p = ctx;
	static const char *const on[] = {
		[CMP_SAME] = "\033[90m", [CMP_BETTER] = "\033[32m",
		[CMP_WORSE] = "\033[31m",
	};

	if (l->kind == CMP_VL_GROUP && p->color)
		sr_put_wrapped(p->f, l->text, CMP_SCREEN_COLS, l->word,
			       l->wordlen, on[l->verdict], CMP_ANSI_OFF);
	else
		print_line(p->f, l->text);
}

/* The policy column: as wide as the longest label (10 to 40). */
static int policy_width(const struct cmp_set *s)
{
	int w = 10;

	for (size_t r = 0; r < s->nruns; r++) {
		int n = (int)strlen(s->runs[r].policy);

		if (n > w)
			w = n < 40 ? n : 40;
	}
	return w;
}

/* A policy's name padded to w, in its colour when color. */
static void put_policy(FILE *f, const char *policy, int w, bool color)
{
	if (color) {
		struct cmp_style st;
		char on[32];

		cmp_style_of(policy, &st);
		cmp_style_ansi_on(&st, on, sizeof(on));
		fputs(on, f);
	}
	if (w > 0)
		fprintf(f, "%-*.*s", w, w, policy);
	else
		fputs(policy, f);
	if (color)
		fputs(CMP_ANSI_OFF, f);
}

static void table_row(FILE *f, const struct cmp_task *t, const struct cmp_figs *fg,
		      const char *policy, int pw, bool color, bool first,
		      const char *chg, const char *ratio)
{
	char lab[96], v[7][32], cls[24];

	cmp_task_label(t, lab, sizeof(lab));
	snprintf(cls, sizeof(cls), "%s%s", cmp_class_name(t->cls),
		 t->starved ? "*" : "");
	fprintf(f, "%-26.26s %-12s ", first ? lab : "", first ? cls : "");
	put_policy(f, policy, pw, color);
	if (!fg->present) {
		fprintf(f, " %s\n", "(not in this run)");
		return;
	}
	fprintf(f, " %11s %8llu %8s %8s %9s %9s %6.1f %9s %6s\n",
		sr_fmt_ms(v[0], sizeof(v[0]), fg->runtime_ns, 3),
		(unsigned long long)fg->switches,
		sr_fmt_ms(v[1], sizeof(v[1]), fg->avg_ns, 3),
		sr_fmt_ms(v[2], sizeof(v[2]), fg->p95_ns, 3),
		sr_fmt_ms(v[3], sizeof(v[3]), fg->p99_ns, 3),
		sr_fmt_ms(v[4], sizeof(v[4]), fg->max_ns, 3),
		100.0 * fg->cpu_share, chg, ratio);
}

static void periodic_table(const struct cmp_ndiff *nd, FILE *f, bool color)
{
	const struct cmp_set *s = nd->s;
	long *rows = NULL;
	size_t n = 0;
	int pw = policy_width(s);

	/* the tasks periodic under any pair, in the diff order */
	rows = malloc((nd->nrows + 1) * sizeof(*rows));
	if (!rows)
		return;
	for (size_t i = 0; i < nd->nrows; i++) {
		const struct cmp_task *t = &s->tasks[nd->rows[i]];

		if (t->period_ns > 0 && t->figs[0].periods && t->figs[0].present)
			rows[n++] = nd->rows[i];
	}
	if (!n) {
		free(rows);
		return;
	}
	fprintf(f, "\nperiodic tasks (interbench's figures: deadlines met on the recording's clock and the replay's own,\n"
		   "desired CPU; SD = true standard deviation, \"ib SD\" = what interbench prints, a root mean square)\n");
	fprintf(f, "%-26s %9s %-*s %9s %9s %10s %9s %9s %9s %9s\n", "task",
		"period ms", pw, "policy", "deadlines", "own clock", "desiredCPU",
		"avg ms", "SD ms", "ib SD ms", "max ms");
	for (size_t i = 0; i < n; i++) {
		const struct cmp_task *t = &s->tasks[rows[i]];
		char lab[96], per[32];
		bool first = true;

		cmp_task_label(t, lab, sizeof(lab));
		sr_fmt_ms(per, sizeof(per), t->period_ns, 3);
		for (size_t r = 0; r < s->nruns; r++) {
			const struct cmp_figs *fg = &t->figs[r];
			char v[4][32];

			if (!fg->present)
				continue;
			fprintf(f, "%-26.26s %9s ", first ? lab : "",
				first ? per : "");
			put_policy(f, s->runs[r].policy, pw, color);
			fprintf(f, " %8.1f%% %8.1f%% %9.1f%% %9s %9.3f %9.3f %9s\n",
				cmp_deadlines_met_pct(fg), cmp_deadlines_met_own_pct(fg),
				cmp_desired_cpu_pct(fg),
				sr_fmt_ms(v[0], sizeof(v[0]), fg->avg_ns, 3),
				fg->sd_ns / 1e6, fg->ib_sd_ns / 1e6,
				sr_fmt_ms(v[1], sizeof(v[1]), fg->max_ns, 3));
			first = false;
		}
	}
	free(rows);
}

int cmp_ndiff_write_table(const struct cmp_ndiff *nd, FILE *f, bool all,
			  bool color, bool why)
{
	const struct cmp_set *s = nd->s;
	const char *A = s->runs[0].policy;
	size_t nrows = 0;
	int pw = policy_width(s);
	char sel[512];

	fprintf(f, "schedreplay diff: %s, ", s->title);
	put_policy(f, A, 0, color);
	if (nd->npairs == 1) {
		fputs(" (A) against ", f);
		put_policy(f, s->runs[1].policy, 0, color);
		fputs(" (B)\n", f);
	} else {
		fputs(" (the baseline) against ", f);
		for (size_t r = 1; r < s->nruns; r++) {
			fputs(r == 1 ? "" : r + 1 == s->nruns ? " and " : ", ", f);
			put_policy(f, s->runs[r].policy, 0, color);
		}
		fputc('\n', f);
	}
	fprintf(f, "behaviour (interactive, batch, periodic) from the %s run%s\n",
		s->ref_policy,
		strcmp(s->ref_policy, "observed") ? "" : " (the recorded schedule)");
	if (s->focus) {
		char line[512];

		snprintf(line, sizeof(line), "only the process tree of the first task matching '%s' (%zu tasks); all were replayed",
			 s->focus_regex, s->focus_tasks);
		print_line(f, line);
	}
	sr_sel_describe(s->sel, sel, sizeof(sel));
	if (*sel) {
		char line[600];

		snprintf(line, sizeof(line), "only %s; replayed from the start", sel);
		print_line(f, line);
	}
	fputc('\n', f);
	if (nd->verdicts) {
		struct vprint vp = { f, color };

		cmp_ndiff_verdict(nd, why, print_vline, &vp);
		fputc('\n', f);
	}
	cmp_ndiff_headline(nd, print_line, f);
	periodic_table(nd, f, color);
	/*
	 * All tasks in diff order with --all.  Without it, first the tasks
	 * with enough waits under every policy for a p99 to mean something,
	 * then, while there is room, the others: a short-lived helper's "p99"
	 * is one or two waits and would crowd out the tasks that matter.
	 */
	for (int pass = 0; pass < 2; pass++) {
		size_t shown = 0, left = 0;

		if (pass == 0)
			fprintf(f, "\ntasks %sby change in p99 scheduling delay (ms; change = %s - %s, ratio = %s / %s)\n",
				all ? "" : nd->npairs == 1 ?
				"with at least 20 waits under both policies, " :
				"with at least 20 waits under every policy, ",
				nd->npairs == 1 ? "B" : "policy",
				nd->npairs == 1 ? "A" : A,
				nd->npairs == 1 ? "B" : "policy",
				nd->npairs == 1 ? "A" : A);
		for (size_t i = 0; i < nd->nrows; i++) {
			const struct cmp_task *t = &s->tasks[nd->rows[i]];
			const struct cmp_figs *fa = &t->figs[0];
			bool many = cmp_enough_waits(s, t, 0, SIZE_MAX,
						     CMP_SELECT_MIN_WAITS);

			if (!all && many != (pass == 0))
				continue;
			if (!all && nrows >= CMP_TABLE_ROWS) {
				left++;
				continue;
			}
			if (!shown) {
				if (pass == 1)
					fprintf(f, "\ntasks with fewer waits (a p99 of a few samples), by change in p99\n");
				fprintf(f, "%-26s %-12s %-*s %11s %8s %8s %8s %9s %9s %6s %9s %6s\n",
					"task", "class", pw, "policy", "runtime ms", "switches", "avg", "p95",
					"p99", "max", "cpu%", "p99 chg", "ratio");
			}
			table_row(f, t, fa, A, pw, color, true, "", "");
			for (size_t r = 1; r < s->nruns; r++) {
				const struct cmp_figs *fb = &t->figs[r];
				char chg[32] = "", rat[32] = "";

				if (fa->present && fb->present) {
					sr_fmt_ms(chg, sizeof(chg), fb->p99_ns - fa->p99_ns, 3);
					if (fa->p99_ns)
						snprintf(rat, sizeof(rat), "%.2f",
							 (double)fb->p99_ns / (double)fa->p99_ns);
					else
						snprintf(rat, sizeof(rat), "-");
				}
				table_row(f, t, fb, s->runs[r].policy, pw, color,
					  false, chg, rat);
			}
			shown++;
			nrows++;
		}
		if (left)
			fprintf(f, "... %zu more tasks%s (--all shows every task; --tsv and --json give every figure with its change and ratio)\n",
				left, pass ? "" : " with at least 20 waits");
		if (all)
			break;
	}
	for (size_t i = 0; i < nd->nrows; i++)
		if (s->tasks[nd->rows[i]].starved) {
			fputs("* class: starved in the recording (the headline "
			      "says how)\n", f);
			break;
		}
	return ferror(f) ? SR_EIO : SR_OK;
}

/* ---- TSV --------------------------------------------------------------- */

static void tsv_period(FILE *f, const struct cmp_task *t, const struct cmp_figs *fg)
{
	if (t->period_ns > 0 && fg->periods)
		fprintf(f, "\t%.3f\t%.3f\t%.3f", cmp_deadlines_met_pct(fg),
			cmp_deadlines_met_own_pct(fg), cmp_desired_cpu_pct(fg));
	else
		fputs("\t-\t-\t-", f);
}

static const char *const verdicts[] = { "same", "better", "worse" };

/* One TSV row: task t, the baseline (run 0) against run b. */
static void tsv_row(FILE *f, const struct cmp_set *s, const struct cmp_task *t,
		    size_t b)
{
	const struct cmp_figs *fa = &t->figs[0], *fb = &t->figs[b];
	bool both = fa->present && fb->present;
	char per[32], v[40];

	if (t->period_ns > 0)
		sr_fmt_ms(per, sizeof(per), t->period_ns, 6);
	else
		snprintf(per, sizeof(per), "-");
	fprintf(f, "%s\t%s\t%d\t%s\t%u\t%s\t%.4f\t%.3f\t%s",
		s->runs[0].policy, s->runs[b].policy, t->pid,
		t->comm, t->occ, cmp_class_name(t->cls), t->sleep_share,
		t->wake_rate, per);
	for (size_t m = 0; m < NMETRICS; m++) {
		const char *r;

		fprintf(f, "\t%s", fa->present ? mfmt(v, sizeof(v), NULL, fa, &metrics[m]) : "-");
		fprintf(f, "\t%s", fb->present ? mfmt(v, sizeof(v), NULL, fb, &metrics[m]) : "-");
		fprintf(f, "\t%s", both ? mfmt(v, sizeof(v), fa, fb, &metrics[m]) : "-");
		r = both ? ratio_fmt(v, sizeof(v), fa, fb, &metrics[m]) : NULL;
		fprintf(f, "\t%s", r ? r : "-");
	}
	tsv_period(f, t, fa);
	tsv_period(f, t, fb);
	fprintf(f, "\t%s", fa->finish_ns ? sr_fmt_s(v, sizeof(v), fa->finish_ns, 9) : "-");
	fprintf(f, "\t%s", fb->finish_ns ? sr_fmt_s(v, sizeof(v), fb->finish_ns, 9) : "-");
	fprintf(f, "\t%s", both ? verdicts[cmp_verdict_of(t, 0, b)] : "-");
	fprintf(f, "\t%d\t%u\n", t->starved, t->late_wakes);
}

int cmp_ndiff_write_tsv(const struct cmp_ndiff *nd, FILE *f)
{
	const struct cmp_set *s = nd->s;

	fputs("policy_a\tpolicy_b\tpid\tcomm\tocc\tclass\tsleep_share\twake_rate\tperiod_ms", f);
	for (size_t m = 0; m < NMETRICS; m++)
		fprintf(f, "\ta_%s\tb_%s\tchange_%s\tratio_%s", metrics[m].name,
			metrics[m].name, metrics[m].name, metrics[m].name);
	fputs("\ta_deadlines_met_pct\ta_deadlines_met_own_pct\ta_desired_cpu_pct\tb_deadlines_met_pct\tb_deadlines_met_own_pct\tb_desired_cpu_pct\ta_finish_s\tb_finish_s\tp99_verdict\tstarved\tlate_wakes\n", f);
	/* a task's rows together, one per compared policy; a row only where
	 * the baseline or that policy has the task */
	for (size_t i = 0; i < nd->nrows; i++) {
		const struct cmp_task *t = &s->tasks[nd->rows[i]];

		for (size_t b = 1; b < s->nruns; b++)
			if (t->figs[0].present || t->figs[b].present)
				tsv_row(f, s, t, b);
	}
	return ferror(f) ? SR_EIO : SR_OK;
}

/* ---- JSON -------------------------------------------------------------- */

struct json_lines {
	FILE *f;
	bool first;
	const char *indent;
};

static void json_line(void *ctx, const char *line)
{
	struct json_lines *j = ctx;

	while (*line == ' ')
		line++;
	fprintf(j->f, "%s%s", j->first ? "\n" : ",\n", j->indent);
	sr_json_str(j->f, line);
	j->first = false;
}

static void json_figs(FILE *f, const struct cmp_task *t, const struct cmp_figs *fg)
{
	char v[40];

	if (!fg->present) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	for (size_t m = 0; m < NMETRICS; m++)
		fprintf(f, "%s\"%s\": %s", m ? ", " : "", metrics[m].name,
			mfmt(v, sizeof(v), NULL, fg, &metrics[m]));
	fprintf(f, ", \"finish_s\": %s",
		fg->finish_ns ? sr_fmt_s(v, sizeof(v), fg->finish_ns, 9) : "null");
	if (t->period_ns > 0 && fg->periods)
		fprintf(f, ", \"periods\": %llu, \"deadlines_met_pct\": %.3f, \"deadlines_met_own_pct\": %.3f, \"desired_cpu_pct\": %.3f",
			(unsigned long long)fg->periods, cmp_deadlines_met_pct(fg),
			cmp_deadlines_met_own_pct(fg), cmp_desired_cpu_pct(fg));
	fputc('}', f);
}

static void json_change(FILE *f, const struct cmp_figs *fa,
			const struct cmp_figs *fb, bool ratio)
{
	char v[40];

	if (!fa->present || !fb->present) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	for (size_t m = 0; m < NMETRICS; m++) {
		const char *r = ratio ? ratio_fmt(v, sizeof(v), fa, fb, &metrics[m])
				      : mfmt(v, sizeof(v), fa, fb, &metrics[m]);

		fprintf(f, "%s\"%s\": %s", m ? ", " : "", metrics[m].name,
			r ? r : "null");
	}
	fputc('}', f);
}

static void json_names(FILE *f, const struct cmp_diff *df, enum cmp_verdict want)
{
	bool first = true;

	fputc('[', f);
	for (size_t i = 0; i < df->ninter; i++) {
		const struct cmp_task *t = &df->s->tasks[df->inter[i]];

		if (cmp_task_verdict(df, t) != want)
			continue;
		fprintf(f, "%s{\"pid\": %d, \"comm\": ", first ? "" : ", ", t->pid);
		sr_json_str(f, t->comm);
		fprintf(f, ", \"occ\": %u}", t->occ);
		first = false;
	}
	fputc(']', f);
}

/* One pair's headline as data, and its own lines as text. */
static void json_comparison(FILE *f, const struct cmp_diff *df)
{
	struct json_lines jl = { f, true, "        " };
	char v[40];

	fputs("\n    {\"policy\": ", f);
	sr_json_str(f, df->s->runs[df->b].policy);
	fputs(",\n     \"headline\": {\n       \"interactive_better\": ", f);
	json_names(f, df, CMP_BETTER);
	fputs(",\n       \"interactive_worse\": ", f);
	json_names(f, df, CMP_WORSE);
	fputs(",\n       \"interactive_same\": ", f);
	json_names(f, df, CMP_SAME);
	fprintf(f, ",\n       \"batch_tasks\": %zu", df->nbatch);
	fprintf(f, ",\n       \"batch_cpu_s\": %s", sr_fmt_s(v, sizeof(v), df->batch_cpu_ns, 9));
	if (df->batch_done_known) {
		fprintf(f, ",\n       \"batch_done_a_s\": %s", sr_fmt_s(v, sizeof(v), df->batch_done_a, 9));
		fprintf(f, ",\n       \"batch_done_b_s\": %s", sr_fmt_s(v, sizeof(v), df->batch_done_b, 9));
	} else {
		fputs(",\n       \"batch_done_a_s\": null,\n       \"batch_done_b_s\": null", f);
	}
	fputs("\n     },\n     \"headline_text\": [", f);
	headline_policy(df, json_line, &jl);
	fputs("\n     ],\n     \"verdict\": ", f);
	if (df->verdict)
		cmp_verdict_write_json(f, df->verdict);
	else
		fputs("null", f);
	fputc('}', f);
}

/* {"POLICY": value, ...} over the compared runs (1..), value by fn. */
static void json_by_policy(FILE *f, const struct cmp_set *s,
			   const struct cmp_task *t, int what)
{
	const struct cmp_figs *fa = &t->figs[0];

	fputc('{', f);
	for (size_t r = what ? 1 : 0; r < s->nruns; r++) {
		const struct cmp_figs *fb = &t->figs[r];

		fputs(r > (what ? 1u : 0u) ? ", " : "", f);
		sr_json_str(f, s->runs[r].policy);
		fputs(": ", f);
		switch (what) {
		case 0: json_figs(f, t, fb); break;
		case 1: json_change(f, fa, fb, false); break;
		case 2: json_change(f, fa, fb, true); break;
		default:
			if (fa->present && fb->present)
				fprintf(f, "\"%s\"", verdicts[cmp_verdict_of(t, 0, r)]);
			else
				fputs("null", f);
		}
	}
	fputc('}', f);
}

int cmp_ndiff_write_json(const struct cmp_ndiff *nd, FILE *f)
{
	const struct cmp_set *s = nd->s;
	struct json_lines jl = { f, true, "    " };
	char v[40], sel[512];

	fputs("{\n  \"trace\": ", f);
	sr_json_str(f, s->title);
	fputs(",\n  \"baseline\": ", f);
	sr_json_str(f, s->runs[0].policy);
	fputs(",\n  \"policies\": [", f);
	for (size_t r = 0; r < s->nruns; r++) {
		fputs(r ? ", " : "", f);
		sr_json_str(f, s->runs[r].policy);
	}
	fputs("],\n  \"reference\": ", f);
	sr_json_str(f, s->ref_policy);
	fputs(",\n  \"tree\": ", f);
	if (s->focus)
		sr_json_str(f, s->focus_regex);
	else
		fputs("null", f);
	fputs(",\n  \"selection\": ", f);
	sr_sel_describe(s->sel, sel, sizeof(sel));
	if (*sel)
		sr_json_str(f, sel);
	else
		fputs("null", f);
	fputs(",\n  \"verdict_text\": [", f);
	{
		struct cmp_vtext vt = { json_line, &jl };

		cmp_ndiff_verdict(nd, false, cmp_vline_text, &vt);
	}
	fputs("\n  ],\n  \"verdict_rule\": ", f);
	{
		unsigned kinds = 0;

		for (size_t k = 0; nd->verdicts && k < nd->npairs; k++)
			kinds |= cmp_verdict_kinds(&nd->verdicts[k]);
		cmp_vrule_write_json(f, kinds);
	}
	fputs(",\n  \"headline_text\": [", f);
	jl.first = true;
	cmp_ndiff_headline(nd, json_line, &jl);
	fputs("\n  ],\n  \"comparisons\": [", f);
	for (size_t k = 0; k < nd->npairs; k++) {
		fputs(k ? "," : "", f);
		json_comparison(f, &nd->pair[k]);
	}
	fputs("\n  ],\n  \"tasks\": [", f);
	for (size_t i = 0; i < nd->nrows; i++) {
		const struct cmp_task *t = &s->tasks[nd->rows[i]];

		fprintf(f, "%s\n    {\"pid\": %d, \"comm\": ", i ? "," : "", t->pid);
		sr_json_str(f, t->comm);
		fprintf(f, ", \"occ\": %u, \"class\": \"%s\", \"sleep_share\": %.4f, \"wake_rate\": %.3f, \"starved\": %s, \"late_wakes\": %u, \"period_ms\": ",
			t->occ, cmp_class_name(t->cls), t->sleep_share, t->wake_rate,
			t->starved ? "true" : "false", t->late_wakes);
		if (t->period_ns > 0)
			fputs(sr_fmt_ms(v, sizeof(v), t->period_ns, 6), f);
		else
			fputs("null", f);
		fputs(",\n     \"figures\": ", f);
		json_by_policy(f, s, t, 0);
		fputs(",\n     \"change\": ", f);
		json_by_policy(f, s, t, 1);
		fputs(",\n     \"ratio\": ", f);
		json_by_policy(f, s, t, 2);
		fputs(",\n     \"p99_verdict\": ", f);
		json_by_policy(f, s, t, 3);
		fputc('}', f);
	}
	fputs("\n  ]\n}\n", f);
	return ferror(f) ? SR_EIO : SR_OK;
}
