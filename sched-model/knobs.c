/*
 * knobs: tunings of a policy (sched-model/knobs.h): setting knobs from
 * text with their ranges checked, derived defaults, labels, and the
 * configured policy a run's runqueues are made from.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/suggest.h"
#include "sched-model/knobs.h"

size_t sm_knob_count(const struct sm_policy *p)
{
	size_t n = 0;

	if (p->knobs)
		while (p->knobs[n].name)
			n++;
	return n;
}

int sm_knob_find(const struct sm_policy *p, const char *name)
{
	for (size_t i = 0, n = sm_knob_count(p); i < n; i++)
		if (!strcmp(p->knobs[i].name, name))
			return (int)i;
	return -1;
}

const char *sm_knob_hint(const struct sm_policy *p, const char *name,
			 char *buf, size_t len)
{
	struct sr_suggest s;

	sr_suggest_init(&s, name, strlen(name));
	for (const struct sm_policy *const *q = sm_policies; *q; q++)
		if (!p || *q == p)
			for (size_t i = 0, n = sm_knob_count(*q); i < n; i++)
				sr_suggest_add(&s, (*q)->knobs[i].name);
	return sr_suggest_hint(&s, "", buf, len);
}

void sm_tuning_init(struct sm_tuning *t, const struct sm_policy *p)
{
	memset(t, 0, sizeof(*t));
	t->policy = p;
	for (size_t i = 0, n = sm_knob_count(p); i < n && i < SM_MAX_KNOBS; i++)
		t->val[i] = p->knobs[i].def;
	snprintf(t->label, sizeof(t->label), "%s", p->name);
}

static int parse_long(const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

static int range_error(const struct sm_policy *p, const struct sm_knob *k,
		       const char *value, struct sr_diag *d)
{
	return sr_fail(d, SR_EUSAGE, "%s=%s: %s's %s takes an integer from "
		       "%ld to %ld (%s; default %ld)", k->name, value, p->name,
		       k->name, k->min, k->max, k->unit, k->def);
}

int sm_tuning_set(struct sm_tuning *t, const char *name, const char *value,
		  struct sr_diag *d)
{
	int i = sm_knob_find(t->policy, name);
	const struct sm_knob *k;
	long v;
	char hint[SR_SUGGEST_HINT];

	if (i < 0)
		return sr_fail(d, SR_EUSAGE, "%s=%s: %s has no knob %s "
			       "(`schedreplay policies --knobs %s` lists "
			       "them)%s", name, value, t->policy->name, name,
			       t->policy->name,
			       sm_knob_hint(t->policy, name, hint,
					    sizeof(hint)));
	k = &t->policy->knobs[i];
	if (parse_long(value, &v) || v < k->min || v > k->max)
		return range_error(t->policy, k, value, d);
	t->val[i] = v;
	t->set |= 1u << i;
	return SR_OK;
}

/* Split "NAME=VALUE" into its two parts (copied into name, at most len). */
static int split_set(const char *s, char *name, size_t len,
		     const char **value, struct sr_diag *d)
{
	const char *eq = strchr(s, '=');

	if (!eq || eq == s || !eq[1] || (size_t)(eq - s) >= len)
		return sr_fail(d, SR_EUSAGE, "--set %s: expected NAME=VALUE, "
			       "e.g. MAX_SLEEP_AVG=2000", s);
	memcpy(name, s, (size_t)(eq - s));
	name[eq - s] = 0;
	*value = eq + 1;
	return SR_OK;
}

