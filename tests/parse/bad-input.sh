#!/bin/sh
# Bad input at the reader: each case's exit status and exact message, and
# with --lenient the count it reports (docs/robustness.md, the reader's
# part).
. tests/lib/lib.sh
D=tests/parse/data
HDR='            bash  1000 [000]   100.000100:       sched:sched_switch: prev_comm=bash prev_pid=1000 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120'

# empty file, blank lines only
: > "$T/empty"
expect_status 65 "$SR" convert "$T/empty"
expect_err "^schedreplay: $T/empty: empty input: no trace lines$"
printf '\n  \n\n' > "$T/blank"
expect_status 65 "$SR" convert "$T/blank"
expect_err "empty input: no trace lines$"

# header only: no events is an error, not an empty trace
head -n 12 $D/ftrace-flags.txt > "$T/hdr"
expect_status 65 "$SR" convert -o "$T/hdr.native" "$T/hdr"
expect_err "hdr: no scheduler events in 12 lines read as ftrace"
nchecks=$((nchecks + 1))
[ ! -e "$T/hdr.native" ] || fail "header-only trace: convert wrote a file"

# binary garbage
head -c 3000 /dev/urandom > "$T/garbage"
printf '\x01\x02binary\x00junk\n' > "$T/garbage"
expect_status 65 "$SR" convert "$T/garbage"
expect_err "^schedreplay: $T/garbage:1: expected a scheduler trace \(schedreplay native, systrace HTML, perf script, trace-cmd report or ftrace\), got '\\\\x01\\\\x02binary\\\\x00junk'$"

# binary perf.data and trace.dat cut short: FILE:OFFSET (tests/parse/binary.sh
# has the rest)
printf 'PERFILE2\001\000\000\000binary' > "$T/perf.data"
expect_status 65 "$SR" convert "$T/perf.data"
expect_err "^schedreplay: $T/perf.data:18: expected a perf.data header of 104 bytes, got the end of the file: truncated$"
printf '\027\010\104tracing6\000binary' > "$T/trace.dat"
expect_status 65 "$SR" convert "$T/trace.dat"
expect_err "^schedreplay: $T/trace.dat:[0-9]+: expected "

# NUL bytes inside a line of a known format
{ echo "$HDR"; printf 'bash  1000 [000]   100.000200:\000 sched:sched_switch: x\n'; } > "$T/nul"
expect_status 65 "$SR" convert "$T/nul"
expect_err "^schedreplay: $T/nul:2: expected a perf script line 'COMM TID \[CPU\] SECONDS: sched:EVENT: FIELDS', got 'bash  1000 \[000\]   100\.000200:\\\\x00 sched:sched_switch: x'$"
expect_status 0 "$SR" convert --lenient "$T/nul"
expect_err "^schedreplay: warning: $T/nul: 1 malformed line\(s\) skipped \(--lenient\)$"

# a malformed field list, strict and lenient
sed '3s/prev_pid=0 /prev_pid=zero /' $D/perf-small.txt > "$T/badfield"
expect_status 65 "$SR" convert "$T/badfield"
expect_err "^schedreplay: $T/badfield:3: expected sched_switch fields 'prev_comm=COMM prev_pid=N prev_prio=N prev_state=S ==> next_comm=COMM next_pid=N next_prio=N', got 'prev_comm=swapper/1 prev_pid=zero prev_prio=120 prev_state=R ==> next_comm=make next_pid=1001 next_prio=120'$"
expect_status 0 "$SR" convert --lenient "$T/badfield"
expect_err "1 malformed line\(s\) skipped"

# a 1 MB line: an error, or a counted skip
{ echo "$HDR"; head -c 1048576 /dev/zero | tr '\0' x; echo; echo "$HDR" | sed 's/100.000100/100.000300/'; } > "$T/long"
expect_status 65 "$SR" convert "$T/long"
expect_err "^schedreplay: $T/long:2: expected a line of at most 65536 bytes, got a longer one$"
expect_status 0 "$SR" convert --lenient "$T/long"
expect_err "1 malformed line\(s\) skipped"
expect_out '^100\.000300000 0 switch'

# truncated gzip, gzip of garbage
gzip -c $D/perf-small.txt > "$T/t.gz"
head -c 300 "$T/t.gz" > "$T/trunc.gz"
expect_status 65 "$SR" convert "$T/trunc.gz"
expect_err "^schedreplay: $T/trunc.gz: truncated gzip data: the compressed stream ends at byte 300, mid-stream \(after [0-9]+ bytes of text\)$"
# a deflate block of the invalid type 3 (BFINAL 1, BTYPE 11): deterministic,
# where random bytes sometimes inflate to a few bytes first
{ printf '\037\213\010\000\000\000\000\000\000\003\007'; head -c 2000 /dev/zero; } > "$T/bad.gz"
expect_status 65 "$SR" convert "$T/bad.gz"
expect_err "^schedreplay: $T/bad.gz: corrupt gzip data near compressed byte [0-9]+ \(after [0-9]+ bytes of text\): "

# timestamps: negative, overflowing int64 ns
echo "$HDR" | sed 's/100.000100/-1.000100/' > "$T/neg"
expect_status 65 "$SR" convert --input-format perf "$T/neg"
expect_err "^schedreplay: $T/neg:1: impossible timestamp -1\.000100: negative$"
echo "$HDR" | sed 's/100.000100/9223372037.000000/' > "$T/big"
expect_status 65 "$SR" convert "$T/big"
expect_err "^schedreplay: $T/big:1: impossible timestamp 9223372037\.000000: beyond the 64-bit nanosecond range \(292 years\)$"

# cpu numbers: 4096 is fine, 8192 is beyond the limit
echo "$HDR" | sed 's/\[000\]/[4096]/' > "$T/cpu4096"
expect_status 0 "$SR" convert "$T/cpu4096"
expect_out '^100\.000100000 4096 switch prev=1000'
echo "$HDR" | sed 's/\[000\]/[8192]/' > "$T/cpu8192"
expect_status 65 "$SR" convert "$T/cpu8192"
expect_err "^schedreplay: $T/cpu8192:1: cpu number 8192 out of range \(0 to 8191 supported\)$"

# 100 000 tasks: each gets a record
awk 'BEGIN { for (i = 0; i < 100000; i++)
	printf "  a-%d [000] d..2. %d.%06d: sched_switch: prev_comm=a prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=b next_pid=%d next_prio=120\n", i + 10, 1 + int(i / 1000000), i % 1000000, i + 10, i + 200000 }' > "$T/many"
expect_status 0 "$SR" convert "$T/many"
[ "$(grep -c ' task pid=' "$T/out")" -eq 200000 ] || fail "100000 switches should declare 200000 tasks"

# odd but legal streams: the reader delivers them, judging is for the
# consumers: a wake of a task never seen, a switch out of a task that was
# not running, the exit of the running task, lost events mid-burst
cat > "$T/odd.native" <<'NATIVE'
#schedreplay-native 1
0.001 0 wake    pid=77 by=irq
0.002 0 switch  prev=55 state=S next=77
0.003 0 exit    pid=77
0.003 0 lost    count=5
0.004 0 switch  prev=77 state=X next=0
0.005 1 fork    pid=55 child=77 comm=again
NATIVE
expect_status 0 "$SR" convert "$T/odd.native"
expect_out '^0\.001000000 0 task pid=77 comm=""$'
expect_out '^0\.005000000 1 fork pid=55 child=77 comm=again$'
expect_err "cpu 0: 5 events lost between 0\.003000000 s and 0\.003000000 s"

done_ok
