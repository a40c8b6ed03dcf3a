#!/bin/sh
# Why each wait happened (docs/why.md): one small scenario per reason, the
# segments of its waits in waits.tsv checked against a table derived by
# hand from the rules (docs/why.md, "The attribution"; the derivation
# of each row is in the comment above it).  Times in ms of the trace
# clock; ticks fall on whole ms; one CPU unless said.  Columns: start end
# why running_pid running_prio cpu detail.
. tests/lib/lib.sh
D=tests/replay/data

# segs DIR PID N: the first N segments of pid's waits
segs() {
	awk -F'\t' -v pid="$2" 'NR > 1 && $2 == pid {
		printf "%s %s %s %s %s %s %s\n", $4 / 1e6, $5 / 1e6, $6, $7, $9, $10, $11
	}' "$1/waits.tsv" | head -n "$3"
}

# want DIR PID: the segments are the table on stdin
want() {
	cat >"$T/want"
	segs "$1" "$2" "$(wc -l <"$T/want")" >"$T/got"
	nchecks=$((nchecks + 1))
	cmp -s "$T/want" "$T/got" || {
		echo "want:" >&2; cat "$T/want" >&2
		echo "got:" >&2; cat "$T/got" >&2
		fail "$1: pid $2's segments"
	}
}


# lower-prio: the FIFO task (prio 99 - 50 = 49) runs until it sleeps at
# 20 ms; the normal task, woken at 5, waits behind it, under the O(1)
# family and under CFS (the RT class runs first) alike.
expect_status 0 "$SR" replay "$D/why-lower.txt" -o "$T/lower" -q --check \
	--cpus 1 --policy stock --policy cfs
want "$T/lower/stock" 200 <<'X'
5 20 lower-prio 100 49 0 -
X
want "$T/lower/cfs" 200 <<'X'
5 20 lower-prio 100 49 0 -
X

# same-prio-queue: fork puts the child just before its parent, with the
# parent's prio, and reschedules: the parent waits behind its child
# (1 ahead) until the child exits at 8.
expect_status 0 "$SR" replay "$D/why-fork.txt" -o "$T/fork" -q --check \
	--cpus 1 --policy stock --policy o11int
want "$T/fork/stock" 100 <<'X'
5 8 same-prio-queue 101 125 0 ahead=1
X

# no-preempt: the sleeper arrives at 10 with sleep_avg 0, prio 125 as the
# hog's.  Stock preempts only a strictly better prio: it waits for the
# hog's slice to end at the 102nd tick (102 ms).  O11int's
# TASK_PREEMPTS_CURR wants more than twice the hog's slice left (102 >
# 2 * 92 does not hold): it waits for the hog's granularity requeue at
# 25 ms (77 jiffies left).
expect_status 0 "$SR" replay "$D/why-sleeper.txt" -o "$T/sleeper" -q \
	--check --cpus 1 --policy stock --policy o11int
want "$T/sleeper/stock" 200 <<'X'
10 102 no-preempt 100 125 0 strict-prio,ahead=1
X
want "$T/sleeper/o11int" 200 <<'X'
10 25 no-preempt 100 125 0 2x-slice,ahead=1
X

# expired, same-prio-queue: two stock hogs.  h1 runs its 102 ms slice,
# expires (not interactive) and waits in the expired array while h2 runs
# its own (1 task in the active array); at 204 the arrays switch and h1
# runs.  h2 arrived with h1 at 0 onto an idle CPU (no preemption to
# decide): it waits in its list behind h1, and after each switch again.
# granularity: under o11int each hog is requeued every 25 ticks: the
# requeued one waits behind the other (the pick-time recalc re-enqueues
# the one picked, which still runs: 1 ahead).
expect_status 0 "$SR" replay "$D/why-hogs.txt" -o "$T/hogs" -q --check \
	--cpus 1 --policy stock --policy o11int --policy 2.4
want "$T/hogs/stock" 100 <<'X'
102 204 expired 200 125 0 ahead=1
306 408 expired 200 125 0 ahead=1
X
want "$T/hogs/stock" 200 <<'X'
0 102 same-prio-queue 100 125 0 ahead=1
204 306 same-prio-queue 100 125 0 ahead=1
X
want "$T/hogs/o11int" 100 <<'X'
25 50 granularity 200 125 0 ahead=1
75 100 granularity 200 125 0 ahead=1
X
want "$T/hogs/o11int" 200 <<'X'
0 25 same-prio-queue 100 125 0 ahead=1
50 75 granularity 100 125 0 ahead=1
X
# goodness, no-preempt, counter-out: 2.4 gives each hog a counter of
# NICE_TO_TICKS(0) = 41 and puts a woken task at the head of the list:
# h2, woken after h1 at 0, runs.  h1's goodness is 41 + 20 = 61 against
# h2's 62 (its mm loaded: +1); h2's counter drops one a tick: 61 at 1 ms
# (still not below h1's), 60 at 2 ms, from when h1's goodness is the
# better but 2.4 compares only at a wakeup or in schedule(); h2's counter
# runs out at 41 ms.  h2 then waits with its counter at 0 until h1's
# runs out (82 ms): the epoch gives both 41, and h1, whose mm is loaded,
# has 62 against 61, then 61 at 83, 60 at 84: the same again.
want "$T/hogs/2.4" 100 <<'X'
0 2 goodness 200 120 0 -
2 41 no-preempt 200 120 0 -
X
want "$T/hogs/2.4" 200 <<'X'
41 82 counter-out 100 120 0 -
82 84 goodness 100 120 0 -
84 123 no-preempt 100 120 0 -
X

