/*
 * sweep: the plan of a grid of replays, one job, and the results table
 * (see compare/sweep.h; plots/heatmap.c draws its heat maps).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare/load.h"
#include "compare/runset.h"
#include "compare/source.h"
#include "compare/sweep.h"
#include "compare/sweep-slurm.h"
#include "lib/fmt.h"
#include "lib/grow.h"
#include "lib/outfile.h"
#include "lib/path.h"

const char *const cmp_sweep_figure_names[] = {
	"inter_n", "inter_p99_ms", "inter_max_ms", "periodic_n",
	"deadlines_met_pct", "batch_n", "batch_done_s", "end_s", NULL,
};

static int oom(struct sr_diag *d)
{
	return sr_oom(d);
}

/* ---- the plan ---- */

static int parse_values(const char *list, struct cmp_sweep_axis *ax,
			const char *set, struct sr_diag *d)
{
	const char *p = list;

	ax->nvalues = 0;
	for (;;) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || (*end && *end != ','))
			return sr_fail(d, SR_EUSAGE, "--set %s: expected "
				       "NAME=VALUE or NAME=V1,V2,... (integers)",
				       set);
		if (ax->nvalues == CMP_SWEEP_MAX_VALUES)
			return sr_fail(d, SR_EUSAGE, "--set %s: at most %d "
				       "values", set, CMP_SWEEP_MAX_VALUES);
		for (size_t i = 0; i < ax->nvalues; i++)
			if (ax->values[i] == v)
				return sr_fail(d, SR_EUSAGE, "--set %s: %ld "
					       "given twice", set, v);
		ax->values[ax->nvalues++] = v;
		if (!*end)
			return SR_OK;
		p = end + 1;
	}
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* The index of the first cell of the last job. */
static size_t first_of_chunk(const struct cmp_sweep *sw)
{
	size_t i = sw->njobs;

	while (i > 0 && sw->jobs[i - 1].chunk == sw->nchunks)
		i--;
	return i < sw->njobs ? sw->jobs[i].index : 0;
}

static int add_job(struct cmp_sweep *sw, size_t *cap, const char *trace,
		   const char *tkey, const struct sm_tuning *t,
		   const long *value, const bool *has, const char *outdir,
		   struct sr_diag *d)
{
	struct cmp_sweep_job *j;
	char *sub;

	for (size_t i = 0; i < sw->njobs; i++)
		if (!strcmp(sw->jobs[i].tkey, tkey) &&
		    !strcmp(sw->jobs[i].label, t->label))
			return SR_OK;	/* the same job (a knob it lacks) */
	{
		struct cmp_sweep_job *v = sr_grow(sw->jobs, cap, sw->njobs,
						  sizeof(*v), 16, 0);

		if (!v)
			return oom(d);
		sw->jobs = v;
	}
	j = &sw->jobs[sw->njobs];
	memset(j, 0, sizeof(*j));
	j->index = sw->njobs + 1;
	j->trace = strdup(trace);
	snprintf(j->tkey, sizeof(j->tkey), "%s", tkey);
	snprintf(j->policy, sizeof(j->policy), "%s", t->policy->name);
	snprintf(j->label, sizeof(j->label), "%s", t->label);
	memcpy(j->value, value, sizeof(j->value));
	memcpy(j->has, has, sizeof(j->has));
	sub = sr_path_join(outdir, "jobs", NULL);
	j->root = sub ? sr_path_join(sub, tkey, NULL) : NULL;
	free(sub);
	j->dir = j->root ? sr_path_join(j->root, t->label, NULL) : NULL;
	/* a new job every CMP_SWEEP_CHUNK cells, and at each trace */
	if (!sw->njobs || strcmp(sw->jobs[sw->njobs - 1].tkey, tkey) ||
	    j->index - first_of_chunk(sw) >= CMP_SWEEP_CHUNK)
		sw->nchunks++;
	j->chunk = sw->nchunks;
	sw->njobs++;
	if (!j->trace || !j->dir || !j->root)
		return oom(d);
	return SR_OK;
}

/* Every combination of the axes policy p has, in axis and value order. */
static int expand(struct cmp_sweep *sw, size_t *cap, const char *trace,
		  const char *tkey, const char *spec,
		  const char *const *consts, size_t nconsts,
		  const char *outdir, struct sr_diag *d)
{
	struct sm_tuning base;
	size_t idx[CMP_SWEEP_MAX_AXES] = { 0 };
	bool has[CMP_SWEEP_MAX_AXES] = { false };

	if (sm_tuning_parse(&base, spec, d))
		return d->code;
	for (size_t a = 0; a < sw->naxes; a++)
		has[a] = sm_knob_find(base.policy, sw->axes[a].name) >= 0;
	for (;;) {
		struct sm_tuning t;
		long value[CMP_SWEEP_MAX_AXES] = { 0 };
		size_t a;

		if (sm_tuning_parse(&t, spec, d) ||
		    sm_tuning_apply_sets(&t, consts, nconsts, false, d))
			return d->code;
		for (a = 0; a < sw->naxes; a++) {
			char v[32];

			if (!has[a])
				continue;
			value[a] = sw->axes[a].values[idx[a]];
			snprintf(v, sizeof(v), "%ld", value[a]);
			if (sm_tuning_set(&t, sw->axes[a].name, v, d))
				return d->code;
		}
		if (sm_tuning_finish(&t, d) ||
		    add_job(sw, cap, trace, tkey, &t, value, has, outdir, d))
			return d->code;
		/* the next combination: the last axis moves fastest */
		for (a = sw->naxes; a-- > 0;) {
			if (!has[a])
				continue;
			if (++idx[a] < sw->axes[a].nvalues)
				break;
			idx[a] = 0;
		}
		if (a == (size_t)-1)
			return SR_OK;
	}
}

