/*
 * tracing: the tracing-data block that perf.data (HEADER_TRACING_DATA)
 * stores: the ring-buffer page header and the event formats, as the
 * kernel's tracefs prints them, which libtraceevent parses.  Layout
 * (perf's trace-event-info.c writes it; trace.dat starts the same way):
 *
 *	"\x17\x08\x44tracing" VERSION '\0'   (version "0.5" or "0.6")
 *	u8 big_endian, u8 sizeof(long), u32 page_size
 *	"header_page\0" u64 size, data        (struct buffer_data_page)
 *	"header_event\0" u64 size, data       (skipped)
 *	u32 count, count x (u64 size, format) the ftrace/ events (skipped)
 *	u32 systems, per system: NAME '\0', u32 count, count x (u64 size,
 *	    format)
 *	u32 size, kallsyms (skipped); u32 size, printk formats (skipped)
 *	0.6: u64 size, saved cmdlines (skipped)
 *
 * Numbers are in the block's own byte order.  Every size is checked
 * against the bytes left; errors name the file offset.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "parse/tracing.h"

struct cur {
	const uint8_t *p;
	size_t n, at;
	uint64_t base;
	int swap;
	const char *file;
	struct sr_diag *d;
};

static int short_block(struct cur *c, const char *what, uint64_t need)
{
	return sr_fail(c->d, SR_EDATA, "%s:%llu: expected %s (%llu bytes) in "
		       "the tracing data, got %zu bytes left: truncated or "
		       "garbage tracing data", c->file,
		       (unsigned long long)(c->base + c->at), what,
		       (unsigned long long)need, c->n - c->at);
}

static int take(struct cur *c, uint64_t n, const char *what,
		const uint8_t **out)
{
	if (n > c->n - c->at)
		return short_block(c, what, n);
	*out = c->p + c->at;
	c->at += (size_t)n;
	return SR_OK;
}

static int u32_of(struct cur *c, const char *what, uint32_t *v)
{
	const uint8_t *p = NULL;

	if (take(c, 4, what, &p))
		return c->d->code;
	memcpy(v, p, 4);
	if (c->swap)
		*v = __builtin_bswap32(*v);
	return SR_OK;
}

static int u64_of(struct cur *c, const char *what, uint64_t *v)
{
	const uint8_t *p = NULL;

	if (take(c, 8, what, &p))
		return c->d->code;
	memcpy(v, p, 8);
	if (c->swap)
		*v = __builtin_bswap64(*v);
	return SR_OK;
}

static int tag(struct cur *c, const char *want)
{
	size_t n = strlen(want) + 1;
	const uint8_t *p = NULL;
	uint64_t at = c->base + c->at;

	if (take(c, n, want, &p))
		return c->d->code;
	if (memcmp(p, want, n) != 0) {
		char q[64];

		sr_quote(q, sizeof(q), (const char *)p, n);
		return sr_fail(c->d, SR_EDATA, "%s:%llu: expected '%s' in the "
			       "tracing data, got '%s': garbage tracing data",
			       c->file, (unsigned long long)at, want, q);
	}
	return SR_OK;
}

/* A NUL-terminated name of at most max bytes. */
static int name_of(struct cur *c, size_t max, const char *what, char *out)
{
	size_t k = 0;

	while (c->at + k < c->n && k < max && c->p[c->at + k])
		k++;
	if (c->at + k >= c->n || k >= max) {
		char q[64];

		sr_quote(q, sizeof(q), (const char *)c->p + c->at,
			 c->n - c->at < 32 ? c->n - c->at : 32);
		return sr_fail(c->d, SR_EDATA, "%s:%llu: expected %s (a name "
			       "of at most %zu bytes and a NUL) in the tracing "
			       "data, got '%s'", c->file,
			       (unsigned long long)(c->base + c->at), what,
			       max - 1, q);
	}
	memcpy(out, c->p + c->at, k);
	out[k] = '\0';
	c->at += k + 1;
	return SR_OK;
}

