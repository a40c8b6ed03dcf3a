#!/bin/sh
# schedreplay replay on the hand-written scenarios in tests/replay/data/
# (each file says what it shows) under every policy: sane output (one task
# on the cpu, never idle while a task waits, no negative delay, sorted),
# byte-identical reruns whatever the batch size, CPU time kept, no delay
# without contention, a causal chain kept in order, a pending wake kept;
# then the command line's errors.
. tests/lib/lib.sh
D=tests/replay/data
CHK=tests/replay/check-replay.awk
POL="--policy stock --policy test2-mm1 --policy o11int --policy observed"
SIMS="stock test2-mm1 o11int"

# col FILE NAME PID: column NAME of the row of pid PID in a summary.tsv
col() {
	awk -F '\t' -v name="$2" -v pid="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
		NR > 1 && $1 == pid { print $c }' "$1"
}

for s in hogplayer chain nocontend pending; do
	expect_status 0 "$SR" replay "$D/$s.txt" -o "$T/$s" $POL --check
	expect_out "wrote $T/$s/o11int/\{timeline,latency,summary,cpus\}.tsv"
	for p in $SIMS observed; do
		for f in timeline latency summary; do
			nchecks=$((nchecks + 1))
			[ -s "$T/$s/$p/$f.tsv" ] || fail "$s: no $p/$f.tsv"
		done
		one=1
		[ "$p" = observed ] && one=0
		nchecks=$((nchecks + 1))
		awk -f "$CHK" -v kind=timeline -v sim=$one "$T/$s/$p/timeline.tsv" ||
			fail "$s/$p/timeline.tsv"
		nchecks=$((nchecks + 1))
		awk -f "$CHK" -v kind=latency "$T/$s/$p/latency.tsv" ||
			fail "$s/$p/latency.tsv"
	done
	nchecks=$((nchecks + 1))
	[ -z "$(find "$T/$s" -name '*.tmp*')" ] || fail "$s: temporary files left"
	# the same bytes again, and with the input fed one event at a time
	expect_status 0 "$SR" replay "$D/$s.txt" -o "$T/$s.again" $POL --batch 1 -q
	expect_same_replay "$T/$s" "$T/$s.again" $SIMS observed
	# every task's CPU time: the same under every policy as recorded
	for pid in $(awk -F '\t' 'NR > 1 { print $1 }' "$T/$s/observed/summary.tsv"); do
		rec=$(col "$T/$s/observed/summary.tsv" runtime_ms "$pid")
		for p in $SIMS; do
			got=$(col "$T/$s/$p/summary.tsv" runtime_ms "$pid")
			nchecks=$((nchecks + 1))
			awk -v a="$rec" -v b="$got" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1.0) }' ||
				fail "$s: pid $pid runtime $got ms under $p, recorded $rec ms"
		done
	done
done

# no contention, no delay, under every policy
for p in $SIMS; do
	nchecks=$((nchecks + 1))
	awk -F '\t' 'NR > 1 && $3 != 0 { bad = 1 } END { exit bad }' "$T/nocontend/$p/latency.tsv" ||
		fail "nocontend: a delay under $p"
	nchecks=$((nchecks + 1))
	[ "$(awk 'END { print NR }' "$T/nocontend/$p/latency.tsv")" -eq 5 ] ||
		fail "nocontend: expected 4 waits under $p"
done

# the chain a -> b -> c: b's last wake <= b's run after it <= c's last wake
for p in $SIMS; do
	nchecks=$((nchecks + 1))
	awk -F '\t' '
		$2 == 200 && $4 == "wake" { wb = $1; rb = -1 }
		$2 == 200 && $4 == "run" && wb >= 0 && rb < 0 { rb = $1 }
		$2 == 300 && $4 == "wake" { wc = $1; rbc = rb }
		$2 == 100 && $4 == "run" && ra == "" { ra = $1 }
		END { exit !(wb >= ra + 3000000 && rbc >= wb && wc >= rbc + 2000000) }
	' wb=-1 "$T/chain/$p/timeline.tsv" || fail "chain: order broken under $p"
done

# the pending wake: b never sleeps, runs its 7 ms, and is done
for p in $SIMS; do
	nchecks=$((nchecks + 1))
	[ "$(col "$T/pending/$p/summary.tsv" runtime_ms 200)" = "7.000000" ] ||
		fail "pending: b's CPU under $p"
done

# hog and player: the hog keeps its 91 ms under every policy; the recorded
# schedule has no late wakeups (they exist only in a replay)
for p in $SIMS; do
	nchecks=$((nchecks + 1))
	[ "$(col "$T/hogplayer/$p/summary.tsv" runtime_ms 100)" = "91.000000" ] ||
		fail "hogplayer: hog's CPU under $p"
