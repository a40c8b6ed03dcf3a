/*
 * outfile: temporary-then-rename output files, cleaned up on signals.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/grow.h"
#include "lib/outfile.h"
#include "lib/path.h"

struct sr_outfile {
	FILE *fp;
	char *path; /* final name */
	char *tmp;  /* temporary name, NULL for stdout and in place */
	int slot;   /* index in live_tmp[], -1 if none */
	int in_place; /* a device or FIFO, opened as it is: closed at the
			 end, never renamed over */
};

/*
 * Temporaries open right now, for the signal handler.  Fixed size and
 * written with plain stores so the handler can read it safely.
 */
#define SR_OUTFILE_LIVE_MAX 64
static char *volatile live_tmp[SR_OUTFILE_LIVE_MAX];
static volatile pid_t live_child[SR_OUTFILE_LIVE_MAX]; /* watched writers */

static int live_add(char *tmp)
{
	for (int i = 0; i < SR_OUTFILE_LIVE_MAX; i++) {
		if (!live_tmp[i]) {
			live_tmp[i] = tmp;
			return i;
		}
	}
	return -1;
}

static void live_del(int slot)
{
	if (slot >= 0) {
		live_child[slot] = 0;
		live_tmp[slot] = NULL;
	}
}

static void on_signal(int sig)
{
	for (int i = 0; i < SR_OUTFILE_LIVE_MAX; i++) {
		char *t = live_tmp[i];
		pid_t c = live_child[i];

		if (c > 0) {
			/* the writer first, or it could write the file again */
			kill(c, SIGKILL);
			waitpid(c, NULL, 0);
		}
		if (t)
			unlink(t);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Block the signals we clean up on; *old gets the mask to restore. */
static void hold_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

void sr_outfile_block(int block)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

void sr_outfile_set_child(struct sr_outfile *o, int child)
{
	if (o && o->slot >= 0)
		live_child[o->slot] = child;
}

void sr_outfile_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a reader gone (| head): the temporaries go and we die of SIGPIPE
	   quietly, as other filters do; a full disk is still a write error */
	sigaction(SIGPIPE, &sa, NULL);
	/* and so is a file-size limit (ulimit -f): EFBIG, not a kill */
	signal(SIGXFSZ, SIG_IGN);
}

/*
 * How much of a file name base the temporary beside it keeps: all of it,
 * unless base plus the longest suffix (".tmp." 10 pid digits ".XXXXXX")
 * would pass NAME_MAX; then as much as leaves room for the suffix.  Only
 * base's length decides it, so sr_outfile_clean_stale finds the same.
 */
#define TMP_SUFFIX_MAX (5 + 10 + 7)

static size_t tmp_stem(const char *base)
{
	size_t nb = strlen(base);

	return nb + TMP_SUFFIX_MAX > NAME_MAX ? NAME_MAX - TMP_SUFFIX_MAX : nb;
}

int sr_outfile_open(struct sr_outfile **out, const char *path,
		    struct sr_diag *d)
{
	struct sr_outfile *o;
	sigset_t old;
	struct stat st;
	size_t n;
	int fd;

	*out = NULL;
	if (sr_outpath_check("output file", path, d))
		return d->code;
	o = calloc(1, sizeof(*o));
	if (!o)
		return sr_oom(d);
	o->slot = -1;
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		o->path = strdup("-");
		if (!o->path) {
			free(o);
			return sr_oom(d);
		}
		*out = o;
		return SR_OK;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		/* a device (/dev/null, a terminal) or a FIFO: nothing to keep
		   whole, and renaming a temporary over it would replace the
		   device node with a file (as root, /dev/null itself) */
		o->path = strdup(path);
		o->in_place = 1;
		if (!o->path) {
			free(o);
			return sr_oom(d);
		}
		fd = open(path, O_WRONLY | O_TRUNC);
		if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			free(o->path);
			free(o);
			return sr_fail_errno(d, SR_EIO, e, "%s: cannot open",
					     path);
		}
		*out = o;
		return SR_OK;
	}
	n = strlen(path);
	o->path = strdup(path);
	o->tmp = malloc(n + 40);
	if (!o->path || !o->tmp) {
		free(o->path);
		free(o->tmp);
		free(o);
		return sr_oom(d);
	}
	sr_outfile_clean_stale(path);
	/* PATH.tmp.PID.XXXXXX: the pid tells a later run whether its
	 * writer is gone (sr_outfile_clean_stale); a name near the file
	 * system's limit is cut first, so that the suffix always fits */
	{
		const char *slash = strrchr(path, '/');
		size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
		size_t keep = tmp_stem(path + dirlen);

		if (strlen(path + dirlen) > NAME_MAX) {
			free(o->path);
			free(o->tmp);
			free(o);
			return sr_fail(d, SR_EIO, "%s: cannot create: %s (a "
				       "file name holds at most %d bytes)",
				       path, strerror(ENAMETOOLONG), NAME_MAX);
		}
		snprintf(o->tmp, n + 40, "%.*s.tmp.%ld.XXXXXX",
			 (int)(dirlen + keep), path, (long)getpid());
	}
	/* no signal between creating the temporary and listing it */
	hold_signals(&old);
	fd = mkstemp(o->tmp);
	if (fd >= 0)
		o->slot = live_add(o->tmp);
	restore_signals(&old);
	if (fd < 0) {
		int e = errno;
		free(o->path);
		free(o->tmp);
		free(o);
		return sr_fail(d, SR_EIO, "%s: cannot create: %s", path,
			       strerror(e));
	}
	fchmod(fd, 0644);
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		int e = errno;

		close(fd);
		sr_outfile_abort(o);
		return sr_fail_errno(d, SR_EIO, e, "%s: cannot open", path);
	}
	*out = o;
	return SR_OK;
}

