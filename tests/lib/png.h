/*
 * png: a small PNG reader for tests that must check an image is really
 * drawn (gnuplot's plots, Chromium's screenshots): 8-bit grey, RGB,
 * palette, grey+alpha and RGBA, not interlaced; pixels come out as RGBA.
 */
#ifndef SR_TEST_PNG_H
#define SR_TEST_PNG_H

#include <stddef.h>
#include <stdint.h>

struct test_png {
	uint32_t width, height;
	uint8_t *rgba;          /* width * height * 4 */
};

/* 0 ok; else -1 with why[] saying what was wrong. */
int test_png_read(const char *path, struct test_png *img, char *why,
		  size_t whylen);
void test_png_free(struct test_png *img);

/* How much is drawn: distinct colours (capped at cap) and the share of
 * pixels that differ from the most common colour (the background). */
struct test_png_stats {
	size_t colours;
	double ink;             /* 0..1 */
};
void test_png_stats(const struct test_png *img, size_t cap,
		    struct test_png_stats *st);
/* The same, inside the rectangle [x0,x1) x [y0,y1). */
void test_png_stats_rect(const struct test_png *img, uint32_t x0, uint32_t y0,
			 uint32_t x1, uint32_t y1, size_t cap,
			 struct test_png_stats *st);

#endif
