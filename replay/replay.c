/*
 * replay: the one-pass driver.  Reads the trace once and feeds the demand
 * extraction, a simulator per policy and `observed`; pauses every batch of
 * events to let the simulators advance; writes each policy's files and
 * keeps its per-task figures for the caller.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lib/grow.h"
#include "lib/outfile.h"
#include "lib/path.h"
#include "lib/pool.h"
#include "lib/progress.h"
#include "lib/strpool.h"
#include "parse/read-warn.h"
#include "replay/replay.h"
#include "replay/sortbuf.h"
#include "replay/summary.h"
#include "replay/tlfilter.h"
#include "replay/writers.h"

const char *const sr_calibrate_names[] = { "auto", "none", NULL };
const char *const sr_affinity_names[] = { "auto", "infer", "none", NULL };

const char *const sr_replay_default_policies[] = {
	"stock", "o11int", SR_REPLAY_OBSERVED, NULL
};

struct prun {
	struct sr_replay_policy pub;
	size_t idx;                   /* in the replay's order */
	char label[SM_LABEL_MAX];
	struct sm_sched *sched;       /* the tuned policy (simulated runs) */
	struct sr_replay *r;
	struct sr_sim *sim;           /* or */
	struct sr_observed *obs;
	struct sr_outfile *tl, *lat, *waits;
	FILE *tlf, *latf, *waitsf;    /* the files, when written */
	bool want_tl, want_lat;       /* a file or the sink takes the rows */
	bool want_waits;
	struct sr_latw *latw;         /* latency rows in wake order */
	struct sr_tlfilter *tlfil;    /* simulated runs' rows (tlfilter.h) */
	/* on a thread of the pool (r->pool): its own --rt rules (a regex
	   matches through its own scratch), what its last step met and cost */
	struct sr_rtrules *rt;
	struct sr_diag d;
	int64_t cost;                 /* thread CPU ns of its last step */
};

/* A record's names as events show them (--tree): the last one noted. */
struct seen_mark {
	uint32_t gen;                 /* its attr_gen then */
	uint32_t comm;                /* pool offset + 1, 0: never seen */
};

struct sr_replay {
	struct sr_replay_opts o;
	struct sr_rtrules *rt;
	bool rt_unused[SR_REPLAY_MAX_TUNE]; /* --rt: first for no name */
	bool rt_matched[SR_REPLAY_MAX_TUNE]; /* ... but matched one */
	struct prun *p;
	size_t n;
	struct sr_reader *rd;
	const struct sr_tasks *tasks;
	struct sr_demand *dm;
	struct sr_pool *pool;         /* the simulators' threads (-j) */
	size_t *order;                /* the simulated runs, costliest first */
	size_t norder;
	struct sr_replay_info info;
	struct sr_madedirs made;  /* removed again if the run fails */
	/* each record's names, in the order events first showed them */
	struct seen_mark *mark;
	size_t nmark;
	struct sr_replay_seen *seen;
	size_t nseen, capseen;
	struct sr_strpool names;
	bool held;                    /* simulators wait for the cpu count
					 and the calibration (a pipe) */
	int32_t ctx_ncpus;            /* the recording machine's cpus (its
					 context), 0 unknown */
	struct sr_calib_builder *cb;  /* while the calibration is read */
	struct sr_calib calib;        /* replay/calib.h */
	bool calibrated;
	struct sr_taskgroups *groups; /* each task's group (taskgroups.h) */
	int32_t ran;                  /* highest cpu that ran a task + 1 */
	bool win_known;               /* the window is on the trace's clock */
	int64_t lo, hi;               /* the window (--start, --end) */
};

static const struct sr_task *view_get(const void *ctx, sr_tid id)
{
	return sr_tasks_get(ctx, id);
}

static size_t view_count(const void *ctx)
{
	return sr_tasks_count(ctx);
}

/* ---- the selection (--pid, --start, --end) --------------------------------- */

/* A row at t of pid is reported. */
static bool keep(const struct sr_replay *r, int64_t t, int32_t pid)
{
	return sr_sel_in(r->lo, r->hi, t) && sr_sel_pid(r->o.sel, pid);
}

/* The accounting of p counts the window only. */
static void window_to(const struct sr_replay *r, struct prun *p)
{
	if (!r->win_known || !sr_sel_windowed(r->o.sel))
		return;
	if (p->obs)
		sr_acct_window(sr_observed_acct(p->obs), r->lo, r->hi);
	if (p->sim)
		sr_acct_window(sr_sim_acct(p->sim), r->lo, r->hi);
}

/* The first event says where the trace starts: the window on its clock. */
static void window_set(struct sr_replay *r, int64_t first_ts)
{
	sr_sel_window(r->o.sel, first_ts, &r->lo, &r->hi);
	r->win_known = true;
	for (size_t i = 0; i < r->n; i++)
		window_to(r, &r->p[i]);
}

/* ---- rows: to the files and to the caller's sink, as they come ------------ */

static int emit_tl(void *ctx, const struct sr_tl_row *row)
{
	struct prun *p = ctx;
	const struct sr_replay_sink *k = p->r->o.sink;

	if (!keep(p->r, row->t, row->pid))
		return SR_OK;
	if (p->tlf)
		sr_timeline_row(p->tlf, row);
	if (k && k->timeline)
		return k->timeline(k->ctx, p->idx, row);
	return SR_OK;
}

static int emit_lat(void *ctx, const struct sr_lat_row *row)
{
	struct prun *p = ctx;
	const struct sr_replay_sink *k = p->r->o.sink;

	if (!keep(p->r, row->wake, row->pid))
		return SR_OK;
	if (p->latf)
		sr_latency_row(p->latf, row);
	if (k && k->latency)
		return k->latency(k->ctx, p->idx, row);
	return SR_OK;
}

