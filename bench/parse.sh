#!/bin/sh
# Parse throughput per input format, one core: a >= BENCH_MB trace per
# format is made at bench time by time-shifting copies of a real sample
# (bench/trace-gen), then read plain and gzip-compressed by
# bench/parse-bench, next to `zcat FILE | wc -l` as the floor.
#
# Samples, all real workloads: the largest traces/*.gz (perf script text)
# or, until those exist, a fresh `perf sched record` of building this
# program (needs root and perf); ftrace text recorded from a private tracefs
# instance during the same build (root), or else rewritten from the perf
# sample; trace-cmd report's default layout and systrace HTML rewritten from
# the ftrace sample; native by `schedreplay convert`.
. bench/lib.sh
MB=${BENCH_MB:-128}
bench_dir parse
S=$tmp
unset MAKEFLAGS MAKELEVEL MFLAGS

# the workload: a real compile of this program's sources, from scratch
cat > "$S/workload.sh" <<WORKLOAD
rm -rf "$S/src" && mkdir -p "$S/src" &&
cp -r Makefile schedreplay.c builtin.h lib parse sched-model replay plots "$S/src/" 2>/dev/null
make -C "$S/src" -j2 BUILD="$S/src/build" >/dev/null 2>&1
exit 0
WORKLOAD

tracefs=/sys/kernel/tracing
inst=$tracefs/instances/srbench$$
ftrace_rec() {
	[ "$(id -u)" -eq 0 ] && [ -d "$tracefs/instances" ] || return 1
	mkdir "$inst" 2>/dev/null || return 1
	for e in sched_switch sched_waking sched_wakeup sched_wakeup_new \
		sched_process_fork sched_process_exec sched_process_exit \
		sched_process_free sched_migrate_task sched_stat_runtime; do
		echo 1 > "$inst/events/sched/$e/enable" 2>/dev/null
	done
	echo 16384 > "$inst/buffer_size_kb" 2>/dev/null
	echo 1 > "$inst/tracing_on"
	"$@"
	echo 0 > "$inst/tracing_on"
	cat "$inst/trace" > "$S/sample.ftrace"
	rmdir "$inst"
	grep -q 'sched_switch:' "$S/sample.ftrace"
}

# ---- the perf sample ----
sample=$(ls -S traces/*.gz 2>/dev/null | head -n 1)
if [ -n "$sample" ] && zcat "$sample" | head -n 200 | grep -q 'sched:sched_switch:'; then
	zcat "$sample" > "$S/sample.perf"
	echo "perf sample: $sample"
elif [ "$(id -u)" -eq 0 ] && command -v perf >/dev/null 2>&1 &&
     perf sched record -o "$S/perf.data" -- sh "$S/workload.sh" >/dev/null 2>&1; then
	perf script -i "$S/perf.data" > "$S/sample.perf" 2>/dev/null
	rm -f "$S/perf.data"
	echo "perf sample: perf sched record of building schedreplay (make -j2)"
else
	echo "no perf sample: need traces/*.gz, or root and perf"; exit 1
fi

# ---- the ftrace sample ----
if ftrace_rec sh "$S/workload.sh"; then
	echo "ftrace sample: tracefs instance during building schedreplay (make -j2)"
else
	# perf script layout -> tracefs layout, same records
	sed -E 's/^ *(.*[^ ]) +([0-9]+) +\[([0-9]+)\] +([0-9]+\.[0-9]+): +[a-z_]+:([a-z_]+): */  \1-\2 [\3] d..2. \4: \5: /' \
		"$S/sample.perf" > "$S/sample.ftrace"
	echo "ftrace sample: the perf sample rewritten in the tracefs layout"
fi
rm -rf "$S/src"

# trace-cmd report's default layout: no flags, plugin sched_switch/wakeup
{
	echo "cpus=$(nproc)"
	grep -v '^#' "$S/sample.ftrace" | sed -E \
	    -e 's/^( *.*-[0-9]+ +\[[0-9]+\]) [^ ]+ +/\1 /' \
	    -e 's/sched_switch: prev_comm=(.*) prev_pid=([0-9]+) prev_prio=([0-9]+) prev_state=([^ ]+) ==> next_comm=(.*) next_pid=([0-9]+) next_prio=([0-9]+)$/sched_switch:         \1:\2 [\3] \4 ==> \5:\6 [\7]/' \
	    -e 's/sched_wakeup: comm=(.*) pid=([0-9]+) prio=([0-9]+) target_cpu=([0-9]+)$/sched_wakeup:         \1:\2 [\3] CPU:\4/'
} > "$S/sample.trace-cmd"

# systrace (legacy HTML: the trace text as a JS string)
{
	printf '<!DOCTYPE html>\n<html>\n<head><title>systrace</title></head>\n<body>\n<script>\n  var linuxPerfData = "\\\n'
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/$/\\n\\/' "$S/sample.ftrace"
	printf '";\n</script>\n</body>\n</html>\n'
} > "$S/sample.systrace"

"$SCHEDREPLAY" convert "$S/sample.perf" -o "$S/sample.native" || exit 1

echo "each trace: >= $MB MB of text; MB/s and ev/s per CPU second of the reader (one core)"
for fmt in perf ftrace trace-cmd systrace native; do
	big=$S/big.$fmt
	if [ "$fmt" = native ]; then
		"$GEN" --native "$S/sample.$fmt" "$big" "$MB" || exit 1
	elif [ "$fmt" = systrace ]; then
		# time-shift the text, then wrap the whole of it once
		"$GEN" "$S/sample.ftrace" "$big.txt" "$MB" || exit 1
		{ sed -n '1,/linuxPerfData/p' "$S/sample.systrace"
		  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/$/\\n\\/' "$big.txt"
		  printf '";\n</script>\n</body>\n</html>\n'; } > "$big"
		rm -f "$big.txt"
	else
		"$GEN" "$S/sample.$fmt" "$big" "$MB" || exit 1
	fi
	echo "-- $fmt ($(wc -l < "$big") lines)"
	printf '  plain: '
	"$PB" --input-format "$fmt" "$big" || exit 1
	gzip -1 -c "$big" > "$big.gz" && rm -f "$big"
	printf '  gzip:  '
	"$PB" --input-format "$fmt" "$big.gz" || exit 1
	t0=$(date +%s.%N)
	cpu=$(sh -c 'zcat "$1" | wc -l > /dev/null; times' sh "$big.gz" | tail -n 1 |
		awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m");
			sub("s", "", a[2]); t += a[1] * 60 + a[2] } printf "%.2f", t }')
	t1=$(date +%s.%N)
	echo "  floor: zcat FILE | wc -l: cpu $cpu s (zcat + wc), wall $(echo "$t0 $t1" |
		awk '{ printf "%.2f", $2 - $1 }') s"
	rm -f "$big.gz"
done
