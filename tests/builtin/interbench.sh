#!/bin/sh
# interbench (docs/interbench.md):
#  - the text as interbench prints it, a task not run under itself, the
#    contest table's columns and its ratio 1.00 under no load;
#  - the same bytes whatever the thread count (-j 1 and -j 3), and for the
#    same options; another seed changes what depends on it (Read's disk);
#  - TSV and JSON hold the same figures as the text;
#  - --save: every saved run, replayed under its policy as its second line
#    says, gives every wait of the run (replay's latency.tsv equals the one
#    saved beside it), under every policy, on 1 and 2 CPUs, Hack too; and
#    explain reads a saved run;
#  - bad options: Memload refused with its reason, custom's syntax, a task
#    given twice, a policy of one CPU on two, all exit 64.
. tests/lib/lib.sh
need python3 python3

# ---- the text ---------------------------------------------------------------
expect_status 0 "$SR" interbench --policy stock --task x --task audio \
	--load none --load x --load burn --duration 10 -j 1
expect_out '^schedreplay interbench: .* 10 s per pair, seed 1 '
expect_out '^--- Benchmarking simulated cpu of X in the presence of simulated --- stock, 1 CPU$'
expect_out '^Load	Latency \+/- SD \(ms\)  Max Latency   % Desired CPU  % Deadlines Met$'
# X is not run under X; Audio is
nchecks=$((nchecks + 1))
awk '/cpu of X/ { x = 1; next } /cpu of/ { x = 0 } x && /^X\t/ { bad = 1 }
     END { exit bad }' "$T/out" || fail "X was run under X"
expect_out '^X	'
# Audio alone on an idle CPU: every deadline met, all the CPU it wanted
nchecks=$((nchecks + 1))
awk '/cpu of Audio/ { a = 1; next } /cpu of/ { a = 0 }
     a && /^None\t/ { ok = $NF == "100" && $(NF - 1) == "100" }
     END { exit !ok }' "$T/out" || fail "Audio under None: not 100/100"
cp "$T/out" "$T/text"

# ---- determinism -------------------------------------------------------------
expect_status 0 "$SR" interbench --policy stock --policy cfs --policy 2.4 \
	--task audio --task gaming --load read --load compile --cpus 1 \
	--cpus 2 --duration 10 -j 1 -o "$T/j1.txt"
expect_status 0 "$SR" interbench --policy stock --policy cfs --policy 2.4 \
	--task audio --task gaming --load read --load compile --cpus 1 \
	--cpus 2 --duration 10 -j 3 -o "$T/j3.txt"
expect_same "$T/j1.txt" "$T/j3.txt"
expect_status 0 "$SR" interbench --policy stock --task gaming --load read \
	--duration 10 --seed 1 -o "$T/s1.txt"
expect_status 0 "$SR" interbench --policy stock --task gaming --load read \
	--duration 10 --seed 1 -o "$T/s1b.txt"
expect_same "$T/s1.txt" "$T/s1b.txt"
expect_status 0 "$SR" interbench --policy stock --task gaming --load read \
	--duration 10 --seed 2 -o "$T/s2.txt"
nchecks=$((nchecks + 1))
grep -q 'seed 2 ' "$T/s2.txt" || fail "the seed is not printed"
# the disk's times are drawn from the seed: Read's figures move
nchecks=$((nchecks + 1))
tail -n +2 "$T/s1.txt" >"$T/s1.body"
tail -n +2 "$T/s2.txt" >"$T/s2.body"
! cmp -s "$T/s1.body" "$T/s2.body" || fail "--seed changes nothing"

# ---- TSV and JSON ---------------------------------------------------------------
expect_status 0 "$SR" interbench --policy stock --task x --task audio \
	--load none --load x --load burn --duration 10 --tsv -o "$T/t.tsv"
expect_status 0 "$SR" interbench --policy stock --task x --task audio \
	--load none --load x --load burn --duration 10 --json -o "$T/t.json"
# the same runs, the same figures (to the text's precision) in all three
nchecks=$((nchecks + 1))
python3 - "$T/t.tsv" "$T/t.json" "$T/text" <<'EOF' || fail "TSV, JSON and text disagree"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
js = json.load(open(sys.argv[2]))["interbench"]["runs"]
assert len(rows) == len(js) == 5, (len(rows), len(js))
text = open(sys.argv[3]).read()
for r, j in zip(rows, js):
    assert (r["task"], r["load"], r["policy"]) == (j["task"], j["load"], j["policy"])
    for k in ("latency_avg_ms", "latency_max_ms", "desired_cpu_pct"):
        assert abs(float(r[k]) - j[k]) < 1e-6, (k, r[k], j[k])
    assert r["deadlines_met_pct"] != "-"
    assert abs(float(r["deadlines_met_pct"]) - j["deadlines_met_pct"]) < 1e-6
assert " 100\t" in text
EOF

