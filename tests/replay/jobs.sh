#!/bin/sh
# replay -j N: the policies' simulators on N threads at once
# (replay/replay.c, lib/pool.c).  The sequential run (-j 1) is the
# reference: every policy's files are the same bytes whatever N, with
# --rt rules (each thread matches through its own) and with steps of a
# few events (many barriers; --batch); more threads than policies is
# fine; -j 0 and more than 256 threads are refused (64).  --thread-cpu
# says how many steps ran on threads: none with -j 1, at least one per
# batch with -j 2.
. tests/lib/lib.sh
F=traces/mixed.perf.txt.gz
SIMS=$("$SR" policies | awk '/^[^ ]/ { print $1 }')
POL=""
for p in $SIMS; do POL="$POL --policy $p"; done

expect_status 0 "$SR" replay "$F" -q -o "$T/j1" $POL --policy observed \
	--rt 'nm|objtool' -j 1 --thread-cpu
expect_err "simulator threads: 0 steps"
expect_status 0 "$SR" replay "$F" -q -o "$T/j2" $POL --policy observed \
	--rt 'nm|objtool' -j 2 --batch 500 --thread-cpu
# one step per 500 events read, and the last: at least events / 500
events=$(gzip -dc "$F" | grep -c ' sched:')
steps=$(sed -n 's/^simulator threads: \([0-9]*\) steps.*/\1/p' "$T/err")
nchecks=$((nchecks + 1))
[ "${steps:-0}" -ge $((events / 500)) ] ||
	fail "-j 2 --batch 500: ${steps:-no} steps on threads, want at least $((events / 500))"
expect_same_replay "$T/j1" "$T/j2" $SIMS observed
expect_same "$T/j1/tasks.tsv" "$T/j2/tasks.tsv"
expect_same "$T/j1/seen.tsv" "$T/j2/seen.tsv"
# the rule matched: the nm tasks run SCHED_RR (prio 99 - 50) under stock
nchecks=$((nchecks + 1))
awk -F '\t' '$3 == "nm" && $5 == 49 { n++ } END { exit !n }' \
	"$T/j1/stock/timeline.tsv" || fail "--rt nm: no nm row at prio 49"

# more threads than policies; the default (one per CPU)
expect_status 0 "$SR" replay "$F" -q -o "$T/j7" --policy cfs --policy a3 \
	--policy observed --rt 'nm|objtool' -j 7
expect_same_replay "$T/j1" "$T/j7" cfs a3 observed
expect_status 0 "$SR" replay "$F" -q -o "$T/jd" --policy cfs --policy a3 \
	--policy observed --rt 'nm|objtool'
expect_same_replay "$T/j1" "$T/jd" cfs a3 observed

expect_status 64 "$SR" replay "$F" -q -o "$T/x" -j 0
expect_err "jobs"
expect_status 64 "$SR" replay "$F" -q -o "$T/x" -j 257
expect_err "jobs"
done_ok
