/*
 * why: a run's waits by reason, by the task waited behind, the worst
 * ones, and a segment in words (see why.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "compare/why.h"
#include "lib/fmt.h"
#include "lib/grow.h"

/* ---- in words ----------------------------------------------------------- */

static const char *const meanings[SM_WHY__COUNT] = {
	[SM_WHY_NONE] = "not attributed",
	[SM_WHY_LOWER_PRIO] = "a task of better priority ran",
	[SM_WHY_SAME_PRIO_QUEUE] = "tasks of its priority were ahead in its list",
	[SM_WHY_NO_PREEMPT] = "as good a priority, but its wakeup did not preempt",
	[SM_WHY_EXPIRED] = "in the expired array, waiting for the array switch",
	[SM_WHY_STARVING_SWITCH] = "interactive, but sent to the expired array by EXPIRED_STARVING",
	[SM_WHY_GRANULARITY] = "its TIMESLICE_GRANULARITY requeue put it behind",
	[SM_WHY_CREDIT] = "the running task was kept active at expiry by O11int's credit rule",
	[SM_WHY_TICK] = "next to run, waiting for the schedule point (the tick)",
	[SM_WHY_OTHER_CPU] = "a CPU it could use was idle; the balancer did not move it",
	[SM_WHY_GOODNESS] = "the running task's goodness() was not lower",
	[SM_WHY_COUNTER_OUT] = "its counter was used up: waiting for the epoch",
	[SM_WHY_VRUNTIME] = "tasks with a smaller vruntime were ahead",
	[SM_WHY_NOT_ELIGIBLE] = "not eligible (negative lag)",
	[SM_WHY_DEADLINE] = "eligible tasks with an earlier deadline were ahead",
};

const char *cmp_why_meaning(int why)
{
	return why >= 0 && why < SM_WHY__COUNT ? meanings[why] : "?";
}

static const char *const sub_words[SM_WHYSUB__COUNT] = {
	[SM_WHYSUB_STRICT] = "only a strictly better prio preempts",
	[SM_WHYSUB_SLICE2X] = "TASK_PREEMPTS_CURR: not more than twice the "
			      "running task's time_slice left",
	[SM_WHYSUB_HEAD] = "the rule fired, but the running task kept the "
			   "head of the list",
	[SM_WHYSUB_SYNC] = "a sync wakeup: no preemption test",
	[SM_WHYSUB_PULL] = "pulled by the balancer: pull_task's rule",
	[SM_WHYSUB_CACHE_HOT] = "it was cache-hot",
	[SM_WHYSUB_THRESHOLD] = "its queue was not the busiest, or within "
				"the imbalance threshold",
	[SM_WHYSUB_INTERVAL] = "waiting for the next balance",
};

/* Append to buf at *o (cut at len). */
static void add(char *buf, size_t len, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	if (n > 0)
		*o = *o + (size_t)n < len ? *o + (size_t)n : len - 1;
}

char *cmp_why_words(char *buf, size_t len, const struct cmp_result *res,
		    const struct cmp_seg *g)
{
	const struct sm_why *w = &g->why;
	const char *sub = w->sub < SM_WHYSUB__COUNT ? sub_words[w->sub] : NULL;
	char ms[SR_FMT_NUM], who[160];
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (g->running_pid >= 0) {
		char comm[SR_COMM_MAX];

		if (w->code == SM_WHY_CREDIT && w->value >= 0)
			snprintf(who, sizeof(who), "%s (%d, prio %d, credit %lld)",
				 sr_comm_clean(comm, sizeof(comm),
					       cmp_result_comm(res, g->running_comm)),
				 (int)g->running_pid, (int)g->running_prio,
				 (long long)w->value);
		else
			snprintf(who, sizeof(who), "%s (%d, prio %d)",
				 sr_comm_clean(comm, sizeof(comm),
					       cmp_result_comm(res, g->running_comm)),
				 (int)g->running_pid, (int)g->running_prio);
	} else {
		snprintf(who, sizeof(who), "nothing");
	}
	add(buf, len, &o, "%s ms [%s] ", sr_fmt_ms(ms, sizeof(ms), g->dur_ns, 3),
	    w->code == SM_WHY_NONE ? "not attributed" : sm_why_name(w->code));
	switch (w->code) {
	case SM_WHY_EXPIRED:
		add(buf, len, &o, "in the expired array behind %s", who);
		if (w->ahead >= 0)
			add(buf, len, &o, ", %d task%s still active", (int)w->ahead,
			    w->ahead == 1 ? "" : "s");
		break;
	case SM_WHY_STARVING_SWITCH:
		add(buf, len, &o, "in the expired array behind %s: interactive, "
		    "but EXPIRED_STARVING sent it there", who);
		break;
	case SM_WHY_CREDIT:
		add(buf, len, &o, "behind %s, kept in the active array at its "
		    "expiry by O11int's credit rule", who);
		break;
	case SM_WHY_OTHER_CPU:
		add(buf, len, &o, "behind %s on cpu %d while cpu %lld idled: "
		    "the balancer did not move it", who, (int)g->cpu,
		    (long long)w->value);
		break;
	case SM_WHY_GRANULARITY:
		add(buf, len, &o, "behind %s: its TIMESLICE_GRANULARITY "
		    "requeue put it there", who);
		break;
	case SM_WHY_NONE:
		add(buf, len, &o, "no reason recorded");
		break;
	default:
		add(buf, len, &o, "behind %s", who);
		if (w->ahead >= 0)
			add(buf, len, &o, ", %d ahead of it", (int)w->ahead);
		add(buf, len, &o, ": %s", cmp_why_meaning(w->code));
		break;
	}
	if (sub)
		add(buf, len, &o, " (%s)", sub);
	return buf;
}

