#!/bin/sh
# `schedreplay fidelity`: its figures equal what an independent reading of
# `replay`'s summary files gives (the median over tasks with 20 switches
# or more recorded of |log2((replay + 0.01) / (recorded + 0.01))| of p50
# and p99, the switch ratio); the default policy is the recording
# kernel's model; --tsv, --tasks, --json; bad input.
. tests/lib/lib.sh
S=traces/x.perf.txt.gz

# the figures from replay's files, by awk (not the C code under test)
figs() { # POLICY DIR
	gawk -F'\t' -v P="$1" '
	FNR == 1 { f++; next }
	f == 1 { o50[$1 FS $2] = $7; o99[$1 FS $2] = $9; osw[$1 FS $2] = $4; os += $4 }
	f == 2 { r50[$1 FS $2] = $7; r99[$1 FS $2] = $9; rs += $4 }
	function ab(x) { return x < 0 ? -x : x }
	function l2(a, b) { return ab(log((a + 0.01) / (b + 0.01)) / log(2)) }
	END {
		n = 0
		for (k in o50) if (osw[k] >= 20 && (k in r50)) {
			n++; a[n] = l2(r50[k], o50[k]); b[n] = l2(r99[k], o99[k])
		}
		asort(a); asort(b); m = int((n + 1) / 2)
		p50 = n % 2 ? a[m] : (a[m] + a[m + 1]) / 2
		p99 = n % 2 ? b[m] : (b[m] + b[m + 1]) / 2
		printf "%d %.3f %.3f %d %d\n", n, p50, p99, os, rs
	}' "$2/observed/summary.tsv" "$2/$1/summary.tsv"
}
need gawk gawk

for p in eevdf-6.18 stock; do
	expect_status 0 "$SR" replay "$S" -o "$T/r" --policy "$p" --policy observed -q
	files=$(figs "$p" "$T/r")
	expect_status 0 "$SR" fidelity "$S" --policy "$p" --tsv -q
	got=$(awk -F'\t' 'NR == 2 { printf "%d %.3f %.3f %d %d\n", $4, $5, $6, $8, $9 }' "$T/out")
	nchecks=$((nchecks + 1))
	[ "$got" = "$files" ] || fail "$p: fidelity says '$got', replay's files '$files'"
done

# the default: the recording kernel's model (no context: eevdf-6.18)
expect_status 0 "$SR" fidelity "$S" -q
expect_out "^eevdf-6.18 \(the recording kernel's model\)"
expect_out "p50 delay: median \|log2\| [0-9]+\.[0-9]{2} \(within x[0-9]"
expect_out "switches: [0-9]+ replayed, [0-9]+ recorded"
# several policies: a row each, in order
expect_status 0 "$SR" fidelity "$S" --policy cfs --policy eevdf-6.18 --tsv -q
nchecks=$((nchecks + 1))
[ "$(cut -f2 "$T/out" | tr '\n' ' ')" = "policy cfs eevdf-6.18 " ] || fail "policies: $(cut -f2 "$T/out")"
# --tasks: a row per judged task, their count the summary's
expect_status 0 "$SR" fidelity "$S" --tsv -q
judged=$(awk -F'\t' 'NR == 2 { print $4 }' "$T/out")
expect_status 0 "$SR" fidelity "$S" --tsv --tasks -q
nchecks=$((nchecks + 1))
[ "$(($(wc -l <"$T/out") - 1))" = "$judged" ] || fail "--tasks: $(wc -l <"$T/out") lines for $judged tasks"
# JSON: well formed, the same medians
expect_status 0 "$SR" fidelity "$S" --json --tasks -q
nchecks=$((nchecks + 1))
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["runs"][0]; assert r["policy"]=="eevdf-6.18" and len(r["task"])==r["judged"]' "$T/out" || fail "JSON"
# the same input, the same bytes
expect_status 0 "$SR" fidelity "$S" --json -q
cp "$T/out" "$T/a"
expect_status 0 "$SR" fidelity "$S" --json -q
expect_same "$T/out" "$T/a"
# bad input
expect_status 66 "$SR" fidelity "$T/nosuch"
expect_status 64 "$SR" fidelity "$S" --policy nosuch
expect_status 64 "$SR" fidelity "$S" --window 0
done_ok
