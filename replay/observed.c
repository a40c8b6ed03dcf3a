/*
 * observed: the recorded schedule, event by event, into the shared
 * accounting.  Owns the translation from trace events to transitions and
 * the `perf sched latency` quirks (docs/metrics.md, "Agreement with perf").
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "replay/observed.h"

const char *const sr_perf_compat_names[] = { "perf", "perf-6.1", NULL };

int sr_perf_compat_parse(const char *name, enum sr_perf_compat *out)
{
	for (int i = 0; sr_perf_compat_names[i]; i++) {
		if (!strcmp(name, sr_perf_compat_names[i])) {
			*out = (enum sr_perf_compat)i;
			return SR_OK;
		}
	}
	return SR_EUSAGE;
}

struct sr_observed {
	struct sr_acct *acct;
	struct sr_task_view view;
	enum sr_perf_compat compat;
	uint32_t *cur;      /* per cpu: key of the task running, or NONE */
	size_t ncur;
	bool lost_seen;     /* a loss happened: check transitions */
	uint64_t nloss;     /* lost-event markers so far */
	uint64_t *wseq;     /* per key: nloss when its current wait began */
	size_t nwseq;
	/* where tasks ran: per key, the last cpu and the moves; per cpu */
	int32_t *tcpu;
	size_t ntcpu;
	uint64_t *moves;
	size_t nmoves;
	struct ocpu {
		int64_t since;      /* a task runs there since, -1: idle */
		int64_t charged;    /* sched_stat_runtime charged there */
		bool any_charge;
		struct sr_cpu_figs f;
	} *cpus;
	size_t ncpus, ncpus_seen;
	int64_t first_ts, end_ts;
	bool any;
	int err;
};

typedef int (*ev_fn)(struct sr_observed *o, const struct sr_event *ev);

/*
 * The accounting key of a task record: its kernel task (first record of
 * its exec chain).  SR_TID_NONE for idle tasks and unknown ids.
 */
static uint32_t key_of(const struct sr_observed *o, sr_tid id)
{
	const struct sr_task *t;

	if (id == SR_TID_NONE)
		return SR_TID_NONE;
	t = o->view.get(o->view.ctx, id);
	if (!t || t->is_idle)
		return SR_TID_NONE;
	return t->thread != SR_TID_NONE ? t->thread : id;
}

static int set_cur(struct sr_observed *o, int32_t cpu, uint32_t key)
{
	if (cpu < 0)
		return SR_OK;
	if ((size_t)cpu >= o->ncur) { /* per event: grow out of line */
		uint32_t *c = sr_grow(o->cur, &o->ncur, (size_t)cpu,
				      sizeof(*c), 8, 0xff);

		if (!c)
			return SR_ENOMEM;
		o->cur = c;
	}
	o->cur[cpu] = key;
	return SR_OK;
}

static uint32_t get_cur(const struct sr_observed *o, int32_t cpu)
{
	return cpu >= 0 && (size_t)cpu < o->ncur ? o->cur[cpu] : SR_TID_NONE;
}

static int mark(struct sr_observed *o, uint32_t key)
{
	return key == SR_TID_NONE ? SR_OK : sr_acct_mark_lost(o->acct, key);
}

/*
 * A wait open across a loss may have ended inside it, so its task is
 * marked.  Rather than look at every task at each loss, a wait notes the
 * number of losses when it begins (wait_begun) and checks it when it ends
 * (wait_ends: the task runs or stops) or at the end of the trace.
 */
static int wait_begun(struct sr_observed *o, uint32_t key)
{
	if (key == SR_TID_NONE ||
	    sr_acct_state(o->acct, key) != SR_ACCT_RUNNABLE)
		return SR_OK;
	if (key >= o->nwseq) {
		uint64_t *w = sr_grow(o->wseq, &o->nwseq, key, sizeof(*w),
				      256, 0);

		if (!w)
			return SR_ENOMEM;
		o->wseq = w;
	}
	o->wseq[key] = o->nloss;
	return SR_OK;
}

static int wait_ends(struct sr_observed *o, uint32_t key)
{
	if (key == SR_TID_NONE || !o->nloss ||
	    sr_acct_state(o->acct, key) != SR_ACCT_RUNNABLE)
		return SR_OK;
	if (key < o->nwseq && o->wseq[key] == o->nloss)
		return SR_OK; /* no loss since it began */
	return sr_acct_mark_lost(o->acct, key);
}

