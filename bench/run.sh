#!/bin/sh
# make bench: a simple sequence of sections, each printing its figures.
# To add one: write bench/<name>.sh (it gets SCHEDREPLAY, BUILD and a
# scratch directory BENCH_TMP, removed at the end; it begins with
# `. bench/lib.sh` and `bench_dir NAME`; a figure with a target is also a
# row of $BENCH_TMP/summary: FIGURE, VALUE, TARGET, tab-separated, printed
# as a table at the end) and add a section line at the
# bottom.  Figures are printed, never checked: targets are judged by
# reading them.  BENCH_MB (default 128) sets the size of generated traces; the whole run
# takes a few minutes on two CPUs.
set -u
: "${SCHEDREPLAY:?run through make bench}"
BUILD=${BUILD:-build}
BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/srbench.XXXXXX")
export SCHEDREPLAY BUILD BENCH_TMP
trap 'rm -rf "$BENCH_TMP"' EXIT INT TERM
failed=0

section() {
	title=$1
	shift
	echo
	echo "== $title"
	"$@" || { echo "(section '$title' failed: exit $?)"; failed=1; }
}

echo "schedreplay bench on $(uname -m), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg)"

section "parse throughput (parse/)" sh bench/parse.sh
section "stats vs perf sched latency per recording kind, text and gzip (parse/, replay/)" sh bench/stats-vs-perf.sh
section "memory per task record (parse/, replay/)" sh bench/tasks.sh
section "scheduler models (sched-model/)" sh bench/models.sh
section "replay: simulated events per second and peak RSS per policy (replay/)" sh bench/replay.sh
section "replay -j: the simulators on threads (replay/, lib/pool)" sh bench/jobs.sh
section "why it waited: the attribution's cost (replay/, docs/why.md)" sh bench/why.sh
section "export: the Chrome JSON trace, time, memory and size (replay/trace-event)" sh bench/export.sh
section "sweep: a Slurm task's time and memory against what sweep.sbatch asks (compare/sweep-slurm)" sh bench/sweep.sh
section "interbench: the full grid's time (replay/interbench)" sh bench/interbench.sh

# The figures with a target, beside it (each section adds its rows to
# $BENCH_TMP/summary: figure, median (lowest-highest), target).
if [ -s "$BENCH_TMP/summary" ]; then
	echo
	echo "== summary: each figure beside its target"
	awk -F '\t' '{ printf "   %-52s %-24s %s\n", $1, $2, $3 }' "$BENCH_TMP/summary"
fi
exit $failed
