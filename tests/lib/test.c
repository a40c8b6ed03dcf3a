/*
 * test.c: counters and helpers behind tests/lib/test.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/test.h"

int test_failures;
int test_checks;
char test_ctx[256];

int test_done(const char *name)
{
	if (test_checks == 0) {
		fprintf(stderr, "%s: no checks ran\n", name);
		return 1;
	}
	printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
	return test_failures ? 1 : 0;
}

void test_skip(const char *kind, const char *why)
{
	printf("skip %s: %s\n", kind, why);
	exit(77);
}

int test_mktemp(char *buf, size_t n, const char *tag, int dir)
{
	const char *base = getenv("TMPDIR");
	int fd;

	if (!base || !*base)
		base = P_tmpdir;
	if ((size_t)snprintf(buf, n, "%s/sr-%s-XXXXXX", base, tag) >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (dir)
		return mkdtemp(buf) ? 0 : -1;
	fd = mkstemp(buf);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

const char *test_real_traces_dir(void)
{
	static const char *dflt = "../shared/traces-real";
	const char *d = getenv("SR_REAL_TRACES");
	struct stat st;

	if (!d || !*d)
		d = dflt;
	if (stat(d, &st) == 0 && S_ISDIR(st.st_mode))
		return d;
	return NULL;
}

void test_report(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", file, line);
	if (test_ctx[0])
		fprintf(stderr, "[%s] ", test_ctx);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
