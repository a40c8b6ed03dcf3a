/*
 * verdict: per group of tasks, better or worse under B, the figure that
 * decided, and the main reason (see verdict.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "compare/behave.h"
#include "compare/diff.h"
#include "compare/select.h"
#include "compare/verdict.h"
#include "compare/why.h"
#include "lib/fmt.h"
#include "lib/parse-options.h"
#include "replay/metrics.h"

/*
 * The groups, tried in this order on a task's comm (unanchored pcre2;
 * the anchors say where).  mpv's audio thread is audio, its other
 * threads a display client; a shell is a terminal's unless a build task
 * started it (below).
 */
const struct cmp_group_def cmp_groups_default[] = {
	{ "audio", "^(mpv/ao|ao$|pulseaudio|pipewire|wireplumber|jackd|"
		   "xmms|audacious|mpg123|aplay|paplay|pacat|alsa|sox$|play$|"
		   "rhythmbox|snd[-_])",
	  "audio players and sound servers" },
	{ "display", "^(Xorg|Xvfb|X$|Xwayland|Xephyr|gnome-shell|kwin|mutter|"
		     "weston|sway|compiz|xfwm4|openbox|i3$|metacity|"
		     "plasmashell|firefox|chrom|Web Content|mpv|vlc|mplayer|"
		     "xdotool|xkbcomp|xeyes|xclock|glxgears|x11perf|gimp|"
		     "evince|eog)",
	  "the display server and its clients" },
	{ "terminal", "^(xterm|.*-terminal|konsole|u?rxvt|alacritty|kitty|"
		      "foot$|st$|tmux|screen$|bash$|zsh$|fish$|dash$|ksh$|"
		      "tcsh$|csh$|sh$|ssh|sshd|less$|vim?$|emacs|nano$)",
	  "terminals and shells" },
	{ "build", "^(make|gmake|ninja|cc1|cc1plus|cc1obj|gcc|g\\+\\+|cc$|"
		   "c\\+\\+|cpp$|clang|as$|ld$|ld\\.|collect2|lto|ar$|ranlib|"
		   "objtool|nm$|objcopy|objdump|strip$|fixdep|modpost|"
		   "genksyms|pahole|rustc|cargo|javac|go$)",
	  "the compile and other batch work" },
	{ "other", NULL, "everything else" },
	{ NULL, NULL, NULL },
};

#define BUILD_GROUP "build"

int cmp_opt_group(const struct po_option *opt, const char *arg,
		  struct sr_diag *d)
{
	struct cmp_group_opts *g = opt->value;
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : 0;

	if (g->n == CMP_MAX_GROUPS - 1)
		return sr_fail(d, SR_EUSAGE, "--group: at most %d",
			       CMP_MAX_GROUPS - 1);
	if (!eq || !len || len >= CMP_GROUP_NAME_MAX || !eq[1])
		return sr_fail(d, SR_EUSAGE, "--group: expected NAME=REGEX (a "
			       "name of at most %d characters and a pcre2 "
			       "regex), got '%s'", CMP_GROUP_NAME_MAX - 1, arg);
	memcpy(g->name[g->n], arg, len);
	g->name[g->n][len] = '\0';
	g->regex[g->n] = eq + 1;
	g->n++;
	return SR_OK;
}

/* ---- the groups ------------------------------------------------------------ */

struct table {
	char name[CMP_MAX_GROUPS][CMP_GROUP_NAME_MAX];
	const char *what[CMP_MAX_GROUPS];
	struct cmp_taskre *re[CMP_MAX_GROUPS]; /* NULL: the rest */
	size_t n;
	int build;              /* the build group's index, -1 */
};

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->n; i++)
		cmp_taskre_free(t->re[i]);
}

/* --group's first (in the order given; one named as a default replaces
 * it), then the defaults. */
static int table_of(struct table *t, const struct cmp_group_opts *o,
		    struct sr_diag *d)
{
	memset(t, 0, sizeof(*t));
	t->build = -1;
	for (size_t i = 0; o && i < o->n; i++) {
		const char *what = "--group";

		for (size_t k = 0; cmp_groups_default[k].name; k++)
			if (!strcmp(cmp_groups_default[k].name, o->name[i]))
				what = cmp_groups_default[k].what;
		snprintf(t->name[t->n], CMP_GROUP_NAME_MAX, "%s", o->name[i]);
		t->what[t->n] = what;
		{
			char opt[4 * CMP_GROUP_NAME_MAX + 600], n[4 * CMP_GROUP_NAME_MAX];
			char r[512];

			snprintf(opt, sizeof(opt), "--group '%s=%s'",
				 sr_quote(n, sizeof(n), o->name[i],
					  strlen(o->name[i])),
				 sr_quote(r, sizeof(r), o->regex[i],
					  strlen(o->regex[i])));
			if (cmp_taskre_new(&t->re[t->n], o->regex[i], opt, d))
				return d->code;
		}
		t->n++;
	}
	for (size_t k = 0; cmp_groups_default[k].name; k++) {
		const struct cmp_group_def *g = &cmp_groups_default[k];
		size_t i;

		for (i = 0; i < t->n; i++)
			if (!strcmp(t->name[i], g->name))
				break;
		if (i < t->n)
			continue; /* replaced by --group */
		if (t->n == CMP_MAX_GROUPS)
			break;
		snprintf(t->name[t->n], CMP_GROUP_NAME_MAX, "%s", g->name);
		t->what[t->n] = g->what;
		if (g->regex) {
			char opt[CMP_GROUP_NAME_MAX + 600];

			snprintf(opt, sizeof(opt), "the %s group's regex '%s'",
				 g->name, g->regex);
			if (cmp_taskre_new(&t->re[t->n], g->regex, opt, d))
				return d->code;
		}
		t->n++;
	}
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->name[i], BUILD_GROUP))
			t->build = (int)i;
	return SR_OK;
}