int cmp_sweep_plan(struct cmp_sweep *sw, const char *const *traces,
		   size_t ntraces, const char *const *policies,
		   size_t npolicies, const char *const *sets, size_t nsets,
		   const char *outdir, struct sr_diag *d)
{
	const char *consts[64];
	size_t nconsts = 0, cap = 0;
	const struct sm_policy *pols[64];
	char checks[64][80];
	const char *checkp[64];

	memset(sw, 0, sizeof(*sw));
	if (npolicies > 64 || nsets > 64)
		return sr_fail(d, SR_EUSAGE, "sweep: at most 64 policies and "
			       "64 --set");
	for (size_t i = 0; i < npolicies; i++) {
		struct sm_tuning t;

		if (sm_tuning_parse(&t, policies[i], d))
			return d->code;
		pols[i] = t.policy;
	}
	for (size_t i = 0; i < nsets; i++) {
		const char *eq = strchr(sets[i], '=');
		struct cmp_sweep_axis ax;

		if (!eq || eq == sets[i] || (size_t)(eq - sets[i]) >=
		    sizeof(ax.name))
			return sr_fail(d, SR_EUSAGE, "--set %s: expected "
				       "NAME=VALUE or NAME=V1,V2,...", sets[i]);
		memset(&ax, 0, sizeof(ax));
		memcpy(ax.name, sets[i], (size_t)(eq - sets[i]));
		if (parse_values(eq + 1, &ax, sets[i], d))
			return d->code;
		snprintf(checks[i], sizeof(checks[i]), "%s=%ld", ax.name,
			 ax.values[0]);
		checkp[i] = checks[i];
		for (size_t a = 0; a < sw->naxes; a++)
			if (!strcmp(sw->axes[a].name, ax.name))
				return sr_fail(d, SR_EUSAGE, "--set %s: %s set "
					       "twice", sets[i], ax.name);
		for (size_t c = 0; c < nconsts; c++)
			if (!strncmp(consts[c], ax.name, strlen(ax.name)) &&
			    consts[c][strlen(ax.name)] == '=')
				return sr_fail(d, SR_EUSAGE, "--set %s: %s set "
					       "twice", sets[i], ax.name);
		if (ax.nvalues == 1) {
			consts[nconsts++] = sets[i];
			continue;
		}
		if (sw->naxes == CMP_SWEEP_MAX_AXES)
			return sr_fail(d, SR_EUSAGE, "sweep: at most %d knobs "
				       "with several values", CMP_SWEEP_MAX_AXES);
		sw->axes[sw->naxes++] = ax;
	}
	if (sm_sets_check(checkp, nsets, pols, npolicies, d))
		return d->code;
	for (size_t t = 0; t < ntraces; t++) {
		char tkey[80];
		struct stat st;
		char *abs;

		/* named as given (a link kept: the nodes may see the file
		 * only that way), made absolute */
		if (stat(traces[t], &st))
			return sr_fail(d, SR_ENOINPUT, "%s: cannot open: %s",
				       traces[t], strerror(errno));
		abs = sr_path_absolute(traces[t]);
		if (!abs)
			return sr_fail_errno(d, SR_EIO, errno, "%s: cannot make "
					     "it an absolute path", traces[t]);
		snprintf(tkey, sizeof(tkey), "t%zu-%s", t + 1,
			 base_name(abs));
		for (size_t p = 0; p < npolicies; p++) {
			if (expand(sw, &cap, abs, tkey, policies[p], consts,
				   nconsts, outdir, d)) {
				free(abs);
				return d->code;
			}
		}
		free(abs);
	}
	return SR_OK;
}

void cmp_sweep_free(struct cmp_sweep *sw)
{
	for (size_t i = 0; i < sw->njobs; i++) {
		free(sw->jobs[i].trace);
		free(sw->jobs[i].dir);
		free(sw->jobs[i].root);
	}
	free(sw->jobs);
	memset(sw, 0, sizeof(*sw));
}

/* ---- jobs.txt and the manifest ---- */

