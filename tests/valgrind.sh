#!/bin/sh
# Run schedreplay under valgrind on one sample (the smallest in traces/,
# else the reader test data): stats, a replay under every policy, the
# diff and the export, failing on any error or leak report; then the kept fuzz inputs through their targets (valgrind sees
# reads of uninitialised memory, which ASan does not).  First a canary: a
# use-after-free built here must make this valgrind fail, or the check
# would prove nothing.
set -u
: "${SCHEDREPLAY:?}"
BUILD=${BUILD:-build}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind: not installed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vg() {
	valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect \
		--suppressions=tests/lib/valgrind.supp "$@"
}

printf '#include <stdlib.h>\nint main(void) { char *p = malloc(8); p[0] = 1; free(p); return p[0] == 7; }\n' > "$tmp/canary.c"
if ${CC:-cc} -O0 -g -o "$tmp/canary" "$tmp/canary.c" 2>"$tmp/err"; then
	vg "$tmp/canary" >/dev/null 2>&1
	rc=$?
	if [ $rc -ne 99 ]; then
		echo "FAIL valgrind canary: a use-after-free gave exit $rc, not 99"
		exit 1
	fi
else
	echo "FAIL valgrind canary: cannot compile it"; cat "$tmp/err"; exit 1
fi

sample=$(ls -S traces/*.gz 2>/dev/null | tail -n 1)
[ -n "$sample" ] || sample=tests/parse/data/perf-small.txt
vg "$SCHEDREPLAY" stats "$sample" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL valgrind stats $sample (exit $rc)"; head -n 40 "$tmp/err"; exit 1
fi
echo "PASS valgrind stats $sample"

# the simulators and the diff on the same sample (every policy)
vg "$SCHEDREPLAY" replay "$sample" -o "$tmp/replay" -q \
	$("$SCHEDREPLAY" policies | awk '/^[^ ]/ { printf " --policy %s", $1 }') \
	--policy observed >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL valgrind replay $sample (exit $rc)"; head -n 40 "$tmp/err"; exit 1
fi
vg "$SCHEDREPLAY" diff "$sample" --json >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL valgrind diff $sample (exit $rc)"; head -n 40 "$tmp/err"; exit 1
fi
vg "$SCHEDREPLAY" export "$sample" -q -o "$tmp/export.json" \
	$("$SCHEDREPLAY" policies | awk '/^[^ ]/ { printf " --policy %s", $1 }') \
	--policy observed >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL valgrind export $sample (exit $rc)"; head -n 40 "$tmp/err"; exit 1
fi
echo "PASS valgrind replay, diff and export $sample"

# a trace with the recording's context: pins, an exec's, a child forked
# onto another cpu, RR, nice (docs/replay.md), under every policy
f=tests/replay/data/context.txt
vg "$SCHEDREPLAY" replay "$f" -o "$tmp/ctx" -q --check \
	$("$SCHEDREPLAY" policies | awk '/^[^ ]/ { printf " --policy %s", $1 }') \
	--policy observed >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL valgrind replay $f (exit $rc)"; head -n 40 "$tmp/err"; exit 1
fi
echo "PASS valgrind replay $f"

# the binary readers: perf.data (pipe mode), trace.dat (zstd, instances)
for f in tests/parse/data/bin/sleep.pipe.perf.data \
	 tests/parse/data/bin/sleep.v7zstd.dat; do
	vg "$SCHEDREPLAY" stats "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL valgrind stats $f (exit $rc)"; head -n 40 "$tmp/err"; exit 1
	fi
done
echo "PASS valgrind stats on perf.data and trace.dat"

# interbench: its synthetic programs on two threads, the saved traces
vg "$SCHEDREPLAY" interbench --policy stock --policy cfs --policy 2.4 \
	--task audio --task x --load compile --load video --cpus 1 --cpus 2 \
	--duration 10 --contest -j 2 --save "$tmp/ib" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL valgrind interbench (exit $rc)"; head -n 40 "$tmp/err"; exit 1
fi
echo "PASS valgrind interbench"

n=0
for bin in "$BUILD"/tests/fuzz/fuzz-*; do
	[ -x "$bin" ] || continue
	t=${bin##*/}
	set --
	for f in tests/fuzz/regress/$t/*; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	[ $# -gt 0 ] || continue
	vg "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL valgrind $t on its kept inputs (exit $rc)"
		head -n 40 "$tmp/err"; exit 1
	fi
	n=$((n + 1))
done
echo "PASS valgrind: kept fuzz inputs of $n targets"
[ -z "${CHECK_SUMMARY:-}" ] || echo "valgrind 4 0 0" >>"$CHECK_SUMMARY"
