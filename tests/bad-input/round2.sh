#!/bin/sh
# round2: the ten defects of the second adversarial pass, each
# with the status and message it must give now, and the class behind it
# (docs/robustness.md, "Round 2").
. tests/lib/lib.sh
D=tests/parse/data

# the docs' own native example (docs/trace-format.md)
cat > "$T/doc.native" <<'EOF'
#schedreplay-native 1
0s      0 task    pid=100 comm=hog running
0s      0 task    pid=200 comm=player
10ms    0 wake    pid=200 by=irq
10ms    0 switch  prev=100 state=R next=200
11ms    0 switch  prev=200 state=S next=100
EOF

# 1. --cs-cost that would stop progress is refused; up to a jiffy replays
for c in 100ms 1s 999ms 1001us; do
	expect_status 64 "$SR" replay "$T/doc.native" --cs-cost "$c" -o "$T/cs"
	expect_err "^schedreplay: --cs-cost: expected a number from 0 to 1ms"
done
expect_status 64 "$SR" replay "$T/doc.native" --cs-cost 5x -o "$T/cs"
expect_err "^schedreplay: --cs-cost: expected a number from 0 to 1ms with a unit among ns, us, ms, s \\(none: ns\\), got '5x'$"
for p in stock test2-mm1 o11int; do
	expect_status 0 "$SR" replay "$T/doc.native" --cs-cost 1ms --policy $p -o "$T/cs" -q
done
nchecks=$((nchecks + 1))
[ ! -d "$T/cs/observed" ] || fail "a refused --cs-cost left output"

# 2. an HTML word in an ftrace line is not systrace; a reader that finds
# no events in a non-empty input says what it looked for (65)
cp $D/ftrace-3x.txt "$T/mark.txt"
echo '          atrace-14662 [000] 50260.647577: tracing_mark_write: <head>' >> "$T/mark.txt"
echo '          atrace-14662 [000] 50260.647578: tracing_mark_write: <!DOCTYPE html><html><script class="trace-data">' >> "$T/mark.txt"
expect_status 0 "$SR" stats --tsv "$T/mark.txt"
nchecks=$((nchecks + 1))
[ "$(sed 1d "$T/out" | wc -l)" -gt 0 ] || fail "ftrace with <head>: no rows"
expect_status 0 "$SR" convert "$T/mark.txt"
expect_out '^# converted by schedreplay from ftrace text'
expect_status 65 "$SR" stats --input-format systrace $D/perf-small.txt
expect_err "^schedreplay: $D/perf-small.txt: no scheduler events in 18 lines read as systrace: expected an HTML document with a <script class=\"trace-data\"> block"
printf '<!DOCTYPE html>\n<html><body>no trace here</body></html>\n' > "$T/page.html"
expect_status 65 "$SR" stats "$T/page.html"
expect_err "page.html: no scheduler events in 2 lines read as systrace"
expect_status 0 "$SR" stats --tsv $D/systrace-modern.html
expect_status 0 "$SR" stats --tsv $D/systrace-legacy.html

# 3. an empty output path is refused (64) by every command that writes
expect_status 64 "$SR" replay $D/native-small.txt -o ''
expect_err "^schedreplay: --output: expected a file or directory name, got an empty path$"
for cmd in plot report; do
	expect_status 64 "$SR" $cmd tests/compare/data/hogplayer -o ''
	expect_err "empty path"
done
expect_status 64 "$SR" convert -o '' $D/native-small.txt
expect_err "empty path"
expect_status 64 "$SR" stats -o '' $D/native-small.txt
expect_err "empty path"
nchecks=$((nchecks + 1))
[ ! -e stock ] && [ ! -e observed ] || fail "-o '' wrote into the working directory"

# 4. a switch without a cpu: 65 with FILE:LINE, the same from every command
printf '#schedreplay-native 1\n0s - switch prev=100 state=S next=200\n' > "$T/nocpu.native"
nocpu_msg="^schedreplay: $T/nocpu.native:2: expected a cpu number for a switch event \(- is for lost markers only\)$"
for cmd in stats replay convert; do
	expect_status 65 "$SR" $cmd "$T/nocpu.native" -o "$T/nocpu-$cmd"
	expect_err "$nocpu_msg"
