#!/bin/sh
# convert: the CLI over every reader path: files, stdin, gzip, -o, format
# override, and bad input with its exact message and exit status.
. tests/lib/lib.sh
D=tests/parse/data
P=$D/perf-small.txt

expect_status 0 "$SR" convert $P
head -n 1 "$T/out" > "$T/magic"
echo '#schedreplay-native 1' > "$T/want"
expect_same "$T/magic" "$T/want"
cp "$T/out" "$T/perf.native"
# perf text names a waker only by the context of the line: guessed
expect_out '^100\.000105000 0 wake pid=1001 by=1000 guessed target=1 prio=120$'
expect_out '^100\.000705000 1 wake pid=1001 by=idle target=1 prio=120$'
expect_out '^100\.000400000 0 exec pid=1002 comm=cc$'

# stdin, gzip, gzip on stdin, -o: the same bytes
expect_status 0 sh -c "cat $P | \"$SR\" convert -"
expect_same "$T/out" "$T/perf.native"
gzip -c $P > "$T/p.gz"
expect_status 0 "$SR" convert "$T/p.gz"
expect_same "$T/out" "$T/perf.native"
expect_status 0 sh -c "cat \"$T/p.gz\" | \"$SR\" convert -"
expect_same "$T/out" "$T/perf.native"
expect_status 0 "$SR" convert -o "$T/o.native" $P
expect_same "$T/o.native" "$T/perf.native"

# native in, native out: the same events
expect_status 0 "$SR" convert "$T/perf.native"
sed 1,2d "$T/out" > "$T/a"; sed 1,2d "$T/perf.native" > "$T/b"
expect_same "$T/a" "$T/b"

# CRLF line ends read like LF
sed 's/$/\r/' $P > "$T/crlf.txt"
expect_status 0 "$SR" convert "$T/crlf.txt"
expect_same "$T/out" "$T/perf.native"

# --input-format overrides detection
expect_status 65 "$SR" convert --input-format ftrace $P
expect_err "^schedreplay: $P:1: expected an ftrace event line 'COMM-PID \[CPU\] \[FLAGS\] SECONDS: EVENT: FIELDS', got '            bash  1000 \[000\]   100\.000100:       sched:sched_waking: comm=make pid=1001 prio=120 target_cpu=001'$"
expect_status 64 "$SR" convert --input-format nosuch $P
expect_err "unknown input format 'nosuch' \(known: perf\.data, trace\.dat, native, systrace, perf, trace-cmd or ftrace\)"

# usage and missing input
expect_status 64 "$SR" convert
expect_status 64 "$SR" convert --bogus $P
expect_status 66 "$SR" convert "$T/does-not-exist"
expect_err "^schedreplay: $T/does-not-exist: cannot open: No such file or directory$"

# a failed convert leaves the previous output intact and no temporary
echo "previous" > "$T/keep.native"
expect_status 65 "$SR" convert -o "$T/keep.native" tests/parse/data/perf-small.txt --input-format native
echo "previous" > "$T/want"
expect_same "$T/keep.native" "$T/want"
[ "$(ls "$T" | grep -c keep)" -eq 1 ] || fail "a temporary output file was left behind"

# lost markers: a warning with count, cpu and time range
expect_status 0 "$SR" convert $D/ftrace-flags.txt
expect_err "^schedreplay: warning: $D/ftrace-flags.txt: 42 events lost in 1 range\(s\) on 1 cpu\(s\)$"
expect_err "^schedreplay: warning:   cpu 0: 42 events lost between 50\.000350000 s and 50\.000500000 s$"
expect_out '^50\.000500000 0 lost count=42$'

done_ok