char *cmp_why_when(char *buf, size_t len, const struct cmp_set *s, int64_t ns)
{
	char a[SR_FMT_NUM], b[SR_FMT_NUM];

	snprintf(buf, len, "%s s (trace clock @%s)",
		 sr_fmt_s(a, sizeof(a), ns - s->origin, 6),
		 sr_fmt_s(b, sizeof(b), ns, 6));
	return buf;
}

static int by_dur(const void *pa, const void *pb)
{
	const struct cmp_seg *a = pa, *b = pb;

	if (a->dur_ns != b->dur_ns)
		return a->dur_ns > b->dur_ns ? -1 : 1;
	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

int cmp_why_wait_lines(const struct cmp_set *s, const struct cmp_result *res,
		       const struct cmp_lat *l, const char *who,
		       cmp_why_line_fn fn, void *ctx)
{
	struct cmp_seg *gr = calloc(l->nseg ? l->nseg : 1, sizeof(*gr));
	char line[768], ms[SR_FMT_NUM], at[96], words[512];
	size_t n = 0;
	int64_t rest = 0;

	if (!gr)
		return SR_ENOMEM;
	/* the segments by (reason, running task), each the sum of its time,
	   first where it first ran */
	for (uint32_t k = 0; k < l->nseg; k++) {
		const struct cmp_seg *g = &res->seg[l->seg0 + k];
		size_t i;

		for (i = 0; i < n; i++)
			if (gr[i].why.code == g->why.code &&
			    gr[i].running_pid == g->running_pid &&
			    gr[i].running_comm == g->running_comm)
				break;
		if (i == n)
			gr[n++] = *g;
		else
			gr[i].dur_ns += g->dur_ns;
	}
	sr_qsort(gr, n, sizeof(*gr), by_dur);
	snprintf(line, sizeof(line), "%s%swaited %s ms from %s%s", who ? who : "",
		 who ? " " : "", sr_fmt_ms(ms, sizeof(ms), l->delay_ns, 3),
		 cmp_why_when(at, sizeof(at), s, l->wake_ns),
		 l->nseg ? ":" : " (not attributed)");
	fn(ctx, 0, line);
	for (size_t k = 0; k < n; k++) {
		if (k < CMP_WHY_WAIT_GROUPS)
			fn(ctx, 1, cmp_why_words(words, sizeof(words), res, &gr[k]));
		else
			rest += gr[k].dur_ns;
	}
	if (n > CMP_WHY_WAIT_GROUPS) {
		snprintf(line, sizeof(line), "and %s ms behind %zu more (task, "
			 "reason)", sr_fmt_ms(ms, sizeof(ms), rest, 3),
			 n - CMP_WHY_WAIT_GROUPS);
		fn(ctx, 1, line);
	}
	free(gr);
	return SR_OK;
}

/* ---- adding up ---------------------------------------------------------- */

struct pass {
	struct cmp_set *s;
	const struct cmp_result *res;
	cmp_task_pred want;
	void *ctx;
	struct cmp_why *w;
	size_t top;
	/* (pid, comm offset, ns) of every segment counted, merged at the end */
	struct cmp_behind *raw;
	uint32_t *rawcomm;
	size_t nraw, capraw;
	size_t capworst;
};

/* a before b among the worst waits */
static bool worse(const struct cmp_lat *a, const struct cmp_lat *b)
{
	if (a->delay_ns != b->delay_ns)
		return a->delay_ns > b->delay_ns;
	if (a->wake_ns != b->wake_ns)
		return a->wake_ns < b->wake_ns;
	return a->pid < b->pid;
}

static int keep_worst(struct pass *p, const struct cmp_lat_row *row)
{
	struct cmp_why *w = p->w;
	size_t i;

	if (!p->top)
		return SR_OK;
	if (w->nworst == p->top && !worse(row->lat, w->worst[w->nworst - 1].lat))
		return SR_OK;
	if (!w->worst) {
		w->worst = calloc(p->top, sizeof(*w->worst));
		if (!w->worst)
			return SR_ENOMEM;
	}
	i = w->nworst < p->top ? w->nworst++ : p->top - 1;
	while (i > 0 && worse(row->lat, w->worst[i - 1].lat)) {
		w->worst[i] = w->worst[i - 1];
		i--;
	}
	w->worst[i] = (struct cmp_worst){ row->lat, row->task };
	return SR_OK;
}

static int add_raw(struct pass *p, const struct cmp_seg *g)
{
	if (p->nraw == p->capraw) {
		/* two arrays grown alike */
		size_t c1 = p->capraw, c2 = p->capraw;
		struct cmp_behind *r = sr_grow(p->raw, &c1, p->nraw,
					       sizeof(*r), 256, 0);
		uint32_t *c;

		if (!r)
			return SR_ENOMEM;
		p->raw = r;
		c = sr_grow(p->rawcomm, &c2, p->nraw, sizeof(*c), 256, 0);
		if (!c)
			return SR_ENOMEM;
		p->rawcomm = c;
		p->capraw = c1 < c2 ? c1 : c2;
	}
	p->raw[p->nraw] = (struct cmp_behind){ g->running_pid, NULL, g->dur_ns };
	p->rawcomm[p->nraw++] = g->running_comm;
	return SR_OK;
}

static int lat_row(void *ctx, const struct cmp_lat_row *row, struct sr_diag *d)
{
	struct pass *p = ctx;
	struct cmp_why *w = p->w;
	const struct cmp_lat *l = row->lat;

	if (!row->delay_ns)
		return SR_OK;
	if (p->want && !p->want(&p->s->tasks[row->task], p->ctx))
		return SR_OK;
	w->nwaits++;
	w->total_ns += row->delay_ns;
	if (!l->nseg) {
		w->by_why[SM_WHY_NONE] += row->delay_ns;
	} else {
		for (uint32_t k = 0; k < l->nseg; k++) {
			const struct cmp_seg *g = &p->res->seg[l->seg0 + k];

			w->by_why[g->why.code < SM_WHY__COUNT ? g->why.code : 0] +=
				g->dur_ns;
			if (g->running_pid >= 0 && add_raw(p, g))
				return sr_oom(d);
		}
	}
	if (keep_worst(p, row))
		return sr_oom(d);
	return SR_OK;
}

static int by_key(const void *pa, const void *pb, void *ctx)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct pass *p = ctx;

	if (p->raw[a].pid != p->raw[b].pid)
		return p->raw[a].pid < p->raw[b].pid ? -1 : 1;
	if (p->rawcomm[a] != p->rawcomm[b])
		return p->rawcomm[a] < p->rawcomm[b] ? -1 : 1;
	return (a > b) - (a < b);
}

