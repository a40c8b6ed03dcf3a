/*
 * path: the names of output files, built from a directory the user gave
 * and a name we choose, of any length: no fixed buffers, no guessed
 * sizes.  An empty directory is refused (64) rather than read as the
 * root: `-o ''` must not write /stock.
 *
 *	char *p = sr_path(d, outdir, "%s/summary.tsv", policy);
 *	if (!p)
 *		return d->code;
 *	...
 *	free(p);
 */
#ifndef SR_PATH_H
#define SR_PATH_H

#include "lib/diag.h"

/*
 * dir, '/', then fmt formatted: a new string, or NULL with d filled
 * (SR_EUSAGE for an empty dir, SR_EINTERNAL when out of memory).
 */
char *sr_path(struct sr_diag *d, const char *dir, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An output path or directory named on the command line: "" is refused
 * with SR_EUSAGE. */
int sr_path_check(const char *path, struct sr_diag *d);

#endif
