/*
 * style: one colour and line style per policy (see style.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/style.h"
#include "sched-model/policy.h"

/* A policy's colour and point type are in its struct sm_policy; the
 * recorded schedule, which is not a policy, has its own. */
#define OBSERVED_RGB "#6e6e6e"
#define OBSERVED_POINT 1

/* For a name the table does not know. */
static const char *const spare[] = {
	"#e67e22", "#16a085", "#34495e", "#a04000", "#1abc9c", "#7d3c98",
};

static const char *const dash_gp[CMP_STYLE_DASHES] = {
	"solid", "(8,4)", "(3,3)", "(10,3,2,3)", "(2,5)", "(12,4,2,4,2,4)",
};
static const char *const dash_svg[CMP_STYLE_DASHES] = {
	"", "8 4", "3 3", "10 3 2 3", "2 5", "12 4 2 4 2 4",
};

const char *const cmp_color_names[] = { "auto", "always", "never", NULL };

const char *cmp_style_dash_gp(int dash)
{
	return dash_gp[(unsigned)dash % CMP_STYLE_DASHES];
}

const char *cmp_style_dash_svg(int dash)
{
	return dash_svg[(unsigned)dash % CMP_STYLE_DASHES];
}

static uint32_t fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static int hexval(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static unsigned char channel(const char *hex)
{
	return (unsigned char)(hexval(hex[0]) * 16 + hexval(hex[1]));
}

/* The xterm-256 colour nearest to r, g, b: its 6x6x6 cube or grey ramp. */
static int nearest_ansi(int r, int g, int b)
{
	static const int level[6] = { 0, 95, 135, 175, 215, 255 };
	int best = 16, bestd = 1 << 30;

	for (int i = 0; i < 240; i++) {
		int cr, cg, cb, d;

		if (i < 216) {
			cr = level[i / 36];
			cg = level[(i / 6) % 6];
			cb = level[i % 6];
		} else {
			cr = cg = cb = 8 + 10 * (i - 216);
		}
		d = (cr - r) * (cr - r) + (cg - g) * (cg - g) +
		    (cb - b) * (cb - b);
		if (d < bestd) {
			bestd = d;
			best = 16 + i;
		}
	}
	return best;
}

/* c moved toward black (shade 0) or white (shade 2) by 30%. */
static unsigned char shade(unsigned char c, int how)
{
	if (how == 0)
		return (unsigned char)(c * 7 / 10);
	if (how == 2)
		return (unsigned char)(c + (255 - c) * 3 / 10);
	return c;
}

void cmp_style_of(const char *label, struct cmp_style *st)
{
	const char *colon = strchr(label, ':');
	size_t n = colon ? (size_t)(colon - label) : strlen(label);
	char base[64];
	const char *rgb = NULL;
	const struct sm_policy *p;

	memset(st, 0, sizeof(*st));
	st->point = 6;
	snprintf(base, sizeof(base), "%.*s", (int)(n < sizeof(base) ? n :
						   sizeof(base) - 1), label);
	/* an alias is drawn as its policy */
	if ((p = sm_policy_find(base)))
		snprintf(base, sizeof(base), "%s", p->name);
	if (p && p->colour) {
		rgb = p->colour;
		st->point = p->point;
	} else if (!strcmp(base, "observed")) {
		rgb = OBSERVED_RGB;
		st->point = OBSERVED_POINT;
	}
	if (!rgb)
		rgb = spare[fnv1a(base, strlen(base)) %
			    (sizeof(spare) / sizeof(spare[0]))];
	st->r = channel(rgb + 1);
	st->g = channel(rgb + 3);
	st->b = channel(rgb + 5);
	if (colon) {
		uint32_t h = fnv1a(colon + 1, strlen(colon + 1));
		int how = (int)((h >> 8) % 3);

		st->dash = 1 + (int)(h % (CMP_STYLE_DASHES - 1));
		st->r = shade(st->r, how);
		st->g = shade(st->g, how);
		st->b = shade(st->b, how);
	}
	snprintf(st->rgb, sizeof(st->rgb), "#%02x%02x%02x", st->r, st->g,
		 st->b);
	st->ansi = nearest_ansi(st->r, st->g, st->b);
}

bool cmp_color_wanted(enum cmp_color c, FILE *fp)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	if (c != CMP_COLOR_AUTO)
		return c == CMP_COLOR_ALWAYS;
	if (no && *no)
		return false;
	if (term && !strcmp(term, "dumb"))
		return false;
	return isatty(fileno(fp));
}

void cmp_style_ansi_on(const struct cmp_style *st, char *buf, size_t len)
{
	snprintf(buf, len, "\033[38;5;%dm", st->ansi);
}
