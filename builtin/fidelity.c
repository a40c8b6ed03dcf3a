/*
 * builtin/fidelity: `schedreplay fidelity TRACE [--policy P]...`: replay a
 * trace under the model of the kernel that recorded it (or the policies
 * given) and say how closely each replay reproduces the recording
 * (compare/fidelity.h): the replay's own error, which every verdict
 * carries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "compare/fidelity.h"
#include "lib/fmt.h"
#include "lib/outfile.h"
#include "parse/context.h"
#include "parse/reader.h"
#include "replay/replay.h"

struct fid_opts {
	const char *out;
	int format;
	bool quiet, tasks;
	int64_t window_ns;
};

static void put_far(FILE *f, const struct cmp_fid_task *t)
{
	char a[SR_FMT_NUM], b[SR_FMT_NUM], c[SR_FMT_NUM], e[SR_FMT_NUM];

	fprintf(f, "  %7d %-16s %9s -> %-9s (%.2f)  %9s -> %-9s (%.2f)\n",
		(int)t->pid, sr_comm_clean((char[32]){ 0 }, 32, t->comm),
		sr_fmt_ms(a, sizeof(a), t->o50, 3),
		sr_fmt_ms(b, sizeof(b), t->r50, 3), t->l50,
		sr_fmt_ms(c, sizeof(c), t->o99, 3),
		sr_fmt_ms(e, sizeof(e), t->r99, 3), t->l99);
}

/* Where a replay's tick rate came from (enum sr_hz_source), said. */
static const char *hz_words(int from)
{
	switch (from) {
	case SR_HZ_CONTEXT:
		return "the recording's context";
	case SR_HZ_TICKS:
		return "read from the recording's tick";
	case SR_HZ_DEFAULT:
		return "nothing in the recording says it";
	default:
		return "the policy's own";
	}
}

static void put_text(FILE *f, const char *trace, const struct cmp_fid *v,
		     size_t n, const char *model, int cpus)
{
	fprintf(f, "fidelity of the replay of %s on %d CPU%s against the "
		"recording\n", trace, cpus, cpus == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		const struct cmp_fid *x = &v[i];

		fprintf(f, "\n%s%s\n", x->policy,
			!strcmp(x->policy, model) ?
			" (the recording kernel's model)" : "");
		if (x->hz)
			fprintf(f, "  tick: HZ %d (%s)\n", x->hz, x->hz_from);
		fprintf(f, "  tasks judged: %zu of %zu (%d switches or more "
			"recorded)\n", x->judged, x->ntasks,
			CMP_FID_MIN_SWITCHES);
		if (x->judged) {
			fprintf(f, "  p50 delay: median |log2| %.2f (within "
				"x%.2f)\n", x->p50, cmp_fid_factor(x->p50));
			fprintf(f, "  p99 delay: median |log2| %.2f (within "
				"x%.2f)\n", x->p99, cmp_fid_factor(x->p99));
			fprintf(f, "  within 2x on both: %zu of %zu tasks\n",
				x->within2x, x->judged);
		}
		fprintf(f, "  switches: %llu replayed, %llu recorded (x%.2f)\n",
			(unsigned long long)x->r_sw,
			(unsigned long long)x->o_sw,
			x->o_sw ? (double)x->r_sw / (double)x->o_sw : 0.0);
		fprintf(f, "  sleeps skipped: %llu of %llu recorded wakeups "
			"(early %llu, late %llu)\n",
			(unsigned long long)(x->early + x->late),
			(unsigned long long)x->sleeps,
			(unsigned long long)x->early,
			(unsigned long long)x->late);
		if (x->r_mig_s >= 0 && x->o_mig_s >= 0)
			fprintf(f, "  migrations: %.2f/s replayed, %.2f/s "
				"recorded\n", x->r_mig_s, x->o_mig_s);
		if (x->have_windows)
			fprintf(f, "  CPU given to other tasks than recorded, "
				"per %g s window: %.1f%%\n",
				(double)x->window_ns / 1e9, 100 * x->cpu_err);
		fprintf(f, "  completion: the last task done %.3f s from the "
			"start replayed, %.3f s recorded\n", x->r_end_s,
			x->o_end_s);
		if (x->nfar) {
			fprintf(f, "  farthest off: pid, name, p50 then p99 "
				"recorded -> replayed ms (|log2|):\n");
			for (size_t k = 0; k < x->nfar; k++)
				put_far(f, &x->far[k]);
		}
	}
}

