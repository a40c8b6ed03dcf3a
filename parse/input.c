/*
 * input: buffered line input over a byte stream (parse/stream.h: plain
 * and gzip read alike).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/input.h"
#include "parse/stream.h"

#define SR_INPUT_BUF_DEFAULT (256u << 10)

struct sr_input {
	struct sr_stream *st;
	int eof;
	int skipping;       /* discarding the rest of an overlong line */
	int unterminated;
	char *buf;
	size_t cap, pos, end;
	uint64_t lineno;
	uint64_t consumed;  /* text bytes before buf[pos] */
};

int sr_input_open(struct sr_input **inp, const char *path, size_t bufsize,
		  struct sr_diag *d)
{
	struct sr_input *in;

	*inp = NULL;
	if (bufsize == 0)
		bufsize = SR_INPUT_BUF_DEFAULT;
	if (bufsize < 2 * (size_t)SR_LINE_MAX + 2)
		bufsize = 2 * (size_t)SR_LINE_MAX + 2;
	in = calloc(1, sizeof(*in));
	if (!in)
		return sr_oom(d);
	/* the compressed side in step with ours: a small input buffer
	 * (cursors of a per-cpu merge, the fuzz targets) gets a small one */
	if (sr_stream_open(&in->st, path, bufsize >= (1u << 20) ? 256 * 1024
							       : 32 * 1024,
			   d) != SR_OK) {
		free(in);
		return d->code;
	}
	/* zeroed: pcre2's JIT reads whole words past a line's end (only
	 * bounds-checked bytes count); valgrind must not see them unset */
	in->buf = calloc(1, bufsize);
	in->cap = bufsize;
	if (!in->buf) {
		sr_input_close(in);
		return sr_oom(d);
	}
	*inp = in;
	return SR_OK;
}

void sr_input_close(struct sr_input *in)
{
	if (!in)
		return;
	sr_stream_close(in->st);
	free(in->buf);
	free(in);
}

/* Read more text after buf[end], at most max bytes; moves the unread
 * part to the front. */
static int refill(struct sr_input *in, size_t max, struct sr_diag *d)
{
	long n;

	if (in->pos > 0) {
		memmove(in->buf, in->buf + in->pos, in->end - in->pos);
		in->consumed += in->pos;
		in->end -= in->pos;
		in->pos = 0;
	}
	if (in->end == in->cap || in->eof)
		return SR_OK;
	n = sr_stream_read(in->st, in->buf + in->end,
			   in->cap - in->end < max ? in->cap - in->end : max, d);
	if (n < 0) {
		in->eof = 1;
		return d->code;
	}
	if (n == 0)
		in->eof = 1;
	in->end += (size_t)n;
	return SR_OK;
}

int sr_input_next(struct sr_input *in, const char **line, size_t *len,
		  struct sr_diag *d)
{
	for (;;) {
		char *p = in->buf + in->pos;
		size_t avail = in->end - in->pos;
		char *nl = avail ? memchr(p, '\n', avail) : NULL;

		if (nl) {
			size_t l = (size_t)(nl - p);

			in->pos += l + 1;
			if (in->skipping) {
				in->skipping = 0;
				continue;
			}
			if (l > SR_LINE_MAX) {
				in->lineno++;
				return SR_IN_LONG;
			}
			if (l && p[l - 1] == '\r')
				l--;
			in->lineno++;
			*line = p;
			*len = l;
			return SR_IN_LINE;
		}
		if (avail > SR_LINE_MAX && !in->skipping) {
			/* no newline in sight: report once, then discard */
			in->skipping = 1;
			in->pos = in->end;
			in->lineno++;
			return SR_IN_LONG;
		}
		if (in->skipping) {
			in->pos = in->end;
		}
		if (in->eof) {
			if (in->pos == in->end || in->skipping)
				return SR_IN_EOF;
			/* last line without a newline */
			size_t l = avail;

			in->pos = in->end;
			if (l && p[l - 1] == '\r')
				l--;
			in->lineno++;
			in->unterminated = 1;
			*line = p;
			*len = l;
			return SR_IN_LINE;
		}
		if (refill(in, in->cap, d) != SR_OK)
			return SR_IN_ERR;
	}
}

