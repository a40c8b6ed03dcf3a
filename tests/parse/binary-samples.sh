# binary-samples: the recordings of traces/binary, each a perf.data and a
# trace.dat of the same run (traces/record.sh --binary): stats --tsv on the
# perf.data equals stats --tsv on its perf script text byte for byte, and
# on the trace.dat equals stats --tsv on the text trace-cmd report prints
# of it (trace-cmd is a test dependency: deps.sh).  perf's own figures for
# the same perf.data are checked in tests/replay/perf-agreement.sh.
. tests/lib/lib.sh
need trace-cmd trace-cmd
n=0
for pd in traces/binary/*.perf.data.gz; do
	[ -f "$pd" ] || continue
	name=${pd%.perf.data.gz}
	expect_status 0 "$SR" stats --tsv "$pd"
	cp "$T/out" "$T/bin.tsv"
	expect_status 0 "$SR" stats --tsv "$name.perf.txt.gz"
	expect_same "$T/bin.tsv" "$T/out"
	[ "$(wc -l < "$T/bin.tsv")" -gt 100 ] || fail "$pd: too few tasks"
	n=$((n + 1))
done
for td in traces/binary/*.trace.dat traces/binary/*.trace.dat.gz; do
	[ -f "$td" ] || continue
	expect_status 0 "$SR" stats --tsv "$td"
	cp "$T/out" "$T/bin.tsv"
	gzip -dcf "$td" > "$T/t.dat"
	trace-cmd report -t -i "$T/t.dat" > "$T/t.txt" 2>/dev/null ||
		fail "trace-cmd report $td failed"
	expect_status 0 "$SR" stats --tsv "$T/t.txt"
	expect_same "$T/bin.tsv" "$T/out"
	n=$((n + 1))
done
[ "$n" -ge 8 ] || fail "expected a perf.data and a trace.dat of each of the four samples in traces/binary, got $n files"
done_ok
