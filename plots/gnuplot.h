/*
 * gnuplot: running gnuplot as a child process on a script we wrote.
 *
 * The child runs in the script's directory (scripts name their data files
 * relative to it), with stdin and stdout on /dev/null and stderr captured
 * for the error message.  The image is rendered to a temporary name (the
 * script reads it from the variable `outfile` when set) and renamed into
 * place only when gnuplot exits 0, so a failed run never leaves a partial
 * image.  SOURCE_DATE_EPOCH is set so PDF output carries no wall clock.
 */
#ifndef PL_GNUPLOT_H
#define PL_GNUPLOT_H

#include "lib/diag.h"

#define PL_GNUPLOT_INSTALL "apt-get install gnuplot-nox"

/*
 * Run `gnuplot -e "outfile='TMP'" SCRIPT` in dir, then rename TMP to
 * image.  gnuplot: a path or a name looked up on PATH (NULL: "gnuplot").
 * Errors: SR_ENOGNUPLOT when it cannot be started or fails (the message
 * says why, with gnuplot's own last lines and how to install it).
 */
int pl_gnuplot_run(const char *gnuplot, const char *dir, const char *script,
		   const char *image, struct sr_diag *d);

/*
 * Can gnuplot (a path, or a name looked up on PATH; NULL: "gnuplot") be
 * run?  SR_ENOGNUPLOT saying how to install it, for a command that would
 * otherwise learn it only after its work (sweep --heatmap).
 */
int pl_gnuplot_check(const char *gnuplot, struct sr_diag *d);

#endif
