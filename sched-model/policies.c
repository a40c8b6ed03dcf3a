/*
 * policies: the table of scheduler models, lookup by name or alias, and
 * the names of the observer's change reasons.  A new policy is one file
 * in sched-model/ defining a struct sm_policy, plus one extern line and
 * one row here.
 */
#include <string.h>

#include "sched-model/policy.h"

extern const struct sm_policy sm_policy_stock;
extern const struct sm_policy sm_policy_test2_mm1;
extern const struct sm_policy sm_policy_o11int;
extern const struct sm_policy sm_policy_o11_1;
extern const struct sm_policy sm_policy_o11_2;
extern const struct sm_policy sm_policy_g3;
extern const struct sm_policy sm_policy_a3;
extern const struct sm_policy sm_policy_iso;
extern const struct sm_policy sm_policy_24;
extern const struct sm_policy sm_policy_cfs;
extern const struct sm_policy sm_policy_eevdf;

const struct sm_policy *const sm_policies[] = {
	&sm_policy_stock,
	&sm_policy_test2_mm1,
	&sm_policy_o11int,
	&sm_policy_o11_1,
	&sm_policy_o11_2,
	&sm_policy_g3,
	&sm_policy_a3,
	&sm_policy_iso,
	&sm_policy_24,
	&sm_policy_cfs,
	&sm_policy_eevdf,
	NULL,
};

const struct sm_policy *sm_policy_find(const char *name)
{
	if (!name)
		return NULL;
	for (const struct sm_policy *const *p = sm_policies; *p; p++) {
		if (!strcmp((*p)->name, name))
			return *p;
		for (const char *const *a = (*p)->aliases; *a; a++)
			if (!strcmp(*a, name))
				return *p;
	}
	return NULL;
}

static const char *const change_names[SM_CH__COUNT] = {
	[SM_CH_NEW] = "new",
	[SM_CH_FORK] = "fork",
	[SM_CH_WAKE] = "wake",
	[SM_CH_RUN] = "run",
	[SM_CH_PREEMPT] = "preempt",
	[SM_CH_BLOCK] = "block",
	[SM_CH_EXPIRE] = "expire",
	[SM_CH_REQUEUE] = "requeue",
	[SM_CH_EXIT] = "exit",
	[SM_CH_REAP] = "reap",
	[SM_CH_STATE] = "state",
	[SM_CH_TICK] = "tick",
	[SM_CH_RECALC] = "recalc",
	[SM_CH_CHARGE] = "charge",
	[SM_CH_SWAP] = "swap",
	[SM_CH_YIELD] = "yield",
	[SM_CH_NICE] = "nice",
	[SM_CH_SETSCHED] = "setsched",
	[SM_CH_REFUND] = "refund",
	[SM_CH_MIGRATE] = "migrate",
};

const char *sm_change_name(enum sm_change why)
{
	if ((unsigned)why >= SM_CH__COUNT || !change_names[why])
		return "?";
	return change_names[why];
}
