#!/bin/sh
# R4 (round 3, data loss): make install / uninstall took their paths
# unquoted: with DESTDIR='.../pkg root', uninstall deleted an unrelated
# file .../pkg and install made directories under ./root in the source
# tree.  Now every path of the recipes is quoted for sh (a quote in it
# too), and uninstall removes the doc directory only when it is ours by
# its name.
. tests/lib/lib.sh
make_() {
	make --no-print-directory -s "$@" BUILD="${BUILD:-build}" \
		SAN="${SAN:-0}" >"$T/make.out" 2>&1
}
before=$(ls -a)
dest="$T/it's pkg root"
echo "an unrelated file" > "$T/it's"
echo "another" > "$T/it's pkg"
make_ install DESTDIR="$dest" PREFIX=/usr ||
	{ cat "$T/make.out" >&2; fail "make install failed"; }
for f in bin/schedreplay share/man/man1/schedreplay.1 \
	share/bash-completion/completions/schedreplay \
	share/zsh/site-functions/_schedreplay share/doc/schedreplay/README.md \
	share/doc/schedreplay/docs/robustness.md; do
	nchecks=$((nchecks + 1))
	[ -f "$dest/usr/$f" ] || fail "make install: no $f under '$dest'"
done
nchecks=$((nchecks + 1))
[ "$(ls -a)" = "$before" ] || fail "make install made something in the source tree: $(ls -a)"
make_ uninstall DESTDIR="$dest" PREFIX=/usr ||
	{ cat "$T/make.out" >&2; fail "make uninstall failed"; }
nchecks=$((nchecks + 1))
[ -z "$(find "$dest" -type f)" ] || fail "uninstall left $(find "$dest" -type f)"
nchecks=$((nchecks + 1))
[ "$(cat "$T/it's")" = "an unrelated file" ] && [ "$(cat "$T/it's pkg")" = another ] ||
	fail "uninstall removed a file beside DESTDIR"
nchecks=$((nchecks + 1))
[ "$(ls -a)" = "$before" ] || fail "make uninstall touched the source tree"
# a DOCDIR that is not ours by its name is not removed whole
mkdir -p "$T/share/doc"
echo keep > "$T/share/doc/other"
nchecks=$((nchecks + 1))
! make_ uninstall DESTDIR="$T" DOCDIR=/share/doc || fail "uninstall of DOCDIR=/share/doc went ahead"
expect_status 0 cat "$T/make.out"
expect_out 'DOCDIR does not end in /schedreplay: not removing it'
nchecks=$((nchecks + 1))
[ -f "$T/share/doc/other" ] || fail "uninstall removed another package's docs"
done_ok
