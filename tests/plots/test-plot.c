/*
 * test-plot: every plot of the hand-written replay tests/compare/data/
 * hogplayer, rendered by the real gnuplot: scripts and data written and
 * byte-identical across runs, PNGs that decode and hold both policies'
 * colours, SVG and PDF that are what they claim; and without a working
 * gnuplot, the scripts and data still written, no image, status 69 and a
 * message saying how to install it.  Skipped when gnuplot is not on PATH.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare/load.h"
#include "compare/runset.h"
#include "plots/plot.h"
#include "tests/lib/png.h"
#include "tests/lib/test.h"
#include "tests/plots/plotstest.h"

#define FIXTURE "tests/compare/data/hogplayer"

/* the per-task plots, then the summary of the verdict */
static const char *const names[] = { "priority", "delay-time", "delay-cdf",
				     "diff-bars", "summary" };
#define NPLOTS 4
#define NFIGS 5

static int exists(const char *dir, const char *name, const char *ext)
{
	char p[1024];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s.%s", dir, name, ext);
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

static int gnuplot_on_path(void)
{
	char buf[1024];

	return plt_find_exe("gnuplot", buf, sizeof(buf)) != NULL;
}

static int load(struct cmp_source *src, struct cmp_set *s)
{
	static const char *const pol[] = { "stock", "o11int" };
	struct cmp_source_opts o = { .trace = FIXTURE, .policies = pol,
				     .npolicies = 2, .title = "hogplayer" };
	struct sr_diag d = SR_DIAG_INIT;

	memset(s, 0, sizeof(*s));
	if (cmp_source_open(src, &o, &d) || cmp_set_of(s, src, &d) ||
	    cmp_set_load(s, &d)) {
		fprintf(stderr, "%s\n", d.msg);
		cmp_set_free(s);
		cmp_source_close(src);
		return -1;
	}
	return 0;
}

static int plot_opts(const char *dir, enum pl_format fmt, const char *gnuplot,
		     bool panels, struct pl_plot_files *pf, struct sr_diag *d)
{
	struct cmp_source src;
	struct cmp_set s;
	struct pl_plot_opts o = { 0 };
	int rc;

	memset(pf, 0, sizeof(*pf));
	if (load(&src, &s))
		return -1;
	o.outdir = dir;
	o.format = fmt;
	o.gnuplot = gnuplot;
	o.render = true;
	o.panels = panels;
	rc = pl_plot_all(&s, &o, pf, d);
	cmp_set_free(&s);
	cmp_source_close(&src);
	return rc;
}

static int plot(const char *dir, enum pl_format fmt, const char *gnuplot,
		struct pl_plot_files *pf, struct sr_diag *d)
{
	return plot_opts(dir, fmt, gnuplot, false, pf, d);
}

/*
 * Panels: an SVG per task and plot, and the bars twice; each SVG's plot
 * elements (gnuplot_plot_N) match the figure's tooltips one to one, and
 * every tooltip names a policy or says what the line is.
 */
static void test_panels(const char *dir)
{
	struct pl_plot_files pf;
	struct sr_diag d = SR_DIAG_INIT;
	static const char *const want[] = {
		"priority-1", "priority-2", "delay-time-1", "delay-time-2",
		"delay-cdf-1", "delay-cdf-2", "diff-bars-p99", "diff-bars-max",
	};

	CHECK_INT(plot_opts(dir, PL_FMT_SVG, NULL, true, &pf, &d), SR_OK);
	CHECK_INT(pf.n, 8);
	CHECK_INT(pf.ntasks, 2);
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		bool found = false;

		for (size_t i = 0; i < pf.n; i++)
			found |= !strcmp(pf.fig[i].name, want[k]);
		CHECK_CTX("%s", want[k]);
		CHECK(found);
	}
	for (size_t i = 0; i < pf.n; i++) {
		const struct pl_figure *f = &pf.fig[i];
		char p[1024];
		size_t elements = 0, tips = 0;
		char *svg;

		CHECK_CTX("%s", f->name);
		CHECK(f->rendered);
		CHECK(f->tips != NULL);
		snprintf(p, sizeof(p), "%s/%s.svg", dir, f->name);
		svg = plt_slurp(p, NULL);
		CHECK(svg != NULL);
		if (!svg || !f->tips) {
			free(svg);
			continue;
		}
		for (const char *q = svg; (q = strstr(q, "<title>gnuplot_plot_")); q++)
			elements++;
		for (const char *q = f->tips; (q = strchr(q, '\n')); q++)
			tips++;
		CHECK_INT(elements, tips);
		CHECK(strstr(f->tips, "under stock") != NULL);
		CHECK(strstr(f->tips, "under o11int") != NULL);
		/* 600 wide, drawn in the policies' fixed colours */
		CHECK(strstr(svg, "width=\"600\"") != NULL);
		CHECK(strstr(svg, "rgb(192,  57,  43)") != NULL ||
		      strstr(svg, "rgb(192, 57, 43)") != NULL);
		free(svg);
	}
	CHECK_CTX("%s", "");
	pl_plot_files_free(&pf);
}

