/*
 * gnuplot: running gnuplot as a child process on a script we wrote.
 *
 * The child runs in the script's directory (scripts name their data files
 * relative to it), with stdin and stdout on /dev/null and stderr captured
 * for the error message.  The image's temporary is ours (lib/outfile.h:
 * made with O_EXCL beside the image, removed on a signal with gnuplot
 * killed first); gnuplot writes it through the descriptor it inherits,
 * the script reading `outfile` = '/dev/fd/N', so it never opens a name in
 * the output directory (where a planted link would send its O_TRUNC
 * elsewhere).  It is renamed into place only when gnuplot exits 0 and the
 * image is whole (plots/image.h: cairo's terminals exit 0 on a full
 * disk), so a failed run never replaces the previous image.
 * SOURCE_DATE_EPOCH is set so PDF output carries no wall clock.
 */
#ifndef PL_GNUPLOT_H
#define PL_GNUPLOT_H

#include "lib/diag.h"

#define PL_GNUPLOT_INSTALL "apt-get install gnuplot-nox"

/*
 * Run `gnuplot -e "outfile='/dev/fd/N'" SCRIPT` in dir, N our temporary
 * of dir/image, then rename it into place.  gnuplot: a path or a name
 * looked up on PATH (NULL: "gnuplot").  Errors: SR_ENOGNUPLOT when it
 * cannot be started or fails (the message says why, with gnuplot's own
 * last lines and how to install it); SR_EIO when the image it left is
 * incomplete (a full disk, a file-size limit).
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
