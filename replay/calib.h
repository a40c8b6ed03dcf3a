/*
 * calib: what the recording shows of the machine that made it, beyond
 * each task's demand, so the replay can behave as that machine did
 * (docs/replay.md, "Calibration"):
 *
 *  - the cost of a wakeup, per CPU: from a wake (sched_waking, or
 *    sched_wakeup where the trace has no waking) to the woken task on the
 *    CPU, when it found that CPU idle (an IPI and the exit from idle, or
 *    an interrupt taken in idle) and when it preempted the task running
 *    there (the resched interrupt and the switch).  A replay that ran the
 *    woken task at once would let it answer its waker before the waker
 *    had gone to sleep, and the wake would overtake the block it answers;
 *  - the tick: where CPU-bound tasks are preempted without a wakeup, the
 *    kernel's HZ shows as the period those preemptions keep to;
 *  - where tasks ran: a task that ran on one CPU only, across many
 *    switches, while other CPUs sat idle when it waited, was pinned there;
 *    the busy test (asked for by --affinity infer): one that never moved
 *    while it waited long, many times, with another CPU holding two tasks
 *    fewer, was too.
 *
 * The figures are medians over the whole recording, read in a pass of
 * their own before the replay (or while a pipe is read, the replay then
 * waiting for the end of the input), so that every instant of the replay
 * sees the same figures whatever its batching.  A trace that shows none
 * of these (a hand-written native trace, a synthetic scenario) gives
 * zeros: the replay then wakes at once, as the models' rules assume.
 */
#ifndef SR_CALIB_H
#define SR_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"
#include "parse/event.h"
#include "parse/tasks.h"

/* How a wake reached its task's CPU, for its cost. */
enum sr_wake_class {
	SR_WAKE_IDLE_LOCAL,   /* the CPU was idle; the wake was made there
				 (an interrupt taken in idle) */
	SR_WAKE_IDLE_REMOTE,  /* the CPU was idle; the wake came from
				 another CPU (an IPI) */
	SR_WAKE_PREEMPT_LOCAL,  /* it preempted the task running there;
				   made on that CPU */
	SR_WAKE_PREEMPT_REMOTE, /* ... made on another CPU */
	SR_WAKE__COUNT
};

const char *sr_wake_class_name(enum sr_wake_class c);

/* Samples it takes for a CPU's own median; fewer: every CPU's. */
#define SR_CALIB_MIN_SAMPLES 20
/* A wake that preempts within this much is the wake's own preemption
   (longer: the woken task waited for a slice to end, which is the
   policy's business, not the wakeup's cost). */
#define SR_CALIB_PREEMPT_MAX 1000000LL
/* Preemptions it takes to read the tick. */
#define SR_CALIB_TICK_MIN 30
/* Switches on one CPU it takes to call a task pinned. */
#define SR_CALIB_PIN_MIN 20
/* The busy test (--affinity infer): waits of at least SR_CALIB_STAY_NS
   begun or ended while another CPU had two tasks fewer queued, that it
   takes to call a task that never moved pinned (under load no CPU idles,
   but the balancer would have moved it). */
#define SR_CALIB_STAY_MIN 20
#define SR_CALIB_STAY_NS 1000000LL

/* Strata of a wake cost's spread: quantile i is the cost at
   (i + 0.5) / SR_CALIB_STRATA of the samples. */
#define SR_CALIB_STRATA 100

struct sr_calib_cpu {
	int64_t lat[SR_WAKE__COUNT];   /* median ns (to the microsecond
					  below), -1: not seen */
	uint64_t n[SR_WAKE__COUNT];    /* samples */
	int32_t q[SR_WAKE__COUNT][SR_CALIB_STRATA]; /* quantiles, ns */
};

/* A task that ran on one CPU only while it could have run elsewhere. */
struct sr_calib_pin {
	sr_tid thread;                 /* the reader's thread id */
	int32_t cpu;                   /* recorded CPU */
	uint64_t switches;
	bool loose;                    /* only by the busy test (below) */
};

struct sr_calib {
	int32_t ncpus;                 /* recorded CPUs seen (highest + 1) */
	struct sr_calib_cpu all;       /* every CPU's samples together */
	struct sr_calib_cpu *cpu;      /* [ncpus]: each CPU's own */
	int hz;                        /* the tick read, 0: not read */
	uint64_t tick_samples;         /* preemptions it was read from */
	double tick_fit;               /* how well they keep to it, 0..1 */
	struct sr_calib_pin *pin;      /* by thread */
	size_t npin;
};

struct sr_calib_builder;

/* NULL when out of memory. */
struct sr_calib_builder *sr_calib_builder_new(void);
/* How the builder looks up the reader's task records. */
struct sr_calib_tasks {
	const struct sr_task *(*get)(const void *ctx, sr_tid id);
	const void *ctx;
};

/* One event, in the order the reader gives them. */
int sr_calib_event(struct sr_calib_builder *b, const struct sr_event *ev,
		   const struct sr_calib_tasks *tasks, struct sr_diag *d);
/* The figures; the builder is freed.  SR_OK, or out of memory. */
int sr_calib_finish(struct sr_calib_builder *b, struct sr_calib *out,
		    struct sr_diag *d);
void sr_calib_builder_free(struct sr_calib_builder *b);

void sr_calib_init(struct sr_calib *c);  /* nothing known */
void sr_calib_free(struct sr_calib *c);

/*
 * The cost of a wake of class k onto recorded CPU cpu (its own median
 * when it has SR_CALIB_MIN_SAMPLES, else every CPU's; 0 when the
 * recording shows none).
 */
int64_t sr_calib_wake_cost(const struct sr_calib *c, int32_t cpu,
			   enum sr_wake_class k);

/*
 * A cost drawn from the spread of the same samples: u (0 .. SR_CALIB_
 * STRATA - 1) picks the stratum, so that the replay's wakes vary as the
 * recording's did (a uniform u gives the recorded distribution, to the
 * microsecond).  0 where sr_calib_wake_cost is 0.
 */
int64_t sr_calib_wake_cost_at(const struct sr_calib *c, int32_t cpu,
			      enum sr_wake_class k, uint32_t u);

/* Thread th's pinned CPU (recorded numbering), -1 none; loose: the busy
   test's pins too. */
int32_t sr_calib_pinned(const struct sr_calib *c, sr_tid th, bool loose);

#endif
