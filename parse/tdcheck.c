/*
 * tdcheck: a trace.dat's layout walked before libtracecmd reads it (see
 * tdcheck.h).  libtracecmd 1.3 believes what the file says: a size past
 * the end, an option without its NUL, a buffer option whose cpu table
 * is cut, an options chain that loops, a page whose commit count is
 * larger than the page: any of them makes it read past its buffers or
 * recurse without end.  So every size and offset it will follow is
 * checked here first, against the file and against what contains it,
 * and the first one wrong is named with its offset.
 *
 * Layout (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)):
 *   both: "\x17\x08\x44tracing" VERSION\0, u8 endian, u8 long size,
 *         u32 page size
 *   v6:   header_page, header_event, ftrace formats, event systems,
 *         kallsyms, printk, cmdlines (each a sized block), u32 cpus,
 *         ["options  \0" options... u16 0], "flyrecord\0" and per cpu
 *         u64 offset, u64 size (a BUFFER option points at another
 *         "flyrecord\0" table: an instance)
 *   v7:   COMPRESSION\0 VERSION\0, u64 offset of the first options
 *         section; sections: u16 id, u16 flags, u32 string, u64 size;
 *         options sections chain through their DONE option; the
 *         header, formats, kallsyms, printk and cmdlines sections and
 *         each buffer's data section are named by options.
 * Options: u16 id, u32 size, data.  A compressed section (v7 with zstd
 * or zlib: u32 compressed size, u32 inflated size, the data; a buffer's
 * cpu data in chunks of the same) is inflated here and its content
 * checked like the rest: libtracecmd 1.3 crashes on a chunk that does not
 * inflate inside an instance buffer, and would believe what it inflates.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <zlib.h>
#include <zstd.h>

#include <event-parse.h>

#include "lib/grow.h"
#include "parse/tdcheck.h"
#include "parse/tdwrite.h"
#include "parse/tracing.h"

#define SEC_FL_COMPRESS 1
#define MAX_SECTIONS 4096
#define MAX_CPUS 8192

enum {
	OPT_DONE = 0, OPT_DATE = 1, OPT_CPUSTAT = 2, OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4, OPT_UNAME = 5, OPT_HOOK = 6, OPT_OFFSET = 7,
	OPT_CPUCOUNT = 8, OPT_VERSION = 9, OPT_PROCMAPS = 10,
	OPT_TRACEID = 11, OPT_TIME_SHIFT = 12, OPT_GUEST = 13,
	OPT_TSC2NSEC = 14, OPT_STRINGS = 15, OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17, OPT_EVENT_FORMATS = 18, OPT_KALLSYMS = 19,
	OPT_PRINTK = 20, OPT_CMDLINES = 21, OPT_BUFFER_TEXT = 22,
};

struct tdc {
	const uint8_t *m;
	uint64_t len;
	const char *file;
	struct sr_diag *d;
	int swap;
	int v7;
	int compressed;      /* the file names a compression algorithm */
	uint32_t page;
	int long_size;
	uint32_t cpus;       /* v6: cpus of every buffer */
	uint32_t cpu_end;    /* 1 + the highest cpu number listed */
	uint8_t seen[MAX_CPUS / 8]; /* v7: a buffer's cpus listed so far */
	int clock;           /* v6: a TRACECLOCK option was seen */
	unsigned nsections;  /* v7: options sections walked */
	int zstd;            /* the algorithm: zstd, else zlib */
	uint64_t zat;        /* checking inflated bytes of the block at zat */
	int have_header;     /* the header page was read: long_size is its */
	uint64_t ctx_at, ctx_len; /* our context option's data, if any */
	struct cpuspan { uint64_t off, size, bound; int z; } *spans;
	size_t nspans, capspans; /* cpu data, walked once the header is read */
};

