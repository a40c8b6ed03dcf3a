/*
 * stream: the bytes of a file or of stdin, with gzip inflated as it comes.
 *
 * The first bytes decide: the gzip magic (1f 8b) starts inflation, anything
 * else is read as it is.  Concatenated gzip members are one stream (as
 * `zcat` reads them); anything else after a member is refused, with the
 * offset where the gzip data ended (zlib's gzread would drop it silently).
 * xz, bzip2 and zstd data is refused with the command that decompresses
 * it.  A truncated or corrupt member is an error naming the compressed
 * offset and how much text came before it.
 *
 * Private to parse/.
 */
#ifndef SR_STREAM_H
#define SR_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "lib/diag.h"

struct sr_stream;

/* path "-" reads stdin.  inbuf: compressed-side buffer size (0: 64 KiB).
 * Errors name the file as name (path, or "<stdin>"). */
int sr_stream_open(struct sr_stream **sp, const char *path, size_t inbuf,
		   struct sr_diag *d);
void sr_stream_close(struct sr_stream *s);

/* gzip is inflated by ISA-L's igzip when built with it, else by zlib:
 * the same bytes, the same errors (but zlib's and igzip's own words for
 * a corrupt block).  sr_stream_use_zlib, before the first read, keeps to
 * zlib (the tests read each input both ways); sr_stream_inflater names
 * the one built in. */
void sr_stream_use_zlib(struct sr_stream *s);
const char *sr_stream_inflater(void);

/* Up to n bytes into buf: the count, 0 at the end, -1 on error (in d). */
long sr_stream_read(struct sr_stream *s, void *buf, size_t n,
		    struct sr_diag *d);

const char *sr_stream_name(const struct sr_stream *s);
int sr_stream_is_gzip(const struct sr_stream *s);
int sr_stream_seekable(const struct sr_stream *s); /* a regular file */
uint64_t sr_stream_offset(const struct sr_stream *s); /* bytes handed out */
/* The file's descriptor when it is a regular file read as it is (not
 * gzip): binary readers map it.  -1 otherwise. */
int sr_stream_plain_fd(const struct sr_stream *s);

/* Bytes read from the file (compressed, for gzip) and the file's size (0:
 * not a regular file): for a progress display. */
void sr_stream_position(const struct sr_stream *s, uint64_t *read,
			uint64_t *size);

#endif
