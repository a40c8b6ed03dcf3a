#!/bin/sh
# R1 (round 3, security): a newline in a sweep's trace name, --rt value or
# -o path was written raw into jobs.txt; GNU parallel (and the Slurm
# script's `sed -n Np` + eval) ran the rest of the line as a command.
# `#SBATCH --output=` took -o unquoted.  Now a value jobs.txt cannot hold
# is refused (64) before anything is written, every value on a job line
# reads back as itself under sh and GNU parallel, and --output is quoted
# for sbatch's own rules.
. tests/lib/lib.sh
need parallel parallel
H=tests/replay/data/hogplayer.txt
nl='
'
mkdir -p "$T/w"
here=$(pwd)

# 1. the trace's name: "a", newline, a command
cp "$H" "$T/a${nl}touch PWNED1 #.txt"
(cd "$T/w" && "$SR" sweep "$T/a${nl}touch PWNED1 #.txt" --policy stock \
	-o "$T/w/o1" -j 1 -q) >"$T/out" 2>"$T/err"
rc=$?
nchecks=$((nchecks + 1))
[ ! -e "$T/w/PWNED1" ] || fail "a newline in a trace name ran a command"
nchecks=$((nchecks + 1))
[ $rc -eq 64 ] || fail "trace name with a newline: exit $rc, want 64"
expect_err "^schedreplay: sweep: trace '$T/a\\\\x0atouch PWNED1 #\\.txt' holds a control character"
nchecks=$((nchecks + 1))
[ ! -e "$T/w/o1" ] || fail "a refused sweep made its directory"

# 2. an --rt value
(cd "$T/w" && "$SR" sweep "$here/$H" --policy stock --rt "x${nl}touch PWNED2 #" \
	-o "$T/w/o2" -j 1 -q) >"$T/out" 2>"$T/err"
rc=$?
nchecks=$((nchecks + 1))
[ ! -e "$T/w/PWNED2" ] || fail "a newline in --rt ran a command"
nchecks=$((nchecks + 1))
[ $rc -eq 64 ] || fail "--rt with a newline: exit $rc, want 64"
expect_err "sweep: --rt 'x\\\\x0atouch PWNED2 #' holds a control character"

# 3. the output directory (every job's directory is inside it)
(cd "$T/w" && "$SR" sweep "$here/$H" --policy stock \
	-o "$T/w/o3${nl}touch PWNED3 #" -j 1 -q) >"$T/out" 2>"$T/err"
rc=$?
nchecks=$((nchecks + 1))
[ ! -e "$T/w/PWNED3" ] || fail "a newline in -o ran a command"
nchecks=$((nchecks + 1))
[ $rc -eq 64 ] || fail "-o with a newline: exit $rc, want 64"
expect_err "sweep: output directory '.*o3\\\\x0atouch PWNED3 #' holds a control character"
nchecks=$((nchecks + 1))
[ ! -e "$T/w/o3${nl}touch PWNED3 #" ] || fail "a refused sweep made its directory"
# a tab would split manifest.tsv's row: refused the same way
expect_status 64 "$SR" sweep "$H" --policy stock -o "$T/o4	x" --emit jobs
expect_err "holds a control character"

# 4. every other byte is a word of its own, under sh and under GNU
# parallel (with PARALLEL_SHELL set to something else: sweep runs its
# jobs with /bin/sh, the shell jobs.txt is quoted for): a name with
# quotes, blanks, $, backquotes, braces (parallel's {} are not expanded
# in a job line), # and %
odd="it's \$(touch PWNED4) \`x\` {} {.} # 100%"
cp "$H" "$T/$odd.txt"
expect_status 0 env PARALLEL_SHELL=/bin/false "$SR" sweep "$T/$odd.txt" \
	--policy stock --rt "a'b \$c" -o "$T/$odd" -j 1 -q
nchecks=$((nchecks + 1))
[ ! -e PWNED4 ] && [ ! -e "$T/w/PWNED4" ] || fail "a quoted name ran a command"
expect_status 0 awk -F '\t' 'NR > 1 { print $5 }' "$T/$odd/results.tsv"
expect_out '^ok$'
# the line read back by sh: the binary replaced by a printer of its words
sed "s/^'[^']*'/printf '[%s]\\\\n'/" "$T/$odd/jobs.txt" > "$T/print.txt"
expect_status 0 sh "$T/print.txt"
cp "$T/out" "$T/sh.out"
cat > "$T/want" <<WANT
[sweep-job]
[--chunk]
[1]
[--rt]
[a'b \$c]
[$T/$odd.txt]
[$T/$odd/jobs/t1-$odd.txt]
[stock]
WANT
expect_same "$T/sh.out" "$T/want"
expect_status 0 env PARALLEL_SHELL=/bin/sh parallel --will-cite < "$T/print.txt"
expect_same "$T/out" "$T/want"

# 5. sweep.sbatch: #SBATCH --output in sbatch's quoting ("...", \ and "
# escaped, an unquoted # a comment) with the directory's % doubled
# (Slurm's file name patterns read %% as %); the script's own lines run
# the jobs by hand as Slurm would
expect_status 0 "$SR" sweep "$T/$odd.txt" --policy stock -o "$T/$odd" --emit slurm -q
expect_status 0 grep '^#SBATCH --output=' "$T/$odd/sweep.sbatch"
expect_out "^#SBATCH --output=\"$T/it's \\\$\\(touch PWNED4\\) \`x\` \\{\\} \\{\\.\\} # 100%%/slurm-%A_%a\\.out\"$"
rm "$T/$odd/jobs/t1-$odd.txt/stock/figures.tsv"
expect_status 0 env SLURM_ARRAY_TASK_ID=1 sh "$T/$odd/sweep.sbatch"
nchecks=$((nchecks + 1))
[ -s "$T/$odd/jobs/t1-$odd.txt/stock/figures.tsv" ] || fail "the Slurm line ran no job"
# a backslash turns Slurm's %A and %a off: refused for --emit slurm only
expect_status 64 "$SR" sweep "$H" --policy stock -o "$T/back\\slash" --emit slurm
expect_err "holds a backslash, which Slurm's file name patterns cannot hold"
expect_status 0 "$SR" sweep "$H" --policy stock -o "$T/back\\slash" --emit jobs -q
done_ok