static int fail(struct tdc *t, uint64_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct tdc *t, uint64_t at, const char *fmt, ...)
{
	char msg[SR_DIAG_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (t->zat)  /* offsets within an inflated block */
		return sr_fail(t->d, SR_EDATA, "%s:%llu: in the compressed "
			       "data, at its inflated byte %llu: %s", t->file,
			       (unsigned long long)t->zat,
			       (unsigned long long)at, msg);
	return sr_fail(t->d, SR_EDATA, "%s:%llu: %s", t->file,
		       (unsigned long long)at, msg);
}

/*
 * Inflate csize bytes at at (zstd or zlib, as the file says) into a new
 * buffer of exactly usize bytes, or fail.
 */
static int inflate_at(struct tdc *t, uint64_t at, uint32_t csize,
		      uint32_t usize, uint8_t **out)
{
	uint8_t *buf = malloc(usize ? usize : 1);
	size_t got;

	*out = NULL;
	if (!buf)
		return sr_oom(t->d);
	if (t->zstd) {
		got = ZSTD_decompress(buf, usize, t->m + at, csize);
		if (ZSTD_isError(got))
			got = (size_t)-1;
	} else {
		uLongf n = usize;

		got = uncompress(buf, &n, t->m + at, csize) == Z_OK ?
		      (size_t)n : (size_t)-1;
	}
	if (got != usize) {
		free(buf);
		return fail(t, at, "expected %u bytes of %s data to inflate to "
			    "%u bytes, got %s", csize, t->zstd ? "zstd" : "zlib",
			    usize, got == (size_t)-1 ? "an error: corrupt "
			    "compressed data" : "another size");
	}
	*out = buf;
	return SR_OK;
}

/* Check inflated bytes with fn, as if they were the file. */
static int on_inflated(struct tdc *t, uint64_t zat, const uint8_t *buf,
		       uint64_t n, int (*fn)(struct tdc *, uint64_t *, uint64_t),
		       int id)
{
	struct tdc in = *t;
	uint64_t at = 0;
	int rc;

	(void)id;
	in.m = buf;
	in.len = n;
	in.zat = zat;
	rc = fn(&in, &at, n);
	t->long_size = in.long_size;     /* the header page said it */
	t->have_header = in.have_header;
	return rc;
}

/* [at, at + n) must lie within [0, end). */
static int within(struct tdc *t, uint64_t at, uint64_t n, uint64_t end,
		  const char *what)
{
	if (at > end || n > end - at)
		return fail(t, at > end ? end : at, "expected %s (%llu bytes at "
			    "offset %llu) within %s, got it past the end at "
			    "%llu: truncated or corrupt", what,
			    (unsigned long long)n, (unsigned long long)at,
			    end == t->len ? "the file" : "its section",
			    (unsigned long long)end);
	return SR_OK;
}

static uint16_t r16(const struct tdc *t, uint64_t at)
{
	uint16_t v;

	memcpy(&v, t->m + at, 2);
	return t->swap ? __builtin_bswap16(v) : v;
}

static uint32_t r32(const struct tdc *t, uint64_t at)
{
	uint32_t v;

	memcpy(&v, t->m + at, 4);
	return t->swap ? __builtin_bswap32(v) : v;
}

static uint64_t r64(const struct tdc *t, uint64_t at)
{
	uint64_t v;

	memcpy(&v, t->m + at, 8);
	return t->swap ? __builtin_bswap64(v) : v;
}

/* A NUL-terminated string starting at *at before end; *at moves past. */
static int str_at(struct tdc *t, uint64_t *at, uint64_t end, const char *what)
{
	const uint8_t *nul;

	if (*at >= end ||
	    !(nul = memchr(t->m + *at, 0, (size_t)(end - *at))))
		return fail(t, *at, "expected %s ending in a NUL byte, got none "
			    "before %llu", what, (unsigned long long)end);
	*at = (uint64_t)(nul - t->m) + 1;
	return SR_OK;
}

/* A block of a u32 (wide: u64) size and its bytes, at *at before end. */
static int block(struct tdc *t, uint64_t *at, uint64_t end, int wide,
		 const char *what)
{
	uint64_t n;

	if (within(t, *at, wide ? 8 : 4, end, what))
		return t->d->code;
	n = wide ? r64(t, *at) : r32(t, *at);
	*at += wide ? 8 : 4;
	if (within(t, *at, n, end, what))
		return t->d->code;
	*at += n;
	return SR_OK;
}

static int tag(struct tdc *t, uint64_t *at, uint64_t end, const char *want,
	       size_t n)
{
	if (within(t, *at, n, end, want))
		return t->d->code;
	if (memcmp(t->m + *at, want, n) != 0) {
		char q[48];

		sr_quote(q, sizeof(q), (const char *)t->m + *at, n);
		return fail(t, *at, "expected '%s', got '%s'", want, q);
	}
	*at += n;
	return SR_OK;
}

/* The blocks that carry the formats (v6 in a row, v7 one per section). */
/*
 * The ring-buffer page header's format must parse: libtracecmd 1.3
 * crashes in its own error path (tracecmd_close() of the half-open
 * handle) when libtraceevent refuses it.  Parsed here first, by the same
 * libtraceevent, on a handle of our own.
 */
static int header_page_parses(struct tdc *t, uint64_t at, uint64_t n)
{
	struct tep_handle *tep;
	char *buf;
	int rc;

	if (n > (1u << 20))
		return fail(t, at, "expected a header page format of at most "
			    "1 MiB, got %llu bytes", (unsigned long long)n);
	buf = malloc((size_t)n + 1);
	tep = tep_alloc();
	if (!buf || !tep) {
		free(buf);
		tep_free(tep);
		return sr_oom(t->d);
	}
	memcpy(buf, t->m + at, (size_t)n);
	buf[n] = '\0';
	tep_set_long_size(tep, t->long_size);
	rc = tep_parse_header_page(tep, buf, (unsigned long)n, t->long_size);
	free(buf);
	if (rc != 0) {
		tep_free(tep);
		return fail(t, at, "expected the ring-buffer page header's "
			    "format, got text libtraceevent cannot parse");
	}
	/* what libtracecmd then takes from it: a u64 timestamp (else it
	 * fails a page read and crashes closing), the commit field's size
	 * as the kernel's long (kbuffer reads pages with it), and the
	 * format of 2.6.31 on (the older one is walked differently) */
	if (tep_get_header_timestamp_size(tep) != 8 ||
	    (tep_get_header_page_size(tep) != 4 &&
	     tep_get_header_page_size(tep) != 8) || tep_is_old_format(tep)) {
		rc = fail(t, at, "expected a page header of a u64 timestamp and "
			  "a 4 or 8 byte commit count, got timestamp size %d, "
			  "commit size %d%s", tep_get_header_timestamp_size(tep),
			  tep_get_header_page_size(tep),
			  tep_is_old_format(tep) ? " (the format before 2.6.31)"
						 : "");
		tep_free(tep);
		return rc;
	}
	t->long_size = tep_get_header_page_size(tep);
	t->have_header = 1;
	tep_free(tep);
	return SR_OK;
}

static int header_info(struct tdc *t, uint64_t *at, uint64_t end)
{
	uint64_t page_at;

	if (tag(t, at, end, "header_page", 12))
		return t->d->code;
	page_at = *at;
	if (block(t, at, end, 1, "the header page") ||
	    header_page_parses(t, page_at + 8, *at - page_at - 8) ||
	    tag(t, at, end, "header_event", 13) ||
	    block(t, at, end, 1, "the header event"))
		return t->d->code;
	return SR_OK;
}

/* An event format block (u64 size, text) that libtraceevent may parse. */
static int format_block(struct tdc *t, uint64_t *at, uint64_t end,
			const char *what)
{
	uint64_t n, start;
	char why[128];

	if (within(t, *at, 8, end, what))
		return t->d->code;
	n = r64(t, *at);
	start = *at + 8;
	if (within(t, start, n, end, what))
		return t->d->code;
	if (sr_format_check((const char *)t->m + start, (size_t)n, why,
			    sizeof(why)))
		return fail(t, start, "expected %s libtraceevent can parse, "
			    "got one that does not hold together (%s)", what,
			    why);
	*at = start + n;
	return SR_OK;
}

static int ftrace_formats(struct tdc *t, uint64_t *at, uint64_t end)
{
	uint32_t n;

	if (within(t, *at, 4, end, "the number of ftrace formats"))
		return t->d->code;
	n = r32(t, *at);
	*at += 4;
	for (uint32_t i = 0; i < n; i++)
		if (format_block(t, at, end, "an ftrace format"))
			return t->d->code;
	return SR_OK;
}

static int event_formats(struct tdc *t, uint64_t *at, uint64_t end)
{
	uint32_t nsys, n;

	if (within(t, *at, 4, end, "the number of event systems"))
		return t->d->code;
	nsys = r32(t, *at);
	*at += 4;
	for (uint32_t s = 0; s < nsys; s++) {
		if (str_at(t, at, end, "an event system's name") ||
		    within(t, *at, 4, end, "the number of a system's formats"))
			return t->d->code;
		n = r32(t, *at);
		*at += 4;
		for (uint32_t i = 0; i < n; i++)
			if (format_block(t, at, end, "an event format"))
				return t->d->code;
	}
	return SR_OK;
}

/*
 * One cpu's ring-buffer pages, walked as libtraceevent's kbuffer walks
 * them: a page starts with a u64 timestamp and a long whose low 27 bits
 * count the data bytes (bit 31: events were missed before it; bit 30:
 * their number is stored as a long after the data); then events, each
 * a u32 of type_len (5 bits) and time delta, and a length by type_len:
 * 29 padding (u32 length follows), 30 and 31 time extend and stamp (4
 * bytes more), 0 (u32 length, including itself, follows), 1..28 (that
 * many words of data).  kbuffer believes the counts: an event reaching
 * past the data, or a length that does not move forward, would have it
 * read another page's bytes or loop, so they are errors here.
 */
static int pages(struct tdc *t, uint64_t off, uint64_t size)
{
	uint64_t hdr = 8 + (uint64_t)t->long_size;

	for (uint64_t p = off; p < off + size; p += t->page) {
		uint64_t left = off + size - p, raw, commit, limit, cur = 0;

		if (left < hdr)
			return fail(t, p, "expected a ring-buffer page header "
				    "(%llu bytes), got %llu bytes: a page cut "
				    "short", (unsigned long long)hdr,
				    (unsigned long long)left);
		raw = t->long_size == 8 ? r64(t, p + 8) : r32(t, p + 8);
		commit = (uint32_t)raw & ((1u << 27) - 1);
		limit = t->page - hdr;
		if ((raw & (1u << 31)) && (raw & (1u << 30)))
			limit -= (uint64_t)t->long_size; /* the lost count */
		if (commit > limit || commit > left - hdr)
			return fail(t, p + 8, "expected a page's data size of at "
				    "most %llu bytes, got %llu: %s",
				    (unsigned long long)limit,
				    (unsigned long long)commit,
				    commit > left - hdr ? "a page cut short "
				    "(the file ends mid-page)" : "corrupt page");
		while (cur < commit) {
			uint64_t at = p + hdr + cur, next;
			uint32_t tl, len;

			if (commit - cur < 4)
				return fail(t, at, "expected an event header (4 "
					    "bytes) within the page's data, got "
					    "%llu bytes", (unsigned long long)
					    (commit - cur));
			tl = r32(t, at) & 31;
			if (tl >= 29 || tl == 0) {
				if (commit - cur < 8)
					return fail(t, at, "expected an event "
						    "header of 8 bytes within the "
						    "page's data, got %llu",
						    (unsigned long long)
						    (commit - cur));
				len = r32(t, at + 4);
			} else {
				len = tl * 4;
			}
			if (tl == 29)
				next = cur + 4 + len;
			else if (tl >= 30)
				next = cur + 8;
			else if (tl == 0) {
				if (len < 4)
					return fail(t, at + 4, "expected an event "
						    "length of at least 4, got %u",
						    len);
				next = cur + 8 + (((uint64_t)len - 4 + 3) & ~3ull);
			} else
				next = cur + 4 + len;
			if (next > commit && tl != 29)
				return fail(t, at, "expected the event (%llu "
					    "bytes) within the page's %llu bytes "
					    "of data, got it past their end: "
					    "corrupt page",
					    (unsigned long long)(next - cur),
					    (unsigned long long)commit);
			cur = next;
		}
	}
	return SR_OK;
}

/*
 * A cpu's data: within the file and, uncompressed, its pages sane.
 * Compressed, the size trace-cmd records leaves out the u32 chunk count
 * that comes first; the chunks must stay within bound (the section).
 */
static int cpu_data(struct tdc *t, uint64_t off, uint64_t size,
		    int compressed, uint64_t bound)
{
	if (within(t, off, size, t->len, "a cpu's trace data"))
		return t->d->code;
	if (!compressed)
		return pages(t, off, size);
	/* u32 chunks, then per chunk u32 compressed, u32 inflated, data */
	{
		uint64_t at = off, end = bound;
		uint32_t n;

		if (size == 0)
			return SR_OK;
		if (within(t, at, 4, end, "the number of compressed chunks"))
			return t->d->code;
		n = r32(t, at);
		at += 4;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t csize, usize;
			uint8_t *buf;
			int rc;

			if (within(t, at, 8, end, "a compressed chunk's sizes"))
				return t->d->code;
			csize = r32(t, at);
			usize = r32(t, at + 4);
			if (usize > (64u << 20) || usize % t->page)
				return fail(t, at + 4, "expected a chunk of whole "
					    "pages of %u bytes, at most 64 MiB "
					    "inflated, got %u bytes", t->page,
					    usize);
			at += 8;
			if (within(t, at, csize, end, "a compressed chunk") ||
			    inflate_at(t, at, csize, usize, &buf))
				return t->d->code;
			{
				struct tdc in = *t;

				in.m = buf;
				in.len = usize;
				in.zat = at;
				rc = pages(&in, 0, usize);
			}
			free(buf);
			if (rc)
				return rc;
			at += csize;
		}
	}
	return SR_OK;
}

