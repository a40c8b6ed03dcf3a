#!/bin/sh
# The committed fidelity recordings (traces/fidelity, README.md there) hold
# their figures: each one's replay under the recording kernel's model
# (eevdf-6.18, the default) against the recording, as `schedreplay
# fidelity` prints them (tests/compare/fidelity.sh checks those figures
# against replay's own files), stays within a band around what was
# measured when the rules of docs/replay.md "Calibration" and
# docs/models.md "EEVDF 6.18" were last changed on purpose.
#
# The figures are deterministic (the same trace gives the same bytes), so
# any band catches a change; the band is as wide as a change that does
# not matter: 0.15 of |log2| on the p50 and p99 medians (x1.11) and 0.05
# on the switch ratio.  Each fix these figures come from moved them by
# far more (quiet-nice's p50 3.43 -> 0.03 when a renamed task's pin was
# read; quiet-hogs' p50 2.82 -> 0.21 when the tick was read from charges;
# quiet-pipe's p99 0.94 -> 0.44 and quiet-nice's 0.44 -> 0.01 when wake
# costs were drawn from their spread), so the test fails with any one of
# them undone.  A change that moves a figure on purpose re-measures it
# (`make fidelity` prints them all) and says why in its commit.
#
# The nice pair on one CPU (quiet-nice): the nice 10 hog's share of the
# two hogs' CPU while both ran, replayed, is within 10 % of the recorded
# share (the weights give 110 / (1024 + 110) = 9.7 %), read from the
# timelines by awk.
. tests/lib/lib.sh
need gawk gawk
F=traces/fidelity

# recording, p50, p99, switch ratio (eevdf-6.18, as measured)
while read -r name p50 p99 sw; do
	case $name in '#'*|'') continue ;; esac
	f=$(ls "$F/$name".*.gz 2>/dev/null | head -1)
	[ -n "$f" ] || fail "no recording $name under $F"
	expect_status 0 "$SR" fidelity -q --tsv "$f"
	nchecks=$((nchecks + 1))
	gawk -F'\t' -v n="$name" -v p50="$p50" -v p99="$p99" -v sw="$sw" '
	function ab(x) { return x < 0 ? -x : x }
	NR == 2 {
		ok = $2 == "eevdf-6.18" && ab($5 - p50) <= 0.15 &&
		     ab($6 - p99) <= 0.15 && ab($10 - sw) <= 0.05
		if (!ok)
			printf "%s: %s p50 %.2f p99 %.2f switches %.2f; want %.2f %.2f %.2f (+-0.15, 0.15, 0.05)\n",
				n, $2, $5, $6, $10, p50, p99, sw
		exit !ok
	}' "$T/out" >"$T/why" || fail "$(cat "$T/why")"
done <<'EOF2'
quiet-hogs   0.21 0.19 0.99
quiet-make   0.12 0.51 1.02
quiet-nice   0.03 0.01 1.04
quiet-msg    0.60 0.51 0.97
quiet-pipe   0.04 0.44 1.00
loaded-hogs  0.18 0.20 1.00
loaded-make  0.31 0.36 1.05
loaded-nice  0.82 3.17 0.97
loaded-msg   1.22 0.49 0.93
loaded-pipe  0.57 2.12 0.68
EOF2

# the tick each replay ran at, and where it came from, said: the hogs'
# recording has no context and no preemption but by wakes, so its HZ is
# read from the charges (docs/replay.md, "Calibration"): 250, the
# recording kernel's CONFIG_HZ; stock keeps its own 1000
expect_status 0 "$SR" fidelity -q --policy eevdf-6.18 --policy stock "$F/quiet-hogs.perf.data.gz"
nchecks=$((nchecks + 1))
[ "$(grep -c '^  tick: ' "$T/out")" -eq 2 ] &&
grep -qx "  tick: HZ 250 (read from the recording's tick)" "$T/out" &&
grep -qx "  tick: HZ 1000 (the policy's own)" "$T/out" ||
	fail "the tick said: $(grep tick: "$T/out")"

# the loaded nice pair with --affinity infer (the busy test's pins,
# docs/replay.md "Calibration"): 0.10 1.39 1.01 measured, the same band
expect_status 0 "$SR" fidelity -q --tsv --affinity infer "$F/loaded-nice.perf.data.gz"
nchecks=$((nchecks + 1))
gawk -F'\t' 'function ab(x) { return x < 0 ? -x : x }
NR == 2 { exit !(ab($5 - 0.10) <= 0.15 && ab($6 - 1.39) <= 0.15 && ab($10 - 1.01) <= 0.05) }' "$T/out" ||
	fail "loaded-nice --affinity infer: $(sed -n 2p "$T/out" | cut -f5,6,10)"

# the nice pair's split, quiet (default options) and loaded (--affinity
# infer: by default its pins do not show, docs/replay.md "Calibration")
split() { # TIMELINE: the smaller hog's share of the two hogs' run time
	gawk -F'\t' '
	FNR == 1 || $3 != "hog" { next }
	{ t = $1 + 0; p = $2 }
	$4 == "run" { since[p] = t; next }
	$4 == "preempt" || $4 == "block" || $4 == "exit" {
		if (p in since) { who[++n] = p; a[n] = since[p]; b[n] = t; delete since[p] }
		if ($4 == "exit" && (end == "" || t < end)) end = t
	}
	END {
		for (i = 1; i <= n; i++) {
			e = b[i] < end ? b[i] : end
			if (e > a[i]) ran[who[i]] += e - a[i]
		}
		for (p in ran) pid[++m] = p
		if (m != 2) exit 1
		lo = ran[pid[1]] < ran[pid[2]] ? ran[pid[1]] : ran[pid[2]]
		printf "%.4f\n", lo / (ran[pid[1]] + ran[pid[2]])
	}' "$1"
}
nice_split() { # NAME [OPTION...]
	name=$1; shift
	expect_status 0 "$SR" replay "$F/$name.perf.data.gz" -o "$T/$name" -q \
		--policy eevdf-6.18 --policy observed "$@"
	rec=$(split "$T/$name/observed/timeline.tsv") || fail "$name: the recording's timeline: not two hogs"
	rep=$(split "$T/$name/eevdf-6.18/timeline.tsv") || fail "$name: the replay's timeline: not two hogs"
	nchecks=$((nchecks + 1))
	gawk -v a="$rec" -v b="$rep" 'BEGIN { exit !(a > 0.08 && a < 0.12 && b > 0.9 * a && b < 1.1 * a) }' ||
		fail "$name $*: the nice pair's split: replayed $rep, recorded $rec (want within 10 %, near 0.097)"
}
nice_split quiet-nice
nice_split loaded-nice --affinity infer
done_ok
