# check-waits.awk: the attribution of one simulated policy's waits.
#   awk -f check-waits.awk DIR/P/latency.tsv DIR/P/waits.tsv
# Prints "FAIL: ..." lines and exits 1 on the first problems found.
#
# Every wait of latency.tsv with a delay has segments in waits.tsv that
# tile it exactly: the first starts at wake_ns, each starts where the one
# before ended, the last ends at run_ns (so they add up to delay_ns, to
# the nanosecond); a wait of no length has none; every segment belongs to
# a wait (a wait of no length has why and behind_pid "-"); the reasons
# are known names; latency.tsv's why is the reason
# with the most time in the wait (the first of equals, in order of first
# appearance) and behind_pid the running task with the most time.
BEGIN {
	FS = "\t"; bad = 0
	n = split("lower-prio same-prio-queue no-preempt expired starving-switch granularity credit tick other-cpu goodness counter-out vruntime-later not-eligible deadline-later", names, " ")
	for (i = 1; i <= n; i++)
		known[names[i]] = 1
}

function fail(msg) {
	print "FAIL: " FILENAME ":" FNR ": " msg
	if (++bad > 10)
		exit 1
}

FILENAME == ARGV[1] && FNR == 1 {
	if ($0 != "wake_ns\trun_ns\tdelay_ns\tpid\tcomm\tcause\twhy\tbehind_pid")
		fail("unexpected latency header: " $0)
	next
}
FILENAME == ARGV[1] {
	if ($3 > 0) {
		k = $4 SUBSEP $1
		if ($7 == "-")
			fail("a simulated wait without a reason")
		if (k in run)
			fail("two waits of pid " $4 " from " $1)
		run[k] = $2; why[k] = $7; behind[k] = $8; order[++nw] = k
	} else if ($7 != "-" || $8 != "-") {
		fail("a wait of no length with a reason or a task behind")
	}
	next
}
FNR == 1 {
	if ($0 != "wake_ns\tpid\tcomm\tseg_start_ns\tseg_end_ns\twhy\trunning_pid\trunning_comm\trunning_prio\tcpu\tdetail")
		fail("unexpected waits header: " $0)
	next
}
{
	k = $2 SUBSEP $1
	if (!(k in run)) {
		fail("a segment of no wait (pid " $2 ", wake " $1 ")")
		next
	}
	if (!($6 in known))
		fail("unknown reason " $6)
	if ($5 + 0 <= $4 + 0)
		fail("a segment of no length: " $4 " to " $5)
	at = (k in upto) ? upto[k] : $1
	if ($4 != at)
		fail("pid " $2 ": a segment starts at " $4 ", expected " at)
	upto[k] = $5
	d = $5 - $4
	t[k, $6] += d
	if (!((k, $6) in seen)) { seen[k, $6] = 1; rs[k] = rs[k] " " $6 }
	if ($7 != "-") {
		b[k, $7] += d
		if (!((k, "p" $7) in seen)) { seen[k, "p" $7] = 1; ps[k] = ps[k] " " $7 }
	}
}
END {
	for (i = 1; i <= nw; i++) {
		k = order[i]
		split(k, kk, SUBSEP)
		if (!(k in upto) || upto[k] != run[k]) {
			fail("pid " kk[1] " from " kk[2] ": segments end at " upto[k] ", the wait at " run[k])
			continue
		}
		m = split(rs[k], r, " "); best = ""; bt = -1
		for (j = 1; j <= m; j++)
			if (t[k, r[j]] > bt) { bt = t[k, r[j]]; best = r[j] }
		if (best != why[k])
			fail("pid " kk[1] " from " kk[2] ": why " why[k] ", most time: " best)
		m = split(ps[k], r, " "); best = "-"; bt = -1
		for (j = 1; j <= m; j++)
			if (b[k, r[j]] > bt) { bt = b[k, r[j]]; best = r[j] }
		if (best != behind[k])
			fail("pid " kk[1] " from " kk[2] ": behind_pid " behind[k] ", most time: " best)
	}
	if (bad)
		exit 1
}
