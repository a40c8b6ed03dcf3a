#!/bin/sh
# R6 (round 3, wrong result): a regex on task names that hits pcre2's
# match limit was read as "no match": --task, --exclude, --only, --rt
# silently selected the wrong tasks (grep -P reports the error).  Now
# pcre2 giving up is an error, not a mismatch, in every option that
# takes a name regex: exit 64 naming the option, its pattern and the
# name.  A reader's own pattern giving up on a line is bad data at
# FILE:LINE (65; --lenient skips the line and says so).
. tests/lib/lib.sh
H=tests/replay/data/hogplayer.txt
# The hog renamed with 30 word characters: ^(\w+)+\d tries every way of
# cutting them into runs before it can say no (2^29 of them), far over
# pcre2's default match limit of 10 000 000 steps, JIT or not.
name=kworker_events_unbound_highpri
re='^(\w+)+\d'
sed "s/comm=hog/comm=$name/" "$H" > "$T/t.txt"
# the independent check that the pattern cannot be decided on this name:
# grep -P (its own pcre) gives up too, and says so
if command -v grep >/dev/null && echo x | grep -qP x 2>/dev/null; then
	echo "$name" | grep -P "$re" >/dev/null 2>"$T/grep.err"
	nchecks=$((nchecks + 1))
	grep -q "backtracking limit" "$T/grep.err" ||
		fail "grep -P decided '$re' on $name: the test's premise is wrong"
fi
why="on the task name '$name': match limit exceeded \\(error -47; an error, not a mismatch\\)\$"
pat='\^\(\\w\+\)\+\\d'
# every option that takes a name regex, through every command that reads it
for cmd in "stats --task" "diff --task" "explain --task" "diff --tree" \
	   "diff --only-tree" "diff --only" "diff --exclude" "replay --exclude" \
	   "replay --only" "replay --only-tree" "report --task" "plot --task"; do
	set -- $cmd
	rm -rf "$T/o"
	expect_status 64 "$SR" "$1" "$2" "$re" "$T/t.txt" -o "$T/o" -q
	opt=$2
	[ "$opt" != --tree ] || opt=--tree
	expect_err "^schedreplay: $opt '$pat': $why"
	nchecks=$((nchecks + 1))
	[ ! -e "$T/o" ] || fail "$cmd: output made by a refused run"
done
# --rt: each simulator asks at a task's birth
for cmd in replay diff; do
	rm -rf "$T/o"
	expect_status 64 "$SR" $cmd --rt "$re" "$T/t.txt" -o "$T/o" -q
	expect_err "^schedreplay: replay under stock: --rt '$pat': $why"
	nchecks=$((nchecks + 1))
	[ ! -e "$T/o" ] || fail "$cmd --rt: output made by a refused run"
done
# --group: diff's verdict puts every task in a group by its name
expect_status 64 "$SR" diff --group "mine=$re" "$T/t.txt" -q
expect_err "^schedreplay: --group 'mine=$pat': $why"
# the same options with a pattern pcre2 decides: as before
expect_status 0 "$SR" stats --task '^(\w+)+i$' "$T/t.txt"
expect_out "kworker_events_unbound_highpri|kworker_events_unbound_highp"
expect_status 0 "$SR" replay --exclude '^(\w+)+i$' "$T/t.txt" -o "$T/ok" -q
nchecks=$((nchecks + 1))
[ "$(grep -c "^200	" "$T/ok/stock/summary.tsv")" -eq 1 ] &&
	! grep -q "^100	" "$T/ok/stock/summary.tsv" ||
	fail "--exclude of a decidable pattern left the wrong tasks"

# A reader's pattern: a sched_switch line whose fields repeat 900 times
# makes the two lazy comm groups of the fields pattern try every pair of
# cut points, 900 x 900 ways: pcre2 gives up.  The line is an error at
# its line number, whatever the reader made of "no match".
P=tests/parse/data/perf-small.txt
{
	sed -n 1,3p "$P"
	printf '         swapper     0 [001]   100.000120:       sched:sched_switch: prev_comm='
	i=0
	while [ $i -lt 900 ]; do
		printf ' prev_pid=1 prev_prio=1 prev_state=S next_comm= next_pid=2 next_prio=3'
		i=$((i + 1))
	done
	printf ' z\n'
	sed -n '4,$p' "$P"
} > "$T/limit.txt"
expect_status 65 "$SR" stats "$T/limit.txt"
expect_err "^schedreplay: $T/limit.txt:4: the sched_switch fields pattern could not decide on this line: match limit exceeded \\(error -47; an error, not a mismatch\\)\$"
expect_status 0 "$SR" stats --lenient "$T/limit.txt"
expect_err "warning: $T/limit.txt: 1 malformed line\\(s\\) skipped \\(--lenient\\)"
done_ok
