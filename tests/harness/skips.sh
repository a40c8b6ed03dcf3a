#!/bin/sh
# tests/run.sh's rule for skips: a skip says why in one of three forms
# (skip package NAME, skip privilege, skip hardware); any other skip fails,
# and in CI (SR_REQUIRE_PACKAGES=1) a package skip fails too.  Five toy
# tests in a scratch tree, run by the real run.sh and lib.sh.
. tests/lib/lib.sh
mkdir -p "$T/tree/tests/x" "$T/tree/tests/lib"
cp tests/run.sh "$T/tree/tests/"
cp tests/lib/lib.sh "$T/tree/tests/lib/"
cd "$T/tree"
printf '. tests/lib/lib.sh\nskip package foo "no foo on PATH"\n' >tests/x/a-package.sh
printf '. tests/lib/lib.sh\nskip privilege "not root"\n' >tests/x/b-privilege.sh
printf '. tests/lib/lib.sh\nskip hardware "no such device"\n' >tests/x/c-hardware.sh
printf '. tests/lib/lib.sh\nskip "no data"\n' >tests/x/d-bare.sh
printf 'echo "no sample traces"; exit 77\n' >tests/x/e-exit77.sh
printf '. tests/lib/lib.sh\nneed no-such-command-here bar\n' >tests/x/f-need.sh

run() { # run REQUIRE: the summary line of run.sh
	SR_REQUIRE_PACKAGES=$1 SCHEDREPLAY=/bin/true BUILD=build CHECK_SUMMARY= \
		sh tests/run.sh >"$T/out" 2>&1
}
has() { nchecks=$((nchecks + 1)); grep -q -- "$1" "$T/out" || { cat "$T/out" >&2; fail "no line /$1/"; }; }

run 0
has '^SKIP tests/x/a-package.sh: skip package foo: no foo on PATH$'
has '^SKIP tests/x/b-privilege.sh: skip privilege: not root$'
has '^SKIP tests/x/c-hardware.sh: skip hardware: no such device$'
has '^FAIL tests/x/d-bare.sh'
has '^FAIL tests/x/e-exit77.sh: skipped without a reason'
has '^SKIP tests/x/f-need.sh: skip package bar: no no-such-command-here on PATH$'
has '^== build: 0 passed, 2 failed, 4 skipped'
run 1
has '^FAIL tests/x/a-package.sh: skipped, but CI installed every package'
has '^FAIL tests/x/f-need.sh: skipped, but CI installed every package'
has '^SKIP tests/x/b-privilege.sh'
has '^SKIP tests/x/c-hardware.sh'
has '^== build: 0 passed, 4 failed, 2 skipped'
done_ok
