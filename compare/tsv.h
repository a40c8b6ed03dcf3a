/*
 * tsv: reading back the replay's output files (timeline.tsv, latency.tsv,
 * summary.tsv) by column name.
 *
 * The first line is the header; columns are found by name, so extra
 * columns or a different order do not matter, and a missing required
 * column is an error naming the file and what was expected.  Rows are
 * pulled one at a time (memory does not grow with the file).  Numbers are
 * parsed exactly: decimal fractions such as "12.345" ms become integer
 * nanoseconds without going through floating point.
 *
 *	static const struct cmp_col cols[] = { { "time_ns", 1 }, ... };
 *	struct cmp_tsv t;
 *	if (cmp_tsv_open(&t, path, cols, 3, d))
 *		return d->code;
 *	while ((rc = cmp_tsv_next(&t, d)) == 1)
 *		use(cmp_tsv_get(&t, 0), ...);
 *	cmp_tsv_close(&t);
 */
#ifndef CMP_TSV_H
#define CMP_TSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"

#define CMP_TSV_MAXCOLS 32

struct cmp_col {
	const char *name;
	bool required;
};

struct cmp_tsv {
	FILE *fp;
	char *path;
	uint64_t line;                 /* of the row last read */
	char *buf;
	size_t cap;
	char **field;                  /* fields of the current row */
	size_t nfield, fieldcap;
	size_t nheader;                /* fields in the header */
	size_t ncols;
	const struct cmp_col *cols;
	int idx[CMP_TSV_MAXCOLS];       /* header position of cols[i], -1 */
};

int cmp_tsv_open(struct cmp_tsv *t, const char *path, const struct cmp_col *cols,
		size_t ncols, struct sr_diag *d);
/* 1: a row; 0: end of file; -1: error in d. */
int cmp_tsv_next(struct cmp_tsv *t, struct sr_diag *d);
void cmp_tsv_close(struct cmp_tsv *t);

/* Field of wanted column i in the current row; NULL if the column is absent. */
const char *cmp_tsv_get(const struct cmp_tsv *t, size_t i);
bool cmp_tsv_has(const struct cmp_tsv *t, size_t i);

/*
 * Numbers from column i.  An absent optional column, an empty field or "-"
 * give 0 (and *missing = true where asked).  Anything else that is not a
 * number is an error "FILE:LINE: expected ... in column NAME, got '...'".
 */
int cmp_tsv_int(struct cmp_tsv *t, size_t i, int64_t *out, struct sr_diag *d);
/* A decimal with up to `digits` fraction digits, scaled by 10^digits. */
int cmp_tsv_fixed(struct cmp_tsv *t, size_t i, int digits, int64_t *out,
		 struct sr_diag *d);
int cmp_tsv_double(struct cmp_tsv *t, size_t i, double *out, struct sr_diag *d);

/* The same exact parsers on a plain string: 0 ok, -1 not a number. */
int cmp_parse_int(const char *s, int64_t *out);
int cmp_parse_fixed(const char *s, int digits, int64_t *out);

#endif
