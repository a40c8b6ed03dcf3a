/*
 * fmt: the one place numbers and names are formatted for output.
 * Nanoseconds as ms or s with exact decimals (integer arithmetic only, so
 * the same input gives the same bytes everywhere); task names with control
 * bytes shown as '?' (a TSV cell or a table column stays one cell); and
 * escaping for JSON, HTML, gnuplot strings and sh words.
 */
#ifndef SR_FMT_H
#define SR_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A buffer that holds any number these functions format. */
#define SR_FMT_NUM 32

/* v / 10^shift rounded half away from zero to `decimals` places. */
char *sr_fmt_scaled(char *buf, size_t len, int64_t v, int shift, int decimals);
/* The number sr_fmt_scaled prints, in units of its last decimal
 * (1234567 ns with shift 6, decimals 2: 123, for "1.23"): a figure
 * judged as printed. */
int64_t sr_round_scaled(int64_t v, int shift, int decimals);
/* ns as milliseconds / seconds with the given decimals (6 / 9: exact). */
char *sr_fmt_ms(char *buf, size_t len, int64_t ns, int decimals);
char *sr_fmt_s(char *buf, size_t len, int64_t ns, int decimals);

/*
 * line and a newline to f, wrapped at spaces to lines of at most width
 * columns (a word longer than a line stays whole); the lines after the
 * first are indented by the line's own leading spaces and 4 more.  The
 * bytes [hl, hl + hl_len) are written between on and off (terminal
 * colours; on NULL: none).
 */
void sr_put_wrapped(FILE *f, const char *line, size_t width, size_t hl,
		    size_t hl_len, const char *on, const char *off);

/* A task name for output: bytes below 0x20 and 0x7f become '?'. */
char *sr_comm_clean(char *buf, size_t len, const char *comm);
void sr_put_comm(FILE *f, const char *comm);

/*
 * A line built in a buffer without printf, for rows written by the
 * hundred thousand (waits.tsv): numbers, names (cleaned as above, cut at
 * SR_LINE_COMM - 1 bytes, as a name buffer of the readers' SR_COMM_MAX
 * cuts them) and text appended; sr_line_put writes it.  A line longer
 * than the buffer is cut (rows here are far shorter).
 */
#define SR_LINEBUF_MAX 512
#define SR_LINE_COMM 64
struct sr_line {
	char b[SR_LINEBUF_MAX];
	size_t n;
};
void sr_line_i64(struct sr_line *l, int64_t v);
void sr_line_str(struct sr_line *l, const char *s);
void sr_line_comm(struct sr_line *l, const char *comm);
void sr_line_ch(struct sr_line *l, char c);
void sr_line_put(struct sr_line *l, FILE *f);

/* A JSON string literal, quotes included; invalid UTF-8 bytes as \u00XX. */
void sr_json_str(FILE *f, const char *s);
/* HTML text with & < > " ' escaped. */
void sr_html_str(FILE *f, const char *s);
/*
 * A gnuplot string literal, quotes included: "..." with \ and " escaped
 * by a backslash, and ` as \140: gnuplot runs `...` on a line as a shell
 * command, inside "..." too (a task named `id>x` would run id), before
 * it reads the string's escapes.  So any name reads back as itself, and
 * none runs.  Not '...' with ' doubled: gnuplot 5.4 reads a
 * single-quoted string that opens with '' ('''x') as the empty string
 * followed by garbage.  Control bytes become '?'.
 */
void sr_gp_str(FILE *f, const char *s);
/*
 * A word for sh, quotes included: '...' with each ' as '\'' (inside
 * single quotes sh reads every other byte as itself).  Bytes are kept as
 * they are: a caller writing a line-oriented file refuses control bytes
 * first (a newline would end the line there).
 */
void sr_sh_str(FILE *f, const char *s);

#endif
