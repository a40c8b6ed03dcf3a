# lib.sh: helpers for tests/<folder>/*.sh.  Source it:  . tests/lib/lib.sh
# Needs SCHEDREPLAY (set by tests/run.sh).  Each helper fails the test with
# a message saying what was expected.
set -u
: "${SCHEDREPLAY:?run through make check}"
SR=$SCHEDREPLAY
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
REAL=${SR_REAL_TRACES:-../shared/traces-real}
nchecks=0

fail() { echo "FAIL: $*" >&2; exit 1; }
# skip package NAME REASON | skip privilege REASON | skip hardware REASON:
# end the test as skipped (exit 77), its last line saying why in the form
# tests/run.sh checks.  These three are the only reasons a test may skip:
# a Debian package missing (CI installed them all, so there the skip is
# a failure), a privilege this run lacks (root, a capability), a device or
# CPU feature the machine lacks.  Anything else the test needs (its data,
# a temporary directory, a command of our own) is there or the test fails.
skip() {
	case ${1:-} in
	package)
		[ $# -eq 3 ] || fail "skip package: expected NAME and REASON"
		echo "skip package $2: $3" ;;
	privilege | hardware)
		[ $# -eq 2 ] || fail "skip $1: expected one REASON"
		echo "skip $1: $2" ;;
	*)	fail "skip: expected package, privilege or hardware, got '${1:-}'" ;;
	esac
	exit 77
}
# need COMMAND PACKAGE: skip the test unless COMMAND is on PATH (the skip
# names the Debian package; make check fails it in CI).
need() { command -v "$1" >/dev/null 2>&1 || skip package "$2" "no $1 on PATH"; }

# expect_status WANT CMD...: run CMD, stdout to $T/out, stderr to $T/err.
expect_status() {
	want=$1; shift
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	nchecks=$((nchecks + 1))
	[ "$got" -eq "$want" ] || {
		sed 's/^/    stderr: /' "$T/err" | head -n 20 >&2
		fail "$*: exit $got, want $want"
	}
}

# expect_err PATTERN: stderr of the last expect_status matches (grep -E).
expect_err() {
	nchecks=$((nchecks + 1))
	grep -Eq -- "$1" "$T/err" || {
		sed 's/^/    stderr: /' "$T/err" | head -n 20 >&2
		fail "stderr does not match /$1/"
	}
}

# expect_out PATTERN: stdout of the last expect_status matches (grep -E).
expect_out() {
	nchecks=$((nchecks + 1))
	grep -Eq -- "$1" "$T/out" || {
		sed 's/^/    stdout: /' "$T/out" | head -n 20 >&2
		fail "stdout does not match /$1/"
	}
}

# expect_same FILE1 FILE2: byte-identical.
expect_same() {
	nchecks=$((nchecks + 1))
	cmp -s "$1" "$2" || fail "$1 and $2 differ"
}

# expect_same_replay DIR1 DIR2 POLICY...: two `replay -o` outputs hold the
# same bytes, file by file, for each policy (waits.tsv where the first
# has it: a simulated policy's).
expect_same_replay() {
	d1=$1 d2=$2
	shift 2
	for p in "$@"; do
		for k in timeline latency summary cpus; do
			expect_same "$d1/$p/$k.tsv" "$d2/$p/$k.tsv"
		done
		[ ! -f "$d1/$p/waits.tsv" ] ||
			expect_same "$d1/$p/waits.tsv" "$d2/$p/waits.tsv"
	done
}

done_ok() {
	[ "$nchecks" -gt 0 ] || fail "no checks ran"
	echo "$nchecks checks passed"
	exit 0
}
