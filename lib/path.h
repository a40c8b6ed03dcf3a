/*
 * path: building the paths of output files, without fixed-size buffers,
 * refusing an empty output path (which "%s/%s" would turn into a file in
 * the filesystem root), and the unlinked temporary files that spill what
 * memory should not hold.
 */
#ifndef SR_PATH_H
#define SR_PATH_H

#include "lib/diag.h"

/*
 * "DIR/NAME" or "DIR/NAME.EXT" (ext NULL: none), malloc'd; NULL if out of
 * memory.  An empty DIR gives "NAME": never a path from the root.
 */
char *sr_path_join(const char *dir, const char *name, const char *ext);

/*
 * path as an absolute path, malloc'd: itself when it starts with '/', else
 * the working directory joined with it (the path need not exist yet;
 * leading "./" dropped).  The working directory is named as the user's
 * shell names it, symbolic links kept ($PWD, when it is this directory,
 * as `pwd -L`), else getcwd's physical path: a path given through a link
 * stays as given, for the machines that see the files only that way.  NULL
 * with errno set if the working directory is unknown or memory is out.
 */
char *sr_path_absolute(const char *path);

/* Where temporary files go: $TMPDIR, else the system's (P_tmpdir). */
const char *sr_tmpdir(void);

/*
 * A new temporary file in sr_tmpdir(), unlinked at once (gone with the
 * process, whatever happens): its descriptor, open for reading and
 * writing; -1 with errno set if none could be made.  stem names it while
 * it has a name ("schedreplay-sort").
 */
int sr_tmpfile(const char *stem);

/* SR_EUSAGE unless path is non-empty: "OPT: expected ..., got an empty path". */
int sr_outpath_check(const char *opt, const char *path, struct sr_diag *d);

#endif
