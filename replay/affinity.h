/*
 * affinity: where the replay may run a task.  Traces do not record
 * affinity, so every task may run on every CPU, except the per-CPU kernel
 * threads, pinned to the CPU their name gives (ksoftirqd/N, migration/N,
 * kworker/N:M, cpuhp/N, ...).  With fewer CPUs replayed than recorded, a
 * recorded CPU N is CPU N mod cpus (docs/replay.md, "CPUs").
 */
#ifndef SR_AFFINITY_H
#define SR_AFFINITY_H

#include <stdint.h>

/* The CPU a per-CPU kernel thread's name pins it to, or -1. */
int32_t sr_pinned_cpu(const char *comm);

/* A recorded CPU number on a replay of ncpus CPUs (-1: CPU 0). */
static inline int32_t sr_fold_cpu(int32_t cpu, int32_t ncpus)
{
	return cpu < 0 || ncpus < 1 ? 0 : cpu % ncpus;
}

#endif
