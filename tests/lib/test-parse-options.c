/*
 * test-parse-options: lib/parse-options on one table of every kind of
 * option: the accepted forms (--opt=v, --opt v, -ov, -o v, clustered
 * flags, --, - as an operand, options after operands), what is refused
 * and how (unknown, missing value, value on a flag, abbreviation, extra
 * operand, out-of-range or unit-less numbers, bad choice, list overflow),
 * the checked number parser with units, and the help text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse-options.h"
#include "tests/lib/test.h"

struct vals {
	bool flag, quiet;
	const char *str;
	const char *list[2];
	size_t nlist;
	int choice;
	int format;
	int small;
	int64_t ns;
	size_t big;
	const char *cb_arg;
};

static int cb(const struct po_option *opt, const char *arg, struct sr_diag *d)
{
	struct vals *v = opt->value;

	if (!strcmp(arg, "no"))
		return sr_fail(d, SR_EUSAGE, "--cb: no");
	v->cb_arg = arg;
	return SR_OK;
}

static const char *const colours[] = { "red", "green", "blue", NULL };

/* Parse a space-separated command line into v; the status. */
static int run(const char *line, struct vals *v, const char **ops, size_t *n,
	       struct sr_diag *d)
{
	const struct po_option opts[] = {
		OPT_GROUP("group one"),
		OPT_FLAG('f', "flag", &v->flag, "a flag"),
		OPT_FLAG('q', "quiet", &v->quiet, "quiet"),
		OPT_STRING('o', "output", &v->str, "FILE", "a string"),
		OPT_LIST(0, "item", v->list, &v->nlist, 2, "X", "a list"),
		OPT_GROUP("group two"),
		OPT_CHOICE(0, "colour", &v->choice, colours, "C", "a choice"),
		OPT_NUMBER(0, "small", &v->small, "N", "an int", -5, 100, NULL),
		OPT_NUMBER(0, "time", &v->ns, "T", "a time", 0, PO_NS_PER_S,
			   po_time_units),
		OPT_NUMBER('n', "big", &v->big, "N", "a size_t", 1,
			   1LL << 40, NULL),
		OPT_CALLBACK(0, "cb", v, "ARG", "a callback", cb),
		OPT_SET_INT(0, "tsv", &v->format, "as TSV", 1),
		OPT_SET_INT(0, "json", &v->format, "as JSON", 2),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "t",
		.operands = "FILE",
		.min_operands = 1,
		.max_operands = 2,
		.about = "About it.",
		.footer = "Foot.",
		.opts = opts,
	};
	char buf[512], *argv[32];
	int argc = 0;

	snprintf(buf, sizeof(buf), "t %s", line);
	for (char *s = strtok(buf, " "); s && argc < 31; s = strtok(NULL, " "))
		argv[argc++] = s;
	argv[argc] = NULL;
	memset(v, 0, sizeof(*v));
	*d = (struct sr_diag)SR_DIAG_INIT;
	/* the strings point into buf: copy what the checks read */
	{
		static char keep[512];
		int rc;

		rc = po_parse(&cmd, argc, argv, ops, n, d);
		memcpy(keep, buf, sizeof(buf));
		for (size_t i = 0; i < *n; i++)
			ops[i] = keep + (ops[i] - buf);
		if (v->str)
			v->str = keep + (v->str - buf);
		for (size_t i = 0; i < v->nlist; i++)
			v->list[i] = keep + (v->list[i] - buf);
		if (v->cb_arg)
			v->cb_arg = keep + (v->cb_arg - buf);
		return rc;
	}
}

static void test_accepted(void)
{
	struct vals v;
	struct sr_diag d;
	const char *ops[2];
	size_t n;

	CHECK_INT(run("in --flag --output=x --item a --item=b", &v, ops, &n, &d), SR_OK);
	CHECK(v.flag && !v.quiet);
	CHECK_STR(v.str, "x");
	CHECK_INT(v.nlist, 2);
	CHECK_STR(v.list[0], "a");
	CHECK_STR(v.list[1], "b");
	CHECK_INT(n, 1);
	CHECK_STR(ops[0], "in");

	CHECK_INT(run("-fq -ofile in", &v, ops, &n, &d), SR_OK);
	CHECK(v.flag && v.quiet);
	CHECK_STR(v.str, "file");
	CHECK_INT(run("-qo file in", &v, ops, &n, &d), SR_OK);
	CHECK(v.quiet && !v.flag);
	CHECK_STR(v.str, "file");
	CHECK_INT(run("in -o y", &v, ops, &n, &d), SR_OK);
	CHECK_STR(v.str, "y");

	/* -- ends options; - is an operand */
	CHECK_INT(run("-f -- -q", &v, ops, &n, &d), SR_OK);
	CHECK(v.flag && !v.quiet);
	CHECK_STR(ops[0], "-q");
	CHECK_INT(run("- --flag b", &v, ops, &n, &d), SR_OK);
	CHECK_INT(n, 2);
	CHECK_STR(ops[0], "-");
	CHECK_STR(ops[1], "b");

	/* a value that looks like an option is still a value */
	CHECK_INT(run("in --output --flag", &v, ops, &n, &d), SR_OK);
	CHECK_STR(v.str, "--flag");
	CHECK(!v.flag);

	CHECK_INT(run("in --colour=blue --small -5 --time=1.5ms -n 7 --cb=yes",
		      &v, ops, &n, &d), SR_OK);
	CHECK_INT(v.choice, 2);
	CHECK_INT(v.small, -5);
	CHECK_INT(v.ns, 1500000);
	CHECK_INT(v.big, 7);
	CHECK_STR(v.cb_arg, "yes");

	/* OPT_SET_INT: its value; the same one twice is no conflict */
	CHECK_INT(run("in --json", &v, ops, &n, &d), SR_OK);
	CHECK_INT(v.format, 2);
	CHECK_INT(run("in --tsv --tsv", &v, ops, &n, &d), SR_OK);
	CHECK_INT(v.format, 1);
}

