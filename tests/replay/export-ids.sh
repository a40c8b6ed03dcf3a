#!/bin/sh
# `schedreplay export`'s ids as Perfetto reads them: pid the process (the
# trace's thread group), tid the thread.  On traces/binary/audio.perf.data.gz
# every task track that perf names is the thread perf's `-F pid,tid` gives
# (tests/replay/data/audio.perf-ids.txt, perf's own output) inside the
# process perf gives, with the policy's range added (policy k: k *
# 10000000, policy 0 the trace's own ids); run slices carry the same pid
# and tid in their args.  -o FILE.json.gz writes the same JSON, gzipped,
# the same bytes every time.
. tests/lib/lib.sh
need python3 python3
IDS=tests/replay/data/audio.perf-ids.txt
P=traces/binary/audio.perf.data.gz
[ -f "$P" ] || fail "no $P"

expect_status 0 "$SR" export "$P" --policy observed --policy stock -q -o "$T/a.json"
expect_status 0 python3 tests/replay/check-trace-event.py "$T/a.json"
expect_status 0 python3 - "$T/a.json" "$IDS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
perf = {}
for line in open(sys.argv[2]):
    tid, pid = map(int, line.split())
    perf[tid] = pid
assert sum(1 for t, p in perf.items() if t != p) == 23, "the ids file"
step = d["otherData"]["pid_step"]
assert step == 10000000
assert d["otherData"]["policies"] == ["observed", "stock"]
threads = {}                     # (k, tid) -> pid, from thread_name
procs = {}
for e in d["traceEvents"]:
    if e["ph"] != "M":
        continue
    if e["name"] == "process_name":
        procs[e["pid"]] = e["args"]["name"]
    if e["name"] != "thread_name" or e["args"]["name"].startswith("CPU "):
        continue
    k = e["pid"] // step
    tid, pid = e["tid"] - k * step, e["pid"] - k * step
    assert e["tid"] // step == k, e
    # the thread's name ends with its own id
    assert e["args"]["name"].endswith(" %d" % tid), e
    threads[(k, tid)] = pid
seen = 0
for (k, tid), pid in threads.items():
    if tid in perf:
        assert perf[tid] == pid, "policy %d: thread %d in process %d, perf: %d" % (k, tid, pid, perf[tid])
        seen += 1
# the threads that are not their process's leader, under both policies
others = [(k, t) for (k, t), p in threads.items() if t in perf and perf[t] != t]
assert len(others) >= 2 * 20, others
for k in (0, 1):
    assert any(p.startswith(("observed: ", "stock: ")[k]) and pid // step == k
               for pid, p in procs.items())
# run slices: args pid/tid the process and thread
runs = [e for e in d["traceEvents"] if e["ph"] == "X" and e.get("cat") == "run"]
bad = [e for e in runs if e["args"]["tid"] in perf and perf[e["args"]["tid"]] != e["args"]["pid"]]
assert runs and not bad, bad[:3]
print(seen, len(others), len(runs))
PY
echo "threads checked, others, runs: $(cat "$T/out")"

# gzip: the same JSON; the same bytes twice (no time in the header)
expect_status 0 "$SR" export "$P" --policy observed --policy stock -o "$T/a.json.gz"
expect_out "^wrote $T/a.json.gz: [0-9]+ events"
nchecks=$((nchecks + 1))
gzip -dc "$T/a.json.gz" | cmp -s - "$T/a.json" || fail "the .gz is not the JSON"
nchecks=$((nchecks + 1))
[ "$(wc -c <"$T/a.json.gz")" -lt "$(($(wc -c <"$T/a.json") / 5))" ] ||
	fail "the .gz is not a fifth of the JSON"
cp "$T/a.json.gz" "$T/b.json.gz"
expect_status 0 "$SR" export "$P" --policy observed --policy stock -q -o "$T/a.json.gz"
expect_same "$T/a.json.gz" "$T/b.json.gz"
# -o -: never compressed; a .gz that cannot be written leaves nothing
expect_status 0 "$SR" export "$P" --policy observed -q -o -
expect_out '^\{"traceEvents":\['
expect_status 74 "$SR" export "$P" --policy observed -q -o "$T/no/such/x.json.gz"
nchecks=$((nchecks + 1))
[ ! -e "$T/no/such/x.json.gz" ] || fail "a failed export left its file"
done_ok
