/*
 * regex: a pcre2 pattern on task names, compiled once (JIT where the
 * library has it) and matched from a zeroed copy of the name: pcre2's
 * JIT reads whole words past a subject's end, and a name interned in a
 * string pool is followed by bytes never written (valgrind: a jump on
 * uninitialised values).  Every option that takes a regex on names
 * (--task, --exclude, --only, --tree, --rt, --group) matches here.
 *
 *	struct sr_regex *re;
 *	char why[160];
 *	size_t off;
 *	if (sr_regex_new(&re, pat, SR_REGEX_NUL, why, sizeof(why), &off))
 *		... SR_EUSAGE: why and off say what is wrong (the caller names
 *		    the option), SR_EINTERNAL: out of memory
 *	if (sr_regex_match(re, comm)) ...
 *	sr_regex_free(re);
 */
#ifndef SR_REGEX_H
#define SR_REGEX_H

#include <stdbool.h>
#include <stddef.h>

#define SR_REGEX_NUL ((size_t)-1)	/* len: the pattern is 0-terminated */

struct sr_regex;

int sr_regex_new(struct sr_regex **out, const char *pat, size_t len,
		 char *why, size_t whylen, size_t *off);
bool sr_regex_match(const struct sr_regex *re, const char *s);
void sr_regex_free(struct sr_regex *re);

#endif