/* The group comm's name puts it in (the first whose regex matches), or
 * -1 with d said when pcre2 could not decide. */
static int group_by_name(const struct table *t, const char *comm,
			 struct sr_diag *d)
{
	for (size_t i = 0; i < t->n; i++) {
		int m = t->re[i] ? cmp_taskre_match(t->re[i], comm, d) : 1;

		if (m)
			return m < 0 ? -1 : (int)i;
	}
	return (int)t->n - 1;
}

/* A task started, directly or not, by a build task is build work
 * (byname: each task's group by its own name). */
static bool under_build(const struct cmp_set *s, const struct table *t,
			const int *byname, const struct cmp_task *x)
{
	long p = x->parent;

	for (int depth = 0; p >= 0 && depth < 64; depth++) {
		if (byname[p] == t->build)
			return true;
		p = s->tasks[p].parent;
	}
	return false;
}

/*
 * Every task's group, and its rank among the tasks a person notices
 * (tasks[].notice, lowest first: compare/select.h): a task of a group
 * of its own kind (audio, display, terminal, --group's), in the table's
 * order; then the periodic and interactive tasks; then the others; the
 * batch tasks last.
 */
static int assign(struct cmp_set *s, const struct table *t,
		  struct sr_diag *d)
{
	int *byname = malloc((s->ntasks ? s->ntasks : 1) * sizeof(*byname));

	if (!byname)
		return sr_oom(d);
	for (size_t i = 0; i < s->ntasks; i++)
		if ((byname[i] = group_by_name(t, s->tasks[i].comm, d)) < 0) {
			free(byname);
			return d->code;
		}
	for (size_t i = 0; i < s->ntasks; i++)
		s->tasks[i].group = byname[i];
	if (t->build >= 0 && s->procs)
		for (size_t i = 0; i < s->ntasks; i++)
			if (s->tasks[i].group != t->build &&
			    under_build(s, t, byname, &s->tasks[i]))
				s->tasks[i].group = t->build;
	free(byname);
	for (size_t i = 0; i < s->ntasks; i++) {
		struct cmp_task *x = &s->tasks[i];
		bool own = x->group >= 0 && x->group != t->build &&
			   t->re[x->group];

		x->notice = x->cls == CMP_CLASS_BATCH ? CMP_NOTICE_BATCH :
			    own ? x->group :
			    x->period_ns > 0 || x->cls == CMP_CLASS_INTERACTIVE ?
			    CMP_NOTICE_PERIODIC : CMP_NOTICE_OTHER;
	}
	return SR_OK;
}

int cmp_verdict_assign(struct cmp_set *s, struct sr_diag *d)
{
	struct table t;
	int rc = table_of(&t, s->groups, d);

	if (rc == SR_OK)
		rc = assign(s, &t, d);
	table_free(&t);
	return rc ? d->code : SR_OK;
}

/* ---- the figures ------------------------------------------------------------ */

struct pool {
	struct sr_delays *dist;
	int group;
	bool no_batch;          /* leave the batch tasks' waits out */
	struct cmp_set *s;
};

static int pool_row(void *ctx, const struct cmp_lat_row *row, struct sr_diag *d)
{
	struct pool *p = ctx;
	const struct cmp_task *t = &p->s->tasks[row->task];

	if (t->group != p->group || !cmp_task_shown(p->s, t) ||
	    (p->no_batch && t->cls == CMP_CLASS_BATCH))
		return SR_OK;
	if (sr_delays_add(p->dist, row->delay_ns))
		return sr_oom(d);
	return SR_OK;
}

/*
 * p99 and max of the group's waits under run r, pooled in one delay
 * distribution: the one the replay keeps per task (replay/metrics.h), so
 * a group of one task has that task's own p99 (lib/rank.h).
 */
static int pooled(struct cmp_set *s, size_t r, int group, bool no_batch,
		  int64_t *p99, int64_t *max, size_t *n, struct sr_diag *d)
{
	struct pool p = { .group = group, .no_batch = no_batch, .s = s };
	int rc;

	*n = 0;
	*p99 = *max = 0;
	if (!(p.dist = sr_delays_new()))
		return sr_oom(d);
	rc = cmp_latency_pass(s, s->runs[r].res, pool_row, &p, d);
	if (rc == SR_OK) {
		*n = (size_t)sr_delays_count(p.dist);
		*p99 = sr_delays_percentile(p.dist, 99);
		*max = sr_delays_percentile(p.dist, 100);
	}
	sr_delays_free(p.dist);
	return rc;
}

struct gpred {
	const struct cmp_set *s;
	int group;
};

static bool in_group(const struct cmp_task *t, void *ctx)
{
	const struct gpred *g = ctx;

	return t->group == g->group && cmp_task_shown(g->s, t);
}

/* (pid, comm) is a task of the set none of whose occurrences is in the
   recorded command's tree. */
