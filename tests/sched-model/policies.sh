#!/bin/sh
# schedreplay policies: one line per model, names and aliases; no
# arguments accepted.
. tests/lib/lib.sh

expect_status 0 "$SR" policies
expect_out '^stock +2\.6\.0-test2 +Linux 2\.6\.0-test2'
expect_out '^test2-mm1 +2\.6\.0-test2-mm1 +'
expect_out '^o11int +2\.6\.0-test2-mm1-O11int +'
n=$(wc -l <"$T/out")
nchecks=$((nchecks + 1))
[ "$n" -eq 3 ] || fail "policies printed $n lines, want 3"
# same bytes every time
cp "$T/out" "$T/first"
expect_status 0 "$SR" policies
expect_same "$T/first" "$T/out"

expect_status 0 "$SR" policies --help
expect_out '^usage: schedreplay policies'
expect_status 64 "$SR" policies extra
expect_err "unexpected argument 'extra'"
done_ok
