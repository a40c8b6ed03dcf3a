/*
 * test-report: `schedreplay report`, rendered by headless Chromium at
 * 800 and 1400 px.
 *
 * The page: self-contained (its two scripts inline, nothing loaded from
 * elsewhere), the verdict before the task table before the plots, each
 * policy in its own colour, every plot inline with tooltips that name
 * the task and the policy (never "gnuplot_plot_N").  In Chromium, at
 * each width, tests/plots/measure.js, injected into a copy of the page:
 * no horizontal scroll; every text of every plot inside its SVG's box,
 * apart from the others, at least 10 px tall; the task table sorted by a
 * click on a heading (both ways) and filtered by comm, pid, class and
 * waits.  The screenshot of the sample's page at each width is not
 * blank.
 *
 * Two pages: the hand-written replay tests/compare/data/hogplayer under
 * three policies (stock, o11int and the recorded schedule), and the
 * bundled mixed sample's recorded command (traces/mixed.perf.txt.gz,
 * --tree perf-exec, as `make demo` does; skipped without it).  Skipped
 * (77) without chromium or gnuplot.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/png.h"
#include "tests/plots/plotstest.h"
#include "tests/lib/test.h"

#define MIXED "traces/mixed.perf.txt.gz"

static const char *const expect_pass[] = {
	"PASS no horizontal scroll", "PASS plots have text",
	"PASS plot texts inside their box, apart", "PASS plot texts legible",
	"PASS table rows", "PASS sorted by a click, largest first",
	"PASS sorted by a second click, smallest first", "PASS filtered by comm",
	"PASS filtered by pid", "PASS filtered by class",
	"PASS filtered by waits", "PASS filters undone", "PASS count",
	"PASS verdict above the fold", "PASS verdict words coloured",
};

static size_t count(const char *s, const char *pat)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, pat)); p++)
		n++;
	return n;
}

/* Run chromium headless on a file URL with extra arguments. */
static int chromium(const char *exe, const char *profile, const char *args,
		    const char *file, const char *redirect)
{
	char cmd[16384];

	snprintf(cmd, sizeof(cmd),
		 "timeout 120 '%s' --headless --no-sandbox --disable-gpu "
		 "--disable-background-networking --disable-component-update "
		 "--disable-sync --no-first-run --disable-extensions --hide-scrollbars "
		 "--user-data-dir='%s' %s 'file://%s' %s 2>/dev/null",
		 exe, profile, args, file, redirect);
	return system(cmd);
}

static void check_png(const char *path, double min_ink, size_t min_colours)
{
	struct test_png img;
	struct test_png_stats st;
	char why[1200];

	if (test_png_read(path, &img, why, sizeof(why))) {
		fprintf(stderr, "%s\n", why);
		CHECK(!"screenshot decodes");
		return;
	}
	test_png_stats(&img, 32, &st);
	CHECK(st.ink > min_ink);
	CHECK(st.colours >= min_colours);
	test_png_free(&img);
}

/* The page's static promises. */
static void check_page(const char *html, const char *tip)
{
	const char *v = strstr(html, "<section id=\"verdict\">");
	const char *t = strstr(html, "<section id=\"task-table\">");
	const char *p = strstr(html, "<section id=\"plots\">");

	/* self-contained: nothing loaded from elsewhere */
	CHECK(strstr(html, "<link") == NULL);
	CHECK(strstr(html, "<img") == NULL);
	CHECK(strstr(html, "@import") == NULL);
	CHECK(strstr(html, "<script src") == NULL);
	CHECK_INT(count(html, "<script"), 2);
	CHECK(count(html, "http") == count(html, "http://www.w3.org/"));
	/* the verdict first, then the table, then the plots */
	CHECK(v && t && p && v < t && t < p);
	CHECK(strstr(html, "<ul class=\"head\" id=\"headline\">") != NULL);
	/* every policy's colour, as compare/style.c has it */
	CHECK(strstr(html, "stroke=\"#c0392b\"") != NULL);  /* stock */
	CHECK(strstr(html, "stroke=\"#1f5fa8\"") != NULL);  /* o11int */
	/* tooltips name task and policy */
	CHECK(strstr(html, "<title>gnuplot_plot_") == NULL);
	CHECK(strstr(html, "<title>Gnuplot</title>") == NULL);
	CHECK(strstr(html, tip) != NULL);
	CHECK(strstr(html, "<figure id=\"plot-diff-bars-p99\">") != NULL);
	CHECK(strstr(html, "<figure id=\"plot-priority-1\">") != NULL);
	CHECK(strstr(html, "<figure id=\"plot-delay-time-1\">") != NULL);
	CHECK(strstr(html, "<figure id=\"plot-delay-cdf-1\">") != NULL);
}

/*
 * The page at widths 800 and 1400: measure.js's checks all pass, the
 * screenshot is not blank.
 */
