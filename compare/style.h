/*
 * style: how a policy is drawn, wherever it is drawn (the plots, the
 * report, the diff on a terminal): one colour and one line style per
 * policy name, from the policy's own struct sm_policy (colour, point;
 * observed has its own), never from the policy's position in a
 * comparison, so o11int is the same blue in every plot and page.
 *
 * A tuned label ("o11int:MAX_SLEEP_AVG=2000") keeps its base policy's
 * hue: a 32-bit FNV-1a hash of the tuning after the ':' picks one of
 * three shades of the base colour (darker, as is, lighter) and one of
 * five dash patterns (an untuned policy is the only solid line of its
 * colour).  Two tunings of one policy can draw the same (1 in 15); each
 * label still always draws the same way.  A name the table does not know
 * gets a colour from a spare palette by the same hash.
 */
#ifndef CMP_STYLE_H
#define CMP_STYLE_H

#include <stdbool.h>
#include <stdio.h>

#define CMP_STYLE_DASHES 6        /* 0: solid, 1..5: dashed */

struct cmp_style {
	char rgb[8];              /* "#rrggbb" */
	unsigned char r, g, b;
	int ansi;                 /* the nearest xterm-256 colour */
	int dash;                 /* 0 solid, else 1..CMP_STYLE_DASHES-1 */
	int point;                /* gnuplot point type for scatter plots */
};

/* The style of a run's label (a policy name or alias, with its tuning,
 * or "observed"). */
void cmp_style_of(const char *label, struct cmp_style *st);

/* The dash pattern: gnuplot's `dt` argument ("solid", "(8,4)") and SVG's
 * stroke-dasharray ("" for solid, "8 4"), both in line-width units. */
const char *cmp_style_dash_gp(int dash);
const char *cmp_style_dash_svg(int dash);

/* Whether the diff colours its terminal output: `--color` auto, always,
 * never; auto: fp is a terminal, NO_COLOR is unset or empty and TERM is
 * not "dumb". */
enum cmp_color { CMP_COLOR_AUTO, CMP_COLOR_ALWAYS, CMP_COLOR_NEVER };
extern const char *const cmp_color_names[];
bool cmp_color_wanted(enum cmp_color c, FILE *fp);

/* The escape that turns st's colour on, and off again ("" when off). */
void cmp_style_ansi_on(const struct cmp_style *st, char *buf, size_t len);
#define CMP_ANSI_OFF "\033[0m"

#endif
