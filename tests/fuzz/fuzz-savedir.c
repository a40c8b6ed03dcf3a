/*
 * fuzz-savedir: a saved directory as input: a replay's (DIR/P/NAME.tsv,
 * tasks.tsv, seen.tsv) and a sweep's (manifest.tsv, each cell's
 * figures.tsv), read by the commands that take one, through the binary's
 * own entry point (sr_main, as fuzz-argv).
 *
 * The input is the directory: a first line "#K" picks the command (K mod
 * 8, default 0), then files, each opened by a line "@@N" (N picks its
 * name from the table below) and holding the bytes up to the next line
 * that opens one ("@DIR@" in a file stands for the directory's path, as
 * a sweep's manifest names it).  The files are made in a fresh directory
 * and the command runs on it:
 *	0 diff DIR			4 sweep --collect -o DIR
 *	1 diff DIR --json --top 3	5 plot DIR -o OUT (gnuplot: true)
 *	2 explain DIR --task .		6 report DIR -o OUT (likewise)
 *	3 diff DIR --tree .		7 explain DIR --pid 100 --tsv
 * Checks: the status is one a run or bad data gives (0, 64, 65, 66, 74;
 * never 70 or 71, never a signal); what it says on stderr is printable
 * text (a saved file's bytes quoted: a terminal must not get its control
 * sequences); no temporary is left; the gnuplot scripts plot and report
 * wrote hold no ` (gnuplot would run it) and only strings gnuplot reads
 * back as written.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"

static const char *const names[] = {
	"tasks.tsv", "seen.tsv",
	"stock/summary.tsv", "stock/latency.tsv", "stock/timeline.tsv",
	"stock/cpus.tsv", "stock/waits.tsv",
	"o11int/summary.tsv", "o11int/latency.tsv", "o11int/timeline.tsv",
	"o11int/cpus.tsv", "o11int/waits.tsv",
	"observed/summary.tsv", "observed/latency.tsv",
	"observed/timeline.tsv", "observed/cpus.tsv", "observed/waits.tsv",
	"manifest.tsv", "jobs.txt",
	"jobs/t1-a.txt/stock:MAX_SLEEP_AVG=500/figures.tsv",
	"jobs/t1-a.txt/stock:MAX_SLEEP_AVG=1000/figures.tsv",
	"jobs/t1-a.txt/o11int:MAX_SLEEP_AVG=500/figures.tsv",
	"jobs/t1-a.txt/o11int:MAX_SLEEP_AVG=1000/figures.tsv",
	"jobs/t2-b.txt/stock:MAX_SLEEP_AVG=500/figures.tsv",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static char root[PATH_MAX], work[PATH_MAX], dir[PATH_MAX + 8],
	out[PATH_MAX + 8];

/* The scripts plot and report wrote: every line as gnuplot reads it. */
static int script_ok(const char *p, const struct stat *st, int flag,
		     struct FTW *f)
{
	size_t n = strlen(p);
	char *text, *line, *save = NULL;
	static char lit[32][512];

	(void)st; (void)f;
	if (flag != FTW_F || n < 3 || strcmp(p + n - 3, ".gp"))
		return 0;
	text = fz_slurp(p, &n);
	FZ_ASSERT(text, "%s: cannot read it back", p);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		FZ_ASSERT(fz_gp_strings(line, lit, 32) >= 0,
			  "%s: a line gnuplot would not read as written: %s",
			  p, line);
	free(text);
	return 0;
}

static void init(void)
{
	static int done;
	const char *t = getenv("TMPDIR");
	int devnull;

	if (done)
		return;
	done = 1;
	if (!getcwd(root, sizeof(root)))
		fz_fail("getcwd: %s", strerror(errno));
	devnull = open("/dev/null", O_WRONLY);
	if (devnull < 0 || dup2(devnull, 1) < 0)
		fz_fail("/dev/null: %s", strerror(errno));
	close(devnull);
	snprintf(work, sizeof(work), "%s/sr-fuzz-savedir-XXXXXX",
		 t && *t ? t : P_tmpdir);
	if (!mkdtemp(work))
		fz_fail("mkdtemp %s: %s", work, strerror(errno));
	snprintf(dir, sizeof(dir), "%s/d", work);
	snprintf(out, sizeof(out), "%s/o", work);
}

