/*
 * load: the options diff, plot and report share, and loading their run
 * set (see load.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/behave.h"
#include "compare/load.h"
#include "compare/select.h"
#include "compare/source.h"
#include "compare/tree.h"
#include "compare/tsv.h"

int cmp_opt_period(const struct po_option *opt, const char *arg,
		   struct sr_diag *d)
{
	struct cmp_load_opts *o = opt->value;
	struct cmp_period_opt *p = &o->periods[o->nperiods];
	const char *eq = strrchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : 0;

	if (o->nperiods == CMP_MAX_PERIOD_OPTS)
		return sr_fail(d, SR_EUSAGE, "%s: --period at most %d times",
			       o->cmd, CMP_MAX_PERIOD_OPTS);
	if (!eq || len == 0 || len >= sizeof(p->comm))
		return sr_fail(d, SR_EUSAGE, "--period: expected COMM=MS (a "
			       "comm and a period in ms > 0), got '%s'", arg);
	if (po_number("--period", eq + 1, 1, INT64_MAX / 2, po_time_units_ms,
		      &p->period_ns, d))
		return d->code;
	memcpy(p->comm, arg, len);
	p->comm[len] = '\0';
	o->nperiods++;
	return SR_OK;
}

int cmp_cmd_load(struct cmp_load_opts *o, size_t min_policies, size_t max_policies,
		struct cmp_source *src, struct cmp_set *set, struct cmp_taskre **re,
		struct sr_diag *d)
{
	static const char *const defaults[] = { "stock", "o11int" };
	const char *replay[CMP_MAX_RUNS + 1];
	size_t nreplay = 0;
	bool have_observed = false;

	memset(src, 0, sizeof(*src));
	memset(set, 0, sizeof(*set));
	*re = NULL;
	if (o->npolicies && o->npolicies > max_policies)
		return sr_fail(d, SR_EUSAGE,
			       "%s: expected %s --policy, got %zu", o->cmd,
			       max_policies == 2 ? "two (A and B)" : "fewer",
			       o->npolicies);
	if (o->task && cmp_taskre_new(re, o->task, d))
		return d->code;
	if (!o->npolicies) {
		o->policies[0] = defaults[0];
		o->policies[1] = defaults[1];
		o->npolicies = 2;
	}
	if (o->npolicies < min_policies)
		return sr_fail(d, SR_EUSAGE,
			       "%s: expected two --policy (A and B), got %zu",
			       o->cmd, o->npolicies);
	for (size_t i = 0; i < o->npolicies; i++) {
		replay[nreplay++] = o->policies[i];
		have_observed |= !strcmp(o->policies[i], "observed");
	}
	/* the recorded schedule: the reference for behaviour */
	if (!have_observed)
		replay[nreplay++] = "observed";
	if (cmp_source_open(src, o->trace, replay, nreplay, o->exclude, NULL,
			   o->title, d))
		return d->code;
	if (cmp_set_open(set, src->root, src->title, o->policies, o->npolicies, d))
		return d->code;
	set->period_opts = o->periods;
	set->nperiod_opts = o->nperiods;
	if (cmp_set_load(set, d))
		return d->code;
	if (o->tree) {
		struct cmp_taskre *root;
		int rc;

		if (!src->tmpdir)
			return sr_fail(d, SR_EUSAGE,
				       "--tree needs the trace file (ancestry is in its fork events), not the replay directory %s",
				       o->trace);
		if (cmp_taskre_new(&root, o->tree, d))
			return d->code;
		rc = cmp_tree_mark(set, o->trace, root, &set->focus_tasks, d);
		cmp_taskre_free(root);
		if (rc)
			return rc;
		set->focus_regex = o->tree;
	}
	return SR_OK;
}

int cmp_set_load(struct cmp_set *s, struct sr_diag *d)
{
	if (cmp_set_read_summaries(s, d) || cmp_behave_reference(s, d))
		return d->code;
	cmp_behave_classify(s);
	for (size_t r = 0; r < s->nruns; r++) {
		if (cmp_behave_spread(s, r, d) || cmp_behave_periodic(s, r, d))
			return d->code;
	}
	return SR_OK;
}
