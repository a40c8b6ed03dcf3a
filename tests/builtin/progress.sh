#!/bin/sh
# The progress line (lib/progress.h), on a pseudo-terminal: reading and
# replaying draws "schedreplay CMD: ...% of ... MB, ... events/s" on
# stderr, redrawn at most 10 times a second, and the last thing written
# erases it (blanks, then the cursor back at the start); a quick run shows
# nothing (the delay), -q and a stderr that is not a terminal never show
# it; and every output file is the same with and without the terminal.
. tests/lib/lib.sh
need python3 python3
mixed=traces/mixed.perf.txt.gz
[ -f "$mixed" ] || mixed=tests/compare/data/hogplayer.native
small=tests/replay/data/stats-small.txt

# onpty NAME CMD...: run CMD with stderr on a terminal (no delay before the
# first draw); what the terminal got in $T/NAME.tty, its status and time in
# $T/NAME.tty.res; exit 0 expected (WANT= another)
onpty() {
	name=$1; shift
	SCHEDREPLAY_PROGRESS_DELAY=${DELAY:-0} python3 tests/lib/pty-run.py \
		"$T/$name.tty" -- "$@" >/dev/null || fail "pty-run.py failed"
	nchecks=$((nchecks + 1))
	grep -q "^exit ${WANT:-0} " "$T/$name.tty.res" ||
		fail "$*: $(cat "$T/$name.tty.res")"
}

# drawn NAME CMD: the line was drawn, at most 10 times a second, and erased
drawn() {
	python3 - "$T/$1.tty" "$T/$1.tty.res" "$2" <<'PY' || fail "$1: progress line"
import re, sys
tty = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
secs = float(open(sys.argv[2]).read().split()[3])
cmd = sys.argv[3]
draws = re.findall(r"\r(schedreplay %s: [^\r]*)" % cmd, tty)
if not draws:
    sys.exit("no progress line drawn: %r" % tty[:200])
for d in draws:
    if not re.search(r"(\d+% of [\d.]+ [kMG]?B|[\d.]+ [kMG]?B read)"
                     r"(, [\d.]+[kM]? events/s)?\s*$", d):
        sys.exit("a progress line without its figures: %r" % d)
    if len(d) > 99:
        sys.exit("a progress line wider than the terminal: %r" % d)
if len(draws) > secs * 10 + 1:
    sys.exit("%d draws in %.2f s: more than 10 a second" % (len(draws), secs))
m = re.search(r"\r( +)\r$", tty)
if not m or len(m.group(1)) < max(len(d.rstrip()) for d in draws):
    sys.exit("the line is not erased at the end: %r" % tty[-120:])
print("%d draws in %.2f s, erased" % (len(draws), secs))
PY
	nchecks=$((nchecks + 1))
}

# ---- replay: the policies, then erased; the same files as without ----
onpty replay "$SR" replay "$mixed" -o "$T/r-tty"
drawn replay replay
expect_status 0 "$SR" replay "$mixed" -o "$T/r-file"
nchecks=$((nchecks + 1))
[ ! -s "$T/err" ] || fail "replay wrote to a stderr that is not a terminal"
expect_same_replay "$T/r-tty" "$T/r-file" stock o11int observed
nchecks=$((nchecks + 1))
grep -q 'stock, o11int, observed' "$T/replay.tty" ||
	fail "the progress line does not name the policies"

# ---- stats, convert, export, diff (plot and report replay as diff
# does, through compare/source.c): drawn on a terminal, never with -q, and
# the same file with, without a terminal and with -q ----
for c in stats convert export diff; do
	onpty "$c" "$SR" "$c" "$mixed" -o "$T/$c-tty.out"
	drawn "$c" "$c"
	onpty "$c-q" "$SR" "$c" "$mixed" -q -o "$T/$c-q.out"
	nchecks=$((nchecks + 1))
	[ ! -s "$T/$c-q.tty" ] || fail "$c -q drew on the terminal"
	expect_status 0 "$SR" "$c" "$mixed" -o "$T/$c-file.out"
	expect_same "$T/$c-tty.out" "$T/$c-file.out"
	expect_same "$T/$c-tty.out" "$T/$c-q.out"
done

# ---- -q, and the delay: nothing on the terminal ----
onpty quiet "$SR" replay "$mixed" -q -o "$T/r-q"
nchecks=$((nchecks + 1))
[ ! -s "$T/quiet.tty" ] || fail "replay -q drew on the terminal"
expect_same_replay "$T/r-q" "$T/r-file" stock o11int observed
DELAY=3600 onpty delayed "$SR" stats "$small"
nchecks=$((nchecks + 1))
[ ! -s "$T/delayed.tty" ] || fail "a run shorter than the delay drew"
# an error part-way (a cut gzip): the line erased before the message
case $mixed in
*.gz)
	head -c 400000 "$mixed" >"$T/cut.gz"
	WANT=65 onpty bad "$SR" stats "$T/cut.gz"
	nchecks=$((nchecks + 1))
	python3 - "$T/bad.tty" <<'PY' || fail "the error is not on a clean line"
import re, sys
tty = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
if not re.search(r"\rschedreplay stats: ", tty):
    sys.exit("nothing drawn before the error: %r" % tty[:200])
if not re.search(r"\r +\rschedreplay: [^\r\n]*gzip[^\r\n]*\r?\n$", tty):
    sys.exit("the error does not follow the erase: %r" % tty[-200:])
PY
	;;
esac
done_ok
