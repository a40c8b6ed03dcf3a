/*
 * runset: the runs' rows side by side, task by task, across policies
 * (see runset.h).  The analysis of behaviour (classes, periods,
 * interbench figures) is in behave.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "compare/runset.h"
#include "lib/fmt.h"
#include "parse/read-warn.h"

const char *cmp_class_name(enum cmp_class c)
{
	static const char *const names[] = {
		[CMP_CLASS_OTHER] = "other",
		[CMP_CLASS_INTERACTIVE] = "interactive",
		[CMP_CLASS_BATCH] = "batch",
	};
	return names[c];
}

/* ---- the task index ---------------------------------------------------- */

static uint64_t key_hash(int32_t pid, const char *comm, uint32_t occ)
{
	uint64_t h = 1469598103934665603ull;

	h = (h ^ (uint32_t)pid) * 1099511628211ull;
	h = (h ^ occ) * 1099511628211ull;
	for (const unsigned char *p = (const unsigned char *)comm; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return h;
}

long cmp_set_find(const struct cmp_set *s, int32_t pid, const char *comm,
		 uint32_t occ)
{
	size_t mask, i;

	if (!s->hcap)
		return -1;
	mask = s->hcap - 1;
	for (i = key_hash(pid, comm, occ) & mask;; i = (i + 1) & mask) {
		uint32_t v = s->hash[i];
		const struct cmp_task *t;

		if (v == 0)
			return -1;
		t = &s->tasks[v - 1];
		if (t->pid == pid && t->occ == occ && !strcmp(t->comm, comm))
			return (long)v - 1;
	}
}

static int rehash(struct cmp_set *s, struct sr_diag *d)
{
	size_t n = s->hcap ? s->hcap * 2 : 256;
	uint32_t *h = calloc(n, sizeof(*h));

	if (!h)
		return sr_oom(d);
	for (size_t k = 0; k < s->ntasks; k++) {
		const struct cmp_task *t = &s->tasks[k];
		size_t i = key_hash(t->pid, t->comm, t->occ) & (n - 1);

		while (h[i])
			i = (i + 1) & (n - 1);
		h[i] = (uint32_t)k + 1;
	}
	free(s->hash);
	s->hash = h;
	s->hcap = n;
	return SR_OK;
}

/* Find or create; returns the index or -1 with d set. */
static long task_get(struct cmp_set *s, int32_t pid, const char *comm,
		     uint32_t occ, struct sr_diag *d)
{
	long k = cmp_set_find(s, pid, comm, occ);
	struct cmp_task *t;

	if (k >= 0)
		return k;
	if (s->ntasks == s->cap) {
		struct cmp_task *p = sr_grow(s->tasks, &s->cap, s->ntasks,
					     sizeof(*p), 64, 0);

		if (!p)
			return sr_oom(d), -1;
		s->tasks = p;
	}
	if ((s->ntasks + 1) * 2 > s->hcap && rehash(s, d))
		return -1;
	t = &s->tasks[s->ntasks];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->occ = occ;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->static_prio = -1;
	t->parent = -1;
	t->group = -1;
	t->figs = calloc(s->nruns ? s->nruns : 1, sizeof(*t->figs));
	if (!t->figs)
		return sr_oom(d), -1;
	k = (long)s->ntasks++;
	{
		size_t mask = s->hcap - 1;
		size_t i = key_hash(pid, t->comm, occ) & mask;

		while (s->hash[i])
			i = (i + 1) & mask;
		s->hash[i] = (uint32_t)k + 1;
	}
	return k;
}

void cmp_task_label(const struct cmp_task *t, char *buf, size_t len)
{
	const char *lost = t->lost ? " !" : "";

	if (t->occ > 1)
		snprintf(buf, len, "%s (%d#%u)%s", t->comm, t->pid, t->occ,
			 lost);
	else
		snprintf(buf, len, "%s (%d)%s", t->comm, t->pid, lost);
}

/* ---- opening ----------------------------------------------------------- */

int cmp_set_open(struct cmp_set *s, const char *title,
		 struct cmp_result *const *res, size_t nruns,
		 const struct cmp_result *ref, struct sr_diag *d)
{
	memset(s, 0, sizeof(*s));
	if (nruns == 0 || nruns > CMP_MAX_RUNS)
		return sr_fail(d, SR_EUSAGE, "expected 1 to %d policies, got %zu",
			       CMP_MAX_RUNS, nruns);
	s->title = strdup(title);
	if (!s->title)
		return sr_oom(d);
	for (size_t i = 0; i < nruns; i++) {
		snprintf(s->runs[i].policy, sizeof(s->runs[i].policy), "%s",
			 res[i]->policy);
		s->runs[i].res = res[i];
	}
	s->nruns = nruns;
	s->ref = ref ? ref : res[0];
	snprintf(s->ref_policy, sizeof(s->ref_policy), "%s", s->ref->policy);
	return SR_OK;
}

void cmp_set_free(struct cmp_set *s)
{
	for (size_t i = 0; i < s->ntasks; i++) {
		free(s->tasks[i].figs);
		free(s->tasks[i].per);
	}
	free(s->tasks);
	free(s->hash);
	free(s->title);
	memset(s, 0, sizeof(*s));
}

/* ---- summaries ----------------------------------------------------------- */

static int load_summary(struct cmp_set *s, size_t run, struct sr_diag *d)
{
	const struct cmp_result *res = s->runs[run].res;

	for (size_t i = 0; i < res->nsum; i++) {
		const struct cmp_sum *x = &res->sum[i];
		const char *comm = cmp_result_comm(res, x->comm);
		struct cmp_figs *f;
		uint32_t occ = 1;
		long k;

		/* the next occurrence of this pid and comm not yet filled */
		for (;; occ++) {
			k = cmp_set_find(s, x->pid, comm, occ);
			if (k < 0 || !s->tasks[k].figs[run].present)
				break;
		}
		k = task_get(s, x->pid, comm, occ, d);
		if (k < 0)
			return d->code;
		f = &s->tasks[k].figs[run];
		*f = x->f;
		f->present = true;
	}
	return SR_OK;
}

/* ---- timeline rows ------------------------------------------------------- */

/* Per pid while a timeline streams: the task record now holding it. */
struct pid_slot {
	int32_t pid;
	bool used;
	bool dead;
	long task;
};

struct pidmap {
	struct pid_slot *v;
	size_t cap, n;
};

static struct pid_slot *pidmap_get(struct pidmap *m, int32_t pid,
				   struct sr_diag *d)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 256;
		struct pid_slot *nv = calloc(ncap, sizeof(*nv));

		if (!nv)
			return sr_oom(d), NULL;
		for (size_t k = 0; k < m->cap; k++) {
			if (!m->v[k].used)
				continue;
			i = ((uint32_t)m->v[k].pid * 2654435761u) & (ncap - 1);
			while (nv[i].used)
				i = (i + 1) & (ncap - 1);
			nv[i] = m->v[k];
		}
		free(m->v);
		m->v = nv;
		m->cap = ncap;
	}
	i = ((uint32_t)pid * 2654435761u) & (m->cap - 1);
	while (m->v[i].used && m->v[i].pid != pid)
		i = (i + 1) & (m->cap - 1);
	if (!m->v[i].used) {
		m->v[i].used = true;
		m->v[i].pid = pid;
		m->v[i].task = -1;
		m->n++;
	}
	return &m->v[i];
}

