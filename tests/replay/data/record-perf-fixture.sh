#!/bin/sh
# Re-make the perf agreement fixture of tests/replay/perf-agreement.sh:
#   perf-mix.perf.txt.gz       `perf script --ns` of a `perf sched record`
#   perf-mix.perf-latency.txt  `perf sched latency -p` on the same perf.data
#   perf-mix.perf-latency-comm.txt  `perf sched latency` (merged by comm)
# Run as root from the repository root: sh tests/replay/data/record-perf-fixture.sh
# Needs perf (Debian: linux-perf).  The workload, about 1.5 s on 2 cpus: two
# cpu hogs (preemptions), a task sleeping 10 ms 40 times (timer wakeups),
# a pipe (producer/consumer wakeups), and compiling three files of this
# repo (forks, execs, short-lived tasks).  Whatever else runs on the machine
# is recorded too: record on a quiet machine.  The perf.data stays in a temporary
# directory; only the text is kept.
set -eu
out=tests/replay/data
repo=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v perf >/dev/null || { echo "perf not installed" >&2; exit 1; }

cat >"$tmp/work.sh" <<'WORK'
#!/bin/sh
repo=$1 tmp=$2
timeout 1.5 sh -c 'while :; do :; done' &
timeout 1.5 sh -c 'while :; do :; done' &
( i=0; while [ $i -lt 40 ]; do sleep 0.01; i=$((i + 1)); done ) &
( head -c 5000000 /dev/zero | cat >/dev/null ) &
make -s -C "$repo" BUILD="$tmp/b" -j4 "$tmp/b/lib/diag.o" "$tmp/b/lib/outfile.o" \
	"$tmp/b/replay/metrics.o" >/dev/null 2>&1
wait
WORK
perf sched record -q -o "$tmp/perf.data" -- sh "$tmp/work.sh" "$repo" "$tmp" \
	>/dev/null 2>&1
perf script --ns -i "$tmp/perf.data" 2>/dev/null | gzip -9 -n \
	>"$out/perf-mix.perf.txt.gz"
perf sched latency -p -i "$tmp/perf.data" 2>/dev/null \
	>"$out/perf-mix.perf-latency.txt"
perf sched latency -i "$tmp/perf.data" 2>/dev/null \
	>"$out/perf-mix.perf-latency-comm.txt"
# no local paths in what is committed
if zcat "$out/perf-mix.perf.txt.gz" | grep -q "$tmp\|$repo"; then
	echo "local path in the perf script text" >&2; exit 1
fi
ls -l "$out"/perf-mix.*
