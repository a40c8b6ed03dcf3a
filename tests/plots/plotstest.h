/*
 * plotstest.h: helpers shared by tests/plots/test-*.c (each a standalone
 * program, so these are static): reading a whole file, finding a program
 * on PATH, removing a temporary tree.
 */
#ifndef PLOTSTEST_H
#define PLOTSTEST_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline int plt_rm_entry(const char *path, const struct stat *st, int flag,
			       struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

/* rm -rf dir */
static inline void plt_rm_tree(const char *dir)
{
	nftw(dir, plt_rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* The whole file, NUL-terminated, length in *len (may be NULL). */
static inline char *plt_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (len)
		*len = 0;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		buf[n] = '\0';
		if (len)
			*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* The path of an executable name on PATH in buf, or NULL. */
static inline const char *plt_find_exe(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save;
	const char *found = NULL;

	if (!path || !(copy = strdup(path)))
		return NULL;
	for (dir = strtok_r(copy, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", dir, name);
		if (access(buf, X_OK) == 0)
			found = buf;
	}
	free(copy);
	return found;
}

#endif
