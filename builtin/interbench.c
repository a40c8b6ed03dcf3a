/*
 * builtin/interbench: `schedreplay interbench [--policy P]... [--task T]...
 * [--load L]... [--cpus N]... [--duration S] [--nice-task N] [--nice-load
 * N] [--seed N] [--contest] [--save DIR] [-j N] [--tsv|--json] [-o
 * FILE]`: Con Kolivas's interactivity benchmark, simulated under each
 * policy (replay/interbench.h): one block per task and policy as
 * interbench prints it, and with --contest the compile's completion time
 * under each load as a ratio to no load.  The runs are independent and go
 * on -j threads; the output is the same bytes whatever their number.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/fmt.h"
#include "lib/outfile.h"
#include "lib/path.h"
#include "replay/interbench.h"
#include "replay/replay.h"
#include "sched-model/knobs.h"
#include "sched-model/smp.h"

#define IB_MAX_LIST 16
#define IB_MAX_CPUS 8
#define IB_MAX_THREADS 64
#define IB_DEFAULT_SEED 1
#define IB_DEFAULT_S 30

/* A task or load as asked for: its kind, and custom's figures. */
struct pick {
	int kind;
	struct sr_ib_custom custom;
	char name[48];             /* as given, for files and output */
	char label[48];            /* as interbench prints it */
};

/* One run of the grid. */
struct job {
	size_t cpus, task, load, pol;  /* indices into the lists */
	bool contest;
	struct sr_ib_result r;
};

struct grid {
	struct pick task[IB_MAX_LIST], load[IB_MAX_LIST];
	size_t ntask, nload;
	struct sm_tuning pol[IB_MAX_LIST];
	size_t npol;
	int cpus[IB_MAX_CPUS];
	size_t ncpus;
	int64_t duration;
	int64_t nice_task, nice_load, burn;
	uint64_t seed;
	bool check;
	const char *save;
	struct job *jobs;
	size_t njobs;
	/* the workers */
	pthread_mutex_t lock;
	size_t next;               /* the next job to hand out */
	bool stop;                 /* a job failed: hand out no more */
	size_t failed;             /* the lowest job that failed */
	struct sr_diag err;
};

static const int default_tasks[] = { SR_IB_AUDIO, SR_IB_VIDEO, SR_IB_X,
				     SR_IB_GAMING };
static const int default_loads[] = { SR_IB_NONE, SR_IB_LVIDEO, SR_IB_LX,
				     SR_IB_BURN, SR_IB_WRITE, SR_IB_READ,
				     SR_IB_COMPILE };

/* custom:PCT@MS */
static int parse_custom(const char *what, const char *arg, const char *spec,
			struct sr_ib_custom *c, struct sr_diag *d)
{
	const char *at = strchr(spec, '@');
	char pct[16];
	int64_t v;

	if (!at || (size_t)(at - spec) >= sizeof(pct))
		return sr_fail(d, SR_EUSAGE, "interbench: %s '%s': expected "
			       "custom:PCT@MS (a per cent of each period of MS "
			       "milliseconds, e.g. custom:40@16.6)", what, arg);
	memcpy(pct, spec, (size_t)(at - spec));
	pct[at - spec] = '\0';
	if (po_number(what, pct, 1, 100, NULL, &v, d))
		return d->code;
	c->pct = (int)v;
	if (po_number(what, at + 1, 1000, 10 * PO_NS_PER_S, po_time_units_ms,
		      &c->interval_ns, d))
		return d->code;
	return SR_OK;
}

static int parse_pick(const char *what, const char *arg, bool load,
		      struct pick *p, struct sr_diag *d)
{
	int n = load ? SR_IB_LOAD__COUNT : SR_IB_TASK__COUNT;
	size_t len = strcspn(arg, ":");

