#!/bin/sh
# diff on the command line: the hand-written replay in tests/compare/data/
# hogplayer (README.md there works out the expected values), as a table,
# TSV and JSON; byte-identical reruns; usage and bad-input errors.
. tests/lib/lib.sh
need python3 python3
D=tests/compare/data/hogplayer

expect_status 0 "$SR" diff "$D"
expect_out '^schedreplay diff: hogplayer, stock \(A\) against o11int \(B\)$'
expect_out 'better under o11int: player \(200\) deadlines met 90\.0% -> 100\.0%'
expect_out "periodic player \(200\), every 10\.0 ms: deadlines met 90\.0% -> 100\.0% \(own clock 90\.0% -> 100\.0%\)\$"
expect_out 'batch work: 1 CPU-bound task \(hog x1\), 0\.092 s of CPU: done 0\.102 -> 0\.100 s \(-0\.002 s, -2\.0%\)'
# the player's change (-9.5 ms) sorts before the hog's (-1 ms)
first=$(grep -n '^player (200)' "$T/out" | head -n 1 | cut -d: -f1)
second=$(grep -n '^hog (100)' "$T/out" | head -n 1 | cut -d: -f1)
nchecks=$((nchecks + 1))
[ -n "$first" ] && [ -n "$second" ] && [ "$first" -lt "$second" ] || fail "player not sorted before hog"
expect_out '^ +o11int +10\.000 +11 +0\.000 +0\.000 +0\.000 +0\.000 +10\.0 +-9\.500 +0\.00$'
cp "$T/out" "$T/table1"
expect_status 0 "$SR" diff "$D"
expect_same "$T/out" "$T/table1"

# TSV: a header, one row per task, change and ratio of every figure
expect_status 0 "$SR" diff "$D" --tsv
nchecks=$((nchecks + 1))
[ "$(wc -l < "$T/out")" -eq 3 ] || fail "TSV: expected a header and 2 rows"
col() { # col NAME ROW: the value of column NAME in data row ROW (1-based)
	awk -F '\t' -v name="$1" -v row="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
		NR == row + 1 { print $c }' "$T/out"
}
for spec in "comm 1 player" "b_p99_delay_ms 1 0.000000" "a_p99_delay_ms 1 9.500000" \
	    "change_p99_delay_ms 1 -9.500000" "ratio_p99_delay_ms 1 0.0000" \
	    "a_deadlines_met_pct 1 90.000" "a_deadlines_met_own_pct 1 90.000" "b_desired_cpu_pct 1 100.000" \
	    "a_sd_delay_ms 1 2.371708" "a_ib_sd_delay_ms 1 3.734133" "a_late_wakeups 1 1" \
	    "ratio_wakeups 2 -" "class 2 batch" "p99_verdict 2 better" "a_finish_s 2 1.102000000"; do
	set -- $spec
	nchecks=$((nchecks + 1))
	got=$(col "$1" "$2")
	[ "$got" = "$3" ] || fail "TSV $1 row $2: got '$got', want '$3'"
done

# JSON: valid, deterministic
expect_status 0 "$SR" diff "$D" --json
cp "$T/out" "$T/json1"
expect_out '"reference": "observed"'
expect_out '"deadlines_met_pct": 90\.000'
expect_status 0 python3 -m json.tool "$T/json1"
expect_status 0 "$SR" diff "$D" --json
expect_same "$T/out" "$T/json1"

# --task, --period, --policy
expect_status 0 "$SR" diff "$D" --task '^hog$' --tsv
nchecks=$((nchecks + 1))
[ "$(wc -l < "$T/out")" -eq 2 ] || fail "--task: expected one row"
expect_status 0 "$SR" diff "$D" --period player=25 --tsv
nchecks=$((nchecks + 1))
[ "$(col period_ms 1)" = "25.000000" ] || fail "--period: period_ms $(col period_ms 1)"
expect_status 0 "$SR" diff "$D" --policy o11int --policy stock
expect_out 'worse under stock: player \(200\) deadlines met 100\.0% -> 90\.0%'

# three policies: the first is the baseline, each other against it, one
# table; TSV a row per task and compared policy, the baseline in policy_a
expect_status 0 "$SR" diff "$D" --policy stock --policy o11int --policy observed
expect_out '^schedreplay diff: hogplayer, stock \(the baseline\) against o11int and observed$'
expect_out '^  o11int against stock:$'
expect_out '^  observed against stock:$'
expect_out '^    better under o11int: player \(200\) deadlines met 90\.0% -> 100\.0%'
expect_out '^ +o11int +10\.000 +11 +0\.000 +0\.000 +0\.000 +0\.000 +10\.0 +-9\.500 +0\.00$'
expect_out '^ +observed +'
nchecks=$((nchecks + 1))
[ "$(grep -c '^  [a-z0-9]* against stock:$' "$T/out")" -eq 2 ] || fail "3 policies: expected 2 comparisons"
expect_status 0 "$SR" diff "$D" --policy stock --policy o11int --policy observed --tsv
cp "$T/out" "$T/tsv3"
nchecks=$((nchecks + 1))
[ "$(wc -l < "$T/tsv3")" -eq 5 ] || fail "3 policies TSV: expected a header and 4 rows"
nchecks=$((nchecks + 1))
[ "$(cut -f1,2,4 "$T/tsv3" | sed -n 2,5p | tr '\t\n' ' ;')" = "stock o11int player;stock observed player;stock o11int hog;stock observed hog;" ] ||
	fail "3 policies TSV: rows $(cut -f1,2,4 "$T/tsv3" | tr '\t\n' ' ;')"
