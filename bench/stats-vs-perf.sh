#!/bin/sh
# bench/stats-vs-perf.sh: `schedreplay stats` against `perf sched latency -p`
# on the same recording, per kind of recording (docs/metrics.md, "Agreement
# with perf sched latency"), and what the text and gzip forms of it cost.
#
# The recordings, made here with `perf sched record` (root): the wake-heavy
# kinds the targets are about, `perf bench sched pipe` (two tasks waking
# each other), `perf bench sched messaging` (groups of senders and
# receivers) and a parallel build of this program beside a task that
# sleeps 5 ms at a time (make -j4 + sleeper).  Without root, the bundled
# samples' perf.data (traces/binary) stand in; SR_BENCH_PERF_DATA="A.data
# B.data" times those files instead.  Each is also printed by `perf script`
# (text) and gzipped.
#
# Interleaved rounds (SR_BENCH_ROUNDS, default 7: each round runs every
# command once, in turn, so a busy neighbour slows them alike) of
#   perf sched latency -p -i NAME.perf.data
#   schedreplay stats --compat perf-6.1 NAME.perf.data, NAME.txt, NAME.txt.gz
#   igzip -dc NAME.txt.gz (the fastest inflate packaged, the isal package;
#     zcat when it is missing)
# whole-process CPU time (user + sys, bench/runstat) and peak RSS.  Per
# kind: stats' CPU over perf's (the median of the rounds' own ratios, with
# the lowest and highest), both peak RSS; the text read in MB/s of CPU
# (median, lowest-highest); what reading the gzip costs beyond the plain
# text, over what inflating it alone costs (median of the rounds).  Each
# goes to the summary (bench/run.sh) beside its target.
#
# Then a long trace: BENCH_MB (default 128) MB of time-shifted copies of
# the largest text (bench/trace-gen): stats' MB/s and peak RSS, which stays
# flat whatever the length.
. bench/lib.sh
ROUNDS=${SR_BENCH_ROUNDS:-7}
bench_dir stats
unset MAKEFLAGS MAKELEVEL MFLAGS

if ! command -v perf >/dev/null 2>&1; then
	echo "   skipped: perf is not installed"; exit 0
fi

kinds=""
# record NAME CMD...: NAME.perf.data of CMD, or a line saying why not
record() {
	name=$1
	shift
	if perf sched record -q -o "$tmp/$name.perf.data" -- "$@" \
		>/dev/null 2>"$tmp/$name.log"; then
		kinds="$kinds $name"
	else
		echo "   $name: recording failed:"; tail -n 3 "$tmp/$name.log" | sed 's/^/     /'
	fi
}
if [ -n "${SR_BENCH_PERF_DATA:-}" ]; then
	for f in $SR_BENCH_PERF_DATA; do
		n=$(basename "$f" .data)
		n=${n%.perf}
		cp "$f" "$tmp/$n.perf.data" && kinds="$kinds $n"
	done
elif [ "$(id -u)" -eq 0 ]; then
	echo "   recording with perf sched record: pipe, messaging, make -j4 + sleeper"
	record pipe perf bench sched pipe -l "${SR_BENCH_PIPE_LOOPS:-100000}"
	record messaging perf bench sched messaging -g 5 -l 400
	cat >"$tmp/make.sh" <<EOF
timeout ${SR_BENCH_DURATION:-20} make -s -j4 BUILD="$tmp/build" "$tmp/build/libschedreplay.a" >/dev/null 2>&1 &
i=0
while [ \$i -lt 1000 ] && kill -0 \$! 2>/dev/null; do sleep 0.005; i=\$((i + 1)); done
wait
EOF
	record make sh "$tmp/make.sh"
	rm -rf "$tmp/build"
