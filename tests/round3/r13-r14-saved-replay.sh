#!/bin/sh
# R13 (round 3, crash): diff, explain, plot and report on a replay
# directory whose observed/ lacked a file or was empty died of SIGSEGV:
# the check of observed/ was handed no diagnostics and read its error code
# through NULL.  Now an observed/ that is there must be whole: 66, naming
# the missing file.
# R14 (round 3, sanitizer): an out-of-range timestamp in a saved
# latency.tsv overflowed run_ns - wake_ns (signed overflow; the release
# build said 65 about the delay).  Now every time column of a saved file
# is checked to be 0 or more (the readers' range) before any arithmetic,
# and the segments of a wait are summed with an overflow check.
. tests/lib/lib.sh
H=tests/replay/data/hogplayer.txt
expect_status 0 "$SR" replay "$H" -o "$T/r" -q

# R13: observed/ without latency.tsv, then empty
fresh() { rm -rf "$T/c"; cp -r "$T/r" "$T/c"; }
for broken in latency.tsv all; do
	fresh
	if [ $broken = all ]; then
		rm "$T/c/observed/"*
		msg="$T/c/observed/summary.tsv: missing: expected the replay's summary.tsv for policy 'observed'"
	else
		rm "$T/c/observed/$broken"
		msg="$T/c/observed/$broken: missing: expected the replay's $broken for policy 'observed'"
	fi
	expect_status 66 "$SR" diff "$T/c"
	expect_err "^schedreplay: $msg$"
	expect_status 66 "$SR" explain "$T/c" --task hog
	expect_err "^schedreplay: $msg$"
	expect_status 66 "$SR" plot "$T/c" -o "$T/p" --gnuplot /nonexistent
	expect_err "^schedreplay: $msg$"
	expect_status 66 "$SR" report "$T/c" -o "$T/q" --gnuplot /nonexistent
	expect_err "^schedreplay: $msg$"
	nchecks=$((nchecks + 1))
	[ ! -e "$T/p" ] && [ ! -e "$T/q" ] || fail "a refused plot or report made its directory"
done
# a directory without observed/ at all is fine: the policies given
fresh
rm -r "$T/c/observed"
expect_status 0 "$SR" diff "$T/c" --policy stock --policy o11int

# R14: a time out of range in each saved file's time columns
fresh
awk -F '\t' -v OFS='\t' 'NR == 3 { $1 = "-9223372036854775807"; $2 = "9223372036854775807" } 1' \
	"$T/r/stock/latency.tsv" > "$T/c/stock/latency.tsv"
expect_status 65 "$SR" diff "$T/c"
expect_err "^schedreplay: $T/c/stock/latency\\.tsv:3: expected a time in ns \\(0 or more\\) in column wake_ns, got -9223372036854775807$"
fresh
awk -F '\t' -v OFS='\t' 'NR == 2 { $1 = -5 } 1' "$T/r/stock/waits.tsv" > "$T/c/stock/waits.tsv"
expect_status 65 "$SR" explain "$T/c" --task player
expect_err "^schedreplay: $T/c/stock/waits\\.tsv:2: expected a time in ns \\(0 or more\\) in column wake_ns, got -5$"
fresh
awk -F '\t' -v OFS='\t' 'NR == 2 { $1 = -1 } 1' "$T/r/stock/timeline.tsv" > "$T/c/stock/timeline.tsv"
expect_status 65 "$SR" diff "$T/c"
expect_err "^schedreplay: $T/c/stock/timeline\\.tsv:2: expected a time in ns \\(0 or more\\) in column time_ns, got -1$"
# a wait's segments whose lengths overflow when added: refused, not wrapped
fresh
{
	head -n 1 "$T/r/stock/waits.tsv"
	# 50 ms, then (overlapping) 2^63 - 1 - 10000001 ns: past 2^63
	printf '10000000\t200\tplayer\t10000000\t60000000\tno-preempt\t100\thog\t125\t0\t-\n'
	printf '10000000\t200\tplayer\t10000001\t9223372036854775807\tno-preempt\t100\thog\t125\t0\t-\n'
	sed 1,2d "$T/r/stock/waits.tsv"
} > "$T/c/stock/waits.tsv"
expect_status 65 "$SR" explain "$T/c" --task player
expect_err "^schedreplay: stock: the wait of pid 200 at 10000000 ns \\(81000000 ns\\) has 9223372036854775807 ns of segments in waits\\.tsv$"
done_ok
