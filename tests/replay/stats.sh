# stats: the command line, the figures of a hand-made trace under both
# compat modes, --by-comm, sorting, lost events, --lenient, bad input,
# -o and determinism.  Every figure of stats-small.txt below is worked out
# by hand from the accounting rules in tests/replay/data/README.md.
. tests/lib/lib.sh
D=tests/replay/data
small=$D/stats-small.txt
H='pid	comm	runtime_ms	switches	wakeups	avg_delay_ms	p50_delay_ms	p95_delay_ms	p99_delay_ms	max_delay_ms	max_delay_start_s	max_delay_end_s	tasks	lost'

# usage errors
expect_status 64 "$SR" stats
expect_err 'stats: expected a TRACE argument'
expect_status 64 "$SR" stats "$small" "$small"
expect_err 'expected one TRACE'
expect_status 64 "$SR" stats --bogus "$small"
expect_err "unknown option '--bogus'"
expect_status 64 "$SR" stats --sort avg,nope "$small"
expect_err "--sort: expected keys among pid, comm, .*got 'nope'"
expect_status 64 "$SR" stats --compat perf-5 "$small"
expect_err "--compat: expected perf or perf-6.1, got 'perf-5'"
expect_status 64 "$SR" stats "$small" --sort
expect_err '--sort expects a value'
expect_status 0 "$SR" stats --help
expect_out '^usage: schedreplay stats \[OPTIONS\] TRACE$'
expect_status 66 "$SR" stats "$T/missing.txt"

# the figures (docs/metrics.md): R+ and sched_waking count by default
expect_status 0 "$SR" stats --tsv "$small"
cat >"$T/want" <<EOT
$H
100	hog	12.000000	2	0	3.000000	1.000000	5.000000	5.000000	5.000000	0.020000000	0.025000000	1	0
200	player	2.000000	2	2	1.000000	0.000000	2.000000	2.000000	2.000000	0.010000000	0.012000000	1	0
300	player	4.000000	1	0	0.000000	0.000000	0.000000	0.000000	0.000000	0.000000000	0.000000000	1	0
EOT
expect_same "$T/out" "$T/want"

# perf 6.1 ignores sched_waking and R+
expect_status 0 "$SR" stats --tsv --compat perf-6.1 "$small"
cat >"$T/want" <<EOT
$H
100	hog	12.000000	0	0	0.000000	0.000000	0.000000	0.000000	0.000000	0.000000000	0.000000000	1	0
200	player	2.000000	1	1	2.000000	2.000000	2.000000	2.000000	2.000000	0.010000000	0.012000000	1	0
300	player	4.000000	1	0	0.000000	0.000000	0.000000	0.000000	0.000000	0.000000000	0.000000000	1	0
EOT
expect_same "$T/out" "$T/want"

# merged by comm like perf without -p: pid "-", tasks 2
expect_status 0 "$SR" stats --tsv --by-comm --sort comm "$small"
cat >"$T/want" <<EOT
$H
100	hog	12.000000	2	0	3.000000	1.000000	5.000000	5.000000	5.000000	0.020000000	0.025000000	1	0
-	player	6.000000	3	2	0.666666	0.000000	2.000000	2.000000	2.000000	0.010000000	0.012000000	2	0
EOT
expect_same "$T/out" "$T/want"

# sort keys: measures largest first, ties by pid
expect_status 0 "$SR" stats --tsv --sort runtime "$small"
cut -f1 "$T/out" | tr '\n' ' ' >"$T/order"
printf 'pid 100 300 200 ' >"$T/want"
expect_same "$T/order" "$T/want"
expect_status 0 "$SR" stats --tsv --sort switches,p50 "$small"
cut -f1 "$T/out" | tr '\n' ' ' >"$T/order"
printf 'pid 100 200 300 ' >"$T/want"
expect_same "$T/order" "$T/want"

# the table: perf-like, merged rows as comm:(N)
expect_status 0 "$SR" stats "$small"
expect_out '^  hog:100 +\| +12\.000 \| +2 \| +0 \| +3\.000 \|'
expect_out '^  TOTAL: +\| +18\.000 \| +5 \|'
expect_status 0 "$SR" stats --by-comm "$small"
expect_out '^  player:\(2\) +\| +6\.000 \| +3 \|'

