/*
 * driver: replays inputs through a fuzz target without libFuzzer, so the
 * kept inputs (tests/fuzz/regress/) and the test data run in the
 * normal and sanitizer builds of `make check`.
 *
 *	build/tests/fuzz/fuzz-perf FILE...
 *
 * Each FILE goes through LLVMFuzzerTestOneInput() once; a broken check
 * aborts (fuzz.h), a sanitizer report fails the process.
 *
 *	build-san/tests/fuzz/fuzz-perf --canary asan|ubsan|leak
 *
 * makes the error on purpose, so that tests/fuzz/regress.sh can show that
 * a sanitizer report really fails a run of the SAN=1 build.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		perror(path);
		return 1;
	}
	for (;;) {
		size_t got;

		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (!buf) {
				fprintf(stderr, "%s: out of memory\n", path);
				fclose(f);
				return 1;
			}
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		perror(path);
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput((const uint8_t *)buf, n);
	free(buf);
	return 0;
}

static int canary(const char *kind)
{
	if (!strcmp(kind, "asan")) {
		char *p = calloc(1, 8);
		volatile size_t n = 9;
		int c;

		if (!p)
			return 1;
		memset(p, 1, n); /* heap-buffer-overflow */
		c = p[0];
		free(p);
		return c == 0x7f;
	}
	if (!strcmp(kind, "ubsan")) {
		volatile int x = INT_MAX, y;

		y = x + 1; /* signed integer overflow */
		return y < 0;
	}
	if (!strcmp(kind, "leak")) {
		void *volatile p = malloc(4096);

		p = NULL; /* definitely lost */
		return p != NULL;
	}
	fprintf(stderr, "canary: asan, ubsan or leak, not '%s'\n", kind);
	return 64;
}

int main(int argc, char **argv)
{
	int bad = 0;

	if (argc == 3 && !strcmp(argv[1], "--canary"))
		return canary(argv[2]);

	if (argc < 2) {
		fprintf(stderr, "usage: %s INPUT...\n", argv[0]);
		return 64;
	}
	for (int i = 1; i < argc; i++)
		bad |= run_file(argv[i]);
	return bad;
}
