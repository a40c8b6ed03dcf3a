#!/bin/sh
# bench/stats-vs-perf.sh: `schedreplay stats` against `perf sched latency -p`
# on the same recording (the `make bench` section of issue 2, item 8).
#
# perf.data is never committed, so this records a fresh sample of the
# largest kind (mixed: compile + audio + X) with traces/record.sh
# --keep-data into a temporary directory, then times, best of 3:
#   perf sched latency -p -i NAME.perf.data
#   schedreplay stats --compat perf-6.1 NAME.perf.txt.gz   (and on plain text)
# and prints wall time, peak RSS and the speed ratio.  Then it makes a
# trace of BENCH_MB (default 1024) MB by concatenating time-shifted copies
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

# best of 3 by CPU time (user + sys: the machine may be shared, wall time
# then measures the neighbours): prints "CPU_SECONDS WALL_SECONDS KB"
best3() {
	best=""
	for i in 1 2 3; do
		/usr/bin/time -f "%U %S %e %M" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
			{ echo "FAILED"; sed 's/^/     /' "$tmp/err" >&2; return; }
		t=$(awk '{ printf "%.2f %s %s", $1 + $2, $3, $4 }' "$tmp/time")
		best=$(printf '%s\n%s\n' "$best" "$t" | awk 'NF { if (b == "" || $1 < b) { b = $1; w = $2; m = $3 } } END { print b, w, m }')
	done
	echo "$best"
}
p=$(best3 perf sched latency -p -i "$data")
g=$(best3 "$SR" stats --compat perf-6.1 "$text")
t=$(best3 "$SR" stats --compat perf-6.1 "$tmp/plain.txt")
echo "   CPU seconds (user + sys), best of 3; wall time of that run in brackets"
echo "$p" "$g" "$t" | awk '
function line(name, s, w, kb, ratio) {
	printf "   %-42s %6.2f s [%5.2f s]  peak RSS %6.1f MB%s\n", name, s, w, kb / 1024, ratio
}
$1 == "FAILED" || $4 == "FAILED" || $7 == "FAILED" { print "   a run failed"; exit 1 }
{
	line("perf sched latency -p -i NAME.perf.data", $1, $2, $3, "")
	line("schedreplay stats NAME.perf.txt.gz", $4, $5, $6,
	     $4 > 0 ? sprintf("  (%.1fx perf'"'"'s speed)", $1 / $4) : "")
	line("schedreplay stats NAME.perf.txt (plain)", $7, $8, $9,
	     $7 > 0 ? sprintf("  (%.1fx perf'"'"'s speed)", $1 / $7) : "")
}'

# A long trace: time-shifted copies of the recording, back to back.
"$GEN" "$tmp/plain.txt" "$tmp/big.txt" "${BENCH_MB:-1024}" >/dev/null || exit 1
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
