#!/bin/sh
# Round 3's classes, in what gnuplot runs (docs/robustness.md, "Round 3"):
# - quoting for a language with its own rules (R7's class): gnuplot runs
#   `...` as a shell command anywhere on a line, inside "..." too (R7's
#   own fix had moved every string into "..."): a task named `touch PWN`
#   ran it, as the user (root) drawing the plot; a ` is now written \140,
#   which gnuplot reads as the character without running anything;
# - a path resolved against the wrong directory (R8's class): gnuplot is
#   started in the output directory, so a relative --gnuplot, or a
#   relative PATH entry ("" or "."), named a program there: a gnuplot
#   planted in the output directory ran.  The program is now resolved to
#   an absolute path where the command was started, then run.
. tests/lib/lib.sh
need gnuplot gnuplot-nox
H=$(pwd)/tests/replay/data/hogplayer.txt
mkdir -p "$T/w" "$T/o"

# a task named `touch PWN` (the native format quotes a name with blanks)
sed 's/comm=hog$/comm="`touch PWN`"/' "$H" > "$T/q.native"
expect_status 0 grep -c 'comm="`touch PWN`"' "$T/q.native"
expect_out '^1$'
(cd "$T/w" && "$SR" plot "$T/q.native" --task . -o "$T/o" -q) \
	>"$T/out" 2>"$T/err"
rc=$?
nchecks=$((nchecks + 2))
[ ! -e "$T/o/PWN" ] && [ ! -e "$T/w/PWN" ] ||
	fail "a task's name ran as a command in gnuplot"
[ $rc -eq 0 ] || fail "plot: exit $rc: $(cat "$T/err")"
# gnuplot reads the panel's title back as the name
sed -n 's/^set title \(.*(100): delays, CDF"\)$/print \1/p' \
	"$T/o/delay-cdf.gp" > "$T/print.gp"
expect_status 0 gnuplot "$T/print.gp"
nchecks=$((nchecks + 1))
[ "$(cat "$T/err")" = '`touch PWN` (100): delays, CDF' ] ||
	fail "the name read back by gnuplot as '$(cat "$T/err")'"
nchecks=$((nchecks + 1))
[ ! -e "$T/o/PWN" ] || fail "reading the title back ran it"
# the report draws the same panels, and a sweep's heat map names its trace
(cd "$T/w" && "$SR" report "$T/q.native" --task . -o "$T/rep" -q) >/dev/null ||
	fail "report: exit $?"
cp "$H" "$T/w/\`touch PWN3\`.txt"
(cd "$T/w" && "$SR" sweep "\`touch PWN3\`.txt" --policy o11int \
	--set MAX_SLEEP_AVG=500,1020 --set TIMESLICE_GRANULARITY=10,25 \
	-o "$T/m" -q --sequential \
	--heatmap MAX_SLEEP_AVG,TIMESLICE_GRANULARITY,deadlines_met_pct) ||
	fail "sweep --heatmap: exit $?"
nchecks=$((nchecks + 1))
[ -z "$(find "$T" -name 'PWN*')" ] ||
	fail "a name ran as a command: $(find "$T" -name 'PWN*')"

# a gnuplot planted in the output directory, found by a relative name
cat > "$T/o/gnuplot" <<EOF2
#!/bin/sh
touch "$T/PLANTED"
exit 1
EOF2
chmod +x "$T/o/gnuplot"
cp "$T/o/gnuplot" "$T/w/gp"
sed -i "s|PLANTED|PLANTED-gp|" "$T/w/gp"
# --gnuplot gnuplot-by-a-relative-path: the one beside the user, not the
# output directory's (which does not hold one: gp fails, so exit 69)
(cd "$T/w" && "$SR" plot "$H" --gnuplot ./gp -o "$T/o" -q) >/dev/null 2>&1
rc=$?
nchecks=$((nchecks + 2))
[ -e "$T/PLANTED-gp" ] || fail "--gnuplot ./gp did not run ./gp of the working directory"
[ $rc -eq 69 ] || fail "--gnuplot ./gp failing: exit $rc, want 69"
# an empty PATH entry (the working directory, which holds no gnuplot):
# the search goes on to the real one, never the output directory's
(cd "$T/w" && PATH=":$PATH" "$SR" plot "$H" -o "$T/o" -q) >"$T/out" 2>"$T/err"
rc=$?
nchecks=$((nchecks + 2))
[ ! -e "$T/PLANTED" ] || fail "the gnuplot planted in the output directory ran"
[ $rc -eq 0 ] || fail "PATH=:...: exit $rc: $(cat "$T/err")"
done_ok
