#!/bin/sh
# Run schedreplay once under valgrind on the bundled mixed sample (or the
# smallest sample present), failing on any error or leak report.
set -u
: "${SCHEDREPLAY:?}"
command -v valgrind >/dev/null 2>&1 || { echo "valgrind: not installed"; exit 1; }
sample=$(ls traces/*.gz 2>/dev/null | head -n 1)
[ -n "$sample" ] || { echo "valgrind: no sample in traces/ yet, skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	"$SCHEDREPLAY" stats "$sample" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL valgrind stats $sample (exit $rc)"; head -n 40 "$tmp/err"; exit 1
fi
echo "PASS valgrind stats $sample"
