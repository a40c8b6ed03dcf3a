/*
 * fuzz-replay: a whole replay (replay/replay.c) on whatever parses: the
 * demand extraction, a simulator per policy (stock, test2-mm1, o11int,
 * with the policies' invariant checks on at every instant) and the
 * recorded schedule, in one pass, on 1 to 4 CPUs (the input's size picks
 * how many).  With --check on, the simulator checks the invariants of
 * docs/models.md ("The SMP balancer") as it goes and stops with an internal error, which fails
 * here, when one breaks: a task on at most one runqueue (its own), no CPU
 * idle while its queue holds a task or while it could pull one, every
 * task's work conserved (it ran exactly its demand).  The replay promises
 * that its results do not depend on how often the simulators are stepped
 * (batch), so each input is replayed twice, stepping after every 3 events
 * and after 4096, and every figure of every row and every CPU must agree;
 * and each row's figures must hold together (fuzz-stats.c's checks).
 *
 * The simulators tick 1000 times a second of trace for each policy, so an
 * input spanning minutes takes a second of normal build and most of a
 * minute of sanitizer build: inputs spanning more than FZ_SPAN_MAX are
 * read (and checked) but not replayed.  Time is all they add.
 */
#include <string.h>

#include "replay/replay.h"
#include "tests/fuzz/fuzz.h"

#define FZ_SPAN_MAX (10LL * 1000000000LL) /* ns of trace time replayed */

static const char *const policies[] = {
	"stock", "test2-mm1", "o11int", SR_REPLAY_OBSERVED,
};

static void check_row(const struct sr_replay_row *w, const char *pol)
{
	const struct sr_task_metrics *m = w->m;

	FZ_ASSERT(m->runtime_ns >= 0 && m->sum_delay_ns >= 0 &&
		  m->max_delay_ns >= 0, "%s pid %d: negative figures", pol,
		  (int)m->pid);
	FZ_ASSERT(sr_delays_count(m->delays) == m->switches, "%s pid %d: "
		  "delays/switches", pol, (int)m->pid);
	FZ_ASSERT(sr_metrics_avg_delay(m) <= m->max_delay_ns, "%s pid %d: "
		  "avg above max", pol, (int)m->pid);
	FZ_ASSERT(m->max_delay_ns == 0 ||
		  m->max_delay_end - m->max_delay_start == m->max_delay_ns,
		  "%s pid %d: max delay and its bounds", pol, (int)m->pid);
	FZ_ASSERT(w->x.cpu_ns >= 0, "%s pid %d: cpu %lld", pol, (int)m->pid,
		  (long long)w->x.cpu_ns);
}

static int same_row(const struct sr_replay_row *a,
		    const struct sr_replay_row *b)
{
	const struct sr_task_metrics *x = a->m, *y = b->m;

	return x->pid == y->pid && !strcmp(x->comm, y->comm) &&
	       x->runtime_ns == y->runtime_ns && x->switches == y->switches &&
	       x->wakeups == y->wakeups &&
	       x->sum_delay_ns == y->sum_delay_ns &&
	       x->max_delay_ns == y->max_delay_ns &&
	       x->max_delay_start == y->max_delay_start &&
	       x->max_delay_end == y->max_delay_end &&
	       x->lost_touched == y->lost_touched &&
	       !memcmp(&a->x, &b->x, sizeof(a->x));
}

static struct sr_replay *run(const char *path, size_t batch, int lenient,
			     int cpus, struct sr_diag *d)
{
	struct sr_replay_opts o = {
		.trace = path,
		.read = { .reorder_window = 64, .input_buffer = 1,
			  .lenient = lenient },
		.policies = policies,
		.npolicies = sizeof(policies) / sizeof(policies[0]),
		.batch = batch,
		.check = true,
		.cpus = cpus,
	};
	struct sr_replay *r = NULL;

	if (sr_replay_run(&o, &r, d) != SR_OK) {
		sr_replay_free(r);
		return NULL;
	}
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fz_file(0, data, size);
	struct sr_diag d1 = SR_DIAG_INIT, d2 = SR_DIAG_INIT;
	struct sr_replay *a, *b;
	struct sr_read_opts ro = { .reorder_window = 64, .input_buffer = 1,
				   .lenient = size & 1 };
	struct sr_reader *r;
	int64_t span = 0;

	/* the span of what is delivered, also when the input ends in an
	   error: the replay simulates up to there */
	fz_read(path, &ro, NULL, NULL, &r, &d1);
	if (r) {
		const struct sr_read_stats *st = sr_reader_stats(r);

		if (st->events)
			span = st->last_ts - st->first_ts;
	}
	sr_reader_close(r);
	if (span > FZ_SPAN_MAX)
		return 0;
	d1 = (struct sr_diag)SR_DIAG_INIT;
	a = run(path, 3, size & 1, 1 + (int)(size / 2 % 4), &d1);
	b = run(path, 4096, size & 1, 1 + (int)(size / 2 % 4), &d2);
	if (!a || !b) {
		FZ_ASSERT(!a && !b, "batch 3 %s, batch 4096 %s: %s",
			  a ? "ran" : "failed", b ? "ran" : "failed",
			  a ? d2.msg : d1.msg);
		FZ_ASSERT(!strcmp(d1.msg, d2.msg), "batch 3: '%s', batch "
			  "4096: '%s'", d1.msg, d2.msg);
		fz_check_error(path, &d1);
		return 0;
	}
	FZ_ASSERT(sr_replay_count(a) == sr_replay_count(b), "policy count");
	for (size_t i = 0; i < sr_replay_count(a); i++) {
		const struct sr_replay_policy *p = sr_replay_get(a, i);
		const struct sr_replay_policy *q = sr_replay_get(b, i);

		FZ_ASSERT(p->nrows == q->nrows, "%s: %zu rows with batch 3, "
			  "%zu with 4096", p->name, p->nrows, q->nrows);
		FZ_ASSERT(p->start == q->start && p->end == q->end,
			  "%s: span depends on the batch", p->name);
		FZ_ASSERT(p->ncpu == q->ncpu && (!p->ncpu ||
			  !memcmp(p->cpu, q->cpu, p->ncpu * sizeof(*p->cpu))),
			  "%s: cpu figures depend on the batch", p->name);
		for (size_t c = 0; c < p->ncpu; c++)
			FZ_ASSERT(p->cpu[c].busy_ns >= 0 &&
				  p->cpu[c].idle_ns >= 0 &&
				  (p->observed || p->cpu[c].busy_ns +
				   p->cpu[c].idle_ns == p->end - p->start),
				  "%s: cpu %zu busy %lld idle %lld over %lld",
				  p->name, c, (long long)p->cpu[c].busy_ns,
				  (long long)p->cpu[c].idle_ns,
				  (long long)(p->end - p->start));
		for (size_t k = 0; k < p->nrows; k++) {
			check_row(&p->rows[k], p->name);
			FZ_ASSERT(same_row(&p->rows[k], &q->rows[k]), "%s: row "
				  "%zu (pid %d) depends on the batch", p->name,
				  k, (int)p->rows[k].m->pid);
		}
	}
	sr_replay_free(a);
	sr_replay_free(b);
	return 0;
}
