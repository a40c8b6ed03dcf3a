/*
 * suggest: "did you mean" for a name that is not in its table (a
 * command, an option, a policy, a knob): the table's names nearest to it
 * by edit distance, said after the error.  The distance counts inserting,
 * deleting or changing one character, or swapping two neighbours, as one
 * edit each (optimal string alignment); a name of which the word is the
 * beginning (3 characters at least: "rec" for record) counts as one edit.
 * A name is close enough when its distance is at most a third of the
 * word's length, or 1, and less than that length (something of the word
 * is kept): "dif" -> diff, "--polciy" -> --policy, "stok" -> stock, "mp"
 * -> map, but "x" -> nothing.  The nearest are said, up to
 * SR_SUGGEST_MAX of them in the table's order.
 *
 *	struct sr_suggest s;
 *	char hint[SR_SUGGEST_HINT];
 *
 *	sr_suggest_init(&s, word, strlen(word));
 *	for (c = table; c->name; c++)
 *		sr_suggest_add(&s, c->name);
 *	sr_fail(d, SR_EUSAGE, "unknown command '%s'%s", word,
 *		sr_suggest_hint(&s, "", hint, sizeof(hint)));
 */
#ifndef SR_SUGGEST_H
#define SR_SUGGEST_H

#include <stddef.h>

#define SR_SUGGEST_MAX 4
/* room for a hint naming SR_SUGGEST_MAX names of 64 characters */
#define SR_SUGGEST_HINT 400

struct sr_suggest {
	const char *word;        /* what was given (not NUL-terminated) */
	size_t len;
	size_t best;             /* the nearest distance so far */
	size_t n;                /* names at that distance */
	const char *names[SR_SUGGEST_MAX];
};

void sr_suggest_init(struct sr_suggest *s, const char *word, size_t len);
/* Consider one name of the table (NULL: none). */
void sr_suggest_add(struct sr_suggest *s, const char *name);
/* "; did you mean 'diff'?" (each name after prefix, "--" for an
 * option), "... 'export' or 'explain'?", or "" when no name is close
 * enough.  Returns buf. */
const char *sr_suggest_hint(const struct sr_suggest *s, const char *prefix,
			    char *buf, size_t len);
/* The edit distance of a[0..an) and b[0..bn) as above, without the
 * prefix rule; SIZE_MAX when either is longer than 64 characters. */
size_t sr_edit_distance(const char *a, size_t an, const char *b, size_t bn);

#endif
