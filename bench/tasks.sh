#!/bin/sh
# bench/tasks.sh: memory per task record.  A trace of N short-lived tasks
# (each forked, woken, run once, exited and switched out dead: one task
# record, one delay) is made for N = 1 000 and N = 1 000 + SR_BENCH_TASKS
# (default 200 000); the peak RSS of `stats --tsv` and of the reader alone
# (bench/parse-bench) on the two, differenced and divided by the tasks
# added, is what one more task costs: the reader's task table (the record,
# the pid map, its per-task arrays), and for stats the accounting and the
# delay distribution of each task too.  Then the same per task on the
# largest bundled sample copied 16 times back to back (bench/trace-gen:
# forked tasks are new records in every copy), against one copy.
. bench/lib.sh
bench_dir tasks
S=$tmp
extra=${SR_BENCH_TASKS:-200000}

forked() { # forked N FILE: N tasks forked by pid 100, one delay each
	awk -v n="$1" 'BEGIN {
	t = 1000000
	for (i = 0; i < n; i++) {
		c = 1000 + i
		printf "%16s %6d [000] %d.%06d: sched:sched_process_fork: comm=sh pid=100 child_comm=sh child_pid=%d\n", "sh", 100, t / 1e6, t % 1e6, c; t++
		printf "%16s %6d [000] %d.%06d: sched:sched_wakeup_new: comm=sh pid=%d prio=120 target_cpu=000\n", "sh", 100, t / 1e6, t % 1e6, c; t++
		printf "%16s %6d [000] %d.%06d: sched:sched_switch: prev_comm=sh prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=sh next_pid=%d next_prio=120\n", "sh", 100, t / 1e6, t % 1e6, c; t += 3
		printf "%16s %6d [000] %d.%06d: sched:sched_process_exit: comm=sh pid=%d prio=120\n", "sh", c, t / 1e6, t % 1e6, c; t++
		printf "%16s %6d [000] %d.%06d: sched:sched_waking: comm=sh pid=100 prio=120 target_cpu=000\n", "sh", c, t / 1e6, t % 1e6; t++
		printf "%16s %6d [000] %d.%06d: sched:sched_switch: prev_comm=sh prev_pid=%d prev_prio=120 prev_state=X ==> next_comm=sh next_pid=100 next_prio=120\n", "sh", c, t / 1e6, t % 1e6, c; t += 3
	} }' > "$2"
}

rss() { # rss CMD...: peak RSS in kB (runstat's third figure)
	"$RUNSTAT" "$@" | awk '$4 == 0 { print $3; exit } { exit 1 }'
}

# per TASKS RSS_SMALL RSS_LARGE: bytes per task
per() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", (b - a) * 1024 / n }'; }

forked 1000 "$S/small.txt"
forked $((1000 + extra)) "$S/large.txt"
s0=$(rss "$SR" stats --tsv "$S/small.txt") && s1=$(rss "$SR" stats --tsv "$S/large.txt") &&
r0=$(rss "$PB" "$S/small.txt") && r1=$(rss "$PB" "$S/large.txt") ||
	{ echo "   a run failed"; exit 1; }
echo "   $extra forked tasks of one delay each (peak RSS $(awk -v k="$s1" 'BEGIN { printf "%.1f", k / 1024 }') MB for stats):"
echo "     stats --tsv:       $(per "$extra" "$s0" "$s1") bytes per task"
echo "     reader alone:      $(per "$extra" "$r0" "$r1") bytes per task (the task table)"
rm -f "$S/small.txt" "$S/large.txt"

sample=$(ls -S traces/*.perf.txt.gz 2>/dev/null | head -n 1)
[ -n "$sample" ] || { echo "   no sample in traces/"; exit 0; }
gzip -dc "$sample" > "$S/one.txt"
"$GEN" --copies 16 "$S/one.txt" "$S/sixteen.txt" >/dev/null || exit 1
n1=$("$SR" stats --tsv "$S/one.txt" | wc -l)
n16=$("$SR" stats --tsv "$S/sixteen.txt" | wc -l)
s0=$(rss "$SR" stats --tsv "$S/one.txt") && s1=$(rss "$SR" stats --tsv "$S/sixteen.txt") ||
	{ echo "   a run failed"; exit 1; }
echo "   $(basename "$sample") x16 ($((n16 - 1)) task rows, one copy $((n1 - 1))):"
echo "     stats --tsv:       $(per $((n16 - n1)) "$s0" "$s1") bytes per task row added (delay samples included)"
