#!/bin/sh
# Tunings: `policies --knobs`, --set and POLICY:NAME=VALUE on replay and
# diff: labels and output directories carry the tuning, a tuning equal to
# the defaults gives the same bytes, a real one changes them, and bad
# names or values exit 64 naming the knob and its range.
. tests/lib/lib.sh
F=tests/replay/data/perf-mix.perf.txt.gz

expect_status 0 "$SR" policies --knobs
expect_out '^o11int$'
expect_out '^  MAX_SLEEP_AVG +jiffies default 1020 +range 1\.\.1000000 \(default = AVG_TIMESLICE \* MAX_BONUS\)$'
expect_out '^  ON_RUNQUEUE_WEIGHT +% +default 30 '
expect_status 0 "$SR" policies --knobs g3
expect_out '^  MAX_SLEEP_AVG +ns +default 2000000000 '
expect_status 64 "$SR" policies --knobs nosuch
expect_err "unknown policy 'nosuch'"

expect_status 0 "$SR" replay "$F" -o "$T/r" --policy o11int \
	--policy o11int:MAX_SLEEP_AVG=1020 --policy 'o11int:MAX_SLEEP_AVG=200' \
	--policy g3 --set TIMESLICE_GRANULARITY=25
expect_out "wrote $T/r/o11int:TIMESLICE_GRANULARITY=25/"
expect_out "wrote $T/r/o11int:MAX_SLEEP_AVG=1020,TIMESLICE_GRANULARITY=25/"
expect_out "wrote $T/r/o11int:MAX_SLEEP_AVG=200,TIMESLICE_GRANULARITY=25/"
expect_out "wrote $T/r/g3:TIMESLICE_GRANULARITY=25/"
# the defaults spelled out: the same schedule
for f in timeline latency summary; do
	expect_same "$T/r/o11int:TIMESLICE_GRANULARITY=25/$f.tsv" \
		"$T/r/o11int:MAX_SLEEP_AVG=1020,TIMESLICE_GRANULARITY=25/$f.tsv"
done
# a fifth of the sleep_avg range: another schedule
nchecks=$((nchecks + 1))
cmp -s "$T/r/o11int:TIMESLICE_GRANULARITY=25/timeline.tsv" \
	"$T/r/o11int:MAX_SLEEP_AVG=200,TIMESLICE_GRANULARITY=25/timeline.tsv" &&
	fail "MAX_SLEEP_AVG=200 changed nothing"

# one diff compares two tunings of one policy
expect_status 0 "$SR" diff "$F" --policy o11int --policy o11int:MAX_SLEEP_AVG=200
expect_out 'o11int \(A\) against o11int:MAX_SLEEP_AVG=200 \(B\)'
expect_status 0 "$SR" diff "$F" --policy stock --policy o11int --set STARVATION_LIMIT=100
expect_out 'stock:STARVATION_LIMIT=100 \(A\) against o11int:STARVATION_LIMIT=100 \(B\)'
# and reads them back from the replay directory
expect_status 0 "$SR" diff "$T/r" --policy o11int:TIMESLICE_GRANULARITY=25 \
	--policy g3:TIMESLICE_GRANULARITY=25
expect_status 0 "$SR" diff "$T/r" --policy g3 --policy o11int:MAX_SLEEP_AVG=200 \
	--set TIMESLICE_GRANULARITY=25

# cache_decay_ticks, a knob of the O(1) policies on SMP: set, it wins over
# --cache-decay; --cache-decay 0 and the knob at 0 are one replay, and not
# the replay of the default 10
expect_status 0 "$SR" replay "$F" -o "$T/cd" --cpus 2 --policy o11int \
	--policy o11int:cache_decay_ticks=0 --policy g3:cache_decay_ticks=0 -q
expect_status 0 "$SR" replay "$F" -o "$T/cd2" --cpus 2 --policy o11int \
	--cache-decay 0 -q
expect_same "$T/cd/o11int:cache_decay_ticks=0/timeline.tsv" \
	"$T/cd2/o11int/timeline.tsv"
expect_status 0 "$SR" replay "$F" -o "$T/cd3" --cpus 2 \
	--policy o11int:cache_decay_ticks=0 --cache-decay 50 -q
expect_same "$T/cd/o11int:cache_decay_ticks=0/timeline.tsv" \
	"$T/cd3/o11int:cache_decay_ticks=0/timeline.tsv"
nchecks=$((nchecks + 1))
! cmp -s "$T/cd/o11int/timeline.tsv" \
	"$T/cd/o11int:cache_decay_ticks=0/timeline.tsv" ||
	fail "cache_decay_ticks=0 replays as the default"
# eevdf's sched_migration_cost_ns
expect_status 0 "$SR" replay "$F" -o "$T/mc" --cpus 2 --policy eevdf \
	--set sched_migration_cost_ns=0 -q
[ -f "$T/mc/eevdf:sched_migration_cost_ns=0/cpus.tsv" ] ||
	fail "no eevdf:sched_migration_cost_ns=0 run"

expect_status 64 "$SR" replay "$F" -o "$T/e" --set FOO=1
expect_err 'no policy has a knob FOO'
expect_status 64 "$SR" replay "$F" -o "$T/e" --policy stock --set ON_RUNQUEUE_WEIGHT=1
expect_err 'no policy of this run has a knob ON_RUNQUEUE_WEIGHT \(a3 have\)'
expect_status 64 "$SR" replay "$F" -o "$T/e" --set MAX_SLEEP_AVG=0
expect_err "MAX_SLEEP_AVG=0: stock's MAX_SLEEP_AVG takes an integer from 1 to 1000000"
expect_status 64 "$SR" replay "$F" -o "$T/e" --policy o11int:CHILD_PENALTY=200
expect_err "o11int's CHILD_PENALTY takes an integer from 0 to 100"
expect_status 64 "$SR" replay "$F" -o "$T/e" --set MAX_SLEEP_AVG
expect_err 'expected NAME=VALUE'
expect_status 64 "$SR" diff "$F" --policy o11int --policy o11int:NOPE=1
expect_err 'o11int has no knob NOPE'
expect_status 64 "$SR" replay "$F" -o "$T/e" --policy o11int \
	--policy o11int:STARVATION_LIMIT=1020,MAX_SLEEP_AVG=1020 \
	--policy o11int:MAX_SLEEP_AVG=1020,STARVATION_LIMIT=1020
expect_err "policy 'o11int:MAX_SLEEP_AVG=1020,STARVATION_LIMIT=1020' given twice"
nchecks=$((nchecks + 1))
[ ! -e "$T/e" ] || fail "a refused run left $T/e"
done_ok
