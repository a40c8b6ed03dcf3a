/*
 * fuzz-sweep: the sweep's writers of text other programs read back:
 * jobs.txt (sh, through GNU parallel or the Slurm script's eval),
 * manifest.tsv (our --collect), sweep.sbatch (sbatch's #SBATCH reader and
 * sh) and the heat map's gnuplot script, from trace names, -o, --rt,
 * policies, --set and the binary's path as a user could give them.
 *
 * The input is records, each a kind byte then its bytes up to a NUL:
 *	kind % 8: 0 a trace's file name (made in a fresh directory; a '/'
 *	becomes '%'), 1 -o's name (likewise), 2 an --rt value, 3 a --policy,
 *	4 a --set, 5 the binary's file name, 6 --cpus, 7 flags (bit 0: the
 *	Slurm script too).
 * Checks, for every plan the sweep accepts:
 *   - jobs.txt holds one line per job, each read back by a strict reader
 *     of sh's words (plain words of safe characters, '...' and the \'
 *     between them; anything else is an error) as exactly the argv the
 *     job must get: the binary, sweep-job --chunk N [--cpus N] [--rt R]...
 *     TRACE ROOT LABEL...;
 *   - manifest.tsv read back (cmp_sweep_read_plan) is the plan;
 *   - sweep.sbatch's #SBATCH --chdir/--output/--error values, read by
 *     sbatch's rules (blanks split, "..." and '...' quote, \ escapes the
 *     next byte, % patterns with %% for %), are -o and its file names;
 *     its schedreplay= and jobs= lines read back by sh as the binary and
 *     jobs.txt;
 *   - the heat map's script (drawn by /bin/true: the script is what is
 *     checked) holds no ` (gnuplot runs `...` as a command, inside "..."
 *     too) and each of its "..." strings reads back, by gnuplot's
 *     escapes, as the name it was written from;
 *   - a refused plan says why in a message of printable text (a value
 *     quoted), with status 64 or 66; nothing is made.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare/sweep.h"
#include "compare/sweep-slurm.h"
#include "lib/fmt.h"
#include "plots/heatmap.h"
#include "tests/fuzz/fuzz.h"

#define MAXN 4
#define MAXLEN 300

struct in {
	char trace[MAXN][MAXLEN + 1];
	size_t ntrace;
	char out[MAXLEN + 1], self[MAXLEN + 1];
	char rt[MAXN][MAXLEN + 1];
	size_t nrt;
	char pol[MAXN][MAXLEN + 1];
	size_t npol;
	char set[MAXN][MAXLEN + 1];
	size_t nset;
	int cpus;
	bool slurm;
};

static char work[PATH_MAX];

static void init(void)
{
	static int done;
	const char *t = getenv("TMPDIR");

	if (done)
		return;
	done = 1;
	snprintf(work, sizeof(work), "%s/sr-fuzz-sweep-XXXXXX",
		 t && *t ? t : P_tmpdir);
	if (!mkdtemp(work))
		fz_fail("mkdtemp %s: %s", work, strerror(errno));
}

/* A name made in work: '/' as '%', empty as "x". */
static void put_name(char *out, const uint8_t *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < MAXLEN; i++)
		out[k++] = s[i] == '/' ? '%' : (char)s[i];
	out[k] = '\0';
	if (!k || !strcmp(out, ".") || !strcmp(out, "..")) {
		out[k++] = 'x';
		out[k] = '\0';
	}
}

static void put_text(char *out, const uint8_t *s, size_t n)
{
	if (n > MAXLEN)
		n = MAXLEN;
	memcpy(out, s, n);
	out[n] = '\0';
}

