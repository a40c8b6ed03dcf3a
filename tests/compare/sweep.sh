#!/bin/sh
# sweep: a grid of replays on GNU parallel and in this process, the same
# table both ways and byte for byte on a rerun; the figures agree with
# diff's; resuming redoes only what is missing; a failed job is reported
# with its command line; --emit writes jobs.txt and sweep.sbatch, whose
# lines run by hand and --collect give the same table; a heat map; errors.
. tests/lib/lib.sh
need parallel parallel
H=tests/replay/data/hogplayer.txt
M=tests/replay/data/perf-mix.perf.txt.gz

# 2 traces x (o11int x 2 values + cfs, which has no MAX_SLEEP_AVG) = 6
expect_status 0 "$SR" sweep "$H" "$M" --policy o11int --policy cfs \
	--set MAX_SLEEP_AVG=500,1020 --set STARVATION_LIMIT=2000 -o "$T/p" -j 2
expect_out "wrote $T/p/results.tsv and results.json \(6 cells in 2 jobs\)"
expect_status 0 "$SR" sweep "$H" "$M" --policy o11int --policy cfs \
	--set MAX_SLEEP_AVG=500,1020 --set STARVATION_LIMIT=2000 -o "$T/s" \
	--sequential -q
expect_same "$T/p/results.tsv" "$T/s/results.tsv"
expect_same "$T/p/results.json" "$T/s/results.json"
nchecks=$((nchecks + 1))
[ "$(awk -F '\t' 'NR > 1 && $6 == "ok"' "$T/p/results.tsv" | wc -l)" -eq 6 ] ||
	fail "expected 6 cells ok"
expect_status 0 cut -f 2-5 "$T/p/results.tsv"
expect_out '^hogplayer\.txt	o11int	o11int:MAX_SLEEP_AVG=500,STARVATION_LIMIT=2000	500$'
expect_out '^hogplayer\.txt	o11int	o11int:MAX_SLEEP_AVG=1020,STARVATION_LIMIT=2000	1020$'
expect_out '^hogplayer\.txt	cfs	cfs	-$'
expect_out '^perf-mix\.perf\.txt\.gz	cfs	cfs	-$'

# the figures are diff's: deadlines met and batch completion
expect_status 0 "$SR" sweep "$H" --policy stock --policy o11int -o "$T/h" -q
expect_status 0 "$SR" diff "$H" --policy stock --policy o11int --json
a=$(awk -F '\t' '$3 == "stock" { print $10, $11 }' "$T/h/results.tsv")
b=$(awk -F '\t' '$3 == "o11int" { print $10, $11 }' "$T/h/results.tsv")
expect_out '"batch_done_a_s": 0\.091000000'
expect_out '"batch_done_b_s": 0\.098000000'
expect_out '"deadlines_met_pct": 11\.111'
expect_out '"deadlines_met_pct": 44\.444'
nchecks=$((nchecks + 1))
[ "$a" = "11.11 1" ] && [ "$b" = "44.44 1" ] || fail "deadlines: '$a' '$b'"
expect_status 0 awk -F '\t' '{ print $3, $12 }' "$T/h/results.tsv"
expect_out '^stock 0\.091$'
expect_out '^o11int 0\.098$'

# resume: a cell without figures is redone, the others are kept
cell="$T/s/jobs/t2-perf-mix.perf.txt.gz/o11int:MAX_SLEEP_AVG=500,STARVATION_LIMIT=2000"
rm "$cell/figures.tsv"
expect_status 0 "$SR" sweep "$H" "$M" --policy o11int --policy cfs \
	--set MAX_SLEEP_AVG=500,1020 --set STARVATION_LIMIT=2000 -o "$T/s" \
	--sequential
expect_out '^job 1/2: t1-hogplayer\.txt, 3 policies \(done before\)$'
expect_out '^job 2/2: t2-perf-mix\.perf\.txt\.gz, 3 policies$'
expect_same "$T/p/results.tsv" "$T/s/results.tsv"
nchecks=$((nchecks + 1))
[ -s "$cell/figures.tsv" ] || fail "the cell was not redone"

# --cpus: in every job's command line; one CPU is not the recording's two
expect_status 0 "$SR" sweep "$M" --policy o11int --cpus 1 -o "$T/c1" \
	--sequential -q
expect_status 0 grep -c ' sweep-job --chunk 1 --cpus 1 ' "$T/c1/jobs.txt"
expect_status 0 "$SR" sweep "$M" --policy o11int -o "$T/c2" --sequential -q
nchecks=$((nchecks + 1))
! cmp -s "$T/c1/results.tsv" "$T/c2/results.tsv" ||
	fail "--cpus 1 gave the table of the recording's 2 CPUs"

