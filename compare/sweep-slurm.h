/*
 * sweep-slurm: a sweep's Slurm array job, DIR/sweep.sbatch.
 *
 * The array runs jobs.txt's lines, one task each: all of them, or (to
 * rerun what failed) those with cells still without figures.  Each task
 * asks Slurm for the sweep's estimate of its biggest job: a time limit
 * and memory grown with the events of the job's trace (counted by reading
 * it once) and the cells the job replays, by the rule and the measures in
 * docs/sweep.md ("What a task asks of Slurm"), with a margin and a floor.
 * The script names the binary the nodes run on a line of its own, to edit
 * where they have it elsewhere; every value it holds is quoted for sh and,
 * on the #SBATCH lines, for sbatch's own reader.
 */
#ifndef CMP_SWEEP_SLURM_H
#define CMP_SWEEP_SLURM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/sweep.h"
#include "lib/diag.h"

struct sr_progress;

/*
 * The estimate's rule: per event of the job's trace, EST_NS_EVENT of CPU
 * (reading it and replaying the recorded schedule) and EST_NS_CELL more
 * per cell; EST_BYTES_EVENT of memory and EST_BYTES_CELL more per cell;
 * times the margins, and no less than the floors.
 */
#define CMP_EST_NS_EVENT 2000
#define CMP_EST_NS_CELL 500
#define CMP_EST_TIME_MARGIN 3
#define CMP_EST_TIME_FLOOR_MIN 5
#define CMP_EST_BYTES_EVENT 50
#define CMP_EST_BYTES_CELL 75
#define CMP_EST_MEM_MARGIN 2
#define CMP_EST_MEM_FLOOR_MB 256

/* The array: which jobs it runs, and what each task asks for. */
struct cmp_sweep_slurm {
	const bool *run;              /* run[c - 1]: job c is in the array;
					 NULL: every job */
	size_t njobs;                 /* jobs in it */
	unsigned long minutes;        /* --time: the biggest job's */
	unsigned long mb;             /* --mem, MB: likewise */
	uint64_t events;              /* what that job is: its trace's */
	size_t cells;                 /* events, its cells */
};

/* The time limit (minutes) and memory (MB) of a job of cells cells on a
 * trace of events events, by the rule above. */
void cmp_sweep_estimate(uint64_t events, size_t cells,
			unsigned long *minutes, unsigned long *mb);

/*
 * The array of the jobs run[] names (NULL: all): each one's trace read
 * once to count its events (progress told, if not NULL), the biggest
 * estimate kept.  SR_OK, or the reader's error on a trace.
 */
int cmp_sweep_slurm_plan(struct cmp_sweep_slurm *sl,
			 const struct cmp_sweep *sw, const bool *run,
			 struct sr_progress *progress, struct sr_diag *d);

/* The script, DIR/sweep.sbatch's text (o->outdir absolute). */
void cmp_sweep_put_sbatch(FILE *f, const struct cmp_sweep *sw,
			  const struct cmp_sweep_opts *o,
			  const struct cmp_sweep_slurm *sl);

/* DIR/sweep.sbatch alone (a temporary, then renamed into place). */
int cmp_sweep_write_sbatch(const struct cmp_sweep *sw,
			   const struct cmp_sweep_opts *o,
			   const struct cmp_sweep_slurm *sl, struct sr_diag *d);

#endif
