/*
 * builtin/schedview: `schedreplay timehist TRACE [--policy P] [-o FILE]`
 * and `schedreplay map TRACE [--policy P] [-o FILE]`: perf sched's two
 * views (replay/schedview.h) of the recorded schedule (observed, the
 * default: its events as recorded) or of a policy's replay.  One option
 * table for the two commands.
 */
#include <string.h>

#include "builtin.h"
#include "lib/outfile.h"
#include "lib/progress.h"
#include "parse/read-warn.h"
#include "replay/replay.h"
#include "replay/schedview.h"

struct view_opts {
	const char *policy;
	const char *out;
	bool quiet;
	struct sr_replay_opts ro;
	const char *sets[SR_REPLAY_MAX_POLICIES * 4];
	size_t nsets;
	const char *rt[SR_REPLAY_MAX_POLICIES * 4];
	size_t nrt;
};

/* The recorded task of an event: the view's key is its kernel task (the
 * first record of its exec chain), its name the record's now. */
static struct sr_sv_task task_of(const struct sr_tasks *tasks, sr_tid id)
{
	const struct sr_task *t = sr_tasks_get(tasks, id);
	struct sr_sv_task x = { SR_SV_IDLE, 0, 0, "swapper" };

	if (!t || t->is_idle)
		return x;
	x.key = t->thread != SR_TID_NONE ? t->thread : id;
	x.tid = t->pid;
	x.tgid = t->tgid;
	x.comm = t->comm;
	return x;
}

/* observed: the events themselves, as perf reads them */
static int from_events(struct view_opts *o, const char *trace,
		       struct sr_sv *v, int *ncpus, struct sr_loss *loss,
		       struct sr_diag *d)
{
	struct sr_progress pg;
	struct sr_reader *r;
	struct sr_event ev;
	int rc;

	sr_progress_init(&pg, "view", o->quiet);
	o->ro.read.progress = &pg;
	if (sr_reader_open(&r, trace, &o->ro.read, d)) {
		sr_progress_end(&pg);
		return d->code;
	}
	while ((rc = sr_reader_next(r, &ev, d)) == 1) {
		const struct sr_tasks *tasks = sr_reader_tasks(r);
		struct sr_sv_task a, b;

		switch (ev.kind) {
		case SR_EV_SWITCH:
			a = task_of(tasks, ev.task);
			b = task_of(tasks, ev.other);
			rc = sr_sv_switch(v, ev.ts, ev.cpu, &a,
					  ev.prev_state ? (char)ev.prev_state
							: '?', &b, d);
			break;
		case SR_EV_WAKING:
		case SR_EV_WAKEUP:
		case SR_EV_WAKEUP_NEW:
			a = task_of(tasks, ev.task);
			rc = sr_sv_wake(v, ev.ts, &a,
					ev.kind == SR_EV_WAKING ? 'w' :
					ev.kind == SR_EV_WAKEUP ? 'u' : 'n', d);
			break;
		case SR_EV_LOST:
			rc = sr_sv_lost(v, ev.ts, ev.cpu, (uint64_t)ev.value, d);
			break;
		default:
			rc = SR_OK;
		}
		if (rc)
			break;
	}
	sr_progress_end(&pg);
	o->ro.read.progress = NULL;
	if (rc == 0) {
		const struct sr_read_stats *st = sr_reader_stats(r);

		*ncpus = st->ncpus;
		sr_read_warn(sr_reader_path(r), st, -1);
		sr_loss_of(st, -1, loss);
	}
	sr_reader_close(r);
	return rc < 0 ? d->code : SR_OK;
}

static int on_row(void *ctx, size_t policy, const struct sr_tl_row *row)
{
	struct sr_diag d = SR_DIAG_INIT;

	(void)policy;
	return sr_sv_row(ctx, row, &d);
}