done
expect_status 65 "$SR" diff "$T/nocpu.native"
expect_err "$nocpu_msg"

# 5. data after a gzip member: refused with where the gzip data ended;
# gzip members one after the other are one stream, as zcat reads them
gzip -c $D/perf-small.txt > "$T/a.gz"
{ cat "$T/a.gz"; echo "rest of a log"; } > "$T/trail.gz"
expect_status 65 "$SR" stats "$T/trail.gz"
expect_err "^schedreplay: $T/trail.gz: data after the gzip stream: it ends at compressed byte $(wc -c < "$T/a.gz" | tr -d ' ') \(after $(wc -c < $D/perf-small.txt | tr -d ' ') bytes of text\)"
head -n 8 $D/perf-small.txt | gzip -c > "$T/m1.gz"
tail -n +9 $D/perf-small.txt | gzip -c > "$T/m2.gz"
cat "$T/m1.gz" "$T/m2.gz" > "$T/members.gz"
expect_status 0 "$SR" stats --tsv $D/perf-small.txt
cp "$T/out" "$T/plain.tsv"
expect_status 0 "$SR" stats --tsv "$T/members.gz"
expect_same "$T/out" "$T/plain.tsv"
if command -v xz >/dev/null 2>&1; then
	xz -c $D/perf-small.txt > "$T/a.xz"
	expect_status 65 "$SR" stats "$T/a.xz"
	expect_err "a.xz: compressed with xz: decompress it first \(xz -dc FILE > FILE.txt\)"
fi
printf 'BZh91AY&SY' > "$T/a.bz2"
expect_status 65 "$SR" stats "$T/a.bz2"
expect_err "compressed with bzip2"
printf '\050\265\057\375rest' > "$T/a.zst"
expect_status 65 "$SR" stats "$T/a.zst"
expect_err "compressed with zstd"

# 6. convert's output replays as the trace does (tests/replay/roundtrip.sh
# runs every sample and real trace); the native line says what was known
expect_status 0 "$SR" convert $D/perf-small.txt
expect_out ' wake pid=1001 by=1000 guessed '
printf '#schedreplay-native 1\n0s 0 wake pid=5 by=irq guessed\n' > "$T/g.native"
expect_status 65 "$SR" stats "$T/g.native"
expect_err "g.native:2: expected by=PID with the guessed flag"

# 7. per-cpu blocks of three and more cpus within the merge window
for n in 3 5; do
	awk -v n=$n 'BEGIN {
		for (c = 0; c < n; c++)
			for (i = 0; i < 9000; i++) {
				a = 1000 + 2 * c; b = a + 1
				if (i % 2) { x = a; a = b; b = x }
				printf "          task-%d  [%03d] %.6f: sched_switch: prev_comm=t%d prev_pid=%d prev_prio=120 prev_state=R ==> next_comm=t%d next_pid=%d next_prio=120\n", a, c, 100 + i * 0.001 + c * 0.0001, a, a, b, b
			}
	}' > "$T/blocks$n.txt"
	sort -s -k3,3n "$T/blocks$n.txt" > "$T/sorted$n.txt"
	expect_status 0 "$SR" stats --tsv "$T/sorted$n.txt"
	cp "$T/out" "$T/sorted.tsv"
	expect_status 0 "$SR" stats --tsv "$T/blocks$n.txt"
	expect_same "$T/out" "$T/sorted.tsv"
done

# 8. output paths past 1000 characters: nothing cut, no temporary left
long="$T"
for part in a b c d e f; do
	long="$long/$(printf "%0190d" 0 | tr 0 "$part")"
