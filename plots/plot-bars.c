/*
 * plot-bars: the bar charts, p99 and max scheduling delay per task (the
 * policies side by side), and each task's wait by reason (stacked bars).
 */
#include <stdlib.h>

#include "compare/why.h"
#include "plots/gnuplot.h"
#include "plots/plot-draw.h"

/* ---- p99 and max per task ------------------------------------------------ */

/* A label quoted in a .dat file: no double quote (gnuplot reads no
 * escape in a data file's "..."), tab or other control byte inside. */
static void dat_label(char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\t')
			*s = '\'';
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static void bar_label(char *out, size_t len, const struct cmp_task *t)
{
	char lab[128];

	cmp_task_label(t, lab, sizeof(lab));
	snprintf(out, len, "%s", lab);
}

/* diff-bars.dat: a block per policy, a row per task (NaN where absent). */
static int write_bars_data(const struct ctx *x, const long *tasks, size_t n,
			   int64_t *ymax, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od;
	FILE *f;
	char a[40], b[40];
	double w = 0.8 / (double)s->nruns;

	*ymax = PL_DELAY_FLOOR_NS * 10;
	f = pd_open_dat(&od, x, "diff-bars",
		     "p99 and max scheduling delay per task, one block per policy", d);
	if (!f)
		return d->code;
	pd_floor_note(f, "# x: bar centre (task number + offset of the policy); delays in ms, under\n# ",
		   " ms written as ", " (log axis)\n");
	for (size_t r = 0; r < s->nruns; r++) {
		fprintf(f, "# index %zu: %s: task_no task x p99_ms max_ms p99_ms_exact max_ms_exact\n",
			r, s->runs[r].policy);
		for (size_t i = 0; i < n; i++) {
			const struct cmp_task *t = &s->tasks[tasks[i]];
			const struct cmp_figs *fg = &t->figs[r];
			char lab[128];
			double xc = (double)i + ((double)r - (double)(s->nruns - 1) / 2.0) * w;

			bar_label(lab, sizeof(lab), t);
			dat_label(lab);
			if (!fg->present) {
				/* panels pick rows by number: keep the row */
				if (x->o->panels)
					fprintf(f, "%zu\t\"%s\"\t%.4f\tNaN\tNaN\tNaN\tNaN\n",
						i, lab, xc);
				continue;
			}
			if (fg->max_ns > *ymax)
				*ymax = fg->max_ns;
			fprintf(f, "%zu\t\"%s\"\t%.4f\t%s\t", i, lab, xc,
				sr_fmt_ms(a, sizeof(a), floor_ns(fg->p99_ns), 6));
			fprintf(f, "%s\t", sr_fmt_ms(b, sizeof(b), floor_ns(fg->max_ns), 6));
			fprintf(f, "%s\t", sr_fmt_ms(a, sizeof(a), fg->p99_ns, 6));
			fprintf(f, "%s\n", sr_fmt_ms(b, sizeof(b), fg->max_ns, 6));
		}
		fputs("NaN\tNaN\tNaN\tNaN\tNaN\tNaN\tNaN\n\n\n", f);
	}
	return sr_outfile_commit(od, d);
}

static const struct {
	const char *what;
	const char *name;
	int col;
} bar_panels[] = {
	{ "p99 scheduling delay", "diff-bars-p99", 4 },
	{ "max scheduling delay", "diff-bars-max", 5 },
};

/*
 * The axes of a bar chart, a bar per task and policy: the delay axis (d:
 * 'y', bars upright; 'x', bars across) on a log scale from the floor to
 * top_ns, its grid and label; the tasks' axis 0 to n - 1 (across: the
 * first at the top).
 */
static void bar_axes(FILE *f, char d, int64_t top_ns, size_t n)
{
	size_t last = n ? n - 1 : 0;

	fprintf(f, "set logscale %c 10\nset format %c '%%g'\n", d, d);
	pd_delay_range(f, d, top_ns);
	if (d == 'y')
		fprintf(f, "set xrange [-0.6:%zu.6]\n", last);
	else
		fprintf(f, "set yrange [%zu.6:-0.6]\n", last);
	fputs(d == 'y' ? "set grid noxtics ytics\n" : "set grid xtics noytics\n",
	      f);
	fprintf(f, "set %clabel 'delay (ms, log)'\n", d);
}

/* The tasks' labels on the bars' axis (TICS: the set command), the bars'
 * fill, and w, the width of one policy's bar. */
static void bar_tics(FILE *f, const char *tics, const struct cmp_set *s,
		     const long *tasks, size_t n, double w)
{
	fprintf(f, "%s (", tics);
	for (size_t i = 0; i < n; i++) {
		char lab[128];

		bar_label(lab, sizeof(lab), &s->tasks[tasks[i]]);
		fputs(i ? ", " : "", f);
		sr_gp_str(f, lab);
		fprintf(f, " %zu", i);
	}
	fputs(")\n", f);
	fputs("set style fill solid 0.85 border rgb '#303030'\n", f);
	fprintf(f, "w = %.4f\n", w);
}

/* The plot command's bars: one image, vertical bars, p99 over max. */
static int write_bars_multi(struct ctx *x, const long *tasks, size_t n,
			    int64_t ymax, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *og;
	struct pl_figure *fig;
	FILE *f;
	char a[40];
	double w = 0.8 / (double)s->nruns;
	int width = 260 + 110 * (int)n;

	if (width < 1000)
		width = 1000;
	if (!(fig = pd_fig_add(x, "diff-bars", "diff-bars", -1)))
		return sr_oom(d);
	snprintf(fig->title, sizeof(fig->title), "p99 and max scheduling delay per task");
	snprintf(fig->caption, sizeof(fig->caption), "p99 and max scheduling delay per task, the policies side by side (log scale).");
	if (open_out(&og, x, "diff-bars", "gp", d))
		return d->code;
	f = sr_outfile_fp(og);
	pd_gp_header(f, x, "diff-bars", "p99 and max scheduling delay per task, the policies side by side", width, 900);
	fputs("set rmargin 4\nset lmargin 12\nset bmargin 9\n", f);
	fputs("set key outside top center horizontal samplen 2\n", f);
	bar_axes(f, 'y', ymax * 6, n);
	fputs("set xlabel 'task (comm and pid)'\n", f);
	bar_tics(f, "set xtics rotate by 30 right nomirror", s, tasks, n, w);
	pd_multiplot_title(f, x, "p99 and max scheduling delay per task", 2, 1);
	for (size_t pi = 0; pi < 2; pi++) {
		struct plotcmd pc = PLOTCMD_INIT;

		fputs("set title ", f);
		sr_gp_str(f, bar_panels[pi].what);
		fputc('\n', f);
		for (size_t r = 0; r < s->nruns; r++) {
			fprintf(f, "%s'diff-bars.dat' index %zu using 3:%d:($3-w/2):($3+w/2):(%s):%d with boxxyerror lc rgb '%s' title ",
				plot_item(&pc), r, bar_panels[pi].col,
				sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3),
				bar_panels[pi].col, run_colour(s, r).rgb);
			sr_gp_str(f, s->runs[r].policy);
			fprintf(f, "%s'diff-bars.dat' index %zu using 3:%d:($%d >= 100 ? sprintf('%%.0f', $%d) : sprintf('%%.3g', $%d)) with labels offset 0,0.7 font ',8' tc rgb '%s' notitle",
				plot_item(&pc), r, bar_panels[pi].col,
				bar_panels[pi].col + 2, bar_panels[pi].col + 2,
				bar_panels[pi].col + 2, run_colour(s, r).rgb);
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	return sr_outfile_commit(og, d);
}

/*
 * The report's bars: diff-bars-p99 and diff-bars-max, horizontal, a row
 * per task (the first at the top), a bar per policy with its value at its
 * end; each bar its own plot element, so its tooltip names task, policy
 * and value.
 */
static int write_bars_panels(struct ctx *x, const long *tasks, size_t n,
			     int64_t ymax, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	double w = 0.8 / (double)s->nruns;
	int label_chars = 8;
	int height;

	for (size_t i = 0; i < n; i++) {
		char lab[128];

		bar_label(lab, sizeof(lab), &s->tasks[tasks[i]]);
		if ((int)strlen(lab) > label_chars)
			label_chars = (int)strlen(lab);
	}
	/* a band of at least 15 px per bar, so the values never touch */
	height = 150 + (int)(n * s->nruns) * 16 + (s->nruns > 4 ? 20 : 0);
	for (size_t pi = 0; pi < 2; pi++) {
		struct sr_outfile *og;
		struct pl_figure *fig;
		struct plotcmd pc = PLOTCMD_INIT;
		char a[40], b[40];
		FILE *f;

		if (!(fig = pd_fig_add(x, bar_panels[pi].name, "diff-bars", -1)))
			return sr_oom(d);
		snprintf(fig->title, sizeof(fig->title), "%s per task", bar_panels[pi].what);
		snprintf(fig->caption, sizeof(fig->caption), "The %s of each task shown above, a bar per policy (log scale), its value in ms at its end.",
			 bar_panels[pi].what);
		if (open_out(&og, x, bar_panels[pi].name, "gp", d))
			return d->code;
		f = sr_outfile_fp(og);
		pd_gp_header(f, x, bar_panels[pi].name, bar_panels[pi].what, PL_PANEL_WIDTH, height);
		fputs("# the data: diff-bars.dat\n", f);
		fprintf(f, "set lmargin %d\nset rmargin 3\nset tmargin 4\n", label_chars + 2);
		fputs("set key above horizontal samplen 2\n", f);
		/* room on the right of the longest bar for its value */
		bar_axes(f, 'x', ymax * 40, n);
		bar_tics(f, "set ytics nomirror", s, tasks, n, w);
		fputs("set title ", f);
		sr_gp_str(f, bar_panels[pi].what);
		fputc('\n', f);
		for (size_t r = 0; r < s->nruns; r++) {
			for (size_t i = 0; i < n; i++) {
				const struct cmp_task *t = &s->tasks[tasks[i]];
				const struct cmp_figs *fg = &t->figs[r];
				char lab[128];

				fprintf(f, "%s'diff-bars.dat' index %zu every ::%zu::%zu using (%s):3:(%s):%d:($3-w/2):($3+w/2) with boxxyerror lc rgb '%s' ",
					plot_item(&pc), r, i, i,
					sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3),
					a, bar_panels[pi].col, run_colour(s, r).rgb);
				if (i == 0) {
					fputs("title ", f);
					sr_gp_str(f, s->runs[r].policy);
				} else {
					fputs("notitle", f);
				}
				bar_label(lab, sizeof(lab), t);
				if (fg->present)
					pd_tip(fig, "%s under %s: %s %s ms", lab,
					    s->runs[r].policy, pi ? "max" : "p99",
					    sr_fmt_ms(b, sizeof(b), pi ? fg->max_ns : fg->p99_ns, 3));
				else
					pd_tip(fig, "%s: not in the %s run", lab,
					    s->runs[r].policy);
			}
			fprintf(f, "%s'diff-bars.dat' index %zu using %d:3:($%d >= 100 ? sprintf('%%.0f', $%d) : sprintf('%%.3g', $%d)) with labels left offset 0.5,0 font ',9' tc rgb '%s' notitle",
				plot_item(&pc), r, bar_panels[pi].col,
				bar_panels[pi].col + 2, bar_panels[pi].col + 2,
				bar_panels[pi].col + 2, run_colour(s, r).rgb);
			pd_tip(fig, "%s of each task under %s (ms)", pi ? "max" : "p99",
			    s->runs[r].policy);
		}
		fputc('\n', f);
		if (sr_outfile_commit(og, d))
			return d->code;
	}
	return SR_OK;
}

int pd_write_diff_bars(struct ctx *x, const long *tasks, size_t n,
			   struct sr_diag *d)
{
	int64_t ymax;

	if (write_bars_data(x, tasks, n, &ymax, d))
		return d->code;
	return x->o->panels ? write_bars_panels(x, tasks, n, ymax, d)
			    : write_bars_multi(x, tasks, n, ymax, d);
}

/* ---- the wait by reason ------------------------------------------------------ */

/*
 * How a reason is drawn (enum sm_why_code; NONE: waits not attributed):
 * a grey and a fill pattern, never a hue, since a hue means a policy
 * everywhere else (compare/style.h): red is stock, not a reason.
 * Patterns (gnuplot's): 0 solid, 1 crosshatch, 2 dense crosshatch, 4 /,
 * 5 \, 6 dense /, 7 dense \.
 */
static const struct why_look {
	const char *rgb;
	int pattern;            /* 0: solid */
} why_looks[SM_WHY__COUNT] = {
	[SM_WHY_NONE] = { "#e0e0e0", 0 },
	[SM_WHY_LOWER_PRIO] = { "#252525", 0 },
	[SM_WHY_SAME_PRIO_QUEUE] = { "#737373", 0 },
	[SM_WHY_NO_PREEMPT] = { "#b5b5b5", 0 },
	[SM_WHY_EXPIRED] = { "#252525", 4 },
	[SM_WHY_STARVING_SWITCH] = { "#252525", 7 },
	[SM_WHY_GRANULARITY] = { "#252525", 5 },
	[SM_WHY_CREDIT] = { "#252525", 6 },
	[SM_WHY_TICK] = { "#252525", 1 },
	[SM_WHY_OTHER_CPU] = { "#252525", 2 },
	/* 2.4's, CFS's and EEVDF's own, told apart from each other */
	[SM_WHY_GOODNESS] = { "#4d4d4d", 0 },
	[SM_WHY_COUNTER_OUT] = { "#8c8c8c", 4 },
	[SM_WHY_VRUNTIME] = { "#4d4d4d", 6 },
	[SM_WHY_NOT_ELIGIBLE] = { "#8c8c8c", 5 },
	[SM_WHY_DEADLINE] = { "#8c8c8c", 1 },
};

/* gnuplot's colour and fill of reason c */
static void why_style(FILE *f, int c)
{
	const struct why_look *w = c >= 0 && c < SM_WHY__COUNT &&
				   why_looks[c].rgb ? &why_looks[c] :
				   &why_looks[SM_WHY_NONE];

	if (w->pattern)
		fprintf(f, "lc rgb '%s' fs pattern %d border lc rgb '#303030'",
			w->rgb, w->pattern);
	else
		fprintf(f, "lc rgb '%s' fs solid 1.0 border lc rgb '#303030'",
			w->rgb);
}

static bool is_task(const struct cmp_task *t, void *ctx)
{
	return t == ctx;
}

/*
 * why-bars.dat: a row per drawn task and policy (task-major): its wait
 * under that policy by reason, each column the sum so far (a stacked bar
 * is drawn from the column before to its own).  Only when some run
 * attributed its waits (*any).
 */
static int write_why_data(struct ctx *x, bool *any, int64_t *total,
			  bool *used, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od;
	FILE *f;
	char a[40];
	int rc = SR_OK;

	*any = false;
	f = pd_open_dat(&od, x, "why-bars",
		     "each drawn task's wait by reason under each policy", d);
	if (!f)
		return d->code;
	fputs("# row task_no policy_no label total_ms then, per reason, the sum up to it (ms):", f);
	for (int c = 1; c <= SM_WHY__COUNT; c++)
		fprintf(f, " %s", sm_why_name(c % SM_WHY__COUNT));
	fputc('\n', f);
	for (size_t i = 0; i < x->nsel && rc == SR_OK; i++) {
		struct cmp_task *t = &s->tasks[x->sel[i]];

		for (size_t r = 0; r < s->nruns && rc == SR_OK; r++) {
			struct cmp_why w;
			char lab[160];
			int64_t sum = 0;

			if ((rc = cmp_why_run(s, r, is_task, t, 0, &w, d)))
				break;
			*any |= w.attributed;
			for (int c = 0; c < SM_WHY__COUNT; c++)
				used[c] |= w.by_why[c] > 0;
			snprintf(lab, sizeof(lab), "%s", s->runs[r].policy);
			dat_label(lab);
			fprintf(f, "%zu\t%zu\t%zu\t\"%s\"\t%s", i * s->nruns + r, i,
				r, lab, sr_fmt_ms(a, sizeof(a), w.total_ns, 6));
			/* the reasons in their order, the unattributed last */
			for (int c = 1; c <= SM_WHY__COUNT; c++) {
				sum += w.by_why[c % SM_WHY__COUNT];
				fprintf(f, "\t%s", sr_fmt_ms(a, sizeof(a), sum, 6));
			}
			fputc('\n', f);
			total[i * s->nruns + r] = w.total_ns;
			cmp_why_free(&w);
		}
	}
	if (rc) {
		sr_outfile_abort(od);
		return rc;
	}
	return sr_outfile_commit(od, d);
}

/* Row `row` of the stacked bars: "task, policy" in the one image (task
 * < 0), the policy alone in a task's panel. */
static const char *why_row_label(const struct ctx *x, long task, size_t row,
				 char *out, size_t len)
{
	const struct cmp_set *s = x->s;
	size_t i = row / s->nruns, r = row % s->nruns;
	char lab[128];

	if (task < 0) {
		cmp_task_label(&s->tasks[x->sel[i]], lab, sizeof(lab));
		snprintf(out, len, "%s, %s", lab, s->runs[r].policy);
	} else {
		snprintf(out, len, "%s", s->runs[r].policy);
	}
	return out;
}

/*
 * The stacked bars: why-bars (one image, every task) for plot, why-K (a
 * panel per task, a bar per policy) for the report.  Column 6 + c - 1
 * holds the sum up to reason c.
 */
static int write_why_script(struct ctx *x, const char *name, long task,
			    size_t first, size_t nrows, int64_t xmax,
			    const bool *used, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *og;
	struct pl_figure *fig;
	struct plotcmd pc = PLOTCMD_INIT;
	char lab[128], yl[200], a[40];
	int label_chars = 8, height;
	FILE *f;

	for (size_t k = 0; k < nrows; k++) {
		/* a character of room after "task, policy" */
		int len = (int)strlen(why_row_label(x, task, first + k, yl,
						    sizeof(yl))) + (task < 0);

		if (len > label_chars)
			label_chars = len;
	}
	height = 170 + (int)nrows * 22;
	if (x->o->panels && height < PL_PANEL_HEIGHT)
		height = PL_PANEL_HEIGHT;
	if (!(fig = pd_fig_add(x, name, "why-bars", task)))
		return sr_oom(d);
	if (task >= 0) {
		cmp_task_label(&s->tasks[task], lab, sizeof(lab));
		snprintf(fig->title, sizeof(fig->title), "%s: wait by reason", lab);
		snprintf(fig->caption, sizeof(fig->caption), "What %s waited for under each policy: its total scheduling delay split by the reason the policy did not run it (docs/why.md).", lab);
	} else {
		snprintf(fig->title, sizeof(fig->title), "%s: wait by reason per task and policy",
			 s->title);
		snprintf(fig->caption, sizeof(fig->caption), "Each task's total scheduling delay under each policy, split by the reason the policy did not run it (docs/why.md).");
	}
	if (open_out(&og, x, name, "gp", d))
		return d->code;
	f = sr_outfile_fp(og);
	pd_gp_header(f, x, name, fig->title, x->o->panels ? PL_PANEL_WIDTH : 1000,
		  height);
	fputs("# the data: why-bars.dat\n", f);
	fprintf(f, "set lmargin %d\n", label_chars + 2);
	if (!x->o->panels)
		fputs("set rmargin 24\n", f);
	fputs("set title ", f);
	sr_gp_str(f, fig->title);
	fputc('\n', f);
	fprintf(f, "set xrange [0:%s]\n", sr_fmt_ms(a, sizeof(a),
		xmax > 0 ? xmax + xmax / 8 : 1000000, 3));
	/* the first row at the top */
	fprintf(f, "set yrange [%.1f:%.1f]\n", (double)(first + nrows) - 0.4,
		(double)first - 0.6);
	fputs("set grid xtics noytics\n", f);
	fputs("set xlabel 'wait (ms, summed)'\n", f);
	fputs("set ytics nomirror (", f);
	for (size_t k = 0; k < nrows; k++) {
		fputs(k ? ", " : "", f);
		sr_gp_str(f, why_row_label(x, task, first + k, yl, sizeof(yl)));
		fprintf(f, " %zu", first + k);
	}
	fputs(")\n", f);
	fputs("set style fill solid 0.9 border rgb '#303030'\n", f);
	for (int c = 1; c <= SM_WHY__COUNT; c++) {
		int code = c % SM_WHY__COUNT;
		char from[16];

		if (!used[code])
			continue; /* in no row drawn: not in the key either */
		/* from the sum before this reason (none: 0) to its own */
		if (c == 1)
			snprintf(from, sizeof(from), "(0)");
		else
			snprintf(from, sizeof(from), "%d", 5 + c - 1);
		fprintf(f, "%s'why-bars.dat' every ::%zu::%zu using %d:1:%s:%d:($1-0.35):($1+0.35) with boxxyerror ",
			plot_item(&pc), first, first + nrows - 1, 5 + c, from,
			5 + c);
		why_style(f, code);
		fputs(" title ", f);
		sr_gp_str(f, code ? sm_why_name(code) : "not attributed");
		pd_tip(fig, "%s: %s", code ? sm_why_name(code) : "not attributed",
		    code ? cmp_why_meaning(code) : "waits without segments");
	}
	if (!pc.n)
		fputs("plot NaN notitle", f); /* no wait at all */
	fputc('\n', f);
	return sr_outfile_commit(og, d);
}

/* The largest of n totals. */
static int64_t max_of(const int64_t *v, size_t n)
{
	int64_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

int pd_write_why_bars(struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	bool any, used[SM_WHY__COUNT] = { false };
	size_t nrows = x->nsel * s->nruns;
	int64_t *total = calloc(nrows ? nrows : 1, sizeof(*total));
	int rc = SR_OK;

	if (!total)
		return sr_oom(d);
	if ((rc = write_why_data(x, &any, total, used, d)) || !any)
		goto out; /* !any: no run was attributed, nothing to split */
	if (!x->o->panels) {
		rc = write_why_script(x, "why-bars", -1, 0, nrows,
				      max_of(total, nrows), used, d);
		goto out;
	}
	/* a panel per task, on its own scale */
	for (size_t i = 0; i < x->nsel && rc == SR_OK; i++) {
		char name[40];

		snprintf(name, sizeof(name), "why-%zu", i + 1);
		rc = write_why_script(x, name, x->sel[i], i * s->nruns,
				      s->nruns, max_of(total + i * s->nruns,
						       s->nruns), used, d);
	}
out:
	free(total);
	return rc;
}

/* Tasks for the bars: interactive ones first, then the largest p99 changes. */
int pd_bar_tasks(struct cmp_set *s, const struct pl_plot_opts *o,
		     long **out, size_t *n, struct sr_diag *d)
{
	long *order;
	size_t norder;
	int rc;

	rc = cmp_select_plot_tasks(s, o->re, CMP_BARS_MAX_TASKS, &order, &norder, d);
	if (rc)
		return rc;
	*out = order;
	*n = norder;
	return SR_OK;
}
