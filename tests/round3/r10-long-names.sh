#!/bin/sh
# R10 (round 3): a legal output name of 236 to 255 bytes was refused as
# "File name too long": the temporary beside it (NAME.tmp.PID.XXXXXX)
# added up to 22 bytes, and the message blamed the user's name.  Now a
# name near the limit has its temporary's stem cut so the suffix fits,
# a killed run's cut temporaries are still found and removed, and only a
# name over the limit itself is refused, saying so.
. tests/lib/lib.sh
H=tests/replay/data/hogplayer.txt
# name N: a file name of N bytes (a's, then .tsv)
name() { printf "%0$(($1 - 4))d.tsv" 0 | tr 0 a; }
for n in 236 250 255; do
	f=$(name $n)
	nchecks=$((nchecks + 1))
	[ ${#f} -eq $n ] || fail "name $n is ${#f} bytes"
	expect_status 0 "$SR" stats --tsv -o "$T/$f" "$H"
	expect_status 0 head -n 1 "$T/$f"
	expect_out '^pid	comm	'
	expect_status 0 "$SR" convert -o "$T/$f" "$H"
	expect_status 0 head -n 1 "$T/$f"
	expect_out '^#schedreplay-native 1$'
done
# one byte more: the name itself is too long, and the message says so
f=$(name 256)
expect_status 74 "$SR" stats --tsv -o "$T/$f" "$H"
expect_err "^schedreplay: $T/$f: cannot create: File name too long \\(a file name holds at most 255 bytes\\)$"
# a dead run's temporary of a 255-byte name (its stem cut to 233 bytes)
# is removed by the next run writing that name; a live one's is not
sh -c 'exit 0' & dead=$!
wait $dead
f=$(name 255)
stem=$(printf '%s' "$f" | cut -c 1-233)
: > "$T/$stem.tmp.$dead.AbC123"
: > "$T/$stem.tmp.$$.AbC123"
expect_status 0 "$SR" stats --tsv -o "$T/$f" "$H"
nchecks=$((nchecks + 1))
[ ! -e "$T/$stem.tmp.$dead.AbC123" ] || fail "a dead run's cut temporary stayed"
nchecks=$((nchecks + 1))
[ -e "$T/$stem.tmp.$$.AbC123" ] || fail "a live run's temporary was removed"
done_ok