/* Make path (under dir) with its directories, holding [s, s + n). */
static void put_file(const char *name, const uint8_t *s, size_t n)
{
	char path[2 * PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		fz_fail("%s: %s", path, strerror(errno));
	while (n) {
		const uint8_t *at = memmem(s, n, "@DIR@", 5);
		size_t k = at ? (size_t)(at - s) : n;

		if (k && write(fd, s, k) != (ssize_t)k)
			fz_fail("%s: %s", path, strerror(errno));
		if (at && write(fd, dir, strlen(dir)) != (ssize_t)strlen(dir))
			fz_fail("%s: %s", path, strerror(errno));
		k += at ? 5 : 0;
		s += k;
		n -= k;
	}
	close(fd);
}

static void make_dir(const uint8_t *data, size_t size, int *cmd)
{
	size_t i = 0;

	*cmd = 0;
	if (mkdir(dir, 0700) && errno != EEXIST)
		fz_fail("mkdir %s: %s", dir, strerror(errno));
	if (size >= 2 && data[0] == '#' && data[1] >= '0' && data[1] <= '9') {
		*cmd = (data[1] - '0') % 8;
		while (i < size && data[i] != '\n')
			i++;
	}
	while (i < size) {
		size_t at, end, k = 0;

		/* the next line that opens a file */
		while (i < size && !(i + 2 < size && data[i] == '@' &&
				     data[i + 1] == '@' &&
				     (i == 0 || data[i - 1] == '\n')))
			i++;
		if (i >= size)
			break;
		for (at = i + 2; at < size && data[at] >= '0' &&
		     data[at] <= '9' && k < 1000; at++)
			k = k * 10 + (size_t)(data[at] - '0');
		while (at < size && data[at] != '\n')
			at++;
		at++;
		for (end = at; end < size && !(end + 2 < size &&
					       data[end - 1] == '\n' &&
					       data[end] == '@' &&
					       data[end + 1] == '@'); end++)
			;
		if (at <= size)
			put_file(names[k % NNAMES], data + at,
				 end > at ? end - at : 0);
		i = end;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[12];
	int argc = 0, cmd, rc;
	static char msg[1 << 16];

	init();
	if (size > 1 << 16)
		return 0;
	make_dir(data, size, &cmd);
	argv[argc++] = "schedreplay";
	switch (cmd) {
	case 0: case 1: case 3:
		argv[argc++] = "diff";
		argv[argc++] = dir;
		if (cmd == 1) {
			argv[argc++] = "--json";
			argv[argc++] = "--top";
			argv[argc++] = "3";
		} else if (cmd == 3) {
			argv[argc++] = "--tree";
			argv[argc++] = ".";
		}
		break;
	case 2: case 7:
		argv[argc++] = "explain";
		argv[argc++] = dir;
		if (cmd == 2) {
			argv[argc++] = "--task";
			argv[argc++] = ".";
		} else {
			argv[argc++] = "--pid";
			argv[argc++] = "100";
			argv[argc++] = "--tsv";
		}
		break;
	case 4:
		argv[argc++] = "sweep";
		argv[argc++] = "--collect";
		argv[argc++] = "-o";
		argv[argc++] = dir;
		break;
	default:
		argv[argc++] = cmd == 5 ? "plot" : "report";
		argv[argc++] = dir;
		argv[argc++] = "-o";
		argv[argc++] = out;
		argv[argc++] = "--gnuplot";
		argv[argc++] = "/bin/true";
		argv[argc++] = "-q";
		break;
	}
	argv[argc] = NULL;
	rc = fz_main(argc, argv, msg, sizeof(msg));
	if (chdir(root) != 0)
		fz_fail("chdir %s: %s", root, strerror(errno));
	if (getenv("SR_FUZZ_VERBOSE"))
		fprintf(stderr, "%s: status %d: %s", argv[1], rc, msg);
	FZ_ASSERT(rc == 0 || rc == 64 || rc == 65 || rc == 66 || rc == 74,
		  "exit status %d for %s on a saved directory: %s", rc,
		  argv[1], msg);
	FZ_ASSERT(rc == 0 || !strncmp(msg, "schedreplay: ", 13),
		  "%s failed (%d) without saying why: %s", argv[1], rc, msg);
	FZ_ASSERT(!fz_tmp_left(work),
		  "a temporary file left by %s", argv[1]);
	nftw(work, script_ok, 16, FTW_PHYS);
	fz_rm_tree(dir);
	fz_rm_tree(out);
	return 0;
}
