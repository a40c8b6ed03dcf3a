#!/bin/sh
# roundtrip: convert's native output replays exactly as the trace it came
# from: every bundled sample, our own real recording, and the recordings
# of other projects in ../shared/traces-real when present, every policy's
# files byte for byte.  The native lines carry what the reader knew of
# each wake (by=PID, guessed, irq, ...), so --causal known decides the
# same on both.  The repository's traces must convert; of the shared
# extra, only a trace `stats` rejects as bad data may fail to convert, and
# with the same status.
. tests/lib/lib.sh
n=0
set -- traces/*.perf.txt.gz tests/parse/data/real/*.gz
for f in "$@"; do
	[ -f "$f" ] || fail "$f: a trace of the repository is missing"
done
for f in "$REAL"/*/*; do
	case $f in *.md) ;; *) [ -f "$f" ] && set -- "$@" "$f" ;; esac
done
for f in "$@"; do
	case $f in
	"$REAL"/*)
		"$SR" convert "$f" -o "$T/n.native" 2>/dev/null
		got=$?
		if [ $got -ne 0 ]; then
			# a trace the reader refuses (trappy's cut-short
			# record) has no replay: stats must refuse it alike
			expect_status $got "$SR" stats "$f"
			nchecks=$((nchecks + 1))
			[ $got -eq 65 ] || fail "$f: convert exit $got, want 0 or 65"
			continue
		fi
		;;
	*)	expect_status 0 "$SR" convert "$f" -o "$T/n.native" ;;
	esac
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
echo "$n traces"
done_ok