static int emit_wait(void *ctx, const struct sr_wait_row *row)
{
	struct prun *p = ctx;
	const struct sr_replay_sink *k = p->r->o.sink;

	/* a segment goes where its wait's latency row goes */
	if (!keep(p->r, row->wake, row->pid))
		return SR_OK;
	if (p->waitsf)
		sr_waits_row(p->waitsf, row);
	if (k && k->waits)
		return k->waits(k->ctx, p->idx, row);
	return SR_OK;
}

/* ---- hooks ---------------------------------------------------------------- */

/* The caller's hooks (sr_replay_opts.hooks) told of a row or a wait. */
static int hook_row(struct prun *p, const struct sr_tl_row *row)
{
	const struct sr_replay_hooks *h = p->r->o.hooks;

	if (!h || !h->row)
		return SR_OK;
	return h->row(h->ctx, (size_t)(p - p->r->p), row);
}

static int hook_wait(struct prun *p, uint32_t task, int32_t pid,
		     const char *comm, int64_t from, int64_t to,
		     enum sr_acct_cause cause)
{
	const struct sr_replay_hooks *h = p->r->o.hooks;
	struct sr_replay_wait w = { task, pid, comm, from, to, cause };

	if (!h || !h->wait)
		return SR_OK;
	return h->wait(h->ctx, (size_t)(p - p->r->p), &w);
}

static int sim_row(void *ctx, const struct sr_tl_row *row)
{
	struct prun *p = ctx;
	int rc = hook_row(p, row);

	if (rc == SR_OK && p->tlfil)
		return sr_tlfilter_row(p->tlfil, row);
	return rc;
}

static const char *sim_name(const void *ctx, uint32_t comm)
{
	return sr_sim_name(ctx, comm);
}

static int sim_wait(void *ctx, uint32_t task, int64_t from, int64_t to,
		    enum sr_acct_cause cause)
{
	struct prun *p = ctx;
	int32_t pid = sr_sim_pid(p->sim, task);
	const char *comm = sr_sim_comm(p->sim, task);
	int rc = hook_wait(p, task, pid, comm, from, to, cause);
	struct sr_lat_why why = { .name = sim_name, .name_ctx = p->sim };

	if (rc || !p->latw)
		return rc;
	if (p->r->o.no_why)
		return sr_latw_add(p->latw, from, to, pid, comm, cause, NULL);
	why.segs = sr_sim_wait_segs(p->sim, task, &why.nsegs);
	return sr_latw_add(p->latw, from, to, pid, comm, cause, &why);
}

static int obs_wait(void *ctx, uint32_t task, int64_t from, int64_t to,
		    enum sr_acct_cause cause)
{
	struct prun *p = ctx;
	struct sr_replay *r = p->r;
	const struct sr_task *t;
	int32_t pid;
	const char *comm;
	int rc;

