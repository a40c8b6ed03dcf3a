#!/bin/sh
# The recipes of docs/architecture.md ("Recipes"), followed to the letter
# in a scratch copy of the tree, each with a toy: a policy (one file and
# one row), an input format (its reader, its declaration, one row) and a
# command (its file, its declaration, one row).  Built, each must show up
# where the tables say: `schedreplay policies` and a replay under it, the
# colours and the policy table's own tests; --input-format's help, forced
# and detected, and the formats test; `help`, the command's --help, the
# man page and the completion words.
. tests/lib/lib.sh
. tests/lib/scratch.sh
S=$T/tree
sr_scratch "$S" || fail "cannot copy the tree"
cd "$S"

# ---- a policy: sched-model/toy.c and X(toy) ----
cat >sched-model/toy.c <<'EOC'
/* toy: O11int's rules under another name (tests/harness/recipes.sh). */
#include "sched-model/o1.h"
#include "sched-model/o1-tunables.h"

extern const struct sm_policy sm_policy_toy;

static const struct o1_rules toy_rules =
	O11_RULES(&sm_policy_toy, o11_slice_expired, .k = O11_CONSTS());

O1_POLICY_GLUE(toy, toy_rules)

const struct sm_policy sm_policy_toy = {
	.name = "toy",
	.aliases = { "toy-alias", NULL },
	.summary = "a toy policy of the recipe test",
	.colour = "#123456",
	.point = 42,
	.confidence = "model",
	O1_MM1_POLICY(toy),
	.knobs = o1_mm1_knobs,
	.has_credit = true,
};
EOC
sed -i 's/^#define SM_POLICY_LIST(X) \\$/&\n\tX(toy) \\/' sched-model/policies.c
grep -q 'X(toy)' sched-model/policies.c || fail "no SM_POLICY_LIST row to follow in sched-model/policies.c"

# ---- an input format: parse/fmt-toy.c, its declaration, one row ----
cat >parse/fmt-toy.c <<'EOC'
/* fmt-toy: native lines after a '#toy-trace' line (recipes.sh). */
#include <string.h>

#include "parse/format.h"

static int toy_detect(struct sr_fmtctx *c, const char *head, size_t n)
{
	return n >= 10 && !memcmp(head, "#toy-trace", 10) ? 200000 : 0;
}

static int toy_parse(struct sr_fmtctx *c, char *line, size_t len,
		     struct sr_raw *out)
{
	if (!c->native_magic && len >= 10 && !memcmp(line, "#toy-trace", 10)) {
		c->native_magic = 1;
		return SR_P_NONE;
	}
	return sr_fmt_native.parse(c, line, len, out);
}

const struct sr_fmt_ops sr_fmt_toy = {
	.detect = toy_detect,
	.parse = toy_parse,
	.peek = NULL,
	.expect = "toy lines",
};
EOC
sed -i 's/^extern const struct sr_fmt_ops sr_fmt_native;$/&\nextern const struct sr_fmt_ops sr_fmt_toy;/' parse/format.h
sed -i 's/^\t{ \.name = "ftrace", \.what = "ftrace", \.text = &sr_fmt_ftrace },$/&\n\t{ .name = "toy", .what = "toy trace", .text = \&sr_fmt_toy },/' parse/reader.c
grep -q sr_fmt_toy parse/format.h || fail "no declaration to follow in parse/format.h"
grep -q '"toy"' parse/reader.c || fail "no format row to follow in parse/reader.c"
{ echo '#toy-trace'; sed 1d tests/parse/data/native-small.txt; } >tests/parse/data/toy.txt
sed -i 's|^\tftrace) echo "$D/ftrace-3x.txt" ;;$|&\n\ttoy) echo "$D/toy.txt" ;;|' tests/parse/formats.sh

# ---- a command: builtin/toy.c, its declaration, one row ----
cat >builtin/toy.c <<'EOC'
/* builtin/toy: `schedreplay toy`, says hello (recipes.sh). */
#include <stdio.h>

#include "builtin.h"

int cmd_toy(int argc, char **argv, struct sr_diag *d)
{
	bool loud = false;
	const struct po_option opts[] = {
		OPT_FLAG(0, "loud", &loud, "say it louder"),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "toy",
		.min_operands = 0,
		.max_operands = 0,
		.about = "Says hello.",
		.opts = opts,
	};
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, NULL, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	puts(loud ? "HELLO" : "hello");
	return SR_OK;
}
EOC
sed -i 's/^int cmd_policies(int argc, char \*\*argv, struct sr_diag \*d);$/&\nint cmd_toy(int argc, char **argv, struct sr_diag *d);/' builtin.h
sed -i 's/^\t{ "policies", cmd_policies, "list the scheduler models" },$/&\n\t{ "toy", cmd_toy, "says hello" },/' schedreplay.c
grep -q cmd_toy builtin.h || fail "no declaration to follow in builtin.h"
grep -q cmd_toy schedreplay.c || fail "no command row to follow in schedreplay.c"

make -j2 --no-print-directory BUILD=build SAN=0 schedreplay \
	build/tests/sched-model/test-policies build/tests/compare/test-style \
	>"$T/make.log" 2>&1 || { tail -n 30 "$T/make.log" >&2; fail "the tree with the toys does not build"; }
SR=$S/schedreplay

# the policy
expect_status 0 "$SR" policies
expect_out '^toy +model +a toy policy of the recipe test$'
expect_status 0 "$SR" replay tests/parse/data/native-small.txt -o "$T/r" \
	--policy toy -q
nchecks=$((nchecks + 1))
[ -s "$T/r/toy/summary.tsv" ] || fail "no replay under toy"
expect_status 0 env SCHEDREPLAY="$SR" build/tests/sched-model/test-policies
expect_status 0 build/tests/compare/test-style
expect_status 0 env SCHEDREPLAY="$SR" sh tests/sched-model/policies.sh

# the format
expect_status 0 "$SR" stats --help
expect_out 'or toy \(default'
expect_status 0 "$SR" stats --tsv --input-format toy tests/parse/data/toy.txt
cp "$T/out" "$T/toy.tsv"
expect_status 0 "$SR" stats --tsv tests/parse/data/toy.txt
expect_same "$T/out" "$T/toy.tsv"
expect_status 0 "$SR" stats --tsv tests/parse/data/native-small.txt
expect_same "$T/out" "$T/toy.tsv"
expect_status 0 env SCHEDREPLAY="$SR" sh tests/parse/formats.sh

# the command
expect_status 0 "$SR" help
expect_out '^  toy +says hello$'
expect_status 0 "$SR" toy --loud
expect_out '^HELLO$'
expect_status 0 "$SR" toy --help
expect_out '^usage: schedreplay toy'
expect_out 'say it louder'
expect_status 0 "$SR" help --man
expect_out 'toy'
expect_out 'say it louder'
expect_status 0 "$SR" help --complete
expect_out '^toy'
done_ok
