#!/bin/sh
# R11 (round 3, message): --rt 'mpv:-1' or 'mpv:high' was silently taken
# as a regex holding the colon (':0' and ':100' were refused), and a rule
# that matched no task was not reported.  Now one rule reads REGEX[:PRIO]
# everywhere (replay, diff, sweep): the last ':' not written '\:' and not
# followed by ')' or ']' (a group's or class's colon) starts a priority,
# which is 1 to 99 in digits or refused (64); a rule that made no task
# SCHED_RR is said after the run, with why.
. tests/lib/lib.sh
H=tests/replay/data/hogplayer.txt
# refused: each the same way, in every command that takes --rt (sweep
# before any job runs or any directory is made)
for bad in -1 high 5x +5 '' 0 100 050 ' 5'; do
	ere=$(printf '%s' "$bad" | sed 's/[][\.*^$+?(){}|]/\\&/g')
	for cmd in replay diff sweep; do
		rm -rf "$T/o"
		expect_status 64 "$SR" $cmd --rt "mpv:$bad" "$H" -o "$T/o" -q
		expect_err "^schedreplay: --rt 'mpv:$ere': expected a SCHED_RR priority from 1 to 99 after the last ':', got '$ere' \\(a ':' the name holds is written '\\\\:' in the regex\\)\$"
		nchecks=$((nchecks + 1))
		[ ! -e "$T/o" ] || fail "$cmd --rt 'mpv:$bad': output made"
	done
done
# taken: a priority, a colon inside a group or class, an escaped colon.
# The timeline's prio is the kernel's for SCHED_RR: MAX_RT_PRIO - 1 -
# rt_priority = 99 - P (player at 70: 29; the default 50: 49).
prio_of() { # TASK: its prio on its first timeline row
	awk -F'\t' -v t="$1" '$3 == t { print $5; exit }' "$T/o/stock/timeline.tsv"
}
run() { # expect the replay under stock with these --rt rules
	rm -rf "$T/o"
	expect_status 0 "$SR" replay --policy stock "$@" "$H" -o "$T/o" -q
}
run --rt 'player:70' --rt '(?:hog|x)'
nchecks=$((nchecks + 2))
[ "$(prio_of player)" = 29 ] || fail "player:70: prio $(prio_of player), want 29"
[ "$(prio_of hog)" = 49 ] || fail "(?:hog|x): prio $(prio_of hog), want 49"
expect_status 1 grep -q . "$T/err"   # no warning: both rules took a task
run --rt '[[:alpha:]]lay:1' --rt 'h\:og'
nchecks=$((nchecks + 2))
[ "$(prio_of player)" = 98 ] || fail "[[:alpha:]]lay:1: prio $(prio_of player), want 98"
[ "$(prio_of hog)" -ge 100 ] || fail "h\\:og matched hog: prio $(prio_of hog), want a normal task's (100 or more)"
# ... and said: 'h\:og' matches no name of the trace
expect_status 0 "$SR" replay --policy stock --rt '[[:alpha:]]lay:1' --rt 'h\:og' "$H" -o "$T/o2" -q
expect_err "^schedreplay: warning: --rt 'h\\\\:og': no task of $H has a name it matches: it made no task SCHED_RR\$"
# a rule every task of which an earlier rule took
expect_status 0 "$SR" diff --rt 'o' --rt 'hog:90' "$H" -q
expect_err "^schedreplay: warning: --rt 'hog:90': every task of $H it matches is taken by an earlier --rt \\(the first rule that matches a name wins\\): it made no task SCHED_RR\$"
nchecks=$((nchecks + 1))
[ "$(grep -c warning "$T/err")" -eq 1 ] || fail "the rule that took tasks was warned about"
# observed alone simulates nothing: no rule applies, nothing to say
expect_status 0 "$SR" replay --policy observed --rt nomatch "$H" -o "$T/o3" -q
expect_status 1 grep -q . "$T/err"
done_ok
