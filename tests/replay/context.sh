#!/bin/sh
# context.sh: the replay takes from the recording's context (docs/record.md,
# docs/replay.md "The recording's context") its cpu count, the tick, each
# task's cpus at birth and after an exec, an RR policy and a nice the
# events do not give; and says so in its headline.  Hand-made native
# traces, replayed under eevdf-6.18; each expected figure is worked out
# beside it, and each rule, broken, fails its check.
. tests/lib/lib.sh

summary() { # DIR COMM COLUMN: the column (by name) of COMM's row
	awk -F'\t' -v comm="$2" -v col="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		$2 == comm { print $c; exit }' "$1/eevdf-6.18/summary.tsv"
}
# less A B: the number A is below B (awk compares as numbers)
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }

# 1. Pins and the cpu count.  Two 100 ms hogs the context pins to cpu 0
#    (cpus=0) on a 2-cpu machine (ncpus=2); the trace shows cpu 0 only.
#    The replay runs on 2 cpus (the machine's, not the 1 the trace used)
#    and keeps both on cpu 0: no migration, and the second ends when the
#    200 ms of work on one cpu is done, at 0.200 s.  Without the context's
#    cpus (--affinity none) the balancer moves B (born at its first event,
#    50 ms) to the idle cpu: a migration, and A done by 0.150 s.
cat >"$T/pin.txt" <<'EOF'
#schedreplay-native 1
#context schedreplay-context 1
#context kernel hz=250 autogroup=0
#context machine ncpus=2
#context task pid=100 ts=start cpus=0 comm="hogA"
#context task pid=200 ts=start cpus=0 comm="hogB"
0s      0 task pid=100 comm=hogA running
0s      0 task pid=200 comm=hogB
0s      0 switch prev=0 state=R next=100
50ms    0 switch prev=100 state=R+ next=200
100ms   0 switch prev=200 state=R+ next=100
150ms   0 switch prev=100 state=X next=200
200ms   0 switch prev=200 state=X next=0
EOF
expect_status 0 "$SR" replay "$T/pin.txt" -o "$T/p" --policy eevdf-6.18
expect_out '^replayed .* on 2 cpus$'
expect_out "^from the recording's context: HZ 250 \(eevdf-6.18\); the cpus of 2 tasks \(2 pinned to one\)$"
nchecks=$((nchecks + 4))
[ "$(summary "$T/p" hogA migrations)" = 0 ] || fail "hogA migrated, pinned"
[ "$(summary "$T/p" hogB migrations)" = 0 ] || fail "hogB migrated, pinned"
[ "$(summary "$T/p" hogB finish_s)" = 0.200000000 ] ||
	fail "hogB done at $(summary "$T/p" hogB finish_s), want 0.200 (one cpu)"
expect_status 0 "$SR" replay "$T/pin.txt" -o "$T/p0" --policy eevdf-6.18 --affinity none
less 0 "$(summary "$T/p0" hogB migrations)$(summary "$T/p0" hogA migrations)" ||
	fail "--affinity none: no hog migrated"
less "$(summary "$T/p0" hogA finish_s)" 0.150001 ||
	fail "--affinity none: hogA done at $(summary "$T/p0" hogA finish_s), want <= 0.150"

# 2. After an exec.  C (taskset) may run anywhere at the start (cpus=0-1)
#    and execs hogC at 1 ms, read then with cpus=0; A is pinned to cpu 0
#    all along.  Both stay on cpu 0: 0 migrations for hogC, and the last
#    done at 0.200 s (200 ms of work on one cpu).  The exec's reading
#    ignored, hogC moves to cpu 1.
cat >"$T/exec.txt" <<'EOF'
#schedreplay-native 1
#context schedreplay-context 1
#context machine ncpus=2
#context task pid=100 ts=start cpus=0 comm="hogA"
#context task pid=300 ts=start cpus=0-1 comm="taskset"
#context task pid=300 ts=1000000 cpus=0 comm="hogC"
0s      0 task pid=300 comm=taskset running
0s      0 task pid=100 comm=hogA
0s      0 switch prev=0 state=R next=300
1ms     0 exec pid=300 comm=hogC
50ms    0 switch prev=300 state=R+ next=100
100ms   0 switch prev=100 state=R+ next=300
150ms   0 switch prev=300 state=X next=100
200ms   0 switch prev=100 state=X next=0
EOF
expect_status 0 "$SR" replay "$T/exec.txt" -o "$T/e" --policy eevdf-6.18 -q
nchecks=$((nchecks + 2))
[ "$(summary "$T/e" hogC migrations)" = 0 ] ||
	fail "hogC migrated: its cpus after the exec (cpus=0) not obeyed"
[ "$(summary "$T/e" hogA finish_s)" = 0.200000000 ] ||
	fail "hogA done at $(summary "$T/e" hogA finish_s), want 0.200"

