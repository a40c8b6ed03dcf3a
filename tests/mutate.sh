#!/bin/sh
# mutate.sh [--check] [LIST [FILTER]]: mutation testing.  Each mutation of LIST
# (default tests/mutations; its header says the format) is applied alone
# to a scratch copy of the tree, which is built; the tests named for it
# run; a test that fails (or hangs past MUTATE_TIMEOUT seconds, 300)
# kills the mutant, and a mutant no test kills survives.  FILTER (a grep
# -E pattern) keeps the mutations whose file matches it.  Prints a line
# per mutation and the survivors; exits 1 when a survivor has no stated
# reason (`survives` in LIST), when a pattern is not in its file exactly
# once, or when a mutant does not build: the list is then out of date.
# --check only parses LIST and checks that each pattern is in its file
# exactly once and each test named exists (no build: a second or two).
#
# The scratch copy (tests/lib/scratch.sh) holds the files git knows,
# committed or not, and the normal build's objects (build/, when there),
# so that only the mutated file is compiled again.  `make mutate` runs
# this on the whole list; tests/harness/mutate.sh checks it on two.
# Environment: MUTATE_TIMEOUT (seconds a test may take), MUTATE_JOBS
# (make -j, 2).
set -u
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
list=${1:-tests/mutations}
filter=${2:-}
timeout=${MUTATE_TIMEOUT:-300}
jobs=${MUTATE_JOBS:-2}
here=$(pwd)
[ -f "$list" ] || { echo "mutate: no list $list" >&2; exit 2; }
case $list in /*) ;; *) list=$here/$list ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sr-mutate.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
tree=$tmp/tree

# The mutations as records: FILE, TESTS, OLD, NEW, WHY, the list's line
# (fields split by \034, records by \035; a newline in OLD or NEW is \036).
awk -v filter="$filter" '
	function flush() {
		if (old == "") return
		if (filter == "" || file ~ filter)
			printf "%s\034%s\034%s\034%s\034%s\034%d\035", file, tests, old, new, why, at
		old = new = why = ""; last = ""
	}
	/^#/ || /^[ \t]*$/ { next }
	/^file / { flush(); file = substr($0, 6); next }
	/^tests / { flush(); tests = substr($0, 7); next }
	/^- / { flush(); old = substr($0, 3); at = NR; last = "old"; next }
	/^\+ / { new = substr($0, 3); last = "new"; next }
	/^\+$/ { new = ""; last = "new"; next }
	/^\| / && last == "old" { old = old "\036" substr($0, 3); next }
	/^\| / && last == "new" { new = new "\036" substr($0, 3); next }
	/^survives / { why = substr($0, 10); next }
	{ printf "mutate: %s:%d: expected file, tests, - OLD, + NEW, | MORE or survives\n", FILENAME, NR > "/dev/stderr"; bad = 1 }
	END { flush(); exit bad }' "$list" >"$tmp/records" || exit 2

# apply FILE: write to $OUT FILE with the one occurrence of $OLD replaced
# by $NEW (\036 in them stands for a newline); 1 if OLD is not there
# exactly once.
apply() {
	awk 'BEGIN { old = ENVIRON["OLD"]; new = ENVIRON["NEW"]
		     gsub(/\036/, "\n", old); gsub(/\036/, "\n", new) }
		{ text = text $0 "\n" }
		END {
			rest = text
			while ((i = index(rest, old)) > 0) {
				n++
				rest = substr(rest, i + length(old))
			}
			if (n != 1) exit 1
			i = index(text, old)
			printf "%s", substr(text, 1, i - 1) new substr(text, i + length(old)) > ENVIRON["OUT"]
		}' "$1"
}

# target T: the binary test T needs (the program for a shell test)
target() {
	case $1 in *.sh) echo schedreplay ;; *) echo "build/tests/$1" ;; esac
}

# build TARGET...: make them in the scratch tree
build() {
	(cd "$tree" && make -j"$jobs" --no-print-directory BUILD=build SAN=0 \
		"$@") >"$tmp/build.log" 2>&1
}

# run_tests TESTS: each built (linked against the mutant) just before it
# runs, so that a mutant killed early costs one link; 0 when all pass,
# else 1 and $killer names the first to fail
run_tests() {
	for t in $1; do
		killer=$t
		build "$(target "$t")" || { killer="$t (does not link)"; return 1; }
		case $t in
		*.sh) (cd "$tree" && SCHEDREPLAY=$tree/schedreplay BUILD=build SAN=0 \
			timeout "$timeout" sh "tests/$t") >"$tmp/test.log" 2>&1 ;;
		*) (cd "$tree" && SCHEDREPLAY=$tree/schedreplay \
			timeout "$timeout" "./build/tests/$t") >"$tmp/test.log" 2>&1 ;;
		esac
		rc=$?
		[ $rc -eq 0 ] || { [ $rc -eq 124 ] && killer="$t (hung)"; return 1; }
	done
	return 0
}

# --check: every pattern once in its file, every test there
if [ $check -eq 1 ]; then
	bad=0 n=0
	tr '\035' '\n' <"$tmp/records" | {
		while IFS=$(printf '\034') read -r file tests old new why at; do
			[ -n "$file" ] || continue
			n=$((n + 1))
			if [ ! -f "$file" ] || ! OLD=$old NEW=$new OUT=/dev/null apply "$file"; then
				echo "mutate: $list:$at: $file: the pattern is not in it exactly once"
				bad=1
			fi
			for t in $tests; do
				case $t in *.sh) f=tests/$t ;; *) f=tests/$t.c ;; esac
				[ -f "$f" ] || { echo "mutate: $list:$at: no test $f"; bad=1; }
			done
		done
		echo "mutate: $n mutations checked"
		exit $bad
	}
	exit $?
fi

. tests/lib/scratch.sh
sr_scratch "$tree" || { echo "mutate: cannot copy the tree" >&2; exit 2; }

total=$(tr -cd '\035' <"$tmp/records" | wc -c)
[ "$total" -gt 0 ] || { echo "mutate: no mutation in $list${filter:+ matching $filter}" >&2; exit 2; }
echo "mutate: $total mutations; building the scratch tree"
# every test the list names must pass on the unmutated tree
all=$(tr '\035' '\n' <"$tmp/records" | awk -F '\034' 'NF { print $2 }' | tr ' ' '\n' | sort -u | tr '\n' ' ')
targets=schedreplay
for t in $all; do targets="$targets $(target "$t")"; done
build $targets || { cat "$tmp/build.log" >&2; echo "mutate: the unmutated tree does not build" >&2; exit 2; }
run_tests "$all" || { cat "$tmp/test.log" >&2; echo "mutate: $killer fails on the unmutated tree" >&2; exit 2; }

n=0 killed=0 survived=0 errors=0
: >"$tmp/survivors"
tr '\035' '\n' <"$tmp/records" | while IFS=$(printf '\034') read -r file tests old new why at; do
	[ -n "$file" ] || continue
	n=$((n + 1))
	where="$(basename "$list"):$at $file"
	shown_old=$(printf '%s' "$old" | tr '\036' '/' | tr -s '\t' ' ')
	shown_new=$(printf '%s' "$new" | tr '\036' '/' | tr -s '\t' ' ')
	cp "$tree/$file" "$tmp/orig"
	if ! OLD=$old NEW=$new OUT=$tree/$file apply "$tmp/orig"; then
		echo "[$n/$total] ERROR $where: '$shown_old' is not in the file exactly once"
		echo "E" >>"$tmp/survivors"
		continue
	fi
	if ! build build/libschedreplay.a; then
		echo "[$n/$total] ERROR $where: '$shown_old' -> '$shown_new' does not build"
		grep -m 5 'error' "$tmp/build.log" | sed 's/^/    /'
		echo "E" >>"$tmp/survivors"
	elif run_tests "$tests"; then
		if [ -n "$why" ]; then
			echo "[$n/$total] survived $where: '$shown_old' -> '$shown_new' (allowed: $why)"
			echo "A	$where: '$shown_old' -> '$shown_new': $why" >>"$tmp/survivors"
		else
			echo "[$n/$total] SURVIVED $where: '$shown_old' -> '$shown_new'"
			echo "S	$where: '$shown_old' -> '$shown_new' (tests: $tests)" >>"$tmp/survivors"
		fi
	else
		echo "[$n/$total] killed $where: '$shown_old' -> '$shown_new' by $killer${why:+ (marked survives: drop the note)}"
	fi
	# back to the original, newer than the mutant's objects
	cp "$tmp/orig" "$tree/$file"
	touch "$tree/$file"
done

nsurv=$(grep -c '^S' "$tmp/survivors")
nallow=$(grep -c '^A' "$tmp/survivors")
nerr=$(grep -c '^E' "$tmp/survivors")
echo "== mutate: $total mutations, $((total - nsurv - nallow - nerr)) killed, $nsurv survived without a reason, $nallow allowed to survive, $nerr errors"
if [ "$nsurv" -gt 0 ] || [ "$nallow" -gt 0 ]; then
	echo "survivors:"
	grep '^[SA]' "$tmp/survivors" | cut -f2- | sed 's/^/  /'
fi
[ "$nsurv" -eq 0 ] && [ "$nerr" -eq 0 ]
