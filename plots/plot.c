/*
 * plot: gnuplot scripts and data files, and their rendering (see plot.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/fmt.h"
#include "lib/outfile.h"
#include "plots/gnuplot.h"
#include "plots/plot.h"

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

/* A colour per run: A red, B blue, then green, purple, orange; observed grey. */
static const char *run_colour(const struct cmp_set *s, size_t r)
{
	static const char *const colours[] = {
		"#c0392b", "#1f5fa8", "#1e8449", "#8e44ad", "#d68910",
		"#17a2b8", "#7b241c", "#2c3e50",
	};

	if (!strcmp(s->runs[r].policy, "observed"))
		return "#707070";
	return colours[r % (sizeof(colours) / sizeof(colours[0]))];
}

/* Line width of run r: the first widest, so later ones drawn over it
 * leave its edges visible where they coincide. */
static double line_width(const struct cmp_set *s, size_t r)
{
	if (s->nruns < 2)
		return 1.6;
	return 1.4 + 1.8 * (double)(s->nruns - 1 - r) / (double)(s->nruns - 1);
}

/* Point type of run r in scatter plots: A open circles, B dots, ... */
static int point_type(size_t r)
{
	static const int pt[] = { 6, 7, 2, 4, 8, 1, 3, 10 };

	return pt[r % (sizeof(pt) / sizeof(pt[0]))];
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

/* ---- writing ----------------------------------------------------------- */

struct ctx {
	struct cmp_set *s;
	const struct pl_plot_opts *o;
	const long *sel;
	size_t nsel;
	struct collect *c;
	int64_t xmax_ns;  /* last time in any plotted series, since t0 */
};

static char *tsec(char *buf, size_t len, const struct ctx *x, int64_t t)
{
	return sr_fmt_s(buf, len, t - x->s->t0, 6);
}

/*
 * The x range of task i's panel, in ns since t0: the whole replay, or,
 * for a task that lived under a quarter of it, its own life with a
 * margin (else its panel is a speck).  Returns true when zoomed.
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
	*lo = 0;
	*hi = x->xmax_ns;
	if (first == INT64_MAX || (last - first) * 4 >= x->xmax_ns)
		return false;
	first -= s->t0;
	last -= s->t0;
	w = last - first;
	if (w < 10000000)
		w = 10000000;
	m = w / 20;
	*lo = first - m > 0 ? first - m : 0;
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

	fprintf(f, "# %s: %s\n", name, what);
	fputs("# Written by `schedreplay plot` from the trace ", f);
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
	fputs("set key outside right top vertical Left reverse samplen 2 spacing 1.1\n", f);
	fputs("set lmargin 12\nset rmargin 34\n", f);
}

static void multiplot_title(FILE *f, const struct ctx *x, const char *what,
			    int rows, int cols)
{
	char title[512];
	size_t o = 0;

	o += (size_t)snprintf(title + o, sizeof(title) - o, "%s: %s (", x->s->title, what);
	for (size_t r = 0; r < x->s->nruns; r++)
		o += (size_t)snprintf(title + o, sizeof(title) - o, "%s%s",
				      r ? ", " : "", x->s->runs[r].policy);
	snprintf(title + o, sizeof(title) - o, ")");
	fprintf(f, "set multiplot layout %d,%d title ", rows, cols);
	sr_gp_str(f, title);
	fputs(" font ',13'\n", f);
}

static void panel_title(FILE *f, const struct cmp_task *t, const char *extra)
{
	char lab[128];

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
	char lab[128];

	cmp_task_label(t, lab, sizeof(lab));
	fprintf(f, "# index %zu: %s under %s: %s\n", index, lab, policy, cols);
}

static int open_out(struct sr_outfile **o, const struct ctx *x,
		    const char *name, const char *ext, struct sr_diag *d)
{
	return sr_outfile_open_in(o, x->o->outdir, name, ext, d);
}

/* The interactive threshold of the O(1) models: prio <= static_prio - DELTA,
 * DELTA = nice * 10 / 40 (C truncation) + INTERACTIVE_DELTA (2). */
static int interactive_threshold(int static_prio)
{
	int nice = static_prio - 120;

	return static_prio - (nice * 10 / 40 + 2);
}

static int write_priority(const struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od, *og;
	FILE *f;
	char a[40], b[40];
	int height = 120 + 240 * (int)x->nsel;
	size_t nblocks = x->nsel * s->nruns;

	if (open_out(&od, x, "priority", "dat", d))
		return d->code;
	f = sr_outfile_fp(od);
	fputs("# schedreplay plot: priority over time, one block per task and policy\n", f);
	fputs("# time_s: seconds since the trace start; prio: the model's dynamic priority\n", f);
	fputs("# (0-139, lower is a higher priority); the last row repeats the last prio at\n# the task's last event so steps run to it.  Then as many blocks again: each\n# task's migrations to another CPU under each policy (time, prio).\n", f);
	for (size_t i = 0; i < x->nsel; i++) {
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->prio[i * s->nruns + r];

			block_comment(f, i * s->nruns + r, &s->tasks[x->sel[i]],
				      s->runs[r].policy, "time_s prio");
			for (size_t k = 0; k < p->n; k++)
				fprintf(f, "%s\t%lld\n", tsec(a, sizeof(a), x, p->p[k].t),
					(long long)p->p[k].v);
			if (p->n && p->last_t > p->p[p->n - 1].t)
				fprintf(f, "%s\t%lld\n", tsec(a, sizeof(a), x, p->last_t),
					(long long)p->p[p->n - 1].v);
			if (!p->n)
				fputs("NaN\tNaN\n", f);
			fputs("\n\n", f);
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
			if (!m->n)
				fputs("NaN\tNaN\n", f);
			fputs("\n\n", f);
		}
	}
	if (sr_outfile_commit(od, d))
		return d->code;

	if (open_out(&og, x, "priority", "gp", d))
		return d->code;
	f = sr_outfile_fp(og);
	gp_header(f, x, "priority", "each task's priority over time under each policy", 1100, height);
	fputs("set xlabel 'time since trace start (s)'\n", f);
	fputs("set ylabel 'prio (lower value = higher priority)'\n", f);
	multiplot_title(f, x, "priority over time, higher priority up", (int)x->nsel, 1);
	for (size_t i = 0; i < x->nsel; i++) {
		const struct cmp_task *t = &s->tasks[x->sel[i]];
		int sp = x->c->static_prio[i];
		int thr = sp >= 100 ? interactive_threshold(sp) : -1;
		int lo = thr >= 0 ? thr : 139, hi = thr >= 0 ? thr : 100;
		bool any = false, zoomed;
		const char *sep = "plot ";

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
			/* the first policy widest, underneath: where the
			 * lines coincide both stay visible */
			/* a lone point (one event) draws no step: a dot */
			if (p->n == 1 && p->last_t <= p->p[0].t)
				fprintf(f, "%s'priority.dat' index %zu using 1:2 with points pt 7 ps 0.8 lw %.1f lc rgb '%s' title ",
					sep, i * s->nruns + r, line_width(s, r),
					run_colour(s, r));
			else
				fprintf(f, "%s'priority.dat' index %zu using 1:2 with steps lw %.1f lc rgb '%s' title ",
					sep, i * s->nruns + r, line_width(s, r),
					run_colour(s, r));
			sr_gp_str(f, s->runs[r].policy);
			sep = ", \\\n     ";
			any = true;
		}
		/* migrations: open circles on the policy's line */
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *m = &x->c->mig[i * s->nruns + r];

			if (!m->n)
				continue;
			snprintf(b, sizeof(b), "%s: %zu migration%s",
				 s->runs[r].policy, m->n, m->n == 1 ? "" : "s");
			fprintf(f, "%s'priority.dat' index %zu using 1:2 with points pt 6 ps 1.2 lw 1.2 lc rgb '%s' title ",
				sep, nblocks + i * s->nruns + r, run_colour(s, r));
			sr_gp_str(f, b);
			sep = ", \\\n     ";
			any = true;
		}
		if (thr >= 0) {
			snprintf(b, sizeof(b), "interactive: prio <= %d", thr);
			fprintf(f, "%s%d with lines dt 2 lw 1.2 lc rgb '#333333' title ", sep, thr);
			sr_gp_str(f, b);
			any = true;
		}
		if (!any)
			fputs("plot NaN title 'no priority data'", f);
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	return sr_outfile_commit(og, d);
}

