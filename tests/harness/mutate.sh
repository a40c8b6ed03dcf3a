#!/bin/sh
# tests/mutate.sh on a list of its own: a mutation the tests must kill is
# killed (task_timeslice off by one: test-rules's per-nice table), one no
# test can kill (inside a comment) is printed as a survivor and fails the
# run, another marked `survives` is allowed, and a pattern that is not in
# its file fails the run as an error.  Then the list of the repository,
# tests/mutations, is checked as `make mutate` would read it: every
# pattern once in its file, every test it names there (--check: no
# build), so that a change that moves a mutation's code updates the list.
. tests/lib/lib.sh

cat >"$T/list" <<'EOL'
file sched-model/o1.c
tests sched-model/test-rules
- (MAX_PRIO - 1 - p->static_prio) / (MAX_USER_PRIO - 1)));
+ (MAX_PRIO - p->static_prio) / (MAX_USER_PRIO - 1)));
- /* EXPIRED_STARVING(rq) */
+ /* EXPIRED_STARVING(rq), mutated */
- /* ---- observer ---- */
+ /* ---- the observer ---- */
survives a comment: the object is the same
- no such text in o1.c
+ anything
EOL
MUTATE_TIMEOUT=120 sh tests/mutate.sh "$T/list" >"$T/out" 2>&1
rc=$?
sed 's/^/    /' "$T/out" | tail -n 12
nchecks=$((nchecks + 1))
[ $rc -eq 1 ] || fail "mutate.sh exit $rc with a survivor and an error, want 1"
expect_out "^\[1/4\] killed list:3 sched-model/o1.c: .* by sched-model/test-rules$"
expect_out "^\[2/4\] SURVIVED list:5 sched-model/o1.c: '/\* EXPIRED_STARVING\(rq\) \*/'"
expect_out "^\[3/4\] survived list:7 sched-model/o1.c: .*\(allowed: a comment: the object is the same\)$"
expect_out "^\[4/4\] ERROR list:10 sched-model/o1.c: 'no such text in o1.c' is not in the file exactly once"
expect_out "^== mutate: 4 mutations, 1 killed, 1 survived without a reason, 1 allowed to survive, 1 errors"
expect_out "^  list:5 sched-model/o1.c: '/\* EXPIRED_STARVING\(rq\) \*/' -> '/\* EXPIRED_STARVING\(rq\), mutated \*/' \(tests: sched-model/test-rules\)$"

# the repository's list
expect_status 0 sh tests/mutate.sh --check tests/mutations
expect_out "mutations checked"
done_ok