	if ((!p->latw && !r->o.hooks) || !sr_demand_included(r->dm, task))
		return SR_OK;
	t = sr_tasks_get(r->tasks, task);
	pid = sr_demand_last_pid(r->dm, task) >= 0 ?
	      sr_demand_last_pid(r->dm, task) : t ? t->pid : -1;
	comm = sr_demand_last_comm(r->dm, task);
	if ((rc = hook_wait(p, task, pid, comm, from, to, cause)) || !p->latw)
		return rc;
	return sr_latw_add(p->latw, from, to, pid, comm, cause, NULL);
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

static int obs_row(struct prun *p, int64_t ts, sr_tid id, const char *ev,
		   int prio, int cpu, int from)
{
	const struct sr_task *t = sr_tasks_get(p->r->tasks, id);
	struct sr_tl_row row;
	uint32_t k = key_of(p->r, id);

	if (!t || k == SR_TID_NONE || !sr_demand_included(p->r->dm, k))
		return SR_OK;
	row = (struct sr_tl_row){ .t = ts, .task = k, .pid = t->pid,
				  .comm = t->comm, .event = ev,
				  .prio = prio, .cpu = cpu, .from_cpu = from };
	int rc = emit_tl(p, &row);

	return rc ? rc : hook_row(p, &row);
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
	uint32_t nk = ev->kind == SR_EV_SWITCH ? key_of(p->r, ev->other)
					       : SR_TID_NONE;
	int32_t from = nk != SR_TID_NONE ? sr_observed_task_cpu(p->obs, nk)
					 : -1;
	int rc = sr_observed_event(p->obs, ev);

	if (rc || (!p->want_tl && !p->r->o.hooks))
		return rc;
	if (wake && k != SR_TID_NONE &&
	    (before == SR_ACCT_UNSEEN || before == SR_ACCT_SLEEPING) &&
	    sr_acct_state(a, k) == SR_ACCT_RUNNABLE) {
		return obs_row(p, ev->ts, ev->task, ev->kind ==
			       SR_EV_WAKEUP_NEW ? "fork" : "wake", ev->prio,
			       ev->target_cpu >= 0 ? ev->target_cpu : ev->cpu,
			       -1);
	} else if (ev->kind == SR_EV_SWITCH) {
		const char *what = "block";

		t = sr_tasks_get(p->r->tasks, ev->task);
		if (ev->prev_state == SR_STATE_RUNNING)
			what = "preempt";
		else if ((t && t->exited) || ev->prev_state == SR_STATE_DEAD ||
			 ev->prev_state == SR_STATE_ZOMBIE)
			what = "exit";
		if ((rc = obs_row(p, ev->ts, ev->task, what, ev->prio,
				  ev->cpu, -1)))
			return rc;
		if (from >= 0 && from != ev->cpu &&
		    (rc = obs_row(p, ev->ts, ev->other, "migrate",
				  ev->other_prio, ev->cpu, from)))
			return rc;
		return obs_row(p, ev->ts, ev->other, "run", ev->other_prio,
			       ev->cpu, -1);
	}
	return SR_OK;
}

/* ---- the names events show each record under (for --tree) ------------------ */

static int note_seen(struct sr_replay *r, sr_tid id)
{
	const struct sr_task *t = id == SR_TID_NONE ? NULL
						    : sr_tasks_get(r->tasks, id);
	struct seen_mark *m;
	uint32_t off;

	if (!t || t->is_idle)
		return SR_OK;
	if (id >= r->nmark) {
		m = sr_grow(r->mark, &r->nmark, id, sizeof(*m), 256, 0);
		if (!m)
			return SR_ENOMEM;
		r->mark = m;
	}
	m = &r->mark[id];
	if (m->comm && m->gen == t->attr_gen)
		return SR_OK;
	m->gen = t->attr_gen;
	if (sr_strpool_add(&r->names, t->comm, &off))
		return SR_ENOMEM;
	if (m->comm == off + 1)
		return SR_OK; /* renamed back and forth, or tgid changed */
	m->comm = off + 1;
	if (r->nseen == r->capseen) {
		struct sr_replay_seen *v = sr_grow(r->seen, &r->capseen,
						   r->nseen, sizeof(*v), 256, 0);

		if (!v)
			return SR_ENOMEM;
		r->seen = v;
	}
	r->seen[r->nseen].id = id;
	r->seen[r->nseen].comm = off;
	r->nseen++;
	return SR_OK;
}

static int event_seen(struct sr_replay *r, const struct sr_event *ev)
{
	if (note_seen(r, ev->task) || note_seen(r, ev->other) ||
	    note_seen(r, ev->waker))
		return SR_ENOMEM;
	return SR_OK;
}

/* ---- the recording's cpu count ------------------------------------------- */

static bool idle_id(const struct sr_tasks *tasks, sr_tid id)
{
	const struct sr_task *t = id == SR_TID_NONE ? NULL
						    : sr_tasks_get(tasks, id);

	return !t || t->is_idle;
}

/* A cpu that ran a task: a switch from or to one, or a charge to one. */
static void note_ran(int32_t *ran, const struct sr_tasks *tasks,
		     const struct sr_event *ev)
{
	if (ev->cpu < 0 || ev->cpu + 1 <= *ran)
		return;
	if ((ev->kind == SR_EV_SWITCH &&
	     (!idle_id(tasks, ev->task) || !idle_id(tasks, ev->other))) ||
	    (ev->kind == SR_EV_RUNTIME && !idle_id(tasks, ev->task)))
		*ran = ev->cpu + 1;
}

static int calib_done(struct sr_replay *r, struct sr_diag *d);

/* A first pass over a file: its highest cpu that ran a task, + 1, and
 * the calibration when it is wanted (r->cb). */
static int prescan(struct sr_replay *r, int32_t *ran, struct sr_diag *d)
{
	struct sr_reader *rd;
	struct sr_event ev;
	int rc;

	*ran = 0;
	if (sr_reader_open(&rd, r->o.trace, &r->o.read, d))
		return d->code;
	if (sr_reader_context(rd))
		r->ctx_ncpus = sr_reader_context(rd)->ncpus;
	while ((rc = sr_reader_next(rd, &ev, d)) == 1) {
		note_ran(ran, sr_reader_tasks(rd), &ev);
		struct sr_calib_tasks ct = { view_get, sr_reader_tasks(rd) };

		if (r->cb && sr_calib_event(r->cb, &ev, &ct, d)) {
			rc = -1;
			break;
		}
	}
	sr_reader_close(rd);
	if (rc < 0)
		return d->code;
	return r->cb ? calib_done(r, d) : SR_OK;
}

/* The calibration read: the simulators take it. */
static int calib_done(struct sr_replay *r, struct sr_diag *d)
{
	struct sr_calib_builder *b = r->cb;

	r->cb = NULL;
	if (sr_calib_finish(b, &r->calib, d))
		return d->code;
	r->calibrated = true;
	return SR_OK;
}

/* The cpus to replay on, not given: the recording machine's (its
 * context's), else as many as the recording ran tasks on. */
static int default_cpus(struct sr_replay *r)
{
	if (r->ctx_ncpus > 0 && r->ctx_ncpus <= SR_SIM_MAX_CPUS)
		return r->ctx_ncpus;
	return r->ran > 0 ? r->ran : 1;
}

static int check_cpus(int cpus, struct sr_diag *d)
{
	if (cpus > SR_SIM_MAX_CPUS)
		return sr_fail(d, SR_EUSAGE, "the recording used %d cpus; at "
			       "most %d can be replayed: give --cpus N", cpus,
			       SR_SIM_MAX_CPUS);
	return SR_OK;
}

/* The progress line says what is replayed: every policy while the input
 * is read, then the one whose simulator runs to the end. */
static void say_policies(struct sr_replay *r, const struct prun *only)
{
	char what[SR_PROGRESS_WHAT_MAX];
	size_t n = 0;

	if (!r->o.read.progress)
		return;
	what[0] = '\0';
	for (size_t i = 0; i < r->n && n < sizeof(what); i++)
		if (!only || only == &r->p[i])
			n += (size_t)snprintf(what + n, sizeof(what) - n,
					      "%s%s", n ? ", " : "",
					      r->p[i].pub.name);
	sr_progress_what(r->o.read.progress, what);
}

/* ---- setup ---------------------------------------------------------------- */

static int open_outputs(struct sr_replay *r, struct prun *p,
			struct sr_diag *d)
{
	char *dir = sr_path_join(r->o.outdir, p->pub.name, NULL);
	int rc;

