#!/bin/sh
# --tree: only the process tree of the first task whose comm matches.  In
# tests/compare/data/tree.native a shell (10) forks a job (11, exec'd from
# "shell") that forks a worker (12); a daemon (50) and its child (51) are
# unrelated.  Everything is replayed; only the tree is shown.  The trace
# is read once; a saved replay directory gives the same focus.
. tests/lib/lib.sh
N=tests/compare/data/tree.native

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
# a saved replay holds the trace's tasks (tasks.tsv, seen.tsv): --tree
# works on it and gives what the trace gives
expect_status 0 "$SR" replay "$N" -o "$T/rep"
for tree in '^job$' '^shell$' '^daemon$'; do
	expect_status 0 "$SR" diff "$N" --tsv --tree "$tree"
	cp "$T/out" "$T/fromtrace"
	expect_status 0 "$SR" diff "$T/rep" --tsv --tree "$tree"
	expect_same "$T/out" "$T/fromtrace"
done
expect_status 0 "$SR" diff "$T/rep" --tree '^shell$' --title tree.native
cp "$T/out" "$T/fromdir"
expect_status 0 "$SR" diff "$N" --tree '^shell$'
expect_same "$T/out" "$T/fromdir"
expect_status 64 "$SR" diff "$T/rep" --tree '^nosuch$'
expect_err 'no task of .*rep has a comm matching'
# tests/compare/data/rename.native: the launcher (20) forks 21, then
# renames itself worker without an exec.  The root is found by the name
# the events showed first, from the trace and from a saved replay alike
# (seen.tsv keeps the names as seen; tasks.tsv only the last).
R=tests/compare/data/rename.native
expect_status 0 "$SR" diff "$R" --tsv --tree '^launcher$'
nchecks=$((nchecks + 1)); [ "$(pids)" = "20 21 " ] || fail "--tree launcher: $(pids)"
cp "$T/out" "$T/fromtrace"
expect_status 0 "$SR" replay "$R" -o "$T/ren"
expect_status 0 "$SR" diff "$T/ren" --tsv --tree '^launcher$'
expect_same "$T/out" "$T/fromtrace"
expect_status 0 "$SR" diff "$T/ren" --tsv --tree '^daemon$'
nchecks=$((nchecks + 1)); [ "$(pids)" = "50 " ] || fail "--tree daemon: $(pids)"
# a directory written before tasks.tsv existed: a clear message, 66
rm "$T/rep/tasks.tsv"
expect_status 66 "$SR" diff "$T/rep" --tree '^job$'
expect_err 'tasks.tsv: missing: .*replay the trace again'
# without --tree the directory still does
expect_status 0 "$SR" diff "$T/rep" --tsv
done_ok
