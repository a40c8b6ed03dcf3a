/*
 * path: building the paths of output files, without fixed-size buffers,
 * and refusing an empty output path (which "%s/%s" would turn into a file
 * in the filesystem root).
 */
#ifndef SR_PATH_H
#define SR_PATH_H

#include "lib/diag.h"

/*
 * "DIR/NAME" or "DIR/NAME.EXT" (ext NULL: none), malloc'd; NULL if out of
 * memory.  An empty DIR gives "NAME": never a path from the root.
 */
char *sr_path_join(const char *dir, const char *name, const char *ext);

/* SR_EUSAGE unless path is non-empty: "OPT: expected ..., got an empty path". */
int sr_outpath_check(const char *opt, const char *path, struct sr_diag *d);

#endif
