/*
 * image: the structure checks of a finished image (see image.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <zlib.h>

#include "plots/image.h"

#define IMAGE_MAX (1u << 30)	/* a plot is far smaller; beyond: refused */

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* NULL if the PNG in b[0..n) is whole, else what is wrong. */
static const char *png_whole(const unsigned char *b, size_t n, char *why,
			     size_t len)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r',
					      '\n', 0x1a, '\n' };
	size_t at = 8;

	if (n < 8 || memcmp(b, sig, 8))
		return "no PNG signature";
	for (int first = 1;; first = 0) {
		uint32_t clen;
		const unsigned char *type;

		if (n - at < 12) {
			snprintf(why, len, "it ends at byte %zu, inside a "
				 "chunk's header, before the IEND chunk", n);
			return why;
		}
		clen = be32(b + at);
		type = b + at + 4;
		if (clen > 0x7fffffffu || n - at - 12 < clen) {
			snprintf(why, len, "it ends at byte %zu, inside the "
				 "%.4s chunk at byte %zu (%u bytes of data), "
				 "before the IEND chunk", n, type, at, clen);
			return why;
		}
		if (first && memcmp(type, "IHDR", 4))
			return "its first chunk is not IHDR";
		if (crc32(crc32(0, NULL, 0), type, clen + 4) !=
		    be32(b + at + 8 + clen)) {
			snprintf(why, len, "the CRC of the %.4s chunk at byte "
				 "%zu is wrong", type, at);
			return why;
		}
		at += 12 + clen;
		if (!memcmp(type, "IEND", 4)) {
			if (at != n) {
				snprintf(why, len, "%zu bytes follow its IEND "
					 "chunk", n - at);
				return why;
			}
			return NULL;
		}
	}
}

/* Does b[0..n) end with tail, blanks after it allowed? */
static int ends_with(const unsigned char *b, size_t n, const char *tail)
{
	size_t t = strlen(tail);

	while (n && (b[n - 1] == '\n' || b[n - 1] == '\r' ||
		     b[n - 1] == ' ' || b[n - 1] == '\t'))
		n--;
	return n >= t && !memcmp(b + n - t, tail, t);
}

static const char *svg_whole(const unsigned char *b, size_t n)
{
	if (!memmem(b, n < 4096 ? n : 4096, "<svg", 4))
		return "no <svg element in its first 4096 bytes";
	if (!ends_with(b, n, "</svg>"))
		return "it does not end with </svg>";
	return NULL;
}

static const char *pdf_whole(const unsigned char *b, size_t n)
{
	if (n < 5 || memcmp(b, "%PDF-", 5))
		return "it does not start with %PDF-";
	if (!ends_with(b, n, "%%EOF"))
		return "it does not end with %%EOF";
	return NULL;
}

/* The whole file, through pread; NULL with errno set. */
static unsigned char *slurp(int fd, size_t *n)
{
	struct stat st;
	unsigned char *b;
	size_t got = 0;

	if (fstat(fd, &st) != 0)
		return NULL;
	if ((uint64_t)st.st_size > IMAGE_MAX) {
		errno = EFBIG;
		return NULL;
	}
	b = malloc((size_t)st.st_size + 1);
	if (!b)
		return NULL;
	while (got < (size_t)st.st_size) {
		ssize_t r = pread(fd, b + got, (size_t)st.st_size - got,
				  (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(b);
			return NULL;
		}
		if (r == 0)
			break;	/* shorter than fstat said: checked as is */
		got += (size_t)r;
	}
	*n = got;
	return b;
}

/* Why the writes may have failed: a full file system, a size limit. */
static const char *cause(int fd, size_t n)
{
	struct statvfs vf;
	struct rlimit rl;

	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (uint64_t)n >= (uint64_t)rl.rlim_cur)
		return "; it reached the file-size limit (ulimit -f): File too large";
	if (fstatvfs(fd, &vf) == 0 && (vf.f_bavail == 0 || vf.f_bfree == 0))
		return "; the file system is full: No space left on device";
	return "";
}

int pl_image_check(int fd, const char *name, const char *path,
		   struct sr_diag *d)
{
	const char *ext = strrchr(name, '.');
	unsigned char *b;
	const char *bad = NULL, *kind = "image";
	char why[160];
	size_t n = 0;

	b = slurp(fd, &n);
	if (!b)
		return sr_fail_errno(d, SR_EIO, errno, "%s: cannot read the "
				     "image back", path);
	if (!n) {
		bad = "it is empty";
	} else if (ext && !strcmp(ext, ".png")) {
		kind = "PNG";
		bad = png_whole(b, n, why, sizeof(why));
	} else if (ext && !strcmp(ext, ".svg")) {
		kind = "SVG";
		bad = svg_whole(b, n);
	} else if (ext && !strcmp(ext, ".pdf")) {
		kind = "PDF";
		bad = pdf_whole(b, n);
	}
	free(b);
	if (!bad)
		return SR_OK;
	return sr_fail(d, SR_EIO, "%s: write failed: gnuplot exited 0 but its "
		       "%s is incomplete (%zu bytes: %s)%s; the previous file "
		       "is kept", path, kind, n, bad, cause(fd, n));
}
