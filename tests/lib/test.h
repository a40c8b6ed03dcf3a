/*
 * test.h: the assertions used by tests/<folder>/test-*.c.
 *
 * Each CHECK* prints file:line and both values on failure and counts it;
 * test_done() returns the exit status (1 if anything failed).  Tests are
 * table-driven where they can be: a static array of cases, one loop.
 */
#ifndef SR_TEST_H
#define SR_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int test_failures;
extern int test_checks;

#define CHECK(cond) do { \
	test_checks++; \
	if (!(cond)) { \
		test_failures++; \
		test_report(__FILE__, __LINE__, "CHECK failed: %s", #cond); \
	} } while (0)

#define CHECK_INT(got, want) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	test_checks++; \
	if (g_ != w_) { \
		test_failures++; \
		test_report(__FILE__, __LINE__, "%s = %lld, want %lld", \
			    #got, g_, w_); \
	} } while (0)

#define CHECK_STR(got, want) do { \
	const char *g_ = (got), *w_ = (want); \
	test_checks++; \
	if (!g_ || !w_ || strcmp(g_, w_) != 0) { \
		test_failures++; \
		test_report(__FILE__, __LINE__, "%s = \"%s\", want \"%s\"", \
			    #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
	} } while (0)

/* Context for table-driven loops: printed with each failure after it. */
#define CHECK_CTX(...) snprintf(test_ctx, sizeof(test_ctx), __VA_ARGS__)
extern char test_ctx[256];

void test_report(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Exit status for main(): prints a summary line. */
int test_done(const char *name);

/*
 * Skip the whole program (exit 77), saying why in the form tests/run.sh
 * checks: kind is "package NAME" (a Debian package is missing), "privilege"
 * or "hardware"; nothing else is a reason to skip (tests/lib/lib.sh skip).
 */
void test_skip(const char *kind, const char *why) __attribute__((noreturn));

/*
 * A new temporary file (dir = 0) or directory (dir = 1) named sr-TAG-XXXXXX
 * under $TMPDIR, or the system's temporary directory (P_tmpdir) when unset;
 * its path in buf.  0, or -1 with errno set.
 */
int test_mktemp(char *buf, size_t n, const char *tag, int dir);

/* Path of a file under the repository's tests/ data, or shared traces. */
const char *test_real_traces_dir(void); /* NULL if absent */

#endif