/* Pixels of a policy's hue: stock is red, o11int blue (points are
 * drawn translucent, so compare hues, not exact colours). */
static size_t hue_pixels(const struct test_png *img, int red)
{
	size_t n = 0;

	for (size_t i = 0; i < (size_t)img->width * img->height; i++) {
		const uint8_t *p = img->rgba + 4 * i;
		int r = p[0], g = p[1], b = p[2];

		if (red ? r - (g > b ? g : b) > 50 : (b - r > 50 && b - g > 25))
			n++;
	}
	return n;
}

static void test_png(const char *dir)
{
	struct pl_plot_files pf;
	struct sr_diag d = SR_DIAG_INIT;

	CHECK_INT(plot(dir, PL_FMT_PNG, NULL, &pf, &d), SR_OK);
	if (d.code)
		fprintf(stderr, "%s\n", d.msg);
	CHECK_INT(pf.n, NFIGS);
	CHECK_INT(pf.ntasks, 2);
	for (size_t i = 0; i < NFIGS; i++) {
		struct test_png img;
		struct test_png_stats st;
		char p[1024], why[1200];

		CHECK_CTX("%s", names[i]);
		CHECK_STR(pf.fig[i].name, names[i]);
		CHECK(pf.fig[i].rendered);
		CHECK(exists(dir, names[i], "gp"));
		CHECK(exists(dir, names[i], "dat"));
		snprintf(p, sizeof(p), "%s/%s.png", dir, names[i]);
		if (test_png_read(p, &img, why, sizeof(why))) {
			fprintf(stderr, "%s\n", why);
			CHECK(!"png decodes");
			continue;
		}
		CHECK(img.width >= 1000 && img.height >= 400);
		test_png_stats(&img, 32, &st);
		CHECK(st.colours >= 16);   /* lines, text, antialiasing */
		CHECK(st.ink > 0.02);      /* not a blank page */
		CHECK(st.ink < 0.6);       /* nor a filled one */
		/* both policies drawn: stock red, o11int blue */
		CHECK(hue_pixels(&img, 1) > 30);
		CHECK(hue_pixels(&img, 0) > 30);
		test_png_free(&img);
	}
	CHECK_CTX("%s", "");
	pl_plot_files_free(&pf);
}

static void test_deterministic(const char *d1, const char *d2)
{
	for (size_t i = 0; i < NFIGS; i++) {
		static const char *const ext[] = { "gp", "dat" };

		for (int e = 0; e < 2; e++) {
			char p1[1024], p2[1024];
			size_t n1, n2;
			char *a, *b;

			snprintf(p1, sizeof(p1), "%s/%s.%s", d1, names[i], ext[e]);
			snprintf(p2, sizeof(p2), "%s/%s.%s", d2, names[i], ext[e]);
			a = plt_slurp(p1, &n1);
			b = plt_slurp(p2, &n2);
			CHECK_CTX("%.200s", p1);
			CHECK(a && b && n1 == n2 && !memcmp(a, b, n1));
			/* a script names its data and image by file name only */
			if (a && e == 0) {
				CHECK(strstr(a, d1) == NULL);
				CHECK(strstr(a, "set output outfile") != NULL);
				CHECK(strstr(a, "\"hogplayer: ") != NULL); /* title */
				CHECK(strstr(a, "set xlabel '") != NULL);
			}
			if (a && e == 0 && i < NPLOTS) {
				CHECK(strstr(a, "set ylabel '") != NULL);
				CHECK(strstr(a, "title \"stock") != NULL);
				CHECK(strstr(a, "title \"o11int") != NULL);
			}
			free(a);
			free(b);
		}
	}
	CHECK_CTX("%s", "");
}

