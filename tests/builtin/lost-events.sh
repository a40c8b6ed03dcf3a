#!/bin/sh
# A real perf.data that lost 11.6 % of its events (tests/builtin/data/lost,
# recorded on a loaded machine with a two-page buffer): every command reads
# it and says the loss in its headline, in the same words, with the figures
# perf itself gives of the same file; the tasks the loss touched are marked.
# perf record writes the loss twice (the kernel's LOST records as they
# happen, its own LOST_SAMPLES count of time 0 after the data): counted
# once, and either alone gives the same total.
. tests/lib/lib.sh
need gnuplot gnuplot-nox
D=tests/builtin/data/lost
gzip -dc "$D/lost.perf.data.gz" >"$T/lost.perf.data" || fail "gunzip"
P=$T/lost.perf.data

# The expected sentence, from perf's own output (the data's README):
# lost and chunks from perf sched latency's "INFO: ...% lost events (LOST
# out of ..., in CHUNKS chunks)"; the events kept from perf report --stats
# (its SAMPLE records); the share lost / (kept + lost), one decimal; per
# cpu the LOST records' counts summed by the cpu perf report -D prints
# first on each line.
lost=$(sed -n 's/.*lost events (\([0-9]*\) out of .*/\1/p' "$D/perf-sched-latency.txt")
chunks=$(sed -n 's/.*lost events (.* in \([0-9]*\) chunks).*/\1/p' "$D/perf-sched-latency.txt")
kept=$(awk '$1 == "SAMPLE" && $2 == "events:" && NF == 4 { print $3; exit }' "$D/perf-report-stats.txt")
percpu=$(awk '/PERF_RECORD_LOST: / { split($NF, a, ":"); n[$1] += a[2] }
	END { for (c = 0; c in n; c++) printf "%scpu %d %d", c ? ", " : "", c, n[c] }' \
	"$D/perf-report-D-lost.txt")
share=$(awk -v l="$lost" -v k="$kept" 'BEGIN { printf "%.1f", 100 * l / (k + l) }')
all=$((kept + lost))
[ "$lost" = 1093 ] && [ "$chunks" = 36 ] && [ "$kept" = 8302 ] &&
	[ "$percpu" = "cpu 0 417, cpu 1 676" ] || fail "references: $lost $chunks $kept $percpu"
# perf's own closing warning says the same share of the same total
nchecks=$((nchecks + 1))
grep -q "Processed $all samples and lost $share" "$D/perf-sched-latency.txt" ||
	fail "perf's 'Processed N samples and lost X%' is not $all, $share"
sentence="the recording lost $lost events ($share % of $all) in $chunks chunks: $percpu"

# said: the sentence somewhere in FILE, its wrapped lines joined
said() {
	nchecks=$((nchecks + 1))
	tr '\n' ' ' <"$2" | sed 's/   */ /g' | grep -qF -- "$1" || {
		sed 's/^/    /' "$2" | head -n 12 >&2
		fail "${3:-output}: does not say '$1'"
	}
}

# stats: where perf sched latency says its INFO line
expect_status 0 "$SR" stats "$P"
said "INFO: $sentence" "$T/out" stats
expect_err "$lost events lost in $chunks range\\(s\\) on 2 cpu\\(s\\)"
expect_status 0 "$SR" stats --json "$P"
python3 - "$T/out" "$lost" "$kept" "$chunks" <<'EOF' || fail "stats --json lost_events"
import json, sys
l = json.load(open(sys.argv[1]))["lost_events"]
assert (l["lost"], l["kept"], l["chunks"]) == tuple(map(int, sys.argv[2:5])), l
assert [(c["cpu"], c["lost"]) for c in l["cpus"]] == [(0, 417), (1, 676)], l
EOF
nchecks=$((nchecks + 1))

# replay: the headline, DIR/lost.tsv, and the marks: the tasks counted as
# marked are observed's rows with lost=1
expect_status 0 "$SR" replay -q -o "$T/r" "$P"
expect_status 0 "$SR" replay -o "$T/r" "$P"
marked=$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$(c["lost"]) == 1 { n++ } END { print n + 0 }' "$T/r/observed/summary.tsv")
nchecks=$((nchecks + 1))
[ "$marked" -gt 0 ] || fail "no task marked lost in observed/summary.tsv"
said "$sentence; $marked tasks it touched are marked !" "$T/out" replay
nchecks=$((nchecks + 1))
printf 'what\tvalue\nlost\t%s\nkept\t%s\nchunks\t%s\nuncounted\t0\ntally_only\t0\nmarked\t%s\ncpu 0\t417\ncpu 1\t676\n' \
	"$lost" "$kept" "$chunks" "$marked" | cmp -s - "$T/r/lost.tsv" ||
	fail "lost.tsv: $(cat "$T/r/lost.tsv")"

# diff, of the trace and of the saved replay: the same headline; the
# marked tasks carry '!' in the table, lost=1 in TSV and JSON
for src in "$P" "$T/r"; do
	expect_status 0 "$SR" diff --all "$src"
	said "$sentence; $marked tasks it touched are marked !" "$T/out" "diff $src"
	expect_out '^[^ ].* \([0-9]+\) !  '
done
expect_status 0 "$SR" diff --tsv "$P"
nchecks=$((nchecks + 1))
awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$(c["lost"]) == 1 { n[$3] = 1 } END { for (p in n) k++; exit !(k > 0) }' "$T/out" ||
	fail "diff --tsv: no row with lost=1"
expect_status 0 "$SR" diff --json "$P"
python3 - "$T/out" "$lost" <<'EOF' || fail "diff --json lost_events"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["lost_events"]["lost"] == int(sys.argv[2]), j["lost_events"]
assert any(t["lost"] for t in j["tasks"])
EOF
nchecks=$((nchecks + 1))

# explain, report, export, plot
expect_status 0 "$SR" explain --task sleeper "$P"
said "$sentence" "$T/out" explain
expect_out '^schedreplay explain: .*sleeper \([0-9]+\)'
expect_status 0 "$SR" report -o "$T/rep" "$P"
said "Lost events:</b> $sentence" "$T/rep/index.html" report
expect_status 0 "$SR" export -o "$T/e.json" "$P"
said "$sentence" "$T/out" export
python3 - "$T/e.json" "$lost" <<'EOF' || fail "export otherData.lost_events"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["otherData"]["lost_events"]["lost"] == int(sys.argv[2])
EOF
nchecks=$((nchecks + 1))
# plot: read after a perf.data, its images are whole (the reader once
# closed fd 0 on its way out, and the next file opened took its place)
expect_status 0 "$SR" plot -o "$T/p" "$P" </dev/null
said "$sentence" "$T/out" plot
nchecks=$((nchecks + 1))
grep -qF "the recording lost $lost events ($share %)" "$T/p/summary.gp" ||
	fail "summary.gp: its title does not say the loss"
for i in "$T"/p/*.png; do
	nchecks=$((nchecks + 1))
	[ -s "$i" ] || fail "$i: empty"
done

# Only perf record's closing count (the kernel's LOST records taken out):
# the same total, per cpu by each LOST_SAMPLES record's id (perf report -D
# lists the cpu of each id), and when is not known
python3 traces/bintool.py perf-strip "$P" "$T/tally.perf.data" --drop 2 ||
	fail "bintool --drop 2"
tallycpu=$(awk '/\.\.\. id: / { cpu[$3] = $7 }
	/PERF_RECORD_LOST_SAMPLES/ { split($6, a, ":"); c = $NF; sub(/^:/, "", c)
		n[cpu[a[2]]] += c; t += c }
	END { printf "%d: cpu 0 %d, cpu 1 %d", t, n[0], n[1] }' "$D/perf-report-D-lost.txt")
nchecks=$((nchecks + 1))
[ "$tallycpu" = "$lost: $percpu" ] || fail "the tally by perf report -D: $tallycpu"
expect_status 0 "$SR" diff "$T/tally.perf.data"
said "the recording lost $lost events ($share % of $all) by its closing count (when, unknown): $percpu" \
	"$T/out" "diff, tally only"

# A LOST_SAMPLES record perf marks as a BPF filter's (misc bit 15,
# PERF_RECORD_MISC_LOST_SAMPLES_BPF: dropped on purpose) is not a loss:
# the first closing record (id 2658, cpu 0, 88 samples in perf report -D)
# so marked leaves 1005, cpu 0 329.
python3 - "$T/tally.perf.data" "$T/bpf.perf.data" <<'EOF' || fail "marking a BPF record"
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
do, dsz = struct.unpack_from('<QQ', d, 40)
pos = do
while pos < do + dsz:
    typ, misc, size = struct.unpack_from('<IHH', d, pos)
    if typ == 13:
        assert struct.unpack_from('<Q', d, pos + 8)[0] == 88
        struct.pack_into('<H', d, pos + 4, misc | 0x8000)
        break
    pos += size
open(sys.argv[2], 'wb').write(d)
EOF
nchecks=$((nchecks + 1))
grep -q 'id:2658: lost samples :88$' "$D/perf-report-D-lost.txt" &&
	grep -q 'id: 2658  idx: 0  cpu: 0 ' "$D/perf-report-D-lost.txt" || fail "id 2658"
expect_status 0 "$SR" stats "$T/bpf.perf.data"
said "INFO: the recording lost 1005 events" "$T/out" "a BPF-filtered count"
said "cpu 0 329, cpu 1 676" "$T/out" "a BPF-filtered count"

# A replay directory's lost.tsv read back strictly
cp -r "$T/r" "$T/rbad"
sed -i 's/^chunks\t36$/chunks\t3x6/' "$T/rbad/lost.tsv"
expect_status 65 "$SR" diff "$T/rbad"
expect_err "rbad/lost.tsv:4: expected 'lost', 'kept', .*, got 'chunks.3x6'"

# The native format keeps both: converted, read back, the same sentence
expect_status 0 "$SR" convert -o "$T/l.native" "$P"
expect_status 0 "$SR" stats "$T/l.native"
said "INFO: $sentence" "$T/out" "stats of the native copy"
expect_status 0 "$SR" convert -o "$T/t.native" "$T/tally.perf.data"
nchecks=$((nchecks + 1))
grep -c ' lost count=[0-9]* tally$' "$T/t.native" | grep -qx 2 ||
	fail "t.native: expected a tally line per cpu"
expect_status 0 "$SR" stats "$T/t.native"
said "by its closing count (when, unknown): $percpu" "$T/out" "native tally"

# perf script text: a LOST_SAMPLES line of time 0 is perf record's closing
# count (as it would print it: perf 6.1 does not), not an event at the
# trace's start.  The sample text has one LOST record of 22 events on cpu
# 0; a count of 50 says 28 more, of no known cpu; one of 10, nothing more.
txt=tests/parse/data/bin/lost.perf.txt
nchecks=$((nchecks + 1))
grep -c 'PERF_RECORD_LOST lost 22$' "$txt" | grep -qx 1 || fail "$txt: one LOST of 22"
for n in 50 10; do
	{ cat "$txt"
	  echo "            :-1    -1 [000]     0.000000000: PERF_RECORD_LOST_SAMPLES lost $n"; } >"$T/t$n.txt"
	expect_status 0 "$SR" stats "$T/t$n.txt"
done
expect_status 0 "$SR" diff "$T/t50.txt"
said "lost 50 events (" "$T/out" "text, tally 50"
said "in 1 chunk and 28 more by its closing count (when, unknown): cpu unknown 28, cpu 0 22" "$T/out" "text, tally 50"
expect_status 0 "$SR" diff "$T/t10.txt"
said "lost 22 events (" "$T/out" "text, tally 10"
said "in 1 chunk: cpu 0 22" "$T/out" "text, tally 10"
done_ok
