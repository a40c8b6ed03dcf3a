/*
 * test-stream: gzip read by the inflater the build has (ISA-L's igzip, or
 * zlib) against zlib itself (sr_stream_use_zlib), on the repository's
 * gzip samples and on gzip made here: several members in one file, a
 * member of nothing, text after the last member, a file cut short, a
 * deflate block of the invalid type, a damaged byte in the data and in the
 * crc.  The same bytes come out, in any read size; an error is the same
 * error: the same status and message, but where each inflater finds a
 * corrupt block and how much text it made before (the offsets, and its
 * own words for the damage), and how much of a cut block it decodes.
 * Expected messages are the forms parse/stream.h states.
 */
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "parse/stream.h"
#include "tests/lib/test.h"

/* All of path through a stream: its bytes (malloc'd) and the status. */
static unsigned char *slurp(const char *path, int zlib, size_t step,
			    size_t *len, struct sr_diag *d)
{
	struct sr_stream *s;
	unsigned char *buf = NULL;
	size_t cap = 0;
	long n;

	*len = 0;
	*d = (struct sr_diag)SR_DIAG_INIT;
	if (sr_stream_open(&s, path, 0, d))
		return NULL;
	if (zlib)
		sr_stream_use_zlib(s);
	for (;;) {
		if (cap - *len < step) {
			unsigned char *b = realloc(buf, cap = 2 * cap + step);

			if (!b)
				break;
			buf = b;
		}
		n = sr_stream_read(s, buf + *len, step, d);
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	sr_stream_close(s);
	return buf;
}

/* The part of a message both inflaters give alike: a corrupt member's
 * up to the offset (where each finds the damage, and how much text it
 * made before, are its own), a cut one's up to the text made before; any
 * other whole. */
static size_t form(const char *msg)
{
	static const char *const upto[] = {
		"corrupt gzip data near compressed byte ", "mid-stream",
	};

	for (size_t i = 0; i < 2; i++) {
		const char *p = strstr(msg, upto[i]);

		if (p)
			return (size_t)(p - msg) + strlen(upto[i]);
	}
	return strlen(msg);
}

static void both(const char *path, int want_code, const char *want)
{
	static const size_t steps[] = { 1 << 16, 4093, 7 };
	struct sr_diag dz, dd;
	size_t nz, nd;
	unsigned char *z, *b;

	CHECK_CTX("%s", path);
	z = slurp(path, 1, 1 << 16, &nz, &dz);
	CHECK_INT(dz.code, want_code);
	if (want)
		CHECK(strstr(dz.msg, want) != NULL);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		b = slurp(path, 0, steps[i], &nd, &dd);
		CHECK_CTX("%s, reads of %zu", path, steps[i]);
		CHECK_INT(dd.code, dz.code);
		CHECK(form(dd.msg) == form(dz.msg) &&
		      !memcmp(dd.msg, dz.msg, form(dz.msg)));
		if (!dz.code) {
			CHECK_INT(nd, nz);
			CHECK(nd == nz && (!nz || !memcmp(b, z, nz)));
		}
		free(b);
	}
	free(z);
	test_ctx[0] = '\0';
}

/* A gzip member of text, made with zlib here. */
static int gz(FILE *f, const char *text, size_t n)
{
	unsigned char out[1 << 16];
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY))
		return -1;
	z.next_in = (unsigned char *)text;
	z.avail_in = (uInt)n;
	do {
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = deflate(&z, Z_FINISH);
		fwrite(out, 1, sizeof(out) - z.avail_out, f);
	} while (rc == Z_OK);
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

int main(void)
{
	static const char *const globs[] = {
		"traces/*.gz", "traces/binary/*.gz", "tests/replay/data/*.gz",
		"tests/parse/data/real/*.gz",
	};
	char dir[256], p[512], text[200000];
	size_t files = 0, n = 0;
	FILE *f;
	long size;

	printf("test-stream: the build inflates with %s\n", sr_stream_inflater());
	for (size_t i = 0; i < sizeof(globs) / sizeof(globs[0]); i++) {
		glob_t g;

		if (glob(globs[i], 0, NULL, &g) != 0)
			continue;
		for (size_t k = 0; k < g.gl_pathc; k++, files++)
			both(g.gl_pathv[k], 0, NULL);
		globfree(&g);
	}
	CHECK(files >= 8);
	/* text that compresses unevenly: numbers and repeats */
	while (n + 40 < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "%zu comm=a%zu pid=%zu\n", n, n % 97,
				      n * 7919 % 100003);
	if (test_mktemp(dir, sizeof(dir), "stream", 1)) {
		CHECK(!"a temporary directory");
		return test_done("test-stream");
	}
	/* three members, one of nothing */
	snprintf(p, sizeof(p), "%s/members.gz", dir);
	f = fopen(p, "wb");
	CHECK(f && !gz(f, text, n) && !gz(f, "", 0) && !gz(f, text, n / 3));
	fclose(f);
	both(p, 0, NULL);
	/* text after the last member */
	snprintf(p, sizeof(p), "%s/trailing.gz", dir);
	f = fopen(p, "wb");
	CHECK(f && !gz(f, text, n));
	fputs("not gzip\n", f);
	fclose(f);
	both(p, SR_EDATA, "data after the gzip stream: it ends at compressed "
	     "byte ");
	/* cut short: the first half */
	snprintf(p, sizeof(p), "%s/members.gz", dir);
	f = fopen(p, "rb");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	{
		char q[512], cmd[1200];

		snprintf(q, sizeof(q), "%s/cut.gz", dir);
		snprintf(cmd, sizeof(cmd), "head -c %ld '%s' > '%s'", size / 2,
			 p, q);
		CHECK(system(cmd) == 0);
		snprintf(cmd, sizeof(cmd), "truncated gzip data: the "
			 "compressed stream ends at byte %ld, mid-stream",
			 size / 2);
		both(q, SR_EDATA, cmd);
	}
	/* a deflate block of the invalid type 3, a damaged byte in the
	 * data, a damaged crc */
	snprintf(p, sizeof(p), "%s/type3.gz", dir);
	f = fopen(p, "wb");
	fwrite("\037\213\010\000\000\000\000\000\000\003\007", 1, 11, f);
	for (int i = 0; i < 2000; i++)
		fputc(0, f);
	fclose(f);
	both(p, SR_EDATA, "corrupt gzip data near compressed byte ");
	for (int which = 0; which < 2; which++) {
		unsigned char *b;
		struct sr_diag d;
		size_t len;

		snprintf(p, sizeof(p), "%s/one.gz", dir);
		f = fopen(p, "wb");
		CHECK(f && !gz(f, text, n));
		fclose(f);
		f = fopen(p, "r+b");
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		/* the crc is the trailer's first four bytes */
		fseek(f, which ? size - 8 : size / 2, SEEK_SET);
		len = (size_t)fgetc(f);
		fseek(f, which ? size - 8 : size / 2, SEEK_SET);
		fputc((int)(len ^ 0x55), f);
		fclose(f);
		b = slurp(p, 1, 4096, &len, &d);
		free(b);
		CHECK_INT(d.code, SR_EDATA);
		both(p, SR_EDATA, which ? "corrupt gzip data near compressed "
		     "byte " : NULL);
	}
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	CHECK(system(p) == 0);
	return test_done("test-stream");
}