/*
 * A buffer's cpu data, checked once the header page has said how long
 * the kernel's long is (the pages are read with it): within the file at
 * once, the pages after the walk.
 */
static int defer_cpu_data(struct tdc *t, uint64_t off, uint64_t size,
			  int compressed, uint64_t bound)
{
	if (within(t, off, size, t->len, "a cpu's trace data"))
		return t->d->code;
	{
		struct cpuspan *v = sr_grow(t->spans, &t->capspans, t->nspans,
					    sizeof(*v), 16, 0);

		if (!v)
			return sr_oom(t->d);
		t->spans = v;
	}
	t->spans[t->nspans].off = off;
	t->spans[t->nspans].size = size;
	t->spans[t->nspans].bound = bound;
	t->spans[t->nspans].z = compressed;
	t->nspans++;
	return SR_OK;
}

static int deferred_cpu_data(struct tdc *t)
{
	if (t->nspans && !t->have_header)
		return fail(t, 10, "expected the ring-buffer page header "
			    "(header_page) before the trace data, got none");
	for (size_t i = 0; i < t->nspans; i++)
		if (cpu_data(t, t->spans[i].off, t->spans[i].size,
			     t->spans[i].z, t->spans[i].bound))
			return t->d->code;
	return SR_OK;
}

/* v6: "flyrecord\0" and a table of cpus x (offset, size) at *at. */
static int flyrecord_v6(struct tdc *t, uint64_t at)
{
	if (tag(t, &at, t->len, "flyrecord", 10))
		return t->d->code;
	for (uint32_t c = 0; c < t->cpus; c++) {
		if (within(t, at, 16, t->len, "a cpu's data offset and size") ||
		    defer_cpu_data(t, r64(t, at), r64(t, at + 8), 0, t->len))
			return t->d->code;
		at += 16;
	}
	if (t->cpus > t->cpu_end)
		t->cpu_end = t->cpus;
	return SR_OK;
}