# starving-switch: --warm 80 starts every task with sleep_avg 8000: x and
# y (nice 10) at prio 127, not interactive (they would need 126); i
# (nice 0) at 117.  x runs its 53 ms slice and expires
# (expired_timestamp: jiffy 54); y runs; i arrives at 60 and preempts it;
# at its expiry (162 ms) i is interactive (prio 118 <= 118) but
# EXPIRED_STARVING holds (163 - 54 >= 1 * 3 + 1 with STARVATION_LIMIT=1):
# it goes to the expired array and waits for y's 46 ms left, behind it.
expect_status 0 "$SR" replay "$D/why-starving.txt" -o "$T/starving" -q \
	--check --cpus 1 --warm 80 --policy stock:STARVATION_LIMIT=1
want "$T/starving/stock:STARVATION_LIMIT=1" 300 <<'X'
162 208 starving-switch 200 127 0 ahead=1
X

# credit: with --warm 100 c (nice 15) starts at sleep_avg 1020; its first
# run is charged 2 ticks (1018), each later sleep earns a level: capped at
# 1020 with credit 1, 2, 3 (the short runs charge nothing: no tick, slice
# not full).  From 20.2 ms it runs its 27 jiffies left; at 47 ms it is not
# interactive (sleep_avg 993, prio 131 > 130), credit drops to 2 and keeps
# it in the active array: w waits behind it by the credit rule, at 76 ms
# again (credit 1); at 105 credit is 0 and c expires.
expect_status 0 "$SR" replay "$D/why-credit.txt" -o "$T/credit" -q \
	--check --cpus 1 --warm 100 --policy o11int
want "$T/credit/o11int" 100 <<'X'
1.5 3.5 lower-prio 200 130 0 -
8.2 8.7 lower-prio 200 130 0 -
14.2 14.7 lower-prio 200 130 0 -
20.2 47 lower-prio 200 130 0 -
47 76 credit 200 131 0 credit=2
76 105 credit 200 131 0 credit=1
X

# vruntime-later, tick: three CFS hogs arrive at 0 at min_vruntime 0;
# a runs.  c waits behind b (queued first) and a (vruntime 0 too until the
# tick at 1 ms charges it); the period is 20 ms for 3 tasks, a slice 6.67
# ms: the tick at 7 ms preempts a and b runs; c waits behind b until its
# vruntime passes c's (the tick at 8 ms), then is the leftmost and waits
# for b's slice to end at the tick at 14 ms.
expect_status 0 "$SR" replay "$D/why-three.txt" -o "$T/three" -q --check \
	--cpus 1 --policy cfs
want "$T/three/cfs" 300 <<'X'
0 1 vruntime-later 100 120 0 ahead=2
1 7 vruntime-later 100 120 0 ahead=1
7 8 vruntime-later 200 120 0 ahead=1
8 14 tick 200 120 0 -
X

# deadline-later, not-eligible, tick: EEVDF, base_slice 3 ms.  a runs
# from 0 (deadline 3); b arrives at 1 at V = 1 (a's vruntime), eligible,
# deadline 4 > 3: behind a; from the tick at 2, a (2 > V = 1.5) is not
# eligible but runs to parity, b is the pick: tick until a's deadline at
# 3.  Then a (3) is not eligible against V = 2 until V reaches 3 at the
# tick at 5; then its deadline 6 is later than b's 4 until b's slice
# ends at 6.
expect_status 0 "$SR" replay "$D/why-late.txt" -o "$T/late" -q --check \
	--cpus 1 --policy eevdf:base_slice_ns=3000000
want "$T/late/eevdf:base_slice_ns=3000000" 200 <<'X'
1 2 deadline-later 100 120 0 ahead=1
2 3 tick 100 120 0 -
X
want "$T/late/eevdf:base_slice_ns=3000000" 100 <<'X'
3 5 not-eligible 200 120 0 -
5 6 deadline-later 200 120 0 ahead=1
X

# other-cpu: two stock hogs first seen on cpu 0 of two: h2 waits there
# while cpu 1 idles; it is cache-hot (jiffies - last_run <= 10, its
# last_run its first jiffy, 1) until jiffy 12, when the idle balance at
# 11 ms pulls it.
expect_status 0 "$SR" replay "$D/why-twoon0.txt" -o "$T/twoon0" -q --check \
	--cpus 2 --policy stock
want "$T/twoon0/stock" 200 <<'X'
0 11 other-cpu 100 125 0 cache-hot,idle=1
X

# every reason above appears, and the segments tile every wait
for d in lower/stock lower/cfs fork/stock sleeper/stock sleeper/o11int \
	 hogs/stock hogs/o11int hogs/2.4 "starving/stock:STARVATION_LIMIT=1" \
	 credit/o11int three/cfs late/eevdf:base_slice_ns=3000000 twoon0/stock; do
	nchecks=$((nchecks + 1))
	awk -f tests/replay/check-waits.awk "$T/$d/latency.tsv" \
		"$T/$d/waits.tsv" || fail "$d/waits.tsv"
done
done_ok
