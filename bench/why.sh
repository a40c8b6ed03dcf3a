#!/bin/sh
# bench/why.sh: what the attribution of waits costs (issue 12: at most 30 %
# more replay time).  `schedreplay replay` of the largest sample made 4
# times as long (bench/trace-gen --copies), under every simulated policy,
# writing every file, with the attribution (waits.tsv, latency.tsv's why
# and behind_pid) and without it (--no-why): whole-process CPU time (user
# + sys: the replay's cost, less swayed than wall time by the page cache
# writing the files back) and wall time, the two runs interleaved
# (alternating which goes first) SR_BENCH_WHY_RUNS times (default 5).
# The cost is the median of the pairs' ratios (each pair ran side by side
# in time, so a machine that slows down for a while slows both), the
# medians of each are printed too.
set -u
: "${SCHEDREPLAY:?}" "${BUILD:?}" "${BENCH_TMP:?}"
SR=$SCHEDREPLAY
GEN=$BUILD/bench/trace-gen
tmp=$BENCH_TMP/why
mkdir -p "$tmp"
RUNS=${SR_BENCH_WHY_RUNS:-5}
POLICIES=$("$SR" policies | awk '/^[^ ]/ { printf " --policy %s", $1 }')

[ -x "$GEN" ] || { echo "   $GEN missing (make bench builds it)"; exit 1; }
largest=$(ls -S traces/*.gz 2>/dev/null | head -n 1)
[ -n "$largest" ] || largest=$(ls -S tests/replay/data/*.perf.txt.gz | head -n 1)
gzip -dc "$largest" >"$tmp/s1.txt"
"$GEN" --copies 4 "$tmp/s1.txt" "$tmp/s4.txt" || exit 1
rm -f "$tmp/s1.txt"
echo "   $largest x4 ($(($(wc -c <"$tmp/s4.txt") / 1000000)) MB of text), policies:$(echo "$POLICIES" | sed 's/ --policy / /g'); $RUNS interleaved pairs"

# one LABEL ARGS...: a replay's CPU time (user + sys) and wall time in ms,
# appended to $tmp/LABEL and $tmp/LABEL.wall
one() {
	label=$1
	shift
	# shellcheck disable=SC2086
	/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$SR" replay "$tmp/s4.txt" $POLICIES -o "$tmp/out" -q "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "   replay failed:"; sed 's/^/     /' "$tmp/err"; return 1; }
	awk '{ printf "%d\n", ($2 + $3) * 1000 }' "$tmp/time" >>"$tmp/$label"
	awk '{ printf "%d\n", $1 * 1000 }' "$tmp/time" >>"$tmp/$label.wall"
	rm -rf "$tmp/out"
}

: >"$tmp/why"
: >"$tmp/nowhy"
: >"$tmp/why.wall"
: >"$tmp/nowhy.wall"
i=0
while [ $i -lt "$RUNS" ]; do
	if [ $((i % 2)) -eq 0 ]; then
		one why && one nowhy --no-why || exit 1
	else
		one nowhy --no-why && one why || exit 1
	fi
	i=$((i + 1))
done
med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
a=$(med "$tmp/why")
b=$(med "$tmp/nowhy")
aw=$(med "$tmp/why.wall")
bw=$(med "$tmp/nowhy.wall")
echo "   with the attribution:    CPU median $a ms (runs: $(tr '\n' ' ' <"$tmp/why")), wall $aw ms"
echo "   without it (--no-why):   CPU median $b ms (runs: $(tr '\n' ' ' <"$tmp/nowhy")), wall $bw ms"
# the median of the pairs' ratios, of one figure (FILE and FILE of the other)
pairs() { paste "$1" "$2" | awk '$2 > 0 { print $1 / $2 }' | sort -g |
	awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
rc=$(pairs "$tmp/why" "$tmp/nowhy")
rw=$(pairs "$tmp/why.wall" "$tmp/nowhy.wall")
awk -v c="$rc" -v w="$rw" 'BEGIN { printf "   the attribution costs %+.1f %% of the replay'"'"'s CPU time (median of the pairs; target: at most +30 %%), %+.1f %% of its wall time\n", (c - 1) * 100, (w - 1) * 100 }'
rm -f "$tmp/s4.txt"
