/*
 * test-gzout: the gzip stream (lib/gzout.h): what goes in comes out of
 * zlib's own reader byte for byte, over several of stdio's buffers; the
 * same bytes in give the same file (no time in the header: bytes 4-7,
 * MTIME, are 0, RFC 1952); a write that fails underneath (/dev/full: a
 * full disk) is SR_EIO at the close.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/gzout.h"
#include "tests/lib/test.h"

#define N (300 * 1000)  /* several of stdio's and deflate's buffers */

/* Compress the text into a temporary file; its bytes to *out, *len. */
static int compress_text(const char *text, size_t n, unsigned char **out,
			 size_t *len)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_gzout *z;
	FILE *f = tmpfile();
	int rc;

	if (!f)
		return -1;
	if ((rc = sr_gzout_open(&z, f, &d)))
		return rc;
	for (size_t i = 0; i < n; i += 1000) /* many small writes */
		fwrite(text + i, 1, n - i < 1000 ? n - i : 1000,
		       sr_gzout_fp(z));
	if ((rc = sr_gzout_close(z, &d)))
		return rc;
	*len = (size_t)ftell(f);
	*out = malloc(*len);
	rewind(f);
	if (!*out || fread(*out, 1, *len, f) != *len)
		return -1;
	fclose(f);
	return 0;
}

int main(void)
{
	char *text = malloc(N), *back = malloc(N + 1);
	unsigned char *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	z_stream z;

	if (!text || !back)
		return 1;
	for (size_t i = 0; i < N; i++) /* JSON-like, compressible */
		text[i] = "{\"ph\":\"X\",\"ts\":0123456789}\n"[i % 27] +
			  (i % 9973 == 0);
	CHECK_INT(compress_text(text, N, &a, &na), 0);
	CHECK_INT(compress_text(text, N, &b, &nb), 0);
	/* the same file, and a gzip one without a time */
	CHECK(na == nb && !memcmp(a, b, na));
	CHECK(na > 10 && a[0] == 0x1f && a[1] == 0x8b && a[2] == 8);
	CHECK(a[4] == 0 && a[5] == 0 && a[6] == 0 && a[7] == 0);
	CHECK(na < N / 5);
	/* zlib's reader gives the text back, and the stream ends there */
	memset(&z, 0, sizeof(z));
	CHECK_INT(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = a;
	z.avail_in = (uInt)na;
	z.next_out = (unsigned char *)back;
	z.avail_out = N + 1;
	CHECK_INT(inflate(&z, Z_FINISH), Z_STREAM_END);
	CHECK_INT(z.total_out, N);
	CHECK_INT(z.avail_in, 0);
	CHECK(!memcmp(back, text, N));
	inflateEnd(&z);
	/* a full disk underneath: SR_EIO, said */
	{
		struct sr_diag d = SR_DIAG_INIT;
		struct sr_gzout *g;
		FILE *full = fopen("/dev/full", "w");

		CHECK(full != NULL);
		if (full) {
			setvbuf(full, NULL, _IONBF, 0);
			CHECK_INT(sr_gzout_open(&g, full, &d), SR_OK);
			fwrite(text, 1, N, sr_gzout_fp(g));
			CHECK_INT(sr_gzout_close(g, &d), SR_EIO);
			CHECK(strstr(d.msg, "could not be written") != NULL);
			fclose(full);
		}
	}
	/* what the export takes for gzip */
	CHECK(sr_gzout_wanted("out.json.gz"));
	CHECK(!sr_gzout_wanted("out.json"));
	CHECK(!sr_gzout_wanted(".gz"));
	CHECK(!sr_gzout_wanted("out.gzip"));
	free(text);
	free(back);
	free(a);
	free(b);
	return test_done("test-gzout");
}
