/*
 * source: the results to compare, from a trace replayed in memory or from
 * a replay directory (see source.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/runset.h"
#include "compare/source.h"
#include "lib/path.h"
#include "lib/progress.h"
#include "replay/replay.h"

/* The last component of path, without trailing slashes (malloc'd). */
static char *base_name(const char *path)
{
	size_t n = strlen(path);
	const char *b;
	char *out;

	while (n > 1 && path[n - 1] == '/')
		n--;
	b = path + n;
	while (b > path && b[-1] != '/')
		b--;
	out = malloc((size_t)(path + n - b) + 1);
	if (out) {
		memcpy(out, b, (size_t)(path + n - b));
		out[path + n - b] = '\0';
	}
	return out;
}

/* ---- a trace, replayed in memory -------------------------------------------- */

/* The replay's policy i keeps its rows in res[i]; latency rows only if
 * compared (the reference's timeline is all the behaviour needs). */
struct sink {
	struct cmp_result *res[CMP_MAX_RUNS + 1];
	bool lat[CMP_MAX_RUNS + 1];
};

static int sink_tl(void *ctx, size_t i, const struct sr_tl_row *row)
{
	struct sink *k = ctx;

	return cmp_result_add_tl(k->res[i], row);
}

static int sink_lat(void *ctx, size_t i, const struct sr_lat_row *row)
{
	struct sink *k = ctx;

	return k->lat[i] ? cmp_result_add_lat(k->res[i], row) : SR_OK;
}

static int sink_wait(void *ctx, size_t i, const struct sr_wait_row *row)
{
	struct sink *k = ctx;

	return k->lat[i] ? cmp_result_add_wait(k->res[i], row) : SR_OK;
}

static int from_trace(struct cmp_source *src, const struct cmp_source_opts *o,
		      struct sr_diag *d)
{
	const char *names[CMP_MAX_RUNS + 1];
	struct sink k = { { 0 }, { 0 } };
	struct sr_replay_sink sink = { sink_tl, sink_lat, &k, sink_wait };
	struct sr_replay_opts ro = { 0 };
	struct sr_replay *r = NULL;
	struct sr_selection win;
	size_t n = 0;
	int rc = SR_OK;

	for (size_t i = 0; i < o->npolicies; i++) {
		names[n] = o->policies[i];
		k.res[n] = &src->run[i];
		k.lat[n++] = true;
		if (!strcmp(o->policies[i], SR_REPLAY_OBSERVED))
			src->ref = &src->run[i];
	}
	if (!src->ref) {
		/* the recorded schedule: the reference for behaviour */
		src->ref = &src->ref_own;
		cmp_result_init(src->ref, SR_REPLAY_OBSERVED);
		names[n] = SR_REPLAY_OBSERVED;
		k.res[n++] = src->ref;
	}
	ro.trace = o->trace;
	ro.policies = names;
	ro.npolicies = n;
	ro.exclude = o->exclude;
	ro.only = o->only;
	ro.tree = o->only_tree;
	ro.cpus = o->cpus;
	ro.jobs = o->jobs;
	ro.causal = o->rules.causal;
	ro.external = o->rules.external;
	ro.cs_cost_ns = o->rules.cs_cost_ns;
	ro.init_sleep_pct = o->rules.init_sleep_pct;
	ro.calibrate = o->rules.calibrate;
	ro.affinity = o->rules.affinity;
	ro.early = o->rules.early;
	ro.group_sched = o->rules.group_sched;
	ro.sink = &sink;
	ro.read.progress = o->progress;
	if (sr_sel_windowed(o->sel)) {
		/* the window only: --pid chooses what the run set shows */
		win = *o->sel;
		win.npids = 0;
		ro.sel = &win;
	}
	if (o->tune)
		ro.tune = *o->tune;
	rc = sr_replay_run(&ro, &r, d);
	sr_progress_end(o->progress);
	if (rc)
		return rc;
	sr_replay_warn(r);
	src->have_start = true;
	src->trace_start = sr_replay_info(r)->first_ts;
	src->trace_end = sr_replay_info(r)->last_ts;
	for (size_t i = 0; i < n && rc == SR_OK; i++) {
		const struct sr_replay_policy *p = sr_replay_get(r, i);

		/* runs are named as the replay names them (an alias given
		 * names its policy) */
		snprintf(k.res[i]->policy, sizeof(k.res[i]->policy), "%s",
			 p->name);
		k.res[i]->cpus = (int)p->ncpu;
		/* the reference's too: its lost marks (runset.c) */
		if (cmp_result_add_sums(k.res[i], p))
			rc = sr_oom(d);
		else if (k.lat[i])
			rc = cmp_result_link(k.res[i], d);
	}
	if (rc == SR_OK && (o->tree || o->procs))
		rc = cmp_procs_from_replay(&src->procs, r, d);
	src->left_known = sr_replay_info(r)->left_known;
	src->left_tasks = sr_replay_info(r)->left_tasks;
	src->left_cpu_ns = sr_replay_info(r)->left_cpu_ns;
	src->total_cpu_ns = sr_replay_info(r)->total_cpu_ns;
	snprintf(src->ctx_said, sizeof(src->ctx_said), "%s",
		 sr_replay_info(r)->ctx_said);
	src->loss = sr_replay_info(r)->loss;
	src->have_loss = true;
	sr_replay_free(r);
	return rc;
}

/* ---- a replay directory ---------------------------------------------------- */

static int from_dir(struct cmp_source *src, const struct cmp_source_opts *o,
		    struct sr_diag *d)
{
	const struct cmp_replay_rules *u = &o->rules;
	char *dir;
	struct stat st;
	int rc = SR_OK;

