/*
 * test-context: a task's context entry found by pid and time
 * (sr_context_task): the last entry read at or before the time, else the
 * first one after it; none for a pid the context does not hold.
 */
#include <stdint.h>

#include "parse/context.h"
#include "tests/lib/test.h"

int main(void)
{
	struct sr_context *c = sr_context_new();
	/* pid 7 read at the start and again at 5 s (renice); pid 3 read only
	 * as it appeared, at 2 s; pid 9 at 1 s and (reused) at 8 s */
	static const struct { int32_t pid; int64_t ts; int32_t nice; } rows[] = {
		{ 7, INT64_MIN, 0 }, { 3, 2000, 4 }, { 9, 1000, 1 },
		{ 7, 5000, 10 }, { 9, 8000, 19 },
	};
	/* expected: (pid, time) -> nice of the entry found, or -99 none */
	static const struct { int32_t pid; int64_t ts; int32_t nice; } want[] = {
		{ 7, 0, 0 },       /* start entry: read before the first event */
		{ 7, 4999, 0 },    /* the last read at or before 4999 */
		{ 7, 5000, 10 },   /* read exactly then */
		{ 7, 99999, 10 },
		{ 3, 0, 4 },       /* read after its first event: the first one */
		{ 3, 3000, 4 },
		{ 9, 500, 1 },
		{ 9, 7999, 1 },
		{ 9, 8000, 19 },
		{ 5, 0, -99 },     /* not in the context */
		{ 8, 0, -99 },
	};

	CHECK(c != NULL);
	CHECK(sr_context_task(c, 7, 0) == NULL); /* empty, not indexed */
	c->task = calloc(sizeof(rows) / sizeof(rows[0]), sizeof(*c->task));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		c->task[c->ntask].pid = rows[i].pid;
		c->task[c->ntask].ts = rows[i].ts;
		c->task[c->ntask].nice = rows[i].nice;
		c->task[c->ntask].has = SR_CTX_NICE;
		c->ntask++;
	}
	CHECK_INT(sr_context_done(c), 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct sr_ctx_task *t = sr_context_task(c, want[i].pid,
							      want[i].ts);

		CHECK_CTX("pid %d at %lld", want[i].pid, (long long)want[i].ts);
		CHECK_INT(t ? t->nice : -99, want[i].nice);
	}
	CHECK(c->autogroup == -1 && c->root_pid == -1 && c->hz == 0);
	sr_context_free(c);
	return test_done("test-context");
}
