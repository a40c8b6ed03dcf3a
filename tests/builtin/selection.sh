#!/bin/sh
# --pid, --start, --end on every command that reads a trace, and --task on
# stats, on the perf fixture (two processes both named fuzz-ftrace, pids
# 18748 and 19114; the trace starts at 6373.966049332):
#   - a window narrows the figures, not the replay: the figures of two
#     windows that split the trace add up to the whole trace's;
#   - @SECONDS (the trace's clock) and seconds from its start agree;
#   - --pid tells the two fuzz-ftrace apart in stats, replay, diff, report
#     and export; replay's and export's rows stay in the window;
#   - bad times, an empty window, an unknown pid and a window on a replay
#     directory are refused (64).
. tests/lib/lib.sh
need python3 python3
F=tests/replay/data/perf-mix.perf.txt.gz
START=6373.966049332

# ---- stats ----------------------------------------------------------------
sums() { awk -F '\t' '$1 != "pid" { r += $3; s += $4; w += $5 } END { printf "%.6f %d %d\n", r, s, w }' "$@"; }
expect_status 0 "$SR" stats "$F" --tsv
sums "$T/out" >"$T/whole"
expect_status 0 "$SR" stats "$F" --tsv --end 1.2
cp "$T/out" "$T/early"
expect_status 0 "$SR" stats "$F" --tsv --start 1200ms
cp "$T/out" "$T/late"
sums "$T/early" "$T/late" >"$T/split"
expect_same "$T/whole" "$T/split"
nchecks=$((nchecks + 1))
[ "$(wc -l <"$T/early")" -gt 10 ] && [ "$(wc -l <"$T/late")" -gt 10 ] ||
	fail "the two windows: $(wc -l <"$T/early") and $(wc -l <"$T/late") rows"
# the same window on the trace's clock
expect_status 0 "$SR" stats "$F" --tsv --start "@6375.166049332"
expect_same "$T/out" "$T/late"
expect_status 0 "$SR" stats "$F" --tsv --start 0.5 --end "@6375.466049332"
cp "$T/out" "$T/mixed"
expect_status 0 "$SR" stats "$F" --tsv --start 500ms --end 1.5
expect_same "$T/out" "$T/mixed"

# --pid tells the two fuzz-ftrace apart; --task matches both
expect_status 0 "$SR" stats "$F" --tsv --task '^fuzz-ftrace$'
nchecks=$((nchecks + 1))
[ "$(cut -f1,2 "$T/out" | tail -n +2 | tr '\t\n' ' ;')" = "18748 fuzz-ftrace;19114 fuzz-ftrace;" ] ||
	fail "stats --task: $(cut -f1,2 "$T/out")"
expect_status 0 "$SR" stats "$F" --tsv --pid 19114
nchecks=$((nchecks + 1))
[ "$(cut -f1,2,4 "$T/out" | tail -n +2)" = "$(printf '19114\tfuzz-ftrace\t5')" ] ||
	fail "stats --pid 19114: $(cat "$T/out")"
expect_status 0 "$SR" stats "$F" --json --pid 18748 --pid 19114,18748
expect_out '"pid": 18748'
expect_out '"pid": 19114'
expect_status 0 "$SR" stats "$F" --pid 18748 --task '^sh$' --tsv
nchecks=$((nchecks + 1))
[ "$(wc -l <"$T/out")" -eq 1 ] || fail "--pid and --task: both must match"

# ---- errors ---------------------------------------------------------------
expect_status 64 "$SR" stats "$F" --start soon
expect_err "--start: expected seconds from the trace start \(2\.5, or with a unit: 2500ms\) or @SECONDS"
expect_status 64 "$SR" stats "$F" --start 2 --end 1
expect_err "--end 1 s is not after --start 2 s"
expect_status 64 "$SR" stats "$F" --start 100
expect_err "the window holds none of the trace, which runs from @6373\.966049 to @6377\.117649 on its clock \(3\.152 s long\)"
expect_status 64 "$SR" stats "$F" --end "@6000"
expect_err "the window holds none of the trace"
expect_status 64 "$SR" stats "$F" --pid 999999
expect_err "--pid: no task with this pid in"
expect_status 64 "$SR" stats "$F" --pid 12x
expect_err "--pid: expected an integer"
expect_status 64 "$SR" diff "$F" --pid 999999
expect_err "--pid 999999: no task has this pid in the trace"