int sm_tuning_parse(struct sm_tuning *t, const char *spec, struct sr_diag *d)
{
	char buf[SM_LABEL_MAX], hint[SR_SUGGEST_HINT];
	char *colon, *item, *save = NULL;
	const struct sm_policy *p;

	if (strlen(spec) >= sizeof(buf))
		return sr_fail(d, SR_EUSAGE, "policy '%.40s...': too long",
			       spec);
	strcpy(buf, spec);
	colon = strchr(buf, ':');
	if (colon)
		*colon = 0;
	p = sm_policy_find(buf);
	if (!p)
		return sr_fail(d, SR_EUSAGE, "unknown policy '%s' (`schedreplay "
			       "policies` lists them)%s", buf,
			       sm_policy_hint(buf, hint, sizeof(hint)));
	sm_tuning_init(t, p);
	if (!colon)
		return SR_OK;
	if (!colon[1])
		return sr_fail(d, SR_EUSAGE, "policy '%s': expected knobs after "
			       "':', e.g. %s:NAME=VALUE", spec, p->name);
	for (item = strtok_r(colon + 1, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char name[64];
		const char *value;

		if (split_set(item, name, sizeof(name), &value, d) ||
		    sm_tuning_set(t, name, value, d))
			return d->code;
	}
	return SR_OK;
}

int sm_tuning_apply_sets(struct sm_tuning *t, const char *const *sets,
			 size_t nsets, bool override, struct sr_diag *d)
{
	for (size_t i = 0; i < nsets; i++) {
		char name[64];
		const char *value;
		int k;

		if (split_set(sets[i], name, sizeof(name), &value, d))
			return d->code;
		k = sm_knob_find(t->policy, name);
		if (k < 0 || (!override && (t->set & (1u << k))))
			continue;
		if (sm_tuning_set(t, name, value, d))
			return d->code;
	}
	return SR_OK;
}

int sm_sets_check(const char *const *sets, size_t nsets,
		  const struct sm_policy *const *pols, size_t npols,
		  struct sr_diag *d)
{
	for (size_t i = 0; i < nsets; i++) {
		char name[64];
		const char *value;
		bool found = false;

		if (split_set(sets[i], name, sizeof(name), &value, d))
			return d->code;
		for (size_t j = 0; j < npols && !found; j++)
			found = pols[j] && sm_knob_find(pols[j], name) >= 0;
		if (!found) {
			char list[160] = "", hint[SR_SUGGEST_HINT];
			size_t n = 0;

			for (const struct sm_policy *const *p = sm_policies;
			     *p && n < sizeof(list); p++)
				if (sm_knob_find(*p, name) >= 0)
					n += (size_t)snprintf(list + n,
						sizeof(list) - n, "%s%s",
						n ? ", " : "", (*p)->name);
			if (n)
				return sr_fail(d, SR_EUSAGE, "--set %s: no policy "
					       "of this run has a knob %s (%s "
					       "have)", sets[i], name, list);
			return sr_fail(d, SR_EUSAGE, "--set %s: no policy has a "
				       "knob %s (`schedreplay policies "
				       "--knobs` lists them)%s", sets[i], name,
				       sm_knob_hint(NULL, name, hint,
						    sizeof(hint)));
		}
	}
	return SR_OK;
}

void sm_tuning_derive(struct sm_tuning *t, const char *name, long v)
{
	int i = sm_knob_find(t->policy, name);

	if (i >= 0 && !(t->set & (1u << i)))
		t->val[i] = v;
}

bool sm_tuning_is_set(const struct sm_tuning *t, const char *name)
{
	int i = sm_knob_find(t->policy, name);

	return i >= 0 && (t->set >> i & 1u);
}

long sm_tuning_get(const struct sm_tuning *t, const char *name, long fallback)
{
	int i = sm_knob_find(t->policy, name);

	return i < 0 ? fallback : t->val[i];
}

int sm_tuning_finish(struct sm_tuning *t, struct sr_diag *d)
{
	const struct sm_policy *p = t->policy;
	size_t n = sm_knob_count(p), len;
	char why[200];

	if (p->knob_derive)
		p->knob_derive(t);
	for (size_t i = 0; i < n; i++) {
		const struct sm_knob *k = &p->knobs[i];

		if (t->val[i] < k->min || t->val[i] > k->max)
			return sr_fail(d, SR_EUSAGE, "%s: the derived %s = %ld "
				       "(%s) is outside %ld to %ld: set it too",
				       t->label[0] ? p->name : "?", k->name,
				       t->val[i], k->derived ? k->derived : "",
				       k->min, k->max);
	}
	if (p->knob_check && p->knob_check(t, why, sizeof(why)))
		return sr_fail(d, SR_EUSAGE, "%s: %s", p->name, why);
	len = (size_t)snprintf(t->label, sizeof(t->label), "%s", p->name);
	for (size_t i = 0; i < n; i++) {
		if (!(t->set & (1u << i)))
			continue;
		len += (size_t)snprintf(t->label + len, len < sizeof(t->label) ?
					sizeof(t->label) - len : 0, "%c%s=%ld",
					len == strlen(p->name) ? ':' : ',',
					p->knobs[i].name, t->val[i]);
	}
	if (len >= sizeof(t->label))
		return sr_fail(d, SR_EUSAGE, "%s: the tuning's label is longer "
			       "than %d characters", p->name, SM_LABEL_MAX - 1);
	return SR_OK;
}

void sm_tuning_store(const struct sm_tuning *t, void *params)
{
	for (size_t i = 0, n = sm_knob_count(t->policy); i < n; i++) {
		long *slot = (long *)(void *)((char *)params +
					      t->policy->knobs[i].off);

		*slot = t->val[i];
	}
}

struct sm_sched *sm_sched_new(const struct sm_policy *p,
			      const struct sm_tuning *t)
{
	struct sm_sched *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->policy = p;
	if (t)
		s->tuning = *t;
	else
		sm_tuning_init(&s->tuning, p);
	if (p->sched_init && p->sched_init(s)) {
		free(s);
		return NULL;
	}
	return s;
}

void sm_sched_free(struct sm_sched *s)
{
	if (!s)
		return;
	if (s->policy->sched_fini)
		s->policy->sched_fini(s);
	else
		free(s->priv);
	free(s);
}

void *sm_sched_priv_copy(struct sm_sched *s, const void *base, size_t size,
			 size_t params)
{
	char *r = malloc(size);

	if (r) {
		memcpy(r, base, size);
		sm_tuning_store(&s->tuning, r + params);
	}
	s->priv = r;
	return r;
}
