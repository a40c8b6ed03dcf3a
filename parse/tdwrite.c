/*
 * tdwrite: trace.dat version 6, little-endian with 8-byte longs (the
 * layout tdcheck.c walks): the header, the formats, no kallsyms or printk
 * formats, the command lines, the cpu count, the options, "flyrecord" and
 * its table of (offset, size) per cpu, then each cpu's pages from a
 * page-aligned offset.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "parse/tdwrite.h"

struct out {
	FILE *f;
	uint64_t at;   /* bytes written so far */
};

static void put(struct out *o, const void *p, size_t n)
{
	if (n)
		fwrite(p, 1, n, o->f);
	o->at += n;
}

static void put_le(struct out *o, uint64_t v, int bytes)
{
	unsigned char b[8];

	for (int i = 0; i < bytes; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	put(o, b, (size_t)bytes);
}

static void put_zeros(struct out *o, uint64_t n)
{
	static const char z[512];

	while (n) {
		size_t k = n < sizeof(z) ? (size_t)n : sizeof(z);

		put(o, z, k);
		n -= k;
	}
}

/* Systems in the order their formats come, each counted once. */
static void put_formats(struct out *o, const struct sr_tdw *w)
{
	uint32_t nsys = 0;

	for (size_t i = 0; i < w->nformats; i++)
		if (i == 0 || strcmp(w->formats[i].system,
				     w->formats[i - 1].system))
			nsys++;
	put_le(o, nsys, 4);
	for (size_t i = 0; i < w->nformats;) {
		size_t j = i;

		while (j < w->nformats && !strcmp(w->formats[j].system,
						  w->formats[i].system))
			j++;
		put(o, w->formats[i].system, strlen(w->formats[i].system) + 1);
		put_le(o, j - i, 4);
		for (; i < j; i++) {
			put_le(o, w->formats[i].len, 8);
			put(o, w->formats[i].text, w->formats[i].len);
		}
	}
}

static int copy_cpu(struct out *o, const struct sr_tdw_cpu *c,
		    const char *path, struct sr_diag *d)
{
	char buf[65536];
	uint64_t off = 0;

	while (off < c->len) {
		size_t want = c->len - off < sizeof(buf) ? (size_t)(c->len - off)
							 : sizeof(buf);
		ssize_t n = pread(c->fd, buf, want, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return sr_fail(d, SR_EIO, "%s: reading the recorded "
				       "pages back: %s", path, n < 0 ?
				       strerror(errno) : "they ended early");
		put(o, buf, (size_t)n);
		off += (uint64_t)n;
	}
	return SR_OK;
}

int sr_tdw_write(FILE *f, const struct sr_tdw *w, const char *path,
		 struct sr_diag *d)
{
	struct out o = { f, 0 };
	uint64_t data;

	put(&o, "\x17\x08\x44tracing", 10);
	put(&o, "6", 2);
	put_le(&o, 0, 1);   /* little-endian */
	put_le(&o, 8, 1);   /* long size */
	put_le(&o, w->page_size, 4);
	put(&o, "header_page", 12);
	put_le(&o, w->header_page.len, 8);
	put(&o, w->header_page.data, w->header_page.len);
	put(&o, "header_event", 13);
	put_le(&o, w->header_event.len, 8);
	put(&o, w->header_event.data, w->header_event.len);
	put_le(&o, 0, 4);   /* ftrace's own formats: none */
	put_formats(&o, w);
	put_le(&o, 0, 4);   /* kallsyms: none */
	put_le(&o, 0, 4);   /* printk formats: none */
	put_le(&o, w->cmdlines.len, 8);
	put(&o, w->cmdlines.data, w->cmdlines.len);
	put_le(&o, w->ncpu, 4);
	put(&o, "options  ", 10);
	for (size_t i = 0; i < w->nopts; i++) {
		put_le(&o, w->opts[i].id, 2);
		put_le(&o, w->opts[i].len, 4);
		put(&o, w->opts[i].data, w->opts[i].len);
	}
	put_le(&o, 0, 2);
	put(&o, "flyrecord", 10);
	data = o.at + 16 * (uint64_t)w->ncpu;
	data = (data + w->page_size - 1) / w->page_size * w->page_size;
	for (size_t i = 0; i < w->ncpu; i++) {
		put_le(&o, w->cpu[i].len ? data : 0, 8);
		put_le(&o, w->cpu[i].len, 8);
		data += w->cpu[i].len;
	}
	for (size_t i = 0; i < w->ncpu; i++) {
		if (!w->cpu[i].len)
			continue;
		put_zeros(&o, (w->page_size - o.at % w->page_size) %
			      w->page_size);
		if (copy_cpu(&o, &w->cpu[i], path, d))
			return d->code;
	}
	if (fflush(f) || ferror(f))
		return sr_fail(d, SR_EIO, "%s: write error: %s", path,
			       strerror(errno));
	return SR_OK;
}
