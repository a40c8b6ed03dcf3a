/*
 * affinity: the per-CPU kernel threads, by name: a prefix, the CPU number,
 * then the end of the name or, for workers, ':' and the worker's number.
 */
#include <string.h>

#include "replay/affinity.h"

static const struct {
	const char *prefix;
	char after;          /* what follows the number: '\0' or ':' */
} pinned[] = {
	{ "ksoftirqd/", '\0' },
	{ "migration/", '\0' },
	{ "cpuhp/", '\0' },
	{ "watchdog/", '\0' },
	{ "rcuc/", '\0' },
	{ "idle_inject/", '\0' },
	{ "posixcputmr/", '\0' },
	{ "kworker/", ':' },    /* kworker/N:M, kworker/N:MH; not kworker/uN:M */
};

int32_t sr_pinned_cpu(const char *comm)
{
	for (size_t i = 0; i < sizeof(pinned) / sizeof(pinned[0]); i++) {
		size_t n = strlen(pinned[i].prefix);
		const char *p = comm + n;
		int32_t cpu = 0;

		if (strncmp(comm, pinned[i].prefix, n))
			continue;
		if (*p < '0' || *p > '9')
			continue;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (cpu > 100000)
				return -1;
			cpu = cpu * 10 + (*p - '0');
		}
		if (*p == pinned[i].after)
			return cpu;
	}
	return -1;
}