static bool outside_cmd(const struct cmp_set *s, int32_t pid, const char *comm)
{
	bool seen = false;
	long k;

	if (!s->has_cmd)
		return false;
	for (uint32_t occ = 1; (k = cmp_set_find(s, pid, comm, occ)) >= 0; occ++) {
		if (s->tasks[k].in_cmd)
			return false;
		seen = true;
	}
	return seen;
}

/* ---- building --------------------------------------------------------------- */

struct name_n {
	const char *comm;
	size_t n;
	int64_t cpu;
};

static int by_cpu(const void *pa, const void *pb)
{
	const struct name_n *a = pa, *b = pb;

	if (a->cpu != b->cpu)
		return a->cpu > b->cpu ? -1 : 1;
	return strcmp(a->comm, b->comm);
}

/* "mpv/ao, mpv x2, ..." by CPU used in the reference run */
static int group_names(const struct cmp_set *s, int group, size_t a,
		       char *buf, size_t len, struct sr_diag *d)
{
	struct name_n *v = calloc(s->ntasks + 1, sizeof(*v));
	size_t n = 0, o = 0;

	buf[0] = '\0';
	if (!v)
		return sr_oom(d);
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct cmp_task *t = &s->tasks[i];
		size_t k;

		if (t->group != group || !cmp_task_shown(s, t) ||
		    !t->figs[a].present)
			continue;
		for (k = 0; k < n && strcmp(v[k].comm, t->comm); k++)
			;
		if (k == n)
			v[n++].comm = t->comm;
		v[k].n++;
		v[k].cpu += t->figs[a].runtime_ns;
	}
	sr_qsort(v, n, sizeof(*v), by_cpu);
	for (size_t k = 0; k < n && k < CMP_VERDICT_NAMES; k++) {
		int w = v[k].n > 1 ?
			snprintf(buf + o, len - o, "%s%s x%zu", k ? ", " : "",
				 v[k].comm, v[k].n) :
			snprintf(buf + o, len - o, "%s%s", k ? ", " : "",
				 v[k].comm);

		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
	}
	if (n > CMP_VERDICT_NAMES && o + 6 < len)
		snprintf(buf + o, len - o, ", ...");
	free(v);
	return SR_OK;
}

void cmp_verdict_decide(struct cmp_verdict_group *g)
{
	switch (g->kind) {
	case CMP_VK_PERIODIC: {
		const int64_t *met = g->own_clock ? g->own_pm : g->met_pm;

		g->verdict = cmp_vrule_decide(g->kind, 1000 - met[0],
					      1000 - met[1], SIZE_MAX, SIZE_MAX);
		break;
	}
	case CMP_VK_BATCH:
		g->verdict = cmp_vrule_decide(g->kind, g->done[0], g->done[1],
					      SIZE_MAX, SIZE_MAX);
		break;
	default:
		g->verdict = cmp_vrule_decide(g->kind, g->p99[0], g->p99[1],
					      g->npooled[0], g->npooled[1]);
		break;
	}
}

/* A delay beside the deciding figure, to 3 digits (0.452, 67.4, 359). */
static char *ms3(char *buf, size_t len, int64_t ns)
{
	return sr_fmt_ms(buf, len, ns, ns >= 99995000 ? 0 :
				       ns >= 9999500 ? 1 : 2);
}

/* A period as the line says it: whole ms from 10 ms, else to 0.1 ms. */
static char *period_ms(char *buf, size_t len, int64_t ns)
{
	return sr_fmt_ms(buf, len, ns, ns >= 10000000 ? 0 : 1);
}

/* n of d as a share in per mille, rounded half up (0 when d is 0). */
static int64_t per_mille(uint64_t n, uint64_t d)
{
	return d ? (int64_t)((2000 * n + d) / (2 * d)) : 0;
}

/* What changed most between A and B in the group's waits, and behind
 * which tasks. */
static void reasons(struct cmp_verdicts *v, struct cmp_verdict_group *g,
		    const struct cmp_why *wa, const struct cmp_why *wb)
{
	/* the way the group's wait changed (the word may follow another
	   figure: deadlines, the completion time) */
	int sign = wb->total_ns >= wa->total_ns ? 1 : -1;

	g->main_why = SM_WHY_NONE;
	g->why_change = 0;
	for (int c = 1; c < SM_WHY__COUNT; c++) {
		int64_t ch = wb->by_why[c] - wa->by_why[c];

		if (ch * sign > g->why_change * sign) {
			g->why_change = ch;
			g->main_why = c;
		}
	}
	g->nbehind = 0;
	g->behind_total = wb->total_ns - wa->total_ns;
	/* the tasks behind which the wait changed most that way: B's list,
	   then those A had and B has not */
	for (int pass = 0; pass < 2; pass++) {
		const struct cmp_why *w = pass ? wa : wb;

		for (size_t i = 0; i < w->nbehind; i++) {
			const struct cmp_behind *x = &w->behind[i];
			int64_t ch = 0;
			size_t k;

			for (size_t j = 0; j < wb->nbehind; j++)
				if (wb->behind[j].pid == x->pid &&
				    !strcmp(wb->behind[j].comm, x->comm))
					ch += wb->behind[j].ns;
			for (size_t j = 0; j < wa->nbehind; j++)
				if (wa->behind[j].pid == x->pid &&
				    !strcmp(wa->behind[j].comm, x->comm))
					ch -= wa->behind[j].ns;
			if (ch * sign <= 0)
				continue;
			for (k = 0; k < g->nbehind; k++)
				if (g->behind[k].pid == x->pid &&
				    !strcmp(g->behind[k].comm, x->comm))
					break;
			if (k < g->nbehind)
				continue;
			/* keep the CMP_VERDICT_BEHIND largest */
			k = g->nbehind < CMP_VERDICT_BEHIND ? g->nbehind++ :
				CMP_VERDICT_BEHIND;
			if (k == CMP_VERDICT_BEHIND) {
				if (ch * sign <= g->behind[k - 1].change * sign)
					continue;
				k--;
			}
			while (k > 0 && ch * sign > g->behind[k - 1].change * sign) {
				g->behind[k] = g->behind[k - 1];
				k--;
			}
			g->behind[k].pid = x->pid;
			snprintf(g->behind[k].comm, sizeof(g->behind[k].comm), "%s",
				 x->comm);
			g->behind[k].change = ch;
			g->behind[k].outside = outside_cmd(v->s, x->pid, x->comm);
		}
	}
}

