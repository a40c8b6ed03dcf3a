#!/bin/sh
# The command line of every command, through lib/parse-options: -h,
# --help and `schedreplay help CMD` print the same usage (no line over 80
# columns); an unknown option or a missing value is 64 with the reason and
# one hint line, not the usage; --opt=value and --opt value, -oVALUE and
# -o VALUE agree; -- ends the options; names are exact; numbers are
# checked with their units.
. tests/lib/lib.sh
small=tests/replay/data/stats-small.txt
runs=tests/compare/data/hogplayer
native=tests/compare/data/hogplayer.native
NOGP=/nonexistent/gnuplot

# ---- help, the same three ways, from the table ----
for c in policies convert stats replay diff plot report export; do
	expect_status 0 "$SR" "$c" -h
	expect_out "^usage: schedreplay $c( |\$)"
	expect_out '^  -h, --help +this help$'
	cp "$T/out" "$T/help-h"
	expect_status 0 "$SR" "$c" --help
	expect_same "$T/out" "$T/help-h"
	expect_status 0 "$SR" help "$c"
	expect_same "$T/out" "$T/help-h"
	nchecks=$((nchecks + 1))
	awk 'length > 80 { exit 1 }' "$T/help-h" || fail "$c --help: a line over 80 columns"
	# unknown options, long and short: the reason, one hint, no usage
	for bad in --bogus-option -Z; do
		expect_status 64 "$SR" "$c" "$bad" "$small"
		expect_err "^schedreplay: $c: unknown option '$bad'\$"
		expect_err "^schedreplay: see 'schedreplay $c --help'\$"
		nchecks=$((nchecks + 1))
		[ "$(wc -l <"$T/err")" -eq 2 ] || fail "$c $bad: more than the reason and the hint"
	done
done
expect_status 64 "$SR" help nosuch
expect_err "unknown command 'nosuch'"
expect_status 0 "$SR" --version
expect_out '^schedreplay [0-9]'
cp "$T/out" "$T/v"
expect_status 0 "$SR" -V
expect_same "$T/out" "$T/v"

# ---- a value missing: 64 naming the option ----
for args in "stats $small --sort" "convert $small -o" "replay $small --policy" \
	    "diff $runs --policy" "plot $runs --format" "report $runs --title" \
	    "replay $small --cs-cost" "export $small -o" "diff $runs -o"; do
	set -- $args
	c=$1
	expect_status 64 "$SR" "$@"
	expect_err "^schedreplay: $c: -(-[a-z-]+|o) expects a value\$"
	expect_err "^schedreplay: see 'schedreplay $c --help'\$"
done
# a flag given a value; an operand too many; policies takes none
expect_status 64 "$SR" stats --tsv=yes "$small"
expect_err "stats: --tsv takes no value"
expect_status 64 "$SR" convert "$small" "$small"
expect_err "convert: expected one TRACE, got '$small' and '$small'"
expect_status 64 "$SR" policies extra
expect_err "policies: unexpected argument 'extra' \(it takes none; POLICY names go with --knobs\)"
# names are exact: no abbreviations
expect_status 64 "$SR" stats --so p99 "$small"
expect_err "unknown option '--so'"

# ---- --opt=value and --opt value agree, in every command ----
expect_status 0 "$SR" stats --tsv --sort=p99 "$small"
cp "$T/out" "$T/s1"
expect_status 0 "$SR" stats --tsv --sort p99 "$small"
expect_same "$T/out" "$T/s1"
expect_status 0 "$SR" stats "$small" --tsv --sort p99,pid -o "$T/s2"
expect_status 0 "$SR" stats "$small" --tsv --sort=p99,pid -o"$T/s3"
expect_same "$T/s2" "$T/s3"
expect_status 0 "$SR" stats "$small" --tsv --sort=p99,pid --output="$T/s4"
expect_same "$T/s2" "$T/s4"
# -- ends the options: a trace named like an option
cp "$small" "$T/-trace"
expect_status 0 "$SR" stats --tsv -o "$T/s5" -- "$T/-trace"
expect_status 0 "$SR" stats --tsv -o "$T/s6" "$small"
expect_same "$T/s5" "$T/s6"
expect_status 0 "$SR" stats --tsv --compat=perf-6.1 "$small"
cp "$T/out" "$T/c1"
expect_status 0 "$SR" stats --tsv --compat perf-6.1 "$small"
expect_same "$T/out" "$T/c1"

