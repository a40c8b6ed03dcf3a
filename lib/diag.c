/*
 * diag: error values and the single place that prints them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/diag.h"

/*
 * s into out (outsz) with every control byte as \xNN: a message goes to a
 * terminal, and names in it come from the command line and from files
 * (a task's name, a saved table's cell); none may move the cursor, clear
 * the screen or start a line that looks like another message.
 */
static void clean(char *out, size_t outsz, const char *s)
{
	size_t o = 0;

	for (; *s && o + 5 < outsz; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(out + o, outsz - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
}

int sr_vfail(struct sr_diag *d, int code, const char *fmt, va_list ap)
{
	if (d && d->code == SR_OK) {
		char raw[SR_DIAG_MSG_MAX];

		d->code = code;
		vsnprintf(raw, sizeof(raw), fmt, ap);
		clean(d->msg, sizeof(d->msg), raw);
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

int sr_fail_errno(struct sr_diag *d, int code, int e, const char *fmt, ...)
{
	char what[SR_DIAG_MSG_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (e == ENOMEM)
		return sr_fail(d, SR_ENOMEM, "%s: out of memory", what);
	return sr_fail(d, code, "%s: %s", what, strerror(e));
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

	char raw[SR_DIAG_MSG_MAX / 4], msg[SR_DIAG_MSG_MAX / 4];

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	clean(msg, sizeof(msg), raw);
	fprintf(stderr, "schedreplay: warning: %s\n", msg);
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
