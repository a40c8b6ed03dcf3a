#!/bin/sh
# Run the test programs given as arguments, then every tests/*/*.sh.
# Each prints what it checks; exit 0 = pass, 77 = skipped, else fail.  A
# skip says why in its last line, in one of three forms (tests/lib/lib.sh
# skip, tests/lib/test.h test_skip):
#	skip package NAME: REASON	a Debian package is missing
#	skip privilege: REASON		root or a capability is missing
#	skip hardware: REASON		a device or CPU feature is missing
# Any other skip is a failure: a test does not skip for want of its own
# data or of a command of ours.  With SR_REQUIRE_PACKAGES=1 (CI, which
# installed every package) a package skip is a failure too.
# Environment: SCHEDREPLAY (the binary), BUILD, SAN, CHECK_SUMMARY (a file
# this pass appends "BUILD PASSED FAILED SKIPPED" to).
set -u
pass=0 fail=0 skip=0
failed=""
skipped=""
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# leaks inside the libraries we call are theirs (tests/lib/lsan.supp)
LSAN_OPTIONS="suppressions=$(pwd)/tests/lib/lsan.supp:print_suppressions=0"
export LSAN_OPTIONS

# skip_reason LOG: the last line of LOG is a skip of a stated kind.
skip_reason() {
	tail -n 1 "$1" | grep -Eq '^skip (package [^ :]+|privilege|hardware): .'
}

run_one() {
	name=$1; shift
	"$@" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "PASS $name"
	elif [ $rc -eq 77 ] && ! skip_reason "$log"; then
		fail=$((fail + 1)); failed="$failed $name"
		echo "FAIL $name: skipped without a reason of the form 'skip package NAME:', 'skip privilege:' or 'skip hardware:': $(tail -n 1 "$log")"
	elif [ $rc -eq 77 ] && [ "${SR_REQUIRE_PACKAGES:-0}" = 1 ] &&
		tail -n 1 "$log" | grep -q '^skip package '; then
		fail=$((fail + 1)); failed="$failed $name"
		echo "FAIL $name: skipped, but CI installed every package: $(tail -n 1 "$log")"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); echo "SKIP $name: $(tail -n 1 "$log")"
		skipped="$skipped
	$name: $(tail -n 1 "$log")"
	else
		fail=$((fail + 1)); failed="$failed $name"
		echo "FAIL $name (exit $rc)"; sed 's/^/    /' "$log" | tail -n 40
	fi
}

for t in "$@"; do
	run_one "$t" "$t"
done
for t in tests/*/*.sh; do
	case $t in tests/lib/*) continue ;; esac
	[ -f "$t" ] || continue
	run_one "$t" sh "$t"
done
echo "== ${BUILD:-build}: $pass passed, $fail failed, $skip skipped$skipped"
[ -z "${CHECK_SUMMARY:-}" ] ||
	echo "${BUILD:-build} $pass $fail $skip" >>"$CHECK_SUMMARY"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
