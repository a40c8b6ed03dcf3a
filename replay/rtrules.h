/*
 * rtrules: --rt REGEX[:PRIO], the soft-realtime experiment: tasks whose
 * command name matches run SCHED_RR at PRIO (1..99, default
 * SR_RT_DEFAULT_PRIO) under whatever policy replays them.  The first rule
 * that matches wins.  The simulator asks at a task's birth and whenever
 * its name changes (exec).
 *
 *	struct sr_rtrules *rr;
 *	if (sr_rtrules_new(&rr, specs, n, d)) return d->code;  // 64: bad spec
 *	int prio = sr_rtrules_match(rr, "pulseaudio", why, n);  // 0: none
 *	sr_rtrules_free(rr);
 */
#ifndef SR_RTRULES_H
#define SR_RTRULES_H

#include <stddef.h>

#include "lib/diag.h"

#define SR_RT_DEFAULT_PRIO 50

struct sr_rtrules;

/* specs: "REGEX" or "REGEX:PRIO", one rule for both: the last ':' not
   written '\:' and not followed by ')' or ']' (a ':' of a group or class,
   (?:...) or [[:alpha:]]) starts the priority, which must be 1 to 99 in
   digits ("mpv:-1", "mpv:high", "mpv:" are refused, never read as part
   of the regex); n = 0 gives an empty set (matches nothing).  The specs
   are kept by pointer (for messages): they must outlive the set. */
int sr_rtrules_new(struct sr_rtrules **out, const char *const *specs,
		   size_t n, struct sr_diag *d);
/* The prio of the first rule whose pcre2 pattern matches comm, or 0;
 * -1 when pcre2 could not decide on a rule (a match limit reached: an
 * error, not a mismatch), why saying so ("--rt 'SPEC': on the task name
 * 'COMM': ..."). */
int sr_rtrules_match(const struct sr_rtrules *r, const char *comm,
		     char *why, size_t whylen);
/* Rule i alone on comm: 1, 0, or -1 with why as sr_rtrules_match's. */
int sr_rtrules_rule(const struct sr_rtrules *r, size_t i, const char *comm,
		    char *why, size_t whylen);
size_t sr_rtrules_count(const struct sr_rtrules *r);
/* Rule i as given. */
const char *sr_rtrules_spec(const struct sr_rtrules *r, size_t i);
void sr_rtrules_free(struct sr_rtrules *r);

#endif