/* Skip a block of u32 or u64 size. */
static int skip_sized(struct cur *c, int wide, const char *what)
{
	uint64_t sz = 0;
	uint32_t s32 = 0;
	const uint8_t *p = NULL;

	if (wide) {
		if (u64_of(c, what, &sz))
			return c->d->code;
	} else {
		if (u32_of(c, what, &s32))
			return c->d->code;
		sz = s32;
	}
	return take(c, sz, what, &p);
}

static int ident_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_';
}

/*
 * The print expression's divisions: libtraceevent 1.7 folds an operation
 * of two numbers as it parses (consolidate_op_arg), so "x / 0", or
 * "x % (1-1)", or "migration/0" in a garbage expression (a word reads as
 * the number 0) divides by zero there.  The kernel's formats divide, when
 * they do, by a field or a constant: every '/' and '%' outside the
 * expression's strings must be followed by REC-> or by a non-zero number
 * that ends its operand (possibly in parentheses).  args: the print fmt
 * after its format string.
 */
static int divisions_check(const char *p, const char *end, char *why,
			   size_t whylen)
{
	char quote = 0;

	for (; p < end; p++) {
		const char *q;
		int open = 0;

		if (quote) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == quote)
				quote = 0;
			continue;
		}
		if (*p == '"' || *p == '\'') {
			quote = *p;
			continue;
		}
		if (*p != '/' && *p != '%')
			continue;
		q = p + 1;
		while (q < end && (*q == ' ' || *q == '\t' || *q == '(')) {
			open += *q == '(';
			q++;
		}
		if ((size_t)(end - q) >= 5 && !memcmp(q, "REC->", 5))
			continue;
		if ((size_t)(end - q) > 7 && !memcmp(q, "sizeof", 6) &&
		    !ident_char(q[6])) {
			/* sizeof(TYPE): a type's size, never 0 (libtraceevent
			 * refuses a type it does not know); sizeof(REC->f)
			 * is the field's size as the format says it: no */
			const char *t = q + 6;

			while (t < end && (*t == ' ' || *t == '\t'))
				t++;
			q = NULL;
			if (t < end && *t == '(') {
				const char *u = ++t;

				while (u < end && (ident_char(*u) || *u == ' ' ||
						   *u == '*'))
					u++;
				while (t < u && *t == ' ')
					t++;
				if (u < end && *u == ')' && u > t &&
				    !(u - t >= 3 && !memcmp(t, "REC", 3)))
					q = u + 1;
			}
		} else if (q < end && *q >= '1' && *q <= '9') {
			while (q < end && *q >= '0' && *q <= '9')
				q++;
		} else if ((size_t)(end - q) > 2 && q[0] == '0' &&
			   (q[1] == 'x' || q[1] == 'X')) {
			const char *h = q + 2, *nz = NULL;

			for (q = h; q < end && isxdigit((unsigned char)*q); q++)
				if (*q != '0')
					nz = q;
			if (!nz)
				q = NULL;
		} else {
			q = NULL;
		}
		/* a whole operand: nothing of it may follow but ')' or an
		 * operator that binds less (or as much, to the left) */
		while (q && q < end && (*q == 'U' || *q == 'L' || *q == 'u' ||
					*q == 'l'))
			q++;
		while (q && q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q && open) {
			while (q < end && open && (*q == ')' || *q == ' '))
				open -= *q++ == ')';
			if (open)
				q = NULL;
		}
		if (!q || (q < end && (ident_char(*q) || *q == '(' ||
				       *q == '.'))) {
			char x[24];

			sr_quote(x, sizeof(x), p, (size_t)(end - p) < 12 ?
				 (size_t)(end - p) : 12);
			snprintf(why, whylen, "its print fmt divides by something "
				 "else than a field or a non-zero number: '%s'",
				 x);
			return -1;
		}
	}
	return 0;
}

/* The field names a format declares: "field:TYPE NAME[N];" lines. */
#define FIELDS_MAX 256

