/*
 * builtin/stats: `schedreplay stats TRACE`, the recorded schedule per task
 * (runtime, switches, wakeups, scheduling delay avg/p50/p95/p99/max with
 * the max's start and end), counted as `perf sched latency` counts them.
 * Streams the trace once; memory grows with tasks, not events.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "compare/select.h"
#include "lib/outfile.h"
#include "lib/progress.h"
#include "parse/read-warn.h"
#include "parse/reader.h"
#include "replay/observed.h"
#include "replay/summary.h"

struct stats_opts {
	const char *path;
	const char *out;
	const char *sort;
	bool by_comm;
	int format;     /* OUT_TEXT, OUT_TSV, OUT_JSON */
	bool quiet;
	struct sr_read_opts read;
	struct sr_observed_opts obs;
	const char *task;           /* --task REGEX */
	struct cmp_taskre *re;
	struct sr_selection sel;    /* --pid, --start, --end */
};

/* Keep the rows selected (--pid, --task; with a window, the tasks that
 * did something in it); an error when --pid names no task there. */
static int select_rows(const struct stats_opts *o,
		       struct sr_task_metrics **rows, size_t *n,
		       struct sr_diag *d)
{
	size_t k = 0, pid_rows = 0;

	for (size_t i = 0; i < *n; i++) {
		const struct sr_task_metrics *m = rows[i];
		int hit;

		if (!sr_sel_pid(&o->sel, m->pid))
			continue;
		pid_rows++;
		if (o->re && (hit = cmp_taskre_match(o->re, m->comm, d)) <= 0) {
			if (hit < 0)
				return d->code;
			continue;
		}
		if (sr_sel_windowed(&o->sel) && !m->runtime_ns &&
		    !m->switches && !m->wakeups)
			continue;
		rows[k++] = rows[i];
	}
	*n = k;
	if (sr_sel_has_pids(&o->sel) && !pid_rows)
		return sr_fail(d, SR_EUSAGE, "--pid: no task with %s in %s",
			       o->sel.npids > 1 ? "these pids" : "this pid",
			       o->path);
	return SR_OK;
}

static const struct sr_task *view_get(const void *ctx, sr_tid id)
{
	return sr_tasks_get(ctx, id);
}

static size_t view_count(const void *ctx)
{
	return sr_tasks_count(ctx);
}

static int write_rows(const struct stats_opts *o, const struct sr_reader *r,
		      const struct sr_loss *loss,
		      struct sr_task_metrics **rows, size_t n,
		      struct sr_diag *d)
{
	struct sr_outfile *f;
	struct sr_sort s;
	const char *spec = o->sort ? o->sort
			   : o->format != OUT_TEXT ? SR_SORT_DEFAULT_TSV
			   : SR_SORT_DEFAULT_TABLE;

	if (sr_sort_parse(spec, &s, d) || sr_rows_sort(rows, n, &s, d))
		return d->code;
	if (sr_outfile_open(&f, o->out ? o->out : "-", d))
		return d->code;
	if (o->format == OUT_TSV)
		sr_write_tsv(sr_outfile_fp(f), rows, n);
	else if (o->format == OUT_JSON)
		sr_write_json(sr_outfile_fp(f), sr_reader_path(r), loss, rows,
			      n);
	else {
		char line[512];

		sr_write_table(sr_outfile_fp(f), rows, n);
		/* where perf sched latency says its "INFO: N% lost events";
		 * the marked tasks are the table's line above */
		sr_loss_say(loss, line, sizeof(line));
		if (*line)
			fprintf(sr_outfile_fp(f), "  INFO: %s\n\n", line);
	}
	return sr_outfile_commit(f, d);
}

static int run_stats(const struct stats_opts *o, struct sr_reader *r,
		     struct sr_diag *d)
{
	const struct sr_tasks *tasks = sr_reader_tasks(r);
	const struct sr_task_view view = { view_get, view_count, tasks };
	const struct sr_read_stats *st;
	struct sr_observed *obs;
	struct sr_task_metrics **rows = NULL, *merged = NULL;
	size_t n = 0, nmerged = 0;
	struct sr_event ev;
	struct sr_loss loss;
	int64_t t_end = 0;
	bool started = false;
	int rc;

