/*
 * explain: the writers of `explain` (see compare/explain.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "compare/diff.h"
#include "compare/explain.h"
#include "lib/fmt.h"
#include "parse/read-warn.h"

bool cmp_explain_wanted(const struct cmp_task *t, void *ctx)
{
	const struct cmp_explain_sel *x = ctx;

	return x->hit[t - x->s->tasks];
}

/* Group g of a verdict holds one of the tasks selected. */
static bool their_group(const struct cmp_explain *x,
			const struct cmp_verdict_group *g)
{
	for (size_t i = 0; i < x->ntasks; i++)
		if (x->s->tasks[x->tasks[i]].group == g->index)
			return true;
	return false;
}

static void vline_print(void *ctx, const struct cmp_vline *l)
{
	sr_put_wrapped(ctx, l->text, CMP_SCREEN_COLS, 0, 0, NULL, NULL);
}

/* The verdict of their groups, with the reasons, each policy against
 * the first (docs/why.md, "The verdict"). */
static void verdict_text(FILE *f, const struct cmp_explain *x)
{
	unsigned kinds = 0;

	for (size_t k = 0; k < x->nv; k++) {
		const struct cmp_verdicts *v = &x->v[k];

		fputc('\n', f);
		cmp_verdict_head(v, vline_print, f);
		for (size_t i = 0; i < v->ng; i++) {
			if (!their_group(x, &v->g[i]))
				continue;
			cmp_verdict_group_lines(v, &v->g[i], true, vline_print, f);
			kinds |= 1u << v->g[i].kind;
		}
	}
	cmp_verdict_rule(kinds, vline_print, f);
}

/* ---- text --------------------------------------------------------------- */

static void heading(FILE *f, const struct cmp_explain *x)
{
	fprintf(f, "schedreplay explain: %s, %zu task%s %s (", x->s->title,
		x->ntasks, x->ntasks == 1 ? "" : "s", x->what);
	for (size_t i = 0; i < x->ntasks && i < CMP_EXPLAIN_NAMES; i++) {
		char lab[96];

		cmp_task_label(&x->s->tasks[x->tasks[i]], lab, sizeof(lab));
		fprintf(f, "%s%s", i ? ", " : "", lab);
	}
	if (x->ntasks > CMP_EXPLAIN_NAMES)
		fprintf(f, ", and %zu more", x->ntasks - CMP_EXPLAIN_NAMES);
	fputs(")\n", f);
	if (x->s->loss)
		sr_loss_put(f, x->s->loss, "");
	if (x->s->ctx_said[0])
		fprintf(f, "%s\n", x->s->ctx_said);
}

struct numbered {
	FILE *f;
	size_t i;               /* the wait's number */
};

static void worst_line(void *ctx, int level, const char *line)
{
	const struct numbered *n = ctx;

	if (level)
		fprintf(n->f, "       %s\n", line);
	else
		fprintf(n->f, "  %zu. %s\n", n->i, line);
}

static int worst_text(FILE *f, const struct cmp_explain *x, size_t r)
{
	const struct cmp_why *w = &x->w[r];
	const struct cmp_result *res = x->s->runs[r].res;

	for (size_t i = 0; i < w->nworst; i++) {
		struct numbered n = { f, i + 1 };
		char lab[96];

		cmp_task_label(&x->s->tasks[w->worst[i].task], lab, sizeof(lab));
		if (cmp_why_wait_lines(x->s, res, w->worst[i].lat, lab,
				       worst_line, &n))
			return SR_ENOMEM;
	}
	return SR_OK;
}

static void cell_ms(FILE *f, int64_t ns, int64_t total)
{
	char ms[SR_FMT_NUM], c[48];

	if (total > 0)
		snprintf(c, sizeof(c), "%s (%.1f%%)", sr_fmt_ms(ms, sizeof(ms), ns, 1),
			 100.0 * (double)ns / (double)total);
	else
		snprintf(c, sizeof(c), "%s", sr_fmt_ms(ms, sizeof(ms), ns, 1));
	fprintf(f, " %20s", c);
}

