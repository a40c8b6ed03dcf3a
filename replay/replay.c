/*
 * replay: the one-pass driver.  Reads the trace once and feeds the demand
 * extraction, a simulator per policy and `observed`; pauses every batch of
 * events to let the simulators advance; writes each policy's files and
 * keeps its per-task figures for the caller.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/outfile.h"
#include "lib/path.h"
#include "parse/read-warn.h"
#include "replay/replay.h"
#include "replay/summary.h"
#include "replay/tlfilter.h"
#include "replay/writers.h"

const char *const sr_replay_default_policies[] = {
	"stock", "o11int", SR_REPLAY_OBSERVED, NULL
};

struct prun {
	struct sr_replay_policy pub;
	struct sr_replay *r;
	struct sr_sim *sim;           /* or */
	struct sr_observed *obs;
	struct sr_outfile *tl, *lat;
	struct sr_latw *latw;
	FILE *tlf;
	struct sr_tlfilter *tlfil;    /* simulated runs' rows (tlfilter.h) */
	int err;
};

struct sr_replay {
	struct sr_replay_opts o;
	struct prun *p;
	size_t n;
	struct sr_reader *rd;
	const struct sr_tasks *tasks;
	struct sr_demand *dm;
	struct sr_replay_info info;
	struct sr_madedirs made;  /* removed again if the run fails */
};

static const struct sr_task *view_get(const void *ctx, sr_tid id)
{
	return sr_tasks_get(ctx, id);
}

static size_t view_count(const void *ctx)
{
	return sr_tasks_count(ctx);
}

/* ---- hooks ---------------------------------------------------------------- */

static int sim_row(void *ctx, const struct sr_tl_row *row)
{
	struct prun *p = ctx;

	if (p->tlfil)
		return sr_tlfilter_row(p->tlfil, row);
	return SR_OK;
}

static int sim_wait(void *ctx, uint32_t task, int64_t from, int64_t to,
		    enum sr_acct_cause cause)
{
	struct prun *p = ctx;

	if (!p->latw)
		return SR_OK;
	return sr_latw_add(p->latw, from, to, sr_sim_pid(p->sim, task),
			   sr_sim_comm(p->sim, task), cause);
}

static int obs_wait(void *ctx, uint32_t task, int64_t from, int64_t to,
		    enum sr_acct_cause cause)
{
	struct prun *p = ctx;
	struct sr_replay *r = p->r;
	const struct sr_task *t;

	if (!p->latw || !sr_demand_included(r->dm, task))
		return SR_OK;
	t = sr_tasks_get(r->tasks, task);
	return sr_latw_add(p->latw, from, to,
			   sr_demand_last_pid(r->dm, task) >= 0 ?
			   sr_demand_last_pid(r->dm, task) : t ? t->pid : -1,
			   sr_demand_last_comm(r->dm, task), cause);
}

static void resolved(void *ctx, uint32_t task, uint32_t block,
		     const struct sr_op *op)
{
	struct sr_replay *r = ctx;

	for (size_t i = 0; i < r->n; i++)
		if (r->p[i].sim)
			sr_sim_resolved(r->p[i].sim, task, block, op);
}

/* ---- the recorded schedule's timeline ------------------------------------- */

static uint32_t key_of(const struct sr_replay *r, sr_tid id)
{
	const struct sr_task *t = sr_tasks_get(r->tasks, id);

	if (!t || t->is_idle)
		return SR_TID_NONE;
	return t->thread != SR_TID_NONE ? t->thread : id;
}

static void obs_row(struct prun *p, int64_t ts, sr_tid id, const char *ev,
		    int prio)
{
	const struct sr_task *t = sr_tasks_get(p->r->tasks, id);
	struct sr_tl_row row;
	uint32_t k = key_of(p->r, id);

	if (!t || k == SR_TID_NONE || !sr_demand_included(p->r->dm, k))
		return;
	row = (struct sr_tl_row){ .t = ts, .task = k, .pid = t->pid,
				  .comm = t->comm, .event = ev,
				  .prio = prio };
	sr_timeline_row(p->tlf, &row);
}

