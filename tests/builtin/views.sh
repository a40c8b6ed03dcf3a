#!/bin/sh
# timehist and map, perf sched's two views, against perf's own output of
# the same perf.data (tests/builtin/data/views, data/lost: perf 6.1's
# `perf sched timehist` and `perf sched map`): the same header, the same
# switches, the same figures, line for line.  What may differ is written
# out below: the task names perf takes from its side-band records (the
# kernel's /proc comm when recording began, "kworker/0:2-eve", or ":TID"
# for a thread whose COMM record was lost) where we print the scheduler
# events' own (prev_comm: "kworker/0:2"; in the recording that lost
# events, perf's comm of a renamed task can lag the kernel's: names are
# compared on the other recording only), and perf naming a task again at
# a COMM record that kept its name.  Then the views of a replay, checked
# against the replay's own timeline.
. tests/lib/lib.sh
V=tests/builtin/data/views
L=tests/builtin/data/lost
gzip -dc "$V/pipe.perf.data.gz" >"$T/pipe.perf.data" || fail gunzip
gzip -dc "$L/lost.perf.data.gz" >"$T/lost.perf.data" || fail gunzip

# timehist: name[tid/pid] -> [tid/pid] and blanks squeezed, for comparing
# the rest; the names compared apart (perf's is ours, or ours and "-...",
# or ":TID")
th_norm() {
	sed -E 's/^( *[0-9.]+ \[[0-9]+\]  ).*(\[[0-9/]+\]) +([0-9.]+ +[0-9.]+ +[0-9.]+ )$/\1\2 \3/; s/  +/ /g' "$1"
}
th_names() {
	sed -nE 's/^ *[0-9.]+ \[[0-9]+\]  (.*)\[([0-9]+)(\/[0-9]+)?\] +[0-9.]+ +[0-9.]+ +[0-9.]+ $/\1 \2/p' "$1"
}
timehist_vs_perf() { # PERF_OUTPUT OURS
	head -n 3 "$1" >"$T/h1"
	head -n 3 "$2" >"$T/h2"
	expect_same "$T/h1" "$T/h2"
	nchecks=$((nchecks + 1))
	[ "$(wc -l <"$1")" -eq "$(wc -l <"$2")" ] ||
		fail "timehist: $(wc -l <"$2") lines, perf $(wc -l <"$1")"
	th_norm "$1" >"$T/pn"
	th_norm "$2" >"$T/on"
	nchecks=$((nchecks + 1))
	cmp -s "$T/pn" "$T/on" || { diff "$T/pn" "$T/on" | head -n 8 >&2
		fail "timehist: switches or figures differ from perf's"; }
	[ "${3:-}" = names ] || return 0
	th_names "$1" >"$T/pnames"
	th_names "$2" >"$T/onames"
	nchecks=$((nchecks + 1))
	paste -d '|' "$T/pnames" "$T/onames" | awk -F '|' '
		{ split($1, p, " "); split($2, o, " ") }
		$1 == $2 { same++; next }
		{ pn = substr($1, 1, length($1) - length(p[length(p)]) - 1)
		  on = substr($2, 1, length($2) - length(o[length(o)]) - 1) }
		pn == ":" p[length(p)] || index(pn, on "-") == 1 { other++; next }
		{ print "name: perf " $1 ", ours " $2; bad++ }
		END { printf "%d names the same, %d perf'"'"'s own\n", same, other
		      exit bad > 0 }' >"$T/names" ||
		{ cat "$T/names" >&2; fail "timehist: a task name differs from perf's"; }
}

