/*
 * test-sweep-slurm: the estimate a sweep's Slurm array asks for (time
 * limit and memory per task, compare/sweep-slurm.h), each case worked out
 * by hand from the rule in docs/sweep.md:
 *
 *	minutes = max(5, ceil(3 * E * (2000 + 500 n) ns / 60 s))
 *	MB      = max(256, ceil(2 * E * (50 + 75 n) B / 2^20))
 *
 * for a job of n cells on a trace of E events; and the script's --array
 * for a subset of the jobs (the rerun of the failed ones).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/sweep-slurm.h"
#include "tests/lib/test.h"

static const struct {
	uint64_t events;
	size_t cells;
	unsigned long minutes, mb;
} cases[] = {
	/* nothing: both floors */
	{ 0, 1, 5, 256 },
	/* 10^6 x 8: 3 * 10^6 * 6000 ns = 18 s: 1 min, the floor's 5;
	 * 2 * 10^6 * 650 B = 1.3e9 B = 1239.78 MB: 1240 */
	{ 1000000, 8, 5, 1240 },
	/* 2e7 x 1: 3 * 2e7 * 2500 ns = 150 s = 2.5 min: 3, the floor's 5;
	 * 2 * 2e7 * 125 B = 5e9 B = 4768.37 MB: 4769 */
	{ 20000000, 1, 5, 4769 },
	/* 4e7 x 4: 3 * 4e7 * 4000 ns = 480 s = 8 min exactly;
	 * 2 * 4e7 * 350 B = 2.8e10 B = 26702.88 MB: 26703 */
	{ 40000000, 4, 8, 26703 },
	/* 5e7 x 2: 3 * 5e7 * 3000 ns = 450 s = 7.5 min: 8;
	 * 2 * 5e7 * 200 B = 2e10 B = 19073.49 MB: 19074 */
	{ 50000000, 2, 8, 19074 },
	/* 1e8 x 8: 3 * 1e8 * 6000 ns = 1800 s = 30 min exactly;
	 * 2 * 1e8 * 650 B = 1.3e11 B = 123977.66 MB: 123978 */
	{ 100000000, 8, 30, 123978 },
	/* the time floor's edge at 8 cells: 5 min = 3e11 ns, 3 * 6000 ns =
	 * 18000 ns an event: 16666666.7 events.  16666666: 299999988000 ns,
	 * within 5 min; 16666667: 300000006000 ns, 6 min.  Memory: 2 * 650 *
	 * E B = 20662.94 MB either way: 20663 */
	{ 16666666, 8, 5, 20663 },
	{ 16666667, 8, 6, 20663 },
	/* the floor's edge at 8 cells: 256 MB = 268435456 B, 2 * 650 B =
	 * 1300 B an event: 268435456 / 1300 = 206488.8 events.  206488:
	 * 268434400 B, within 256 MB; 206489: 268435700 B, 257 MB */
	{ 206488, 8, 5, 256 },
	{ 206489, 8, 5, 257 },
};

/* The --array of a subset (the rerun): runs of jobs as ranges. */
static const bool some[] = { 1, 1, 1, 0, 1, 0, 1, 1 };
static const bool last[] = { 0, 0, 0, 0, 0, 0, 0, 1 };
static const struct {
	const bool *run;	/* NULL: every job */
	size_t n;
	const char *want;
} arrays[] = {
	{ NULL, 8, "1-8" },
	{ some, 8, "1-3,5,7-8" },
	{ last, 8, "8" },
	{ some, 1, "1" },
};

/* A plan of jobs chunk 1..n, one cell each, on one trace. */
static void plan_of(struct cmp_sweep *sw, struct cmp_sweep_job *jobs,
		    size_t n)
{
	memset(sw, 0, sizeof(*sw));
	memset(jobs, 0, n * sizeof(*jobs));
	for (size_t i = 0; i < n; i++) {
		jobs[i].index = jobs[i].chunk = i + 1;
		snprintf(jobs[i].tkey, sizeof(jobs[i].tkey), "t1-x");
	}
	sw->jobs = jobs;
	sw->njobs = sw->nchunks = n;
}

/* The --array line of the script for jobs run[] of n. */
static char *array_line(const bool *run, size_t n)
{
	struct cmp_sweep sw;
	struct cmp_sweep_job jobs[16];
	struct cmp_sweep_slurm sl = { 0 };
	struct cmp_sweep_opts o = { "/d", NULL, 0, "/bin/sr", 0 };
	char *buf = NULL, *line, *end;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	plan_of(&sw, jobs, n);
	sl.run = run;
	cmp_sweep_put_sbatch(f, &sw, &o, &sl);
	fclose(f);
	line = strstr(buf, "\n#SBATCH --array=");
	if (!line) {
		free(buf);
		return NULL;
	}
	line += strlen("\n#SBATCH --array=");
	end = strchr(line, '\n');
	memmove(buf, line, (size_t)(end - line));
	buf[end - line] = 0;
	return buf;
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long minutes = 0, mb = 0;

		CHECK_CTX("%llu events, %zu cells",
			  (unsigned long long)cases[i].events, cases[i].cells);
		cmp_sweep_estimate(cases[i].events, cases[i].cells, &minutes,
				   &mb);
		CHECK_INT(minutes, cases[i].minutes);
		CHECK_INT(mb, cases[i].mb);
	}
	for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
		char *a = array_line(arrays[i].run, arrays[i].n);

		CHECK_CTX("--array of %zu jobs, case %zu", arrays[i].n, i);
		CHECK_STR(a, arrays[i].want);
		free(a);
	}
	return test_done("test-sweep-slurm");
}
