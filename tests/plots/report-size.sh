#!/bin/sh
# The report grows with the tasks shown, not with the events: the perf
# fixture and 8 time-shifted copies of it (8 times the events; the copies'
# short-lived tasks are new tasks, the daemons the same ones) give plots of
# the same size (each panel's series are bounded: 200 time bins, a short
# CDF), a table whose figures take the same bytes per task, and no panel
# over 64 KB.
. tests/lib/lib.sh
need gnuplot gnuplot-nox
need python3 python3
zcat tests/replay/data/perf-mix.perf.txt.gz >"$T/m1.txt"
awk -v n=8 -f tests/replay/copies.awk "$T/m1.txt" >"$T/m8.txt"
nchecks=$((nchecks + 1))
[ "$(wc -l <"$T/m8.txt")" -eq $((8 * $(wc -l <"$T/m1.txt"))) ] || fail "copies.awk: not 8 copies"
for k in 1 8; do
	expect_status 0 "$SR" report "$T/m$k.txt" -o "$T/r$k" -q
done
expect_status 0 python3 - "$T/r1/index.html" "$T/r8/index.html" <<'PY'
import re, sys

def parts(path):
    s = open(path).read()
    data = re.search(r'<script type="application/json" id="sr-data">(.*?)</script>', s, re.S).group(1)
    figs = re.findall(r'<figure id="plot-([^"]+)">(.*?)</figure>', s, re.S)
    rows = data.count("\n[")
    return len(s), len(data), rows, figs

n1, d1, r1, f1 = parts(sys.argv[1])
n8, d8, r8, f8 = parts(sys.argv[2])
fig1 = sum(len(b) for _, b in f1)
fig8 = sum(len(b) for _, b in f8)
print("1x: %d bytes, %d table rows (%d bytes), %d figures (%d bytes)" % (n1, r1, d1, len(f1), fig1))
print("8x: %d bytes, %d table rows (%d bytes), %d figures (%d bytes)" % (n8, r8, d8, len(f8), fig8))
assert len(f1) == len(f8) == 26, (len(f1), len(f8))
assert fig8 <= 1.25 * fig1, "the plots grew with the events: %d -> %d" % (fig1, fig8)
assert r8 > r1 and d8 / r8 <= 1.25 * d1 / r1, "table bytes per task: %d -> %d" % (d1 // r1, d8 // r8)
for name, body in f1 + f8:
    assert len(body) <= 65536, "%s: %d bytes" % (name, len(body))
PY
cat "$T/out"
done_ok