/* ns the run r waited behind (pid, comm) */
static int64_t behind_ns(const struct cmp_why *w, int32_t pid, const char *comm)
{
	for (size_t i = 0; i < w->nbehind; i++)
		if (w->behind[i].pid == pid && !strcmp(w->behind[i].comm, comm))
			return w->behind[i].ns;
	return 0;
}

/* The union of the tasks waited behind, by the most time under any run. */
struct brow {
	int32_t pid;
	const char *comm;
	int64_t most;
};

static int by_most(const void *pa, const void *pb)
{
	const struct brow *a = pa, *b = pb;

	if (a->most != b->most)
		return a->most > b->most ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return strcmp(a->comm, b->comm);
}

static struct brow *behind_rows(const struct cmp_explain *x, size_t *n)
{
	size_t cap = 0, k = 0;
	struct brow *v;

	for (size_t r = 0; r < x->s->nruns; r++)
		cap += x->w[r].nbehind;
	v = calloc(cap ? cap : 1, sizeof(*v));
	if (!v)
		return NULL;
	for (size_t r = 0; r < x->s->nruns; r++) {
		for (size_t i = 0; i < x->w[r].nbehind; i++) {
			const struct cmp_behind *b = &x->w[r].behind[i];
			size_t j;

			for (j = 0; j < k; j++)
				if (v[j].pid == b->pid && !strcmp(v[j].comm, b->comm))
					break;
			if (j == k)
				v[k++] = (struct brow){ b->pid, b->comm, 0 };
			if (b->ns > v[j].most)
				v[j].most = b->ns;
		}
	}
	sr_qsort(v, k, sizeof(*v), by_most);
	*n = k;
	return v;
}

int cmp_explain_write_text(FILE *f, const struct cmp_explain *x)
{
	const struct cmp_set *s = x->s;
	struct brow *b;
	size_t nb;

	heading(f, x);
	verdict_text(f, x);
	for (size_t r = 0; r < s->nruns; r++) {
		const struct cmp_why *w = &x->w[r];
		char ms[SR_FMT_NUM];
		int m = cmp_why_main(w);

		fprintf(f, "\n%s: %llu wait%s, %s ms in all", s->runs[r].policy,
			(unsigned long long)w->nwaits, w->nwaits == 1 ? "" : "s",
			sr_fmt_ms(ms, sizeof(ms), w->total_ns, 3));
		if (!w->attributed)
			fputs("; not attributed (the recorded schedule, or a replay "
			      "made with --no-why)\n", f);
		else if (m != SM_WHY_NONE)
			fprintf(f, "; mostly %s: %s\n", sm_why_name(m),
				cmp_why_meaning(m));
		else
			fputc('\n', f);
		if (w->nworst)
			fprintf(f, "  the %zu worst:\n", w->nworst);
		if (worst_text(f, x, r))
			return SR_ENOMEM;
	}
	fprintf(f, "\ntotal wait by reason, ms (share of the wait)\n%-16s", "reason");
	for (size_t r = 0; r < s->nruns; r++)
		fprintf(f, " %20.20s", s->runs[r].policy);
	fputc('\n', f);
	for (int c = 1; c <= SM_WHY__COUNT; c++) {
		int why = c == SM_WHY__COUNT ? SM_WHY_NONE : c;
		bool any = false;

		for (size_t r = 0; r < s->nruns; r++)
			any |= x->w[r].by_why[why] > 0;
		if (!any)
			continue;
		fprintf(f, "%-16s", why == SM_WHY_NONE ? "not attributed" :
			sm_why_name(why));
		for (size_t r = 0; r < s->nruns; r++)
			cell_ms(f, x->w[r].by_why[why], x->w[r].total_ns);
		fputc('\n', f);
	}
	fprintf(f, "%-16s", "total");
	for (size_t r = 0; r < s->nruns; r++)
		cell_ms(f, x->w[r].total_ns, 0);
	fputc('\n', f);
	b = behind_rows(x, &nb);
	if (!b)
		return SR_ENOMEM;
	if (nb) {
		fprintf(f, "\ntotal wait by the task it waited behind, ms (share of "
			   "the wait; the %d most)\n%-24s", CMP_EXPLAIN_BEHIND, "task");
		for (size_t r = 0; r < s->nruns; r++)
			fprintf(f, " %20.20s", s->runs[r].policy);
		fputc('\n', f);
		for (size_t i = 0; i < nb && i < CMP_EXPLAIN_BEHIND; i++) {
			char lab[96], comm[SR_COMM_MAX];

			snprintf(lab, sizeof(lab), "%s (%d)",
				 sr_comm_clean(comm, sizeof(comm), b[i].comm),
				 (int)b[i].pid);
			fprintf(f, "%-24.24s", lab);
			for (size_t r = 0; r < s->nruns; r++)
				cell_ms(f, behind_ns(&x->w[r], b[i].pid, b[i].comm),
					x->w[r].total_ns);
			fputc('\n', f);
		}
	}
	free(b);
	return ferror(f) ? SR_EIO : SR_OK;
}

