/*
 * plot: gnuplot scripts and data files, and their rendering (see plot.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare/style.h"
#include "compare/verdict.h"
#include "compare/why.h"
#include "lib/grow.h"
#include "lib/fmt.h"
#include "lib/outfile.h"
#include "lib/rank.h"
#include "plots/gnuplot.h"
#include "plots/plot.h"
#include "replay/metrics.h"

int pl_format_parse(const char *name)
{
	static const char *const names[] = { "png", "svg", "pdf" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(name, names[i]))
			return i;
	return -1;
}

const char *pl_format_ext(enum pl_format f)
{
	static const char *const ext[] = { "png", "svg", "pdf" };

	return ext[f];
}

/* Run r's style: its policy's colour, dash and point (compare/style.h). */
static struct cmp_style run_style(const struct cmp_set *s, size_t r)
{
	struct cmp_style st;

	cmp_style_of(s->runs[r].policy, &st);
	return st;
}

/* "#rrggbb" of run r, as run_colour(s, r).rgb (a temporary that lives
 * to the end of the expression). */
struct colour {
	char rgb[8];
};

static struct colour run_colour(const struct cmp_set *s, size_t r)
{
	struct colour c;
	struct cmp_style st = run_style(s, r);

	memcpy(c.rgb, st.rgb, sizeof(c.rgb));
	return c;
}

/* gnuplot's dash type of run r: "solid", or a pattern. */
static const char *run_dash(const struct cmp_set *s, size_t r)
{
	return cmp_style_dash_gp(run_style(s, r).dash);
}

/* Line width of run r: the baseline (the first) widest, underneath, so
 * the others drawn over it leave its edges visible where they coincide. */
static double line_width(const struct cmp_set *s, size_t r)
{
	if (s->nruns < 2)
		return 1.6;
	return r == 0 ? 3.2 : 1.6;
}

/* ---- collecting the selected tasks' series ----------------------------- */

struct pt {
	int64_t t;
	int64_t v;
};

struct series {
	struct pt *p;
	size_t n, cap;
	int64_t last_t;
	int last_prio;
	bool seen;
};

struct collect {
	struct cmp_set *s;
	size_t run;
	long *slot;           /* task index -> selected slot, -1 */
	size_t nsel;
	struct series *prio;  /* [slot * nruns + run] */
	struct series *mig;   /* migrations: (time, prio), same index */
	struct series *delay;
	int *static_prio;     /* per slot, -1 */
};

static int push(struct series *x, int64_t t, int64_t v, struct sr_diag *d)
{
	if (x->n == x->cap) {
		struct pt *p = sr_grow(x->p, &x->cap, x->n, sizeof(*p), 64, 0);

		if (!p)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		x->p = p;
	}
	x->p[x->n].t = t;
	x->p[x->n].v = v;
	x->n++;
	return SR_OK;
}

static int collect_tl(void *ctx, const struct cmp_tl_row *r, struct sr_diag *d)
{
	struct collect *c = ctx;
	long slot = c->slot[r->task];
	struct series *x;

	if (slot < 0)
		return SR_OK;
	x = &c->prio[(size_t)slot * c->s->nruns + c->run];
	if (r->static_prio >= 0 && c->static_prio[slot] < 0)
		c->static_prio[slot] = r->static_prio;
	if (r->ev == CMP_EV_GONE)
		return SR_OK;
	x->last_t = r->time_ns;
	if (r->prio < 0)
		return SR_OK;
	if (r->ev == CMP_EV_MIGRATE &&
	    push(&c->mig[(size_t)slot * c->s->nruns + c->run], r->time_ns,
		 r->prio, d))
		return d->code;
	if (!x->seen || r->prio != x->last_prio) {
		if (push(x, r->time_ns, r->prio, d))
			return d->code;
		x->seen = true;
		x->last_prio = r->prio;
	}
	return SR_OK;
}

static int collect_lat(void *ctx, const struct cmp_lat_row *r, struct sr_diag *d)
{
	struct collect *c = ctx;
	long slot = c->slot[r->task];

	if (slot < 0)
		return SR_OK;
	return push(&c->delay[(size_t)slot * c->s->nruns + c->run], r->wake_ns,
		    r->delay_ns, d);
}

static void collect_free(struct collect *c)
{
	size_t n = c->nsel * c->s->nruns;

	for (size_t i = 0; c->prio && i < n; i++)
		free(c->prio[i].p);
	for (size_t i = 0; c->mig && i < n; i++)
		free(c->mig[i].p);
	for (size_t i = 0; c->delay && i < n; i++)
		free(c->delay[i].p);
	free(c->prio);
	free(c->mig);
	free(c->delay);
	free(c->slot);
	free(c->static_prio);
}

static int collect_all(struct collect *c, struct cmp_set *s, const long *sel,
		       size_t nsel, struct sr_diag *d)
{
	memset(c, 0, sizeof(*c));
	c->s = s;
	c->nsel = nsel;
	c->slot = malloc((s->ntasks + 1) * sizeof(*c->slot));
	c->prio = calloc(nsel * s->nruns + 1, sizeof(*c->prio));
	c->mig = calloc(nsel * s->nruns + 1, sizeof(*c->mig));
	c->delay = calloc(nsel * s->nruns + 1, sizeof(*c->delay));
	c->static_prio = malloc((nsel + 1) * sizeof(int));
	if (!c->slot || !c->prio || !c->mig || !c->delay || !c->static_prio)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	for (size_t i = 0; i < s->ntasks; i++)
		c->slot[i] = -1;
	for (size_t i = 0; i < nsel; i++) {
		c->slot[sel[i]] = (long)i;
		c->static_prio[i] = -1;
	}
	for (size_t r = 0; r < s->nruns; r++) {
		c->run = r;
		if (cmp_timeline_pass(s, s->runs[r].res, false, collect_tl, c, d) ||
		    cmp_latency_pass(s, s->runs[r].res, collect_lat, c, d))
			return d->code;
	}
	for (size_t i = 0; i < nsel; i++)
		if (c->static_prio[i] < 0)
			c->static_prio[i] = s->tasks[sel[i]].static_prio;
	return SR_OK;
}

/* ---- figures and their tooltips ----------------------------------------- */

