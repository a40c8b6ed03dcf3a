#!/bin/sh
# bench/export.sh: `schedreplay export` (Chrome JSON trace of the replayed
# schedules) for `make bench`: wall time, peak RSS, the file's size and its
# events per phase, on the largest sample trace and on a synthetic desktop
# workload of SR_BENCH_EXPORT_SECONDS (default 120 s) of trace and a tenth
# of it.  Memory should grow with tasks and CPUs, not with the trace's
# length (the events are spooled per policy to a temporary file).
. bench/lib.sh
bench_dir export
SECS=${SR_BENCH_EXPORT_SECONDS:-120}

one() { # one LABEL TRACE: export it with the default policies
	/usr/bin/time -f "%e %M" -o "$tmp/time" "$SR" export "$2" \
		-o "$tmp/out.json" >"$tmp/sum" 2>"$tmp/err" ||
		{ echo "   $1: export failed:"; sed 's/^/     /' "$tmp/err"; return 1; }
	read -r wall kb <"$tmp/time"
	printf "   %-24s %7.2f s wall, peak RSS %6.1f MB, %7.1f MB of JSON, %s\n" \
		"$1" "$wall" "$(echo "$kb" | awk '{ print $1 / 1024 }')" \
		"$(wc -c <"$tmp/out.json" | awk '{ print $1 / 1048576 }')" \
		"$(sed 's/^wrote [^:]*: //' "$tmp/sum")"
}

largest=$(ls -S traces/*.gz 2>/dev/null | head -n 1)
[ -n "$largest" ] || largest=$(ls -S tests/replay/data/*.perf.txt.gz | head -n 1)
one "$(basename "$largest")" "$largest" || exit 1
[ -x "$RB" ] || { echo "   $RB missing (make bench builds it)"; exit 1; }
short=$((SECS / 10))
[ "$short" -ge 1 ] || short=1
"$RB" gen "$SECS" "$tmp/long.txt" >/dev/null || exit 1
"$RB" gen "$short" "$tmp/short.txt" >/dev/null || exit 1
one "synthetic ${SECS} s" "$tmp/long.txt" || exit 1
one "synthetic ${short} s" "$tmp/short.txt" || exit 1
