/*
 * diff: policy B against policy A, per task, with a headline (see
 * diff.h): the rows in diff order, the groups the headline names, and
 * the headline's lines; compare/diff-write.c writes them as a table,
 * TSV or JSON.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "compare/behave.h"
#include "compare/diff.h"
#include "compare/style.h"
#include "lib/fmt.h"

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
		sr_qsort(nc, nn, sizeof(*nc), cmp_nc);
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
		return sr_oom(d);
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

		if (fa->present && __builtin_add_overflow(df->demand_ns,
							  fa->runtime_ns,
							  &df->demand_ns))
			df->demand_ns = INT64_MAX; /* saved runtimes, summed */
		if (fa->present && fa->finish_ns > df->end_a)
			df->end_a = fa->finish_ns;
		if (fb->present && fb->finish_ns > df->end_b)
			df->end_b = fb->finish_ns;
	}
	/* the headline's periodic tasks: the largest change in deadlines met,
	 * then the fewest met */
	df->periodic_head = malloc((df->nperiodic + 1) * sizeof(long));
	if (!df->periodic_head)
		return sr_oom(d);
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

/* end is more than pct % of span after t1: (end - t1) * 100 > span *
 * pct, exactly while the products fit in 64 bits, in doubles past that
 * (a saved replay's times reach INT64_MAX; both are 0 or more). */
static bool late_by(int64_t end, int64_t t1, int64_t span, int pct)
{
	int64_t over = end - t1, a, b;

	if (over <= 0)
		return false;
	if (!__builtin_mul_overflow(over, (int64_t)100, &a) &&
	    !__builtin_mul_overflow(span, (int64_t)pct, &b))
		return a > b;
	return (double)over * 100.0 > (double)span * (double)pct;
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
		if (late_by(ends[k], s->t1, span, CMP_LATE_PCT))
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
			/* saturated: saved runtimes may add past 64 bits */
			if (!k && __builtin_add_overflow(demand, f->runtime_ns,
							 &demand))
				demand = INT64_MAX;
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
