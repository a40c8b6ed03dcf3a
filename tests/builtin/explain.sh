#!/bin/sh
# explain (docs/why.md): two nice-0 hogs and a task that runs 1.37 ms every
# 10 ms, on one CPU.
#  - stock: the sleeper's wait is all behind the hogs, and a wakeup of
#    it, as good a prio as theirs, never preempts them: with its sleeps
#    kept their recorded length (--external relative) at least 95 % of it
#    (in fact all) is no-preempt; with its wakes at their recorded times
#    (a 10 ms timer) it runs its missed periods back to back after each
#    long wait, uses up its slice and then waits in the round robin after
#    the array switch (same-prio-queue): explain says so;
#  - o11int: the sleeper soon preempts the hogs (a tenth of the wait with
#    its sleeps kept); with its timer, the hogs' granularity requeues and
#    its own expiries appear, and the wait is shorter;
#  - the text, TSV and JSON agree; the options' errors.
. tests/lib/lib.sh
need python3 python3

awk 'BEGIN {
	print "#schedreplay-native 1"
	print "0s 0 task pid=100 comm=hog1"
	print "0s 1 task pid=200 comm=hog2"
	print "0s 2 task pid=300 comm=sleeper"
	print "0s 0 switch prev=0 state=R next=100"
	print "0s 1 switch prev=0 state=R next=200"
	for (k = 0; k < 300; k++) {
		t = k * 10000000 + 300000
		printf "%dns 2 wake pid=300 by=irq\n", t
		printf "%dns 2 switch prev=0 state=R next=300\n", t
		printf "%dns 2 switch prev=300 state=S next=0\n", t + 1370000
	}
	print "3s 0 switch prev=100 state=S next=0"
	print "3s 1 switch prev=200 state=S next=0"
}' >"$T/s.txt"

# share NAME...: the share of stock's (column 5) or o11int's (6) wait the
# reasons named hold, from explain --tsv in $T/out
share() {
	col=$1
	shift
	awk -F'\t' -v col="$col" -v names=" $* " '
		$1 == "reason" && index(names, " " $2 " ") { s += $col }
		$1 == "total" { t = $col }
		END { printf "%.4f\n", t ? s / t : 0 }' "$T/out"
}
behind_hogs() {
	awk -F'\t' -v col="$1" '
		$1 == "behind" && ($4 == "hog1" || $4 == "hog2") { s += $col }
		$1 == "total" { t = $col }
		END { printf "%.4f\n", t ? s / t : 0 }' "$T/out"
}
at_least() {
	nchecks=$((nchecks + 1))
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }' ||
		fail "$3: $1, expected at least $2"
}

expect_status 0 "$SR" replay "$T/s.txt" --cpus 1 --external relative \
	--policy stock --policy o11int -o "$T/rel" -q
expect_status 0 "$SR" explain "$T/rel" --pid 300 --policy stock \
	--policy o11int --tsv
at_least "$(share 5 no-preempt lower-prio)" 0.95 "stock, relative: no-preempt and lower-prio"
at_least "$(behind_hogs 5)" 1 "stock, relative: behind the hogs"
# o11int: it gains a level per wakeup and soon preempts them
nchecks=$((nchecks + 1))
awk -F'\t' '$1 == "total" { exit !($6 * 10 < $5) }' "$T/out" ||
	fail "o11int, relative: not a tenth of stock's wait"
# the same straight from the trace: the compare commands take the
# replay's rules (--external, --causal, --cs-cost, --warm) too
cp "$T/out" "$T/rel.tsv"
expect_status 0 "$SR" explain "$T/s.txt" --pid 300 --cpus 1 \
	--external relative --policy stock --policy o11int --tsv
expect_same "$T/out" "$T/rel.tsv"
# a context-switch cost lengthens the wait: a rule that is passed on
expect_status 0 "$SR" explain "$T/s.txt" --pid 300 --cpus 1 \
	--external relative --cs-cost 50us --policy stock --tsv
nchecks=$((nchecks + 1))
awk -F'\t' 'FNR == NR && $1 == "total" { a = $5 }
	FNR < NR && $1 == "total" { b = $5 } END { exit !(b > a) }' \
	"$T/rel.tsv" "$T/out" || fail "--cs-cost 50us: the wait is not longer"
# a saved replay has its rules already
expect_status 64 "$SR" explain "$T/rel" --pid 300 --external relative
expect_err "^schedreplay: --external needs the trace file, not the replay directory"
expect_status 64 "$SR" diff "$T/rel" --warm 50
expect_err "^schedreplay: --warm needs the trace file, not the replay directory"

expect_status 0 "$SR" explain "$T/s.txt" --pid 300 --cpus 1 \
	--policy stock --policy o11int --tsv
cp "$T/out" "$T/abs.tsv"
at_least "$(behind_hogs 5)" 1 "stock: behind the hogs"
at_least "$(share 5 no-preempt lower-prio)" 0.75 "stock: no-preempt and lower-prio"
at_least "$(share 5 same-prio-queue)" 0.10 "stock: after its own expiry"
at_least "$(share 6 granularity expired)" 0.10 "o11int: granularity and expired"
nchecks=$((nchecks + 1))
awk -F'\t' '$1 == "total" { exit !($6 < $5) }' "$T/out" ||
	fail "o11int's wait is not shorter than stock's"

