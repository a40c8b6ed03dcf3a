/*
 * behave: what each task is, from how it behaves in the reference run
 * (interactive, batch, other; periodic or not), and the figures that need
 * a second look at a run: the spread of delays and interbench's
 * periodic-task metrics.  Rules and thresholds: docs/plots.md.
 */
#ifndef CMP_BEHAVE_H
#define CMP_BEHAVE_H

#include <stddef.h>
#include <stdint.h>

#include "compare/runset.h"
#include "lib/diag.h"

/* Thresholds, named so docs and tests can quote them. */
#define CMP_INTERACTIVE_SLEEP_SHARE 0.5  /* asleep at least half its life */
#define CMP_INTERACTIVE_MIN_WAKES 10
#define CMP_INTERACTIVE_WAKE_RATE 1.0    /* wakeups per second alive */
#define CMP_INTERACTIVE_MIN_LIFE_PCT 25  /* alive >= 25% of the trace ... */
#define CMP_INTERACTIVE_MIN_LIFE_NS 5000000000LL /* ... or >= 5 s */
#define CMP_BATCH_RUN_SHARE 0.5          /* runs >= half of its awake+asleep */
#define CMP_BATCH_MIN_RUN_NS 10000000LL  /* and >= 10 ms of CPU */
/* A task asleep while one of its descendants runs or is runnable waits
 * for work it started; one asleep so for at least half of its sleep
 * (make, a shell running a script) drives batch work: batch, not
 * interactive (docs/plots.md, "Behaviour"). */
#define CMP_DRIVER_SLEEP_SHARE 0.5
#define CMP_DESC_DEPTH 64                /* descendants counted this deep */
#define CMP_PERIOD_MIN_WAKES 9           /* 8 gaps */
#define CMP_PERIOD_TOL_PCT 20            /* a gap within 20% of the period */
#define CMP_PERIOD_MIN_TOL_NS 100000LL   /* ... or within 0.1 ms */
#define CMP_PERIOD_REGULAR 0.6           /* share of gaps that must be */
#define CMP_PERIOD_MIN_NS 1000000LL      /* periods under 1 ms are noise */
/* A recording that starved a task: it waited at least
 * CMP_STARVED_WAIT_NS to run after at least CMP_STARVED_PCT % of its
 * wakeups (and CMP_PERIOD_MIN_WAKES of them), each time with every CPU
 * of the recording busy when it woke.  Its period, its class and the
 * verdict of its group are then the starvation's as much as its own,
 * and say so (docs/plots.md, "A starved recording").  Judged on the
 * recording only (the reference run is observed). */
#define CMP_STARVED_WAIT_NS 1000000LL
#define CMP_STARVED_PCT 25

/* Behaviour of every task from the reference run's timeline. */
int cmp_behave_reference(struct cmp_set *s, struct sr_diag *d);
/* How long each task slept while a descendant of it ran or was runnable
 * (tasks[].desc_busy_ns; after cmp_tree_parents and
 * cmp_behave_reference). */
int cmp_behave_descendants(struct cmp_set *s, struct sr_diag *d);
/* Classes and periods (after cmp_behave_reference, and
 * cmp_behave_children when the set has the task table); SR_ENOMEM. */
int cmp_behave_classify(struct cmp_set *s, struct sr_diag *d);
/* Delay spread (sd, interbench "SD") of run r from its latency.tsv. */
int cmp_behave_spread(struct cmp_set *s, size_t r, struct sr_diag *d);
/* Deadlines met and CPU obtained of the periodic tasks under run r. */
int cmp_behave_periodic(struct cmp_set *s, size_t r, struct sr_diag *d);

/*
 * Period detection on sorted wake times: returns the period (median gap)
 * if at least CMP_PERIOD_REGULAR of the gaps are within tolerance of it,
 * else 0 (-1 when out of memory: never "no period" for that); *regular
 * gets that share.  Exposed for tests.
 */
int64_t cmp_detect_period(const int64_t *wake_ns, size_t n, double *regular);

/*
 * The spread of n delays with sum and sum of squares (ns):
 * true sample standard deviation sqrt((S2 - S1^2/n) / (n - 1)), and
 * interbench's printed "SD": sqrt((S2 - avg^2/n) / (n - 1)), avg = S1/n,
 * which is a root mean square, not a deviation (docs/plots.md).
 */
double cmp_true_sd(uint64_t n, long double s1, long double s2);
double cmp_interbench_sd(uint64_t n, long double s1, long double s2);

#endif