# a job that fails: named with its command line; its cells say failed
printf 'not a trace\n' >"$T/bad.txt"
expect_status 65 "$SR" sweep "$H" "$T/bad.txt" --policy stock -o "$T/f" -j 2
expect_err "sweep: job 2 \(t2-bad\.txt under stock, \.\.\.\) failed or did not run: '.*schedreplay' sweep-job --chunk 2 '.*bad\.txt' "
expect_err 'sweep: 1 of 2 cells have no figures'
expect_status 0 awk -F '\t' '{ print $2, $5 }' "$T/f/results.tsv"
expect_out '^hogplayer\.txt ok$'
expect_out '^bad\.txt failed$'
expect_status 0 grep -c '"status": "failed"' "$T/f/results.json"
expect_out '^1$'

# --emit slurm: the plan and the array job; run its lines, then collect
expect_status 0 "$SR" sweep "$H" "$M" --policy o11int --policy cfs \
	--set MAX_SLEEP_AVG=500,1020 --set STARVATION_LIMIT=2000 -o "$T/e" \
	--emit slurm
expect_out "wrote $T/e/jobs.txt \(2 jobs, 6 cells\) and sweep\.sbatch"
expect_status 0 grep -c . "$T/e/jobs.txt"
expect_out '^2$'
expect_status 0 cat "$T/e/sweep.sbatch"
expect_out '^#SBATCH --array=1-2$'
expect_out '^line=\$\(sed -n "\$\{SLURM_ARRAY_TASK_ID\}p" "\$jobs"\)$'
# what a task asks for: the estimate of the biggest job, perf-mix's 3 cells
# (12900 events: its lines of sched: events, zcat M | grep -c ' sched:'),
# under both floors (test-sweep-slurm works the rule out)
expect_out "^# --time and --mem: the sweep's estimate for its biggest job, 12900 events\$"
expect_out '^# and 3 cells '
expect_out '^#SBATCH --time=5$'
expect_out '^#SBATCH --mem=256M$'
# the job's directory, its output and error per task; the binary, named
# on a line of its own to edit, runs the task's line of jobs.txt
expect_out "^#SBATCH --chdir=\"$T/e\"\$"
expect_out "^#SBATCH --output=\"$T/e/slurm-%A_%a\\.out\"\$"
expect_out "^#SBATCH --error=\"$T/e/slurm-%A_%a\\.err\"\$"
expect_out "^schedreplay='.*/schedreplay'\$"
expect_out '^exec "\$schedreplay" "\$@"$'
nchecks=$((nchecks + 1))
[ ! -e "$T/e/results.tsv" ] || fail "--emit ran the jobs"
expect_status 0 sh -c "SLURM_ARRAY_TASK_ID=2 sh '$T/e/sweep.sbatch' && SLURM_ARRAY_TASK_ID=1 sh '$T/e/sweep.sbatch'"
expect_status 0 "$SR" sweep --collect -o "$T/e"
expect_same "$T/p/results.tsv" "$T/e/results.tsv"
# the binary the script names is the one it runs: another one there
# (here, a wrapper that says so) runs every task
printf '#!/bin/sh\necho "wrapper: $1 $2 $3" >>"%s/wrapped"\nexec "%s" "$@"\n' \
	"$T" "$SR" >"$T/wrapper"
chmod +x "$T/wrapper"
rm "$T/e/jobs/t1-hogplayer.txt/cfs/figures.tsv"
sed "s|^schedreplay=.*|schedreplay='$T/wrapper'|" "$T/e/sweep.sbatch" \
	>"$T/e/wrapped.sbatch"
expect_status 0 env SLURM_ARRAY_TASK_ID=1 sh "$T/e/wrapped.sbatch"
expect_status 0 cat "$T/wrapped"
expect_out '^wrapper: sweep-job --chunk 1$'
expect_status 0 "$SR" sweep --collect -o "$T/e"
expect_same "$T/p/results.tsv" "$T/e/results.tsv"
# a task past jobs.txt's end says so
expect_status 66 env SLURM_ARRAY_TASK_ID=3 sh "$T/e/sweep.sbatch"
expect_err 'no line 3 in .*/jobs\.txt'

