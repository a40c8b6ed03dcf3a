#!/bin/sh
# The verdict per group (docs/why.md, "The verdict"): on one CPU, perf-exec (the recorded
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
#    was left out; replay --only and --only-tree replay only those tasks
#    and say how many were left out; --tree, which meant that in replay
#    and export, is refused there (it shows a tree elsewhere);
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
# agree LINE: the verdict word of a group line follows from the figure
# printed first beside it, by the rule of docs/why.md worked here on the
# printed numbers in their last decimal (deadlines missed = 100 - met, in
# 0.1 %: 0.5 point and 25 % of the larger; done in ms: 10 ms and 1 %; p99
# in 10 us: 0.1 ms and 10 %, 20 waits or more under each)
agree() {
	nchecks=$((nchecks + 1))
	echo "$1" | awk '
	function judge(a, b, least, pct) {
		d = b - a; ad = d < 0 ? -d : d; big = a > b ? a : b
		return ad < least || ad * 100 < big * pct ? "unchanged" : d < 0 ? "better" : "worse"
	}
	{
		w = $0; sub(/^  [a-z]+: /, "", w); sub(/ under .*/, "", w)
		f = $0; sub(/^  [a-z]+: [a-z]+ under [^:]+: /, "", f)
		if (match(f, /^([0-9.]+ ms )?deadlines met [0-9.]+% -> [0-9.]+%/)) {
			sub(/^.*deadlines met /, "", f); split(f, v, /% -> |%/)
			want = judge(1000 - v[1] * 10, 1000 - v[2] * 10, 5, 25)
		} else if (match(f, /^done [0-9.]+ -> [0-9.]+ s/)) {
			split(substr(f, 6), v, / -> | s/)
			want = judge(v[1] * 1000, v[2] * 1000, 10, 1)
		} else if (match(f, /^p99 [0-9.]+ -> [0-9.]+ ms/)) {
			split(substr(f, 5), v, / -> | ms/)
			want = f ~ /waits: too few/ ? "unchanged" : judge(v[1] * 100, v[2] * 100, 10, 10)
		} else
			want = "?"
		if (w != want) { print "said " w ", the first figure says " want; exit 1 }
	}' >&2 || fail "verdict against its figure: $1"
}

# expect_groups FROM TO "NAMES " WHAT: lines FROM..TO of stdout name these
# groups, in this order
expect_groups() {
	nchecks=$((nchecks + 1))
	[ "$(sed -n "$1,$2s/^  \\([a-z]*\\): .*/\\1/p" "$T/out" | tr '\n' ' ')" = "$3" ] ||
		fail "$4: $(sed -n "$1,$2p" "$T/out")"
}

expect_status 0 "$SR" diff "$T/v.txt" --cpus 1
line 4 >"$T/l"
nchecks=$((nchecks + 1))
grep -q '^verdict: o11int against stock$' "$T/l" ||
	fail "line 4 is not the verdict: $(cat "$T/l")"
cp "$T/out" "$T/text"
# one line per group, in the table's order; the kind decides the figure
# printed first.  Replayed on one CPU, the trace's work (3 CPUs) runs
# behind the recording's clock: the deadlines are the replay's own.
expect_out '^  audio: (better|worse|unchanged) under o11int: 10 ms deadlines met [0-9.]+% -> [0-9.]+% \(own clock\), p99 '
expect_out '^  terminal: (better|worse|unchanged) under o11int: 50 ms deadlines met '
expect_out '^  build: (better|worse|unchanged) under o11int: done [0-9.]+ -> [0-9.]+ s after the start$'
expect_out '^  other: '
expect_groups 5 8 "audio terminal build other " "groups out of order"
for n in 5 6 7 8; do agree "$(line $n)"; done
# the rule line, from the constants, for the kinds judged here
expect_out '^  rule: the first figure decides: missed 25% & 0\.5 pt, done 1% & 10 ms$'
expect_out '^  outside the tree of perf-exec \(the recorded command\): 2 tasks, CPU 2\.[0-9]+ s \([0-9.]+%\), replayed too$'
# the headline names each interactive task under the word of the same
# rule, on the same figure: mpv/ao, alone in audio, under its group's
nchecks=$((nchecks + 1))
w=$(sed -n 's/^  audio: \([a-z]*\) under o11int: .*/\1/p' "$T/text")
grep -q "^  $w under o11int: .*mpv/ao (20) deadlines met [0-9.]*% -> [0-9.]*% (own clock)" "$T/text" ||
	fail "the headline's word for mpv/ao is not its group's ($w)"
# every line of the verdict fits 100 columns
nchecks=$((nchecks + 1))
awk 'NR >= 4 && NR <= 10 && length($0) > 100 { print; bad = 1 } END { exit bad }' "$T/out" ||
	fail "a verdict line over 100 columns"
