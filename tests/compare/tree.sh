#!/bin/sh
# --tree: only the process tree of the first task whose comm matches.  In
# tests/compare/data/tree.native a shell (10) forks a job (11, exec'd from
# "shell") that forks a worker (12); a daemon (50) and its child (51) are
# unrelated.  Everything is replayed; only the tree is shown.
. tests/lib/lib.sh
N=tests/compare/data/tree.native

"$SR" help | grep -q '^  replay ' || skip "no replay command in this build"
pids() { cut -f3 "$T/out" | tail -n +2 | sort -n | tr '\n' ' '; }

expect_status 0 "$SR" diff "$N" --tsv
nchecks=$((nchecks + 1)); [ "$(pids)" = "10 11 12 50 51 " ] || fail "all: $(pids)"
expect_status 0 "$SR" diff "$N" --tsv --tree '^job$'
nchecks=$((nchecks + 1)); [ "$(pids)" = "11 12 " ] || fail "--tree job: $(pids)"
expect_status 0 "$SR" diff "$N" --tsv --tree '^daemon$'
nchecks=$((nchecks + 1)); [ "$(pids)" = "50 51 " ] || fail "--tree daemon: $(pids)"
expect_status 0 "$SR" diff "$N" --tree '^shell$'
expect_out "only the process tree of the first task matching '\^shell\\$' \(4 tasks\)"
expect_status 0 "$SR" diff "$N" --tree '^shell$' --json
expect_out '"tree": "\^shell\$"'
# the focus does not change what was replayed: the job's figures are the same
expect_status 0 "$SR" diff "$N" --tsv --task '^job$'
cp "$T/out" "$T/task"
expect_status 0 "$SR" diff "$N" --tsv --tree '^job$'
expect_same "$T/out" "$T/task"
expect_status 64 "$SR" diff "$N" --tree '^nosuch$'
expect_err 'no task of .* has a comm matching'
expect_status 64 "$SR" diff "$N" --tree '('
# ancestry is in the trace: a replay directory is not enough
expect_status 0 "$SR" replay "$N" -o "$T/rep"
expect_status 64 "$SR" diff "$T/rep" --tree '^job$'
expect_err '--tree needs the trace file'
done_ok
