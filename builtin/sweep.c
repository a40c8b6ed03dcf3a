/*
 * builtin/sweep: `schedreplay sweep TRACE... --policy P... --set
 * NAME=V1,V2,... -o DIR`: a grid of replays (compare/sweep.h) run by GNU
 * parallel on this machine (or one after another in this process with
 * --sequential), or written out for parallel --sshlogin or a Slurm array
 * (--emit), then one table of the groups' figures and a heat map.
 * `schedreplay sweep-job TRACE SPEC JOBDIR`: one job, what jobs.txt's
 * lines run.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "compare/sweep.h"
#include "compare/sweep-slurm.h"
#include "lib/progress.h"
#include "lib/outfile.h"
#include "lib/path.h"
#include "plots/gnuplot.h"
#include "plots/heatmap.h"
#include "replay/rtrules.h"
#include "sched-model/policy.h"

extern char **environ;

#define MAX_TRACES 64
#define MAX_SWEEP_POLICIES 64
#define MAX_REPORTED 20		/* failed jobs named one by one */

enum emit { EMIT_NONE, EMIT_JOBS, EMIT_SLURM };
static const char *const emit_names[] = { "none", "jobs", "slurm", NULL };

/* The binary the job lines run: this one, by its absolute path. */
static char *self_path(const char *argv0)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n > 0) {
		buf[n] = 0;
		return strdup(buf);
	}
	return realpath(argv0, NULL);
}

/*
 * Our environment for parallel, with PARALLEL_SHELL=/bin/sh: jobs.txt is
 * quoted for sh, and parallel would otherwise run each line with the shell
 * it finds above it (fish, csh: other quoting rules).  NULL if out of
 * memory; free the array only (its strings are environ's or static).
 */
static char **parallel_env(void)
{
	static char sh[] = "PARALLEL_SHELL=/bin/sh";
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = malloc((n + 2) * sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "PARALLEL_SHELL=", 15))
			env[k++] = environ[i];
	env[k++] = sh;
	env[k] = NULL;
	return env;
}

/*
 * parallel --will-cite [-j N] --joblog /dev/fd/N < DIR/jobs.txt: the job
 * log is our temporary (lib/outfile.h, made with O_EXCL) written through
 * the descriptor parallel inherits, then renamed to DIR/joblog.tsv.
 * Given the name, parallel would open DIR/joblog.tsv itself, following a
 * link planted there (root writing through it to any file).
 */
static int run_parallel(const char *outdir, int jobs, int *status,
			struct sr_diag *d)
{
	char *jobfile = sr_path_join(outdir, "jobs", "txt");
	char *joblog = sr_path_join(outdir, "joblog", "tsv");
	char **env = parallel_env();
	char nj[32], logfd[32];
	char *argv[10];
	int argc = 0, fd = -1, rc = SR_OK;
	struct sr_outfile *log = NULL;
	posix_spawn_file_actions_t fa;
	pid_t pid;

	if (!jobfile || !joblog || !env) {
		rc = sr_oom(d);
		goto out;
	}
	if ((rc = sr_outfile_open(&log, joblog, d)))
		goto out;
	snprintf(logfd, sizeof(logfd), "/dev/fd/%d",
		 fileno(sr_outfile_fp(log)));
	argv[argc++] = "parallel";
	argv[argc++] = "--will-cite";
	if (jobs > 0) {
		snprintf(nj, sizeof(nj), "%d", jobs);
		argv[argc++] = "-j";
		argv[argc++] = nj;
	}
	argv[argc++] = "--joblog";
	argv[argc++] = logfd;
	argv[argc] = NULL;
	fd = open(jobfile, O_RDONLY);
	if (fd < 0) {
		rc = sr_fail(d, SR_EIO, "%s: %s", jobfile, strerror(errno));
		goto out;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 0);
	/* a signal kills parallel and removes the log (lib/outfile.h) */
	sr_outfile_block(1);
	if (posix_spawnp(&pid, "parallel", &fa, NULL, argv, env)) {
		sr_outfile_block(0);
		rc = sr_fail(d, SR_ENOGNUPLOT, "sweep: cannot run GNU parallel "
			     "(%s): install it (apt-get install parallel), or "
			     "run with --sequential", strerror(errno));
	} else {
		sr_outfile_set_child(log, (int)pid);
		sr_outfile_block(0);
		while (waitpid(pid, status, 0) < 0)
			if (errno != EINTR) {
				rc = sr_fail(d, SR_EIO, "sweep: waiting for "
					     "parallel: %s", strerror(errno));
				break;
			}
		sr_outfile_set_child(log, 0);
	}
	posix_spawn_file_actions_destroy(&fa);
	if (rc == SR_OK) {
		rc = sr_outfile_commit(log, d);
		log = NULL;
	}
out:
	if (fd >= 0)
		close(fd);
	sr_outfile_abort(log);
	free(env);
	free(jobfile);
	free(joblog);
	return rc;
}