/* v7: the header of a section expected at off: its id and data range. */
static int section(struct tdc *t, uint64_t off, uint16_t want, uint16_t *flags,
		   uint64_t *data, uint64_t *end)
{
	uint64_t size;

	if (within(t, off, 16, t->len, "a section header"))
		return t->d->code;
	if (r16(t, off) != want)
		return fail(t, off, "expected section %u here, got section %u",
			    want, r16(t, off));
	*flags = r16(t, off + 2);
	size = r64(t, off + 8);
	if (within(t, off + 16, size, t->len, "the section's data"))
		return t->d->code;
	*data = off + 16;
	*end = off + 16 + size;
	if ((*flags & SEC_FL_COMPRESS) && !t->compressed)
		return fail(t, off + 2, "expected no compressed section in a "
			    "file whose compression is 'none', got one");
	return SR_OK;
}

static int kallsyms_body(struct tdc *t, uint64_t *at, uint64_t end)
{
	return block(t, at, end, 0, "kallsyms");
}

static int printk_body(struct tdc *t, uint64_t *at, uint64_t end)
{
	return block(t, at, end, 0, "the printk formats");
}

static int cmdlines_body(struct tdc *t, uint64_t *at, uint64_t end)
{
	return block(t, at, end, 1, "the command lines");
}