char *cmp_sweep_cmdline(const struct cmp_sweep *sw, size_t c,
			const struct cmp_sweep_opts *o)
{
	char *buf = NULL;
	size_t len = 0, first = 0;
	FILE *f;

	while (first < sw->njobs && sw->jobs[first].chunk != c)
		first++;
	if (first == sw->njobs)
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	sr_sh_str(f, o->self);
	fprintf(f, " sweep-job --chunk %zu", c);
	if (o->cpus > 0)
		fprintf(f, " --cpus %d", o->cpus);
	for (size_t i = 0; i < o->nrt; i++) {
		fputs(" --rt ", f);
		sr_sh_str(f, o->rt[i]);
	}
	fputc(' ', f);
	sr_sh_str(f, sw->jobs[first].trace);
	fputc(' ', f);
	sr_sh_str(f, sw->jobs[first].root);
	for (size_t i = first; i < sw->njobs && sw->jobs[i].chunk == c; i++) {
		fputc(' ', f);
		sr_sh_str(f, sw->jobs[i].label);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * A byte jobs.txt, manifest.tsv or sweep.sbatch cannot hold in a value: a
 * control character.  jobs.txt is read a line at a time (GNU parallel runs
 * each line; the Slurm script picks its line with sed), so a newline inside
 * a quoted word would end the command there and run the rest as another;
 * a tab or newline would split a manifest row.  No quoting is right for
 * every reader at once, so these are refused.
 */
static const char *ctl_in(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return s;
	return NULL;
}

static int refuse_ctl(const char *what, const char *s, struct sr_diag *d)
{
	char q[512];

	if (!ctl_in(s))
		return SR_OK;
	return sr_fail(d, SR_EUSAGE, "sweep: %s '%s' holds a control character "
		       "(a newline, a tab, ...): jobs.txt holds one shell command "
		       "per line and manifest.tsv one row per cell, so it cannot "
		       "be written there; rename it", what,
		       sr_quote(q, sizeof(q), s, strlen(s)));
}

int cmp_sweep_check(const struct cmp_sweep *sw,
		    const struct cmp_sweep_opts *o, bool slurm,
		    struct sr_diag *d)
{
	if (refuse_ctl("output directory", o->outdir, d) ||
	    refuse_ctl("binary path", o->self, d))
		return d->code;
	for (size_t i = 0; i < o->nrt; i++)
		if (refuse_ctl("--rt", o->rt[i], d))
			return d->code;
	for (size_t i = 0; i < sw->njobs; i++)
		if (refuse_ctl("trace", sw->jobs[i].trace, d) ||
		    refuse_ctl("job directory", sw->jobs[i].root, d) ||
		    refuse_ctl("label", sw->jobs[i].label, d))
			return d->code;
	/* Slurm reads a backslash in an output file name as "expand no
	 * %A, %a": the per-task names would collide */
	if (slurm && strchr(o->outdir, '\\'))
		return sr_fail(d, SR_EUSAGE, "sweep --emit slurm: output "
			       "directory %s holds a backslash, which Slurm's "
			       "file name patterns cannot hold (it turns %%A and "
			       "%%a off); choose another -o", o->outdir);
	return SR_OK;
}

static void put_manifest(FILE *f, const struct cmp_sweep *sw)
{
	fputs("job\tchunk\ttrace\ttkey\tpolicy\tlabel", f);
	for (size_t a = 0; a < sw->naxes; a++)
		fprintf(f, "\t%s", sw->axes[a].name);
	fputs("\troot\n", f);
	for (size_t i = 0; i < sw->njobs; i++) {
		const struct cmp_sweep_job *job = &sw->jobs[i];

		fprintf(f, "%zu\t%zu\t%s\t%s\t%s\t%s", job->index, job->chunk,
			job->trace, job->tkey, job->policy, job->label);
		for (size_t a = 0; a < sw->naxes; a++) {
			if (job->has[a])
				fprintf(f, "\t%ld", job->value[a]);
			else
				fputs("\t-", f);
		}
		fprintf(f, "\t%s\n", job->root);
	}
}

static int put_jobs(FILE *f, const struct cmp_sweep *sw,
		    const struct cmp_sweep_opts *o, struct sr_diag *d)
{
	for (size_t c = 1; c <= sw->nchunks; c++) {
		char *line = cmp_sweep_cmdline(sw, c, o);

		if (!line)
			return oom(d);
		fprintf(f, "%s\n", line);
		free(line);
	}
	return SR_OK;
}

int cmp_sweep_write_plan(const struct cmp_sweep *sw,
			 const struct cmp_sweep_opts *o,
			 const struct cmp_sweep_slurm *slurm, struct sr_diag *d)
{
	/* manifest.tsv, jobs.txt, sweep.sbatch: all written and checked
	 * before the first is renamed into place, so a full disk leaves the
	 * previous plan whole (or nothing) */
	static const char *const names[][2] = {
		{ "manifest", "tsv" }, { "jobs", "txt" }, { "sweep", "sbatch" },
	};
	struct sr_outfile *of[3] = { NULL, NULL, NULL };
	size_t n = slurm ? 3 : 2, i;
	int rc = SR_OK;

	for (i = 0; i < n && !rc; i++)
		rc = sr_outfile_open_in(&of[i], o->outdir, names[i][0],
					names[i][1], d);
	if (!rc) {
		put_manifest(sr_outfile_fp(of[0]), sw);
		rc = put_jobs(sr_outfile_fp(of[1]), sw, o, d);
	}
	if (!rc && slurm)
		cmp_sweep_put_sbatch(sr_outfile_fp(of[2]), sw, o, slurm);
	for (i = 0; i < n && !rc; i++)
		rc = sr_outfile_check(of[i], d);
	for (i = 0; i < n; i++) {
		if (!rc)
			rc = sr_outfile_commit(of[i], d);
		else
			sr_outfile_abort(of[i]);
	}
	return rc;
}

/* Split a TSV line in place into fields; the count, which may pass n
 * (only the first n are stored). */
static size_t split_tabs(char *line, char **field, size_t n)
{
	size_t k = 0;
	char *p = line;

	for (;;) {
		if (k < n)
			field[k] = p;
		k++;
		p = strchr(p, '\t');
		if (!p)
			return k;
		*p++ = 0;
	}
}

/* "1".."999999999": a count from 1 in plain digits. */
static bool count_field(const char *s, size_t *out)
{
	size_t n = strlen(s);

	if (n == 0 || n > 9 || strspn(s, "0123456789") != n || s[0] == '0')
		return false;
	*out = (size_t)strtoul(s, NULL, 10);
	return true;
}

/* A knob's value as put_manifest writes it: a decimal long. */
static bool value_field(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return *s && *s != '+' && !isspace((unsigned char)*s) && !*end &&
	       errno == 0;
}

/* A knob name as the header holds it: letters, digits and _. */
static bool knob_field(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < sizeof(((struct cmp_sweep_axis *)0)->name) &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789_") == n;
}

/* "FILE:LINE: expected WHAT in column COL, got 'VALUE'" (quoted). */
static int bad_field(const char *path, size_t line, const char *what,
		     const char *col, const char *v, struct sr_diag *d)
{
	char q[256];

	return sr_fail(d, SR_EDATA, "%s:%zu: expected %s in column %s, got "
		       "'%s'", path, line, what, col,
		       sr_quote(q, sizeof(q), v, strlen(v)));
}

/* Row lineno's fields into job j (the row before it: prev, or NULL). */
static int read_row(struct cmp_sweep *sw, struct cmp_sweep_job *j,
		    const struct cmp_sweep_job *prev, char **field, size_t nf,
		    const char *path, size_t lineno, struct sr_diag *d)
{
	const struct sm_policy *pol;
	size_t tn, len;
	char *tail;

	memset(j, 0, sizeof(*j));
	if (!count_field(field[0], &j->index) || j->index != sw->njobs + 1)
		return bad_field(path, lineno, "the row's own number (the "
				 "first row 1, then one more each)", "job",
				 field[0], d);
	if (!count_field(field[1], &j->chunk) ||
	    (j->chunk != (prev ? prev->chunk : 1) &&
	     (!prev || j->chunk != prev->chunk + 1)))
		return bad_field(path, lineno, "the job's number (the first "
				 "row's 1, then the row before's or one "
				 "more)", "chunk", field[1], d);
	if (field[2][0] != '/')
		return bad_field(path, lineno, "an absolute path", "trace",
				 field[2], d);
	len = strlen(field[3]);
	if (field[3][0] != 't' || !(tn = strspn(field[3] + 1, "0123456789")) ||
	    field[3][1 + tn] != '-' || len >= sizeof(j->tkey) ||
	    strchr(field[3], '/') || !strcmp(field[3] + 2 + tn, ".") ||
	    !strcmp(field[3] + 2 + tn, ".."))
		return bad_field(path, lineno, "t<N>-<the trace's file name> "
				 "(a directory name)", "tkey", field[3], d);
	pol = sm_policy_find(field[4]);
	if (!pol || strcmp(pol->name, field[4]) ||
	    strlen(field[4]) >= sizeof(j->policy))
		return bad_field(path, lineno, "a policy's name", "policy",
				 field[4], d);
	len = strlen(field[5]);
	if (!len || len >= sizeof(j->label) || strchr(field[5], '/') ||
	    !strcmp(field[5], ".") || !strcmp(field[5], ".."))
		return bad_field(path, lineno, "the tuned policy's label (a "
				 "directory name)", "label", field[5], d);
	for (size_t a = 0; a < sw->naxes; a++) {
		struct cmp_sweep_axis *ax = &sw->axes[a];
		size_t k;

		if (!strcmp(field[6 + a], "-"))
			continue;
		if (!value_field(field[6 + a], &j->value[a]))
			return bad_field(path, lineno, "a number or '-'",
					 ax->name, field[6 + a], d);
		j->has[a] = true;
		for (k = 0; k < ax->nvalues; k++)
			if (ax->values[k] == j->value[a])
				break;
		if (k == ax->nvalues && ax->nvalues == CMP_SWEEP_MAX_VALUES)
			return bad_field(path, lineno, "one of at most 64 "
					 "values a knob takes", ax->name,
					 field[6 + a], d);
		if (k == ax->nvalues)
			ax->values[ax->nvalues++] = j->value[a];
	}
	/* root: DIR/jobs/<tkey>, as add_job made it */
	len = strlen(field[nf - 1]);
	tail = field[nf - 1] + (len > strlen(field[3]) + 6 ?
				len - strlen(field[3]) - 6 : 0);
	if (field[nf - 1][0] != '/' || len <= strlen(field[3]) + 6 ||
	    strncmp(tail, "/jobs/", 6) || strcmp(tail + 6, field[3]))
		return bad_field(path, lineno, "DIR/jobs/<tkey> (an absolute "
				 "path)", "root", field[nf - 1], d);
	memcpy(j->tkey, field[3], strlen(field[3]) + 1);
	memcpy(j->policy, field[4], strlen(field[4]) + 1);
	memcpy(j->label, field[5], strlen(field[5]) + 1);
	j->trace = strdup(field[2]);
	j->root = strdup(field[nf - 1]);
	j->dir = j->root ? sr_path_join(j->root, j->label, NULL) : NULL;
	if (!j->trace || !j->root || !j->dir)
		return oom(d);
	if (j->chunk > sw->nchunks)
		sw->nchunks = j->chunk;
	return SR_OK;
}

/* The header: job chunk trace tkey policy label KNOB... root. */
static int read_header(struct cmp_sweep *sw, char **field, size_t nf,
		       const char *path, struct sr_diag *d)
{
	static const char *const head[] = { "job", "chunk", "trace", "tkey",
					     "policy", "label" };
	bool ok = nf >= 7 && nf <= CMP_SWEEP_MAX_AXES + 7 &&
		  !strcmp(field[nf - 1], "root");

	for (size_t i = 0; ok && i < 6; i++)
		ok = !strcmp(field[i], head[i]);
	sw->naxes = ok ? nf - 7 : 0;
	for (size_t a = 0; ok && a < sw->naxes; a++) {
		ok = knob_field(field[6 + a]);
		for (size_t b = 0; ok && b < a; b++)
			ok = strcmp(field[6 + a], field[6 + b]) != 0;
		if (ok)
			memcpy(sw->axes[a].name, field[6 + a],
			       strlen(field[6 + a]) + 1);
	}
	if (!ok)
		return sr_fail(d, SR_EDATA, "%s:1: expected the manifest's "
			       "header (job chunk trace tkey policy label, "
			       "up to %d knobs by name, root)", path,
			       CMP_SWEEP_MAX_AXES);
	return SR_OK;
}

int cmp_sweep_read_plan(struct cmp_sweep *sw, const char *outdir,
			struct sr_diag *d)
{
	char *path = sr_path_join(outdir, "manifest", "tsv");
	char *line = NULL;
	size_t len = 0, cap = 0, lineno = 0;
	FILE *f;
	char *field[CMP_SWEEP_MAX_AXES + 7];
	size_t nf, want = 0;
	ssize_t got;

	memset(sw, 0, sizeof(*sw));
	if (!path)
		return oom(d);
	f = fopen(path, "r");
	if (!f) {
		int e = errno;

		if (e == ENOENT)
			sr_fail(d, SR_ENOINPUT, "%s: cannot open: %s (run the "
				"sweep with -o %s first)", path, strerror(e),
				outdir);
		else
			sr_fail_errno(d, SR_EIO, e, "%s: cannot open", path);
		free(path);
		return d->code;
	}
	for (;;) {
		errno = 0;
		if ((got = getline(&line, &len, f)) <= 0) {
			/* getline says it ran out of memory by errno alone */
			if (got < 0 && errno == ENOMEM) {
				oom(d);
				goto out;
			}
			break;
		}
		lineno++;
		if (line[got - 1] == '\n')
			line[--got] = 0;
		for (ssize_t i = 0; i < got; i++)
			if (((unsigned char)line[i] < 0x20 && line[i] != '\t') ||
			    line[i] == 0x7f) {
				sr_fail(d, SR_EDATA, "%s:%zu: expected text "
					"and tabs, got the control byte "
					"\\x%02x at byte %zd of the line",
					path, lineno, (unsigned char)line[i],
					i + 1);
				goto out;
			}
		nf = split_tabs(line, field, CMP_SWEEP_MAX_AXES + 7);
		if (lineno == 1) {
			if (read_header(sw, field, nf, path, d))
				goto out;
			want = nf;
			continue;
		}
		if (nf != want) {
			sr_fail(d, SR_EDATA, "%s:%zu: expected %zu fields, got "
				"%zu", path, lineno, want, nf);
			goto out;
		}
		{
			struct cmp_sweep_job *v = sr_grow(sw->jobs, &cap,
							  sw->njobs, sizeof(*v),
							  16, 0);

			if (!v) {
				oom(d);
				goto out;
			}
			sw->jobs = v;
		}
		if (read_row(sw, &sw->jobs[sw->njobs], sw->njobs ?
			     &sw->jobs[sw->njobs - 1] : NULL, field, nf, path,
			     lineno, d)) {
			/* what it holds so far is freed with the plan */
			sw->njobs++;
			goto out;
		}
		sw->njobs++;
	}
	if (ferror(f))
		sr_fail(d, SR_EIO, "%s: read error: %s", path,
			strerror(errno ? errno : EIO));
	else if (lineno == 0)
		sr_fail(d, SR_EDATA, "%s: empty", path);
	else if (sw->njobs == 0)
		sr_fail(d, SR_EDATA, "%s: a header without a cell", path);
out:
	fclose(f);
	free(line);
	free(path);
	return d->code;
}

/* ---- one job ---- */

static void figures_of(const struct cmp_set *s, size_t run,
		       struct cmp_sweep_figs *fg)
{
	int64_t done = 0, end = 0;
	bool known = true;

	memset(fg, 0, sizeof(*fg));
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct cmp_task *t = &s->tasks[i];
		const struct cmp_figs *f = &t->figs[run];

		if (!f->present)
			continue;
		if (f->finish_ns > end)
			end = f->finish_ns;
		if (t->cls == CMP_CLASS_INTERACTIVE) {
			fg->inter_n++;
			if (f->p99_ns > fg->inter_p99_ns)
				fg->inter_p99_ns = f->p99_ns;
			if (f->max_ns > fg->inter_max_ns)
				fg->inter_max_ns = f->max_ns;
		}
		if (t->period_ns > 0 && f->periods) {
			fg->periodic_n++;
			fg->periods += f->periods;
			fg->deadlines_met += f->deadlines_met;
		}
		if (t->cls == CMP_CLASS_BATCH) {
			fg->batch_n++;
			if (!f->finish_ns)
				known = false;
			if (f->finish_ns > done)
				done = f->finish_ns;
		}
	}
	fg->batch_done_known = fg->batch_n && known && s->have_t;
	if (fg->batch_done_known)
		fg->batch_done_ns = done - s->t0;
	fg->end_ns = s->have_t && end ? end - s->t0 : 0;
}

static void write_figures(FILE *f, const struct cmp_sweep_figs *fg)
{
	char a[40], b[40];

	for (size_t i = 0; cmp_sweep_figure_names[i]; i++)
		fprintf(f, "%s%s", i ? "\t" : "", cmp_sweep_figure_names[i]);
	fprintf(f, "\n%zu\t%s\t%s\t%zu\t", fg->inter_n,
		fg->inter_n ? sr_fmt_ms(a, sizeof(a), fg->inter_p99_ns, 3) : "-",
		fg->inter_n ? sr_fmt_ms(b, sizeof(b), fg->inter_max_ns, 3) : "-",
		fg->periodic_n);
	if (fg->periods)
		fprintf(f, "%.2f", 100.0 * (double)fg->deadlines_met /
			(double)fg->periods);
	else
		fputc('-', f);
	fprintf(f, "\t%zu\t%s\t%s\n", fg->batch_n,
		fg->batch_done_known ? sr_fmt_s(a, sizeof(a),
						fg->batch_done_ns, 3) : "-",
		sr_fmt_s(b, sizeof(b), fg->end_ns, 3));
}

static bool has_figures(const char *root, const char *label)
{
	char *dir = sr_path_join(root, label, NULL);
	char *figs = dir ? sr_path_join(dir, "figures", "tsv") : NULL;
	bool ok = figs && access(figs, F_OK) == 0;

	free(dir);
	free(figs);
	return ok;
}

int cmp_sweep_run_job(const char *trace, const char *root, size_t chunk,
		      const char *const *labels, size_t nlabels,
		      const char *const *rt, size_t nrt, int cpus,
		      size_t *done, struct sr_diag *d)
{
	const char *todo[CMP_SWEEP_CHUNK], *runs[CMP_SWEEP_CHUNK];
	char lab[CMP_SWEEP_CHUNK][SM_LABEL_MAX];
	struct sr_replay_tuning tune = { NULL, 0, rt, nrt };
	struct cmp_source_opts so = { 0 };
	struct cmp_source src;
	struct cmp_set set;
	struct sr_madedirs made = { NULL, 0, 0 };
	size_t n = 0;
	int rc = SR_OK;

	*done = 0;
	memset(&set, 0, sizeof(set));
	memset(&src, 0, sizeof(src));
	if (nlabels > CMP_SWEEP_CHUNK)
		return sr_fail(d, SR_EUSAGE, "sweep-job: at most %d policies",
			       CMP_SWEEP_CHUNK);
	for (size_t i = 0; i < nlabels; i++) {
		if (has_figures(root, labels[i])) {
			(*done)++;
			continue;
		}
		/* the label the replay gives it: its directory */
		if ((rc = sr_replay_label(labels[i], &tune, lab[n],
					  sizeof(lab[n]), d)))
			return rc;
		todo[n] = labels[i];
		runs[n] = lab[n];
		n++;
	}
	if (!n)
		return SR_OK;
	/* replayed in memory (compare/source.h), the recorded schedule as
	 * the reference */
	(void)chunk;
	so.trace = trace;
	so.policies = todo;
	so.npolicies = n;
	so.cpus = cpus;
	so.jobs = 1; /* the sweep runs its jobs at once already */
	so.title = base_name(trace);
	so.tune = &tune;
	if ((rc = cmp_source_open(&src, &so, d)) ||
	    (rc = cmp_set_of(&set, &src, d)) ||
	    (rc = cmp_set_load(&set, d)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct cmp_sweep_figs fg;
		struct sr_outfile *out;
		char *dir = sr_path_join(root, runs[i], NULL);

		if (!dir) {
			rc = oom(d);
			goto out;
		}
		figures_of(&set, i, &fg);
		rc = sr_mkdirs_note(dir, &made, d);
		if (!rc)
			rc = sr_outfile_open_in(&out, dir, "figures", "tsv", d);
		free(dir);
		if (rc)
			goto out;
		write_figures(sr_outfile_fp(out), &fg);
		if ((rc = sr_outfile_commit(out, d)))
			goto out;
	}
out:
	/* a directory made for figures that could not be written goes */
	if (rc)
		sr_madedirs_undo(&made);
	else
		sr_madedirs_forget(&made);
	cmp_set_free(&set);
	cmp_source_close(&src);
	return rc;
}

/* ---- the results ---- */

/* A figure as write_figures writes it: "-", or digits with at most one
 * '.' among them. */
static bool figure_ok(const char *v)
{
	size_t n = strlen(v), dots = 0;

	if (!strcmp(v, "-"))
		return true;
	if (!n || n > 24 || !isdigit((unsigned char)v[0]) ||
	    !isdigit((unsigned char)v[n - 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (v[i] == '.')
			dots++;
		else if (!isdigit((unsigned char)v[i]))
			return false;
	return dots <= 1;
}

int cmp_sweep_job_figures(const struct cmp_sweep_job *j, char *buf,
			  size_t len, char **fig, bool *ok, struct sr_diag *d)
{
	char *path = sr_path_join(j->dir, "figures", "tsv");
	FILE *f;
	char head[512], q[256];
	int rc = SR_OK;
	size_t nf;

	*ok = false;
	if (!path)
		return oom(d);
	f = fopen(path, "r");
	if (!f) {
		int e = errno;

		if (e != ENOENT && e != ENOTDIR)
			rc = sr_fail_errno(d, SR_EIO, e, "%s: cannot open",
					   path);
		free(path);
		return rc;
	}
	head[0] = buf[0] = '\0';
	for (size_t i = 0; cmp_sweep_figure_names[i]; i++)
		snprintf(head + strlen(head), sizeof(head) - strlen(head),
			 "%s%s", i ? "\t" : "", cmp_sweep_figure_names[i]);
	strcat(head, "\n");
	if (!fgets(buf, (int)len, f) || strcmp(buf, head)) {
		rc = sr_fail(d, SR_EDATA, "%s:1: expected the figures' header "
			     "(%s ...), got '%s'", path,
			     cmp_sweep_figure_names[0],
			     sr_quote(q, sizeof(q), buf, strcspn(buf, "\n")));
		goto out;
	}
	if (!fgets(buf, (int)len, f) || !strchr(buf, '\n') ||
	    fgetc(f) != EOF) {
		rc = sr_fail(d, SR_EDATA, "%s:2: expected one row of figures "
			     "ending the file", path);
		goto out;
	}
	nf = split_tabs(buf, fig, CMP_SWEEP_NFIGS);
	buf[strcspn(buf, "\n")] = '\0';
	for (size_t i = 0; i < nf && i < CMP_SWEEP_NFIGS; i++)
		fig[i][strcspn(fig[i], "\n")] = '\0';
	if (nf != CMP_SWEEP_NFIGS) {
		rc = sr_fail(d, SR_EDATA, "%s:2: expected %d figures, got %zu",
			     path, CMP_SWEEP_NFIGS, nf);
		goto out;
	}
	for (size_t i = 0; i < CMP_SWEEP_NFIGS; i++)
		if (!figure_ok(fig[i])) {
			rc = sr_fail(d, SR_EDATA, "%s:2: expected a number or "
				     "'-' in column %s, got '%s'", path,
				     cmp_sweep_figure_names[i],
				     sr_quote(q, sizeof(q), fig[i],
					      strlen(fig[i])));
			goto out;
		}
	*ok = true;
out:
	if (ferror(f) && rc == SR_OK)
		rc = sr_fail(d, SR_EIO, "%s: read error", path);
	fclose(f);
	free(path);
	return rc;
}

static void json_value(FILE *f, const char *v)
{
	if (!strcmp(v, "-"))
		fputs("null", f);
	else
		fputs(v, f);
}

int cmp_sweep_collect(const struct cmp_sweep *sw, const char *outdir,
		      size_t *failed_idx, size_t *nfailed, struct sr_diag *d)
{
	struct sr_outfile *t = NULL, *js = NULL;
	FILE *ft, *fj;
	size_t max = *nfailed;
	char buf[1024];
	char *fig[CMP_SWEEP_NFIGS];

	*nfailed = 0;
	if (sr_outfile_open_in(&t, outdir, "results", "tsv", d) ||
	    sr_outfile_open_in(&js, outdir, "results", "json", d)) {
		sr_outfile_abort(t);
		return d->code;
	}
	ft = sr_outfile_fp(t);
	fj = sr_outfile_fp(js);
	fputs("job\ttrace\tpolicy\tlabel", ft);
	for (size_t a = 0; a < sw->naxes; a++)
		fprintf(ft, "\t%s", sw->axes[a].name);
	fputs("\tstatus", ft);
	for (size_t i = 0; i < CMP_SWEEP_NFIGS; i++)
		fprintf(ft, "\t%s", cmp_sweep_figure_names[i]);
	fputs("\n", ft);
	fputs("{\n  \"knobs\": [", fj);
	for (size_t a = 0; a < sw->naxes; a++) {
		fputs(a ? ", " : "", fj);
		sr_json_str(fj, sw->axes[a].name);
	}
	fputs("],\n  \"jobs\": [", fj);
	for (size_t i = 0; i < sw->njobs; i++) {
		const struct cmp_sweep_job *j = &sw->jobs[i];
		bool ok;

		if (cmp_sweep_job_figures(j, buf, sizeof(buf), fig, &ok, d)) {
			sr_outfile_abort(t);
			sr_outfile_abort(js);
			return d->code;
		}
		if (!ok) {
			if (*nfailed < max)
				failed_idx[*nfailed] = i;
			(*nfailed)++;
		}
		fprintf(ft, "%zu\t%s\t%s\t%s", j->index, base_name(j->trace),
			j->policy, j->label);
		fprintf(fj, "%s\n    {\"job\": %zu, \"trace\": ", i ? "," : "",
			j->index);
		sr_json_str(fj, j->trace);
		fputs(", \"policy\": ", fj);
		sr_json_str(fj, j->policy);
		fputs(", \"label\": ", fj);
		sr_json_str(fj, j->label);
		fputs(", \"knobs\": {", fj);
		for (size_t a = 0, n = 0; a < sw->naxes; a++) {
			if (j->has[a])
				fprintf(ft, "\t%ld", j->value[a]);
			else
				fputs("\t-", ft);
			if (!j->has[a])
				continue;
			fputs(n++ ? ", " : "", fj);
			sr_json_str(fj, sw->axes[a].name);
			fprintf(fj, ": %ld", j->value[a]);
		}
		fprintf(ft, "\t%s", ok ? "ok" : "failed");
		fprintf(fj, "}, \"status\": \"%s\"", ok ? "ok" : "failed");
		for (size_t k = 0; k < CMP_SWEEP_NFIGS; k++) {
			fprintf(ft, "\t%s", ok ? fig[k] : "-");
			fprintf(fj, ", \"%s\": ", cmp_sweep_figure_names[k]);
			json_value(fj, ok ? fig[k] : "-");
		}
		fputs("\n", ft);
		fputs("}", fj);
	}
	fputs("\n  ]\n}\n", fj);
	if (sr_outfile_commit(t, d)) {
		sr_outfile_abort(js);
		return d->code;
	}
	return sr_outfile_commit(js, d);
}

static int axis_of(const struct cmp_sweep *sw, const char *name)
{
	for (size_t a = 0; a < sw->naxes; a++)
		if (!strcmp(sw->axes[a].name, name))
			return (int)a;
	return -1;
}

int cmp_sweep_heat_parse(const struct cmp_sweep *sw, const char *heat,
			 struct cmp_sweep_heat *h, struct sr_diag *d)
{
	char *y, *fname;

	if (strlen(heat) >= sizeof(h->spec))
		return sr_fail(d, SR_EUSAGE, "--heatmap: expected KNOB,KNOB"
			       "[,FIGURE], got %zu bytes", strlen(heat));
	snprintf(h->spec, sizeof(h->spec), "%s", heat);
	h->x = h->spec;
	y = strchr(h->spec, ',');
	if (!y)
		return sr_fail(d, SR_EUSAGE, "--heatmap %s: expected "
			       "KNOB,KNOB[,FIGURE]", heat);
	*y++ = 0;
	h->y = y;
	fname = strchr(y, ',');
	if (fname)
		*fname++ = 0;
	h->fname = fname ? fname : "inter_p99_ms";
	h->fi = -1;
	for (int i = 0; cmp_sweep_figure_names[i]; i++)
		if (!strcmp(cmp_sweep_figure_names[i], h->fname))
			h->fi = i;
	h->ax = axis_of(sw, h->x);
	h->ay = axis_of(sw, h->y);
	if (h->ax < 0 || h->ay < 0 || h->ax == h->ay)
		return sr_fail(d, SR_EUSAGE, "--heatmap %s: expected two "
			       "different knobs the sweep varies (--set "
			       "NAME=V1,V2,...)", heat);
	if (h->fi < 0)
		return sr_fail(d, SR_EUSAGE, "--heatmap %s: no figure '%s' "
			       "(inter_p99_ms, inter_max_ms, "
			       "deadlines_met_pct, batch_done_s, end_s, ...)",
			       heat, h->fname);
	for (size_t a = 0; a < sw->naxes; a++)
		if ((int)a != h->ax && (int)a != h->ay &&
		    sw->axes[a].nvalues > 1)
			return sr_fail(d, SR_EUSAGE, "--heatmap %s: %s varies "
				       "too; sweep only the two knobs of the "
				       "map", heat, sw->axes[a].name);
	return SR_OK;
}