# --collect --emit slurm: the array of the jobs with cells left, and only
# those; nothing to write when none is left
rm "$T/e/jobs/t2-perf-mix.perf.txt.gz/cfs/figures.tsv"
expect_status 65 "$SR" sweep --collect --emit slurm -o "$T/e"
expect_out "^wrote $T/e/sweep\\.sbatch: the 1 job with cells to run \\(2\\); submit it: sbatch $T/e/sweep\\.sbatch\$"
expect_err 'sweep: 1 of 6 cells have no figures \(sweep\.sbatch now runs only their jobs\)'
expect_status 0 grep '^#SBATCH --array=' "$T/e/sweep.sbatch"
expect_out '^#SBATCH --array=2$'
expect_status 0 env SLURM_ARRAY_TASK_ID=2 sh "$T/e/sweep.sbatch"
expect_status 0 "$SR" sweep --collect --emit slurm -o "$T/e"
expect_out '^every cell has its figures: nothing to run$'
expect_same "$T/p/results.tsv" "$T/e/results.tsv"
expect_status 64 "$SR" sweep --collect --emit jobs -o "$T/e"
expect_err 'sweep --collect: --emit slurm only'
expect_status 64 "$SR" sweep --collect "$H" -o "$T/e"
expect_err 'sweep --collect: the grid is DIR.s manifest: no TRACE'

# paths as the user gives them, links kept: from a directory reached
# through a link, jobs.txt names the files by the link (the machines that
# run the jobs may see them only so); with a $PWD that is not the working
# directory, by the physical path
mkdir "$T/real"
ln -s "$T/real" "$T/link"
cp "$H" "$T/real/"
expect_status 0 sh -c 'cd "$1" && "$2" sweep hogplayer.txt --policy stock \
	-o out --emit jobs -q' sh "$T/link" "$SR"
expect_status 0 cat "$T/real/out/jobs.txt"
expect_out " sweep-job --chunk 1 '$T/link/hogplayer\.txt' '$T/link/out/jobs/t1-hogplayer\.txt' 'stock'\$"
expect_status 0 sh -c 'cd "$1" && PWD=/ "$2" sweep ./hogplayer.txt \
	--policy stock -o ./out2 --emit jobs -q' sh "$T/link" "$SR"
expect_status 0 cat "$T/real/out2/jobs.txt"
expect_out " sweep-job --chunk 1 '$T/real/hogplayer\.txt' '$T/real/out2/jobs/t1-hogplayer\.txt' 'stock'\$"

# a heat map over two knobs
if command -v gnuplot >/dev/null 2>&1; then
	expect_status 0 "$SR" sweep "$H" --policy o11int \
		--set MAX_SLEEP_AVG=500,1020 --set TIMESLICE_GRANULARITY=10,25 \
		-o "$T/m" -q --heatmap MAX_SLEEP_AVG,TIMESLICE_GRANULARITY,deadlines_met_pct
	nchecks=$((nchecks + 1))
	[ -s "$T/m/heatmap-t1-hogplayer.txt-o11int-deadlines_met_pct.png" ] ||
		fail "no heat map"
	expect_status 0 grep -c . "$T/m/heatmap-t1-hogplayer.txt-o11int-deadlines_met_pct.dat"
	expect_out '^5$'
fi

expect_status 64 "$SR" sweep "$H" --set FOO=1,2 -o "$T/x"
expect_err 'no policy has a knob FOO'
expect_status 64 "$SR" sweep "$H" --set MAX_SLEEP_AVG=1,x -o "$T/x"
expect_err 'expected NAME=VALUE or NAME=V1,V2'
expect_status 64 "$SR" sweep "$H" --policy o11int --set MAX_SLEEP_AVG=0,1 -o "$T/x"
expect_err "o11int's MAX_SLEEP_AVG takes an integer from 1 to 1000000"
expect_status 64 "$SR" sweep "$H"
expect_err 'sweep: -o DIR is needed'
expect_status 66 "$SR" sweep "$T/nosuch" -o "$T/x"
expect_err 'nosuch: cannot open'
expect_status 64 "$SR" sweep "$H" --policy o11int --set MAX_SLEEP_AVG=500,1020 \
	-o "$T/x2" -q --sequential --heatmap MAX_SLEEP_AVG,FOO
expect_err 'expected two different knobs the sweep varies'
expect_status 66 "$SR" sweep --collect -o "$T/nothing"
expect_err 'manifest\.tsv: cannot open'
expect_status 69 env PATH=/nonexistent "$SR" sweep "$H" --policy stock -o "$T/y"
expect_err 'cannot run GNU parallel'
done_ok