static int any_body(struct tdc *t, uint64_t *at, uint64_t end)
{
	return SR_OK;
}

/* The check of a section's content, by its id. */
static int (*section_body(uint16_t id))(struct tdc *, uint64_t *, uint64_t)
{
	switch (id) {
	case OPT_HEADER_INFO: return header_info;
	case OPT_FTRACE_EVENTS: return ftrace_formats;
	case OPT_EVENT_FORMATS: return event_formats;
	case OPT_KALLSYMS: return kallsyms_body;
	case OPT_PRINTK: return printk_body;
	case OPT_CMDLINES: return cmdlines_body;
	default: return any_body;
	}
}

/* v7: a section an option names (header, formats, ...). */
static int named_section(struct tdc *t, uint16_t id, uint64_t off)
{
	uint16_t flags;
	uint64_t at, end;

	if (section(t, off, id, &flags, &at, &end))
		return t->d->code;
	if (flags & SEC_FL_COMPRESS) {
		/* u32 compressed, u32 inflated, then the data */
		uint32_t csize, usize;
		uint8_t *buf;
		int rc;

		if (within(t, at, 8, end, "a compressed section's sizes"))
			return t->d->code;
		csize = r32(t, at);
		usize = r32(t, at + 4);
		if (usize > (256u << 20))
			return fail(t, at + 4, "expected a section of at most "
				    "256 MiB inflated, got %u bytes", usize);
		if (within(t, at + 8, csize, end, "the compressed data") ||
		    inflate_at(t, at + 8, csize, usize, &buf))
			return t->d->code;
		rc = on_inflated(t, at + 8, buf, usize, section_body(id), id);
		free(buf);
		return rc;
	}
	return section_body(id)(t, &at, end);
}