	if (!dir)
		return sr_oom(d);
	if ((rc = sr_mkdirs_note(dir, &r->made, d)))
		goto out;
	if (!r->o.no_timeline) {
		if ((rc = sr_outfile_open_in(&p->tl, dir, "timeline.tsv", NULL,
					     d)))
			goto out;
		p->tlf = sr_outfile_fp(p->tl);
		sr_timeline_header(p->tlf);
	}
	if (!r->o.no_latency) {
		if ((rc = sr_outfile_open_in(&p->lat, dir, "latency.tsv", NULL,
					     d)))
			goto out;
		p->latf = sr_outfile_fp(p->lat);
		sr_latency_header(p->latf);
		if (!p->pub.observed && !r->o.no_why) {
			if ((rc = sr_outfile_open_in(&p->waits, dir,
						     "waits.tsv", NULL, d)))
				goto out;
			p->waitsf = sr_outfile_fp(p->waits);
			sr_waits_header(p->waitsf);
		}
	}
out:
	free(dir);
	return rc;
}

/* The rows of p go to its files, the caller's sink, or nowhere. */
static int open_rows(struct sr_replay *r, struct prun *p, struct sr_diag *d)
{
	const struct sr_replay_sink *k = r->o.sink;

	p->want_tl = p->tlf || (k && k->timeline);
	p->want_waits = !p->pub.observed && !r->o.no_why &&
			(p->waitsf || (k && k->waits));
	p->want_lat = p->latf || (k && k->latency) || p->want_waits;
	if (p->want_tl && !p->pub.observed &&
	    sr_tlfilter_new(&p->tlfil, r->o.timeline, emit_tl, p, d))
		return d->code;
	return SR_OK;
}

/* A policy spec tuned by the run's --set: its tuning, finished. */
static int tune_spec(const char *spec, const struct sr_replay_tuning *tune,
		     struct sm_tuning *t, struct sr_diag *d)
{
	if (sm_tuning_parse(t, spec, d) ||
	    sm_tuning_apply_sets(t, tune->sets, tune->nsets, false, d) ||
	    sm_tuning_finish(t, d))
		return d->code;
	return SR_OK;
}

int sr_replay_label(const char *spec, const struct sr_replay_tuning *tune,
		    char *buf, size_t len, struct sr_diag *d)
{
	static const struct sr_replay_tuning none;
	struct sm_tuning t;

	if (!strcmp(spec, SR_REPLAY_OBSERVED)) {
		snprintf(buf, len, "%s", spec);
		return SR_OK;
	}
	if (tune_spec(spec, tune ? tune : &none, &t, d))
		return d->code;
	if (strlen(t.label) >= len)
		return sr_fail(d, SR_EUSAGE, "%s: label too long", spec);
	snprintf(buf, len, "%s", t.label);
	return SR_OK;
}

/* The runs asked for; *nsims: how many are simulated. */
static int add_policies(struct sr_replay *r, int *nsims, struct sr_diag *d)
{
	const char *const *names = r->o.policies;
	const struct sm_policy *pols[SR_REPLAY_MAX_POLICIES];
	size_t n = r->o.npolicies, npols = 0;

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
		return sr_oom(d);
	for (size_t i = 0; i < n; i++) {
		struct prun *p = &r->p[i];
		struct sm_tuning t;

		p->r = r;
		p->idx = i;
		r->n = i + 1;
		if (!strcmp(names[i], SR_REPLAY_OBSERVED)) {
			p->pub.name = SR_REPLAY_OBSERVED;
			p->pub.observed = true;
		} else {
			if (tune_spec(names[i], &r->o.tune, &t, d))
				return d->code;
			p->pub.policy = t.policy;
			pols[npols++] = t.policy;
			snprintf(p->label, sizeof(p->label), "%s", t.label);
			p->pub.name = p->label;
			p->sched = sm_sched_new(t.policy, &t);
			if (!p->sched)
				return sr_oom(d);
			(*nsims)++;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(r->p[j].pub.name, p->pub.name))
				return sr_fail(d, SR_EUSAGE, "policy '%s' "
					       "given twice", p->pub.name);
	}
	if (sm_sets_check(r->o.tune.sets, r->o.tune.nsets, pols, npols, d))
		return d->code;
	return SR_OK;
}

/* One simulator per policy, once the cpu count is known. */
static int start_sims(struct sr_replay *r, struct sr_diag *d)
{
	const struct sr_context *ctx = sr_reader_context(r->rd);
	int k = 0, rc;

	r->info.cpus = r->o.cpus;
	for (size_t i = 0; i < r->n; i++) {
		struct prun *p = &r->p[i];

		if (!p->pub.observed && r->o.tune.nrt &&
		    sr_pool_threads(r->pool) > 1 &&
		    (rc = sr_rtrules_new(&p->rt, r->o.tune.rt, r->o.tune.nrt,
					 d)))
			return rc;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct prun *p = &r->p[i];
		struct sr_sim_opts so = {
			.policy = p->pub.policy, .sched = p->sched,
			.cpus = r->o.cpus,
			.has_cache_decay = r->o.has_cache_decay,
			.cache_decay_ticks = r->o.cache_decay_ticks,
			.external = r->o.external,
			.cs_cost_ns = r->o.cs_cost_ns,
			.init_sleep_pct = r->o.init_sleep_pct,
			.check = r->o.check,
			.rt = !r->o.tune.nrt ? NULL : p->rt ? p->rt : r->rt,
			.no_why = r->o.no_why,
			.calib = r->calibrated ? &r->calib : NULL,
			.infer_affinity = r->o.affinity != SR_AFFINITY_NONE,
			.infer_busy = r->o.affinity == SR_AFFINITY_INFER,
			.ctx_affinity = r->o.affinity == SR_AFFINITY_AUTO &&
					ctx != NULL,
			.ctx_hz = ctx ? ctx->hz : 0,
			.early = r->o.early,
		};
		struct sr_sim_hooks h = { .row = sim_row, .wait = sim_wait,
					  .ctx = p };

		if (p->pub.observed)
			continue;
		if ((rc = sr_sim_new(&p->sim, &so, r->dm, k++, &h, d)))
			return rc;
		r->order[r->norder++] = i;
		window_to(r, p);
		if (p->want_lat && (rc = sr_latw_new(&p->latw,
				sr_sim_acct(p->sim), emit_lat,
				p->want_waits ? emit_wait : NULL, p, d)))
			return rc;
	}
	return SR_OK;
}

/* The simulators' threads: -j (0: every CPU), at most one per simulator. */
static int start_pool(struct sr_replay *r, int nsims, struct sr_diag *d)
{
	int n = r->o.jobs > 0 ? r->o.jobs : sr_pool_cpus();

	if (n > nsims)
		n = nsims;
	r->order = calloc((size_t)(nsims > 0 ? nsims : 1), sizeof(*r->order));
	if (!r->order)
		return sr_oom(d);
	return n > 1 ? sr_pool_new(&r->pool, n, d) : SR_OK;
}

static int setup(struct sr_replay *r, struct sr_diag *d)
{
	struct sr_demand_opts dopts;
	struct sr_task_view view;
	struct sr_observed_opts oopts = { .compat = r->o.compat };
	struct stat st;
	int nsims = 0, rc;

	if (r->o.outdir && sr_outpath_check("output directory", r->o.outdir, d))
		return d->code;
	if (r->o.cpus < 0 || r->o.cpus > SR_SIM_MAX_CPUS)
		return sr_fail(d, SR_EUSAGE, "--cpus %d: expected 1 to %d",
			       r->o.cpus, SR_SIM_MAX_CPUS);
	if (!r->o.batch)
		r->o.batch = SR_REPLAY_DEFAULT_BATCH;
	r->lo = INT64_MIN;
	r->hi = INT64_MAX;
	if (sr_sel_check(r->o.sel, d))
		return d->code;
	if (add_policies(r, &nsims, d))
		return d->code;
	if ((rc = start_pool(r, nsims, d)))
		return rc;
	if (sr_rtrules_new(&r->rt, r->o.tune.rt, r->o.tune.nrt, d))
		return d->code;
	if (nsims > 0 && r->o.calibrate == SR_CALIBRATE_AUTO &&
	    !(r->cb = sr_calib_builder_new()))
		return sr_oom(d);
	if ((r->o.cpus == 0 || r->cb) && nsims > 0) {
		/*
		 * The recording's cpu count and its calibration: a first pass
		 * over a file; from a pipe, the simulators wait for the end
		 * of the input (docs/replay.md, "CPUs", "Calibration").
		 */
		if (strcmp(r->o.trace, "-") && !stat(r->o.trace, &st) &&
		    S_ISREG(st.st_mode)) {
			int32_t ran;

			if ((rc = prescan(r, &ran, d)))
				return rc;
			if (r->o.cpus == 0) {
				r->ran = ran;
				r->o.cpus = default_cpus(r);
			}
			if ((rc = check_cpus(r->o.cpus, d)))
				return rc;
		} else {
			r->held = true;
		}
	}
	say_policies(r, NULL);
	if ((rc = sr_reader_open(&r->rd, r->o.trace, &r->o.read, d)))
		return rc;
	if (sr_reader_context(r->rd))
		r->ctx_ncpus = sr_reader_context(r->rd)->ncpus;
	r->tasks = sr_reader_tasks(r->rd);
	if ((rc = sr_taskgroups_new(&r->groups, r->o.group_sched,
				    sr_reader_context(r->rd), d)))
		return rc;
	dopts = (struct sr_demand_opts){ .exclude = r->o.exclude,
					 .only = r->o.only,
					 .tree = r->o.tree,
					 .causal = r->o.causal,
					 .task_get = view_get,
					 .task_ctx = r->tasks,
					 .nconsumers = nsims,
					 .ctx = sr_reader_context(r->rd),
					 .groups = r->groups };
	if ((rc = sr_demand_new(&r->dm, &dopts, d)))
		return rc;
	if (sr_pool_threads(r->pool) > 1 && sr_demand_defer(r->dm))
		return sr_oom(d);
	sr_demand_on_resolve(r->dm, resolved, r);
	view = (struct sr_task_view){ view_get, view_count, r->tasks };
	for (size_t i = 0; i < r->n; i++) {
		struct prun *p = &r->p[i];

		if ((r->o.outdir && (rc = open_outputs(r, p, d))) ||
		    (rc = open_rows(r, p, d)))
			return rc;
		if (p->pub.observed) {
			if ((rc = sr_observed_new(&p->obs, &oopts, &view, d)))
				return rc;
			sr_acct_on_wait(sr_observed_acct(p->obs), obs_wait, p);
			if (p->want_lat && (rc = sr_latw_new(&p->latw,
					sr_observed_acct(p->obs), emit_lat,
					NULL, p, d)))
				return rc;
		}
	}
	if (r->o.cpus == 0 && !r->held)
		r->o.cpus = 1; /* only observed: no simulator */
	return r->held ? SR_OK : start_sims(r, d);
}

/* ---- the pass ------------------------------------------------------------- */

/* One simulator advanced, on a thread of the pool. */
static void advance(void *ctx, size_t i)
{
	struct prun *p = &((struct sr_replay *)ctx)->p[i];
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	sr_sim_advance(p->sim, &p->d);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	p->cost = (int64_t)(b.tv_sec - a.tv_sec) * 1000000000 +
		  (b.tv_nsec - a.tv_nsec);
}

/* Costliest last time first, so that no thread is left with a long one
 * at the end (ties: the replay's order). */
static void sort_order(struct sr_replay *r)
{
	for (size_t i = 1; i < r->norder; i++) {
		size_t x = r->order[i], j = i;

		for (; j > 0 && r->p[r->order[j - 1]].cost < r->p[x].cost; j--)
			r->order[j] = r->order[j - 1];
		r->order[j] = x;
	}
}

/*
 * The simulators run as far as the input read so far decides (to the end
 * when it is all read: last).  With threads they run at once: each reads
 * the demand (nothing writes it meanwhile: the deferred cursors of
 * demand.h) and writes only its own state, files and sink rows, so the
 * outputs are the same whatever the number of threads; the first error in
 * the replay's order is the one told.
 */
static int step(struct sr_replay *r, bool last, struct sr_diag *d)
{
	if (sr_pool_threads(r->pool) == 1) {
		for (size_t i = 0; i < r->n; i++) {
			if (!r->p[i].sim)
				continue;
			if (last)
				say_policies(r, &r->p[i]);
			if (sr_sim_advance(r->p[i].sim, d))
				return d->code;
		}
		return SR_OK;
	}
	sort_order(r);
	sr_pool_run(r->pool, r->norder, r->order, advance, r);
	sr_demand_settle(r->dm);
	for (size_t i = 0; i < r->n; i++)
		if (r->p[i].sim && r->p[i].d.code) {
			*d = r->p[i].d;
			return d->code;
		}
	return SR_OK;
}

static int pass(struct sr_replay *r, struct sr_diag *d)
{
	struct sr_event ev;
	uint64_t n = 0;
	int rc;

	while ((rc = sr_reader_next(r->rd, &ev, d)) == 1) {
		if (!r->win_known)
			window_set(r, ev.ts);
		if (event_seen(r, &ev))
			return sr_oom(d);
		note_ran(&r->ran, r->tasks, &ev);
		if (r->held && r->cb) {
			struct sr_calib_tasks ct = { view_get, r->tasks };

			if (sr_calib_event(r->cb, &ev, &ct, d))
				return d->code;
		}
		if (ev.kind == SR_EV_MIGRATE)
			r->info.migrate_events++;
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
		if (++n % r->o.batch == 0 && !r->held && step(r, false, d))
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
		return sr_oom(d);
	for (size_t i = 0; i < n; i++) {
		struct sr_replay_row *row = &p->pub.rows[i];
		uint32_t id = ms[i]->id;

		row->m = ms[i];
		if (p->sim) {
			const struct sr_sim_task *st = sr_sim_task(p->sim, id);

			row->x.expired = st ? (int64_t)st->expired : 0;
			row->x.late_wakeups = st ? (int64_t)st->late_wakeups
						 : 0;
			row->x.early_wakes = st ? (int64_t)st->early_wakes : 0;
			row->x.finish_ts = st ? st->finish_ts : p->pub.end;
			row->x.cpu_ns = st ? st->cpu_ns : 0;
			row->x.migrations = st ? (int64_t)st->migrations : 0;
		} else {
			const struct sr_dtask *dt = sr_demand_task(r->dm, id);
			const struct sr_task *t = sr_tasks_get(r->tasks, id);

			row->x.expired = -1;
			row->x.late_wakeups = -1;
			row->x.early_wakes = -1;
			row->x.finish_ts = dt ? dt->finish_ts :
					   t ? t->last_ts : p->pub.end;
			row->x.cpu_ns = dt ? dt->cpu_ns : 0;
			row->x.migrations = (int64_t)sr_observed_migrations(
				p->obs, id);
		}
		if (sr_sel_windowed(r->o.sel)) {
			/* counted over the whole replay: unknown in a window */
			row->x.expired = -1;
			row->x.late_wakeups = -1;
			row->x.early_wakes = -1;
			row->x.migrations = -1;
		}
	}
	p->pub.nrows = n;
	return SR_OK;
}

/* A task's summary row is reported: its pid selected, and, with a
 * window, something of it counted there. */
static bool selected(const struct sr_replay *r, const struct sr_task_metrics *m)
{
	if (!sr_sel_pid(r->o.sel, m->pid))
		return false;
	return !sr_sel_windowed(r->o.sel) || m->runtime_ns || m->switches ||
	       m->wakeups;
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
		r->info.left_known = true;
		r->info.left_cpu_ns = 0;
		r->info.total_cpu_ns = 0;
		for (size_t i = 0; i < n; i++) {
			r->info.total_cpu_ns += ms[i]->runtime_ns;
			if (!sr_demand_included(r->dm, ms[i]->id)) {
				/* left out (--exclude, --only, --tree) */
				r->info.left_cpu_ns += ms[i]->runtime_ns;
			} else if (selected(r, ms[i])) {
				ms[k++] = ms[i];
			}
		}
		n = k;
	} else {
		struct sr_acct *a = sr_sim_acct(p->sim);
		size_t cap = sr_acct_ntasks(a);

		ms = malloc((cap ? cap : 1) * sizeof(*ms));
		if (!ms)
			return sr_oom(d);
		for (size_t i = 0; i < cap; i++) {
			struct sr_task_metrics *m =
				sr_acct_metrics(a, (uint32_t)i);

			if (m && sr_sim_task(p->sim, (uint32_t)i) &&
			    selected(r, m))
				ms[n++] = m;
		}
	}
	rc = cmp_rows_done(r, p, ms, n, d);
	free(ms);
	return rc;
}

/* DIR/P/NAME opened for writing (lib/outfile.h). */
static int open_policy_file(struct sr_replay *r, struct prun *p,
			    const char *name, struct sr_outfile **o,
			    struct sr_diag *d)
{
	char *dir = sr_path_join(r->o.outdir, p->pub.name, NULL);
	int rc;

