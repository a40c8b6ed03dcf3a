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
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "lib/grow.h"
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
/* how deep the print expression's brackets nest (the kernel's: 7) */
#define NEST_MAX 32

struct fmtcheck {
	struct { const char *s; size_t n; } names[FIELDS_MAX];
	size_t nn;
	char *why;
	size_t whylen;
};

static int refuse(struct fmtcheck *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int refuse(struct fmtcheck *k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k->why, k->whylen, fmt, ap);
	va_end(ap);
	return -1;
}

/* p starts with the literal s: the end of it, else NULL. */
static const char *lit(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && !memcmp(p, s, n) ? p + n : NULL;
}

static const char *digits(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	return q > p && q - p <= 10 ? q : NULL;
}

/*
 * "\tfield:DECL;\toffset:N;\tsize:N;[\tsigned:N;]": DECL is C words, '*'
 * and [N], [] or [NAME] (the kernel's own formats hold nothing else); its
 * last word outside brackets is the field's name.
 */
static int field_line(struct fmtcheck *k, const char *p, const char *le)
{
	const char *d = p + 7, *semi = memchr(d, ';', (size_t)(le - d));
	const char *name = NULL, *name_end = NULL, *q;

	if (!semi)
		return refuse(k, "a field line without ';'");
	for (q = d; q < semi; ) {
		if (ident_char(*q)) {
			name = q;
			while (q < semi && ident_char(*q))
				q++;
			name_end = q;
		} else if (*q == '[') {
			/* [N], [] or, in old kernels' formats, [NAME] */
			while (++q < semi && ident_char(*q))
				;
			if (q >= semi || *q != ']')
				return refuse(k, "a field's array size that is "
					      "not a number or a name");
			q++;
		} else if (*q == ' ' || *q == '*') {
			q++;
		} else {
			char x[8];

			sr_quote(x, sizeof(x), q, 1);
			return refuse(k, "a field declaration with '%s'", x);
		}
	}
	if (!name)
		return refuse(k, "a field without a name");
	q = semi + 1;
	if (!(q = lit(q, le, "\toffset:")) || !(q = digits(q, le)) ||
	    !(q = lit(q, le, ";\tsize:")) || !(q = digits(q, le)) ||
	    !(q = lit(q, le, ";")))
		return refuse(k, "a field line without its offset and size");
	if (q < le && (!(q = lit(q, le, "\tsigned:")) ||
		       !(q = digits(q, le)) || !(q = lit(q, le, ";"))))
		return refuse(k, "a field line with more than its offset, "
			      "size and signedness");
	while (q < le && (*q == ' ' || *q == '\t'))
		q++;
	if (q != le)
		return refuse(k, "a field line with more than its offset, "
			      "size and signedness");
	if (k->nn == FIELDS_MAX)
		return refuse(k, "more than %d fields", FIELDS_MAX);
	k->names[k->nn].s = name;
	k->names[k->nn].n = (size_t)(name_end - name);
	k->nn++;
	return 0;
}

/*
 * The print expression after the format string: C tokens only, strings
 * and character constants closed, brackets matched and at most NEST_MAX
 * deep, on one line (a newline only inside a string, or at the end).
 */
static int print_args(struct fmtcheck *k, const char *p, const char *end)
{
	char stack[NEST_MAX];
	int depth = 0;

	for (; p < end; p++) {
		char c = *p;

		if (c == '"' || c == '\'') {
			for (p++; p < end && *p != c; p++)
				if (*p == '\\' && ++p == end)
					break;
			if (p >= end)
				return refuse(k, "its print fmt leaves a %s open",
					      c == '"' ? "string" : "character "
					      "constant");
		} else if (c == '(' || c == '[' || c == '{') {
			if (depth == NEST_MAX)
				return refuse(k, "its print fmt nests brackets "
					      "more than %d deep", NEST_MAX);
			stack[depth++] = c == '(' ? ')' : c == '[' ? ']' : '}';
		} else if (c == ')' || c == ']' || c == '}') {
			if (!depth || stack[--depth] != c)
				return refuse(k, "its print fmt's brackets do "
					      "not match");
		} else if (c == '\n') {
			while (p < end && (*p == '\n' || *p == ' ' || *p == '\t'))
				p++;
			if (p < end)
				return refuse(k, "its print fmt goes on after "
					      "the end of its line");
			break;
		} else if (!ident_char(c) && !strchr(" \t+-*/%&|^~!<>=?:,.;",
						      c)) {
			char x[8];

			sr_quote(x, sizeof(x), p, 1);
			return refuse(k, "its print fmt holds '%s'", x);
		}
	}
	if (depth)
		return refuse(k, "its print fmt's brackets do not match");
	return 0;
}

