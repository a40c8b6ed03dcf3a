#!/bin/sh
# record.sh: `schedreplay record` records small workloads on this machine
# (as root, with tracefs: CI runs as root; skipped otherwise) and what it
# writes is read back by our readers and by trace-cmd itself.
#
# Checked, each against what the workload must have done:
# - usage: a command or -a, not both (64); not root: refused (66), tested
#   through setpriv when it is there;
# - `-- CMD` exits with CMD's status (3), 128+N when CMD dies of signal N
#   (SIGTERM: 143), 66 when CMD cannot be run; an output that cannot be
#   written is refused (74) before CMD runs;
# - the file: trace-cmd report reads it and counts as many switches as
#   our convert does; its context names the command (root_pid = the pid
#   of its first task), marks its tree and only its tree (tree=1 on the
#   command, the child it forked and nothing else), and holds a task
#   pinned by taskset to cpu 0 (cpus=0) and one niced by 7 more than the
#   test itself runs at;
# - Ctrl-C of record -- sleep (SIGINT to the process group) keeps the
#   file and exits 130, as sleep did; -a stops at Ctrl-C (SIGINT: exit 0,
#   the file written, with events) and at --duration;
# - a recorder stopped (SIGSTOP) while a burst runs with a 64 KiB buffer
#   loses events: the summary says how many, per cpu, and what to change;
#   the file marks the losses (lost lines, with the count where the page
#   had room for it), and its context's loss lines hold the summary's.
. tests/lib/lib.sh

expect_status 64 "$SR" record
expect_err 'expected a command \(-- CMD \[ARGS...\]\) or -a'
expect_status 64 "$SR" record -a -- true
expect_err '-a records without a command'
expect_status 64 "$SR" record -o - -- true
expect_err 'its output would go into the recording'

if [ "$(id -u)" -ne 0 ]; then
	skip privilege "record needs root (tracefs, other users' /proc)"
fi
if command -v setpriv >/dev/null 2>&1; then
	expect_status 66 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SR" record -o "$T/x.dat" -- true
	expect_err 'record needs root'
fi
tracing=/sys/kernel/tracing
[ -d "$tracing/instances" ] || tracing=/sys/kernel/debug/tracing
[ -d "$tracing/instances" ] || skip privilege "no tracefs mounted here"

cd "$T" || fail "cd $T"
expect_status 3 "$SR" record -q -o s.dat -- sh -c 'exit 3'
[ -s s.dat ] || fail "record -- CMD wrote no file"
expect_status 143 "$SR" record -q -o k.dat -- sh -c 'kill -TERM $$'
# an output that cannot be written is said before the command runs
expect_status 74 "$SR" record -q -o no/such/dir/x.dat -- touch ran
expect_err 'no/such/dir/x.dat: cannot create'
[ ! -e ran ] || fail "record ran the command though its output cannot be written"
nchecks=$((nchecks + 1))
expect_status 66 "$SR" record -q -o n.dat -- ./no-such-command
expect_err "cannot run './no-such-command'"
[ ! -e n.dat ] || fail "a recording whose command did not run was written"

# The workload: a shell that forks a pinned loop and a niced one.  The
# nice level is the test's own plus 7 (nice adds to it).  Each child then
# sleeps 0.5 s: record reads a new task's /proc when its fork or exec
# event is drained, every SR_RECORD_TICK_MS (100 ms), and a child that
# ended before that keeps only its tree mark: the third child (`: &`, a
# fork that exits at once) is such a one, for the tree check below.
mine=$(cut -d' ' -f19 /proc/self/stat)
want_nice=$((mine + 7))
[ "$want_nice" -gt 19 ] && want_nice=19
expect_status 0 "$SR" record -o w.dat -- sh -c '
	taskset -c 0 sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done; sleep 0.5" &
	nice -n 7 sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done; sleep 0.5" &
	: &
	wait'
expect_err 'no events lost'
expect_status 0 "$SR" convert w.dat -o w.native
ctx() { grep '^#context ' w.native; }
root=$(ctx | sed -n 's/^#context machine .*root_pid=\([0-9]*\).*/\1/p')
[ -n "$root" ] || fail "the context names no root_pid"
nchecks=$((nchecks + 1))
# the root's first reading: held before its exec, as schedreplay
ctx | grep -q "^#context task pid=$root ts=start .* tree=1 " ||
	fail "the command ($root) is not read at the start, in the tree"
# every tree=1 task descends from the root: its forks in the trace
tree_pids=$(ctx | grep -E ' tree=1( |$)' | sed 's/.* pid=\([0-9]*\) .*/\1/' |
	sort -un)
