/*
 * test-style: a policy's colour and dash come from its name, never its
 * place: the fixed table, aliases drawn as their policy, a tuned label in
 * its base policy's hue with a dash, the same every time; the terminal's
 * colour is the xterm-256 entry nearest to it; --color's rules.
 */
#include <stdlib.h>
#include <string.h>

#include "compare/style.h"
#include "sched-model/policy.h"
#include "tests/lib/test.h"

/* The hue of an RGB colour in degrees, for "the same family" checks. */
static int hue(const struct cmp_style *st)
{
	int r = st->r, g = st->g, b = st->b;
	int mx = r > g ? (r > b ? r : b) : (g > b ? g : b);
	int mn = r < g ? (r < b ? r : b) : (g < b ? g : b);
	double h;

	if (mx == mn)
		return 0;
	if (mx == r)
		h = 60.0 * (g - b) / (mx - mn);
	else if (mx == g)
		h = 60.0 * (b - r) / (mx - mn) + 120;
	else
		h = 60.0 * (r - g) / (mx - mn) + 240;
	return ((int)h + 360) % 360;
}

/* The i-th name drawn: observed, then every policy of the table. */
static const char *drawn(size_t i)
{
	size_t n = 0;

	while (sm_policies[n])
		n++;
	return i == 0 ? "observed" : i <= n ? sm_policies[i - 1]->name : NULL;
}

int main(void)
{
	struct cmp_style a, b, t, u;
	const char *name;

	/* every policy of the table (and observed): its own colour from
	   its struct sm_policy, its own point type, solid */
	cmp_style_of("stock", &a);
	CHECK_STR(a.rgb, "#c0392b");
	CHECK_INT(a.dash, 0);
	cmp_style_of("o11int", &a);
	CHECK_STR(a.rgb, "#1f5fa8");
	cmp_style_of("observed", &a);
	CHECK_STR(a.rgb, "#6e6e6e");
	CHECK_INT(a.point, 1);
	for (size_t i = 0; (name = drawn(i)); i++) {
		const struct sm_policy *p = sm_policy_find(name);

		cmp_style_of(name, &a);
		CHECK_CTX("%s", name);
		if (p) {
			CHECK(p->colour != NULL);
			CHECK_STR(a.rgb, p->colour ? p->colour : "");
			CHECK_INT(a.point, p->point);
			CHECK(p->point > 0);
		}
		CHECK_INT(a.dash, 0);
		CHECK(a.ansi >= 16 && a.ansi <= 255);
		for (size_t j = 0; j < i; j++) {
			cmp_style_of(drawn(j), &b);
			CHECK(strcmp(a.rgb, b.rgb) != 0);
			CHECK(a.point != b.point);
		}
	}
	CHECK(drawn(11) != NULL); /* eleven policies and observed, at least */
	CHECK_CTX("%s", "");
	/* an alias is its policy */
	cmp_style_of("2.6.0-test2", &a);
	cmp_style_of("stock", &b);
	CHECK_STR(a.rgb, b.rgb);
	cmp_style_of("2.6.0-test2-mm1-O11int", &a);
	CHECK_STR(a.rgb, "#1f5fa8");
	/* a tuned label: its base's hue, a dash, the same every time */
	cmp_style_of("o11int:MAX_SLEEP_AVG=2000", &t);
	cmp_style_of("o11int:MAX_SLEEP_AVG=2000", &u);
	cmp_style_of("o11int", &b);
	CHECK_STR(t.rgb, u.rgb);
	CHECK_INT(t.dash, u.dash);
	CHECK(t.dash >= 1 && t.dash < CMP_STYLE_DASHES);
	CHECK(abs(hue(&t) - hue(&b)) <= 6);
	cmp_style_of("stock:STARVATION_LIMIT=500", &t);
	cmp_style_of("stock", &b);
	CHECK(t.dash >= 1);
	CHECK(abs(hue(&t) - hue(&b)) <= 6);
	/* two tunings of one policy: not both the untuned line */
	cmp_style_of("o11int:MAX_SLEEP_AVG=500", &t);
	cmp_style_of("o11int:MAX_SLEEP_AVG=1020", &u);
	CHECK(t.dash != 0 && u.dash != 0);
	CHECK(strcmp(t.rgb, u.rgb) != 0 || t.dash != u.dash);
	/* a name not in the table still gets a colour, always the same */
	cmp_style_of("nosuch", &t);
	cmp_style_of("nosuch", &u);
	CHECK_STR(t.rgb, u.rgb);
	CHECK_INT(t.rgb[0], '#');
	/* dashes as gnuplot and SVG write them */
	CHECK_STR(cmp_style_dash_gp(0), "solid");
	CHECK_STR(cmp_style_dash_svg(0), "");
	CHECK_STR(cmp_style_dash_gp(1), "(8,4)");
	CHECK_STR(cmp_style_dash_svg(1), "8 4");
	/* the terminal: the nearest of xterm's 256: stock 130 (#af5f00), o11int 25 */
	cmp_style_of("stock", &a);
	CHECK_INT(a.ansi, 130);
	cmp_style_of("o11int", &a);
	CHECK_INT(a.ansi, 25);
	{
		char on[32];

		cmp_style_ansi_on(&a, on, sizeof(on));
		CHECK_STR(on, "\033[38;5;25m");
	}
	/* --color: always and never whatever the output; auto: not a file */
	{
		FILE *f = tmpfile();

		CHECK(f != NULL);
		if (f) {
			CHECK(cmp_color_wanted(CMP_COLOR_ALWAYS, f));
			CHECK(!cmp_color_wanted(CMP_COLOR_NEVER, f));
			CHECK(!cmp_color_wanted(CMP_COLOR_AUTO, f));
			fclose(f);
		}
	}
	return test_done("test-style");
}
