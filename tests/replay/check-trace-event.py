#!/usr/bin/env python3
"""Check a `schedreplay export` file against the Chrome trace event format
and against the replay it came from.

    check-trace-event.py EXPORT.json [REPLAY_DIR]

The format's rules: one JSON object with a traceEvents array (the first
key, and no displayTimeUnit: Perfetto reads "ns" there as ts's unit); every event
has a phase (ph), a pid and a tid; X has ts and dur >= 0, B has its E on
the same track, C has numeric args; ts never goes back on a track (a
pid/tid's slices, a pid/name's counter); slices on one track nest or are
apart; every pid and tid with events is named by M metadata; each policy
of otherData.policies has its "P: CPUs" process.  Ids: policy k's (k
from 0, otherData.pid_step apart) are k * pid_step + the trace's own:
its task processes pid = k * step + tgid, named "P: COMM", with a thread
tid = k * step + the task's pid; the CPUs process k * step + 9000000,
CPU c its thread + 1 + c.

With REPLAY_DIR (`schedreplay replay -o DIR` of the same trace and
policies): for each simulated policy, the run slices of each pid add up to
its runtime in DIR/P/summary.tsv, and its wait slices to the sum of its
delays in DIR/P/latency.tsv, to the nanosecond.  Prints the event count
per phase.  Exit 1 with the first broken rule.
"""
import collections
import json
import sys


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def ns(us):
    """a ts/dur in microseconds (3 decimals) as integer ns"""
    return int(round(us * 1000))


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("not a JSON object with a traceEvents array")
    # Perfetto's importer: traceEvents first (an older one stops at a key
    # it does not know), no displayTimeUnit (it takes "ns" as ts's unit)
    if list(doc)[0] != "traceEvents":
        fail("traceEvents is not the first key")
    if "displayTimeUnit" in doc:
        fail("displayTimeUnit would change how Perfetto reads ts")
    evs = doc["traceEvents"]
    phases = collections.Counter()
    last_ts = {}
    stacks = collections.defaultdict(list)   # (pid, tid) -> open B / X ends
    named_p, named_t, used_p, used_t = set(), set(), set(), set()
    pnames = {}
    pall = []                                 # (name, pid) of every process
    for i, e in enumerate(evs):
        where = "event %d (%s)" % (i, json.dumps(e)[:120])
        ph = e.get("ph")
        if ph not in ("X", "B", "E", "C", "M", "i", "I"):
            fail(where + ": unknown phase")
        phases[ph] += 1
        for k in ("pid", "tid"):
            if not isinstance(e.get(k), int) or e[k] < 0:
                fail(where + ": %s is not a non-negative integer" % k)
        if not isinstance(e.get("name"), str) or not e["name"]:
            fail(where + ": no name")
        pid, tid = e["pid"], e["tid"]
        if ph == "M":
            if e["name"] in ("process_name", "thread_name"):
                if not isinstance(e.get("args", {}).get("name"), str):
                    fail(where + ": metadata without args.name")
                if e["name"] == "process_name":
                    named_p.add(pid)
                    pnames[e["args"]["name"]] = pid
                    pall.append((e["args"]["name"], pid))
                else:
                    named_t.add((pid, tid))
            continue
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or ts < 0:
            fail(where + ": ts is not a non-negative number")
        ts = ns(ts)  # integers from here: no float rounding in the rules
        used_p.add(pid)
        if ph == "C":
            args = e.get("args")
            if not isinstance(args, dict) or not args or not all(
                    isinstance(v, (int, float)) for v in args.values()):
                fail(where + ": a counter needs numeric args")
            key = ("C", pid, e["name"])
        else:
            used_t.add((pid, tid))
            key = ("T", pid, tid)
        if key in last_ts and ts < last_ts[key]:
            fail(where + ": ts %s goes back on its track (last %s)" % (ts, last_ts[key]))
        last_ts[key] = ts
        if ph == "C":
            continue
        st = stacks[(pid, tid)]
        # slices that ended by now are closed (X ends, checked to nest)
        while st and st[-1][0] == "X" and st[-1][1] <= ts:
            st.pop()
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                fail(where + ": X without a dur >= 0")
            dur = ns(dur)
            if st and st[-1][0] == "X" and ts + dur > st[-1][1]:
                fail(where + ": overlaps the slice before it on its track without nesting")
            st.append(("X", ts + dur))
        elif ph == "B":
            st.append(("B", e["name"]))
        elif ph == "E":
            if not st or st[-1][0] != "B":
                fail(where + ": E without its B")
            st.pop()
    for (pid, tid), st in stacks.items():
        if any(s[0] == "B" for s in st):
            fail("track %d/%d: a B without its E" % (pid, tid))
    for pid in used_p - named_p:
        fail("pid %d has events but no process_name" % pid)
    for pt in used_t - named_t:
        fail("track %d/%d has events but no thread_name" % pt)
    pols = doc.get("otherData", {}).get("policies", [])
    if not pols:
        fail("otherData.policies is empty")
    step = doc.get("otherData", {}).get("pid_step", 0)
    if step != 10000000:
        fail("otherData.pid_step is %r, not 10000000" % step)
    for k, p in enumerate(pols):
        if "%s: CPUs" % p not in pnames:
            fail("no process '%s: CPUs'" % p)
        if pnames["%s: CPUs" % p] != k * step + 9000000:
            fail("%s: CPUs is pid %d" % (p, pnames["%s: CPUs" % p]))
    for name, pid in pall:
        k = pid // step
        if k >= len(pols) or not name.startswith(pols[k] + ": "):
            fail("process %d '%s' is not in policy %d's ids" % (pid, name, k))
    if len(sys.argv) > 2:
        check_replay(evs, pols, pnames, step, sys.argv[2])
    print(" ".join("%s %d" % (k, phases[k]) for k in sorted(phases)))


def check_replay(evs, pols, pnames, step, root):
    for k, p in enumerate(pols):
        if p == "observed":
            continue
        cpus = pnames[p + ": CPUs"]
        run = collections.Counter()
        wait = collections.Counter()
        for e in evs:
            if e["ph"] != "X":
                continue
            if e["pid"] == cpus:
                run[e["args"]["tid"]] += ns(e["dur"])
            elif e["pid"] // step == k and e["cat"] == "wait":
                wait[e["tid"] - k * step] += ns(e["dur"])
        want_run = collections.Counter()
        with open("%s/%s/summary.tsv" % (root, p), encoding="utf-8") as f:
            head = f.readline().rstrip("\n").split("\t")
            for line in f:
                row = dict(zip(head, line.rstrip("\n").split("\t")))
                ms, _, frac = row["runtime_ms"].partition(".")
                want_run[int(row["pid"])] += int(ms) * 1000000 + int(frac.ljust(6, "0"))
        want_wait = collections.Counter()
        with open("%s/%s/latency.tsv" % (root, p), encoding="utf-8") as f:
            head = f.readline().rstrip("\n").split("\t")
            for line in f:
                row = dict(zip(head, line.rstrip("\n").split("\t")))
                want_wait[int(row["pid"])] += int(row["delay_ns"])
        for pid in set(want_run) | set(run):
            if run[pid] != want_run[pid]:
                fail("%s: pid %d ran %d ns in the export, %d in summary.tsv"
                     % (p, pid, run[pid], want_run[pid]))
        for pid in set(want_wait) | set(wait):
            if wait[pid] != want_wait[pid]:
                fail("%s: pid %d waited %d ns in the export, %d in latency.tsv"
                     % (p, pid, wait[pid], want_wait[pid]))


main()