/* The --rt rules every job will compile. */
static int check_rt(const char *const *rt, size_t nrt, struct sr_diag *d)
{
	struct sr_rtrules *rr;

	if (sr_rtrules_new(&rr, rt, nrt, d))
		return d->code;
	sr_rtrules_free(rr);
	return SR_OK;
}

/* The jobs one after another, in this process.  A job's failure is
 * said and the next runs (the table then names the cells left), except
 * out of memory: this process's own, which ends the sweep (71). */
static int run_sequential(const struct cmp_sweep *sw,
			  const struct cmp_sweep_opts *o, bool quiet,
			  struct sr_diag *out)
{
	for (size_t i = 0; i < sw->njobs;) {
		const struct cmp_sweep_job *j = &sw->jobs[i];
		const char *labels[CMP_SWEEP_CHUNK];
		struct sr_diag d = SR_DIAG_INIT;
		size_t n = 0, done;

		while (i < sw->njobs && sw->jobs[i].chunk == j->chunk &&
		       n < CMP_SWEEP_CHUNK)
			labels[n++] = sw->jobs[i++].label;
		if (cmp_sweep_run_job(j->trace, j->root, j->chunk, labels, n,
				      o->rt, o->nrt, o->cpus, &done, &d) &&
		    d.code == SR_ENOMEM)
			return sr_fail(out, SR_ENOMEM, "sweep job %zu: %s",
				       j->chunk, d.msg);
		else if (d.code)
			fprintf(stderr, "schedreplay: sweep job %zu: %s\n",
				j->chunk, d.msg);
		else if (!quiet)
			printf("job %zu/%zu: %s, %zu policies%s\n", j->chunk,
			       sw->nchunks, j->tkey, n, done == n ?
			       " (done before)" : "");
	}
	return SR_OK;
}

/*
 * DIR/sweep.sbatch rewritten to run the jobs of the failed cells only
 * (*run, malloc'd: the jobs it holds); nothing to write when none failed.
 */
static int write_rerun(const struct cmp_sweep *sw,
		       const struct cmp_sweep_opts *o, const char *outdir,
		       const size_t *failed, size_t nfailed, bool quiet,
		       bool **run, struct sr_diag *d)
{
	struct cmp_sweep_slurm sl;
	struct sr_progress pg;
	int rc;

	if (!nfailed) {
		if (!quiet)
			printf("every cell has its figures: nothing to run\n");
		return SR_OK;
	}
	*run = calloc(sw->nchunks, sizeof(**run));
	if (!*run)
		return sr_oom(d);
	for (size_t i = 0; i < nfailed; i++)
		(*run)[sw->jobs[failed[i]].chunk - 1] = true;
	sr_progress_init(&pg, "sweep", quiet);
	rc = cmp_sweep_slurm_plan(&sl, sw, *run, &pg, d);
	sr_progress_end(&pg);
	if (rc || (rc = cmp_sweep_write_sbatch(sw, o, &sl, d)))
		return rc;
	printf("wrote %s/sweep.sbatch: the %zu job%s with cells to run (",
	       outdir, sl.njobs, sl.njobs == 1 ? "" : "s");
	for (size_t c = 0, n = 0; c < sw->nchunks; c++)
		if ((*run)[c])
			printf("%s%zu", n++ ? ", " : "", c + 1);
	printf("); submit it: sbatch %s/sweep.sbatch\n", outdir);
	return SR_OK;
}

