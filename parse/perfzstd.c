/*
 * perfzstd: a perf.data recorded with `perf record -z` made readable:
 * its PERF_RECORD_COMPRESSED records (and COMPRESSED2, which adds the
 * payload's size) carry one zstd stream, fed record after record, whose
 * bytes are the records perf would have written uncompressed, a record
 * possibly split between two of them (the kernel's
 * tools/perf/util/session.c).  The file is rewritten into a temporary
 * one with each compressed record replaced by what it holds, in place,
 * and everything else as it was: in file mode the data section's size
 * and the feature sections' offsets move by the difference.  The reader
 * then reads it as any perf.data.  No perf command does this: perf 6.1's
 * `perf inject` copies compressed records as they are.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "parse/load.h"
#include "parse/perfzstd.h"

enum { REC_TRACING_DATA = 66, REC_COMPRESSED = 81, REC_COMPRESSED2 = 83 };
#define FEAT_COMPRESSED 27

struct out {
	int fd;
	const char *name;
	uint64_t written;
	uint64_t max;        /* inflated bytes allowed in all */
	uint8_t *buf;        /* inflated bytes not yet written as records */
	size_t n, cap;
};

static int emit(struct out *o, const void *p, size_t n, struct sr_diag *d)
{
	if (sr_write_all(o->fd, p, n, o->name, d) != SR_OK)
		return d->code;
	o->written += n;
	return SR_OK;
}

/* Write the whole records at the front of o->buf; keep a partial one. */
static int flush_records(struct out *o, uint64_t at, struct sr_diag *d)
{
	size_t k = 0;

	while (o->n - k >= 8) {
		uint16_t size;

		memcpy(&size, o->buf + k + 6, 2);
		if (size < 8)
			return sr_fail(d, SR_EDATA, "%s:%llu: expected the "
				       "compressed records to inflate to records "
				       "of at least 8 bytes, got one of %u",
				       o->name, (unsigned long long)at, size);
		if (o->n - k < size)
			break;
		k += size;
	}
	if (k && emit(o, o->buf, k, d))
		return d->code;
	memmove(o->buf, o->buf + k, o->n - k);
	o->n -= k;
	return SR_OK;
}

static int inflate_record(ZSTD_DStream *z, struct out *o, const uint8_t *src,
			  size_t n, uint64_t at, struct sr_diag *d)
{
	ZSTD_inBuffer in = { src, n, 0 };

	while (in.pos < in.size) {
		ZSTD_outBuffer ob;
		size_t rc, before;

		if (o->cap - o->n < (1u << 16)) {
			size_t cap = o->cap ? 2 * o->cap : (1u << 20);
			uint8_t *b = realloc(o->buf, cap);

			if (!b)
				return sr_oom(d);
			o->buf = b;
			o->cap = cap;
		}
		ob.dst = o->buf + o->n;
		ob.size = o->cap - o->n;
		ob.pos = 0;
		before = in.pos;
		rc = ZSTD_decompressStream(z, &ob, &in);
		if (ZSTD_isError(rc))
			return sr_fail(d, SR_EDATA, "%s:%llu: expected zstd data "
				       "in a PERF_RECORD_COMPRESSED record, got "
				       "data zstd refuses (%s): corrupt",
				       o->name, (unsigned long long)at,
				       ZSTD_getErrorName(rc));
		if (ob.pos == 0 && in.pos == before)
			return sr_fail(d, SR_EDATA, "%s:%llu: expected zstd data "
				       "that inflates, got none that does: "
				       "corrupt", o->name,
				       (unsigned long long)at);
		o->n += ob.pos;
		if (o->written + o->n > o->max)
			return sr_fail(d, SR_EDATA, "%s:%llu: expected the "
				       "compressed records to inflate to at most "
				       "%llu bytes (256 times the file), got "
				       "more", o->name, (unsigned long long)at,
				       (unsigned long long)o->max);
		if (flush_records(o, at, d))
			return d->code;
	}
	return SR_OK;
}

