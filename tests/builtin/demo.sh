#!/bin/sh
# make demo's first screen (demo.sh on the bundled mixed sample, with the
# binary under test): in its first 40 lines the verdict, once, a line per
# group of tasks with its word, and the rule line that chose the words;
# no line of the whole output over 100 columns; the files it says it
# wrote are there.
. tests/lib/lib.sh

[ -f traces/mixed.perf.txt.gz ] || fail "no traces/mixed.perf.txt.gz"
rc=0
OUT="$T/demo" SCHEDREPLAY="$SR" sh ./demo.sh >"$T/demo.txt" 2>"$T/err" || rc=$?
nchecks=$((nchecks + 1))
[ $rc -eq 0 ] || [ $rc -eq 69 ] || { cat "$T/err" >&2; fail "demo.sh: exit $rc"; }
head -n 40 "$T/demo.txt" >"$T/first"
# the verdict, once in the whole output, within the first screen
nchecks=$((nchecks + 1))
[ "$(grep -c '^verdict: ' "$T/demo.txt")" = 1 ] ||
	fail "the verdict $(grep -c '^verdict: ' "$T/demo.txt") times, not once"
nchecks=$((nchecks + 1))
grep -q '^verdict: o11int against stock$' "$T/first" || fail "no verdict in the first 40 lines"
# a line per group: its word, then its first figure
nchecks=$((nchecks + 1))
[ "$(sed -n '/^verdict: /,/^  rule: /p' "$T/first" |
	grep -Ec '^  [a-z]+: (better|worse|unchanged) under o11int: (([0-9.]+ ms )?deadlines met|done|p99) ')" -ge 4 ] ||
	fail "fewer than 4 group lines: $(sed -n '/^verdict: /,/^  rule: /p' "$T/first")"
# the rule, printed from the constants (compare/verdict-rule.h)
nchecks=$((nchecks + 1))
grep -q '^  rule: the first figure decides: p99 10% & 0\.1 ms (20+ waits), missed 25% & 0\.5 pt, done 1% & 10 ms$' "$T/first" ||
	fail "no rule line in the first 40 lines"
nchecks=$((nchecks + 1))
awk 'length($0) > 100 { print NR ": " length($0) " columns"; bad = 1 } END { exit bad }' "$T/demo.txt" >&2 ||
	fail "demo lines over 100 columns"
for f in diff.txt diff.tsv diff.json replay/stock/summary.tsv; do
	nchecks=$((nchecks + 1))
	[ -s "$T/demo/$f" ] || fail "demo wrote no $f"
done
if [ $rc -eq 0 ]; then
	nchecks=$((nchecks + 1))
	[ -s "$T/demo/report/index.html" ] || fail "demo wrote no report"
fi
done_ok