# ---- replay: the selected rows, in the window ----------------------------
expect_status 0 "$SR" replay "$F" --pid 18748 --start 0.5 --end 1.5 -o "$T/r" -q
for p in stock o11int observed; do
	nchecks=$((nchecks + 1))
	[ "$(tail -n +2 "$T/r/$p/summary.tsv" | cut -f1 | sort -u)" = 18748 ] ||
		fail "replay --pid: $p/summary.tsv has $(cut -f1 "$T/r/$p/summary.tsv")"
	nchecks=$((nchecks + 1))
	awk -F '\t' -v lo=6374466049332 -v hi=6375466049332 '
		NR > 1 && ($2 != 18748 || $1 < lo || $1 >= hi) { bad++ }
		END { exit bad > 0 || NR < 2 }' "$T/r/$p/timeline.tsv" ||
		fail "replay: $p/timeline.tsv rows outside the pid or the window"
	nchecks=$((nchecks + 1))
	awk -F '\t' -v lo=6374466049332 -v hi=6375466049332 '
		NR > 1 && ($4 != 18748 || $1 < lo || $1 >= hi) { bad++ }
		END { exit bad > 0 }' "$T/r/$p/latency.tsv" ||
		fail "replay: $p/latency.tsv rows outside the pid or the window"
	# a window's counts the whole replay would need: unknown
	nchecks=$((nchecks + 1))
	[ "$(tail -n 1 "$T/r/$p/summary.tsv" | cut -f16,19)" = "$(printf -- '-\t-')" ] ||
		fail "replay: $p expired/migrations in a window: $(tail -n 1 "$T/r/$p/summary.tsv")"
done
# the window's waits are the whole replay's that began in it
expect_status 0 "$SR" replay "$F" --pid 18748 -o "$T/w" -q
nchecks=$((nchecks + 1))
awk -F '\t' 'NR > 1 && $1 >= 6374466049332 && $1 < 6375466049332' "$T/w/stock/latency.tsv" >"$T/lat-all"
tail -n +2 "$T/r/stock/latency.tsv" >"$T/lat-win"
cmp -s "$T/lat-all" "$T/lat-win" || fail "replay: the window's latency rows differ from the whole replay's"

# ---- diff and report: one of the two fuzz-ftrace -------------------------
expect_status 0 "$SR" diff "$F" --pid 19114 --tsv
nchecks=$((nchecks + 1))
[ "$(cut -f3,4 "$T/out" | tail -n +2)" = "$(printf '19114\tfuzz-ftrace')" ] ||
	fail "diff --pid: $(cut -f3,4 "$T/out")"
expect_status 0 "$SR" diff "$F" --pid 18748 --start 0.5 --end 1.5
expect_out "^only pid 18748; from 0\.5 s after the trace start to 1\.5 s after the trace start; replayed"
expect_out '^fuzz-ftrace \(18748\)'
expect_status 0 "$SR" diff "$F" --pid 18748 --start 0.5 --end 1.5 --json
expect_out '"selection": "pid 18748; from 0\.5 s after the trace start to 1\.5 s after the trace start"'
expect_status 69 "$SR" report "$F" --pid 18748,19114 -o "$T/rep" --gnuplot /nonexistent/gnuplot
expect_status 0 python3 -c '
import json, re, sys
s = open(sys.argv[1]).read()
d = json.loads(re.search(r"<script type=\"application/json\" id=\"sr-data\">(.*?)</script>", s, re.S).group(1))
assert sorted(t[0] for t in d["tasks"]) == [18748, 19114], [t[0] for t in d["tasks"]]
assert "only pids 18748, 19114." in s
' "$T/rep/index.html"
# a replay directory: --pid yes, a window no
expect_status 0 "$SR" diff "$T/w" --pid 18748 --tsv
expect_status 64 "$SR" diff "$T/w" --start 1
expect_err "--start and --end need the trace file, not the replay directory"

# ---- plot: the window is the time axis -------------------------------------
expect_status 69 "$SR" plot "$F" --start 0.5 --end 1.5 -o "$T/p" --gnuplot /nonexistent/gnuplot
nchecks=$((nchecks + 1))
awk '!/^#/ && NF == 2 && $1 != "NaN" && ($1 < 0.5 || $1 > 1.5) { bad++ } END { exit bad > 0 }' \
	"$T/p/priority.dat" "$T/p/delay-time.dat" || fail "plot: points outside the window"
nchecks=$((nchecks + 1))
grep -q '^set xrange \[0\.500000:1\.500000\]' "$T/p/priority.gp" || fail "plot: the window is not the x range"

# ---- export: the selected tracks, cut to the window ------------------------
expect_status 0 "$SR" export "$F" --pid 18748 --start 0.5 --end 1.5 -o "$T/e.json" -q
expect_status 0 python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
ev = j["traceEvents"]
xs = [e for e in ev if e["ph"] == "X"]
assert xs, "no slices"
for e in xs:
    # a wait on the track of the thread (policy k: k * 10000000 + its pid), a run in its args
    assert (e["tid"] % 10000000 if e["cat"] == "wait" else e["args"]["tid"]) == 18748, e
    assert 500000 <= e["ts"] and e["ts"] + e["dur"] <= 1500000.001, e
cs = [e for e in ev if e["ph"] == "C"]
assert cs and all(500000 <= e["ts"] < 1500000 for e in cs), cs[:3]
assert all(e["name"].endswith(" 18748") for e in cs), cs[:3]
' "$T/e.json"
expect_status 64 "$SR" export "$F" --start 30 -o "$T/e2.json"
expect_err "the window holds none of the trace"
nchecks=$((nchecks + 1))
[ ! -e "$T/e2.json" ] || fail "export: a refused window left a file"

done_ok
