/*
 * path: output file names of any length (path.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/path.h"

int sr_path_check(const char *path, struct sr_diag *d)
{
	if (!path[0])
		return sr_fail(d, SR_EUSAGE, "an empty output path (give a "
			       "name, or . for the current directory)");
	return SR_OK;
}

char *sr_path(struct sr_diag *d, const char *dir, const char *fmt, ...)
{
	size_t n = strlen(dir);
	va_list ap;
	char *p;
	int m;

	if (sr_path_check(dir, d))
		return NULL;
	va_start(ap, fmt);
	m = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (m < 0 || !(p = malloc(n + 1 + (size_t)m + 1))) {
		sr_fail(d, SR_EINTERNAL, "out of memory");
		return NULL;
	}
	memcpy(p, dir, n);
	p[n] = '/';
	va_start(ap, fmt);
	vsnprintf(p + n + 1, (size_t)m + 1, fmt, ap);
	va_end(ap);
	return p;
}