/*
 * Thin a scatter series deterministically: every k-th point, and every
 * point at or above the series' p99 so spikes always show.
 */
static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return (a > b) - (a < b);
}

static int64_t series_p99(const struct series *p)
{
	int64_t *v, r;
	size_t rank;

	if (!p->n)
		return 0;
	v = malloc(p->n * sizeof(*v));
	if (!v)
		return 0;
	for (size_t k = 0; k < p->n; k++)
		v[k] = p->p[k].v;
	qsort(v, p->n, sizeof(*v), cmp_i64);
	rank = (p->n * 99 + 99) / 100; /* nearest rank, 1-based */
	r = v[rank - 1];
	free(v);
	return r;
}

static int64_t floor_ns(int64_t v)
{
	return v < PL_DELAY_FLOOR_NS ? PL_DELAY_FLOOR_NS : v;
}

static int write_delay_time(const struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od, *og;
	FILE *f;
	char a[40], b[40];
	int64_t ymax = PL_DELAY_FLOOR_NS * 10;
	int height = 120 + 240 * (int)x->nsel;

	if (open_out(&od, x, "delay-time", "dat", d))
		return d->code;
	f = sr_outfile_fp(od);
	fputs("# schedreplay plot: scheduling delay of each wait, one block per task and policy\n", f);
	fputs("# time_s: when the wait began (wakeup, preemption or fork), seconds since the\n", f);
	fprintf(f, "# trace start; delay_ms: until it ran.  Delays under %s ms are written as %s\n",
		sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3), a);
	fprintf(f, "# (log axis).  A series of more than %d waits is thinned: every k-th wait and\n# every wait at or above the series' p99 are kept.\n", PL_SCATTER_MAX);
	for (size_t i = 0; i < x->nsel; i++) {
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->delay[i * s->nruns + r];
			size_t k = p->n > PL_SCATTER_MAX ? (p->n + PL_SCATTER_MAX - 1) / PL_SCATTER_MAX : 1;
			int64_t p99 = k > 1 ? series_p99(p) : 0;

			block_comment(f, i * s->nruns + r, &s->tasks[x->sel[i]],
				      s->runs[r].policy, "time_s delay_ms");
			if (k > 1)
				fprintf(f, "# thinned: every %zu-th of %zu waits, and all >= %s ms\n", k, p->n,
					sr_fmt_ms(a, sizeof(a), p99, 6));
			for (size_t j = 0; j < p->n; j++) {
				if (k > 1 && j % k && p->p[j].v < p99)
					continue;
				if (p->p[j].v > ymax)
					ymax = p->p[j].v;
				fprintf(f, "%s\t%s\n", tsec(a, sizeof(a), x, p->p[j].t),
					sr_fmt_ms(b, sizeof(b), floor_ns(p->p[j].v), 6));
			}
			if (!p->n)
				fputs("NaN\tNaN\n", f);
			fputs("\n\n", f);
		}
	}
	if (sr_outfile_commit(od, d))
		return d->code;

	if (open_out(&og, x, "delay-time", "gp", d))
		return d->code;
	f = sr_outfile_fp(og);
	gp_header(f, x, "delay-time", "each wait's scheduling delay over time, per task and policy", 1100, height);
	fputs("set logscale y 10\n", f);
	fprintf(f, "set yrange [%s:%s]\n", sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3),
		sr_fmt_ms(b, sizeof(b), ymax * 3, 3));
	fputs("set format y '%g'\n", f);
	fputs("set xlabel 'time since trace start (s)'\n", f);
	fputs("set ylabel 'scheduling delay (ms, log)'\n", f);
	fputs("set key invert\n", f);
	multiplot_title(f, x, "scheduling delay of each wait over time", (int)x->nsel, 1);
	for (size_t i = 0; i < x->nsel; i++) {
		const char *sep = "plot ";
		bool any = false, zoomed;

		panel_xrange_cmd(f, x, i, &zoomed);
		panel_title(f, &s->tasks[x->sel[i]],
			    zoomed ? "delay of each wait, zoomed to its life (under 1 us drawn at 0.001 ms)"
				   : "delay of each wait (under 1 us drawn at 0.001 ms)");
		/* the last policy first, so the first (open circles) lies on
		 * top of the others' dots; `set key invert` keeps A first */
		for (size_t rr = s->nruns; rr-- > 0;) {
			size_t r = rr;
			const struct series *p = &x->c->delay[i * s->nruns + r];
			char t[96];

			if (!p->n)
				continue;
			/* gnuplot colours: #AARRGGBB, AA = transparency */
			fprintf(f, "%s'delay-time.dat' index %zu using 1:2 with points pt %d ps %s lc rgb '#%s%s' title ",
				sep, i * s->nruns + r, point_type(r),
				point_type(r) == 7 ? "0.4" : "0.7",
				point_type(r) == 7 ? "50" : "20",
				run_colour(s, r) + 1);
			snprintf(t, sizeof(t), "%s (%zu waits)", s->runs[r].policy, p->n);
			sr_gp_str(f, t);
			sep = ", \\\n     ";
			any = true;
		}
		if (!any)
			fputs("plot NaN title 'no waits'", f);
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	return sr_outfile_commit(og, d);
}