static void put_tsv(FILE *f, const char *trace, const struct cmp_fid *v,
		    size_t n, bool tasks)
{
	if (tasks) {
		fputs("policy\tpid\tcomm\tswitches_recorded\tswitches_replayed"
		      "\tp50_recorded_ms\tp50_replayed_ms\tp99_recorded_ms"
		      "\tp99_replayed_ms\tp50_log2\tp99_log2\n", f);
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < v[i].judged; k++) {
				const struct cmp_fid_task *t = &v[i].task[k];
				char a[SR_FMT_NUM], b[SR_FMT_NUM];
				char c[SR_FMT_NUM], e[SR_FMT_NUM];

				fprintf(f, "%s\t%d\t", v[i].policy, (int)t->pid);
				sr_put_comm(f, t->comm);
				fprintf(f, "\t%llu\t%llu\t%s\t%s\t%s\t%s\t%.4f"
					"\t%.4f\n",
					(unsigned long long)t->o_sw,
					(unsigned long long)t->r_sw,
					sr_fmt_ms(a, sizeof(a), t->o50, 6),
					sr_fmt_ms(b, sizeof(b), t->r50, 6),
					sr_fmt_ms(c, sizeof(c), t->o99, 6),
					sr_fmt_ms(e, sizeof(e), t->r99, 6),
					t->l50, t->l99);
			}
		return;
	}
	fputs("trace\tpolicy\ttasks\tjudged\tp50_log2\tp99_log2\twithin_2x"
	      "\tswitches_recorded\tswitches_replayed\tswitch_ratio"
	      "\tsleeps\tskipped_early\tskipped_late\tmigrations_recorded_s"
	      "\tmigrations_replayed_s\tcpu_elsewhere\twindow_s"
	      "\tend_recorded_s\tend_replayed_s\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct cmp_fid *x = &v[i];

		sr_put_comm(f, trace);
		fprintf(f, "\t%s\t%zu\t%zu\t%.4f\t%.4f\t%zu\t%llu\t%llu\t%.4f"
			"\t%llu\t%llu\t%llu\t", x->policy, x->ntasks,
			x->judged, x->p50, x->p99, x->within2x,
			(unsigned long long)x->o_sw,
			(unsigned long long)x->r_sw,
			x->o_sw ? (double)x->r_sw / (double)x->o_sw : 0.0,
			(unsigned long long)x->sleeps,
			(unsigned long long)x->early,
			(unsigned long long)x->late);
		if (x->o_mig_s >= 0 && x->r_mig_s >= 0)
			fprintf(f, "%.3f\t%.3f\t", x->o_mig_s, x->r_mig_s);
		else
			fputs("-\t-\t", f);
		if (x->have_windows)
			fprintf(f, "%.4f\t%g\t", x->cpu_err,
				(double)x->window_ns / 1e9);
		else
			fputs("-\t-\t", f);
		fprintf(f, "%.6f\t%.6f\n", x->o_end_s, x->r_end_s);
	}
}

static void json_task(FILE *f, const struct cmp_fid_task *t)
{
	fprintf(f, "{\"pid\": %d, \"comm\": ", (int)t->pid);
	sr_json_str(f, t->comm);
	fprintf(f, ", \"switches_recorded\": %llu, \"switches_replayed\": "
		"%llu, \"p50_recorded_ns\": %lld, \"p50_replayed_ns\": %lld, "
		"\"p99_recorded_ns\": %lld, \"p99_replayed_ns\": %lld, "
		"\"p50_log2\": %.4f, \"p99_log2\": %.4f}",
		(unsigned long long)t->o_sw, (unsigned long long)t->r_sw,
		(long long)t->o50, (long long)t->r50, (long long)t->o99,
		(long long)t->r99, t->l50, t->l99);
}