/* Name the jobs without figures, with their command lines. */
static int report_failed(const struct cmp_sweep *sw,
			 const struct cmp_sweep_opts *o, const size_t *failed,
			 size_t nfailed, bool rerun, struct sr_diag *d)
{
	if (!nfailed)
		return SR_OK;
	for (size_t i = 0; i < nfailed && i < MAX_REPORTED; i++) {
		const struct cmp_sweep_job *j = &sw->jobs[failed[i]];
		char *line;

		/* each job once, with the first of its cells that failed */
		if (i && sw->jobs[failed[i - 1]].chunk == j->chunk)
			continue;
		line = cmp_sweep_cmdline(sw, j->chunk, o);
		fprintf(stderr, "schedreplay: sweep: job %zu (%s under %s, "
			"...) failed or did not run: %s\n", j->chunk, j->tkey,
			j->label, line ? line : "?");
		free(line);
	}
	if (nfailed > MAX_REPORTED)
		fprintf(stderr, "schedreplay: sweep: and %zu more (results.tsv "
			"says which)\n", nfailed - MAX_REPORTED);
	if (rerun)
		return sr_fail(d, SR_EDATA, "sweep: %zu of %zu cells have no "
			       "figures (sweep.sbatch now runs only their "
			       "jobs)", nfailed, sw->njobs);
	return sr_fail(d, SR_EDATA, "sweep: %zu of %zu cells have no figures "
		       "(to retry only them, run the sweep again; on Slurm, "
		       "schedreplay sweep --collect --emit slurm -o %s, then "
		       "sbatch %s/sweep.sbatch)", nfailed, sw->njobs,
		       o->outdir, o->outdir);
}

