#!/bin/sh
# The repository explains itself, and its docs follow its tables:
#  - no comment, test or doc points outside the repository for a rule
#    (a numbered section of a document or an issue of a tracker it does
#    not hold; docs/models.md, "The O(1) rules", holds the rules);
#  - docs/architecture.md names every command file of builtin/;
#  - docs/models.md's table of policies and README.md's list name every
#    policy `schedreplay policies` lists;
#  - docs/replay.md gives each replay file's columns as the replay writes
#    them.
. tests/lib/lib.sh

# 1. nothing points outside (the words split so this file is no hit)
s=spec i=issue
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git grep -n -I -E "$s section|$s §|$i [0-9]|$i #[0-9]" -- . >"$T/hits"
else
	grep -rn -I -E "$s section|$s §|$i [0-9]|$i #[0-9]" \
		--exclude-dir='build*' --exclude-dir=.git . >"$T/hits"
fi
nchecks=$((nchecks + 1))
[ ! -s "$T/hits" ] || { head -n 20 "$T/hits" >&2; fail "$(wc -l <"$T/hits") references outside the repository (above)"; }

# 2. every command file in docs/architecture.md's builtin/ row
row=$(grep '^| `builtin/` |' docs/architecture.md)
for f in builtin/*.c; do
	nchecks=$((nchecks + 1))
	case $row in *"\`${f#builtin/}\`"*) ;; *) fail "docs/architecture.md's builtin/ row does not name ${f#builtin/}" ;; esac
done

# 3. every policy in docs/models.md's table and README.md's list
expect_status 0 "$SR" policies
for p in $(awk '/^[^ ]/ { print $1 }' "$T/out"); do
	nchecks=$((nchecks + 1))
	grep -qF "| \`$p\` |" docs/models.md || fail "docs/models.md's table lacks policy $p"
	nchecks=$((nchecks + 1))
	grep -qF "\`$p\`" README.md || fail "README.md does not name policy $p"
done

# 4. the replay files' columns, as docs/replay.md gives them
printf '#schedreplay-native 1\n0s 0 switch prev=0 state=R next=10\n1ms 0 switch prev=10 state=S next=0\n' >"$T/t.txt"
expect_status 0 "$SR" replay "$T/t.txt" -o "$T/r" --policy stock -q
for f in timeline latency summary cpus; do
	want=$(awk -v f="$f" '
		$0 ~ "^\\*\\*`DIR/P/" f "\\.tsv`\\*\\*" { on = 1; next }
		on == 1 && /^$/ { on = 2; next }
		on == 2 && /^    / { sub(/^ +/, ""); printf "%s%s", sep, $0; sep = " "; next }
		on == 2 { exit }' docs/replay.md)
	got=$(head -n 1 "$T/r/stock/$f.tsv" | tr '\t' ' ')
	nchecks=$((nchecks + 1))
	[ "$want" = "$got" ] || fail "docs/replay.md gives $f.tsv as '$want', the replay writes '$got'"
done
done_ok