	memset(p, 0, sizeof(*p));
	p->kind = -1;
	for (int i = 0; i < n; i++) {
		const char *name = load ? sr_ib_load_name(i) : sr_ib_task_name(i);

		if (!load && i == SR_IB_COMPILE_JOB)
			continue;
		if (strlen(name) == len && !strncmp(arg, name, len))
			p->kind = i;
	}
	if (p->kind < 0 || strlen(arg) >= sizeof(p->name))
		return sr_fail(d, SR_EUSAGE, "interbench: %s '%s': expected %s",
			       what, arg, load ?
			       "none, video, x, burn, write, read, compile, "
			       "hack, memload or custom:PCT@MS" :
			       "audio, video, x, gaming or custom:PCT@MS");
	if (load && sr_ib_load_refused(p->kind))
		return sr_fail(d, SR_EUSAGE, "interbench: --load %s: %s", arg,
			       sr_ib_load_refused(p->kind));
	if ((p->kind == (load ? SR_IB_LCUSTOM : SR_IB_CUSTOM)) !=
	    (arg[len] == ':'))
		return sr_fail(d, SR_EUSAGE, "interbench: %s '%s': only "
			       "custom takes :PCT@MS", what, arg);
	if (arg[len] == ':' &&
	    parse_custom(what, arg, arg + len + 1, &p->custom, d))
		return d->code;
	snprintf(p->name, sizeof(p->name), "%s", arg);
	for (char *c = p->name; *c; c++)
		if (*c == ':' || *c == '/')
			*c = '-';
	if (arg[len] == ':') {
		char ms[SR_FMT_NUM];

		snprintf(p->label, sizeof(p->label), "Custom %d%%@%sms",
			 p->custom.pct,
			 sr_fmt_ms(ms, sizeof(ms), p->custom.interval_ns, 3));
	} else {
		snprintf(p->label, sizeof(p->label), "%s", load ?
			 sr_ib_load_label(p->kind) : sr_ib_task_label(p->kind));
	}
	return SR_OK;
}

static int parse_picks(const char *what, const char *const *args, size_t n,
		       bool load, struct pick *out, size_t *nout,
		       struct sr_diag *d)
{
	const int *def = load ? default_loads : default_tasks;
	size_t ndef = load ? sizeof(default_loads) / sizeof(*def)
			   : sizeof(default_tasks) / sizeof(*def);

	*nout = 0;
	if (!n) {
		for (size_t i = 0; i < ndef; i++) {
			const char *name = load ? sr_ib_load_name(def[i])
						: sr_ib_task_name(def[i]);

			if (parse_pick(what, name, load, &out[(*nout)++], d))
				return d->code;
		}
		return SR_OK;
	}
	for (size_t i = 0; i < n; i++) {
		if (parse_pick(what, args[i], load, &out[i], d))
			return d->code;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(out[j].name, out[i].name))
				return sr_fail(d, SR_EUSAGE, "interbench: %s "
					       "'%s' given twice", what,
					       args[i]);
		(*nout)++;
	}
	return SR_OK;
}

static int parse_policies(struct grid *g, const char *const *names, size_t n,
			  const char *const *sets, size_t nsets,
			  struct sr_diag *d)
{
	const struct sm_policy *pols[IB_MAX_LIST];

	if (!n) {
		for (const struct sm_policy *const *p = sm_policies; *p; p++)
			if (n < IB_MAX_LIST)
				n++;
		names = NULL;
	}
	for (size_t i = 0; i < n; i++) {
		struct sm_tuning *t = &g->pol[i];

		if ((names ? sm_tuning_parse(t, names[i], d)
			   : (sm_tuning_init(t, sm_policies[i]), 0)) ||
		    sm_tuning_apply_sets(t, sets, nsets, false, d) ||
		    sm_tuning_finish(t, d))
			return d->code;
		pols[i] = t->policy;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(g->pol[j].label, t->label))
				return sr_fail(d, SR_EUSAGE, "interbench: policy "
					       "'%s' given twice", t->label);
	}
	g->npol = n;
	return sm_sets_check(sets, nsets, pols, n, d);
}

/* ---- the runs ---------------------------------------------------------------- */

/* DIR/NCPU/TASK-LOAD/POLICY.EXT of job j (contest: contest-LOAD). */
static char *save_path(const struct grid *g, const struct job *j,
		       const char *ext)
{
	char dir[160], name[SM_LABEL_MAX + 16];
	char *d, *p;

	snprintf(dir, sizeof(dir), "%dcpu/%s-%s", g->cpus[j->cpus],
		 j->contest ? "contest" : g->task[j->task].name,
		 g->load[j->load].name);
	snprintf(name, sizeof(name), "%s%s", g->pol[j->pol].label, ext);
	if (!(d = sr_path_join(g->save, dir, NULL)))
		return NULL;
	p = sr_path_join(d, name, NULL);
	free(d);
	return p;
}