int cmd_sweep(int argc, char **argv, struct sr_diag *d)
{
	const char *traces[MAX_TRACES];
	const char *policies[MAX_SWEEP_POLICIES];
	const char *sets[SR_REPLAY_MAX_TUNE], *rt[SR_REPLAY_MAX_TUNE];
	size_t ntraces = 0, npolicies = 0, nsets = 0, nrt = 0;
	const char *outdir = NULL, *heat = NULL, *gnuplot = NULL;
	int jobs = 0, emit = EMIT_NONE, cpus = 0;
	bool sequential = false, collect = false, quiet = false;
	const struct po_option opts[] = {
		OPT_GROUP("the grid"),
		OPT_LIST(0, "policy", policies, &npolicies, MAX_SWEEP_POLICIES,
			 "P", "a policy (P:NAME=VALUE,... tuned); repeatable "
			 "(default: every policy)"),
		OPT_LIST(0, "set", sets, &nsets, SR_REPLAY_MAX_TUNE,
			 "NAME=V1,V2,...", "a knob's values: one job per "
			 "value and policy that has it (one value: a constant "
			 "for all); repeatable: the grid is every combination"),
		OPT_LIST(0, "rt", rt, &nrt, SR_REPLAY_MAX_TUNE, "REGEX[:PRIO]",
			 "as replay --rt, in every job"),
		OPT_NUMBER(0, "cpus", &cpus, "N",
			   "CPUs every job replays on (default: as many as "
			   "each recording used)", 1, SR_SIM_MAX_CPUS, NULL),
		OPT_GROUP("running it"),
		OPT_PATH('o', "output", &outdir, "DIR",
			 "DIR/jobs/TRACE/LABEL/ for each job, DIR/results.tsv "
			 "and .json, DIR/manifest.tsv, DIR/jobs.txt"),
		OPT_NUMBER('j', "jobs", &jobs, "N",
			   "jobs at once under GNU parallel (default: one per "
			   "CPU core)", 1, 4096, NULL),
		OPT_FLAG(0, "sequential", &sequential,
			 "run the jobs one after another in this process, not "
			 "with GNU parallel"),
		OPT_CHOICE(0, "emit", &emit, emit_names, "WHAT",
			   "only write the plan: jobs (DIR/jobs.txt, for "
			   "parallel --sshlogin) or slurm (also DIR/"
			   "sweep.sbatch, an array job); then --collect.  "
			   "With --collect, slurm: DIR/sweep.sbatch rewritten "
			   "to run only the jobs with cells left"),
		OPT_FLAG(0, "collect", &collect,
			 "only build DIR/results.tsv, .json (and --heatmap) "
			 "from the jobs' figures"),
		OPT_GROUP("the table"),
		OPT_STRING(0, "heatmap", &heat, "X,Y[,FIGURE]",
			   "draw FIGURE (default inter_p99_ms) over the knobs "
			   "X and Y: DIR/heatmap-TRACE-POLICY-FIGURE.png"),
		OPT_STRING(0, "gnuplot", &gnuplot, "PATH",
			   "the gnuplot to run (default: gnuplot on PATH)"),
		OPT_FLAG('q', "quiet", &quiet, "say nothing when all went well"),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "sweep",
		.operands = "TRACE...",
		.min_operands = 0,
		.max_operands = MAX_TRACES,
		.about = "Replay every TRACE under every policy for every combination "
			"of the --set values, on GNU parallel (or --sequential), and "
			"tabulate what each group got: the interactive tasks' worst "
			"p99 and max delay, the periodic tasks' deadlines met, the "
			"batch work's completion.  A job whose figures exist is "
			"skipped: run it again to resume.",
		.footer = "docs/sweep.md has the figures, the files and the Slurm "
			"recipe.",
		.opts = opts,
	};
	struct cmp_sweep sw;
	struct cmp_sweep_opts so;
	struct cmp_sweep_heat hm;
	struct cmp_sweep_slurm sl;
	struct sr_progress pg;
	struct sr_madedirs made = { NULL, 0, 0 };
	size_t *failed = NULL, nfailed;
	bool *rerun = NULL;
	char *self = NULL, *absdir = NULL;
	int rc, status = 0;

	(void)status; /* the failures are the jobs without figures */

	memset(&sw, 0, sizeof(sw));
	if ((rc = po_parse(&cmd, argc, argv, traces, &ntraces, d)))
		return rc == PO_HELP ? SR_OK : rc;
	if (!outdir)
		return sr_fail(d, SR_EUSAGE, "sweep: -o DIR is needed");
	if (collect && (ntraces || npolicies || nsets))
		return sr_fail(d, SR_EUSAGE, "sweep --collect: the grid is "
			       "DIR's manifest: no TRACE, --policy or --set");
	if (collect && emit == EMIT_JOBS)
		return sr_fail(d, SR_EUSAGE, "sweep --collect: --emit slurm "
			       "only (the array of the jobs with cells left); "
			       "with GNU parallel, run jobs.txt again: a job "
			       "skips its cells with figures");
	if (!collect && !ntraces)
		return sr_fail(d, SR_EUSAGE, "sweep: expected a TRACE at "
			       "least");
	/* the jobs name their directories from anywhere (jobs.txt runs on
	 * other machines, from other directories): DIR made absolute */
	absdir = sr_path_absolute(outdir);
	if (!absdir)
		return sr_fail_errno(d, SR_EIO, errno, "%s: cannot make it an "
				     "absolute path", outdir);
	if (collect) {
		if ((rc = cmp_sweep_read_plan(&sw, outdir, d)))
			goto out;
	} else {
		if (!npolicies)
			for (const struct sm_policy *const *p = sm_policies;
			     *p && npolicies < MAX_SWEEP_POLICIES; p++)
				policies[npolicies++] = (*p)->name;
		if ((rc = cmp_sweep_plan(&sw, traces, ntraces, policies,
					 npolicies, sets, nsets, absdir, d)))
			goto out;
	}
	self = self_path(argv[0]);
	so = (struct cmp_sweep_opts){ absdir, rt, nrt,
				      self ? self : "schedreplay", cpus };
	/* what could fail at the end (the heat map and its gnuplot) or in
	 * every job (--rt) is checked before the first job runs */
	if ((heat && (rc = cmp_sweep_heat_parse(&sw, heat, &hm, d))) ||
	    (rc = check_rt(rt, nrt, d)) ||
	    (heat && (collect || emit == EMIT_NONE) &&
	     (rc = pl_gnuplot_check(gnuplot, d))))
		goto out;
	/* everything checked before the first directory is made */
	if ((rc = cmp_sweep_check(&sw, &so, emit == EMIT_SLURM, d)))
		goto out;
	if (!collect) {
		/* the array's estimate: every trace read once */
		if (emit == EMIT_SLURM) {
			sr_progress_init(&pg, "sweep", quiet);
			rc = cmp_sweep_slurm_plan(&sl, &sw, NULL, &pg, d);
			sr_progress_end(&pg);
			if (rc)
				goto out;
		}
		/* a failed write leaves no directory it made behind */
		if ((rc = sr_mkdirs_note(outdir, &made, d)) ||
		    (rc = cmp_sweep_write_plan(&sw, &so, emit == EMIT_SLURM ?
					       &sl : NULL, d))) {
			sr_madedirs_undo(&made);
			goto out;
		}
		sr_madedirs_forget(&made);
		if (emit == EMIT_JOBS && !quiet)
			printf("wrote %s/jobs.txt (%zu jobs, %zu cells)\n"
			       "run them (parallel --sshlogin ... < jobs.txt), "
			       "then: schedreplay sweep --collect -o %s\n",
			       outdir, sw.nchunks, sw.njobs, outdir);
		if (emit == EMIT_SLURM && !quiet)
			printf("wrote %s/jobs.txt (%zu jobs, %zu cells) and "
			       "sweep.sbatch (each task: %lu min, %lu MB)\n"
			       "run them (sbatch sweep.sbatch, or parallel "
			       "--sshlogin ... < jobs.txt), then: schedreplay "
			       "sweep --collect -o %s\n", outdir, sw.nchunks,
			       sw.njobs, sl.minutes, sl.mb, outdir);
		if (emit != EMIT_NONE)
			goto out;
		if (sequential) {
			if ((rc = run_sequential(&sw, &so, quiet, d)))
				goto out;
		} else {
			if ((rc = run_parallel(outdir, jobs, &status, d)))
				goto out;
		}
	}
	nfailed = sw.njobs;
	failed = malloc((sw.njobs ? sw.njobs : 1) * sizeof(*failed));
	if (!failed) {
		rc = sr_oom(d);
		goto out;
	}
	if ((rc = cmp_sweep_collect(&sw, outdir, failed, &nfailed, d)) ||
	    (heat && (rc = pl_sweep_heatmap(&sw, outdir, &hm, gnuplot, d))))
		goto out;
	if (!quiet && !nfailed)
		printf("wrote %s/results.tsv and results.json (%zu cells in "
		       "%zu jobs)\n", outdir, sw.njobs, sw.nchunks);
	/* --collect --emit slurm: the array of the jobs with cells left */
	if (collect && emit == EMIT_SLURM &&
	    (rc = write_rerun(&sw, &so, outdir, failed, nfailed, quiet,
			       &rerun, d)))
		goto out;
	rc = report_failed(&sw, &so, failed, nfailed, rerun != NULL, d);
out:
	free(rerun);
	free(failed);
	free(self);
	free(absdir);
	cmp_sweep_free(&sw);
	return rc;
}