static void test_svg_pdf(const char *dsvg, const char *dpdf)
{
	struct pl_plot_files pf;
	struct sr_diag d = SR_DIAG_INIT;

	CHECK_INT(plot(dsvg, PL_FMT_SVG, NULL, &pf, &d), SR_OK);
	for (size_t i = 0; i < pf.n; i++) {
		char p[1024];
		size_t n, paths = 0;
		char *s;

		snprintf(p, sizeof(p), "%s/%s.svg", dsvg, names[i]);
		s = plt_slurp(p, &n);
		CHECK_CTX("%.200s", p);
		CHECK(s != NULL);
		if (!s)
			continue;
		CHECK(strstr(s, "<svg") != NULL);
		CHECK(n > 7 && strstr(s + n - 8, "</svg>") != NULL);
		for (const char *q = s; (q = strstr(q, "<path")); q++)
			paths++;
		CHECK(paths >= 20);
		CHECK(strstr(s, "hogplayer: ") != NULL);
		CHECK(strstr(s, ">stock") != NULL || strstr(s, "stock</text>") != NULL ||
		      strstr(s, "stock") != NULL);
		free(s);
	}
	CHECK_CTX("%s", "");
	pl_plot_files_free(&pf);
	d.code = SR_OK;
	CHECK_INT(plot(dpdf, PL_FMT_PDF, NULL, &pf, &d), SR_OK);
	for (size_t i = 0; i < pf.n; i++) {
		char p[1024];
		size_t n;
		char *s;

		snprintf(p, sizeof(p), "%s/%s.pdf", dpdf, names[i]);
		s = plt_slurp(p, &n);
		CHECK_CTX("%.200s", p);
		CHECK(s && n > 2000 && !memcmp(s, "%PDF-", 5));
		free(s);
	}
	CHECK_CTX("%s", "");
	pl_plot_files_free(&pf);
}

