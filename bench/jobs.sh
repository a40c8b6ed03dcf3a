#!/bin/sh
# bench/jobs.sh: a replay under every policy (12) with its simulators on
# one thread and on two (replay -j, docs/replay.md "Threads"), on the
# pipe recording of bench/stats-vs-perf.sh when it was made (the
# wake-heavy kind), else the largest sample.  Interleaved runs
# (SR_BENCH_JOBS_RUNS, default 3) of `replay -j 1` and `replay -j 2
# --thread-cpu`, every file written: the wall times and their ratio (the
# target: -j 2 at least 1.8 times as fast as -j 1 on two cores), which a
# machine busy with other work holds down whatever the replay does; and
# the bound that load does not move: -j 1's CPU time over what -j 2 would
# take on two idle CPUs, the reading (its CPU less the threads') plus each
# step's longest thread.  Medians, lowest-highest; the outputs of the two
# are compared once (the same bytes).
. bench/lib.sh
bench_dir jobs
RUNS=${SR_BENCH_JOBS_RUNS:-3}
POLICIES=$("$SR" policies | awk '/^[^ ]/ { printf " --policy %s", $1 }')

trace=$BENCH_TMP/stats/pipe.perf.data
[ -f "$trace" ] || trace=$(ls -S traces/*.gz 2>/dev/null | head -n 1)
[ -n "$trace" ] || { echo "   no trace"; exit 1; }
n=$(echo "$POLICIES" | wc -w)
echo "   $trace under $((n / 2)) policies and observed, $(nproc) cpus, load $(cut -d' ' -f1 /proc/loadavg); $RUNS interleaved pairs"
: >"$tmp/runs"
for r in $(seq "$RUNS"); do
	for j in 1 2; do
		rm -rf "$tmp/out$j"
		f=$("$RUNSTAT" "$SR" replay -q -j "$j" --thread-cpu $POLICIES \
			--policy observed -o "$tmp/out$j" "$trace" 2>"$tmp/err")
		case $f in
		*" 0") ;;
		*) echo "   -j $j failed: $f"; sed 's/^/     /' "$tmp/err" | head -n 5; exit 1 ;;
		esac
		# "simulator threads: N steps, A s CPU in all, B s on the longest ..."
		t=$(sed -n 's/^simulator threads: [0-9]* steps, \([0-9.]*\) s CPU in all, \([0-9.]*\) s on.*/\1 \2/p' "$tmp/err")
		echo "$r $j $f ${t:-0 0}" >>"$tmp/runs"
	done
	if [ "$r" -eq 1 ]; then
		diff -r "$tmp/out1" "$tmp/out2" >/dev/null ||
			{ echo "   -j 1 and -j 2 wrote different files"; exit 1; }
	fi
done
rm -rf "$tmp/out1" "$tmp/out2"
awk -v S="$BENCH_TMP/summary" '
function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function med(a, n) { sort(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
# r j CPU_MS WALL_MS RSS_KB EXIT THREADS_CPU_S LONGEST_S
{ cpu[$2, $1] = $3; wall[$2, $1] = $4; if ($5 > rss[$2]) rss[$2] = $5
  tc[$1] = $7 * 1e3; lg[$1] = $8 * 1e3; if ($1 > n) n = $1 }
END {
	for (r = 1; r <= n; r++) {
		w1[r] = wall[1, r]; w2[r] = wall[2, r]; c1[r] = cpu[1, r]; c2[r] = cpu[2, r]
		sp[r] = wall[1, r] / wall[2, r]
		b[r] = cpu[1, r] / (cpu[2, r] - tc[r] + lg[r])
	}
	printf "   -j 1: wall %.1f s (%.1f-%.1f), CPU %.1f s, peak RSS %.1f MB\n", med(w1, n) / 1e3, w1[1] / 1e3, w1[n] / 1e3, med(c1, n) / 1e3, rss[1] / 1024
	printf "   -j 2: wall %.1f s (%.1f-%.1f), CPU %.1f s, peak RSS %.1f MB\n", med(w2, n) / 1e3, w2[1] / 1e3, w2[n] / 1e3, med(c2, n) / 1e3, rss[2] / 1024
	s1 = sprintf("%.2f (%.2f-%.2f)", med(sp, n), sp[1], sp[n])
	s2 = sprintf("%.2f (%.2f-%.2f)", med(b, n), b[1], b[n])
	printf "   wall speed -j 2 / -j 1: %s; on two idle CPUs (the bound load does not move): %s\n", s1, s2
	printf "replay -j 2 / -j 1 wall speed, 12 policies\t%s\t>= 1.8 on 2 idle cores\n", s1 >> S
	printf "  the same on two idle CPUs (thread CPU)\t%s\t>= 1.8\n", s2 >> S
}' "$tmp/runs"
