/*
 * plot-time: the plots over time, priority (steps, the interactive
 * threshold, migrations) and the p99 delay per slice of time.
 */
#include "lib/rank.h"
#include "plots/gnuplot.h"
#include "plots/plot-draw.h"

/* ---- priority ------------------------------------------------------------ */

/* The interactive threshold of the O(1) models: prio <= static_prio - DELTA,
 * DELTA = nice * 10 / 40 (C truncation) + INTERACTIVE_DELTA (2). */
static int interactive_threshold(int static_prio)
{
	int nice = static_prio - 120;

	return static_prio - (nice * 10 / 40 + 2);
}

/*
 * Write series p's points as "time value" rows; with panels, at most
 * PL_PANEL_BINS bins of [lo, hi) (ns since the origin), each keeping its
 * first, lowest, highest and last point in time order, so a step plot
 * keeps every level it reached.
 */
static void write_steps(FILE *f, const struct ctx *x, const struct series *p,
			int64_t lo, int64_t hi)
{
	char a[40];
	int64_t width = (hi - lo) / PL_PANEL_BINS + 1;
	size_t j = 0;

	while (j < p->n) {
		size_t first = j, lowest = j, highest = j, last;
		int64_t bin;

		if (!x->o->panels) {
			fprintf(f, "%s\t%lld\n", tsec(a, sizeof(a), x, p->p[j].t),
				(long long)p->p[j].v);
			j++;
			continue;
		}
		bin = (p->p[j].t - x->s->origin - lo) / width;
		while (j < p->n &&
		       (p->p[j].t - x->s->origin - lo) / width == bin) {
			if (p->p[j].v < p->p[lowest].v)
				lowest = j;
			if (p->p[j].v > p->p[highest].v)
				highest = j;
			j++;
		}
		last = j - 1;
		{
			size_t keep[4] = { first, lowest, highest, last };

			/* in time order, without repeats */
			for (int m = 1; m < 4; m++)
				for (int q = m; q > 0 && keep[q] < keep[q - 1]; q--) {
					size_t t = keep[q];

					keep[q] = keep[q - 1];
					keep[q - 1] = t;
				}
			for (int m = 0; m < 4; m++) {
				if (m && keep[m] == keep[m - 1])
					continue;
				fprintf(f, "%s\t%lld\n",
					tsec(a, sizeof(a), x, p->p[keep[m]].t),
					(long long)p->p[keep[m]].v);
			}
		}
	}
}

int pd_write_priority_data(const struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od;
	FILE *f;
	char a[40];
	size_t nblocks = x->nsel * s->nruns;

	f = pd_open_dat(&od, x, "priority",
		     "priority over time, one block per task and policy", d);
	if (!f)
		return d->code;
	fputs("# time_s: seconds since the trace start; prio: the model's dynamic priority\n", f);
	fputs("# (0-139, lower is a higher priority); the last row repeats the last prio at\n# the task's last event so steps run to it.  Then as many blocks again: each\n# task's migrations to another CPU under each policy (time, prio).\n", f);
	if (x->o->panels)
		fprintf(f, "# Panels: each series in at most %d time bins of its panel, each bin's\n# first, lowest, highest and last point.\n",
			PL_PANEL_BINS);
	for (size_t i = 0; i < x->nsel; i++) {
		int64_t lo, hi;

		pd_panel_xrange(x, i, &lo, &hi);
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->prio[i * s->nruns + r];

			pd_block_comment(f, i * s->nruns + r, &s->tasks[x->sel[i]],
				      s->runs[r].policy, "time_s prio");
			write_steps(f, x, p, lo, hi);
			if (p->n && p->last_t > p->p[p->n - 1].t)
				fprintf(f, "%s\t%lld\n", tsec(a, sizeof(a), x, p->last_t),
					(long long)p->p[p->n - 1].v);
			end_block(f, p->n);
		}
	}
	/* then the migrations, as many blocks again: at (time, prio) */
	for (size_t i = 0; i < x->nsel; i++) {
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *m = &x->c->mig[i * s->nruns + r];
			size_t k = nblocks + i * s->nruns + r;

			pd_block_comment(f, k, &s->tasks[x->sel[i]],
				      s->runs[r].policy,
				      "time_s prio (migrations)");
			for (size_t j = 0; j < m->n; j++)
				fprintf(f, "%s\t%lld\n", tsec(a, sizeof(a), x, m->p[j].t),
					(long long)m->p[j].v);
			end_block(f, m->n);
		}
	}
	return sr_outfile_commit(od, d);
}

static void priority_body(FILE *f, const struct ctx *x, size_t i,
			  struct pl_figure *fig, struct plotcmd *pc)
{
	struct cmp_set *s = x->s;
	const struct cmp_task *t = &s->tasks[x->sel[i]];
	size_t nblocks = x->nsel * s->nruns;
	int sp = x->c->static_prio[i];
	int thr = sp >= 100 ? interactive_threshold(sp) : -1;
	int lo = thr >= 0 ? thr : 139, hi = thr >= 0 ? thr : 100;
	bool zoomed;
	char b[CMP_POLICY_MAX + 64], lab[128];