/* Feed one event to observed, writing the timeline rows it implies. */
static int obs_event(struct prun *p, const struct sr_event *ev)
{
	struct sr_acct *a = sr_observed_acct(p->obs);
	bool wake = ev->kind == SR_EV_WAKING || ev->kind == SR_EV_WAKEUP ||
		    ev->kind == SR_EV_WAKEUP_NEW;
	uint32_t k = wake ? key_of(p->r, ev->task) : SR_TID_NONE;
	enum sr_acct_state before = k != SR_TID_NONE ? sr_acct_state(a, k)
						     : SR_ACCT_UNSEEN;
	const struct sr_task *t;
	int rc = sr_observed_event(p->obs, ev);

	if (rc || !p->tlf)
		return rc;
	if (wake && k != SR_TID_NONE &&
	    (before == SR_ACCT_UNSEEN || before == SR_ACCT_SLEEPING) &&
	    sr_acct_state(a, k) == SR_ACCT_RUNNABLE) {
		obs_row(p, ev->ts, ev->task, ev->kind == SR_EV_WAKEUP_NEW ?
			"fork" : "wake", ev->prio);
	} else if (ev->kind == SR_EV_SWITCH) {
		const char *what = "block";

		t = sr_tasks_get(p->r->tasks, ev->task);
		if (ev->prev_state == SR_STATE_RUNNING)
			what = "preempt";
		else if ((t && t->exited) || ev->prev_state == SR_STATE_DEAD ||
			 ev->prev_state == SR_STATE_ZOMBIE)
			what = "exit";
		obs_row(p, ev->ts, ev->task, what, ev->prio);
		obs_row(p, ev->ts, ev->other, "run", ev->other_prio);
	}
	return SR_OK;
}

/* ---- setup ---------------------------------------------------------------- */

static int open_outputs(struct sr_replay *r, struct prun *p,
			struct sr_diag *d)
{
	char *dir = sr_path_join(r->o.outdir, p->pub.name, NULL);
	int rc;

	if (!dir)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	if ((rc = sr_mkdirs_note(dir, &r->made, d)))
		goto out;
	if (!r->o.no_timeline) {
		if ((rc = sr_outfile_open_in(&p->tl, dir, "timeline.tsv", NULL,
					     d)))
			goto out;
		p->tlf = sr_outfile_fp(p->tl);
		sr_timeline_header(p->tlf);
		if (!p->pub.observed &&
		    (rc = sr_tlfilter_new(&p->tlfil, p->tlf, r->o.timeline, d)))
			goto out;
	}
	if (!r->o.no_latency)
		rc = sr_outfile_open_in(&p->lat, dir, "latency.tsv", NULL, d);
out:
	free(dir);
	return rc;
}

static int add_policies(struct sr_replay *r, struct sr_diag *d)
{
	const char *const *names = r->o.policies;
	size_t n = r->o.npolicies;
	int nsims = 0;

	if (!names || !n) {
		names = sr_replay_default_policies;
		for (n = 0; names[n]; n++)
			;
	}
	if (n > SR_REPLAY_MAX_POLICIES)
		return sr_fail(d, SR_EUSAGE, "at most %d policies in one "
			       "replay, got %zu", SR_REPLAY_MAX_POLICIES, n);
	r->p = calloc(n, sizeof(*r->p));
	if (!r->p)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct prun *p = &r->p[i];

		p->r = r;
		if (!strcmp(names[i], SR_REPLAY_OBSERVED)) {
			p->pub.name = SR_REPLAY_OBSERVED;
			p->pub.observed = true;
		} else {
			p->pub.policy = sm_policy_find(names[i]);
			if (!p->pub.policy)
				return sr_fail(d, SR_EUSAGE, "unknown policy "
					       "'%s' (`schedreplay policies` "
					       "lists them, or 'observed')",
					       names[i]);
			p->pub.name = p->pub.policy->name;
			nsims++;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(r->p[j].pub.name, p->pub.name))
				return sr_fail(d, SR_EUSAGE, "policy '%s' "
					       "given twice", names[i]);
		r->n = i + 1;
	}
	return nsims;
}

