#!/bin/sh
# Every command that reads a trace says the same after reading it: the
# malformed lines --lenient skipped and the events the recording lost, in
# the same words (parse/read-warn.h); convert, which keeps no figures,
# leaves out the marked tasks.
. tests/lib/lib.sh
small=tests/replay/data/stats-small.txt
NOGP=/nonexistent/gnuplot
# a lost-event marker at 22 ms and one malformed line
{ head -n 9 "$small"; echo '15ms 0 switch prev=100 state=Q next=200'
  tail -n +10 "$small"; } |
	awk '{ print } /^21ms/ { print "22ms    0 lost    count=7" }' >"$T/t.txt"
cat >"$T/want" <<EOT
schedreplay: warning: $T/t.txt: 1 malformed line(s) skipped (--lenient)
schedreplay: warning: $T/t.txt: 7 events lost in 1 range(s) on 1 cpu(s); 2 task(s) whose figures they touch are marked (lost=1, '!')
schedreplay: warning:   cpu 0: 7 events lost between 0.021000000 s and 0.022000000 s
EOT

expect_status 0 "$SR" stats --lenient "$T/t.txt"
expect_same "$T/err" "$T/want"
expect_status 0 "$SR" replay --lenient -q -o "$T/r" "$T/t.txt"
expect_same "$T/err" "$T/want"
sed -i 's/^\(schedreplay: warning: .*: 7 events lost in 1 range(s) on 1 cpu(s)\);.*/\1/' "$T/want"
expect_status 0 "$SR" convert --lenient -o "$T/c" "$T/t.txt"
expect_same "$T/err" "$T/want"
# replay without observed marks no figures: the clause is left out
expect_status 0 "$SR" replay --lenient -q -o "$T/r2" --policy stock "$T/t.txt"
expect_same "$T/err" "$T/want"

# diff, plot and report replay the trace: the same lines, once
lost=$T/lost.txt
awk '{ print } /^21ms/ { print "22ms    0 lost    count=7" }' "$small" >"$lost"
expect_status 0 "$SR" stats "$lost"
grep 'warning' "$T/err" >"$T/want"
expect_status 0 "$SR" diff "$lost"
expect_same "$T/err" "$T/want"
expect_status 69 "$SR" plot -o "$T/p" --gnuplot $NOGP "$lost"
grep 'warning' "$T/err" >"$T/got"
expect_same "$T/got" "$T/want"
done_ok
