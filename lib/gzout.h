/*
 * gzout: a stdio stream that writes gzip (zlib's deflate) into another,
 * so a writer that takes a FILE * writes FILE.gz unchanged.  The gzip
 * header has no name and no time (mtime 0), so the same bytes in give
 * the same file out.
 *
 *	struct sr_gzout *z;
 *	if (sr_gzout_open(&z, sr_outfile_fp(o), d))
 *		return d->code;
 *	write(sr_gzout_fp(z));
 *	rc = sr_gzout_close(z, d);      // the stream's end, written
 *	rc = rc ? rc : sr_outfile_commit(o, d);
 */
#ifndef SR_GZOUT_H
#define SR_GZOUT_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/diag.h"

/* Whether path names a gzip file: it ends in ".gz". */
bool sr_gzout_wanted(const char *path);
struct sr_gzout;

/* A stream compressing into under (which stays open). */
int sr_gzout_open(struct sr_gzout **z, FILE *under, struct sr_diag *d);
FILE *sr_gzout_fp(struct sr_gzout *z);
/* Finish the gzip stream and free z (NULL: nothing): SR_EIO when a
 * write into under failed (a full disk), said in d. */
int sr_gzout_close(struct sr_gzout *z, struct sr_diag *d);

#endif