static int setup(struct sr_replay *r, struct sr_diag *d)
{
	struct sr_demand_opts dopts;
	struct sr_task_view view;
	struct sr_observed_opts oopts = { .compat = r->o.compat };
	int nsims, k = 0, rc;

	if (r->o.outdir && sr_outpath_check("output directory", r->o.outdir, d))
		return d->code;
	if (r->o.cpus == 0)
		r->o.cpus = 1;
	if (r->o.cpus != 1)
		return sr_fail(d, SR_EUSAGE, "--cpus %d: the replay simulates "
			       "one CPU for now (SMP replay comes later); "
			       "use --cpus 1", r->o.cpus);
	if (!r->o.batch)
		r->o.batch = SR_REPLAY_DEFAULT_BATCH;
	if ((nsims = add_policies(r, d)) < 0)
		return d->code;
	if ((rc = sr_reader_open(&r->rd, r->o.trace, &r->o.read, d)))
		return rc;
	r->tasks = sr_reader_tasks(r->rd);
	dopts = (struct sr_demand_opts){ .exclude = r->o.exclude,
					 .causal = r->o.causal,
					 .task_get = view_get,
					 .task_ctx = r->tasks,
					 .nconsumers = nsims };
	if ((rc = sr_demand_new(&r->dm, &dopts, d)))
		return rc;
	sr_demand_on_resolve(r->dm, resolved, r);
	view = (struct sr_task_view){ view_get, view_count, r->tasks };
	for (size_t i = 0; i < r->n; i++) {
		struct prun *p = &r->p[i];

		if (r->o.outdir && (rc = open_outputs(r, p, d)))
			return rc;
		if (p->pub.observed) {
			if ((rc = sr_observed_new(&p->obs, &oopts, &view, d)))
				return rc;
			sr_acct_on_wait(sr_observed_acct(p->obs), obs_wait, p);
			if (p->lat && (rc = sr_latw_new(&p->latw,
					sr_outfile_fp(p->lat),
					sr_observed_acct(p->obs), d)))
				return rc;
		} else {
			struct sr_sim_opts so = {
				.policy = p->pub.policy, .cpus = r->o.cpus,
				.external = r->o.external,
				.cs_cost_ns = r->o.cs_cost_ns,
				.init_sleep_pct = r->o.init_sleep_pct,
				.check = r->o.check,
			};
			struct sr_sim_hooks h = { .row = sim_row,
						  .wait = sim_wait, .ctx = p };

			if ((rc = sr_sim_new(&p->sim, &so, r->dm, k++, &h, d)))
				return rc;
			if (p->lat && (rc = sr_latw_new(&p->latw,
					sr_outfile_fp(p->lat),
					sr_sim_acct(p->sim), d)))
				return rc;
		}
	}
	return SR_OK;
}

/* ---- the pass ------------------------------------------------------------- */

static int step(struct sr_replay *r, struct sr_diag *d)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->p[i].sim && sr_sim_advance(r->p[i].sim, d))
			return d->code;
	return SR_OK;
}

static int pass(struct sr_replay *r, struct sr_diag *d)
{
	struct sr_event ev;
	uint64_t n = 0;
	int rc;

	while ((rc = sr_reader_next(r->rd, &ev, d)) == 1) {
		if (sr_demand_event(r->dm, &ev, d))
			return d->code;
		for (size_t i = 0; i < r->n; i++) {
			if (r->p[i].obs && (rc = obs_event(&r->p[i], &ev))) {
				const char *why = sr_acct_error(
					sr_observed_acct(r->p[i].obs));

				return sr_fail(d, rc, "%s:%llu: recorded "
					       "schedule: %s", r->o.trace,
					       (unsigned long long)ev.line,
					       why ? why : "out of memory");
			}
		}
		if (++n % r->o.batch == 0 && step(r, d))
			return d->code;
	}
	if (rc < 0)
		return d->code;
	return SR_OK;
}