struct ctx {
	struct cmp_set *s;
	const struct pl_plot_opts *o;
	const long *sel;
	size_t nsel;
	struct collect *c;
	int64_t xmin_ns, xmax_ns; /* what the plots show, since the origin */
	struct pl_plot_files *out;
	size_t capfig;
	int64_t ymax;             /* delay-time: the longest delay drawn */
	int64_t cdf_xmax;         /* delay-cdf: the longest delay drawn */
	double cdf_nines;         /* and the highest on its nines axis */
};

/* A new figure of out (its tips empty); NULL when out of memory. */
static struct pl_figure *fig_add(struct ctx *x, const char *name,
				 const char *kind, long task)
{
	struct pl_plot_files *pf = x->out;
	struct pl_figure *f = sr_grow(pf->fig, &x->capfig, pf->n,
				      sizeof(*f), 16, 0);

	if (!f)
		return NULL;
	pf->fig = f;
	f = &pf->fig[pf->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->kind = kind;
	f->task = task;
	return f;
}

/* One more tooltip line of fig (NULL: none kept); false when out of
 * memory. */
static bool tip(struct pl_figure *fig, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool tip(struct pl_figure *fig, const char *fmt, ...)
{
	char line[512];
	size_t old, n;
	char *t;
	va_list ap;

	if (!fig)
		return true;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (char *q = line; *q; q++)
		if (*q == '\n')
			*q = ' ';
	old = fig->tips ? strlen(fig->tips) : 0;
	n = strlen(line);
	t = realloc(fig->tips, old + n + 2);
	if (!t)
		return false;
	memcpy(t + old, line, n);
	t[old + n] = '\n';
	t[old + n + 1] = '\0';
	fig->tips = t;
	return true;
}

void pl_plot_files_free(struct pl_plot_files *pf)
{
	for (size_t i = 0; pf->fig && i < pf->n; i++)
		free(pf->fig[i].tips);
	free(pf->fig);
	free(pf->tasks);
	memset(pf, 0, sizeof(*pf));
}

/* ---- writing ----------------------------------------------------------- */

static char *tsec(char *buf, size_t len, const struct ctx *x, int64_t t)
{
	return sr_fmt_s(buf, len, t - x->s->origin, 6);
}

/*
 * The x range of task i's panel, in ns since the origin: what the plots
 * show (the replay, or the window), or, for a task that lived under a
 * quarter of it, its own life with a margin (else its panel is a speck).
 * Returns true when zoomed.
 */
static bool panel_xrange(const struct ctx *x, size_t i, int64_t *lo,
			 int64_t *hi)
{
	const struct cmp_set *s = x->s;
	int64_t first = INT64_MAX, last = INT64_MIN, w, m;

	for (size_t r = 0; r < s->nruns; r++) {
		const struct series *p = &x->c->prio[i * s->nruns + r];
		const struct series *q = &x->c->delay[i * s->nruns + r];

		if (p->n) {
			if (p->p[0].t < first)
				first = p->p[0].t;
			if (p->last_t > last)
				last = p->last_t;
		}
		if (q->n) {
			if (q->p[0].t < first)
				first = q->p[0].t;
			if (q->p[q->n - 1].t > last)
				last = q->p[q->n - 1].t;
		}
	}
	*lo = x->xmin_ns;
	*hi = x->xmax_ns;
	if (first == INT64_MAX || (last - first) * 4 >= x->xmax_ns - x->xmin_ns)
		return false;
	first -= s->origin;
	last -= s->origin;
	w = last - first;
	if (w < 10000000)
		w = 10000000;
	m = w / 20;
	*lo = first - m > x->xmin_ns ? first - m : x->xmin_ns;
	*hi = last + m;
	return true;
}

static void panel_xrange_cmd(FILE *f, const struct ctx *x, size_t i,
			     bool *zoomed)
{
	int64_t lo, hi;
	char a[40], b[40];

	*zoomed = panel_xrange(x, i, &lo, &hi);
	fprintf(f, "set xrange [%s:%s]\n", sr_fmt_s(a, sizeof(a), lo, 6),
		sr_fmt_s(b, sizeof(b), hi, 6));
}

static void gp_header(FILE *f, const struct ctx *x, const char *name,
		      const char *what, int width, int height)
{
	const char *ext = pl_format_ext(x->o->format);

	/* a task's name in `what`: its control bytes shown as '?', so the
	 * comment stays one line */
	fprintf(f, "# %s: ", name);
	sr_put_comm(f, what);
	fputs("\n# Written by `schedreplay plot` from the trace ", f);
	sr_gp_str(f, x->s->title);
	fprintf(f, ";\n# data in %s.dat beside this script.  Edit freely, then re-run in this\n"
		   "# directory:  gnuplot %s.gp\n\n", name, name);
	fprintf(f, "if (!exists(\"outfile\")) outfile = '%s.%s'\n", name, ext);
	switch (x->o->format) {
	case PL_FMT_PNG:
		fprintf(f, "set terminal pngcairo size %d,%d noenhanced font 'Sans,10' background '#ffffff'\n",
			width, height);
		break;
	case PL_FMT_SVG:
		fprintf(f, "set terminal svg size %d,%d noenhanced font 'Sans,11' background '#ffffff'\n",
			width, height);
		break;
	case PL_FMT_PDF:
		fprintf(f, "set terminal pdfcairo size %d.%02din,%d.%02din noenhanced font 'Sans,9'\n",
			width / 100, width % 100, height / 100, height % 100);
		break;
	}
	fputs("set output outfile\n", f);
	fputs("set grid xtics ytics lc rgb '#e0e0e0' lw 1\n", f);
	fputs("set border lc rgb '#404040'\n", f);
	if (x->o->panels) {
		/* the key under the plot: a panel keeps its width for data */
		fputs("set key below horizontal Left reverse samplen 2 spacing 1.1 maxrows 3\n", f);
		fputs("set lmargin 10\nset rmargin 3\n", f);
	} else {
		fputs("set key outside right top vertical Left reverse samplen 2 spacing 1.1\n", f);
		fputs("set lmargin 12\nset rmargin 34\n", f);
	}
}

static void multiplot_title(FILE *f, const struct ctx *x, const char *what,
			    int rows, int cols)
{
	char title[512];
	size_t o = 0;

	/* each piece only while there is room: a long --title or tuned
	 * labels cut the heading, never write past it */
	o += (size_t)snprintf(title + o, sizeof(title) - o, "%s: %s (", x->s->title, what);
	for (size_t r = 0; r < x->s->nruns && o < sizeof(title); r++)
		o += (size_t)snprintf(title + o, sizeof(title) - o, "%s%s",
				      r ? ", " : "", x->s->runs[r].policy);
	if (o < sizeof(title))
		snprintf(title + o, sizeof(title) - o, ")");
	fprintf(f, "set multiplot layout %d,%d title ", rows, cols);
	sr_gp_str(f, title);
	fputs(" font ',13'\n", f);
}

static void panel_title(FILE *f, const struct cmp_task *t, const char *extra)
{
	char lab[160];

	cmp_task_label(t, lab, sizeof(lab));
	if (extra && *extra) {
		size_t n = strlen(lab);

		snprintf(lab + n, sizeof(lab) - n, ": %s", extra);
	}
	fputs("set title ", f);
	sr_gp_str(f, lab);
	fputc('\n', f);
}

static void block_comment(FILE *f, size_t index, const struct cmp_task *t,
			  const char *policy, const char *cols)
{
	char lab[128], clean[128];

	/* a comment line of a .dat file: a newline in a name would make the
	 * rest of it a row */
	cmp_task_label(t, lab, sizeof(lab));
	fprintf(f, "# index %zu: %s under %s: %s\n", index,
		sr_comm_clean(clean, sizeof(clean), lab), policy, cols);
}

static int open_out(struct sr_outfile **o, const struct ctx *x,
		    const char *name, const char *ext, struct sr_diag *d)
{
	return sr_outfile_open_in(o, x->o->outdir, name, ext, d);
}

/* NAME.dat opened, its first line saying what it holds: its stream, or
   NULL (d filled). */
static FILE *open_dat(struct sr_outfile **o, const struct ctx *x,
		      const char *name, const char *what, struct sr_diag *d)
{
	FILE *f;

	if (open_out(o, x, name, "dat", d))
		return NULL;
	f = sr_outfile_fp(*o);
	fprintf(f, "# schedreplay plot: %s\n", what);
	return f;
}

/* A .dat header line saying how delays under the floor are written: the
   floor in ms after `before` and again after `mid`, then `after`. */
static void floor_note(FILE *f, const char *before, const char *mid,
		       const char *after)
{
	char a[40];

	sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3);
	fprintf(f, "%s%s%s%s%s", before, a, mid, a, after);
}

/* The end of a .dat block of n rows: a row of NaN if it had none, then
   the two blank lines that end a gnuplot index block. */
static void end_block(FILE *f, size_t n)
{
	if (!n)
		fputs("NaN\tNaN\n", f);
	fputs("\n\n", f);
}

/* A delay axis (axis x or y) from the floor of a log scale to top_ns. */
static void delay_range(FILE *f, char axis, int64_t top_ns)
{
	char a[40], b[40];

	fprintf(f, "set %crange [%s:%s]\n", axis,
		sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3),
		sr_fmt_ms(b, sizeof(b), top_ns, 3));
}

