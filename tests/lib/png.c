/*
 * png: reading PNG files for tests (see png.h), with zlib.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tests/lib/png.h"

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	if (pa <= pb && pa <= pc)
		return a;
	return pb <= pc ? b : c;
}

int test_png_read(const char *path, struct test_png *img, char *why,
		  size_t whylen)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	FILE *f = fopen(path, "rb");
	uint8_t *file = NULL, *idat = NULL, *raw = NULL;
	uint8_t palette[256 * 4];
	long size;
	size_t nidat = 0, pos = 8, stride, bpp = 0, rawlen;
	uint32_t w = 0, h = 0;
	int depth = 0, ctype = -1, interlace = 0, rc = -1;
	uLongf outlen;

	memset(img, 0, sizeof(*img));
	memset(palette, 0xff, sizeof(palette));
	if (!f) {
		snprintf(why, whylen, "cannot open %s", path);
		return -1;
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	file = malloc(size > 0 ? (size_t)size : 1);
	idat = malloc(size > 0 ? (size_t)size : 1);
	if (!file || !idat || size < 8 || fread(file, 1, (size_t)size, f) != (size_t)size) {
		snprintf(why, whylen, "%s: cannot read", path);
		goto out;
	}
	if (memcmp(file, sig, 8)) {
		snprintf(why, whylen, "%s: not a PNG signature", path);
		goto out;
	}
	while (pos + 12 <= (size_t)size) {
		uint32_t len = be32(file + pos);
		const uint8_t *type = file + pos + 4, *data = file + pos + 8;

		if (pos + 12 + len > (size_t)size) {
			snprintf(why, whylen, "%s: truncated chunk", path);
			goto out;
		}
		if (crc32(crc32(0, NULL, 0), type, len + 4) != be32(data + len)) {
			snprintf(why, whylen, "%s: bad CRC in chunk %.4s", path, type);
			goto out;
		}
		if (!memcmp(type, "IHDR", 4) && len >= 13) {
			w = be32(data);
			h = be32(data + 4);
			depth = data[8];
			ctype = data[9];
			interlace = data[12];
		} else if (!memcmp(type, "PLTE", 4)) {
			for (uint32_t i = 0; i < len / 3 && i < 256; i++)
				memcpy(palette + 4 * i, data + 3 * i, 3);
		} else if (!memcmp(type, "tRNS", 4) && ctype == 3) {
			for (uint32_t i = 0; i < len && i < 256; i++)
				palette[4 * i + 3] = data[i];
		} else if (!memcmp(type, "IDAT", 4)) {
			memcpy(idat + nidat, data, len);
			nidat += len;
		} else if (!memcmp(type, "IEND", 4)) {
			break;
		}
		pos += 12 + len;
	}
	switch (ctype) {
	case 0: bpp = 1; break;
	case 2: bpp = 3; break;
	case 3: bpp = 1; break;
	case 4: bpp = 2; break;
	case 6: bpp = 4; break;
	default: break;
	}
	if (!w || !h || depth != 8 || !bpp || interlace || w > 20000 || h > 40000) {
		snprintf(why, whylen, "%s: unsupported PNG (%ux%u, depth %d, colour type %d, interlace %d)",
			 path, w, h, depth, ctype, interlace);
		goto out;
	}
	stride = (size_t)w * bpp;
	rawlen = (stride + 1) * h;
	raw = malloc(rawlen);
	img->rgba = malloc((size_t)w * h * 4);
	if (!raw || !img->rgba) {
		snprintf(why, whylen, "out of memory");
		goto out;
	}
	outlen = rawlen;
	if (uncompress(raw, &outlen, idat, nidat) != Z_OK || outlen != rawlen) {
		snprintf(why, whylen, "%s: bad image data", path);
		goto out;
	}
	for (uint32_t y = 0; y < h; y++) {
		uint8_t *row = raw + y * (stride + 1) + 1;
		const uint8_t *prev = y ? raw + (y - 1) * (stride + 1) + 1 : NULL;
		int ft = row[-1];

		for (size_t x = 0; x < stride; x++) {
			int a = x >= bpp ? row[x - bpp] : 0;
			int b = prev ? prev[x] : 0;
			int c = prev && x >= bpp ? prev[x - bpp] : 0;

			switch (ft) {
			case 0: break;
			case 1: row[x] = (uint8_t)(row[x] + a); break;
			case 2: row[x] = (uint8_t)(row[x] + b); break;
			case 3: row[x] = (uint8_t)(row[x] + (a + b) / 2); break;
			case 4: row[x] = (uint8_t)(row[x] + paeth(a, b, c)); break;
			default:
				snprintf(why, whylen, "%s: bad filter %d", path, ft);
				goto out;
			}
		}
		for (uint32_t x = 0; x < w; x++) {
			uint8_t *o = img->rgba + ((size_t)y * w + x) * 4;
			const uint8_t *p = row + (size_t)x * bpp;

			switch (ctype) {
			case 0: o[0] = o[1] = o[2] = p[0]; o[3] = 255; break;
			case 2: o[0] = p[0]; o[1] = p[1]; o[2] = p[2]; o[3] = 255; break;
			case 3: memcpy(o, palette + 4 * p[0], 4); break;
			case 4: o[0] = o[1] = o[2] = p[0]; o[3] = p[1]; break;
			case 6: memcpy(o, p, 4); break;
			}
		}
	}
	img->width = w;
	img->height = h;
	rc = 0;
out:
	if (rc)
		test_png_free(img);
	free(file);
	free(idat);
	free(raw);
	if (f)
		fclose(f);
	return rc;
}

void test_png_free(struct test_png *img)
{
	free(img->rgba);
	memset(img, 0, sizeof(*img));
}

void test_png_stats_rect(const struct test_png *img, uint32_t x0, uint32_t y0,
			 uint32_t x1, uint32_t y1, size_t cap,
			 struct test_png_stats *st)
{
	uint32_t *seen = calloc(cap ? cap : 1, sizeof(*seen));
	size_t *count = calloc(cap ? cap : 1, sizeof(*count));
	size_t n = 0, total = 0, most = 0;

	memset(st, 0, sizeof(*st));
	if (!seen || !count)
		goto out;
	if (x1 > img->width)
		x1 = img->width;
	if (y1 > img->height)
		y1 = img->height;
	for (uint32_t y = y0; y < y1; y++) {
		for (uint32_t x = x0; x < x1; x++) {
			const uint8_t *p = img->rgba + ((size_t)y * img->width + x) * 4;
			uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
			size_t i;

			total++;
			for (i = 0; i < n; i++)
				if (seen[i] == c)
					break;
			if (i == n && n < cap)
				seen[n++] = c;
			if (i < n)
				count[i]++;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (count[i] > most)
			most = count[i];
	st->colours = n;
	st->ink = total ? 1.0 - (double)most / (double)total : 0;
out:
	free(seen);
	free(count);
}

void test_png_stats(const struct test_png *img, size_t cap,
		    struct test_png_stats *st)
{
	test_png_stats_rect(img, 0, 0, img->width, img->height, cap, st);
}
