# perf-agreement: `schedreplay stats` agrees with `perf sched latency -p`.
#
# For every recording that comes with perf's own output, TRACE.perf.txt.gz
# (`perf script` text of a `perf sched record`) beside
# TRACE.perf-latency.txt (`perf sched latency -p` on the same perf.data),
# in tests/replay/data/ and traces/: every perf row must have a stats row
# with the same pid, and runtime, switches, avg and max delay must agree up
# to perf's printed rounding (0.0005 ms); with nanosecond timestamps the
# max delay's start and end must print the same too.  Timestamps printed
# to the microsecond (perf script without --ns) move each delay by up to
# 1 us, so avg and max then get 0.0015 ms.  Every stats row with switches
# must be one of perf's rows.
#
# Where TRACE.perf-latency-comm.txt (`perf sched latency`, merged by comm)
# is there too, `stats --by-comm` must agree on every comm that both name
# with the same number of tasks (names can differ, docs/metrics.md: a
# kworker perf named from /proc, a thread perf never learnt): same
# runtime, switches, avg and max within the same tolerances.
#
# perf 6.1 prints "Switches" in its header and counts as --compat perf-6.1
# (docs/metrics.md); later perf prints "Count" and counts as --compat perf.
# SR_PERF_COMPAT overrides.
#
# The recordings of traces/binary keep their perf.data (TRACE.perf.data.gz)
# beside the text: stats read from it must agree with perf just the same
# (nanosecond timestamps: the exact tolerances).
. tests/lib/lib.sh