static int save_dirs(const struct grid *g, struct sr_diag *d)
{
	for (size_t i = 0; i < g->njobs; i++) {
		char *p = save_path(g, &g->jobs[i], ".txt");
		char *slash = p ? strrchr(p, '/') : NULL;
		int rc;

		if (!p)
			return sr_oom(d);
		*slash = '\0';
		rc = sr_mkdirs(p, d);
		free(p);
		if (rc)
			return rc;
	}
	return SR_OK;
}

static void job_spec(const struct grid *g, const struct job *j,
		     struct sr_ib_spec *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->task = j->contest ? SR_IB_COMPILE_JOB : g->task[j->task].kind;
	sp->task_custom = g->task[j->task].custom;
	sp->load = g->load[j->load].kind;
	sp->load_custom = g->load[j->load].custom;
	sp->tuning = &g->pol[j->pol];
	sp->cpus = g->cpus[j->cpus];
	sp->duration_ns = g->duration;
	sp->nice_task = (int)g->nice_task;
	sp->nice_load = (int)g->nice_load;
	sp->burn_threads = (int)g->burn;
	sp->seed = g->seed;
	sp->check = g->check;
}

/* Open (or, f NULL, close) a saved file under the lock: the table of
   open temporaries is the process's one (lib/outfile.h). */
static int save_open(struct grid *g, struct sr_outfile **f, const char *path,
		     struct sr_diag *d)
{
	int rc;

	pthread_mutex_lock(&g->lock);
	rc = sr_outfile_open(f, path, d);
	pthread_mutex_unlock(&g->lock);
	return rc;
}

static int save_close(struct grid *g, struct sr_outfile *f, int rc,
		      const char *path, struct sr_diag *d)
{
	pthread_mutex_lock(&g->lock);
	if (f)
		rc = sr_outfile_finish(f, rc, path, d);
	pthread_mutex_unlock(&g->lock);
	return rc;
}

static int run_job(struct grid *g, struct job *j, struct sr_diag *d)
{
	struct sr_ib_spec sp;
	struct sr_outfile *tf = NULL, *lf = NULL;
	char *tpath = NULL, *lpath = NULL, comment[1024];
	struct sm_tuning as_run;
	int rc;

	job_spec(g, j, &sp);
	if (!g->save)
		return sr_ib_run(&sp, &j->r, d);
	if (sr_ib_tuning(sp.tuning, &as_run, d))
		return d->code;
	tpath = save_path(g, j, ".txt");
	lpath = save_path(g, j, ".latency.tsv");
	if (!tpath || !lpath) {
		rc = sr_oom(d);
		goto out;
	}
	if ((rc = save_open(g, &tf, tpath, d)) ||
	    (rc = save_open(g, &lf, lpath, d)))
		goto out;
	snprintf(comment, sizeof(comment), "schedreplay interbench: %s under "
		 "%s, %s, %d CPU%s, %lld s, nice %lld/%lld, seed %llu; the "
		 "same run again: replay --policy %s --calibrate none",
		 j->contest ? "Compile" :
		 g->task[j->task].label, g->load[j->load].label,
		 g->pol[j->pol].label, sp.cpus, sp.cpus > 1 ? "s" : "",
		 (long long)(g->duration / PO_NS_PER_S),
		 (long long)g->nice_task, (long long)g->nice_load,
		 (unsigned long long)g->seed, as_run.label);
	sp.trace = sr_outfile_fp(tf);
	sp.trace_comment = comment;
	sp.latency = sr_outfile_fp(lf);
	rc = sr_ib_run(&sp, &j->r, d);
	/* both whole, or neither */
	if (!rc)
		rc = sr_outfile_check(tf, d);
	if (!rc)
		rc = sr_outfile_check(lf, d);
	rc = save_close(g, tf, rc, tpath, d);
	tf = NULL;
	rc = save_close(g, lf, rc, lpath, d);
	lf = NULL;
out:
	if (tf || lf) {
		pthread_mutex_lock(&g->lock);
		sr_outfile_abort(tf);
		sr_outfile_abort(lf);
		pthread_mutex_unlock(&g->lock);
	}
	free(tpath);
	free(lpath);
	return rc;
}