static int buffer_option(struct tdc *t, uint16_t id, uint64_t at,
			 uint64_t end)
{
	uint8_t *seen = t->seen;
	uint64_t off;
	uint32_t n;
	uint16_t flags;
	uint64_t sd, se;

	if (within(t, at, 8, end, "a buffer's offset"))
		return t->d->code;
	off = r64(t, at);
	at += 8;
	if (str_at(t, &at, end, "a buffer's name"))
		return t->d->code;
	if (!t->v7)
		return id == OPT_BUFFER ? flyrecord_v6(t, off) : SR_OK;
	if (str_at(t, &at, end, "a buffer's clock"))
		return t->d->code;
	if (section(t, off, id, &flags, &sd, &se))
		return t->d->code;
	if (id == OPT_BUFFER_TEXT)
		return SR_OK;
	if (within(t, at, 8, end, "a buffer's page size and cpu count"))
		return t->d->code;
	if (r32(t, at) != t->page)
		return fail(t, at, "expected the buffer's page size to be the "
			    "file's %u bytes, got %u", t->page, r32(t, at));
	n = r32(t, at + 4);
	at += 8;
	if (n > MAX_CPUS)
		return fail(t, at - 4, "expected at most %d cpus, got %u",
			    MAX_CPUS, n);
	/* the entries name their cpus: a recording of some cpus only lists
	 * those (0 and 2: a gap), so records are asked for by number up to
	 * the highest (cpu_end), and a number listed twice is refused */
	memset(t->seen, 0, sizeof(t->seen));
	for (uint32_t c = 0; c < n; c++) {
		uint64_t o, s;
		uint32_t cpu;

		if (within(t, at, 20, end, "a buffer's cpu entry"))
			return t->d->code;
		cpu = r32(t, at);
		if (cpu >= MAX_CPUS)
			return fail(t, at, "expected a cpu below %d, got %u",
				    MAX_CPUS, cpu);
		if (seen[cpu / 8] & (1u << (cpu % 8)))
			return fail(t, at, "expected each cpu once in a "
				    "buffer's cpu list, got cpu %u again", cpu);
		seen[cpu / 8] |= (uint8_t)(1u << (cpu % 8));
		if (cpu + 1 > t->cpu_end)
			t->cpu_end = cpu + 1;
		o = r64(t, at + 4);
		s = r64(t, at + 12);
		if (s && (o < sd || o > se || s > se - o))
			return fail(t, at + 4, "expected cpu %u's data (%llu "
				    "bytes at %llu) within its buffer section "
				    "(%llu to %llu), got it outside",
				    r32(t, at), (unsigned long long)s,
				    (unsigned long long)o,
				    (unsigned long long)sd,
				    (unsigned long long)se);
		if (s && defer_cpu_data(t, o, s, flags & SEC_FL_COMPRESS, se))
			return t->d->code;
		at += 20;
	}
	return SR_OK;
}

/* One option's data [at, at + size) by what libtracecmd reads of it. */
static int option(struct tdc *t, uint16_t id, uint64_t at, uint32_t size,
		  uint64_t *next)
{
	uint64_t end = at + size;

	switch (id) {
	case OPT_DONE:
		if (!t->v7)
			return SR_OK;
		if (size < 8)
			return fail(t, at, "expected the DONE option's 8-byte "
				    "offset, got %u bytes", size);
		*next = r64(t, at);
		return SR_OK;
	case OPT_TRACECLOCK:
		t->clock = 1;
		/* fall through */
	case OPT_DATE: case OPT_OFFSET: case OPT_UNAME: case OPT_VERSION:
		return str_at(t, &at, end, "the option's text");
	case OPT_CPUSTAT:
		if (size == 0)
			return fail(t, at, "expected a CPUSTAT option's text, "
				    "got none");
		return SR_OK;
	case OPT_CPUCOUNT:
		if (size < 4)
			return fail(t, at, "expected a 4-byte cpu count, got %u "
				    "bytes", size);
		if (r32(t, at) > MAX_CPUS)
			return fail(t, at, "expected at most %d cpus, got %u",
				    MAX_CPUS, r32(t, at));
		return SR_OK;
	case OPT_BUFFER:
	case OPT_BUFFER_TEXT:
		return buffer_option(t, id, at, end);
	case OPT_HOOK: case OPT_PROCMAPS: case OPT_TIME_SHIFT: case OPT_GUEST:
		return fail(t, at - 6, "expected none of the options for "
			    "event hooks, process maps or guest tracing "
			    "(option %u), got one: not supported", id);
	case OPT_HEADER_INFO: case OPT_FTRACE_EVENTS: case OPT_EVENT_FORMATS:
	case OPT_KALLSYMS: case OPT_PRINTK: case OPT_CMDLINES:
		if (!t->v7 || size < 8)
			return SR_OK;
		return named_section(t, id, r64(t, at));
	case SR_TD_OPTION_CONTEXT:
		/* the recording's context (schedreplay record): the last
		 * one in the file wins, as libtracecmd's options do */
		t->ctx_at = at;
		t->ctx_len = size;
		return SR_OK;
	default:
		return SR_OK; /* libtracecmd skips it, or checks its size */
	}
}