static int cmp_rows_done(struct sr_replay *r, struct prun *p,
			 struct sr_task_metrics **ms, size_t n,
			 struct sr_diag *d)
{
	struct sr_sort by_pid = { 1, { SR_SORT_PID } };

	if (sr_rows_sort(ms, n, &by_pid, d))
		return d->code;
	p->pub.rows = calloc(n ? n : 1, sizeof(*p->pub.rows));
	if (!p->pub.rows)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct sr_replay_row *row = &p->pub.rows[i];
		uint32_t id = ms[i]->id;

		row->m = ms[i];
		if (p->sim) {
			const struct sr_sim_task *st = sr_sim_task(p->sim, id);

			row->x.expired = st ? (int64_t)st->expired : 0;
			row->x.late_wakeups = st ? (int64_t)st->late_wakeups
						 : 0;
			row->x.finish_ts = st ? st->finish_ts : p->pub.end;
			row->x.cpu_ns = st ? st->cpu_ns : 0;
		} else {
			const struct sr_dtask *dt = sr_demand_task(r->dm, id);
			const struct sr_task *t = sr_tasks_get(r->tasks, id);

			row->x.expired = -1;
			row->x.late_wakeups = -1;
			row->x.finish_ts = dt ? dt->finish_ts :
					   t ? t->last_ts : p->pub.end;
			row->x.cpu_ns = dt ? dt->cpu_ns : 0;
		}
	}
	p->pub.nrows = n;
	return SR_OK;
}

static int collect(struct sr_replay *r, struct prun *p, struct sr_diag *d)
{
	struct sr_task_metrics **ms = NULL;
	size_t n = 0;
	int rc;

	if (p->obs) {
		size_t k = 0;

		if ((rc = sr_observed_rows(p->obs, &ms, &n, d)))
			return rc;
		for (size_t i = 0; i < n; i++)
			if (sr_demand_included(r->dm, ms[i]->id))
				ms[k++] = ms[i];
		n = k;
	} else {
		struct sr_acct *a = sr_sim_acct(p->sim);
		size_t cap = sr_acct_ntasks(a);

		ms = malloc((cap ? cap : 1) * sizeof(*ms));
		if (!ms)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		for (size_t i = 0; i < cap; i++) {
			struct sr_task_metrics *m =
				sr_acct_metrics(a, (uint32_t)i);

			if (m && sr_sim_task(p->sim, (uint32_t)i))
				ms[n++] = m;
		}
	}
	rc = cmp_rows_done(r, p, ms, n, d);
	free(ms);
	return rc;
}

static int write_summary(struct sr_replay *r, struct prun *p,
			 struct sr_diag *d)
{
	char *dir = sr_path_join(r->o.outdir, p->pub.name, NULL);
	struct sr_outfile *o;
	FILE *f;
	int rc;

	if (!dir)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	rc = sr_outfile_open_in(&o, dir, "summary.tsv", NULL, d);
	free(dir);
	if (rc)
		return rc;
	f = sr_outfile_fp(o);
	sr_summary_header(f);
	for (size_t i = 0; i < p->pub.nrows; i++) {
		const struct sr_replay_row *row = &p->pub.rows[i];
		struct sr_summary_extra x = {
			.span_ns = p->pub.end - p->pub.start,
			.expired = row->x.expired,
			.late_wakeups = p->obs ? 0 : row->x.late_wakeups,
			.finish_ts = row->x.finish_ts, .has_finish = true,
		};

		sr_summary_row(f, row->m, &x);
	}
	return sr_outfile_commit(o, d);
}