static void parse_input(struct in *in, const uint8_t *data, size_t size)
{
	size_t i = 0;

	memset(in, 0, sizeof(*in));
	while (i < size) {
		int kind = data[i++] % 8;
		const uint8_t *s = data + i;
		const uint8_t *z = memchr(s, 0, size - i);
		size_t n = z ? (size_t)(z - s) : size - i;

		i += n + 1;
		switch (kind) {
		case 0:
			if (in->ntrace < MAXN)
				put_name(in->trace[in->ntrace++], s, n);
			break;
		case 1:
			put_name(in->out, s, n);
			break;
		case 2:
			if (in->nrt < MAXN)
				put_text(in->rt[in->nrt++], s, n);
			break;
		case 3:
			if (in->npol < MAXN)
				put_text(in->pol[in->npol++], s, n);
			break;
		case 4:
			if (in->nset < MAXN)
				put_text(in->set[in->nset++], s, n);
			break;
		case 5:
			put_name(in->self, s, n);
			break;
		case 6:
			in->cpus = n ? s[0] % 5 : 0;
			break;
		default:
			in->slurm = n && (s[0] & 1);
			break;
		}
	}
	if (!in->ntrace)
		strcpy(in->trace[in->ntrace++], "t.txt");
	if (!in->npol)
		strcpy(in->pol[in->npol++], "stock");
	if (!in->out[0])
		strcpy(in->out, "out");
	/* -o a trace file: the tool refuses to make it a directory before
	 * any of this; here it is just another name */
	for (size_t k = 0; k < in->ntrace; k++)
		if (!strcmp(in->out, in->trace[k]) &&
		    strlen(in->out) + 3 < sizeof(in->out))
			strcat(in->out, "-o");
	if (!in->self[0])
		strcpy(in->self, "schedreplay");
}

/* An error's message: printable text, and a status a user's mistake
 * gives. */
static void check_refusal(const struct sr_diag *d)
{
	FZ_ASSERT(d->code == SR_EUSAGE || d->code == SR_ENOINPUT,
		  "status %d refusing a plan: %s", d->code, d->msg);
	for (const char *p = d->msg; *p; p++)
		FZ_ASSERT((unsigned char)*p >= 0x20 && *p != 0x7f,
			  "a control byte in the message '%s'", d->msg);
}

/* ---- sh, strictly ---- */

/* The words of line as sh reads them, for the forms our writer uses:
 * plain words of safe characters and '...' joined, \' between.  Returns
 * the count, or -1 on anything sh would read otherwise (or we cannot
 * tell). */
static int sh_words(const char *line, char **w, int max, char *buf,
		    size_t bufsz)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "abcdefghijklmnopqrstuvwxyz0123456789"
				   "_./,:=+-%@";
	size_t o = 0;
	int n = 0;
	const char *p = line;

	while (*p) {
		if (*p == ' ') {
			p++;
			continue;
		}
		if (n == max)
			return -1;
		w[n++] = buf + o;
		while (*p && *p != ' ') {
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');

				if (!q || o + (size_t)(q - p) >= bufsz)
					return -1;
				memcpy(buf + o, p + 1, (size_t)(q - p - 1));
				o += (size_t)(q - p - 1);
				p = q + 1;
			} else if (p[0] == '\\' && p[1] == '\'') {
				buf[o++] = '\'';
				p += 2;
			} else if (strchr(safe, *p) && *p) {
				buf[o++] = *p++;
			} else {
				return -1;
			}
			if (o + 2 >= bufsz)
				return -1;
		}
		buf[o++] = '\0';
	}
	return n;
}

static void check_jobs(const struct cmp_sweep *sw,
		       const struct cmp_sweep_opts *o, const char *path)
{
	size_t n, c = 0;
	char *text = fz_slurp(path, &n), *line, *save = NULL;
	static char buf[65536];
	char *w[64];

	FZ_ASSERT(text, "%s not written", path);
	FZ_ASSERT(strlen(text) == n, "a NUL in jobs.txt");
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int k = sh_words(line, w, 64, buf, sizeof(buf)), at = 0;
		size_t first = 0;
		char num[32];

		c++;
		FZ_ASSERT(k > 0, "jobs.txt line %zu is not plain sh words: %s",
			  c, line);
		while (first < sw->njobs && sw->jobs[first].chunk != c)
			first++;
		FZ_ASSERT(first < sw->njobs, "jobs.txt line %zu: no job %zu", c, c);
#define WORD(want) do { \
		FZ_ASSERT(at < k && !strcmp(w[at], (want)), \
			  "jobs.txt line %zu word %d: '%s', want '%s'", c, at, \
			  at < k ? w[at] : "(none)", (want)); \
		at++; \
	} while (0)
		WORD(o->self);
		WORD("sweep-job");
		WORD("--chunk");
		snprintf(num, sizeof(num), "%zu", c);
		WORD(num);
		if (o->cpus > 0) {
			WORD("--cpus");
			snprintf(num, sizeof(num), "%d", o->cpus);
			WORD(num);
		}
		for (size_t i = 0; i < o->nrt; i++) {
			WORD("--rt");
			WORD(o->rt[i]);
		}
		WORD(sw->jobs[first].trace);
		WORD(sw->jobs[first].root);
		for (size_t i = first; i < sw->njobs && sw->jobs[i].chunk == c; i++)
			WORD(sw->jobs[i].label);
		FZ_ASSERT(at == k, "jobs.txt line %zu: %d words, want %d", c,
			  k, at);