# 3. A reused pid.  Task 100 (pinned, cpus=0) exits at 10 ms; init (1)
#    forks a new 100 at 10 ms that has no reading of its own: the old
#    reading (before the new task's birth) is not its.  It and hogB (pinned
#    to cpu 0) each need 100 ms; the new 100 may go to cpu 1 and is done by
#    0.150 s.  Taking the old reading pins it to cpu 0 too: done at 0.210.
cat >"$T/reuse.txt" <<'EOF'
#schedreplay-native 1
#context schedreplay-context 1
#context machine ncpus=2
#context task pid=100 ts=start cpus=0 comm="old"
#context task pid=200 ts=start cpus=0 comm="hogB"
#context task pid=1 ts=start cpus=0-1 comm="init"
0s      0 task pid=100 comm=old running
0s      0 task pid=200 comm=hogB
0s      0 task pid=1 comm=init
0s      0 switch prev=0 state=R next=100
0s      0 wake pid=1 by=irq
10ms    0 switch prev=100 state=X next=1
10ms    0 fork pid=1 child=100 comm=new
10ms    0 switch prev=1 state=S next=200
60ms    0 switch prev=200 state=R+ next=100
110ms   0 switch prev=100 state=R+ next=200
160ms   0 switch prev=200 state=X next=100
210ms   0 switch prev=100 state=X next=0
EOF
expect_status 0 "$SR" replay "$T/reuse.txt" -o "$T/u" --policy eevdf-6.18 -q
nchecks=$((nchecks + 1))
less "$(summary "$T/u" new finish_s)" 0.150001 ||
	fail "the new task 100 done at $(summary "$T/u" new finish_s), want <= 0.150 (the old 100's cpus taken for its)"

# 4. The tick.  Two hogs on one cpu take turns of 4 ms in the recording
#    (the tick of HZ 250, which the replay would infer from them); the
#    context says HZ 100.  eevdf-6.18's slice on one cpu (0.75 ms) is used
#    up long before a tick, so each turn lasts a tick: each hog waits 10 ms
#    at p50.  Without the context's HZ: 4 ms.
awk 'BEGIN {
	print "#schedreplay-native 1"
	print "#context schedreplay-context 1"
	print "#context kernel hz=100"
	print "#context machine ncpus=1"
	print "0s 0 task pid=100 comm=hogA running"
	print "0s 0 task pid=200 comm=hogB"
	print "0s 0 switch prev=0 state=R next=100"
	cur = 100
	for (t = 4; t <= 200; t += 4) {
		nx = cur == 100 ? 200 : 100
		printf "%dms 0 switch prev=%d state=R+ next=%d\n", t, cur, nx
		cur = nx
	}
	printf "204ms 0 switch prev=%d state=X next=0\n", cur
}' >"$T/hz.txt"
expect_status 0 "$SR" replay "$T/hz.txt" -o "$T/h" --policy eevdf-6.18
expect_out "^from the recording's context: HZ 100 \(eevdf-6.18\)$"
nchecks=$((nchecks + 1))
[ "$(summary "$T/h" hogA p50_delay_ms)" = 10.000000 ] ||
	fail "hogA's p50 wait $(summary "$T/h" hogA p50_delay_ms) ms, want 10 (HZ 100)"
sed '/^#context kernel/d' "$T/hz.txt" >"$T/hz0.txt"
expect_status 0 "$SR" replay "$T/hz0.txt" -o "$T/h0" --policy eevdf-6.18 -q
nchecks=$((nchecks + 1))
[ "$(summary "$T/h0" hogA p50_delay_ms)" = 4.000000 ] ||
	fail "without the context's HZ: hogA's p50 wait $(summary "$T/h0" hogA p50_delay_ms) ms, want 4 (inferred 250)"

# 5. RR, which the prio fields cannot tell from FIFO.  Two rt tasks of
#    rt priority 50 (prio 49), 300 ms each, on one cpu; B is woken first.
#    As FIFO (the events alone) B runs to its end: done at 0.300 s.  As RR
#    (the context) they take turns of sched_rr_timeslice_ms (100 ms): B
#    0-100, A 100-200, B 200-300, A 300-400, B 400-500: B done at 0.500.
cat >"$T/rr.txt" <<'EOF'
#schedreplay-native 1
#context schedreplay-context 1
#context machine ncpus=1
#context task pid=100 ts=start policy=rr rtprio=50 comm="rtA"
#context task pid=200 ts=start policy=rr rtprio=50 comm="rtB"
0s      0 task pid=100 comm=rtA prio=49
0s      0 task pid=200 comm=rtB prio=49
0s      0 wake pid=200 by=irq prio=49
0s      0 switch prev=0 state=R next=100 next_prio=49
0s      0 wake pid=100 by=irq prio=49
300ms   0 switch prev=100 state=X next=200 prev_prio=49 next_prio=49
600ms   0 switch prev=200 state=X next=0 prev_prio=49
EOF
expect_status 0 "$SR" replay "$T/rr.txt" -o "$T/r" --policy eevdf-6.18
expect_out "the policy of 2 tasks$"
nchecks=$((nchecks + 1))
[ "$(summary "$T/r" rtB finish_s)" = 0.500000000 ] ||
	fail "rtB done at $(summary "$T/r" rtB finish_s), want 0.500 (RR)"
