#!/bin/sh
# plot and report on the command line: without a working gnuplot the
# scripts and data are still written, no image is, the message says how to
# install gnuplot, and the status is 69; options are checked.  (Rendering
# with the real gnuplot is tests/plots/test-plot.c; the page in Chromium
# is tests/plots/test-report.c.)
. tests/lib/lib.sh
D=tests/compare/data/hogplayer

expect_status 69 "$SR" plot "$D" -o "$T/p" --gnuplot /nonexistent/gnuplot
expect_err 'cannot run /nonexistent/gnuplot: No such file or directory; install it \(apt-get install gnuplot-nox, as root\)'
expect_err "cd $T/p && gnuplot priority.gp"
for n in priority delay-time delay-cdf diff-bars; do
	nchecks=$((nchecks + 1))
	[ -s "$T/p/$n.gp" ] && [ -s "$T/p/$n.dat" ] || fail "$n.gp/.dat not written"
	nchecks=$((nchecks + 1))
	[ ! -e "$T/p/$n.png" ] || fail "$n.png written without gnuplot"
	expect_out "^$T/p/$n.gp  $T/p/$n.dat\$"
done

# gnuplot not on PATH at all
expect_status 69 env PATH=/nonexistent "$SR" plot "$D" -o "$T/q"
expect_err 'cannot run gnuplot: not found on PATH; install it \(apt-get install gnuplot-nox'

# the report still writes its page, with the tables and a note
expect_status 69 "$SR" report "$D" -o "$T/r" --gnuplot /nonexistent/gnuplot
expect_err 'index.html has the tables only'
nchecks=$((nchecks + 1))
grep -q '<table id="tasks">' "$T/r/index.html" || fail "report without gnuplot: no table"
nchecks=$((nchecks + 1))
grep -q 'id="plots-note"' "$T/r/index.html" || fail "report without gnuplot: no note"

# one policy: no bar chart (it compares policies), the rest drawn
expect_status 69 "$SR" plot "$D" -o "$T/one" --policy o11int --gnuplot /nonexistent/gnuplot
nchecks=$((nchecks + 1))
[ -s "$T/one/priority.gp" ] && [ ! -e "$T/one/diff-bars.gp" ] || fail "one policy: wrong files"

# --task selects by comm; a regex matching nothing is an error
expect_status 69 "$SR" plot "$D" -o "$T/t" --task '^hog$' --gnuplot /nonexistent/gnuplot
nchecks=$((nchecks + 1))
grep -q 'player (200)' "$T/t/priority.gp" && fail "--task '^hog\$' drew the player"
expect_status 64 "$SR" plot "$D" -o "$T/t2" --task '^nosuch$'
expect_err '--task matches no task'

# options
expect_status 64 "$SR" plot "$D" -o "$T/x" --format gif
expect_err "--format: expected png, svg or pdf, got 'gif'"
expect_status 64 "$SR" report "$D"
expect_err 'report: expected -o DIR'
expect_status 64 "$SR" plot "$D" --max-tasks 0
expect_status 0 "$SR" plot --help
expect_out '^usage: schedreplay plot \[OPTIONS\] TRACE$'

# on two CPUs, the priority panel marks each selected task's migrations
# (open circles; their data after the priority blocks)
P=tests/replay/data/perf-mix.perf.txt.gz
"$SR" replay "$P" -o "$T/r2" --policy stock --policy observed -q ||
	fail "replay of $P"
task=$(awk -F '\t' '$4 == "migrate" { print $3; exit }' "$T/r2/stock/timeline.tsv")
nchecks=$((nchecks + 1))
[ -n "$task" ] || fail "no migration on 2 CPUs"
expect_status 69 "$SR" plot "$T/r2" -o "$T/m" --policy stock --gnuplot /nonexistent/gnuplot \
	--task "^$(printf '%s' "$task" | sed 's/[][\.*^$()+?{}|/]/\\&/g')\$"
nchecks=$((nchecks + 1))
grep -q "time_s prio (migrations)" "$T/m/priority.dat" || fail "no migration blocks"
expect_status 0 grep -Eq "with points pt 6 .* title \"stock: [0-9]+ migrations?\"" "$T/m/priority.gp"
done_ok
