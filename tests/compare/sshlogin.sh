#!/bin/sh
# sweep across hosts with GNU parallel: `--emit jobs`, then jobs.txt run by
# `parallel --sshlogin` on this machine and on a second host (sshd in
# network, mount and UTS namespaces of its own, over a veth pair:
# tests/lib/cluster.sh), one job on each, then `sweep --collect`: the table
# of --sequential, byte for byte.
. tests/lib/lib.sh
. tests/lib/cluster.sh
need parallel parallel
host_need
H=tests/replay/data/hogplayer.txt
M=tests/replay/data/perf-mix.perf.txt.gz

mkdir "$CL"
host_start
expect_status 0 $HOST_SSH "$HOST_LOGIN" hostname
expect_out '^sr-host2$'

# 2 traces x 2 policies = 4 cells in 2 jobs, against --sequential's;
# given by relative paths: jobs.txt names them from anywhere (the other
# host runs its job from its login's home)
mkdir "$T/in"
cp "$H" "$M" "$T/in/"
expect_status 0 sh -c 'cd "$1" && "$2" sweep in/hogplayer.txt \
	in/perf-mix.perf.txt.gz --policy stock --policy o11int -o p \
	--emit jobs -q' sh "$T" "$SR"
expect_status 0 "$SR" sweep "$T/in/hogplayer.txt" \
	"$T/in/perf-mix.perf.txt.gz" --policy stock --policy o11int \
	-o "$T/ref" --sequential -q
# one job slot here (:) and one there; the lines are quoted for sh
expect_status 0 env PARALLEL_SHELL=/bin/sh parallel --will-cite \
	--ssh "$HOST_SSH" -S "1/:,1/$HOST_LOGIN" --joblog "$T/p/joblog.tsv" \
	<"$T/p/jobs.txt"
# the job log's Host column: a job ran on each
expect_status 0 awk -F '\t' 'NR > 1 { print $2, $7 }' "$T/p/joblog.tsv"
expect_out '^: 0$'
expect_out "^$HOST_LOGIN 0\$"
expect_status 0 grep -c 'Accepted publickey for root' "$CL/sshd.log"
expect_status 0 "$SR" sweep --collect -o "$T/p" -q
expect_same "$T/ref/results.tsv" "$T/p/results.tsv"
expect_same "$T/ref/results.json" "$T/p/results.json"
done_ok
