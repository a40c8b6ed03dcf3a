/*
 * builtin/replay: `schedreplay replay TRACE [--policy P]... [-o DIR]`: replay
 * a trace's demand under each policy (default stock, o11int and the
 * recorded schedule) and write DIR/P/{timeline,latency,summary}.tsv.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "replay/replay.h"
#include "replay/tlfilter.h"

#define DEFAULT_OUTDIR "replay-out"

static const char *const external_names[] = {
	[SR_EXTERNAL_ABSOLUTE] = "absolute", [SR_EXTERNAL_RELATIVE] = "relative",
	NULL,
};

int cmd_replay(int argc, char **argv, struct sr_diag *d)
{
	struct sr_replay_opts o = { .outdir = DEFAULT_OUTDIR };
	const char *policies[SR_REPLAY_MAX_POLICIES];
	size_t npolicies = 0, n;
	const char *trace;
	bool quiet = false;
	const struct po_option opts[] = {
		OPT_GROUP("output"),
		OPT_PATH('o', "output", &o.outdir, "DIR",
			   "write DIR/POLICY/{timeline,latency,summary}.tsv "
			   "(default: " DEFAULT_OUTDIR ")"),
		OPT_FLAG('q', "quiet", &quiet, "do not list the files written"),
		OPT_GROUP("the replay"),
		OPT_LIST(0, "policy", policies, &npolicies,
			 SR_REPLAY_MAX_POLICIES, "P",
			 "a policy (`schedreplay policies`) or observed; "
			 "repeat for several (default: stock, o11int, "
			 "observed)"),
		OPT_STRING(0, "exclude", &o.exclude, "REGEX",
			   "leave out tasks whose name matches (pcre2), e.g. "
			   "'^perf$'"),
		OPT_CHOICE(0, "causal", &o.causal, sr_causal_names, "MODE",
			   "which wakes a task gets in the trace it causes in "
			   "the replay: known (default: where the trace tells "
			   "them from interrupts, else between related "
			   "tasks), all, none"),
		OPT_CHOICE(0, "external", &o.external, external_names, "MODE",
			   "absolute (default): external wakeups at their "
			   "recorded time; relative: sleeps keep their "
			   "recorded length"),
		OPT_NUMBER(0, "cs-cost", &o.cs_cost_ns, "TIME",
			   "context-switch cost: ns, or with a unit (us, ms, "
			   "s); default 0, at most 1ms", 0, SR_CS_COST_MAX,
			   po_time_units),
		OPT_CHOICE(0, "timeline", &o.timeline, sr_tl_mode_names, "WHICH",
			   "simulated timeline rows: changes (default: where "
			   "a task's prio, array, state or CPU changed), all"),
		OPT_NUMBER(0, "warm", &o.init_sleep_pct, "PCT",
			   "tasks alive at the start begin with sleep_avg "
			   "PCT% of MAX_SLEEP_AVG (default 0: cold)", 0, 100,
			   NULL),
		OPT_NUMBER(0, "cpus", &o.cpus, "N",
			   "CPUs to simulate (only 1 for now)", 1, 4096, NULL),
		OPT_GROUP("input"),
		OPT_COMPAT(&o.compat),
		OPT_READ(&o.read),
		OPT_GROUP("testing"),
		OPT_NUMBER(0, "batch", &o.batch, "N",
			   "events read between simulator steps (results do "
			   "not depend on it)", 1, 1LL << 30, NULL),
		OPT_FLAG(0, "check", &o.check,
			 "check the policies' invariants at every instant "
			 "(slow)"),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		"replay", "TRACE", 1, 1,
		"Replay a trace's demand under each policy and write what "
		"every "
		"task got.  TRACE: a trace file (plain or gzip), or - for "
		"stdin.",
		"docs/replay.md says what is replayed and how.", opts,
	};
	struct sr_replay *r;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	o.trace = trace;
	o.policies = npolicies ? policies : NULL;
	o.npolicies = npolicies;
	if ((rc = sr_replay_run(&o, &r, d)))
		return rc;
	sr_replay_warn(r);
	if (!quiet) {
		const struct sr_replay_info *in = sr_replay_info(r);

		printf("replayed %s (%s, %llu events, %d cpu%s recorded) on "
		       "1 cpu\n", trace, in->format,
		       (unsigned long long)in->events, (int)in->ncpus,
		       in->ncpus == 1 ? "" : "s");
		for (size_t i = 0; i < sr_replay_count(r); i++)
			printf("wrote %s/%s/{timeline,latency,summary}.tsv\n",
			       o.outdir, sr_replay_get(r, i)->name);
	}
	sr_replay_free(r);
	return SR_OK;
}
