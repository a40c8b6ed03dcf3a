#!/bin/sh
# bench/stats-vs-perf.sh: `schedreplay stats` against `perf sched latency -p`
# on the same recording (the `make bench` section of issue 2, item 8).
#
# perf.data is never committed, so this records a fresh sample of the
# largest kind (mixed: compile + audio + X) with traces/record.sh
# --keep-data into a temporary directory, then times, interleaved run by
# run (below):
#   perf sched latency -p -i NAME.perf.data
#   schedreplay stats --compat perf-6.1 NAME.perf.txt.gz   (and on plain text)
# and prints CPU and wall time, peak RSS and the speed ratio.  Then it makes a
# trace of BENCH_MB (default 128) MB by concatenating time-shifted copies
# of that text (bench/trace-gen) and prints stats' time, MB/s and peak RSS
# on it (the 64 MB bound whatever the trace length).  Needs root and perf; prints why
# and stops otherwise.  SR_BENCH_DURATION (default 20) sets the
# recording's length; SR_BENCH_PERF_DATA=FILE.data with
# SR_BENCH_PERF_TEXT=FILE.perf.txt.gz times an existing pair instead.
set -u
: "${SCHEDREPLAY:?}" "${BUILD:?}" "${BENCH_TMP:?}"
SR=$SCHEDREPLAY
GEN=$BUILD/bench/trace-gen
if ! command -v perf >/dev/null 2>&1; then
	echo "   skipped: perf is not installed"; exit 0
fi
tmp=$BENCH_TMP/stats
mkdir -p "$tmp"
unset MAKEFLAGS MAKELEVEL MFLAGS

data=${SR_BENCH_PERF_DATA:-}
text=${SR_BENCH_PERF_TEXT:-}
if [ -z "$data" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "   skipped: recording needs root"; exit 0
	fi
	dur=${SR_BENCH_DURATION:-20}
	if [ -x traces/record.sh ]; then
		echo "   recording a fresh 'mixed' sample (${dur} s) with traces/record.sh --keep-data"
		if ! traces/record.sh --out "$tmp" --keep-data --no-install \
			--duration "$dur" --tries 2 --quiet-wait 60 \
			--max-other 100 mixed >"$tmp/record.log" 2>&1; then
			echo "   skipped: recording failed:"; tail -n 5 "$tmp/record.log" | sed 's/^/     /'
			exit 0
		fi
		data=$tmp/mixed.perf.data text=$tmp/mixed.perf.txt.gz
	else
		echo "   traces/record.sh absent: recording a parallel build of this repo (${dur} s at most)"
		perf sched record -q -o "$tmp/b.data" -- timeout "$dur" \
			make -s -j4 BUILD="$tmp/build" "$tmp/build/libschedreplay.a" \
			>/dev/null 2>&1
		perf script -i "$tmp/b.data" 2>/dev/null | gzip -1 >"$tmp/b.perf.txt.gz"
		data=$tmp/b.data text=$tmp/b.perf.txt.gz
	fi
fi
gzip -dc "$text" >"$tmp/plain.txt"
events=$(wc -l <"$tmp/plain.txt")
mb=$(awk -v b="$(wc -c <"$tmp/plain.txt")" 'BEGIN { printf "%.1f", b / 1e6 }')
echo "   recording: $events events, $mb MB of perf script text, perf.data $(awk -v b="$(wc -c <"$data")" 'BEGIN { printf "%.1f", b / 1e6 }') MB"

# The three commands interleaved run by run (perf, stats on the gzip,
# stats on the plain text, perf, ...: SR_BENCH_RUNS rounds, default 5), so
# a change in the machine's load hits all three alike; CPU time (user +
# sys).  Each command's figure is its median run; the speed ratio is the
# median of the rounds' ratios (perf's time over stats' in the same round),
# with the lowest and highest.  (Best of N sequential runs instead gave
# 3.0x where interleaved runs give 1.8x: the runs of one command fell in
# a quieter moment than the other's.)
runs=${SR_BENCH_RUNS:-5}
: >"$tmp/rounds"
i=0
while [ "$i" -lt "$runs" ]; do
	line=""
	for cmd in perf gz plain; do
		case $cmd in
		perf) set -- perf sched latency -p -i "$data" ;;
		gz) set -- "$SR" stats --compat perf-6.1 "$text" ;;
		plain) set -- "$SR" stats --compat perf-6.1 "$tmp/plain.txt" ;;
		esac
		/usr/bin/time -f "%U %S %e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
			{ echo "   a run failed: $*"; sed 's/^/     /' "$tmp/err"; exit 1; }
		line="$line $(awk '{ printf "%.3f %s %s", $1 + $2, $3, $4 }' "$tmp/time")"
	done
	echo "$line" >>"$tmp/rounds"
	i=$((i + 1))
done
echo "   CPU seconds (user + sys), median of $runs interleaved rounds; [wall of that run]"
awk '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{	n++
	for (k = 0; k < 3; k++) { c[k, n] = $(1 + 3 * k); w[k, n] = $(2 + 3 * k); m[k, n] = $(3 + 3 * k) }
	r1[n] = $4 > 0 ? $1 / $4 : 0; r2[n] = $7 > 0 ? $1 / $7 : 0
}
END {
	split("perf sched latency -p -i NAME.perf.data|schedreplay stats NAME.perf.txt.gz|schedreplay stats NAME.perf.txt (plain)", name, "|")
	for (k = 0; k < 3; k++) {
		for (i = 1; i <= n; i++) { x[i] = c[k, i]; y[i] = w[k, i]; z[i] = m[k, i] }
		cm = median(x, n); wm = median(y, n); mm = median(z, n)
		ratio = ""
		if (k) {
			for (i = 1; i <= n; i++) q[i] = k == 1 ? r1[i] : r2[i]
			rm = median(q, n)
			ratio = sprintf("  %.1fx perf'"'"'s speed (rounds %.1f to %.1fx)", rm, q[1], q[n])
		}
		printf "   %-42s %6.2f s [%5.2f s]  peak RSS %6.1f MB%s\n", name[k + 1], cm, wm, mm / 1024, ratio
	}
}' "$tmp/rounds"

# A long trace: time-shifted copies of the recording, back to back.
"$GEN" "$tmp/plain.txt" "$tmp/big.txt" "${BENCH_MB:-128}" >/dev/null || exit 1
rm -f "$tmp/plain.txt"
copies=$(awk -v b="$(wc -c <"$tmp/big.txt")" -v e="$events" -v l="$(wc -l <"$tmp/big.txt")" \
	'BEGIN { printf "%d", l / e }')
bmb=$(awk -v b="$(wc -c <"$tmp/big.txt")" 'BEGIN { printf "%.0f", b / 1e6 }')
/usr/bin/time -f "%U %S %e %M" -o "$tmp/time" "$SR" stats --tsv "$tmp/big.txt" \
	>"$tmp/big.tsv" 2>"$tmp/err" || { echo "   stats on the long trace failed:"; sed 's/^/     /' "$tmp/err"; exit 1; }
rm -f "$tmp/big.txt"
awk -v mb="$bmb" -v copies="$copies" -v rows="$(($(wc -l <"$tmp/big.tsv") - 1))" '
{ c = $1 + $2
  printf "   schedreplay stats, %d copies back to back (%d MB, %d tasks): %.2f CPU s [%.2f s wall], %.0f MB/s, peak RSS %.1f MB\n",
	copies, mb, rows, c, $3, (c > 0 ? mb / c : 0), $4 / 1024 }' "$tmp/time"