expect_status 0 "$SR" convert --input-format=native -o "$T/n1" "$native"
expect_status 0 "$SR" convert --input-format native -o"$T/n2" "$native"
expect_same "$T/n1" "$T/n2"
expect_status 0 "$SR" convert --output="$T/n3" --lenient "$native"
expect_same "$T/n1" "$T/n3"

expect_status 0 "$SR" replay -q --policy=stock --cs-cost=5us --warm=50 -o "$T/r1" "$native"
expect_status 0 "$SR" replay -q --policy stock --cs-cost 5000 --warm 50 --output="$T/r2" "$native"
expect_same_replay "$T/r1" "$T/r2" stock
expect_status 0 "$SR" replay -q --policy stock --cs-cost=0.005ms --warm 50 -o"$T/r3" "$native"
expect_same_replay "$T/r1" "$T/r3" stock
expect_status 0 "$SR" replay -qo "$T/r4" --policy stock --cs-cost 5000ns --warm=50 "$native"
expect_same_replay "$T/r1" "$T/r4" stock
nchecks=$((nchecks + 1))
[ ! -s "$T/out" ] || fail "replay -q listed files"
expect_status 0 "$SR" replay --causal=all --external=relative --timeline=all -o "$T/r5" "$native"
expect_status 0 "$SR" replay --causal all --external relative --timeline all -o "$T/r6" "$native"
expect_same_replay "$T/r5" "$T/r6" stock o11int observed

expect_status 0 "$SR" diff --tsv --policy=stock --policy=o11int --period=player=10 "$runs"
cp "$T/out" "$T/d1"
expect_status 0 "$SR" diff --tsv --policy stock --policy o11int --period player=10ms "$runs"
expect_same "$T/out" "$T/d1"
expect_status 0 "$SR" diff --tsv --policy stock --policy o11int --period player=10000us "$runs"
expect_same "$T/out" "$T/d1"

expect_status 69 "$SR" plot --format=svg --max-tasks=2 -o "$T/p1" --gnuplot=$NOGP "$runs"
expect_status 69 "$SR" plot --format svg --max-tasks 2 --output "$T/p2" --gnuplot $NOGP "$runs"
for n in priority delay-time delay-cdf diff-bars; do
	expect_same "$T/p1/$n.gp" "$T/p2/$n.gp"
done
expect_status 69 "$SR" report --title=T -o "$T/h1" --gnuplot=$NOGP "$runs"
expect_status 69 "$SR" report --title T --output="$T/h2" --gnuplot $NOGP "$runs"
expect_same "$T/h1/index.html" "$T/h2/index.html"

# ---- numbers: one checked parser, ranges and units ----
expect_status 64 "$SR" replay --warm=101 -o "$T/x" "$native"
expect_err "^schedreplay: --warm: expected an integer from 0 to 100, got '101'\$"
expect_status 64 "$SR" replay --batch 1k -o "$T/x" "$native"
expect_err "--batch: expected an integer from 1 to 1073741824, got '1k'"
expect_status 64 "$SR" replay --cs-cost 2ms -o "$T/x" "$native"
expect_err "--cs-cost: expected a number from 0 to 1ms with a unit among ns, us, ms, s \(none: ns\), got '2ms'"
expect_status 64 "$SR" replay --cs-cost 1.5ns -o "$T/x" "$native"
expect_err "--cs-cost: expected a number"
expect_status 64 "$SR" replay --cs-cost=-1 -o "$T/x" "$native"
expect_err "--cs-cost: expected a number"
expect_status 64 "$SR" plot --max-tasks 65 "$runs"
expect_err "--max-tasks: expected an integer from 1 to 64, got '65'"
expect_status 64 "$SR" diff --period player=0 "$runs"
expect_err "--period: expected a number of at least 1ns with a unit among ns, us, ms, s \(none: ms\), got '0'"
expect_status 64 "$SR" diff --period player "$runs"
expect_err "--period: expected COMM=MS"
expect_status 64 "$SR" replay --causal=maybe -o "$T/x" "$native"
expect_err "^schedreplay: --causal: expected known, all or none, got 'maybe'\$"
nchecks=$((nchecks + 1))
[ ! -e "$T/x" ] || fail "a usage error wrote output"

# an empty output path is refused before anything is read or written
for c in stats convert replay plot report; do
	in=$runs
	case $c in stats|convert|replay) in=$native ;; esac
	expect_status 64 "$SR" "$c" -o '' "$in"
	expect_err "^schedreplay: --output: expected a file or directory name, got an empty path$"
	expect_status 64 "$SR" "$c" --output= "$in"
	expect_err "^schedreplay: --output: expected a file or directory name, got an empty path$"
done

done_ok