static void test_refused(void)
{
	static const struct {
		const char *line, *msg;
	} cases[] = {
		{ "in --bogus", "t: unknown option '--bogus'" },
		{ "in --bogus=1", "t: unknown option '--bogus'" },
		{ "in -x", "t: unknown option '-x'" },
		{ "in -fx", "t: unknown option '-x'" },
		/* did you mean: "fla" begins "flag" (one edit); "--flga"
		   swaps two letters of it (one edit, 4 / 3 = 1 allowed);
		   "--bogus" is 5 edits from every name */
		{ "in --fla", "t: unknown option '--fla'; did you mean '--flag'?" },
		{ "in --flga", "t: unknown option '--flga'; did you mean '--flag'?" },
		{ "in --hepl", "t: unknown option '--hepl'; did you mean '--help'?" },
		{ "in --output", "t: --output expects a value" },
		{ "in -o", "t: -o expects a value" },
		{ "in --flag=1", "t: --flag takes no value" },
		{ "a b c", "t: expected at most 2 operands (FILE), got 'c' as well" },
		{ "--flag", "t: expected a FILE argument" },
		{ "in --item a --item b --item c", "t: --item at most 2 times" },
		{ "in --colour=pink", "--colour: expected red, green or blue, got 'pink'" },
		{ "in --colour=gren", "--colour: expected red, green or blue, got 'gren'; did you mean 'green'?" },
		{ "in --small 101", "--small: expected an integer from -5 to 100, got '101'" },
		{ "in --small 1.5", "--small: expected an integer from -5 to 100, got '1.5'" },
		{ "in --small=", "--small: expected an integer from -5 to 100, got ''" },
		{ "in --small 99999999999999999999", "--small: expected an integer from -5 to 100, got '99999999999999999999'" },
		{ "in -n 0", "--big: expected an integer from 1 to 1099511627776, got '0'" },
		{ "in --time 2s", "--time: expected a number from 0 to 1s with a unit among ns, us, ms, s (none: ns), got '2s'" },
		{ "in --time 1h", "--time: expected a number from 0 to 1s with a unit among ns, us, ms, s (none: ns), got '1h'" },
		{ "in --time 0.5ns", "--time: expected a number from 0 to 1s with a unit among ns, us, ms, s (none: ns), got '0.5ns'" },
		{ "in --time ms", "--time: expected a number from 0 to 1s with a unit among ns, us, ms, s (none: ns), got 'ms'" },
		{ "in --cb no", "--cb: no" },
		/* two options setting one variable: named in table order */
		{ "in --tsv --json", "t: --tsv and --json exclude each other" },
		{ "in --json --tsv", "t: --tsv and --json exclude each other" },
		{ "in --json=1", "t: --json takes no value" },
	};
	struct vals v;
	struct sr_diag d;
	const char *ops[2];
	size_t n;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_CTX("%s", cases[i].line);
		CHECK_INT(run(cases[i].line, &v, ops, &n, &d), SR_EUSAGE);
		CHECK_STR(d.msg, cases[i].msg);
	}
	test_ctx[0] = '\0';
}

static void test_help(void)
{
	struct vals v;
	struct sr_diag d;
	const char *ops[2];
	size_t n;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	FILE *saved = stdout;
	int rc;

	if (!f) {
		CHECK(f != NULL);
		return;
	}
	stdout = f;
	rc = run("in --flag --help --bogus", &v, ops, &n, &d);
	stdout = saved;
	fclose(f);
	CHECK_INT(rc, PO_HELP);
	CHECK(strstr(text, "usage: schedreplay t [OPTIONS] FILE\n\nAbout it.\n") == text);
	CHECK(strstr(text, "\ngroup one:\n  -f, --flag") != NULL);
	CHECK(strstr(text, "\n  -o, --output FILE         a string\n") != NULL);
	CHECK(strstr(text, "\n      --item X              a list\n") != NULL);
	CHECK(strstr(text, "\ngroup two:\n") != NULL);
	CHECK(strstr(text, "\n  -h, --help                this help\n\nFoot.\n") != NULL);
	free(text);
}

static void test_numbers(void)
{
	static const struct {
		const char *s;
		int64_t want;
	} ok[] = {
		{ "0", 0 }, { "2000", 2000 }, { "5us", 5000 }, { "1ms", 1000000 },
		{ "1s", 1000000000 }, { "0.25s", 250000000 }, { "1.5us", 1500 },
		{ "+7ns", 7 },
	};
	struct sr_diag d = SR_DIAG_INIT;
	int64_t x;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CHECK_CTX("%s", ok[i].s);
		x = -1;
		CHECK_INT(po_number("--t", ok[i].s, 0, PO_NS_PER_S, po_time_units,
				    &x, &d), SR_OK);
		CHECK_INT(x, ok[i].want);
	}
	test_ctx[0] = '\0';
	/* a bare number in ms where the table says so */
	CHECK_INT(po_number("--p", "16.7", 1, INT64_MAX, po_time_units_ms, &x,
			    &d), SR_OK);
	CHECK_INT(x, 16700000);
	CHECK_INT(po_number("--p", "0", 1, INT64_MAX, po_time_units_ms, &x, &d),
		  SR_EUSAGE);
	CHECK_STR(d.msg, "--p: expected a number of at least 1ns with a unit "
		  "among ns, us, ms, s (none: ms), got '0'");
}

int main(void)
{
	test_accepted();
	test_refused();
	test_help();
	test_numbers();
	return test_done("test-parse-options");
}
