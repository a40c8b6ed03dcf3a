/*
 * interbench: Con Kolivas's interactivity benchmark (interbench 0.31) as
 * closed-loop synthetic programs (replay/synth.h), one run per benchmarked
 * task, background load and policy: the interactive task's own figures,
 * as interbench computes them from the clock it reads, and the contest
 * table's compile (docs/interbench.md says what is modelled and how).
 *
 *	struct sr_ib_spec sp = { .task = SR_IB_AUDIO, .load = SR_IB_BURN,
 *				 .tuning = &t, .cpus = 1,
 *				 .duration_ns = 30 * SR_IB_S, .seed = 1 };
 *	struct sr_ib_result r;
 *	if (sr_ib_run(&sp, &r, d)) ...
 *	sr_ib_latency_avg(&r), sr_ib_desired_cpu(&r), ...
 */
#ifndef SR_INTERBENCH_H
#define SR_INTERBENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"
#include "sched-model/knobs.h"
#include "sched-model/policy.h"

#define SR_IB_MS 1000000LL
#define SR_IB_S 1000000000LL

/* What is benchmarked (interbench's "bench" threads), and the contest
   table's compile. */
enum sr_ib_task {
	SR_IB_AUDIO,
	SR_IB_VIDEO,
	SR_IB_X,
	SR_IB_GAMING,
	SR_IB_CUSTOM,   /* custom:PCT@MS */
	SR_IB_COMPILE_JOB, /* contest: make -j4 to its end */
	SR_IB_TASK__COUNT
};

/* The background loads; Memload is named, and refused. */
enum sr_ib_load {
	SR_IB_NONE,
	SR_IB_LVIDEO,
	SR_IB_LX,
	SR_IB_BURN,
	SR_IB_WRITE,
	SR_IB_READ,
	SR_IB_COMPILE,
	SR_IB_HACK,
	SR_IB_MEMLOAD,
	SR_IB_LCUSTOM,  /* custom:PCT@MS */
	SR_IB_LOAD__COUNT
};

/* A name as the command line takes it ("audio"), as interbench prints it
   ("Audio"); NULL past the end. */
const char *sr_ib_task_name(int task);
const char *sr_ib_task_label(int task);
const char *sr_ib_load_name(int load);
const char *sr_ib_load_label(int load);
/* Why a load is not modelled (Memload), NULL if it is. */
const char *sr_ib_load_refused(int load);

/* custom:PCT@MS: PCT % of each MS-millisecond period. */
struct sr_ib_custom {
	int pct;
	int64_t interval_ns;
};

/* One run: a task under a load, on one policy. */
struct sr_ib_spec {
	int task;                  /* enum sr_ib_task */
	struct sr_ib_custom task_custom;
	int load;                  /* enum sr_ib_load */
	struct sr_ib_custom load_custom;
	/* the policy as tuned (sched-model/knobs.h); each run makes its
	   own runqueues from it, so runs may go on several threads */
	const struct sm_tuning *tuning;
	int cpus;
	int64_t duration_ns;       /* the benchmark's length */
	int nice_task, nice_load;
	int burn_threads;          /* Burn's threads (interbench -L); 0: 4 */
	uint64_t seed;
	bool check;                /* the policy's invariants every instant */
	/* the run as a native trace (NULL: none), and its waits as
	   replay's latency.tsv (replay/writers.h; NULL: none) */
	FILE *trace;
	const char *trace_comment;
	FILE *latency;
};

/*
 * The benchmarked task's figures, as interbench keeps them (its
 * data_table, in ns), and the contest figures.
 */
struct sr_ib_result {
	uint64_t samples;          /* latencies recorded */
	double sum_latency;        /* ns */
	double sum_latency2;       /* ns^2 */
	int64_t max_latency;
	uint64_t deadlines_met, deadlines_missed;
	/* desired CPU: achieved / (achieved + missed) */
	double achieved_burns, missed_burns;
	bool has_deadlines;        /* Gaming has none */
	/* contest: the compile's span and CPU, the load's CPU meanwhile */
	int64_t compile_ns, compile_cpu_ns, load_cpu_ns;
	/* the run */
	int64_t end_ns;
	uint64_t tasks;
	uint64_t sim_events;
};

int sr_ib_run(const struct sr_ib_spec *sp, struct sr_ib_result *r,
	      struct sr_diag *d);

/*
 * The tuning a run uses: in's, with the tick of a policy that takes the
 * recording's (HZ = 0) set to the 1000 it falls back to, as there is no
 * recording; out->label is what a replay of the saved run is given.
 */
int sr_ib_tuning(const struct sm_tuning *in, struct sm_tuning *out,
		 struct sr_diag *d);

/* Interbench's figures (show_latencies): the mean and standard deviation
   of the latencies and their max, in ns; desired CPU and deadlines met in
   per cent (deadlines met 0 when none was met). */
double sr_ib_latency_avg(const struct sr_ib_result *r);
double sr_ib_latency_sd(const struct sr_ib_result *r);
double sr_ib_desired_cpu(const struct sr_ib_result *r);
double sr_ib_deadlines_met(const struct sr_ib_result *r);

#endif