	if (sr_observed_new(&obs, &o->obs, &view, d))
		return d->code;
	while ((rc = sr_reader_next(r, &ev, d)) == 1) {
		int erc;

		if (!started) {
			/* the window on the trace's clock, from its start */
			int64_t lo, hi;

			sr_sel_window(&o->sel, ev.ts, &lo, &hi);
			sr_acct_window(sr_observed_acct(obs), lo, hi);
			started = true;
		}
		erc = sr_observed_event(obs, &ev);

		if (erc) {
			const char *why = sr_acct_error(sr_observed_acct(obs));

			rc = -1;
			sr_fail(d, erc, "%s:%" PRIu64 ": %s", sr_reader_path(r),
				ev.line, why ? why : "out of memory");
			break;
		}
		t_end = ev.ts;
	}
	sr_progress_end(o->read.progress);
	if (rc < 0)
		goto out;
	st = sr_reader_stats(r);
	if (st->last_ts > t_end)
		t_end = st->last_ts;
	if (sr_sel_check_span(&o->sel, st->events ? st->first_ts : 0, t_end,
			      d) ||
	    sr_observed_finish(obs, t_end, d) ||
	    sr_observed_rows(obs, &rows, &n, d))
		goto out;
	sr_read_warn(sr_reader_path(r), st, (long)sr_observed_lost_tasks(obs));
	sr_loss_of(st, -1, &loss);
	if (select_rows(o, rows, &n, d))
		goto out;
	if (o->by_comm) {
		if (sr_rows_by_comm(rows, n, &merged, &nmerged, d))
			goto out;
		for (size_t i = 0; i < nmerged; i++)
			rows[i] = &merged[i];
		n = nmerged;
	}
	write_rows(o, r, &loss, rows, n, d);
out:
	sr_rows_free_merged(merged, nmerged);
	free(rows);
	sr_observed_free(obs);
	return d->code;
}

int cmd_stats(int argc, char **argv, struct sr_diag *d)
{
	struct stats_opts o = { 0 };
	const struct po_option opts[] = {
		OPT_GROUP("output"),
		OPT_SET_INT(0, "tsv", &o.format,
			    "header line and one row per task, tab-separated",
			    OUT_TSV),
		OPT_SET_INT(0, "json", &o.format,
			    "the same figures as JSON: {\"trace\", \"tasks\": "
			    "[{\"pid\", \"comm\", \"runtime_ms\", ...}]}",
			    OUT_JSON),
		OPT_FLAG(0, "by-comm", &o.by_comm,
			 "one row per command name (perf's default merge)"),
		OPT_STRING(0, "sort", &o.sort, "KEYS",
			   "comma-separated: pid, comm, runtime, switches, "
			   "wakeups, avg, p50, p95, p99, max (measures "
			   "largest first); default pid for --tsv and "
			   "--json, "
			   "avg,max,switches,runtime for the table"),
		OPT_PATH('o', "output", &o.out, "FILE",
			   "write to FILE (temporary, then renamed; - is "
			   "stdout)"),
		OPT_FLAG('q', "quiet", &o.quiet,
			 "no progress line on a terminal"),
		OPT_GROUP("selection"),
		OPT_STRING(0, "task", &o.task, "REGEX",
			   "only tasks whose comm matches this pcre2 regex"),
		OPT_SELECT_ROWS(&o.sel),
		OPT_GROUP("input"),
		OPT_COMPAT(&o.obs.compat),
		OPT_READ(&o.read),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "stats",
		PO_ONE_TRACE,
		.about = "Per task: runtime, switches, wakeups, scheduling delay (avg, "
			"p50, "
			"p95, p99, max, and when the max began and ended), as perf "
			"sched "
			"latency -p counts them.  TRACE may be gzip-compressed, '-' "
			"is stdin.",
		.footer = "docs/metrics.md defines every figure.",
		.opts = opts,
	};
	struct sr_reader *r;
	struct sr_progress pg;
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &o.path, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	if (sr_sel_check(&o.sel, d) ||
	    (o.task && cmp_taskre_new(&o.re, o.task, NULL, d)))
		return d->code;
	sr_progress_init(&pg, "stats", o.quiet);
	o.read.progress = &pg;
	if (sr_reader_open(&r, o.path, &o.read, d)) {
		cmp_taskre_free(o.re);
		return d->code;
	}
	rc = run_stats(&o, r, d);
	sr_progress_end(&pg);
	sr_reader_close(r);
	cmp_taskre_free(o.re);
	return rc;
}
