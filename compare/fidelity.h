/*
 * fidelity: how closely a policy's replay of a trace reproduces the
 * recording (docs/replay.md, "Fidelity").  Replayed under the model of the
 * kernel that recorded it, a trace should come back as recorded: what is
 * left is the replay's own error, the error bar of every verdict.
 *
 * The figures, each replayed run against `observed` (the recording):
 *  - for the tasks with at least CMP_FID_MIN_SWITCHES recorded switches,
 *    the median over tasks of |log2((replay + 0.01 ms) / (recorded +
 *    0.01 ms))| of the p50 delay and of the p99 delay (0: the same; 1: a
 *    factor of 2), and the share of them within 2x on both;
 *  - total switches replayed / recorded (every task);
 *  - sleeps the replay skipped (a wake came first: early; its time was
 *    past: late) against the recording's wakeups;
 *  - migrations per second, replayed and recorded;
 *  - the CPU given to other tasks than in the recording, per window: in
 *    each window half the sum over tasks of |replayed - recorded| CPU,
 *    over all windows, as a share of the recorded CPU (0: every task got
 *    its recorded CPU in every window; 1: none did);
 *  - completion: the last task's end, from the start, replayed and
 *    recorded;
 *  - the tasks farthest off (largest of their two |log2|).
 *
 * The figures come from per-task rows (cmp_fid_row), so they can be had
 * from a replay as it runs (the window figure needs its timeline rows:
 * cmp_fid_windows) or from summary rows read back.
 */
#ifndef CMP_FIDELITY_H
#define CMP_FIDELITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"
#include "replay/replay.h"

#define CMP_FID_MIN_SWITCHES 20
#define CMP_FID_EPS_NS 10000          /* 0.01 ms */
#define CMP_FID_FARTHEST 5
#define CMP_FID_WINDOW_NS 1000000000LL /* default window: 1 s */

/* What the figures need of one task under one run. */
struct cmp_fid_row {
	int32_t pid;
	const char *comm;
	uint64_t switches, wakeups;
	int64_t p50_ns, p99_ns;
	int64_t finish_ns;        /* trace clock; 0: unknown */
	uint64_t early, late;     /* sleeps skipped (replayed runs) */
	int64_t migrations;       /* -1: unknown */
};

/* One judged task. */
struct cmp_fid_task {
	int32_t pid;
	char comm[32];
	uint64_t o_sw, r_sw;
	int64_t o50, r50, o99, r99;
	double l50, l99;          /* |log2| */
};

struct cmp_fid {
	char policy[256];
	size_t ntasks;            /* tasks in the recording */
	size_t judged;            /* ... with enough switches */
	double p50, p99;          /* median |log2| over the judged */
	size_t within2x;          /* judged tasks within 2x on both */
	uint64_t o_sw, r_sw;      /* switches, every task */
	uint64_t sleeps;          /* the recording's wakeups */
	uint64_t early, late;     /* sleeps the replay skipped */
	double o_mig_s, r_mig_s;  /* migrations per second (-1 unknown) */
	bool have_windows;
	int64_t window_ns;
	double cpu_err;           /* CPU elsewhere per window (share) */
	double o_end_s, r_end_s;  /* the last task's end, from the start */
	int hz;                   /* the replay's tick rate, 0: unknown */
	const char *hz_from;      /* where it came from, in words */
	struct cmp_fid_task far[CMP_FID_FARTHEST];
	size_t nfar;
	struct cmp_fid_task *task; /* the judged ones, by pid */
};

/* The factor a median |log2| stands for: 2^x. */
double cmp_fid_factor(double log2);

/*
 * The figures of rep (a replayed run's rows) against obs (the
 * recording's), each sorted by pid then comm; span_ns: the trace's
 * length (migrations per second), start: its first instant.  f->task is
 * allocated (cmp_fid_release).  SR_OK or out of memory.
 */
int cmp_fid_compute(const struct cmp_fid_row *obs, size_t nobs,
		    const struct cmp_fid_row *rep, size_t nrep,
		    int64_t start, int64_t span_ns, struct cmp_fid *f,
		    struct sr_diag *d);
void cmp_fid_release(struct cmp_fid *f);

/* A replay's rows as cmp_fid_row (rows[] of its policy p; malloc'd). */
int cmp_fid_rows_of(const struct sr_replay_policy *p, struct cmp_fid_row **out,
		    struct sr_diag *d);

/*
 * The window figure: the CPU each task got per window, from timeline
 * rows (run, then preempt, block or exit) as a replay hands them to its
 * hooks, for each of its runs.
 */
struct cmp_fid_windows;
int cmp_fid_windows_new(struct cmp_fid_windows **w, size_t nruns,
			int64_t window_ns, struct sr_diag *d);
void cmp_fid_windows_free(struct cmp_fid_windows *w);
/* a struct sr_replay_hooks' row callback, ctx the windows */
int cmp_fid_windows_row(void *ctx, size_t run, const struct sr_tl_row *r);
/* f->cpu_err of run rep against run obs, up to end (open runs closed) */
void cmp_fid_windows_figure(struct cmp_fid_windows *w, size_t obs,
			    size_t rep, int64_t end, struct cmp_fid *f);

/* The model of the kernel that made a recording, by its release
   ("6.18.44-..."): eevdf-6.18 from 6.12, eevdf from 6.6, cfs from
   2.6.23, stock before; NULL release: eevdf-6.18. */
const char *cmp_fid_model(const char *release);

#endif
