#!/bin/bash
# traces/record.sh: record the sample scheduler traces of real workloads.
#
# Each sample is a system-wide `perf sched record` of a real workload on this
# machine, converted with `perf script` (default fields) and compressed, plus
# perf's own `perf sched latency` figures for the same perf.data (the
# reference that schedreplay stats is checked against).  See traces/README.md.
#
#   traces/record.sh [--out DIR] [--keep-data] [--binary] [--work DIR]
#                    [--duration S] [--max-other PCT] [--allow-niced]
#                    [--tries N] [--quiet-wait S] [--no-install] [NAME...]
#
# NAME is one or more of: compile audio x mixed (default: all four).
# Needs root (perf sched record traces system-wide; packages are installed
# with apt-get when missing).

set -euo pipefail

PROG=${0##*/}
ALL_SAMPLES="compile audio x mixed"

# Packages the recording needs.  linux-source-6.1 provides the C code that
# the compile sample builds (the Linux kernel, as in the 2003 complaint);
# flex, bison, bc, libelf-dev and libssl-dev are what its build needs.
PACKAGES="linux-perf xvfb xterm xdotool mpv sox libsox-fmt-all
	linux-source-6.1 xz-utils build-essential flex bison bc libelf-dev
	libssl-dev gzip"

# Events added to perf sched record's own set (sched_switch, sched_waking,
# sched_wakeup_new, sched_migrate_task, sched_process_fork,
# sched_stat_runtime):
# - sched_wakeup: perf sched record takes sched_waking when the kernel has
#   it, but perf 6.1's (Debian 12's) perf sched latency handles only
#   sched_wakeup and sched_wakeup_new: without sched_wakeup it sees no
#   ordinary wakeup at all and its delays are preemption delays only
#   (seen here).  Later perf prefers sched_waking when both are recorded.
# - sched_process_exit and sched_process_free mark the end of a pid (pid
#   reuse); one event per process each.
# Not sched_process_exec: its filename field would put paths of whatever else
# runs on the machine into the committed text (comm changes at exec still
# show in the following events' comm fields).
EXTRA_EVENTS="-e sched:sched_wakeup -e sched:sched_process_exit
	-e sched:sched_process_free"

# xdotool types one character every delay/2 ms, key press and key release
# delay/4 apart (measured here: --delay 80 gives 41 ms a character, --delay
# 160 gives 81 ms, press and release 40 ms apart).  160: a fast typist.
TYPE_DELAY=160

# Kernel directories compiled by the compile sample (objects removed first).
KERNEL_TARGETS="kernel/ mm/ fs/"
MAKE_JOBS=4

out=traces
work=${SR_RECORD_WORK:-/var/tmp/schedreplay-record}
duration=20
keep_data=0
binary=0
install=1
tries=6
max_other=2
allow_niced=0
quiet_wait=900

die() { echo "$PROG: $*" >&2; exit 1; }
# a tracefs instance of --binary must not outlive us
trap '[ -z "${ftrace_inst:-}" ] || { echo 0 > "$ftrace_inst/tracing_on"; rmdir "$ftrace_inst"; } 2>/dev/null' EXIT
note() { echo "$PROG: $*" >&2; }

usage() {
	cat <<EOF
usage: $PROG [--out DIR] [--keep-data] [--binary] [--work DIR]
       [--duration S] [--max-other PCT] [--allow-niced] [--tries N]
       [--quiet-wait S] [--no-install] [NAME...]

Records sample traces of real workloads with \`perf sched record\` (as root).
NAME: $ALL_SAMPLES (default: all)

  --out DIR       where to write NAME.perf.txt.gz, NAME.perf-latency.txt and
                  NAME.perf-latency-comm.txt (default: traces)
  --keep-data     also keep DIR/NAME.perf.data next to its text (for make
                  bench: time perf sched latency on the same recording)
  --binary        also record the run with a tracefs instance (trace-cmd
                  extract), and keep the binaries beside the texts when
                  under 2 MB each: NAME.perf.data.gz (traces/bintool.py
                  perf-strip: no file names or host details) and
                  NAME.trace.dat (trace-cmd's own file, else rewritten
                  without kallsyms and gzipped); the perf text
                  NAME.perf.txt.gz is then perf script --ns of the
                  stripped file
  --work DIR      build tree, audio file and scratch space
                  (default: \$SR_RECORD_WORK or /var/tmp/schedreplay-record)
  --duration S    seconds each workload runs (default: 20; 8 to 28)
  --max-other PCT re-record when tasks outside the workload (and perf) used
                  more than PCT % of the machine's CPU time (default: 2;
                  100: keep whatever else ran)
  --allow-niced   do not count niced (nice > 0) tasks of others as activity,
                  neither when waiting for an idle machine nor in --max-other
                  (they still are in the trace)
  --tries N       recordings to try per sample before giving up (default: 6)
  --quiet-wait S  wait up to S seconds for an idle machine before each
                  recording (default: 900)
  --no-install    do not apt-get install missing packages
EOF
}

# ---------------------------------------------------------------------------
# Workloads.  These functions run inside the recorded command
# (perf sched record ... -- bash -c 'sr_workload NAME'), exported with
# export -f so that no local path shows up in the trace's exec events.
# Settings come in the environment: SR_WORK, SR_DURATION, SR_KERNEL,
# SR_TYPE_DELAY, SR_MAKE_JOBS, SR_KERNEL_TARGETS, SR_LOG.

sr_log() { echo "$*" >> "$SR_LOG"; }

sr_now_ms() { local t; t=$(date +%s%N); echo $((t / 1000000)); }

# Start make -jN on the kernel tree in its own process group.
sr_start_compile() {
	# shellcheck disable=SC2086
	setsid make -C "$SR_KERNEL" -j"$SR_MAKE_JOBS" $SR_KERNEL_TARGETS \
		> "$SR_WORK/make.log" 2>&1 &
	SR_MAKE_PID=$!
}

sr_stop_compile() {
	if kill -0 "$SR_MAKE_PID" 2>/dev/null; then
		kill -TERM -- "-$SR_MAKE_PID" 2>/dev/null || true
		sr_log "compile: still compiling when stopped (good)"
	else
		sr_log "compile: make had finished before the end (BAD)"
	fi
	wait "$SR_MAKE_PID" 2>/dev/null || true
}

# Play the audio file through mpv's null output (which keeps real time).
sr_start_audio() {
	SR_MPV_START=$(sr_now_ms)
	mpv --no-config --ao=null --vo=null --really-quiet \
		"$SR_WORK/music.ogg" > "$SR_WORK/mpv.log" 2>&1 &
	SR_MPV_PID=$!
}

sr_wait_audio() {
	local rc=0 end
	wait "$SR_MPV_PID" || rc=$?
	end=$(sr_now_ms)
	sr_log "audio: mpv exit $rc, played $SR_DURATION s of audio in" \
		"$((end - SR_MPV_START)) ms of wall time"
}

# Xvfb on a free display, an xterm running an interactive shell in it.
sr_start_x() {
	local n=42 i
	while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do
		n=$((n + 1))
	done
	export DISPLAY=:$n
	Xvfb "$DISPLAY" -screen 0 1024x768x24 -nolisten tcp \
		> "$SR_WORK/xvfb.log" 2>&1 &
	SR_XVFB_PID=$!
	for i in $(seq 100); do
		xdotool getdisplaygeometry > /dev/null 2>&1 && break
		[ "$i" -lt 100 ] || { sr_log "x: Xvfb did not start"; return 1; }
		sleep 0.05
	done
	mkdir -p "$SR_WORK/home"
	(cd "$SR_WORK/home" && exec xterm -geometry 100x30+0+0 -e \
		env -i PATH=/usr/bin:/bin HOME=. TERM=xterm PS1='$ ' \
		HISTFILE=/dev/null bash --norc --noprofile -i) \
		> "$SR_WORK/xterm.log" 2>&1 &
	SR_XTERM_PID=$!
	SR_XWIN=$(xdotool search --sync --class xterm | head -n 1)
	xdotool windowfocus --sync "$SR_XWIN"
	xdotool mousemove --window "$SR_XWIN" 100 100
}

# Type shell commands into the xterm at a human pace for SR_DURATION s.
sr_type() {
	local rc=0 start end
	start=$(sr_now_ms)
	timeout -s TERM "$SR_DURATION" xdotool type --delay "$SR_TYPE_DELAY" \
		--file "$SR_WORK/typing.txt" || rc=$?
	end=$(sr_now_ms)
	sr_log "x: typed for $((end - start)) ms (timeout exit $rc)"
}

sr_stop_x() {
	kill -TERM "$SR_XTERM_PID" 2>/dev/null || true
	wait "$SR_XTERM_PID" 2>/dev/null || true
	kill -TERM "$SR_XVFB_PID" 2>/dev/null || true
	wait "$SR_XVFB_PID" 2>/dev/null || true
}

sr_workload() {
	case "$1" in
	compile)
		sr_start_compile
		sleep "$SR_DURATION"
		sr_stop_compile
		;;
	audio)
		sr_start_audio
		sr_wait_audio
		;;
	x)
		sr_start_x
		sr_type
		sr_stop_x
		;;
	mixed)
		sr_start_x
		sr_start_compile
		sr_start_audio
		sr_type
		sr_wait_audio
		sr_stop_compile
		sr_stop_x
		;;
	*)
		echo "unknown workload $1" >&2
		return 1
		;;
	esac
}

# ---------------------------------------------------------------------------
# Setup, outside the recording.

install_packages() {
	local missing="" p
	[ "$binary" -eq 0 ] || PACKAGES="$PACKAGES trace-cmd python3"
	for p in $PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing="$missing $p"
	done
	[ -n "$missing" ] || return 0
	[ "$install" -eq 1 ] || die "missing packages:$missing (drop --no-install)"
	note "installing:$missing"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing
}

# Unpack the kernel source once, configure it (defconfig) and build what
# every compile needs (make prepare), so the recording is the compile.
prepare_kernel() {
	local tarball stamp
	tarball=$(find /usr/src -maxdepth 1 -name 'linux-source-*.tar.*' |
		sort -V | tail -n 1)
	[ -n "$tarball" ] || die "no /usr/src/linux-source-*.tar.* (package linux-source-6.1)"
	stamp="$work/kernel.prepared"
	SR_KERNEL="$work/$(basename "$tarball" | sed 's/\.tar\..*//')"
	if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$tarball" ] ||
	   [ ! -d "$SR_KERNEL" ]; then
		note "unpacking and preparing $(basename "$tarball") in $work"
		rm -rf "$SR_KERNEL" "$stamp"
		tar -C "$work" -xf "$tarball"
		make -s -C "$SR_KERNEL" defconfig > "$work/prepare.log" 2>&1
		make -s -C "$SR_KERNEL" -j"$(nproc)" prepare >> "$work/prepare.log" 2>&1 ||
			die "kernel make prepare failed, see $work/prepare.log"
		echo "$tarball" > "$stamp"
	fi
	# Start each compile from the same state: the targets' objects removed.
	# shellcheck disable=SC2086
	(cd "$SR_KERNEL" && find $KERNEL_TARGETS \( -name '*.o' -o -name '*.a' \
		-o -name 'modules.order' \) -delete)
}

# A music-like file: a plucked pentatonic melody over a tremolo pad, with
# reverb, SR_DURATION s long, Ogg Vorbis (mpv decodes it with libavcodec).
make_music() {
	local notes="C4 E4 G4 A4 G4 E4 D4 C4 E4 G4 C5 A4 G4 E4 D4 E4" n args=()
	local bar=4 repeats
	for n in $notes; do
		args+=(synth 0.25 pluck "$n" fade 0 0.25 0.05 :)
	done
	unset 'args[${#args[@]}-1]'
	sox -n -r 44100 -c 2 -b 16 "$work/melody.wav" "${args[@]}"
	sox -n -r 44100 -c 2 -b 16 "$work/pad.wav" \
		synth $bar sine C3 sine G3 tremolo 4 40 vol 0.3
	repeats=$(( (duration + bar - 1) / bar - 1 ))
	sox -m "$work/melody.wav" "$work/pad.wav" -C 5 "$work/music-full.ogg" \
		repeat "$repeats" reverb 30 norm -3
	sox "$work/music-full.ogg" -C 5 "$work/music.ogg" trim 0 "$duration"
	rm -f "$work/melody.wav" "$work/pad.wav" "$work/music-full.ogg"
}

# What is typed into the xterm's shell: harmless commands and a note.
make_typing() {
	cat > "$work/typing.txt" <<'EOF'
echo typing into a shell in an xterm on a virtual X server
ls /usr/share/doc | head -n 12
printf '%s\n' one two three four five | sort -r
seq 1 20 | paste -sd+ | bc
cat > notes.txt
the cursor should keep up with the typing while the compiler runs
and the music should not skip either
EOF
	printf '\004' >> "$work/typing.txt"
	cat >> "$work/typing.txt" <<'EOF'
wc -w notes.txt
sort notes.txt
clear
echo once more from the top
EOF
	# Enough text for any duration (about 12 characters a second).
	local i
	for i in 1 2 3; do cat "$work/typing.txt"; done > "$work/typing3.txt"
	mv "$work/typing3.txt" "$work/typing.txt"
}

# ---------------------------------------------------------------------------
# Recording and conversion.

# Wait until the machine is idle (other users' builds would end up in a
# system-wide trace): at most 5 % of all CPUs busy over 3 s.
wait_quiet() {
	local waited=0 busy
	while :; do
		busy=$(cpu_busy_pct 3)
		[ "$busy" -gt 5 ] || return 0
		if [ "$waited" -ge "$quiet_wait" ]; then
			note "machine still ${busy}% busy after ${waited} s; recording anyway"
			return 0
		fi
		[ $((waited % 60)) -ne 0 ] ||
			note "machine ${busy}% busy, waiting for it to be idle"
		sleep 2
		waited=$((waited + 5))
	done
}

# Percentage of all CPUs' time spent busy over the next $1 seconds.
# /proc/stat's cpu line: user nice system idle iowait irq softirq steal;
# with --allow-niced, time in niced tasks counts as idle.
cpu_busy_pct() {
	local a b prog
	# shellcheck disable=SC2016
	prog='/^cpu / { n = niced ? 0 : $3; print $2 + n + $4 + $7 + $8 + $9, $5 + $6 + $3 - n }'
	a=$(awk -v niced="$allow_niced" "$prog" /proc/stat)
	sleep "$1"
	b=$(awk -v niced="$allow_niced" "$prog" /proc/stat)
	awk -v a="$a" -v b="$b" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		busy = y[1] - x[1]; idle = y[2] - x[2]
		print (busy + idle > 0) ? int(100 * busy / (busy + idle) + 0.5) : 0
	}'
}

# One pass over perf script text (comm may contain spaces): the time span,
# events by kind, and CPU time (sched_stat_runtime) of the recorded
# workload's process tree (the command perf ran, "perf-exec" before its
# exec, and everything it forked), of perf itself, and of everything else.
# shellcheck disable=SC2016
TRACE_SUMMARY_AWK='
function field(name,    s) {
	if (!match($0, " " name "=[^ ]+"))
		return ""
	s = substr($0, RSTART + 1, RLENGTH - 1)
	return substr(s, length(name) + 2)
}
match($0, /\] +[0-9]+\.[0-9]+: +[a-z0-9_]+:[a-z0-9_]+:/) {
	s = substr($0, RSTART + 1, RLENGTH - 2)
	sub(/^ +/, "", s)
	ts = s; sub(/:.*/, "", ts)
	ev = s; sub(/^[0-9.]+: +/, "", ev)
	if (!n++)
		first = ts
	last = ts
	kind[ev]++
	if (root == "" && match($0, /comm=perf-exec (next_|prev_)?pid=[0-9]+/)) {
		root = substr($0, RSTART, RLENGTH); sub(/.*=/, "", root)
		tree[root] = 1
	}
	if (ev == "sched:sched_switch")
		prio[field("prev_pid")] = field("prev_prio")
	if (ev == "sched:sched_switch") {
		cpu = $0; sub(/\].*/, "", cpu); sub(/.*\[/, "", cpu); cpu += 0
		switches[cpu]++
		if (field("prev_pid") == 0)
			from_idle[cpu]++
	}
	if (ev == "sched:sched_process_fork" && (field("pid") in tree))
		tree[field("child_pid")] = 1
	if (ev == "sched:sched_stat_runtime") {
		pid = field("pid"); rt = field("runtime")
		c = $0; sub(/.*sched_stat_runtime: comm=/, "", c); sub(/ pid=[0-9]+ runtime=.*/, "", c)
		if (pid in tree)
			work += rt
		else if (c == "perf")
			perf += rt
		else if (prio[pid] > 120 && prio[pid] < 140)
			niced += rt
		else {
			other += rt; oc[c] += rt
		}
	}
}
END {
	printf "span %.3f events %d workload_ms %.0f perf_ms %.0f other_ms %.0f niced_ms %.0f\n",
		last - first, n, work / 1e6, perf / 1e6, other / 1e6, niced / 1e6
	for (k in kind)
		printf "kind %s %d\n", k, kind[k]
	for (cpu in switches)
		printf "cpu %d %d %d\n", cpu, switches[cpu], from_idle[cpu]
	for (c in oc)
		if (oc[c] >= 20e6)
			printf "other %s %.0f\n", c, oc[c] / 1e6
}'

trace_summary() {
	gzip -dc "$1" | awk "$TRACE_SUMMARY_AWK"
}

# What a recording to be committed must not name: this run's directories,
# the home directory and the folder the repository sits in (derived here,
# not listed: another machine's are other paths).
private_paths() {
	printf '%s|%s|%s|%s|%s/' "$work" "$out_abs" "$repo_root" \
		"${HOME:-$repo_root}" "$(dirname "$repo_root")"
}

# Check that what will be committed names no local path or host.
check_private() {
	local file=$1 pat host
	pat=$(private_paths)
	# grep -c reads everything: with pipefail, grep -q would fail the
	# pipeline through gzip's SIGPIPE exactly when it matches.
	if [ "$(gzip -dc "$file" | grep -Ec -- "$pat")" -ne 0 ]; then
		note "a task left a local path in the trace:"
		gzip -dc "$file" | grep -Eo -- "[^ ]*($pat)[^ ]*" | sort -u |
			head -n 5 >&2
		return 1
	fi
	host=$(hostname 2>/dev/null || true)
	if [ "${#host}" -ge 4 ] &&
	   [ "$(gzip -dc "$file" | grep -cw -- "$host")" -ne 0 ]; then
		note "the trace mentions the host name $host"
		return 1
	fi
}

# --binary: the same run recorded by a tracefs instance, the events of
# perf sched record and EXTRA_EVENTS, extracted with trace-cmd as it
# writes trace.dat (trace-cmd record needs ftrace_enabled, which a VM may
# not allow; an instance and extract need nothing more).
FTRACE_EVENTS="sched_switch sched_waking sched_wakeup sched_wakeup_new
	sched_process_fork sched_process_exit sched_process_free
	sched_migrate_task sched_stat_runtime"
tracefs=/sys/kernel/tracing
ftrace_inst=""

ftrace_start() {
	local e
	[ -d "$tracefs/instances" ] || mount -t tracefs nodev "$tracefs" ||
		die "no tracefs at $tracefs"
	ftrace_inst=$tracefs/instances/schedreplay-record-$$
	mkdir "$ftrace_inst" || die "cannot make the tracefs instance $ftrace_inst"
	echo 65536 > "$ftrace_inst/buffer_size_kb"
	for e in $FTRACE_EVENTS; do
		echo 1 > "$ftrace_inst/events/sched/$e/enable"
	done
	echo 1 > "$ftrace_inst/tracing_on"
}

ftrace_stop() { # ftrace_stop OUT.dat
	local rc=0
	echo 0 > "$ftrace_inst/tracing_on"
	trace-cmd extract -B "${ftrace_inst##*/}" -o "$1" \
		> "${1%.trace.dat}.extract.log" 2>&1 || rc=1
	rmdir "$ftrace_inst" 2>/dev/null || true  # extract may remove it
	ftrace_inst=""
	return $rc
}

# One recording of sample $1 into $data and the converted text into $tmp.gz.
# Fails when the result is not clean enough to keep (returns 1).
record_attempt() {
	local name=$1 log="$work/$1.log" sum other cap

	case "$name" in
	compile|mixed) prepare_kernel ;;
	esac
	wait_quiet
	: > "$log"
	rm -f "$data" "$data.old"
	note "recording $name ($duration s)"
	[ "$binary" -eq 0 ] || ftrace_start
	# shellcheck disable=SC2086,SC2016
	SR_WORK="$work" SR_DURATION="$duration" SR_KERNEL="${SR_KERNEL:-}" \
	SR_TYPE_DELAY="$TYPE_DELAY" SR_MAKE_JOBS="$MAKE_JOBS" \
	SR_KERNEL_TARGETS="$KERNEL_TARGETS" SR_LOG="$log" \
		perf sched record -o "$data" $EXTRA_EVENTS -- \
		bash -c 'sr_workload "$1"' sr-workload "$name" \
		> "$work/$name.perf-record.log" 2>&1 ||
		die "perf sched record failed, see $work/$name.perf-record.log"
	[ "$binary" -eq 0 ] || ftrace_stop "$work/$name.trace.dat" ||
		die "trace-cmd extract failed, see $work/$name.extract.log"
	sed 's/^/  /' "$log" >&2
	if grep -q BAD "$log"; then
		note "the workload did not run as intended"
		return 1
	fi

	if [ "$binary" -eq 1 ]; then
		# the text of exactly what is kept: the stripped file, in ns
		python3 "$repo_root/traces/bintool.py" perf-strip "$data" \
			"$data.strip" || die "bintool perf-strip failed"
		mv "$data.strip" "$data"
	fi
	perf script $script_ns -i "$data" 2> "$work/$name.perf-script.err" |
		gzip -9 -n > "$tmp.gz"
	if grep -qi 'lost' "$work/$name.perf-script.err"; then
		note "perf script reports lost events:"
		cat "$work/$name.perf-script.err" >&2
		return 1
	fi
	check_private "$tmp.gz" || return 1
	[ "$max_other" -lt 100 ] || return 0
	sum=$(trace_summary "$tmp.gz")
	other=$(echo "$sum" | awk -v niced="$allow_niced" \
		'NR == 1 { print niced ? $10 : $10 + $12 }')
	cap=$(echo "$sum" | awk -v n="$(nproc)" -v pct="$max_other" \
		'NR == 1 { printf "%d", $2 * 10 * n * pct }')
	if [ "$other" -gt "$cap" ]; then
		note "tasks outside the workload ran ${other} ms (limit ${cap} ms):"
		echo "$sum" | awk '$1 == "other" { print "  " $0 }' >&2
		return 1
	fi
}

record_one() {
	local name=$1 try
	local data="$out/$name.perf.data" text="$out/$name.perf.txt.gz"
	local lat="$out/$name.perf-latency.txt"
	local latc="$out/$name.perf-latency-comm.txt"
	local tmp="$out/.$name.tmp.$$"

	try=1
	until record_attempt "$name"; do
		rm -f "$tmp.gz"
		[ "$try" -lt "$tries" ] || die "$name: no clean recording in $tries tries"
		try=$((try + 1))
		note "trying $name again ($try of $tries)"
	done
	perf sched latency -p -i "$data" > "$tmp.lat" 2> "$work/$name.lat.err"
	perf sched latency -i "$data" > "$tmp.latc" 2>> "$work/$name.lat.err"
	mv "$tmp.gz" "$text"
	mv "$tmp.lat" "$lat"
	mv "$tmp.latc" "$latc"
	[ "$binary" -eq 0 ] || keep_binaries "$name"
	if [ "$keep_data" -eq 1 ]; then
		note "kept $data"
	else
		rm -f "$data" "$data.old"
	fi
	summarize "$name" "$text"
}

# --binary: NAME.perf.data.gz and NAME.trace.dat (+ .gz) when under 2 MB,
# each with the text of the same file; a larger one is left out (the
# perf text stays: it is the sample).
BINARY_MAX=2000000
keep_binaries() {
	local name=$1 dat="$work/$1.trace.dat" pd="$out/$1.perf.data.gz"
	# the trace.dat's text only for the privacy check: trace-cmd report
	# remakes it (tests/parse/binary.sh does)
	local td="$out/$1.trace.dat" tt="$work/$1.trace.txt.gz"
	gzip -9 -n -c "$data" > "$pd"
	if [ "$(strings "$data" | grep -Ec -- "$(private_paths)")" -ne 0 ]; then
		note "$name: the stripped perf.data still names a local path: not kept"
		rm -f "$pd"
	elif [ "$(wc -c < "$pd")" -ge "$BINARY_MAX" ]; then
		note "$name: perf.data is $(wc -c < "$pd") bytes gzipped: not kept"
		rm -f "$pd"
	else
		note "kept $pd"
	fi
	rm -f "$td" "$td.gz" "$tt"
	if [ "$(wc -c < "$dat")" -lt "$BINARY_MAX" ]; then
		cp "$dat" "$td"
	else
		# without kallsyms and other systems' formats, then gzip
		trace-cmd convert -i "$dat" -o "$dat.v6" --file-version 6 \
			--compression none > /dev/null 2>&1 &&
		python3 "$repo_root/traces/bintool.py" trace-dat "$dat.v6" \
			"$td" --version 7
		rm -f "$dat.v6"
	fi
	[ -f "$td" ] && trace-cmd report -t -i "$td" 2> /dev/null |
		gzip -9 -n > "$tt"
	if [ -f "$td" ] && [ "$(wc -c < "$td")" -ge "$BINARY_MAX" ]; then
		gzip -9 -n "$td" && td=$td.gz
	fi
	if [ ! -f "$td" ] || [ "$(wc -c < "$td")" -ge "$BINARY_MAX" ]; then
		note "$name: trace.dat over 2 MB even rewritten: not kept"
		rm -f "$td" "$tt"
		return 0
	fi
	check_private "$tt" || { rm -f "$td" "$tt"; return 0; }
	note "kept $td"
}

summarize() {
	local name=$1 text=$2 sum
	sum=$(trace_summary "$text")
	echo "$sum" | awk -v name="$name" -v bytes="$(gzip -dc "$text" | wc -c)" \
		-v zbytes="$(wc -c < "$text")" '
	NR == 1 {
		printf "== %s: %d events over %s s, %d bytes of text, %d gzip-compressed\n",
			name, $4, $2, bytes, zbytes
		printf "   CPU time: workload %s ms, perf %s ms, other tasks %s ms" \
			" (and %s ms in niced ones)\n", $6, $8, $10, $12
	}
	$1 == "kind" { printf "%8d %s\n", $3, $2 | "sort -k2" }
	$1 == "other" { o = o sprintf(" %s %s ms,", $2, $3) }
	$1 == "cpu" {
		printf "   CPU %d: %d switches, %d of them out of its idle task\n",
			$2, $3, $4 | "sort -k2n"
		if ($4 == 0)
			noidle = noidle " " $2
	}
	END {
		if (o != "")
			print "   busiest other tasks:" o
		if (noidle != "")
			print "   note: no event from the idle task of CPU" noidle \
				" (the kernel traced none; see traces/README.md)"
	}'
}

# ---------------------------------------------------------------------------

samples=""
while [ $# -gt 0 ]; do
	case "$1" in
	--out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift ;;
	--out=*) out=${1#--out=} ;;
	--work) [ $# -ge 2 ] || die "--work needs a directory"; work=$2; shift ;;
	--work=*) work=${1#--work=} ;;
	--duration) [ $# -ge 2 ] || die "--duration needs seconds"; duration=$2; shift ;;
	--duration=*) duration=${1#--duration=} ;;
	--keep-data) keep_data=1 ;;
	--binary) binary=1 ;;
	--allow-niced) allow_niced=1 ;;
	--max-other) [ $# -ge 2 ] || die "--max-other needs a percentage"; max_other=$2; shift ;;
	--max-other=*) max_other=${1#--max-other=} ;;
	--tries) [ $# -ge 2 ] || die "--tries needs a count"; tries=$2; shift ;;
	--tries=*) tries=${1#--tries=} ;;
	--quiet-wait) [ $# -ge 2 ] || die "--quiet-wait needs seconds"; quiet_wait=$2; shift ;;
	--quiet-wait=*) quiet_wait=${1#--quiet-wait=} ;;
	--no-install) install=0 ;;
	-h|--help) usage; exit 0 ;;
	-*) usage >&2; exit 64 ;;
	*)
		case " $ALL_SAMPLES " in
		*" $1 "*) samples="$samples $1" ;;
		*) die "unknown sample '$1' (known: $ALL_SAMPLES)" ;;
		esac
		;;
	esac
	shift
done
samples=${samples:-$ALL_SAMPLES}
for v in "duration=$duration" "max-other=$max_other" "tries=$tries" \
	 "quiet-wait=$quiet_wait"; do
	case "${v#*=}" in
	''|*[!0-9]*) die "--${v%%=*} wants a whole number, got '${v#*=}'" ;;
	esac
done
if [ "$duration" -lt 8 ] || [ "$duration" -gt 28 ]; then
	die "--duration must be 8 to 28 s (samples are 10 to 30 s with setup)"
fi
[ "$(id -u)" -eq 0 ] || die "run as root: perf sched record traces system-wide"

repo_root=$(cd "$(dirname "$0")/.." && pwd)
# --binary: ns timestamps, so the text and the binary give the same figures
script_ns=""
[ "$binary" -eq 0 ] || script_ns=--ns
mkdir -p "$out" "$work"
out_abs=$(cd "$out" && pwd)
work=$(cd "$work" && pwd)

install_packages
note "$(perf --version), $(nproc) CPUs, kernel $(uname -r)"
make_music
make_typing

export -f sr_workload sr_log sr_now_ms sr_start_compile sr_stop_compile \
	sr_start_audio sr_wait_audio sr_start_x sr_type sr_stop_x

for s in $samples; do
	record_one "$s"
done