/*
 * The figure that decides a group (docs/why.md, "The verdict"): the
 * completion time when batch tasks used at least half of its CPU; else
 * deadlines met on the recording's clock when its periodic tasks had at
 * least half of its waits; else p99 and max delay, every wait of its
 * tasks that are not batch pooled.
 */
static int build_group(struct cmp_verdicts *v, struct cmp_set *s, int group,
		       bool own_clock, struct sr_diag *d)
{
	struct cmp_verdict_group *g = &v->g[v->ng];
	struct gpred pred = { s, group };
	struct cmp_why wa, wb;
	uint64_t per[2] = { 0 }, met[2] = { 0 }, own[2] = { 0 };
	uint64_t waits = 0, per_waits = 0;
	bool one_period = true;
	char a[SR_FMT_NUM], b[SR_FMT_NUM];
	int64_t batch_cpu = 0, cpu = 0, fin[2] = { 0 };
	size_t r[2] = { v->a, v->b };
	int rc;

	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct cmp_task *t = &s->tasks[i];

		if (t->group != group || !cmp_task_shown(s, t))
			continue;
		if (!t->figs[v->a].present && !t->figs[v->b].present)
			continue;
		g->ntasks++;
		if (t->starved && g->nstarved++ < CMP_VERDICT_BEHIND) {
			size_t k = g->nstarved - 1;

			g->starved[k].pid = t->pid;
			snprintf(g->starved[k].comm, sizeof(g->starved[k].comm),
				 "%s", t->comm);
			g->starved[k].late = t->late_wakes;
			g->starved[k].wakes = (uint32_t)t->wakes;
		}
		cpu += t->figs[v->a].runtime_ns;
		waits += t->figs[v->a].ndelays;
		if (t->cls == CMP_CLASS_BATCH) {
			batch_cpu += t->figs[v->a].runtime_ns;
			g->nbatch++;
		}
		for (int k = 0; k < 2; k++) {
			const struct cmp_figs *f = &t->figs[r[k]];

			if (t->period_ns > 0 && f->periods) {
				per[k] += f->periods;
				met[k] += f->deadlines_met;
				own[k] += f->deadlines_met_own;
				if (k == 0)
					per_waits += f->ndelays;
				/* one period for the group, as printed */
				if (g->period_ns &&
				    strcmp(period_ms(a, sizeof(a), g->period_ns),
					   period_ms(b, sizeof(b), t->period_ns)))
					one_period = false;
				g->period_ns = t->period_ns;
			}
			if (t->cls == CMP_CLASS_BATCH && f->finish_ns > fin[k])
				fin[k] = f->finish_ns;
		}
	}
	if (!g->ntasks)
		return SR_OK;
	if (!one_period)
		g->period_ns = 0;
	g->own_clock = own_clock;
	if (cpu > 0 && batch_cpu * 2 >= cpu && fin[0] && fin[1] && s->have_t)
		g->kind = CMP_VK_BATCH;
	else if (per[0] && per[1] && per_waits * 2 >= waits)
		g->kind = CMP_VK_PERIODIC;
	else
		g->kind = CMP_VK_LATENCY;
	for (int k = 0; k < 2; k++) {
		g->met_pm[k] = per_mille(met[k], per[k]);
		g->own_pm[k] = per_mille(own[k], per[k]);
		g->done[k] = s->have_t && fin[k] ? fin[k] - s->origin : 0;
		if ((rc = pooled(s, r[k], group, g->nbatch < g->ntasks,
				 &g->p99[k], &g->max[k], &g->npooled[k], d)))
			return rc;
	}
	cmp_verdict_decide(g);
	if ((rc = cmp_why_run(s, v->a, in_group, &pred, 0, &wa, d)))
		return rc;
	if ((rc = cmp_why_run(s, v->b, in_group, &pred, 0, &wb, d))) {
		cmp_why_free(&wa);
		return rc;
	}
	g->wait[0] = wa.total_ns;
	g->wait[1] = wb.total_ns;
	reasons(v, g, &wa, &wb);
	cmp_why_free(&wa);
	cmp_why_free(&wb);
	if (group_names(s, group, v->a, g->names, sizeof(g->names), d))
		return d->code;
	v->ng++;
	return SR_OK;
}