/* v6: the options list at *at, ended by a zero id. */
static int options_v6(struct tdc *t, uint64_t *at)
{
	for (;;) {
		uint16_t id;
		uint32_t size;
		uint64_t next = 0;

		if (within(t, *at, 2, t->len, "an option's id"))
			return t->d->code;
		id = r16(t, *at);
		*at += 2;
		if (id == OPT_DONE)
			return SR_OK;
		if (within(t, *at, 4, t->len, "an option's size"))
			return t->d->code;
		size = r32(t, *at);
		*at += 4;
		if (within(t, *at, size, t->len, "an option's data") ||
		    option(t, id, *at, size, &next))
			return t->d->code;
		*at += size;
	}
}

/*
 * v7: libtracecmd opens a file by walking every section header from the
 * first, each size after the last, and loading the strings sections
 * (descriptions) it meets: their sizes are believed too.
 */
static int strings_v7(struct tdc *t, uint64_t pos)
{
	for (unsigned n = 0; pos + 16 <= t->len; n++) {
		uint64_t size = r64(t, pos + 8);

		if (n > (1u << 20))
			return fail(t, pos, "expected at most 2^20 sections, "
				    "got more");
		if (r16(t, pos) == OPT_STRINGS) {
			uint64_t at = pos + 16, end;

			if (within(t, at, size, t->len, "a strings section"))
				return t->d->code;
			end = at + size;
			if (r16(t, pos + 2) & SEC_FL_COMPRESS) {
				uint32_t csize, usize;
				uint8_t *buf;

				if (!t->compressed)
					return fail(t, pos + 2, "expected no "
						    "compressed section in a "
						    "file whose compression is "
						    "'none', got one");
				if (within(t, at, 8, end, "a compressed "
					   "section's sizes"))
					return t->d->code;
				csize = r32(t, at);
				usize = r32(t, at + 4);
				if (usize > (256u << 20))
					return fail(t, at + 4, "expected a "
						    "section of at most 256 MiB "
						    "inflated, got %u bytes",
						    usize);
				if (within(t, at + 8, csize, end,
					   "the compressed data") ||
				    inflate_at(t, at + 8, csize, usize, &buf))
					return t->d->code;
				free(buf);
			}
		}
		if (size > t->len - pos - 16)
			break;  /* libtracecmd stops there too */
		pos += 16 + size;
	}
	return SR_OK;
}

/* v7: the options sections from off, chained by their DONE options. */
static int options_v7(struct tdc *t, uint64_t off)
{
	while (off) {
		uint16_t flags;
		uint64_t at, end, next = 0;
		int done = 0;

		if (++t->nsections > MAX_SECTIONS)
			return fail(t, off, "expected at most %d options "
				    "sections, got more: the chain loops?",
				    MAX_SECTIONS);
		if (section(t, off, OPT_DONE, &flags, &at, &end))
			return t->d->code;
		if (flags & SEC_FL_COMPRESS)
			return fail(t, off + 2, "expected an uncompressed "
				    "options section (trace-cmd writes them "
				    "so), got a compressed one");
		while (!done) {
			uint16_t id;
			uint32_t size;

			if (within(t, at, 6, end, "an option's id and size"))
				return t->d->code;
			id = r16(t, at);
			size = r32(t, at + 2);
			at += 6;
			if (within(t, at, size, end, "an option's data") ||
			    option(t, id, at, size, &next))
				return t->d->code;
			at += size;
			done = id == OPT_DONE;
		}
		if (next && next <= off)
			return fail(t, at - 8, "expected the next options "
				    "section after this one (%llu), got %llu: "
				    "the chain would loop",
				    (unsigned long long)off,
				    (unsigned long long)next);
		off = next;
	}
	return SR_OK;
}

