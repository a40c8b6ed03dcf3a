#!/bin/sh
# sweep on a real Slurm cluster (one node: munged, slurmctld and slurmd
# started here, tests/lib/cluster.sh): `sbatch DIR/sweep.sbatch`, then
# `sweep --collect`, gives --sequential's table byte for byte
#  - from a directory whose name has a space, '#', quotes, '$' and '%j'
#    (quoted for sh and for Slurm's own #SBATCH and file name rules), the
#    job's directory, time limit and memory as sweep.sbatch asks;
#  - with the two array tasks running at once, proven: each one's trace is
#    a FIFO fed only once both tasks have started;
#  - with one task killed (scancel) and the failed job alone resubmitted
#    (`--collect --emit slurm` writes the array of the unfinished jobs):
#    only that task runs, the finished cells' figures are not rewritten;
#  - on a node that sees the files under another path than the submitting
#    host's physical one (slurmd in a mount namespace of its own, where the
#    sweep's directory is a bind mount at the user's path and the physical
#    directory is hidden): the jobs run by the user's path.
. tests/lib/lib.sh
. tests/lib/cluster.sh
cluster_need
need unshare util-linux
H=tests/replay/data/hogplayer.txt
M=tests/replay/data/perf-mix.perf.txt.gz

# the node's view: $T/view/sw, a symlink to $T/phys here, is on the node a
# bind mount of $T/phys, and $T/phys is hidden under an empty tmpfs
mkdir "$T/phys" "$T/view"
ln -s "$T/phys" "$T/view/sw"
cp "$H" "$M" "$T/phys/"
CL_NODE_SETUP="mount -t tmpfs -o mode=755 sr-view '$T/view' &&
	mkdir '$T/view/sw' && mount --bind '$T/phys' '$T/view/sw' &&
	mount -t tmpfs -o mode=700 sr-hide '$T/phys'"
cluster_start
echo "cluster started in $CL_START_S s"
slurmd_pid=$(cat "$CL/run/slurmd.pid")
nchecks=$((nchecks + 2))
nsenter -t "$slurmd_pid" -m test -f "$T/view/sw/hogplayer.txt" ||
	fail "the node does not see $T/view/sw"
! nsenter -t "$slurmd_pid" -m test -e "$T/phys/hogplayer.txt" ||
	fail "the node sees $T/phys"

# the reference: 2 traces x 2 policies = 4 cells in 2 jobs
expect_status 0 "$SR" sweep "$H" "$M" --policy stock --policy o11int \
	-o "$T/ref" --sequential -q

# 1. as a user would, from a directory with an awkward name
D="$T/a b#c'd\"e\$f%j"
expect_status 0 "$SR" sweep "$H" "$M" --policy stock --policy o11int \
	-o "$D" --emit slurm
expect_status 0 grep -c '^#SBATCH --array=1-2$' "$D/sweep.sbatch"
submit "$D/sweep.sbatch"
job_wait "$JOB"
expect_status 0 cat "$T/states"
expect_out '^1 COMPLETED 0:0$'
expect_out '^2 COMPLETED 0:0$'
# what Slurm made of the script's options: the directory (as given, in
# quotes), per task stdout and stderr, the estimate's time and memory
expect_status 0 scontrol show job -o "${JOB}_1"
expect_out " WorkDir=$(printf '%s' "$D" | sed 's/[]$.*[\\^]/\\&/g') "
expect_out " TimeLimit=00:05:00 "
expect_out " MinMemoryNode=[0-9]+M "
nchecks=$((nchecks + 1))
[ -f "$D/slurm-${JOB}_1.out" ] && [ -f "$D/slurm-${JOB}_2.err" ] ||
	fail "no slurm-${JOB}_1.out or slurm-${JOB}_2.err in $D"
expect_status 0 "$SR" sweep --collect -o "$D"
expect_same "$T/ref/results.tsv" "$D/results.tsv"
expect_same "$T/ref/results.json" "$D/results.json"

# feed NAME: the FIFO $T/in/NAME gets the trace (the writer waits for a
# reader; stopped at the end if none came)
feed() {
	cat "$T/orig/$1" >"$T/in/$1" &
	CL_PIDS="$! $CL_PIDS"
}
# fifos NAME...: the traces in $T/in replaced by FIFOs, the files kept
fifos() {
	for f in "$@"; do
		mv "$T/in/$f" "$T/orig/$f"
		mkfifo "$T/in/$f"
	done
}
mkdir "$T/in" "$T/orig"
cp "$H" "$M" "$T/in/"
I1=$T/in/hogplayer.txt
I2=$T/in/perf-mix.perf.txt.gz