# the stock/o11int rows are the two-policy diff's rows
expect_status 0 "$SR" diff "$D" --tsv
grep -v '	observed	' "$T/tsv3" >"$T/tsv2"
expect_same "$T/out" "$T/tsv2"
expect_status 0 "$SR" diff "$D" --policy stock --policy o11int --policy observed --json
cp "$T/out" "$T/json3"
expect_status 0 python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["baseline"] == "stock", j["baseline"]
assert j["policies"] == ["stock", "o11int", "observed"], j["policies"]
assert [c["policy"] for c in j["comparisons"]] == ["o11int", "observed"]
p = [t for t in j["tasks"] if t["comm"] == "player"][0]
assert sorted(p["figures"]) == ["o11int", "observed", "stock"]
assert sorted(p["change"]) == ["o11int", "observed"]
assert p["change"]["o11int"]["p99_delay_ms"] == -9.5, p["change"]["o11int"]
assert p["p99_verdict"]["o11int"] == "better"
' "$T/json3"
# colours: names in the policies' colours when asked, none in a file
expect_status 0 "$SR" diff "$D" --policy stock --policy o11int --color always
expect_out "$(printf '\033')\\[38;5;130mstock"
expect_out "$(printf '\033')\\[38;5;25mo11int"
expect_status 0 "$SR" diff "$D" --color auto
nchecks=$((nchecks + 1))
! grep -q "$(printf '\033')" "$T/out" || fail "--color auto: escapes in a pipe"
expect_status 0 env NO_COLOR=1 "$SR" diff "$D" --color auto
expect_status 64 "$SR" diff "$D" --color sometimes

# errors
expect_status 64 "$SR" diff "$D" --task '(x'
expect_err "expected a pcre2 regex, got an error at offset"
expect_status 64 "$SR" diff "$D" --policy stock
expect_err 'expected two --policy'
expect_status 64 "$SR" diff "$D" --tsv --json
expect_status 64 "$SR" diff "$D" --period player
expect_err 'expected COMM=MS'
expect_status 64 "$SR" diff
expect_status 66 "$SR" diff "$T/nothing-here"
expect_status 66 "$SR" diff "$D" --policy stock --policy test2-mm1
expect_err "hogplayer/test2-mm1: expected the replay output of policy 'test2-mm1'"
expect_status 65 "$SR" diff tests/compare/data/badtsv
expect_err "badtsv/stock/summary.tsv:3: expected a decimal number in column p99_delay_ms, got 'fast'"
expect_status 0 "$SR" diff --help
expect_out '^usage: schedreplay diff \[OPTIONS\] TRACE$'

# --cpus: the headline says how many CPUs were replayed, and by how much
# the replay falls behind when the work does not fit them (the perf
# fixture was recorded on 2 CPUs; its work needs more than one)
P=tests/replay/data/perf-mix.perf.txt.gz
expect_status 0 "$SR" diff "$P" --cpus 1
expect_out '^  replayed on 1 CPU \(the recording used 2\)$'
expect_out '^  note: the trace.s work needs [0-9.]+ CPUs '
# (the text wraps at 100 columns; JSON keeps the line whole)
expect_status 0 "$SR" diff "$P" --cpus 1 --json
expect_out '"note: the trace.s work needs [0-9.]+ CPUs .*; replayed on 1 CPU it ends [0-9.]+ s after the recording under stock'
expect_status 0 "$SR" diff "$P"
expect_out '^  replayed on 2 CPUs \(as many as the recording used\)$'
grep -q '^  replayed with --' "$T/out" && fail "diff with the default rules names some"
# replay rules that are not the defaults are said in the headline
expect_status 0 "$SR" diff "$P" --external relative --cs-cost 1500 --warm 30
expect_out '^  replayed with --external relative, --cs-cost 1500ns, --warm 30 \(the other rules their defaults\)$'
expect_status 64 "$SR" diff "$D" --cpus 2
expect_err '--cpus needs the trace file, not the replay directory'
expect_status 64 "$SR" diff "$P" --cpus 0
expect_err 'cpus'
done_ok
