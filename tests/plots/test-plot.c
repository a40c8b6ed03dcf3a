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

static const char *const names[] = { "priority", "delay-time", "delay-cdf", "diff-bars" };

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
	CHECK_INT(pf.n, 4);
	CHECK_INT(pf.ntasks, 2);
	for (size_t i = 0; i < 4; i++) {
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
	for (size_t i = 0; i < 4; i++) {
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
	for (size_t i = 0; i < 4; i++) {
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
	test_svg_pdf(d3, d4);
	test_no_gnuplot(d5, tmp);
	snprintf(d5, sizeof(d5), "%s/panels", tmp);
	test_panels(d5);
	plt_rm_tree(tmp);
	return test_done("test-plot");
}
