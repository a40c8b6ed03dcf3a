/*
 * builtin/explain: `schedreplay explain TRACE --task REGEX | --pid N
 * [--policy P]... [--top N] [--tsv|--json] [-o FILE]`: why the tasks
 * waited, under each policy side by side: their worst waits with their
 * segments in words, and the total wait by reason and by the task waited
 * behind (compare/why.h adds them up, compare/explain.c writes them;
 * the attribution: docs/replay.md, "Why a task waited").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "compare/explain.h"
#include "compare/load.h"
#include "compare/select.h"
#include "compare/source.h"
#include "compare/why.h"
#include "lib/fmt.h"
#include "lib/outfile.h"
#include "lib/progress.h"

#define EXPLAIN_TOP 5          /* worst waits shown per policy */

/* The tasks shown whose name matches (a name pcre2 cannot decide on is
 * an error, not a mismatch); x->sel.hit for cmp_explain_wanted(). */
static int select_tasks(struct cmp_explain *x, struct sr_diag *d)
{
	size_t n = x->s->ntasks ? x->s->ntasks : 1;

	x->tasks = malloc(n * sizeof(long));
	x->sel.hit = calloc(n, sizeof(bool));
	if (!x->tasks || !x->sel.hit)
		return sr_oom(d);
	for (size_t i = 0; i < x->s->ntasks; i++) {
		const struct cmp_task *t = &x->s->tasks[i];
		int m = 1;

		if (!cmp_task_shown(x->s, t))
			continue;
		if (x->sel.re && (m = cmp_taskre_match(x->sel.re, t->comm, d)) < 0)
			return d->code;
		if (m) {
			x->sel.hit[i] = true;
			x->tasks[x->ntasks++] = (long)i;
		}
	}
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
		PO_ONE_TRACE,
		.about = "Why the tasks waited, under each policy side by side: their "
			"worst waits in words, and the wait by reason and by the task "
			"waited behind. " CMP_TRACE_ABOUT,
		.footer = "docs/replay.md, \"Why a task waited\", names the reasons.",
		.opts = opts,
	};
	struct cmp_loaded ld;
	struct cmp_explain x = { 0 };
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
	rc = cmp_cmd_load(&o, 1, CMP_MAX_RUNS, &ld, d);
	if (sr_sel_has_pids(&o.sel)) {
		char sel[200];

		sr_sel_describe(&o.sel, sel, sizeof(sel));
		snprintf(what, sizeof(what), "%s%s%s%s", sel,
			 o.task ? " matching '" : "", o.task ? o.task : "",
			 o.task ? "'" : "");
	} else {
		snprintf(what, sizeof(what), "matching '%s'", o.task);
	}
	x.s = &ld.set;
	x.sel = (struct cmp_explain_sel){ o.task ? ld.re : NULL, &ld.set, NULL };
	x.what = what;
	x.top = (size_t)top;
	if (rc == SR_OK && ld.set.nruns > 1) {
		x.v = calloc(ld.set.nruns - 1, sizeof(*x.v));
		if (!x.v)
			rc = sr_oom(d);
		for (size_t r = 1; rc == SR_OK && r < ld.set.nruns; r++, x.nv++)
			rc = cmp_verdict_build(&x.v[r - 1], &ld.set, 0, r, d);
	}
	if (rc == SR_OK)
		rc = select_tasks(&x, d);
	for (size_t r = 0; rc == SR_OK && r < ld.set.nruns; r++)
		rc = cmp_why_run(&ld.set, r, cmp_explain_wanted, &x.sel, x.top, &x.w[r], d);
	if (rc == SR_OK)
		rc = sr_outfile_open(&f, out, d);
	if (rc == SR_OK) {
		FILE *fp = sr_outfile_fp(f);

		rc = format == OUT_TSV ? cmp_explain_write_tsv(fp, &x) :
		     format == OUT_JSON ? cmp_explain_write_json(fp, &x) :
		     cmp_explain_write_text(fp, &x);
		rc = sr_outfile_finish(f, rc, out, d);
	}
	for (size_t r = 0; r < CMP_MAX_RUNS; r++)
		cmp_why_free(&x.w[r]);
	free(x.tasks);
	free(x.sel.hit);
	free(x.v);
	cmp_loaded_free(&ld);
	return rc;
}

