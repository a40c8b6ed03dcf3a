#!/bin/sh
# make install / make uninstall into a temporary DESTDIR: the binary, the
# man page, bash and zsh completion and the docs are where they belong;
# the man page renders under man and groff with every warning on and
# nothing said, has a section per command holding each of its options
# (from the option tables: it cannot drift); the bash completion loads and
# offers commands, options, policy names and choices; the zsh one loads
# and hands _arguments every option; uninstall removes all of it.
. tests/lib/lib.sh
need man man-db
need groff groff-base
root=$T/root
prefix=/usr

make --no-print-directory -s install DESTDIR="$root" PREFIX=$prefix \
	BUILD="${BUILD:-build}" SAN="${SAN:-0}" >"$T/make.out" 2>&1 ||
	{ cat "$T/make.out" >&2; fail "make install failed"; }
for f in bin/schedreplay share/man/man1/schedreplay.1 \
	share/bash-completion/completions/schedreplay \
	share/zsh/site-functions/_schedreplay \
	share/doc/schedreplay/README.md share/doc/schedreplay/docs/replay.md \
	share/doc/schedreplay/docs/models.md; do
	nchecks=$((nchecks + 1))
	[ -f "$root$prefix/$f" ] || fail "make install: no $prefix/$f"
done
nchecks=$((nchecks + 1))
[ -x "$root$prefix/bin/schedreplay" ] || fail "the binary is not executable"
for f in docs/*.md; do
	expect_same "$f" "$root$prefix/share/doc/schedreplay/$f"
done
PATH=$root$prefix/bin:$PATH
export PATH
expect_status 0 schedreplay --version
expect_out '^schedreplay [0-9]'

# ---- the man page: made from the tables, rendered without a warning ----
man1=$root$prefix/share/man/man1/schedreplay.1
expect_status 0 schedreplay help --man
expect_same "$T/out" "$man1"
expect_status 0 env LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$man1"
nchecks=$((nchecks + 1))
[ ! -s "$T/err" ] || { cat "$T/err" >&2; fail "man -l warned"; }
cp "$T/out" "$T/man.txt"
expect_status 0 groff -ww -man -Tutf8 -z "$man1"
nchecks=$((nchecks + 1))
[ ! -s "$T/err" ] || { cat "$T/err" >&2; fail "groff -ww warned"; }
for sec in NAME SYNOPSIS DESCRIPTION COMMANDS 'SCHEDULER MODELS' \
	'EXIT STATUS' ENVIRONMENT EXAMPLES 'SEE ALSO'; do
	nchecks=$((nchecks + 1))
	grep -q "^$sec\$" "$T/man.txt" || fail "man page: no section $sec"
done
# each command has its section, and it names every option of its table
schedreplay help --complete | cut -f1 >"$T/cmds"
nchecks=$((nchecks + 1))
[ "$(wc -l <"$T/cmds")" -ge 8 ] || fail "help --complete lists too few commands"
while read -r c; do
	C=$(echo "$c" | tr a-z A-Z)
	awk -v s="$C" '$0 == s { on = 1; next } /^[A-Z]/ { on = 0 } on' \
		"$T/man.txt" >"$T/sec"
	nchecks=$((nchecks + 1))
	[ -s "$T/sec" ] || fail "man page: no section $C"
	schedreplay help --complete "$c" | cut -f1 | grep -- '^--' >"$T/opts"
	while read -r o; do
		nchecks=$((nchecks + 1))
		grep -q -- "$o\\b" "$T/sec" ||
			fail "man page: section $C does not name $o"
	done <"$T/opts"
done <"$T/cmds"
for p in $(schedreplay policies | awk '/^[^ ]/ { print $1 }'); do
	nchecks=$((nchecks + 1))
	grep -Eq "^ +$p( |\$)" "$T/man.txt" || fail "man page: policy $p missing"
done

# ---- bash completion ----
bcomp=$root$prefix/share/bash-completion/completions/schedreplay
# complete WORD...: what the completion offers for the last word
complete_bash() {
	bash -c '. "$1"; shift
		complete -p schedreplay | grep -q -- "-F _schedreplay" || exit 3
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_schedreplay; printf "%s\n" "${COMPREPLY[@]}"' sh "$bcomp" "$@" \
		>"$T/out" 2>"$T/err"
	nchecks=$((nchecks + 1))
	[ $? -eq 0 ] || { cat "$T/err" >&2; fail "bash completion of '$*' failed"; }
}
complete_bash schedreplay replay --
for o in --policy --output --quiet --exclude --input-format --help; do
	expect_out "^$o\$"
done
complete_bash schedreplay ""
for c in stats replay diff export help --version; do
	expect_out "^$c\$"
done
complete_bash schedreplay expo
expect_out '^export$'
nchecks=$((nchecks + 1))
[ "$(wc -l <"$T/out")" -eq 1 ] || fail "'expo' completes to more than export"
complete_bash schedreplay ex
expect_out '^explain$'
expect_out '^export$'
complete_bash schedreplay replay --policy ""
for p in $(schedreplay policies | awk '/^[^ ]/ { print $1 }') observed; do
	expect_out "^$p\$"
done
complete_bash schedreplay export --policy = o
expect_out '^o11int$'
expect_out '^observed$'
complete_bash schedreplay plot --format ""
expect_out '^png$'
expect_out '^svg$'
expect_out '^pdf$'
mkdir "$T/adir"
: >"$T/afile.txt.gz"
complete_bash schedreplay stats "$T/af"
expect_out "^$T/afile.txt.gz\$"
complete_bash schedreplay replay -o "$T/ad"
expect_out "^$T/adir\$"
complete_bash schedreplay help ""
expect_out '^export$'
expect_out '^--man$'

# ---- zsh completion: loads, and hands _arguments every option ----
if command -v zsh >/dev/null 2>&1; then
	zcomp=$root$prefix/share/zsh/site-functions/_schedreplay
	expect_status 0 zsh -n "$zcomp"
	expect_status 0 zsh -f -c '
		_arguments() { print -rl -- "$@" }
		_describe() { print -rl -- "${(@P)4}" }
		compadd() { print -rl -- "$@" }
		words=(schedreplay replay --); CURRENT=3
		source "$1"' zsh "$zcomp"
	expect_out '^\*--policy=\[.*\]:policy:_schedreplay_policies$'
	expect_out '^-o\+\[.*\]:directory:_files -/$'
	expect_out '^--causal=\[.*\]:causal:\(known all none\)$'
	expect_out '^--check\[.*\]$'
	expect_status 0 zsh -f -c '
		_describe() { print -rl -- "${(@P)4}" }
		words=(schedreplay ""); CURRENT=2
		source "$1"' zsh "$zcomp"
	expect_out '^export:the replayed schedules'
	expect_out '^--version:'
else
	echo "zsh not installed: its completion is not checked"
fi

# ---- uninstall ----
make --no-print-directory -s uninstall DESTDIR="$root" PREFIX=$prefix \
	BUILD="${BUILD:-build}" SAN="${SAN:-0}" >"$T/make.out" 2>&1 ||
	{ cat "$T/make.out" >&2; fail "make uninstall failed"; }
left=$(find "$root" -type f | head -n 3)
nchecks=$((nchecks + 1))
[ -z "$left" ] || fail "make uninstall left: $left"
nchecks=$((nchecks + 1))
[ ! -d "$root$prefix/share/doc/schedreplay" ] || fail "uninstall left the doc directory"
command -v zsh >/dev/null 2>&1 || skip package zsh "the rest passed ($nchecks checks)"
done_ok
