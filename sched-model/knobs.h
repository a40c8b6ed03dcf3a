/*
 * knobs: a policy's tuning constants under their kernel names, and a
 * tuning of a policy (which knobs were set to what) with its label.
 *
 * Each policy lists its knobs in a table (struct sm_knob: name, kernel
 * unit, default, range, what its default follows when it is derived, where
 * it acts, and its offset in the policy's own struct of longs).  A tuning
 * starts from the defaults; sm_tuning_set() sets one knob, checked
 * against its range; sm_tuning_finish() recomputes the derived knobs left
 * unset (as the kernel's #defines do: test2-mm1's STARVATION_LIMIT is
 * MAX_SLEEP_AVG) and writes the label, "POLICY" or
 * "POLICY:NAME=VALUE,NAME=VALUE" with the set knobs in table order.
 *
 *	struct sm_tuning t;
 *	if (sm_tuning_parse(&t, "o11int:MAX_SLEEP_AVG=2000", d) ||
 *	    sm_tuning_apply_sets(&t, sets, nsets, false, d) ||
 *	    sm_tuning_finish(&t, d))
 *		return d->code;           // SR_EUSAGE, naming knob and range
 *	struct sm_sched *s = sm_sched_new(&t);   // what rq_new() takes
 */
#ifndef SM_KNOBS_H
#define SM_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/diag.h"
#include "sched-model/policy.h"

#define SM_MAX_KNOBS	16
#define SM_LABEL_MAX	256

struct sm_knob {
	const char *name;	/* the kernel's name: MAX_SLEEP_AVG, ... */
	const char *unit;	/* jiffies, ns, %, ... */
	long def;		/* the default (derived ones: with the others
				   at their defaults) */
	long min, max;		/* accepted values */
	size_t off;		/* offsetof the long in the policy's tunables */
	const char *derived;	/* NULL, or what its default follows */
	const char *what;	/* where it acts, one line */
};

struct sm_tuning {
	const struct sm_policy *policy;
	long val[SM_MAX_KNOBS];	/* by index in policy->knobs */
	unsigned set;		/* bit i: knob i set explicitly */
	char label[SM_LABEL_MAX];
};

/* Index of knob `name` (exact, case-sensitive) in p's table, or -1. */
int sm_knob_find(const struct sm_policy *p, const char *name);
size_t sm_knob_count(const struct sm_policy *p);
/* For a knob name p (NULL: any policy) does not have: "; did you mean
 * 'MAX_SLEEP_AVG'?" (lib/suggest.h) or "".  Returns buf. */
const char *sm_knob_hint(const struct sm_policy *p, const char *name,
			 char *buf, size_t len);

/* The defaults of p; label = p->name. */
void sm_tuning_init(struct sm_tuning *t, const struct sm_policy *p);

/* Set one knob from text (a decimal integer in the knob's unit). */
int sm_tuning_set(struct sm_tuning *t, const char *name, const char *value,
		  struct sr_diag *d);

/*
 * "POLICY" or "POLICY:NAME=VALUE,NAME=VALUE..." (a name or alias, then
 * knobs of that policy).  Unknown policy, knob or value: SR_EUSAGE.
 */
int sm_tuning_parse(struct sm_tuning *t, const char *spec, struct sr_diag *d);

/*
 * --set NAME=VALUE, each applied if p has knob NAME (skipped otherwise;
 * the caller checks that some policy of the run has it with
 * sm_sets_check()).  Knobs set inline are not overridden unless
 * `override`.
 */
int sm_tuning_apply_sets(struct sm_tuning *t, const char *const *sets,
			 size_t nsets, bool override, struct sr_diag *d);

/* Each --set names a knob of at least one of the policies, and is
   NAME=VALUE. */
int sm_sets_check(const char *const *sets, size_t nsets,
		  const struct sm_policy *const *pols, size_t npols,
		  struct sr_diag *d);

/* Derived knobs, cross-checks (MIN_TIMESLICE <= MAX_TIMESLICE, ...), the
   label. */
int sm_tuning_finish(struct sm_tuning *t, struct sr_diag *d);

/* For knob_derive: knob `name` takes v unless it was set explicitly. */
void sm_tuning_derive(struct sm_tuning *t, const char *name, long v);

/* Was knob `name` set explicitly (inline or by --set)? */
bool sm_tuning_is_set(const struct sm_tuning *t, const char *name);

/* The value of knob `name` in t (after finish), or `fallback`. */
long sm_tuning_get(const struct sm_tuning *t, const char *name,
		   long fallback);

/*
 * Write each knob's value into the policy's own struct of longs (`params`)
 * at the knob's offset.
 */
void sm_tuning_store(const struct sm_tuning *t, void *params);

/*
 * A configured policy for one run: its tuning and the state its
 * runqueues share (the tuned rules of an O(1) policy, 2.4's global
 * runqueue), which the policy's sched_init builds and sched_fini frees
 * (or, without one, sm_sched_free).
 */
struct sm_sched {
	const struct sm_policy *policy;
	struct sm_tuning tuning;
	void *priv;
};

/* NULL t: the policy's defaults.  NULL on out of memory. */
struct sm_sched *sm_sched_new(const struct sm_policy *p,
			      const struct sm_tuning *t);
void sm_sched_free(struct sm_sched *s);
/* For a sched_init: s->priv = a malloc'd copy of the SIZE bytes at BASE
   (a policy's rules), tuned: s->tuning stored (sm_tuning_store) into the
   copy's struct of longs PARAMS bytes in; NULL on out of memory. */
void *sm_sched_priv_copy(struct sm_sched *s, const void *base, size_t size,
			 size_t params);

#endif
