#!/bin/sh
# Remake the real recording of this folder (as root, with perf for its
# workload): the sched events of one small workload, recorded by a tracefs
# instance that follows the workload's process tree only (set_event_pid
# with event-fork: an event is kept when a task of the tree is its subject
# or runs it), read back as the instance's `trace` file and compressed.
# See README.md here for what it holds and the counts test-real expects.
#
#	sh tests/parse/data/real/make.sh [DIR]    (default: this folder)
set -eu
out=${1:-tests/parse/data/real}
tracefs=/sys/kernel/tracing
inst=$tracefs/instances/srreal$$
events="sched_switch sched_waking sched_wakeup sched_wakeup_new
	sched_process_fork sched_process_exit sched_process_free
	sched_migrate_task"
workload='perf bench sched pipe -l 100 >/dev/null &
	perf bench sched pipe -l 100 >/dev/null; wait
	for i in 1 2 3; do sleep 0.01; ls / >/dev/null; done'

tmp=$(mktemp "${TMPDIR:-/tmp}/srreal.XXXXXX")
mkdir "$inst"
trap 'echo 0 > "$inst/tracing_on" 2>/dev/null; rmdir "$inst" 2>/dev/null || true; rm -f "$tmp"' EXIT
echo 0 > "$inst/tracing_on"   # a new instance starts on, for every pid
echo 2048 > "$inst/buffer_size_kb"
for e in $events; do echo 1 > "$inst/events/sched/$e/enable"; done
echo 1 > "$inst/options/event-fork"
# the shell names itself as the tree's root, starts tracing, then runs it
sh -c 'echo $$ > "$1/set_event_pid"; echo 1 > "$1/tracing_on"; exec sh -c "$2"' \
	sh "$inst" "$workload"
echo 0 > "$inst/tracing_on"
cat "$inst/trace" > "$tmp"
gzip -9 -n < "$tmp" > "$out/pipe.ftrace.txt.gz"
ls -l "$out"