int sr_format_check(const char *f, size_t n, char *why, size_t whylen)
{
	static const char *const refs[] = {
		"REC->", "__get_str(", "__get_dynamic_array(",
		"__get_dynamic_array_len(", "__get_bitmask(", "__get_rel_str(",
		"__get_cpumask(", "__get_rel_dynamic_array(",
	};
	struct { const char *s; size_t n; } names[FIELDS_MAX];
	size_t nn = 0;
	const char *end = f + n, *p = f, *pf;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *fd = memmem(p, (size_t)(le - p), "field:", 6);

		if (fd) {
			const char *semi = memchr(fd, ';', (size_t)(le - fd));
			const char *e;

			if (!semi) {
				snprintf(why, whylen, "a field line without ';'");
				return -1;
			}
			e = semi;
			if (e > fd && e[-1] == ']')  /* NAME[N] */
				while (e > fd && *e != '[')
					e--;
			{
				const char *b = e;

				while (b > fd + 6 && ident_char(b[-1]))
					b--;
				if (b == e) {
					snprintf(why, whylen, "a field without "
						 "a name");
					return -1;
				}
				if (nn == FIELDS_MAX) {
					snprintf(why, whylen, "more than %d "
						 "fields", FIELDS_MAX);
					return -1;
				}
				names[nn].s = b;
				names[nn].n = (size_t)(e - b);
				nn++;
			}
		}
		p = nl ? nl + 1 : end;
	}
	pf = memmem(f, n, "print fmt:", 10);
	if (pf) {
		/* the expression: after the format string's closing quote */
		const char *a = memchr(pf, '"', (size_t)(end - pf));

		if (a)
			for (a++; a < end && *a != '"'; a++)
				if (*a == '\\' && a + 1 < end)
					a++;
		if (a && a < end &&
		    divisions_check(a + 1, end, why, whylen))
			return -1;
	}
	/* REC->NAME, and the helpers that name a field: __get_str(NAME) */
	for (size_t k = 0; pf && k < sizeof(refs) / sizeof(refs[0]); k++) {
		size_t rl = strlen(refs[k]);

		for (p = pf; p < end;) {
			const char *r = memmem(p, (size_t)(end - p), refs[k], rl);
			const char *b, *e;
			size_t i;

			if (!r)
				break;
			b = e = r + rl;
			while (e < end && ident_char(*e))
				e++;
			for (i = 0; i < nn; i++)
				if (names[i].n == (size_t)(e - b) &&
				    !memcmp(names[i].s, b, (size_t)(e - b)))
					break;
			if (i == nn) {
				char q[40];

				sr_quote(q, sizeof(q), b, (size_t)(e - b));
				snprintf(why, whylen, "its print fmt names "
					 "%s%s%s, which is no field of it",
					 refs[k], q, k ? ")" : "");
				return -1;
			}
			p = e;
		}
	}
	return 0;
}

static int parse_format(struct cur *c, struct tep_handle *tep,
			const char *sys)
{
	uint64_t sz = 0, at;
	const uint8_t *p = NULL;
	enum tep_errno e;
	char why[128];

	if (u64_of(c, "an event format's size", &sz))
		return c->d->code;
	at = c->base + c->at;
	if (take(c, sz, "an event format", &p))
		return c->d->code;
	if (sr_format_check((const char *)p, (size_t)sz, why, sizeof(why))) {
		/* libtraceevent would crash on it: never handed over */
		if (!strcmp(sys, "sched"))
			return sr_fail(c->d, SR_EDATA, "%s:%llu: expected a sched "
				       "event format in the tracing data, got "
				       "one that does not hold together (%s): "
				       "garbage tracing data", c->file,
				       (unsigned long long)at, why);
		return SR_OK;
	}
	e = tep_parse_event(tep, (const char *)p, (unsigned long)sz, sys);
	if (e != TEP_ERRNO__SUCCESS && !strcmp(sys, "sched")) {
		if (tep_strerror(tep, e, why, sizeof(why)) != 0)
			strcpy(why, "unknown error");
		return sr_fail(c->d, SR_EDATA, "%s:%llu: expected a sched event "
			       "format in the tracing data, got one "
			       "libtraceevent cannot parse (%s): garbage "
			       "tracing data", c->file,
			       (unsigned long long)at, why);
	}
	/* another system's format that does not parse: its events are
	 * skipped like any event we do not read */
	return SR_OK;
}

