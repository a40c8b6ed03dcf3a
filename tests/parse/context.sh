#!/bin/sh
# context.sh: a native trace's recording context ("#context " lines among
# the comments before the first event, docs/trace-format.md "Context").
# - convert keeps it: the same #context lines out as in, whatever is
#   between them (comments, blank lines);
# - a block larger than the 256 KiB the reader first looks at (6000 task
#   lines, about 700 KB) is read whole: all 6000 come out;
# - a bad line is refused with the file, its line number and what was
#   expected (exit 65);
# - a "#context" line after the first event is a comment like any other.
. tests/lib/lib.sh

cat >"$T/a.txt" <<'EOF'
#schedreplay-native 1
# a comment first
#context schedreplay-context 1

#context kernel release="6.18.4" hz=250 autogroup=1
#context machine ncpus=2 root_pid=100
#context task pid=100 ts=start nice=5 cpus=0 tree=1 comm="hog \"one\""
0s 0 task pid=100 comm=hog running
1ms 0 switch prev=100 state=S next=0
#context task pid=100 ts=5 nice=6 comm="late"
EOF
expect_status 0 "$SR" convert "$T/a.txt" -o "$T/a.out"
grep '^#context ' "$T/a.txt" | sed '$d' >"$T/want"
grep '^#context ' "$T/a.out" >"$T/got"
expect_same "$T/got" "$T/want"
# the events are as without the context
grep -v '^#context ' "$T/a.txt" >"$T/plain.txt"
expect_status 0 "$SR" convert "$T/plain.txt" -o "$T/plain.out"
grep -v '^#' "$T/a.out" >"$T/ev1"
grep -v '^#' "$T/plain.out" >"$T/ev2"
expect_same "$T/ev1" "$T/ev2"

# a block past the first 256 KiB
awk 'BEGIN {
	print "#schedreplay-native 1"
	print "#context schedreplay-context 1"
	for (i = 1; i <= 6000; i++)
		printf "#context task pid=%d ts=start tgid=%d sid=1 nice=0 policy=normal rtprio=0 autogroup=7 autogroup_nice=0 cpus=0-1 comm=\"task-%d\"\n", i, i, i
	print "0s 0 task pid=1 comm=a running"
	print "1ms 0 switch prev=1 state=S next=0"
}' >"$T/big.txt"
[ "$(wc -c <"$T/big.txt")" -gt 262144 ] || fail "the big block is not past 256 KiB"
expect_status 0 "$SR" convert "$T/big.txt" -o "$T/big.out"
nchecks=$((nchecks + 1))
[ "$(grep -c '^#context task ' "$T/big.out")" -eq 6000 ] ||
	fail "of 6000 context task lines, $(grep -c '^#context task ' "$T/big.out") came out"

# a bad line: its number
printf '#schedreplay-native 1\n#context schedreplay-context 1\n#context task pid=1 ts=start nice=20\n0s 0 task pid=1 comm=a\n' >"$T/bad.txt"
expect_status 65 "$SR" stats "$T/bad.txt"
expect_err "bad.txt:3: recording context: expected nice= a whole number from -20 to 19, got '20'"
printf '#schedreplay-native 1\n#context kernel hz=250\n0s 0 task pid=1 comm=a\n' >"$T/nomagic.txt"
expect_status 65 "$SR" stats "$T/nomagic.txt"
expect_err "nomagic.txt:2: recording context: expected the context's first line 'schedreplay-context 1', got 'kernel hz=250'"
done_ok
