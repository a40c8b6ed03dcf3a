/*
 * sweep: a grid of replays (traces x policies x knob values), its jobs,
 * and its results.
 *
 * The plan expands `--set NAME=V1,V2,...` axes (a single value is a
 * constant) over every policy that has knob NAME (a policy without it
 * runs once for the other axes), so each cell of the grid is one trace
 * under one tuned policy, named by its label.  The cells of one trace are
 * run CMP_SWEEP_CHUNK at a time: a job reads its trace once and replays
 * it under its policies side by side (as `replay` does), so the grid
 * costs one read per job, not per cell.  The plan is written as
 * DIR/jobs.txt (one shell command line per job: `schedreplay sweep-job
 * ...`, for GNU parallel, parallel --sshlogin or a Slurm array) and
 * DIR/manifest.tsv (what each cell is, and its job).  A job replays its
 * trace in memory (compare/source.h) and writes each cell's figures
 * (the interactive tasks' worst p99 and max delay, the periodic tasks'
 * deadlines met, the batch work's completion) to
 * DIR/jobs/TRACE/LABEL/figures.tsv, last and atomically: a cell whose
 * figures.tsv exists is done, and a job replays only its cells without.
 * Collecting reads the manifest and every job's figures into
 * DIR/results.tsv and DIR/results.json (a job without figures: failed or
 * not run, and said so), and a heat map of one figure over two knobs.
 */
#ifndef CMP_SWEEP_H
#define CMP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "replay/replay.h"
#include "sched-model/knobs.h"

#define CMP_SWEEP_MAX_AXES 8
#define CMP_SWEEP_MAX_VALUES 64
#define CMP_SWEEP_CHUNK 8	/* cells of one trace per job */

/* One knob swept: its values in the order given. */
struct cmp_sweep_axis {
	char name[64];
	long values[CMP_SWEEP_MAX_VALUES];
	size_t nvalues;
};

/* What every job shares: where, which binary, --rt, --cpus. */
struct cmp_sweep_opts {
	const char *outdir;           /* DIR, absolute (sr_path_absolute) */
	const char *const *rt;        /* --rt REGEX[:PRIO], each job */
	size_t nrt;
	const char *self;             /* the schedreplay binary, absolute */
	int cpus;                     /* --cpus: 0 = each recording's */
};

/* One cell of the grid (a row of the manifest and of the results). */
struct cmp_sweep_job {
	size_t index;                 /* from 1, in plan order */
	size_t chunk;                 /* the job (jobs.txt line) it is in,
					 from 1 */
	char *trace;                  /* absolute path */
	char tkey[80];                /* DIR/jobs/<tkey>/: t<N>-<file name> */
	char policy[32];              /* canonical name */
	char label[SM_LABEL_MAX];     /* the tuned policy: its spec */
	long value[CMP_SWEEP_MAX_AXES];
	bool has[CMP_SWEEP_MAX_AXES]; /* the policy has that knob */
	char *dir;                    /* DIR/jobs/<tkey>/<label> */
	char *root;                   /* DIR/jobs/<tkey> */
};

struct cmp_sweep {
	struct cmp_sweep_axis axes[CMP_SWEEP_MAX_AXES];
	size_t naxes;
	struct cmp_sweep_job *jobs;
	size_t njobs;
	size_t nchunks;               /* jobs.txt's lines */
};

/* The figures of one job (the groups are those of `diff`: classified on
 * the recorded schedule). */
struct cmp_sweep_figs {
	size_t inter_n;               /* interactive tasks */
	int64_t inter_p99_ns;         /* the worst interactive p99 delay */
	int64_t inter_max_ns;         /* the worst interactive max delay */
	size_t periodic_n;
	uint64_t periods, deadlines_met;
	size_t batch_n;               /* batch tasks */
	bool batch_done_known;
	int64_t batch_done_ns;        /* their last finish, from the start */
	int64_t end_ns;               /* the replay's last finish, likewise */
};

/*
 * Expand traces x policies x axes (sets: NAME=V or NAME=V1,V2,...; each
 * must be a knob of some policy; values are checked against each
 * policy's range).  SR_EUSAGE naming what is wrong.
 */