# -v: the reasons under each group: its tasks, its wait, the reason that
# changed most, and the tasks it waited behind, those outside the command
# said so (the terminal's saved wait: behind the compilers, and python3)
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 -v
expect_out '^    1 task: mpv/ao$'
expect_out '^    its wait: [0-9.]+ -> [0-9.]+ ms; the reason that changed most: [a-z-]+ [-+][0-9.]+ ms \('
expect_out '^    behind cc1 \(1[23]\) -[0-9.]+ ms'
expect_out '^    deadlines met on the recording.s clock: [0-9.]+% -> [0-9.]+% \(the replay runs behind it'
# the same groups, in the same order, with their words: -v adds lines
nchecks=$((nchecks + 1))
[ "$(grep '^  [a-z]*: ' "$T/out")" = "$(grep '^  [a-z]*: ' "$T/text")" ] ||
	fail "-v changed the verdict's lines"
# on the 6 CPUs recorded the replay keeps up: the recording's clock
expect_status 0 "$SR" diff "$T/v.txt"
expect_out '^  audio: (better|worse|unchanged) under o11int: 10 ms deadlines met [0-9.]+% -> [0-9.]+%, p99 '
for n in $(grep -n '^  [a-z]*: [a-z]* under' "$T/out" | cut -d: -f1); do agree "$(line $n)"; done
# make sleeps while its compilers run: batch, not interactive (it wakes
# 50 times a second and sleeps 99 % of its life); so is perf-exec
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --tsv
nchecks=$((nchecks + 1))
[ "$(awk -F'\t' '$3 == 11 || $3 == 10 || $3 == 20 { print $3 ":" $6 }' "$T/out" | sort | tr '\n' ' ')" = "10:batch 11:batch 20:interactive " ] ||
	fail "classes: $(awk -F'\t' '{ print $3 ":" $4 ":" $6 }' "$T/out" | tr '\n' ' ')"

# The tasks a person notices lead (compare/select.h, tasks[].notice): the
# diff's rows (TSV, in the table's order) start with the tasks of the
# audio, display and terminal groups in that order (mpv/ao, then bash),
# then periodic and interactive ones, the others, the batch tasks last.
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --tsv
nchecks=$((nchecks + 1))
[ "$(awk -F'\t' 'NR > 1 { print $3 }' "$T/out" | head -n 2 | tr '\n' ' ')" = "20 30 " ] ||
	fail "rows: not mpv/ao then bash first: $(cut -f3,4 "$T/out" | tr '\n' ' ')"
nchecks=$((nchecks + 1))
[ "$(awk -F'\t' 'NR > 3 { print $6 }' "$T/out" | sort -u)" = "batch" ] ||
	fail "rows: batch not last: $(cut -f3,4,6 "$T/out" | tr '\n' ' ')"
# the plots draw the worst task of each group, in the groups' order
# (audio: mpv/ao; terminal: bash; build: the largest p99 among its tasks
# with 20 waits or more, cc1 (12) or make (11); other: python3, 21 waits
# where perf-exec had 4), then the diff's order
expect_status 69 "$SR" plot "$T/v.txt" --cpus 1 -o "$T/order" --gnuplot /nonexistent/gnuplot
nchecks=$((nchecks + 1))
sed -n 's/^# index [0-9]*: \(.*\) under stock: time_s prio$/\1/p' "$T/order/priority.dat" |
	tr '\n' ' ' >"$T/drawn"
grep -Eq '^mpv/ao \(20\) bash \(30\) (cc1 \(12\)|cc1 \(13\)|make \(11\)) python3 \(50\) ' "$T/drawn" ||
	fail "plots: not the worst of each group first: $(cat "$T/drawn")"

# --group: a new group is tried first; a default's name replaces it
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --group 'hog=^python3$' --group 'audio=^bash$'
expect_out '^  hog: '
expect_out '^  audio: '
expect_out '^  display: '
expect_out '^  other: '
expect_groups 5 9 "hog audio display build other " "--group order"
expect_status 64 "$SR" diff "$T/v.txt" --cpus 1 --group audio
expect_err "--group: expected NAME=REGEX"
expect_status 64 "$SR" diff "$T/v.txt" --cpus 1 --group 'audio=('
expect_err "^schedreplay: --group 'audio=\\(': expected a pcre2 regex, got an error at offset"

