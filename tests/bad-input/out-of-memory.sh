#!/bin/sh
# Out of memory is said as such, with its own status, wherever it happens
# (R12 of round 3): "schedreplay: ... out of memory", exit 71 (EX_OSERR,
# sysexits.h), never 70, which is for broken invariants only; never a
# crash, a half-written output or a silently different result.  Until
# then, an allocation failing in the accounting said "accounting failed
# (task N at T ns)" with 70, the fair policies' queues exited 70, demand
# extraction called every error of its handlers "out of memory", and a
# failed growth of the timeline filter crashed the next row.
#
# Each command runs with one allocation made to fail, the Nth, through
# tests/lib/failmalloc (an LD_PRELOAD library; N over a spread of every
# allocation the command makes, counted by a first run): it must exit 71
# saying "out of memory" and leave no output, or exit 0 with the same
# output as without the failure (an allocation whose failure is handled:
# pcre2's JIT falling back to its interpreter, stdio unbuffered).  Then
# every allocation from the Nth on fails (memory gone for good): 71.
# libtraceevent's own allocations are spared: version 1.7 dereferences
# the NULL of a failed strdup inside tep_parse_event (SIGSEGV there, in
# the library; ours is the caller's check that follows: errno ENOMEM
# after the call, said as out of memory).
. tests/lib/lib.sh
FM=$(pwd)/${BUILD:-build}/tests/lib/failmalloc.so
[ -f "$FM" ] || fail "$FM: not built (make test-bins)"
if [ "${SAN:-0}" = 1 ]; then
	# ASan's allocator serves what failmalloc passes on; it need not
	# be first among the libraries for that
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	export ASAN_OPTIONS
fi
H=tests/replay/data/hogplayer.txt
W=tests/replay/data/why-three.txt
O=$T/o
cp "$H" "$T/a.txt"
expect_status 0 "$SR" replay "$W" --policy stock --policy o11int \
	--policy observed -o "$T/saved" -q
runs=0 tolerated=0 said=0

one() { # NAME N FROM CMD...: one run, judged
	name=$1 n=$2 from=$3
	shift 3
	rm -rf "$O"
	env SR_FAILMALLOC=$n SR_FAILMALLOC_FROM=$from LD_PRELOAD="$FM" \
		SR_FAILMALLOC_SPARE=libtraceevent "$@" >"$T/out" 2>"$T/err" \
		</dev/null
	rc=$?
	runs=$((runs + 1))
	nchecks=$((nchecks + 1))
	case $rc in
	71)	said=$((said + 1))
		grep -q '^schedreplay: .*out of memory' "$T/err" ||
			fail "$name, allocation $n failing: 71 without 'out of memory': $(head -c 300 "$T/err")"
		# nothing half-written: a one-file output not made (a
		# directory's files are replaced one by one, each whole:
		# docs/robustness.md), no temporary left
		[ ! -f "$O" ] ||
			fail "$name, allocation $n failing: $O made"
		[ -z "$(find "$T" -name '*.tmp.*' 2>/dev/null)" ] ||
			fail "$name, allocation $n failing: a temporary left" ;;
	0)	[ "$from" = 0 ] ||
			fail "$name: every allocation from $n failing, exit 0"
		tolerated=$((tolerated + 1))
		cmp -s "$T/out" "$T/base.out" ||
			fail "$name, allocation $n failing: exit 0 with another output" ;;
	*)	fail "$name, allocation $n failing: exit $rc, want 71 (out of memory) or 0: $(head -c 300 "$T/err")" ;;
	esac
}
# hunt NAME CMD...: the command's allocations, counted, then a spread of
# them failing one at a time (about $spread), and from three points on;
# at least one run must say out of memory
spread=50
[ "${SAN:-0}" = 1 ] && spread=20	# each run slower under ASan
hunt() {
	name=$1
	said0=$said
	shift
	rm -rf "$O"
	env SR_FAILMALLOC_COUNT="$T/count" LD_PRELOAD="$FM" "$@" \
		>"$T/base.out" 2>"$T/base.err" </dev/null ||
		fail "$name: exit $? without a failure: $(head -c 300 "$T/base.err")"
	total=$(cat "$T/count")
	[ "$total" -gt 10 ] || fail "$name: only $total allocations counted"
	step=$((total / spread + 1))
	n=1
	while [ $n -le "$total" ]; do
		one "$name" $n 0 "$@"
		n=$((n + step))
	done
	for n in $((total / 4)) $((total / 2)) $((total * 3 / 4)); do
		one "$name" $((n + 1)) 1 "$@"
	done
	nchecks=$((nchecks + 1))
	[ "$said" -gt "$said0" ] ||
		fail "$name: no run said out of memory: is failmalloc failing anything?"
}
hunt stats "$SR" stats "$H"
hunt replay "$SR" replay "$H" -o "$O" --policy stock --policy eevdf \
	--policy cfs --policy observed -q
hunt replay-smp "$SR" replay "$W" --cpus 2 -o "$O" --policy eevdf-6.18 \
	--policy stock --policy 2.4 --rt 'w:5' -q
hunt diff "$SR" diff "$H" -q
hunt diff-saved "$SR" diff "$T/saved" --json
hunt explain "$SR" explain "$W" --task . -q
hunt convert "$SR" convert "$H" -o "$O"
hunt export "$SR" export "$H" -o "$O" -q
hunt sweep "$SR" sweep "$T/a.txt" --policy stock --set MAX_SLEEP_AVG=500,1000 \
	--sequential -o "$O" -q
hunt perf.data "$SR" stats tests/parse/data/bin/sleep.perf.data
hunt trace.dat "$SR" stats tests/parse/data/bin/sleep.v7gap.dat
echo "$runs runs with an allocation failing: $said said out of memory (71), $tolerated handled it (0, same output)"
done_ok