# map: "=> comm:tid" -> "=> :tid"; where perf names a task again with the
# name it last gave it (a COMM record that kept the name) we may not
map_vs_perf() { # PERF_OUTPUT OURS [renames]
	# renames: a task named again on one side only (a rename the other
	# did not see: perf's COMM record lost, or the kernel's comm
	# changing without one), at most 4
	nchecks=$((nchecks + 1))
	[ "$(wc -l <"$1")" -eq "$(wc -l <"$2")" ] ||
		fail "map: $(wc -l <"$2") lines, perf $(wc -l <"$1")"
	nchecks=$((nchecks + 1))
	paste -d '|' "$1" "$2" | awk -F '|' -v loose="${3:-}" '
		function key(s) { sub(/ => .*:/, " => :", s); return s }
		function strip(s) { sub(/secs .*/, "secs ", s); return s }
		/^  INFO: / { next }
		$1 == $2 { same++; if (match($1, / [A-Z0-9.]+ => .*$/)) last[substr($1, RSTART + 1, 2)] = substr($1, RSTART); next }
		key($1) == key($2) { renamed++; next }
		match($1, / [A-Z0-9.]+ => .*$/) && strip($1) == $2 &&
		    last[substr($1, RSTART + 1, 2)] == substr($1, RSTART) { again++; next }
		loose && strip($1) == strip($2) && ++moved <= 4 { next }
		{ print "perf: " $1; print "ours: " $2; bad++ }
		END { printf "%d same, %d named otherwise, %d named again by perf, %d renames\n", same, renamed, again, moved
		      exit bad > 0 }' >"$T/mapcmp" ||
		{ head -n 8 "$T/mapcmp" >&2; fail "map: a line differs from perf's"; }
}

# a recording of perf bench sched pipe and a 10 ms sleeper
gzip -dc "$V/pipe.timehist.txt.gz" >"$T/p.th"
gzip -dc "$V/pipe.map.txt.gz" >"$T/p.map"
expect_status 0 "$SR" timehist "$T/pipe.perf.data"
cp "$T/out" "$T/o.th"
timehist_vs_perf "$T/p.th" "$T/o.th" names
expect_status 0 "$SR" map "$T/pipe.perf.data"
cp "$T/out" "$T/o.map"
map_vs_perf "$T/p.map" "$T/o.map"
# most lines are byte for byte perf's: all but the renamed kworkers
nchecks=$((nchecks + 1))
differ=$(diff "$T/p.th" "$T/o.th" | grep -c '^<')
[ "$differ" -le 20 ] || fail "timehist: $differ lines not byte-identical to perf's"

# the recording that lost events: perf's "lost N events on cpu C" lines
# in their places; map ends with the loss, as perf's does
gzip -dc "$L/perf-sched-timehist.txt.gz" >"$T/lp.th"
gzip -dc "$L/perf-sched-map.txt.gz" >"$T/lp.map"
expect_status 0 "$SR" timehist "$T/lost.perf.data"
cp "$T/out" "$T/lo.th"
timehist_vs_perf "$T/lp.th" "$T/lo.th"
nchecks=$((nchecks + 1))
[ "$(grep -c ' lost [0-9]* events on cpu [01]$' "$T/lo.th")" -eq 36 ] ||
	fail "timehist: expected the 36 lost-events lines"
expect_status 0 "$SR" map "$T/lost.perf.data"
cp "$T/out" "$T/lo.map"
map_vs_perf "$T/lp.map" "$T/lo.map" renames
expect_out '^  INFO: the recording lost 1093 events \(11.6 % of 9395\) in 36 chunks: cpu 0 417, cpu 1 676$'

# -o FILE: the view there, the loss said on stdout
expect_status 0 "$SR" timehist -o "$T/f.th" "$T/lost.perf.data"
expect_same "$T/f.th" "$T/lo.th"
expect_out '^the recording lost 1093 events'

# A replay's views: every switch the map shows at (time, cpu, task) is a
# "run" row of the replay's timeline.tsv at that time, on that cpu, of
# that task, and the other way round; timehist has a line at each of
# those switches (and one where a cpu went idle)
expect_status 0 "$SR" replay -q -o "$T/r" --policy stock "$T/pipe.perf.data"
awk -F '\t' 'NR > 1 && $4 == "run" { printf "%d.%06d %s %s\n", $1 / 1e9, $1 % 1e9 / 1e3, $11, $2 }' \
	"$T/r/stock/timeline.tsv" | sort >"$T/runs"
