# binary: perf.data and trace.dat read directly.
#
# stats --tsv on each binary fixture (tests/parse/data/bin) equals stats
# --tsv on the text perf script / trace-cmd report printed of it, byte for
# byte; gzip and standard input work like the file; and bad binary input
# (truncated header, attrs past the file, a record past the data section,
# unknown sample_type bits, garbage tracing data, compressed perf.data, a
# trace.dat cut in the middle of a page, a corrupt page, an unknown file
# version) exits 65 with FILE:OFFSET and what was expected.
. tests/lib/lib.sh
B=tests/parse/data/bin

tsv() { # tsv FILE OUT: stats --tsv FILE > OUT, exit 0
	expect_status 0 "$SR" stats --tsv "$1"
	cp "$T/out" "$2"
}

# ---- the same figures as the text of the same recording ----
tsv $B/sleep.perf.txt "$T/perf-text.tsv"
tsv $B/sleep.perf.data "$T/perf-bin.tsv"
expect_same "$T/perf-text.tsv" "$T/perf-bin.tsv"
[ "$(wc -l < "$T/perf-bin.tsv")" -gt 10 ] || fail "too few tasks in sleep.perf.data"
tsv $B/sleep.pipe.perf.txt "$T/pipe-text.tsv"
tsv $B/sleep.pipe.perf.data "$T/pipe-bin.tsv"
expect_same "$T/pipe-text.tsv" "$T/pipe-bin.tsv"
tsv $B/sleep.v7.dat "$T/tc-bin.tsv"
tsv $B/sleep.v7-raw.txt "$T/tc-raw.tsv"
expect_same "$T/tc-raw.tsv" "$T/tc-bin.tsv"
# trace-cmd's default layout prints I as W: counted as blocked, with one
# warning naming the first such line; the figures are the binary's
tsv $B/sleep.v7.txt "$T/tc-text.tsv"
expect_err "^schedreplay: warning: $B/sleep.v7.txt:[0-9]+: prev_state 'W' in trace-cmd's sched_switch layout"
[ "$(grep -c "prev_state 'W'" "$T/err")" -eq 1 ] || fail "the W warning is not given once"
expect_same "$T/tc-text.tsv" "$T/tc-bin.tsv"
for f in sleep.v6.dat sleep.v6top.dat sleep.v7top.dat sleep.v7zstd.dat; do
	tsv $B/$f "$T/x.tsv"
	expect_same "$T/tc-bin.tsv" "$T/x.tsv"
done

# ---- detection, gzip, standard input ----
expect_status 0 "$SR" convert $B/sleep.perf.data
expect_out '^# converted by schedreplay from perf.data'
gzip -c $B/sleep.perf.data > "$T/p.data.gz"
tsv "$T/p.data.gz" "$T/x.tsv"
expect_same "$T/perf-bin.tsv" "$T/x.tsv"
expect_status 0 "$SR" stats --tsv - < $B/sleep.perf.data
expect_same "$T/perf-bin.tsv" "$T/out"
cat $B/sleep.v7.dat | gzip | "$SR" stats --tsv - > "$T/x.tsv" 2>"$T/err" ||
	fail "gzip of trace.dat on a pipe: exit $?"
expect_same "$T/tc-bin.tsv" "$T/x.tsv"
expect_status 65 "$SR" stats --input-format perf.data $B/sleep.perf.txt
expect_err "^schedreplay: $B/sleep.perf.txt:0: expected a perf.data written in this machine's byte order|^schedreplay: $B/sleep.perf.txt:"

# ---- lost events: the same markers from the records and from the text ----
expect_status 0 "$SR" stats --tsv $B/lost.perf.data
expect_err "warning: .*: [0-9]+ events lost in [0-9]+ range"
cp "$T/out" "$T/lost-bin.tsv"
tsv $B/lost.perf.txt "$T/lost-text.tsv"
expect_same "$T/lost-bin.tsv" "$T/lost-text.tsv"
grep -q '	1$' "$T/lost-bin.tsv" || fail "no task marked as touched by lost events"
expect_status 0 "$SR" stats $B/lost.v7.dat
expect_err "warning: .*: [0-9]+ events lost in [0-9]+ range"