done
expect_status 0 "$SR" plot tests/compare/data/hogplayer -o "$long/p" --format svg
nchecks=$((nchecks + 1))
[ -s "$long/p/priority.svg" ] || fail "long path: no priority.svg"
expect_status 69 "$SR" plot tests/compare/data/hogplayer -o "$long/q" --gnuplot /bin/false
expect_err "/bin/false exited with status 1 on $long/q/priority.gp; the scripts and data are kept in $long/q \\(a working gnuplot: "
expect_status 69 "$SR" report tests/compare/data/hogplayer -o "$long/r2" --gnuplot /bin/false
nchecks=$((nchecks + 1))
grep -qF "($long/r2/index.html has the tables only)" "$T/err" ||
	fail "report: the long path was cut in: $(cat "$T/err")"
expect_status 0 "$SR" report tests/compare/data/hogplayer -o "$long/r"
nchecks=$((nchecks + 1))
[ -s "$long/r/index.html" ] || fail "long path: no index.html"
nchecks=$((nchecks + 1))
[ -z "$(find "$T" -name '*.tmp.*')" ] || fail "temporaries left: $(find "$T" -name '*.tmp.*')"

# 9. a failed replay leaves no directory behind; a later one still works
expect_status 65 "$SR" replay "$T/nocpu.native" -o "$T/fresh/out"
nchecks=$((nchecks + 1))
[ ! -e "$T/fresh" ] || fail "a failed replay left $(find "$T/fresh")"
mkdir "$T/mine"
expect_status 65 "$SR" replay "$T/nocpu.native" -o "$T/mine"
nchecks=$((nchecks + 1))
[ -d "$T/mine" ] || fail "a failed replay removed a directory it did not make"

# 10. output in proportion: a lone hog running 8 600 s writes its arrival
# (new, wake, run) and its block per policy by default; every row with
# --timeline all
printf '#schedreplay-native 1\n0s 0 switch prev=0 state=R next=100\n8600s 0 switch prev=100 state=S next=0\n' > "$T/hog.native"
expect_status 0 "$SR" replay "$T/hog.native" -o "$T/hog" -q
for p in stock o11int observed; do
	nchecks=$((nchecks + 1))
	[ "$(wc -l < "$T/hog/$p/timeline.tsv")" -le 5 ] ||
		fail "lone hog: $p timeline has $(wc -l < "$T/hog/$p/timeline.tsv") lines, want at most 5"
done
expect_status 0 "$SR" replay "$T/hog.native" -o "$T/hogall" -q --policy stock --timeline all
nchecks=$((nchecks + 1))
[ "$(wc -l < "$T/hogall/stock/timeline.tsv")" -gt 100000 ] || fail "--timeline all: rows missing"
expect_status 64 "$SR" replay "$T/hog.native" --timeline some -o "$T/hogx"
expect_err "^schedreplay: --timeline: expected changes or all, got 'some'$"

# stdin is <stdin> in every message, errors and warnings alike
expect_status 65 sh -c "printf 'x\n' | \"$SR\" stats -"
expect_err "^schedreplay: <stdin>:1: "
expect_status 0 sh -c "\"$SR\" convert - < $D/perf-sideband.txt"
expect_err "^schedreplay: warning: <stdin>: 27 events lost in [0-9]+ range"
nchecks=$((nchecks + 1))
! grep -q 'warning: -:' "$T/err" || fail "stdin named '-' in a warning"

# a killed run's temporaries (their writer gone) are removed by the next
# run into the same place; a live writer's, and other files, are not
sh -c 'exit 0' & dead=$!
wait $dead
mkdir -p "$T/stale/stock"
: > "$T/stale/stock/summary.tsv.tmp.$dead.AbC123"
: > "$T/stale/stock/summary.tsv.tmp.$$.AbC123"
: > "$T/stale/stock/summary.tsv.bak"
expect_status 0 "$SR" replay $D/native-small.txt -o "$T/stale" -q --policy stock
nchecks=$((nchecks + 1))
[ ! -e "$T/stale/stock/summary.tsv.tmp.$dead.AbC123" ] || fail "a dead run's temporary stayed"
nchecks=$((nchecks + 1))
[ -e "$T/stale/stock/summary.tsv.tmp.$$.AbC123" ] && [ -e "$T/stale/stock/summary.tsv.bak" ] ||
	fail "a live run's temporary or another file was removed"
done_ok