	if (!dir)
		return sr_oom(d);
	rc = sr_outfile_open_in(o, dir, name, NULL, d);
	free(dir);
	return rc;
}

static int write_summary(struct sr_replay *r, struct prun *p,
			 struct sr_diag *d)
{
	struct sr_outfile *o;
	FILE *f;
	int rc;

	if ((rc = open_policy_file(r, p, "summary.tsv", &o, d)))
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
			.migrations = row->x.migrations,
		};

		sr_summary_row(f, row->m, &x);
	}
	return sr_outfile_commit(o, d);
}

/* DIR/tasks.tsv and DIR/seen.tsv: the trace's tasks, for --tree. */
static int write_tasks(struct sr_replay *r, struct sr_diag *d)
{
	struct sr_outfile *o;
	int rc;

	if ((rc = sr_outfile_open_in(&o, r->o.outdir, "tasks.tsv", NULL, d)))
		return rc;
	sr_tasks_write(sr_outfile_fp(o), r->tasks);
	if ((rc = sr_outfile_commit(o, d)) ||
	    (rc = sr_outfile_open_in(&o, r->o.outdir, "lost.tsv", NULL, d)))
		return rc;
	sr_loss_write(&r->info.loss, sr_outfile_fp(o));
	if ((rc = sr_outfile_commit(o, d)) ||
	    (rc = sr_outfile_open_in(&o, r->o.outdir, "seen.tsv", NULL, d)))
		return rc;
	sr_seen_header(sr_outfile_fp(o));
	for (size_t i = 0; i < r->nseen; i++)
		sr_seen_row(sr_outfile_fp(o), r->seen[i].id,
			    sr_strpool_get(&r->names, r->seen[i].comm));
	return sr_outfile_commit(o, d);
}

