/*
 * builtin/replay: `schedreplay replay TRACE [--policy P]... [-o DIR]`: replay
 * a trace's demand under each policy (default stock, o11int and the
 * recorded schedule) on the recording's CPU count (or --cpus N) and write
 * DIR/P/{timeline,latency,summary,cpus}.tsv.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "lib/fmt.h"
#include "lib/progress.h"
#include "replay/replay.h"
#include "replay/tlfilter.h"

#define DEFAULT_OUTDIR "replay-out"

int builtin_replay(struct sr_replay_opts *o, const char *cmd,
		   const char *trace, const char *const *policies,
		   size_t npolicies, bool quiet, struct sr_replay **r,
		   struct sr_diag *d)
{
	struct sr_progress pg;
	int rc;

	o->trace = trace;
	o->policies = npolicies ? policies : NULL;
	o->npolicies = npolicies;
	sr_progress_init(&pg, cmd, quiet);
	o->read.progress = &pg;
	rc = sr_replay_run(o, r, d);
	sr_progress_end(&pg);
	o->read.progress = NULL;
	if (rc == SR_OK)
		sr_replay_warn(*r);
	return rc;
}

/* What the replay held in memory at most, the two causes apart. */
static void print_held(const struct sr_replay *r)
{
	const struct sr_replay_info *in = sr_replay_info(r);
	uint64_t ops = in->demand.peak_held_ops;

	fprintf(stderr, "held at most: demand %llu ops (%.1f MB) not yet "
		"replayed by the slowest policy; %zu task records\n",
		(unsigned long long)ops,
		(double)ops * (double)sizeof(struct sr_op) / 1e6,
		sr_tasks_count(sr_replay_tasks(r)));
	for (size_t i = 0; i < sr_replay_count(r); i++) {
		const struct sr_replay_policy *p = sr_replay_get(r, i);

		fprintf(stderr, "held at most: %s rows: latency %llu (to sort "
			"by wake; %llu in memory), timeline %llu (one "
			"instant)\n", p->name,
			(unsigned long long)p->latency_rows_held,
			(unsigned long long)p->latency_rows_in_memory,
			(unsigned long long)p->timeline_rows_held);
	}
}

int cmd_replay(int argc, char **argv, struct sr_diag *d)
{
	struct sr_replay_opts o = { .outdir = DEFAULT_OUTDIR };
	struct sr_selection sel = { .npids = 0 };
	const char *policies[SR_REPLAY_MAX_POLICIES];
	const char *sets[SR_REPLAY_MAX_TUNE], *rt[SR_REPLAY_MAX_TUNE];
	size_t npolicies = 0, nsets = 0, nrt = 0, n;
	const char *trace;
	bool quiet = false, memory = false, thread_cpu = false;
	int64_t cache_decay = -1;
	const struct po_option opts[] = {
		OPT_GROUP("output"),
		OPT_PATH('o', "output", &o.outdir, "DIR",
			   "write DIR/POLICY/{timeline,latency,summary,"
			   "cpus}.tsv and DIR/{tasks,seen}.tsv (default: "
			   DEFAULT_OUTDIR ")"),
		OPT_FLAG('q', "quiet", &quiet, "do not list the files written, "
			 "and no progress line on a terminal"),
		OPT_FLAG(0, "memory", &memory, "say on stderr what the replay "
			 "held at most: the demand not yet replayed (a policy "
			 "falling behind the recording) and the rows held to "
			 "put them in order"),
		OPT_REPLAY(&o, policies, &npolicies),
		OPT_JOBS(&o.jobs),
		OPT_TUNE(sets, &nsets, rt, &nrt, SR_REPLAY_MAX_TUNE),
		OPT_CHOICE(0, "timeline", &o.timeline, sr_tl_mode_names, "WHICH",
			   "simulated timeline rows: changes (default: where "
			   "a task's prio, array, state or CPU changed), all"),
		OPT_NUMBER(0, "cache-decay", &cache_decay, "N",
			   "cache_decay_ticks: jiffies a task stays cache-hot "
			   "for the idle balancer (default 10)", 0, 1000000,
			   NULL),
		OPT_SELECT(&sel),
		OPT_REPLAY_INPUT(&o, "(results do not depend on it)"),
		OPT_FLAG(0, "thread-cpu", &thread_cpu,
			 "say on stderr the CPU time the simulators' threads "
			 "took (-j): in all, and each step's longest thread "
			 "summed, what they would take on idle CPUs"),
		OPT_FLAG(0, "check", &o.check,
			 "check the policies' invariants at every instant "
			 "(slow)"),
		OPT_FLAG(0, "no-why", &o.no_why,
			 "do not attribute the waits (no waits.tsv; "
			 "latency.tsv's why and behind_pid are -): what the "
			 "attribution costs"),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "replay",
		PO_ONE_TRACE,
		.about = "Replay a trace's demand under each policy and write what "
			"every "
			"task got.  TRACE: a trace file (plain or gzip), or - for "
			"stdin.",
		.footer = "docs/replay.md says what is replayed and how.",
		.opts = opts,
	};
	struct sr_replay *r;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	if (cache_decay >= 0) {
		o.has_cache_decay = true;
		o.cache_decay_ticks = (unsigned long)cache_decay;
	}
	o.tune = (struct sr_replay_tuning){ sets, nsets, rt, nrt };
	o.sel = &sel;
	if ((rc = builtin_replay(&o, "replay", trace, policies, npolicies,
				 quiet, &r, d)))
		return rc;
	if (!quiet) {
		const struct sr_replay_info *in = sr_replay_info(r);

		printf("replayed %s (%s, %llu events, %d cpu%s recorded) on "
		       "%d cpu%s\n", trace, in->format,
		       (unsigned long long)in->events, (int)in->ncpus,
		       in->ncpus == 1 ? "" : "s", in->cpus,
		       in->cpus == 1 ? "" : "s");
		if (in->ctx_said[0])
			printf("%s\n", in->ctx_said);
		sr_loss_put(stdout, &in->loss, "");
		if (in->left_tasks && in->left_known) {
			char a[SR_FMT_NUM], b[SR_FMT_NUM];

			printf("left out (--exclude, --only, --only-tree): %zu "
			       "tasks, %s s of the recording's %s s of CPU "
			       "(%.1f%%)\n", in->left_tasks,
			       sr_fmt_s(a, sizeof(a), in->left_cpu_ns, 3),
			       sr_fmt_s(b, sizeof(b), in->total_cpu_ns, 3),
			       in->total_cpu_ns ? 100.0 *
			       (double)in->left_cpu_ns /
			       (double)in->total_cpu_ns : 0.0);
		} else if (in->left_tasks) {
			printf("left out (--exclude, --only, --only-tree): %zu "
			       "tasks (their CPU: replay observed too)\n",
			       in->left_tasks);
		}
		for (size_t i = 0; i < sr_replay_count(r); i++)
			printf("wrote %s/%s/{timeline,latency,summary,cpus}"
			       ".tsv\n", o.outdir, sr_replay_get(r, i)->name);
		printf("wrote %s/{tasks,seen,lost}.tsv\n", o.outdir);
	}
	if (memory)
		print_held(r);
	if (thread_cpu) {
		const struct sr_pool_stats *st = &sr_replay_info(r)->steps;

		fprintf(stderr, "simulator threads: %llu steps, %.3f s CPU in "
			"all, %.3f s on the longest thread of each step\n",
			(unsigned long long)st->jobs, (double)st->cpu_ns / 1e9,
			(double)st->longest_ns / 1e9);
	}
	sr_replay_free(r);
	return SR_OK;
}
