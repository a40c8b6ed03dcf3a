#!/bin/sh
# Streamed output: rows are written as the replay produces them (latency
# rows through a bounded reorder buffer), and the bytes are what the replay
# wrote when it held them.  A long trace made of 16 time-shifted copies of
# the perf fixture (tests/replay/copies.awk, as bench/trace-gen --copies):
#   - its files hash to what the replay wrote before streaming
#     (tests/replay/data/perf-mix-16x.sha256; re-make it only when the
#     replay's results change on purpose, with the binary before that
#     change; when the attribution of waits added waits.tsv and latency.tsv's
#     why and behind_pid, latency.tsv's first six columns kept their hash;
#     re-made
#     for stock and o11int when a task that left its cpu unseen became
#     asleep on its cpu's idle or its wake, docs/replay.md "Missing
#     events": the fixture's tokio-rt-worker threads; waits.tsv's re-made
#     when its rows went out as each wait ends, not in latency.tsv's
#     order: the same rows, sorted alike; stock's and o11int's re-made
#     when the replay took the recording's wake costs and kept a wake
#     that came before its block in the recorded order, docs/replay.md
#     "Calibration"; and again when each wake's cost was drawn from
#     the recorded spread rather than the median);
#   - the same bytes whatever the batch (events between simulator steps);
#   - --memory reports the demand held apart from the rows held, and the
#     latency rows held past 16384 wait in a temporary file, not memory;
#   - diff from the saved replay equals diff straight from the trace (the
#     results in memory are the rows the files hold).
. tests/lib/lib.sh
D=tests/replay/data

gzip -dc "$D/perf-mix.perf.txt.gz" >"$T/mix.txt"
awk -v n=16 -f tests/replay/copies.awk "$T/mix.txt" >"$T/mix16.txt"
nchecks=$((nchecks + 1))
[ "$(grep -c 'sched_switch' "$T/mix16.txt")" -eq \
  $((16 * $(grep -c 'sched_switch' "$T/mix.txt"))) ] || fail "copies.awk: not 16 copies"

expect_status 0 "$SR" replay "$T/mix16.txt" -o "$T/a" -q --memory
expect_err '^held at most: demand [0-9]+ ops \([0-9.]+ MB\) not yet replayed by the slowest policy; [0-9]+ task records$'
for p in stock o11int observed; do
	expect_err "^held at most: $p rows: latency [0-9]+ \(to sort by wake; [0-9]+ in memory\), timeline [0-9]+ \(one instant\)$"
done
# observed keeps a wait open from the end of the first copy on (a task
# preempted there never runs again: its pid is forked anew in the next
# copy), so it holds the rows of 15 copies; at most 16384 in memory, the
# rest in a temporary file, and still the same bytes (below)
nchecks=$((nchecks + 1))
grep '^held at most: observed' "$T/err" | awk '{ sub(/\(to sort by wake; /, ""); exit !($7 > 30000 && $8 <= 16384) }' ||
	fail "observed's latency rows: $(grep '^held at most: observed' "$T/err")"
nchecks=$((nchecks + 1))
(cd "$T/a" && sha256sum -c --quiet -) <"$D/perf-mix-16x.sha256" >"$T/sum" 2>&1 ||
	fail "the 16x replay's bytes changed: $(cat "$T/sum")"

expect_status 0 "$SR" replay "$T/mix16.txt" -o "$T/b" -q --batch 1
expect_same_replay "$T/a" "$T/b" stock o11int observed
expect_status 0 "$SR" replay "$T/mix16.txt" -o "$T/c" -q --batch 1000000
expect_same_replay "$T/a" "$T/c" stock o11int observed

expect_status 0 "$SR" diff "$T/mix16.txt" --tsv --title mix16
cp "$T/out" "$T/fromtrace"
expect_status 0 "$SR" diff "$T/a" --tsv --title mix16
expect_same "$T/out" "$T/fromtrace"

# waits.tsv lists the waits as they end; a saved directory whose waits
# come in another order (by wake time, as before) links each segment to
# its wait all the same, and one that lost a segment is refused
expect_status 0 "$SR" explain "$T/a" --pid 24440 --json
cp "$T/out" "$T/why1"
tab=$(printf '\t')
for p in stock o11int; do
	{ head -n 1 "$T/a/$p/waits.tsv"
	  tail -n +2 "$T/a/$p/waits.tsv" | sort -s -t "$tab" -k1,1n -k2,2n
	} >"$T/w" && mv "$T/w" "$T/a/$p/waits.tsv"
done
nchecks=$((nchecks + 1))
cmp -s "$T/a/stock/waits.tsv" "$T/b/stock/waits.tsv" && fail "waits.tsv: the order did not change"
expect_status 0 "$SR" explain "$T/a" --pid 24440 --json
expect_same "$T/out" "$T/why1"
sed -i '5d' "$T/a/stock/waits.tsv"
expect_status 65 "$SR" explain "$T/a" --pid 24440
expect_err 'stock: the wait of pid [0-9]+ at [0-9]+ ns \([0-9]+ ns\) has [0-9]+ ns of segments in waits.tsv'
done_ok