/* Per cpu: the simulated ones, or the recorded ones for observed. */
static int collect_cpus(struct prun *p, struct sr_diag *d)
{
	size_t n = p->sim ? (size_t)sr_sim_ncpus(p->sim)
			  : sr_observed_ncpus(p->obs);

	p->pub.cpu = calloc(n ? n : 1, sizeof(*p->pub.cpu));
	if (!p->pub.cpu)
		return sr_oom(d);
	p->pub.ncpu = n;
	for (size_t c = 0; c < n; c++) {
		struct sr_cpu_figs *f = &p->pub.cpu[c];

		if (p->sim) {
			/* idle over the replay's span: the recording's, or
			   longer if the replay ran late */
			int64_t span = p->pub.end - p->pub.start;

			sr_sim_cpu_stats(p->sim, (int)c, f);
			f->idle_ns = span > f->busy_ns ? span - f->busy_ns : 0;
		} else {
			sr_observed_cpu(p->obs, c, f);
		}
	}
	return SR_OK;
}

static int write_cpus(struct sr_replay *r, struct prun *p, struct sr_diag *d)
{
	struct sr_outfile *o;
	FILE *f;
	int rc;

	if ((rc = open_policy_file(r, p, "cpus.tsv", &o, d)))
		return rc;
	f = sr_outfile_fp(o);
	sr_cpus_header(f);
	for (size_t c = 0; c < p->pub.ncpu; c++)
		sr_cpus_row(f, (int)c, &p->pub.cpu[c]);
	return sr_outfile_commit(o, d);
}

