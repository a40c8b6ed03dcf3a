/*
 * sweep-slurm: a sweep's Slurm array job and its estimate (see
 * compare/sweep-slurm.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/sweep-slurm.h"
#include "lib/fmt.h"
#include "lib/outfile.h"
#include "lib/progress.h"
#include "parse/reader.h"

/* a / b rounded up */
static uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

void cmp_sweep_estimate(uint64_t events, size_t cells,
			unsigned long *minutes, unsigned long *mb)
{
	uint64_t ns = CMP_EST_NS_EVENT + (uint64_t)cells * CMP_EST_NS_CELL;
	uint64_t bytes = CMP_EST_BYTES_EVENT +
			 (uint64_t)cells * CMP_EST_BYTES_CELL;
	/* events * ns: 10^10 events of 8 cells (5.5 us) is 5.5e13, far
	 * from overflowing */
	uint64_t m = div_up(events * ns * CMP_EST_TIME_MARGIN,
			    60ull * 1000000000ull);
	uint64_t b = div_up(events * bytes * CMP_EST_MEM_MARGIN, 1u << 20);

	*minutes = m < CMP_EST_TIME_FLOOR_MIN ? CMP_EST_TIME_FLOOR_MIN
					       : (unsigned long)m;
	*mb = b < CMP_EST_MEM_FLOOR_MB ? CMP_EST_MEM_FLOOR_MB
				       : (unsigned long)b;
}

/* The events of a trace: read once, to its end. */
static int count_events(const char *trace, struct sr_progress *progress,
			uint64_t *events, struct sr_diag *d)
{
	struct sr_read_opts ro = { 0 };
	struct sr_reader *r;
	struct sr_event ev;
	int rc;

	ro.progress = progress;
	if (sr_reader_open(&r, trace, &ro, d))
		return d->code;
	while ((rc = sr_reader_next(r, &ev, d)) == 1)
		;
	*events = sr_reader_stats(r)->events;
	sr_reader_close(r);
	return rc < 0 ? d->code : SR_OK;
}

int cmp_sweep_slurm_plan(struct cmp_sweep_slurm *sl,
			 const struct cmp_sweep *sw, const bool *run,
			 struct sr_progress *progress, struct sr_diag *d)
{
	const char *counted = NULL;	/* the trace events counts */
	uint64_t events = 0, cost = 0;

	memset(sl, 0, sizeof(*sl));
	sl->run = run;
	/* a job's cells are consecutive, and so are a trace's jobs */
	for (size_t i = 0; i < sw->njobs;) {
		const struct cmp_sweep_job *j = &sw->jobs[i];
		size_t cells = 0;
		unsigned long minutes, mb;
		uint64_t c;

		while (i < sw->njobs && sw->jobs[i].chunk == j->chunk) {
			cells++;
			i++;
		}
		if (run && !run[j->chunk - 1])
			continue;
		sl->njobs++;
		if (!counted || strcmp(counted, j->tkey)) {
			int rc;

			sr_progress_what(progress, j->tkey);
			if ((rc = count_events(j->trace, progress, &events, d)))
				return rc;
			counted = j->tkey;
		}
		cmp_sweep_estimate(events, cells, &minutes, &mb);
		if (minutes > sl->minutes)
			sl->minutes = minutes;
		if (mb > sl->mb)
			sl->mb = mb;
		/* the biggest job, said in the script: the most CPU */
		c = events * (CMP_EST_NS_EVENT + cells * CMP_EST_NS_CELL);
		if (c > cost) {
			cost = c;
			sl->events = events;
			sl->cells = cells;
		}
	}
	return SR_OK;
}

/*
 * #SBATCH --NAME="VALUE": VALUE is dir, then suffix as it is.  sbatch
 * splits such a line at blanks, takes '...' and "..." as quotes, a
 * backslash as escaping the next byte (inside quotes too) and an unquoted
 * # as the start of a comment: dir's " and \ escaped.  In a file name
 * (pattern) Slurm expands %A, %a, ... and reads %% as %: each % of dir
 * doubled, the suffix's own kept.
 */
