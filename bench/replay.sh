#!/bin/sh
# bench/replay.sh: the replay's `make bench` section (issue 6, item 5).
#
# Per policy, on the largest sample trace (traces/*.gz, else the perf
# fixture in tests/replay/data/) and on a long synthetic desktop workload
# generated here (bench/replay-bench gen; SR_BENCH_REPLAY_SECONDS, default
# 600 s of trace, and a tenth of it to show memory does not grow with
# length):
#   - simulated events per second of CPU (ticks, idle CPUs' ticks with
#     their balancing included, + program ops + wakeups + schedule()
#     calls) of the simulator on 1, 2, 4 and 8 CPUs (SR_BENCH_CPUS), the
#     nanoseconds per event, also counting only the events that are not
#     idle ticks, and trace events per second of the demand extraction,
#     the trace read into memory first so parsing is not counted
#     (bench/replay-bench run);
#   - wall time and peak RSS of `schedreplay replay TRACE --policy P -o DIR`
#     (everything: reading, all output files; on the recording's CPUs).
# Targets: >= 10 M simulated events per second per core at 2 CPUs, and a
# cost per event that stays flat from 1 to 8 CPUs; memory that grows with
# tasks and pending events, not with the trace's length.
set -u
: "${SCHEDREPLAY:?}" "${BUILD:?}" "${BENCH_TMP:?}"
SR=$SCHEDREPLAY
RB=$BUILD/bench/replay-bench
tmp=$BENCH_TMP/replay
mkdir -p "$tmp"
POLICIES=$("$SR" policies | awk '/^[^ ]/ { print $1 }')
SECS=${SR_BENCH_REPLAY_SECONDS:-600}
CPUS=${SR_BENCH_CPUS:-1,2,4,8}

[ -x "$RB" ] || { echo "   $RB missing (make bench builds it)"; exit 1; }

rss() { # rss LABEL TRACE ARGS...: wall time and peak RSS of a replay
	label=$1 trace=$2
	shift 2
	/usr/bin/time -f "%e %M" -o "$tmp/time" "$SR" replay "$trace" \
		-o "$tmp/out" -q "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "   $label: replay failed:"; sed 's/^/     /' "$tmp/err"; return 1; }
	read -r wall kb <"$tmp/time"
	printf "   %-28s %7.2f s wall, peak RSS %6.1f MB\n" "$label" "$wall" \
		"$(echo "$kb" | awk '{ print $1 / 1024 }')"
}

bench_trace() { # bench_trace TRACE
	"$RB" run "$1" --cpus "$CPUS" $POLICIES || return 1
	for p in $POLICIES; do
		rss "replay --policy $p" "$1" --policy "$p" || return 1
	done
	rss "replay (stock o11int observed)" "$1"
}

largest=$(ls -S traces/*.gz 2>/dev/null | head -n 1)
[ -n "$largest" ] || largest=$(ls -S tests/replay/data/*.perf.txt.gz | head -n 1)
echo "   largest sample: $largest ($(du -k "$largest" | cut -f1) KB)"
bench_trace "$largest" || exit 1

short=$((SECS / 10))
[ "$short" -ge 1 ] || short=1
echo "   synthetic workload: $SECS s and $short s of trace (bench/replay-bench gen)"
"$RB" gen "$SECS" "$tmp/long.txt" || exit 1
"$RB" gen "$short" "$tmp/short.txt" || exit 1
echo "   $(wc -c <"$tmp/long.txt" | awk '{ printf "%.0f", $1 / 1048576 }') MB of native text"
bench_trace "$tmp/long.txt" || exit 1
echo "   the same workload, a tenth as long (memory should not change much):"
for p in $POLICIES; do
	rss "replay --policy $p ($short s)" "$tmp/short.txt" --policy "$p" || exit 1
done
