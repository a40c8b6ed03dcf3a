/*
 * fmt: exact decimal formatting, task names and string escaping (fmt.h).
 */
#include <stdbool.h>
#include <string.h>

#include "lib/fmt.h"

/* |v| / 10^(shift - decimals), rounded half away from zero; *unit gets
 * 10^decimals (decimals at most shift). */
static uint64_t scaled_mag(int64_t v, int shift, int *decimals, uint64_t *unit)
{
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	uint64_t div = 1;

	if (*decimals > shift)
		*decimals = shift;
	*unit = 1;
	for (int i = 0; i < shift - *decimals; i++)
		div *= 10;
	for (int i = 0; i < *decimals; i++)
		*unit *= 10;
	/* round half away from zero at the last kept decimal */
	return mag / div + (mag % div >= (div + 1) / 2 && div > 1 ? 1 : 0);
}

int64_t sr_round_scaled(int64_t v, int shift, int decimals)
{
	uint64_t unit, q = scaled_mag(v, shift, &decimals, &unit);

	return v < 0 ? -(int64_t)q : (int64_t)q;
}

char *sr_fmt_scaled(char *buf, size_t len, int64_t v, int shift, int decimals)
{
	uint64_t unit, q = scaled_mag(v, shift, &decimals, &unit);

	if (decimals)
		snprintf(buf, len, "%s%llu.%0*llu", v < 0 && q ? "-" : "",
			 (unsigned long long)(q / unit), decimals,
			 (unsigned long long)(q % unit));
	else
		snprintf(buf, len, "%s%llu", v < 0 && q ? "-" : "",
			 (unsigned long long)q);
	return buf;
}

char *sr_fmt_ms(char *buf, size_t len, int64_t ns, int decimals)
{
	return sr_fmt_scaled(buf, len, ns, 6, decimals);
}

char *sr_fmt_s(char *buf, size_t len, int64_t ns, int decimals)
{
	return sr_fmt_scaled(buf, len, ns, 9, decimals);
}

static bool comm_ctl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

char *sr_comm_clean(char *buf, size_t len, const char *comm)
{
	size_t i = 0;

	if (!len)
		return buf;
	for (; comm && comm[i] && i + 1 < len; i++)
		buf[i] = comm_ctl((unsigned char)comm[i]) ? '?' : comm[i];
	buf[i] = '\0';
	return buf;
}

void sr_line_ch(struct sr_line *l, char c)
{
	if (l->n < SR_LINEBUF_MAX)
		l->b[l->n++] = c;
}

void sr_line_str(struct sr_line *l, const char *s)
{
	size_t n = strlen(s);

	if (n > SR_LINEBUF_MAX - l->n)
		n = SR_LINEBUF_MAX - l->n;
	memcpy(l->b + l->n, s, n);
	l->n += n;
}

void sr_line_comm(struct sr_line *l, const char *comm)
{
	size_t room = SR_LINEBUF_MAX - l->n, i;
	char *o = l->b + l->n;

	if (room > SR_LINE_COMM - 1)
		room = SR_LINE_COMM - 1;
	for (i = 0; comm && comm[i] && i < room; i++)
		o[i] = comm_ctl((unsigned char)comm[i]) ? '?' : comm[i];
	l->n += i;
}

