/*
 * input: line input from a file or stdin, plain or gzip alike (zlib
 * detects the gzip magic bytes), through one large buffer with memchr
 * for line ends and no allocation per line.
 *
 * Lines are handed out as (pointer, length) into the buffer, valid until
 * the next call; the '\n' and one trailing '\r' (CRLF files) are not
 * included.  A line longer than SR_LINE_MAX is reported once as
 * SR_IN_LONG and its bytes are skipped up to the next newline.
 *
 * Private to parse/.
 */
#ifndef SR_INPUT_H
#define SR_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

/* Longest line accepted (bytes, without the newline). */
#define SR_LINE_MAX (64 * 1024)

enum sr_in_rc {
	SR_IN_ERR = -1,  /* I/O or gzip error, in d */
	SR_IN_EOF = 0,
	SR_IN_LINE = 1,
	SR_IN_LONG = 2,  /* line number lineno exceeds SR_LINE_MAX: skipped */
};

struct sr_input;

/* path "-" reads stdin.  bufsize 0 picks the default (256 KiB: it stays in cache). */
int sr_input_open(struct sr_input **in, const char *path, size_t bufsize,
		  struct sr_diag *d);
void sr_input_close(struct sr_input *in);

int sr_input_next(struct sr_input *in, const char **line, size_t *len,
		  struct sr_diag *d);

/*
 * Make at least want bytes (or all the input, if shorter) available
 * without consuming them, for format detection.
 */
int sr_input_peek(struct sr_input *in, size_t want, const char **p,
		  size_t *n, struct sr_diag *d);
/* sr_input_peek of want bytes whatever the buffer's size: it grows (to
 * twice want) when want is more than half of it.  A pointer of an earlier
 * peek is then stale. */
int sr_input_peek_grow(struct sr_input *in, size_t want, const char **p,
		       size_t *n, struct sr_diag *d);

/*
 * The whole input as a file descriptor that can be mapped (binary
 * formats): the file itself when it is a plain regular file, else (gzip,
 * a pipe, a terminal) the bytes, inflated, copied into an unlinked
 * temporary file under $TMPDIR.  Consumes the input; *fd is the caller's.
 */
int sr_input_to_fd(struct sr_input *in, int *fd, struct sr_diag *d);

/* An unlinked temporary file under $TMPDIR (P_tmpdir when unset): its
 * descriptor, or -1 with d filled.  name: the input, for messages. */
int sr_temp_fd(const char *name, struct sr_diag *d);
/* All n bytes to fd, or SR_EIO in d. */
int sr_write_all(int fd, const void *buf, size_t n, const char *name,
		 struct sr_diag *d);

const char *sr_input_name(const struct sr_input *in); /* "<stdin>" for - */
uint64_t sr_input_lineno(const struct sr_input *in);  /* last line handed out */
int sr_input_seekable(const struct sr_input *in);     /* can be re-opened */
/* 1 if the last line handed out had no newline (input ends mid-line). */
int sr_input_unterminated(const struct sr_input *in);
uint64_t sr_input_bytes(const struct sr_input *in);   /* text bytes consumed */
/* File bytes read (compressed, for gzip) and the file's size (0: unknown). */
void sr_input_position(const struct sr_input *in, uint64_t *read,
		       uint64_t *size);

#endif