int cmp_verdict_build(struct cmp_verdicts *v, struct cmp_set *s, size_t a,
		      size_t b, struct sr_diag *d)
{
	struct table t;
	size_t runs[2] = { a, b };
	bool behind = cmp_replay_behind(s, runs, 2);
	int rc = SR_OK;

	memset(v, 0, sizeof(*v));
	v->s = s;
	v->a = a;
	v->b = b;
	if (table_of(&t, s->groups, d)) {
		table_free(&t);
		return d->code;
	}
	if (assign(s, &t, d)) {
		table_free(&t);
		return d->code;
	}
	for (size_t i = 0; i < t.n && rc == SR_OK; i++) {
		size_t at = v->ng;

		rc = build_group(v, s, (int)i, behind, d);
		if (rc == SR_OK && v->ng > at) {
			v->g[at].index = (int)i;
			snprintf(v->g[at].name, sizeof(v->g[at].name), "%s",
				 t.name[i]);
			v->g[at].what = t.what[i];
		}
	}
	table_free(&t);
	if (rc)
		return rc;
	/* the recorded command's tree, and the CPU outside it */
	if (s->has_cmd) {
		v->cmd_root = s->cmd_root;
		for (size_t i = 0; i < s->ntasks; i++) {
			const struct cmp_task *x = &s->tasks[i];

			/* the CPU it asked for: its runtime under A */
			if (!x->figs[a].present)
				continue;
			if (x->in_cmd) {
				v->cmd_tasks++;
				v->cmd_cpu_ns += x->figs[a].runtime_ns;
			} else {
				v->out_tasks++;
				v->out_cpu_ns += x->figs[a].runtime_ns;
			}
		}
	}
	v->left_known = s->left_known;
	v->left_tasks = s->left_tasks;
	v->left_cpu_ns = s->left_cpu_ns;
	return SR_OK;
}

void cmp_verdict_free(struct cmp_verdicts *v)
{
	memset(v, 0, sizeof(*v));
}

/* ---- the lines ---------------------------------------------------------------- */

static size_t put(char *buf, size_t len, size_t o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t put(char *buf, size_t len, size_t o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o >= len)
		return o;
	va_start(ap, fmt);
	n = vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
	return n < 0 ? o : o + (size_t)n < len ? o + (size_t)n : len - 1;
}

/* fn(ctx, a line of kind k with this text) */
static void emit(cmp_vline_fn fn, void *ctx, enum cmp_vline_kind k,
		 const char *text, const struct cmp_verdict_group *g)
{
	struct cmp_vline l = { .kind = k, .text = text, .g = g,
			       .verdict = g ? g->verdict : CMP_SAME };

	fn(ctx, &l);
}

/*
 * "  audio: better under o11int: 10.0 ms deadlines met 97.1% -> 99.6%,
 * p99 3.15 -> 0.57 ms": the group, its word, and first the figure the
 * word follows from (verdict-rule.h), as the rule reads it.
 */
static void group_line(const struct cmp_verdicts *v,
		       const struct cmp_verdict_group *g, cmp_vline_fn fn,
		       void *ctx)
{
	const char *B = v->s->runs[v->b].policy;
	char x[SR_FMT_NUM], y[SR_FMT_NUM], z[SR_FMT_NUM], w[SR_FMT_NUM];
	char buf[1024];
	struct cmp_vline l = { .kind = CMP_VL_GROUP, .text = buf, .g = g,
			       .verdict = g->verdict };
	const int64_t *met;
	size_t o;

	o = put(buf, sizeof(buf), 0, "  %s: ", g->name);
	l.word = o;
	l.wordlen = strlen(cmp_verdict_name(g->verdict));
	o = put(buf, sizeof(buf), o, "%s under %s: ",
		cmp_verdict_name(g->verdict), B);
	switch (g->kind) {
	case CMP_VK_PERIODIC:
		met = g->own_clock ? g->own_pm : g->met_pm;
		if (g->period_ns)
			o = put(buf, sizeof(buf), o, "%s ms ",
				period_ms(x, sizeof(x), g->period_ns));
		o = put(buf, sizeof(buf), o, "deadlines met %s%% -> %s%%%s, "
			"p99 %s -> %s ms",
			sr_fmt_scaled(x, sizeof(x), met[0], 1, 1),
			sr_fmt_scaled(y, sizeof(y), met[1], 1, 1),
			g->own_clock ? " (own clock)" : "",
			ms3(z, sizeof(z), g->p99[0]), ms3(w, sizeof(w), g->p99[1]));
		break;
	case CMP_VK_BATCH:
		o = put(buf, sizeof(buf), o, "done %s -> %s s after the start",
			sr_fmt_s(x, sizeof(x), g->done[0], 3),
			sr_fmt_s(y, sizeof(y), g->done[1], 3));
		break;
	default:
		o = put(buf, sizeof(buf), o, "p99 %s -> %s ms, max %s -> %s ms",
			sr_fmt_ms(x, sizeof(x), g->p99[0], 2),
			sr_fmt_ms(y, sizeof(y), g->p99[1], 2),
			ms3(z, sizeof(z), g->max[0]), ms3(w, sizeof(w), g->max[1]));
		if (g->npooled[0] < CMP_VERDICT_MIN_WAITS ||
		    g->npooled[1] < CMP_VERDICT_MIN_WAITS)
			o = put(buf, sizeof(buf), o, " (%zu and %zu waits: too "
				"few)", g->npooled[0], g->npooled[1]);
		break;
	}
	if (g->nstarved)
		put(buf, sizeof(buf), o, "; starved in the recording");
	fn(ctx, &l);
}

