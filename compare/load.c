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
#include "replay/replay.h"
#include "compare/select.h"
#include "compare/source.h"
#include "compare/tree.h"

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
	struct cmp_source_opts so = { 0 };
	struct cmp_taskre *root = NULL;
	int rc;
	struct sr_replay_tuning tune;
	const char *labels[CMP_MAX_RUNS];

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
	if (o->tree && cmp_taskre_new(&root, o->tree, d))
		return d->code;
	tune = (struct sr_replay_tuning){ o->sets, o->nsets, o->rt, o->nrt };
	for (size_t i = 0; i < o->npolicies; i++) {
		/* a run's name and directory: its tuned label */
		if (sr_replay_label(o->policies[i], &tune, o->labels[i],
				    sizeof(o->labels[i]), d)) {
			cmp_taskre_free(root);
			return d->code;
		}
		labels[i] = o->labels[i];
	}
	so.trace = o->trace;
	so.policies = o->policies;
	so.npolicies = o->npolicies;
	so.exclude = o->exclude;
	so.cpus = o->cpus;
	so.title = o->title;
	so.tree = o->tree != NULL;
	so.progress = o->progress;
	so.tune = &tune;
	so.labels = labels;
	rc = cmp_source_open(src, &so, d);
	for (size_t i = 0; i < o->npolicies; i++)
		o->policies[i] = o->labels[i];
	if (rc == SR_OK)
		rc = cmp_set_of(set, src, d);
	if (rc == SR_OK) {
		set->period_opts = o->periods;
		set->nperiod_opts = o->nperiods;
		rc = cmp_set_load(set, d);
	}
	if (rc == SR_OK && root) {
		rc = cmp_tree_mark(set, &src->procs, o->trace, root,
				   &set->focus_tasks, d);
		set->focus_regex = o->tree;
	}
	cmp_taskre_free(root);
	return rc;
}

int cmp_set_of(struct cmp_set *s, const struct cmp_source *src,
	       struct sr_diag *d)
{
	struct cmp_result *runs[CMP_MAX_RUNS];

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < src->nrun && i < CMP_MAX_RUNS; i++)
		runs[i] = &src->run[i];
	return cmp_set_open(s, src->title, runs, src->nrun, src->ref, d);
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