expect_status 0 "$SR" map --policy stock "$T/pipe.perf.data"
cp "$T/out" "$T/mapout"
awk '/ secs / { line = $0; sub(/^  /, "", line)
	  p = index(line, "*"); cpu = (p - 1) / 4	# a cpu: "*" or " ", "%2s "
	  sn = substr(line, p + 1, 2)
	  t = $0; sub(/ secs.*/, "", t); sub(/.* /, "", t)
	  if (match($0, /=> .*:[0-9]+$/)) { s = substr($0, RSTART); sub(/.*:/, "", s); tid[sn] = s }
	  if (sn != ". ") printf "%s %d %s\n", t, cpu, tid[sn] }' "$T/out" | sort >"$T/mapruns"
nchecks=$((nchecks + 1))
[ -s "$T/runs" ] && cmp -s "$T/runs" "$T/mapruns" ||
	{ diff "$T/runs" "$T/mapruns" | head -n 6 >&2; fail "map --policy stock: not the replay's runs"; }
expect_status 0 "$SR" timehist --policy stock "$T/pipe.perf.data"
awk 'NR > 3 { sub(/\[/, "", $2); sub(/\]/, "", $2); printf "%s %d\n", $1, $2 }' "$T/out" | sort -u >"$T/thsw"
awk '{ print $1, $2 }' "$T/mapruns" | sort -u >"$T/mapsw"
nchecks=$((nchecks + 1))
comm -23 "$T/mapsw" "$T/thsw" | grep -q . &&
	{ comm -23 "$T/mapsw" "$T/thsw" | head -n 4 >&2; fail "timehist --policy stock: a switch of the map is missing"; }

# each switch is a line of both, in time order (a cpu going idle too:
# its map line at the time its task left)
nchecks=$((nchecks + 1))
[ "$(($(wc -l <"$T/out") - 3))" -eq "$(grep -c ' secs ' "$T/mapout")" ] ||
	fail "timehist and map --policy stock: not as many switches"
nchecks=$((nchecks + 1))
awk '{ t = $0; sub(/ secs.*/, "", t); sub(/.* /, "", t); if (t + 0 < last) exit 1; last = t + 0 }' "$T/mapout" ||
	fail "map --policy stock: lines out of time order"

# The name column is 30 wide and widens to the longest name printed, for
# the lines after: "fifteen-chars-x[1234567/1234500]" is 32 (a native
# trace: comm 15 bytes, tid 1234567 of group 1234500), and the "<idle>"
# line after it is padded to 32.  By hand: the first switch on cpu 0 has
# no tprev (all 0); the second, at 1.000005, ran 5 us.
cat >"$T/wide.native" <<'EOF'
#schedreplay-native 1
1s 0 task pid=1234567 comm=fifteen-chars-x tgid=1234500 running
1s 0 switch prev=1234567 state=S next=0
1.000005s 0 switch prev=0 state=R next=1234567
EOF
expect_status 0 "$SR" timehist "$T/wide.native"
printf '%s\n' \
	'       1.000000 [0000]  fifteen-chars-x[1234567/1234500]      0.000      0.000      0.000 ' \
	'       1.000005 [0000]  <idle>                                0.000      0.000      0.005 ' >"$T/wide.want"
tail -n 2 "$T/out" >"$T/wide.got"
expect_same "$T/wide.got" "$T/wide.want"

# options
expect_status 64 "$SR" timehist --cpus 1 "$T/pipe.perf.data"
expect_err 'give --policy'
expect_status 0 "$SR" map --help
expect_out '^usage: schedreplay map \[OPTIONS\] TRACE$'
done_ok