/* occurrences of (pid, comm) started so far in this pass, by occ-1 task */
struct occ_count {
	uint32_t *n;
	size_t cap;
};

static int occ_next(struct cmp_set *s, struct occ_count *oc, int32_t pid,
		    const char *comm, bool create, uint32_t *occ,
		    struct sr_diag *d)
{
	long base = create ? task_get(s, pid, comm, 1, d)
			   : cmp_set_find(s, pid, comm, 1);

	if (base < 0) {
		*occ = 0;
		return create ? -1 : 0;
	}
	if ((size_t)base >= oc->cap) {
		uint32_t *p = sr_grow(oc->n, &oc->cap, (size_t)base, sizeof(*p),
				      64, 0);

		if (!p)
			return sr_oom(d), -1;
		oc->n = p;
	}
	*occ = ++oc->n[base];
	return 0;
}

int cmp_timeline_pass(struct cmp_set *s, const struct cmp_result *res,
		      bool create, cmp_tl_fn fn, void *ctx, struct sr_diag *d)
{
	struct pidmap pm = { 0 };
	struct occ_count oc = { 0 };

	for (size_t i = 0; i < res->ntl; i++) {
		const struct cmp_tl *x = &res->tl[i];
		const char *comm = cmp_result_comm(res, x->comm);
		int32_t pid = x->pid;
		struct cmp_tl_row row = {
			.time_ns = x->time_ns, .ev = (enum cmp_tl_event)x->ev,
			.prio = x->prio, .static_prio = x->static_prio,
		};
		struct pid_slot *ps;
		bool fresh;

		if (!x->known)
			s->unknown_events++;
		ps = pidmap_get(&pm, pid, d);
		if (!ps)
			break;
		/*
		 * Same record: same comm, and not a new life after an exit.
		 * A different comm on a live pid is an exec: the old record
		 * ends here.
		 */
		fresh = true;
		if (ps->task >= 0 && !strcmp(s->tasks[ps->task].comm, comm)) {
			if (!ps->dead || row.ev == CMP_EV_EXIT ||
			    row.ev == CMP_EV_REAP || row.ev == CMP_EV_OTHER ||
			    row.ev == CMP_EV_MIGRATE)
				fresh = false;
		}
		if (fresh) {
			uint32_t occ;
			long k;

			if (ps->task >= 0 && !ps->dead) {
				struct cmp_tl_row gone = row;

				gone.task = ps->task;
				gone.ev = CMP_EV_GONE;
				gone.prio = gone.static_prio = -1;
				if (fn(ctx, &gone, d))
					break;
			}
			if (occ_next(s, &oc, pid, comm, create, &occ, d))
				break;
			k = occ ? (create ? task_get(s, pid, comm, occ, d)
					  : cmp_set_find(s, pid, comm, occ))
				: -1;
			if (k < 0 && create)
				break;
			ps->task = k;
			ps->dead = false;
			if (k < 0) {
				/* unknown task: remember it is dead-ended */
				ps->dead = true;
				continue;
			}
		}
		if (row.ev == CMP_EV_EXIT || row.ev == CMP_EV_REAP)
			ps->dead = true;
		row.task = ps->task;
		if (fn(ctx, &row, d))
			break;
	}
	free(pm.v);
	free(oc.n);
	return d->code;
}