static void *worker(void *arg)
{
	struct grid *g = arg;
	struct sr_diag *d = malloc(sizeof(*d));

	for (;;) {
		size_t i;

		pthread_mutex_lock(&g->lock);
		i = g->next;
		if (g->stop || i >= g->njobs) {
			pthread_mutex_unlock(&g->lock);
			break;
		}
		g->next++;
		pthread_mutex_unlock(&g->lock);
		if (!d) {
			pthread_mutex_lock(&g->lock);
			g->stop = true;
			if (i < g->failed) {
				g->failed = i;
				sr_oom(&g->err);
			}
			pthread_mutex_unlock(&g->lock);
			break;
		}
		d->code = SR_OK;
		d->msg[0] = '\0';
		if (run_job(g, &g->jobs[i], d)) {
			pthread_mutex_lock(&g->lock);
			g->stop = true;
			/* the lowest job's error: the same whatever the
			   threads (every job below a failed one was
			   handed out, and is waited for) */
			if (i < g->failed) {
				g->failed = i;
				g->err.code = SR_OK;
				sr_fail(&g->err, d->code, "%s", d->msg);
			}
			pthread_mutex_unlock(&g->lock);
		}
	}
	free(d);
	return NULL;
}

static int run_all(struct grid *g, int64_t threads, struct sr_diag *d)
{
	pthread_t th[IB_MAX_THREADS];
	size_t n = 0;

	if (threads <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		threads = c > 0 ? c : 1;
	}
	if (threads > IB_MAX_THREADS)
		threads = IB_MAX_THREADS;
	if ((size_t)threads > g->njobs)
		threads = (int64_t)g->njobs;
	g->failed = SIZE_MAX;
	if (pthread_mutex_init(&g->lock, NULL))
		return sr_fail(d, SR_EINTERNAL, "no mutex");
	for (int64_t i = 1; i < threads; i++) {
		if (pthread_create(&th[n], NULL, worker, g))
			break;  /* fewer threads: the same results */
		n++;
	}
	worker(g);
	for (size_t i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&g->lock);
	if (g->failed != SIZE_MAX)
		return sr_fail(d, g->err.code, "%s", g->err.msg);
	return SR_OK;
}

static int make_jobs(struct grid *g, bool contest, struct sr_diag *d)
{
	size_t n = g->ncpus * g->npol * g->nload * (g->ntask + (contest ? 1 : 0));
	size_t k = 0;

	g->jobs = calloc(n ? n : 1, sizeof(*g->jobs));
	if (!g->jobs)
		return sr_oom(d);
	for (size_t c = 0; c < g->ncpus; c++) {
		for (size_t t = 0; t < g->ntask; t++)
			for (size_t p = 0; p < g->npol; p++)
				for (size_t l = 0; l < g->nload; l++) {
					/* interbench skips a task under
					   itself (X under X) */
					if (g->task[t].kind != SR_IB_CUSTOM &&
					    !strcmp(g->task[t].name,
						    g->load[l].name))
						continue;
					g->jobs[k++] = (struct job){
						.cpus = c, .task = t,
						.load = l, .pol = p };
				}
		if (contest)
			for (size_t p = 0; p < g->npol; p++)
				for (size_t l = 0; l < g->nload; l++)
					g->jobs[k++] = (struct job){
						.cpus = c, .load = l,
						.pol = p, .contest = true };
	}
	g->njobs = k;
	return SR_OK;
}

/* The job of (cpus, task, policy, load), NULL if skipped. */
static const struct job *find_job(const struct grid *g, size_t c, size_t t,
				  size_t p, size_t l, bool contest)
{
	for (size_t i = 0; i < g->njobs; i++) {
		const struct job *j = &g->jobs[i];

		if (j->cpus == c && j->pol == p && j->load == l &&
		    j->contest == contest && (contest || j->task == t))
			return j;
	}
	return NULL;
}

/* ---- output -------------------------------------------------------------- */

static void header(FILE *f, const struct grid *g)
{
	fprintf(f, "schedreplay interbench: interbench 0.31's tasks and loads "
		"simulated, %lld s per pair, seed %llu (docs/interbench.md)\n",
		(long long)(g->duration / PO_NS_PER_S),
		(unsigned long long)g->seed);
}

/* A figure as the published tables give it: three significant digits,
   without an exponent, and at most three decimals (ms: whole us). */
static void fig(FILE *f, const char *fmt, double v)
{
	char b[SR_FMT_NUM];
	int dec = v >= 99.95 ? 0 : v >= 9.995 ? 1 : v >= 0.9995 ? 2 : 3;

	snprintf(b, sizeof(b), "%.*f", dec, v);
	fprintf(f, fmt, b);
}

