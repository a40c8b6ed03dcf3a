/*
 * plot-draw: what the plots' files share (plots/plot.c the series, the
 * figures and the scripts' frame; plots/plot-time.c priority and delay
 * over time; plots/plot-cdf.c the delay distribution; plots/plot-bars.c
 * the bars of p99 and max, and of the wait by reason;
 * plots/plot-summary.c the verdict's summary): the context of one
 * `plot`, the series collected, a kind of plot, and the helpers that
 * write a script's pieces.  Nothing outside plots/ includes it.
 */
#ifndef PL_PLOT_DRAW_H
#define PL_PLOT_DRAW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compare/style.h"
#include "lib/fmt.h"
#include "lib/outfile.h"
#include "plots/plot.h"

struct cmp_verdicts;

/* Run r's style: its policy's colour, dash and point (compare/style.h). */
static inline struct cmp_style run_style(const struct cmp_set *s, size_t r)
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

static inline struct colour run_colour(const struct cmp_set *s, size_t r)
{
	struct colour c;
	struct cmp_style st = run_style(s, r);

	memcpy(c.rgb, st.rgb, sizeof(c.rgb));
	return c;
}

/* gnuplot's dash type of run r: "solid", or a pattern. */
static inline const char *run_dash(const struct cmp_set *s, size_t r)
{
	return cmp_style_dash_gp(run_style(s, r).dash);
}

/* Line width of run r: the baseline (the first) widest, underneath, so
 * the others drawn over it leave its edges visible where they coincide. */
static inline double line_width(const struct cmp_set *s, size_t r)
{
	if (s->nruns < 2)
		return 1.6;
	return r == 0 ? 3.2 : 1.6;
}

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

static inline char *tsec(char *buf, size_t len, const struct ctx *x, int64_t t)
{
	return sr_fmt_s(buf, len, t - x->s->origin, 6);
}

static inline int open_out(struct sr_outfile **o, const struct ctx *x,
		    const char *name, const char *ext, struct sr_diag *d)
{
	return sr_outfile_open_in(o, x->o->outdir, name, ext, d);
}

/* The end of a .dat block of n rows: a row of NaN if it had none, then
   the two blank lines that end a gnuplot index block. */
static inline void end_block(FILE *f, size_t n)
{
	if (!n)
		fputs("NaN\tNaN\n", f);
	fputs("\n\n", f);
}

/* A gnuplot plot command being written: its items, each after "plot "
   (the first) or a continued line (plot_item). */
struct plotcmd {
	const char *sep;
	size_t n;
};
#define PLOTCMD_INIT { "plot ", 0 }

/* What to write before the next item; one more item. */
static inline const char *plot_item(struct plotcmd *pc)
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
	/* after the header (NULL: none), then the axes' labels (ylabel
	   with panels: ylabel_panel, when not NULL) */
	void (*setup)(FILE *f, const struct ctx *x);
	const char *xlabel, *ylabel, *ylabel_panel;
	panel_fn body;
	int multi_cols;            /* the multiplot's columns (1 or 2) */
	int multi_height;          /* per multiplot row */
};

static inline int64_t floor_ns(int64_t v)
{
	return v < PL_DELAY_FLOOR_NS ? PL_DELAY_FLOOR_NS : v;
}

/* plot.c: the figures and the scripts' frame */
struct pl_figure *pd_fig_add(struct ctx *x, const char *name,
			     const char *kind, long task);
/* One more tooltip line of fig (NULL: none kept); false when out of
 * memory. */
bool pd_tip(struct pl_figure *fig, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool pd_panel_xrange(const struct ctx *x, size_t i, int64_t *lo,
		     int64_t *hi);
void pd_panel_xrange_cmd(FILE *f, const struct ctx *x, size_t i,
			 bool *zoomed);
void pd_gp_header(FILE *f, const struct ctx *x, const char *name,
		  const char *what, int width, int height);
/* "; the recording lost N events (x %)" after title[0, o), if it did */
void pd_loss_title(const struct ctx *x, char *title, size_t len, size_t o);
void pd_multiplot_title(FILE *f, const struct ctx *x, const char *what,
			int rows, int cols);
void pd_panel_title(FILE *f, const struct cmp_task *t, const char *extra);
void pd_block_comment(FILE *f, size_t index, const struct cmp_task *t,
		      const char *policy, const char *cols);
FILE *pd_open_dat(struct sr_outfile **o, const struct ctx *x,
		  const char *name, const char *what, struct sr_diag *d);
void pd_floor_note(FILE *f, const char *before, const char *mid,
		   const char *after);
void pd_delay_range(FILE *f, char axis, int64_t top_ns);
/* The same, log scale, its tics as plain numbers. */
void pd_delay_log_axis(FILE *f, char axis, int64_t top_ns);

/* plot-time.c */
extern const struct kind pd_kind_priority, pd_kind_delay_time;
int pd_write_priority_data(const struct ctx *x, struct sr_diag *d);
int pd_write_delay_time_data(struct ctx *x, struct sr_diag *d);

/* plot-cdf.c */
extern const struct kind pd_kind_delay_cdf;
int pd_write_delay_cdf_data(struct ctx *x, struct sr_diag *d);

/* plot-bars.c */
/* Tasks for the bars: interactive ones first, then the largest p99
 * changes. */
int pd_bar_tasks(struct cmp_set *s, const struct pl_plot_opts *o,
		 long **out, size_t *n, struct sr_diag *d);
int pd_write_diff_bars(struct ctx *x, const long *tasks, size_t n,
		       struct sr_diag *d);
int pd_write_why_bars(struct ctx *x, struct sr_diag *d);

/* plot-summary.c */
int pd_write_summary(struct ctx *x, const struct cmp_verdicts *v,
		     struct sr_diag *d);

#endif