forked=$(awk -v root="$root" '
	$3 == "fork" { split($4, a, "="); split($5, b, "=");
		if (a[2] in t || a[2] == root) t[b[2]] = 1 }
	END { print root; for (p in t) print p }' w.native | sort -un)
[ "$tree_pids" = "$forked" ] ||
	fail "tree=1 tasks ($tree_pids) are not the root's descendants ($forked)"
nchecks=$((nchecks + 1))
# the taskset child, read at its exec: cpus=0; the niced one's nice
ctx | grep ' tree=1 ' | grep -q ' cpus=0 ' ||
	fail "no task of the tree read with cpus=0 (taskset -c 0)"
ctx | grep ' tree=1 ' | grep -q " nice=$want_nice " ||
	fail "no task of the tree read with nice=$want_nice (nice -n 7)"
nchecks=$((nchecks + 2))
# the tree by name, no pattern: --only-tree '' replays exactly its tasks
expect_status 0 "$SR" replay w.dat -o rt --only-tree '' --policy observed -q
replayed=$(awk -F'\t' 'NR > 1 { print $1 }' rt/observed/summary.tsv | sort -un)
[ "$replayed" = "$tree_pids" ] ||
	fail "--only-tree '' replayed pids ($replayed), the tree is ($tree_pids)"
nchecks=$((nchecks + 1))
ctx | grep -q '^#context kernel release="' || fail "no kernel release"
ctx | grep -q "^#context machine ncpus=$(nproc) " ||
	fail "the context's ncpus is not $(nproc)"
nchecks=$((nchecks + 2))
# trace-cmd reads our file: the same switches
if command -v trace-cmd >/dev/null 2>&1; then
	theirs=$(trace-cmd report w.dat 2>/dev/null | grep -c ' sched_switch: ')
	ours=$(grep -c '^[0-9.]* [0-9]* switch ' w.native)
	[ "$theirs" -gt 0 ] && [ "$theirs" -eq "$ours" ] ||
		fail "trace-cmd report counts $theirs switches, convert $ours"
	nchecks=$((nchecks + 1))
fi

# Ctrl-C at a terminal: SIGINT to record and its command (one process
# group): the file is kept, and record exits as its command did (130).
# (A shell's background job ignores SIGINT, and so would its command:
# python starts them in a group of their own with the default action.)
need python3 python3
python3 -c '
import os, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "record", "-q", "-o", "c.dat", "--",
		      "sleep", "10"], start_new_session=True,
		     preexec_fn=lambda: signal.signal(signal.SIGINT,
						      signal.SIG_DFL))
time.sleep(1)
os.killpg(p.pid, signal.SIGINT)
sys.exit(0 if p.wait() == 130 else 1)' "$SR" ||
	fail "Ctrl-C of record -- sleep: not exit 130"
nchecks=$((nchecks + 1))
expect_status 0 "$SR" stats c.dat

# -a: Ctrl-C and --duration
"$SR" record -q -a -o a.dat 2>a.err &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ "$rc" -eq 0 ] || fail "record -a after SIGINT: exit $rc ($(cat a.err))"
expect_status 0 "$SR" stats a.dat
expect_status 0 "$SR" record -q -a --duration 0.3 -o d.dat
expect_status 0 "$SR" convert d.dat -o d.native
grep -q '^#context machine .*system_wide=1' d.native ||
	fail "record -a: the context does not say system_wide=1"
nchecks=$((nchecks + 1))

# losses: the recorder stopped while its command runs a burst of forks
expect_status 0 "$SR" record --buffer-size 64 -o l.dat -- sh -c '
	kill -STOP $PPID
	for i in $(seq 200); do /bin/true; done
	kill -CONT $PPID'
expect_err 'LOST [0-9]+ events \(cpu [0-9]+: [0-9]+'
expect_err 'raise --buffer-size \(now 64 KiB per cpu\)'
summary=$(sed -n 's/.*LOST \([0-9]*\) events.*/\1/p' "$T/err")
expect_status 0 "$SR" convert l.dat -o l.native
# a page that follows lost events says so, with their count when it has
# room for it (count=0: unknown): the counts the pages hold are at most
# what the cpus' stats counted, which the context and the summary give
markers=$(grep -c '^[0-9.]* [0-9]* lost' l.native)
marked=$(awk '$3 == "lost" { split($4, a, "="); n += a[2] } END { print n + 0 }' l.native)
said=$(sed -n 's/^#context loss cpu=[0-9]* lost=\([0-9]*\)$/\1/p' l.native |
	awk '{ n += $1 } END { print n + 0 }')
[ "$markers" -gt 0 ] && [ "$marked" -le "$said" ] && [ "$said" -eq "$summary" ] ||
	fail "lost: $markers markers in the pages counting $marked, context $said, summary $summary"
nchecks=$((nchecks + 1))
# no instance of ours is left behind
ls "$tracing/instances" | grep -q '^schedreplay-record-' &&
	fail "an instance schedreplay-record-* was left in $tracing/instances"
nchecks=$((nchecks + 1))
echo "record.sh: $nchecks checks passed"
