/*
 * runset: reading a replay output directory back, task by task, across
 * policies (see runset.h).  The analysis of behaviour (classes, periods,
 * interbench figures) is in behave.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/grow.h"
#include "lib/path.h"
#include "compare/runset.h"
#include "compare/tsv.h"

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
		return sr_fail(d, SR_EINTERNAL, "out of memory");
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
			return sr_fail(d, SR_EINTERNAL, "out of memory"), -1;
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
	t->figs = calloc(s->nruns ? s->nruns : 1, sizeof(*t->figs));
	if (!t->figs)
		return sr_fail(d, SR_EINTERNAL, "out of memory"), -1;
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
	if (t->occ > 1)
		snprintf(buf, len, "%s (%d#%u)", t->comm, t->pid, t->occ);
	else
		snprintf(buf, len, "%s (%d)", t->comm, t->pid);
}

/* ---- opening ----------------------------------------------------------- */

static int check_run_dir(const char *dir, const char *policy,
			 struct sr_diag *d)
{
	static const char *const files[] = {
		"summary.tsv", "latency.tsv", "timeline.tsv",
	};
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return sr_fail(d, SR_ENOINPUT,
			       "%s: expected the replay output of policy '%s' (a directory), got %s",
			       dir, policy, strerror(errno ? errno : ENOTDIR));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *p = sr_path_join(dir, files[i], NULL);
		int ok;

		if (!p)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
		if (!ok) {
			sr_fail(d, SR_ENOINPUT,
				"%s: missing: expected the replay's %s for policy '%s'",
				p, files[i], policy);
			free(p);
			return d->code;
		}
		free(p);
	}
	return SR_OK;
}

int cmp_set_open(struct cmp_set *s, const char *root, const char *title,
		const char *const *policies, size_t npolicies,
		struct sr_diag *d)
{
	struct stat st;
	char *obs;

	memset(s, 0, sizeof(*s));
	if (npolicies == 0 || npolicies > CMP_MAX_RUNS)
		return sr_fail(d, SR_EUSAGE, "expected 1 to %d policies, got %zu",
			       CMP_MAX_RUNS, npolicies);
	s->root = strdup(root);
	s->title = strdup(title ? title : root);
	if (!s->root || !s->title)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	for (size_t i = 0; i < npolicies; i++) {
		struct cmp_run *r = &s->runs[i];

		if (strlen(policies[i]) >= sizeof(r->policy) ||
		    strchr(policies[i], '/'))
			return sr_fail(d, SR_EUSAGE,
				       "expected a policy name, got '%s'",
				       policies[i]);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(s->runs[j].policy, policies[i]))
				return sr_fail(d, SR_EUSAGE,
					       "policy '%s' given twice",
					       policies[i]);
		snprintf(r->policy, sizeof(r->policy), "%s", policies[i]);
		r->dir = sr_path_join(root, policies[i], NULL);
		if (!r->dir)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		s->nruns = i + 1;
		if (check_run_dir(r->dir, r->policy, d))
			return d->code;
	}
	/* the recorded schedule is the reference when the replay wrote it */
	obs = sr_path_join(root, "observed", NULL);
	if (!obs)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	if (stat(obs, &st) == 0 && S_ISDIR(st.st_mode) &&
	    check_run_dir(obs, "observed", NULL) == SR_OK) {
		snprintf(s->ref_policy, sizeof(s->ref_policy), "observed");
		s->ref_dir = obs;
	} else {
		free(obs);
		snprintf(s->ref_policy, sizeof(s->ref_policy), "%s",
			 s->runs[0].policy);
		s->ref_dir = strdup(s->runs[0].dir);
		if (!s->ref_dir)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
	}
	return SR_OK;
}