# the text: the worst waits in words, the two tables side by side.
# "N waits" counts the sleeper's waits that had a delay: its rows of the
# replay's latency.tsv with delay_ns > 0 (under stock: the wakeups that did
# not preempt a hog, plus the waits after its own expiry in the round robin).
# Its three worst are those expiry waits, 204 ms behind both hogs' 102 ms
# slices; the fourth (203.7 ms) is a wakeup that did not preempt: --top 4.
expect_status 0 "$SR" replay "$T/s.txt" --cpus 1 --policy stock -o "$T/cnt" -q
nwaits=$(awk -F'\t' '$4 == 300 && $3 > 0' "$T/cnt/stock/latency.tsv" | wc -l)
nchecks=$((nchecks + 1))
[ "$nwaits" -ge 10 ] || fail "stock: only $nwaits delayed waits of the sleeper in latency.tsv"
expect_status 0 "$SR" explain "$T/s.txt" --task '^sleep' --cpus 1 \
	--policy stock --policy o11int --top 4
expect_out "^schedreplay explain: s.txt, 1 task matching '\^sleep' \(sleeper \(300\)\)$"
expect_out "^stock: $nwaits waits, [0-9.]+ ms in all; mostly no-preempt"
# one clock: seconds after the trace start, the trace's own beside it
expect_out '^  1\. sleeper \(300\) waited [0-9.]+ ms from [0-9.]+ s \(trace clock @[0-9.]+\):$'
# one set of reason names: the segment's reason by name, then in words
expect_out '^       [0-9.]+ ms \[no-preempt\] behind hog[12] \((100|200), prio 125\), [0-9]+ ahead of it: as good a priority, but its wakeup did not preempt \(only a strictly better prio preempts\)$'
expect_out "its TIMESLICE_GRANULARITY requeue put it there"
expect_out '^reason +stock +o11int$'
# the verdict of its group (sleeper is in "other"), with its reasons,
# and the rule that chose the word (docs/why.md)
expect_out '^verdict: o11int against stock$'
expect_out '^  other: (better|worse|unchanged) under o11int: '
expect_out '^    its wait: [0-9.]+ -> [0-9.]+ ms'
expect_out '^  rule: the first figure decides: '
nchecks=$((nchecks + 1))
! grep -q '^  build: \|^  audio: ' "$T/out" || fail "explain: a group none of its tasks is in"
expect_out '^no-preempt +[0-9.]+ \([0-9.]+%\) +[0-9.]+ \([0-9.]+%\)$'
expect_out '^hog1 \(100\) +[0-9.]+ \([0-9.]+%\)'

# JSON: valid, and its reasons add up to the TSV's
expect_status 0 "$SR" explain "$T/s.txt" --pid 300 --cpus 1 \
	--policy stock --policy o11int --json -o "$T/e.json"
expect_status 0 python3 - "$T/e.json" "$T/abs.tsv" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
tsv = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
assert [r["policy"] for r in j["runs"]] == ["stock", "o11int"], j["runs"]
assert [v["policy"] for v in j["verdict"]] == ["o11int"], j["verdict"]
assert [g["group"] for g in j["verdict"][0]["groups"]] == ["other"], j["verdict"]
for i, r in enumerate(j["runs"]):
    want = {row[1]: int(row[4 + i]) for row in tsv[1:] if row[0] == "reason" and int(row[4 + i])}
    assert r["by_reason"] == want, (r["by_reason"], want)
    assert sum(r["by_reason"].values()) == r["wait_ns"]
    w = r["worst"][0]
    assert sum(s["end_ns"] - s["start_ns"] for s in w["segments"]) == w["delay_ns"]
PY

# a saved replay gives the same; one without the attribution says so
expect_status 0 "$SR" replay "$T/s.txt" --cpus 1 --policy stock --policy o11int -o "$T/r" -q
expect_status 0 "$SR" explain "$T/r" --pid 300 --policy stock --policy o11int --tsv
expect_same "$T/out" "$T/abs.tsv"
expect_status 0 "$SR" replay "$T/s.txt" --cpus 1 --policy stock -o "$T/n" -q --no-why
expect_status 0 "$SR" explain "$T/n" --pid 300 --policy stock
expect_out "^stock: $nwaits waits, [0-9.]+ ms in all; not attributed"

# errors
expect_status 64 "$SR" explain "$T/s.txt" --cpus 1
expect_err 'explain: expected --task REGEX or --pid N'
# both: the tasks of that pid whose comm matches (none here)
expect_status 64 "$SR" explain "$T/s.txt" --cpus 1 --pid 300 --task hog
expect_err "explain: no task pid 300 matching 'hog' in s.txt"
expect_status 64 "$SR" explain "$T/s.txt" --cpus 1 --pid 300 --tsv --json
expect_err 'exclude each other'
expect_status 64 "$SR" explain "$T/s.txt" --cpus 1 --task nosuchtask
expect_err "explain: no task matching 'nosuchtask' in s.txt"
expect_status 64 "$SR" explain "$T/s.txt" --cpus 1 --task '('
expect_err 'at offset'
done_ok