# stdin, gzip, -o, and the same bytes every time
expect_status 0 "$SR" stats --tsv "$small"
cp "$T/out" "$T/first"
gzip -c "$small" >"$T/small.gz"
expect_status 0 sh -c "\"$SR\" stats --tsv - <\"$T/small.gz\""
expect_same "$T/out" "$T/first"
expect_status 0 "$SR" stats --tsv -o "$T/o.tsv" "$small"
expect_same "$T/o.tsv" "$T/first"
[ -s "$T/out" ] && fail "-o FILE also wrote to stdout"
ls "$T" | grep -q 'tmp' && fail "a temporary file was left behind"
expect_status 0 "$SR" stats --compat perf-6.1 --tsv "$D/perf-mix.perf.txt.gz"
cp "$T/out" "$T/a"
expect_status 0 "$SR" stats --compat perf-6.1 --tsv "$D/perf-mix.perf.txt.gz"
expect_same "$T/out" "$T/a"

# lost events: a warning with counts, cpus and ranges; touched tasks marked
# (at 22 ms, 300 runs on cpu 0 and hog waits: both marked; player sleeps)
awk '{ print } /^21ms/ { print "22ms    0 lost    count=7" }' "$small" \
	>"$T/lost.txt"
expect_status 0 "$SR" stats --tsv "$T/lost.txt"
expect_err 'warning: .*lost.txt: 7 events lost in 1 range\(s\) on 1 cpu\(s\); 2 task\(s\) whose figures they touch are marked'
expect_err 'warning:   cpu 0: 7 events lost between 0\.021000000 s and 0\.022000000 s'
awk -F'\t' 'NR > 1 { print $1, $14 }' "$T/out" | tr '\n' ' ' >"$T/lostcol"
printf '100 1 200 0 300 1 ' >"$T/want"
expect_same "$T/lostcol" "$T/want"
expect_status 0 "$SR" stats "$T/lost.txt"
expect_out '^  player:300 ! '
expect_out '2 task\(s\) whose figures lost events touched'

# bad input: FILE:LINE and 65; --lenient skips, counts and says so
{ head -n 9 "$small"; echo '15ms 0 switch prev=100 state=Q next=200'
  tail -n +10 "$small"; } >"$T/bad.txt"
expect_status 65 "$SR" stats "$T/bad.txt"
expect_err "bad.txt:10: expected"
expect_status 0 "$SR" stats --lenient --tsv "$T/bad.txt"
expect_err 'warning: .*bad.txt: 1 malformed line\(s\) skipped \(--lenient\)'
# nothing skipped, nothing said
expect_status 0 "$SR" stats --lenient --tsv "$small"
nchecks=$((nchecks + 1))
! grep -q 'malformed' "$T/err" || fail "--lenient on a clean file warned: $(cat "$T/err")"
expect_status 65 "$SR" stats --input-format perf "$small"

# cpu time that would overflow 64-bit nanoseconds: bad data, not a wrap.
# The reader refuses such charges first: a cpu cannot be charged more than
# the time elapsed plus a day (docs/limits.md); the sums in replay/metrics.c
# are checked all the same.
{ head -n 6 "$small"
  i=1; while [ $i -le 100 ]; do echo "${i}ms 0 runtime pid=200 ns=100000000000000000"
  i=$((i + 1)); done; } >"$T/ovf.txt"
expect_status 65 "$SR" stats "$T/ovf.txt"
expect_err "ovf.txt:7: cpu 0: expected sched_stat_runtime charges totalling at most the trace time so far plus a day"
{ head -n 6 "$small"
  i=1; while [ $i -le 50 ]; do
	echo "${i}ms 0 runtime pid=200 ns=100000000000000000"
	echo "${i}ms 0 runtime pid=300 ns=100000000000000000"
	i=$((i + 1)); done; } >"$T/ovf2.txt"
expect_status 65 "$SR" stats --by-comm "$T/ovf2.txt"
expect_err "ovf2.txt:7: cpu 0: expected sched_stat_runtime charges"
[ -s "$T/out" ] && fail "a half-written table on stdout"
done_ok