int cmd_sweep_job(int argc, char **argv, struct sr_diag *d)
{
	const char *ops[2 + CMP_SWEEP_CHUNK], *rt[SR_REPLAY_MAX_TUNE];
	size_t nops, nrt = 0, chunk = 1, done;
	int cpus = 0;
	const struct po_option opts[] = {
		OPT_NUMBER(0, "chunk", &chunk, "N",
			   "the job's number (for messages and logs)", 1,
			   1000000, NULL),
		OPT_NUMBER(0, "cpus", &cpus, "N", "as replay --cpus", 1,
			   SR_SIM_MAX_CPUS, NULL),
		OPT_LIST(0, "rt", rt, &nrt, SR_REPLAY_MAX_TUNE, "REGEX[:PRIO]",
			 "as replay --rt"),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "sweep-job",
		.operands = "TRACE ROOT LABEL...",
		.min_operands = 3,
		.max_operands = 2 + CMP_SWEEP_CHUNK,
		.about = "One job of a sweep (a line of its jobs.txt): replay TRACE "
			"under the tuned policies LABEL... whose ROOT/LABEL/figures.tsv "
			"is missing, and the recorded schedule, then write each one's "
			"figures there; nothing if every one has them.",
		.opts = opts,
	};
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, ops, &nops, d)))
		return rc == PO_HELP ? SR_OK : rc;
	return cmp_sweep_run_job(ops[0], ops[1], chunk, ops + 2, nops - 2, rt,
				 nrt, cpus, &done, d);
}