	cmp_task_label(t, lab, sizeof(lab));
	for (size_t r = 0; r < s->nruns; r++) {
		const struct series *p = &x->c->prio[i * s->nruns + r];

		for (size_t k = 0; k < p->n; k++) {
			if (p->p[k].v < lo)
				lo = (int)p->p[k].v;
			if (p->p[k].v > hi)
				hi = (int)p->p[k].v;
		}
	}
	pd_panel_xrange_cmd(f, x, i, &zoomed);
	snprintf(b, sizeof(b), "%s%s", cmp_class_name(t->cls),
		 zoomed ? " (zoomed to its life)" : "");
	pd_panel_title(f, t, b);
	/* reversed: the larger prio value at the bottom */
	fprintf(f, "set yrange [%d:%d]\n", hi + 2, lo - 2);
	for (size_t r = 0; r < s->nruns; r++) {
		const struct series *p = &x->c->prio[i * s->nruns + r];

		if (!p->n)
			continue;
		/* the first policy widest, underneath: where the lines
		 * coincide both stay visible; a lone point (one event)
		 * draws no step: a dot */
		if (p->n == 1 && p->last_t <= p->p[0].t)
			fprintf(f, "%s'priority.dat' index %zu using 1:2 with points pt 7 ps 0.8 lw %.1f lc rgb '%s' title ",
				plot_item(pc), i * s->nruns + r,
				line_width(s, r), run_colour(s, r).rgb);
		else
			fprintf(f, "%s'priority.dat' index %zu using 1:2 with steps lw %.1f lc rgb '%s' dt %s title ",
				plot_item(pc), i * s->nruns + r,
				line_width(s, r), run_colour(s, r).rgb,
				run_dash(s, r));
		sr_gp_str(f, s->runs[r].policy);
		pd_tip(fig, "%s under %s: priority", lab, s->runs[r].policy);
	}
	/* migrations: open circles on the policy's line */
	for (size_t r = 0; r < s->nruns; r++) {
		const struct series *m = &x->c->mig[i * s->nruns + r];

		if (!m->n)
			continue;
		snprintf(b, sizeof(b), "%s: %zu migration%s",
			 s->runs[r].policy, m->n, m->n == 1 ? "" : "s");
		fprintf(f, "%s'priority.dat' index %zu using 1:2 with points pt 6 ps 1.2 lw 1.2 lc rgb '%s' title ",
			plot_item(pc), nblocks + i * s->nruns + r,
			run_colour(s, r).rgb);
		sr_gp_str(f, b);
		pd_tip(fig, "%s under %s: moved to another CPU %zu time%s", lab,
		    s->runs[r].policy, m->n, m->n == 1 ? "" : "s");
	}
	if (thr >= 0) {
		snprintf(b, sizeof(b), "interactive: prio <= %d", thr);
		fprintf(f, "%s%d with lines dt 2 lw 1.2 lc rgb '#333333' title ",
			plot_item(pc), thr);
		sr_gp_str(f, b);
		pd_tip(fig, "%s: interactive while prio <= %d (the O(1) models' TASK_INTERACTIVE)",
		    lab, thr);
	}
}

const struct kind pd_kind_priority = {
	.name = "priority",
	.what = "each task's priority over time under each policy",
	.title = "priority over time, higher priority up",
	.caption = "Priority over time: the model's dynamic priority of each task under each policy (steps; higher priority is up; dashed: the interactive threshold; open circles: the task moved to another CPU).",
	.none = "no priority data",
	.xlabel = "time since trace start (s)",
	.ylabel = "prio (lower value = higher priority)",
	.ylabel_panel = "prio (lower = higher priority)",
	.body = priority_body,
	.multi_cols = 1,
	.multi_height = 240,
};

/* ---- delay over time ----------------------------------------------------- */

/*
 * The p99 of the waits j in [from, to) of series p, as every figure's
 * (lib/rank.h): pooled in one delay distribution, so a whole series'
 * p99 is its task's own.  0 when empty or out of memory.
 */
static int64_t series_p99(const struct series *p, size_t from, size_t to)
{
	struct sr_delays *dist = sr_delays_new();
	int64_t r = 0;

	if (!dist)
		return 0;
	for (size_t k = from; k < to; k++)
		if (sr_delays_add(dist, p->p[k].v))
			break;
	r = sr_delays_percentile(dist, 99);
	sr_delays_free(dist);
	return r;
}

/* The p99 of the waits begun in each of PL_PANEL_BINS slices of [lo, hi)
 * (ns since the origin) as steps: a row per slice that had waits (its
 * start, p99, waits), one closing the last slice of a run of them, and a
 * blank line where a slice had none.  Returns the largest p99 written. */
