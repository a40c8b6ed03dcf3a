#!/bin/sh
# bad-input: damaged and odd traces (docs/robustness.md), through `stats` (and
# `convert`): each case's exit status and the message it must print
# (FILE:LINE and what was expected), or with --lenient the counts it must
# report.  docs/robustness.md has the same table.  Large inputs (the 1 MB
# line, 100 000 tasks) are made here, never committed.
. tests/lib/lib.sh

# perf script lines: COMM TID CPU SECONDS EVENT FIELDS
L() { printf '%16s %6d [%03d] %s: sched:%s: %s\n' "$1" "$2" "$3" "$4" "$5" "$6"; }
# sw COMM PID CPU TIME STATE NEXT_COMM NEXT_PID
sw() { L "$1" "$2" "$3" "$4" sched_switch "prev_comm=$1 prev_pid=$2 prev_prio=120 prev_state=$5 ==> next_comm=$6 next_pid=$7 next_prio=120"; }
# wk COMM PID CPU TIME WOKEN_COMM WOKEN_PID
wk() { L "$1" "$2" "$3" "$4" sched_wakeup "comm=$5 pid=$6 prio=120 target_cpu=$(printf %03d "$3")"; }
ex() { L "$1" "$2" "$3" "$4" sched_process_exit "comm=$1 pid=$2 prio=120"; }
fk() { L "$1" "$2" "$3" "$4" sched_process_fork "comm=$1 pid=$2 child_comm=$5 child_pid=$6"; }
rt() { L "$1" "$2" "$3" "$4" sched_stat_runtime "comm=$1 pid=$2 runtime=$5 [ns] vruntime=0 [ns]"; }
tsv_rows() { sed 1d "$T/out" | wc -l | tr -d ' '; }
# row PID: the TSV row of pid in the last output
row() { awk -F'\t' -v p="$1" '$1 == p' "$T/out"; }
ok_trace() {
	wk bash 1000 0 100.000100 make 1001
	sw swapper/1 0 1 100.000110 R make 1001
	sw make 1001 1 100.000300 S swapper/1 0
}

# empty file
: > "$T/empty"
expect_status 65 "$SR" stats "$T/empty"
expect_err "^schedreplay: $T/empty: empty input: no trace lines$"

# header only: no scheduler event in a non-empty input is an error naming
# what the reader looked for, never zero rows (docs/robustness.md, "Round 2")
sed -n '1,12p' tests/parse/data/ftrace-flags.txt > "$T/header"
expect_status 65 "$SR" stats --tsv "$T/header"
expect_err "^schedreplay: $T/header: no scheduler events in 12 lines read as ftrace: expected ftrace lines such as 'TASK-PID \\[CPU\\] TIME: sched_switch: \\.\\.\\.'$"

# binary garbage
head -c 4096 /dev/urandom | tr '\n' 'x' > "$T/garbage"
printf '\001\002\377binary\000' | cat - "$T/garbage" > "$T/garbage2"
expect_status 65 "$SR" stats "$T/garbage2"
expect_err "^schedreplay: $T/garbage2:1: expected a scheduler trace \(schedreplay native, systrace HTML, perf script, trace-cmd report or ftrace\), got '\\\\x01\\\\x02\\\\xffbinary\\\\x00"

# a 1 MB line: the limit is 64 KiB; --lenient skips and counts it
{ ok_trace; head -c 1048576 /dev/zero | tr '\0' 'y'; echo; sw make 1001 1 100.000400 S swapper/1 0; } > "$T/longline"
expect_status 65 "$SR" stats "$T/longline"
expect_err "^schedreplay: $T/longline:4: expected a line of at most 65536 bytes, got a longer one$"
expect_status 0 "$SR" stats --tsv --lenient "$T/longline"
expect_err "^schedreplay: warning: $T/longline: 1 malformed line\(s\) skipped \(--lenient\)$"
expect_out '^1001	make	'

# NUL bytes in a line
{ ok_trace; printf '            make   1001 [001] 100.000500:\000 sched:sched_switch: x\n'; } > "$T/nul"
expect_status 65 "$SR" stats "$T/nul"
expect_err "^schedreplay: $T/nul:4: expected a perf script line 'COMM TID \[CPU\] SECONDS: sched:EVENT: FIELDS', got '            make   1001 \[001\] 100\.000500:\\\\x00 sched:sched_switch: x'$"
expect_status 0 "$SR" stats --lenient "$T/nul"
expect_err "warning: $T/nul: 1 malformed line\(s\) skipped \(--lenient\)$"

