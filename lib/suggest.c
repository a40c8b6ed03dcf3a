/*
 * suggest: the names nearest to a word not in a table (see suggest.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/suggest.h"

/* longest word or name compared; a longer one is never a typo of ours */
#define LEN_MAX 64

size_t sr_edit_distance(const char *a, size_t an, const char *b, size_t bn)
{
	/* three rows of the distance table: i - 2, i - 1, i */
	size_t row[3][LEN_MAX + 1];

	if (an > LEN_MAX || bn > LEN_MAX)
		return SIZE_MAX;
	for (size_t j = 0; j <= bn; j++)
		row[0][j] = j;
	for (size_t i = 1; i <= an; i++) {
		size_t *cur = row[i % 3], *up = row[(i - 1) % 3],
		       *up2 = row[(i + 1) % 3];

		cur[0] = i;
		for (size_t j = 1; j <= bn; j++) {
			size_t cost = a[i - 1] != b[j - 1], v;

			v = up[j - 1] + cost;             /* change */
			if (up[j] + 1 < v)
				v = up[j] + 1;            /* delete */
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;       /* insert */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && up2[j - 2] + 1 < v)
				v = up2[j - 2] + 1;       /* swap */
			cur[j] = v;
		}
	}
	return row[an % 3][bn];
}

void sr_suggest_init(struct sr_suggest *s, const char *word, size_t len)
{
	s->word = word;
	s->len = len;
	s->best = SIZE_MAX;
	s->n = 0;
}

void sr_suggest_add(struct sr_suggest *s, const char *name)
{
	size_t nl, dist, most = s->len / 3 ? s->len / 3 : 1;

	if (!name || !s->len)
		return;
	nl = strlen(name);
	dist = sr_edit_distance(s->word, s->len, name, nl);
	if (dist == 0)
		return; /* the word itself: not a suggestion */
	if (s->len >= 3 && s->len < nl && !strncmp(name, s->word, s->len))
		dist = 1;
	if (dist > most || dist >= s->len || dist > s->best)
		return; /* too far, or nothing of the word kept */
	if (dist < s->best) {
		s->best = dist;
		s->n = 0;
	}
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], name))
			return; /* an alias twice */
	if (s->n < SR_SUGGEST_MAX)
		s->names[s->n++] = name;
}

const char *sr_suggest_hint(const struct sr_suggest *s, const char *prefix,
			    char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < s->n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s'%s%.64s'",
				      i == 0 ? "; did you mean " :
				      i + 1 == s->n ? " or " : ", ",
				      prefix, s->names[i]);
	if (s->n && o < len)
		snprintf(buf + o, len - o, "?");
	return buf;
}