int sr_input_peek(struct sr_input *in, size_t want, const char **p,
		  size_t *n, struct sr_diag *d)
{
	if (want > in->cap / 2)
		want = in->cap / 2;
	/* no more than asked (a binary input's magic is a few bytes) */
	while (!in->eof && in->end - in->pos < want) {
		if (refill(in, want - (in->end - in->pos), d) != SR_OK)
			return SR_IN_ERR;
	}
	*p = in->buf + in->pos;
	*n = in->end - in->pos;
	return SR_OK;
}

int sr_input_peek_grow(struct sr_input *in, size_t want, const char **p,
		       size_t *n, struct sr_diag *d)
{
	if (want > in->cap / 2) {
		size_t cap = 2 * want;
		char *b;

		if (cap < want || !(b = realloc(in->buf, cap)))
			return sr_oom(d);
		memset(b + in->cap, 0, cap - in->cap); /* as calloc'd */
		in->buf = b;
		in->cap = cap;
	}
	return sr_input_peek(in, want, p, n, d);
}

const char *sr_input_name(const struct sr_input *in) { return sr_stream_name(in->st); }
uint64_t sr_input_lineno(const struct sr_input *in) { return in->lineno; }
int sr_input_seekable(const struct sr_input *in) { return sr_stream_seekable(in->st); }
int sr_input_unterminated(const struct sr_input *in) { return in->unterminated; }
uint64_t sr_input_bytes(const struct sr_input *in) { return in->consumed + in->pos; }

int sr_temp_fd(const char *name, struct sr_diag *d)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = P_tmpdir;
	if ((size_t)snprintf(path, sizeof(path), "%s/schedreplay-in.XXXXXX",
			     dir) >= sizeof(path))
		return sr_fail(d, SR_EIO, "%s: TMPDIR too long for a temporary "
			       "copy of the input", name), -1;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return sr_fail(d, SR_EIO, "%s: cannot make a temporary copy of "
			       "the input in %s: %s", name, dir,
			       strerror(errno)), -1;
	unlink(path);
	return fd;
}

int sr_write_all(int fd, const void *buf, size_t n, const char *name,
		 struct sr_diag *d)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return sr_fail(d, SR_EIO, "%s: writing its temporary copy "
				       "failed: %s", name, strerror(errno));
		p += w;
		n -= (size_t)w;
	}
	return SR_OK;
}

int sr_input_to_fd(struct sr_input *in, int *fdp, struct sr_diag *d)
{
	const char *name = sr_input_name(in);
	int fd = sr_stream_plain_fd(in->st);

	*fdp = -1;
	if (fd >= 0) {
		/* the file itself: its own offset does not matter (mapped) */
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0) {
			if (fd >= 0)
				close(fd);
			return sr_fail(d, SR_EIO, "%s: %s", name,
				       strerror(errno));
		}
		*fdp = fd;
		return SR_OK;
	}
	fd = sr_temp_fd(name, d);
	if (fd < 0)
		return d->code;
	for (;;) {
		if (in->end > in->pos &&
		    sr_write_all(fd, in->buf + in->pos, in->end - in->pos, name,
				 d) != SR_OK) {
			close(fd);
			return d->code;
		}
		in->consumed += in->end - in->pos;
		in->pos = in->end = 0;
		if (in->eof)
			break;
		if (refill(in, in->cap, d) != SR_OK) {
			close(fd);
			return d->code;
		}
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return sr_fail(d, SR_EIO, "%s: %s", name, strerror(errno));
	}
	*fdp = fd;
	return SR_OK;
}

void sr_input_position(const struct sr_input *in, uint64_t *read,
		       uint64_t *size)
{
	sr_stream_position(in->st, read, size);
}