/* ---- TSV ---------------------------------------------------------------- */

int cmp_explain_write_tsv(FILE *f, const struct cmp_explain *x)
{
	const struct cmp_set *s = x->s;
	struct brow *b;
	size_t nb;

	fputs("table\treason\tpid\tcomm", f);
	for (size_t r = 0; r < s->nruns; r++)
		fprintf(f, "\t%s_ns", s->runs[r].policy);
	fputc('\n', f);
	for (int c = 1; c <= SM_WHY__COUNT; c++) {
		int why = c == SM_WHY__COUNT ? SM_WHY_NONE : c;

		fprintf(f, "reason\t%s\t-\t-", why == SM_WHY_NONE ? "-" :
			sm_why_name(why));
		for (size_t r = 0; r < s->nruns; r++)
			fprintf(f, "\t%lld", (long long)x->w[r].by_why[why]);
		fputc('\n', f);
	}
	fputs("total\t-\t-\t-", f);
	for (size_t r = 0; r < s->nruns; r++)
		fprintf(f, "\t%lld", (long long)x->w[r].total_ns);
	fputc('\n', f);
	b = behind_rows(x, &nb);
	if (!b)
		return SR_ENOMEM;
	for (size_t i = 0; i < nb; i++) {
		fprintf(f, "behind\t-\t%d\t", (int)b[i].pid);
		sr_put_comm(f, b[i].comm);
		for (size_t r = 0; r < s->nruns; r++)
			fprintf(f, "\t%lld",
				(long long)behind_ns(&x->w[r], b[i].pid, b[i].comm));
		fputc('\n', f);
	}
	free(b);
	return ferror(f) ? SR_EIO : SR_OK;
}

/* ---- JSON --------------------------------------------------------------- */

static void json_seg(FILE *f, const struct cmp_result *res,
		     const struct cmp_seg *g)
{
	char detail[64];

	fprintf(f, "{\"start_ns\": %lld, \"end_ns\": %lld, \"why\": \"%s\", "
		"\"detail\": \"%s\", \"cpu\": %d, \"running_pid\": ",
		(long long)g->start_ns, (long long)(g->start_ns + g->dur_ns),
		sm_why_name(g->why.code),
		sm_why_detail(detail, sizeof(detail), &g->why), (int)g->cpu);
	if (g->running_pid >= 0) {
		fprintf(f, "%d, \"running_comm\": ", (int)g->running_pid);
		sr_json_str(f, cmp_result_comm(res, g->running_comm));
		fprintf(f, ", \"running_prio\": %d}", (int)g->running_prio);
	} else {
		fputs("null, \"running_comm\": null, \"running_prio\": null}", f);
	}
}