#undef WORD
	}
	FZ_ASSERT(c == sw->nchunks, "jobs.txt: %zu lines for %zu jobs", c,
		  sw->nchunks);
	free(text);
}

static void check_manifest(const struct cmp_sweep *sw, const char *outdir)
{
	struct cmp_sweep back;
	struct sr_diag d = SR_DIAG_INIT;

	FZ_ASSERT(cmp_sweep_read_plan(&back, outdir, &d) == SR_OK,
		  "manifest.tsv not read back: %s", d.msg);
	FZ_ASSERT(back.njobs == sw->njobs && back.nchunks == sw->nchunks &&
		  back.naxes == sw->naxes, "manifest.tsv: %zu cells, %zu jobs "
		  "read back; written %zu, %zu", back.njobs, back.nchunks,
		  sw->njobs, sw->nchunks);
	for (size_t a = 0; a < sw->naxes; a++)
		FZ_ASSERT(!strcmp(back.axes[a].name, sw->axes[a].name),
			  "manifest.tsv: axis %zu", a);
	for (size_t i = 0; i < sw->njobs; i++) {
		const struct cmp_sweep_job *x = &sw->jobs[i], *y = &back.jobs[i];

		FZ_ASSERT(x->index == y->index && x->chunk == y->chunk &&
			  !strcmp(x->trace, y->trace) &&
			  !strcmp(x->tkey, y->tkey) &&
			  !strcmp(x->policy, y->policy) &&
			  !strcmp(x->label, y->label) &&
			  !strcmp(x->root, y->root) && !strcmp(x->dir, y->dir),
			  "manifest.tsv: cell %zu read back otherwise", i + 1);
		for (size_t a = 0; a < sw->naxes; a++)
			FZ_ASSERT(x->has[a] == y->has[a] &&
				  (!x->has[a] || x->value[a] == y->value[a]),
				  "manifest.tsv: cell %zu, %s", i + 1,
				  sw->axes[a].name);
	}
	cmp_sweep_free(&back);
}

/* An #SBATCH line's value by sbatch's reader (blanks split, '...' and
 * "..." quote, \ escapes the next byte); then a pattern's %% as %. */
static bool sbatch_value(const char *s, char *out, size_t n, bool pattern)
{
	size_t o = 0;
	char q = 0;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
		} else if (q && *s == q) {
			q = 0;
			continue;
		} else if (!q && (*s == '"' || *s == '\'')) {
			q = *s;
			continue;
		} else if (!q && (*s == ' ' || *s == '\t' || *s == '#')) {
			return false;
		}
		if (pattern && *s == '%') {
			if (s[1] != '%')
				return false; /* a pattern letter of dir's */
			s++;
		}
		if (o + 1 >= n)
			return false;
		out[o++] = *s;
	}
	out[o] = '\0';
	return !q;
}

