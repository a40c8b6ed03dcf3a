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
#include "parse/read-warn.h"
#include "plots/gnuplot.h"
#include "plots/plot-draw.h"
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

/* ---- collecting the selected tasks' series ----------------------------- */

static int push(struct series *x, int64_t t, int64_t v, struct sr_diag *d)
{
	if (x->n == x->cap) {
		struct pt *p = sr_grow(x->p, &x->cap, x->n, sizeof(*p), 64, 0);

		if (!p)
			return sr_oom(d);
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
		return sr_oom(d);
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

/* A new figure of out (its tips empty); NULL when out of memory. */
struct pl_figure *pd_fig_add(struct ctx *x, const char *name,
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

bool pd_tip(struct pl_figure *fig, const char *fmt, ...)
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
	if (!t) {
		fig->tips_lost = true; /* said before the figures are used */
		return false;
	}
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

/*
 * The x range of task i's panel, in ns since the origin: what the plots
 * show (the replay, or the window), or, for a task that lived under a
 * quarter of it, its own life with a margin (else its panel is a speck).
 * Returns true when zoomed.
 */
bool pd_panel_xrange(const struct ctx *x, size_t i, int64_t *lo,
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

void pd_panel_xrange_cmd(FILE *f, const struct ctx *x, size_t i,
			     bool *zoomed)
{
	int64_t lo, hi;
	char a[40], b[40];

	*zoomed = pd_panel_xrange(x, i, &lo, &hi);
	fprintf(f, "set xrange [%s:%s]\n", sr_fmt_s(a, sizeof(a), lo, 6),
		sr_fmt_s(b, sizeof(b), hi, 6));
}

void pd_gp_header(FILE *f, const struct ctx *x, const char *name,
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

void pd_loss_title(const struct ctx *x, char *title, size_t len, size_t o)
{
	char brief[128];

	if (!x->s->loss || o >= len)
		return;
	sr_loss_brief(x->s->loss, brief, sizeof(brief));
	if (*brief)
		snprintf(title + o, len - o, "; %s", brief);
}

void pd_multiplot_title(FILE *f, const struct ctx *x, const char *what,
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
		o += (size_t)snprintf(title + o, sizeof(title) - o, ")");
	pd_loss_title(x, title, sizeof(title), o);
	fprintf(f, "set multiplot layout %d,%d title ", rows, cols);
	sr_gp_str(f, title);
	fputs(" font ',13'\n", f);
}

void pd_panel_title(FILE *f, const struct cmp_task *t, const char *extra)
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

void pd_block_comment(FILE *f, size_t index, const struct cmp_task *t,
			  const char *policy, const char *cols)
{
	char lab[128], clean[128];

	/* a comment line of a .dat file: a newline in a name would make the
	 * rest of it a row */
	cmp_task_label(t, lab, sizeof(lab));
	fprintf(f, "# index %zu: %s under %s: %s\n", index,
		sr_comm_clean(clean, sizeof(clean), lab), policy, cols);
}

/* NAME.dat opened, its first line saying what it holds: its stream, or
   NULL (d filled). */
FILE *pd_open_dat(struct sr_outfile **o, const struct ctx *x,
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
void pd_floor_note(FILE *f, const char *before, const char *mid,
		       const char *after)
{
	char a[40];

	sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3);
	fprintf(f, "%s%s%s%s%s", before, a, mid, a, after);
}

/* A delay axis (axis x or y) from the floor of a log scale to top_ns. */
void pd_delay_range(FILE *f, char axis, int64_t top_ns)
{
	char a[40], b[40];

	fprintf(f, "set %crange [%s:%s]\n", axis,
		sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3),
		sr_fmt_ms(b, sizeof(b), top_ns, 3));
}

void pd_delay_log_axis(FILE *f, char axis, int64_t top_ns)
{
	fprintf(f, "set logscale %c 10\n", axis);
	pd_delay_range(f, axis, top_ns);
	fprintf(f, "set format %c '%%g'\n", axis);
}

/* What every panel of kind k shares: its setup, its axes' labels. */
static void kind_setup(FILE *f, const struct ctx *x, const struct kind *k)
{
	const char *yl = x->o->panels && k->ylabel_panel ? k->ylabel_panel
							 : k->ylabel;

	if (k->setup)
		k->setup(f, x);
	fprintf(f, "set xlabel '%s'\nset ylabel '%s'\n", k->xlabel, yl);
}

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
		pd_tip(fig, "%s: %s", lab, k->none);
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
		struct pl_figure *fig = pd_fig_add(x, k->name, k->name, -1);

		if (!fig)
			return sr_oom(d);
		snprintf(fig->title, sizeof(fig->title), "%s", k->title);
		snprintf(fig->caption, sizeof(fig->caption), "%s", k->caption);
		if (open_out(&og, x, k->name, "gp", d))
			return d->code;
		f = sr_outfile_fp(og);
		pd_gp_header(f, x, k->name, k->what, 1100, 120 + k->multi_height * rows);
		kind_setup(f, x, k);
		pd_multiplot_title(f, x, k->title, rows, cols);
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
		if (!(fig = pd_fig_add(x, name, k->name, x->sel[i])))
			return sr_oom(d);
		cmp_task_label(t, lab, sizeof(lab));
		snprintf(fig->title, sizeof(fig->title), "%s: %s", lab,
			 k->title);
		snprintf(fig->caption, sizeof(fig->caption), "%s", k->caption);
		if (open_out(&og, x, name, "gp", d))
			return d->code;
		f = sr_outfile_fp(og);
		pd_gp_header(f, x, name, k->what, PL_PANEL_WIDTH, PL_PANEL_HEIGHT);
		fprintf(f, "# the data: %s.dat, task %zu's blocks\n", k->name,
			i + 1);
		kind_setup(f, x, k);
		panel(f, x, k, i, fig);
		if (sr_outfile_commit(og, d))
			return d->code;
	}
	return SR_OK;
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

	if (pd_bar_tasks(s, o, &bars, &nbars, d))
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
		rc = pd_write_priority_data(&x, d);
	}
	if (rc == SR_OK)
		rc = write_scripts(&x, &pd_kind_priority, d);
	if (rc == SR_OK)
		rc = pd_write_delay_time_data(&x, d);
	if (rc == SR_OK)
		rc = write_scripts(&x, &pd_kind_delay_time, d);
	if (rc == SR_OK)
		rc = pd_write_delay_cdf_data(&x, d);
	if (rc == SR_OK)
		rc = write_scripts(&x, &pd_kind_delay_cdf, d);
	if (rc == SR_OK && s->nruns > 1)
		rc = pd_write_diff_bars(&x, bars, nbars, d);
	if (rc == SR_OK)
		rc = pd_write_why_bars(&x, d);
	if (rc == SR_OK && s->nruns > 1 && !o->panels) {
		struct cmp_verdicts *v = calloc(1, sizeof(*v));

		rc = v ? cmp_verdict_build(v, s, 0, 1, d) :
			 sr_oom(d);
		if (rc == SR_OK)
			rc = pd_write_summary(&x, v, d);
		free(v);
	}
	collect_free(&c);
	free(bars);
	for (size_t i = 0; rc == SR_OK && i < out->n; i++)
		if (out->fig[i].tips_lost)
			rc = sr_fail(d, SR_ENOMEM, "out of memory (the tooltips "
				     "of %s)", out->fig[i].name);
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