/* The reasons under a group's line (-v, explain, the report). */
static void why_lines(const struct cmp_verdicts *v,
		      const struct cmp_verdict_group *g, cmp_vline_fn fn,
		      void *ctx)
{
	char buf[1024], x[SR_FMT_NUM], y[SR_FMT_NUM], z[SR_FMT_NUM];
	char w[SR_FMT_NUM];
	size_t o;

	o = put(buf, sizeof(buf), 0, "    %zu task%s", g->ntasks,
		g->ntasks == 1 ? "" : "s");
	if (g->nbatch)
		o = put(buf, sizeof(buf), o, " (%zu batch)", g->nbatch);
	put(buf, sizeof(buf), o, ": %s", g->names);
	emit(fn, ctx, CMP_VL_WHY, buf, g);
	switch (g->kind) {
	case CMP_VK_PERIODIC:
		if (g->own_clock)
			snprintf(buf, sizeof(buf), "    deadlines met on the "
				 "recording's clock: %s%% -> %s%% (the replay "
				 "runs behind it: the own clock decides)",
				 sr_fmt_scaled(x, sizeof(x), g->met_pm[0], 1, 1),
				 sr_fmt_scaled(y, sizeof(y), g->met_pm[1], 1, 1));
		else
			snprintf(buf, sizeof(buf), "    deadlines met on the "
				 "replay's own clock (periods from its own "
				 "wakeups): %s%% -> %s%%",
				 sr_fmt_scaled(x, sizeof(x), g->own_pm[0], 1, 1),
				 sr_fmt_scaled(y, sizeof(y), g->own_pm[1], 1, 1));
		emit(fn, ctx, CMP_VL_WHY, buf, g);
		break;
	case CMP_VK_BATCH:
		if (g->nbatch < g->ntasks) {
			snprintf(buf, sizeof(buf), "    its %zu tasks not batch: "
				 "p99 %s -> %s ms, max %s -> %s ms",
				 g->ntasks - g->nbatch,
				 sr_fmt_ms(x, sizeof(x), g->p99[0], 2),
				 sr_fmt_ms(y, sizeof(y), g->p99[1], 2),
				 sr_fmt_ms(z, sizeof(z), g->max[0], 1),
				 sr_fmt_ms(w, sizeof(w), g->max[1], 1));
			emit(fn, ctx, CMP_VL_WHY, buf, g);
		}
		break;
	default:
		snprintf(buf, sizeof(buf), "    waits pooled: %zu -> %zu",
			 g->npooled[0], g->npooled[1]);
		emit(fn, ctx, CMP_VL_WHY, buf, g);
		break;
	}
	if (g->nstarved) {
		o = put(buf, sizeof(buf), 0, "    the recording starved ");
		for (size_t i = 0; i < g->nstarved && i < CMP_VERDICT_BEHIND; i++)
			o = put(buf, sizeof(buf), o, "%s%s (%d), late on %u of "
				"%u wakeups", i ? "; " : "", g->starved[i].comm,
				(int)g->starved[i].pid, g->starved[i].late,
				g->starved[i].wakes);
		if (g->nstarved > CMP_VERDICT_BEHIND)
			o = put(buf, sizeof(buf), o, "; and %zu more",
				g->nstarved - CMP_VERDICT_BEHIND);
		put(buf, sizeof(buf), o, " (waited %s ms or more, every CPU "
		    "busy): the period, class and figures are the "
		    "starvation's as much as the task's",
		    sr_fmt_ms(x, sizeof(x), CMP_STARVED_WAIT_NS, 0));
		emit(fn, ctx, CMP_VL_WHY, buf, g);
	}
	o = put(buf, sizeof(buf), 0, "    its wait: %s -> %s ms",
		sr_fmt_ms(x, sizeof(x), g->wait[0], 1),
		sr_fmt_ms(y, sizeof(y), g->wait[1], 1));
	/* a change of the wait under diff's least (0.1 ms): nothing to
	   explain */
	if (g->main_why == SM_WHY_NONE ||
	    llabs((long long)(g->wait[1] - g->wait[0])) < CMP_CHANGE_MIN_NS) {
		emit(fn, ctx, CMP_VL_WHY, buf, g);
		return;
	}
	put(buf, sizeof(buf), o, "; the reason that changed most: %s %s%s ms "
	    "(%s)", sm_why_name(g->main_why), g->why_change > 0 ? "+" : "",
	    sr_fmt_ms(x, sizeof(x), g->why_change, 1),
	    cmp_why_meaning(g->main_why));
	emit(fn, ctx, CMP_VL_WHY, buf, g);
	if (g->nbehind && g->behind_total) {
		int64_t sum = 0;
		double pct;

		o = put(buf, sizeof(buf), 0, "    behind ");
		for (size_t i = 0; i < g->nbehind; i++) {
			sum += g->behind[i].change;
			o = put(buf, sizeof(buf), o, "%s%s (%d%s) %s%s ms",
				i ? (i + 1 == g->nbehind ? " and " : ", ") : "",
				g->behind[i].comm, (int)g->behind[i].pid,
				g->behind[i].outside ? ", outside the recorded "
				"command" : "",
				g->behind[i].change > 0 ? "+" : "",
				sr_fmt_ms(x, sizeof(x), g->behind[i].change, 1));
		}
		/* a share only when they explain part of the change (other
		   tasks may have moved the other way) */
		pct = 100.0 * (double)sum / (double)g->behind_total;
		if (pct > 0 && pct <= 100)
			put(buf, sizeof(buf), o, " (%.0f%% of the %s wait)", pct,
			    g->behind_total > 0 ? "added" : "saved");
		emit(fn, ctx, CMP_VL_WHY, buf, g);
	}
}