int sr_tracing_load(struct tep_handle **tepp, const uint8_t *p, size_t n,
		    uint64_t base, const char *file, struct tracing_info *info,
		    struct sr_diag *d)
{
	struct cur c = { p, n, 0, base, 0, file, d };
	struct tep_handle *tep;
	const uint8_t *q = NULL;
	char version[16], sys[128];
	uint32_t count = 0, nsys = 0, page = 0;
	uint64_t sz = 0;
	int big;

	*tepp = NULL;
	memset(info, 0, sizeof(*info));
	if (take(&c, 10, "the tracing magic", &q))
		return d->code;
	if (memcmp(q, SR_TRACING_BLOCK_MAGIC, 10) != 0)
		return sr_fail(d, SR_EDATA, "%s:%llu: expected the tracing data "
			       "magic \\x17\\x08Dtracing, got other bytes: "
			       "garbage tracing data", file,
			       (unsigned long long)base);
	if (name_of(&c, sizeof(version), "the tracing data version",
		    version))
		return d->code;
	if (take(&c, 2, "the byte order and long size", &q))
		return d->code;
	big = q[0];
	if (big > 1 || (q[1] != 4 && q[1] != 8))
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a byte order of "
			       "0 or 1 and a long size of 4 or 8 in the "
			       "tracing data, got %u and %u", file,
			       (unsigned long long)(base + c.at - 2), q[0],
			       q[1]);
	info->long_size = q[1];
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	c.swap = !big;
#else
	c.swap = big;
#endif
	if (u32_of(&c, "the page size", &page))
		return d->code;
	if (page < 64 || page > (1u << 24))
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a page size "
			       "between 64 bytes and 16 MB in the tracing "
			       "data, got %u", file,
			       (unsigned long long)(base + c.at - 4), page);
	tep = tep_alloc();
	if (!tep)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	tep_set_file_bigendian(tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	tep_set_local_bigendian(tep, TEP_BIG_ENDIAN);
#else
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
#endif
	tep_set_long_size(tep, info->long_size);
	tep_set_page_size(tep, (int)page);
	if (tag(&c, "header_page") ||
	    u64_of(&c, "the header page's size", &sz) ||
	    take(&c, sz, "the header page", &q))
		goto fail;
	/* the header page format says how wide the kernel's long is */
	if (sz < (1u << 20)) {
		char *hp = malloc((size_t)sz + 1);

		if (!hp) {
			sr_fail(d, SR_EINTERNAL, "out of memory");
			goto fail;
		}
		memcpy(hp, q, (size_t)sz);
		hp[sz] = '\0';
		tep_parse_header_page(tep, hp, (unsigned long)sz,
				      info->long_size);
		free(hp);
	}
	if (tag(&c, "header_event") ||
	    skip_sized(&c, 1, "the header event"))
		goto fail;
	if (u32_of(&c, "the number of ftrace formats", &count))
		goto fail;
	for (uint32_t i = 0; i < count; i++)
		if (skip_sized(&c, 1, "an ftrace format"))
			goto fail;
	if (u32_of(&c, "the number of event systems", &nsys))
		goto fail;
	for (uint32_t s = 0; s < nsys; s++) {
		if (name_of(&c, sizeof(sys), "an event system name", sys) ||
		    u32_of(&c, "the number of the system's formats", &count))
			goto fail;
		for (uint32_t i = 0; i < count; i++)
			if (parse_format(&c, tep, sys))
				goto fail;
	}
	if (skip_sized(&c, 0, "kallsyms") ||
	    skip_sized(&c, 0, "the printk formats"))
		goto fail;
	if (strtod(version, NULL) >= 0.6 &&
	    skip_sized(&c, 1, "the saved command lines"))
		goto fail;
	info->size = c.at;
	*tepp = tep;
	return SR_OK;
fail:
	tep_free(tep);
	return d->code ? d->code : SR_EINTERNAL;
}