static void text_block(FILE *f, const struct grid *g, size_t c, size_t t,
		       size_t p)
{
	const struct pick *tk = &g->task[t];
	bool dl = tk->kind != SR_IB_GAMING;

	fprintf(f, "\n--- Benchmarking simulated cpu of %s ", tk->label);
	if (g->nice_task)
		fprintf(f, "nice %lld ", (long long)g->nice_task);
	fputs("in the presence of simulated ", f);
	if (g->nice_load)
		fprintf(f, "nice %lld ", (long long)g->nice_load);
	fprintf(f, "--- %s, %d CPU%s\n", g->pol[p].label, g->cpus[c],
		g->cpus[c] > 1 ? "s" : "");
	fprintf(f, "Load\tLatency +/- SD (ms)  Max Latency   %% Desired CPU%s\n",
		dl ? "  % Deadlines Met" : "");
	for (size_t l = 0; l < g->nload; l++) {
		const struct job *j = find_job(g, c, t, p, l, false);

		if (!j)
			continue;
		fprintf(f, "%s\t", g->load[l].label);
		fig(f, "%6s +/- ", sr_ib_latency_avg(&j->r) / 1e6);
		fig(f, "%-8s", sr_ib_latency_sd(&j->r) / 1e6);
		fig(f, "%6s\t\t", (double)j->r.max_latency / 1e6);
		fig(f, "%4s", sr_ib_desired_cpu(&j->r));
		if (dl)
			fig(f, "\t%11s", sr_ib_deadlines_met(&j->r));
		fputc('\n', f);
	}
}

/* The compile's span under no load, the contest's ratio's base (its
   job under None, run for the table whatever --load says). */
static const struct job *contest_base(const struct grid *g, size_t c,
				      size_t p)
{
	for (size_t l = 0; l < g->nload; l++)
		if (g->load[l].kind == SR_IB_NONE)
			return find_job(g, c, 0, p, l, true);
	return NULL;
}

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? (double)part * 100 / (double)whole : 0;
}

/* contest's columns of a job: the compile's time (s), its CPU and the
   load's over that time (%), the time as a ratio to no load (< 0: none) */
struct contest_figs {
	double s, cpu, lcpu, ratio;
};

static void contest_figs(const struct grid *g, const struct job *j,
			 struct contest_figs *c)
{
	const struct sr_ib_result *r = &j->r;
	const struct job *b = contest_base(g, j->cpus, j->pol);

	c->s = (double)r->compile_ns / 1e9;
	c->cpu = pct(r->compile_cpu_ns, r->compile_ns);
	c->lcpu = pct(r->load_cpu_ns, r->compile_ns);
	c->ratio = b && b->r.compile_ns ? (double)r->compile_ns /
					  (double)b->r.compile_ns : -1;
}

static void text_contest(FILE *f, const struct grid *g, size_t c, size_t p)
{
	fprintf(f, "\n--- contest: make -j4, its completion time under each "
		"load --- %s, %d CPU%s\n", g->pol[p].label, g->cpus[c],
		g->cpus[c] > 1 ? "s" : "");
	fputs("Load\tTime (s)  CPU%   LCPU%  Ratio\n", f);
	for (size_t l = 0; l < g->nload; l++) {
		struct contest_figs cf;

		contest_figs(g, find_job(g, c, 0, p, l, true), &cf);
		fprintf(f, "%s\t%8.2f  %5.1f  %5.1f  %5.2f\n",
			g->load[l].label, cf.s, cf.cpu, cf.lcpu,
			cf.ratio < 0 ? 0 : cf.ratio);
	}
}

static int write_text(FILE *f, const struct grid *g, bool contest)
{
	header(f, g);
	for (size_t c = 0; c < g->ncpus; c++) {
		for (size_t t = 0; t < g->ntask; t++)
			for (size_t p = 0; p < g->npol; p++)
				text_block(f, g, c, t, p);
		if (contest)
			for (size_t p = 0; p < g->npol; p++)
				text_contest(f, g, c, p);
	}
	return SR_OK;
}

static void fmt_ns_ms(FILE *f, double ns)
{
	fprintf(f, "%.6f", ns / 1e6);
}

