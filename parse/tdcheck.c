/*
 * tdcheck: trace.dat layout checks (see tdcheck.h).
 */
#include <sys/stat.h>

#include "parse/tdcheck.h"

int sr_tdcheck(int fd, const char *file, uint64_t *size, struct sr_diag *d)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return sr_fail(d, SR_EIO, "%s: cannot stat", file);
	*size = (uint64_t)st.st_size;
	return SR_OK;
}