/* Append a printf'd piece to buf[n] at *k; what does not fit is cut. */
__attribute__((format(printf, 4, 5)))
static void put(char *buf, size_t n, size_t *k, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*k >= n)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *k, n - *k, fmt, ap);
	va_end(ap);
	*k = w < 0 || (size_t)w >= n - *k ? n : *k + (size_t)w;
}

/* What the replay took from the recording's context, for the headline
 * (sr_replay_info.ctx_said): the tick of the policies that take the
 * recording's, the tasks' cpus, their policies and nice levels. */
static void ctx_said(struct sr_replay *r)
{
	const struct sr_context *ctx = sr_reader_context(r->rd);
	const struct sr_demand_stats *st = &r->info.demand;
	char *b = r->info.ctx_said;
	size_t n = sizeof(r->info.ctx_said), k = 0, nhz = 0;
	const char *sep = ": ";

	b[0] = '\0';
	if (!ctx)
		return;
	put(b, n, &k, "from the recording's context");
	for (size_t i = 0; i < r->n; i++) {
		enum sr_hz_source from;
		int hz;

		if (!r->p[i].sim)
			continue;
		hz = sr_sim_hz(r->p[i].sim, &from);
		if (from != SR_HZ_CONTEXT)
			continue;
		if (!nhz++)
			put(b, n, &k, "%sHZ %d (%s", sep, hz, r->p[i].pub.name);
		else
			put(b, n, &k, ", %s", r->p[i].pub.name);
		sep = "; ";
	}
	if (nhz)
		put(b, n, &k, ")");
	if (r->o.affinity == SR_AFFINITY_AUTO && st->ctx_cpus) {
		put(b, n, &k, "%sthe cpus of %llu task%s (%llu pinned to one",
		    sep, (unsigned long long)st->ctx_cpus,
		    st->ctx_cpus == 1 ? "" : "s",
		    (unsigned long long)st->ctx_pinned);
		if (st->ctx_partial)
			put(b, n, &k, ", %llu allowed some: replayed on any",
			    (unsigned long long)st->ctx_partial);
		put(b, n, &k, ")");
		sep = "; ";
	}
	if (st->ctx_policy) {
		put(b, n, &k, "%sthe policy of %llu task%s", sep,
		    (unsigned long long)st->ctx_policy,
		    st->ctx_policy == 1 ? "" : "s");
		if (st->ctx_unmodelled)
			put(b, n, &k, " (%llu batch or idle: replayed as "
			    "normal, not modelled)",
			    (unsigned long long)st->ctx_unmodelled);
		sep = "; ";
	}
	if (st->ctx_nice) {
		put(b, n, &k, "%sthe nice of %llu task%s", sep,
		    (unsigned long long)st->ctx_nice,
		    st->ctx_nice == 1 ? "" : "s");
		sep = "; ";
	}
	if (sep[0] == ':')
		put(b, n, &k, ": nothing the replay uses");
}

/*
 * --rt: the rules no name of the trace made the first to match, said
 * after the run (sr_replay_warn): a typo, or an earlier rule takes every
 * task it matches.  Only when a policy is simulated (observed is the
 * recording: no rule applies to it).
 */