static int write_tsv(FILE *f, const struct grid *g)
{
	fputs("cpus\ttask\tload\tpolicy\tnice_task\tnice_load\tlatency_avg_ms"
	      "\tlatency_sd_ms\tlatency_max_ms\tdesired_cpu_pct"
	      "\tdeadlines_met_pct\tsamples\tdeadlines_met\tdeadlines_missed"
	      "\tcompile_s\tcompile_cpu_pct\tload_cpu_pct\tratio\n", f);
	for (size_t i = 0; i < g->njobs; i++) {
		const struct job *j = &g->jobs[i];
		const struct sr_ib_result *r = &j->r;

		fprintf(f, "%d\t%s\t%s\t", g->cpus[j->cpus],
			j->contest ? "contest" : g->task[j->task].name,
			g->load[j->load].name);
		sr_put_comm(f, g->pol[j->pol].label);
		fprintf(f, "\t%lld\t%lld\t", (long long)g->nice_task,
			(long long)g->nice_load);
		if (j->contest) {
			struct contest_figs cf;

			contest_figs(g, j, &cf);
			fprintf(f, "-\t-\t-\t-\t-\t-\t-\t-\t%.6f\t%.2f\t%.2f\t",
				cf.s, cf.cpu, cf.lcpu);
			if (cf.ratio < 0)
				fputs("-\n", f);
			else
				fprintf(f, "%.4f\n", cf.ratio);
			continue;
		}
		fmt_ns_ms(f, sr_ib_latency_avg(r));
		fputc('\t', f);
		fmt_ns_ms(f, sr_ib_latency_sd(r));
		fputc('\t', f);
		fmt_ns_ms(f, (double)r->max_latency);
		fprintf(f, "\t%.4f\t", sr_ib_desired_cpu(r));
		if (r->has_deadlines)
			fprintf(f, "%.4f\t%llu\t%llu\t%llu", sr_ib_deadlines_met(r),
				(unsigned long long)r->samples,
				(unsigned long long)r->deadlines_met,
				(unsigned long long)r->deadlines_missed);
		else
			fprintf(f, "-\t%llu\t-\t-",
				(unsigned long long)r->samples);
		fputs("\t-\t-\t-\t-\n", f);
	}
	return SR_OK;
}

static int write_json(FILE *f, const struct grid *g)
{
	fprintf(f, "{\"interbench\": {\"version\": \"0.31\", \"duration_s\": "
		"%lld, \"seed\": %llu, \"nice_task\": %lld, \"nice_load\": "
		"%lld, \"runs\": [", (long long)(g->duration / PO_NS_PER_S),
		(unsigned long long)g->seed, (long long)g->nice_task,
		(long long)g->nice_load);
	for (size_t i = 0; i < g->njobs; i++) {
		const struct job *j = &g->jobs[i];
		const struct sr_ib_result *r = &j->r;

		fprintf(f, "%s\n  {\"cpus\": %d, \"task\": ", i ? "," : "",
			g->cpus[j->cpus]);
		sr_json_str(f, j->contest ? "contest" : g->task[j->task].name);
		fputs(", \"load\": ", f);
		sr_json_str(f, g->load[j->load].name);
		fputs(", \"policy\": ", f);
		sr_json_str(f, g->pol[j->pol].label);
		if (j->contest) {
			struct contest_figs cf;

			contest_figs(g, j, &cf);
			fprintf(f, ", \"compile_s\": %.6f, \"compile_cpu_pct\": "
				"%.2f, \"load_cpu_pct\": %.2f, \"ratio\": ",
				cf.s, cf.cpu, cf.lcpu);
			if (cf.ratio < 0)
				fputs("null}", f);
			else
				fprintf(f, "%.4f}", cf.ratio);
			continue;
		}
		fputs(", \"latency_avg_ms\": ", f);
		fmt_ns_ms(f, sr_ib_latency_avg(r));
		fputs(", \"latency_sd_ms\": ", f);
		fmt_ns_ms(f, sr_ib_latency_sd(r));
		fputs(", \"latency_max_ms\": ", f);
		fmt_ns_ms(f, (double)r->max_latency);
		fprintf(f, ", \"desired_cpu_pct\": %.4f, \"samples\": %llu",
			sr_ib_desired_cpu(r), (unsigned long long)r->samples);
		if (r->has_deadlines)
			fprintf(f, ", \"deadlines_met_pct\": %.4f, "
				"\"deadlines_met\": %llu, \"deadlines_missed\": "
				"%llu}", sr_ib_deadlines_met(r),
				(unsigned long long)r->deadlines_met,
				(unsigned long long)r->deadlines_missed);
		else
			fputs(", \"deadlines_met_pct\": null}", f);
	}
	fputs("\n]}}\n", f);
	return SR_OK;
}