# truncated gzip: names the byte offset; a partial trace is never used
for i in $(seq 1 400); do ok_trace; done | awk '{ $4 = sprintf("%d.%06d:", 100 + NR, 0); print }' > "$T/big.txt"
gzip -9 -c "$T/big.txt" > "$T/big.gz"
head -c 1000 "$T/big.gz" > "$T/trunc.gz"
expect_status 65 "$SR" stats "$T/trunc.gz"
expect_err "^schedreplay: $T/trunc.gz: truncated gzip data: the compressed stream ends at byte 1000, mid-stream \(after [0-9]+ bytes of text\)$"
expect_status 65 "$SR" stats --lenient "$T/trunc.gz"
expect_err "truncated gzip data"

# gzip of garbage: a corrupt stream, and a good stream of garbage text
{ printf '\037\213\010\000\000\000\000\000\000\003'; head -c 2000 /dev/urandom; } > "$T/corrupt.gz"
expect_status 65 "$SR" stats "$T/corrupt.gz"
expect_err "^schedreplay: $T/corrupt.gz: corrupt gzip data near compressed byte [0-9]+ \(after [0-9]+ bytes of text\): "
printf 'this is not a trace\n' | gzip -c > "$T/text.gz"
expect_status 65 "$SR" stats "$T/text.gz"
expect_err "^schedreplay: $T/text.gz:1: expected a scheduler trace .*, got 'this is not a trace'$"

# CRLF line ends: read as LF, the same figures
ok_trace > "$T/lf"
sed 's/$/\r/' "$T/lf" > "$T/crlf"
expect_status 0 "$SR" stats --tsv "$T/lf"
cp "$T/out" "$T/lf.tsv"
expect_status 0 "$SR" stats --tsv "$T/crlf"
expect_same "$T/out" "$T/lf.tsv"

# negative and overflowing timestamps
sw make 1001 1 -1.000100 S swapper/1 0 > "$T/neg"
expect_status 65 "$SR" stats --input-format perf "$T/neg"
expect_err "^schedreplay: $T/neg:1: impossible timestamp -1\.000100: negative$"
{ ok_trace; sw make 1001 1 9223372037.000000 S swapper/1 0; } > "$T/over"
expect_status 65 "$SR" stats "$T/over"
expect_err "^schedreplay: $T/over:4: impossible timestamp 9223372037\.000000: beyond the 64-bit nanosecond range \(292 years\)$"
expect_status 0 "$SR" stats --lenient "$T/over"
expect_err "1 malformed line\(s\) skipped"

# timestamps going backwards on one cpu (across cpus is a merge, fine)
{ ok_trace; sw swapper/1 0 1 100.000200 R make 1001; } > "$T/back"
expect_status 65 "$SR" stats "$T/back"
expect_err "^schedreplay: $T/back:4: cpu 1: time goes backwards: 100\.000200000 after 100\.000300000 \(line 3\)$"
{ sw swapper/1 0 1 100.000110 R make 1001; wk bash 1000 0 100.000100 make 1001; } > "$T/cross"
expect_status 0 "$SR" stats --tsv "$T/cross"
expect_out '^1001	make	[0-9.]+	1	1	0\.010000	'

# cpus interleaved out of order beyond the merge window, on a pipe
awk 'BEGIN { for (i = 0; i < 40000; i++) printf "%16s %6d [000] %d.%06d: sched:sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n", "a", 10, 100 + int(i / 1000000), i % 1000000 }' > "$T/window"
sw b 20 1 99.000000 S swapper/1 0 >> "$T/window"
expect_status 65 sh -c "\"$SR\" stats - < \"$T/window\""
expect_err "^schedreplay: <stdin>:40001: cpu 1: event at 99\.000000000 is older than the event at 100\.007232000 \(line 7233\) already merged: the input interleaves cpus out of time order by more than the 32768-event merge window; standard input or a pipe cannot be re-read"

