/*
 * plot-summary: summary.png, the verdict of B against A, a panel per
 * group of tasks with the figure its word follows from.
 */
#include "compare/verdict.h"
#include "plots/gnuplot.h"
#include "plots/plot-draw.h"

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
int pd_write_summary(struct ctx *x, const struct cmp_verdicts *v,
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
	f = pd_open_dat(&od, x, "summary",
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
	if (!(fig = pd_fig_add(x, "summary", "summary", -1)))
		return sr_oom(d);
	snprintf(fig->title, sizeof(fig->title), "%s: %s against %s, per group of tasks",
		 s->title, s->runs[v->b].policy, s->runs[v->a].policy);
	snprintf(fig->caption, sizeof(fig->caption), "The verdict per group of tasks: the figure each word follows from, under each policy (docs/why.md, \"The rule\").");
	if (open_out(&og, x, "summary", "gp", d))
		return d->code;
	f = sr_outfile_fp(og);
	pd_gp_header(f, x, "summary", "the verdict per group of tasks, A against B",
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
	pd_loss_title(x, title, sizeof(title),
		      (size_t)snprintf(title, sizeof(title), "%s: %s against %s, "
				       "per group of tasks", s->title,
				       s->runs[v->b].policy,
				       s->runs[v->a].policy));
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
			pd_tip(fig, "%s under %s: %s", g->name, s->runs[r].policy, txt[k]);
		}
		fprintf(f, ", \\\n     'summary.dat' index %zu using 2:1:3 with labels left offset 0.6,0 textcolor rgb '#202020'\n", i);
		pd_tip(fig, "%s: the values", g->name);
		if (i == 0)
			fputs("unset label 1\n", f);
	}
	fputs("unset multiplot\n", f);
	return sr_outfile_commit(og, d);
}