int sr_outfile_open_in(struct sr_outfile **o, const char *dir,
		       const char *name, const char *ext, struct sr_diag *d)
{
	char *path = sr_path_join(dir, name, ext);
	int rc;

	*o = NULL;
	if (!path)
		return sr_oom(d);
	rc = sr_outfile_open(o, path, d);
	free(path);
	return rc;
}

FILE *sr_outfile_fp(struct sr_outfile *o)
{
	return o->fp;
}

static void outfile_free(struct sr_outfile *o)
{
	live_del(o->slot);
	free(o->path);
	free(o->tmp);
	free(o);
}

int sr_outfile_finish(struct sr_outfile *o, int write_rc, const char *path,
		      struct sr_diag *d)
{
	if (write_rc == SR_OK)
		return sr_outfile_commit(o, d);
	sr_outfile_abort(o);
	if (write_rc == SR_ENOMEM)
		return sr_fail(d, SR_ENOMEM, "out of memory (writing %s)",
			       strcmp(path, "-") ? path : "stdout");
	return sr_fail(d, write_rc, "write error on %s",
		       strcmp(path, "-") ? path : "stdout");
}

int sr_outfile_check(struct sr_outfile *o, struct sr_diag *d)
{
	int e = 0;

	if (ferror(o->fp))
		e = errno ? errno : EIO;
	else if (fflush(o->fp) != 0)
		e = errno;
	if (!e)
		return SR_OK;
	return sr_fail(d, SR_EIO, "%s: write failed: %s", o->path,
		       strerror(e));
}

int sr_outfile_commit(struct sr_outfile *o, struct sr_diag *d)
{
	int err = 0;
	int e = 0;

	if (ferror(o->fp))
		err = 1, e = errno ? errno : EIO;
	if (fflush(o->fp) != 0 && !err)
		err = 1, e = errno;
	if (o->tmp) {
		if (fclose(o->fp) != 0 && !err)
			err = 1, e = errno;
		o->fp = NULL;
		if (!err && rename(o->tmp, o->path) != 0)
			err = 1, e = errno;
		if (err)
			unlink(o->tmp);
	} else if (o->in_place) {
		if (fclose(o->fp) != 0 && !err)
			err = 1, e = errno;
		o->fp = NULL;
	}
	if (err) {
		sr_fail(d, SR_EIO, "%s: write failed: %s", o->path,
			strerror(e));
		outfile_free(o);
		return SR_EIO;
	}
	outfile_free(o);
	return SR_OK;
}

