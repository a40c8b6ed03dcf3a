/*
 * builtin/export: `schedreplay export TRACE [--policy P]... [-o FILE]`: the
 * replayed schedule of each policy (and the recorded one) as a Chrome JSON
 * trace, for ui.perfetto.dev and chrome://tracing (replay/trace-event.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "lib/gzout.h"
#include "lib/outfile.h"
#include "parse/read-warn.h"
#include "replay/replay.h"
#include "replay/trace-event.h"

int cmd_export(int argc, char **argv, struct sr_diag *d)
{
	struct sr_replay_opts o = { 0 };
	struct sr_selection sel = { .npids = 0 };
	const char *policies[SR_REPLAY_MAX_POLICIES];
	size_t npolicies = 0, n;
	const char *out = "-";
	bool quiet = false;
	const struct po_option opts[] = {
		OPT_GROUP("output"),
		OPT_PATH('o', "output", &out, "FILE",
			 "write the JSON here (default: stdout; - is stdout); "
			 "a name ending in .gz: gzip-compressed"),
		OPT_FLAG('q', "quiet", &quiet, "no summary line, and no "
			 "progress line on a terminal"),
		OPT_REPLAY(&o, policies, &npolicies),
		OPT_SELECT(&sel),
		OPT_REPLAY_INPUT(&o, "(the file does not depend on it)"),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "export",
		PO_ONE_TRACE,
		.about = "The schedule each policy gives the trace's demand, and the "
			"recorded one (observed), as a Chrome JSON trace that "
			"ui.perfetto.dev and chrome://tracing open: per policy, a "
			"track per CPU with a slice per run (the task's name; pid, "
			"tid, prio, sleep_avg in its args), and the trace's "
			"processes (pid: the thread group) with a thread per task "
			"(tid: its pid) holding its waits and a counter of its "
			"prio.  TRACE: a trace file (plain or gzip), or - for "
			"stdin.",
		.footer = "docs/replay.md, \"Export\", says what is in the file.",
		.opts = opts,
	};
	const char *trace;
	struct sr_replay *r = NULL;
	struct sr_te *te = NULL;
	struct sr_outfile *f = NULL;
	struct sr_gzout *z = NULL;
	FILE *fp;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	if ((rc = sr_te_new(&te, d)))
		return rc;
	o.hooks = sr_te_hooks(te);
	o.jobs = 1; /* the hooks keep every policy in one table */
	if ((rc = sr_sel_check(&sel, d)))
		goto out;
	if ((rc = builtin_replay(&o, "export", trace, policies, npolicies,
				 quiet, &r, d))) {
		if (sr_te_error(te)) {
			d->code = SR_OK; /* the hook's reason, not the replay's */
			sr_fail(d, rc, "export: %s", sr_te_error(te));
		}
		goto out;
	}
	if ((rc = sr_sel_check_span(&sel, sr_replay_info(r)->first_ts,
				    sr_replay_info(r)->last_ts, d)) ||
	    (rc = sr_outfile_open(&f, out, d)))
		goto out;
	fp = sr_outfile_fp(f);
	if (strcmp(out, "-") && sr_gzout_wanted(out)) {
		if ((rc = sr_gzout_open(&z, fp, d))) {
			sr_outfile_abort(f);
			goto out;
		}
		fp = sr_gzout_fp(z);
	}
	rc = sr_te_write(te, r, trace, &sel, fp, d);
	if (z) {
		int zrc = sr_gzout_close(z, rc ? NULL : d);

		rc = rc ? rc : zrc;
	}
	if (rc) {
		sr_outfile_abort(f);
		goto out;
	}
	if ((rc = sr_outfile_commit(f, d)))
		goto out;
	if (!quiet && strcmp(out, "-")) {
		struct sr_te_counts c;

		sr_loss_put(stdout, &sr_replay_info(r)->loss, "");
		sr_te_counts(te, &c);
		printf("wrote %s: %" PRIu64 " events (X %" PRIu64 ", C %"
		       PRIu64 ", M %" PRIu64 ")\n", out, c.x + c.c + c.m, c.x,
		       c.c, c.m);
	}
out:
	sr_replay_free(r);
	sr_te_free(te);
	return rc;
}
