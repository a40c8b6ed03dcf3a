#!/bin/sh
# Replay every recorded sample under every policy: the perf fixture in
# tests/replay/data/, the bundled samples traces/*.gz, our own real
# recording tests/parse/data/real/*.gz, and the recordings of other
# projects in ../shared/traces-real (or $SR_REAL_TRACES) when present.
# Each replay must complete with sane figures (one task on the cpu at a
# time, never idle while a task waits, no negative delay, latency rows in
# wake order), `observed` must give exactly the figures of `schedreplay
# stats`, and every task's CPU time must be the same under every policy
# and within one tick (1 ms) of what the recording charged it, the bundled
# samples must replay on their 2 CPUs without falling behind, and the
# bytes must not depend on --batch.  Every replay runs on the recording's
# CPU count with --check: the SMP invariants are checked at every instant.
# Every wait of every simulated policy is attributed: its segments in
# waits.tsv add up exactly to its delay_ns, and latency.tsv's why and
# behind_pid are what they say (tests/replay/check-waits.awk).
# The repository's own traces are known good: `stats` and `replay` must
# both accept them.  Of the shared extra, a trace that `stats` rejects as
# bad data (65: trappy's cut-short record) must be rejected the same way
# by `replay`.
. tests/lib/lib.sh
CHK=tests/replay/check-replay.awk
SIMS=$("$SR" policies | awk '/^[^ ]/ { print $1 }')
POL="--policy observed"
for p in $SIMS; do POL="$POL --policy $p"; done

set -- tests/replay/data/perf-mix.perf.txt.gz traces/*.gz tests/parse/data/real/*.gz
for f in "$@"; do
	[ -f "$f" ] || fail "$f: a trace of the repository is missing"
done
if [ -d "$REAL" ]; then
	for f in $(find "$REAL" -type f ! -name '*.md' | sort); do
		set -- "$@" "$f"
	done
fi

n=0
for f in "$@"; do
	n=$((n + 1))
	out="$T/s$n"
	case $f in
	"$REAL"/*)
		"$SR" stats --tsv "$f" >"$T/stats.tsv" 2>"$T/stats.err"
		want=$?
		nchecks=$((nchecks + 1))
		[ "$want" -eq 0 ] || [ "$want" -eq 65 ] ||
			fail "$f: stats exit $want, want 0 or 65 (bad data)"
		;;
	*)
		expect_status 0 "$SR" stats --tsv "$f"
		cp "$T/out" "$T/stats.tsv"
		want=0
		;;
	esac
	expect_status "$want" "$SR" replay "$f" -o "$out" $POL --check -q
	[ "$want" -eq 0 ] || continue
	# observed is the recorded schedule, counted as stats counts it
	cut -f 1-14 "$out/observed/summary.tsv" >"$T/obs.tsv"
	expect_same "$T/stats.tsv" "$T/obs.tsv"
	for p in $SIMS observed; do
		one=1
		[ "$p" = observed ] && one=0
		nchecks=$((nchecks + 1))
		awk -f "$CHK" -v kind=timeline -v sim=$one -v waking=1 \
			"$out/$p/timeline.tsv" ||
			fail "$f: $p/timeline.tsv"
		nchecks=$((nchecks + 1))
		awk -f "$CHK" -v kind=latency "$out/$p/latency.tsv" ||
			fail "$f: $p/latency.tsv"
	done
	for p in $SIMS; do
		nchecks=$((nchecks + 1))
		awk -f tests/replay/check-waits.awk "$out/$p/latency.tsv" \
			"$out/$p/waits.tsv" || fail "$f: $p/waits.tsv"
		# runtime_ms by task (pid, comm, occurrence): within 1 ms of
		# what the recording charged (tasks it shows running only
		# before its first switch have no observed row)
		nchecks=$((nchecks + 1))
		awk -F '\t' -v p="$p" '
			FNR == 1 { next }
			{ k = $1 SUBSEP $2 SUBSEP (++occ[FILENAME, $1, $2]) }
			FILENAME == ARGV[1] { rec[k] = $3; next }
			!(k in rec) || rec[k] == 0 { next }
			{ d = rec[k] - $3; if (d < 0) d = -d }
			d > 1.0 { print "FAIL: pid " $1 " (" $2 "): " $3 " ms under " p ", recorded " rec[k] " ms"; bad = 1 }
			END { exit bad }' "$out/observed/summary.tsv" "$out/$p/summary.tsv" ||
			fail "$f: CPU time not kept under $p"
		nchecks=$((nchecks + 1))
		cmp -s "$out/$p/summary.tsv" /dev/null && fail "$f: empty summary"
		cut -f 1-3 "$out/$p/summary.tsv" >"$T/rt.$p"
	done
	for p in $SIMS; do
		expect_same "$T/rt.$(echo "$SIMS" | head -n 1)" "$T/rt.$p"
	done
	# the bundled samples were recorded on 2 CPUs and their work fits 2:
	# replayed on the recording's CPUs, every policy ends within 2% of
	# the recording's span after it (a replay that falls behind its
	# recording on the same CPUs models a slower machine, not a policy)
	case $f in
	traces/*)
		span=$(awk -F '\t' 'NR == 2 { print $2 + $3 }' "$out/observed/cpus.tsv")
		rec=$(awk -F '\t' 'NR > 1 && $18 > m { m = $18 } END { print m }' "$out/observed/summary.tsv")
		for p in $SIMS; do
			nchecks=$((nchecks + 1))
			awk -F '\t' -v rec="$rec" -v span="$span" -v p="$p" -v f="$f" '
				NR > 1 && $18 > m { m = $18 }
				END { if ((m - rec) * 1e9 > 0.02 * span) {
					printf "FAIL: %s: %s ends %.3f s after the recording (span %.3f s)\n", f, p, m - rec, span / 1e9
					exit 1 } }' "$out/$p/summary.tsv" ||
				fail "$f: $p falls behind on the recording's CPUs"
		done
		;;
	esac
	# the same bytes whatever the batch: a step never decides on what
	# is not read yet (an event backdating a wake, say)
	expect_status 0 "$SR" replay "$f" -o "$out.b1" $POL --batch 1 -q
	expect_same_replay "$out" "$out.b1" $SIMS observed
done
# without the recording's wake costs (--calibrate none) a simulated CPU
# never idles while a task waits on it: the strict check, on the fixture
expect_status 0 "$SR" replay tests/replay/data/perf-mix.perf.txt.gz \
	-o "$T/strict" $POL --check --calibrate none -q
for p in $SIMS; do
	nchecks=$((nchecks + 1))
	awk -f "$CHK" -v kind=timeline -v sim=1 "$T/strict/$p/timeline.tsv" ||
		fail "perf-mix, --calibrate none: $p/timeline.tsv"
done
done_ok
