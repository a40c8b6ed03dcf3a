#!/bin/sh
# R8 (round 3): jobs.txt named the job directories relative to where
# `sweep` ran (docs/sweep.md says absolute): a job run from elsewhere wrote
# its figures elsewhere and --collect reported every cell failed.  Now
# every path in jobs.txt, manifest.tsv and sweep.sbatch is absolute.
. tests/lib/lib.sh
H=$(pwd)/tests/replay/data/hogplayer.txt
mkdir -p "$T/here" "$T/elsewhere"
(cd "$T/here" && "$SR" sweep "$H" --policy stock --policy o11int \
	-o rel/sw --emit slurm -q) || fail "sweep --emit slurm failed"
# every quoted word of a job line that names a path starts with /
expect_status 0 cat "$T/here/rel/sw/jobs.txt"
expect_out "^'[^']*' sweep-job --chunk 1 '$H' '$T/here/rel/sw/jobs/t1-hogplayer\\.txt' 'stock' 'o11int'$"
expect_status 0 cut -f 7 "$T/here/rel/sw/manifest.tsv"
expect_out "^$T/here/rel/sw/jobs/t1-hogplayer\\.txt$"
expect_status 0 cat "$T/here/rel/sw/sweep.sbatch"
expect_out "^jobs='$T/here/rel/sw'/jobs\\.txt$"
# the job line run from another directory writes where the plan says
(cd "$T/elsewhere" && sh "$T/here/rel/sw/jobs.txt") || fail "the job failed"
nchecks=$((nchecks + 1))
[ ! -e "$T/elsewhere/rel" ] || fail "the job wrote under the directory it ran from"
expect_status 0 "$SR" sweep --collect -o "$T/here/rel/sw"
expect_status 0 awk -F '\t' 'NR > 1 { print $3, $5 }' "$T/here/rel/sw/results.tsv"
expect_out '^stock ok$'
expect_out '^o11int ok$'
done_ok
