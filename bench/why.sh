#!/bin/sh
# bench/why.sh: what the attribution of waits costs (issue 12: at most 30 %
# more replay time).  `schedreplay replay` of the largest sample made 4
# times as long (bench/trace-gen --copies), under every simulated policy,
# writing every file, with the attribution (waits.tsv, latency.tsv's why
# and behind_pid) and without it (--no-why): whole-process wall time, the
# two runs interleaved (alternating which goes first) SR_BENCH_WHY_RUNS
# times (default 5); the medians, and their ratio.
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

# one LABEL ARGS...: a replay's wall time in ms, appended to $tmp/LABEL
one() {
	label=$1
	shift
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	"$SR" replay "$tmp/s4.txt" $POLICIES -o "$tmp/out" -q "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "   replay failed:"; sed 's/^/     /' "$tmp/err"; return 1; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000)) >>"$tmp/$label"
	rm -rf "$tmp/out"
}

: >"$tmp/why"
: >"$tmp/nowhy"
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
echo "   with the attribution:    median $a ms  (runs: $(tr '\n' ' ' <"$tmp/why"))"
echo "   without it (--no-why):   median $b ms  (runs: $(tr '\n' ' ' <"$tmp/nowhy"))"
awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "   the attribution costs %+.1f %% of the replay time (target: at most +30 %%)\n", (a / b - 1) * 100 }'
rm -f "$tmp/s4.txt"