/* A gnuplot plot command being written: its items, each after "plot "
   (the first) or a continued line (plot_item). */
struct plotcmd {
	const char *sep;
	size_t n;
};
#define PLOTCMD_INIT { "plot ", 0 }

/* What to write before the next item; one more item. */
static const char *plot_item(struct plotcmd *pc)
{
	const char *sep = pc->sep;

	pc->sep = ", \\\n     ";
	pc->n++;
	return sep;
}

/*
 * The scripts of one kind of plot: one multiplot (every task), or with
 * panels one script per task, NAME-K.gp.  body(f, x, i, fig, pc) draws
 * task i's panel, the items of its plot command through pc; fig (NULL
 * for the multiplot) takes its tooltips.
 */
typedef void (*panel_fn)(FILE *f, const struct ctx *x, size_t i,
			 struct pl_figure *fig, struct plotcmd *pc);

struct kind {
	const char *name;
	const char *what;          /* for the script's first line */
	const char *title;         /* a panel's: "priority over time" */
	const char *caption;       /* for the report */
	const char *none;          /* an empty panel's title: "no waits" */
	void (*setup)(FILE *f, const struct ctx *x); /* after the header */
	panel_fn body;
	int multi_cols;            /* the multiplot's columns (1 or 2) */
	int multi_height;          /* per multiplot row */
};

/* Task i's panel of kind k: what its body draws, or a title saying
   k->none; the plot command ended. */
static void panel(FILE *f, const struct ctx *x, const struct kind *k,
		  size_t i, struct pl_figure *fig)
{
	struct plotcmd pc = PLOTCMD_INIT;
	char lab[128];

	k->body(f, x, i, fig, &pc);
	if (!pc.n) {
		cmp_task_label(&x->s->tasks[x->sel[i]], lab, sizeof(lab));
		fprintf(f, "plot NaN title '%s'", k->none);
		tip(fig, "%s: %s", lab, k->none);
	}
	fputc('\n', f);
}

static int write_scripts(struct ctx *x, const struct kind *k,
			 struct sr_diag *d)
{
	struct sr_outfile *og;
	FILE *f;

