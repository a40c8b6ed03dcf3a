/*
 * o1-tunables: the kernel's names of the O(1) family's tunables, spelled
 * as the running policy's values (its defaults, or a tuning given with
 * --set), for code that has `rq` (a struct o1_rq *) in scope.  o1.c and
 * every policy file include it after o1.h, so their code reads like
 * kernel/sched.c while a tuning moves every use at once.  o1.h keeps the
 * compile-time defaults under the same names for tables and tests; this
 * header replaces them, so include it last.
 */
#ifndef SM_O1_TUNABLES_H
#define SM_O1_TUNABLES_H

#include "sched-model/o1.h"

#undef MIN_TIMESLICE
#undef MAX_TIMESLICE
#undef AVG_TIMESLICE
#undef TIMESLICE_GRANULARITY
#undef PARENT_PENALTY
#undef EXIT_WEIGHT

#define MAX_SLEEP_AVG		(rq->rules->k.max_sleep_avg)
#define STARVATION_LIMIT	(rq->rules->k.starvation_limit)
#define MIN_TIMESLICE		(rq->rules->k.min_timeslice)
#define MAX_TIMESLICE		(rq->rules->k.max_timeslice)
#define AVG_TIMESLICE		O1_AVG_TIMESLICE(MIN_TIMESLICE, MAX_TIMESLICE)
#define TIMESLICE_GRANULARITY	(rq->rules->k.timeslice_granularity)
#define CHILD_PENALTY		(rq->rules->k.child_penalty)
#define PARENT_PENALTY		(rq->rules->k.parent_penalty)
#define EXIT_WEIGHT		(rq->rules->k.exit_weight)
#define ON_RUNQUEUE_WEIGHT	(rq->rules->k.on_runqueue_weight)
#define jiffies			jiffies_of(rq)

#endif