static void test_no_gnuplot(const char *dir, const char *tmp)
{
	struct pl_plot_files pf;
	struct sr_diag d = SR_DIAG_INIT;
	char fake[1024];
	FILE *f;

	CHECK_INT(plot(dir, PL_FMT_PNG, "/nonexistent/gnuplot", &pf, &d), SR_ENOGNUPLOT);
	CHECK(strstr(d.msg, "apt-get install gnuplot-nox") != NULL);
	CHECK(strstr(d.msg, "/nonexistent/gnuplot") != NULL);
	for (size_t i = 0; i < NFIGS; i++) {
		CHECK_CTX("%s", names[i]);
		CHECK(exists(dir, names[i], "gp"));
		CHECK(exists(dir, names[i], "dat"));
		CHECK(!exists(dir, names[i], "png"));
		CHECK(!pf.fig[i].rendered);
	}
	CHECK_CTX("%s", "");
	pl_plot_files_free(&pf);

	/* a gnuplot that starts an image, complains and fails */
	snprintf(fake, sizeof(fake), "%s/fake-gnuplot", tmp);
	f = fopen(fake, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("#!/bin/sh\n"
	      "# called as: gnuplot -e \"outfile='NAME.tmp.PID'\" NAME.gp\n"
	      "out=$(printf '%s' \"$2\" | sed \"s/^outfile='//; s/'$//\")\n"
	      "echo half > \"$out\"\n"
	      "echo \"\\\"$3\\\" line 7: undefined variable: oops\" >&2\n"
	      "exit 1\n", f);
	fclose(f);
	chmod(fake, 0755);
	d.code = SR_OK;
	d.msg[0] = '\0';
	CHECK_INT(plot(dir, PL_FMT_SVG, fake, &pf, &d), SR_ENOGNUPLOT);
	CHECK(strstr(d.msg, "exited with status 1") != NULL);
	CHECK(strstr(d.msg, "line 7: undefined variable: oops") != NULL);
	pl_plot_files_free(&pf);
	for (size_t i = 0; i < 4; i++) {
		CHECK_CTX("%s", names[i]);
		CHECK(!exists(dir, names[i], "svg"));
	}
	CHECK_CTX("%s", "");
	/* and no temporary left behind */
	{
		char cmd[1200];

		snprintf(cmd, sizeof(cmd), "ls %s | grep -q tmp", dir);
		CHECK(system(cmd) != 0);
	}
}

/* Rows of the block of `what` (its "# index N: WHAT: ..." comment) in
 * FILE, up to the blank line after it, into buf. */
static char *block(const char *file, const char *what, char *buf, size_t len)
{
	char *s = plt_slurp(file, NULL), *p, *end;
	size_t n;

	buf[0] = '\0';
	if (!s || !(p = strstr(s, what)) || !(p = strchr(p, '\n'))) {
		free(s);
		return buf;
	}
	p++;
	end = strstr(p, "\n\n\n");
	n = end ? (size_t)(end - p) + 1 : strlen(p);
	snprintf(buf, len, "%.*s", (int)n, p);
	free(s);
	return buf;
}

/*
 * The figures' data, worked out from tests/compare/data/README.md: the
 * player's delays under stock are 2, 2, 2, 9.5, then six times 2 ms, a
 * wait every 10 ms (none at 40 ms).
 */
static void test_data(const char *dir)
{
	char f[1024], rows[4096];

	/* delay-time: the time shown, 0 to 0.1 s, in 200 slices of 0.51 ms
	 * (0.1 s / 200 + 1 ns, printed to the us): one wait per slice, so
	 * each slice's p99 is that wait's delay; a closing row after each */
	snprintf(f, sizeof(f), "%s/delay-time.dat", dir);
	CHECK_STR(block(f, ": player (200) under stock:", rows, sizeof(rows)),
		  "0.000000\t2.000000\t1\n0.000510\t2.000000\t0\n\n"
		  "0.009690\t2.000000\t1\n0.010200\t2.000000\t0\n\n"
		  "0.019890\t2.000000\t1\n0.020400\t2.000000\t0\n\n"
		  "0.029580\t9.500000\t1\n0.030090\t9.500000\t0\n\n"
		  "0.049980\t2.000000\t1\n0.050490\t2.000000\t0\n\n"
		  "0.059670\t2.000000\t1\n0.060180\t2.000000\t0\n\n"
		  "0.069870\t2.000000\t1\n0.070380\t2.000000\t0\n\n"
		  "0.079560\t2.000000\t1\n0.080070\t2.000000\t0\n\n"
		  "0.089760\t2.000000\t1\n0.090270\t2.000000\t0\n\n"
		  "0.099960\t2.000000\t1\n0.100470\t2.000000\t0\n");
	/* delay-cdf: 9 of the 10 waits are at most 2 ms (fraction 0.9, nines
	 * -log10(0.1) = 1), all at most 9.5 ms (the longest: drawn at
	 * -log10(0.5 / 10) = log10(20) = 1.301030) */
	snprintf(f, sizeof(f), "%s/delay-cdf.dat", dir);
	CHECK_STR(block(f, ": player (200) under stock:", rows, sizeof(rows)),
		  "2.000000\t0\t0\n2.000000\t0.900000\t1.000000\n"
		  "9.500000\t1.000000\t1.301030\n");
	snprintf(f, sizeof(f), "%s/delay-cdf.gp", dir);
	{
		char *gp = plt_slurp(f, NULL);

		/* the key outside the data, the tail on a 90 / 99 % axis */
		CHECK(gp && strstr(gp, "set key below") != NULL);
		CHECK(gp && strstr(gp, "key inside") == NULL);
		CHECK(gp && strstr(gp, "'99%%' 2") != NULL);
		CHECK(gp && strstr(gp, "using 1:3 with steps") != NULL);
		free(gp);
	}
	/* the summary: one group (other: the hog's CPU is most of it, a
	 * batch group), its completion time 0.102 s under stock and 0.100 s
	 * under o11int; 2 ms is under 10 ms: unchanged */
	snprintf(f, sizeof(f), "%s/summary.dat", dir);
	CHECK_STR(block(f, ": other, done, s after the start:", rows, sizeof(rows)),
		  "0\t0.102000000\t\"0.102 s\"\n1\t0.100000000\t\"0.100 s\"\n");
	snprintf(f, sizeof(f), "%s/summary.gp", dir);
	{
		char *gp = plt_slurp(f, NULL);

		CHECK(gp && strstr(gp, "\"hogplayer: o11int against stock, per group of tasks\"") != NULL);
		CHECK(gp && strstr(gp, "set title \"other: unchanged under o11int\"") != NULL);
		CHECK(gp && strstr(gp, "\"rule: the first figure decides: done 1% & 10 ms\"") != NULL);
		free(gp);
	}
}

int main(void)
{
	char tmp[512];
	char d1[600], d2[600], d3[600], d4[600], d5[600];

	if (!gnuplot_on_path())
		test_skip("package gnuplot-nox", "gnuplot is not on PATH");
	if (test_mktemp(tmp, sizeof(tmp), "test-plot", 1) < 0) {
		perror("test-plot: a temporary directory");
		return 1;
	}
	snprintf(d1, sizeof(d1), "%s/png1", tmp);
	snprintf(d2, sizeof(d2), "%s/png2", tmp);
	snprintf(d3, sizeof(d3), "%s/svg", tmp);
	snprintf(d4, sizeof(d4), "%s/pdf", tmp);
	snprintf(d5, sizeof(d5), "%s/none", tmp);
	test_png(d1);
	{
		struct pl_plot_files pf;
		struct sr_diag d = SR_DIAG_INIT;

		CHECK_INT(plot(d2, PL_FMT_PNG, NULL, &pf, &d), SR_OK);
		pl_plot_files_free(&pf);
	}
	test_deterministic(d1, d2);
	test_data(d1);
	test_svg_pdf(d3, d4);
	test_no_gnuplot(d5, tmp);
	snprintf(d5, sizeof(d5), "%s/panels", tmp);
	test_panels(d5);
	plt_rm_tree(tmp);
	return test_done("test-plot");
}