static int by_time(const void *pa, const void *pb)
{
	const struct cmp_behind *a = pa, *b = pb;
	int c;

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	c = strcmp(a->comm, b->comm);
	return c;
}

/* The raw (pid, comm, ns) merged by task, most time first. */
static int merge_behind(struct pass *p)
{
	struct cmp_why *w = p->w;
	size_t *ix;

	if (!p->nraw)
		return SR_OK;
	ix = malloc(p->nraw * sizeof(*ix));
	w->behind = malloc(p->nraw * sizeof(*w->behind));
	if (!ix || !w->behind) {
		free(ix);
		return SR_ENOMEM;
	}
	for (size_t i = 0; i < p->nraw; i++)
		ix[i] = i;
	qsort_r(ix, p->nraw, sizeof(*ix), by_key, p);
	for (size_t i = 0; i < p->nraw; i++) {
		const struct cmp_behind *r = &p->raw[ix[i]];

		if (w->nbehind && w->behind[w->nbehind - 1].pid == r->pid &&
		    !strcmp(w->behind[w->nbehind - 1].comm,
			    cmp_result_comm(p->res, p->rawcomm[ix[i]]))) {
			w->behind[w->nbehind - 1].ns += r->ns;
			continue;
		}
		w->behind[w->nbehind++] = (struct cmp_behind){
			r->pid, cmp_result_comm(p->res, p->rawcomm[ix[i]]), r->ns };
	}
	free(ix);
	sr_qsort(w->behind, w->nbehind, sizeof(*w->behind), by_time);
	return SR_OK;
}

int cmp_why_run(struct cmp_set *s, size_t run, cmp_task_pred want, void *ctx,
		size_t top, struct cmp_why *out, struct sr_diag *d)
{
	struct pass p = { .s = s, .res = s->runs[run].res, .want = want,
			  .ctx = ctx, .w = out, .top = top };
	int rc;

	memset(out, 0, sizeof(*out));
	out->attributed = p.res->has_waits;
	rc = cmp_latency_pass(s, p.res, lat_row, &p, d);
	if (rc == SR_OK && merge_behind(&p))
		rc = sr_oom(d);
	free(p.raw);
	free(p.rawcomm);
	if (rc)
		cmp_why_free(out);
	return rc;
}

void cmp_why_free(struct cmp_why *w)
{
	free(w->behind);
	free(w->worst);
	memset(w, 0, sizeof(*w));
}

int cmp_why_main(const struct cmp_why *w)
{
	int best = SM_WHY_NONE;
	int64_t most = 0;

	for (int i = 1; i < SM_WHY__COUNT; i++)
		if (w->by_why[i] > most) {
			most = w->by_why[i];
			best = i;
		}
	return best;
}
