#!/bin/sh
# Did you mean: every name of every table (the commands, each command's
# options, the policies, the knobs), mistyped by swapping its 2nd and 3rd
# characters (where they are the same, dropping the 2nd; a name of two:
# swapping them), is refused
# with exit 64 and told that name among the nearest (lib/suggest.h: a
# swap is one edit, and every name has 2 characters or more, so one edit
# is always allowed).  A word near nothing is told nothing.
. tests/lib/lib.sh
small=tests/replay/data/stats-small.txt

# typo NAME: the 2nd and 3rd characters swapped, else the 2nd dropped
# (two characters: swapped)
typo() {
	printf '%s\n' "$1" | awk '{
		a = substr($0, 2, 1); b = substr($0, 3, 1)
		if (length($0) >= 3 && a != b)
			print substr($0, 1, 1) b a substr($0, 4)
		else if (length($0) == 2)
			print a substr($0, 1, 1)
		else
			print substr($0, 1, 1) substr($0, 3)
	}'
}

# told WANT WORD: the last run's stderr tells WANT among the names
told() {
	nchecks=$((nchecks + 1))
	grep -q -- "; did you mean .*'$1'" "$T/err" || {
		sed 's/^/    stderr: /' "$T/err" >&2
		fail "'$2' is not told '$1'"
	}
}

# ---- the commands (schedreplay.c's table), help and version ----
"$SR" help --complete | cut -f1 >"$T/cmds"
nchecks=$((nchecks + 1))
[ "$(wc -l <"$T/cmds")" -ge 15 ] || fail "help --complete: $(wc -l <"$T/cmds") commands"
echo help >>"$T/cmds"
echo version >>"$T/cmds"
n=0
while read -r c; do
	w=$(typo "$c")
	expect_status 64 "$SR" "$w"
	expect_err "^schedreplay: unknown command '$w'; did you mean "
	told "$c" "$w"
	expect_status 64 "$SR" help "$w"
	told "$c" "$w"
	n=$((n + 1))
done <"$T/cmds"
nchecks=$((nchecks + 1))
[ $n -ge 17 ] || fail "only $n commands tried"

# ---- each command's options (its parse-options table) ----
nopts=0
while read -r c; do
	case $c in help | version) continue ;; esac
	"$SR" "$c" --help=complete | cut -f1 | grep '^--' >"$T/opts" || true
	while read -r o; do
		w=--$(typo "${o#--}")
		expect_status 64 "$SR" "$c" "$w" "$small"
		expect_err "^schedreplay: $c: unknown option '$w'; did you mean "
		told "$o" "$c $w"
		nopts=$((nopts + 1))
	done <"$T/opts"
done <"$T/cmds"
nchecks=$((nchecks + 1))
[ $nopts -ge 100 ] || fail "only $nopts options tried"

# ---- the policies (sched-model's table), in --policy and --knobs ----
"$SR" policies | grep -v '^ ' | awk '{ print $1 }' >"$T/pols"
nchecks=$((nchecks + 1))
[ "$(wc -l <"$T/pols")" -ge 10 ] || fail "policies: $(wc -l <"$T/pols") names"
while read -r p; do
	w=$(typo "$p")
	expect_status 64 "$SR" replay --policy "$w" -o "$T/r" "$small"
	expect_err "unknown policy '$w' .*; did you mean "
	told "$p" "$w"
	expect_status 64 "$SR" policies --knobs "$w"
	told "$p" "$w"
done <"$T/pols"

# ---- the knobs of each policy, in POLICY:KNOB=V and --set ----
while read -r p; do
	"$SR" policies --knobs "$p" | awk '/^  [A-Za-z_]/ { print $1 }' >"$T/knobs"
	while read -r k; do
		w=$(typo "$k")
		expect_status 64 "$SR" replay --policy "$p:$w=1" -o "$T/r" "$small"
		expect_err "$p has no knob $w .*; did you mean "
		told "$k" "$p:$w"
		expect_status 64 "$SR" replay --policy "$p" --set "$w=1" -o "$T/r" "$small"
		told "$k" "--set $w"
	done <"$T/knobs"
done <"$T/pols"

# ---- nothing near: nothing told ----
expect_status 64 "$SR" xyzzy
expect_err "^schedreplay: unknown command 'xyzzy'\$"
expect_status 64 "$SR" stats --bogus-option "$small"
expect_err "^schedreplay: stats: unknown option '--bogus-option'\$"
expect_status 64 "$SR" replay --policy nosuch -o "$T/r" "$small"
expect_err "unknown policy 'nosuch' \(\`schedreplay policies\` lists them\)\$"
# a choice's value
expect_status 64 "$SR" diff --color=alwyas "$small"
expect_err "; did you mean 'always'\?\$"
done_ok
