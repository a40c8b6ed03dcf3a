/*
 * diff-write: a diff (compare/diff.h) written out: the human table, TSV
 * and JSON, each figure of a task from one table of the figures compared.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "compare/behave.h"
#include "compare/diff.h"
#include "compare/style.h"
#include "lib/fmt.h"
#include "parse/read-warn.h"

/* ---- the figures compared, as one table ------------------------------- */

enum mkind {
	MK_NS,     /* int64 ns, shown in ms */
	MK_DNS,    /* double ns, shown in ms */
	MK_COUNT,  /* uint64 */
	MK_SHARE,  /* double fraction */
};

struct metric {
	const char *name;   /* column stem in TSV and JSON */
	enum mkind kind;
	size_t off;         /* in struct cmp_figs */
};

static const struct metric metrics[] = {
	{ "runtime_ms", MK_NS, offsetof(struct cmp_figs, runtime_ns) },
	{ "switches", MK_COUNT, offsetof(struct cmp_figs, switches) },
	{ "wakeups", MK_COUNT, offsetof(struct cmp_figs, wakeups) },
	{ "avg_delay_ms", MK_NS, offsetof(struct cmp_figs, avg_ns) },
	{ "p95_delay_ms", MK_NS, offsetof(struct cmp_figs, p95_ns) },
	{ "p99_delay_ms", MK_NS, offsetof(struct cmp_figs, p99_ns) },
	{ "max_delay_ms", MK_NS, offsetof(struct cmp_figs, max_ns) },
	{ "sd_delay_ms", MK_DNS, offsetof(struct cmp_figs, sd_ns) },
	{ "ib_sd_delay_ms", MK_DNS, offsetof(struct cmp_figs, ib_sd_ns) },
	{ "cpu_share", MK_SHARE, offsetof(struct cmp_figs, cpu_share) },
	{ "expired", MK_COUNT, offsetof(struct cmp_figs, expired) },
	{ "late_wakeups", MK_COUNT, offsetof(struct cmp_figs, late_wakeups) },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

static long double mval(const struct cmp_figs *f, const struct metric *m)
{
	const char *p = (const char *)f + m->off;

	switch (m->kind) {
	case MK_NS: return (long double)*(const int64_t *)p;
	case MK_DNS: return (long double)*(const double *)p;
	case MK_COUNT: return (long double)*(const uint64_t *)p;
	case MK_SHARE: return (long double)*(const double *)p;
	}
	return 0;
}

/* A value (or change) of metric m; exact for integer kinds. */
static char *mfmt(char *buf, size_t len, const struct cmp_figs *fa,
		  const struct cmp_figs *fb, const struct metric *m)
{
	const char *pa = fa ? (const char *)fa + m->off : NULL;
	const char *pb = (const char *)fb + m->off;

	switch (m->kind) {
	case MK_NS: {
		int64_t v = *(const int64_t *)pb;

		if (pa)
			v -= *(const int64_t *)pa;
		return sr_fmt_ms(buf, len, v, 6);
	}
	case MK_COUNT: {
		long long v = (long long)*(const uint64_t *)pb;

		if (pa)
			v -= (long long)*(const uint64_t *)pa;
		snprintf(buf, len, "%lld", v);
		return buf;
	}
	case MK_DNS: {
		double v = *(const double *)pb;

		if (pa)
			v -= *(const double *)pa;
		snprintf(buf, len, "%.6f", v / 1e6);
		return buf;
	}
	case MK_SHARE: {
		double v = *(const double *)pb;

		if (pa)
			v -= *(const double *)pa;
		snprintf(buf, len, "%.6f", v);
		return buf;
	}
	}
	buf[0] = '\0';
	return buf;
}

/* B/A, or NULL when A is 0 (undefined; 1 would hide a change from 0). */
static const char *ratio_fmt(char *buf, size_t len, const struct cmp_figs *fa,
			     const struct cmp_figs *fb, const struct metric *m)
{
	long double a = mval(fa, m), b = mval(fb, m);

	if (a == 0)
		return NULL;
	snprintf(buf, len, "%.4f", (double)(b / a));
	return buf;
}

/* ---- the human table --------------------------------------------------- */

/* A line of the first screen, wrapped to CMP_SCREEN_COLS. */
static void print_line(void *ctx, const char *line)
{
	sr_put_wrapped(ctx, line, CMP_SCREEN_COLS, 0, 0, NULL, NULL);
}

struct vprint {
	FILE *f;
	bool color;
};

/* A verdict line, wrapped, its word in green (better), red (worse) or
 * grey (unchanged) when color. */
static void print_vline(void *ctx, const struct cmp_vline *l)
{
	const struct vprint *p = ctx;
	static const char *const on[] = {
		[CMP_SAME] = "\033[90m", [CMP_BETTER] = "\033[32m",
		[CMP_WORSE] = "\033[31m",
	};

	if (l->kind == CMP_VL_GROUP && p->color)
		sr_put_wrapped(p->f, l->text, CMP_SCREEN_COLS, l->word,
			       l->wordlen, on[l->verdict], CMP_ANSI_OFF);
	else
		print_line(p->f, l->text);
}

/* The policy column: as wide as the longest label (10 to 40). */
static int policy_width(const struct cmp_set *s)
{
	int w = 10;

	for (size_t r = 0; r < s->nruns; r++) {
		int n = (int)strlen(s->runs[r].policy);

		if (n > w)
			w = n < 40 ? n : 40;
	}
	return w;
}

/* A policy's name padded to w, in its colour when color. */
static void put_policy(FILE *f, const char *policy, int w, bool color)
{
	if (color) {
		struct cmp_style st;
		char on[32];

		cmp_style_of(policy, &st);
		cmp_style_ansi_on(&st, on, sizeof(on));
		fputs(on, f);
	}
	if (w > 0)
		fprintf(f, "%-*.*s", w, w, policy);
	else
		fputs(policy, f);
	if (color)
		fputs(CMP_ANSI_OFF, f);
}

static void table_row(FILE *f, const struct cmp_task *t, const struct cmp_figs *fg,
		      const char *policy, int pw, bool color, bool first,
		      const char *chg, const char *ratio)
{
	char lab[96], v[7][32], cls[24];

	cmp_task_label(t, lab, sizeof(lab));
	snprintf(cls, sizeof(cls), "%s%s", cmp_class_name(t->cls),
		 t->starved ? "*" : "");
	fprintf(f, "%-26.26s %-12s ", first ? lab : "", first ? cls : "");
	put_policy(f, policy, pw, color);
	if (!fg->present) {
		fprintf(f, " %s\n", "(not in this run)");
		return;
	}
	fprintf(f, " %11s %8llu %8s %8s %9s %9s %6.1f %9s %6s\n",
		sr_fmt_ms(v[0], sizeof(v[0]), fg->runtime_ns, 3),
		(unsigned long long)fg->switches,
		sr_fmt_ms(v[1], sizeof(v[1]), fg->avg_ns, 3),
		sr_fmt_ms(v[2], sizeof(v[2]), fg->p95_ns, 3),
		sr_fmt_ms(v[3], sizeof(v[3]), fg->p99_ns, 3),
		sr_fmt_ms(v[4], sizeof(v[4]), fg->max_ns, 3),
		100.0 * fg->cpu_share, chg, ratio);
}

static int periodic_table(const struct cmp_ndiff *nd, FILE *f, bool color)
{
	const struct cmp_set *s = nd->s;
	long *rows = NULL;
	size_t n = 0;
	int pw = policy_width(s);

	/* the tasks periodic under any pair, in the diff order */
	rows = malloc((nd->nrows + 1) * sizeof(*rows));
	if (!rows)
		return SR_ENOMEM;
	for (size_t i = 0; i < nd->nrows; i++) {
		const struct cmp_task *t = &s->tasks[nd->rows[i]];

		if (t->period_ns > 0 && t->figs[0].periods && t->figs[0].present)
			rows[n++] = nd->rows[i];
	}
	if (!n) {
		free(rows);
		return SR_OK;
	}
	fprintf(f, "\nperiodic tasks (interbench's figures: deadlines met on the recording's clock and the replay's own,\n"
		   "desired CPU; SD = true standard deviation, \"ib SD\" = what interbench prints, a root mean square)\n");
	fprintf(f, "%-26s %9s %-*s %9s %9s %10s %9s %9s %9s %9s\n", "task",
		"period ms", pw, "policy", "deadlines", "own clock", "desiredCPU",
		"avg ms", "SD ms", "ib SD ms", "max ms");
	for (size_t i = 0; i < n; i++) {
		const struct cmp_task *t = &s->tasks[rows[i]];
		char lab[96], per[32];
		bool first = true;

		cmp_task_label(t, lab, sizeof(lab));
		sr_fmt_ms(per, sizeof(per), t->period_ns, 3);
		for (size_t r = 0; r < s->nruns; r++) {
			const struct cmp_figs *fg = &t->figs[r];
			char v[4][32];

			if (!fg->present)
				continue;
			fprintf(f, "%-26.26s %9s ", first ? lab : "",
				first ? per : "");
			put_policy(f, s->runs[r].policy, pw, color);
			fprintf(f, " %8.1f%% %8.1f%% %9.1f%% %9s %9.3f %9.3f %9s\n",
				cmp_deadlines_met_pct(fg), cmp_deadlines_met_own_pct(fg),
				cmp_desired_cpu_pct(fg),
				sr_fmt_ms(v[0], sizeof(v[0]), fg->avg_ns, 3),
				fg->sd_ns / 1e6, fg->ib_sd_ns / 1e6,
				sr_fmt_ms(v[1], sizeof(v[1]), fg->max_ns, 3));
			first = false;
		}
	}
	free(rows);
	return SR_OK;
}

int cmp_ndiff_write_table(const struct cmp_ndiff *nd, FILE *f, bool all,
			  bool color, bool why)
{
	const struct cmp_set *s = nd->s;
	const char *A = s->runs[0].policy;
	size_t nrows = 0;
	int pw = policy_width(s);
	char sel[512];

	fprintf(f, "schedreplay diff: %s, ", s->title);
	put_policy(f, A, 0, color);
	if (nd->npairs == 1) {
		fputs(" (A) against ", f);
		put_policy(f, s->runs[1].policy, 0, color);
		fputs(" (B)\n", f);
	} else {
		fputs(" (the baseline) against ", f);
		for (size_t r = 1; r < s->nruns; r++) {
			fputs(r == 1 ? "" : r + 1 == s->nruns ? " and " : ", ", f);
			put_policy(f, s->runs[r].policy, 0, color);
		}
		fputc('\n', f);
	}
	fprintf(f, "behaviour (interactive, batch, periodic) from the %s run%s\n",
		s->ref_policy,
		strcmp(s->ref_policy, "observed") ? "" : " (the recorded schedule)");
	if (s->loss)
		sr_loss_put(f, s->loss, "");
	if (s->focus) {
		char line[512];

		snprintf(line, sizeof(line), "only the process tree of the first task matching '%s' (%zu tasks); all were replayed",
			 s->focus_regex, s->focus_tasks);
		print_line(f, line);
	}
	sr_sel_describe(s->sel, sel, sizeof(sel));
	if (*sel) {
		char line[600];

		snprintf(line, sizeof(line), "only %s; replayed from the start", sel);
		print_line(f, line);
	}
	fputc('\n', f);
	if (nd->verdicts) {
		struct vprint vp = { f, color };

		cmp_ndiff_verdict(nd, why, print_vline, &vp);
		fputc('\n', f);
	}
	cmp_ndiff_headline(nd, print_line, f);
	if (periodic_table(nd, f, color))
		return SR_ENOMEM; /* said by sr_outfile_finish */
	/*
	 * All tasks in diff order with --all.  Without it, first the tasks
	 * with enough waits under every policy for a p99 to mean something,
	 * then, while there is room, the others: a short-lived helper's "p99"
	 * is one or two waits and would crowd out the tasks that matter.
	 */
	for (int pass = 0; pass < 2; pass++) {
		size_t shown = 0, left = 0;

		if (pass == 0)
			fprintf(f, "\ntasks %sby change in p99 scheduling delay (ms; change = %s - %s, ratio = %s / %s)\n",
				all ? "" : nd->npairs == 1 ?
				"with at least 20 waits under both policies, " :
				"with at least 20 waits under every policy, ",
				nd->npairs == 1 ? "B" : "policy",
				nd->npairs == 1 ? "A" : A,
				nd->npairs == 1 ? "B" : "policy",
				nd->npairs == 1 ? "A" : A);
		for (size_t i = 0; i < nd->nrows; i++) {
			const struct cmp_task *t = &s->tasks[nd->rows[i]];
			const struct cmp_figs *fa = &t->figs[0];
			bool many = cmp_enough_waits(s, t, 0, SIZE_MAX,
						     CMP_SELECT_MIN_WAITS);

			if (!all && many != (pass == 0))
				continue;
			if (!all && nrows >= CMP_TABLE_ROWS) {
				left++;
				continue;
			}
			if (!shown) {
				if (pass == 1)
					fprintf(f, "\ntasks with fewer waits (a p99 of a few samples), by change in p99\n");
				fprintf(f, "%-26s %-12s %-*s %11s %8s %8s %8s %9s %9s %6s %9s %6s\n",
					"task", "class", pw, "policy", "runtime ms", "switches", "avg", "p95",
					"p99", "max", "cpu%", "p99 chg", "ratio");
			}
			table_row(f, t, fa, A, pw, color, true, "", "");
			for (size_t r = 1; r < s->nruns; r++) {
				const struct cmp_figs *fb = &t->figs[r];
				char chg[32] = "", rat[32] = "";

				if (fa->present && fb->present) {
					sr_fmt_ms(chg, sizeof(chg), fb->p99_ns - fa->p99_ns, 3);
					if (fa->p99_ns)
						snprintf(rat, sizeof(rat), "%.2f",
							 (double)fb->p99_ns / (double)fa->p99_ns);
					else
						snprintf(rat, sizeof(rat), "-");
				}
				table_row(f, t, fb, s->runs[r].policy, pw, color,
					  false, chg, rat);
			}
			shown++;
			nrows++;
		}
		if (left)
			fprintf(f, "... %zu more tasks%s (--all shows every task; --tsv and --json give every figure with its change and ratio)\n",
				left, pass ? "" : " with at least 20 waits");
		if (all)
			break;
	}
	for (size_t i = 0; i < nd->nrows; i++)
		if (s->tasks[nd->rows[i]].starved) {
			fputs("* class: starved in the recording (the headline "
			      "says how)\n", f);
			break;
		}
	return ferror(f) ? SR_EIO : SR_OK;
}

/* ---- TSV --------------------------------------------------------------- */

static void tsv_period(FILE *f, const struct cmp_task *t, const struct cmp_figs *fg)
{
	if (t->period_ns > 0 && fg->periods)
		fprintf(f, "\t%.3f\t%.3f\t%.3f", cmp_deadlines_met_pct(fg),
			cmp_deadlines_met_own_pct(fg), cmp_desired_cpu_pct(fg));
	else
		fputs("\t-\t-\t-", f);
}

static const char *const verdicts[] = { "same", "better", "worse" };

/* One TSV row: task t, the baseline (run 0) against run b. */
static void tsv_row(FILE *f, const struct cmp_set *s, const struct cmp_task *t,
		    size_t b)
{
	const struct cmp_figs *fa = &t->figs[0], *fb = &t->figs[b];
	bool both = fa->present && fb->present;
	char per[32], v[40];

	if (t->period_ns > 0)
		sr_fmt_ms(per, sizeof(per), t->period_ns, 6);
	else
		snprintf(per, sizeof(per), "-");
	fprintf(f, "%s\t%s\t%d\t%s\t%u\t%s\t%.4f\t%.3f\t%s",
		s->runs[0].policy, s->runs[b].policy, t->pid,
		t->comm, t->occ, cmp_class_name(t->cls), t->sleep_share,
		t->wake_rate, per);
	for (size_t m = 0; m < NMETRICS; m++) {
		const char *r;

		fprintf(f, "\t%s", fa->present ? mfmt(v, sizeof(v), NULL, fa, &metrics[m]) : "-");
		fprintf(f, "\t%s", fb->present ? mfmt(v, sizeof(v), NULL, fb, &metrics[m]) : "-");
		fprintf(f, "\t%s", both ? mfmt(v, sizeof(v), fa, fb, &metrics[m]) : "-");
		r = both ? ratio_fmt(v, sizeof(v), fa, fb, &metrics[m]) : NULL;
		fprintf(f, "\t%s", r ? r : "-");
	}
	tsv_period(f, t, fa);
	tsv_period(f, t, fb);
	fprintf(f, "\t%s", fa->finish_ns ? sr_fmt_s(v, sizeof(v), fa->finish_ns, 9) : "-");
	fprintf(f, "\t%s", fb->finish_ns ? sr_fmt_s(v, sizeof(v), fb->finish_ns, 9) : "-");
	fprintf(f, "\t%s", both ? verdicts[cmp_verdict_of(t, 0, b)] : "-");
	fprintf(f, "\t%d\t%u\t%d\n", t->starved, t->late_wakes, t->lost);
}

int cmp_ndiff_write_tsv(const struct cmp_ndiff *nd, FILE *f)
{
	const struct cmp_set *s = nd->s;

	fputs("policy_a\tpolicy_b\tpid\tcomm\tocc\tclass\tsleep_share\twake_rate\tperiod_ms", f);
	for (size_t m = 0; m < NMETRICS; m++)
		fprintf(f, "\ta_%s\tb_%s\tchange_%s\tratio_%s", metrics[m].name,
			metrics[m].name, metrics[m].name, metrics[m].name);
	fputs("\ta_deadlines_met_pct\ta_deadlines_met_own_pct\ta_desired_cpu_pct\tb_deadlines_met_pct\tb_deadlines_met_own_pct\tb_desired_cpu_pct\ta_finish_s\tb_finish_s\tp99_verdict\tstarved\tlate_wakes\tlost\n", f);
	/* a task's rows together, one per compared policy; a row only where
	 * the baseline or that policy has the task */
	for (size_t i = 0; i < nd->nrows; i++) {
		const struct cmp_task *t = &s->tasks[nd->rows[i]];

		for (size_t b = 1; b < s->nruns; b++)
			if (t->figs[0].present || t->figs[b].present)
				tsv_row(f, s, t, b);
	}
	return ferror(f) ? SR_EIO : SR_OK;
}

/* ---- JSON -------------------------------------------------------------- */

struct json_lines {
	FILE *f;
	bool first;
	const char *indent;
};

static void json_line(void *ctx, const char *line)
{
	struct json_lines *j = ctx;

	while (*line == ' ')
		line++;
	fprintf(j->f, "%s%s", j->first ? "\n" : ",\n", j->indent);
	sr_json_str(j->f, line);
	j->first = false;
}

static void json_figs(FILE *f, const struct cmp_task *t, const struct cmp_figs *fg)
{
	char v[40];

	if (!fg->present) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	for (size_t m = 0; m < NMETRICS; m++)
		fprintf(f, "%s\"%s\": %s", m ? ", " : "", metrics[m].name,
			mfmt(v, sizeof(v), NULL, fg, &metrics[m]));
	fprintf(f, ", \"finish_s\": %s",
		fg->finish_ns ? sr_fmt_s(v, sizeof(v), fg->finish_ns, 9) : "null");
	if (t->period_ns > 0 && fg->periods)
		fprintf(f, ", \"periods\": %llu, \"deadlines_met_pct\": %.3f, \"deadlines_met_own_pct\": %.3f, \"desired_cpu_pct\": %.3f",
			(unsigned long long)fg->periods, cmp_deadlines_met_pct(fg),
			cmp_deadlines_met_own_pct(fg), cmp_desired_cpu_pct(fg));
	fputc('}', f);
}

static void json_change(FILE *f, const struct cmp_figs *fa,
			const struct cmp_figs *fb, bool ratio)
{
	char v[40];

	if (!fa->present || !fb->present) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	for (size_t m = 0; m < NMETRICS; m++) {
		const char *r = ratio ? ratio_fmt(v, sizeof(v), fa, fb, &metrics[m])
				      : mfmt(v, sizeof(v), fa, fb, &metrics[m]);

		fprintf(f, "%s\"%s\": %s", m ? ", " : "", metrics[m].name,
			r ? r : "null");
	}
	fputc('}', f);
}

static void json_names(FILE *f, const struct cmp_diff *df, enum cmp_verdict want)
{
	bool first = true;

	fputc('[', f);
	for (size_t i = 0; i < df->ninter; i++) {
		const struct cmp_task *t = &df->s->tasks[df->inter[i]];

		if (cmp_task_verdict(df, t) != want)
			continue;
		fprintf(f, "%s{\"pid\": %d, \"comm\": ", first ? "" : ", ", t->pid);
		sr_json_str(f, t->comm);
		fprintf(f, ", \"occ\": %u}", t->occ);
		first = false;
	}
	fputc(']', f);
}

/* One pair's headline as data, and its own lines as text. */
static void json_comparison(FILE *f, const struct cmp_diff *df)
{
	struct json_lines jl = { f, true, "        " };
	char v[40];

	fputs("\n    {\"policy\": ", f);
	sr_json_str(f, df->s->runs[df->b].policy);
	fputs(",\n     \"headline\": {\n       \"interactive_better\": ", f);
	json_names(f, df, CMP_BETTER);
	fputs(",\n       \"interactive_worse\": ", f);
	json_names(f, df, CMP_WORSE);
	fputs(",\n       \"interactive_same\": ", f);
	json_names(f, df, CMP_SAME);
	fprintf(f, ",\n       \"batch_tasks\": %zu", df->nbatch);
	fprintf(f, ",\n       \"batch_cpu_s\": %s", sr_fmt_s(v, sizeof(v), df->batch_cpu_ns, 9));
	if (df->batch_done_known) {
		fprintf(f, ",\n       \"batch_done_a_s\": %s", sr_fmt_s(v, sizeof(v), df->batch_done_a, 9));
		fprintf(f, ",\n       \"batch_done_b_s\": %s", sr_fmt_s(v, sizeof(v), df->batch_done_b, 9));
	} else {
		fputs(",\n       \"batch_done_a_s\": null,\n       \"batch_done_b_s\": null", f);
	}
	fputs("\n     },\n     \"headline_text\": [", f);
	cmp_diff_headline_policy(df, json_line, &jl);
	fputs("\n     ],\n     \"verdict\": ", f);
	if (df->verdict)
		cmp_verdict_write_json(f, df->verdict);
	else
		fputs("null", f);
	fputc('}', f);
}

/* {"POLICY": value, ...} over the compared runs (1..), value by fn. */
static void json_by_policy(FILE *f, const struct cmp_set *s,
			   const struct cmp_task *t, int what)
{
	const struct cmp_figs *fa = &t->figs[0];

	fputc('{', f);
	for (size_t r = what ? 1 : 0; r < s->nruns; r++) {
		const struct cmp_figs *fb = &t->figs[r];

		fputs(r > (what ? 1u : 0u) ? ", " : "", f);
		sr_json_str(f, s->runs[r].policy);
		fputs(": ", f);
		switch (what) {
		case 0: json_figs(f, t, fb); break;
		case 1: json_change(f, fa, fb, false); break;
		case 2: json_change(f, fa, fb, true); break;
		default:
			if (fa->present && fb->present)
				fprintf(f, "\"%s\"", verdicts[cmp_verdict_of(t, 0, r)]);
			else
				fputs("null", f);
		}
	}
	fputc('}', f);
}

int cmp_ndiff_write_json(const struct cmp_ndiff *nd, FILE *f)
{
	const struct cmp_set *s = nd->s;
	struct json_lines jl = { f, true, "    " };
	char v[40], sel[512];

	cmp_set_json_head(s, f);
	fputs(",\n  \"baseline\": ", f);
	sr_json_str(f, s->runs[0].policy);
	fputs(",\n  \"policies\": [", f);
	for (size_t r = 0; r < s->nruns; r++) {
		fputs(r ? ", " : "", f);
		sr_json_str(f, s->runs[r].policy);
	}
	fputs("],\n  \"reference\": ", f);
	sr_json_str(f, s->ref_policy);
	fputs(",\n  \"tree\": ", f);
	if (s->focus)
		sr_json_str(f, s->focus_regex);
	else
		fputs("null", f);
	fputs(",\n  \"selection\": ", f);
	sr_sel_describe(s->sel, sel, sizeof(sel));
	if (*sel)
		sr_json_str(f, sel);
	else
		fputs("null", f);
	fputs(",\n  \"verdict_text\": [", f);
	{
		struct cmp_vtext vt = { json_line, &jl };

		cmp_ndiff_verdict(nd, false, cmp_vline_text, &vt);
	}
	fputs("\n  ],\n  \"verdict_rule\": ", f);
	{
		unsigned kinds = 0;

		for (size_t k = 0; nd->verdicts && k < nd->npairs; k++)
			kinds |= cmp_verdict_kinds(&nd->verdicts[k]);
		cmp_vrule_write_json(f, kinds);
	}
	fputs(",\n  \"headline_text\": [", f);
	jl.first = true;
	cmp_ndiff_headline(nd, json_line, &jl);
	fputs("\n  ],\n  \"comparisons\": [", f);
	for (size_t k = 0; k < nd->npairs; k++) {
		fputs(k ? "," : "", f);
		json_comparison(f, &nd->pair[k]);
	}
	fputs("\n  ],\n  \"tasks\": [", f);
	for (size_t i = 0; i < nd->nrows; i++) {
		const struct cmp_task *t = &s->tasks[nd->rows[i]];

		fprintf(f, "%s\n    {\"pid\": %d, \"comm\": ", i ? "," : "", t->pid);
		sr_json_str(f, t->comm);
		fprintf(f, ", \"occ\": %u, \"class\": \"%s\", \"sleep_share\": %.4f, \"wake_rate\": %.3f, \"starved\": %s, \"late_wakes\": %u, \"lost\": %s, \"period_ms\": ",
			t->occ, cmp_class_name(t->cls), t->sleep_share, t->wake_rate,
			t->starved ? "true" : "false", t->late_wakes,
			t->lost ? "true" : "false");
		if (t->period_ns > 0)
			fputs(sr_fmt_ms(v, sizeof(v), t->period_ns, 6), f);
		else
			fputs("null", f);
		fputs(",\n     \"figures\": ", f);
		json_by_policy(f, s, t, 0);
		fputs(",\n     \"change\": ", f);
		json_by_policy(f, s, t, 1);
		fputs(",\n     \"ratio\": ", f);
		json_by_policy(f, s, t, 2);
		fputs(",\n     \"p99_verdict\": ", f);
		json_by_policy(f, s, t, 3);
		fputc('}', f);
	}
	fputs("\n  ]\n}\n", f);
	return ferror(f) ? SR_EIO : SR_OK;
}