ntraces=0
for lat in tests/replay/data/*.perf-latency.txt traces/*.perf-latency.txt \
	   traces/binary/*.perf-latency.txt; do
	[ -f "$lat" ] || continue
	text=${lat%.perf-latency.txt}.perf.txt.gz
	[ -f "$text" ] || fail "$lat has no $text beside it"
	for trace in "$text" "${lat%.perf-latency.txt}.perf.data.gz"; do
	[ -f "$trace" ] || continue
	ntraces=$((ntraces + 1))
	if [ -n "${SR_PERF_COMPAT:-}" ]; then
		compat=$SR_PERF_COMPAT
	elif grep -q 'Switches' "$lat"; then
		compat=perf-6.1
	else
		compat=perf
	fi
	expect_status 0 "$SR" stats --tsv --compat "$compat" "$trace"
	cp "$T/out" "$T/ours.tsv"
	# ns timestamps: perf.data, or the first event line's time has 9
	# decimals
	if [ "$trace" != "$text" ] || gzip -dc "$trace" | head -n 50 |
		grep -Eq '^ *.* +-?[0-9]+ +\[[0-9]+\] +[0-9]+\.[0-9]{9}:'; then
		tol=0.0005 exact_bounds=1
	else
		tol=0.0015 exact_bounds=0
	fi
	nchecks=$((nchecks + 1))
	awk -F '\t' -v tol="$tol" -v exact_bounds="$exact_bounds" -v name="$trace" '
	function abs(x) { return x < 0 ? -x : x }
	function trunc6(s,   i) { i = index(s, "."); return substr(s, 1, i + 6) }
	FNR == 1 { file++ }
	file == 1 && FNR > 1 {   # ours: pid comm runtime switches ... 
		if ($1 == "-") next
		n = ++ours[$1]
		o_rt[$1, n] = $3; o_sw[$1, n] = $4; o_avg[$1, n] = $6
		o_max[$1, n] = $10; o_st[$1, n] = $11; o_en[$1, n] = $12
		next
	}
	file == 2 && /\| avg:/ {
		# "  comm:pid | 1.234 ms | 5 | avg: 0.1 ms | max: 0.2 ms |
		#    max start: 12.345678 s | max end: 12.345679 s"
		split($0, f, "|")
		task = f[1]; sub(/ +$/, "", task)
		pid = task; sub(/.*:/, "", pid)
		rt = f[2]; gsub(/[^0-9.]/, "", rt)
		sw = f[3]; gsub(/[^0-9]/, "", sw)
		avg = f[4]; gsub(/[^0-9.]/, "", avg)
		mx = f[5]; gsub(/[^0-9.]/, "", mx)
		st = f[6]; gsub(/[^0-9.]/, "", st)
		en = f[7]; gsub(/[^0-9.]/, "", en)
		n = ++perf[pid]
		p_rt[pid, n] = rt; p_sw[pid, n] = sw; p_avg[pid, n] = avg
		p_max[pid, n] = mx; p_st[pid, n] = st; p_en[pid, n] = en
		p_task[pid, n] = task
	}
	END {
		rows = 0; bad = 0; dmax = 0
		for (pid in perf) {
			# pid reuse: pair rows of one pid by switches then runtime
			np = perf[pid]; no = 0
			for (k = 1; k <= ours[pid]; k++)
				if (o_sw[pid, k] > 0) { no++; oi[no] = k }
			if (np != no) {
				printf "%s: pid %s: perf has %d row(s), stats %d\n", name, pid, np, no
				bad++; continue
			}
			for (a = 1; a <= np; a++) used[a] = 0
			for (a = 1; a <= np; a++) {
				best = 0
				for (b = 1; b <= no; b++) {
					k = oi[b]
					if (used[b] || o_sw[pid, k] != p_sw[pid, a]) continue
					if (abs(o_rt[pid, k] - p_rt[pid, a]) > 0.0005 + 1e-9) continue
					best = b; break
				}
				if (!best) {
					printf "%s: %s: perf runtime %s switches %s: no stats row agrees\n", name, p_task[pid, a], p_rt[pid, a], p_sw[pid, a]
					bad++; continue
				}
				used[best] = 1; k = oi[best]; rows++
				d1 = abs(o_avg[pid, k] - p_avg[pid, a])
				d2 = abs(o_max[pid, k] - p_max[pid, a])
				if (d1 > dmax) dmax = d1
				if (d2 > dmax) dmax = d2
				if (d1 > tol + 1e-9 || d2 > tol + 1e-9) {
					printf "%s: %s: avg %s vs perf %s, max %s vs perf %s\n", name, p_task[pid, a], o_avg[pid, k], p_avg[pid, a], o_max[pid, k], p_max[pid, a]
					bad++
				}
				if (exact_bounds && (trunc6(o_st[pid, k]) != p_st[pid, a] || trunc6(o_en[pid, k]) != p_en[pid, a])) {
					printf "%s: %s: max delay %s-%s vs perf %s-%s\n", name, p_task[pid, a], o_st[pid, k], o_en[pid, k], p_st[pid, a], p_en[pid, a]
					bad++
				}
			}
		}
		for (pid in ours)
			for (k = 1; k <= ours[pid]; k++)
				if (o_sw[pid, k] > 0 && !(pid in perf)) {
					printf "%s: stats has pid %s with %s switches, perf has no row\n", name, pid, o_sw[pid, k]
					bad++
				}
		if (rows == 0) { printf "%s: no rows compared\n", name; bad++ }
		printf "%s: %d rows compared, max avg/max difference %.6f ms (tolerance %s)\n", name, rows, dmax, tol
		exit bad ? 1 : 0
	}' "$T/ours.tsv" "$lat" || fail "$trace: stats disagrees with perf sched latency ($compat)"
	latc=${lat%.perf-latency.txt}.perf-latency-comm.txt
	[ -f "$latc" ] || continue
	expect_status 0 "$SR" stats --tsv --by-comm --compat "$compat" "$trace"
	nchecks=$((nchecks + 1))
	awk -F '\t' -v tol="$tol" -v name="$trace (by comm)" '
	function abs(x) { return x < 0 ? -x : x }
	FNR == 1 { file++ }
	file == 1 && FNR > 1 {
		o_n[$2] = $13; o_rt[$2] = $3; o_sw[$2] = $4; o_avg[$2] = $6
		o_max[$2] = $10; next
	}
	file == 2 && /\| avg:/ {
		split($0, f, "|")
		task = f[1]; sub(/^ +/, "", task); sub(/ +$/, "", task)
		# "comm:(N)" when merged, else "comm:pid"
		if (match(task, /:\([0-9]+\)$/)) {
			n = substr(task, RSTART + 2, RLENGTH - 3); comm = substr(task, 1, RSTART - 1)
		} else {
			n = 1; comm = task; sub(/:[0-9]+$/, "", comm)
		}
		nperf++
		if (!(comm in o_n) || o_n[comm] != n) { skipped++; next }
		rt = f[2]; gsub(/[^0-9.]/, "", rt); sw = f[3]; gsub(/[^0-9]/, "", sw)
		avg = f[4]; gsub(/[^0-9.]/, "", avg); mx = f[5]; gsub(/[^0-9.]/, "", mx)
		rows++
		d = abs(o_avg[comm] - avg); if (abs(o_max[comm] - mx) > d) d = abs(o_max[comm] - mx)
		if (d > dmax) dmax = d
		if (o_sw[comm] != sw || abs(o_rt[comm] - rt) > 0.0005 + 1e-9 || d > tol + 1e-9) {
			printf "%s: %s: stats runtime %s switches %s avg %s max %s; perf %s %s %s %s\n", name, task, o_rt[comm], o_sw[comm], o_avg[comm], o_max[comm], rt, sw, avg, mx
			bad++
		}
	}
	END {
		if (rows == 0) { printf "%s: no rows compared\n", name; bad++ }
		printf "%s: %d of %d rows compared (%d named differently), max avg/max difference %.6f ms\n", name, rows, nperf, skipped, dmax
		exit bad ? 1 : 0
	}' "$T/out" "$latc" || fail "$trace: stats --by-comm disagrees with perf sched latency ($compat)"
	done
done
[ "$ntraces" -gt 0 ] || fail "no recording with perf's output found"
done_ok