static int walk(struct tdc *t)
{
	uint64_t at = 10;
	char ver[8];
	size_t vn;

	if (t->len < 10 || memcmp(t->m, "\x17\x08\x44tracing", 10) != 0)
		return fail(t, 0, "expected the trace.dat magic "
			    "\\x17\\x08Dtracing, got other bytes");
	if (str_at(t, &at, t->len < 32 ? t->len : 32, "the file version"))
		return t->d->code;
	vn = (size_t)(at - 11);
	memcpy(ver, t->m + 10, vn < sizeof(ver) ? vn : sizeof(ver) - 1);
	ver[vn < sizeof(ver) ? vn : sizeof(ver) - 1] = '\0';
	if (strcmp(ver, "6") != 0 && strcmp(ver, "7") != 0) {
		char q[40];

		sr_quote(q, sizeof(q), (const char *)t->m + 10, vn);
		return fail(t, 10, "expected trace.dat file version 6 or 7, "
			    "got '%s'", q);
	}
	t->v7 = ver[0] == '7';
	if (within(t, at, 6, t->len, "the byte order, long size and page "
		   "size"))
		return t->d->code;
	if (t->m[at] > 1 || (t->m[at + 1] != 4 && t->m[at + 1] != 8))
		return fail(t, at, "expected a byte order of 0 or 1 and a long "
			    "size of 4 or 8, got %u and %u", t->m[at],
			    t->m[at + 1]);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	t->swap = !t->m[at];
#else
	t->swap = t->m[at];
#endif
	t->long_size = t->m[at + 1];
	t->page = r32(t, at + 2);
	if (t->page < 1024 || t->page > (1u << 20) ||
	    (t->page & (t->page - 1)))
		return fail(t, at + 2, "expected a page size that is a power "
			    "of two from 1 KiB to 1 MiB, got %u", t->page);
	at += 6;
	if (t->v7) {
		uint64_t c = at;

		if (str_at(t, &at, t->len, "the compression name") ||
		    str_at(t, &at, t->len, "the compression version") ||
		    within(t, at, 8, t->len, "the first options offset"))
			return t->d->code;
		t->compressed = strcmp((const char *)t->m + c, "none") != 0;
		t->zstd = !strcmp((const char *)t->m + c, "zstd");
		if (t->compressed && !t->zstd &&
		    strcmp((const char *)t->m + c, "zlib") != 0) {
			char q[40];

			sr_quote(q, sizeof(q), (const char *)t->m + c,
				 strlen((const char *)t->m + c));
			return fail(t, c, "expected the compression 'none', "
				    "'zstd' or 'zlib', got '%s'", q);
		}
		if (strings_v7(t, at + 8) || options_v7(t, r64(t, at)))
			return t->d->code;
		return deferred_cpu_data(t);
	}
	if (header_info(t, &at, t->len) || ftrace_formats(t, &at, t->len) ||
	    event_formats(t, &at, t->len) ||
	    block(t, &at, t->len, 0, "kallsyms") ||
	    block(t, &at, t->len, 0, "the printk formats") ||
	    block(t, &at, t->len, 1, "the command lines") ||
	    within(t, at, 4 + 10, t->len, "the cpu count and data tag"))
		return t->d->code;
	t->cpus = r32(t, at);
	if (t->cpus > MAX_CPUS)
		return fail(t, at, "expected at most %d cpus, got %u",
			    MAX_CPUS, t->cpus);
	at += 4;
	if (!memcmp(t->m + at, "options  \0", 10)) {
		at += 10;
		if (options_v6(t, &at))
			return t->d->code;
	}
	if (within(t, at, 10, t->len, "the data tag"))
		return t->d->code;
	if (!memcmp(t->m + at, "latency  \0", 10))
		return fail(t, at, "expected flyrecord data (events), got a "
			    "latency tracer's text: not supported");
	if (flyrecord_v6(t, at))
		return t->d->code;
	/* with a TRACECLOCK option, the clock text follows the table */
	at += 10 + 16 * (uint64_t)t->cpus;
	if (t->clock && block(t, &at, t->len, 1, "the trace clock"))
		return t->d->code;
	return deferred_cpu_data(t);
}

int sr_tdcheck(int fd, const char *file, struct sr_tdinfo *info,
	       struct sr_diag *d)
{
	struct tdc t = { 0 };
	struct stat st;
	void *m;
	int rc;

	if (fstat(fd, &st) != 0)
		return sr_fail(d, SR_EIO, "%s: %s", file, strerror(errno));
	memset(info, 0, sizeof(*info));
	info->size = (uint64_t)st.st_size;
	t.len = (uint64_t)st.st_size;
	t.file = file;
	t.d = d;
	if (t.len < 10)
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a trace.dat "
			       "header, got the end of the file: truncated",
			       file, (unsigned long long)t.len);
	m = mmap(NULL, (size_t)t.len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return sr_fail(d, SR_EIO, "%s: cannot map it: %s", file,
			       strerror(errno));
	t.m = m;
	rc = walk(&t);
	info->cpus = t.cpu_end;
	info->ctx_at = t.ctx_at;
	info->ctx_len = t.ctx_len;
	munmap(m, (size_t)t.len);
	free(t.spans);
	return rc;
}