int cmp_explain_write_json(FILE *f, const struct cmp_explain *x)
{
	const struct cmp_set *s = x->s;

	cmp_set_json_head(s, f);
	fputs(",\n  \"selection\": ", f);
	sr_json_str(f, x->what);
	fputs(",\n  \"tasks\": [", f);
	for (size_t i = 0; i < x->ntasks; i++) {
		const struct cmp_task *t = &s->tasks[x->tasks[i]];

		fprintf(f, "%s{\"pid\": %d, \"comm\": ", i ? ", " : "", t->pid);
		sr_json_str(f, t->comm);
		fprintf(f, ", \"occ\": %u, \"lost\": %s}", t->occ,
			t->lost ? "true" : "false");
	}
	fputs("],\n  \"verdict\": [", f);
	for (size_t k = 0; k < x->nv; k++) {
		const struct cmp_verdicts *v = &x->v[k];
		bool first = true;

		fputs(k ? ",\n    {\"policy\": " : "\n    {\"policy\": ", f);
		sr_json_str(f, s->runs[v->b].policy);
		fputs(", \"groups\": [", f);
		for (size_t i = 0; i < v->ng; i++) {
			if (!their_group(x, &v->g[i]))
				continue;
			fputs(first ? "\n      " : ",\n      ", f);
			cmp_verdict_group_json(f, &v->g[i]);
			first = false;
		}
		fputs("]}", f);
	}
	fputs("],\n  \"runs\": [", f);
	for (size_t r = 0; r < s->nruns; r++) {
		const struct cmp_why *w = &x->w[r];
		const struct cmp_result *res = s->runs[r].res;
		bool first = true;

		fputs(r ? ",\n    {\"policy\": " : "\n    {\"policy\": ", f);
		sr_json_str(f, s->runs[r].policy);
		fprintf(f, ", \"attributed\": %s, \"waits\": %llu, \"wait_ns\": %lld,"
			"\n     \"by_reason\": {", w->attributed ? "true" : "false",
			(unsigned long long)w->nwaits, (long long)w->total_ns);
		for (int c = 1; c <= SM_WHY__COUNT; c++) {
			int why = c == SM_WHY__COUNT ? SM_WHY_NONE : c;

			if (!w->by_why[why])
				continue;
			fprintf(f, "%s\"%s\": %lld", first ? "" : ", ",
				why == SM_WHY_NONE ? "not-attributed" :
				sm_why_name(why), (long long)w->by_why[why]);
			first = false;
		}
		fputs("},\n     \"behind\": [", f);
		for (size_t i = 0; i < w->nbehind; i++) {
			fprintf(f, "%s{\"pid\": %d, \"comm\": ", i ? ", " : "",
				(int)w->behind[i].pid);
			sr_json_str(f, w->behind[i].comm);
			fprintf(f, ", \"ns\": %lld}", (long long)w->behind[i].ns);
		}
		fputs("],\n     \"worst\": [", f);
		for (size_t i = 0; i < w->nworst; i++) {
			const struct cmp_lat *l = w->worst[i].lat;
			const struct cmp_task *t = &s->tasks[w->worst[i].task];
			char at[SR_FMT_NUM];

			fprintf(f, "%s\n      {\"pid\": %d, \"comm\": ", i ? "," : "",
				t->pid);
			sr_json_str(f, t->comm);
			fprintf(f, ", \"wake_ns\": %lld, \"wake_s\": %s, "
				"\"delay_ns\": %lld, \"segments\": [",
				(long long)l->wake_ns,
				sr_fmt_s(at, sizeof(at), l->wake_ns - s->origin, 9),
				(long long)l->delay_ns);
			for (uint32_t k = 0; k < l->nseg; k++) {
				fputs(k ? ",\n        " : "\n        ", f);
				json_seg(f, res, &res->seg[l->seg0 + k]);
			}
			fputs("]}", f);
		}
		fputs("]}", f);
	}
	fputs("\n  ]\n}\n", f);
	return ferror(f) ? SR_EIO : SR_OK;
}