void sr_outfile_abort(struct sr_outfile *o)
{
	if (!o)
		return;
	if (o->tmp) {
		if (o->fp)
			fclose(o->fp);
		unlink(o->tmp);
	} else if (o->fp) {
		fflush(o->fp);
		if (o->in_place)
			fclose(o->fp);
	}
	outfile_free(o);
}

/*
 * Is name "BASE.tmp.PID" or "BASE.tmp.PID.XXXXXX" (our temporaries'
 * pattern) with PID a process that no longer exists?
 */
static int stale_tmp(const char *name, const char *base, size_t nb)
{
	const char *p;
	long pid = 0;
	size_t k;

	if (strncmp(name, base, nb) || strncmp(name + nb, ".tmp.", 5))
		return 0;
	p = name + nb + 5;
	for (k = 0; p[k] >= '0' && p[k] <= '9' && k < 10; k++)
		pid = pid * 10 + (p[k] - '0');
	if (k == 0 || pid <= 0)
		return 0;
	if (p[k] == '.') {
		size_t j;

		for (j = 1; isalnum((unsigned char)p[k + j]); j++)
			;
		if (j != 7 || p[k + j])
			return 0;
	} else if (p[k]) {
		return 0;
	}
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

void sr_outfile_clean_stale(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, (size_t)(slash - path + 1))
			  : strdup(".");
	DIR *dp = dir ? opendir(dir) : NULL;
	struct dirent *e;
	int saved = errno;

	if (dp) {
		size_t nb = tmp_stem(base);
		int fd = dirfd(dp);

		while ((e = readdir(dp)))
			if (stale_tmp(e->d_name, base, nb))
				unlinkat(fd, e->d_name, 0);
		closedir(dp);
	}
	free(dir);
	errno = saved;
}

static int note_made(struct sr_madedirs *m, const char *dir);

int sr_mkdirs(const char *dir, struct sr_diag *d)
{
	return sr_mkdirs_note(dir, NULL, d);
}

int sr_mkdirs_note(const char *dir, struct sr_madedirs *made,
		   struct sr_diag *d)
{
	char *p;
	size_t n;

	if (sr_outpath_check("output directory", dir, d))
		return d->code;
	p = strdup(dir);
	if (!p)
		return sr_oom(d);
	n = strlen(p);
	for (size_t i = 1; i <= n; i++) {
		if (p[i] == '/' || p[i] == '\0') {
			char c = p[i];
			p[i] = '\0';
			if (mkdir(p, 0755) == 0) {
				if (made && note_made(made, p)) {
					free(p);
					return sr_fail(d, SR_ENOMEM,
						       "out of memory");
				}
			} else if (errno != EEXIST) {
				int e = errno;
				sr_fail(d, SR_EIO, "%s: cannot create directory: %s",
					p, strerror(e));
				free(p);
				return SR_EIO;
			}
			p[i] = c;
		}
	}
	free(p);
	return SR_OK;
}

static int note_made(struct sr_madedirs *m, const char *dir)
{
	char **v = sr_grow(m->v, &m->cap, m->n, sizeof(*v), 8, 0);

	if (!v)
		return -1;
	m->v = v;
	if (!(v[m->n] = strdup(dir)))
		return -1;
	m->n++;
	return 0;
}

void sr_madedirs_undo(struct sr_madedirs *m)
{
	while (m->n > 0) {
		m->n--;
		rmdir(m->v[m->n]); /* only if empty: never another's files */
		free(m->v[m->n]);
	}
	free(m->v);
	m->v = NULL;
}

void sr_madedirs_forget(struct sr_madedirs *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}
