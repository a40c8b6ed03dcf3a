#!/bin/sh
# The input formats come from one table (parse/reader.c): --input-format's
# help line, the unknown-format message and the formats accepted are the
# same list, and every format in it reads a sample of its own here, forced
# by name (a new format without a sample below fails this test).
. tests/lib/lib.sh
D=tests/parse/data

# the names, as the unknown-format message gives them
expect_status 64 "$SR" stats --input-format nosuch "$D/native-small.txt"
names=$(sed -n "s/.*(known: \(.*\))$/\1/p" "$T/err" | sed 's/,\? or /, /; s/, / /g')
nchecks=$((nchecks + 1))
[ -n "$names" ] || fail "no list of formats in: $(cat "$T/err")"
# the help line lists the same, in the same order
for cmd in stats convert replay export; do
	expect_status 0 "$SR" $cmd --help
	got=$(tr '\n' ' ' <"$T/out" | sed 's/  */ /g' |
		sed -n 's/.*--input-format NAME \(.*\) (default: detect).*/\1/p' |
		sed 's/,\? or /, /; s/, / /g')
	nchecks=$((nchecks + 1))
	[ "$got" = "$names" ] || fail "$cmd --help lists '$got', the table '$names'"
done

# each format, forced by name, reads its sample
sample() {
	case $1 in
	perf.data) echo "$D/bin/sleep.perf.data" ;;
	trace.dat) echo "$D/bin/sleep.v7.dat" ;;
	native) echo "$D/native-small.txt" ;;
	systrace) echo "$D/systrace-modern.html" ;;
	perf) echo "$D/perf-small.txt" ;;
	trace-cmd) echo "$D/tracecmd-plugin.txt" ;;
	ftrace) echo "$D/ftrace-3x.txt" ;;
	esac
}
n=0
for f in $names; do
	s=$(sample "$f")
	nchecks=$((nchecks + 1))
	[ -n "$s" ] || fail "format $f has no sample in tests/parse/formats.sh"
	expect_status 0 "$SR" stats --tsv --input-format "$f" "$s"
	expect_status 0 "$SR" stats --tsv "$s"    # and is detected
	n=$((n + 1))
done
nchecks=$((nchecks + 1))
[ $n -ge 7 ] || fail "only $n formats: $names"
done_ok
