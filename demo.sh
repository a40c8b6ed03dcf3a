#!/bin/sh
# demo.sh (`make demo`): the main job, end to end, on the bundled sample
# recorded with X, an audio player and `make -j4` running at once:
#   1. install what is missing (deps.sh: as root through apt-get, or say
#      exactly what to run), 2. build, 3. print the verdict per group of
#   tasks (is o11int better than stock for this workload, and why), 4. replay
#   the sample under stock and o11int (and the recorded schedule, observed),
#   5. print the diff, 6. write the plots and the HTML report under out/,
#   7. say where they are.
# Runs on a fresh Debian machine.  SAMPLE=path/to/trace overrides the sample.
set -eu
cd "$(dirname "$0")"

SAMPLE=${SAMPLE:-traces/mixed.perf.txt.gz}
OUT=${OUT:-out}
# The recording is system-wide: the machine's other work is in it too, and
# is replayed with the rest (it competed for the CPU).  What we look at is
# the recorded command's process tree: `perf sched record` runs it as
# perf-exec.  TREE= (empty) shows every task.
TREE=${TREE-perf-exec}

say() { printf '%s\n' "$*"; }
step() { printf '\n== %s\n' "$*"; }
die() { printf 'demo: %s\n' "$*" >&2; exit 1; }

# ---- 1. dependencies ---------------------------------------------------

sh ./deps.sh ensure build run || exit 1

# ---- 2. build ----------------------------------------------------------

step "building ./schedreplay"
make --no-print-directory >/dev/null || die "the build failed: run make to see why"

# ---- 3. the verdict ------------------------------------------------------

[ -f "$SAMPLE" ] || die "no sample trace at $SAMPLE (traces/README.md says how to record one: traces/record.sh mixed)"
name=$(basename "$SAMPLE")
mkdir -p "$OUT"
focus=""
[ -z "$TREE" ] || focus="--tree $TREE"
step "the verdict: is o11int better than stock for $name${TREE:+ (the process tree of $TREE)}, and why"
# shellcheck disable=SC2086
./schedreplay diff "$SAMPLE" $focus >"$OUT/diff.txt"
sed -n '/^verdict: /,/^$/{/^$/!p}' "$OUT/diff.txt"

# ---- 4. replay ---------------------------------------------------------

step "replaying $SAMPLE under stock, o11int and observed (the recorded schedule)"
./schedreplay replay "$SAMPLE" --policy stock --policy o11int --policy observed \
	-o "$OUT/replay"

# ---- 5. diff -----------------------------------------------------------

step "what o11int changed against stock${TREE:+ (the process tree of $TREE)}, task by task"
cat "$OUT/diff.txt"
# shellcheck disable=SC2086
./schedreplay diff "$SAMPLE" $focus --tsv >"$OUT/diff.tsv"
# shellcheck disable=SC2086
./schedreplay diff "$SAMPLE" $focus --json >"$OUT/diff.json"

# ---- 6. plots and report -----------------------------------------------

step "plots and report"
rc=0
# shellcheck disable=SC2086
./schedreplay plot "$SAMPLE" $focus -o "$OUT/plots" || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 69 ] || die "plot failed (status $rc)"
# shellcheck disable=SC2086
./schedreplay report "$SAMPLE" $focus -o "$OUT/report" >/dev/null || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 69 ] || die "report failed (status $rc)"

# ---- 7. where ----------------------------------------------------------

step "done"
say "replay (timelines, latencies, summaries per policy): $OUT/replay/"
say "diff: $OUT/diff.txt, $OUT/diff.tsv, $OUT/diff.json"
if [ $rc -eq 0 ]; then
	say "plots (PNG, with their gnuplot scripts and data):"
	for f in "$OUT"/plots/*.png; do say "    $f"; done
	say "report (one self-contained page, plots inline): $OUT/report/index.html"
else
	say "plots: gnuplot failed or is missing; scripts and data are in $OUT/plots/"
	say "install it (apt-get install gnuplot-nox, as root) and run make demo again"
	exit 69
fi
