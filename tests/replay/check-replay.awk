# check-replay.awk: sanity of one policy's replay output.
#   awk -f check-replay.awk -v kind=timeline [-v sim=1] DIR/P/timeline.tsv
#   awk -f check-replay.awk -v kind=latency DIR/P/latency.tsv
# Prints "FAIL: ..." lines and exits 1 on the first problems found.
#
# timeline: header, times never go back; with sim=1 (a simulated policy),
# at the end of every instant at most one task runs on each cpu, and no
# cpu is idle while a task is runnable on it (a task is on the cpu of its
# latest row; a migrate row moves it).  States as docs/plots.md reads
# them: fork/wake/preempt -> runnable, run -> running, new/block ->
# asleep, exit/reap -> gone; other events change nothing.
# With waking=1 (a replay calibrated on its recording, replay/calib.h) a
# CPU may idle while a task woken onto it waits for the wake's cost: that
# one is then left to the simulator's own check (--check).
# latency: header, delay = run - wake >= 0, rows sorted by wake_ns, a known
# cause (unknown: a task already runnable when first seen, observed only).
BEGIN { FS = "\t"; bad = 0; last = -1 }

function fail(msg) {
	print "FAIL: " FILENAME ":" NR ": " msg
	bad++
	if (bad > 10)
		exit 1
}

function end_instant(   k, c, nrun, nready) {
	split("", nrun)
	split("", nready)
	for (k in st) {
		if (st[k] == "running") nrun[on[k]]++
		else if (st[k] == "runnable") nready[on[k]]++
	}
	for (c in nrun)
		if (nrun[c] > 1)
			fail("at " last " ns " nrun[c] " tasks running on cpu " c)
	for (c in nready)
		if (!(c in nrun) && !waking)
			fail("at " last " ns cpu " c " is idle while " nready[c] " task(s) are runnable there")
}

kind == "timeline" && NR == 1 {
	if ($0 != "time_ns\tpid\tcomm\tevent\tprio\tstatic_prio\tsleep_avg\tcredit\ttime_slice\tarray\tcpu\tfrom_cpu\twhy")
		fail("unexpected header: " $0)
	next
}
kind == "timeline" {
	t = $1 + 0
	if (t < last)
		fail("time goes back: " t " after " last)
	if (sim && last >= 0 && t != last)
		end_instant()
	last = t
	k = $2
	if ($11 != "-")
		on[k] = $11
	if (sim && $4 == "migrate" && ($12 == "-" || $12 == $11 || $13 == "-"))
		fail("a migrate row without from, to and why")
	if ($4 == "fork" || $4 == "wake" || $4 == "preempt") st[k] = "runnable"
	else if ($4 == "run") st[k] = "running"
	else if ($4 == "new" || $4 == "block") st[k] = "asleep"
	else if ($4 == "exit" || $4 == "reap") delete st[k]
	rows++
	next
}

kind == "latency" && NR == 1 {
	if ($0 != "wake_ns\trun_ns\tdelay_ns\tpid\tcomm\tcause\twhy\tbehind_pid")
		fail("unexpected header: " $0)
	next
}
kind == "latency" {
	if ($3 + 0 < 0)
		fail("negative delay " $3)
	if ($2 - $1 != $3)
		fail("delay " $3 " is not run - wake")
	if ($1 + 0 < last)
		fail("not sorted by wake_ns: " $1 " after " last)
	if ($6 != "wakeup" && $6 != "preempt" && $6 != "fork" &&
	    $6 != "unknown")
		fail("unknown cause " $6)
	last = $1 + 0
	rows++
	next
}

END {
	if (kind == "timeline" && sim && last >= 0)
		end_instant()
	if (bad)
		exit 1
}
