#!/bin/sh
# output-safety: every command that writes files writes a temporary beside
# the output and renames it into place (lib/outfile.h).  An error or a
# signal (SIGINT, SIGTERM) part-way leaves the previous output as it was
# and no partial or temporary file; a full disk or a file-size limit is a
# clear error, status 74, and leaves nothing either.
. tests/lib/lib.sh
D=tests/parse/data
P=tests/compare/data/hogplayer

# no_tmp DIR: no temporary left behind in DIR
no_tmp() {
	nchecks=$((nchecks + 1))
	left=$(find "$1" -name '*.tmp.*' 2>/dev/null)
	[ -z "$left" ] || fail "temporary files left: $left"
}
# intact FILE: still the previous output (its first line is "previous")
intact() {
	nchecks=$((nchecks + 1))
	[ "$(head -n 1 "$1")" = previous ] || fail "$1: previous output damaged"
}
# big trace: 60 000 perf lines (9 MB): more than the input buffer and the
# merge window hold, so output starts before the input ends
awk 'BEGIN { for (i = 0; i < 60000; i++) printf "%16s %6d [%03d] %d.%06d: sched:sched_switch: prev_comm=a prev_pid=%d prev_prio=120 prev_state=R ==> next_comm=b next_pid=%d next_prio=120\n", "a", 10 + i % 50, i % 4, 100 + int(i / 1000000), i % 1000000, 10 + i % 50, 10 + (i + 1) % 50 }' > "$T/big"

# ---- an error part-way: the previous output stays, nothing else ----
mkdir -p "$T/e"
{ head -n 50000 "$T/big"; echo "garbage in the middle"; tail -n 10 "$T/big"; } > "$T/bad"
for cmd in convert stats; do
	echo previous > "$T/e/$cmd.out"
	expect_status 65 "$SR" $cmd -o "$T/e/$cmd.out" "$T/bad"
	expect_err "^schedreplay: $T/bad:50001: expected a perf script line"
	intact "$T/e/$cmd.out"
done
# replay -o DIR: its files stay as they were
mkdir -p "$T/rp/stock"
echo previous > "$T/rp/stock/timeline.tsv"
expect_status 65 "$SR" replay -o "$T/rp" "$T/bad"
expect_err "^schedreplay: $T/bad:50001: expected a perf script line"
intact "$T/rp/stock/timeline.tsv"
# a failing gnuplot: the previous image stays
mkdir -p "$T/plot"
printf '#!/bin/sh\necho "plot: broken" >&2\nexit 1\n' > "$T/badgnuplot"
chmod +x "$T/badgnuplot"
echo previous > "$T/plot/priority.png"
expect_status 69 "$SR" plot "$P" -o "$T/plot" --gnuplot "$T/badgnuplot"
intact "$T/plot/priority.png"
no_tmp "$T"

# ---- a signal part-way ----
# wait_for GLOB: until a file matching it exists (the run is part-way)
wait_for() {
	i=0
	while [ $i -lt 300 ]; do
		for f in $1; do
			[ -e "$f" ] && return 0
		done
		sleep 0.1
		i=$((i + 1))
	done
	fail "no $1 after 30 s"
}
# convert from a FIFO whose writer stalls after 9 MB (the input buffer
# and the merge window fill first): the output's temporary is open
for sig in TERM INT; do
	signum=15; [ $sig = INT ] && signum=2
	mkdir -p "$T/sig$sig"
	echo previous > "$T/sig$sig/out.native"
	rm -f "$T/fifo"
	mkfifo "$T/fifo"
	sh -c 'head -n 60000 "$1" && exec sleep 60' sh "$T/big" > "$T/fifo" &
	writer=$!
	"$SR" convert -o "$T/sig$sig/out.native" "$T/fifo" 2>"$T/err" &
	pid=$!
	wait_for "$T/sig$sig/out.native.tmp.*"
	kill -$sig $pid
	wait $pid
	rc=$?
	kill $writer 2>/dev/null
	wait $writer 2>/dev/null
	nchecks=$((nchecks + 1))
	want=$((128 + signum))
	[ $rc -eq $want ] || fail "convert killed by SIG$sig: exit $rc, want $want"
	intact "$T/sig$sig/out.native"
	no_tmp "$T/sig$sig"
