/*
 * heatmap: the sweep's heat maps (compare/sweep.h has the grid and each
 * job's figures): one figure over two knobs, a map per trace and policy,
 * DIR/heatmap-TRACE-POLICY-FIGURE.gp and .dat drawn into .png.
 */
#include <stdio.h>
#include <string.h>

#include "lib/fmt.h"
#include "lib/outfile.h"
#include "plots/gnuplot.h"
#include "plots/heatmap.h"

static size_t value_index(const struct cmp_sweep_axis *ax, long v)
{
	for (size_t i = 0; i < ax->nvalues; i++)
		if (ax->values[i] == v)
			return i;
	return 0;
}

static void gp_tics(FILE *f, const char *which, const struct cmp_sweep_axis *ax)
{
	fprintf(f, "set %s (", which);
	for (size_t i = 0; i < ax->nvalues; i++)
		fprintf(f, "%s\"%ld\" %zu", i ? ", " : "", ax->values[i], i);
	fputs(")\n", f);
}


/* Map name's .dat and .gp: the figures of the jobs of job i's trace and
 * policy (from i on), over the axes and figure of h. */
static int write_map(const struct cmp_sweep *sw, size_t i, const char *outdir,
		     const struct cmp_sweep_heat *h, const char *name,
		     struct sr_diag *d)
{
	const struct cmp_sweep_job *j = &sw->jobs[i];
	const char *x = h->x, *y = h->y, *fname = h->fname;
	int ax = h->ax, ay = h->ay, fi = h->fi;
	struct sr_outfile *dat, *gp;
	char buf[1024];
	char *fig[CMP_SWEEP_NFIGS];

	if (sr_outfile_open_in(&dat, outdir, name, "dat", d))
		return d->code;
	fprintf(sr_outfile_fp(dat), "# %s index, %s index, %s\n", x, y,
		fname);
	for (size_t k = i; k < sw->njobs; k++) {
		const struct cmp_sweep_job *m = &sw->jobs[k];
		bool ok;

		if (strcmp(m->tkey, j->tkey) ||
		    strcmp(m->policy, j->policy))
			continue;
		if (cmp_sweep_job_figures(m, buf, sizeof(buf), fig, &ok,
					  d)) {
			sr_outfile_abort(dat);
			return d->code;
		}
		if (!ok || !strcmp(fig[fi], "-"))
			continue;
		fprintf(sr_outfile_fp(dat), "%zu %zu %s\n",
			value_index(&sw->axes[ax], m->value[ax]),
			value_index(&sw->axes[ay], m->value[ay]),
			fig[fi]);
	}
	if (sr_outfile_commit(dat, d) ||
	    sr_outfile_open_in(&gp, outdir, name, "gp", d))
		return d->code;
	{
		FILE *f = sr_outfile_fp(gp);
		char file[240];

		/* every name a string literal (a trace's file name
		 * is the user's): also in the comment, where a
		 * trailing backslash would continue it */
		fputs("# ", f);
		sr_gp_str(f, name);
		fprintf(f, ": %s over %s and %s, written by "
			"`schedreplay sweep`\n", fname, x, y);
		snprintf(file, sizeof(file), "%s.png", name);
		fputs("if (!exists(\"outfile\")) outfile = ", f);
		sr_gp_str(f, file);
		fputc('\n', f);
		fputs("set terminal pngcairo size 800,600 noenhanced "
		      "font 'Sans,10' background '#ffffff'\n", f);
		fputs("set output outfile\nset title ", f);
		sr_gp_str(f, j->tkey);
		fputs(" . ', ' . ", f);
		sr_gp_str(f, j->policy);
		fputs(" . ': ' . ", f);
		sr_gp_str(f, fname);
		fputs("\nset xlabel ", f);
		sr_gp_str(f, x);
		fputs("\nset ylabel ", f);
		sr_gp_str(f, y);
		fputc('\n', f);
		gp_tics(f, "xtics", &sw->axes[ax]);
		gp_tics(f, "ytics", &sw->axes[ay]);
		fprintf(f, "set xrange [-0.5:%zu.5]\nset yrange "
			"[-0.5:%zu.5]\n", sw->axes[ax].nvalues - 1,
			sw->axes[ay].nvalues - 1);
		fputs("set palette defined (0 '#2166ac', 1 '#f7f7f7', "
		      "2 '#b2182b')\nset cblabel ", f);
		sr_gp_str(f, fname);
		snprintf(file, sizeof(file), "%s.dat", name);
		fputs("\nplot ", f);
		sr_gp_str(f, file);
		fputs(" using 1:2:3 with image notitle, '' using "
		      "1:2:(sprintf('%g', $3)) with labels notitle\n",
		      f);
		if (sr_outfile_commit(gp, d))
			return d->code;
	}
	return SR_OK;
}

/* The map of job i's trace and policy, named in name; false if job i is
 * not the first of them, or lacks one of the knobs. */
static bool map_of(const struct cmp_sweep *sw, size_t i,
		   const struct cmp_sweep_heat *h, char *name, size_t len)
{
	const struct cmp_sweep_job *j = &sw->jobs[i];

	if (!j->has[h->ax] || !j->has[h->ay])
		return false;
	/* the first job of its trace and policy draws their map */
	for (size_t k = 0; k < i; k++)
		if (!strcmp(sw->jobs[k].tkey, j->tkey) &&
		    !strcmp(sw->jobs[k].policy, j->policy))
			return false;
	snprintf(name, len, "heatmap-%s-%s-%s", j->tkey, j->policy, h->fname);
	return true;
}

int pl_sweep_heatmap(const struct cmp_sweep *sw, const char *outdir,
		     const struct cmp_sweep_heat *h, const char *gnuplot,
		     struct sr_diag *d)
{
	char name[200], script[240], image[240];
	int rc;

	/* every map's script and data first, then each drawn: when gnuplot
	 * fails on one, all of them are there to draw by hand */
	for (size_t i = 0; i < sw->njobs; i++)
		if (map_of(sw, i, h, name, sizeof(name)) &&
		    (rc = write_map(sw, i, outdir, h, name, d)))
			return rc;
	for (size_t i = 0; i < sw->njobs; i++) {
		if (!map_of(sw, i, h, name, sizeof(name)))
			continue;
		/* both named in outdir, where gnuplot runs */
		snprintf(script, sizeof(script), "%s.gp", name);
		snprintf(image, sizeof(image), "%s.png", name);
		if ((rc = pl_gnuplot_run(gnuplot, outdir, script, image, d)))
			return rc;
	}
	return SR_OK;
}
