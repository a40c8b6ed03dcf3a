/*
 * diag: error values and the single place that prints them.
 */
#include <stdio.h>
#include <string.h>

#include "lib/diag.h"

int sr_vfail(struct sr_diag *d, int code, const char *fmt, va_list ap)
{
	if (d && d->code == SR_OK) {
		d->code = code;
		vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	}
	return code;
}

int sr_fail(struct sr_diag *d, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sr_vfail(d, code, fmt, ap);
	va_end(ap);
	return code;
}

int sr_oom(struct sr_diag *d)
{
	return sr_fail(d, SR_ENOMEM, "out of memory");
}

int sr_report(const struct sr_diag *d)
{
	if (d->code != SR_OK)
		fprintf(stderr, "schedreplay: %s\n",
			d->msg[0] ? d->msg : "unknown error");
	return d->code;
}

void sr_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("schedreplay: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

char *sr_quote(char *out, size_t outsz, const char *s, size_t len)
{
	size_t o = 0;
	size_t i;

	if (outsz == 0)
		return out;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char tmp[5];
		size_t n;

		if (c >= 0x20 && c < 0x7f) {
			tmp[0] = (char)c;
			n = 1;
		} else {
			snprintf(tmp, sizeof(tmp), "\\x%02x", c);
			n = 4;
		}
		if (o + n + 4 > outsz) {
			/* room for "..." and the NUL */
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		memcpy(out + o, tmp, n);
		o += n;
	}
	out[o] = '\0';
	return out;
}