void cmp_verdict_head(const struct cmp_verdicts *v, cmp_vline_fn fn,
		      void *ctx)
{
	char line[2 * CMP_POLICY_MAX + 32];

	snprintf(line, sizeof(line), "verdict: %s against %s",
		 v->s->runs[v->b].policy, v->s->runs[v->a].policy);
	emit(fn, ctx, CMP_VL_HEAD, line, NULL);
}

void cmp_verdict_group_lines(const struct cmp_verdicts *v,
			     const struct cmp_verdict_group *g, bool why,
			     cmp_vline_fn fn, void *ctx)
{
	group_line(v, g, fn, ctx);
	if (why)
		why_lines(v, g, fn, ctx);
}

void cmp_verdict_lines(const struct cmp_verdicts *v, bool why,
		       cmp_vline_fn fn, void *ctx)
{
	cmp_verdict_head(v, fn, ctx);
	for (size_t i = 0; i < v->ng; i++)
		cmp_verdict_group_lines(v, &v->g[i], why, fn, ctx);
}

void cmp_verdict_rule(unsigned kinds, cmp_vline_fn fn, void *ctx)
{
	char line[256];

	if (!kinds)
		return;
	cmp_vrule_line(kinds, line, sizeof(line));
	emit(fn, ctx, CMP_VL_RULE, line, NULL);
}

unsigned cmp_verdict_kinds(const struct cmp_verdicts *v)
{
	unsigned kinds = 0;

	for (size_t i = 0; i < v->ng; i++)
		kinds |= 1u << v->g[i].kind;
	return kinds;
}

void cmp_verdict_scope(const struct cmp_verdicts *v, cmp_vline_fn fn,
		       void *ctx)
{
	char line[1024], a[SR_FMT_NUM], b[SR_FMT_NUM];
	/* the replayed tasks' CPU under A, and what was left out as the
	   recording ran it (the same demand) */
	int64_t all = v->cmd_cpu_ns + v->out_cpu_ns +
		      (v->left_known ? v->left_cpu_ns : 0);

	if (v->cmd_root && (v->out_tasks || !v->left_tasks)) {
		snprintf(line, sizeof(line), "  outside the tree of %s (the "
			 "recorded command): %zu tasks, CPU %s s (%.1f%%), "
			 "replayed too", v->cmd_root, v->out_tasks,
			 sr_fmt_s(a, sizeof(a), v->out_cpu_ns, 3),
			 all ? 100.0 * (double)v->out_cpu_ns / (double)all : 0);
		emit(fn, ctx, CMP_VL_SCOPE, line, NULL);
	}
	if (!v->left_known && v->left_tasks) {
		snprintf(line, sizeof(line), "  left out of the replay (--only, "
			 "--only-tree, --exclude): %zu tasks (their CPU is known "
			 "when observed is replayed too); the verdict is "
			 "without them", v->left_tasks);
		emit(fn, ctx, CMP_VL_SCOPE, line, NULL);
	}
	if (v->left_known && v->left_tasks) {
		snprintf(line, sizeof(line), "  left out of the replay (--only, "
			 "--only-tree, --exclude): %zu tasks, %s s of CPU (%.1f%% of "
			 "the recording's); the verdict is without them",
			 v->left_tasks,
			 sr_fmt_s(b, sizeof(b), v->left_cpu_ns, 3),
			 all ? 100.0 * (double)v->left_cpu_ns / (double)all : 0);
		emit(fn, ctx, CMP_VL_SCOPE, line, NULL);
	}
}

int cmp_verdict_build_n(struct cmp_ndiff *nd, struct cmp_set *s,
			struct sr_diag *d)
{
	free(nd->verdicts);
	nd->verdicts = calloc(nd->npairs ? nd->npairs : 1,
			      sizeof(*nd->verdicts));
	if (!nd->verdicts)
		return sr_oom(d);
	for (size_t k = 0; k < nd->npairs; k++) {
		if (cmp_verdict_build(&nd->verdicts[k], s, nd->pair[k].a,
				      nd->pair[k].b, d))
			return d->code;
		nd->pair[k].verdict = &nd->verdicts[k];
	}
	return SR_OK;
}

void cmp_ndiff_verdict(const struct cmp_ndiff *nd, bool why, cmp_vline_fn fn,
		       void *ctx)
{
	unsigned kinds = 0;

	if (!nd->verdicts || !nd->npairs)
		return;
	for (size_t k = 0; k < nd->npairs; k++) {
		cmp_verdict_lines(&nd->verdicts[k], why, fn, ctx);
		kinds |= cmp_verdict_kinds(&nd->verdicts[k]);
	}
	cmp_verdict_rule(kinds, fn, ctx);
	cmp_verdict_scope(&nd->verdicts[0], fn, ctx);
}

void cmp_vline_text(void *ctx, const struct cmp_vline *l)
{
	const struct cmp_vtext *t = ctx;

	t->fn(t->ctx, l->text);
}

