/*
 * cmd-stats: `schedreplay stats TRACE`, the recorded schedule per task
 * (runtime, switches, wakeups, scheduling delay avg/p50/p95/p99/max with
 * the max's start and end), counted as `perf sched latency` counts them.
 * Streams the trace once; memory grows with tasks, not events.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/path.h"
#include "builtin.h"
#include "lib/outfile.h"
#include "parse/reader.h"
#include "replay/observed.h"
#include "replay/summary.h"

struct stats_opts {
	const char *path;
	const char *out;
	const char *sort;
	bool by_comm;
	bool tsv;
	struct sr_read_opts read;
	struct sr_observed_opts obs;
};

static const char usage_text[] =
	"usage: schedreplay stats TRACE [--tsv] [--by-comm] [--sort KEYS]\n"
	"                         [--compat perf|perf-6.1] [--input-format F]\n"
	"                         [--lenient] [-o FILE]\n"
	"\n"
	"Per task: runtime, switches, wakeups, scheduling delay (avg, p50,\n"
	"p95, p99, max, and when the max began and ended), as perf sched\n"
	"latency -p counts them.  TRACE may be gzip-compressed, '-' is stdin.\n"
	"\n"
	"  --tsv             header line and one row per task, tab-separated\n"
	"  --by-comm         one row per command name (perf's default merge)\n"
	"  --sort KEYS       comma-separated: pid, comm, runtime, switches,\n"
	"                    wakeups, avg, p50, p95, p99, max (measures largest\n"
	"                    first); default pid for --tsv,\n"
	"                    avg,max,switches,runtime for the table\n"
	"  --compat C        perf (default): sched_waking starts a wait, R and\n"
	"                    R+ switch-outs are preemptions; perf-6.1: what\n"
	"                    perf 6.1 counts (sched_waking ignored, only R)\n"
	"  --input-format F  trace format instead of detecting it\n"
	"  --lenient         skip malformed lines, count them\n"
	"  -o FILE           write to FILE (temporary, then renamed)\n"
	"\n"
	"docs/metrics.md defines every figure.\n";

enum opt_id { OPT_TSV, OPT_BY_COMM, OPT_LENIENT, OPT_SORT, OPT_FORMAT,
	      OPT_COMPAT, OPT_OUT };

static const struct stats_option {
	const char *name;
	enum opt_id id;
	bool takes_value;
} options[] = {
	{ "--tsv", OPT_TSV, false },
	{ "--by-comm", OPT_BY_COMM, false },
	{ "--lenient", OPT_LENIENT, false },
	{ "--sort", OPT_SORT, true },
	{ "--input-format", OPT_FORMAT, true },
	{ "--compat", OPT_COMPAT, true },
	{ "-o", OPT_OUT, true },
};

static int set_option(struct stats_opts *o, enum opt_id id, const char *v,
		      struct sr_diag *d)
{
	switch (id) {
	case OPT_TSV:
		o->tsv = true;
		break;
	case OPT_BY_COMM:
		o->by_comm = true;
		break;
	case OPT_LENIENT:
		o->read.lenient = true;
		break;
	case OPT_SORT:
		o->sort = v;
		break;
	case OPT_FORMAT:
		o->read.format = v;
		break;
	case OPT_OUT:
		if (sr_outpath_check("-o", v, d))
			return d->code;
		o->out = v;
		break;
	case OPT_COMPAT:
		if (sr_perf_compat_parse(v, &o->obs.compat))
			return sr_fail(d, SR_EUSAGE, "stats: --compat: expected "
				       "perf or perf-6.1, got '%s'", v);
		break;
	}
	return SR_OK;
}

static int parse_args(int argc, char **argv, struct stats_opts *o,
		      struct sr_diag *d)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct stats_option *opt = NULL;

		for (size_t k = 0; k < sizeof(options) / sizeof(options[0]); k++)
			if (!strcmp(a, options[k].name))
				opt = &options[k];
		if (opt) {
			if (opt->takes_value && i + 1 >= argc)
				return sr_fail(d, SR_EUSAGE, "stats: %s expects "
					       "a value", a);
			if (set_option(o, opt->id,
				       opt->takes_value ? argv[++i] : NULL, d))
				return d->code;
		} else if (a[0] == '-' && a[1] != '\0') {
			return sr_fail(d, SR_EUSAGE, "stats: unknown option "
				       "'%s' (schedreplay stats --help)", a);
		} else if (!o->path) {
			o->path = a;
		} else {
			return sr_fail(d, SR_EUSAGE, "stats: expected one TRACE, "
				       "got '%s' as well", a);
		}
	}
	if (!o->path)
		return sr_fail(d, SR_EUSAGE, "stats: expected a TRACE argument "
			       "(schedreplay stats --help)");
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

/* Lost events: counts, cpus and time ranges, on stderr. */
static void warn_lost(const struct sr_read_stats *st, size_t ntouched)
{
	enum { SHOW = 8 };
	uint64_t cpus_seen[4] = { 0 }; /* bitmap of the first 256 cpus */
	int ncpus = 0;
	char a[32], b[32];

	if (st->nlost == 0 && st->lost_events == 0)
		return;
	for (size_t i = 0; i < st->nlost; i++) {
		int32_t c = st->lost[i].cpu;
		if (c >= 0 && c < 256 && !(cpus_seen[c / 64] >> (c % 64) & 1)) {
			cpus_seen[c / 64] |= 1ULL << (c % 64);
			ncpus++;
		}
	}
	sr_warn("%" PRIu64 " events lost in %zu range(s) on %d cpu(s); "
		"%zu task(s) whose figures they touch are marked (lost=1, '!')",
		st->lost_events, st->nlost, ncpus, ntouched);
	for (size_t i = 0; i < st->nlost && i < SHOW; i++) {
		const struct sr_lost_range *l = &st->lost[i];
		char cpu[16], cnt[32];

		if (l->cpu >= 0)
			snprintf(cpu, sizeof(cpu), "cpu %" PRId32, l->cpu);
		else
			snprintf(cpu, sizeof(cpu), "unknown cpu");
		if (l->count)
			snprintf(cnt, sizeof(cnt), "%" PRIu64 " events", l->count);
		else
			snprintf(cnt, sizeof(cnt), "an unknown number of events");
		sr_warn("  %s: %s lost between %s s and %s s", cpu, cnt,
			sr_fmt_s(a, l->from_ts), sr_fmt_s(b, l->to_ts));
	}
	if (st->nlost > SHOW)
		sr_warn("  ... and %zu more range(s)", st->nlost - SHOW);
}