# 2. two tasks at once: neither can end before its FIFO is fed, and both
# are fed once both have started (each task's stdout is made when it starts)
expect_status 0 "$SR" sweep "$I1" "$I2" --policy stock --policy o11int \
	-o "$T/b" --emit slurm -q
fifos hogplayer.txt perf-mix.perf.txt.gz
submit "$T/b/sweep.sbatch"
wait_for 30 "both tasks to start" test -f "$T/b/slurm-${JOB}_1.out" -a \
	-f "$T/b/slurm-${JOB}_2.out"
feed hogplayer.txt
feed perf-mix.perf.txt.gz
job_wait "$JOB"
expect_status 0 cat "$T/states"
expect_out '^1 COMPLETED 0:0$'
expect_out '^2 COMPLETED 0:0$'
expect_status 0 "$SR" sweep --collect -o "$T/b" -q
expect_same "$T/ref/results.tsv" "$T/b/results.tsv"

# 3. task 2 killed while it runs; collect says so; the failed job alone
# resubmitted; the same table, job 1's figures untouched
for f in hogplayer.txt perf-mix.perf.txt.gz; do
	rm "$T/in/$f"
	cp "$T/orig/$f" "$T/in/$f"
done
expect_status 0 "$SR" sweep "$I1" "$I2" --policy stock --policy o11int \
	-o "$T/c" --emit slurm -q
fifos perf-mix.perf.txt.gz
submit "$T/c/sweep.sbatch"
first=$JOB
wait_for 30 "task 2 to start" test -f "$T/c/slurm-${JOB}_2.out"
expect_status 0 scancel "${JOB}_2"
job_wait "$JOB"
expect_status 0 cat "$T/states"
expect_out '^1 COMPLETED 0:0$'
expect_out '^2 CANCELLED '
expect_status 65 "$SR" sweep --collect -o "$T/c"
expect_err "job 2 \(t2-perf-mix\.perf\.txt\.gz under stock, \.\.\.\) failed or did not run"
expect_err '2 of 4 cells have no figures'
expect_status 0 cut -f 2,5 "$T/c/results.tsv"
expect_out '^hogplayer\.txt	ok$'
expect_out '^perf-mix\.perf\.txt\.gz	failed$'
ls -l --time-style=+%s.%N "$T/c/jobs/t1-hogplayer.txt/"*/figures.tsv \
	>"$T/before"
rm "$T/in/perf-mix.perf.txt.gz"
cp "$T/orig/perf-mix.perf.txt.gz" "$T/in/"
expect_status 65 "$SR" sweep --collect --emit slurm -o "$T/c"
expect_out "wrote $T/c/sweep\.sbatch: the 1 job with cells to run \(2\)"
expect_status 0 grep -c '^#SBATCH --array=2$' "$T/c/sweep.sbatch"
submit "$T/c/sweep.sbatch"
job_wait "$JOB"
expect_status 0 cat "$T/states"
expect_out '^2 COMPLETED 0:0$'
nchecks=$((nchecks + 2))
[ "$(wc -l <"$T/states")" -eq 1 ] || fail "the rerun ran $(cat "$T/states")"
[ ! -e "$T/c/slurm-${JOB}_1.out" ] || fail "the rerun ran job 1"
ls -l --time-style=+%s.%N "$T/c/jobs/t1-hogplayer.txt/"*/figures.tsv \
	>"$T/after"
expect_same "$T/before" "$T/after"
expect_status 0 "$SR" sweep --collect -o "$T/c" -q
expect_same "$T/ref/results.tsv" "$T/c/results.tsv"
expect_status 0 "$SR" sweep --collect --emit slurm -o "$T/c"
expect_out 'every cell has its figures: nothing to run'

# 4. the node sees the files under another path: the plan names them by
# the user's path (through the symlink), not by this host's physical one
expect_status 0 sh -c 'cd "$1" && "$2" sweep hogplayer.txt \
	perf-mix.perf.txt.gz --policy stock --policy o11int -o out \
	--emit slurm -q' sh "$T/view/sw" "$SR"
submit "$T/view/sw/out/sweep.sbatch"
job_wait "$JOB"
expect_status 0 cat "$T/states"
expect_out '^1 COMPLETED 0:0$'
expect_out '^2 COMPLETED 0:0$'
expect_status 0 grep -c "sweep-job --chunk 2 '$T/view/sw/perf-mix\.perf\.txt\.gz' '$T/view/sw/out/jobs/t2-perf-mix\.perf\.txt\.gz' " "$T/phys/out/jobs.txt"
expect_status 0 "$SR" sweep --collect -o "$T/view/sw/out" -q
expect_same "$T/ref/results.tsv" "$T/phys/out/results.tsv"
done_ok