static int prepare(struct grid *g, const char *const *pols, size_t npols,
		   const char *const *tasks, size_t ntasks,
		   const char *const *loads, size_t nloads,
		   const char *const *cpus, size_t ncpus,
		   const char *const *sets, size_t nsets, struct sr_diag *d)
{
	if (parse_picks("--task", tasks, ntasks, false, g->task, &g->ntask,
			d) ||
	    parse_picks("--load", loads, nloads, true, g->load, &g->nload,
			d) ||
	    parse_policies(g, pols, npols, sets, nsets, d))
		return d->code;
	g->ncpus = ncpus ? ncpus : 1;
	g->cpus[0] = 1;
	for (size_t i = 0; i < ncpus; i++) {
		int64_t v;

		if (po_number("--cpus", cpus[i], 1, 64, NULL, &v, d))
			return d->code;
		g->cpus[i] = (int)v;
		for (size_t j = 0; j < i; j++)
			if (g->cpus[j] == g->cpus[i])
				return sr_fail(d, SR_EUSAGE, "interbench: "
					       "--cpus %d given twice",
					       g->cpus[i]);
	}
	for (size_t p = 0; p < g->npol; p++)
		for (size_t c = 0; c < g->ncpus; c++)
			if (g->cpus[c] > 1 && !sm_balancer_of(g->pol[p].policy))
				return sr_fail(d, SR_EUSAGE, "interbench: "
					       "policy %s runs on one CPU only: "
					       "leave out --cpus %d",
					       g->pol[p].label, g->cpus[c]);
	/* interbench: "a multiple of 10 seconds for proper range of X" */
	if (g->duration % (10 * PO_NS_PER_S))
		g->duration += 10 * PO_NS_PER_S -
			       g->duration % (10 * PO_NS_PER_S);
	return SR_OK;
}

