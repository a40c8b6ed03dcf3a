#!/bin/sh
# diff, plot and report straight from a trace: the hand-written native trace
# tests/compare/data/hogplayer.native (a CPU hog and a player woken by a
# timer every 10 ms to run 1 ms, for 2 s) replayed here under stock and
# o11int.  What follows from the trace alone is checked exactly (CPU times,
# classes, the period, the recorded schedule's perfect deadlines); what
# follows from the models, in the direction their rules give
# (docs/models.md): stock's player
# starts at the hog's prio (sleep_avg 0: bonus -5, prio 125), cannot preempt
# it and misses most deadlines; o11int's player climbs above the hog within
# a second and meets most of them.
. tests/lib/lib.sh
need python3 python3
need gnuplot gnuplot-nox
N=tests/compare/data/hogplayer.native

expect_status 0 "$SR" diff "$N" --tsv
cp "$T/out" "$T/tsv1"
col() { # col NAME COMM
	awk -F '\t' -v name="$1" -v comm="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
		NR > 1 && $4 == comm { print $c }' "$T/tsv1"
}
for spec in "class player interactive" "class hog batch" "period_ms player 10.000000" \
	    "a_runtime_ms player 200.000000" "b_runtime_ms player 200.000000" \
	    "a_runtime_ms hog 1791.000000" "b_runtime_ms hog 1791.000000" \
	    "p99_verdict player better"; do
	set -- $spec
	nchecks=$((nchecks + 1))
	got=$(col "$1" "$2")
	[ "$got" = "$3" ] || fail "diff $N: $1 of $2 is '$got', want '$3'"
done
a=$(col a_deadlines_met_pct player)
b=$(col b_deadlines_met_pct player)
nchecks=$((nchecks + 1))
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a < 50 && b > 80) }' ||
	fail "deadlines met: stock $a%, o11int $b%: want stock < 50, o11int > 80"

# the recorded schedule: the player always ran at once
expect_status 0 "$SR" diff "$N" --policy observed --policy o11int --tsv
nchecks=$((nchecks + 1))
awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "a_deadlines_met_pct") c = i; if ($i == "a_p99_delay_ms") p = i } }
	NR > 1 && $4 == "player" { ok = ($c == "100.000" && $p == "0.000000") } END { exit !ok }' "$T/out" ||
	fail "observed: the player should meet every deadline with no delay"

# the same trace, the same bytes
expect_status 0 "$SR" diff "$N" --tsv
expect_same "$T/out" "$T/tsv1"
expect_status 0 "$SR" diff "$N" --json
cp "$T/out" "$T/json"
expect_status 0 python3 -m json.tool "$T/json"
expect_status 0 "$SR" diff "$N"
expect_out '^schedreplay diff: hogplayer\.native, stock \(A\) against o11int \(B\)$'
expect_out 'better under o11int: player \(200\)'

# --exclude leaves a task out of the replay: alone, the player never waits
expect_status 0 "$SR" diff "$N" --exclude '^hog$' --tsv
nchecks=$((nchecks + 1))
[ "$(wc -l < "$T/out")" -eq 2 ] && grep -q '	player	1	interactive	' "$T/out" ||
	fail "--exclude '^hog\$': expected only the player"
expect_out '	100\.000	100\.000	100\.000	100\.000	'
expect_status 64 "$SR" diff "$N" --exclude '('

# plots and report from the trace; scripts and data are reproducible
mkdir "$T/tmp"
expect_status 69 env TMPDIR="$T/tmp" "$SR" plot "$N" -o "$T/p1" --gnuplot /nonexistent/gnuplot
expect_status 69 env TMPDIR="$T/tmp" "$SR" plot "$N" -o "$T/p2" --gnuplot /nonexistent/gnuplot
for f in priority.gp priority.dat delay-time.dat delay-cdf.dat diff-bars.dat; do
	expect_same "$T/p1/$f" "$T/p2/$f"
done
# the replay stays in memory: nothing in the temporary directory
nchecks=$((nchecks + 1))
[ -z "$(ls "$T/tmp")" ] || fail "plot wrote into TMPDIR: $(ls "$T/tmp")"
expect_status 0 env TMPDIR="$T/tmp" "$SR" report "$N" -o "$T/r"
nchecks=$((nchecks + 1))
# the two bar charts and four panels for each of the two tasks drawn
# (priority, delay, CDF, wait by reason)
[ "$(grep -c '<figure id="plot-' "$T/r/index.html")" -eq 10 ] || fail "report: expected 10 inline plots"
nchecks=$((nchecks + 1))
[ -z "$(ls "$T/tmp")" ] || fail "report wrote into TMPDIR: $(ls "$T/tmp")"

# a saved replay gives diff, plot and report what the trace gives
expect_status 0 "$SR" replay "$N" -o "$T/rep"
for args in "--tsv" "--json" "" "--all --period player=25" \
	    "--policy observed --policy o11int --tsv"; do
	expect_status 0 "$SR" diff "$N" $args
	cp "$T/out" "$T/fromtrace"
	expect_status 0 "$SR" diff "$T/rep" $args --title hogplayer.native
	expect_same "$T/out" "$T/fromtrace"
done
expect_status 69 "$SR" plot "$T/rep" --title hogplayer.native -o "$T/p3" --gnuplot /nonexistent/gnuplot
for f in priority.gp priority.dat delay-time.gp delay-time.dat delay-cdf.gp \
	 delay-cdf.dat diff-bars.gp diff-bars.dat; do
	expect_same "$T/p1/$f" "$T/p3/$f"
done
expect_status 0 "$SR" report "$T/rep" --title hogplayer.native -o "$T/r2"
expect_same "$T/r/index.html" "$T/r2/index.html"

# the recorded schedule drawn first: its rows carry no static prio, and
# the next policy's gives the interactive threshold line
expect_status 69 "$SR" plot "$N" --policy observed --policy stock -o "$T/p4" --gnuplot /nonexistent/gnuplot
nchecks=$((nchecks + 1))
grep -q 'title "interactive: prio <=' "$T/p4/priority.gp" ||
	fail "plot --policy observed --policy stock: no interactive threshold"
done_ok
