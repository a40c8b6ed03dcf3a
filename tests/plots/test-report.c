/*
 * test-report: `schedreplay report` on the hand-written replay
 * tests/compare/data/hogplayer, rendered by headless Chromium: the page
 * needs nothing from outside (no scripts, links or images), the DOM holds
 * the headline, the diff table and every plot as inline SVG with drawn
 * paths, the whole page's screenshot is not blank, and neither is each
 * plot rendered on its own.  Skipped (77) without chromium or gnuplot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/png.h"
#include "tests/plots/plotstest.h"
#include "tests/lib/test.h"

static const char *const figures[] = {
	"plot-priority", "plot-delay-time", "plot-delay-cdf", "plot-diff-bars",
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

int main(void)
{
	char tmp[512];
	char chrome[1024], gp[1024], cmd[4096], dir[1200], index[1300],
	     profile[1200], dom[1200], shot[1200];
	const char *sr = getenv("SCHEDREPLAY");
	char *html, *dumped;

	if (!plt_find_exe("chromium", chrome, sizeof(chrome)) &&
	    access(strcpy(chrome, "/usr/bin/chromium"), X_OK) != 0)
		test_skip("missing package chromium: no chromium on PATH");
	if (!plt_find_exe("gnuplot", gp, sizeof(gp)))
		test_skip("missing package gnuplot-nox: gnuplot is not on PATH");
	if (!sr)
		test_skip("SCHEDREPLAY is not set: run through make check");
	if (test_mktemp(tmp, sizeof(tmp), "test-report", 1) < 0)
		test_skip("cannot make a temporary directory");
	snprintf(dir, sizeof(dir), "%s/report", tmp);
	snprintf(index, sizeof(index), "%s/index.html", dir);
	snprintf(profile, sizeof(profile), "%s/profile", tmp);
	snprintf(dom, sizeof(dom), "%s/dom.html", tmp);
	snprintf(shot, sizeof(shot), "%s/page.png", tmp);

	snprintf(cmd, sizeof(cmd), "'%s' report tests/compare/data/hogplayer -o '%s' >/dev/null",
		 sr, dir);
	CHECK_INT(system(cmd), 0);
	html = plt_slurp(index, NULL);
	CHECK(html != NULL);
	if (!html)
		goto out;
	/* self-contained: nothing loaded from elsewhere */
	CHECK(strstr(html, "<script") == NULL);
	CHECK(strstr(html, "<link") == NULL);
	CHECK(strstr(html, "<img") == NULL);
	CHECK(strstr(html, "@import") == NULL);
	CHECK(count(html, "http") == count(html, "http://www.w3.org/"));
	CHECK_INT(count(html, "<svg"), 4);
	free(html);

	/* the DOM Chromium builds: headline, table, four figures with paths */
	snprintf(cmd, sizeof(cmd), ">'%s'", dom);
	CHECK_INT(chromium(chrome, profile, "--dump-dom", index, cmd), 0);
	dumped = plt_slurp(dom, NULL);
	CHECK(dumped != NULL);
	if (!dumped)
		goto out;
	CHECK(strstr(dumped, "<ul class=\"head\" id=\"headline\">") != NULL);
	CHECK(strstr(dumped, "better under o11int: player (200)") != NULL);
	CHECK(strstr(dumped, "<table id=\"diff\">") != NULL);
	CHECK(strstr(dumped, "<table id=\"periodic\">") != NULL);
	CHECK(count(dumped, "<tr") >= 5 + 3);
	for (size_t i = 0; i < 4; i++) {
		char id[64];
		const char *fig, *end;
		size_t paths = 0;

		snprintf(id, sizeof(id), "<figure id=\"%s\">", figures[i]);
		fig = strstr(dumped, id);
		CHECK_CTX("%s", figures[i]);
		CHECK(fig != NULL);
		if (!fig)
			continue;
		end = strstr(fig, "</figure>");
		CHECK(end != NULL);
		for (const char *p = fig; end && (p = strstr(p, "<path")) && p < end; p++)
			if (strncmp(p, "<path d=\"\"", 10))
				paths++;
		CHECK(paths >= 20);
		CHECK(strstr(fig, "<svg") != NULL && strstr(fig, "<svg") < end);

		/* this figure alone in a page: Chromium draws something */
		{
			char page[1300], png[1300];
			FILE *f;

			snprintf(page, sizeof(page), "%s/fig%zu.html", tmp, i);
			snprintf(png, sizeof(png), "%s/fig%zu.png", tmp, i);
			f = fopen(page, "w");
			CHECK(f != NULL);
			if (!f)
				continue;
			fputs("<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
			      "<style>body{margin:0;background:#fff}svg{width:1100px;height:auto}</style>"
			      "</head><body>", f);
			fwrite(fig, 1, (size_t)(end - fig) + strlen("</figure>"), f);
			fputs("</body></html>\n", f);
			fclose(f);
			/* a window the figure's size, from its svg height */
			{
				const char *h = strstr(strstr(fig, "<svg"), "height=\"");
				int height = h ? atoi(h + 8) : 800;

				snprintf(cmd, sizeof(cmd), "--window-size=1100,%d --screenshot='%s'",
					 height > 100 && height < 4000 ? height : 800, png);
			}
			CHECK_INT(chromium(chrome, profile, cmd, page, ">/dev/null"), 0);
			check_png(png, 0.02, 16);
		}
	}
	CHECK_CTX("%s", "");
	free(dumped);

	/* the whole page */
	snprintf(cmd, sizeof(cmd), "--window-size=1280,4000 --screenshot='%s'", shot);
	CHECK_INT(chromium(chrome, profile, cmd, index, ">/dev/null"), 0);
	check_png(shot, 0.03, 16);
out:
	plt_rm_tree(tmp);
	return test_done("test-report");
}
