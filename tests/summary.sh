#!/bin/sh
# summary.sh FILE: the closing line of make check, from the counts each pass
# of tests/run.sh appended to FILE ("BUILD PASSED FAILED SKIPPED").
set -u
awk '{ p += $2; f += $3; s += $4; n++ }
END {
	printf "== make check: %d passes, %d checks passed, %d failed, %d skipped%s\n",
		n, p, f, s, (s ? " (reasons above, in each pass'"'"'s SKIP lines)" : "")
	exit (f > 0)
}' "$1"
