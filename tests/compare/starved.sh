#!/bin/sh
# A starved recording (compare/behave.h, docs/plots.md "A starved
# recording"): a task the recording shows late after its wakeups while
# every CPU was busy is said so: in the headline, its periodic line, its
# class in the table, the verdict line of its group and its reasons, TSV
# and JSON.
#
# The recording (2 CPUs): hog1 runs on CPU 0 and hog2 on CPU 1 throughout;
# ao is woken every 10 ms on CPU 0 (100 wakeups) and runs d after each,
# 0.2 ms at a time.  With L of the waits d = 1 ms exactly (CMP_STARVED_WAIT_NS:
# late) and the others 0.999 ms (not late), both CPUs busy at every
# wakeup (hog1 and hog2 running), ao is starved when L * 100 >= 100 * 25
# (CMP_STARVED_PCT), so L = 25 is, L = 24 is not.  With hog2 asleep from
# 1 ms on, CPU 1 idles at every wakeup: no wakeup is late, whatever d.
. tests/lib/lib.sh
need python3 python3

gen() { # LATE BUSY
	awk -v nlate="$1" -v busy="$2" 'BEGIN {
		print "#schedreplay-native 1"
		print "0s 0 task pid=50 comm=hog1"
		print "0s 1 task pid=51 comm=hog2"
		print "0s 0 task pid=20 comm=ao"
		print "0s 0 switch prev=0 state=R next=50"
		print "0s 1 switch prev=0 state=R next=51"
		if (!busy) print "1ms 1 switch prev=51 state=S next=0"
		for (k = 1; k <= 100; k++) {
			t = k * 10000000
			d = k <= nlate ? 1000000 : 999999
			printf "%dns 0 wake pid=20 by=irq\n", t
			printf "%dns 0 switch prev=50 state=R next=20\n", t + d
			printf "%dns 0 switch prev=20 state=S next=50\n", t + d + 200000
		}
		print "1020ms 0 switch prev=50 state=R next=0"
		if (busy) print "1020ms 1 switch prev=51 state=R next=0"
	}'
}
gen 25 1 >"$T/s25.txt"
gen 24 1 >"$T/s24.txt"
gen 100 0 >"$T/idle.txt"

# ao's starved and late_wakes columns (TSV): "STARVED LATE"
ao() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		$4 == "ao" { print $(h["starved"]), $(h["late_wakes"]) }' "$T/out"
}
expect_status 0 "$SR" diff "$T/s25.txt" --tsv
nchecks=$((nchecks + 1)); [ "$(ao)" = "1 25" ] || fail "25 late of 100: $(ao), want 1 25"
expect_status 0 "$SR" diff "$T/s24.txt" --tsv
nchecks=$((nchecks + 1)); [ "$(ao)" = "0 24" ] || fail "24 late of 100: $(ao), want 0 24"
expect_status 0 "$SR" diff "$T/idle.txt" --tsv
nchecks=$((nchecks + 1)); [ "$(ao)" = "0 0" ] || fail "a CPU idle: $(ao), want 0 0"

# the text: the headline, the periodic line, the class, the verdict
expect_status 0 "$SR" diff "$T/s25.txt" -v
expect_out '^  the recording starved 1 task \(late 1 ms or more, every CPU busy, after 25% of its wakeups'
expect_out 'ao \(20\) late on 25 of 100$'
expect_out '^  periodic ao \(20\), every 10\.0 ms \(starved in the recording\): deadlines met '
expect_out '^ao \(20\) +interactive\* '
expect_out '^\* class: starved in the recording'
expect_out '^  audio: (better|worse|unchanged) under o11int: 10 ms deadlines met .*; starved in the$'
expect_out '^    the recording starved ao \(20\), late on 25 of 100 wakeups \(waited 1 ms or more, every CPU'
expect_status 0 "$SR" diff "$T/s24.txt" -v
nchecks=$((nchecks + 1))
! grep -q 'starved' "$T/out" || fail "not starved, but said so: $(grep starved "$T/out")"

# JSON: the task and its group
expect_status 0 "$SR" diff "$T/s25.txt" --json
cp "$T/out" "$T/s25.json"
expect_status 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["tasks"] if t["comm"] == "ao"][0]
assert t["starved"] is True and t["late_wakes"] == 25, t
g = [g for g in d["comparisons"][0]["verdict"] if g["group"] == "audio"][0]
assert g["starved_tasks"] == 1, g
assert g["starved"] == [{"pid": 20, "comm": "ao", "late_wakes": 25, "wakeups": 100}], g
h = [g for g in d["comparisons"][0]["verdict"] if g["group"] == "other"][0]
assert h["starved_tasks"] == 0 and h["starved"] == [], h
' "$T/s25.json"
# judged on the recording only: with observed not the reference (a
# replay directory without it), nothing is said
expect_status 0 "$SR" replay "$T/s25.txt" --policy stock --policy o11int -o "$T/r" -q
expect_status 0 "$SR" diff "$T/r" --tsv
nchecks=$((nchecks + 1)); [ "$(ao | cut -d' ' -f1)" = "0" ] || fail "starved without the recording: $(ao)"
done_ok