# --only-tree: only the command's tree is replayed; the verdict says so
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --only-tree '^perf-exec$'
expect_out '^  left out of the replay \(--only, --only-tree, --exclude\): 2 tasks, 2\.[0-9]+ s of CPU'
nchecks=$((nchecks + 1))
! grep -q 'python3\|bash\|outside the tree of' "$T/out" ||
	fail "--only-tree: the tasks outside still there"
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --only-tree '^perf-exec$' --tsv
nchecks=$((nchecks + 1))
[ "$(cut -f3 "$T/out" | tail -n +2 | sort -n | tr '\n' ' ')" = "10 11 12 13 20 " ] ||
	fail "--only-tree pids: $(cut -f3 "$T/out" | tail -n +2 | tr '\n' ' ')"
expect_status 64 "$SR" diff "$T/v.txt" --only '('
expect_err "--only '\(': at offset"

# replay --only, --only-tree: only those tasks in every file, and how
# many were left out (their CPU when observed is replayed)
expect_status 0 "$SR" replay "$T/v.txt" --cpus 1 --only '^cc1$' --policy stock --policy observed -o "$T/r1"
expect_out '^left out \(--exclude, --only, --only-tree\): 5 tasks, 2\.[0-9]+ s of the recording.s [0-9.]+ s of CPU'
nchecks=$((nchecks + 1))
[ "$(cut -f1 "$T/r1/stock/summary.tsv" | tail -n +2 | sort -n | tr '\n' ' ')" = "12 13 " ] ||
	fail "--only: $(cut -f1,2 "$T/r1/stock/summary.tsv" | tr '\n' ' ')"
expect_status 0 "$SR" replay "$T/v.txt" --cpus 1 --only-tree '^make$' --policy o11int -o "$T/r2"
expect_out '^left out \(--exclude, --only, --only-tree\): 4 tasks \(their CPU: replay observed too\)'
nchecks=$((nchecks + 1))
[ "$(cut -f1 "$T/r2/o11int/summary.tsv" | tail -n +2 | sort -n | tr '\n' ' ')" = "11 12 13 " ] ||
	fail "--only-tree: $(cut -f1,2 "$T/r2/o11int/summary.tsv" | tr '\n' ' ')"
expect_status 64 "$SR" replay "$T/v.txt" --only-tree '(' -o "$T/r3"
expect_err "--only-tree '\(': at offset"
expect_status 64 "$SR" diff "$T/v.txt" --only-tree '('
expect_err "--only-tree '\(': at offset"
# one meaning per name: --tree shows a tree (every task replayed); where
# it used to restrict the replay (replay, export) it is refused, saying
# where that meaning went, and neither help nor completion offers it
for cmd in replay export; do
	expect_status 64 "$SR" $cmd "$T/v.txt" --tree '^make$' -o "$T/r4"
	expect_err "^schedreplay: $cmd: --tree shows one process tree in diff, plot, report and explain \(every task replayed\); to replay only the tree here, say --only-tree REGEX$"
	expect_status 64 "$SR" $cmd "$T/v.txt" --tree='^make$' -o "$T/r4"
	expect_err "$cmd: --tree shows one process tree"
	expect_status 0 "$SR" $cmd --help
	nchecks=$((nchecks + 1))
	! grep -q -- '--tree' "$T/out" || fail "$cmd --help offers --tree"
	expect_out '--only-tree REGEX'
	expect_status 0 "$SR" $cmd --help=complete
	nchecks=$((nchecks + 1))
	! grep -q '^--tree	' "$T/out" || fail "$cmd's completion offers --tree"
done
nchecks=$((nchecks + 1))
[ ! -e "$T/r4" ] || fail "a refused --tree wrote $T/r4"
# on a replay directory: replayed already
expect_status 64 "$SR" diff "$T/r1" --only x
expect_err 'needs the trace file'

# the same words in JSON; with three policies, a verdict each
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --json
expect_out '"verdict_text": \['
expect_out '"verdict: o11int against stock"'
expect_out '"audio: (better|worse|unchanged) under o11int: '
expect_status 0 "$SR" diff "$T/v.txt" --cpus 1 --policy stock --policy o11int --policy cfs
nchecks=$((nchecks + 1))
[ "$(grep -c '^verdict: ' "$T/out")" = 2 ] || fail "three policies: not two verdicts"
expect_out '^verdict: cfs against stock'
nchecks=$((nchecks + 1))
[ "$(grep -c '^  outside the tree of' "$T/out")" = 1 ] ||
	fail "three policies: the scope not once"

