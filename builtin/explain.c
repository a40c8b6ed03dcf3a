/*
 * builtin/explain: `schedreplay explain TRACE --task REGEX | --pid N
 * [--policy P]... [--top N] [--tsv|--json] [-o FILE]`: why the tasks
 * waited, under each policy side by side: their worst waits with their
 * segments in words, and the total wait by reason and by the task waited
 * behind (compare/why.h; the attribution: docs/replay.md, "Why a task
 * waited").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "compare/diff.h"
#include "compare/load.h"
#include "compare/select.h"
#include "compare/source.h"
#include "compare/why.h"
#include "lib/fmt.h"
#include "lib/outfile.h"
#include "lib/progress.h"

#define EXPLAIN_TOP 5          /* worst waits shown per policy */
#define EXPLAIN_BEHIND 12      /* rows of the table by task waited behind */
#define EXPLAIN_NAMES 8        /* tasks named in the heading */

struct sel {
	const struct cmp_taskre *re; /* NULL: by --pid alone */
	const struct cmp_set *s;
};

static bool wanted(const struct cmp_task *t, void *ctx)
{
	const struct sel *x = ctx;

	if (!cmp_task_shown(x->s, t))
		return false;
	return !x->re || cmp_taskre_match(x->re, t->comm);
}

struct explain {
	struct cmp_set *s;
	struct sel sel;
	const char *what;       /* the selection, for headings */
	struct cmp_why w[CMP_MAX_RUNS];
	size_t top;
	long *tasks;            /* the tasks selected */
	size_t ntasks;
	/* the verdict of each policy but the first against it
	   (compare/verdict.h), for the groups of the tasks selected */
	struct cmp_verdicts *v;
	size_t nv;
};

