#!/bin/sh
# traces/fidelity/record.sh TAG [NAME...]: record the fidelity workloads
# (README.md) with perf sched record into TAG-NAME.perf.data.gz in the
# current directory.  TAG says how the machine was (quiet: nothing else
# running; loaded: other work keeping its CPUs busy); NAME is one or more
# of hogs make nice msg pipe (default: all five).  Needs root (perf sched
# record traces every CPU), perf, a C compiler, make and git; run it from
# anywhere inside the schedreplay tree (the make workload builds a copy of
# it).
set -eu
[ $# -ge 1 ] || { echo "usage: record.sh TAG [NAME...]" >&2; exit 64; }
tag=$1; shift
names=${*:-hogs make nice msg pipe}
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
out=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fidrec.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cc -O2 -o "$work/hog" "$here/hog.c"
cc -O2 -o "$work/sleeper" "$here/sleeper.c"
mkdir "$work/src"
git -C "$top" archive HEAD | tar -x -C "$work/src"
cd "$work"

# rec NAME COMMAND: one recording, as perf sched record's own events plus
# sched_wakeup; 8 MB buffers per CPU so that nothing is lost
rec() {
	name=$1; shift
	perf sched record -m 8192 -e sched:sched_wakeup -o "$tag-$name.perf.data" \
		-- sh -c "$*" >/dev/null 2>"$tag-$name.log"
	tail -1 "$tag-$name.log"
	gzip -9 -n -c "$tag-$name.perf.data" >"$out/$tag-$name.perf.data.gz"
}

for n in $names; do
	case $n in
	hogs) rec hogs './hog 6 & ./hog 6 & ./sleeper 6; wait' ;;
	make) rec make '(cd src && make -j4 OPT=-O1 schedreplay >/dev/null 2>&1) & ./sleeper 8; wait' ;;
	nice) rec nice 'taskset -c 0 ./hog 6 & taskset -c 0 nice -n 10 ./hog 6; wait' ;;
	msg) rec msg 'perf bench sched messaging -g 5 -l 400 >/dev/null' ;;
	pipe) rec pipe 'perf bench sched pipe -l 20000 >/dev/null' ;;
	*) echo "record.sh: no workload $n (hogs make nice msg pipe)" >&2; exit 64 ;;
	esac
done
