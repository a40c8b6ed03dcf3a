/*
 * path: output paths joined without fixed buffers; empty ones refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

char *sr_path_absolute(const char *path)
{
	char *cwd, *abs;

	if (path[0] == '/')
		return strdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return NULL;
	abs = sr_path_join(cwd, path, NULL);
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