static void check_in_chromium(const char *chrome, const char *tmp,
			      const char *dir, const char *html,
			      const char *comm, int pid, bool shots)
{
	static const int widths[] = { 800, 1400 };
	char page[1300], profile[1200], dom[1300], shot[1300], arg[1400];
	char *js = plt_slurp("tests/plots/measure.js", NULL);
	const char *end = strstr(html, "</body>");
	FILE *f;

	CHECK(js != NULL && end != NULL);
	if (!js || !end) {
		free(js);
		return;
	}
	snprintf(page, sizeof(page), "%s/measure.html", dir);
	snprintf(profile, sizeof(profile), "%s/profile", tmp);
	f = fopen(page, "w");
	CHECK(f != NULL);
	if (!f) {
		free(js);
		return;
	}
	fwrite(html, 1, (size_t)(end - html), f);
	fprintf(f, "<script>window.SR_TEST={comm:\"%s\",pid:%d};\n%s</script>\n%s",
		comm, pid, js, end);
	fclose(f);
	free(js);
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		char *out, *res;

		CHECK_CTX("%s at %d px", dir, widths[i]);
		snprintf(dom, sizeof(dom), "%s/dom-%d.html", dir, widths[i]);
		snprintf(shot, sizeof(shot), "%s/shot-%d.png", dir, widths[i]);
		snprintf(arg, sizeof(arg), "--window-size=%d,1000 "
			 "--virtual-time-budget=10000 --dump-dom", widths[i]);
		{
			char redirect[1400];

			snprintf(redirect, sizeof(redirect), ">'%s'", dom);
			CHECK_INT(chromium(chrome, profile, arg, page, redirect), 0);
		}
		out = plt_slurp(dom, NULL);
		CHECK(out != NULL);
		res = out ? strstr(out, "<pre id=\"sr-test\">") : NULL;
		/* the last one: the script's own text names it too */
		while (res && strstr(res + 1, "<pre id=\"sr-test\">"))
			res = strstr(res + 1, "<pre id=\"sr-test\">");
		CHECK(res != NULL);
		if (res) {
			char w[32];

			snprintf(w, sizeof(w), "INFO width %d\n", widths[i]);
			CHECK(strstr(res, w) != NULL);
			if (strstr(res, "\nFAIL "))
				fprintf(stderr, "%s\n", res);
			CHECK(strstr(res, "\nFAIL ") == NULL);
			for (size_t k = 0; k < sizeof(expect_pass) / sizeof(expect_pass[0]); k++) {
				CHECK_CTX("%s at %d px: %s", dir, widths[i], expect_pass[k]);
				CHECK(strstr(res, expect_pass[k]) != NULL);
			}
		}
		free(out);
		if (!shots)
			continue;
		CHECK_CTX("%s at %d px: screenshot", dir, widths[i]);
		snprintf(arg, sizeof(arg), "--window-size=%d,2400 --screenshot='%s'",
			 widths[i], shot);
		CHECK_INT(chromium(chrome, profile, arg, page, ">/dev/null"), 0);
		check_png(shot, 0.03, 16);
	}
	CHECK_CTX("%s", "");
}

int main(void)
{
	char tmp[512];
	char chrome[1024], gp[1024], cmd[4096], dir[1200], index[1300];
	const char *sr = getenv("SCHEDREPLAY");
	char *html;
	struct stat st;

	if (!plt_find_exe("chromium", chrome, sizeof(chrome)) &&
	    access(strcpy(chrome, "/usr/bin/chromium"), X_OK) != 0)
		test_skip("package chromium", "no chromium on PATH");
	if (!plt_find_exe("gnuplot", gp, sizeof(gp)))
		test_skip("package gnuplot-nox", "gnuplot is not on PATH");
	if (!sr) {
		fprintf(stderr, "test-report: SCHEDREPLAY is not set: run through make check\n");
		return 1;
	}
	if (test_mktemp(tmp, sizeof(tmp), "test-report", 1) < 0) {
		perror("test-report: a temporary directory");
		return 1;
	}

	/* the hand-written replay, three policies */
	snprintf(dir, sizeof(dir), "%s/hog", tmp);
	snprintf(index, sizeof(index), "%s/index.html", dir);
	snprintf(cmd, sizeof(cmd), "'%s' report tests/compare/data/hogplayer "
		 "--policy stock --policy o11int --policy observed -o '%s' >/dev/null",
		 sr, dir);
	CHECK_INT(system(cmd), 0);
	html = plt_slurp(index, NULL);
	CHECK(html != NULL);
	if (html) {
		check_page(html, "<title>player (200) under stock: priority</title>");
		CHECK(strstr(html, "<title>player (200) under o11int: p99 0.000 ms</title>") != NULL);
		CHECK(strstr(html, "stroke=\"#6e6e6e\"") != NULL); /* observed */
		CHECK(strstr(html, "<div class=\"pair\" id=\"verdict-2\">") != NULL);
		CHECK(strstr(html, "<table id=\"periodic\">") != NULL);
		check_in_chromium(chrome, tmp, dir, html, "player", 200, false);
		free(html);
	}

	/* the bundled sample: real names, many tasks */
	if (stat(MIXED, &st) == 0) {
		snprintf(dir, sizeof(dir), "%s/mixed", tmp);
		snprintf(index, sizeof(index), "%s/index.html", dir);
		snprintf(cmd, sizeof(cmd), "'%s' report " MIXED " --tree perf-exec -q "
			 "-o '%s' >/dev/null", sr, dir);
		CHECK_INT(system(cmd), 0);
		html = plt_slurp(index, NULL);
		CHECK(html != NULL);
		if (html) {
			check_page(html, "<title>mpv/ao (25094) under o11int: priority</title>");
			check_in_chromium(chrome, tmp, dir, html, "mpv/ao", 25094, true);
			free(html);
		}
	}
	plt_rm_tree(tmp);
	return test_done("test-report");
}
