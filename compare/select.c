/*
 * select: task regexes, the diff order and the default plot selection
 * (see select.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "compare/select.h"
#include "lib/regex.h"

struct cmp_taskre {
	struct sr_regex *re;
	char *what;             /* the option and pattern, for messages */
};

int cmp_taskre_new(struct cmp_taskre **out, const char *regex, const char *opt,
		   struct sr_diag *d)
{
	struct cmp_taskre *re;
	char msg[160], q[512], what[600];
	size_t off;
	int rc;

	*out = NULL;
	sr_quote(q, sizeof(q), regex, strlen(regex));
	snprintf(what, sizeof(what), "--task '%s'", q);
	re = calloc(1, sizeof(*re));
	if (!re || !(re->what = strdup(opt ? opt : what))) {
		free(re);
		return sr_oom(d);
	}
	rc = sr_regex_new(&re->re, regex, SR_REGEX_NUL, msg, sizeof(msg),
			  &off);
	if (rc) {
		cmp_taskre_free(re);
		if (rc != SR_EUSAGE)
			return sr_oom(d);
		if (!opt)
			return sr_fail(d, SR_EUSAGE, "--task '%s': expected a "
				       "pcre2 regex, got an error at offset "
				       "%zu: %s", q, off, msg);
		return sr_fail(d, SR_EUSAGE, "%s: expected a pcre2 regex, got "
			       "an error at offset %zu: %s", opt, off, msg);
	}
	*out = re;
	return SR_OK;
}

int cmp_taskre_match(const struct cmp_taskre *re, const char *comm,
		     struct sr_diag *d)
{
	int m = sr_regex_match(re->re, comm);

	if (m < 0)
		return sr_regex_fail(d, re->what, comm, m), -1;
	return m;
}

void cmp_taskre_free(struct cmp_taskre *re)
{
	if (!re)
		return;
	sr_regex_free(re->re);
	free(re->what);
	free(re);
}

long long cmp_p99_change(const struct cmp_task *t, size_t a, size_t b)
{
	return (long long)t->figs[b].p99_ns - (long long)t->figs[a].p99_ns;
}

struct okey {
	long idx;
	int rank;                 /* sort ascending first */
	long long k1, k2;         /* then descending */
	const struct cmp_task *t;
};

static long long llabs_(long long v)
{
	return v < 0 ? -v : v;
}

static int cmp_okey(const void *pa, const void *pb)
{
	const struct okey *a = pa, *b = pb;
	int c;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->k1 != b->k1)
		return a->k1 > b->k1 ? -1 : 1;
	if (a->k2 != b->k2)
		return a->k2 > b->k2 ? -1 : 1;
	if (a->t->pid != b->t->pid)
		return a->t->pid < b->t->pid ? -1 : 1;
	c = strcmp(a->t->comm, b->t->comm);
	if (c)
		return c;
	return (a->t->occ > b->t->occ) - (a->t->occ < b->t->occ);
}

/* Runs a and b, or with b == SIZE_MAX every run against a. */
static int order(const struct cmp_set *s, size_t a, size_t b,
		 const struct cmp_taskre *re, long **out, size_t *n,
		 struct sr_diag *d)
{
	struct okey *k = malloc((s->ntasks + 1) * sizeof(*k));
	size_t m = 0;

	*out = NULL;
	*n = 0;
	if (!k)
		return sr_oom(d);
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct cmp_task *t = &s->tasks[i];
		bool present = false;
		int hit;

		for (size_t r = 0; r < s->nruns; r++)
			if ((r == a || r == b || b == SIZE_MAX) &&
			    t->figs[r].present)
				present = true;
		if (!present)
			continue;
		if (re && (hit = cmp_taskre_match(re, t->comm, d)) <= 0) {
			if (hit < 0) {
				free(k);
				return d->code;
			}
			continue;
		}
		if (!cmp_task_shown(s, t))
			continue;
		k[m].idx = (long)i;
		k[m].t = t;
		k[m].rank = t->notice;
		k[m].k1 = k[m].k2 = 0;
		for (size_t r = 0; r < s->nruns; r++) {
			long long c1, c2;

			if (r == a || (b != SIZE_MAX && r != b))
				continue;
			c1 = llabs_(cmp_p99_change(t, a, r));
			c2 = llabs_((long long)t->figs[r].max_ns -
				    (long long)t->figs[a].max_ns);
			if (c1 > k[m].k1)
				k[m].k1 = c1;
			if (c2 > k[m].k2)
				k[m].k2 = c2;
		}
		m++;
	}
	sr_qsort(k, m, sizeof(*k), cmp_okey);
	*out = malloc((m + 1) * sizeof(**out));
	if (!*out) {
		free(k);
		return sr_oom(d);
	}
	for (size_t i = 0; i < m; i++)
		(*out)[i] = k[i].idx;
	*n = m;
	free(k);
	return SR_OK;
}

