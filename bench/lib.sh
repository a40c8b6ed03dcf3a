# bench/lib.sh: the start every section of make bench shares, sourced
# (`. bench/lib.sh`): what bench/run.sh exports, checked; the binary as
# SR and the tools bench/*.c build; bench_dir NAME makes the section's
# scratch directory $tmp under BENCH_TMP.
set -u
: "${SCHEDREPLAY:?run through make bench}" "${BUILD:?}" "${BENCH_TMP:?}"
SR=$SCHEDREPLAY
GEN=$BUILD/bench/trace-gen
PB=$BUILD/bench/parse-bench
RB=$BUILD/bench/replay-bench
RUNSTAT=$BUILD/bench/runstat

bench_dir() {
	tmp=$BENCH_TMP/$1
	mkdir -p "$tmp"
}
