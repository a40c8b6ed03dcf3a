/*
 * context: the recording machine's context in memory (parse/context.h):
 * making and freeing it, and finding a task's entry by pid and time.
 */
#include <stdlib.h>

#include "lib/qsort.h"
#include "parse/context.h"

struct sr_context *sr_context_new(void)
{
	struct sr_context *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->autogroup = -1;
	c->rt_runtime_us = INT64_MIN;
	c->root_pid = -1;
	c->system_wide = -1;
	return c;
}

void sr_context_free(struct sr_context *c)
{
	if (!c)
		return;
	free(c->release);
	free(c->preempt);
	free(c->cpu);
	for (size_t i = 0; i < c->ntask; i++)
		free(c->task[i].cpus.w);
	free(c->task);
	for (size_t i = 0; i < c->ncgroup; i++)
		free(c->cgroup[i].path);
	free(c->cgroup);
	for (size_t i = 0; i < c->nunread; i++)
		free(c->unread[i]);
	free(c->unread);
	free(c->loss);
	free(c->by_pid);
	free(c);
}

static int by_pid_ts(const void *a, const void *b)
{
	const struct sr_ctx_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int sr_context_done(struct sr_context *c)
{
	free(c->by_pid);
	c->by_pid = NULL;
	if (!c->ntask)
		return 0;
	c->by_pid = malloc(c->ntask * sizeof(*c->by_pid));
	if (!c->by_pid)
		return -1;
	for (size_t i = 0; i < c->ntask; i++)
		c->by_pid[i] = (struct sr_ctx_key){ c->task[i].pid,
						    c->task[i].ts, i };
	sr_qsort(c->by_pid, c->ntask, sizeof(*c->by_pid), by_pid_ts);
	return 0;
}

const struct sr_ctx_task *sr_context_task(const struct sr_context *c,
					  int32_t pid, int64_t ts)
{
	size_t lo = 0, hi, first;
	const struct sr_ctx_task *best = NULL;

	if (!c || !c->by_pid)
		return NULL;
	hi = c->ntask;
	while (lo < hi) { /* the first entry of pid */
		size_t mid = lo + (hi - lo) / 2;

		if (c->by_pid[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	for (size_t i = first; i < c->ntask; i++) {
		const struct sr_ctx_task *t = &c->task[c->by_pid[i].i];

		if (t->pid != pid)
			break;
		if (t->ts <= ts || !best)
			best = t;
		if (t->ts > ts)
			break;
	}
	return best;
}