/* The records of [pos, end) of m to o, compressed ones inflated. */
static int copy_records(const uint8_t *m, uint64_t pos, uint64_t end,
			struct out *o, struct sr_diag *d)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	int rc = SR_OK;

	if (!z || ZSTD_isError(ZSTD_initDStream(z))) {
		ZSTD_freeDStream(z);
		return sr_oom(d);
	}
	while (pos < end && rc == SR_OK) {
		uint32_t type;
		uint16_t size;
		uint64_t skip = 0;

		if (end - pos < 8) {
			rc = sr_fail(d, SR_EDATA, "%s:%llu: expected a record "
				     "header (8 bytes), got %llu bytes: "
				     "truncated", o->name,
				     (unsigned long long)pos,
				     (unsigned long long)(end - pos));
			break;
		}
		memcpy(&type, m + pos, 4);
		memcpy(&size, m + pos + 6, 2);
		if (size < 8 || size > end - pos) {
			rc = sr_fail(d, SR_EDATA, "%s:%llu: expected a record of "
				     "at least 8 bytes within the data, got %u "
				     "bytes: truncated or corrupt", o->name,
				     (unsigned long long)pos, size);
			break;
		}
		if (type == REC_COMPRESSED || type == REC_COMPRESSED2) {
			size_t hdr = type == REC_COMPRESSED ? 8 : 16;
			uint64_t n = size - hdr;

			if (size < hdr ||
			    (type == REC_COMPRESSED2 && sr_ld64(m + pos + 8) > n)) {
				rc = sr_fail(d, SR_EDATA, "%s:%llu: expected a "
					     "COMPRESSED2 record's data size "
					     "within it, got more", o->name,
					     (unsigned long long)pos);
				break;
			}
			if (type == REC_COMPRESSED2)
				n = sr_ld64(m + pos + 8);
			rc = inflate_record(z, o, m + pos + hdr, (size_t)n, pos,
					    d);
		} else if (o->n) {
			rc = sr_fail(d, SR_EDATA, "%s:%llu: expected the record "
				     "the compressed data began to end in the "
				     "next compressed record, got a record of "
				     "type %u", o->name,
				     (unsigned long long)pos, type);
		} else {
			/* pipe mode: the tracing data follows its record */
			if (type == REC_TRACING_DATA && size >= 12) {
				uint32_t t;

				memcpy(&t, m + pos + 8, 4);
				skip = t <= end - pos - size ? t : end - pos - size;
			}
			rc = emit(o, m + pos, size + skip, d);
		}
		pos += size + skip;
	}
	if (rc == SR_OK && o->n)
		rc = sr_fail(d, SR_EDATA, "%s:%llu: expected the compressed "
			     "data to end with a whole record, got %zu bytes "
			     "of one", o->name, (unsigned long long)end, o->n);
	ZSTD_freeDStream(z);
	return rc;
}

int sr_perf_is_compressed(const uint8_t *m, size_t len)
{
	uint64_t pos = 16;

	if (len >= 104 && sr_ld64(m + 8) != 16)   /* file mode: the feature bit */
		return (sr_ld64(m + 72) >> FEAT_COMPRESSED) & 1;
	while (pos + 8 <= len) {             /* pipe mode: any such record */
		uint32_t type;
		uint16_t size;

		memcpy(&type, m + pos, 4);
		memcpy(&size, m + pos + 6, 2);
		if (type == REC_COMPRESSED || type == REC_COMPRESSED2)
			return 1;
		if (size < 8)
			return 0;   /* the reader says what is wrong */
		if (type == REC_TRACING_DATA && size >= 12 && pos + 12 <= len) {
			uint32_t t;

			memcpy(&t, m + pos + 8, 4);
			pos += t;
		}
		pos += size;
	}
	return 0;
}

int sr_perf_inflate(const uint8_t *m, size_t len, const char *name, int *fdp,
		    struct sr_diag *d)
{
	struct out o = { -1, name, 0, 0, NULL, 0, 0 };
	int rc;

	*fdp = -1;
	o.max = (uint64_t)len * 256 > (64u << 20) ? (uint64_t)len * 256
						   : (64u << 20);
	o.fd = sr_temp_fd(name, d);
	if (o.fd < 0)
		return d->code;
	if (sr_ld64(m + 8) == 16) {
		rc = emit(&o, m, 16, d);
		if (rc == SR_OK)
			rc = copy_records(m, 16, len, &o, d);
	} else {
		uint64_t dof = sr_ld64(m + 40), dsz = sr_ld64(m + 48), fo, ntab = 0;
		uint8_t *tail = NULL;
		int64_t delta;

		if (dof > len || dsz > len - dof || dof < 104) {
			rc = sr_fail(d, SR_EDATA, "%s:40: expected the data "
				     "section within the file, got it past the "
				     "end: truncated", name);
			goto out;
		}
		fo = dof + dsz;
		rc = emit(&o, m, (size_t)dof, d);
		if (rc == SR_OK)
			rc = copy_records(m, dof, fo, &o, d);
		if (rc != SR_OK)
			goto out;
		/* the features: their table's offsets move by delta */
		delta = (int64_t)(o.written - fo);
		for (int b = 1; b < 256; b++)
			ntab += sr_ld64(m + 72 + 8 * (b / 64)) >> (b % 64) & 1;
		tail = malloc(len - fo ? len - fo : 1);
		if (!tail) {
			rc = sr_oom(d);
			goto out;
		}
		memcpy(tail, m + fo, len - fo);
		for (uint64_t i = 0; i < ntab && 16 * i + 8 <= len - fo; i++) {
			uint64_t so = sr_ld64(tail + 16 * i) + (uint64_t)delta;

			memcpy(tail + 16 * i, &so, 8);
		}
		rc = emit(&o, tail, len - fo, d);
		free(tail);
		if (rc == SR_OK) {
			uint64_t nd = o.written - (len - fo) - dof;

			if (pwrite(o.fd, &nd, 8, 48) != 8)
				rc = sr_fail(d, SR_EIO, "%s: writing its temporary "
					     "copy failed", name);
		}
	}
out:
	free(o.buf);
	if (rc != SR_OK) {
		close(o.fd);
		return rc;
	}
	*fdp = o.fd;
	return SR_OK;
}
