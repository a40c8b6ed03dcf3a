#!/bin/sh
# bench/stats-vs-perf.sh: `schedreplay stats` against `perf sched latency -p`
# on the same recording (docs/metrics.md, "Agreement with perf sched
# latency").
#
# perf.data is never committed, so this records a fresh sample of the
# largest kind (mixed: compile + audio + X) with traces/record.sh
# --keep-data into a temporary directory, then times, in interleaved rounds
# (each round runs every command once, in turn, so a busy neighbour slows
# them alike):
#   perf sched latency -p -i NAME.perf.data
#   schedreplay stats --compat perf-6.1 NAME.perf.data   (perf.data read directly)
#   schedreplay stats --compat perf-6.1 NAME.perf.txt.gz   (and on plain text)
#   bench/parse-bench on NAME.perf.data and on its text (the reader alone)
# and prints the median CPU time (user + sys, bench/runstat), the median
# wall time and peak RSS of each, and the ratios to perf (the median of
# the rounds' own ratios, with the lowest and highest: best of N sequential
# runs instead gave 3.0x where interleaved runs give 1.8x, the runs of one
# command falling in a quieter moment than the other's).  Then it makes a
# trace of BENCH_MB (default 128) MB by concatenating time-shifted copies
# of that text (bench/trace-gen) and prints stats' time, MB/s and peak RSS
# on it (the 64 MB bound whatever the trace length).  Needs root and perf; prints why
# and stops otherwise.  SR_BENCH_DURATION (default 20) sets the
# recording's length; SR_BENCH_PERF_DATA=FILE.data with
# SR_BENCH_PERF_TEXT=FILE.perf.txt.gz times an existing pair instead.
. bench/lib.sh
ROUNDS=${SR_BENCH_ROUNDS:-7}
if ! command -v perf >/dev/null 2>&1; then
	echo "   skipped: perf is not installed"; exit 0
fi
bench_dir stats
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

# Interleaved rounds: each command once per round, in turn (SR_BENCH_ROUNDS,
# default 7), so a change in the machine's load hits them all alike.
# runstat prints "CPU_MS WALL_MS MAX_RSS_KB EXIT" for each run.
cmds="perf-latency stats-data stats-gz stats-plain read-data read-text"
run() {
	case $1 in
	perf-latency) "$RUNSTAT" perf sched latency -p -i "$data" ;;
	stats-data) "$RUNSTAT" "$SR" stats --compat perf-6.1 "$data" ;;
	stats-gz) "$RUNSTAT" "$SR" stats --compat perf-6.1 "$text" ;;
	stats-plain) "$RUNSTAT" "$SR" stats --compat perf-6.1 "$tmp/plain.txt" ;;
	read-data) "$RUNSTAT" "$PB" "$data" ;;
	read-text) "$RUNSTAT" "$PB" "$tmp/plain.txt" ;;
	esac
}
: > "$tmp/rounds"
for r in $(seq "$ROUNDS"); do
	for c in $cmds; do
		f=$(run "$c" 2>"$tmp/err")
		case $f in
		*" 0") echo "$r $c $f" >> "$tmp/rounds" ;;
		*) echo "   $c failed: $f"; sed 's/^/     /' "$tmp/err" | head -n 5; exit 1 ;;
		esac
	done
done
echo "   $ROUNDS interleaved rounds; median CPU (user + sys) [wall], peak RSS; ratios: median of the rounds' (lowest-highest)"
awk '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ r = $1; c = $2; n[c]++; cpu[c, n[c]] = $3; wall[c, n[c]] = $4; if ($5 > rss[c]) rss[c] = $5
  at[c, r] = $3; if (r > rounds) rounds = r }
END {
	split("perf-latency stats-data stats-gz stats-plain read-data read-text", order, " ")
	name["perf-latency"] = "perf sched latency -p -i NAME.perf.data"
	name["stats-data"] = "schedreplay stats NAME.perf.data"
	name["stats-gz"] = "schedreplay stats NAME.perf.txt.gz"
	name["stats-plain"] = "schedreplay stats NAME.perf.txt (plain)"
	name["read-data"] = "reader alone: NAME.perf.data"
	name["read-text"] = "reader alone: NAME.perf.txt (plain)"
	base["stats-data"] = base["stats-gz"] = base["stats-plain"] = "perf-latency"
	base["read-data"] = "read-text"
	for (k = 1; k <= 6; k++) {
		c = order[k]
		for (i = 1; i <= n[c]; i++) { x[i] = cpu[c, i]; y[i] = wall[c, i] }
		mc[c] = median(x, n[c]); mw[c] = median(y, n[c])
	}
	for (k = 1; k <= 6; k++) {
		c = order[k]
		ratio = ""
		if (c in base) {
			b = base[c]
			for (r = 1; r <= rounds; r++) q[r] = at[b, r] > 0 ? at[c, r] / at[b, r] : 0
			rm = median(q, rounds)
			ratio = sprintf("  %.2fx %s CPU (%.2f-%.2f)", rm, b == "read-text" ? "the text'"'"'s" : "perf'"'"'s", q[1], q[rounds])
			if (b == "perf-latency")
				ratio = ratio sprintf(", %.2fx its RSS", rss[c] / rss[b])
		}
		printf "   %-42s %7.1f ms [%7.1f ms]  RSS %6.1f MB%s\n", name[c], mc[c], mw[c], rss[c] / 1024, ratio
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
