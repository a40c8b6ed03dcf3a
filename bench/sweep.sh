#!/bin/sh
# bench/sweep.sh: the sweep's `make bench` section: what a Slurm task of a
# sweep takes against what sweep.sbatch asks for it (--time, --mem: the
# estimate of compare/sweep-slurm.h, docs/sweep.md "What a task asks of
# Slurm").  A sweep of one job of 8 cells (8 policies) on the largest
# sample of traces/ (else the perf fixture of tests/replay/data/), made 1
# and 16 times as long by bench/trace-gen --copies, is written with --emit
# slurm; its task is then run here as Slurm would run it (the script, with
# SLURM_ARRAY_TASK_ID=1) under /usr/bin/time: CPU time (user + system) and
# peak RSS, beside the script's --time and --mem and how many times the
# measure each is.  Target: every figure under what the script asks, with
# room (the rule's margins are 3 for time, 2 for memory, over the floors).
. bench/lib.sh
bench_dir sweep
[ -x "$GEN" ] || { echo "   $GEN missing (make bench builds it)"; exit 1; }
POLICIES=$("$SR" policies | awk '/^[^ ]/ { print $1 }' | head -n 8)

largest=$(ls -S traces/*.gz 2>/dev/null | head -n 1)
[ -n "$largest" ] || largest=$(ls -S tests/replay/data/*.perf.txt.gz | head -n 1)
gzip -dc "$largest" >"$tmp/x1.txt" || exit 1
"$GEN" --copies 16 "$tmp/x1.txt" "$tmp/x16.txt" || exit 1

echo "   one job of 8 cells ($(echo $POLICIES | tr ' ' ',')) on $largest"
echo "   copies    events   CPU s  peak MB   --time  --mem   time asked/used  memory asked/used"
for n in 1 16; do
	rm -rf "$tmp/sw"
	# shellcheck disable=SC2086
	"$SR" sweep "$tmp/x$n.txt" $(printf -- '--policy %s ' $POLICIES) \
		-o "$tmp/sw" --emit slurm -q || exit 1
	SLURM_ARRAY_TASK_ID=1 /usr/bin/time -f "%U %S %M" -o "$tmp/time" \
		sh "$tmp/sw/sweep.sbatch" >/dev/null 2>"$tmp/err" ||
		{ echo "   x$n: the task failed:"; sed 's/^/     /' "$tmp/err"; exit 1; }
	awk -v n="$n" '
	FILENAME ~ /time$/ { cpu = $1 + $2; mb = $3 / 1024; next }
	/^# --time and --mem: .* job, [0-9]+ events$/ { ev = $(NF - 1) }
	/^#SBATCH --time=/ { sub(/.*=/, ""); min = $0 }
	/^#SBATCH --mem=/ { sub(/.*=/, ""); sub(/M$/, ""); mem = $0 }
	END {
		printf "   x%-6s %9d %7.2f %8.1f %6d min %5d M %12.0f %17.1f\n",
			n, ev, cpu, mb, min, mem, min * 60 / (cpu > 0 ? cpu : 0.01),
			mem / (mb > 0 ? mb : 1)
	}' "$tmp/time" "$tmp/sw/sweep.sbatch"
done
rm -rf "$tmp"
