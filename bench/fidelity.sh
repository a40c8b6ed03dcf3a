#!/bin/sh
# make fidelity: how closely each committed fidelity recording
# (traces/fidelity, README.md there) is reproduced by its replay under the
# recording kernel's model (eevdf-6.18), with cfs, stock and o11int beside
# it: per recording and policy the median over tasks (20 switches or more
# recorded) of |log2| of the p50 and p99 delays, replayed against
# recorded, and the switches replayed / recorded (docs/replay.md,
# "Fidelity").  Printed, never checked: tests/compare/fidelity-bands.sh
# holds eevdf-6.18's figures.
set -u
: "${SCHEDREPLAY:?run through make fidelity}"
printf '%-14s %-11s %6s %6s %8s %6s\n' recording policy p50 p99 switches tasks
for f in traces/fidelity/*.gz; do
	name=${f##*/}
	name=${name%%.*}
	"$SCHEDREPLAY" fidelity -q --tsv --policy eevdf-6.18 --policy cfs \
		--policy stock --policy o11int "$f" |
	awk -F'\t' -v n="$name" 'NR > 1 {
		printf "%-14s %-11s %6.2f %6.2f %8.2f %6d\n", n, $2, $5, $6, $10, $4
	}' || exit 1
done
