#!/bin/sh
# The small things of the command line: --version names the version, the
# pcre2 and zlib the build uses and which inflates gzip; stats --json gives the figures of
# stats --tsv; every command that writes one file takes -o FILE and -o -
# (stdout), diff too; help --man and help --complete come from the option
# tables, and a bad --help=FORMAT is a usage error.
. tests/lib/lib.sh
need python3 python3
small=tests/replay/data/stats-small.txt
runs=tests/compare/data/hogplayer

# ---- --version ----
expect_status 0 "$SR" --version
expect_out '^schedreplay [0-9]+\.[0-9]+'
expect_out '^pcre2 [0-9]+\.[0-9]+.* \(built with [0-9]+\.[0-9]+\), JIT (yes|no)$'
expect_out '^zlib [0-9]+\.[0-9]+(\.[0-9]+)* \(built with [0-9.]+\)$'
expect_out '^gzip inflated by (igzip \(ISA-L\)|zlib)$'
cp "$T/out" "$T/v"
for v in -V version; do
	expect_status 0 "$SR" $v
	expect_same "$T/out" "$T/v"
done
expect_status 64 "$SR" --version extra
expect_err "version: unexpected argument 'extra'"

# ---- stats --json: the --tsv figures ----
for f in "$small" tests/replay/data/perf-mix.perf.txt.gz; do
	for by in "" --by-comm; do
		expect_status 0 "$SR" stats "$f" --tsv $by -o "$T/s.tsv"
		expect_status 0 "$SR" stats "$f" --json $by -o "$T/s.json"
		expect_status 0 python3 -c '
import json, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
head, rows = rows[0], rows[1:]
doc = json.load(open(sys.argv[2]))
assert doc["trace"] == sys.argv[3], doc["trace"]
tasks = doc["tasks"]
assert len(tasks) == len(rows), (len(tasks), len(rows))
for r, t in zip(rows, tasks):
    assert list(t) == head, (list(t), head)
    for k, v in zip(head, r):
        j = t[k]
        if k == "pid":
            assert (v == "-" and j is None) or int(v) == j, (k, v, j)
        elif k == "comm":
            assert v == j.replace("\t", "?"), (v, j)
        elif k == "lost":
            assert (v == "1") == j, (k, v, j)
        else:
            assert float(v) == j, (k, v, j)
print(len(tasks), "rows agree")
' "$T/s.tsv" "$T/s.json" "$f"
	done
done
expect_status 64 "$SR" stats "$small" --tsv --json
expect_err "stats: --tsv and --json exclude each other"

# ---- -o FILE and -o - ----
for args in "stats $small" "stats $small --json" "convert $small" \
	    "diff $runs" "diff $runs --json" "diff $runs --tsv"; do
	set -- $args
	expect_status 0 "$SR" "$@"
	cp "$T/out" "$T/stdout"
	expect_status 0 "$SR" "$@" -o "$T/file"
	nchecks=$((nchecks + 1))
	[ ! -s "$T/out" ] || fail "$args -o FILE: wrote to stdout too"
	expect_same "$T/stdout" "$T/file"
	expect_status 0 "$SR" "$@" -o -
	expect_same "$T/stdout" "$T/out"
done
# diff -o: a failed diff leaves no file; an unwritable one is 74
expect_status 64 "$SR" diff "$runs" --policy stock --policy nosuch -o "$T/d.txt"
nchecks=$((nchecks + 1))
[ ! -e "$T/d.txt" ] || fail "a failed diff left its file"
expect_status 74 "$SR" diff "$runs" -o "$T/no/such/dir/d.txt"
expect_status 64 "$SR" diff "$runs" -o ''

# ---- help --man, --complete, --help=FORMAT ----
expect_status 0 "$SR" help --man
expect_out '^\.TH SCHEDREPLAY 1 '
expect_out '^\.SH EXPORT$'
expect_out '^\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIFILE\\fR$'
expect_status 64 "$SR" help --man stats
expect_status 0 "$SR" help --complete
expect_out '^export	the replayed schedules'
expect_status 0 "$SR" help --complete plot
expect_out '^--format	choice	png svg pdf	image format'
expect_out '^--policy	list	P	'
expect_out '^-o	arg	DIR	'
expect_out '^--help	flag	-	this help$'
expect_out '^operand	arg	TRACE	-$'
expect_status 0 "$SR" plot --help=complete
cp "$T/out" "$T/c1"
expect_status 0 "$SR" help --complete plot
expect_same "$T/c1" "$T/out"
expect_status 64 "$SR" stats --help=bogus
expect_err "stats: --help: expected man or complete, got 'bogus'"
expect_status 64 "$SR" help nosuch
expect_err "unknown command 'nosuch'"
# ---- -o on a device or a FIFO: written in place, never replaced ----
# (a temporary renamed over /dev/null would replace the device node with a
# file, as root; a FIFO stands in for it here, so a regression cannot harm
# the machine)
if command -v mkfifo >/dev/null 2>&1 && command -v timeout >/dev/null 2>&1; then
	mkfifo "$T/fifo"
	timeout 20 cat "$T/fifo" >"$T/from-fifo" &
	reader=$!
	expect_status 0 "$SR" diff "$runs" -q -o "$T/fifo"
	wait "$reader"
	nchecks=$((nchecks + 1))
	[ -p "$T/fifo" ] || fail "-o FIFO: the FIFO was replaced"
	expect_status 0 "$SR" diff "$runs" -q
	expect_same "$T/from-fifo" "$T/out"
fi
done_ok