static void put_sbatch_dir(FILE *f, const char *name, const char *dir,
			   const char *suffix, bool pattern)
{
	fprintf(f, "#SBATCH --%s=\"", name);
	for (const char *s = dir; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s == '%' && pattern)
			fputc('%', f);
		fputc(*s, f);
	}
	fprintf(f, "%s\"\n", suffix);
}

/* The jobs of the array as Slurm's --array takes them: 1-3,5,7-8 */
static void put_array(FILE *f, const struct cmp_sweep *sw, const bool *run)
{
	const char *sep = "";

	for (size_t c = 1; c <= sw->nchunks; c++) {
		size_t e = c;

		if (run && !run[c - 1])
			continue;
		while (e < sw->nchunks && (!run || run[e]))
			e++;
		if (e > c)
			fprintf(f, "%s%zu-%zu", sep, c, e);
		else
			fprintf(f, "%s%zu", sep, c);
		sep = ",";
		c = e;
	}
}

void cmp_sweep_put_sbatch(FILE *f, const struct cmp_sweep *sw,
			  const struct cmp_sweep_opts *o,
			  const struct cmp_sweep_slurm *sl)
{
	const char *dir = o->outdir;	/* absolute (cmp_sweep_opts) */

	fputs("#!/bin/sh\n", f);
	fputs("# A Slurm array job: one task per line of jobs.txt (written by\n"
	      "# `schedreplay sweep --emit slurm`).  Submit it with\n"
	      "#     sbatch sweep.sbatch\n"
	      "# then, when every task has ended, build the table with\n"
	      "#     schedreplay sweep --collect -o DIR\n"
	      "# A cell with figures is kept: submitting again reruns only the\n"
	      "# others, and `schedreplay sweep --collect --emit slurm -o DIR`\n"
	      "# rewrites this array to hold only the jobs with cells left.\n",
	      f);
	fprintf(f, "#\n# --time and --mem: the sweep's estimate for its "
		"biggest job, %llu events\n# and %zu cells (docs/sweep.md, "
		"\"What a task asks of Slurm\").  Raise them\n# here if your "
		"nodes are slower, or a task ends OUT_OF_MEMORY or TIMEOUT.\n",
		(unsigned long long)sl->events, sl->cells);
	fputs("#SBATCH --job-name=schedreplay-sweep\n#SBATCH --array=", f);
	put_array(f, sw, sl->run);
	fputs("\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n", f);
	fprintf(f, "#SBATCH --time=%lu\n#SBATCH --mem=%luM\n", sl->minutes,
		sl->mb);
	put_sbatch_dir(f, "chdir", dir, "", false);
	put_sbatch_dir(f, "output", dir, "/slurm-%A_%a.out", true);
	put_sbatch_dir(f, "error", dir, "/slurm-%A_%a.err", true);
	fputs("set -eu\n"
	      "# The schedreplay the nodes run: the one that wrote this, by its\n"
	      "# path.  Where the nodes have it elsewhere, name that one here\n"
	      "# (or load it first, e.g. `module load schedreplay`, and set\n"
	      "# schedreplay=schedreplay).\n"
	      "schedreplay=", f);
	sr_sh_str(f, o->self);
	fputs("\njobs=", f);
	sr_sh_str(f, dir);
	fputs("/jobs.txt\n"
	      "# the task's line of jobs.txt: its words, the first (the binary)\n"
	      "# replaced by $schedreplay\n"
	      "line=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" \"$jobs\")\n"
	      "[ -n \"$line\" ] || { echo \"no line $SLURM_ARRAY_TASK_ID in "
	      "$jobs\" >&2; exit 66; }\n"
	      "eval \"set -- $line\"\n"
	      "shift\n"
	      "exec \"$schedreplay\" \"$@\"\n", f);
}

int cmp_sweep_write_sbatch(const struct cmp_sweep *sw,
			   const struct cmp_sweep_opts *o,
			   const struct cmp_sweep_slurm *sl, struct sr_diag *d)
{
	struct sr_outfile *s;

	if (sr_outfile_open_in(&s, o->outdir, "sweep", "sbatch", d))
		return d->code;
	cmp_sweep_put_sbatch(sr_outfile_fp(s), sw, o, sl);
	return sr_outfile_commit(s, d);
}
