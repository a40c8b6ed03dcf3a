#!/bin/sh
# schedreplay policies: the command line (the listing itself is checked
# row by row against the policy table by test-policies.c): one entry per
# model with a known confidence, its other names and what is
# reconstructed on indented lines, the same bytes every time; no
# arguments accepted.
. tests/lib/lib.sh

expect_status 0 "$SR" policies
expect_out '^stock +high +Linux 2\.6\.0-test2'
expect_out '^ +also: 2\.6\.0-test2$'
expect_out '^ +reconstructed: activate_task'
bad=$(grep -v '^ ' "$T/out" | awk '$2 != "high" && $2 != "medium" &&
	$2 != "model"' | wc -l)
nchecks=$((nchecks + 1))
[ "$bad" -eq 0 ] || fail "$bad policies without a known confidence"
# same bytes every time
cp "$T/out" "$T/first"
expect_status 0 "$SR" policies
expect_same "$T/first" "$T/out"

expect_status 0 "$SR" policies --help
expect_out '^usage: schedreplay policies'
expect_status 64 "$SR" policies extra
expect_err "unexpected argument 'extra'"
done_ok
