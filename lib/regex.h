/*
 * regex: a pcre2 pattern on task names, compiled once (JIT where the
 * library has it) and matched from a zeroed copy of the name: pcre2's
 * JIT reads whole words past a subject's end, and a name interned in a
 * string pool is followed by bytes never written (valgrind: a jump on
 * uninitialised values).  Every option that takes a regex on names
 * (--task, --exclude, --only, --tree, --rt, --group) matches here.
 *
 * A match has three outcomes: the name matches, it does not, or pcre2
 * gave up (a match, depth or heap limit reached, the JIT stack full: a
 * pattern such as ^(a+)+$ backtracks exponentially).  The third is an
 * error, never a mismatch: read as "no match" it would silently select
 * the wrong tasks.  sr_regex_fail() says it, naming the option, the
 * pattern and the name.
 *
 *	struct sr_regex *re;
 *	char why[160];
 *	size_t off;
 *	if (sr_regex_new(&re, pat, SR_REGEX_NUL, why, sizeof(why), &off))
 *		... SR_EUSAGE: why and off say what is wrong (the caller names
 *		    the option), SR_ENOMEM: out of memory
 *	int m = sr_regex_match(re, comm);
 *	if (m < 0)
 *		return sr_regex_fail(d, "--task 'a+'", comm, m);
 *	if (m) ...
 *	sr_regex_free(re);
 */
#ifndef SR_REGEX_H
#define SR_REGEX_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/diag.h"

#define SR_REGEX_NUL ((size_t)-1)	/* len: the pattern is 0-terminated */

struct sr_regex;

int sr_regex_new(struct sr_regex **out, const char *pat, size_t len,
		 char *why, size_t whylen, size_t *off);
/* 1: s matches, 0: it does not, < 0: pcre2's error code (it could not
 * decide: an error, not a mismatch). */
int sr_regex_match(const struct sr_regex *re, const char *s);
/* The pattern as given to sr_regex_new. */
const char *sr_regex_pattern(const struct sr_regex *re);
/* Record err, what sr_regex_match() returned on s, in d as SR_EUSAGE:
 * "WHAT: on the task name 'S': match limit exceeded (error -47; an
 * error, not a mismatch)", WHAT naming the option and its pattern;
 * returns SR_EUSAGE (SR_ENOMEM if pcre2 ran out of memory). */
int sr_regex_fail(struct sr_diag *d, const char *what, const char *s,
		  int err);
/* sr_regex_match(re, s), an error recorded in d naming OPT and the
 * pattern ("--exclude 'PAT': on the task name ..."). */
int sr_regex_decide(const struct sr_regex *re, const char *opt,
		    const char *s, struct sr_diag *d);
/* pcre2's words for err and "(error N; an error, not a mismatch)". */
char *sr_regex_why(char *buf, size_t n, int err);
void sr_regex_free(struct sr_regex *re);

#endif
