/*
 * tsv: reading the replay's TSV output files by column name (see tsv.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "compare/tsv.h"

static int split(struct cmp_tsv *t, struct sr_diag *d)
{
	char *p = t->buf;

	t->nfield = 0;
	for (;;) {
		char *tab = strchr(p, '\t');

		if (t->nfield == t->fieldcap) {
			char **f = sr_grow(t->field, &t->fieldcap, t->nfield,
					   sizeof(*f), 16, 0);

			if (!f)
				return sr_oom(d);
			t->field = f;
		}
		t->field[t->nfield++] = p;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	return SR_OK;
}

/* Read one line into t->buf without its line end; 1 line, 0 EOF, -1 error. */
static int read_line(struct cmp_tsv *t, struct sr_diag *d)
{
	ssize_t n;

	errno = 0;
	n = getline(&t->buf, &t->cap, t->fp);
	if (n < 0) {
		/* getline says it ran out of memory by errno alone */
		if (errno == ENOMEM)
			return sr_fail(d, SR_ENOMEM, "%s: out of memory",
				       t->path), -1;
		if (ferror(t->fp))
			return sr_fail(d, SR_EIO, "%s: read error: %s", t->path,
				       strerror(errno ? errno : EIO)), -1;
		return 0;
	}
	t->line++;
	if ((size_t)n != strlen(t->buf)) {
		return sr_fail(d, SR_EDATA,
			       "%s:%llu: expected text, got a NUL byte",
			       t->path, (unsigned long long)t->line), -1;
	}
	while (n > 0 && (t->buf[n - 1] == '\n' || t->buf[n - 1] == '\r'))
		t->buf[--n] = '\0';
	return 1;
}

int cmp_tsv_open(struct cmp_tsv *t, const char *path, const struct cmp_col *cols,
		size_t ncols, struct sr_diag *d)
{
	int rc;

	memset(t, 0, sizeof(*t));
	if (ncols > CMP_TSV_MAXCOLS)
		return sr_fail(d, SR_EINTERNAL, "too many TSV columns wanted");
	t->cols = cols;
	t->ncols = ncols;
	t->path = strdup(path);
	if (!t->path)
		return sr_oom(d);
	t->fp = fopen(path, "r");
	if (!t->fp) {
		int e = errno;

		free(t->path);
		t->path = NULL;
		return sr_fail_errno(d, e == ENOENT ? SR_ENOINPUT : SR_EIO, e,
				     "%s: cannot open", path);
	}
	rc = read_line(t, d);
	if (rc <= 0) {
		if (rc == 0)
			sr_fail(d, SR_EDATA,
				"%s:1: expected a header line, got an empty file",
				path);
		cmp_tsv_close(t);
		return d->code;
	}
	if (split(t, d)) {
		cmp_tsv_close(t);
		return d->code;
	}
	t->nheader = t->nfield;
	for (size_t i = 0; i < ncols; i++) {
		t->idx[i] = -1;
		for (size_t j = 0; j < t->nfield; j++) {
			if (strcmp(t->field[j], cols[i].name) == 0) {
				t->idx[i] = (int)j;
				break;
			}
		}
		if (t->idx[i] < 0 && cols[i].required) {
			char q[160];

			/* the header was split in place: rejoin for the message */
			for (size_t j = 1; j < t->nfield; j++)
				t->field[j][-1] = '\t';
			sr_fail(d, SR_EDATA,
				"%s:1: expected a column '%s' in the header, got '%s'",
				path, cols[i].name,
				sr_quote(q, sizeof(q), t->buf, strlen(t->buf)));
			cmp_tsv_close(t);
			return d->code;
		}
	}
	return SR_OK;
}

int cmp_tsv_next(struct cmp_tsv *t, struct sr_diag *d)
{
	for (;;) {
		int rc = read_line(t, d);

		if (rc <= 0)
			return rc;
		if (t->buf[0] == '\0')
			continue; /* a blank line, as at the end of a file */
		if (split(t, d))
			return -1;
		if (t->nfield != t->nheader) {
			sr_fail(d, SR_EDATA,
				"%s:%llu: expected %zu tab-separated fields as in the header, got %zu",
				t->path, (unsigned long long)t->line, t->nheader,
				t->nfield);
			return -1;
		}
		return 1;
	}
}

void cmp_tsv_close(struct cmp_tsv *t)
{
	if (t->fp)
		fclose(t->fp);
	free(t->buf);
	free(t->field);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

bool cmp_tsv_has(const struct cmp_tsv *t, size_t i)
{
	return i < t->ncols && t->idx[i] >= 0;
}

const char *cmp_tsv_get(const struct cmp_tsv *t, size_t i)
{
	if (!cmp_tsv_has(t, i))
		return NULL;
	return t->field[t->idx[i]];
}

int cmp_parse_int(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int cmp_parse_fixed(const char *s, int digits, int64_t *out)
{
	const char *p = s;
	bool neg = false;
	int64_t ip = 0, fp = 0, scale = 1;
	int nd = 0, nf = 0;
	bool round_up = false;

	for (int i = 0; i < digits; i++)
		scale *= 10;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (; *p >= '0' && *p <= '9'; p++, nd++) {
		if (ip > (INT64_MAX / scale - 9) / 10)
			return -1;
		ip = ip * 10 + (*p - '0');
	}
	if (*p == '.') {
		p++;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (nf < digits) {
				fp = fp * 10 + (*p - '0');
			} else if (nf == digits) {
				round_up = *p >= '5';
			}
			nf++;
		}
	}
	if (*p || (nd == 0 && nf == 0))
		return -1;
	for (int i = nf; i < digits; i++)
		fp *= 10;
	ip = ip * scale + fp + (round_up ? 1 : 0);
	*out = neg ? -ip : ip;
	return 0;
}

static bool is_missing(const char *s)
{
	return !s || !*s || strcmp(s, "-") == 0;
}

static int bad_number(struct cmp_tsv *t, size_t i, const char *what,
		      struct sr_diag *d)
{
	char q[96];
	const char *s = cmp_tsv_get(t, i);

	return sr_fail(d, SR_EDATA, "%s:%llu: expected %s in column %s, got '%s'",
		       t->path, (unsigned long long)t->line, what,
		       t->cols[i].name, sr_quote(q, sizeof(q), s, strlen(s)));
}

int cmp_tsv_int(struct cmp_tsv *t, size_t i, int64_t *out, struct sr_diag *d)
{
	const char *s = cmp_tsv_get(t, i);

	*out = 0;
	if (is_missing(s))
		return SR_OK;
	if (cmp_parse_int(s, out))
		return bad_number(t, i, "an integer", d);
	return SR_OK;
}

int cmp_tsv_fixed(struct cmp_tsv *t, size_t i, int digits, int64_t *out,
		 struct sr_diag *d)
{
	const char *s = cmp_tsv_get(t, i);

	*out = 0;
	if (is_missing(s))
		return SR_OK;
	if (cmp_parse_fixed(s, digits, out))
		return bad_number(t, i, "a decimal number", d);
	return SR_OK;
}

int cmp_tsv_double(struct cmp_tsv *t, size_t i, double *out, struct sr_diag *d)
{
	const char *s = cmp_tsv_get(t, i);
	char *end;

	*out = 0;
	if (is_missing(s))
		return SR_OK;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || end == s || !isfinite(*out)) {
		*out = 0;
		return bad_number(t, i, "a finite number", d);
	}
	return SR_OK;
}
