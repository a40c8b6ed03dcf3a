#!/bin/sh
# The verdict per group (issue 12): on one CPU, perf-exec (the recorded
# command) starts an audio thread (mpv/ao: 1 ms every 10 ms) and make,
# which runs two compilers (cc1, CPU-bound) and wakes every 20 ms while
# they run; outside the command, a shell (bash: 0.3 ms every 50 ms) and a
# CPU hog (python3).
#  - diff prints the verdict first: a line per group, decided by the
#    group's kind (deadlines met for the periodic audio thread and shell,
#    the completion time for the build), the word agreeing with its
#    figures; the CPU outside the recorded command;
#  - make, asleep while its compilers run, is batch, not interactive;
#  - --group NAME=REGEX adds or replaces a group; its errors;
#  - --only-tree replays only the command's tree and the verdict says what
#    was left out; replay --only and --tree replay only those tasks and
#    say how many were left out;
#  - JSON, N policies, the report page.
. tests/lib/lib.sh

awk 'BEGIN {
	print "#schedreplay-native 1"
	print "0s 0 task pid=10 comm=perf-exec running"
	print "0s 4 task pid=30 comm=bash"
	print "0s 5 task pid=50 comm=python3"
	print "0s 5 switch prev=0 state=R next=50"
	print "100us 0 fork pid=10 child=20 comm=perf-exec"
	print "100us 0 wake_new pid=20 by=10"
	print "200us 3 switch prev=0 state=R next=20"
	print "300us 3 exec pid=20 comm=mpv/ao"
	print "400us 3 switch prev=20 state=S next=0"
	print "1ms 0 fork pid=10 child=11 comm=perf-exec"
	print "1ms 0 wake_new pid=11 by=10"
	print "1100us 0 switch prev=10 state=S next=11"
	print "2ms 0 exec pid=11 comm=make"
	print "3ms 0 fork pid=11 child=12 comm=make"
	print "3ms 0 wake_new pid=12 by=11"
	print "3100us 1 switch prev=0 state=R next=12"
	print "3200us 1 exec pid=12 comm=cc1"
	print "4ms 0 fork pid=11 child=13 comm=make"
	print "4ms 0 wake_new pid=13 by=11"
	print "4100us 2 switch prev=0 state=R next=13"
	print "4200us 2 exec pid=13 comm=cc1"
	print "5ms 0 switch prev=11 state=S next=0"
	print "6ms 1 switch prev=12 state=R+ next=0"
	print "6ms 1 switch prev=0 state=R next=12"
	print "6ms 2 switch prev=13 state=R+ next=0"
	print "6ms 2 switch prev=0 state=R next=13"
	for (k = 1; k < 100; k++) {
		t = k * 20000000
		printf "%dns 1 wake pid=11 by=12\n", t
		printf "%dns 0 switch prev=0 state=R next=11\n", t
		printf "%dns 0 switch prev=11 state=S next=0\n", t + 100000
	}
	for (k = 1; k < 200; k++) {
		t = k * 10000000 + 500000
		printf "%dns 3 wake pid=20 by=irq\n", t
		printf "%dns 3 switch prev=0 state=R next=20\n", t
		printf "%dns 3 switch prev=20 state=S next=0\n", t + 1000000
	}
	for (k = 1; k < 40; k++) {
		t = k * 50000000 + 700000
		printf "%dns 4 wake pid=30 by=irq\n", t
		printf "%dns 4 switch prev=0 state=R next=30\n", t
		printf "%dns 4 switch prev=30 state=S next=0\n", t + 300000
	}
	print "2000ms 1 exit pid=12"
	print "2000ms 1 wake pid=11 by=12"
	print "2000ms 1 switch prev=12 state=X next=0"
	print "2000ms 2 exit pid=13"
	print "2000ms 2 switch prev=13 state=X next=0"
	print "2001ms 0 switch prev=0 state=R next=11"
	print "2002ms 0 exit pid=11"
	print "2002ms 0 wake pid=10 by=11"
	print "2002ms 0 switch prev=11 state=X next=10"
	print "2003ms 0 switch prev=10 state=S next=0"
	print "2100ms 5 switch prev=50 state=S next=0"
}' >"$T/v.txt"

