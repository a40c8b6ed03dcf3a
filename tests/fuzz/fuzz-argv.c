/*
 * fuzz-argv: command lines through the binary's own entry point, sr_main()
 * (schedreplay.c), with a fresh temporary directory as the working
 * directory and as every output.
 *
 * The input is a command line, one argument per line (at most 32, a line
 * may be long).  Arguments name files through tokens: @T0..@T4 are small
 * traces and a saved replay (the tests' data, by absolute path), @O is a
 * path in the temporary directory, @L a path there of more than 1000
 * characters, @E the empty string; any other line is taken as it is.
 * Checks: the exit status is one the tool documents for a user's mistake
 * or a run (0, 64, 65, 66, 69, 74: never 70, never a signal), what it says
 * on stderr is printable text (an argument's control bytes written \xNN:
 * a terminal must not get them), nothing is
 * written outside the temporary directory (no /stock, /observed,
 * /priority.dat ...), and no temporary file (NAME.tmp.*) is left behind.
 * gnuplot is kept off PATH, so plot and report stop at 69 quickly.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"

#define MAX_ARGS 32

static char root[PATH_MAX];     /* the repository (tests' data) */
static char work[PATH_MAX];     /* this run's temporary directory */

static const char *const traces[] = {
	"tests/parse/data/native-small.txt",
	"tests/parse/data/perf-small.txt",
	"tests/parse/data/ftrace-flags.txt",
	"tests/compare/data/hogplayer",
	"tests/compare/data/tree.native",
};

/* What a run must never leave in the filesystem root (an empty -o). */
static const char *const outside[] = {
	"/stock", "/o11int", "/test2-mm1", "/observed", "/priority.dat",
	"/priority.gp", "/index.html", "/summary.tsv", "/out",
};

static void init(void)
{
	static int done;
	int devnull;

	if (done)
		return;
	done = 1;
	if (!getcwd(root, sizeof(root)))
		fz_fail("getcwd: %s", strerror(errno));
	/* stdout: the tool's output is not the fuzzer's (its messages on
	 * stderr stay: libFuzzer reports there too; -close_fd_mask=2 quiets
	 * them in a campaign) */
	devnull = open("/dev/null", O_WRONLY);
	if (devnull < 0 || dup2(devnull, 1) < 0)
		fz_fail("/dev/null: %s", strerror(errno));
	close(devnull);
	setenv("PATH", "/nonexistent", 1); /* no gnuplot */
	for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++)
		if (access(outside[i], F_OK) == 0)
			fz_fail("%s exists before any run: remove it", outside[i]);
}

static void fresh_dir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(work, sizeof(work), "%s/sr-fuzz-argv-XXXXXX",
		 t && *t ? t : P_tmpdir);
	if (!mkdtemp(work))
		fz_fail("mkdtemp %s: %s", work, strerror(errno));
	if (chdir(work) != 0)
		fz_fail("chdir %s: %s", work, strerror(errno));
}

/* The argument a line stands for (malloc'd). */
static char *expand(const char *s, size_t n)
{
	char *out;

	if (n == 3 && s[0] == '@' && s[1] == 'T' && s[2] >= '0' &&
	    (size_t)(s[2] - '0') < sizeof(traces) / sizeof(traces[0])) {
		size_t k = strlen(root) + strlen(traces[s[2] - '0']) + 2;

		out = malloc(k);
		if (out)
			snprintf(out, k, "%s/%s", root, traces[s[2] - '0']);
		return out;
	}
	if (n == 2 && s[0] == '@' && s[1] == 'O') {
		size_t k = strlen(work) + 8;

		out = malloc(k);
		if (out)
			snprintf(out, k, "%s/out", work);
		return out;
	}
	if (n == 2 && s[0] == '@' && s[1] == 'L') {
		size_t k = strlen(work) + 1100;

		out = malloc(k);
		if (out) {
			size_t o = (size_t)snprintf(out, k, "%s", work);

			for (int part = 0; part < 5; part++) {
				out[o++] = '/';
				memset(out + o, 'a' + part, 200);
				o += 200;
			}
			out[o] = '\0';
		}
		return out;
	}
	if (n == 2 && s[0] == '@' && s[1] == 'E')
		return strdup("");
	out = malloc(n + 1);
	if (out) {
		memcpy(out, s, n);
		out[n] = '\0';
	}
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2];
	int argc = 1, rc;
	static char msg[1 << 16];
	size_t i = 0;

	init();
	if (size > 8192)
		return 0;
	fresh_dir();  /* first: @O and @L name paths in it */
	argv[0] = "schedreplay";
	while (i < size && argc <= MAX_ARGS) {
		const char *s = (const char *)data + i;
		const char *nl = memchr(s, '\n', size - i);
		size_t n = nl ? (size_t)(nl - s) : size - i;

		if (memchr(s, '\0', n)) { /* argv strings cannot hold one */
			while (argc > 1)
				free(argv[--argc]);
			if (chdir(root) != 0)
				fz_fail("chdir %s: %s", root, strerror(errno));
			fz_rm_tree(work);
			return 0;
		}
		argv[argc] = expand(s, n);
		if (!argv[argc])
			fz_fail("out of memory");
		argc++;
		i += n + 1;
	}
	argv[argc] = NULL;
	/* record traces the machine and runs the command it is given: not
	 * a thing to fuzz (tests/record/record.sh tests it) */
	if (argc > 1 && !strcmp(argv[1], "record"))
		argv[1][0] = 'X';
	rc = fz_main(argc, argv, msg, sizeof(msg));
	if (chdir(root) != 0)
		fz_fail("chdir %s: %s", root, strerror(errno));
	FZ_ASSERT(rc == 0 || rc == 64 || rc == 65 || rc == 66 || rc == 69 ||
		  rc == 74, "exit status %d for command '%s'", rc,
		  argc > 1 ? argv[1] : "");
	for (size_t k = 0; k < sizeof(outside) / sizeof(outside[0]); k++)
		FZ_ASSERT(access(outside[k], F_OK) != 0, "%s written by '%s'",
			  outside[k], argc > 1 ? argv[1] : "");
	FZ_ASSERT(!fz_tmp_left(work),
		  "a temporary file left in %s by '%s'", work,
		  argc > 1 ? argv[1] : "");
	fz_rm_tree(work);
	FZ_ASSERT(access(work, F_OK) != 0, "%s could not be removed", work);
	for (int k = 1; k < argc; k++)
		free(argv[k]);
	return 0;
}