# ---- contest -----------------------------------------------------------------------
expect_status 0 "$SR" interbench --policy stock --task audio --load burn \
	--duration 10 --contest
expect_out '^--- contest: make -j4, its completion time under each load --- stock, 1 CPU$'
expect_out '^Load	Time \(s\)  CPU%   LCPU%  Ratio$'
# None is added for the ratio's base, and its ratio is 1; alone, make -j4
# keeps the one CPU busy (while a cc1 reads its source, three others
# compile): its CPU% is 100; on one CPU the compile's and the load's
# shares of the compile's time add up to 100, and beside Burn's four
# hogs the compile takes more than 1.5 times as long
nchecks=$((nchecks + 1))
awk '/^None\t/ && c { n = $NF == "1.00" && $3 >= 99.5 }
     /^Burn\t/ && c { b = $NF > 1.5 && $3 + $4 > 99.8 && $3 + $4 < 100.2 }
     /contest/ { c = 1 } END { exit !(n && b) }' "$T/out" ||
	fail "contest: None not at 1.00 and 100 % CPU, or Burn's shares and ratio wrong"

# ---- saved runs replay exactly --------------------------------------------------------
# replay_saved DIR: each saved trace replayed as its second line says, its
# latency.tsv compared with the run's; n: how many
replay_saved() {
	n=0
	for t in $(find "$1" -name '*.txt' | sort); do
		p=$(sed -n '2s/.*--policy \([^ ]*\) --calibrate none$/\1/p' "$t")
		c=$(echo "$t" | sed 's|.*/\([0-9]*\)cpu/.*|\1|')
		[ -n "$p" ] || fail "$t: no replay line"
		rm -rf "$T/r"
		expect_status 0 "$SR" replay "$t" --policy "$p" --cpus "$c" \
			--calibrate none --no-why -q -o "$T/r"
		expect_same "$T/r/$p/latency.tsv" "${t%.txt}.latency.tsv"
		n=$((n + 1))
	done
}
expect_status 0 "$SR" interbench --task audio --task x --load burn \
	--load compile --cpus 1 --cpus 2 --duration 10 --save "$T/sv"
replay_saved "$T/sv"
policies=$("$SR" policies | awk '/^[^ ]/' | wc -l)
nchecks=$((nchecks + 1))
# {audio, x} x {burn, compile}: 4 pairs, every policy, 1 and 2 CPUs
[ "$n" -eq $((4 * policies * 2)) ] || fail "$n saved runs, want $((4 * policies * 2))"
expect_status 0 "$SR" interbench --task gaming --load hack --policy stock \
	--policy eevdf --duration 10 --save "$T/hk"
replay_saved "$T/hk"
nchecks=$((nchecks + 1))
[ "$n" -eq 2 ] || fail "$n saved Hack runs, want 2"
# what the run did is in its trace: the timekeeper's SCHED_FIFO 96, main's
# 99, the timers' wakeups by an interrupt
f=$T/sv/1cpu/audio-burn/stock.txt
for want in ' policy=fifo rtprio=96$' ' policy=fifo rtprio=99$' \
	    ' wake pid=[0-9]* by=irq target=0$'; do
	nchecks=$((nchecks + 1))
	grep -q -- "$want" "$f" || fail "$f: no line matching /$want/"
done
# explain reads a saved run: under stock X waits under Burn in the
# expired array, all of its wait (docs/interbench.md)
expect_status 0 "$SR" explain "$T/sv/1cpu/x-burn/stock.txt" --task '^x$' \
	--policy stock --calibrate none --tsv
nchecks=$((nchecks + 1))
awk -F'\t' '$1 == "reason" && $2 == "expired" { e = $5 }
	     $1 == "total" { t = $5 } END { exit !(t > 0 && e == t) }' \
	"$T/out" || fail "explain: X's wait under Burn is not all expired"

# ---- bad options --------------------------------------------------------------------
expect_status 64 "$SR" interbench --load memload
expect_err 'Memload is not modelled: .*swap'
expect_status 64 "$SR" interbench --task custom
expect_err "only custom takes :PCT@MS|expected custom:PCT@MS"
expect_status 64 "$SR" interbench --task custom:150@10
expect_err '150'
expect_status 64 "$SR" interbench --task custom:40
expect_err 'expected custom:PCT@MS'
expect_status 64 "$SR" interbench --task audio:5@10
expect_err 'only custom takes'
expect_status 64 "$SR" interbench --task audio --task audio
expect_err "given twice"
expect_status 64 "$SR" interbench --task bogus
expect_err "expected audio, video, x, gaming or custom"
expect_status 64 "$SR" interbench --policy 2.4:NOPE=1
expect_status 0 "$SR" interbench --task custom:50@20 --load custom:30@10 \
	--policy stock --duration 10
expect_out 'Custom 50%@20.000ms'
done_ok