	if (!x->o->panels) {
		int cols = k->multi_cols > 1 && x->nsel > 1 ? k->multi_cols : 1;
		int rows = ((int)x->nsel + cols - 1) / cols;
		struct pl_figure *fig = fig_add(x, k->name, k->name, -1);

		if (!fig)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		snprintf(fig->title, sizeof(fig->title), "%s", k->title);
		snprintf(fig->caption, sizeof(fig->caption), "%s", k->caption);
		if (open_out(&og, x, k->name, "gp", d))
			return d->code;
		f = sr_outfile_fp(og);
		gp_header(f, x, k->name, k->what, 1100, 120 + k->multi_height * rows);
		k->setup(f, x);
		multiplot_title(f, x, k->title, rows, cols);
		for (size_t i = 0; i < x->nsel; i++)
			panel(f, x, k, i, NULL);
		fputs("unset multiplot\n", f);
		return sr_outfile_commit(og, d);
	}
	for (size_t i = 0; i < x->nsel; i++) {
		const struct cmp_task *t = &x->s->tasks[x->sel[i]];
		struct pl_figure *fig;
		char name[40], lab[128];

		snprintf(name, sizeof(name), "%s-%zu", k->name, i + 1);
		if (!(fig = fig_add(x, name, k->name, x->sel[i])))
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		cmp_task_label(t, lab, sizeof(lab));
		snprintf(fig->title, sizeof(fig->title), "%s: %s", lab,
			 k->title);
		snprintf(fig->caption, sizeof(fig->caption), "%s", k->caption);
		if (open_out(&og, x, name, "gp", d))
			return d->code;
		f = sr_outfile_fp(og);
		gp_header(f, x, name, k->what, PL_PANEL_WIDTH, PL_PANEL_HEIGHT);
		fprintf(f, "# the data: %s.dat, task %zu's blocks\n", k->name,
			i + 1);
		k->setup(f, x);
		panel(f, x, k, i, fig);
		if (sr_outfile_commit(og, d))
			return d->code;
	}
	return SR_OK;
}

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