static struct ocpu *ocpu_of(struct sr_observed *o, int32_t cpu)
{
	if ((size_t)cpu >= o->ncpus) {
		size_t old = o->ncpus;
		struct ocpu *p = sr_grow(o->cpus, &o->ncpus, (size_t)cpu,
					 sizeof(*p), 8, 0);

		if (!p)
			return NULL;
		o->cpus = p;
		for (size_t i = old; i < o->ncpus; i++)
			o->cpus[i].since = -1;
	}
	return &o->cpus[cpu];
}

/* Where tasks ran: cpu time, switches, and a task coming from another
   cpu (a migration, and a pull for this cpu). */
static int track_cpu(struct sr_observed *o, const struct sr_event *ev,
		     uint32_t prev, uint32_t next)
{
	struct ocpu *c;

	if (ev->cpu < 0)
		return SR_OK;
	if (!(c = ocpu_of(o, ev->cpu)))
		return SR_ENOMEM;
	if ((size_t)ev->cpu >= o->ncpus_seen)
		o->ncpus_seen = (size_t)ev->cpu + 1;
	c->f.switches++;
	if (c->since >= 0 && ev->ts > c->since)
		c->f.busy_ns += ev->ts - c->since;
	c->since = next != SR_TID_NONE ? ev->ts : -1;
	(void)prev;
	if (next == SR_TID_NONE)
		return SR_OK;
	if (next >= o->ntcpu) {
		int32_t *p = sr_grow(o->tcpu, &o->ntcpu, next, sizeof(*p),
				     256, 0xff);

		if (!p)
			return SR_ENOMEM;
		o->tcpu = p;
	}
	if (o->tcpu[next] >= 0 && o->tcpu[next] != ev->cpu) {
		if (next >= o->nmoves) {
			uint64_t *p = sr_grow(o->moves, &o->nmoves, next,
					      sizeof(*p), 256, 0);

			if (!p)
				return SR_ENOMEM;
			o->moves = p;
		}
		o->moves[next]++;
		c->f.pulls++;
	}
	o->tcpu[next] = ev->cpu;
	return SR_OK;
}

static int on_switch(struct sr_observed *o, const struct sr_event *ev)
{
	uint32_t prev = key_of(o, ev->task), next = key_of(o, ev->other);
	int rc;

	if ((rc = track_cpu(o, ev, prev, next)))
		return rc;

	if (o->lost_seen) {
		/* after a loss, a transition that does not follow is a hint */
		uint32_t cur = get_cur(o, ev->cpu);

		if (cur != prev && ((rc = mark(o, cur)) || (rc = mark(o, prev))))
			return rc;
		if (prev != SR_TID_NONE &&
		    sr_acct_state(o->acct, prev) != SR_ACCT_RUNNING &&
		    sr_acct_state(o->acct, prev) != SR_ACCT_UNSEEN &&
		    (rc = mark(o, prev)))
			return rc;
		if (next != SR_TID_NONE &&
		    sr_acct_state(o->acct, next) == SR_ACCT_RUNNING &&
		    (rc = mark(o, next)))
			return rc;
	}
	if (prev != SR_TID_NONE) {
		bool runnable = ev->prev_state == SR_STATE_RUNNING;

		if (o->compat == SR_COMPAT_PERF_6_1 && ev->preempt)
			runnable = false;
		if ((rc = wait_ends(o, prev)) ||
		    (rc = sr_acct_stop(o->acct, prev, ev->ts, runnable)) ||
		    (rc = wait_begun(o, prev)))
			return rc;
	}
	if (next != SR_TID_NONE) {
		/* first sight of a task, coming in: runnable until now */
		if (sr_acct_state(o->acct, next) == SR_ACCT_UNSEEN &&
		    ((rc = sr_acct_runnable(o->acct, next, ev->ts,
					    SR_CAUSE_UNKNOWN)) ||
		     (rc = wait_begun(o, next))))
			return rc;
		if ((rc = wait_ends(o, next)) ||
		    (rc = sr_acct_run(o->acct, next, ev->ts)))
			return rc;
	}
	return set_cur(o, ev->cpu, next);
}

