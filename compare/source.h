/*
 * source: where diff, plot and report get a replay from.  TRACE is either
 * a trace file, replayed here under the policies asked for plus
 * `observed` (into a temporary directory removed afterwards, or into a
 * directory kept for the user), or a directory that `schedreplay replay
 * -o DIR` wrote before, read as it is.
 */
#ifndef CMP_SOURCE_H
#define CMP_SOURCE_H

#include <stddef.h>

#include "lib/diag.h"

struct cmp_source {
	char *root;     /* ROOT/POLICY/{timeline,latency,summary}.tsv */
	char *tmpdir;   /* removed by cmp_source_close, NULL if none */
	char *title;    /* names the trace in headings and plot titles */
};

/*
 * exclude: a pcre2 regex of comms the replay leaves out (NULL: none), as
 * `replay --exclude`.  keep_dir: where to replay when TRACE is a file
 * (NULL: a temporary directory).  title: NULL for the trace's file name.
 */
int cmp_source_open(struct cmp_source *src, const char *trace,
		   const char *const *policies, size_t npolicies,
		   const char *exclude, const char *keep_dir, const char *title,
		   struct sr_diag *d);
void cmp_source_close(struct cmp_source *src);

#endif
