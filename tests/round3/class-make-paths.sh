#!/bin/sh
# Round 3's class of R4 (unquoted paths in recipes), in the recipes R4's
# fix did not touch: check-run, check-valgrind and bench gave the tests
# SCHEDREPLAY=$(abspath $(PROG)) unquoted, and check wrote its summary to
# $(CHECK_SUMMARY) unquoted: from a tree whose path holds a blank the
# shell split them (the tests ran a program named after the path's first
# word; `: > /x/my tree/build/check-summary` made a file "/x/my").  Now
# the recipes take both from the shell, quoted.
#
# The Makefile runs from a copy in a directory named with a blank and a
# quote, with stand-ins for the scripts its recipes call (they print the
# paths they were given) and the binary taken as made (make -o).
. tests/lib/lib.sh
need make make
D="$T/it's a tree"
mkdir -p "$D/tests/fuzz" "$D/bench" "$D/build"
cp Makefile deps.sh "$D/"
for s in tests/run.sh tests/valgrind.sh bench/run.sh; do
	cat > "$D/$s" <<'EOF2'
printf '%s\n' "$SCHEDREPLAY" > "$0.got"
printf '%s\n' "${CHECK_SUMMARY:-}" >> "$0.got"
EOF2
done
printf '#!/bin/sh\nexit 0\n' > "$D/schedreplay"
chmod +x "$D/schedreplay"
for target in check-run check-valgrind bench; do
	case $target in
	check-run) s=tests/run.sh ;;
	check-valgrind) s=tests/valgrind.sh ;;
	bench) s=bench/run.sh ;;
	esac
	rm -f "$D/$s.got"
	# the copy's make on its own: not the sanitizer pass's (SAN=1 in
	# MAKEFLAGS and BUILD=build-san in the environment would name
	# build-san/schedreplay)
	expect_status 0 env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SAN -u BUILD \
		make -C "$D" -o schedreplay $target TEST_BINS= \
		FUZZ_BINS= BENCH_BINS= FAILMALLOC=
	nchecks=$((nchecks + 2))
	[ "$(sed -n 1p "$D/$s.got" 2>/dev/null)" = "$D/schedreplay" ] ||
		fail "make $target gave SCHEDREPLAY='$(sed -n 1p "$D/$s.got" 2>/dev/null)', want '$D/schedreplay'"
	[ "$(sed -n 2p "$D/$s.got")" = "$D/build/check-summary" ] ||
		fail "make $target gave CHECK_SUMMARY='$(sed -n 2p "$D/$s.got")'"
done
# check's own lines (its passes build everything): the summary made,
# appended to and read by the name the shell quotes
grep '^	' "$D/Makefile" > "$T/recipes"
expect_status 0 grep -c '"\$\$CHECK_SUMMARY"' "$T/recipes"
expect_out '^3$'
expect_status 1 grep -E '\$\(CHECK_SUMMARY\)|abspath' "$T/recipes"
nchecks=$((nchecks + 1))
[ -z "$(find "$T" -maxdepth 1 -name 'it*' ! -name "it's a tree")" ] ||
	fail "a recipe made a file at a word of the path: $(find "$T" -maxdepth 1)"
done_ok
