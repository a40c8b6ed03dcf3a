#!/bin/sh
# roundtrip: convert's native output replays exactly as the trace it came
# from (issue 10 item 6): every bundled sample and every real trace (read
# in place; skipped when absent), every policy's files byte for byte.  The
# native lines carry what the reader knew of each wake (by=PID, guessed,
# irq, ...), so --causal known decides the same on both.
. tests/lib/lib.sh
n=0
for f in traces/*.perf.txt.gz "$REAL"/*/*; do
	[ -f "$f" ] || continue
	case $f in *.md) continue ;; esac
	# a trace the reader refuses (trappy's cut-short record) has no replay
	"$SR" convert "$f" -o "$T/n.native" 2>/dev/null || continue
	rm -rf "$T/a" "$T/b"
	expect_status 0 "$SR" replay "$f" -o "$T/a" -q --policy stock --policy o11int --policy observed
	expect_status 0 "$SR" replay "$T/n.native" -o "$T/b" -q --policy stock --policy o11int --policy observed
	for p in stock o11int observed; do
		for k in timeline latency summary; do
			expect_same "$T/a/$p/$k.tsv" "$T/b/$p/$k.tsv"
		done
	done
	n=$((n + 1))
done
[ $n -gt 0 ] || skip "no traces to convert"
echo "$n traces"
done_ok
