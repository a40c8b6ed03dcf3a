#!/bin/sh
# R9 (round 3): `sweep` left the directories it made when a write failed
# (replay, plot and report remove theirs: round 2).  Now a sweep whose plan
# cannot be written leaves nothing it made (and a directory that was there
# before, with the previous plan, as it was); a job whose figures cannot
# be written removes the directories it made for them.
. tests/lib/lib.sh
H=tests/replay/data/hogplayer.txt
# nofsize WANT CMD...: CMD under a file-size limit of 0 (directories can
# be made, no byte written), its stderr through a FIFO (which the limit
# does not touch) into $T/err
nofsize() {
	want=$1; shift
	rm -f "$T/errfifo"
	mkfifo "$T/errfifo"
	cat "$T/errfifo" > "$T/err" &
	sh -c 'ulimit -f 0 && exec "$@"' sh "$@" 2>"$T/errfifo" >/dev/null
	got=$?
	wait
	nchecks=$((nchecks + 1))
	[ "$got" -eq "$want" ] || { cat "$T/err" >&2; fail "$*: exit $got, want $want"; }
}
nofsize 74 "$SR" sweep $H --policy stock -o "$T/new/sw" --emit slurm
expect_err "^schedreplay: $T/new/sw/(manifest\\.tsv|jobs\\.txt|sweep\\.sbatch): write failed: File too large$"
nchecks=$((nchecks + 1))
[ ! -e "$T/new" ] || fail "a failed sweep left $(find "$T/new")"
# a directory that was there keeps its previous plan whole
expect_status 0 "$SR" sweep $H --policy stock -o "$T/old" --emit jobs -q
cp "$T/old/jobs.txt" "$T/jobs.before"
cp "$T/old/manifest.tsv" "$T/manifest.before"
nofsize 74 "$SR" sweep $H --policy o11int -o "$T/old" --emit jobs
expect_same "$T/old/jobs.txt" "$T/jobs.before"
expect_same "$T/old/manifest.tsv" "$T/manifest.before"
nchecks=$((nchecks + 1))
[ -z "$(find "$T/old" -name '*.tmp.*')" ] || fail "temporaries left"
# one job: the cell's directories go with the figures it could not write
nofsize 74 "$SR" sweep-job $H "$T/job/root" stock
expect_err "figures\\.tsv: write failed: File too large$"
nchecks=$((nchecks + 1))
[ ! -e "$T/job" ] || fail "a failed job left $(find "$T/job")"
done_ok
