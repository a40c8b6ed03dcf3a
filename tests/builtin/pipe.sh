#!/bin/sh
# Output into a pipe whose reader is gone (`schedreplay stats T | head -1`)
# ends the command as other filters end: nothing on stderr, status 0 or
# death by SIGPIPE (128 + 13 in the shell), never 74; a real write error
# (a full disk: /dev/full) is still 74 with a message.
. tests/lib/lib.sh
big=traces/mixed.perf.txt.gz
[ -f "$big" ] || fail "no $big: a bundled sample is missing"

# quiet_pipe CMD...: CMD's stdout into a reader that has gone
quiet_pipe() {
	{ "$@" 2>"$T/err"; echo $? >"$T/st"; } | head -c 1 >/dev/null
	nchecks=$((nchecks + 1))
	st=$(cat "$T/st")
	[ "$st" -eq 0 ] || [ "$st" -eq 141 ] || fail "$*: exit $st into a closed pipe"
	nchecks=$((nchecks + 1))
	[ ! -s "$T/err" ] || fail "$*: stderr into a closed pipe: $(head -n 3 "$T/err")"
}

quiet_pipe "$SR" convert "$big"
quiet_pipe "$SR" stats "$big"
quiet_pipe "$SR" stats --tsv "$big"
quiet_pipe "$SR" diff --tsv --all tests/compare/data/hogplayer
quiet_pipe "$SR" replay -o "$T/r" --policy stock "$big"
nchecks=$((nchecks + 1))
[ -z "$(find "$T" -name '*.tmp.*')" ] || fail "temporaries left after SIGPIPE"
# help too
quiet_pipe "$SR" replay --help

# a full disk is an error
[ -w /dev/full ] || skip hardware "no writable /dev/full device on this machine"
expect_status 74 sh -c "exec \"$SR\" convert \"$big\" >/dev/full"
expect_err 'write failed: No space left on device'
expect_status 74 sh -c "exec \"$SR\" stats tests/replay/data/stats-small.txt >/dev/full"
expect_err 'No space left on device'
done_ok
