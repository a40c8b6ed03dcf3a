/*
 * rtrules: the --rt rules (replay/rtrules.h), compiled once with pcre2.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/regex.h"
#include "replay/rtrules.h"

struct rule {
	struct sr_regex *re;
	int prio;
};

struct sr_rtrules {
	struct rule *r;
	size_t n;
};

/* A trailing ":PRIO" (digits only) splits off; *len is the regex's. */
static int split_prio(const char *spec, size_t *len, const char **prio)
{
	const char *colon = strrchr(spec, ':');
	size_t n = strlen(spec);

	*len = n;
	*prio = NULL;
	if (!colon || !colon[1])
		return 0;
	for (const char *c = colon + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	*len = (size_t)(colon - spec);
	*prio = colon + 1;
	return 0;
}

int sr_rtrules_new(struct sr_rtrules **out, const char *const *specs,
		   size_t n, struct sr_diag *d)
{
	struct sr_rtrules *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r || (n && !(r->r = calloc(n, sizeof(*r->r))))) {
		free(r);
		return sr_fail(d, SR_EINTERNAL, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		struct rule *u = &r->r[i];
		const char *prio;
		size_t len, off;
		char msg[256];
		int rc;

		r->n = i + 1;
		split_prio(specs[i], &len, &prio);
		u->prio = SR_RT_DEFAULT_PRIO;
		if (prio) {
			long v = strlen(prio) > 3 ? 0 : strtol(prio, NULL, 10);

			if (v < 1 || v > 99) {
				sr_rtrules_free(r);
				return sr_fail(d, SR_EUSAGE, "--rt %s: expected a "
					       "SCHED_RR priority from 1 to 99 "
					       "after the ':', got '%s'",
					       specs[i], prio);
			}
			u->prio = (int)v;
		}
		if (!len) {
			sr_rtrules_free(r);
			return sr_fail(d, SR_EUSAGE, "--rt %s: expected "
				       "REGEX[:PRIO] (a pcre2 pattern on the "
				       "task's name)", specs[i]);
		}
		rc = sr_regex_new(&u->re, specs[i], len, msg, sizeof(msg),
				  &off);
		if (rc) {
			sr_rtrules_free(r);
			if (rc != SR_EUSAGE)
				return sr_fail(d, SR_EINTERNAL,
					       "out of memory");
			return sr_fail(d, SR_EUSAGE, "--rt %s: at offset %zu: "
				       "%s", specs[i], off, msg);
		}
	}
	*out = r;
	return SR_OK;
}

int sr_rtrules_match(struct sr_rtrules *r, const char *comm)
{
	if (!r || !comm)
		return 0;
	for (size_t i = 0; i < r->n; i++)
		if (sr_regex_match(r->r[i].re, comm))
			return r->r[i].prio;
	return 0;
}

size_t sr_rtrules_count(const struct sr_rtrules *r)
{
	return r ? r->n : 0;
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