static int write_delay_cdf(const struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od, *og;
	FILE *f;
	char a[40], b[40];
	int64_t xmax = PL_DELAY_FLOOR_NS * 10;
	int rows = ((int)x->nsel + 1) / 2, cols = x->nsel > 1 ? 2 : 1;
	int height = 120 + 300 * rows;

	if (open_out(&od, x, "delay-cdf", "dat", d))
		return d->code;
	f = sr_outfile_fp(od);
	fputs("# schedreplay plot: distribution of scheduling delays, one block per task and policy\n", f);
	fprintf(f, "# delay_ms (under %s ms written as %s, log axis); fraction: share of the\n",
		sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3), a);
	fprintf(f, "# task's waits with a delay <= delay_ms.  Above %d waits, %d points evenly\n"
		   "# spaced in rank below p99 and %d in the top 1%% are kept.\n",
		2 * PL_CDF_POINTS, PL_CDF_POINTS, PL_CDF_POINTS);
	for (size_t i = 0; i < x->nsel; i++) {
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->delay[i * s->nruns + r];
			int64_t *v = p->n ? malloc(p->n * sizeof(*v)) : NULL;
			size_t last = (size_t)-1;

			block_comment(f, i * s->nruns + r, &s->tasks[x->sel[i]],
				      s->runs[r].policy, "delay_ms fraction");
			if (p->n && !v) {
				sr_outfile_abort(od);
				return sr_fail(d, SR_EINTERNAL, "out of memory");
			}
			for (size_t k = 0; k < p->n; k++)
				v[k] = p->p[k].v;
			if (p->n) {
				qsort(v, p->n, sizeof(*v), cmp_i64);
				/* the rise from 0 at the shortest delay */
				fprintf(f, "%s\t0\n",
					sr_fmt_ms(a, sizeof(a), floor_ns(v[0]), 6));
			}
			for (size_t j = 0; j < 2 * (size_t)PL_CDF_POINTS + 1 && p->n; j++) {
				/* rank (0-based) of the j-th kept point */
				size_t k;

				if (p->n <= 2 * (size_t)PL_CDF_POINTS) {
					if (j >= p->n)
						break;
					k = j;
				} else if (j < PL_CDF_POINTS) {
					k = (size_t)((double)j * 0.99 * (double)p->n / PL_CDF_POINTS);
				} else {
					size_t base = (size_t)(0.99 * (double)p->n);

					k = base + (size_t)((double)(j - PL_CDF_POINTS) *
							    (double)(p->n - 1 - base) / PL_CDF_POINTS);
				}
				if (k >= p->n)
					k = p->n - 1;
				if (last != (size_t)-1 && k <= last)
					continue;
				/* the last of equal values gives the step's top */
				while (k + 1 < p->n && v[k + 1] == v[k])
					k++;
				last = k;
				if (v[k] > xmax)
					xmax = v[k];
				fprintf(f, "%s\t%.6f\n",
					sr_fmt_ms(a, sizeof(a), floor_ns(v[k]), 6),
					(double)(k + 1) / (double)p->n);
			}
			if (!p->n)
				fputs("NaN\tNaN\n", f);
			fputs("\n\n", f);
			free(v);
		}
	}
	if (sr_outfile_commit(od, d))
		return d->code;

	if (open_out(&og, x, "delay-cdf", "gp", d))
		return d->code;
	f = sr_outfile_fp(og);
	gp_header(f, x, "delay-cdf", "distribution of scheduling delays per task and policy, p99 marked", 1100, height);
	fputs("set rmargin 3\nset lmargin 10\n", f);
	fputs("set key inside right bottom vertical Left reverse samplen 2 opaque box lc rgb '#c0c0c0'\n", f);
	fputs("set logscale x 10\n", f);
	fprintf(f, "set xrange [%s:%s]\n", sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3),
		sr_fmt_ms(b, sizeof(b), xmax * 3, 3));
	fputs("set format x '%g'\n", f);
	fputs("set yrange [0:1.05]\nset ytics 0.1\n", f);
	fputs("set xlabel 'scheduling delay (ms, log)'\n", f);
	fputs("set ylabel 'fraction of waits <= delay'\n", f);
	multiplot_title(f, x, "distribution of scheduling delays, p99 marked", rows, cols);
	for (size_t i = 0; i < x->nsel; i++) {
		const struct cmp_task *t = &s->tasks[x->sel[i]];
		const char *sep = "plot ";
		bool any = false;

		panel_title(f, t, "delays, CDF");
		fputs("unset arrow\nunset label\n", f);
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->delay[i * s->nruns + r];

			if (!p->n)
				continue;
			sr_fmt_ms(a, sizeof(a), floor_ns(t->figs[r].p99_ns), 6);
			fprintf(f, "set arrow from %s, graph 0 to %s, first 0.99 nohead dt 3 lw 1.5 lc rgb '%s'\n",
				a, a, run_colour(s, r));
			fprintf(f, "set label '' at %s, first 0.99 point pt 7 ps 1.4 lc rgb '%s'\n",
				a, run_colour(s, r));
		}
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->delay[i * s->nruns + r];
			char ttl[128];

			if (!p->n)
				continue;
			fprintf(f, "%s'delay-cdf.dat' index %zu using 1:2 with steps lw 2 lc rgb '%s' title ",
				sep, i * s->nruns + r, run_colour(s, r));
			snprintf(ttl, sizeof(ttl), "%s: p99 %s ms", s->runs[r].policy,
				 sr_fmt_ms(a, sizeof(a), t->figs[r].p99_ns, 3));
			sr_gp_str(f, ttl);
			sep = ", \\\n     ";
			any = true;
		}
		if (any)
			fprintf(f, "%s0.99 with lines dt 3 lc rgb '#999999' title 'p99 (0.99)'", sep);
		else
			fputs("plot NaN title 'no waits'", f);
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	return sr_outfile_commit(og, d);
}