static void check_sbatch(const struct cmp_sweep_opts *o, const char *path)
{
	size_t n;
	char *text = fz_slurp(path, &n), *line, *save = NULL;
	static char want[PATH_MAX + 64], got[2 * PATH_MAX], buf[65536];
	int seen = 0;

	FZ_ASSERT(text, "%s not written", path);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		static const struct { const char *key, *suffix; } k[] = {
			{ "#SBATCH --chdir=", "" },
			{ "#SBATCH --output=", "/slurm-" },
			{ "#SBATCH --error=", "/slurm-" },
		};
		char *w[4];

		for (size_t i = 0; i < 3; i++) {
			size_t kl = strlen(k[i].key);

			if (strncmp(line, k[i].key, kl))
				continue;
			if (i == 0) {
				FZ_ASSERT(sbatch_value(line + kl, got,
						       sizeof(got), false),
					  "#SBATCH --chdir not one word");
				FZ_ASSERT(!strcmp(got, o->outdir),
					  "--chdir reads as '%s'", got);
			} else {
				/* "DIR/slurm-%A_%a.out": dir's % doubled,
				 * the suffix's own %A_%a kept; read up to
				 * the suffix, the quote closed there */
				static const char pat[] = "/slurm-%A_%a.",
					out[] = "/slurm-%A_%a.out\"",
					err[] = "/slurm-%A_%a.err\"";
				char *end = strstr(line + kl, pat);
				bool ends = end && (!strcmp(end, out) ||
						    !strcmp(end, err));

				FZ_ASSERT(ends, "%s: no file pattern at its "
					  "end", k[i].key);
				end[0] = '"';
				end[1] = '\0';
				FZ_ASSERT(sbatch_value(line + kl, got,
						       sizeof(got), true),
					  "%s not one word", k[i].key);
				FZ_ASSERT(!strcmp(got, o->outdir),
					  "%s reads as '%s', want '%s'",
					  k[i].key, got, o->outdir);
			}
			seen |= 1 << i;
		}
		if (!strncmp(line, "schedreplay=", 12)) {
			FZ_ASSERT(sh_words(line + 12, w, 4, buf,
					   sizeof(buf)) == 1 &&
				  !strcmp(w[0], o->self),
				  "schedreplay= reads otherwise: %s", line);
			seen |= 8;
		}
		if (!strncmp(line, "jobs=", 5)) {
			snprintf(want, sizeof(want), "%s/jobs.txt", o->outdir);
			FZ_ASSERT(sh_words(line + 5, w, 4, buf,
					   sizeof(buf)) == 1 &&
				  !strcmp(w[0], want),
				  "jobs= reads otherwise: %s", line);
			seen |= 16;
		}
	}
	FZ_ASSERT(seen == 31, "sweep.sbatch lacks a line (%d)", seen);
	free(text);
}

/* ---- gnuplot's strings ---- */

/* A heat map's script: every line as gnuplot reads it, its title the
 * names of a trace and a policy of the sweep as they were written. */
static void script_check(const struct cmp_sweep *sw, const char *path)
{
	char *text, *line, *save = NULL;
	static char lit[8][512];
	size_t n;
	bool titled = false;

	text = fz_slurp(path, &n);
	FZ_ASSERT(text, "%s not written", path);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int k = fz_gp_strings(line, lit, 8);
		bool known = false;

		FZ_ASSERT(k >= 0, "%s: a line gnuplot would not read as "
			  "written: %s", path, line);
		if (strncmp(line, "set title ", 10))
			continue;
		/* tkey, policy, figure: a map's names, each read back as
		 * written (the trace's name from its file) */
		FZ_ASSERT(k == 3, "%s: the title reads otherwise", path);
		for (size_t i = 0; i < sw->njobs && !known; i++)
			known = !strcmp(lit[0], sw->jobs[i].tkey) &&
				!strcmp(lit[1], sw->jobs[i].policy);
		FZ_ASSERT(known, "%s: the title reads as '%s', '%s': no "
			  "trace and policy of the sweep", path, lit[0],
			  lit[1]);
		titled = true;
	}
	FZ_ASSERT(titled, "%s: no title", path);
	free(text);
}

/* The heat map of the first two axes, drawn by a gnuplot that draws
 * nothing (/bin/true: the image check then fails, after the script is
 * written); no figures: every cell failed to run, the script the same. */