# line N of stdout
line() { sed -n "${1}p" "$T/out"; }
# agree LINE: the verdict word of a group line agrees with its deciding
# figure (deadlines missed: 0.5 point and 25 %; done: 1 % and 10 ms; p99:
# 10 % and 0.1 ms, 20 waits or more under each, as docs/why.md says)
agree() {
	nchecks=$((nchecks + 1))
	echo "$1" | awk '
	{
		w = $0; sub(/ under .*/, "", w); sub(/.*: /, "", w)
		if (match($0, /deadlines met [0-9.]+% -> [0-9.]+%/)) {
			split(substr($0, RSTART + 14, RLENGTH - 14), f, /% -> /)
			a = 100 - f[1]; b = 100 - f[2] + 0; d = b - a
			big = a > b ? a : b; ad = d < 0 ? -d : d
			want = ad < 0.5 || ad * 100 < big * 25 ? "unchanged" : d < 0 ? "better" : "worse"
		} else if (match($0, /done [0-9.]+ -> [0-9.]+ s/)) {
			split(substr($0, RSTART + 5, RLENGTH - 7), f, / -> /)
			d = (f[2] - f[1]) * 1000; ad = d < 0 ? -d : d
			want = ad < 10 || ad * 100 < f[1] * 1000 ? "unchanged" : d < 0 ? "better" : "worse"
		} else if (/waits: too few to judge/) {
			want = "unchanged"
		} else if (match($0, /p99 [0-9.]+ -> [0-9.]+ ms/)) {
			split(substr($0, RSTART + 4, RLENGTH - 7), f, / -> /)
			d = f[2] - f[1]; ad = d < 0 ? -d : d; big = f[1] > f[2] ? f[1] : f[2]
			want = ad < 0.1 || ad * 100 < big * 10 ? "unchanged" : d < 0 ? "better" : "worse"
		} else
			want = "?"
		if (w != want) { print "said " w ", the figures say " want; exit 1 }
	}' >&2 || fail "verdict against its figure: $1"
}

# expect_groups FROM TO "NAMES " WHAT: lines FROM..TO of stdout name these
# groups, in this order
expect_groups() {
	nchecks=$((nchecks + 1))
	[ "$(sed -n "$1,$2s/^  \\([a-z]*\\) .*/\\1/p" "$T/out" | tr '\n' ' ')" = "$3" ] ||
		fail "$4: $(sed -n "$1,$2p" "$T/out")"
}

expect_status 0 "$SR" diff "$T/v.txt" --cpus 1
line 4 >"$T/l"
nchecks=$((nchecks + 1))
grep -q '^verdict: o11int against stock, by what the tasks are for a person$' "$T/l" ||
	fail "line 4 is not the verdict: $(cat "$T/l")"