/* Group g of a verdict holds one of the tasks selected. */
static bool their_group(const struct explain *x,
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
static void verdict_text(FILE *f, const struct explain *x)
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

static void heading(FILE *f, const struct explain *x)
{
	fprintf(f, "schedreplay explain: %s, %zu task%s %s (", x->s->title,
		x->ntasks, x->ntasks == 1 ? "" : "s", x->what);
	for (size_t i = 0; i < x->ntasks && i < EXPLAIN_NAMES; i++) {
		char lab[96];

		cmp_task_label(&x->s->tasks[x->tasks[i]], lab, sizeof(lab));
		fprintf(f, "%s%s", i ? ", " : "", lab);
	}
	if (x->ntasks > EXPLAIN_NAMES)
		fprintf(f, ", and %zu more", x->ntasks - EXPLAIN_NAMES);
	fputs(")\n", f);
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

static int worst_text(FILE *f, const struct explain *x, size_t r)
{
	const struct cmp_why *w = &x->w[r];
	const struct cmp_result *res = x->s->runs[r].res;

	for (size_t i = 0; i < w->nworst; i++) {
		struct numbered n = { f, i + 1 };
		char lab[96];

		cmp_task_label(&x->s->tasks[w->worst[i].task], lab, sizeof(lab));
		if (cmp_why_wait_lines(x->s, res, w->worst[i].lat, lab,
				       worst_line, &n))
			return SR_EINTERNAL;
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

static struct brow *behind_rows(const struct explain *x, size_t *n)
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
	qsort(v, k, sizeof(*v), by_most);
	*n = k;
	return v;
}

static int write_text(FILE *f, const struct explain *x)
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
			return SR_EINTERNAL;
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
		return SR_EINTERNAL;
	if (nb) {
		fprintf(f, "\ntotal wait by the task it waited behind, ms (share of "
			   "the wait; the %d most)\n%-24s", EXPLAIN_BEHIND, "task");
		for (size_t r = 0; r < s->nruns; r++)
			fprintf(f, " %20.20s", s->runs[r].policy);
		fputc('\n', f);
		for (size_t i = 0; i < nb && i < EXPLAIN_BEHIND; i++) {
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

static int write_tsv(FILE *f, const struct explain *x)
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
		return SR_EINTERNAL;
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

static int write_json(FILE *f, const struct explain *x)
{
	const struct cmp_set *s = x->s;

	fputs("{\n  \"trace\": ", f);
	sr_json_str(f, s->title);
	fputs(",\n  \"selection\": ", f);
	sr_json_str(f, x->what);
	fputs(",\n  \"tasks\": [", f);
	for (size_t i = 0; i < x->ntasks; i++) {
		const struct cmp_task *t = &s->tasks[x->tasks[i]];

		fprintf(f, "%s{\"pid\": %d, \"comm\": ", i ? ", " : "", t->pid);
		sr_json_str(f, t->comm);
		fprintf(f, ", \"occ\": %u}", t->occ);
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

/* ---- the command ---------------------------------------------------------- */

static int select_tasks(struct explain *x, struct sr_diag *d)
{
	x->tasks = malloc((x->s->ntasks ? x->s->ntasks : 1) * sizeof(long));
	if (!x->tasks)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	for (size_t i = 0; i < x->s->ntasks; i++)
		if (wanted(&x->s->tasks[i], &x->sel))
			x->tasks[x->ntasks++] = (long)i;
	if (!x->ntasks)
		return sr_fail(d, SR_EUSAGE, "explain: no task %s in %s",
			       x->what, x->s->title);
	return SR_OK;
}

int cmd_explain(int argc, char **argv, struct sr_diag *d)
{
	struct cmp_load_opts o = { .cmd = "explain" };
	struct sr_progress pg;
	bool quiet = false;
	int format = OUT_TEXT;
	int64_t top = EXPLAIN_TOP;
	const char *out = "-";
	const struct po_option opts[] = {
		OPT_COMPARE(&o, "a policy to explain the waits under; repeat "
				"for several, side by side (default: stock, "
				"o11int)",
			    "the tasks to explain: those whose comm matches "
			    "this pcre2 regex"),
		OPT_NUMBER(0, "top", &top, "N", "the N worst waits under each "
			   "policy (default 5)", 0, 1000, NULL),
		OPT_OUTPUT_FILE(&quiet, &out),
		OPT_SET_INT(0, "tsv", &format, "the wait by reason and by the "
			    "task waited behind, in ns, tab-separated",
			    OUT_TSV),
		OPT_SET_INT(0, "json", &format, "everything, the worst waits' "
			    "segments too, as JSON", OUT_JSON),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "explain",
		.operands = "TRACE",
		.min_operands = 1,
		.max_operands = 1,
		.about = "Why the tasks waited, under each policy side by side: their "
			"worst waits in words, and the wait by reason and by the task "
			"waited behind. " CMP_TRACE_ABOUT,
		.footer = "docs/replay.md, \"Why a task waited\", names the reasons.",
		.opts = opts,
	};
	struct cmp_source src;
	struct cmp_set set;
	struct cmp_taskre *re = NULL;
	struct explain x = { 0 };
	struct sr_outfile *f = NULL;
	char what[256];
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &o.trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	if (!o.task && !sr_sel_has_pids(&o.sel))
		return sr_fail(d, SR_EUSAGE, "explain: expected --task REGEX or "
			       "--pid N (or both: the tasks of those pids whose "
			       "comm matches)");
	sr_progress_init(&pg, "explain", quiet);
	o.progress = &pg;
	rc = cmp_cmd_load(&o, 1, CMP_MAX_RUNS, &src, &set, &re, d);
	if (sr_sel_has_pids(&o.sel)) {
		char sel[200];

		sr_sel_describe(&o.sel, sel, sizeof(sel));
		snprintf(what, sizeof(what), "%s%s%s%s", sel,
			 o.task ? " matching '" : "", o.task ? o.task : "",
			 o.task ? "'" : "");
	} else {
		snprintf(what, sizeof(what), "matching '%s'", o.task);
	}
	x.s = &set;
	x.sel = (struct sel){ o.task ? re : NULL, &set };
	x.what = what;
	x.top = (size_t)top;
	if (rc == SR_OK && set.nruns > 1) {
		x.v = calloc(set.nruns - 1, sizeof(*x.v));
		if (!x.v)
			rc = sr_fail(d, SR_EINTERNAL, "out of memory");
		for (size_t r = 1; rc == SR_OK && r < set.nruns; r++, x.nv++)
			rc = cmp_verdict_build(&x.v[r - 1], &set, 0, r, d);
	}
	if (rc == SR_OK)
		rc = select_tasks(&x, d);
	for (size_t r = 0; rc == SR_OK && r < set.nruns; r++)
		rc = cmp_why_run(&set, r, wanted, &x.sel, x.top, &x.w[r], d);
	if (rc == SR_OK)
		rc = sr_outfile_open(&f, out, d);
	if (rc == SR_OK) {
		FILE *fp = sr_outfile_fp(f);

		rc = format == OUT_TSV ? write_tsv(fp, &x) :
		     format == OUT_JSON ? write_json(fp, &x) :
		     write_text(fp, &x);
		rc = sr_outfile_finish(f, rc, out, d);
	}
	for (size_t r = 0; r < CMP_MAX_RUNS; r++)
		cmp_why_free(&x.w[r]);
	free(x.tasks);
	free(x.v);
	cmp_set_free(&set);
	cmp_source_close(&src);
	cmp_taskre_free(re);
	return rc;
}
