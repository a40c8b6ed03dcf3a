#!/bin/sh
# R7 (round 3): a task name, --title or trace file name starting with '
# broke the whole gnuplot script (gnuplot 5.4 reads '''x' as the empty
# string, then garbage): exit 69 with a hint to install gnuplot; and
# `sweep --heatmap` with a mistake failed only after the whole sweep ran.
# Now every string goes to gnuplot as "..." with \ and " escaped, and
# --heatmap (with the gnuplot it needs) and --rt are checked before any
# job runs.
. tests/lib/lib.sh
need gnuplot gnuplot-nox
H=tests/replay/data/hogplayer.txt
# the hog renamed: a name opening with a quote and holding the other
# quote, a backslash and a # (native comm quoting: \" and \\)
sed 's/comm=hog$/comm="'"'"'q\\"b\\\\ #x"/' "$H" > "$T/q.native"
expect_status 0 grep -c "comm=\"'q\\\\\"b\\\\\\\\ #x\"" "$T/q.native"
expect_out '^1$'
for title in "'''" "it's # \\\"q\\"; do
	rm -rf "$T/p"
	expect_status 0 "$SR" plot "$T/q.native" --task . --title "$title" -o "$T/p" -q
	for f in priority delay-time delay-cdf diff-bars why-bars; do
		nchecks=$((nchecks + 1))
		[ -s "$T/p/$f.png" ] || fail "--title $title: no $f.png"
	done
	# gnuplot reads the title back as given: print it from the script
	sed -n 's/^set multiplot layout [0-9,]* title \(.*\) font .*$/print \1/p' \
		"$T/p/priority.gp" > "$T/print.gp"
	expect_status 0 gnuplot "$T/print.gp"
	nchecks=$((nchecks + 1))
	[ "$(cat "$T/err")" = "$title: priority over time, higher priority up (stock, o11int)" ] ||
		fail "--title $title read back by gnuplot as '$(cat "$T/err")'"
	# and the task's panel title: its name as the trace has it
	sed -n 's/^set title \(.*(100): delays, CDF"\)$/print \1/p' \
		"$T/p/delay-cdf.gp" > "$T/print.gp"
	expect_status 0 gnuplot "$T/print.gp"
	nchecks=$((nchecks + 1))
	[ "$(cat "$T/err")" = "'q\"b\\ #x (100): delays, CDF" ] ||
		fail "the task's name read back by gnuplot as '$(cat "$T/err")'"
done

# a heat map of a trace whose file name holds quotes and a backslash:
# its data and image names are strings of the script like any other
cp "$H" "$T/it's \"q\\.txt"
expect_status 0 "$SR" sweep "$T/it's \"q\\.txt" --policy o11int \
	--set MAX_SLEEP_AVG=500,1020 --set TIMESLICE_GRANULARITY=10,25 \
	-o "$T/m" -q --sequential --heatmap MAX_SLEEP_AVG,TIMESLICE_GRANULARITY,deadlines_met_pct
nchecks=$((nchecks + 1))
[ -s "$T/m/heatmap-t1-it's \"q\\.txt-o11int-deadlines_met_pct.png" ] || fail "no heat map"
# and the script redraws it by hand, as its comment says
rm "$T/m/heatmap-t1-it's \"q\\.txt-o11int-deadlines_met_pct.png"
(cd "$T/m" && gnuplot "heatmap-t1-it's \"q\\.txt-o11int-deadlines_met_pct.gp") ||
	fail "gnuplot refused the heat map's script"
nchecks=$((nchecks + 1))
[ -s "$T/m/heatmap-t1-it's \"q\\.txt-o11int-deadlines_met_pct.png" ] || fail "no heat map by hand"

# sweep --heatmap: a mistake is found before any job runs (nothing made)
expect_status 64 "$SR" sweep "$H" --policy o11int --set MAX_SLEEP_AVG=500,1020 \
	--set TIMESLICE_GRANULARITY=10,25 -o "$T/h1" -j 1 \
	--heatmap MAX_SLEEP_AVG,TIMESLICE_GRANULARITY,nosuch
expect_err "^schedreplay: --heatmap MAX_SLEEP_AVG,TIMESLICE_GRANULARITY,nosuch: no figure 'nosuch'"
nchecks=$((nchecks + 1))
[ ! -e "$T/h1" ] || fail "sweep ran before refusing --heatmap"
expect_status 64 "$SR" sweep "$H" --policy o11int --set MAX_SLEEP_AVG=500,1020 \
	-o "$T/h2" --sequential --heatmap MAX_SLEEP_AVG,FOO
expect_err 'expected two different knobs the sweep varies'
nchecks=$((nchecks + 1))
[ ! -e "$T/h2" ] || fail "sweep ran before refusing --heatmap"
# the gnuplot the map needs, likewise (69, before the jobs)
expect_status 69 "$SR" sweep "$H" --policy o11int --set MAX_SLEEP_AVG=500,1020 \
	--set TIMESLICE_GRANULARITY=10,25 -o "$T/h3" --sequential \
	--heatmap MAX_SLEEP_AVG,TIMESLICE_GRANULARITY --gnuplot "$T/nognuplot"
expect_err "cannot run $T/nognuplot: No such file or directory"
nchecks=$((nchecks + 1))
[ ! -e "$T/h3" ] || fail "sweep ran before finding no gnuplot"
# --rt, which every job compiles
expect_status 64 "$SR" sweep "$H" --policy stock --rt 'a(' -o "$T/h4" --sequential
expect_err "^schedreplay: --rt 'a\\(': at offset 2: missing closing parenthesis"
nchecks=$((nchecks + 1))
[ ! -e "$T/h4" ] || fail "sweep ran before refusing --rt"
done_ok
