#!/bin/sh
# demo.sh (`make demo`): the main job, end to end, on the bundled sample
# recorded with X, an audio player and `make -j4` running at once:
#   1. install what is missing (deps.sh: as root through apt-get, or say
#      exactly what to run), 2. build, 3. print the diff's first screen:
#   the verdict per group of tasks (is o11int better than stock for this
#   workload?), the rule that chose its words, then the headline, 4.
#   replay the sample under stock and o11int (and the recorded schedule,
#   observed), 5. write the whole diff, the plots and the HTML report
#   under out/, 6. say where they are.  Every line fits 100 columns
#   (tests/builtin/demo.sh holds it).
# Runs on a fresh Debian machine.  SAMPLE=path/to/trace overrides the
# sample; SCHEDREPLAY=path/to/binary runs that binary instead of building.
set -eu
cd "$(dirname "$0")"

SAMPLE=${SAMPLE:-traces/mixed.perf.txt.gz}
OUT=${OUT:-out}
# The recording is system-wide: the machine's other work is in it too, and
# is replayed with the rest (it competed for the CPU).  What we look at is
# the recorded command's process tree: `perf sched record` runs it as
# perf-exec.  TREE= (empty) shows every task.
TREE=${TREE-perf-exec}

SR=${SCHEDREPLAY:-./schedreplay}

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }
die() { printf 'demo: %s\n' "$*" >&2; exit 1; }

# ---- 1. dependencies ---------------------------------------------------

sh ./deps.sh ensure build run || exit 1

# ---- 2. build ----------------------------------------------------------

if [ -z "${SCHEDREPLAY:-}" ]; then
	step "building ./schedreplay"
	make --no-print-directory >/dev/null || die "the build failed: run make to see why"
fi

# ---- 3. the verdict ------------------------------------------------------

[ -f "$SAMPLE" ] || die "no sample trace at $SAMPLE (traces/README.md says how to record one: traces/record.sh mixed)"
name=$(basename "$SAMPLE")
mkdir -p "$OUT"
focus=""
[ -z "$TREE" ] || focus="--tree $TREE"
step "is o11int better than stock for $name${TREE:+ (the tree of $TREE)}?"
# shellcheck disable=SC2086
"$SR" diff "$SAMPLE" $focus -q >"$OUT/diff.txt"
# the first screen: up to the tables
awk '/^(periodic tasks|tasks) / { exit } { print }' "$OUT/diff.txt" |
	sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
say "(the tables: $OUT/diff.txt; the reasons: diff -v; docs/why.md says how)"

# ---- 4. replay ---------------------------------------------------------

step "replaying $name under stock, o11int and observed (the recording)"
"$SR" replay "$SAMPLE" --policy stock --policy o11int --policy observed \
	-o "$OUT/replay" -q

# ---- 5. the whole diff, plots and report ---------------------------------

step "the diff as TSV and JSON, plots and report"
# shellcheck disable=SC2086
"$SR" diff "$OUT/replay" $focus --title "$name" --tsv >"$OUT/diff.tsv"
# shellcheck disable=SC2086
"$SR" diff "$OUT/replay" $focus --title "$name" --json >"$OUT/diff.json"
rc=0
# shellcheck disable=SC2086
"$SR" plot "$OUT/replay" $focus --title "$name" -o "$OUT/plots" -q >/dev/null || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 69 ] || die "plot failed (status $rc)"
# shellcheck disable=SC2086
"$SR" report "$OUT/replay" $focus --title "$name" -o "$OUT/report" -q >/dev/null || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 69 ] || die "report failed (status $rc)"

# ---- 6. where ----------------------------------------------------------

step "done"
say "the replay (timelines, latencies, summaries per policy): $OUT/replay/"
say "the diff: $OUT/diff.{txt,tsv,json}"
if [ $rc -eq 0 ]; then
	say "plots (PNG, with their gnuplot scripts and data): $OUT/plots/"
	say "the report (one page, plots inline): $OUT/report/index.html"
else
	say "plots: gnuplot failed or is missing; scripts and data are in $OUT/plots/"
	say "install it (apt-get install gnuplot-nox, as root) and run make demo again"
	exit 69
fi