# A group of one task has that task's own p99 (one percentile: the delays
# pooled in a distribution like the task's, exact up to 256 and a
# histogram past it) and all its waits: sleeper (pid 60) is woken 300
# times and waits (k * 7919 mod 997) ms + 1 ms after its k-th wakeup
# (spread delays: a histogram's p99 is not the exact one); it was "start"
# for its first 4 waits, then renamed itself (its figures count all 300,
# under the name it ended with).  A = observed: the recorded delays.
need python3 python3
awk 'BEGIN {
	print "#schedreplay-native 1"
	print "0s 0 task pid=50 comm=hog running"
	print "0s 1 task pid=60 comm=start"
	for (k = 1; k <= 300; k++) {
		t = k * 10000000
		d = (k * 7919 % 997) * 1000 + 1000
		if (k == 5) printf "%dns 1 exec pid=60 comm=sleeper\n", t - 5000000
		printf "%dns 1 wake pid=60 by=irq\n", t
		printf "%dns 1 switch prev=0 state=R next=60\n", t + d
		printf "%dns 1 switch prev=60 state=S next=0\n", t + d + 200000
	}
	print "3100ms 0 switch prev=50 state=R next=0"
}' >"$T/solo.txt"
expect_status 0 "$SR" diff "$T/solo.txt" --policy observed --policy stock --group 'solo=^sleeper$' --json
cp "$T/out" "$T/solo.json"
expect_status 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
g = [g for g in d["comparisons"][0]["verdict"] if g["group"] == "solo"][0]
t = [t for t in d["tasks"] if t["pid"] == 60][0]["figures"]
for k, p in enumerate(("observed", "stock")):
    f = t[p]
    if g["waits"][k] != f["switches"] or g["p99_ms"][k] != f["p99_delay_ms"]:
        sys.exit("%s: the group: %d waits, p99 %s; its one task: %d, %s" % (
            p, g["waits"][k], g["p99_ms"][k], f["switches"], f["p99_delay_ms"]))
if g["waits"][0] != 300:
    sys.exit("observed: %d waits, not 300" % g["waits"][0])
' "$T/solo.json"

# the wait by reason: why-bars.dat, a row per task drawn and policy, whose
# sums by reason end at the task's total wait (the reasons tile it) and
# whose total is the latency rows' (explain's); none without attribution
expect_status 69 "$SR" plot "$T/v.txt" --cpus 1 -o "$T/pl" --gnuplot /nonexistent/gnuplot
nchecks=$((nchecks + 1))
awk -F'\t' '!/^#/ { n++; if ($5 != $NF) bad = bad " " $1 } END { exit !(n == 14 && bad == "") }' "$T/pl/why-bars.dat" ||
	fail "why-bars.dat: the sums do not end at the total (rows$(awk -F'\t' '!/^#/ && $5 != $NF { printf " %s", $1 }' "$T/pl/why-bars.dat")), or not 14 rows"
# one colour meaning per figure: a hue is a policy everywhere, so the
# reasons are greys and patterns (red would read as stock)
nchecks=$((nchecks + 1))
grep -o "lc rgb '#[0-9a-f]*'" "$T/pl/why-bars.gp" | sed "s/.*'#\(..\)\(..\)\(..\)'/\1 \2 \3/" |
	awk '$1 != $2 || $2 != $3 { bad = 1 } END { exit bad || NR < 3 }' ||
	fail "why-bars: a reason drawn in a hue: $(grep -o "lc rgb '#[0-9a-f]*'" "$T/pl/why-bars.gp" | sort -u | tr '\n' ' ')"
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
	sed -n '/id="groups"/,/<\/ul>/p' "$T/rep/index.html" |
		grep -q '<li class="vg">audio: <b class="\(better\|worse\|unchanged\)">' ||
		fail "report: no audio line with its word"
	nchecks=$((nchecks + 1))
	[ "$(grep -c '<figure id="plot-why-[0-9]*">' "$T/rep/index.html")" -eq 7 ] ||
		fail "report: not a wait-by-reason panel per task"
	nchecks=$((nchecks + 1))
	grep -q '<li>waited [0-9.]* ms from [0-9.]* s (trace clock @[0-9.]*):<ul>' "$T/rep/index.html" ||
		fail "report: no worst waits in words"
	# explain and the report say a wait alike: one clock, the segments
	# grouped by reason and task, the same reason names (docs/why.md)
	sed -n '/<h3>mpv\/ao (20)/,/<\/section>/p' "$T/rep/index.html" |
		sed -n '/<ol>/,/<\/ol>/p' | sed -n '2,/<\/ul>/p' |
		sed 's/<[^>]*>//g; /^$/d' >"$T/rep-wait"
	expect_status 0 "$SR" explain "$T/v.txt" --cpus 1 --task '^mpv/ao$' --top 1 --policy stock
	sed -n '/^  1\. /,/^$/p' "$T/out" | sed 's/^  1\. mpv\/ao (20) //; s/^       //; /^$/d' >"$T/ex-wait"
	nchecks=$((nchecks + 1))
	[ -s "$T/rep-wait" ] && cmp -s "$T/rep-wait" "$T/ex-wait" ||
		fail "report and explain differ on mpv/ao's worst wait: $(cat "$T/rep-wait") / $(cat "$T/ex-wait")"
fi
done_ok