done
# replay from the same stalled FIFO, its timelines open
mkdir -p "$T/rs/stock"
echo previous > "$T/rs/stock/timeline.tsv"
rm -f "$T/fifo"
mkfifo "$T/fifo"
sh -c 'head -n 60000 "$1" && exec sleep 60' sh "$T/big" > "$T/fifo" &
writer=$!
"$SR" replay -o "$T/rs" "$T/fifo" 2>"$T/err" &
pid=$!
wait_for "$T/rs/stock/timeline.tsv.tmp.*"
kill -TERM $pid
wait $pid
rc=$?
kill $writer 2>/dev/null
wait $writer 2>/dev/null
nchecks=$((nchecks + 1))
[ $rc -eq 143 ] || fail "replay killed by SIGTERM: exit $rc, want 143"
intact "$T/rs/stock/timeline.tsv"
no_tmp "$T/rs"
# plot while gnuplot draws: gnuplot is stopped and its image removed
cat > "$T/slowgnuplot" <<'EOF'
#!/bin/sh
# like gnuplot: -e "outfile='NAME'" SCRIPT; writes half an image, stalls
out=$(printf '%s' "$2" | sed "s/^outfile='\(.*\)'$/\1/")
echo half > "$out"
exec sleep 60
EOF
chmod +x "$T/slowgnuplot"
for sig in TERM INT; do
	signum=15; [ $sig = INT ] && signum=2
	mkdir -p "$T/plot$sig"
	echo previous > "$T/plot$sig/priority.png"
	"$SR" plot "$P" -o "$T/plot$sig" --gnuplot "$T/slowgnuplot" 2>"$T/err" &
	pid=$!
	wait_for "$T/plot$sig/priority.png.tmp.*"
	kill -$sig $pid
	wait $pid
	rc=$?
	nchecks=$((nchecks + 1))
	want=$((128 + signum))
	[ $rc -eq $want ] || fail "plot killed by SIG$sig: exit $rc, want $want"
	intact "$T/plot$sig/priority.png"
	no_tmp "$T/plot$sig"
	nchecks=$((nchecks + 1))
	! pgrep -f "$T/slowgnuplot" >/dev/null || fail "gnuplot left running"
done

# report: the same while its plots are drawn; the previous page stays
mkdir -p "$T/rep"
echo previous > "$T/rep/index.html"
"$SR" report tests/replay/data/hogplayer.txt -o "$T/rep" --gnuplot "$T/slowgnuplot" 2>"$T/err" &
pid=$!
wait_for "$T/rep/*.tmp.*"
kill -TERM $pid
wait $pid
rc=$?
nchecks=$((nchecks + 1))
[ $rc -eq 143 ] || fail "report killed by SIGTERM: exit $rc, want 143"
intact "$T/rep/index.html"
no_tmp "$T/rep"
nchecks=$((nchecks + 1))
! pgrep -f "$T/slowgnuplot" >/dev/null || fail "gnuplot left running"

# ---- a full disk: a small tmpfs (as root, where mount works) ----
if [ "$(id -u)" = 0 ] && mkdir -p "$T/full" &&
   mount -t tmpfs -o size=256k tmpfs "$T/full" 2>/dev/null; then
	trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
	echo previous > "$T/full/out.native"
	expect_status 74 "$SR" convert -o "$T/full/out.native" "$T/big"
	expect_err "^schedreplay: $T/full/out.native: write failed: No space left on device$"
	intact "$T/full/out.native"
	no_tmp "$T/full"
	echo previous > "$T/full/stats.tsv"
	cat /dev/zero > "$T/full/filler" 2>/dev/null # the disk is full
	expect_status 74 "$SR" stats --tsv -o "$T/full/stats.tsv" "$T/big"
	expect_err "^schedreplay: $T/full/stats.tsv: write failed: No space left on device$"
	intact "$T/full/stats.tsv"
	no_tmp "$T/full"
	umount "$T/full"
else
	echo "tmpfs: cannot mount here (not root?): the full-disk case runs with ulimit -f only"
fi

# ---- a file-size limit (ulimit -f): EFBIG, not a kill by SIGXFSZ ----
mkdir -p "$T/limit"
echo previous > "$T/limit/out.native"
expect_status 74 sh -c "ulimit -f 64 && exec \"$SR\" convert -o \"$T/limit/out.native\" \"$T/big\""
expect_err "^schedreplay: $T/limit/out.native: write failed: File too large$"
intact "$T/limit/out.native"
no_tmp "$T/limit"

# ---- every command that writes files goes through lib/outfile ----
# (a file named like an output but not written by sr_outfile_* would
# appear without a temporary: look for the call in each writer)
for f in builtin/convert.c builtin/stats.c replay/replay.c plots/plot-draw.h \
	 plots/heatmap.c plots/report.c; do
	nchecks=$((nchecks + 1))
	grep -q 'sr_outfile_open' "$f" || fail "$f writes without lib/outfile"
done
nchecks=$((nchecks + 1))
! grep -nE '\bfopen\([^)]*"(w|a)' lib/*.c parse/*.c replay/*.c compare/*.c plots/*.c sched-model/*.c builtin/*.c ||
	fail "a file opened for writing outside lib/outfile"

done_ok
