/*
 * test-observed: the recorded schedule from hand-made event sequences,
 * under both perf compatibility modes: which events start and end waits,
 * perf's quirks, rows per kernel task, lost-event marking.
 */
#include <stdint.h>

#include "replay/observed.h"
#include "tests/lib/test.h"

/* task records: id = index; pid, comm, thread (exec chain), idle */
static const struct sr_task tasks[] = {
	{ .id = 0, .thread = 0, .pid = 0, .comm = "swapper/0", .is_idle = 1 },
	{ .id = 1, .thread = 1, .pid = 100, .comm = "sh" },
	{ .id = 2, .thread = 1, .pid = 100, .comm = "cc1" },  /* exec of 1 */
	{ .id = 3, .thread = 3, .pid = 200, .comm = "xmms" },
	{ .id = 4, .thread = 4, .pid = 300, .comm = "X" },
	{ .id = 5, .thread = 5, .pid = 200, .comm = "make" }, /* pid reuse */
	{ .id = 6, .thread = 6, .pid = 0, .comm = "swapper/1", .is_idle = 1 },
};

static const struct sr_task *get(const void *ctx, sr_tid id)
{
	return id < sizeof(tasks) / sizeof(tasks[0]) ? &tasks[id] : NULL;
}

static size_t count(const void *ctx)
{
	return sizeof(tasks) / sizeof(tasks[0]);
}

#define SW(t, c, p, st, n) { .ts = t, .cpu = c, .kind = SR_EV_SWITCH, \
	.task = p, .other = n, .prev_state = st }
#define SWP(t, c, p, n) { .ts = t, .cpu = c, .kind = SR_EV_SWITCH, \
	.task = p, .other = n, .prev_state = 'R', .preempt = 1 }
#define WAKING(t, c, x) { .ts = t, .cpu = c, .kind = SR_EV_WAKING, .task = x }
#define WAKEUP(t, c, x) { .ts = t, .cpu = c, .kind = SR_EV_WAKEUP, .task = x }
#define WNEW(t, c, x) { .ts = t, .cpu = c, .kind = SR_EV_WAKEUP_NEW, .task = x }
#define RT(t, c, x, ns) { .ts = t, .cpu = c, .kind = SR_EV_RUNTIME, \
	.task = x, .value = ns }
#define LOST(t, c, n) { .ts = t, .cpu = c, .kind = SR_EV_LOST, .value = n }
#define EXEC(t, c, x, y) { .ts = t, .cpu = c, .kind = SR_EV_EXEC, .task = x, \
	.other = y }
#define END { .kind = SR_EV__COUNT }

struct row {
	int32_t pid;
	const char *comm;
	int64_t runtime;
	uint64_t switches, wakeups;
	int64_t sum, max, start, end;
	bool lost;
};

