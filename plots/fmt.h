/*
 * fmt: deterministic number formatting from integer nanoseconds (no
 * floating point on the way, so the same input gives the same bytes
 * everywhere), and escaping for JSON, HTML and gnuplot strings.
 */
#ifndef PL_FMT_H
#define PL_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* v / 10^shift rounded half away from zero to `decimals` places. */
char *pl_fmt_scaled(char *buf, size_t len, int64_t v, int shift, int decimals);
/* ns as milliseconds / seconds with the given decimals. */
char *pl_fmt_ms(char *buf, size_t len, int64_t ns, int decimals);
char *pl_fmt_s(char *buf, size_t len, int64_t ns, int decimals);

/* A JSON string literal, quotes included; invalid UTF-8 bytes as \u00XX. */
void pl_json_str(FILE *f, const char *s);
/* HTML text with & < > " ' escaped. */
void pl_html_str(FILE *f, const char *s);
/* A gnuplot single-quoted string, quotes included (' doubled). */
void pl_gp_str(FILE *f, const char *s);
/* A file-name-safe slug of s: [A-Za-z0-9._-], others '_'. */
void pl_slug(char *out, size_t len, const char *s);

#endif
