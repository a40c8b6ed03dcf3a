#!/bin/sh
# bench/interbench.sh: `schedreplay interbench`'s full grid (its 4 tasks x
# interbench's default loads, every policy, 1 and 2 CPUs; docs/interbench.md)
# for `make bench`: wall time, CPU time (user + system) and peak RSS, median
# of SR_BENCH_IB_RUNS (default 3) runs on one thread per CPU, interleaved
# with as many on one thread; the target is a minute of wall time.  The
# output of both must be the same bytes.  Then once with Hack as well.
set -u
: "${SCHEDREPLAY:?}" "${BENCH_TMP:?}"
SR=$SCHEDREPLAY
tmp=$BENCH_TMP/interbench
mkdir -p "$tmp"
RUNS=${SR_BENCH_IB_RUNS:-3}

# one J [OPTION...]: run the grid with -j J (0: the default) and the
# options, append "wall cpu kb" to $tmp/t.J
one() {
	j=$1
	shift
	[ "$j" -eq 0 ] || set -- "$@" -j "$j"
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$SR" interbench \
		--cpus 1 --cpus 2 -o "$tmp/out.$j" "$@" 2>"$tmp/err" ||
		{ sed 's/^/     /' "$tmp/err"; return 1; }
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$tmp/time" >>"$tmp/t.$j"
}
med() { # med FILE COLUMN: the median of a column
	awk -v c="$2" '{ print $c }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

i=0
while [ "$i" -lt "$RUNS" ]; do
	one 0 || exit 1
	one 1 || exit 1
	i=$((i + 1))
done
cmp -s "$tmp/out.0" "$tmp/out.1" ||
	{ echo "   the output differs between -j 1 and the default"; exit 1; }
runs=$(grep -v '^Load	' "$tmp/out.0" | grep -c '^[A-Z][a-z]*	')
for j in 0 1; do
	printf "   grid, %s runs, %-18s median of %d: %6.1f s wall, %6.1f s CPU, peak RSS %5.1f MB (target: 60 s wall)\n" \
		"$runs" "$( [ $j -eq 0 ] && echo "one thread per CPU" || echo "-j 1")" "$RUNS" \
		"$(med "$tmp/t.$j" 1)" "$(med "$tmp/t.$j" 2)" \
		"$(med "$tmp/t.$j" 3 | awk '{ print $1 / 1024 }')"
done
rm -f "$tmp/t.0"
one 0 --load none --load video --load x --load burn --load write \
	--load read --load compile --load hack || exit 1
runs=$(grep -v '^Load	' "$tmp/out.0" | grep -c '^[A-Z][a-z]*	')
printf "   grid with Hack, %s runs, one thread per CPU:  %6.1f s wall, %6.1f s CPU, peak RSS %5.1f MB\n" \
	"$runs" "$(med "$tmp/t.0" 1)" "$(med "$tmp/t.0" 2)" \
	"$(med "$tmp/t.0" 3 | awk '{ print $1 / 1024 }')"
