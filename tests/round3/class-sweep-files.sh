#!/bin/sh
# Round 3's classes, in the sweep's files (docs/robustness.md, "Round 3"):
# - a predictable name opened by a child (R2's class): GNU parallel was
#   given DIR/joblog.tsv by name and opened it itself, through a link
#   planted there (root writing any file); it now writes our O_EXCL
#   temporary through /dev/fd/N, renamed into place;
# - an unchecked number read from a saved file (R14's class): manifest.tsv's
#   job and chunk went through strtoul unchecked (chunk 0 made --collect
#   --emit slurm write before its array); every field is now checked;
# - a saved file's bytes taken as they are (R14's): a cell's figures.tsv
#   went raw into results.json and the heat map's data; a value that is
#   not a number now fails the collect (65, naming file and line);
# - control bytes of a saved file or an argument echoed raw in a message
#   (R1's class, to the terminal): every message's control bytes are now
#   written \xNN, at the one place that records them.
. tests/lib/lib.sh
H=tests/replay/data/hogplayer.txt
cp "$H" "$T/a.txt"

if command -v parallel >/dev/null 2>&1; then
	echo "an unrelated file" > "$T/victim"
	expect_status 0 "$SR" sweep "$T/a.txt" --policy stock -o "$T/p" -j 1 -q
	rm "$T/p/joblog.tsv"
	ln -s "$T/victim" "$T/p/joblog.tsv"
	# again over the same directory (a retry): parallel writes its log
	expect_status 0 "$SR" sweep "$T/a.txt" --policy stock --policy o11int \
		-o "$T/p" -j 1 -q
	nchecks=$((nchecks + 2))
	[ "$(cat "$T/victim")" = "an unrelated file" ] ||
		fail "GNU parallel wrote its job log through a planted link"
	[ -f "$T/p/joblog.tsv" ] && [ ! -L "$T/p/joblog.tsv" ] ||
		fail "joblog.tsv is not a plain file"
	expect_status 0 head -n 1 "$T/p/joblog.tsv"
	expect_out '^Seq	Host	Starttime	'
	nchecks=$((nchecks + 1))
	[ -z "$(find "$T/p" -name '*.tmp.*')" ] || fail "a temporary left"
else
	echo "no GNU parallel: its job log not checked (the rest is)"
fi

# a sweep's directory, then its manifest and figures broken one way each
expect_status 0 "$SR" sweep "$T/a.txt" --policy stock --policy o11int \
	--set MAX_SLEEP_AVG=500,1000 --sequential -o "$T/s" -q
cp "$T/s/manifest.tsv" "$T/manifest.good"
M=$T/s/manifest.tsv
# broken FIELD-AWK WANT: manifest.tsv with row 2's field changed by the
# awk program, then --collect: 65 and WANT (an ERE) said
broken() {
	awk -F '\t' -v OFS='\t' "$1" "$T/manifest.good" > "$M"
	expect_status 65 "$SR" sweep --collect -o "$T/s" -q
	expect_err "$2"
	cp "$T/manifest.good" "$M"
}
broken 'NR == 2 { $2 = 0 } 1' "manifest.tsv:2: expected the job's number \\(the first row's 1, then the row before's or one more\\) in column chunk, got '0'"
broken 'NR == 3 { $2 = "1x" } 1' "manifest.tsv:3: expected the job's number .* in column chunk, got '1x'"
broken 'NR == 2 { $1 = 7 } 1' "manifest.tsv:2: expected the row's own number .* in column job, got '7'"
broken 'NR == 2 { $5 = "nosuch" } 1' "manifest.tsv:2: expected a policy's name in column policy, got 'nosuch'"
broken 'NR == 2 { $6 = "../x" } 1' "manifest.tsv:2: expected the tuned policy's label \\(a directory name\\) in column label, got '\\.\\./x'"
broken 'NR == 2 { $7 = "5e3" } 1' "manifest.tsv:2: expected a number or '-' in column MAX_SLEEP_AVG, got '5e3'"
broken 'NR == 2 { $8 = "/etc" } 1' "manifest.tsv:2: expected DIR/jobs/<tkey> \\(an absolute path\\) in column root, got '/etc'"
broken 'NR == 1 { $7 = "MAX SLEEP" } 1' "manifest.tsv:1: expected the manifest's header"
broken 'NR == 2 { $4 = "t1-a\033[2J" } 1' "manifest.tsv:2: expected text and tabs, got the control byte \\\\x1b at byte"
# the good manifest again: collected as before
expect_status 0 "$SR" sweep --collect -o "$T/s" -q
expect_status 0 grep -c '	ok	' "$T/s/results.tsv"
expect_out '^4$'

# a figure that is not a number: never into results.json
F=$T/s/jobs/t1-a.txt/stock:MAX_SLEEP_AVG=500/figures.tsv
cp "$F" "$T/figures.good"
awk -F '\t' -v OFS='\t' 'NR == 2 { $2 = "1}, \"x\": {" } 1' "$T/figures.good" > "$F"
expect_status 65 "$SR" sweep --collect -o "$T/s" -q
expect_err "figures.tsv:2: expected a number or '-' in column inter_p99_ms, got '1}, \"x\": \\{'"
printf 'inter_n\n1\n' > "$F"
expect_status 65 "$SR" sweep --collect -o "$T/s" -q
expect_err "figures.tsv:1: expected the figures' header"
cp "$T/figures.good" "$F"
expect_status 0 "$SR" sweep --collect -o "$T/s" -q

# control bytes of an argument or a saved file: \xNN in the message
expect_status 64 "$SR" sweep "$T/a.txt" --policy stock \
	--set "MAX_SLEEP_AVG=1$(printf '\033')[2J,2" -o "$T/c" --sequential -q
expect_err "^schedreplay: --set MAX_SLEEP_AVG=1\\\\x1b\\[2J,2: expected"
nchecks=$((nchecks + 1))
! grep -q "$(printf '\033')" "$T/err" || fail "an ESC byte reached the terminal"
expect_status 0 "$SR" replay "$H" --policy stock --policy o11int \
	--policy observed -o "$T/r" -q
awk -F '\t' -v OFS='\t' 'NR == 2 { $7 = "x\033]0;pwned\007" } 1' \
	"$T/r/stock/latency.tsv" > "$T/lat" && mv "$T/lat" "$T/r/stock/latency.tsv"
expect_status 65 "$SR" diff "$T/r"
expect_err "latency.tsv:2: .*'x\\\\x1b\\]0;pwned\\\\x07'"
nchecks=$((nchecks + 1))
! grep -q "$(printf '\033')" "$T/err" || fail "an ESC byte reached the terminal"
done_ok
