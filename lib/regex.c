/*
 * regex: pcre2 patterns on task names (lib/regex.h).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "lib/diag.h"
#include "lib/regex.h"

struct sr_regex {
	pcre2_code *code;
	pcre2_match_data *md;
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
		return SR_EINTERNAL;
	re->code = pcre2_compile((PCRE2_SPTR)pat,
				 len == SR_REGEX_NUL ? PCRE2_ZERO_TERMINATED : len,
				 0, &err, &o, NULL);
	if (!re->code) {
		pcre2_get_error_message(err, (PCRE2_UCHAR *)why, whylen);
		*off = (size_t)o;
		free(re);
		return SR_EUSAGE;
	}
	pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE); /* best effort */
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	if (!re->md) {
		sr_regex_free(re);
		return SR_EINTERNAL;
	}
	*out = re;
	return SR_OK;
}

/* A name longer than the copy (never a kernel comm) is matched as it is. */
bool sr_regex_match(const struct sr_regex *re, const char *s)
{
	_Alignas(32) char buf[128] = { 0 };
	size_t n = strlen(s);

	if (n + 32 <= sizeof(buf)) {
		memcpy(buf, s, n);
		s = buf;
	}
	return pcre2_match(re->code, (PCRE2_SPTR)s, n, 0, 0, re->md,
			   NULL) >= 0;
}

void sr_regex_free(struct sr_regex *re)
{
	if (!re)
		return;
	if (re->md)
		pcre2_match_data_free(re->md);
	if (re->code)
		pcre2_code_free(re->code);
	free(re);
}