static int view(int argc, char **argv, enum sr_sv_view kind,
		struct sr_diag *d)
{
	struct view_opts o = { .out = "-" };
	struct sr_selection sel = { .npids = 0 };
	const struct po_option opts[] = {
		OPT_GROUP("output"),
		OPT_PATH('o', "output", &o.out, "FILE",
			 "write to FILE (temporary, then renamed; default and "
			 "- : stdout)"),
		OPT_FLAG('q', "quiet", &o.quiet,
			 "no progress line on a terminal"),
		OPT_GROUP("the schedule"),
		OPT_STRING(0, "policy", &o.policy, "P",
			   "observed (default: the recording, its events as "
			   "perf reads them) or a policy's replay "
			   "(`schedreplay policies`; P:NAME=VALUE,... tunes "
			   "it)"),
		OPT_STRING(0, "exclude", &o.ro.exclude, "REGEX",
			   "leave out of the replay the tasks whose name "
			   "matches (pcre2)"),
		OPT_STRING(0, "only", &o.ro.only, "REGEX",
			   "replay only the tasks whose name matches (pcre2)"),
		OPT_STRING(0, "only-tree", &o.ro.tree, "REGEX",
			   "replay only the process tree of the first task "
			   "whose name matches (pcre2)"),
		OPT_REPLAY_RULES(&o.ro),
		OPT_NUMBER(0, "cpus", &o.ro.cpus, "N",
			   "CPUs to replay on (default: as many as the "
			   "recording used)", 1, SR_SIM_MAX_CPUS, NULL),
		OPT_TUNE(o.sets, &o.nsets, o.rt, &o.nrt,
			 SR_REPLAY_MAX_POLICIES * 4),
		OPT_GROUP("input"),
		OPT_READ(&o.ro.read),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = kind == SR_SV_TIMEHIST ? "timehist" : "map",
		.operands = "TRACE",
		.min_operands = 1,
		.max_operands = 1,
		.about = kind == SR_SV_TIMEHIST ?
			"perf sched timehist of the recording or of a "
			"policy's replay: a line per context switch, for the "
			"task switched out: its wait off the CPU, its delay "
			"from wakeup to running, its run time (ms); where the "
			"recording lost events, a line saying how many.  "
			"TRACE may be gzip-compressed, '-' is stdin." :
			"perf sched map of the recording or of a policy's "
			"replay: a line per context switch, each CPU's task "
			"as a two-letter name ('.' idle, '*' the CPU that "
			"switched), and 'A0 => comm:tid' when a name is "
			"given.  TRACE may be gzip-compressed, '-' is stdin.",
		.footer = "docs/replay.md, \"perf sched's views\", gives the "
			  "rules, which are perf 6.1's.",
		.opts = opts,
	};
	struct sr_sv *v = NULL;
	struct sr_replay *r = NULL;
	struct sr_outfile *f = NULL;
	struct sr_loss loss;
	const char *trace;
	size_t n;
	int ncpus = 0, rc;

	if ((rc = po_parse(&cmd, argc, argv, &trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	if ((rc = sr_sv_new(&v, d)))
		return rc;
	if (!o.policy || !strcmp(o.policy, SR_REPLAY_OBSERVED)) {
		if (o.ro.exclude || o.ro.only || o.ro.tree || o.ro.cpus ||
		    o.nsets || o.nrt) {
			rc = sr_fail(d, SR_EUSAGE, "--exclude, --only, "
				     "--only-tree, --cpus, --set and --rt say "
				     "how a policy replays: give --policy");
			goto out;
		}
		if ((rc = from_events(&o, trace, v, &ncpus, &loss, d)))
			goto out;
	} else {
		struct sr_replay_hooks hooks = { on_row, NULL, v };
		const char *pol[1] = { o.policy };

		o.ro.hooks = &hooks;
		o.ro.sel = &sel;
		o.ro.tune = (struct sr_replay_tuning){ o.sets, o.nsets, o.rt,
						       o.nrt };
		if ((rc = builtin_replay(&o.ro, cmd.name, trace, pol, 1,
					 o.quiet, &r, d)))
			goto out;
		ncpus = sr_replay_info(r)->cpus;
		loss = sr_replay_info(r)->loss;
	}
	if ((rc = sr_outfile_open(&f, o.out, d)))
		goto out;
	rc = sr_sv_write(v, kind, ncpus, r ? sr_replay_tasks(r) : NULL,
			 sr_outfile_fp(f), d);
	if (rc == SR_OK && kind == SR_SV_MAP) {
		/* where perf sched map says "INFO: N% lost events" */
		char say[512];

		sr_loss_say(&loss, say, sizeof(say));
		if (*say)
			fprintf(sr_outfile_fp(f), "  INFO: %s\n", say);
	}
	if (rc == SR_OK && sr_loss_any(&loss) && strcmp(o.out, "-") &&
	    !o.quiet)
		sr_loss_put(stdout, &loss, "");
	rc = sr_outfile_finish(f, rc, o.out, d);
out:
	sr_replay_free(r);
	sr_sv_free(v);
	return rc;
}

int cmd_timehist(int argc, char **argv, struct sr_diag *d)
{
	return view(argc, argv, SR_SV_TIMEHIST, d);
}

int cmd_map(int argc, char **argv, struct sr_diag *d)
{
	return view(argc, argv, SR_SV_MAP, d);
}