static int on_wake(struct sr_observed *o, const struct sr_event *ev)
{
	uint32_t k = key_of(o, ev->task);
	enum sr_acct_cause cause = SR_CAUSE_WAKEUP;
	int rc;

	if (k == SR_TID_NONE)
		return SR_OK;
	if (ev->kind == SR_EV_WAKING && o->compat == SR_COMPAT_PERF_6_1)
		return SR_OK;
	if (ev->kind == SR_EV_WAKEUP_NEW)
		cause = SR_CAUSE_FORK;
	/* a wakeup stamped before the task's last switch-out is ignored */
	if (sr_acct_state(o->acct, k) == SR_ACCT_SLEEPING &&
	    ev->ts < sr_acct_last_stop(o->acct, k))
		return SR_OK;
	if (sr_acct_state(o->acct, k) == SR_ACCT_RUNNABLE)
		return SR_OK; /* already waiting: the earlier start stands */
	if ((rc = sr_acct_runnable(o->acct, k, ev->ts, cause)))
		return rc;
	return wait_begun(o, k);
}

static int on_runtime(struct sr_observed *o, const struct sr_event *ev)
{
	uint32_t k = key_of(o, ev->task);
	int rc;

	if (k == SR_TID_NONE)
		return SR_OK;
	if (ev->cpu >= 0 && ev->value > 0) {
		struct ocpu *c = ocpu_of(o, ev->cpu);

		if (!c)
			return SR_ENOMEM;
		c->charged += ev->value;
		c->any_charge = true;
	}
	if (sr_acct_state(o->acct, k) == SR_ACCT_UNSEEN &&
	    ((rc = sr_acct_runnable(o->acct, k, ev->ts, SR_CAUSE_UNKNOWN)) ||
	     (rc = wait_begun(o, k))))
		return rc;
	return sr_acct_charge_at(o->acct, k, ev->ts, ev->value);
}

static int on_lost(struct sr_observed *o, const struct sr_event *ev)
{
	int rc;

	o->lost_seen = true;
	o->nloss++; /* the waits open now: see wait_ends() */
	if (ev->cpu >= 0) {
		if ((rc = mark(o, get_cur(o, ev->cpu))))
			return rc;
	} else {
		for (size_t c = 0; c < o->ncur; c++)
			if ((rc = mark(o, o->cur[c])))
				return rc;
	}
	return SR_OK;
}

static int on_ignored(struct sr_observed *o, const struct sr_event *ev)
{
	return SR_OK;
}

/* What each event kind does; perf sched latency ignores the others. */
static const ev_fn handlers[SR_EV__COUNT] = {
	[SR_EV_SWITCH] = on_switch,
	[SR_EV_WAKING] = on_wake,
	[SR_EV_WAKEUP] = on_wake,
	[SR_EV_WAKEUP_NEW] = on_wake,
	[SR_EV_FORK] = on_ignored,     /* pid reuse: new task records */
	[SR_EV_EXEC] = on_ignored,     /* same kernel task: same key */
	[SR_EV_EXIT] = on_ignored,     /* the last switch-out follows */
	[SR_EV_FREE] = on_ignored,
	[SR_EV_MIGRATE] = on_ignored,  /* perf: only with -C */
	[SR_EV_RUNTIME] = on_runtime,
	[SR_EV_NICE] = on_ignored,
	[SR_EV_SETSCHED] = on_ignored,
	[SR_EV_LOST] = on_lost,
};

int sr_observed_new(struct sr_observed **out,
		    const struct sr_observed_opts *opts,
		    const struct sr_task_view *view, struct sr_diag *d)
{
	struct sr_observed *o = calloc(1, sizeof(*o));

	*out = NULL;
	if (!o)
		return sr_oom(d);
	if (sr_acct_new(&o->acct, d)) {
		free(o);
		return d->code;
	}
	o->view = *view;
	o->compat = opts ? opts->compat : SR_COMPAT_PERF;
	*out = o;
	return SR_OK;
}

void sr_observed_free(struct sr_observed *o)
{
	if (!o)
		return;
	sr_acct_free(o->acct);
	free(o->cur);
	free(o->wseq);
	free(o->tcpu);
	free(o->moves);
	free(o->cpus);
	free(o);
}