static void check_heatmap(const struct cmp_sweep *sw, const char *outdir)
{
	char heat[200], path[2 * PATH_MAX];
	struct sr_diag d = SR_DIAG_INIT;
	struct cmp_sweep_heat h;
	DIR *dir;
	struct dirent *e;

	snprintf(heat, sizeof(heat), "%s,%s", sw->axes[0].name,
		 sw->axes[1].name);
	if (cmp_sweep_heat_parse(sw, heat, &h, &d))
		return;	/* another axis varies: not a map */
	pl_sweep_heatmap(sw, outdir, &h, "/bin/true", &d);
	FZ_ASSERT(d.code == SR_OK || d.code == SR_EIO, "the heat map: %s",
		  d.msg);
	dir = opendir(outdir);
	FZ_ASSERT(dir, "%s: %s", outdir, strerror(errno));
	while ((e = readdir(dir))) {
		size_t n = strlen(e->d_name);

		if (strncmp(e->d_name, "heatmap-", 8) || n < 3 ||
		    strcmp(e->d_name + n - 3, ".gp"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", outdir, e->d_name);
		script_check(sw, path);
	}
	closedir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct in in;
	const char *traces[MAXN], *rt[MAXN], *pol[MAXN], *set[MAXN];
	char outdir[PATH_MAX + MAXLEN], self[PATH_MAX + MAXLEN];
	char path[2 * PATH_MAX];
	struct cmp_sweep sw;
	struct sr_diag d = SR_DIAG_INIT;
	struct cmp_sweep_opts o;
	int rc;

	init();
	if (size > 4096)
		return 0;
	parse_input(&in, data, size);
	if (mkdir(work, 0700) && errno != EEXIST)
		fz_fail("mkdir %s: %s", work, strerror(errno));
	for (size_t i = 0; i < in.ntrace; i++) {
		int fd;

		snprintf(path, sizeof(path), "%s/%s", work, in.trace[i]);
		fd = open(path, O_WRONLY | O_CREAT, 0600);
		if (fd >= 0)
			close(fd);
		traces[i] = path[0] ? strdup(path) : NULL;
		if (!traces[i])
			fz_fail("out of memory");
	}
	for (size_t i = 0; i < in.nrt; i++)
		rt[i] = in.rt[i];
	for (size_t i = 0; i < in.npol; i++)
		pol[i] = in.pol[i];
	for (size_t i = 0; i < in.nset; i++)
		set[i] = in.set[i];
	snprintf(outdir, sizeof(outdir), "%s/%s", work, in.out);
	snprintf(self, sizeof(self), "%s/%s", work, in.self);
	o = (struct cmp_sweep_opts){ outdir, rt, in.nrt, self, in.cpus };
	rc = cmp_sweep_plan(&sw, traces, in.ntrace, pol, in.npol, set,
			    in.nset, outdir, &d);
	if (!rc)
		rc = cmp_sweep_check(&sw, &o, in.slurm, &d);
	if (rc) {
		bool named = false;

		check_refusal(&d);
		if (getenv("SR_FUZZ_VERBOSE"))
			fprintf(stderr, "refused: %s\n", d.msg);
		for (size_t i = 0; i < in.ntrace; i++)
			named |= !strcmp(in.out, in.trace[i]);
		FZ_ASSERT(named || access(outdir, F_OK) != 0,
			  "a refused plan made %s", outdir);
	} else {
		struct cmp_sweep_slurm sl = { NULL, sw.nchunks, 5, 256, 0, 1 };

		if (mkdir(outdir, 0700) && errno == ENAMETOOLONG)
			goto out; /* a name over NAME_MAX: sweep says so (74) */
		if (mkdir(outdir, 0700) && errno != EEXIST)
			FZ_ASSERT(0, "mkdir %s: %s", outdir, strerror(errno));
		rc = cmp_sweep_write_plan(&sw, &o, in.slurm ? &sl : NULL, &d);
		FZ_ASSERT(rc == SR_OK, "a checked plan not written: %s", d.msg);
		snprintf(path, sizeof(path), "%s/jobs.txt", outdir);
		check_jobs(&sw, &o, path);
		check_manifest(&sw, outdir);
		if (in.slurm) {
			snprintf(path, sizeof(path), "%s/sweep.sbatch", outdir);
			check_sbatch(&o, path);
		}
		if (sw.naxes >= 2)
			check_heatmap(&sw, outdir);
		if (getenv("SR_FUZZ_VERBOSE"))
			fprintf(stderr, "written: %zu cells, %zu jobs, %zu "
				"axes%s\n", sw.njobs, sw.nchunks, sw.naxes,
				in.slurm ? ", sweep.sbatch" : "");
	}
out:
	cmp_sweep_free(&sw);
	for (size_t i = 0; i < in.ntrace; i++)
		free((char *)traces[i]);
	fz_rm_tree(work);
	return 0;
}