int cmp_diff_order(const struct cmp_set *s, size_t a, size_t b,
		  const struct cmp_taskre *re, long **out, size_t *n,
		  struct sr_diag *d)
{
	return order(s, a, b, re, out, n, d);
}

int cmp_diff_order_all(const struct cmp_set *s, const struct cmp_taskre *re,
		       long **out, size_t *n, struct sr_diag *d)
{
	return order(s, 0, s->nruns > 1 ? SIZE_MAX : 0, re, out, n, d);
}

bool cmp_enough_waits(const struct cmp_set *s, const struct cmp_task *t,
		      size_t a, size_t b, uint64_t need)
{
	for (size_t r = 0; r < s->nruns; r++)
		if ((r == a || r == b || b == SIZE_MAX) &&
		    t->figs[r].ndelays < need)
			return false;
	return true;
}

/* t waited under some run. */
static bool waited(const struct cmp_set *s, const struct cmp_task *t)
{
	for (size_t r = 0; r < s->nruns; r++)
		if (t->figs[r].present && t->figs[r].ndelays)
			return true;
	return false;
}

/* The largest p99 of t under any run. */
static int64_t worst_p99(const struct cmp_set *s, const struct cmp_task *t)
{
	int64_t w = 0;

	for (size_t r = 0; r < s->nruns; r++)
		if (t->figs[r].present && t->figs[r].p99_ns > w)
			w = t->figs[r].p99_ns;
	return w;
}

/* The worst task of each group, in the groups' order, into sel (room for
 * max); returns how many. */
static size_t group_worst(struct cmp_set *s, long *sel, size_t max)
{
	size_t m = 0;
	int top = -1;

	for (size_t i = 0; i < s->ntasks; i++)
		if (s->tasks[i].group > top)
			top = s->tasks[i].group;
	for (int g = 0; g <= top && m < max; g++) {
		long best = -1;
		bool best_many = false;

		for (size_t i = 0; i < s->ntasks; i++) {
			const struct cmp_task *t = &s->tasks[i];
			bool many;

			if (t->group != g || !cmp_task_shown(s, t) ||
			    !waited(s, t))
				continue;
			many = cmp_enough_waits(s, t, 0, SIZE_MAX,
						CMP_SELECT_MIN_WAITS);
			if (best < 0 || (many && !best_many) ||
			    (many == best_many &&
			     worst_p99(s, t) > worst_p99(s, &s->tasks[best]))) {
				best = (long)i;
				best_many = many;
			}
		}
		if (best >= 0) {
			s->tasks[best].selected = true;
			sel[m++] = best;
		}
	}
	return m;
}

int cmp_select_plot_tasks(struct cmp_set *s, const struct cmp_taskre *re,
			 size_t max, long **order, size_t *n,
			 struct sr_diag *d)
{
	size_t a = 0, b = s->nruns > 1 ? 1 : 0;
	long *byp99 = NULL;
	size_t nby = 0, m = 0;
	long *sel;

	*order = NULL;
	*n = 0;
	for (size_t i = 0; i < s->ntasks; i++)
		s->tasks[i].selected = false;
	if (cmp_diff_order_all(s, re, &byp99, &nby, d))
		return d->code;
	sel = malloc((max + 1) * sizeof(*sel));
	if (!sel) {
		free(byp99);
		return sr_oom(d);
	}
	if (!re)
		m = group_worst(s, sel, max);
	if (b == a && !re) {
		/* one run: the largest p99 delays */
		struct okey *k = malloc((nby + 1) * sizeof(*k));

		if (!k) {
			free(sel);
			free(byp99);
			return sr_oom(d);
		}
		for (size_t i = 0; i < nby; i++) {
			k[i].idx = byp99[i];
			k[i].t = &s->tasks[byp99[i]];
			k[i].rank = k[i].t->notice;
			k[i].k1 = k[i].t->figs[a].p99_ns;
			k[i].k2 = k[i].t->figs[a].max_ns;
		}
		sr_qsort(k, nby, sizeof(*k), cmp_okey);
		for (size_t i = 0; i < nby; i++)
			byp99[i] = k[i].idx;
		free(k);
	}
	/*
	 * A p99 from a handful of waits is noise, not a change: first the
	 * tasks with enough waits under both runs, then, if there is room,
	 * any task that waited at all.
	 */
	for (int pass = 0; pass < 2; pass++) {
		uint64_t need = pass ? 1 : CMP_SELECT_MIN_WAITS;

		for (size_t i = 0; i < nby && m < max; i++) {
			struct cmp_task *t = &s->tasks[byp99[i]];

			if (t->selected)
				continue;
			if (!re && !cmp_enough_waits(s, t, a, SIZE_MAX, need))
				continue;
			t->selected = true;
			sel[m++] = byp99[i];
		}
		if (re)
			break;
	}
	free(byp99);
	*order = sel;
	*n = m;
	return SR_OK;
}