int cmd_interbench(int argc, char **argv, struct sr_diag *d)
{
	const char *pols[IB_MAX_LIST], *tasks[IB_MAX_LIST], *loads[IB_MAX_LIST];
	const char *cpus[IB_MAX_CPUS], *sets[SR_REPLAY_MAX_TUNE];
	size_t npols = 0, ntasks = 0, nloads = 0, ncpus = 0, nsets = 0;
	int64_t duration = IB_DEFAULT_S * PO_NS_PER_S, seed = IB_DEFAULT_SEED;
	int64_t threads = 0, nice_task = 0, nice_load = 0, burn = 0;
	bool contest = false, check = false, quiet = false;
	int format = OUT_TEXT;
	const char *out = "-", *save = NULL;
	struct grid *g;
	const struct po_option opts[] = {
		OPT_GROUP("the benchmark"),
		OPT_LIST(0, "task", tasks, &ntasks, IB_MAX_LIST, "T",
			 "a benchmarked task: audio, video, x, gaming, or "
			 "custom:PCT@MS (PCT % of each period of MS ms); "
			 "repeatable (default: audio, video, x, gaming)"),
		OPT_LIST(0, "load", loads, &nloads, IB_MAX_LIST, "L",
			 "a background load: none, video, x, burn, write, "
			 "read, compile, hack or custom:PCT@MS (memload is "
			 "refused, with its reason); repeatable (default: "
			 "interbench's own: none, video, x, burn, write, read, "
			 "compile; Memload is not modelled, and Hack, off in "
			 "interbench too, runs when asked)"),
		OPT_NUMBER(0, "duration", &duration, "S",
			   "seconds per pair (default 30; rounded up to a "
			   "multiple of 10, as interbench does for X)",
			   PO_NS_PER_S, 3600 * PO_NS_PER_S, po_time_units_s),
		OPT_NUMBER(0, "nice-task", &nice_task, "N",
			   "the benchmarked process's nice (interbench -B; "
			   "default 0)", -20, 19, NULL),
		OPT_NUMBER(0, "nice-load", &nice_load, "N",
			   "the load process's nice (interbench -N; default 0)",
			   -20, 19, NULL),
		OPT_NUMBER(0, "burn", &burn, "N",
			   "Burn's CPU-bound threads (interbench -L; default 4)",
			   1, 64, NULL),
		OPT_NUMBER(0, "seed", &seed, "N",
			   "the seed of the disk's service times and the "
			   "compile's files (default 1; printed)", 0,
			   INT64_MAX, NULL),
		OPT_FLAG(0, "contest", &contest,
			 "also contest's table: a make -j4's completion time "
			 "under each load, as a ratio to no load"),
		OPT_GROUP("the simulation"),
		OPT_LIST(0, "policy", pols, &npols, IB_MAX_LIST, "P",
			 "a policy (`schedreplay policies`); repeatable "
			 "(default: all); P:NAME=VALUE,... tunes it"),
		OPT_LIST(0, "set", sets, &nsets, SR_REPLAY_MAX_TUNE,
			 "NAME=VALUE", "set kernel constant NAME of every "
			 "policy that has it"),
		OPT_LIST(0, "cpus", cpus, &ncpus, IB_MAX_CPUS, "N",
			 "CPUs to simulate (default 1, the uniprocessor of "
			 "2003); repeat for several"),
		OPT_NUMBER('j', "jobs", &threads, "N",
			   "runs at once, on N threads (default: one per CPU "
			   "online); the output does not depend on it", 1,
			   IB_MAX_THREADS, NULL),
		OPT_FLAG(0, "check", &check, "check the policies' invariants "
			 "at every instant (slow; tests)"),
		OPT_OUTPUT_FILE(&quiet, &out),
		OPT_PATH(0, "save", &save, "DIR",
			 "also write each run as a native trace, "
			 "DIR/NCPUcpu/TASK-LOAD/POLICY.txt, which replay, "
			 "diff, explain and export read (replayed under that "
			 "policy it is the run again), and its waits as "
			 "replay's latency.tsv rows beside it "
			 "(POLICY.latency.tsv)"),
		OPT_SET_INT(0, "tsv", &format, "one row per run, tab-separated",
			    OUT_TSV),
		OPT_SET_INT(0, "json", &format, "the same as JSON", OUT_JSON),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "interbench",
		.operands = NULL,
		.min_operands = 0,
		.max_operands = 0,
		.about = "Con Kolivas's interactivity benchmark, interbench 0.31, "
			"simulated under each policy: its benchmarked tasks (Audio, "
			"Video, X, Gaming) each under its background loads, as "
			"closed-loop programs whose next step follows from how the "
			"policy ran them; one block per task and policy, as "
			"interbench prints it (latency avg +/- SD and max, % of the "
			"CPU wanted, % of deadlines met). No recording is needed.",
		.footer = "docs/interbench.md: what is modelled and how, and the "
			"published tables beside ours.",
		.opts = opts,
	};
	struct sr_outfile *f = NULL;
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, NULL, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	(void)quiet;
	g = calloc(1, sizeof(*g));
	if (!g)
		return sr_oom(d);
	g->duration = duration;
	g->nice_task = nice_task;
	g->nice_load = nice_load;
	g->burn = burn;
	g->seed = (uint64_t)seed;
	g->check = check;
	g->save = save;
	rc = prepare(g, pols, npols, tasks, ntasks, loads, nloads, cpus, ncpus,
		     sets, nsets, d);
	if (!rc && contest) {
		/* contest's ratio is to the compile under no load */
		bool none = false;

		for (size_t l = 0; l < g->nload; l++)
			none |= g->load[l].kind == SR_IB_NONE;
		if (!none && g->nload < IB_MAX_LIST)
			rc = parse_pick("--load", "none", true,
					&g->load[g->nload++], d);
	}
	if (!rc)
		rc = make_jobs(g, contest, d);
	if (!rc && save)
		rc = save_dirs(g, d);
	if (!rc)
		rc = sr_outfile_open(&f, out, d);
	if (!rc)
		rc = run_all(g, threads, d);
	if (f) {
		FILE *fp = sr_outfile_fp(f);

		if (!rc)
			rc = format == OUT_TSV ? write_tsv(fp, g) :
			     format == OUT_JSON ? write_json(fp, g) :
			     write_text(fp, g, contest);
		if (rc)
			sr_outfile_abort(f);
		else
			rc = sr_outfile_finish(f, rc, out, d);
	}
	free(g->jobs);
	free(g);
	return rc;
}
