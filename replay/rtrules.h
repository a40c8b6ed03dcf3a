/*
 * rtrules: --rt REGEX[:PRIO], the soft-realtime experiment: tasks whose
 * command name matches run SCHED_RR at PRIO (1..99, default
 * SR_RT_DEFAULT_PRIO) under whatever policy replays them.  The first rule
 * that matches wins.  The simulator asks at a task's birth and whenever
 * its name changes (exec).
 *
 *	struct sr_rtrules *rr;
 *	if (sr_rtrules_new(&rr, specs, n, d)) return d->code;  // 64: bad spec
 *	int prio = sr_rtrules_match(rr, "pulseaudio");          // 0: none
 *	sr_rtrules_free(rr);
 */
#ifndef SR_RTRULES_H
#define SR_RTRULES_H

#include <stddef.h>

#include "lib/diag.h"

#define SR_RT_DEFAULT_PRIO 50

struct sr_rtrules;

/* specs: "REGEX" or "REGEX:PRIO" (a final ':' and digits are the prio);
   n = 0 gives an empty set (matches nothing). */
int sr_rtrules_new(struct sr_rtrules **out, const char *const *specs,
		   size_t n, struct sr_diag *d);
/* The prio of the first rule whose pcre2 pattern matches comm, or 0. */
int sr_rtrules_match(struct sr_rtrules *r, const char *comm);
size_t sr_rtrules_count(const struct sr_rtrules *r);
void sr_rtrules_free(struct sr_rtrules *r);

#endif