static void put_json(FILE *f, const char *trace, const struct cmp_fid *v,
		     size_t n, const char *model, int cpus, bool tasks)
{
	fputs("{\"trace\": ", f);
	sr_json_str(f, trace);
	fprintf(f, ", \"cpus\": %d, \"model\": ", cpus);
	sr_json_str(f, model);
	fprintf(f, ", \"min_switches\": %d, \"runs\": [", CMP_FID_MIN_SWITCHES);
	for (size_t i = 0; i < n; i++) {
		const struct cmp_fid *x = &v[i];

		fprintf(f, "%s\n  {\"policy\": ", i ? "," : "");
		sr_json_str(f, x->policy);
		fprintf(f, ", \"tasks\": %zu, \"judged\": %zu, \"p50_log2\": "
			"%.4f, \"p99_log2\": %.4f, \"p50_factor\": %.4f, "
			"\"p99_factor\": %.4f, \"within_2x\": %zu, "
			"\"switches_recorded\": %llu, \"switches_replayed\": "
			"%llu, \"sleeps\": %llu, \"skipped_early\": %llu, "
			"\"skipped_late\": %llu, ", x->ntasks, x->judged,
			x->p50, x->p99, cmp_fid_factor(x->p50),
			cmp_fid_factor(x->p99), x->within2x,
			(unsigned long long)x->o_sw,
			(unsigned long long)x->r_sw,
			(unsigned long long)x->sleeps,
			(unsigned long long)x->early,
			(unsigned long long)x->late);
		if (x->o_mig_s >= 0 && x->r_mig_s >= 0)
			fprintf(f, "\"migrations_recorded_s\": %.3f, "
				"\"migrations_replayed_s\": %.3f, ", x->o_mig_s,
				x->r_mig_s);
		if (x->have_windows)
			fprintf(f, "\"cpu_elsewhere\": %.4f, \"window_s\": %g, ",
				x->cpu_err, (double)x->window_ns / 1e9);
		fprintf(f, "\"end_recorded_s\": %.6f, \"end_replayed_s\": "
			"%.6f, \"farthest\": [", x->o_end_s, x->r_end_s);
		for (size_t k = 0; k < x->nfar; k++) {
			fputs(k ? ", " : "", f);
			json_task(f, &x->far[k]);
		}
		fputs("]", f);
		if (tasks) {
			fputs(", \"task\": [", f);
			for (size_t k = 0; k < x->judged; k++) {
				fputs(k ? ",\n    " : "\n    ", f);
				json_task(f, &x->task[k]);
			}
			fputs("]", f);
		}
		fputs("}", f);
	}
	fputs("\n]}\n", f);
}

/* The recording kernel's model, from the trace's context (a file: read
   for it here; a pipe cannot be read twice, so the default). */
static const char *model_of(const char *trace, const struct sr_read_opts *ro)
{
	struct sr_read_opts quiet = *ro;
	struct sr_diag scratch = SR_DIAG_INIT;
	struct sr_reader *rd;
	const struct sr_context *c;
	const char *m;

	if (!strcmp(trace, "-"))
		return cmp_fid_model(NULL);
	quiet.progress = NULL;
	if (sr_reader_open(&rd, trace, &quiet, &scratch))
		return cmp_fid_model(NULL); /* the replay says what is wrong */
	c = sr_reader_context(rd);
	m = cmp_fid_model(c ? c->release : NULL);
	sr_reader_close(rd);
	return m;
}

/* The figures of every simulated run of r against its observed run. */
static int figures(struct sr_replay *r, struct cmp_fid_windows *w,
		   struct cmp_fid *v, size_t *nv, struct sr_diag *d)
{
	const struct sr_replay_info *in = sr_replay_info(r);
	const struct sr_replay_policy *obs = NULL;
	struct cmp_fid_row *orows = NULL;
	size_t oi = 0;
	int rc = SR_OK;

	*nv = 0;
	for (size_t i = 0; i < sr_replay_count(r); i++)
		if (sr_replay_get(r, i)->observed) {
			obs = sr_replay_get(r, i);
			oi = i;
		}
	if (!obs)
		return sr_fail(d, SR_EINTERNAL, "fidelity: no recorded run");
	if ((rc = cmp_fid_rows_of(obs, &orows, d)))
		return rc;
	for (size_t i = 0; i < sr_replay_count(r) && !rc; i++) {
		const struct sr_replay_policy *p = sr_replay_get(r, i);
		struct cmp_fid_row *rows = NULL;
		struct cmp_fid *x = &v[*nv];

		if (p->observed)
			continue;
		memset(x, 0, sizeof(*x));
		snprintf(x->policy, sizeof(x->policy), "%s", p->name);
		if ((rc = cmp_fid_rows_of(p, &rows, d)))
			break;
		rc = cmp_fid_compute(orows, obs->nrows, rows, p->nrows,
				     in->first_ts, in->last_ts - in->first_ts,
				     x, d);
		free(rows);
		if (rc)
			break;
		x->hz = p->sim.hz;
		x->hz_from = hz_words(p->sim.hz_from);
		cmp_fid_windows_figure(w, oi, i, in->last_ts, x);
		(*nv)++;
	}
	free(orows);
	return rc;
}

