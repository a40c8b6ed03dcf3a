#!/bin/sh
# R3 (round 3, data loss): `plot` on a nearly full disk exited 0 and
# replaced good images with truncated ones: gnuplot's cairo terminals exit
# 0 when their writes fail, and the temporary was renamed without a
# check.  Now the image is checked whole before it is renamed (a PNG's
# chunks and CRCs to IEND at the end of the file, an SVG's </svg>, a
# PDF's %%EOF): 74, the cause named, the previous image kept, nothing left.
. tests/lib/lib.sh
need gnuplot gnuplot-nox
H=tests/replay/data/hogplayer.txt
# limited WANT BLOCKS CMD...: CMD under `ulimit -f BLOCKS` (512-byte
# blocks), its stderr through a FIFO (which the limit does not touch)
limited() {
	want=$1 blocks=$2; shift 2
	rm -f "$T/errfifo"
	mkfifo "$T/errfifo"
	cat "$T/errfifo" > "$T/err" &
	sh -c 'ulimit -f "$0" && exec "$@"' "$blocks" "$@" 2>"$T/errfifo" >/dev/null
	got=$?
	wait
	nchecks=$((nchecks + 1))
	[ "$got" -eq "$want" ] || { cat "$T/err" >&2; fail "$*: exit $got, want $want"; }
}
no_tmp() {
	nchecks=$((nchecks + 1))
	[ -z "$(find "$1" -name '*.tmp.*')" ] || fail "temporaries left: $(find "$1" -name '*.tmp.*')"
}
# 8 KiB: every script and data file fits, no image does (the smallest,
# why-bars.pdf, is 10 KiB)
for fmt in png pdf; do
	mkdir -p "$T/$fmt"
	for f in priority delay-time delay-cdf diff-bars why-bars; do
		echo previous > "$T/$fmt/$f.$fmt"
	done
	limited 74 16 "$SR" plot "$H" -o "$T/$fmt" --format $fmt -q
	kind=$(echo $fmt | tr a-z A-Z)
	expect_err "^schedreplay: $T/$fmt/priority\\.$fmt: write failed: gnuplot exited 0 but its $kind is incomplete \\(8192 bytes: .*\\); it reached the file-size limit \\(ulimit -f\\): File too large; the previous file is kept$"
	for f in priority delay-time delay-cdf diff-bars why-bars; do
		nchecks=$((nchecks + 1))
		[ "$(cat "$T/$fmt/$f.$fmt")" = previous ] || fail "$f.$fmt replaced by a truncated image"
	done
	no_tmp "$T/$fmt"
done
expect_err "PDF is incomplete \\(8192 bytes: it does not end with %%EOF\\)"

# a full file system (a small tmpfs, as root where mount works): room
# for the scripts and data (their 4 KiB pages, measured by a run without
# gnuplot), the previous image and two pages more; no image fits in that
"$SR" plot "$H" -o "$T/measure" -q --gnuplot /nonexistent >/dev/null 2>&1
pages=$(find "$T/measure" -type f -printf '%s\n' |
	awk '{ n += int(($1 + 4095) / 4096) } END { print n + 3 }')
if [ "$(id -u)" = 0 ] && mkdir -p "$T/full" &&
   mount -t tmpfs -o size=$((pages * 4))k tmpfs "$T/full" 2>/dev/null; then
	trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
	echo previous > "$T/full/priority.png"
	expect_status 74 "$SR" plot "$H" -o "$T/full" -q
	expect_err "^schedreplay: $T/full/priority\\.png: write failed: gnuplot exited 0 but its PNG is incomplete \\([0-9]+ bytes: it ends at byte [0-9]+, inside .*before the IEND chunk\\); the file system is full: No space left on device; the previous file is kept$"
	nchecks=$((nchecks + 1))
	[ "$(cat "$T/full/priority.png")" = previous ] || fail "priority.png replaced on a full disk"
	no_tmp "$T/full"
	umount "$T/full"
else
	echo "tmpfs: cannot mount here (not root?): the full disk is tested with ulimit -f only"
fi
done_ok
