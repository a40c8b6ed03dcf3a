/*
 * test-image: plots/image.h, the check that an image gnuplot wrote is
 * whole before it replaces the previous one (gnuplot exits 0 when its
 * writes fail).
 *
 * One small file of each kind, built here from the formats' rules (a
 * 1x1 grey PNG: signature, IHDR, IDAT, IEND, each chunk's CRC-32 over
 * its type and data; an SVG ending </svg>; a PDF from %PDF- to %%EOF),
 * is whole; every prefix of it is not (a full disk stops a write at any
 * byte), except a prefix that only drops the blanks after an SVG's or a
 * PDF's last line; a flipped CRC byte, bytes after IEND and a first
 * chunk other than IHDR are refused too.  The message names the file
 * and "write failed".
 */
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "plots/image.h"
#include "tests/lib/test.h"

static size_t put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
	return 4;
}

/* A chunk: length, type, data, CRC-32 of type and data. */
static size_t chunk(unsigned char *p, const char *type,
		    const unsigned char *data, uint32_t len)
{
	size_t n = put32(p, len);

	memcpy(p + n, type, 4);
	if (len)
		memcpy(p + n + 4, data, len);
	n += 4 + len;
	return n + put32(p + n, (uint32_t)crc32(0, p + 4, len + 4));
}

static size_t make_png(unsigned char *p, int bad_first)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n',
					      0x1a, '\n' };
	/* width 1, height 1, depth 8, grey, deflate, filter 0, no interlace */
	static const unsigned char ihdr[13] = { 0, 0, 0, 1, 0, 0, 0, 1, 8,
						0, 0, 0, 0 };
	/* one row: filter byte 0, one grey pixel */
	static const unsigned char row[2] = { 0, 0x80 };
	unsigned char z[64];
	uLongf zn = sizeof(z);
	size_t n = 8;

	memcpy(p, sig, 8);
	compress(z, &zn, row, sizeof(row));
	if (bad_first)
		n += chunk(p + n, "IDAT", z, (uint32_t)zn);
	n += chunk(p + n, "IHDR", ihdr, sizeof(ihdr));
	if (!bad_first)
		n += chunk(p + n, "IDAT", z, (uint32_t)zn);
	return n + chunk(p + n, "IEND", NULL, 0);
}

static int check(const char *name, const unsigned char *b, size_t n,
		 struct sr_diag *d)
{
	int fd = memfd_create("image", 0);
	int rc;

	d->code = SR_OK;
	d->msg[0] = '\0';
	if (fd < 0 || write(fd, b, n) != (ssize_t)n) {
		CHECK(!"memfd");
		return -1;
	}
	rc = pl_image_check(fd, name, name, d);
	close(fd);
	return rc;
}

static const char svg[] =
	"<?xml version=\"1.0\" encoding=\"utf-8\"  standalone=\"no\"?>\n"
	"<svg width=\"10\" height=\"10\" xmlns=\"http://www.w3.org/2000/svg\">\n"
	"<rect x=\"0\" y=\"0\" width=\"10\" height=\"10\"/>\n"
	"</svg>\n\n";
static const char pdf[] =
	"%PDF-1.5\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n"
	"%%EOF\n";

int main(void)
{
	struct sr_diag d;
	unsigned char png[256], bad[256];
	const struct {
		const char *name;
		const unsigned char *b;
		size_t n;
		size_t blanks;	/* trailing blanks a prefix may drop */
	} whole[] = {
		{ "a.png", png, 0, 0 },
		{ "a.svg", (const unsigned char *)svg, sizeof(svg) - 1, 2 },
		{ "a.pdf", (const unsigned char *)pdf, sizeof(pdf) - 1, 1 },
	};
	size_t npng = make_png(png, 0);

	/* 8 + (12 + 13) + (12 + zlib) + 12 */
	CHECK(npng > 8 + 25 + 12 + 12);
	for (size_t k = 0; k < sizeof(whole) / sizeof(whole[0]); k++) {
		size_t n = whole[k].n ? whole[k].n : npng;

		CHECK_CTX("%s whole", whole[k].name);
		CHECK_INT(check(whole[k].name, whole[k].b, n, &d), SR_OK);
		for (size_t cut = 0; cut < n; cut++) {
			int want = cut >= n - whole[k].blanks ? SR_OK : SR_EIO;

			CHECK_CTX("%s cut at %zu of %zu", whole[k].name, cut, n);
			CHECK_INT(check(whole[k].name, whole[k].b, cut, &d), want);
			if (want == SR_EIO)
				CHECK(strstr(d.msg, "write failed: gnuplot exited 0 but its") &&
				      strstr(d.msg, whole[k].name) == d.msg);
		}
	}
	CHECK_CTX("%s", "");
	/* a PNG's damage other than a cut */
	memcpy(bad, png, npng);
	bad[8 + 25 - 1] ^= 1;		/* IHDR's CRC */
	CHECK_INT(check("a.png", bad, npng, &d), SR_EIO);
	CHECK(strstr(d.msg, "the CRC of the IHDR chunk at byte 8 is wrong") != NULL);
	memcpy(bad, png, npng);
	bad[npng] = 0;
	CHECK_INT(check("a.png", bad, npng + 1, &d), SR_EIO);
	CHECK(strstr(d.msg, "1 bytes follow its IEND chunk") != NULL);
	CHECK_INT(check("a.png", bad, make_png(bad, 1), &d), SR_EIO);
	CHECK(strstr(d.msg, "its first chunk is not IHDR") != NULL);
	/* the kind is the extension's: a PNG named .svg is no SVG */
	CHECK_INT(check("a.svg", png, npng, &d), SR_EIO);
	CHECK_INT(check("a.pdf", (const unsigned char *)svg, sizeof(svg) - 1, &d),
		  SR_EIO);
	/* another extension: any byte will do, none will not */
	CHECK_INT(check("a.eps", (const unsigned char *)"x", 1, &d), SR_OK);
	CHECK_INT(check("a.eps", (const unsigned char *)"", 0, &d), SR_EIO);
	CHECK(strstr(d.msg, "it is empty") != NULL);
	return test_done("test-image");
}