void cmp_set_free(struct cmp_set *s)
{
	for (size_t i = 0; i < s->ntasks; i++) {
		free(s->tasks[i].figs);
		free(s->tasks[i].per);
	}
	for (size_t i = 0; i < s->nruns; i++)
		free(s->runs[i].dir);
	free(s->tasks);
	free(s->hash);
	free(s->root);
	free(s->title);
	free(s->ref_dir);
	memset(s, 0, sizeof(*s));
}

/* ---- summary.tsv ------------------------------------------------------- */

enum {
	SC_PID, SC_COMM, SC_RUNTIME, SC_SWITCHES, SC_WAKEUPS, SC_AVG, SC_P50,
	SC_P95, SC_P99, SC_MAX, SC_SHARE, SC_EXPIRED, SC_LATE, SC_FINISH,
	SC__N
};

static const struct cmp_col summary_cols[SC__N] = {
	[SC_PID] = { "pid", true },
	[SC_COMM] = { "comm", true },
	[SC_RUNTIME] = { "runtime_ms", true },
	[SC_SWITCHES] = { "switches", true },
	[SC_WAKEUPS] = { "wakeups", false },
	[SC_AVG] = { "avg_delay_ms", true },
	[SC_P50] = { "p50_delay_ms", false },
	[SC_P95] = { "p95_delay_ms", true },
	[SC_P99] = { "p99_delay_ms", true },
	[SC_MAX] = { "max_delay_ms", true },
	[SC_SHARE] = { "cpu_share", false },
	[SC_EXPIRED] = { "expired", false },
	[SC_LATE] = { "late_wakeups", false },
	[SC_FINISH] = { "finish_s", false },
};

static int load_summary(struct cmp_set *s, size_t run, struct sr_diag *d)
{
	struct cmp_tsv t;
	char *path = sr_path_join(s->runs[run].dir, "summary.tsv", NULL);
	int rc;

	if (!path)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	rc = cmp_tsv_open(&t, path, summary_cols, SC__N, d);
	free(path);
	if (rc)
		return rc;
	while ((rc = cmp_tsv_next(&t, d)) == 1) {
		int64_t pid, v;
		const char *comm = cmp_tsv_get(&t, SC_COMM);
		struct cmp_figs *f;
		uint32_t occ = 1;
		long k;

		if (cmp_tsv_int(&t, SC_PID, &pid, d))
			break;
		if (pid < 0 || pid > INT32_MAX) {
			sr_fail(d, SR_EDATA, "%s:%llu: expected a pid, got %lld",
				t.path, (unsigned long long)t.line,
				(long long)pid);
			break;
		}
		/* the next occurrence of this pid and comm not yet filled */
		for (;; occ++) {
			k = cmp_set_find(s, (int32_t)pid, comm, occ);
			if (k < 0 || !s->tasks[k].figs[run].present)
				break;
		}
		k = task_get(s, (int32_t)pid, comm, occ, d);
		if (k < 0)
			break;
		f = &s->tasks[k].figs[run];
		f->present = true;
		if (cmp_tsv_fixed(&t, SC_RUNTIME, 6, &f->runtime_ns, d) ||
		    cmp_tsv_int(&t, SC_SWITCHES, &v, d))
			break;
		f->switches = (uint64_t)v;
		if (cmp_tsv_int(&t, SC_WAKEUPS, &v, d))
			break;
		f->wakeups = (uint64_t)v;
		if (cmp_tsv_fixed(&t, SC_AVG, 6, &f->avg_ns, d) ||
		    cmp_tsv_fixed(&t, SC_P50, 6, &f->p50_ns, d) ||
		    cmp_tsv_fixed(&t, SC_P95, 6, &f->p95_ns, d) ||
		    cmp_tsv_fixed(&t, SC_P99, 6, &f->p99_ns, d) ||
		    cmp_tsv_fixed(&t, SC_MAX, 6, &f->max_ns, d) ||
		    cmp_tsv_double(&t, SC_SHARE, &f->cpu_share, d))
			break;
		if (cmp_tsv_int(&t, SC_EXPIRED, &v, d))
			break;
		f->expired = (uint64_t)v;
		if (cmp_tsv_int(&t, SC_LATE, &v, d))
			break;
		f->late_wakeups = (uint64_t)v;
		if (cmp_tsv_fixed(&t, SC_FINISH, 9, &f->finish_ns, d))
			break;
	}
	cmp_tsv_close(&t);
	return rc < 0 || d->code ? d->code : SR_OK;
}