else
	echo "   not root: the bundled samples' perf.data stand in for fresh recordings"
	for f in traces/binary/*.perf.data.gz; do
		[ -f "$f" ] || continue
		n=$(basename "$f" .perf.data.gz)
		gzip -dc "$f" >"$tmp/$n.perf.data" && kinds="$kinds $n"
	done
fi
[ -n "$kinds" ] || { echo "   no recording to time"; exit 1; }

inflate=zcat
command -v igzip >/dev/null 2>&1 && inflate=igzip
for k in $kinds; do
	perf script -i "$tmp/$k.perf.data" >"$tmp/$k.txt" 2>/dev/null
	gzip -c "$tmp/$k.txt" >"$tmp/$k.txt.gz"
	awk -v k="$k" -v d="$(wc -c <"$tmp/$k.perf.data")" -v t="$(wc -c <"$tmp/$k.txt")" \
	    -v l="$(wc -l <"$tmp/$k.txt")" 'BEGIN {
		printf "   %-10s %9d samples, perf.data %6.1f MB, text %6.1f MB\n", k, l, d / 1e6, t / 1e6 }'
done

# one: a command of a round; runstat prints "CPU_MS WALL_MS MAXRSS_KB EXIT"
one() {
	case $1 in
	perf) "$RUNSTAT" perf sched latency -p -i "$tmp/$2.perf.data" ;;
	data) "$RUNSTAT" "$SR" stats --compat perf-6.1 "$tmp/$2.perf.data" ;;
	text) "$RUNSTAT" "$SR" stats --compat perf-6.1 "$tmp/$2.txt" ;;
	gz) "$RUNSTAT" "$SR" stats --compat perf-6.1 "$tmp/$2.txt.gz" ;;
	inflate) "$RUNSTAT" "$inflate" -dc "$tmp/$2.txt.gz" ;;
	esac
}
: >"$tmp/rounds"
for r in $(seq "$ROUNDS"); do
	for k in $kinds; do
		for c in perf data text gz inflate; do
			f=$(one "$c" "$k" 2>"$tmp/err")
			case $f in
			*" 0") echo "$r $k $c $f" >>"$tmp/rounds" ;;
			*) echo "   $k: $c failed: $f"; sed 's/^/     /' "$tmp/err" | head -n 5; exit 1 ;;
			esac
		done
	done
done
echo "   $ROUNDS interleaved rounds; CPU (user + sys): median (lowest-highest) of the rounds' figures"
printf '   %-10s %-22s %-20s %-20s %-24s\n' kind "stats/perf CPU" "peak RSS stats/perf" "text MB/s (start-up in)" "gzip extra CPU/$inflate"
for k in $kinds; do
	awk -v k="$k" -v mb="$(wc -c <"$tmp/$k.txt")" -v inf="$inflate" -v S="$BENCH_TMP/summary" '
	function sort(a, n,    i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	}
	function med(a, n) { sort(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	$2 == k { cpu[$3, $1] = $4; if ($6 > rss[$3]) rss[$3] = $6; if ($1 > n) n = $1 }
	END {
		for (r = 1; r <= n; r++) {
			q[r] = cpu["data", r] / cpu["perf", r]
			t[r] = mb / 1e3 / cpu["text", r]
			g[r] = (cpu["gz", r] - cpu["text", r]) / cpu["inflate", r]
		}
		qm = med(q, n); tm = med(t, n); gm = med(g, n)
		s1 = sprintf("%.2f (%.2f-%.2f)", qm, q[1], q[n])
		s2 = sprintf("%.1f/%.1f MB", rss["data"] / 1024, rss["perf"] / 1024)
		s3 = sprintf("%.0f (%.0f-%.0f)", tm, t[1], t[n])
		s4 = sprintf("%.2f (%.2f-%.2f)", gm, g[1], g[n])
		printf "   %-10s %-22s %-20s %-20s %-24s\n", k, s1, s2, s3, s4
		printf "stats/perf sched latency CPU, %s\t%s\t<= 0.35\n", k, s1 >> S
		printf "peak RSS stats/perf, %s\t%s\t(smaller)\n", k, s2 >> S
		printf "gzip: CPU beyond the text / %s alone, %s\t%s\t<= 1.1\n", inf, k, s4 >> S
	}' "$tmp/rounds"
done

# A long trace: time-shifted copies of the largest text, back to back:
# the text's MB/s without the start-up a short trace pays (the patterns,
# the format's detection, the table), and peak RSS, flat whatever the
# length; SR_BENCH_LONG_RUNS runs (default 3).
big=$(ls -S "$tmp"/*.txt | head -n 1)
"$GEN" "$big" "$tmp/long.trace" "${BENCH_MB:-128}" >/dev/null || exit 1
events=$(wc -l <"$big")
rm -f "$tmp"/*.txt "$tmp"/*.txt.gz
copies=$(awk -v e="$events" -v l="$(wc -l <"$tmp/long.trace")" 'BEGIN { printf "%d", l / e }')
: >"$tmp/long"
for r in $(seq "${SR_BENCH_LONG_RUNS:-3}"); do
	f=$("$RUNSTAT" "$SR" stats --compat perf-6.1 "$tmp/long.trace" 2>"$tmp/err") ||
		{ echo "   stats on the long trace failed:"; sed 's/^/     /' "$tmp/err"; exit 1; }
	echo "$f" >>"$tmp/long"
done
awk -v mb="$(wc -c <"$tmp/long.trace")" -v copies="$copies" -v src="$(basename "$big" .txt)" -v S="$BENCH_TMP/summary" '
function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
{ n++; v[n] = mb / 1e3 / $1; if ($3 > rss) rss = $3 }
END {
	sort(v, n)
	s = sprintf("%.0f (%.0f-%.0f)", v[int((n + 1) / 2)], v[1], v[n])
	printf "   schedreplay stats, %d copies of %s back to back (%.0f MB): %s MB/s of CPU, peak RSS %.1f MB\n", copies, src, mb / 1e6, s, rss / 1024
	printf "perf script text, %.0f MB (%s x%d): MB/s of CPU\t%s\t>= 600\n", mb / 1e6, src, copies, s >> S
	printf "  its peak RSS\t%.1f MB\t(flat)\n", rss / 1024 >> S
}' "$tmp/long"
rm -f "$tmp/long.trace"