sed 's/ policy=rr//' "$T/rr.txt" >"$T/rr0.txt"
expect_status 0 "$SR" replay "$T/rr0.txt" -o "$T/r0" --policy eevdf-6.18 -q
nchecks=$((nchecks + 1))
[ "$(summary "$T/r0" rtB finish_s)" = 0.300000000 ] ||
	fail "as FIFO: rtB done at $(summary "$T/r0" rtB finish_s), want 0.300"

# 6. Nice where the events give no prio.  Two 100 ms hogs on one cpu, B
#    at nice 10 by the context.  A runs alone until B's first event (50
#    ms); then weights 1024 and 110 give A 1024/1134 of the cpu, so its
#    last 50 ms take 55.4 ms: done near 0.105 s (below 0.120).  At equal
#    weights its last 50 ms take 100 ms: done at 0.150 (above 0.140).
cat >"$T/nice.txt" <<'EOF'
#schedreplay-native 1
#context schedreplay-context 1
#context machine ncpus=1
#context task pid=100 ts=start nice=0 comm="hogA"
#context task pid=200 ts=start nice=10 comm="hogB"
0s      0 task pid=100 comm=hogA running
0s      0 task pid=200 comm=hogB
0s      0 switch prev=0 state=R next=100
50ms    0 switch prev=100 state=R+ next=200
100ms   0 switch prev=200 state=R+ next=100
150ms   0 switch prev=100 state=X next=200
200ms   0 switch prev=200 state=X next=0
EOF
expect_status 0 "$SR" replay "$T/nice.txt" -o "$T/n" --policy eevdf-6.18
expect_out "the nice of 1 task$"
nchecks=$((nchecks + 1))
less "$(summary "$T/n" hogA finish_s)" 0.120 ||
	fail "hogA done at $(summary "$T/n" hogA finish_s), want < 0.120 (B at nice 10)"
sed 's/ nice=10//' "$T/nice.txt" >"$T/nice0.txt"
expect_status 0 "$SR" replay "$T/nice0.txt" -o "$T/n0" --policy eevdf-6.18 -q
nchecks=$((nchecks + 1))
less 0.140 "$(summary "$T/n0" hogA finish_s)" ||
	fail "at equal nice: hogA done at $(summary "$T/n0" hogA finish_s), want > 0.140"

# 7. A child pinned away from its parent.  P may run on cpu 1 only and
#    forks C at 10 ms, whose reading then allows cpu 0 only.  C starts on
#    cpu 0 (the kernel forks it on P's cpu, then wake_up_new_task puts
#    it on an allowed cpu, and that is no migration): it runs on cpu 0
#    only, with 0 migrations.  Left where it was forked, it would run on
#    cpu 1, or move.
cat >"$T/away.txt" <<'EOF'
#schedreplay-native 1
#context schedreplay-context 1
#context machine ncpus=2
#context task pid=10 ts=start cpus=1 comm="P"
#context task pid=20 ts=10000000 cpus=0 comm="C"
0s      1 task pid=10 comm=P running
0s      1 switch prev=0 state=R next=10
10ms    1 fork pid=10 child=20 comm=C
10ms    1 switch prev=10 state=S next=0
10ms    0 switch prev=0 state=R next=20
60ms    0 switch prev=20 state=X next=0
EOF
expect_status 0 "$SR" replay "$T/away.txt" -o "$T/a" --policy eevdf-6.18 --timeline all -q
nchecks=$((nchecks + 2))
[ "$(summary "$T/a" C migrations)" = 0 ] ||
	fail "C: $(summary "$T/a" C migrations) migrations, want 0 (it starts on its cpu)"
awk -F'\t' '$3 == "C" && $4 == "run" && $11 != 0 { bad = 1 }
	END { exit bad }' \
	"$T/a/eevdf-6.18/timeline.tsv" ||
	fail "C ran elsewhere than on cpu 0: $(awk -F'\t' '$3 == "C" && $4 == "run"' "$T/a/eevdf-6.18/timeline.tsv" | head -3)"

# 8. The headlines: diff and explain say it too.
expect_status 0 "$SR" diff "$T/pin.txt" --policy eevdf-6.18 --policy cfs
expect_out "^  from the recording's context: HZ 250 \(eevdf-6.18, cfs\); the cpus of 2 tasks \(2 pinned to one\)$"
expect_status 0 "$SR" explain "$T/pin.txt" --task hogA --policy eevdf-6.18
expect_out "^from the recording's context: HZ 250 \(eevdf-6.18\); the cpus of 2 tasks \(2 pinned to one\)$"
done_ok
