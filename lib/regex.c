/*
 * regex: pcre2 patterns on task names (lib/regex.h).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/regex.h"

struct sr_regex {
	pcre2_code *code;
	pcre2_match_data *md;
	char *pat;              /* for messages */
};

int sr_regex_new(struct sr_regex **out, const char *pat, size_t len,
		 char *why, size_t whylen, size_t *off)
{
	struct sr_regex *re = calloc(1, sizeof(*re));
	PCRE2_SIZE o = 0;
	int err;

	*out = NULL;
	*off = 0;
	if (!re)
		return SR_ENOMEM;
	if (len == SR_REGEX_NUL)
		len = strlen(pat);
	re->pat = malloc(len + 1);
	if (!re->pat) {
		free(re);
		return SR_ENOMEM;
	}
	memcpy(re->pat, pat, len);
	re->pat[len] = '\0';
	re->code = pcre2_compile((PCRE2_SPTR)pat, len, 0, &err, &o, NULL);
	if (!re->code) {
		sr_regex_free(re);
		/* pcre2 says it ran out of memory as a compile error */
		if (err == PCRE2_ERROR_HEAP_FAILED)
			return SR_ENOMEM;
		pcre2_get_error_message(err, (PCRE2_UCHAR *)why, whylen);
		*off = (size_t)o;
		return SR_EUSAGE;
	}
	pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE); /* best effort */
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	if (!re->md) {
		sr_regex_free(re);
		return SR_ENOMEM;
	}
	*out = re;
	return SR_OK;
}

/* A name longer than the copy (never a kernel comm) is matched as it is. */
int sr_regex_match(const struct sr_regex *re, const char *s)
{
	_Alignas(32) char buf[128] = { 0 };
	size_t n = strlen(s);
	int rc;

	if (n + 32 <= sizeof(buf)) {
		memcpy(buf, s, n);
		s = buf;
	}
	rc = pcre2_match(re->code, (PCRE2_SPTR)s, n, 0, 0, re->md, NULL);
	if (rc >= 0)
		return 1;
	return rc == PCRE2_ERROR_NOMATCH ? 0 : rc;
}

const char *sr_regex_pattern(const struct sr_regex *re)
{
	return re->pat;
}

char *sr_regex_why(char *buf, size_t n, int err)
{
	char msg[160];

	if (pcre2_get_error_message(err, (PCRE2_UCHAR *)msg, sizeof(msg)) < 0)
		snprintf(msg, sizeof(msg), "pcre2 could not match");
	snprintf(buf, n, "%s (error %d; an error, not a mismatch)", msg, err);
	return buf;
}

int sr_regex_fail(struct sr_diag *d, const char *what, const char *s,
		  int err)
{
	char name[256], why[256];

	sr_quote(name, sizeof(name), s, strlen(s));
	if (err == PCRE2_ERROR_NOMEMORY)
		return sr_fail(d, SR_ENOMEM, "%s: on the task name '%s': out of "
			       "memory", what, name);
	return sr_fail(d, SR_EUSAGE, "%s: on the task name '%s': %s", what,
		       name, sr_regex_why(why, sizeof(why), err));
}

int sr_regex_decide(const struct sr_regex *re, const char *opt,
		    const char *s, struct sr_diag *d)
{
	int m = sr_regex_match(re, s);

	if (m < 0) {
		char q[512], what[600];

		snprintf(what, sizeof(what), "%s '%s'", opt,
			 sr_quote(q, sizeof(q), re->pat, strlen(re->pat)));
		sr_regex_fail(d, what, s, m);
	}
	return m;
}

void sr_regex_free(struct sr_regex *re)
{
	if (!re)
		return;
	if (re->md)
		pcre2_match_data_free(re->md);
	if (re->code)
		pcre2_code_free(re->code);
	free(re->pat);
	free(re);
}
