#!/bin/sh
# schedreplay policies: one entry per model: name, confidence and summary
# on its first line, its other names and what is reconstructed on
# indented lines; no arguments accepted.
. tests/lib/lib.sh

expect_status 0 "$SR" policies
expect_out '^stock +high +Linux 2\.6\.0-test2'
expect_out '^ +also: 2\.6\.0-test2$'
expect_out '^test2-mm1 +high +2\.6\.0-test2-mm1'
expect_out '^o11int +high +test2-mm1 \+ O11int'
expect_out '^o11\.1 +high +O11int with expiry to the tail'
expect_out '^o11\.2 +high +O11\.1 without the credit exemption'
expect_out '^g3 +high +Ingo Molnar.s G3'
expect_out '^a3 +medium +Ingo Molnar.s A3'
expect_out '^ +reconstructed: activate_task'
expect_out '^iso +medium +O11int \+ SCHED_ISO'
expect_out '^2\.4 +high +Linux 2\.4\.22: goodness'
expect_out '^cfs +model +Linux 2\.6\.23.s CFS'
expect_out '^eevdf +model +Linux 6\.6.s EEVDF'
# every policy once, every first line with a known confidence
names=$(grep -v '^ ' "$T/out" | awk '{print $1}' | sort | tr '\n' ' ')
want=$(printf '%s\n' stock test2-mm1 o11int o11.1 o11.2 g3 a3 iso 2.4 cfs eevdf eevdf-6.18 |
	sort |
	tr '\n' ' ')
nchecks=$((nchecks + 1))
[ "$names" = "$want" ] || fail "policies lists '$names', want '$want'"
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