static const struct {
	const char *name;
	enum sr_perf_compat compat;
	struct sr_event ev[16];
	struct row rows[4]; /* in task id order; pid 0 ends */
} cases[] = {
	{ "waking starts the wait (perf)", SR_COMPAT_PERF,
	  { SW(10, 0, 3, 'S', 0), WAKING(100, 1, 3), WAKEUP(105, 0, 3),
	    SW(130, 0, 0, 'R', 3), RT(150, 0, 3, 20), SW(150, 0, 3, 'S', 0),
	    END },
	  { { 200, "xmms", 20, 1, 1, 30, 30, 100, 130, false } } },
	{ "waking is ignored (perf-6.1): first sight is the switch-in",
	  SR_COMPAT_PERF_6_1,
	  { WAKING(100, 1, 3), SW(130, 0, 0, 'R', 3), RT(150, 0, 3, 20),
	    SW(150, 0, 3, 'S', 0), WAKING(200, 1, 3), SW(210, 0, 0, 'R', 3),
	    END },
	  { { 200, "xmms", 20, 1, 0, 0, 0, 0, 0, false } } },
	{ "wakeup counts in perf-6.1", SR_COMPAT_PERF_6_1,
	  { SW(10, 0, 3, 'S', 0), WAKING(100, 1, 3), WAKEUP(105, 0, 3),
	    SW(130, 0, 0, 'R', 3), END },
	  { { 200, "xmms", 0, 1, 1, 25, 25, 105, 130, false } } },
	{ "R+ is a preemption (perf)", SR_COMPAT_PERF,
	  { SW(10, 0, 3, 'S', 4), SWP(20, 0, 4, 3), SW(50, 0, 3, 'S', 4),
	    END },
	  { { 200, "xmms", 30, 0, 0, 0, 0, 0, 0, false },
	    { 300, "X", 10, 2, 0, 30, 30, 20, 50, false } } },
	{ "R+ ends nothing countable (perf-6.1)", SR_COMPAT_PERF_6_1,
	  { SW(10, 0, 3, 'S', 4), SWP(20, 0, 4, 3), SW(50, 0, 3, 'S', 4),
	    END },
	  { { 200, "xmms", 30, 0, 0, 0, 0, 0, 0, false },
	    { 300, "X", 10, 1, 0, 0, 0, 0, 0, false } } },
	{ "plain R is runnable in both (perf-6.1)", SR_COMPAT_PERF_6_1,
	  { SW(10, 0, 3, 'S', 4), SW(20, 0, 4, 'R', 3), SW(50, 0, 3, 'S', 4),
	    END },
	  { { 200, "xmms", 30, 0, 0, 0, 0, 0, 0, false },
	    { 300, "X", 10, 2, 0, 30, 30, 20, 50, false } } },
	{ "wakeup_new is a fork wait; exec keeps one row named after the last",
	  SR_COMPAT_PERF,
	  { WNEW(5, 1, 1), SW(9, 0, 0, 'R', 1), EXEC(10, 0, 1, 2),
	    RT(12, 0, 2, 7), SW(12, 0, 2, 'S', 0), WAKING(20, 1, 2),
	    SW(26, 0, 0, 'R', 2), END },
	  { { 100, "cc1", 7, 2, 1, 10, 6, 20, 26, false } } },
	{ "a runtime event first: runnable from then (perf quirk)",
	  SR_COMPAT_PERF,
	  { RT(40, 1, 4, 1000), SW(45, 0, 0, 'R', 4), END },
	  { { 300, "X", 1000, 1, 0, 5, 5, 40, 45, false } } },
	{ "a wakeup stamped before the switch-out is ignored", SR_COMPAT_PERF,
	  { SW(10, 0, 0, 'R', 3), SW(50, 0, 3, 'S', 0), WAKING(40, 1, 3),
	    SW(60, 1, 0, 'R', 3), END },
	  { { 200, "xmms", 40, 1, 0, 0, 0, 0, 0, false } } },
	{ "pid reuse: two rows with the same pid", SR_COMPAT_PERF,
	  { WNEW(0, 0, 3), SW(4, 0, 0, 'R', 3), SW(5, 0, 3, 'Z', 0),
	    WNEW(10, 0, 5), SW(13, 0, 0, 'R', 5), END },
	  { { 200, "xmms", 1, 1, 0, 4, 4, 0, 4, false },
	    { 200, "make", 0, 1, 0, 3, 3, 10, 13, false } } },
	{ "lost events mark the current and the waiting, not the others",
	  SR_COMPAT_PERF,
	  { SW(1, 0, 0, 'R', 1), SW(2, 1, 6, 'R', 4), SW(3, 1, 4, 'S', 6),
	    WAKING(4, 1, 3), LOST(5, 0, 10), SW(9, 0, 1, 'S', 3),
	    WAKING(20, 1, 4), SW(22, 1, 6, 'R', 4), END },
	  { { 100, "cc1", 8, 1, 0, 0, 0, 0, 0, true },
	    { 200, "xmms", 13, 1, 1, 5, 5, 4, 9, true },
	    { 300, "X", 1, 2, 1, 2, 2, 20, 22, false } } },
	{ "after a loss, a switch-out of a sleeping task is marked",
	  SR_COMPAT_PERF,
	  { WAKING(0, 1, 3), SW(1, 0, 3, 'S', 0), LOST(2, 1, 3),
	    SW(5, 0, 3, 'S', 0), END },
	  { { 200, "xmms", 0, 0, 1, 0, 0, 0, 0, true } } },
	{ "idle tasks have no row", SR_COMPAT_PERF,
	  { SW(1, 0, 0, 'R', 6), SW(2, 0, 6, 'R', 0), END },
	  { { 0 } } },
};

static void test_cases(void)
{
	const struct sr_task_view view = { get, count, NULL };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sr_observed_opts opts = { cases[i].compat };
		struct sr_diag d = SR_DIAG_INIT;
		struct sr_observed *o;
		struct sr_task_metrics **rows;
		size_t n, want_n = 0;
		int64_t t_end = 0;

		CHECK_CTX("%s", cases[i].name);
		CHECK_INT(sr_observed_new(&o, &opts, &view, &d), SR_OK);
		for (const struct sr_event *e = cases[i].ev;
		     e->kind != SR_EV__COUNT; e++) {
			CHECK_INT(sr_observed_event(o, e), SR_OK);
			t_end = e->ts;
		}
		CHECK_INT(sr_observed_finish(o, t_end, &d), SR_OK);
		CHECK_INT(sr_observed_rows(o, &rows, &n, &d), SR_OK);
		while (want_n < 4 && cases[i].rows[want_n].pid)
			want_n++;
		CHECK_INT(n, want_n);
		for (size_t k = 0; k < n && k < want_n; k++) {
			const struct row *w = &cases[i].rows[k];
			const struct sr_task_metrics *m = rows[k];

			CHECK_CTX("%s: row %zu", cases[i].name, k);
			CHECK_INT(m->pid, w->pid);
			CHECK_STR(m->comm, w->comm);
			CHECK_INT(m->runtime_ns, w->runtime);
			CHECK_INT(m->switches, w->switches);
			CHECK_INT(m->wakeups, w->wakeups);
			CHECK_INT(m->sum_delay_ns, w->sum);
			CHECK_INT(m->max_delay_ns, w->max);
			CHECK_INT(m->max_delay_start, w->start);
			CHECK_INT(m->max_delay_end, w->end);
			CHECK_INT(m->lost_touched, w->lost);
		}
		free(rows);
		sr_observed_free(o);
	}
	test_ctx[0] = '\0';
}

static void test_compat_names(void)
{
	enum sr_perf_compat c;

	CHECK_INT(sr_perf_compat_parse("perf", &c), SR_OK);
	CHECK_INT(c, SR_COMPAT_PERF);
	CHECK_INT(sr_perf_compat_parse("perf-6.1", &c), SR_OK);
	CHECK_INT(c, SR_COMPAT_PERF_6_1);
	CHECK_INT(sr_perf_compat_parse("perf-9", &c), SR_EUSAGE);
}

int main(void)
{
	test_cases();
	test_compat_names();
	return test_done("test-observed");
}