/* ---- timeline.tsv ------------------------------------------------------ */

enum { TC_TIME, TC_PID, TC_COMM, TC_EVENT, TC_PRIO, TC_SPRIO, TC__N };

static const struct cmp_col timeline_cols[TC__N] = {
	[TC_TIME] = { "time_ns", true },
	[TC_PID] = { "pid", true },
	[TC_COMM] = { "comm", true },
	[TC_EVENT] = { "event", true },
	[TC_PRIO] = { "prio", false },
	[TC_SPRIO] = { "static_prio", false },
};

static const struct {
	const char *name;
	enum cmp_tl_event ev;
} event_names[] = {
	{ "new", CMP_EV_NEW },
	{ "fork", CMP_EV_FORK },
	{ "wake", CMP_EV_WAKE },
	{ "run", CMP_EV_RUN },
	{ "preempt", CMP_EV_PREEMPT },
	{ "block", CMP_EV_BLOCK },
	{ "exit", CMP_EV_EXIT },
	{ "reap", CMP_EV_REAP },
	{ "late", CMP_EV_SKIP },
	{ "early", CMP_EV_SKIP },
	/* expire, requeue, state and anything else: no change of state */
};

static enum cmp_tl_event event_of(const char *name, bool *known)
{
	/* the models' other reasons (sched-model/policies.c): no change of
	 * running, runnable or asleep */
	static const char *const passive[] = {
		"expire", "requeue", "state", "tick", "recalc", "charge", "swap",
		"yield", "nice", "setsched", "refund", "migrate",
	};

	*known = true;
	for (size_t i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
		if (!strcmp(name, event_names[i].name))
			return event_names[i].ev;
	for (size_t i = 0; i < sizeof(passive) / sizeof(passive[0]); i++)
		if (!strcmp(name, passive[i]))
			return CMP_EV_OTHER;
	*known = false;
	return CMP_EV_OTHER;
}

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
			return sr_fail(d, SR_EINTERNAL, "out of memory"), NULL;
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
			return sr_fail(d, SR_EINTERNAL, "out of memory"), -1;
		oc->n = p;
	}
	*occ = ++oc->n[base];
	return 0;
}

int cmp_timeline_pass(struct cmp_set *s, const char *dir, bool create,
		     cmp_tl_fn fn, void *ctx, struct sr_diag *d)
{
	struct cmp_tsv t;
	struct pidmap pm = { 0 };
	struct occ_count oc = { 0 };
	char *path = sr_path_join(dir, "timeline.tsv", NULL);
	int64_t last_time = INT64_MIN;
	int rc;

	if (!path)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	rc = cmp_tsv_open(&t, path, timeline_cols, TC__N, d);
	free(path);
	if (rc)
		return rc;
	while ((rc = cmp_tsv_next(&t, d)) == 1) {
		struct cmp_tl_row row;
		const char *comm = cmp_tsv_get(&t, TC_COMM);
		struct pid_slot *ps;
		int64_t pid, v;
		bool known, fresh;

		if (cmp_tsv_int(&t, TC_TIME, &row.time_ns, d) ||
		    cmp_tsv_int(&t, TC_PID, &pid, d))
			break;
		if (row.time_ns < last_time) {
			sr_fail(d, SR_EDATA,
				"%s:%llu: expected rows sorted by time_ns, got %lld after %lld",
				t.path, (unsigned long long)t.line,
				(long long)row.time_ns, (long long)last_time);
			break;
		}
		last_time = row.time_ns;
		if (pid < 0 || pid > INT32_MAX) {
			sr_fail(d, SR_EDATA, "%s:%llu: expected a pid, got %lld",
				t.path, (unsigned long long)t.line,
				(long long)pid);
			break;
		}
		row.ev = event_of(cmp_tsv_get(&t, TC_EVENT), &known);
		if (!known)
			s->unknown_events++;
		row.prio = row.static_prio = -1;
		if (cmp_tsv_has(&t, TC_PRIO)) {
			if (cmp_tsv_int(&t, TC_PRIO, &v, d))
				break;
			row.prio = (int)v;
		}
		if (cmp_tsv_has(&t, TC_SPRIO)) {
			if (cmp_tsv_int(&t, TC_SPRIO, &v, d))
				break;
			row.static_prio = (int)v;
		}
		ps = pidmap_get(&pm, (int32_t)pid, d);
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
			    row.ev == CMP_EV_REAP || row.ev == CMP_EV_OTHER)
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
			if (occ_next(s, &oc, (int32_t)pid, comm, create, &occ, d))
				break;
			k = occ ? (create ? task_get(s, (int32_t)pid, comm, occ, d)
					  : cmp_set_find(s, (int32_t)pid, comm, occ))
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
	cmp_tsv_close(&t);
	return d->code;
}

