/*
 * gnuplot: fork/exec gnuplot on a script, capture its stderr, check its
 * exit status, rename its output into place (see gnuplot.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/path.h"
#include "lib/outfile.h"
#include "plots/gnuplot.h"
#include "plots/image.h"

#define ERRBUF 2048 /* the last bytes of gnuplot's stderr we keep */

/* Keep the last ERRBUF-1 bytes seen (n is at most a read's worth). */
static void keep_tail(char *buf, size_t *len, const char *p, size_t n)
{
	if (n > ERRBUF - 1) {
		p += n - (ERRBUF - 1);
		n = ERRBUF - 1;
	}
	if (*len + n > ERRBUF - 1) {
		size_t drop = *len + n - (ERRBUF - 1);

		memmove(buf, buf + drop, *len - drop);
		*len -= drop;
	}
	memcpy(buf + *len, p, n);
	*len += n;
	buf[*len] = '\0';
}

/* The last few non-empty lines of s, joined by " | ". */
static void last_lines(char *out, size_t outlen, const char *s, int want)
{
	const char *end = s + strlen(s);
	const char *p = end;
	int lines = 0;
	size_t o = 0;

	while (p > s && lines < want) {
		p--;
		if (*p == '\n' && p + 1 < end && p[1] != '\n')
			lines++;
	}
	if (*p == '\n')
		p++;
	for (; *p && o + 4 < outlen; p++) {
		if (*p == '\n') {
			if (p[1] && o)
				o += (size_t)snprintf(out + o, outlen - o, " | ");
			continue;
		}
		if ((unsigned char)*p >= 0x20)
			out[o++] = *p;
	}
	out[o] = '\0';
}

static bool runnable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       access(path, X_OK) == 0;
}

/*
 * The gnuplot to run, as an absolute path (malloc'd in *out; NULL when
 * none is found): a name is looked up on PATH as execlp would, a path
 * taken as it is, and either made absolute here.  gnuplot runs in the
 * output directory (chdir in the child): a relative --gnuplot, or a
 * relative PATH entry ("", ".", "bin"), resolved there would name a
 * program in the output directory, not the one the user meant.
 */
static int resolve(const char *gnuplot, char **out, struct sr_diag *d)
{
	const char *path = getenv("PATH");

	*out = NULL;
	if (!gnuplot || !*gnuplot)
		gnuplot = "gnuplot";
	if (strchr(gnuplot, '/')) {
		if (runnable(gnuplot) && !(*out = sr_path_absolute(gnuplot)))
			return sr_oom(d);
		return SR_OK;
	}
	/* as execlp looks: each PATH entry, an empty one the working
	 * directory */
	if (!path)
		path = "/bin:/usr/bin";
	for (;;) {
		size_t n = strcspn(path, ":");
		char *dir = strndup(path, n);
		char *p = dir ? sr_path_join(n ? dir : ".", gnuplot, NULL) : NULL;

		free(dir);
		if (!p)
			return sr_oom(d);
		if (runnable(p)) {
			*out = sr_path_absolute(p);
			free(p);
			return *out ? SR_OK : sr_oom(d);
		}
		free(p);
		if (!path[n])
			return SR_OK;
		path += n + 1;
	}
}

/* gnuplot not found; when a script was written for it (dir, script),
 * where it is, to draw by hand once gnuplot is there. */
static int not_found(const char *gnuplot, const char *dir, const char *script,
		     struct sr_diag *d)
{
	char q[512];
	const char *why = "not found on PATH";

	if (!gnuplot || !*gnuplot)
		gnuplot = "gnuplot";
	/* a path: what is wrong with it (missing, not ours to run, or not
	   a program: a directory) */
	if (strchr(gnuplot, '/'))
		why = access(gnuplot, X_OK) ? strerror(errno)
					    : "not an executable file";
	sr_quote(q, sizeof(q), gnuplot, strlen(gnuplot));
	if (dir)
		return sr_fail(d, SR_ENOGNUPLOT, "cannot run %s: %s; install "
			       "it (%s, as root) or name it with --gnuplot "
			       "PATH; the scripts and data are in %s: cd %s "
			       "&& gnuplot %s", q, why, PL_GNUPLOT_INSTALL, dir,
			       dir, script);
	return sr_fail(d, SR_ENOGNUPLOT, "cannot run %s: %s; install it (%s, "
		       "as root) or name it with --gnuplot PATH", q, why,
		       PL_GNUPLOT_INSTALL);
}

int pl_gnuplot_check(const char *gnuplot, struct sr_diag *d)
{
	char *abs;

	if (resolve(gnuplot, &abs, d))
		return d->code;
	if (!abs)
		return not_found(gnuplot, NULL, NULL, d);
	free(abs);
	return SR_OK;
}

static int run(const char *exe, const char *gnuplot, const char *dir,
	       const char *script, const char *image, struct sr_outfile *o,
	       struct sr_diag *d);

