#!/bin/sh
# bench/why.sh: what the attribution of waits costs (the target: at most
# 30 % more replay time).  `schedreplay replay` of the largest sample made 4
# times as long (bench/trace-gen --copies), under every simulated policy,
# writing every file, with the attribution (waits.tsv, latency.tsv's why
# and behind_pid) and without it (--no-why): whole-process CPU time (user
# + sys, bench/runstat: the replay's cost, less swayed than wall time by
# the page cache writing the files back) and wall time, the two runs
# interleaved (alternating which goes first) SR_BENCH_WHY_RUNS times
# (default 5).
# The cost is the median of the pairs' ratios (each pair ran side by side
# in time, so a machine that slows down for a while slows both), the
# medians of each are printed too.
. bench/lib.sh
bench_dir why
RUNS=${SR_BENCH_WHY_RUNS:-5}
POLICIES=$("$SR" policies | awk '/^[^ ]/ { printf " --policy %s", $1 }')

[ -x "$GEN" ] && [ -x "$RUNSTAT" ] || { echo "   $GEN or $RUNSTAT missing (make bench builds them)"; exit 1; }
largest=$(ls -S traces/*.gz 2>/dev/null | head -n 1)
[ -n "$largest" ] || largest=$(ls -S tests/replay/data/*.perf.txt.gz | head -n 1)
gzip -dc "$largest" >"$tmp/s1.txt"
"$GEN" --copies 4 "$tmp/s1.txt" "$tmp/s4.txt" || exit 1
rm -f "$tmp/s1.txt"
echo "   $largest x4 ($(($(wc -c <"$tmp/s4.txt") / 1000000)) MB of text), policies:$(echo "$POLICIES" | sed 's/ --policy / /g'); $RUNS interleaved pairs"

# one LABEL ARGS...: a replay's CPU time (user + sys) and wall time in ms,
# by bench/runstat, appended to $tmp/LABEL as "CPU WALL"
one() {
	label=$1
	shift
	# shellcheck disable=SC2086
	f=$("$RUNSTAT" "$SR" replay "$tmp/s4.txt" $POLICIES -o "$tmp/out" -q "$@" 2>"$tmp/err")
	case $f in
	*" 0") echo "$f" | awk '{ print $1, $2 }' >>"$tmp/$label" ;;
	*) echo "   replay failed: $f"; sed 's/^/     /' "$tmp/err"; return 1 ;;
	esac
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
# the medians of each, and of the pairs' ratios (column 1: CPU, 2: wall)
paste "$tmp/why" "$tmp/nowhy" | awk '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ n++; wc[n] = $1; ww[n] = $2; nc[n] = $3; nw[n] = $4; runs_w = runs_w sprintf(" %.0f", $1); runs_n = runs_n sprintf(" %.0f", $3)
  rc[n] = $3 > 0 ? $1 / $3 : 0; rw[n] = $4 > 0 ? $2 / $4 : 0 }
END {
	printf "   with the attribution:    CPU median %.0f ms (runs:%s), wall %.0f ms\n", median(wc, n), runs_w, median(ww, n)
	printf "   without it (--no-why):   CPU median %.0f ms (runs:%s), wall %.0f ms\n", median(nc, n), runs_n, median(nw, n)
	printf "   the attribution costs %+.1f %% of the replay'"'"'s CPU time (median of the pairs; target: at most +30 %%), %+.1f %% of its wall time\n", (median(rc, n) - 1) * 100, (median(rw, n) - 1) * 100
}'
rm -f "$tmp/s4.txt"
