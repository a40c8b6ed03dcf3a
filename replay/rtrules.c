/*
 * rtrules: the --rt rules (replay/rtrules.h), compiled once with pcre2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/regex.h"
#include "replay/rtrules.h"

struct rule {
	struct sr_regex *re;
	int prio;
	const char *spec;       /* as given, for messages */
};

struct sr_rtrules {
	struct rule *r;
	size_t n;
};

/*
 * The one rule for REGEX[:PRIO]: the ':' that splits off a priority is
 * the spec's last one not written \: and not followed by a ')' or ']'
 * (such a ':' sits inside a group or a class of the regex: (?:a|b),
 * [[:alpha:]]).  *colon: that ':', or NULL when there is none.
 */
static const char *prio_colon(const char *spec)
{
	const char *c = strrchr(spec, ':');

	while (c) {
		size_t bs = 0;

		for (const char *b = c; b > spec && b[-1] == '\\'; b--)
			bs++;
		if (!(bs & 1))
			break;
		/* escaped: look further left */
		c = c == spec ? NULL : (const char *)memrchr(spec, ':',
							      (size_t)(c - spec));
	}
	if (c && strpbrk(c + 1, ")]"))
		return NULL;
	return c;
}

/* "1".."99" in decimal digits: the value, else 0. */
static int prio_value(const char *p)
{
	size_t n = strlen(p);

	if (n == 0 || n > 2 || strspn(p, "0123456789") != n)
		return 0;
	return atoi(p);
}

int sr_rtrules_new(struct sr_rtrules **out, const char *const *specs,
		   size_t n, struct sr_diag *d)
{
	struct sr_rtrules *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r || (n && !(r->r = calloc(n, sizeof(*r->r))))) {
		free(r);
		return sr_oom(d);
	}
	for (size_t i = 0; i < n; i++) {
		struct rule *u = &r->r[i];
		const char *colon = prio_colon(specs[i]);
		size_t len, off;
		char msg[256], q[512];
		int rc;

		r->n = i + 1;
		u->spec = specs[i];
		sr_quote(q, sizeof(q), specs[i], strlen(specs[i]));
		u->prio = SR_RT_DEFAULT_PRIO;
		len = colon ? (size_t)(colon - specs[i]) : strlen(specs[i]);
		if (colon && !(u->prio = prio_value(colon + 1))) {
			char p[512];

			sr_rtrules_free(r);
			return sr_fail(d, SR_EUSAGE, "--rt '%s': expected a "
				       "SCHED_RR priority from 1 to 99 after "
				       "the last ':', got '%s' (a ':' the name "
				       "holds is written '\\:' in the regex)",
				       q, sr_quote(p, sizeof(p), colon + 1,
						   strlen(colon + 1)));
		}
		if (!len) {
			sr_rtrules_free(r);
			return sr_fail(d, SR_EUSAGE, "--rt '%s': expected "
				       "REGEX[:PRIO] (a pcre2 pattern on the "
				       "task's name)", q);
		}
		rc = sr_regex_new(&u->re, specs[i], len, msg, sizeof(msg),
				  &off);
		if (rc) {
			sr_rtrules_free(r);
			if (rc != SR_EUSAGE)
				return sr_oom(d);
			return sr_fail(d, SR_EUSAGE, "--rt '%s': at offset %zu: "
				       "%s", q, off, msg);
		}
	}
	*out = r;
	return SR_OK;
}

int sr_rtrules_rule(const struct sr_rtrules *r, size_t i, const char *comm,
		    char *why, size_t whylen)
{
	int m = sr_regex_match(r->r[i].re, comm);
	char spec[512], name[256], err[256];

	if (m >= 0)
		return m;
	snprintf(why, whylen, "--rt '%s': on the task name '%s': %s",
		 sr_quote(spec, sizeof(spec), r->r[i].spec,
			  strlen(r->r[i].spec)),
		 sr_quote(name, sizeof(name), comm, strlen(comm)),
		 sr_regex_why(err, sizeof(err), m));
	return -1;
}

int sr_rtrules_match(const struct sr_rtrules *r, const char *comm,
		     char *why, size_t whylen)
{
	if (!r || !comm)
		return 0;
	for (size_t i = 0; i < r->n; i++) {
		int m = sr_rtrules_rule(r, i, comm, why, whylen);

		if (m)
			return m < 0 ? -1 : r->r[i].prio;
	}
	return 0;
}

size_t sr_rtrules_count(const struct sr_rtrules *r)
{
	return r ? r->n : 0;
}

const char *sr_rtrules_spec(const struct sr_rtrules *r, size_t i)
{
	return r->r[i].spec;
}

void sr_rtrules_free(struct sr_rtrules *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		sr_regex_free(r->r[i].re);
	free(r->r);
	free(r);
}