	if (o->cpus || u->causal != SR_CAUSAL_KNOWN ||
	    u->external != SR_EXTERNAL_ABSOLUTE || u->cs_cost_ns ||
	    u->init_sleep_pct || u->calibrate || u->affinity || u->early ||
	    u->group_sched)
		return sr_fail(d, SR_EUSAGE, "--%s needs the trace file, not "
			       "the replay directory %s (replayed already)",
			       o->cpus ? "cpus" :
			       u->causal != SR_CAUSAL_KNOWN ? "causal" :
			       u->external != SR_EXTERNAL_ABSOLUTE ? "external" :
			       u->cs_cost_ns ? "cs-cost" :
			       u->init_sleep_pct ? "warm" :
			       u->calibrate ? "calibrate" :
			       u->affinity ? "affinity" :
			       u->early ? "early-wake" : "group-sched", o->trace);
	if (o->only || o->only_tree)
		return sr_fail(d, SR_EUSAGE, "--%s needs the trace file, not "
			       "the replay directory %s (replayed already: give "
			       "it to schedreplay replay)",
			       o->only ? "only" : "only-tree", o->trace);
	if (sr_sel_windowed(o->sel))
		return sr_fail(d, SR_EUSAGE, "--start and --end need the trace "
			       "file, not the replay directory %s (its figures "
			       "cover what it was replayed with: give them to "
			       "schedreplay replay)", o->trace);
	const char *const *name = o->labels ? o->labels : o->policies;

	for (size_t i = 0; i < o->npolicies; i++) {
		const char *p = name[i];

		if (strlen(p) >= CMP_POLICY_MAX || strchr(p, '/'))
			return sr_fail(d, SR_EUSAGE, "expected a policy name, "
				       "got '%s'", p);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(name[j], p))
				return sr_fail(d, SR_EUSAGE, "policy '%s' "
					       "given twice", p);
		if (!strcmp(p, SR_REPLAY_OBSERVED))
			src->ref = &src->run[i];
	}
	for (size_t i = 0; i < o->npolicies && rc == SR_OK; i++) {
		if (!(dir = sr_path_join(o->trace, name[i], NULL)))
			return sr_oom(d);
		rc = cmp_result_check(dir, name[i], d);
		free(dir);
	}
	for (size_t i = 0; i < o->npolicies && rc == SR_OK; i++) {
		if (!(dir = sr_path_join(o->trace, name[i], NULL)))
			return sr_oom(d);
		rc = cmp_result_read(&src->run[i], dir, CMP_READ_ALL, d);
		free(dir);
	}
	if (rc)
		return rc;
	/* the recorded schedule is the reference when the replay wrote it */
	if (!src->ref) {
		if (!(dir = sr_path_join(o->trace, SR_REPLAY_OBSERVED, NULL)))
			return sr_oom(d);
		/* there, it must be whole (a replay writes it whole) */
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
		    (rc = cmp_result_check(dir, SR_REPLAY_OBSERVED, d)) ==
		    SR_OK) {
			src->ref = &src->ref_own;
			cmp_result_init(src->ref, SR_REPLAY_OBSERVED);
			rc = cmp_result_read(src->ref, dir, CMP_READ_TL |
					     CMP_READ_SUM, d);
		}
		free(dir);
	}
	if (rc == SR_OK) {
		/* the recording's loss: a directory of before lost.tsv has
		   none, and says nothing of it */
		if (!(dir = sr_path_join(o->trace, "lost.tsv", NULL)))
			return sr_oom(d);
		if (stat(dir, &st) == 0) {
			rc = sr_loss_read(dir, &src->loss, d);
			src->have_loss = rc == SR_OK;
		}
		free(dir);
	}
	if (rc == SR_OK && o->procs && !o->tree) {
		/* wanted, not needed: a directory of before tasks.tsv has none */
		if (!(dir = sr_path_join(o->trace, "tasks.tsv", NULL)))
			return sr_oom(d);
		if (stat(dir, &st) == 0)
			rc = cmp_procs_read(&src->procs, o->trace, d);
		free(dir);
	} else if (rc == SR_OK && o->tree) {
		rc = cmp_procs_read(&src->procs, o->trace, d);
	}
	return rc;
}

int cmp_source_open(struct cmp_source *src, const struct cmp_source_opts *o,
		    struct sr_diag *d)
{
	struct stat st;

	memset(src, 0, sizeof(*src));
	if (o->npolicies == 0 || o->npolicies > CMP_MAX_RUNS)
		return sr_fail(d, SR_EUSAGE, "expected 1 to %d policies, got %zu",
			       CMP_MAX_RUNS, o->npolicies);
	if (stat(o->trace, &st) != 0)
		return sr_fail(d, SR_ENOINPUT, "%s: cannot open: %s", o->trace,
			       strerror(errno));
	src->title = o->title ? strdup(o->title) : base_name(o->trace);
	src->run = calloc(o->npolicies, sizeof(*src->run));
	if (!src->title || !src->run)
		return sr_oom(d);
	src->nrun = o->npolicies;
	for (size_t i = 0; i < o->npolicies; i++)
		cmp_result_init(&src->run[i], o->policies[i]);
	return S_ISDIR(st.st_mode) ? from_dir(src, o, d) : from_trace(src, o, d);
}

void cmp_source_close(struct cmp_source *src)
{
	for (size_t i = 0; i < src->nrun; i++)
		cmp_result_free(&src->run[i]);
	free(src->run);
	cmp_result_free(&src->ref_own);
	cmp_procs_free(&src->procs);
	free(src->title);
	memset(src, 0, sizeof(*src));
}
