/*
 * gzout: gzip written through a stdio stream (see gzout.h), with glibc's
 * fopencookie: stdio buffers, this deflates each buffer into the stream
 * under.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/gzout.h"

struct sr_gzout {
	FILE *f;            /* the stream the writer writes */
	z_stream z;
	FILE *under;
	int err;            /* SR_OK, or what went wrong first */
	unsigned char out[1 << 16];
};

/* Deflate what z holds with flush, the output to under. */
static int pump(struct sr_gzout *g, int flush)
{
	int zr;

	do {
		size_t n;

		g->z.next_out = g->out;
		g->z.avail_out = sizeof(g->out);
		zr = deflate(&g->z, flush);
		if (zr == Z_STREAM_ERROR)
			return g->err = SR_EINTERNAL;
		n = sizeof(g->out) - g->z.avail_out;
		if (n && fwrite(g->out, 1, n, g->under) != n)
			return g->err = SR_EIO;
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
	return SR_OK;
}

static ssize_t gz_write(void *cookie, const char *buf, size_t len)
{
	struct sr_gzout *g = cookie;

	if (g->err) {
		errno = EIO;
		return -1;
	}
	g->z.next_in = (unsigned char *)(uintptr_t)buf;
	g->z.avail_in = (uInt)len;
	if (len > (uInt)-1 || pump(g, Z_NO_FLUSH)) {
		if (!g->err)
			g->err = SR_EIO;
		errno = EIO;
		return -1;
	}
	return (ssize_t)len;
}

static int gz_close(void *cookie)
{
	struct sr_gzout *g = cookie;
	int rc = g->err;

	if (!rc) {
		g->z.next_in = NULL;
		g->z.avail_in = 0;
		rc = pump(g, Z_FINISH);
	}
	deflateEnd(&g->z);
	g->err = rc;
	return rc ? EOF : 0;
}

bool sr_gzout_wanted(const char *path)
{
	size_t n = strlen(path);

	return n > 3 && !strcmp(path + n - 3, ".gz");
}

int sr_gzout_open(struct sr_gzout **z, FILE *under, struct sr_diag *d)
{
	static const cookie_io_functions_t io = {
		.write = gz_write, .close = gz_close,
	};
	struct sr_gzout *g = calloc(1, sizeof(*g));

	*z = NULL;
	if (!g)
		return sr_oom(d);
	g->under = under;
	/* 15 + 16: the gzip wrapper, its header without name or time */
	if (deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16,
			 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return sr_oom(d);
	}
	if (!(g->f = fopencookie(g, "w", io))) {
		deflateEnd(&g->z);
		free(g);
		return sr_oom(d);
	}
	*z = g;
	return SR_OK;
}

FILE *sr_gzout_fp(struct sr_gzout *z)
{
	return z->f;
}

int sr_gzout_close(struct sr_gzout *z, struct sr_diag *d)
{
	int rc;

	if (!z)
		return SR_OK;
	rc = fclose(z->f) == 0 && !z->err ? SR_OK : z->err ? z->err : SR_EIO;
	free(z);
	if (rc == SR_EINTERNAL)
		return sr_fail(d, rc, "gzip: deflate refused its own stream");
	if (rc)
		return sr_fail(d, rc, "gzip: the compressed output could not "
			       "be written");
	return SR_OK;
}
