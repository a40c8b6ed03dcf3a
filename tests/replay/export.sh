#!/bin/sh
# `schedreplay export`: the Chrome JSON trace of each policy's schedule.
# On the small fixtures and on the bundled mixed sample it must pass the
# format's rules (tests/replay/check-trace-event.py: valid JSON, X with a
# dur, every B with its E, ts never back on a track, slices nested or
# apart, every track named) and agree with `replay` of the same trace to
# the nanosecond (each simulated task's runs add up to its runtime in
# summary.tsv, its waits to its delays in latency.tsv); the bytes must not
# depend on --batch or on reading a file or a pipe; -o - is stdout; a bad
# policy, an output or a temporary file that cannot be written fails
# cleanly.
. tests/lib/lib.sh
need python3 python3
CHK=tests/replay/check-trace-event.py
SIMS=$("$SR" policies | awk '/^[^ ]/ { print $1 }')
POL="--policy observed"
for p in $SIMS; do POL="$POL --policy $p"; done

set -- tests/compare/data/hogplayer.native tests/replay/data/hogplayer.txt \
	tests/replay/data/chain.txt tests/replay/data/perf-mix.perf.txt.gz
[ -f traces/mixed.perf.txt.gz ] && set -- "$@" traces/mixed.perf.txt.gz
n=0
for f in "$@"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	expect_status 0 "$SR" export "$f" $POL -o "$T/$n.json"
	expect_out "^wrote $T/$n.json: [0-9]+ events \\(X [0-9]+, C [0-9]+, M [0-9]+\\)\$"
	# shellcheck disable=SC2086
	expect_status 0 "$SR" replay "$f" $POL -q -o "$T/$n.replay"
	expect_status 0 python3 "$CHK" "$T/$n.json" "$T/$n.replay"
	expect_out '^C [0-9]+ M [0-9]+ X [0-9]+$'
	echo "$f: $(cat "$T/out")"
	for p in observed $SIMS; do
		nchecks=$((nchecks + 1))
		grep -q "\"name\":\"$p: CPUs\"" "$T/$n.json" ||
			fail "$f: no process for $p"
	done
done

# the bytes: --batch, a pipe, -o -, the default policies
f=tests/replay/data/perf-mix.perf.txt.gz
expect_status 0 "$SR" export "$f" -q -o "$T/a.json"
for b in 1 3 1000000; do
	expect_status 0 "$SR" export "$f" -q --batch $b -o "$T/b.json"
	expect_same "$T/a.json" "$T/b.json"
done
expect_status 0 "$SR" export "$f" -o -
cp "$T/out" "$T/stdout.json"
expect_same "$T/a.json" "$T/stdout.json"
expect_status 0 sh -c "\"$SR\" export - -q <\"$f\""
sed 's/"trace":"-"/"trace":"'"$(echo "$f" | sed 's/[\/&]/\\&/g')"'"/' "$T/out" >"$T/pipe.json"
expect_same "$T/a.json" "$T/pipe.json"
expect_status 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["otherData"]["policies"] == ["stock", "o11int", "observed"], d["otherData"]
names = [e["args"]["name"] for e in d["traceEvents"] if e["name"] == "process_name"]
# a CPUs process per policy, then its processes (one per thread group)
assert [n for n in names if n.endswith(": CPUs")] == [p + ": CPUs" for p in ("stock", "o11int", "observed")], names
for p in ("stock", "o11int", "observed"):
    assert sum(1 for n in names if n.startswith(p + ": ")) > 10, (p, names)
runs = [e for e in d["traceEvents"] if e["ph"] == "X" and e.get("cat") == "run"]
assert runs and all({"pid", "tid", "prio", "end"} <= set(e["args"]) for e in runs)
assert any("sleep_avg" in e["args"] for e in runs)
' "$T/a.json"
expect_status 0 python3 -m json.tool "$T/a.json"

# one policy; errors
expect_status 0 "$SR" export "$f" --policy observed -q -o "$T/obs.json"
nchecks=$((nchecks + 1))
! grep -q '"stock: CPUs"' "$T/obs.json" || fail "--policy observed exported stock"
expect_status 64 "$SR" export "$f" --policy nosuch -o "$T/x.json"
expect_err "unknown policy 'nosuch'"
nchecks=$((nchecks + 1))
[ ! -e "$T/x.json" ] || fail "a failed export left its file"
expect_status 74 "$SR" export "$f" -q -o "$T/no/such/dir/x.json"
expect_status 74 env TMPDIR="$T/none" "$SR" export "$f" -o "$T/y.json"
expect_err "^schedreplay: export: $T/none: cannot create a temporary file there: "
nchecks=$((nchecks + 1))
[ ! -e "$T/y.json" ] || fail "a failed export left its file"
expect_status 66 "$SR" export "$T/missing.gz" -o "$T/y.json"
nchecks=$((nchecks + 1))
[ ! -e "$T/y.json" ] || fail "a failed export left its file"
done_ok
