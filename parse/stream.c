/*
 * stream: a file's or stdin's bytes, gzip members inflated as they come
 * (stream.h says what is refused, and why): by ISA-L's igzip when built
 * with it (SR_HAVE_ISAL: about three times zlib's speed, the same bytes),
 * else by zlib's inflate().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef SR_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "parse/stream.h"

#define SR_STREAM_INBUF_DEFAULT (64u << 10)

struct sr_stream {
	char *name;
	int fd;
	int fd_eof;
	int is_gzip;
	int seekable;
	int member_done;      /* gzip: the current member has ended */
	int started;          /* the magic bytes were looked at */
	int zinit;
	z_stream z;
	int use_zlib;         /* zlib even when built with igzip */
#ifdef SR_HAVE_ISAL
	struct inflate_state *isal; /* igzip's state, when it inflates */
#endif
	unsigned char *in;    /* compressed side (or the first plain bytes) */
	size_t incap, inlen;  /* bytes in in[] from in + inpos */
	size_t inpos;
	uint64_t fd_bytes;    /* bytes read from fd */
	uint64_t out;         /* bytes handed out */
	uint64_t size;        /* a regular file's size, else 0 */
};

/* Other compressors' magic: refused with the command that undoes them. */
static const struct {
	const char *name, *cmd;
	unsigned char magic[6];
	size_t len;
} compressed[] = {
	{ "xz", "xz -dc", { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6 },
	{ "zstd", "zstd -dc", { 0x28, 0xb5, 0x2f, 0xfd }, 4 },
	{ "bzip2", "bzip2 -dc", { 'B', 'Z', 'h' }, 3 },
	{ "lz4", "lz4 -dc", { 0x04, 0x22, 0x4d, 0x18 }, 4 },
};

int sr_stream_open(struct sr_stream **sp, const char *path, size_t inbuf,
		   struct sr_diag *d)
{
	struct sr_stream *s;
	struct stat st;
	int stdin_ = !strcmp(path, "-");
	int fd;

	*sp = NULL;
	fd = stdin_ ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return stdin_ ? sr_fail(d, SR_ENOINPUT, "<stdin>: %s",
					strerror(errno))
			      : sr_fail(d, SR_ENOINPUT, "%s: cannot open: %s",
					path, strerror(errno));
	if (fstat(fd, &st) != 0) {
		close(fd);
		return sr_fail(d, SR_ENOINPUT, "%s: %s", path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return sr_fail(d, SR_ENOINPUT, "%s: is a directory", path);
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		close(fd);
		return sr_oom(d);
	}
	s->fd = fd;
	s->seekable = !stdin_ && S_ISREG(st.st_mode);
	s->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	s->name = strdup(stdin_ ? "<stdin>" : path);
	s->incap = inbuf ? inbuf : SR_STREAM_INBUF_DEFAULT;
	s->in = malloc(s->incap);
	if (!s->name || !s->in) {
		sr_stream_close(s);
		return sr_oom(d);
	}
	*sp = s;
	return SR_OK;
}

void sr_stream_close(struct sr_stream *s)
{
	if (!s)
		return;
	if (s->zinit)
		inflateEnd(&s->z);
#ifdef SR_HAVE_ISAL
	free(s->isal);
#endif
	if (s->fd >= 0)
		close(s->fd);
	free(s->in);
	free(s->name);
	free(s);
}

/* Read more compressed (or first) bytes after what is unread in in[], at
 * most max. */
static int fill_upto(struct sr_stream *s, size_t max, struct sr_diag *d)
{
	size_t room;
	ssize_t n;

	if (s->inpos > 0) {
		memmove(s->in, s->in + s->inpos, s->inlen);
		s->inpos = 0;
	}
	if (s->fd_eof || s->inlen == s->incap)
		return SR_OK;
	room = s->incap - s->inlen < max ? s->incap - s->inlen : max;
	do
		n = read(s->fd, s->in + s->inlen, room);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return sr_fail(d, SR_EIO, "%s: read error: %s", s->name,
			       strerror(errno));
	if (n == 0)
		s->fd_eof = 1;
	s->inlen += (size_t)n;
	s->fd_bytes += (uint64_t)n;
	return SR_OK;
}

static int fill(struct sr_stream *s, struct sr_diag *d)
{
	return fill_upto(s, s->incap, d);
}

/* Have at least want unread bytes, or all there are. */
static int want_bytes(struct sr_stream *s, size_t want, struct sr_diag *d)
{
	while (s->inlen < want && !s->fd_eof)
		if (fill(s, d))
			return -1;
	return 0;
}

static int is_gzip_magic(const struct sr_stream *s)
{
	return s->inlen >= 2 && s->in[s->inpos] == 0x1f &&
	       s->in[s->inpos + 1] == 0x8b;
}

/* Compressed offset of the next unread byte. */
static long long zoffset(const struct sr_stream *s)
{
	return (long long)(s->fd_bytes - s->inlen);
}

static int start(struct sr_stream *s, struct sr_diag *d)
{
	s->started = 1;
	/* a page for the magic: the rest of a plain file is read straight
	 * into the caller's buffer (a binary input reads no more here) */
	while (s->inlen < 6 && !s->fd_eof)
		if (fill_upto(s, 4096, d))
			return -1;
	for (size_t i = 0; i < sizeof(compressed) / sizeof(compressed[0]); i++)
		if (s->inlen >= compressed[i].len &&
		    !memcmp(s->in, compressed[i].magic, compressed[i].len))
			return sr_fail(d, SR_EDATA, "%s: compressed with %s: "
				       "decompress it first (%s FILE > "
				       "FILE.txt), or give gzip", s->name,
				       compressed[i].name, compressed[i].cmd);
	if (!is_gzip_magic(s))
		return 0;
	s->is_gzip = 1;
#ifdef SR_HAVE_ISAL
	if (!s->use_zlib) {
		s->isal = malloc(sizeof(*s->isal));
		if (!s->isal)
			return sr_oom(d);
		isal_inflate_init(s->isal);
		s->isal->crc_flag = ISAL_GZIP; /* the header read, the crc
						* and length checked */
		return 0;
	}
#endif
	if (inflateInit2(&s->z, 15 + 16) != Z_OK)
		return sr_oom(d);
	s->zinit = 1;
	return 0;
}

static long plain_read(struct sr_stream *s, void *buf, size_t n,
		       struct sr_diag *d)
{
	ssize_t r;

	if (s->inlen) { /* the bytes the magic test looked at */
		size_t k = n < s->inlen ? n : s->inlen;

		memcpy(buf, s->in + s->inpos, k);
		s->inpos += k;
		s->inlen -= k;
		return (long)k;
	}
	if (s->fd_eof)
		return 0;
	do
		r = read(s->fd, buf, n);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return sr_fail(d, SR_EIO, "%s: read error: %s", s->name,
			       strerror(errno)), -1;
	if (r == 0)
		s->fd_eof = 1;
	s->fd_bytes += (uint64_t)r;
	return (long)r;
}

/* What went wrong in a member, as the message says it. */
static long corrupt(struct sr_stream *s, size_t produced, const char *why,
		    struct sr_diag *d)
{
	return sr_fail(d, SR_EDATA, "%s: corrupt gzip data near compressed "
		       "byte %lld (after %llu bytes of text): %s", s->name,
		       zoffset(s), (unsigned long long)(s->out + produced),
		       why), -1;
}

#ifdef SR_HAVE_ISAL
static const char *isal_why(int rc)
{
	switch (rc) {
	case ISAL_INVALID_BLOCK: return "invalid deflate block";
	case ISAL_INVALID_SYMBOL: return "invalid code";
	case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
	case ISAL_INVALID_WRAPPER: return "invalid gzip header";
	case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
	case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
	default: return "unknown igzip error";
	}
}
#endif

/* One inflate step over in[] into buf: the bytes made, or -1 (in d). */
static long inflate_step(struct sr_stream *s, void *buf, size_t n,
			 struct sr_diag *d)
{
	uInt room = (uInt)(n > (1u << 30) ? (1u << 30) : n);
	size_t produced;
	int rc;

#ifdef SR_HAVE_ISAL
	if (s->isal) {
		struct inflate_state *st = s->isal;

		st->next_in = s->in + s->inpos;
		st->avail_in = (uint32_t)s->inlen;
		st->next_out = buf;
		st->avail_out = room;
		rc = isal_inflate(st);
		produced = (size_t)(st->next_out - (uint8_t *)buf);
		s->inpos = (size_t)(st->next_in - s->in);
		s->inlen = st->avail_in;
		if (rc < 0)
			return corrupt(s, produced, isal_why(rc), d);
		if (st->block_state == ISAL_BLOCK_FINISH)
			s->member_done = 1;
		return (long)produced;
	}
#endif
	s->z.next_in = s->in + s->inpos;
	s->z.avail_in = (uInt)s->inlen;
	s->z.next_out = buf;
	s->z.avail_out = room;
	rc = inflate(&s->z, Z_NO_FLUSH);
	produced = (size_t)((unsigned char *)s->z.next_out -
			    (unsigned char *)buf);
	s->inpos = (size_t)(s->z.next_in - s->in);
	s->inlen = s->z.avail_in;
	if (rc == Z_STREAM_END)
		s->member_done = 1;
	else if (rc == Z_MEM_ERROR)
		return sr_oom(d), -1;
	else if (rc != Z_OK && rc != Z_BUF_ERROR)
		return corrupt(s, produced, s->z.msg ? s->z.msg
						     : "unknown zlib error", d);
	return (long)produced;
}

/* The next member begins where one ended. */
static void member_reset(struct sr_stream *s)
{
#ifdef SR_HAVE_ISAL
	if (s->isal) {
		isal_inflate_reset(s->isal);
		s->isal->crc_flag = ISAL_GZIP;
		return;
	}
#endif
	inflateReset(&s->z);
}

static long gzip_read(struct sr_stream *s, void *buf, size_t n,
		      struct sr_diag *d)
{
	for (;;) {
		long produced;

		if (s->member_done) {
			/* the end, another member, or refused trailing data */
			if (want_bytes(s, 2, d))
				return -1;
			if (s->inlen == 0)
				return 0;
			if (!is_gzip_magic(s))
				return sr_fail(d, SR_EDATA, "%s: data after the "
					       "gzip stream: it ends at "
					       "compressed byte %lld (after "
					       "%llu bytes of text), then "
					       "come bytes that are not gzip; "
					       "expected the end of the file "
					       "or another gzip member",
					       s->name, zoffset(s),
					       (unsigned long long)s->out), -1;
			member_reset(s);
			s->member_done = 0;
		}
		if (s->inlen == 0) {
			if (fill(s, d))
				return -1;
			if (s->inlen == 0)
				return sr_fail(d, SR_EDATA, "%s: truncated gzip "
					       "data: the compressed stream "
					       "ends at byte %lld, mid-stream "
					       "(after %llu bytes of text)",
					       s->name, zoffset(s),
					       (unsigned long long)s->out), -1;
		}
		produced = inflate_step(s, buf, n, d);
		if (produced < 0)
			return -1;
		if (produced) {
			s->out += (uint64_t)produced;
			return produced;
		}
	}
}

long sr_stream_read(struct sr_stream *s, void *buf, size_t n,
		    struct sr_diag *d)
{
	long r;

	if (n == 0)
		return 0;
	if (!s->started && start(s, d))
		return -1;
	if (!s->is_gzip) {
		r = plain_read(s, buf, n, d);
		if (r > 0)
			s->out += (uint64_t)r;
		return r;
	}
	return gzip_read(s, buf, n, d);
}

void sr_stream_use_zlib(struct sr_stream *s)
{
	s->use_zlib = 1;
}

const char *sr_stream_inflater(void)
{
#ifdef SR_HAVE_ISAL
	return "igzip (ISA-L)";
#else
	return "zlib";
#endif
}

const char *sr_stream_name(const struct sr_stream *s) { return s->name; }
int sr_stream_is_gzip(const struct sr_stream *s) { return s->is_gzip; }
int sr_stream_seekable(const struct sr_stream *s) { return s->seekable; }
uint64_t sr_stream_offset(const struct sr_stream *s) { return s->out; }

int sr_stream_plain_fd(const struct sr_stream *s)
{
	struct stat st;

	if (s->is_gzip || fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	return s->fd;
}

void sr_stream_position(const struct sr_stream *s, uint64_t *read,
			uint64_t *size)
{
	*read = s->fd_bytes;
	*size = s->size;
}
