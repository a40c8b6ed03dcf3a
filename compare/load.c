/*
 * load: the options diff, plot and report share, and loading their run
 * set (see load.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/behave.h"
#include "compare/load.h"
#include "compare/verdict.h"
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

/*
 * The recorded command's tree (the verdict's "outside the recorded
 * command"): --tree's root, or the first task of the command schedreplay
 * record or perf record ran (record-exec, perf-exec: SR_CMD_TREE) when the
 * trace has one.  An empty --tree names that one too.
 */
static const char *tree_regex(const char *tree)
{
	return tree && tree[0] ? tree : SR_CMD_TREE;
}

/* --tree's regex; an error names --tree. */
static int tree_re(struct cmp_taskre **re, const char *regex,
		   struct sr_diag *d)
{
	char opt[600];

	regex = tree_regex(regex);
	snprintf(opt, sizeof(opt), "--tree '%s'", regex);
	return cmp_taskre_new(re, regex, opt, d);
}

static int mark_cmd(struct cmp_set *s, const char *tree, struct sr_diag *d)
{
	struct cmp_taskre *re;
	size_t n = 0;
	int rc;

	if (tree_re(&re, tree, d))
		return d->code;
	rc = cmp_tree_mark_cmd(s, s->procs, re, &n, &s->cmd_root, d);
	cmp_taskre_free(re);
	s->has_cmd = rc == SR_OK && n > 0;
	return rc;
}

/* --pid: an error when no task has any pid given, a warning for a pid
 * that no task has. */
static int pids_found(const struct cmp_set *s, const struct sr_selection *sel,
		      struct sr_diag *d)
{
	size_t found = 0;

	for (size_t k = 0; k < sel->npids; k++) {
		bool has = false;

		for (size_t i = 0; i < s->ntasks && !has; i++)
			has = s->tasks[i].pid == sel->pids[k];
		if (has)
			found++;
		else if (sel->npids > 1)
			sr_warn("--pid %d: no task has this pid in the trace",
				(int)sel->pids[k]);
	}
	if (found)
		return SR_OK;
	if (sel->npids > 1)
		return sr_fail(d, SR_EUSAGE, "--pid: no task has any of these "
			       "pids in the trace");
	return sr_fail(d, SR_EUSAGE, "--pid %d: no task has this pid in the "
		       "trace", (int)sel->pids[0]);
}

/* Append ", " (unless first) and a printf'd item to buf[n] at *k; what
 * does not fit is cut. */
__attribute__((format(printf, 4, 5)))
static void say(char *buf, size_t n, size_t *k, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*k)
		*k += (size_t)snprintf(buf + *k, n - *k, ", ");
	if (*k >= n) {
		*k = n - 1;
		return;
	}
	va_start(ap, fmt);
	w = vsnprintf(buf + *k, n - *k, fmt, ap);
	va_end(ap);
	*k = w < 0 || (size_t)w >= n - *k ? n - 1 : *k + (size_t)w;
}

/* The replay rules given that are not the defaults, as options. */
static void rules_said(const struct cmp_replay_rules *o, char *buf,
		       size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	if (o->causal != SR_CAUSAL_KNOWN)
		say(buf, n, &k, "--causal %s", sr_causal_names[o->causal]);
	if (o->external != SR_EXTERNAL_ABSOLUTE)
		say(buf, n, &k, "--external %s",
		    sr_external_names[o->external]);
	if (o->cs_cost_ns % 1000)
		say(buf, n, &k, "--cs-cost %lldns", (long long)o->cs_cost_ns);
	else if (o->cs_cost_ns)
		say(buf, n, &k, "--cs-cost %lldus",
		    (long long)(o->cs_cost_ns / 1000));
	if (o->init_sleep_pct)
		say(buf, n, &k, "--warm %d", o->init_sleep_pct);
	if (o->calibrate)
		say(buf, n, &k, "--calibrate %s",
		    sr_calibrate_names[o->calibrate]);
	if (o->affinity)
		say(buf, n, &k, "--affinity %s", sr_affinity_names[o->affinity]);
	if (o->early)
		say(buf, n, &k, "--early-wake %s", sr_early_names[o->early]);
	if (o->group_sched)
		say(buf, n, &k, "--group-sched %s",
		    sr_group_mode_names[o->group_sched]);
}