int pl_gnuplot_run(const char *gnuplot, const char *dir, const char *script,
		   const char *image, struct sr_diag *d)
{
	struct sr_outfile *o;
	char *final, *exe;
	int rc;

	if (!gnuplot || !*gnuplot)
		gnuplot = "gnuplot";
	if (!*image || strchr(image, '/'))
		return sr_fail(d, SR_EUSAGE, "%s: expected a plain file name",
			       image);
	if (resolve(gnuplot, &exe, d))
		return d->code;
	if (!exe)
		return not_found(gnuplot, dir, script, d);
	final = sr_path_join(dir, image, NULL);
	if (!final) {
		free(exe);
		return sr_oom(d);
	}
	/* the temporary is ours, made with O_EXCL (mkstemp) beside the
	 * image; gnuplot writes it through the descriptor it inherits and
	 * never opens a name in dir, where a link could be waiting */
	rc = sr_outfile_open(&o, final, d);
	if (!rc)
		rc = run(exe, gnuplot, dir, script, image, o, d);
	if (!rc)
		rc = sr_outfile_commit(o, d);
	else
		sr_outfile_abort(o);
	free(final);
	free(exe);
	return rc;
}

/* exe: gnuplot's absolute path (resolve()); gnuplot: as the user named
 * it, for messages and its argv[0]. */
static int run(const char *exe, const char *gnuplot, const char *dir,
	       const char *script, const char *image, struct sr_outfile *o,
	       struct sr_diag *d)
{
	int errpipe[2], execpipe[2];
	char errbuf[ERRBUF], tail[600], setvar[64];
	size_t errlen = 0;
	int exec_errno = 0, status, fd = fileno(sr_outfile_fp(o));
	struct stat st;
	pid_t pid;
	ssize_t n;

	/* /dev/fd/N opens the file the descriptor holds (a FIFO or device
	 * given as -o is written in place, as any output) */
	snprintf(setvar, sizeof(setvar), "outfile='/dev/fd/%d'", fd);
	if (pipe(errpipe) != 0)
		return sr_fail(d, SR_EIO, "pipe: %s", strerror(errno));
	if (pipe2(execpipe, O_CLOEXEC) != 0) {
		int e = errno;

		close(errpipe[0]);
		close(errpipe[1]);
		return sr_fail(d, SR_EIO, "pipe: %s", strerror(e));
	}
	fflush(NULL);
	/* a signal kills gnuplot and removes its image (lib/outfile.h) */
	sr_outfile_block(1);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		sr_outfile_block(0);
		close(errpipe[0]);
		close(errpipe[1]);
		close(execpipe[0]);
		close(execpipe[1]);
		return sr_fail(d, SR_EIO, "fork: %s", strerror(e));
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR);
		int e;

		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		sr_outfile_block(0);
		close(errpipe[0]);
		close(execpipe[0]);
		if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 ||
		    dup2(errpipe[1], 2) < 0 || chdir(dir) != 0) {
			e = errno;
			if (write(execpipe[1], &e, sizeof(e)) < 0)
				_exit(126);
			_exit(126);
		}
		setenv("SOURCE_DATE_EPOCH", "0", 1);
		execl(exe, gnuplot, "-e", setvar, script, (char *)NULL);
		e = errno;
		if (write(execpipe[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	sr_outfile_set_child(o, (int)pid);
	sr_outfile_block(0);
	close(errpipe[1]);
	close(execpipe[1]);
	n = read(execpipe[0], &exec_errno, sizeof(exec_errno));
	close(execpipe[0]);
	if (n != (ssize_t)sizeof(exec_errno))
		exec_errno = 0;
	for (;;) {
		char buf[1024];

		n = read(errpipe[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		keep_tail(errbuf, &errlen, buf, (size_t)n);
	}
	errbuf[errlen] = '\0';
	close(errpipe[0]);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	/* reaped: from here a signal only removes the file */
	sr_outfile_set_child(o, 0);
	if (exec_errno)
		return sr_fail(d, SR_ENOGNUPLOT,
			       "cannot run %s: %s; install it (%s, as root) or name it with --gnuplot PATH; the scripts and data are in %s: cd %s && gnuplot %s",
			       gnuplot, strerror(exec_errno), PL_GNUPLOT_INSTALL,
			       dir, dir, script);
	if (status != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		char how[64];

		if (status == -1)
			snprintf(how, sizeof(how), "could not be waited for");
		else if (WIFSIGNALED(status))
			snprintf(how, sizeof(how), "was killed by signal %d",
				 WTERMSIG(status));
		else
			snprintf(how, sizeof(how), "exited with status %d",
				 WEXITSTATUS(status));
		last_lines(tail, sizeof(tail), errbuf, 3);
		/* an error on a line of the script: gnuplot is there and
		 * runs; the script is at fault, not the installation */
		if (strstr(errbuf, " line "))
			return sr_fail(d, SR_ENOGNUPLOT,
				       "%s %s on %s/%s%s%s; the scripts and data are kept in %s (a script of ours that gnuplot refuses is a bug: please report it with the script)",
				       gnuplot, how, dir, script, tail[0] ? ": " : "",
				       tail, dir);
		return sr_fail(d, SR_ENOGNUPLOT,
			       "%s %s on %s/%s%s%s; the scripts and data are kept in %s (a working gnuplot: %s)",
			       gnuplot, how, dir, script, tail[0] ? ": " : "",
			       tail, dir, PL_GNUPLOT_INSTALL);
	}
	/* exit 0 is not enough: cairo's terminals exit 0 when their writes
	 * fail; the image must be whole before it replaces the previous */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		char *path = sr_path_join(dir, image, NULL);
		int rc;

		if (!path)
			return sr_oom(d);
		rc = pl_image_check(fd, image, path, d);
		free(path);
		return rc;
	}
	return SR_OK;
}
