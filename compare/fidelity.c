/*
 * fidelity: a replayed run held against the recording (fidelity.h says
 * which figures and why): tasks matched by pid and name, medians of
 * |log2| over the tasks with enough switches, and the CPU per window
 * from the runs' timeline rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "compare/fidelity.h"
#include "lib/grow.h"

double cmp_fid_factor(double log2)
{
	return exp2(log2);
}

static double l2(int64_t r, int64_t o)
{
	double v = log2(((double)r + CMP_FID_EPS_NS) /
			((double)o + CMP_FID_EPS_NS));

	return v < 0 ? -v : v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the median of v[0..n-1] (sorted here): the mean of the two middle
   ones for an even n */
static double median(double *v, size_t n)
{
	if (!n)
		return 0;
	sr_qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int row_cmp(const struct cmp_fid_row *a, const struct cmp_fid_row *b)
{
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return strcmp(a->comm ? a->comm : "", b->comm ? b->comm : "");
}

/* farther first; ties by pid */
static int far_cmp(const void *x, const void *y)
{
	const struct cmp_fid_task *a = x, *b = y;
	double ma = a->l50 > a->l99 ? a->l50 : a->l99;
	double mb = b->l50 > b->l99 ? b->l50 : b->l99;

	if (ma != mb)
		return ma > mb ? -1 : 1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

int cmp_fid_compute(const struct cmp_fid_row *obs, size_t nobs,
		    const struct cmp_fid_row *rep, size_t nrep,
		    int64_t start, int64_t span_ns, struct cmp_fid *f,
		    struct sr_diag *d)
{
	double *a = NULL, *b = NULL;
	int64_t oend = start, rend = start, omig = 0, rmig = 0;
	bool omig_known = true, rmig_known = true;
	size_t i = 0, j = 0;
	struct cmp_fid_task *far = NULL;

	f->ntasks = nobs;
	f->judged = f->within2x = 0;
	f->o_sw = f->r_sw = f->sleeps = f->early = f->late = 0;
	f->task = NULL;
	f->nfar = 0;
	a = malloc((nobs + 1) * sizeof(*a));
	b = malloc((nobs + 1) * sizeof(*b));
	f->task = malloc((nobs + 1) * sizeof(*f->task));
	if (!a || !b || !f->task)
		goto oom;
	for (size_t k = 0; k < nobs; k++) {
		f->o_sw += obs[k].switches;
		f->sleeps += obs[k].wakeups;
		if (obs[k].finish_ns > oend)
			oend = obs[k].finish_ns;
		if (obs[k].migrations < 0)
			omig_known = false;
		else
			omig += obs[k].migrations;
	}
	for (size_t k = 0; k < nrep; k++) {
		f->r_sw += rep[k].switches;
		f->early += rep[k].early;
		f->late += rep[k].late;
		if (rep[k].finish_ns > rend)
			rend = rep[k].finish_ns;
		if (rep[k].migrations < 0)
			rmig_known = false;
		else
			rmig += rep[k].migrations;
	}
	/* both sorted by (pid, comm): walk them together */
	while (i < nobs && j < nrep) {
		int c = row_cmp(&obs[i], &rep[j]);
		struct cmp_fid_task *t;

		if (c < 0) {
			i++;
			continue;
		}
		if (c > 0) {
			j++;
			continue;
		}
		if (obs[i].switches >= CMP_FID_MIN_SWITCHES) {
			t = &f->task[f->judged];
			memset(t, 0, sizeof(*t));
			t->pid = obs[i].pid;
			snprintf(t->comm, sizeof(t->comm), "%s",
				 obs[i].comm ? obs[i].comm : "");
			t->o_sw = obs[i].switches;
			t->r_sw = rep[j].switches;
			t->o50 = obs[i].p50_ns;
			t->r50 = rep[j].p50_ns;
			t->o99 = obs[i].p99_ns;
			t->r99 = rep[j].p99_ns;
			t->l50 = l2(t->r50, t->o50);
			t->l99 = l2(t->r99, t->o99);
			a[f->judged] = t->l50;
			b[f->judged] = t->l99;
			if (t->l50 <= 1 && t->l99 <= 1)
				f->within2x++;
			f->judged++;
		}
		i++;
		j++;
	}
	f->p50 = median(a, f->judged);
	f->p99 = median(b, f->judged);
	f->o_mig_s = omig_known && span_ns > 0 ?
		(double)omig * 1e9 / (double)span_ns : -1;
	f->r_mig_s = rmig_known && span_ns > 0 ?
		(double)rmig * 1e9 / (double)span_ns : -1;
	f->o_end_s = (double)(oend - start) / 1e9;
	f->r_end_s = (double)(rend - start) / 1e9;
	if (f->judged) {
		far = malloc(f->judged * sizeof(*far));
		if (!far)
			goto oom;
		memcpy(far, f->task, f->judged * sizeof(*far));
		sr_qsort(far, f->judged, sizeof(*far), far_cmp);
		f->nfar = f->judged < CMP_FID_FARTHEST ? f->judged
						       : CMP_FID_FARTHEST;
		memcpy(f->far, far, f->nfar * sizeof(*far));
	}
	free(far);
	free(a);
	free(b);
	return SR_OK;
oom:
	free(a);
	free(b);
	free(f->task);
	f->task = NULL;
	return sr_oom(d);
}

void cmp_fid_release(struct cmp_fid *f)
{
	free(f->task);
	f->task = NULL;
}

static int fid_row_cmp(const void *x, const void *y)
{
	return row_cmp(x, y);
}

int cmp_fid_rows_of(const struct sr_replay_policy *p, struct cmp_fid_row **out,
		    struct sr_diag *d)
{
	struct cmp_fid_row *v = malloc((p->nrows + 1) * sizeof(*v));

	*out = NULL;
	if (!v)
		return sr_oom(d);
	for (size_t i = 0; i < p->nrows; i++) {
		const struct sr_replay_row *r = &p->rows[i];
		int64_t pc[2];
		static const double ps[2] = { 50, 99 };

		if (r->m->delays)
			sr_delays_percentiles(r->m->delays, ps, pc, 2);
		else
			pc[0] = pc[1] = 0;
		v[i] = (struct cmp_fid_row){
			.pid = r->m->pid, .comm = r->m->comm,
			.switches = r->m->switches, .wakeups = r->m->wakeups,
			.p50_ns = pc[0], .p99_ns = pc[1],
			.finish_ns = r->x.finish_ts,
			.early = r->x.early_wakes > 0 ?
				 (uint64_t)r->x.early_wakes : 0,
			.late = r->x.late_wakeups > 0 ?
				(uint64_t)r->x.late_wakeups : 0,
			.migrations = r->x.migrations,
		};
	}
	sr_qsort(v, p->nrows, sizeof(*v), fid_row_cmp);
	*out = v;
	return SR_OK;
}

/* ---- the CPU per window ---------------------------------------------------- */

/* A task of a run: its interval on the CPU open since `since`. */
struct wtask {
	int64_t since;            /* -1: not running */
};

/* A cell: CPU ns of a task in a window (a hash of (window, task)). */
struct cell {
	uint64_t key;             /* window << 32 | task, + 1; 0 empty */
	int64_t ns;
};

struct wrun {
	struct wtask *t;
	size_t nt;
	struct cell *c;
	size_t cap, n;
	int oom;
};

struct cmp_fid_windows {
	struct wrun *run;
	size_t nruns;
	int64_t window_ns;
	int64_t origin;           /* the first row's time: windows from it */
	bool started;
};

int cmp_fid_windows_new(struct cmp_fid_windows **out, size_t nruns,
			int64_t window_ns, struct sr_diag *d)
{
	struct cmp_fid_windows *w = calloc(1, sizeof(*w));

	*out = NULL;
	if (!w || !(w->run = calloc(nruns ? nruns : 1, sizeof(*w->run)))) {
		free(w);
		return sr_oom(d);
	}
	w->nruns = nruns;
	w->window_ns = window_ns > 0 ? window_ns : CMP_FID_WINDOW_NS;
	*out = w;
	return SR_OK;
}

void cmp_fid_windows_free(struct cmp_fid_windows *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nruns; i++) {
		free(w->run[i].t);
		free(w->run[i].c);
	}
	free(w->run);
	free(w);
}

static uint64_t hmix(uint64_t k)
{
	k ^= k >> 31;
	k *= 0x9e3779b97f4a7c15ULL;
	k ^= k >> 29;
	return k;
}

static struct cell *cell_at(struct wrun *r, uint64_t key)
{
	size_t i;

	if (2 * (r->n + 1) > r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 1024;
		struct cell *c = calloc(cap, sizeof(*c));

		if (!c)
			return NULL;
		for (size_t k = 0; k < r->cap; k++) {
			if (!r->c[k].key)
				continue;
			for (i = hmix(r->c[k].key) & (cap - 1); c[i].key;
			     i = (i + 1) & (cap - 1))
				;
			c[i] = r->c[k];
		}
		free(r->c);
		r->c = c;
		r->cap = cap;
	}
	for (i = hmix(key) & (r->cap - 1); r->c[i].key && r->c[i].key != key;
	     i = (i + 1) & (r->cap - 1))
		;
	if (!r->c[i].key) {
		r->c[i].key = key;
		r->n++;
	}
	return &r->c[i];
}

/* task's CPU from a to b, split at the windows' edges */
static void add_cpu(struct cmp_fid_windows *w, struct wrun *r, uint32_t task,
		    int64_t a, int64_t b)
{
	while (a < b && !r->oom) {
		int64_t win = (a - w->origin) / w->window_ns;
		int64_t edge = w->origin + (win + 1) * w->window_ns;
		int64_t to = b < edge ? b : edge;
		struct cell *c = cell_at(r, ((uint64_t)win << 32 | task) + 1);

		if (!c) {
			r->oom = 1;
			return;
		}
		c->ns += to - a;
		a = to;
	}
}

int cmp_fid_windows_row(void *ctx, size_t run, const struct sr_tl_row *row)
{
	struct cmp_fid_windows *w = ctx;
	struct wrun *r;
	bool on, off;

	if (run >= w->nruns)
		return SR_OK;
	r = &w->run[run];
	if (!w->started) {
		w->started = true;
		w->origin = row->t;
	}
	if (row->t < w->origin)
		return SR_OK;
	on = !strcmp(row->event, "run");
	off = !strcmp(row->event, "preempt") || !strcmp(row->event, "block") ||
	      !strcmp(row->event, "exit");
	if (!on && !off)
		return SR_OK;
	if (row->task >= r->nt) {
		struct wtask *t = sr_grow(r->t, &r->nt, row->task, sizeof(*t),
					  256, 0xff);

		if (!t)
			return SR_EINTERNAL;
		r->t = t;
	}
	if (r->t[row->task].since >= 0)
		add_cpu(w, r, row->task, r->t[row->task].since, row->t);
	r->t[row->task].since = on ? row->t : -1;
	return r->oom ? SR_EINTERNAL : SR_OK;
}

void cmp_fid_windows_figure(struct cmp_fid_windows *w, size_t obs,
			    size_t rep, int64_t end, struct cmp_fid *f)
{
	struct wrun *o, *p;
	long double total = 0, diff = 0;

	f->have_windows = false;
	if (!w || obs >= w->nruns || rep >= w->nruns)
		return;
	o = &w->run[obs];
	p = &w->run[rep];
	/* close what still runs */
	for (size_t k = 0; k < 2; k++) {
		struct wrun *r = k ? p : o;

		for (size_t i = 0; i < r->nt; i++)
			if (r->t[i].since >= 0 && r->t[i].since < end) {
				add_cpu(w, r, (uint32_t)i, r->t[i].since, end);
				r->t[i].since = -1;
			}
	}
	if (o->oom || p->oom)
		return;
	/* sum |p - o| over the cells of either */
	for (size_t i = 0; i < o->cap; i++) {
		struct cell *c;

		if (!o->c[i].key)
			continue;
		total += o->c[i].ns;
		c = cell_at(p, o->c[i].key);
		if (!c)
			return;
		diff += c->ns > o->c[i].ns ? c->ns - o->c[i].ns
					   : o->c[i].ns - c->ns;
		c->ns = -c->ns - 1;	/* seen: marked, restored below */
	}
	for (size_t i = 0; i < p->cap; i++) {
		if (!p->c[i].key)
			continue;
		if (p->c[i].ns < 0)
			p->c[i].ns = -(p->c[i].ns + 1);
		else
			diff += p->c[i].ns;
	}
	f->window_ns = w->window_ns;
	f->cpu_err = total > 0 ? (double)(diff / (2 * total)) : 0;
	f->have_windows = true;
}

/* ---- the recording kernel's model ------------------------------------------ */

const char *cmp_fid_model(const char *release)
{
	unsigned a = 0, b = 0, c = 0;

	if (!release || sscanf(release, "%u.%u.%u", &a, &b, &c) < 2)
		return "eevdf-6.18";
	if (a > 6 || (a == 6 && b >= 12))
		return "eevdf-6.18";
	if (a == 6 && b >= 6)
		return "eevdf";
	if (a >= 3 || (a == 2 && b == 6 && c >= 23))
		return "cfs";
	return "stock";
}
