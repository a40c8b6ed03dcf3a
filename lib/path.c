/*
 * path: output paths joined without fixed buffers; empty ones refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/path.h"

char *sr_path_join(const char *dir, const char *name, const char *ext)
{
	size_t nd = strlen(dir), nn = strlen(name), ne = ext ? strlen(ext) : 0;
	char *p = malloc(nd + 1 + nn + (ext ? 1 + ne : 0) + 1), *o;

	if (!p)
		return NULL;
	o = p;
	if (nd) {
		memcpy(o, dir, nd);
		o += nd;
		if (dir[nd - 1] != '/')
			*o++ = '/';
	}
	memcpy(o, name, nn);
	o += nn;
	if (ext) {
		*o++ = '.';
		memcpy(o, ext, ne);
		o += ne;
	}
	*o = '\0';
	return p;
}

/* path has a component "." or ".." */
static int has_dot_component(const char *path)
{
	for (const char *p = path; *p; p++) {
		if (p != path && p[-1] != '/')
			continue;
		if (p[0] == '.' && (p[1] == '/' || !p[1] ||
				    (p[1] == '.' && (p[2] == '/' || !p[2]))))
			return 1;
	}
	return 0;
}

/*
 * The working directory as the user named it: $PWD when it is an absolute
 * path, without "." or "..", to this very directory (the shell keeps it
 * through symbolic links, as `pwd -L` prints it), else the physical one.
 */
static char *working_dir(void)
{
	const char *pwd = getenv("PWD");
	struct stat a, b;

	if (pwd && pwd[0] == '/' && !has_dot_component(pwd) &&
	    stat(pwd, &a) == 0 && stat(".", &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return strdup(pwd);
	return getcwd(NULL, 0);
}

char *sr_path_absolute(const char *path)
{
	char *cwd, *abs;

	if (path[0] == '/')
		return strdup(path);
	while (path[0] == '.' && path[1] == '/') {
		path += 2;
		while (*path == '/')
			path++;
	}
	cwd = working_dir();
	if (!cwd)
		return NULL;
	abs = !*path || !strcmp(path, ".") ? strdup(cwd) :
		sr_path_join(cwd, path, NULL);
	free(cwd);
	if (!abs)
		errno = ENOMEM;
	return abs;
}

int sr_outpath_check(const char *opt, const char *path, struct sr_diag *d)
{
	if (path && *path)
		return SR_OK;
	return sr_fail(d, SR_EUSAGE, "%s: expected a file or directory name, "
		       "got an empty path", opt);
}

const char *sr_tmpdir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : P_tmpdir;
}

int sr_tmpfile(const char *stem)
{
	/* "DIR/STEM.XXXXXX", the X's mkstemp's */
	char *path = sr_path_join(sr_tmpdir(), stem, "XXXXXX");
	int fd;

	if (!path) {
		errno = ENOMEM;
		return -1;
	}
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	free(path);
	return fd;
}