int sr_format_check(const char *f, size_t n, char *why, size_t whylen)
{
	static const char *const refs[] = {
		"REC->", "__get_str(", "__get_dynamic_array(",
		"__get_dynamic_array_len(", "__get_bitmask(", "__get_rel_str(",
		"__get_cpumask(", "__get_rel_dynamic_array(",
	};
	struct fmtcheck k;
	const char *end = f + n, *p = f, *pf = NULL, *args = NULL;

	k.nn = 0;
	k.why = why;
	k.whylen = whylen;
	for (size_t i = 0; i < n; i++)
		if ((f[i] < 0x20 || f[i] > 0x7e) && f[i] != '\t' && f[i] != '\n')
			return refuse(&k, "byte 0x%02x at %zu: a format is text",
				      (unsigned char)f[i], i);
	/* the header and the fields, line by line, up to the print fmt */
	while (p < end && !pf) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *q;

		if ((q = lit(p, le, "name: ")) || (q = lit(p, le, "ID: ")) ||
		    lit(p, le, "format:") || p == le) {
			while (q && q < le && (ident_char(*q) || *q == ' '))
				q++;
			if (q && q != le)
				return refuse(&k, "a name or ID that is not a "
					      "word");
		} else if (lit(p, le, "\tfield:")) {
			if (field_line(&k, p, le))
				return -1;
		} else if (lit(p, le, "print fmt: ")) {
			pf = p;
			break;
		} else {
			return refuse(&k, "a line that is no part of an event "
				      "format");
		}
		p = nl ? nl + 1 : end;
	}
	if (pf) {
		/* the format string, then the expression */
		args = pf + 11;
		if (args >= end || *args != '"')
			return refuse(&k, "its print fmt without its format "
				      "string");
		for (args++; args < end && *args != '"'; args++)
			if (*args == '\\' && ++args == end)
				break;
		if (args >= end)
			return refuse(&k, "its print fmt leaves a string open");
		args++;
		if (print_args(&k, args, end) ||
		    divisions_check(args, end, why, whylen))
			return -1;
	}
	/* REC->NAME, and the helpers that name a field: __get_str(NAME) */
	for (size_t r = 0; args && r < sizeof(refs) / sizeof(refs[0]); r++) {
		size_t rl = strlen(refs[r]);

		for (p = args; p < end;) {
			const char *x = memmem(p, (size_t)(end - p), refs[r], rl);
			const char *b, *e;
			size_t i;

			if (!x)
				break;
			b = e = x + rl;
			while (e < end && ident_char(*e))
				e++;
			for (i = 0; i < k.nn; i++)
				if (k.names[i].n == (size_t)(e - b) &&
				    !memcmp(k.names[i].s, b, (size_t)(e - b)))
					break;
			if (i == k.nn) {
				char q[40];

				sr_quote(q, sizeof(q), b, (size_t)(e - b));
				return refuse(&k, "its print fmt names %s%s%s, "
					      "which is no field of it",
					      refs[r], q, r ? ")" : "");
			}
			p = e;
		}
	}
	return 0;
}

/* The "ID: N" of a format, or -1. */
static int64_t format_id(const char *f, size_t n)
{
	const char *end = f + n, *p = memmem(f, n, "\nID: ", 5);
	int64_t v = 0;

	if (!p && n >= 4 && !memcmp(f, "ID: ", 4))
		p = f - 1;
	if (!p)
		return -1;
	for (p += 5; p < end && *p >= '0' && *p <= '9' && v <= INT32_MAX; p++)
		v = v * 10 + (*p - '0');
	return v <= INT32_MAX && (p == end || *p == '\n') ? v : -1;
}

static int parse_format(struct cur *c, struct tep_handle *tep,
			const char *sys, struct tracing_info *info)
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
	if (strcmp(sys, "sched") != 0) {
		/* another system's event: only its id is kept, so that its
		 * samples are known to be of no interest; libtraceevent
		 * never sees it */
		int64_t id = format_id((const char *)p, (size_t)sz);

		if (id >= 0) {
			uint32_t *v = sr_grow(info->other_ids, &info->capother,
					      info->nother, sizeof(*v), 64, 0);

			if (!v)
				return sr_fail(c->d, SR_ENOMEM,
					       "out of memory");
			info->other_ids = v;
			v[info->nother++] = (uint32_t)id;
		}
		return SR_OK;
	}
	if (sr_format_check((const char *)p, (size_t)sz, why, sizeof(why)))
		/* libtraceevent would crash on it: never handed over */
		return sr_fail(c->d, SR_EDATA, "%s:%llu: expected a sched event "
			       "format in the tracing data, got one that does "
			       "not hold together (%s): garbage tracing data",
			       c->file, (unsigned long long)at, why);
	/* libtraceevent says nothing of an allocation that failed: it parses
	 * on without that part (a field gone), or fails as if the format
	 * were bad.  errno, ENOMEM after it, tells. */
	errno = 0;
	e = tep_parse_event(tep, (const char *)p, (unsigned long)sz, sys);
	if (errno == ENOMEM)
		return sr_fail(c->d, SR_ENOMEM, "%s:%llu: out of memory "
			       "(libtraceevent, reading the format of "
			       "sched event %llu)", c->file,
			       (unsigned long long)at,
			       (unsigned long long)format_id((const char *)p,
							     (size_t)sz));
	if (e != TEP_ERRNO__SUCCESS) {
		if (tep_strerror(tep, e, why, sizeof(why)) != 0)
			strcpy(why, "unknown error");
		return sr_fail(c->d, SR_EDATA, "%s:%llu: expected a sched event "
			       "format in the tracing data, got one "
			       "libtraceevent cannot parse (%s): garbage "
			       "tracing data", c->file,
			       (unsigned long long)at, why);
	}
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
		return sr_oom(d);
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
			sr_oom(d);
			goto fail;
		}
		memcpy(hp, q, (size_t)sz);
		hp[sz] = '\0';
		errno = 0;
		tep_parse_header_page(tep, hp, (unsigned long)sz,
				      info->long_size);
		free(hp);
		if (errno == ENOMEM) {
			sr_fail(d, SR_ENOMEM, "%s: out of memory "
				"(libtraceevent, reading the header page)",
				file);
			goto fail;
		}
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
			if (parse_format(&c, tep, sys, info))
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
	free(info->other_ids);
	info->other_ids = NULL;
	info->nother = info->capother = 0;
	return d->code ? d->code : SR_EINTERNAL;
}
