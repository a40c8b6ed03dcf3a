/*
 * plot-cdf: the distribution of scheduling delays, a CDF per task and
 * policy on a log delay axis and a "nines" axis, p99 marked.
 */
#include <math.h>
#include <stdlib.h>

#include "lib/qsort.h"
#include "lib/rank.h"
#include "plots/gnuplot.h"
#include "plots/plot-draw.h"

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
		sr_qsort(v, p->n, sizeof(*v), sr_cmp_i64);
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

int pd_write_delay_cdf_data(struct ctx *x, struct sr_diag *d)
{
	struct cmp_set *s = x->s;
	struct sr_outfile *od;
	FILE *f;
	size_t body = x->o->panels ? PL_PANEL_CDF_POINTS : PL_CDF_POINTS;
	size_t tail = x->o->panels ? PL_PANEL_CDF_POINTS / 2 : PL_CDF_POINTS;

	x->cdf_xmax = PL_DELAY_FLOOR_NS * 10;
	x->cdf_nines = 2;
	f = pd_open_dat(&od, x, "delay-cdf",
		     "distribution of scheduling delays, one block per task and policy", d);
	if (!f)
		return d->code;
	pd_floor_note(f, "# delay_ms (under ", " ms written as ",
		   ", log axis); fraction: share of the\n");
	fprintf(f, "# task's waits with a delay <= delay_ms; nines: -log10(1 - fraction), the\n"
		   "# axis drawn (1: 90%%, 2: 99%%, 3: 99.9%%; the longest wait at -log10(0.5/n)).\n"
		   "# Above %zu waits, %zu points evenly spaced in rank below p99 and %zu in the\n"
		   "# top 1%% are kept.\n", 2 * body, body, tail);
	for (size_t i = 0; i < x->nsel; i++) {
		for (size_t r = 0; r < s->nruns; r++) {
			const struct series *p = &x->c->delay[i * s->nruns + r];
			int64_t top;

			pd_block_comment(f, i * s->nruns + r, &s->tasks[x->sel[i]],
				      s->runs[r].policy, "delay_ms fraction nines");
			if ((top = write_cdf(f, p, body, tail, &x->cdf_nines)) < 0) {
				sr_outfile_abort(od);
				return sr_oom(d);
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
	pd_delay_log_axis(f, 'x', x->cdf_xmax * 3);
	fprintf(f, "set yrange [0:%.2f]\n", x->cdf_nines + 0.15);
	fputs("set ytics (", f);
	for (int k = 0; k <= top; k++)
		fprintf(f, "%s'%s' %d", k ? ", " : "", pct[k], k);
	fputs(")\n", f);
}

static void delay_cdf_body(FILE *f, const struct ctx *x, size_t i,
			   struct pl_figure *fig, struct plotcmd *pc)
{
	struct cmp_set *s = x->s;
	const struct cmp_task *t = &s->tasks[x->sel[i]];
	char a[40], lab[128];

	cmp_task_label(t, lab, sizeof(lab));
	pd_panel_title(f, t, "delays, CDF");
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
		pd_tip(fig, "%s under %s: share of its %zu waits no longer than each delay (p99 %s ms)",
		    lab, s->runs[r].policy, p->n, a);
	}
	if (pc->n) {
		fprintf(f, "%s2 with lines dt 3 lc rgb '#999999' title 'p99 (99%%)'",
			plot_item(pc));
		pd_tip(fig, "the 99th percentile: 99%% of the waits were no longer");
	}
}

const struct kind pd_kind_delay_cdf = {
	.name = "delay-cdf",
	.what = "distribution of scheduling delays per task and policy, p99 marked",
	.title = "distribution of scheduling delays, p99 marked",
	.caption = "Distribution of scheduling delays per task and policy (CDF: the share of waits at most each delay, on a log delay axis and a 90 / 99 / 99.9 % axis, so the tail shows); the dots and dotted lines mark each policy's p99.",
	.none = "no waits",
	.setup = delay_cdf_setup,
	.xlabel = "scheduling delay (ms, log)",
	.ylabel = "waits at most this long",
	.body = delay_cdf_body,
	.multi_cols = 2,
	.multi_height = 300,
};