/* ---- latency.tsv ------------------------------------------------------- */

enum { LC_WAKE, LC_RUN, LC_DELAY, LC_PID, LC_COMM, LC__N };

static const struct cmp_col latency_cols[LC__N] = {
	[LC_WAKE] = { "wake_ns", true },
	[LC_RUN] = { "run_ns", true },
	[LC_DELAY] = { "delay_ns", true },
	[LC_PID] = { "pid", true },
	[LC_COMM] = { "comm", true },
};

int cmp_latency_pass(struct cmp_set *s, const char *dir, cmp_lat_fn fn,
		    void *ctx, struct sr_diag *d)
{
	struct cmp_tsv t;
	char *path = sr_path_join(dir, "latency.tsv", NULL);
	int rc;

	if (!path)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	rc = cmp_tsv_open(&t, path, latency_cols, LC__N, d);
	free(path);
	if (rc)
		return rc;
	while ((rc = cmp_tsv_next(&t, d)) == 1) {
		struct cmp_lat_row row;
		const char *comm = cmp_tsv_get(&t, LC_COMM);
		int64_t pid;
		long k;

		if (cmp_tsv_int(&t, LC_WAKE, &row.wake_ns, d) ||
		    cmp_tsv_int(&t, LC_RUN, &row.run_ns, d) ||
		    cmp_tsv_int(&t, LC_DELAY, &row.delay_ns, d) ||
		    cmp_tsv_int(&t, LC_PID, &pid, d))
			break;
		if (row.delay_ns < 0) {
			sr_fail(d, SR_EDATA,
				"%s:%llu: expected a delay >= 0, got %lld",
				t.path, (unsigned long long)t.line,
				(long long)row.delay_ns);
			break;
		}
		if (pid < 0 || pid > INT32_MAX)
			continue;
		k = cmp_set_find(s, (int32_t)pid, comm, 1);
		if (k < 0)
			continue;
		/* a later occurrence that already existed at wake_ns */
		for (uint32_t occ = 2;; occ++) {
			long k2 = cmp_set_find(s, (int32_t)pid, comm, occ);

			if (k2 < 0 || !s->tasks[k2].in_ref ||
			    s->tasks[k2].first_ns > row.wake_ns)
				break;
			k = k2;
		}
		row.task = k;
		if (fn(ctx, &row, d))
			break;
	}
	cmp_tsv_close(&t);
	return d->code;
}

int cmp_set_read_summaries(struct cmp_set *s, struct sr_diag *d)
{
	for (size_t r = 0; r < s->nruns; r++)
		if (load_summary(s, r, d))
			return d->code;
	return SR_OK;
}
