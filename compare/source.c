/*
 * source: a replay to read, from a trace file or a replay directory (see
 * source.h).
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare/runset.h"
#include "compare/source.h"
#include "compare/tsv.h"
#include "lib/outfile.h"
#include "lib/path.h"
#include "replay/replay.h"

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP || flag == FTW_D)
		return rmdir(path) == 0 || errno == ENOENT ? 0 : -1;
	return unlink(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* The last component of path, without trailing slashes (malloc'd). */
static char *base_name(const char *path)
{
	size_t n = strlen(path);
	const char *b;
	char *out;

	while (n > 1 && path[n - 1] == '/')
		n--;
	b = path + n;
	while (b > path && b[-1] != '/')
		b--;
	out = malloc((size_t)(path + n - b) + 1);
	if (out) {
		memcpy(out, b, (size_t)(path + n - b));
		out[path + n - b] = '\0';
	}
	return out;
}

/*
 * Replay trace under the policies (and observed) into dir (replay/replay.h),
 * leaving out the tasks whose comm matches exclude (NULL: none).
 */
static int replay_into(const char *trace, const char *const *policies,
		       size_t npolicies, const char *exclude, const char *dir,
		       struct sr_diag *d)
{
	struct sr_replay_opts o = { 0 };
	struct sr_replay *r = NULL;

	o.trace = trace;
	o.policies = policies;
	o.npolicies = npolicies;
	o.outdir = dir;
	o.exclude = exclude;
	if (sr_replay_run(&o, &r, d))
		return d->code;
	sr_replay_warn(r);
	sr_replay_free(r);
	return SR_OK;
}

int cmp_source_open(struct cmp_source *src, const char *trace,
		   const char *const *policies, size_t npolicies,
		   const char *exclude, const char *keep_dir, const char *title,
		   struct sr_diag *d)
{
	struct stat st;

	memset(src, 0, sizeof(*src));
	if (stat(trace, &st) != 0)
		return sr_fail(d, SR_ENOINPUT, "%s: cannot open: %s", trace,
			       strerror(errno));
	src->title = title ? strdup(title) : base_name(trace);
	if (!src->title)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	if (S_ISDIR(st.st_mode)) {
		src->root = strdup(trace);
		if (!src->root)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		return SR_OK;
	}
	if (keep_dir) {
		if (sr_mkdirs(keep_dir, d))
			return d->code;
		src->root = strdup(keep_dir);
	} else {
		const char *tmp = getenv("TMPDIR");
		char *buf = sr_path_join(tmp && *tmp ? tmp : P_tmpdir,
					 "schedreplay.XXXXXX", NULL);

		if (!buf)
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		if (!mkdtemp(buf)) {
			sr_fail(d, SR_EIO, "%s: cannot create: %s", buf,
				strerror(errno));
			free(buf);
			return d->code;
		}
		src->tmpdir = buf;
		src->root = strdup(buf);
	}
	if (!src->root)
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	return replay_into(trace, policies, npolicies, exclude, src->root, d);
}

void cmp_source_close(struct cmp_source *src)
{
	if (src->tmpdir)
		nftw(src->tmpdir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	free(src->tmpdir);
	free(src->root);
	free(src->title);
	memset(src, 0, sizeof(*src));
}
