/*
 * test-suggest: "did you mean" (lib/suggest.h): the edit distance, worked
 * out by hand, and which names a word is told.
 *
 * The distance counts inserting, deleting or changing a character and
 * swapping two neighbours as one edit each; a word may be told a name at
 * most max(1, its length / 3) edits away (a name it begins, when it has 3
 * characters or more, counting as one) and fewer edits than its length
 * (a one-letter word is told nothing: changing it keeps nothing of it);
 * only the nearest names, in the table's order, at most SR_SUGGEST_MAX.
 */
#include <stdint.h>
#include <string.h>

#include "lib/suggest.h"
#include "tests/lib/test.h"

static size_t dist(const char *a, const char *b)
{
	return sr_edit_distance(a, strlen(a), b, strlen(b));
}

static void test_distance(void)
{
	static const struct {
		const char *a, *b;
		size_t want;
		const char *why;
	} cases[] = {
		{ "", "", 0, "nothing" },
		{ "", "diff", 4, "four inserts" },
		{ "diff", "", 4, "four deletes" },
		{ "diff", "diff", 0, "the same" },
		{ "dif", "diff", 1, "one insert" },
		{ "difff", "diff", 1, "one delete" },
		{ "duff", "diff", 1, "one change" },
		{ "polciy", "policy", 1, "c and i swapped: one swap" },
		{ "ploicy", "policy", 1, "o and l swapped" },
		/* kitten -> sitten (k/s), sittin (e/i), sitting (+g) */
		{ "kitten", "sitting", 3, "the textbook case" },
		/* ca -> abc: a swap then an insert would be 2 only if the
		   swapped pair were edited again; optimal string
		   alignment forbids that: delete c, keep a, insert b c */
		{ "ca", "abc", 3, "no edit inside a swapped pair" },
		{ "abcd", "badc", 2, "two swaps" },
		{ "stok", "stock", 1, "one insert" },
		{ "eevfd", "eevdf", 1, "d and f swapped" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_CTX("%s -> %s: %s", cases[i].a, cases[i].b, cases[i].why);
		CHECK_INT(dist(cases[i].a, cases[i].b), cases[i].want);
		/* the distance is the same either way */
		CHECK_INT(dist(cases[i].b, cases[i].a), cases[i].want);
	}
	test_ctx[0] = '\0';
	/* longer than 64 characters: no distance (never a typo of ours) */
	{
		char longw[66];

		memset(longw, 'a', 65);
		longw[65] = '\0';
		CHECK(dist(longw, "a") == SIZE_MAX);
		longw[64] = '\0';
		CHECK_INT(dist(longw, "a"), 63);
	}
}

/* What a word is told, against the table names[] (NULL-terminated). */
static const char *told(const char *word, const char *const *names,
			const char *prefix, char *buf, size_t len)
{
	struct sr_suggest s;

	sr_suggest_init(&s, word, strlen(word));
	for (size_t i = 0; names[i]; i++)
		sr_suggest_add(&s, names[i]);
	return sr_suggest_hint(&s, prefix, buf, len);
}

static void test_hint(void)
{
	static const char *const cmds[] = {
		"record", "stats", "replay", "diff", "explain", "export",
		"map", "timehist", "help", "version", NULL,
	};
	static const struct {
		const char *word, *want, *why;
	} cases[] = {
		{ "dif", "; did you mean 'diff'?", "3 letters: 1 edit allowed" },
		{ "dfif", "; did you mean 'diff'?", "a swap" },
		{ "mpa", "; did you mean 'map'?", "a swap in 3 letters" },
		{ "mp", "; did you mean 'map'?", "2 letters: still 1 edit" },
		{ "m", "", "'m' -> 'map' is 2 edits, 1 allowed" },
		{ "x", "", "nothing within 1 edit" },
		{ "xyz", "", "'map' is 3 edits away" },
		/* "diffxyz": 7 letters allow 7 / 3 = 2 edits; diff is 3 */
		{ "diffxyz", "", "3 edits, 2 allowed" },
		{ "diffxy", "; did you mean 'diff'?", "2 edits, 2 allowed" },
		{ "diff", "", "a name itself is not suggested" },
		/* "rec" begins "record": one edit; "re" is too short to
		   count as a beginning, and 2 edits from "record" */
		{ "rec", "; did you mean 'record'?", "a beginning" },
		{ "re", "", "too short to be a beginning" },
		/* "exp" begins explain and export: both, table order */
		{ "exp", "; did you mean 'explain' or 'export'?", "two beginnings" },
		/* "exprot": export by a swap (1); explain 4 edits */
		{ "exprot", "; did you mean 'export'?", "the nearest only" },
		/* "replya": 6 letters, 2 allowed; replay 1 (swap) */
		{ "replya", "; did you mean 'replay'?", "a swap" },
		/* "timehst": 7 letters, 2 allowed: one insert */
		{ "timehst", "; did you mean 'timehist'?", "an insert" },
		/* "tats": stats 1 (insert), 4 letters allow 1 */
		{ "tats", "; did you mean 'stats'?", "a letter missing first" },
		/* "versiom" 1 change; "verison" a swap */
		{ "verison", "; did you mean 'version'?", "a swap" },
		{ "hlep", "; did you mean 'help'?", "a swap" },
	};
	char buf[SR_SUGGEST_HINT];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_CTX("%s: %s", cases[i].word, cases[i].why);
		CHECK_STR(told(cases[i].word, cmds, "", buf, sizeof(buf)),
			  cases[i].want);
	}
	test_ctx[0] = '\0';
	/* an option's names with their "--" */
	{
		static const char *const opts[] = { "policy", "tree", "only",
						    "only-tree", NULL };

		CHECK_STR(told("polciy", opts, "--", buf, sizeof(buf)),
			  "; did you mean '--policy'?");
		/* "onl" begins only and only-tree; only is also 1 insert */
		CHECK_STR(told("onl", opts, "--", buf, sizeof(buf)),
			  "; did you mean '--only' or '--only-tree'?");
		CHECK_STR(told("only-tee", opts, "--", buf, sizeof(buf)),
			  "; did you mean '--only-tree'?");
	}
	/* more than SR_SUGGEST_MAX at the nearest distance: the first
	   SR_SUGGEST_MAX of the table, 'a' one change from each; a name
	   twice (an alias) said once */
	{
		static const char *const many[] = { "b", "c", "c", "d", "e",
						    "f", NULL };

		CHECK_INT(SR_SUGGEST_MAX, 4);
		/* one letter: 1 edit keeps nothing of it */
		CHECK_STR(told("a", many, "", buf, sizeof(buf)), "");
		CHECK_STR(told("ab", (const char *const[]){ "bb", "cb", "cb",
				"db", "eb", "fb", NULL }, "", buf, sizeof(buf)),
			  "; did you mean 'bb', 'cb', 'db' or 'eb'?");
	}
	/* a nearer name found later replaces the farther ones */
	{
		static const char *const t[] = { "abcdxx", "abcdex", NULL };

		/* "abcdef": abcdxx 2 changes, abcdex 1: 6 letters allow 2 */
		CHECK_STR(told("abcdef", t, "", buf, sizeof(buf)),
			  "; did you mean 'abcdex'?");
	}
	/* a buffer too small: cut, still a string */
	CHECK_STR(told("dif", cmds, "", buf, 8), "; did y");
}

int main(void)
{
	test_distance();
	test_hint();
	return test_done("test-suggest");
}