int cmp_sweep_plan(struct cmp_sweep *sw, const char *const *traces,
		   size_t ntraces, const char *const *policies,
		   size_t npolicies, const char *const *sets, size_t nsets,
		   const char *outdir, struct sr_diag *d);
void cmp_sweep_free(struct cmp_sweep *sw);

/*
 * Can the plan be written?  Every value jobs.txt, manifest.tsv and
 * sweep.sbatch hold (paths, --rt, labels) must be free of control
 * characters (a newline would end a job's command line early and run the
 * rest as a command); for Slurm (slurm), DIR must hold no backslash.
 * SR_EUSAGE naming the value.  Called before anything is made.
 */
int cmp_sweep_check(const struct cmp_sweep *sw,
		    const struct cmp_sweep_opts *o, bool slurm,
		    struct sr_diag *d);
struct cmp_sweep_slurm;
/* DIR/manifest.tsv, DIR/jobs.txt and (slurm, not NULL) DIR/sweep.sbatch,
 * an array job running jobs.txt's lines (compare/sweep-slurm.h): all
 * written, then renamed into place. */
int cmp_sweep_write_plan(const struct cmp_sweep *sw,
			 const struct cmp_sweep_opts *o,
			 const struct cmp_sweep_slurm *slurm, struct sr_diag *d);
/* Read DIR/manifest.tsv back (for --collect). */
int cmp_sweep_read_plan(struct cmp_sweep *sw, const char *outdir,
			struct sr_diag *d);
/* Job c's command line (c from 1; malloc'd), as in jobs.txt: each word
 * quoted for sh ('...', ' as '\''); NULL if out of memory. */
char *cmp_sweep_cmdline(const struct cmp_sweep *sw, size_t c,
			const struct cmp_sweep_opts *o);

/*
 * Run one job: replay trace under the labels whose root/LABEL/figures.tsv
 * is missing (and observed), in memory, then write each one's
 * figures; *done: how many were done before (nothing to do if all).
 */
int cmp_sweep_run_job(const char *trace, const char *root, size_t chunk,
		      const char *const *labels, size_t nlabels,
		      const char *const *rt, size_t nrt, int cpus,
		      size_t *done, struct sr_diag *d);

/*
 * DIR/results.tsv and DIR/results.json from every job's figures; *failed:
 * the jobs without figures (their indexes in failed_idx, up to nfailed on
 * entry).
 */
int cmp_sweep_collect(const struct cmp_sweep *sw, const char *outdir,
		      size_t *failed_idx, size_t *nfailed, struct sr_diag *d);

/* Job j's figures (its figures.tsv's row: CMP_SWEEP_NFIGS fields into
 * fig, in buf); *ok false when it has none (its figures.tsv missing: the
 * job failed or did not run).  A figures.tsv that is not what the job
 * writes (its header, then one row of numbers or '-') is bad data
 * (SR_EDATA naming file and line): results.tsv, results.json and the heat
 * map take its values as they are. */
#define CMP_SWEEP_NFIGS 8
int cmp_sweep_job_figures(const struct cmp_sweep_job *j, char *buf,
			  size_t len, char **fig, bool *ok, struct sr_diag *d);

/* --heatmap X,Y[,FIGURE], resolved against the plan. */
struct cmp_sweep_heat {
	char spec[200];
	const char *x, *y, *fname;     /* into spec */
	int ax, ay, fi;                /* the axes, the figure's index */
};

/* heat ("X,Y[,FIGURE]") names two axes of sw, no other axis varying, and
 * a figure: SR_EUSAGE saying what is wrong.  Checked before the jobs
 * run, so a typo costs nothing; plots/heatmap.h draws it. */
int cmp_sweep_heat_parse(const struct cmp_sweep *sw, const char *heat,
			 struct cmp_sweep_heat *h, struct sr_diag *d);

/* Names of the figures, for --heatmap's FIGURE. */
extern const char *const cmp_sweep_figure_names[];

#endif