/* ---- latency rows ------------------------------------------------------- */

/*
 * The task that holds k's figures under run r: k itself, or, when k has
 * no summary row there (an earlier name of a task that later exec'd or
 * renamed itself: mpv's threads start as "mpv"), the next record of its
 * pid that has one, the name the kernel task ended with.  So a task's
 * waits are the ones its figures count (docs/plots.md, "Naming a task
 * across runs").
 */
static long figures_of(const struct cmp_set *s, size_t r, long k)
{
	const struct cmp_task *t = &s->tasks[k];
	long best = -1;

	if (t->figs[r].present || !t->in_ref)
		return k;
	for (size_t j = 0; j < s->ntasks; j++) {
		const struct cmp_task *u = &s->tasks[j];

		if (u->pid != t->pid || !u->figs[r].present || !u->in_ref ||
		    u->first_ns < t->first_ns || (long)j == k)
			continue;
		if (best < 0 || u->first_ns < s->tasks[best].first_ns)
			best = (long)j;
	}
	return best >= 0 ? best : k;
}

int cmp_latency_pass(struct cmp_set *s, const struct cmp_result *res,
		     cmp_lat_fn fn, void *ctx, struct sr_diag *d)
{
	size_t r = s->nruns;

	for (size_t k = 0; k < s->nruns; k++)
		if (s->runs[k].res == res)
			r = k;
	for (size_t i = 0; i < res->nlat; i++) {
		const struct cmp_lat *x = &res->lat[i];
		const char *comm = cmp_result_comm(res, x->comm);
		struct cmp_lat_row row = { x->wake_ns, x->delay_ns, -1, x };
		long k = cmp_set_find(s, x->pid, comm, 1);

		if (k < 0)
			continue;
		/* a later occurrence that already existed at wake_ns */
		for (uint32_t occ = 2;; occ++) {
			long k2 = cmp_set_find(s, x->pid, comm, occ);

			if (k2 < 0 || !s->tasks[k2].in_ref ||
			    s->tasks[k2].first_ns > row.wake_ns)
				break;
			k = k2;
		}
		row.task = r < s->nruns ? figures_of(s, r, k) : k;
		if (fn(ctx, &row, d))
			return d->code;
	}
	return SR_OK;
}

/* The tasks res's summary marks as touched by lost events (the recorded
 * schedule's: the reference, compared or not) get t->lost. */
static void mark_lost(struct cmp_set *s, const struct cmp_result *res)
{
	for (size_t i = 0; i < res->nsum; i++) {
		const struct cmp_sum *x = &res->sum[i];
		const char *comm = cmp_result_comm(res, x->comm);
		uint32_t occ = 1;
		long k;

		if (!x->f.lost)
			continue;
		/* rows are sorted by pid: the earlier ones of this record */
		for (size_t j = i; j-- > 0 && res->sum[j].pid == x->pid;)
			occ += !strcmp(cmp_result_comm(res, res->sum[j].comm),
				       comm);
		if ((k = cmp_set_find(s, x->pid, comm, occ)) >= 0)
			s->tasks[k].lost = true;
	}
}

int cmp_set_read_summaries(struct cmp_set *s, struct sr_diag *d)
{
	for (size_t r = 0; r < s->nruns; r++) {
		if (load_summary(s, r, d))
			return d->code;
		s->runs[r].cpus = s->runs[r].res->cpus;
		mark_lost(s, s->runs[r].res);
	}
	mark_lost(s, s->ref);
	s->ref_cpus = s->ref->cpus;
	return SR_OK;
}

void cmp_set_json_head(const struct cmp_set *s, FILE *f)
{
	fputs("{\n  \"trace\": ", f);
	sr_json_str(f, s->title);
	fputs(",\n  \"lost_events\": ", f);
	if (s->loss)
		sr_loss_json(s->loss, f);
	else
		fputs("null", f);
}
