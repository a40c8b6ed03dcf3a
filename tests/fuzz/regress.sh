#!/bin/sh
# regress: every kept fuzz input through its target's code without
# libFuzzer (each target linked with tests/fuzz/driver.c), in this build:
# normal, or ASan+UBSan with SAN=1.  The inputs are the crashers that were
# fixed (tests/fuzz/regress/TARGET/, one directory per target) and the
# reader and replay test data.
# A target aborts on a broken check (tests/fuzz/fuzz.h) and a sanitizer
# report fails the process, so each run must exit 0.
. tests/lib/lib.sh
B=${BUILD:-build}/tests/fuzz
UBSAN_OPTIONS=print_stacktrace=1; export UBSAN_OPTIONS
ntargets=0
for d in tests/fuzz/regress/*; do
	[ -d "$d" ] || continue
	[ -x "$B/${d##*/}" ] || fail "$d: no fuzz target ${d##*/} (tests/fuzz/${d##*/}.c)"
done
for bin in "$B"/fuzz-*; do
	[ -x "$bin" ] || continue
	t=${bin##*/}
	set --
	for f in tests/fuzz/regress/$t/* \
		 tests/parse/data/* tests/parse/data/bin/*.data \
		 tests/parse/data/bin/*.dat tests/replay/data/*.txt; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	[ $# -gt 0 ] || continue
	expect_status 0 "$bin" "$@"
	ntargets=$((ntargets + 1))
done
[ "$ntargets" -gt 0 ] || fail "no fuzz targets built in $B"

# In the sanitizer build, a report must fail the run: errors made on
# purpose (tests/fuzz/driver.c --canary) must end with a non-zero status
# and the sanitizer's own message.
if [ "${SAN:-0}" = 1 ]; then
	bin=$(ls "$B"/fuzz-* | head -n 1)
	for c in "asan AddressSanitizer: heap-buffer-overflow" \
		 "ubsan runtime error: signed integer overflow" \
		 "leak LeakSanitizer: detected memory leaks"; do
		kind=${c%% *}
		"$bin" --canary "$kind" >"$T/out" 2>"$T/err"
		rc=$?
		nchecks=$((nchecks + 1))
		[ $rc -ne 0 ] || fail "SAN build: a $kind error exits 0"
		expect_err "${c#* }"
	done
	echo "sanitizer canaries: asan, ubsan and leak reports fail the run"
fi
echo "$ntargets fuzz targets replayed their kept inputs"
done_ok
