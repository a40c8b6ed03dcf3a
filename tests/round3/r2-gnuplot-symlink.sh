#!/bin/sh
# R2 (round 3, security): gnuplot's temporary image was NAME.png.tmp.PID,
# a predictable name that gnuplot opened itself, following a symlink with
# O_TRUNC: a link planted in the output directory made root overwrite an
# unrelated file with a PNG (and the link was renamed into place).  Now
# the temporary is ours, made with O_EXCL (mkstemp), and gnuplot writes
# it through the descriptor it inherits (/dev/fd/N): no name in the
# output directory is opened by gnuplot.
. tests/lib/lib.sh
need gnuplot gnuplot-nox
H=tests/replay/data/hogplayer.txt
mkdir -p "$T/p"
echo "an unrelated file" > "$T/victim"
# the links are planted for the pid the command will run as: a shell
# that plants them, then execs the command (same pid); every image of
# the old pattern and of the new one without its random part
cat > "$T/plant.sh" <<'EOF2'
dir=$1; shift
for f in priority delay-time delay-cdf diff-bars why-bars; do
	ln -s "$VICTIM" "$dir/$f.png.tmp.$$"
	ln -s "$VICTIM" "$dir/$f.png.tmp.$$.XXXXXX"
done
exec "$@"
EOF2
expect_status 0 env VICTIM="$T/victim" sh "$T/plant.sh" "$T/p" "$SR" plot "$H" -o "$T/p" -q
nchecks=$((nchecks + 1))
[ "$(cat "$T/victim")" = "an unrelated file" ] || fail "gnuplot wrote through a planted link"
for f in priority delay-time delay-cdf diff-bars why-bars; do
	nchecks=$((nchecks + 1))
	[ -f "$T/p/$f.png" ] && [ ! -L "$T/p/$f.png" ] || fail "$f.png is not a plain file"
	# a PNG: its signature
	expect_status 0 od -A n -t x1 -N 8 "$T/p/$f.png"
	expect_out '89 50 4e 47 0d 0a 1a 0a'
done
# the same through the gnuplot the script names: it opens /dev/fd/N,
# never a name in the output directory
cat > "$T/showgnuplot" <<'EOF2'
#!/bin/sh
printf '%s\n' "$2" >> "$LOG"
exec gnuplot "$@"
EOF2
chmod +x "$T/showgnuplot"
rm -rf "$T/p2"
expect_status 0 env LOG="$T/log" "$SR" plot "$H" -o "$T/p2" -q --gnuplot "$T/showgnuplot"
expect_status 0 sort -u "$T/log"
expect_out "^outfile='/dev/fd/[0-9]+'$"
nchecks=$((nchecks + 1))
[ "$(sort -u "$T/log" | wc -l)" -le 5 ] && ! grep -v "^outfile='/dev/fd/[0-9]*'$" "$T/log" ||
	fail "gnuplot was given a name to open: $(cat "$T/log")"
done_ok