static void bar_label(char *out, size_t len, const struct cmp_task *t)
{
	char lab[128];

	cmp_task_label(t, lab, sizeof(lab));
	snprintf(out, len, "%s", lab);
}

static int write_diff_bars(const struct ctx *x, const long *tasks, size_t n,
			   struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od, *og;
	FILE *f;
	char a[40], b[40];
	int64_t ymax = PL_DELAY_FLOOR_NS * 10;
	double w = 0.8 / (double)s->nruns;
	int width = 260 + 110 * (int)n;
	static const struct {
		const char *what;
		int col;
	} panels[] = { { "p99 scheduling delay", 4 }, { "max scheduling delay", 5 } };

	if (width < 1000)
		width = 1000;
	if (open_out(&od, x, "diff-bars", "dat", d))
		return d->code;
	f = sr_outfile_fp(od);
	fputs("# schedreplay plot: p99 and max scheduling delay per task, one block per policy\n", f);
	fprintf(f, "# x: bar centre (task number + offset of the policy); delays in ms, under\n# %s ms written as %s (log axis)\n",
		sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3), a);
	for (size_t r = 0; r < s->nruns; r++) {
		fprintf(f, "# index %zu: %s: task_no task x p99_ms max_ms p99_ms_exact max_ms_exact\n",
			r, s->runs[r].policy);
		for (size_t i = 0; i < n; i++) {
			const struct cmp_task *t = &s->tasks[tasks[i]];
			const struct cmp_figs *fg = &t->figs[r];
			char lab[128];
			double xc = (double)i + ((double)r - (double)(s->nruns - 1) / 2.0) * w;

			if (!fg->present)
				continue;
			bar_label(lab, sizeof(lab), t);
			for (char *q = lab; *q; q++)
				if (*q == '"' || *q == '\t')
					*q = '\'';
			if (fg->max_ns > ymax)
				ymax = fg->max_ns;
			fprintf(f, "%zu\t\"%s\"\t%.4f\t%s\t", i, lab, xc,
				sr_fmt_ms(a, sizeof(a), floor_ns(fg->p99_ns), 6));
			fprintf(f, "%s\t", sr_fmt_ms(b, sizeof(b), floor_ns(fg->max_ns), 6));
			fprintf(f, "%s\t", sr_fmt_ms(a, sizeof(a), fg->p99_ns, 6));
			fprintf(f, "%s\n", sr_fmt_ms(b, sizeof(b), fg->max_ns, 6));
		}
		fputs("NaN\tNaN\tNaN\tNaN\tNaN\tNaN\tNaN\n\n\n", f);
	}
	if (sr_outfile_commit(od, d))
		return d->code;

	if (open_out(&og, x, "diff-bars", "gp", d))
		return d->code;
	f = sr_outfile_fp(og);
	gp_header(f, x, "diff-bars", "p99 and max scheduling delay per task, the policies side by side", width, 900);
	fputs("set rmargin 4\nset lmargin 12\nset bmargin 9\n", f);
	fputs("set key outside top center horizontal samplen 2\n", f);
	fputs("set logscale y 10\nset format y '%g'\n", f);
	fprintf(f, "set yrange [%s:%s]\n", sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3),
		sr_fmt_ms(b, sizeof(b), ymax * 6, 3));
	fprintf(f, "set xrange [-0.6:%zu.6]\n", n ? n - 1 : 0);
	fputs("set grid noxtics ytics\n", f);
	fputs("set ylabel 'delay (ms, log)'\n", f);
	fputs("set xlabel 'task (comm and pid)'\n", f);
	fputs("set xtics rotate by 30 right nomirror (", f);
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
	multiplot_title(f, x, "p99 and max scheduling delay per task", 2, 1);
	for (size_t pi = 0; pi < 2; pi++) {
		const char *sep = "plot ";

		fputs("set title ", f);
		sr_gp_str(f, panels[pi].what);
		fputc('\n', f);
		for (size_t r = 0; r < s->nruns; r++) {
			fprintf(f, "%s'diff-bars.dat' index %zu using 3:%d:($3-w/2):($3+w/2):(%s):%d with boxxyerror lc rgb '%s' title ",
				sep, r, panels[pi].col,
				sr_fmt_ms(a, sizeof(a), PL_DELAY_FLOOR_NS, 3),
				panels[pi].col, run_colour(s, r));
			sr_gp_str(f, s->runs[r].policy);
			sep = ", \\\n     ";
			fprintf(f, "%s'diff-bars.dat' index %zu using 3:%d:($%d >= 100 ? sprintf('%%.0f', $%d) : sprintf('%%.3g', $%d)) with labels offset 0,0.7 font ',8' tc rgb '%s' notitle",
				sep, r, panels[pi].col, panels[pi].col + 2,
				panels[pi].col + 2, panels[pi].col + 2,
				run_colour(s, r));
		}
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	return sr_outfile_commit(og, d);
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

static int plot_all(struct cmp_set *s, const struct pl_plot_opts *o,
		    struct pl_plot_files *out, struct sr_diag *d)
{
	struct collect c;
	struct ctx x = { .s = s, .o = o };
	long *sel = NULL, *bars = NULL;
	size_t nsel = 0, nbars = 0;
	int rc, first_err = SR_OK;
	struct sr_diag gd = SR_DIAG_INIT;
	static const struct {
		const char *name;
		const char *caption;
	} plots[PL_NPLOTS] = {
		{ "priority", "Priority over time: the model's dynamic priority of each task under each policy (steps; higher priority is up; dashed: the interactive threshold; open circles: the task moved to another CPU)." },
		{ "delay-time", "Scheduling delay of every wait over time (log scale), a colour per policy: spikes are the stalls a user notices." },
		{ "delay-cdf", "Distribution of scheduling delays (CDF, log scale) per task and policy; the dots and dotted lines mark each policy's p99." },
		{ "diff-bars", "p99 and max scheduling delay per task, the policies side by side (log scale)." },
	};

	memset(out, 0, sizeof(*out));
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
	out->ntasks = nsel;
	if (rc == SR_OK) {
		x.xmax_ns = s->have_t ? s->t1 - s->t0 : 0;
		for (size_t i = 0; i < nsel * s->nruns; i++) {
			if (c.prio[i].seen && c.prio[i].last_t - s->t0 > x.xmax_ns)
				x.xmax_ns = c.prio[i].last_t - s->t0;
			for (size_t k = 0; k < c.delay[i].n; k++)
				if (c.delay[i].p[k].t - s->t0 > x.xmax_ns)
					x.xmax_ns = c.delay[i].p[k].t - s->t0;
		}
		if (x.xmax_ns <= 0)
			x.xmax_ns = 1000000000;
		rc = write_priority(&x, d);
	}
	if (rc == SR_OK)
		rc = write_delay_time(&x, d);
	if (rc == SR_OK)
		rc = write_delay_cdf(&x, d);
	if (rc == SR_OK && s->nruns > 1)
		rc = write_diff_bars(&x, bars, nbars, d);
	collect_free(&c);
	free(sel);
	free(bars);
	if (rc)
		return rc;
	for (size_t i = 0; i < PL_NPLOTS; i++) {
		if (i == 3 && s->nruns < 2)
			continue;
		snprintf(out->name[out->n], sizeof(out->name[0]), "%s", plots[i].name);
		snprintf(out->caption[out->n], sizeof(out->caption[0]), "%s", plots[i].caption);
		out->n++;
	}
	if (!o->render)
		return SR_OK;
	for (size_t i = 0; i < out->n; i++) {
		char script[64], image[64];

		snprintf(script, sizeof(script), "%s.gp", out->name[i]);
		snprintf(image, sizeof(image), "%s.%s", out->name[i], pl_format_ext(o->format));
		gd.code = SR_OK;
		gd.msg[0] = '\0';
		if (pl_gnuplot_run(o->gnuplot, o->outdir, script, image, &gd) == SR_OK) {
			out->rendered[i] = true;
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

	if (sr_mkdirs_note(o->outdir, &made, d))
		return d->code;
	rc = plot_all(s, o, out, d);
	if (rc != SR_OK)
		sr_madedirs_undo(&made);  /* where nothing was written */
	else
		sr_madedirs_forget(&made);
	return rc;
}
