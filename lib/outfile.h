/*
 * outfile: every output file is written to a temporary name beside its
 * final path and renamed into place only when complete, so an error, a full
 * disk or a signal part-way never leaves a half-written file and never
 * damages the previous output.
 *
 *	struct sr_outfile *o;
 *	if (sr_outfile_open(&o, "out/stock/summary.tsv", d))
 *		return d->code;
 *	fprintf(sr_outfile_fp(o), "...");
 *	return sr_outfile_commit(o, d);   // or sr_outfile_abort(o)
 *
 * sr_outfile_install_signals() makes SIGINT/SIGTERM/SIGHUP/SIGPIPE remove
 * every temporary file still open before the process dies (SIGPIPE: the
 * reader of a pipe went away, as with `| head`: no message, no status).  That list of open
 * temporaries is the one process-wide table in the program, because a
 * signal handler cannot be handed a context.
 */
#ifndef SR_OUTFILE_H
#define SR_OUTFILE_H

#include <stdio.h>

#include "lib/diag.h"

struct sr_outfile;

/* Open a temporary file beside path ("-" means stdout, no temporary). */
int sr_outfile_open(struct sr_outfile **o, const char *path, struct sr_diag *d);
FILE *sr_outfile_fp(struct sr_outfile *o);
/* Flush, fsync-free close, check every write, rename into place. Frees o. */
int sr_outfile_commit(struct sr_outfile *o, struct sr_diag *d);
/* Flush and check every write so far, without closing: SR_EIO naming the
 * file when one failed (a full disk).  Files that must appear together
 * are all checked before the first is committed. */
int sr_outfile_check(struct sr_outfile *o, struct sr_diag *d);
/* sr_outfile_open of DIR/NAME or DIR/NAME.EXT (lib/path.h). */
int sr_outfile_open_in(struct sr_outfile **o, const char *dir,
		       const char *name, const char *ext, struct sr_diag *d);
/* Close and remove the temporary. Frees o. Safe on NULL. */
void sr_outfile_abort(struct sr_outfile *o);
/* The end of a writer that returned write_rc: commit when it is SR_OK,
 * else abort and report "write error on PATH" (stdout for "-") with that
 * code.  Frees o. */
int sr_outfile_finish(struct sr_outfile *o, int write_rc, const char *path,
		      struct sr_diag *d);

/* Create a directory and its parents (like mkdir -p). */
int sr_mkdirs(const char *dir, struct sr_diag *d);

/* The directories one run created, to remove again if it fails before
 * writing anything into them (an error leaves no empty directory). */
struct sr_madedirs {
	char **v;
	size_t n, cap;
};

/* sr_mkdirs, noting in made (if non-NULL) each directory it created. */
int sr_mkdirs_note(const char *dir, struct sr_madedirs *made,
		   struct sr_diag *d);
/* rmdir the noted directories, newest first, where empty; frees. */
void sr_madedirs_undo(struct sr_madedirs *made);
/* Keep them; frees the list. */
void sr_madedirs_forget(struct sr_madedirs *made);

/*
 * Remove the temporaries a killed run (SIGKILL: no clean-up) left beside
 * path: only names of our own pattern, PATH.tmp.PID[.XXXXXX], and only
 * where process PID no longer exists.  sr_outfile_open does it.
 */
void sr_outfile_clean_stale(const char *path);

/*
 * Also ignores SIGXFSZ, so that a file-size limit (ulimit -f) is a write
 * error that commit reports (exit 74) instead of a kill that would leave
 * the temporary behind.
 */
void sr_outfile_install_signals(void);

/*
 * The temporary of o is being written by another process, child (gnuplot,
 * through the descriptor it inherited): a signal kills it and waits for
 * it before the temporary is removed; child 0: no longer (it was reaped).
 * Block the signals from before the fork (sr_outfile_block(1)) until the
 * child is named, or a signal in between would leave it writing.
 */
void sr_outfile_set_child(struct sr_outfile *o, int child);

/* Hold SIGINT, SIGTERM and SIGHUP off (block 1) or let them in (0). */
void sr_outfile_block(int block);

#endif