# a wake of a task never seen: it gets a row (1 wakeup, then its delay)
{ wk bash 1000 0 100.000100 ghost 4242; sw bash 1000 0 100.000200 S ghost 4242; } > "$T/ghost"
expect_status 0 "$SR" stats --tsv "$T/ghost"
expect_out '^4242	ghost	0\.000000	1	1	0\.100000	0\.100000	0\.100000	0\.100000	0\.100000	100\.000100000	100\.000200000	1	0$'

# a switch out of a task that was not running: no time, no row for it
{ sw swapper/0 0 0 100.000100 R b 7; sw a 5 0 100.000200 S b 7; } > "$T/notrun"
expect_status 0 "$SR" stats --tsv "$T/notrun"
[ -z "$(row 5)" ] || fail "a task never run got a row"
expect_out '^7	b	0\.100000	1	0	'

# pid reuse: exit, dead switch-out, then a fork of the same pid
{ wk swapper 0 0 1.000000 a 1000; sw swapper/0 0 0 1.000010 R a 1000
  ex a 1000 0 1.000500; sw a 1000 0 1.000600 X swapper/0 0
  fk sh 900 1 1.100000 sh 1000; wk sh 900 1 1.100001 sh 1000
  sw swapper/0 0 0 1.100100 R sh 1000; sw sh 1000 0 1.100400 S swapper/0 0; } > "$T/reuse"
expect_status 0 "$SR" stats --tsv "$T/reuse"
expect_out '^1000	a	0\.590000	1	1	0\.010000	'
expect_out '^1000	sh	0\.300000	1	1	0\.099000	'
[ "$(tsv_rows)" = 2 ] || fail "pid reuse: want two rows for pid 1000"

# a task forking itself: no kernel records it (the parent is alive, its pid
# taken); refused by every reader, skipped and counted with --lenient
{ ok_trace; fk make 1001 1 100.000400 make 1001; } > "$T/selffork"
expect_status 65 "$SR" stats "$T/selffork"
expect_err "^schedreplay: $T/selffork:4: expected a fork's child pid to differ from the parent's, got pid 1001 forking pid 1001$"
expect_status 0 "$SR" stats --tsv --lenient "$T/selffork"
expect_err "warning: $T/selffork: 1 malformed line\(s\) skipped \(--lenient\)$"
expect_out '^1001	make	'

# exit of the running task: its time ends at its last switch-out
{ wk swapper 0 0 1.000000 a 1000; sw swapper/0 0 0 1.000010 R a 1000
  ex a 1000 0 1.000500; sw a 1000 0 1.000600 X swapper/0 0
  sw swapper/0 0 0 2.000000 R swapper/0 0; } > "$T/exit"
expect_status 0 "$SR" stats --tsv "$T/exit"
expect_out '^1000	a	0\.590000	1	1	'

# 100 000 tasks: each gets its row
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "%16s %6d [000] %d.%06d: sched:sched_switch: prev_comm=a prev_pid=%d prev_prio=120 prev_state=R ==> next_comm=b next_pid=%d next_prio=120\n", "a", i + 10, 1 + int(i / 1000000), i % 1000000, i + 10, i + 200000 }' > "$T/many"
expect_status 0 "$SR" stats --tsv "$T/many"
[ "$(tsv_rows)" = 100000 ] || fail "100000 tasks: $(tsv_rows) rows"

# cpu 4096 is a cpu like any other; 8192 is beyond the limit
{ wk bash 1000 4096 100.000100 make 1001; sw swapper/4096 0 4096 100.000110 R make 1001; sw make 1001 4096 100.000300 S swapper/4096 0; } > "$T/cpu4096"
expect_status 0 "$SR" stats --tsv "$T/cpu4096"
expect_out '^1001	make	0\.190000	1	1	0\.010000	'
sed 's/\[4096\]/[8192]/' "$T/cpu4096" > "$T/cpu8192"
expect_status 65 "$SR" stats "$T/cpu8192"
expect_err "^schedreplay: $T/cpu8192:1: cpu number 8192 out of range \(0 to 8191 supported\)$"