done
nchecks=$((nchecks + 1))
[ "$(col "$T/hogplayer/observed/summary.tsv" late_wakeups 200)" = "0" ] ||
	fail "hogplayer: observed has no late wakeups"

# relative external wakes keep each sleep's length: ping and pong replay
# exactly as recorded
expect_status 0 "$SR" replay "$D/nocontend.txt" -o "$T/rel" --external relative -q
expect_same "$T/nocontend/stock/latency.tsv" "$T/rel/stock/latency.tsv"

# --causal none: every sleep ends when recorded; with no contention the
# chain replays as recorded all the same
expect_status 0 "$SR" replay "$D/chain.txt" -o "$T/none" --causal none -q
expect_same "$T/chain/stock/latency.tsv" "$T/none/stock/latency.tsv"

# the default policies
expect_status 0 "$SR" replay "$D/chain.txt" -o "$T/def"
expect_out "wrote $T/def/stock/"
expect_out "wrote $T/def/o11int/"
expect_out "wrote $T/def/observed/"
nchecks=$((nchecks + 1))
[ ! -e "$T/def/test2-mm1" ] || fail "test2-mm1 is not a default"

# the CPU count: the recording's by default (pending.txt ran tasks on cpus
# 0 and 1), from a file (a first pass) or from a pipe (read to its end
# first): the same bytes; --cpus 1 puts everything on cpu 0
expect_status 0 "$SR" replay "$D/pending.txt" -o "$T/p2" $POL
expect_out '^replayed .* \(native, [0-9]+ events, 2 cpus recorded\) on 2 cpus$'
expect_status 0 sh -c '"$1" replay - -o "$2/p2pipe" $4 <"$3"' sh "$SR" "$T" "$D/pending.txt" "$POL"
expect_out '^replayed - \(native, [0-9]+ events, 2 cpus recorded\) on 2 cpus$'
expect_same_replay "$T/p2" "$T/p2pipe" $SIMS observed
expect_status 0 "$SR" replay "$D/pending.txt" -o "$T/p1" --cpus 1 -q $POL
for p in $SIMS; do
	nchecks=$((nchecks + 1))
	awk -F '\t' 'NR > 1 && $11 != 0 { bad = 1 } END { exit bad }' "$T/p1/$p/timeline.tsv" ||
		fail "--cpus 1: a $p row not on cpu 0"
	nchecks=$((nchecks + 1))
	[ "$(awk 'END { print NR }' "$T/p1/$p/cpus.tsv")" -eq 2 ] || fail "--cpus 1: $p/cpus.tsv"
	nchecks=$((nchecks + 1))
	[ "$(awk 'END { print NR }' "$T/p2/$p/cpus.tsv")" -eq 3 ] || fail "$p/cpus.tsv: not 2 cpus"
done

# errors
expect_status 64 "$SR" replay "$D/chain.txt" -o "$T/x" --cpus 0
expect_err 'cpus: expected an integer from 1 to 1024'
expect_status 64 "$SR" replay "$D/chain.txt" -o "$T/x" --cpus 1025
expect_err 'cpus: expected an integer from 1 to 1024'
expect_status 64 "$SR" replay "$D/chain.txt" -o "$T/x" --cache-decay -1
expect_err 'cache-decay: expected an integer'
expect_status 64 "$SR" replay "$D/chain.txt" -o "$T/x" --policy nosuch
expect_err "unknown policy 'nosuch'"
expect_status 64 "$SR" replay "$D/chain.txt" -o "$T/x" --policy stock --policy 2.6.0-test2
expect_err "given twice"
expect_status 64 "$SR" replay "$D/chain.txt" -o "$T/x" --exclude '(perf'
expect_err "exclude '\(perf'"
expect_status 64 "$SR" replay "$D/chain.txt" -o "$T/x" --causal maybe
expect_err 'expected known, all or none'
expect_status 64 "$SR" replay "$D/chain.txt" -o "$T/x" --external sometimes
expect_err 'expected absolute or relative'
expect_status 64 "$SR" replay "$D/chain.txt" -o "$T/x" --cs-cost 3parsecs
expect_err 'cs-cost'
expect_status 64 "$SR" replay "$D/chain.txt" --frobnicate
expect_err "unknown option '--frobnicate'"
expect_status 64 "$SR" replay
expect_err 'replay: expected a TRACE argument'
expect_status 66 "$SR" replay "$T/does-not-exist.txt" -o "$T/x"
nchecks=$((nchecks + 1))
[ ! -e "$T/x" ] || [ -z "$(find "$T/x" -type f)" ] || fail "files written on error"
expect_status 0 "$SR" replay --help
expect_out 'usage: schedreplay replay'
done_ok