void sr_line_i64(struct sr_line *l, int64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char d[24], *p = d + sizeof(d);
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n;

	while (u >= 100) {
		const char *q = pairs + 2 * (u % 100);

		u /= 100;
		*--p = q[1];
		*--p = q[0];
	}
	if (u >= 10) {
		*--p = pairs[2 * u + 1];
		*--p = pairs[2 * u];
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		*--p = '-';
	n = (size_t)(d + sizeof(d) - p);
	if (n > SR_LINEBUF_MAX - l->n)
		n = SR_LINEBUF_MAX - l->n;
	memcpy(l->b + l->n, p, n);
	l->n += n;
}

void sr_line_put(struct sr_line *l, FILE *f)
{
	fwrite_unlocked(l->b, 1, l->n, f);
	l->n = 0;
}

void sr_put_comm(FILE *f, const char *comm)
{
	for (; *comm; comm++)
		fputc(comm_ctl((unsigned char)*comm) ? '?' : *comm, f);
}

/* Length of a valid UTF-8 sequence at s, 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0)
		n = 2, cp = s[0] & 0x1f;
	else if ((s[0] & 0xf0) == 0xe0)
		n = 3, cp = s[0] & 0x0f;
	else if ((s[0] & 0xf8) == 0xf0)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void sr_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	while (*p) {
		size_t n;

		switch (*p) {
		case '"': fputs("\\\"", f); p++; continue;
		case '\\': fputs("\\\\", f); p++; continue;
		case '\n': fputs("\\n", f); p++; continue;
		case '\t': fputs("\\t", f); p++; continue;
		case '\r': fputs("\\r", f); p++; continue;
		default: break;
		}
		if (comm_ctl(*p)) {
			fprintf(f, "\\u%04x", *p);
			p++;
			continue;
		}
		n = utf8_len(p);
		if (!n) {
			fprintf(f, "\\u%04x", *p); /* read as Latin-1 */
			p++;
			continue;
		}
		fwrite(p, 1, n, f);
		p += n;
	}
	fputc('"', f);
}

void sr_html_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n;

		switch (*p) {
		case '&': fputs("&amp;", f); p++; continue;
		case '<': fputs("&lt;", f); p++; continue;
		case '>': fputs("&gt;", f); p++; continue;
		case '"': fputs("&quot;", f); p++; continue;
		case '\'': fputs("&#39;", f); p++; continue;
		default: break;
		}
		n = comm_ctl(*p) ? 0 : utf8_len(p);
		if (!n) {
			fputs("&#xfffd;", f);
			p++;
			continue;
		}
		fwrite(p, 1, n, f);
		p += n;
	}
}

void sr_gp_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '`') {
			/* gnuplot runs `...` inside "..." as a shell command,
			   before it reads the string: the octal escape gives
			   the character without one on the line */
			fputs("\\140", f);
			continue;
		}
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc(comm_ctl(*p) ? '?' : *p, f);
	}
	fputc('"', f);
}

/* Bytes [from, to) of line to f, with [hl, hl + hl_len) between on and
 * off. */
static void put_span(FILE *f, const char *line, size_t from, size_t to,
		     size_t hl, size_t hl_len, const char *on, const char *off)
{
	for (size_t i = from; i < to; i++) {
		if (on && hl_len && i == hl)
			fputs(on, f);
		fputc(line[i], f);
		if (on && hl_len && i + 1 == hl + hl_len)
			fputs(off, f);
	}
}

void sr_put_wrapped(FILE *f, const char *line, size_t width, size_t hl,
		    size_t hl_len, const char *on, const char *off)
{
	size_t len = strlen(line), indent = 0, at = 0, lead = 0;

	while (line[indent] == ' ')
		indent++;
	if (indent + 4 >= width)
		width = indent + 5 + 20;
	while (at < len) {
		size_t room = width - lead, end = at + room, cut;

		if (len - at <= room) {
			cut = len;
		} else {
			/* the last space that keeps the line in width */
			for (cut = end; cut > at && line[cut] != ' '; cut--)
				;
			if (cut == at) /* one long word: break after it */
				for (cut = end; cut < len && line[cut] != ' '; cut++)
					;
		}
		fprintf(f, "%*s", (int)lead, "");
		put_span(f, line, at, cut, hl, hl_len, on, off);
		fputc('\n', f);
		for (at = cut; at < len && line[at] == ' '; at++)
			;
		lead = indent + 4;
	}
	if (!len)
		fputc('\n', f);
}

void sr_sh_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}