cp "$T/out" "$T/text"
# one line per group, in the table's order; the kind decides the figure
expect_out '^  audio \(mpv/ao\): (better|worse|unchanged) under o11int, deadlines met [0-9.]+% -> [0-9.]+% \(the replay.s own clock\); p99 '
expect_out '^  terminal \(bash\): (better|worse|unchanged) under o11int, deadlines met '
expect_out '^  build \(cc1 x2, make\): (better|worse|unchanged) under o11int, done [0-9.]+ -> [0-9.]+ s after the start'
expect_out '^  other \(python3, perf-exec\): '
expect_groups 5 8 "audio terminal build other " "groups out of order"
for n in 5 6 7 8; do agree "$(line $n)"; done
# the audio thread's added wait is named, behind tasks outside the command
expect_out '^  audio .* behind python3 \(50, outside the recorded command\) \+[0-9.]+ ms'
expect_out '; mostly [a-z-]+ (up|down) \('
expect_out '^  outside the recorded command \(the tree of perf-exec\): 2 tasks, 2\.[0-9]+ s of CPU \([0-9.]+% of the recording.s\), replayed with it'
# make sleeps while its compilers run: batch, not interactive (it wakes
# 50 times a second and sleeps 99 % of its life); so is perf-exec
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --tsv
nchecks=$((nchecks + 1))
[ "$(awk -F'\t' '$3 == 11 || $3 == 10 || $3 == 20 { print $3 ":" $6 }' "$T/out" | sort | tr '\n' ' ')" = "10:batch 11:batch 20:interactive " ] ||
	fail "classes: $(awk -F'\t' '{ print $3 ":" $4 ":" $6 }' "$T/out" | tr '\n' ' ')"

# --group: a new group is tried first; a default's name replaces it
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --group 'hog=^python3$' --group 'audio=^bash$'
expect_out '^  hog \(python3\): '
expect_out '^  audio \(bash\): '
expect_out '^  display \(mpv/ao\): '
expect_out '^  other \(perf-exec\): '
expect_groups 5 9 "hog audio display build other " "--group order"
expect_status 64 "$SR" diff "$T/v.txt" --cpus 1 --group audio
expect_err "--group: expected NAME=REGEX"
expect_status 64 "$SR" diff "$T/v.txt" --cpus 1 --group 'audio=('
expect_err "^schedreplay: --group audio=\\(: expected a pcre2 regex, got an error at offset"

# --only-tree: only the command's tree is replayed; the verdict says so
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --only-tree '^perf-exec$'
expect_out '^  left out of the replay \(--only, --tree, --exclude\): 2 tasks, 2\.[0-9]+ s of CPU'
nchecks=$((nchecks + 1))
! grep -q 'python3\|bash\|outside the recorded command (the' "$T/out" ||
	fail "--only-tree: the tasks outside still there"
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --only-tree '^perf-exec$' --tsv
nchecks=$((nchecks + 1))
[ "$(cut -f3 "$T/out" | tail -n +2 | sort -n | tr '\n' ' ')" = "10 11 12 13 20 " ] ||
	fail "--only-tree pids: $(cut -f3 "$T/out" | tail -n +2 | tr '\n' ' ')"
expect_status 64 "$SR" diff "$T/v.txt" --only '('
expect_err "--only '\(': at offset"

# replay --only, --tree: only those tasks in every file, and how many
# were left out (their CPU when observed is replayed)
expect_status 0 "$SR" replay "$T/v.txt" --cpus 1 --only '^cc1$' --policy stock --policy observed -o "$T/r1"
expect_out '^left out \(--exclude, --only, --tree\): 5 tasks, 2\.[0-9]+ s of the recording.s [0-9.]+ s of CPU'
nchecks=$((nchecks + 1))
[ "$(cut -f1 "$T/r1/stock/summary.tsv" | tail -n +2 | sort -n | tr '\n' ' ')" = "12 13 " ] ||
	fail "--only: $(cut -f1,2 "$T/r1/stock/summary.tsv" | tr '\n' ' ')"
expect_status 0 "$SR" replay "$T/v.txt" --cpus 1 --tree '^make$' --policy o11int -o "$T/r2"
expect_out '^left out \(--exclude, --only, --tree\): 4 tasks \(their CPU: replay observed too\)'
nchecks=$((nchecks + 1))
[ "$(cut -f1 "$T/r2/o11int/summary.tsv" | tail -n +2 | sort -n | tr '\n' ' ')" = "11 12 13 " ] ||
	fail "--tree: $(cut -f1,2 "$T/r2/o11int/summary.tsv" | tr '\n' ' ')"