/* ---- JSON ------------------------------------------------------------------- */

static const char *const kind_names[CMP_VK__COUNT] = {
	[CMP_VK_LATENCY] = "latency", [CMP_VK_PERIODIC] = "periodic",
	[CMP_VK_BATCH] = "batch",
};

/* "KEY": [A, B], v in units of 10^-shift, exact */
static void json_pair(FILE *f, const char *key, const int64_t *v, int shift,
		      int decimals)
{
	char a[SR_FMT_NUM], b[SR_FMT_NUM];

	fprintf(f, ", \"%s\": [%s, %s]", key,
		sr_fmt_scaled(a, sizeof(a), v[0], shift, decimals),
		sr_fmt_scaled(b, sizeof(b), v[1], shift, decimals));
}

void cmp_verdict_group_json(FILE *f, const struct cmp_verdict_group *g)
{
	char x[SR_FMT_NUM];

	fputs("{\"group\": ", f);
	sr_json_str(f, g->name);
	fprintf(f, ", \"kind\": \"%s\", \"word\": \"%s\", \"figure\": \"%s\", "
		"\"tasks\": %zu, \"batch_tasks\": %zu, \"names\": ",
		kind_names[g->kind], cmp_verdict_name(g->verdict),
		cmp_vrules[g->kind].key, g->ntasks, g->nbatch);
	sr_json_str(f, g->names);
	fprintf(f, ",\n       \"waits\": [%zu, %zu]", g->npooled[0],
		g->npooled[1]);
	json_pair(f, "p99_ms", g->p99, 6, 6);
	json_pair(f, "max_ms", g->max, 6, 6);
	if (g->kind == CMP_VK_PERIODIC) {
		json_pair(f, "deadlines_met_pct", g->met_pm, 1, 1);
		json_pair(f, "deadlines_met_own_pct", g->own_pm, 1, 1);
		fprintf(f, ", \"deadlines_clock\": \"%s\"",
			g->own_clock ? "replay" : "recording");
		if (g->period_ns)
			fprintf(f, ", \"period_ms\": %s",
				sr_fmt_ms(x, sizeof(x), g->period_ns, 6));
		else
			fputs(", \"period_ms\": null", f);
	} else {
		fputs(", \"deadlines_met_pct\": null, \"deadlines_met_own_pct\": "
		      "null, \"deadlines_clock\": null, \"period_ms\": null", f);
	}
	if (g->kind == CMP_VK_BATCH)
		json_pair(f, "done_s", g->done, 9, 9);
	else
		fputs(", \"done_s\": null", f);
	fputs("\n      ", f);
	json_pair(f, "wait_ms", g->wait, 6, 6);
	fputs(", \"reason\": ", f);
	if (g->main_why != SM_WHY_NONE)
		fprintf(f, "\"%s\", \"reason_change_ms\": %s",
			sm_why_name(g->main_why),
			sr_fmt_ms(x, sizeof(x), g->why_change, 6));
	else
		fputs("null, \"reason_change_ms\": null", f);
	fputs(", \"behind\": [", f);
	for (size_t i = 0; i < g->nbehind; i++) {
		fprintf(f, "%s{\"pid\": %d, \"comm\": ", i ? ", " : "",
			(int)g->behind[i].pid);
		sr_json_str(f, g->behind[i].comm);
		fprintf(f, ", \"change_ms\": %s, \"outside\": %s}",
			sr_fmt_ms(x, sizeof(x), g->behind[i].change, 6),
			g->behind[i].outside ? "true" : "false");
	}
	fputs("], \"starved\": [", f);
	for (size_t i = 0; i < g->nstarved && i < CMP_VERDICT_BEHIND; i++) {
		fprintf(f, "%s{\"pid\": %d, \"comm\": ", i ? ", " : "",
			(int)g->starved[i].pid);
		sr_json_str(f, g->starved[i].comm);
		fprintf(f, ", \"late_wakes\": %u, \"wakeups\": %u}",
			g->starved[i].late, g->starved[i].wakes);
	}
	fprintf(f, "], \"starved_tasks\": %zu}", g->nstarved);
}

void cmp_verdict_write_json(FILE *f, const struct cmp_verdicts *v)
{
	fputc('[', f);
	for (size_t i = 0; i < v->ng; i++) {
		fputs(i ? ",\n      " : "\n      ", f);
		cmp_verdict_group_json(f, &v->g[i]);
	}
	fputc(']', f);
}

void cmp_vrule_write_json(FILE *f, unsigned kinds)
{
	char line[256], x[SR_FMT_NUM];
	bool first = true;

	cmp_vrule_line(kinds, line, sizeof(line));
	fputs("{\"text\": ", f);
	sr_json_str(f, line + 2);
	fputs(", \"kinds\": {", f);
	for (int k = 0; k < CMP_VK__COUNT; k++) {
		const struct cmp_vrule *r = &cmp_vrules[k];

		fprintf(f, "%s\"%s\": {\"figure\": \"%s\", \"min_pct\": %d, "
			"\"min_change\": %s, \"min_waits\": %zu}",
			first ? "" : ", ", kind_names[k], r->key, r->min_pct,
			sr_fmt_scaled(x, sizeof(x), r->min_abs, r->shift,
				      r->shift),
			r->min_waits);
		first = false;
	}
	fputs("}}", f);
}