void cmp_loaded_free(struct cmp_loaded *l)
{
	cmp_set_free(&l->set);
	cmp_source_close(&l->src);
	cmp_taskre_free(l->re);
	l->re = NULL;
}

int cmp_cmd_load(struct cmp_load_opts *o, size_t min_policies, size_t max_policies,
		struct cmp_loaded *l, struct sr_diag *d)
{
	struct cmp_source *src = &l->src;
	struct cmp_set *set = &l->set;
	struct cmp_taskre **re = &l->re;
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
			       "%s: expected at most %zu --policy, got %zu",
			       o->cmd, max_policies, o->npolicies);
	if (o->task && cmp_taskre_new(re, o->task, NULL, d))
		return d->code;
	if (!o->npolicies) {
		o->policies[0] = defaults[0];
		o->policies[1] = defaults[1];
		o->npolicies = 2;
	}
	if (o->npolicies < min_policies)
		return sr_fail(d, SR_EUSAGE,
			       "%s: expected two --policy or more (A, the "
			       "baseline, then B...), got %zu", o->cmd,
			       o->npolicies);
	if (o->tree && tree_re(&root, o->tree, d))
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
	so.only = o->only;
	so.only_tree = o->only_tree;
	so.cpus = o->cpus;
	so.jobs = o->jobs;
	so.rules = o->rules;
	so.title = o->title;
	so.tree = o->tree != NULL;
	so.procs = true;
	so.progress = o->progress;
	so.tune = &tune;
	so.labels = labels;
	so.sel = &o->sel;
	if (sr_sel_check(&o->sel, d)) {
		cmp_taskre_free(root);
		return d->code;
	}
	rc = cmp_source_open(src, &so, d);
	for (size_t i = 0; i < o->npolicies; i++)
		o->policies[i] = o->labels[i];
	if (rc == SR_OK)
		rc = cmp_set_of(set, src, d);
	if (rc == SR_OK) {
		rules_said(&o->rules, set->rules, sizeof(set->rules));
		memcpy(set->ctx_said, src->ctx_said, sizeof(set->ctx_said));
		set->procs = src->procs.n ? &src->procs : NULL;
		set->groups = &o->groups;
		set->left_known = src->left_known;
		set->left_tasks = src->left_tasks;
		set->left_cpu_ns = src->left_cpu_ns;
		set->total_cpu_ns = src->total_cpu_ns;
		set->loss = src->have_loss ? &src->loss : NULL;
		set->period_opts = o->periods;
		set->nperiod_opts = o->nperiods;
		set->sel = sr_sel_any(&o->sel) ? &o->sel : NULL;
		rc = cmp_set_load(set, d);
		/* in a window the first row is not the trace's start (a
		 * replay directory, never windowed, keeps t0: the same
		 * figures as the trace it came from) */
		if (src->have_start && sr_sel_windowed(&o->sel))
			set->origin = src->trace_start;
		if (src->have_start)
			set->trace_end = src->trace_end;
	}
	if (rc == SR_OK && sr_sel_has_pids(&o->sel))
		rc = pids_found(set, &o->sel, d);
	if (rc == SR_OK && root) {
		rc = cmp_tree_mark(set, &src->procs, o->trace, root,
				   &set->focus_tasks, d);
		set->focus_regex = tree_regex(o->tree);
	}
	if (rc == SR_OK && set->procs)
		rc = mark_cmd(set, o->tree, d);
	if (rc == SR_OK)
		rc = cmp_verdict_assign(set, d);
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
	s->origin = s->t0; /* cmp_cmd_load: the trace's start, if known */
	if (s->procs && (cmp_tree_parents(s, s->procs, d) ||
			 cmp_behave_descendants(s, d)))
		return d->code;
	if (cmp_behave_classify(s, d))
		return d->code;
	for (size_t r = 0; r < s->nruns; r++) {
		if (cmp_behave_spread(s, r, d) || cmp_behave_periodic(s, r, d))
			return d->code;
	}
	return SR_OK;
}
