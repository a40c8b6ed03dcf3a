#!/bin/sh
# R5 (round 3): a trace.dat (version 7) whose cpu list has a gap (cpus 0
# and 2) lost cpu 2's events, exit 0, where `trace-cmd report` reads them:
# the reader asked libtracecmd for cpus 0 to the file's cpu count (2) - 1.
# Now it asks for every cpu number a buffer lists (tdcheck walks them),
# and a cpu listed twice is refused.
#
# sleep.v7gap.dat holds sleep.v7top.dat's pages with cpu 1's renamed cpu
# 2 (traces/bintool.py --cpu-numbers 0,2; its CPUCOUNT option stays 2):
# every event of the one is in the other, cpu 1 read as cpu 2.
. tests/lib/lib.sh
B=tests/parse/data/bin
expect_status 0 "$SR" convert $B/sleep.v7top.dat
awk '!/^#/ { if ($2 == 1) $2 = 2; print }' "$T/out" > "$T/want"
expect_status 0 "$SR" convert $B/sleep.v7gap.dat
grep -v '^#' "$T/out" > "$T/got"
expect_same "$T/got" "$T/want"
# cpu 2 holds the events cpu 1 held (283 lines of the 563: none lost)
nchecks=$((nchecks + 1))
[ "$(awk '$2 == 2' "$T/got" | wc -l)" -eq 283 ] || fail "cpu 2: $(awk '$2 == 2' "$T/got" | wc -l) events, want 283"
# the same figures task by task
expect_status 0 "$SR" stats --tsv $B/sleep.v7top.dat
cp "$T/out" "$T/top.tsv"
expect_status 0 "$SR" stats --tsv $B/sleep.v7gap.dat
expect_same "$T/out" "$T/top.tsv"
# as many events per cpu as trace-cmd report prints, where it is here
if command -v trace-cmd >/dev/null 2>&1; then
	trace-cmd report -t -i $B/sleep.v7gap.dat 2>/dev/null |
		awk '$2 ~ /^\[00[0-9]\]$/ { n[$2]++ } END { for (c in n) print c, n[c] }' |
		sort > "$T/tc"
	nchecks=$((nchecks + 1))
	[ "$(cat "$T/tc")" = "[000] 266
[002] 274" ] || fail "trace-cmd report: $(cat "$T/tc")"
fi
# a cpu listed twice in one buffer is refused, with where
if command -v python3 >/dev/null 2>&1; then
	python3 traces/bintool.py trace-dat $B/sleep.v6top.dat "$T/dup.dat" \
		--version 7 --cpu-numbers 1,1
	expect_status 65 "$SR" stats "$T/dup.dat"
	expect_err "^schedreplay: $T/dup.dat:[0-9]+: expected each cpu once in a buffer's cpu list, got cpu 1 again$"
fi
done_ok