# lost-event markers in the middle of a burst: a warning with counts,
# cpus and times, and the touched tasks marked lost=1
{ sed -n '1,12p' tests/parse/data/ftrace-flags.txt
  echo '          <idle>-0       [001] d..2.    50.000050: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=quiet next_pid=800 next_prio=120'
  echo '          <idle>-0       [000] d..2.    50.000100: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=burst next_pid=700 next_prio=120'
  echo '           burst-700     [000] d..2.    50.000200: sched_switch: prev_comm=burst prev_pid=700 prev_prio=120 prev_state=R+ ==> next_comm=other next_pid=701 next_prio=120'
  echo 'CPU:0 [LOST 17 EVENTS]'
  echo '           other-701     [000] d..2.    50.000900: sched_switch: prev_comm=other prev_pid=701 prev_prio=120 prev_state=S ==> next_comm=burst next_pid=700 next_prio=120'
  echo '           burst-700     [000] d..2.    50.001000: sched_switch: prev_comm=burst prev_pid=700 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120'
  echo '           quiet-800     [001] d..2.    50.001000: sched_switch: prev_comm=quiet prev_pid=800 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120'
} > "$T/lost"
expect_status 0 "$SR" stats --tsv "$T/lost"
expect_err "^schedreplay: warning: $T/lost: 17 events lost in 1 range\(s\) on 1 cpu\(s\); 2 task\(s\) whose figures they touch are marked \(lost=1, '!'\)$"
expect_err "^schedreplay: warning:   cpu 0: 17 events lost between 50\.000200000 s and 50\.000900000 s$"
expect_out '^700	burst	.*	1	1$'
expect_out '^701	other	.*	1	1$'
expect_out '^800	quiet	.*	1	0$'

# sched_stat_runtime charges no cpu can hold: more than the time elapsed
# (plus a day, for a task already running at the start); the replay would
# otherwise simulate centuries of demand
{ ok_trace; rt make 1001 1 100.000400 200000; rt make 1001 1 100.000500 900000000000000000; } > "$T/runtime"
expect_status 65 "$SR" stats "$T/runtime"
expect_err "^schedreplay: $T/runtime:5: cpu 1: expected sched_stat_runtime charges totalling at most the trace time so far plus a day \(86400\.000400000 s\), got 900000000\.000200000 s: implausible runtime values \(a cpu runs one task at a time\)$"
{ ok_trace; rt make 1001 1 100.000400 200000; rt make 1001 1 100.000500 86400000000000; } > "$T/runtime-day"
expect_status 0 "$SR" stats --tsv "$T/runtime-day"
expect_out '^1001	make	86400000\.200000	'

# a trace longer than a day: a corrupt timestamp, found with its line
{ ok_trace; sw swapper/1 0 1 86600.000000 R make 1001; } > "$T/span"
expect_status 65 "$SR" stats "$T/span"
expect_err "^schedreplay: $T/span:4: expected a trace spanning at most 86400 s, got an event at 86600\.000000000 s, 86499\.999900000 s after the first one \(line 1\): a corrupt timestamp\?$"

# replay reads through the same reader: the same status and message as
# stats for every damaged input above, and it runs on the odd ones
for f in empty garbage2 longline nul trunc.gz corrupt.gz text.gz neg over \
	 back cpu8192 runtime span; do
	"$SR" stats "$T/$f" >/dev/null 2>"$T/stats.err"
	want=$?
	expect_status $want "$SR" replay -o "$T/rep" "$T/$f"
	expect_same "$T/err" "$T/stats.err"
done
for f in crlf cross ghost notrun reuse exit cpu4096 lost; do
	expect_status 0 "$SR" replay -o "$T/rep" --cpus 2 "$T/$f"
done
for f in crlf cross ghost notrun reuse exit lost; do
	expect_status 0 "$SR" replay -o "$T/rep" "$T/$f"
done
# a task on cpu 4096: the recording's 4097 cpus are more than a replay
# takes (the message says what to do); from a pipe, found at its end
expect_status 64 "$SR" replay -o "$T/rep" "$T/cpu4096"
expect_err "^schedreplay: the recording used 4097 cpus; at most 1024 can be replayed: give --cpus N$"
expect_status 64 sh -c '"$1" replay -o "$2/rep" - <"$2/cpu4096"' sh "$SR" "$T"
expect_err "^schedreplay: the recording used 4097 cpus"

done_ok