int cmd_fidelity(int argc, char **argv, struct sr_diag *d)
{
	struct sr_replay_opts o = { .outdir = NULL };
	struct fid_opts fo = { .window_ns = CMP_FID_WINDOW_NS };
	const char *policies[SR_REPLAY_MAX_POLICIES + 1];
	const char *sets[SR_REPLAY_MAX_TUNE], *rt[SR_REPLAY_MAX_TUNE];
	size_t npolicies = 0, nsets = 0, nrt = 0, n, nv = 0;
	const char *trace, *model;
	const struct po_option opts[] = {
		OPT_GROUP("output"),
		OPT_SET_INT(0, "tsv", &fo.format, "one row per policy, "
			    "tab-separated (with --tasks: one per judged "
			    "task)", OUT_TSV),
		OPT_SET_INT(0, "json", &fo.format, "the same as JSON: "
			    "{\"trace\", \"runs\": [{\"policy\", \"p50_log2\", "
			    "...}]}", OUT_JSON),
		OPT_FLAG(0, "tasks", &fo.tasks, "every judged task's figures "
			 "(with --tsv or --json)"),
		OPT_NUMBER(0, "window", &fo.window_ns, "TIME", "the windows "
			   "of the CPU figure (default 1s)", 1000000,
			   3600LL * 1000000000LL, po_time_units),
		OPT_PATH('o', "output", &fo.out, "FILE",
			 "write to FILE (temporary, then renamed; - is "
			 "stdout)"),
		OPT_FLAG('q', "quiet", &fo.quiet, "no progress line on a "
			 "terminal"),
		OPT_GROUP("the replay"),
		OPT_LIST(0, "policy", policies, &npolicies,
			 SR_REPLAY_MAX_POLICIES - 1, "P",
			 "a policy to hold against the recording (default: "
			 "the recording kernel's model, from its context's "
			 "release, else eevdf-6.18); repeatable"),
		OPT_NUMBER(0, "cpus", &o.cpus, "N", "CPUs to replay on "
			   "(default: as many as the recording used)", 1,
			   SR_SIM_MAX_CPUS, NULL),
		OPT_REPLAY_RULES(&o),
		OPT_TUNE(sets, &nsets, rt, &nrt, SR_REPLAY_MAX_TUNE),
		OPT_GROUP("input"),
		OPT_COMPAT(&o.compat),
		OPT_READ(&o.read),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "fidelity",
		.operands = "TRACE",
		.min_operands = 1,
		.max_operands = 1,
		.about = "Replay a trace under the model of the kernel that "
			 "recorded it and say how closely the replay "
			 "reproduces the recording: the medians over tasks of "
			 "|log2| of the p50 and p99 delays, switches, sleeps "
			 "skipped, migrations, CPU per window, completion.",
		.footer = "docs/replay.md, \"Fidelity\", says what each figure "
			  "is.",
		.opts = opts,
	};
	struct sr_replay_hooks hooks;
	struct cmp_fid_windows *w = NULL;
	struct cmp_fid *v = NULL;
	struct sr_outfile *of = NULL;
	struct sr_replay *r = NULL;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	model = model_of(trace, &o.read);
	if (!npolicies)
		policies[npolicies++] = model;
	policies[npolicies++] = SR_REPLAY_OBSERVED;
	if ((rc = cmp_fid_windows_new(&w, npolicies, fo.window_ns, d)))
		return rc;
	hooks = (struct sr_replay_hooks){ .row = cmp_fid_windows_row,
					  .ctx = w };
	o.hooks = &hooks;
	o.no_timeline = o.no_latency = true;
	o.no_why = true;
	o.tune = (struct sr_replay_tuning){ sets, nsets, rt, nrt };
	if ((rc = builtin_replay(&o, "fidelity", trace, policies, npolicies,
				 fo.quiet, &r, d)))
		goto out;
	if (!(v = calloc(npolicies, sizeof(*v)))) {
		rc = sr_oom(d);
		goto out;
	}
	if ((rc = figures(r, w, v, &nv, d)))
		goto out;
	if ((rc = sr_outfile_open(&of, fo.out ? fo.out : "-", d)))
		goto out;
	if (fo.format == OUT_TSV)
		put_tsv(sr_outfile_fp(of), trace, v, nv, fo.tasks);
	else if (fo.format == OUT_JSON)
		put_json(sr_outfile_fp(of), trace, v, nv, model,
			 sr_replay_info(r)->cpus, fo.tasks);
	else
		put_text(sr_outfile_fp(of), trace, v, nv, model,
			 sr_replay_info(r)->cpus);
	rc = sr_outfile_commit(of, d);
out:
	for (size_t i = 0; v && i < nv; i++)
		cmp_fid_release(&v[i]);
	free(v);
	cmp_fid_windows_free(w);
	sr_replay_free(r);
	return rc;
}