static int write_priority_data(const struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od;
	FILE *f;
	char a[40];
	size_t nblocks = x->nsel * s->nruns;

	f = open_dat(&od, x, "priority",
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

		panel_xrange(x, i, &lo, &hi);
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->prio[i * s->nruns + r];

			block_comment(f, i * s->nruns + r, &s->tasks[x->sel[i]],
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

			block_comment(f, k, &s->tasks[x->sel[i]],
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

static void priority_setup(FILE *f, const struct ctx *x)
{
	fputs("set xlabel 'time since trace start (s)'\n", f);
	fputs(x->o->panels ? "set ylabel 'prio (lower = higher priority)'\n"
			   : "set ylabel 'prio (lower value = higher priority)'\n", f);
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
	panel_xrange_cmd(f, x, i, &zoomed);
	snprintf(b, sizeof(b), "%s%s", cmp_class_name(t->cls),
		 zoomed ? " (zoomed to its life)" : "");
	panel_title(f, t, b);
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
		tip(fig, "%s under %s: priority", lab, s->runs[r].policy);
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
		tip(fig, "%s under %s: moved to another CPU %zu time%s", lab,
		    s->runs[r].policy, m->n, m->n == 1 ? "" : "s");
	}
	if (thr >= 0) {
		snprintf(b, sizeof(b), "interactive: prio <= %d", thr);
		fprintf(f, "%s%d with lines dt 2 lw 1.2 lc rgb '#333333' title ",
			plot_item(pc), thr);
		sr_gp_str(f, b);
		tip(fig, "%s: interactive while prio <= %d (the O(1) models' TASK_INTERACTIVE)",
		    lab, thr);
	}
}

static const struct kind kind_priority = {
	"priority", "each task's priority over time under each policy",
	"priority over time, higher priority up",
	"Priority over time: the model's dynamic priority of each task under each policy (steps; higher priority is up; dashed: the interactive threshold; open circles: the task moved to another CPU).",
	"no priority data", priority_setup, priority_body, 1, 240,
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

static int64_t floor_ns(int64_t v)
{
	return v < PL_DELAY_FLOOR_NS ? PL_DELAY_FLOOR_NS : v;
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

static int write_delay_time_data(struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od;
	FILE *f;

	x->ymax = PL_DELAY_FLOOR_NS * 10;
	f = open_dat(&od, x, "delay-time",
		     "p99 scheduling delay per slice of time, one block per task and policy", d);
	if (!f)
		return d->code;
	fprintf(f, "# The time shown cut in %d slices; a row per slice that had waits:\n"
		   "# time_s: the slice's start, seconds since the trace start; p99_ms: the\n"
		   "# 99th percentile (nearest rank, docs/metrics.md) of the delays of the\n"
		   "# waits begun in it; waits: how many.  A row closes each run of slices,\n"
		   "# a blank line where a slice had none.\n", PL_PANEL_BINS);
	floor_note(f, "# Delays under ", " ms are written as ", " (log axis).\n");
	for (size_t i = 0; i < x->nsel; i++) {
		int64_t lo, hi;

		panel_xrange(x, i, &lo, &hi);
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->delay[i * s->nruns + r];
			int64_t top;

			block_comment(f, i * s->nruns + r, &s->tasks[x->sel[i]],
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
	fputs("set logscale y 10\n", f);
	delay_range(f, 'y', x->ymax * 3);
	fputs("set format y '%g'\n", f);
	fputs("set xlabel 'time since trace start (s)'\n", f);
	fputs("set ylabel 'p99 delay per slice (ms, log)'\n", f);
	fputs("set key invert\n", f);
}

static void delay_time_body(FILE *f, const struct ctx *x, size_t i,
			    struct pl_figure *fig, struct plotcmd *pc)
{
	struct cmp_set *s = x->s;
	bool zoomed;
	char lab[128];

	cmp_task_label(&s->tasks[x->sel[i]], lab, sizeof(lab));
	panel_xrange_cmd(f, x, i, &zoomed);
	panel_title(f, &s->tasks[x->sel[i]],
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
		tip(fig, "%s under %s: the p99 of its waits begun in each slice of time (%zu waits in all)",
		    lab, s->runs[r].policy, p->n);
		snprintf(t, sizeof(t), "%s (%zu waits)", s->runs[r].policy, p->n);
		sr_gp_str(f, t);
	}
}

static const struct kind kind_delay_time = {
	"delay-time", "p99 scheduling delay per slice of time, per task and policy",
	"p99 scheduling delay over time",
	"The p99 scheduling delay of the waits begun in each of 200 slices of the time shown (log scale), a line per policy: where a policy's waits grow long, and when.",
	"no waits", delay_time_setup, delay_time_body, 1, 240,
};

/* ---- delay distribution ------------------------------------------------- */

/*
 * The CDF's height on its "nines" axis: -log10 of the share of waits
 * longer than the k-th shortest of n (0 for none shorter, 1 at 90 %, 2
 * at 99 %, 3 at 99.9 %): the tail a person feels is spread out instead
 * of squashed against the top.  The longest wait (none longer) is drawn
 * half a wait further up, -log10(0.5 / n).
 */
static double nines(size_t k, size_t n)
{
	double longer = (double)(n - k) / (double)n;

	return -log10(longer > 0 ? longer : 0.5 / (double)n);
}

/* Series p's CDF as "delay_ms fraction nines" rows: every wait up to 2 *
 * body of them, else body points evenly spaced in rank below p99 and tail
 * in the top 1%.  Returns the largest delay written, -1 when out of
 * memory; *top_nines gets the highest nines written. */
static int64_t write_cdf(FILE *f, const struct series *p, size_t body,
			 size_t tail, double *top_nines)
{
	int64_t *v = p->n ? malloc(p->n * sizeof(*v)) : NULL;
	size_t last = (size_t)-1;
	int64_t top = 0;
	char a[40];

	if (p->n && !v)
		return -1;
	for (size_t k = 0; k < p->n; k++)
		v[k] = p->p[k].v;
	if (p->n) {
		qsort(v, p->n, sizeof(*v), sr_cmp_i64);
		/* the rise from 0 at the shortest delay */
		fprintf(f, "%s\t0\t0\n", sr_fmt_ms(a, sizeof(a), floor_ns(v[0]), 6));
	}
	for (size_t j = 0; j < body + tail + 1 && p->n; j++) {
		/* rank (0-based) of the j-th kept point */
		size_t k;

		if (p->n <= 2 * body) {
			if (j >= p->n)
				break;
			k = j;
		} else if (j < body) {
			k = (size_t)((double)j * 0.99 * (double)p->n / (double)body);
		} else {
			size_t base = (size_t)(0.99 * (double)p->n);

			k = base + (size_t)((double)(j - body) *
					    (double)(p->n - 1 - base) / (double)tail);
		}
		if (k >= p->n)
			k = p->n - 1;
		if (last != (size_t)-1 && k <= last)
			continue;
		/* the last of equal values gives the step's top */
		while (k + 1 < p->n && v[k + 1] == v[k])
			k++;
		last = k;
		if (v[k] > top)
			top = v[k];
		fprintf(f, "%s\t%.6f\t%.6f\n",
			sr_fmt_ms(a, sizeof(a), floor_ns(v[k]), 6),
			(double)(k + 1) / (double)p->n, nines(k + 1, p->n));
		if (nines(k + 1, p->n) > *top_nines)
			*top_nines = nines(k + 1, p->n);
	}
	free(v);
	return top;
}

static int write_delay_cdf_data(struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od;
	FILE *f;
	size_t body = x->o->panels ? PL_PANEL_CDF_POINTS : PL_CDF_POINTS;
	size_t tail = x->o->panels ? PL_PANEL_CDF_POINTS / 2 : PL_CDF_POINTS;

	x->cdf_xmax = PL_DELAY_FLOOR_NS * 10;
	x->cdf_nines = 2;
	f = open_dat(&od, x, "delay-cdf",
		     "distribution of scheduling delays, one block per task and policy", d);
	if (!f)
		return d->code;
	floor_note(f, "# delay_ms (under ", " ms written as ",
		   ", log axis); fraction: share of the\n");
	fprintf(f, "# task's waits with a delay <= delay_ms; nines: -log10(1 - fraction), the\n"
		   "# axis drawn (1: 90%%, 2: 99%%, 3: 99.9%%; the longest wait at -log10(0.5/n)).\n"
		   "# Above %zu waits, %zu points evenly spaced in rank below p99 and %zu in the\n"
		   "# top 1%% are kept.\n", 2 * body, body, tail);
	for (size_t i = 0; i < x->nsel; i++) {
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->delay[i * s->nruns + r];
			int64_t top;

			block_comment(f, i * s->nruns + r, &s->tasks[x->sel[i]],
				      s->runs[r].policy, "delay_ms fraction nines");
			if ((top = write_cdf(f, p, body, tail, &x->cdf_nines)) < 0) {
				sr_outfile_abort(od);
				return sr_fail(d, SR_EINTERNAL, "out of memory");
			}
			if (top > x->cdf_xmax)
				x->cdf_xmax = top;
			end_block(f, p->n);
		}
	}
	return sr_outfile_commit(od, d);
}

static void delay_cdf_setup(FILE *f, const struct ctx *x)
{
	/* tic labels are gnuplot formats: %% for a % */
	static const char *const pct[] = {
		"0", "90%%", "99%%", "99.9%%", "99.99%%", "99.999%%",
		"99.9999%%", "99.99999%%",
	};
	int top = (int)ceil(x->cdf_nines);

	if (top > (int)(sizeof(pct) / sizeof(pct[0])) - 1)
		top = (int)(sizeof(pct) / sizeof(pct[0])) - 1;
	/* the key under the data, never over it (a panel's is already) */
	if (!x->o->panels)
		fputs("set rmargin 3\nset bmargin 7\n"
		      "set key below horizontal Left reverse samplen 2 spacing 1.1 maxcols 2\n", f);
	fputs("set logscale x 10\n", f);
	delay_range(f, 'x', x->cdf_xmax * 3);
	fputs("set format x '%g'\n", f);
	fprintf(f, "set yrange [0:%.2f]\n", x->cdf_nines + 0.15);
	fputs("set ytics (", f);
	for (int k = 0; k <= top; k++)
		fprintf(f, "%s'%s' %d", k ? ", " : "", pct[k], k);
	fputs(")\n", f);
	fputs("set xlabel 'scheduling delay (ms, log)'\n", f);
	fputs("set ylabel 'waits at most this long'\n", f);
}

static void delay_cdf_body(FILE *f, const struct ctx *x, size_t i,
			   struct pl_figure *fig, struct plotcmd *pc)
{
	struct cmp_set *s = x->s;
	const struct cmp_task *t = &s->tasks[x->sel[i]];
	char a[40], lab[128];

	cmp_task_label(t, lab, sizeof(lab));
	panel_title(f, t, "delays, CDF");
	fputs("unset arrow\nunset label\n", f);
	for (size_t r = 0; r < s->nruns; r++) {
		const struct series *p = &x->c->delay[i * s->nruns + r];

		if (!p->n)
			continue;
		sr_fmt_ms(a, sizeof(a), floor_ns(t->figs[r].p99_ns), 6);
		fprintf(f, "set arrow from %s, graph 0 to %s, first 2 nohead dt 3 lw 1.5 lc rgb '%s'\n",
			a, a, run_colour(s, r).rgb);
		fprintf(f, "set label '' at %s, first 2 point pt 7 ps 1.4 lc rgb '%s'\n",
			a, run_colour(s, r).rgb);
	}
	for (size_t r = 0; r < s->nruns; r++) {
		const struct series *p = &x->c->delay[i * s->nruns + r];
		char ttl[CMP_POLICY_MAX + 48];

		if (!p->n)
			continue;
		fprintf(f, "%s'delay-cdf.dat' index %zu using 1:3 with steps lw 2 lc rgb '%s' dt %s title ",
			plot_item(pc), i * s->nruns + r, run_colour(s, r).rgb,
			run_dash(s, r));
		snprintf(ttl, sizeof(ttl), "%s: p99 %s ms", s->runs[r].policy,
			 sr_fmt_ms(a, sizeof(a), t->figs[r].p99_ns, 3));
		sr_gp_str(f, ttl);
		tip(fig, "%s under %s: share of its %zu waits no longer than each delay (p99 %s ms)",
		    lab, s->runs[r].policy, p->n, a);
	}
	if (pc->n) {
		fprintf(f, "%s2 with lines dt 3 lc rgb '#999999' title 'p99 (99%%)'",
			plot_item(pc));
		tip(fig, "the 99th percentile: 99%% of the waits were no longer");
	}
}

static const struct kind kind_delay_cdf = {
	"delay-cdf", "distribution of scheduling delays per task and policy, p99 marked",
	"distribution of scheduling delays, p99 marked",
	"Distribution of scheduling delays per task and policy (CDF: the share of waits at most each delay, on a log delay axis and a 90 / 99 / 99.9 % axis, so the tail shows); the dots and dotted lines mark each policy's p99.",
	"no waits", delay_cdf_setup, delay_cdf_body, 2, 300,
};

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
	f = open_dat(&od, x, "diff-bars",
		     "p99 and max scheduling delay per task, one block per policy", d);
	if (!f)
		return d->code;
	floor_note(f, "# x: bar centre (task number + offset of the policy); delays in ms, under\n# ",
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
	delay_range(f, d, top_ns);
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
	if (!(fig = fig_add(x, "diff-bars", "diff-bars", -1)))
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	snprintf(fig->title, sizeof(fig->title), "p99 and max scheduling delay per task");
	snprintf(fig->caption, sizeof(fig->caption), "p99 and max scheduling delay per task, the policies side by side (log scale).");
	if (open_out(&og, x, "diff-bars", "gp", d))
		return d->code;
	f = sr_outfile_fp(og);
	gp_header(f, x, "diff-bars", "p99 and max scheduling delay per task, the policies side by side", width, 900);
	fputs("set rmargin 4\nset lmargin 12\nset bmargin 9\n", f);
	fputs("set key outside top center horizontal samplen 2\n", f);
	bar_axes(f, 'y', ymax * 6, n);
	fputs("set xlabel 'task (comm and pid)'\n", f);
	bar_tics(f, "set xtics rotate by 30 right nomirror", s, tasks, n, w);
	multiplot_title(f, x, "p99 and max scheduling delay per task", 2, 1);
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

		if (!(fig = fig_add(x, bar_panels[pi].name, "diff-bars", -1)))
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		snprintf(fig->title, sizeof(fig->title), "%s per task", bar_panels[pi].what);
		snprintf(fig->caption, sizeof(fig->caption), "The %s of each task shown above, a bar per policy (log scale), its value in ms at its end.",
			 bar_panels[pi].what);
		if (open_out(&og, x, bar_panels[pi].name, "gp", d))
			return d->code;
		f = sr_outfile_fp(og);
		gp_header(f, x, bar_panels[pi].name, bar_panels[pi].what, PL_PANEL_WIDTH, height);
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
					tip(fig, "%s under %s: %s %s ms", lab,
					    s->runs[r].policy, pi ? "max" : "p99",
					    sr_fmt_ms(b, sizeof(b), pi ? fg->max_ns : fg->p99_ns, 3));
				else
					tip(fig, "%s: not in the %s run", lab,
					    s->runs[r].policy);
			}
			fprintf(f, "%s'diff-bars.dat' index %zu using %d:3:($%d >= 100 ? sprintf('%%.0f', $%d) : sprintf('%%.3g', $%d)) with labels left offset 0.5,0 font ',9' tc rgb '%s' notitle",
				plot_item(&pc), r, bar_panels[pi].col,
				bar_panels[pi].col + 2, bar_panels[pi].col + 2,
				bar_panels[pi].col + 2, run_colour(s, r).rgb);
			tip(fig, "%s of each task under %s (ms)", pi ? "max" : "p99",
			    s->runs[r].policy);
		}
		fputc('\n', f);
		if (sr_outfile_commit(og, d))
			return d->code;
	}
	return SR_OK;
}

static int write_diff_bars(struct ctx *x, const long *tasks, size_t n,
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
	f = open_dat(&od, x, "why-bars",
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
	if (!(fig = fig_add(x, name, "why-bars", task)))
		return sr_fail(d, SR_EINTERNAL, "out of memory");
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
	gp_header(f, x, name, fig->title, x->o->panels ? PL_PANEL_WIDTH : 1000,
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
		tip(fig, "%s: %s", code ? sm_why_name(code) : "not attributed",
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

static int write_why_bars(struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	bool any, used[SM_WHY__COUNT] = { false };
	size_t nrows = x->nsel * s->nruns;
	int64_t *total = calloc(nrows ? nrows : 1, sizeof(*total));
	int rc = SR_OK;

	if (!total)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
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
static int bar_tasks(struct cmp_set *s, const struct pl_plot_opts *o,
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

/* ---- the summary: the verdict's groups, A against B ------------------------ */

/* Group g's figure (the one its word follows, verdict-rule.h) under A
 * and B in the figure's own unit (ns, or per mille missed), its name in
 * words, and each value as the verdict line prints it. */
static const char *summary_figure(const struct cmp_verdict_group *g,
				  int64_t *v, char (*txt)[SR_FMT_NUM])
{
	const int64_t *met = g->own_clock ? g->own_pm : g->met_pm;

	for (int k = 0; k < 2; k++) {
		switch (g->kind) {
		case CMP_VK_PERIODIC:
			v[k] = 1000 - met[k];
			sr_fmt_scaled(txt[k], SR_FMT_NUM, v[k], 1, 1);
			strcat(txt[k], "%");
			break;
		case CMP_VK_BATCH:
			v[k] = g->done[k];
			sr_fmt_s(txt[k], SR_FMT_NUM, v[k], 3);
			strcat(txt[k], " s");
			break;
		default:
			v[k] = g->p99[k];
			sr_fmt_ms(txt[k], SR_FMT_NUM, v[k], 2);
			strcat(txt[k], " ms");
			break;
		}
	}
	return g->kind == CMP_VK_PERIODIC ?
	       (g->own_clock ? "deadlines missed, own clock (%)"
			     : "deadlines missed (%)") :
	       g->kind == CMP_VK_BATCH ? "done, s after the start" :
	       "p99 scheduling delay (ms)";
}

/* The value in the axis's unit: ms, %, or s. */
static const char *summary_axis(char *buf, size_t len,
				const struct cmp_verdict_group *g, int64_t v)
{
	return g->kind == CMP_VK_PERIODIC ? sr_fmt_scaled(buf, len, v, 1, 1) :
	       g->kind == CMP_VK_BATCH ? sr_fmt_s(buf, len, v, 9) :
	       sr_fmt_ms(buf, len, v, 6);
}

/* A panel's title: the group, its word, and the caveat of a starved
 * recording. */
static void summary_title(FILE *f, const struct cmp_verdicts *v,
			  const struct cmp_verdict_group *g)
{
	char t[256];

	snprintf(t, sizeof(t), "%s: %s under %s%s", g->name,
		 cmp_verdict_name(g->verdict), v->s->runs[v->b].policy,
		 g->nstarved ? " (starved in the recording)" : "");
	fputs("set title ", f);
	sr_gp_str(f, t);
	fputs(" font ',12'\n", f);
}

/*
 * summary.png: one image for a mailing list, the verdict of B (run 1)
 * against A (run 0): a panel per group, the figure its word follows from
 * as two bars in the policies' colours, each with its value; the rule
 * line under them.
 */
static int write_summary(struct ctx *x, const struct cmp_verdicts *v,
			 struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od, *og;
	struct pl_figure *fig;
	char rule[256], a[SR_FMT_NUM], title[512];
	int cols = v->ng > 1 ? 2 : 1, rows = ((int)v->ng + cols - 1) / cols;
	int height = 170 + 230 * rows;
	FILE *f;

	if (!v->ng)
		return SR_OK;
	f = open_dat(&od, x, "summary",
		     "the verdict's groups: the figure each word follows, under A and B", d);
	if (!f)
		return d->code;
	fputs("# a block per group, in the verdict's order; row 0: A, row 1: B;\n"
	      "# value in the axis's unit (ms, %, or s), then as the verdict prints it\n", f);
	for (size_t i = 0; i < v->ng; i++) {
		const struct cmp_verdict_group *g = &v->g[i];
		int64_t val[2];
		char txt[2][SR_FMT_NUM];
		const char *what = summary_figure(g, val, txt);

		fprintf(f, "# index %zu: %s, %s: row value text\n", i, g->name, what);
		for (int k = 0; k < 2; k++)
			fprintf(f, "%d\t%s\t\"%s\"\n", k,
				summary_axis(a, sizeof(a), g, val[k]), txt[k]);
		fputs("\n\n", f);
	}
	if (sr_outfile_commit(od, d))
		return d->code;
	if (!(fig = fig_add(x, "summary", "summary", -1)))
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	snprintf(fig->title, sizeof(fig->title), "%s: %s against %s, per group of tasks",
		 s->title, s->runs[v->b].policy, s->runs[v->a].policy);
	snprintf(fig->caption, sizeof(fig->caption), "The verdict per group of tasks: the figure each word follows from, under each policy (docs/why.md, \"The rule\").");
	if (open_out(&og, x, "summary", "gp", d))
		return d->code;
	f = sr_outfile_fp(og);
	gp_header(f, x, "summary", "the verdict per group of tasks, A against B",
		  1000, height);
	fputs("# the data: summary.dat\n", f);
	fputs("set key off\nset lmargin 14\nset rmargin 6\nset bmargin 4\n", f);
	fputs("set grid xtics noytics\nset style fill solid 0.9 border rgb '#303030'\n", f);
	fputs("set yrange [1.6:-0.6]\n", f);
	fputs("set ytics nomirror (", f);
	for (int k = 0; k < 2; k++) {
		fputs(k ? ", " : "", f);
		sr_gp_str(f, s->runs[k ? v->b : v->a].policy);
		fprintf(f, " %d", k);
	}
	fputs(")\n", f);
	cmp_vrule_line(cmp_verdict_kinds(v), rule, sizeof(rule));
	snprintf(title, sizeof(title), "%s: %s against %s, per group of tasks",
		 s->title, s->runs[v->b].policy, s->runs[v->a].policy);
	fputs("set label 1 ", f);
	sr_gp_str(f, rule + 2);
	fputs(" at screen 0.5, screen 0.02 center textcolor rgb '#505050'\n", f);
	fprintf(f, "set multiplot layout %d,%d title ", rows, cols);
	sr_gp_str(f, title);
	/* room for the title above and the rule line below, in px */
	fprintf(f, " font ',14' margins 0.1,0.97,%.3f,%.3f spacing 0.14,%.3f\n",
		80.0 / height, 1 - 70.0 / height, 70.0 / height);
	for (size_t i = 0; i < v->ng; i++) {
		const struct cmp_verdict_group *g = &v->g[i];
		int64_t val[2];
		char txt[2][SR_FMT_NUM];
		const char *what = summary_figure(g, val, txt);
		int64_t top = val[0] > val[1] ? val[0] : val[1];

		summary_title(f, v, g);
		fprintf(f, "set xlabel '%s'\n", what);
		fprintf(f, "set xrange [0:%s]\n",
			summary_axis(a, sizeof(a), g, top > 0 ? top + top / 3 : 1));
		for (int k = 0; k < 2; k++) {
			size_t r = k ? v->b : v->a;

			fprintf(f, "%s'summary.dat' index %zu every ::%d::%d using 2:1:(0):2:($1-0.3):($1+0.3) with boxxyerror lc rgb '%s'",
				k ? ", \\\n     " : "plot ", i, k, k, run_colour(s, r).rgb);
			tip(fig, "%s under %s: %s", g->name, s->runs[r].policy, txt[k]);
		}
		fprintf(f, ", \\\n     'summary.dat' index %zu using 2:1:3 with labels left offset 0.6,0 textcolor rgb '#202020'\n", i);
		tip(fig, "%s: the values", g->name);
		if (i == 0)
			fputs("unset label 1\n", f);
	}
	fputs("unset multiplot\n", f);
	return sr_outfile_commit(og, d);
}

/* What the plots show, in ns since the origin: the replay's span (and
 * the last point drawn), or the window. */
static void x_extent(struct ctx *x)
{
	struct cmp_set *s = x->s;
	struct collect *c = x->c;

	x->xmin_ns = 0;
	x->xmax_ns = s->have_t ? s->t1 - s->origin : 0;
	for (size_t i = 0; i < x->nsel * s->nruns; i++) {
		if (c->prio[i].seen && c->prio[i].last_t - s->origin > x->xmax_ns)
			x->xmax_ns = c->prio[i].last_t - s->origin;
		for (size_t k = 0; k < c->delay[i].n; k++)
			if (c->delay[i].p[k].t - s->origin > x->xmax_ns)
				x->xmax_ns = c->delay[i].p[k].t - s->origin;
	}
	if (sr_sel_windowed(s->sel)) {
		int64_t lo, hi;

		sr_sel_window(s->sel, s->origin, &lo, &hi);
		if (lo != INT64_MIN && lo > s->origin)
			x->xmin_ns = lo - s->origin;
		/* to the window's end, or the trace's if it ends first */
		if (hi != INT64_MAX) {
			int64_t end = s->trace_end - s->origin > x->xmax_ns ?
				      s->trace_end - s->origin : x->xmax_ns;

			x->xmax_ns = hi - s->origin < end ? hi - s->origin : end;
		}
	}
	if (x->xmax_ns <= x->xmin_ns)
		x->xmax_ns = x->xmin_ns + 1000000000;
}

static int plot_all(struct cmp_set *s, const struct pl_plot_opts *o,
		    struct pl_plot_files *out, struct sr_diag *d)
{
	struct collect c;
	struct ctx x = { .s = s, .o = o, .out = out };
	long *sel = NULL, *bars = NULL;
	size_t nsel = 0, nbars = 0;
	int rc, first_err = SR_OK;
	struct sr_diag gd = SR_DIAG_INIT;

	if (bar_tasks(s, o, &bars, &nbars, d))
		return d->code;
	rc = cmp_select_plot_tasks(s, o->re, o->max_tasks ? o->max_tasks : CMP_PLOT_MAX_TASKS,
				  &sel, &nsel, d);
	if (rc) {
		free(bars);
		return rc;
	}
	if (!nsel) {
		free(sel);
		free(bars);
		return sr_fail(d, SR_EUSAGE, o->re ? "--task matches no task in the replay"
						   : "no task to plot: the replay has no task that waited");
	}
	memset(&c, 0, sizeof(c));
	rc = collect_all(&c, s, sel, nsel, d);
	x.sel = sel;
	x.nsel = nsel;
	x.c = &c;
	out->tasks = sel;
	out->ntasks = nsel;
	sel = NULL;
	if (rc == SR_OK) {
		x_extent(&x);
		rc = write_priority_data(&x, d);
	}
	if (rc == SR_OK)
		rc = write_scripts(&x, &kind_priority, d);
	if (rc == SR_OK)
		rc = write_delay_time_data(&x, d);
	if (rc == SR_OK)
		rc = write_scripts(&x, &kind_delay_time, d);
	if (rc == SR_OK)
		rc = write_delay_cdf_data(&x, d);
	if (rc == SR_OK)
		rc = write_scripts(&x, &kind_delay_cdf, d);
	if (rc == SR_OK && s->nruns > 1)
		rc = write_diff_bars(&x, bars, nbars, d);
	if (rc == SR_OK)
		rc = write_why_bars(&x, d);
	if (rc == SR_OK && s->nruns > 1 && !o->panels) {
		struct cmp_verdicts *v = calloc(1, sizeof(*v));

		rc = v ? cmp_verdict_build(v, s, 0, 1, d) :
			 sr_fail(d, SR_EINTERNAL, "out of memory");
		if (rc == SR_OK)
			rc = write_summary(&x, v, d);
		free(v);
	}
	collect_free(&c);
	free(bars);
	if (rc)
		return rc;
	if (!o->render)
		return SR_OK;
	for (size_t i = 0; i < out->n; i++) {
		char script[64], image[64];

		snprintf(script, sizeof(script), "%s.gp", out->fig[i].name);
		snprintf(image, sizeof(image), "%s.%s", out->fig[i].name,
			 pl_format_ext(o->format));
		gd.code = SR_OK;
		gd.msg[0] = '\0';
		if (pl_gnuplot_run(o->gnuplot, o->outdir, script, image, &gd) == SR_OK) {
			out->fig[i].rendered = true;
			continue;
		}
		if (first_err == SR_OK) {
			first_err = gd.code;
			sr_fail(d, gd.code, "%s", gd.msg);
		}
	}
	return first_err;
}

int pl_plot_all(struct cmp_set *s, const struct pl_plot_opts *o,
		struct pl_plot_files *out, struct sr_diag *d)
{
	struct sr_madedirs made = { NULL, 0, 0 };
	int rc;

	memset(out, 0, sizeof(*out));
	if (sr_mkdirs_note(o->outdir, &made, d))
		return d->code;
	rc = plot_all(s, o, out, d);
	if (rc != SR_OK && rc != SR_ENOGNUPLOT)
		pl_plot_files_free(out);
	if (rc != SR_OK)
		sr_madedirs_undo(&made);  /* where nothing was written */
	else
		sr_madedirs_forget(&made);
	return rc;
}