static int write_rows(const struct stats_opts *o,
		      struct sr_task_metrics **rows, size_t n,
		      struct sr_diag *d)
{
	struct sr_outfile *f;
	struct sr_sort s;
	const char *spec = o->sort ? o->sort
			   : o->tsv ? SR_SORT_DEFAULT_TSV : SR_SORT_DEFAULT_TABLE;

	if (sr_sort_parse(spec, &s, d) || sr_rows_sort(rows, n, &s, d))
		return d->code;
	if (sr_outfile_open(&f, o->out ? o->out : "-", d))
		return d->code;
	if (o->tsv)
		sr_write_tsv(sr_outfile_fp(f), rows, n);
	else
		sr_write_table(sr_outfile_fp(f), rows, n);
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
	int64_t t_end = 0;
	int rc;

	if (sr_observed_new(&obs, &o->obs, &view, d))
		return d->code;
	while ((rc = sr_reader_next(r, &ev, d)) == 1) {
		int erc = sr_observed_event(obs, &ev);

		if (erc) {
			const char *why = sr_acct_error(sr_observed_acct(obs));

			rc = -1;
			sr_fail(d, erc, "%s:%" PRIu64 ": %s", sr_reader_path(r),
				ev.line, why ? why : "out of memory");
			break;
		}
		t_end = ev.ts;
	}
	if (rc < 0)
		goto out;
	st = sr_reader_stats(r);
	if (st->last_ts > t_end)
		t_end = st->last_ts;
	if (sr_observed_finish(obs, t_end, d) ||
	    sr_observed_rows(obs, &rows, &n, d))
		goto out;
	if (st->bad_lines)
		sr_warn("%s: %" PRIu64 " malformed line(s) skipped (--lenient)",
			sr_reader_path(r), st->bad_lines);
	warn_lost(st, sr_observed_lost_tasks(obs));
	if (o->by_comm) {
		if (sr_rows_by_comm(rows, n, &merged, &nmerged, d))
			goto out;
		for (size_t i = 0; i < nmerged; i++)
			rows[i] = &merged[i];
		n = nmerged;
	}
	write_rows(o, rows, n, d);
out:
	sr_rows_free_merged(merged, nmerged);
	free(rows);
	sr_observed_free(obs);
	return d->code;
}

int cmd_stats(int argc, char **argv, struct sr_diag *d)
{
	struct stats_opts o = { 0 };
	struct sr_reader *r;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_text, stdout);
			return SR_OK;
		}
	}
	if (parse_args(argc, argv, &o, d))
		return d->code;
	if (sr_reader_open(&r, o.path, &o.read, d))
		return d->code;
	rc = run_stats(&o, r, d);
	sr_reader_close(r);
	return rc;
}