# ---- bad perf.data ----
u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
poke() { # poke FILE OFFSET HEXBYTES: overwrite bytes in place
	bytes=""
	for h in $(echo "$3" | sed 's/../& /g'); do
		bytes="$bytes\\$(printf '%03o' "0x$h")"
	done
	printf "$bytes" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
P=$B/sleep.perf.data
size=$(wc -c < $P)
ao=$(u64 $P 24) dof=$(u64 $P 40) dsz=$(u64 $P 48)

head -c 60 $P > "$T/bad"
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:60: expected a perf.data header of 104 bytes, got the end of the file: truncated$"

cp $P "$T/bad"; poke "$T/bad" 32 0000000001000000   # attrs: 2^32 bytes
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:24: expected the attrs section \(4294967296 bytes at $ao\) within the file's $size bytes, got it past the end"

# a record past the end of the data (pipe mode: the data runs to the end)
psize=$(wc -c < $B/sleep.pipe.perf.data)
head -c $((psize - 37)) $B/sleep.pipe.perf.data > "$T/bad"
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:[0-9]+: expected a record of [0-9]+ bytes within the data section, got [0-9]+ bytes left: truncated$"

cp $P "$T/bad"; poke "$T/bad" $((ao + 31)) 80         # sample_type bit 63
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:$((ao + 24)): expected sample_type bits perf.data defines \(up to 0x1ffffff\), got unknown bits 0x8000000000000000"

td=$(u64 $P $((dof + dsz)))  # the first feature: the tracing data
cp $P "$T/bad"; poke "$T/bad" "$td" 4a554e4b
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:$td: expected the tracing data magic .*, got other bytes: garbage tracing data$"
# sched formats that do not hold together: never handed to libtraceevent
at=$(grep -abo 'name: sched_switch' $P | head -n 1 | cut -d: -f1)
[ -n "$at" ] || fail "no sched_switch format in $P"
cp $P "$T/bad"; poke "$T/bad" $((at + 20)) 01020304050607
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:$at: expected a sched event format in the tracing data, got one that does not hold together \(byte 0x01 at 20: a format is text\): garbage tracing data$"
at=$(grep -abo 'REC->prev_comm' $P | head -n 1 | cut -d: -f1)
cp $P "$T/bad"; poke "$T/bad" "$at" 5245432d3e707265765f63292929   # REC->prev_c)))
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:[0-9]+: expected a sched event format in the tracing data, got one that does not hold together \(its print fmt's brackets do not match\)"

# recorded with -z: inflated and read as recorded; corrupt zstd data refused
tsv $B/sleep.zstd.perf.data "$T/z.tsv"
expect_same "$T/perf-bin.tsv" "$T/z.tsv"
gzip -c $B/sleep.zstd.perf.data | "$SR" stats --tsv - > "$T/z.tsv" 2>"$T/err" ||
	fail "gzip of a -z perf.data on a pipe: exit $?"
expect_same "$T/perf-bin.tsv" "$T/z.tsv"
first=$(grep -abo "$(printf '\050\265\057\375')" $B/sleep.zstd.perf.data | head -n 1 | cut -d: -f1)
cp $B/sleep.zstd.perf.data "$T/bad"; poke "$T/bad" $((first + 8)) ffffffffffffffff
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:$((first - 8)): expected zstd data in a PERF_RECORD_COMPRESSED record, got data zstd refuses \(.*\): corrupt$"
# a compressed record in a pipe-mode file where none belongs (the first)
cp $B/sleep.pipe.perf.data "$T/bad"; poke "$T/bad" 16 51
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:16: expected zstd data in a PERF_RECORD_COMPRESSED record, got data zstd refuses"

# no sched event at all: the pipe-mode file up to its first sample
first=$(python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
p = 16
while struct.unpack_from("<I", d, p)[0] != 9:
    t, m, s = struct.unpack_from("<IHH", d, p)
    p += s + (struct.unpack_from("<I", d, p + 8)[0] if t == 66 else 0)
print(p)' $B/sleep.pipe.perf.data)
head -c "$first" $B/sleep.pipe.perf.data > "$T/bad"
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:$first: no scheduler events in [0-9]+ records read as perf.data: expected samples of the sched tracepoints"

# ---- bad trace.dat ----
D=$B/sleep.v6top.dat
dsize=$(wc -c < $D)
head -c $((dsize - 1000)) $D > "$T/bad"
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:[0-9]+: expected a cpu's trace data \([0-9]+ bytes at offset [0-9]+\) within the file, got it past the end at $((dsize - 1000)): truncated"
# the first page's commit count past the page
first=$(grep -abo 'flyrecord' $D | head -n 1 | cut -d: -f1)
page=$(u64 $D $((first + 10)))
cp $D "$T/bad"; poke "$T/bad" $((page + 8)) ff0f0000
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:$((page + 8)): expected a page's data size of at most 4080 bytes, got 4095: corrupt page$"
cp $D "$T/bad"; poke "$T/bad" 10 38
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:10: expected trace.dat file version 6 or 7, got '8'$"
head -c 12 $D > "$T/bad"
expect_status 65 "$SR" stats "$T/bad"
expect_err "^schedreplay: $T/bad:12: expected the byte order, long size and page size \(6 bytes at offset 12\) within the file"
done_ok
