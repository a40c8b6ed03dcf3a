/*
 * parsetest.h: helpers for the parse/ tests: read a whole trace into
 * arrays, convert it to native and back, compare streams.
 */
#ifndef SR_PARSETEST_H
#define SR_PARSETEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/native-write.h"
#include "parse/reader.h"
#include "tests/lib/test.h"

struct loaded {
	int rc;                   /* 0 ok, else the status */
	char msg[SR_DIAG_MSG_MAX];
	struct sr_event *ev;
	size_t n;
	struct sr_task *tasks;
	size_t ntasks;
	struct sr_read_stats st;
	struct sr_lost_range lost[64];
	char format[32];
};

static inline void loaded_free(struct loaded *l)
{
	free(l->ev);
	free(l->tasks);
	memset(l, 0, sizeof(*l));
}

static inline int load_opts(struct loaded *l, const char *path,
			    const struct sr_read_opts *o)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_reader *r;
	struct sr_event ev;
	size_t cap = 0;
	int rc;

	memset(l, 0, sizeof(*l));
	if (sr_reader_open(&r, path, o, &d) != SR_OK) {
		l->rc = d.code;
		snprintf(l->msg, sizeof(l->msg), "%s", d.msg);
		return l->rc;
	}
	snprintf(l->format, sizeof(l->format), "%s", sr_reader_format(r));
	while ((rc = sr_reader_next(r, &ev, &d)) == 1) {
		if (l->n == cap) {
			cap = cap ? cap * 2 : 256;
			l->ev = realloc(l->ev, cap * sizeof(*l->ev));
		}
		l->ev[l->n++] = ev;
	}
	if (rc < 0) {
		l->rc = d.code;
		snprintf(l->msg, sizeof(l->msg), "%s", d.msg);
	}
	l->ntasks = sr_tasks_count(sr_reader_tasks(r));
	l->tasks = calloc(l->ntasks + 1, sizeof(*l->tasks));
	for (size_t i = 0; i < l->ntasks; i++)
		l->tasks[i] = *sr_tasks_get(sr_reader_tasks(r), (sr_tid)i);
	l->st = *sr_reader_stats(r);
	for (size_t i = 0; i < l->st.nlost && i < 64; i++)
		l->lost[i] = l->st.lost[i];
	l->st.lost = NULL;
	sr_reader_close(r);
	return l->rc;
}

static inline int load(struct loaded *l, const char *path)
{
	return load_opts(l, path, NULL);
}

/* Index of the first task with pid and comm, or -1. */
static inline long task_named(const struct loaded *l, int pid,
			      const char *comm)
{
	for (size_t i = 0; i < l->ntasks; i++)
		if (l->tasks[i].pid == pid && !strcmp(l->tasks[i].comm, comm))
			return (long)i;
	return -1;
}

/* Convert path to native in tmp; returns 0 on success. */
static inline int convert_to(const char *path, const char *out,
			     const struct sr_read_opts *o)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_reader *r;
	struct sr_native_writer *w;
	struct sr_event ev;
	FILE *f;
	int rc;

	if (sr_reader_open(&r, path, o, &d) != SR_OK)
		return d.code;
	f = fopen(out, "w");
	if (!f) {
		sr_reader_close(r);
		return 74;
	}
	sr_native_writer_new(&w, f, "test", &d);
	while ((rc = sr_reader_next(r, &ev, &d)) == 1)
		if (sr_native_write(w, &ev, sr_reader_tasks(r), &d) != SR_OK)
			break;
	sr_native_writer_free(w);
	fclose(f);
	sr_reader_close(r);
	if (d.code)
		fprintf(stderr, "convert: %s\n", d.msg);
	return d.code;
}

/* Same event stream (all fields but the line) and task table? */
static inline void check_same_stream(const struct loaded *a,
				     const struct loaded *b, const char *what)
{
	CHECK_CTX("%.200s", what);
	CHECK_INT(b->n, a->n);
	CHECK_INT(b->ntasks, a->ntasks);
	for (size_t i = 0; i < a->n && i < b->n; i++) {
		struct sr_event x = a->ev[i], y = b->ev[i];

		x.line = y.line = 0;
		if (memcmp(&x, &y, sizeof(x)) != 0) {
			CHECK_CTX("%.150s: event %zu (line %llu, kind %s)", what, i,
				  (unsigned long long)a->ev[i].line,
				  sr_ev_kind_name(a->ev[i].kind));
			CHECK_INT(y.ts, x.ts);
			CHECK_INT(y.cpu, x.cpu);
			CHECK_INT(y.kind, x.kind);
			CHECK_INT(y.task, x.task);
			CHECK_INT(y.other, x.other);
			CHECK_INT(y.waker, x.waker);
			CHECK_INT(y.wsrc, x.wsrc);
			CHECK_INT(y.prev_state, x.prev_state);
			CHECK_INT(y.preempt, x.preempt);
			CHECK_INT(y.prio, x.prio);
			CHECK_INT(y.other_prio, x.other_prio);
			CHECK_INT(y.target_cpu, x.target_cpu);
			CHECK_INT(y.orig_cpu, x.orig_cpu);
			CHECK_INT(y.value, x.value);
			CHECK_INT(y.sync, x.sync);
			break;
		}
	}
	for (size_t i = 0; i < a->ntasks && i < b->ntasks; i++) {
		const struct sr_task *x = &a->tasks[i], *y = &b->tasks[i];

		CHECK_CTX("%.150s: task %zu (%d %.64s)", what, i, x->pid, x->comm);
		if (x->pid != y->pid || strcmp(x->comm, y->comm) ||
		    x->thread != y->thread || x->exec_prev != y->exec_prev ||
		    x->parent != y->parent || x->tgid != y->tgid ||
		    x->is_idle != y->is_idle || x->kthread != y->kthread ||
		    x->exited != y->exited || x->freed != y->freed ||
		    x->first_ts != y->first_ts || x->last_ts != y->last_ts ||
		    x->prio != y->prio || x->nice != y->nice ||
		    x->cpu != y->cpu || x->policy != y->policy) {
			CHECK_STR(y->comm, x->comm);
			CHECK_INT(y->pid, x->pid);
			CHECK_INT(y->thread, x->thread);
			CHECK_INT(y->exec_prev, x->exec_prev);
			CHECK_INT(y->parent, x->parent);
			CHECK_INT(y->tgid, x->tgid);
			CHECK_INT(y->kthread, x->kthread);
			CHECK_INT(y->exited, x->exited);
			CHECK_INT(y->freed, x->freed);
			CHECK_INT(y->first_ts, x->first_ts);
			CHECK_INT(y->last_ts, x->last_ts);
			CHECK_INT(y->prio, x->prio);
			CHECK_INT(y->cpu, x->cpu);
			break;
		}
	}
	CHECK_CTX("%.200s", what);
}

/* Convert, read back, compare. */
static inline void check_roundtrip(const char *path,
				   const struct sr_read_opts *o)
{
	struct loaded a, b;
	char tmp[512];
	int rc = test_mktemp(tmp, sizeof(tmp), "rt", 0);

	CHECK_CTX("roundtrip %.200s", path);
	CHECK(rc == 0);
	if (rc < 0)
		return;
	CHECK_INT(load_opts(&a, path, o), 0);
	CHECK_INT(convert_to(path, tmp, o), 0);
	CHECK_INT(load(&b, tmp), 0);
	CHECK_STR(b.format, "native");
	check_same_stream(&a, &b, path);
	loaded_free(&a);
	loaded_free(&b);
	unlink(tmp);
}

#endif
