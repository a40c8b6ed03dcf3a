#!/bin/sh
# Remake the binary test fixtures of this folder (as root, with perf and
# trace-cmd): a short real recording of the same workload by perf sched
# record and by a tracefs instance at once, cut small with
# traces/bintool.py, and the texts perf script --ns and trace-cmd report
# -t print of them.  See README.md here for what each file is.
#
#	sh tests/parse/data/bin/make.sh [DIR]    (default: this folder)
set -eu
out=${1:-tests/parse/data/bin}
tool=traces/bintool.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/srbin.XXXXXX")
trap 'rm -rf "$tmp"; rmdir "$inst" 2>/dev/null || true' EXIT
tracefs=/sys/kernel/tracing
inst=$tracefs/instances/srfixture$$
events="sched_switch sched_waking sched_wakeup sched_wakeup_new
	sched_process_fork sched_process_exit sched_process_free
	sched_migrate_task sched_stat_runtime"

workload='for i in 1 2 3 4 5; do sleep 0.01; ls / >/dev/null; done'

# $1: buffer size in KiB per cpu, then the command
ftrace_on() {
	mkdir "$inst"
	echo "$1" > "$inst/buffer_size_kb"
	for e in $events; do echo 1 > "$inst/events/sched/$e/enable"; done
	echo 1 > "$inst/tracing_on"
}
ftrace_off() {
	echo 0 > "$inst/tracing_on"
	trace-cmd extract -B "${inst##*/}" -o "$tmp/$1.dat" >/dev/null 2>&1
	trace-cmd convert -i "$tmp/$1.dat" -o "$tmp/$1.v6.dat" \
		--file-version 6 --compression none >/dev/null 2>&1
	rmdir "$inst" 2>/dev/null || true  # trace-cmd extract may remove it
}

# 1. the workload, both recorders, ample buffers
ftrace_on 1024
perf sched record -o "$tmp/w.data" -- sh -c "$workload" >/dev/null 2>&1
ftrace_off w
python3 "$tool" perf-strip "$tmp/w.data" "$out/sleep.perf.data" --max-samples 400
perf script --ns -i "$out/sleep.perf.data" > "$out/sleep.perf.txt" 2>/dev/null
python3 "$tool" perf-zstd "$out/sleep.perf.data" "$out/sleep.zstd.perf.data"
perf sched record -o - -- sh -c "$workload" 2>/dev/null > "$tmp/p.data"
python3 "$tool" perf-strip "$tmp/p.data" "$out/sleep.pipe.perf.data" --max-samples 400
perf script --ns -i "$out/sleep.pipe.perf.data" > "$out/sleep.pipe.perf.txt" 2>/dev/null
python3 "$tool" trace-dat "$tmp/w.v6.dat" "$out/sleep.v6.dat" --version 6 --pages 3
python3 "$tool" trace-dat "$tmp/w.v6.dat" "$out/sleep.v7.dat" --version 7 --pages 3
python3 "$tool" trace-dat "$tmp/w.v6.dat" "$out/sleep.v6top.dat" --version 6 --pages 3 --top
python3 "$tool" trace-dat "$tmp/w.v6.dat" "$out/sleep.v7top.dat" --version 7 --pages 3 --top
python3 "$tool" trace-dat "$out/sleep.v6top.dat" "$out/sleep.v7gap.dat" --version 7 --cpu-numbers 0,2
trace-cmd convert -i "$out/sleep.v6.dat" -o "$out/sleep.v7zstd.dat" \
	--file-version 7 --compression zstd >/dev/null 2>&1
trace-cmd report -t -i "$out/sleep.v7.dat" > "$out/sleep.v7.txt" 2>/dev/null
trace-cmd report -R -t -i "$out/sleep.v7.dat" > "$out/sleep.v7-raw.txt" 2>/dev/null

# 2. lost events: one-page buffers under load
ftrace_on 4
perf sched record -m 1 -o "$tmp/l.data" -- sh -c \
	"for i in 1 2 3 4 5 6 7 8; do ls -R /usr/lib >/dev/null & done; wait" >/dev/null 2>&1
ftrace_off l
python3 "$tool" perf-strip "$tmp/l.data" "$out/lost.perf.data" --max-samples 600
perf script --ns --show-lost-events -i "$out/lost.perf.data" > "$out/lost.perf.txt" 2>/dev/null
python3 "$tool" trace-dat "$tmp/l.v6.dat" "$out/lost.v7.dat" --version 7 --pages 4 --top
ls -l "$out"