static int finish(struct sr_replay *r, struct sr_diag *d)
{
	const struct sr_read_stats *st = sr_reader_stats(r->rd);
	int64_t t0 = st->events ? st->first_ts : 0;
	int64_t t1 = st->events ? st->last_ts : 0;
	int rc;

	r->info.format = sr_reader_format(r->rd);
	r->info.events = st->events;
	r->info.first_ts = t0;
	r->info.last_ts = t1;
	r->info.ncpus = st->ncpus;
	r->info.read = st;
	r->info.lost_tasks = -1;
	if ((rc = sr_demand_finish(r->dm, t1, d)) || (rc = step(r, d)))
		return rc;
	sr_demand_stats(r->dm, &r->info.demand);
	for (size_t i = 0; i < r->n; i++) {
		struct prun *p = &r->p[i];

		p->pub.start = t0;
		p->pub.end = t1;
		if (p->obs) {
			if ((rc = sr_observed_finish(p->obs, t1, d)))
				return rc;
			r->info.lost_tasks =
				(long)sr_observed_lost_tasks(p->obs);
		} else {
			if ((rc = sr_sim_finish(p->sim, d)))
				return rc;
			sr_sim_stats(p->sim, &p->pub.sim);
			if (p->pub.sim.end > p->pub.end)
				p->pub.end = p->pub.sim.end;
		}
		if ((rc = collect(r, p, d)))
			return rc;
		if (p->latw) {
			sr_latw_flush(p->latw);
			p->pub.latency_rows_held = sr_latw_peak(p->latw);
		}
		if (p->tlfil)
			sr_tlfilter_flush(p->tlfil);
		if (p->tl) {
			rc = sr_outfile_commit(p->tl, d);
			p->tl = NULL;
			p->tlf = NULL;
			if (rc)
				return rc;
		}
		if (p->lat) {
			rc = sr_outfile_commit(p->lat, d);
			p->lat = NULL;
			if (rc)
				return rc;
		}
		if (r->o.outdir && (rc = write_summary(r, p, d)))
			return rc;
	}
	return SR_OK;
}

int sr_replay_run(const struct sr_replay_opts *o, struct sr_replay **out,
		  struct sr_diag *d)
{
	struct sr_replay *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	r->o = *o;
	if ((rc = setup(r, d)) || (rc = pass(r, d)) || (rc = finish(r, d))) {
		struct sr_madedirs made = r->made;

		r->made = (struct sr_madedirs){ NULL, 0, 0 };
		sr_replay_free(r);      /* removes the temporaries first */
		sr_madedirs_undo(&made);
		return rc;
	}
	sr_madedirs_forget(&r->made);
	*out = r;
	return SR_OK;
}

size_t sr_replay_count(const struct sr_replay *r)
{
	return r->n;
}

const struct sr_replay_policy *sr_replay_get(const struct sr_replay *r,
					     size_t i)
{
	return i < r->n ? &r->p[i].pub : NULL;
}

const struct sr_replay_info *sr_replay_info(const struct sr_replay *r)
{
	return &r->info;
}

void sr_replay_warn(const struct sr_replay *r)
{
	if (r->info.read)
		sr_read_warn(sr_reader_path(r->rd), r->info.read,
			     r->info.lost_tasks);
}

void sr_replay_free(struct sr_replay *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		struct prun *p = &r->p[i];

		sr_outfile_abort(p->tl);
		sr_outfile_abort(p->lat);
		sr_tlfilter_free(p->tlfil);
		sr_latw_free(p->latw);
		sr_sim_free(p->sim);
		sr_observed_free(p->obs);
		free(p->pub.rows);
	}
	free(r->p);
	sr_madedirs_forget(&r->made);
	sr_demand_free(r->dm);
	if (r->rd)
		sr_reader_close(r->rd);
	free(r);
}