static int rt_used(struct sr_replay *r, struct sr_diag *d)
{
	size_t n = sr_rtrules_count(r->rt);
	bool sims = false;
	char why[1024];

	for (size_t i = 0; i < r->n; i++)
		sims |= !r->p[i].pub.observed;
	if (!sims || !r->o.tune.nrt)
		return SR_OK;
	for (size_t k = 0; k < n && k < SR_REPLAY_MAX_TUNE; k++)
		r->rt_unused[k] = true;
	for (size_t i = 0; i < r->nseen; i++) {
		const char *comm = sr_strpool_get(&r->names, r->seen[i].comm);
		bool first = true;

		for (size_t k = 0; k < n && k < SR_REPLAY_MAX_TUNE; k++) {
			int m = sr_rtrules_rule(r->rt, k, comm, why,
						sizeof(why));

			if (m < 0)
				return sr_fail(d, SR_EUSAGE, "%s", why);
			if (!m)
				continue;
			r->rt_matched[k] = true;
			if (first)
				r->rt_unused[k] = false;
			first = false;
		}
	}
	return SR_OK;
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
	r->info.ran_cpus = r->ran;
	r->info.windowed = sr_sel_windowed(r->o.sel);
	r->info.win_lo = r->lo;
	r->info.win_hi = r->hi;
	if ((rc = sr_sel_check_span(r->o.sel, t0, t1, d)))
		return rc;
	if ((rc = sr_demand_finish(r->dm, t1, d)))
		return rc;
	if (r->held) {
		/* from a pipe: the cpu count and calibration are known now */
		if (r->o.cpus == 0)
			r->o.cpus = default_cpus(r);
		r->held = false;
		if (r->cb && (rc = calib_done(r, d)))
			return rc;
		if ((rc = check_cpus(r->o.cpus, d)) || (rc = start_sims(r, d)))
			return rc;
	}
	if ((rc = step(r, true, d)) || (rc = rt_used(r, d)))
		return rc;
	sr_pool_stats(r->pool, &r->info.steps);
	sr_pool_free(r->pool); /* the simulators are done */
	r->pool = NULL;
	sr_demand_stats(r->dm, &r->info.demand);
	sr_loss_of(st, -1, &r->info.loss);
	r->info.left_tasks = sr_demand_left_out(r->dm);
	ctx_said(r);
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
		if ((rc = collect(r, p, d)) || (rc = collect_cpus(p, d)))
			return rc;
		/* the span reported: the window's part of the replay's */
		if (r->lo > p->pub.start)
			p->pub.start = r->lo < p->pub.end ? r->lo : p->pub.end;
		if (r->hi < p->pub.end)
			p->pub.end = r->hi > p->pub.start ? r->hi : p->pub.start;
		if (p->latw) {
			struct sr_sortbuf_stats ls;

			if ((rc = sr_latw_flush(p->latw)))
				return sr_fail(d, rc, "latency rows of %s: %s",
					       p->pub.name, rc == SR_EIO ?
					       "a temporary file read back "
					       "short" : "out of memory");
			sr_latw_stats(p->latw, &ls);
			p->pub.latency_rows_held = ls.peak;
			p->pub.latency_rows_in_memory = ls.peak_mem;
		}
		if (p->tlfil) {
			if ((rc = sr_tlfilter_flush(p->tlfil)))
				return sr_fail(d, rc, "timeline rows of %s: "
					       "out of memory", p->pub.name);
			p->pub.timeline_rows_held = sr_tlfilter_peak(p->tlfil);
		}
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
		if (p->waits) {
			rc = sr_outfile_commit(p->waits, d);
			p->waits = NULL;
			p->waitsf = NULL;
			if (rc)
				return rc;
		}
		if (r->o.outdir && ((rc = write_summary(r, p, d)) ||
				    (rc = write_cpus(r, p, d))))
			return rc;
	}
	r->info.loss.marked = r->info.lost_tasks;
	if (r->o.outdir && (rc = write_tasks(r, d)))
		return rc;
	return SR_OK;
}

int sr_replay_run(const struct sr_replay_opts *o, struct sr_replay **out,
		  struct sr_diag *d)
{
	struct sr_replay *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r)
		return sr_oom(d);
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
	for (size_t k = 0; k < sr_rtrules_count(r->rt) &&
			   k < SR_REPLAY_MAX_TUNE; k++) {
		const char *spec = sr_rtrules_spec(r->rt, k);
		char q[512], f[512];
		const char *path = sr_reader_path(r->rd);

		if (!r->rt_unused[k])
			continue;
		sr_quote(q, sizeof(q), spec, strlen(spec));
		sr_quote(f, sizeof(f), path, strlen(path));
		if (r->rt_matched[k])
			sr_warn("--rt '%s': every task of %s it matches is "
				"taken by an earlier --rt (the first rule "
				"that matches a name wins): it made no task "
				"SCHED_RR", q, f);
		else
			sr_warn("--rt '%s': no task of %s has a name it "
				"matches: it made no task SCHED_RR", q, f);
	}
}

const struct sr_tasks *sr_replay_tasks(const struct sr_replay *r)
{
	return r->tasks;
}

size_t sr_replay_nseen(const struct sr_replay *r)
{
	return r->nseen;
}

sr_tid sr_replay_seen_at(const struct sr_replay *r, size_t i,
			 const char **comm)
{
	*comm = sr_strpool_get(&r->names, r->seen[i].comm);
	return r->seen[i].id;
}

void sr_replay_free(struct sr_replay *r)
{
	if (!r)
		return;
	sr_pool_free(r->pool);
	for (size_t i = 0; i < r->n; i++) {
		struct prun *p = &r->p[i];

		sr_outfile_abort(p->tl);
		sr_outfile_abort(p->lat);
		sr_outfile_abort(p->waits);
		sr_tlfilter_free(p->tlfil);
		sr_latw_free(p->latw);
		sr_sim_free(p->sim);
		sm_sched_free(p->sched);
		sr_observed_free(p->obs);
		sr_rtrules_free(p->rt);
		free(p->pub.rows);
		free(p->pub.cpu);
	}
	sr_calib_builder_free(r->cb);
	sr_calib_free(&r->calib);
	free(r->p);
	free(r->order);
	free(r->mark);
	free(r->seen);
	sr_strpool_free(&r->names);
	sr_rtrules_free(r->rt);
	sr_madedirs_forget(&r->made);
	sr_demand_free(r->dm);
	sr_taskgroups_free(r->groups);
	if (r->rd)
		sr_reader_close(r->rd);
	free(r);
}
