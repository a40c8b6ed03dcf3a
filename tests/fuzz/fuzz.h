/*
 * fuzz.h: what the fuzz targets (tests/fuzz/fuzz-*.c) share.
 *
 * Each target is a libFuzzer entry point, LLVMFuzzerTestOneInput(), fed
 * either by libFuzzer (`make fuzz`, build-fuzz/) or by tests/fuzz/driver.c,
 * which replays the kept inputs (tests/fuzz/regress/) and the test data
 * through the same function in the normal and sanitizer builds.
 *
 * A target checks more than "no crash": every event stream must keep the
 * reader's promises (reader.h, event.h), and an error must be a clean
 * FILE:LINE message with a data status, never an internal one.  A broken
 * promise calls fz_fail(), which prints it and aborts, so libFuzzer keeps
 * the input.
 */
#ifndef SR_FUZZ_H
#define SR_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"
#include "parse/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Print "fuzz: FILE:LINE: MSG" and abort(). */
void fz_fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
#define fz_fail(...) fz_fail_at(__FILE__, __LINE__, __VA_ARGS__)
#define FZ_ASSERT(cond, ...) do { \
	if (!(cond)) \
		fz_fail_at(__FILE__, __LINE__, "'" #cond "' broken: " \
			   __VA_ARGS__); \
	} while (0)

/*
 * The bytes as a regular file the reader can open and re-open (it does,
 * for a per-cpu merge): a memfd named by /proc/self/fd/N.  slot 0..3
 * picks one of a few files kept open for the whole process.
 */
const char *fz_file(int slot, const void *data, size_t size);

/*
 * Called for each event after the common checks; a non-zero return
 * stops the read (fz_read then returns it).
 */
typedef int (*fz_event_fn)(void *ctx, struct sr_reader *r,
			   const struct sr_event *ev);

/*
 * Read path to the end with opts, checking every event and the counts
 * and task table at the end.  Returns 1 if the whole input was read,
 * 0 if the reader stopped with a (well-formed) error in d, or what fn
 * returned.  If rp is non-NULL the reader is left open there for the
 * caller (who closes it); else it is closed.
 */
int fz_read(const char *path, const struct sr_read_opts *opts,
	    fz_event_fn fn, void *ctx, struct sr_reader **rp,
	    struct sr_diag *d);

/* The checks fz_read makes on an error it got: status and message form. */
void fz_check_error(const char *path, const struct sr_diag *d);
/* A binary reader's bad-data error names the byte: "PATH:OFFSET: ..."
 * (a gzip container's error names its compressed byte in the message). */
void fz_check_offset(const char *path, const struct sr_diag *d);
/* The bytes read as format (forced: its errors must name FILE:OFFSET) and
 * found by detection, every event and error checked (fz_read). */
void fz_binary(const uint8_t *data, size_t size, const char *format);

/* The binary's entry point (schedreplay.c built with SR_NO_MAIN). */
int sr_main(int argc, char **argv);
/* sr_main(argc, argv), what the tool writes on stderr (its stream; fd 2
 * stays the sanitizers' and libFuzzer's) kept in msg, cut at size, and
 * checked to be printable text (its control bytes \xNN); its status. */
int fz_main(int argc, char **argv, char *msg, size_t size);
/* rm -rf path, an unreadable or unwritable directory included. */
void fz_rm_tree(const char *path);
/* Does a file of our temporaries' pattern (NAME.tmp.PID...) lie under
 * path? */
int fz_tmp_left(const char *path);
/* A file's bytes, NUL-terminated (malloc'd; *n without the NUL); NULL if
 * it cannot be opened. */
char *fz_slurp(const char *path, size_t *n);
/* The "..." literals of a line of a gnuplot script, decoded by gnuplot's
 * escapes, into out (at most max); -1 if the line holds a ` outside a
 * comment (gnuplot runs `...` as a shell command, inside "..." too), a
 * control byte, an escape we do not write, or a string not closed. */
int fz_gp_strings(const char *line, char out[][512], int max);

#endif