static int64_t write_bin_p99(FILE *f, const struct ctx *x,
			     const struct series *p, int64_t lo, int64_t hi)
{
	char a[40], b[40];
	int64_t width = (hi - lo) / PL_PANEL_BINS + 1, top = 0;
	int64_t prev = INT64_MIN, prev_p99 = 0;
	size_t j = 0;

	while (j < p->n) {
		int64_t bin = (p->p[j].t - x->s->origin - lo) / width, p99;
		size_t from = j;

		while (j < p->n &&
		       (p->p[j].t - x->s->origin - lo) / width == bin)
			j++;
		p99 = series_p99(p, from, j);
		if (prev != INT64_MIN && bin != prev + 1) {
			/* close the last step, break the line */
			fprintf(f, "%s\t%s\t0\n\n",
				sr_fmt_s(a, sizeof(a), lo + (prev + 1) * width, 6),
				sr_fmt_ms(b, sizeof(b), floor_ns(prev_p99), 6));
		}
		fprintf(f, "%s\t%s\t%zu\n",
			sr_fmt_s(a, sizeof(a), lo + bin * width, 6),
			sr_fmt_ms(b, sizeof(b), floor_ns(p99), 6), j - from);
		if (p99 > top)
			top = p99;
		prev = bin;
		prev_p99 = p99;
	}
	if (prev != INT64_MIN)
		fprintf(f, "%s\t%s\t0\n",
			sr_fmt_s(a, sizeof(a), lo + (prev + 1) * width, 6),
			sr_fmt_ms(b, sizeof(b), floor_ns(prev_p99), 6));
	return top;
}

int pd_write_delay_time_data(struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od;
	FILE *f;

	x->ymax = PL_DELAY_FLOOR_NS * 10;
	f = pd_open_dat(&od, x, "delay-time",
		     "p99 scheduling delay per slice of time, one block per task and policy", d);
	if (!f)
		return d->code;
	fprintf(f, "# The time shown cut in %d slices; a row per slice that had waits:\n"
		   "# time_s: the slice's start, seconds since the trace start; p99_ms: the\n"
		   "# 99th percentile (nearest rank, docs/metrics.md) of the delays of the\n"
		   "# waits begun in it; waits: how many.  A row closes each run of slices,\n"
		   "# a blank line where a slice had none.\n", PL_PANEL_BINS);
	pd_floor_note(f, "# Delays under ", " ms are written as ", " (log axis).\n");
	for (size_t i = 0; i < x->nsel; i++) {
		int64_t lo, hi;

		pd_panel_xrange(x, i, &lo, &hi);
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->delay[i * s->nruns + r];
			int64_t top;

			pd_block_comment(f, i * s->nruns + r, &s->tasks[x->sel[i]],
				      s->runs[r].policy, "time_s p99_ms waits");
			top = write_bin_p99(f, x, p, lo, hi);
			if (top > x->ymax)
				x->ymax = top;
			end_block(f, p->n);
		}
	}
	return sr_outfile_commit(od, d);
}

static void delay_time_setup(FILE *f, const struct ctx *x)
{
	pd_delay_log_axis(f, 'y', x->ymax * 3);
	fputs("set key invert\n", f);
}

static void delay_time_body(FILE *f, const struct ctx *x, size_t i,
			    struct pl_figure *fig, struct plotcmd *pc)
{
	struct cmp_set *s = x->s;
	bool zoomed;
	char lab[128];

	cmp_task_label(&s->tasks[x->sel[i]], lab, sizeof(lab));
	pd_panel_xrange_cmd(f, x, i, &zoomed);
	pd_panel_title(f, &s->tasks[x->sel[i]],
		    zoomed ? "p99 delay per slice of time, zoomed to its life"
			   : "p99 delay per slice of time");
	/* the last policy first, so the first (the widest) lies
	 * underneath; `set key invert` keeps the first first */
	for (size_t rr = s->nruns; rr-- > 0;) {
		size_t r = rr;
		const struct series *p = &x->c->delay[i * s->nruns + r];
		char t[CMP_POLICY_MAX + 32];

		if (!p->n)
			continue;
		fprintf(f, "%s'delay-time.dat' index %zu using 1:2 with steps lw %.1f lc rgb '%s' dt %s title ",
			plot_item(pc), i * s->nruns + r, line_width(s, r) * 0.75,
			run_colour(s, r).rgb, run_dash(s, r));
		pd_tip(fig, "%s under %s: the p99 of its waits begun in each slice of time (%zu waits in all)",
		    lab, s->runs[r].policy, p->n);
		snprintf(t, sizeof(t), "%s (%zu waits)", s->runs[r].policy, p->n);
		sr_gp_str(f, t);
	}
}

const struct kind pd_kind_delay_time = {
	.name = "delay-time",
	.what = "p99 scheduling delay per slice of time, per task and policy",
	.title = "p99 scheduling delay over time",
	.caption = "The p99 scheduling delay of the waits begun in each of 200 slices of the time shown (log scale), a line per policy: where a policy's waits grow long, and when.",
	.none = "no waits",
	.setup = delay_time_setup,
	.xlabel = "time since trace start (s)",
	.ylabel = "p99 delay per slice (ms, log)",
	.body = delay_time_body,
	.multi_cols = 1,
	.multi_height = 240,
};