int sr_observed_event(struct sr_observed *o, const struct sr_event *ev)
{
	int rc;

	if (ev->kind >= SR_EV__COUNT || !handlers[ev->kind])
		return SR_OK;
	if (!o->any) {
		o->any = true;
		o->first_ts = ev->ts;
	}
	rc = handlers[ev->kind](o, ev);
	if (rc && !o->err)
		o->err = rc;
	return rc;
}

int sr_observed_finish(struct sr_observed *o, int64_t t_end,
		       struct sr_diag *d)
{
	size_t n = o->view.count(o->view.ctx);

	if (o->err)
		return sr_fail(d, o->err, "recorded schedule: %s",
			       sr_acct_error(o->acct) ? sr_acct_error(o->acct)
						      : "out of memory");
	/* waits still open at the end, begun before a loss */
	for (size_t k = 0; k < sr_acct_ntasks(o->acct); k++)
		if (wait_ends(o, (uint32_t)k))
			return sr_oom(d);
	if (sr_acct_finish(o->acct, t_end, d))
		return d->code;
	o->end_ts = t_end;
	for (size_t c = 0; c < o->ncpus; c++) {
		struct ocpu *p = &o->cpus[c];
		int64_t span = o->any && t_end > o->first_ts ?
			       t_end - o->first_ts : 0;

		if (p->since >= 0 && t_end > p->since)
			p->f.busy_ns += t_end - p->since;
		p->since = -1;
		/* a trace that charges CPU: busy = the charges there (the
		   switches miss time, e.g. an idle task that records no
		   switch-out: traces/README.md) */
		if (p->any_charge)
			p->f.busy_ns = p->charged;
		p->f.idle_ns = span > p->f.busy_ns ? span - p->f.busy_ns : 0;
		p->f.balances = -1;
	}
	/* name each row after the last record of its exec chain */
	for (size_t i = 0; i < n; i++) {
		const struct sr_task *t = o->view.get(o->view.ctx, (sr_tid)i);
		uint32_t k = key_of(o, (sr_tid)i);

		if (!t || k == SR_TID_NONE || !sr_acct_metrics(o->acct, k))
			continue;
		if (sr_acct_name(o->acct, k, t->pid, t->comm))
			return sr_oom(d);
	}
	return SR_OK;
}

static bool active(const struct sr_task_metrics *m)
{
	return m->runtime_ns > 0 || m->switches > 0 || m->wakeups > 0;
}

int sr_observed_rows(struct sr_observed *o, struct sr_task_metrics ***rows,
		     size_t *n, struct sr_diag *d)
{
	size_t cap = sr_acct_ntasks(o->acct), k = 0;
	struct sr_task_metrics **r = malloc((cap ? cap : 1) * sizeof(*r));

	*rows = NULL;
	*n = 0;
	if (!r)
		return sr_oom(d);
	for (size_t i = 0; i < cap; i++) {
		struct sr_task_metrics *m = sr_acct_metrics(o->acct,
							    (uint32_t)i);

		if (m && active(m))
			r[k++] = m;
	}
	*rows = r;
	*n = k;
	return SR_OK;
}

struct sr_acct *sr_observed_acct(struct sr_observed *o)
{
	return o->acct;
}

size_t sr_observed_lost_tasks(const struct sr_observed *o)
{
	size_t n = sr_acct_ntasks(o->acct), k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sr_task_metrics *m =
			sr_acct_metrics(o->acct, (uint32_t)i);

		if (m && m->lost_touched && active(m))
			k++;
	}
	return k;
}

int32_t sr_observed_task_cpu(const struct sr_observed *o, uint32_t key)
{
	return key < o->ntcpu ? o->tcpu[key] : -1;
}

uint64_t sr_observed_migrations(const struct sr_observed *o, uint32_t key)
{
	return key < o->nmoves ? o->moves[key] : 0;
}

size_t sr_observed_ncpus(const struct sr_observed *o)
{
	return o->ncpus_seen;
}

void sr_observed_cpu(const struct sr_observed *o, size_t cpu,
		     struct sr_cpu_figs *out)
{
	memset(out, 0, sizeof(*out));
	out->balances = -1;
	if (cpu < o->ncpus_seen)
		*out = o->cpus[cpu].f;
}
