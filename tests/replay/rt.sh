#!/bin/sh
# --rt REGEX[:PRIO]: the tasks whose name matches run SCHED_RR under every
# policy (from birth, or from a rename that makes them match; back to
# their recorded class when a rename makes them stop matching); observed
# is the recording and does not change; bad rules exit 64.
. tests/lib/lib.sh
F=tests/replay/data/rt-rename.txt
SIMS=$("$SR" policies | awk '/^[^ ]/ { print $1 }')
POL=""
for p in $SIMS; do POL="$POL --policy $p"; done

# from birth: prio 99 - 50 (iso: a user task's RT request is SCHED_ISO, at
# 99); each of its four wakes before the rename runs at once (the hog is
# SCHED_NORMAL); after the rename it is normal again
expect_status 0 "$SR" replay "$F" -o "$T/a" $POL --policy observed \
	--rt player --timeline all -q
for p in $SIMS; do
	nchecks=$((nchecks + 1))
	awk -F '\t' -v p="$p" '
		$2 != 200 { next }
		$3 == "player" && $5 != (p == "iso" ? 99 : 49) {
			print p ": player at prio " $5; bad = 1 }
		$3 == "audio" && $5 < 100 { print p ": audio at prio " $5; bad = 1 }
		$3 == "player" && $4 == "run" { run[$1] = 1 }
		END { for (t = 1; t <= 4; t++) if (!run[t * 10000000]) {
			print p ": player did not run at " t * 10 " ms"; bad = 1 }
		      exit bad }' "$T/a/$p/timeline.tsv" || fail "--rt player under $p"
done

# from the rename: RR at prio 99 - 10 as audio, normal before
expect_status 0 "$SR" replay "$F" -o "$T/b" $POL --policy observed \
	--rt 'aud.o:10' --timeline all -q
for p in $SIMS; do
	nchecks=$((nchecks + 1))
	awk -F '\t' -v p="$p" '
		$2 != 200 { next }
		$3 == "player" && $5 < 100 { print p ": player at prio " $5; bad = 1 }
		# the instant of the rename may report what ended there under the
		# old class first (a slice used up): rows before the setsched
		# row, at its time; from it on, RR
		$3 == "audio" && !n && $4 != "setsched" { pre[$1] = 1; next }
		$3 == "audio" && $4 == "setsched" {
			n++
			for (t in pre) if (t != $1) {
				print p ": audio at " t " before its setsched"; bad = 1 }
		}
		$3 == "audio" && $5 != (p == "iso" ? 99 : 89) {
			print p ": audio at prio " $5; bad = 1 }
		END { if (n != 1) { print p ": " n + 0 " setsched rows"; bad = 1 }
		      exit bad }' "$T/b/$p/timeline.tsv" || fail "--rt audio under $p"
done
# the recording is what it is
expect_status 0 "$SR" replay "$F" -o "$T/c" --policy observed -q
for f in timeline latency summary; do
	expect_same "$T/c/observed/$f.tsv" "$T/a/observed/$f.tsv"
done
# the first rule that matches wins
expect_status 0 "$SR" replay "$F" -o "$T/d" --policy o11int \
	--rt 'play:7' --rt 'player:30' --timeline all -q
nchecks=$((nchecks + 1))
awk -F '\t' '$2 == 200 && $3 == "player" && $5 != 92 { exit 1 }' \
	"$T/d/o11int/timeline.tsv" || fail "the first --rt rule did not win"

# diff takes --rt too
expect_status 0 "$SR" diff "$F" --policy stock --policy o11int --rt player

expect_status 64 "$SR" replay "$F" -o "$T/e" --rt 'player:0'
expect_err "--rt 'player:0': expected a SCHED_RR priority from 1 to 99 after the last ':', got '0'"
expect_status 64 "$SR" replay "$F" -o "$T/e" --rt 'player:100'
expect_err 'from 1 to 99'
expect_status 64 "$SR" replay "$F" -o "$T/e" --rt '(player'
expect_err "^schedreplay: --rt '\\(player': at offset [0-9]+: "
expect_status 64 "$SR" replay "$F" -o "$T/e" --rt ':5'
expect_err 'expected REGEX\[:PRIO\]'
nchecks=$((nchecks + 1))
[ ! -e "$T/e" ] || fail "a refused run left $T/e"
done_ok