expect_status 64 "$SR" replay "$T/v.txt" --tree '(' -o "$T/r3"
expect_err "--tree '\(': at offset"
# on a replay directory: replayed already
expect_status 64 "$SR" diff "$T/r1" --only x
expect_err 'needs the trace file'

# the same words in JSON; with three policies, a verdict each
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --json
expect_out '"verdict_text": \['
expect_out '"verdict: o11int against stock, by what the tasks are for a person"'
expect_out '"audio \(mpv/ao\): '
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --policy stock --policy o11int --policy cfs
nchecks=$((nchecks + 1))
[ "$(grep -c '^verdict: ' "$T/out")" = 2 ] || fail "three policies: not two verdicts"
expect_out '^verdict: cfs against stock'
nchecks=$((nchecks + 1))
[ "$(grep -c '^  outside the recorded command' "$T/out")" = 1 ] ||
	fail "three policies: the scope not once"

# the wait by reason: why-bars.dat, a row per task drawn and policy, whose
# sums by reason end at the task's total wait (the reasons tile it) and
# whose total is the latency rows' (explain's); none without attribution
expect_status 69 "$SR" plot "$T/v.txt" --cpus 1 -o "$T/pl" --gnuplot /nonexistent/gnuplot
nchecks=$((nchecks + 1))
awk -F'\t' '!/^#/ { n++; if ($5 != $NF) bad = bad " " $1 } END { exit !(n == 14 && bad == "") }' "$T/pl/why-bars.dat" ||
	fail "why-bars.dat: the sums do not end at the total (rows$(awk -F'\t' '!/^#/ && $5 != $NF { printf " %s", $1 }' "$T/pl/why-bars.dat")), or not 14 rows"
expect_status 0 "$SR" explain "$T/v.txt" --cpus 1 --task "^mpv/ao$" --tsv
nchecks=$((nchecks + 1))
[ "$(awk -F'\t' '$1 == "total" { printf "%.1f %.1f", $5 / 1e6, $6 / 1e6 }' "$T/out")" = \
  "$(awk -F'\t' '$4 == "\"stock\"" && $2 == 0 { a = $5 } $4 == "\"o11int\"" && $2 == 0 { b = $5 } END { printf "%.1f %.1f", a, b }' "$T/pl/why-bars.dat")" ] ||
	fail "mpv/ao's wait: explain and why-bars.dat differ"
expect_status 0 "$SR" replay "$T/v.txt" --cpus 1 --policy stock --policy o11int --policy observed --no-why -o "$T/nw" -q
expect_status 69 "$SR" plot "$T/nw" -o "$T/pl2" --gnuplot /nonexistent/gnuplot
nchecks=$((nchecks + 1))
[ -f "$T/pl2/why-bars.dat" ] && [ ! -f "$T/pl2/why-bars.gp" ] || fail "--no-why: a why-bars plot"

# the report page: the verdict first in its Verdict section; a panel of
# the wait by reason for each task drawn, and its worst waits in words
if command -v gnuplot >/dev/null 2>&1; then
	expect_status 0 "$SR" report "$T/v.txt" --cpus 1 -o "$T/rep" -q
	nchecks=$((nchecks + 1))
	grep -q '<ul class="head" id="groups">' "$T/rep/index.html" ||
		fail "report: no verdict list"
	nchecks=$((nchecks + 1))
	sed -n '/id="groups"/,/<\/ul>/p' "$T/rep/index.html" | grep -q '<li>audio (mpv/ao): ' ||
		fail "report: no audio line"
	nchecks=$((nchecks + 1))
	[ "$(grep -c '<figure id="plot-why-[0-9]*">' "$T/rep/index.html")" -eq 7 ] ||
		fail "report: not a wait-by-reason panel per task"
	nchecks=$((nchecks + 1))
	grep -q '<li>waited [0-9.]* ms from [0-9.]* s:<ul>' "$T/rep/index.html" ||
		fail "report: no worst waits in words"
fi
done_ok
