/*
 * synth: the closed-loop driver (replay/synth.h).  Owns the synthetic
 * tasks (their records, steps and semaphore waits), the demand they write
 * into and the one simulator that reads it, and the run written as a
 * native trace.  The simulator asks for a task's next ops when it gets
 * there (sr_sim_hooks.need); the first op of each step is done at once,
 * so a step that starts by waiting on a semaphore decides and blocks in
 * one indivisible move, as a futex wait does.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "parse/native-write.h"
#include "replay/demand.h"
#include "replay/synth.h"

struct stask {
	struct sr_task rec;        /* what task_get hands the demand */
	sr_synth_step_fn step;
	void *prog;
	uint32_t blk;              /* waiting: the block it waits in */
	bool waiting;              /* blocked on a semaphore */
	bool exited;
	sr_tid wid;                /* its record in the trace written */
};

struct sr_synth {
	struct sr_synth_opts o;
	struct sr_demand *dm;
	struct sr_sim *sim;
	struct stask **t;
	size_t nt, capt;
	size_t live;               /* made, not exited */
	int32_t next_pid;
	/* the step running: its task and how many ops it appended */
	uint32_t cur;
	uint64_t appended;
	bool ran;                  /* sr_synth_run called */
	/* the first error of an op or a step */
	struct sr_diag err;
	/* the trace written */
	struct sr_native_synth *nw;
};

#define NPOS SR_TID_NONE

static const struct sr_task *task_get(const void *ctx, sr_tid id)
{
	const struct sr_synth *sy = ctx;

	return id < sy->nt ? &sy->t[id]->rec : NULL;
}

/* The first error wins; later ones are dropped. */
static void sy_fail(struct sr_synth *sy, int code, const char *msg)
{
	if (!sy->err.code)
		sr_fail(&sy->err, code, "%s", msg);
}

static int on_need(void *ctx, uint32_t task);
static int on_event(void *ctx, const struct sr_event *ev);

int sr_synth_new(struct sr_synth **out, const struct sr_synth_opts *o,
		 struct sr_diag *d)
{
	struct sr_synth *sy = calloc(1, sizeof(*sy));
	struct sr_demand_opts dopts = { .causal = SR_CAUSAL_ALL,
					.task_get = task_get,
					.nconsumers = 1 };
	struct sr_sim_opts sopts = {
		.policy = o->policy, .sched = o->sched, .cpus = o->cpus,
		.external = SR_EXTERNAL_ABSOLUTE, .early = SR_EARLY_REQUEUE,
		.check = o->check, .no_why = true,
	};
	struct sr_sim_hooks hooks = { .wait = o->wait, .need = on_need };

	*out = NULL;
	if (!sy)
		return sr_oom(d);
	sy->o = *o;
	sy->next_pid = o->first_pid > 0 ? o->first_pid : 1000;
	sy->cur = NPOS;
	dopts.task_ctx = sy;
	hooks.ctx = sy;
	if (o->trace) {
		hooks.event = on_event;
		if (sr_native_synth_new(&sy->nw, o->trace, o->trace_comment,
					d)) {
			sr_synth_free(sy);
			return d->code;
		}
	}
	if (sr_demand_new(&sy->dm, &dopts, d) ||
	    sr_sim_new(&sy->sim, &sopts, sy->dm, 0, &hooks, d)) {
		sr_synth_free(sy);
		return d->code;
	}
	/* the wait hook's context is the caller's */
	if (o->wait)
		sr_acct_on_wait(sr_sim_acct(sy->sim), o->wait, o->wait_ctx);
	if (sr_demand_synth_start(sy->dm, 0)) {
		sr_synth_free(sy);
		return sr_fail(d, SR_EINTERNAL, "synth: demand not fresh");
	}
	*out = sy;
	return SR_OK;
}

void sr_synth_free(struct sr_synth *sy)
{
	if (!sy)
		return;
	sr_sim_free(sy->sim);
	sr_demand_free(sy->dm);
	for (size_t i = 0; i < sy->nt; i++)
		free(sy->t[i]);
	free(sy->t);
	sr_native_synth_free(sy->nw);
	free(sy);
}

/* A new task's record: forked by parent (NPOS: it arrives). */
static int make_task(struct sr_synth *sy, const struct sr_synth_task *in,
		     uint32_t parent, uint32_t *id)
{
	struct stask *t, **v;
	const struct stask *p = parent != NPOS ? sy->t[parent] : NULL;

	if (sy->nt >= SR_TID_NONE - 1)
		return SR_EINTERNAL;
	v = sr_grow(sy->t, &sy->capt, sy->nt, sizeof(*v), 64, 0);
	if (!v)
		return SR_EINTERNAL;
	sy->t = v;
	if (!(t = calloc(1, sizeof(*t))))
		return SR_EINTERNAL;
	*id = (uint32_t)sy->nt;
	t->rec.id = t->rec.thread = *id;
	t->rec.exec_prev = SR_TID_NONE;
	t->rec.parent = parent != NPOS ? parent : SR_TID_NONE;
	t->rec.pid = sy->next_pid++;
	t->rec.tgid = in->tgid > 0 ? in->tgid : t->rec.pid;
	t->rec.cpu = -1;
	t->rec.prio = -1;
	/* a fork copies the parent's nice and class (the models' fork does
	   too, whatever the record says) */
	t->rec.nice = p ? p->rec.nice : in->nice;
	t->rec.policy = p ? p->rec.policy : SR_SCHED_NORMAL;
	t->rec.rtprio = p ? p->rec.rtprio : 0;
	t->rec.forked = p != NULL;
	snprintf(t->rec.comm, sizeof(t->rec.comm), "%s", in->comm);
	t->step = in->step;
	t->prog = in->prog;
	t->wid = SR_TID_NONE;
	sy->t[sy->nt++] = t;
	sy->live++;
	return SR_OK;
}

int sr_synth_spawn(struct sr_synth *sy, const struct sr_synth_task *t,
		   int64_t at, uint32_t *id, struct sr_diag *d)
{
	if (sy->ran || at < 0)
		return sr_fail(d, SR_EINTERNAL, "synth: spawn after the start");
	if (make_task(sy, t, NPOS, id))
		return sr_oom(d);
	return sr_demand_synth_task(sy->dm, *id, SR_TID_NONE, at, 0, d);
}

/* ---- the run -------------------------------------------------------------- */

static int on_need(void *ctx, uint32_t task)
{
	struct sr_synth *sy = ctx;
	struct stask *t;
	int rc;

	if (task >= sy->nt || sy->t[task]->exited) {
		sy_fail(sy, SR_EINTERNAL, "synth: a step for no live task");
		return SR_EINTERNAL;
	}
	t = sy->t[task];
	sy->cur = task;
	sy->appended = 0;
	rc = t->step(sy, task, t->prog);
	sy->cur = NPOS;
	if (rc && !sy->err.code)
		sr_fail(&sy->err, rc, "synth: the program of %s (pid %d) "
			"failed", t->rec.comm, (int)t->rec.pid);
	else if (!sy->err.code && !sy->appended)
		sr_fail(&sy->err, SR_EINTERNAL, "synth: a step of %s (pid %d) "
			"that does nothing", t->rec.comm, (int)t->rec.pid);
	return sy->err.code;
}

int sr_synth_run(struct sr_synth *sy, struct sr_diag *d)
{
	bool ended = false;

	sy->ran = true;
	for (;;) {
		int rc = sr_sim_advance(sy->sim, d);

		if (sy->err.code) {
			d->code = 0;
			return sr_fail(d, sy->err.code, "%s at %lld ns",
				       sy->err.msg,
				       (long long)sr_sim_now(sy->sim));
		}
		if (rc)
			return rc;
		if (sr_sim_finished(sy->sim))
			break;
		if (sy->live || ended)
			return sr_fail(d, SR_EINTERNAL, "synth: %zu programs "
				       "wait for each other at %lld ns",
				       sy->live,
				       (long long)sr_sim_now(sy->sim));
		sr_demand_synth_end(sy->dm, sr_sim_now(sy->sim));
		ended = true;
	}
	return sr_sim_finish(sy->sim, d);
}

int64_t sr_synth_now(const struct sr_synth *sy)
{
	return sr_sim_now(sy->sim);
}

struct sr_sim *sr_synth_sim(struct sr_synth *sy)
{
	return sy->sim;
}

int32_t sr_synth_pid(const struct sr_synth *sy, uint32_t task)
{
	return task < sy->nt ? sy->t[task]->rec.pid : -1;
}

int32_t sr_synth_tgid(const struct sr_synth *sy, uint32_t task)
{
	return task < sy->nt ? sy->t[task]->rec.tgid : -1;
}

const char *sr_synth_comm(const struct sr_synth *sy, uint32_t task)
{
	return task < sy->nt ? sy->t[task]->rec.comm : "";
}

size_t sr_synth_ntasks(const struct sr_synth *sy)
{
	return sy->nt;
}

/* ---- ops ------------------------------------------------------------------- */

static void append(struct sr_synth *sy, uint32_t task, const struct sr_op *op)
{
	if (sy->err.code)
		return;
	if (task != sy->cur) {
		sy_fail(sy, SR_EINTERNAL, "synth: an op for a task not "
			"stepping");
		return;
	}
	if (sr_demand_synth_op(sy->dm, task, op, &sy->err))
		return;
	sy->appended++;
}

bool sr_synth_fresh(const struct sr_synth *sy)
{
	return sy->appended == 0;
}

void sr_synth_burn(struct sr_synth *sy, uint32_t task, int64_t ns)
{
	struct sr_op op = { .kind = SR_OP_RUN, .a = ns };

	append(sy, task, &op);
}

bool sr_synth_sleep_until(struct sr_synth *sy, uint32_t task, int64_t t)
{
	struct sr_op op = { .kind = SR_OP_BLOCK, .end = SR_BLOCK_EXTERNAL,
			    .wsrc = SR_WS_HARDIRQ };

	if (t <= sr_sim_now(sy->sim))
		return false;
	op.a = sr_sim_now(sy->sim);
	op.b = t;
	append(sy, task, &op);
	return true;
}

bool sr_synth_wait(struct sr_synth *sy, uint32_t task,
		   struct sr_synth_sem *sem)
{
	struct sr_op op = { .kind = SR_OP_BLOCK, .end = SR_BLOCK_CAUSAL };
	struct stask *t = sy->t[task];

	if (sem->count) {
		sem->count--;
		return false;
	}
	if (sy->appended) {
		/* done at once only as the step's first op: else a post
		   could come between the decision and the sleep */
		sy_fail(sy, SR_EINTERNAL, "synth: a wait after other ops in "
			"one step");
		return true;
	}
	if (sem->n == sem->cap) {
		if (sem->head) {
			memmove(sem->q, sem->q + sem->head,
				(sem->n - sem->head) * sizeof(*sem->q));
			sem->n -= sem->head;
			sem->head = 0;
		} else {
			uint32_t *q = sr_grow(sem->q, &sem->cap, sem->n,
					      sizeof(*q), 8, 0);

			if (!q) {
				sy_fail(sy, SR_ENOMEM, "out of memory");
				return true;
			}
			sem->q = q;
		}
	}
	sem->q[sem->n++] = task;
	t->blk = sr_demand_synth_blocks(sy->dm, task);
	t->waiting = true;
	op.a = sr_sim_now(sy->sim);
	append(sy, task, &op);
	return true;
}

static void wake(struct sr_synth *sy, uint32_t task, uint32_t w)
{
	struct sr_op op = { .kind = SR_OP_WAKE, .task = w };
	struct stask *t = sy->t[w];

	if (!t->waiting) {
		sy_fail(sy, SR_EINTERNAL, "synth: a wake of a task not "
			"waiting");
		return;
	}
	t->waiting = false;
	op.a = t->blk;
	append(sy, task, &op);
}

void sr_synth_post(struct sr_synth *sy, uint32_t task,
		   struct sr_synth_sem *sem)
{
	if (sem->head < sem->n)
		wake(sy, task, sem->q[sem->head++]);
	else
		sem->count++;
	if (sem->head == sem->n)
		sem->head = sem->n = 0;
}

void sr_synth_post_all(struct sr_synth *sy, uint32_t task,
		       struct sr_synth_sem *sem)
{
	while (sem->head < sem->n)
		wake(sy, task, sem->q[sem->head++]);
	sem->head = sem->n = 0;
}

void sr_synth_fork(struct sr_synth *sy, uint32_t task,
		   const struct sr_synth_task *in, uint32_t *child)
{
	struct sr_op op = { .kind = SR_OP_FORK };

	*child = NPOS;
	if (sy->err.code)
		return;
	if (make_task(sy, in, task, child)) {
		sy_fail(sy, SR_ENOMEM, "out of memory");
		return;
	}
	if (sr_demand_synth_task(sy->dm, *child, task, sr_sim_now(sy->sim),
				 -1, &sy->err))
		return;
	op.task = *child;
	append(sy, task, &op);
}

void sr_synth_nice(struct sr_synth *sy, uint32_t task, int nice)
{
	struct sr_op op = { .kind = SR_OP_NICE, .a = nice };

	sy->t[task]->rec.nice = nice;
	append(sy, task, &op);
}

void sr_synth_fifo(struct sr_synth *sy, uint32_t task, int rt)
{
	struct sr_op op = { .kind = SR_OP_SETSCHED,
			    .a = rt > 0 ? SR_SCHED_FIFO : SR_SCHED_NORMAL,
			    .b = rt > 0 ? rt : 0 };

	sy->t[task]->rec.policy = (int8_t)op.a;
	sy->t[task]->rec.rtprio = (int16_t)op.b;
	append(sy, task, &op);
}

void sr_synth_exit(struct sr_synth *sy, uint32_t task)
{
	struct sr_op op = { .kind = SR_OP_EXIT };

	append(sy, task, &op);
	if (!sy->err.code && !sy->t[task]->exited) {
		sy->t[task]->exited = true;
		sy->live--;
	}
}

void sr_synth_sem_free(struct sr_synth_sem *sem)
{
	free(sem->q);
	memset(sem, 0, sizeof(*sem));
}

/* ---- the run as a trace ------------------------------------------------------ */

/* The trace's record of task id: made at its first event (declared, or
   by the fork that is being written). */
static int wid_of(struct sr_synth *sy, uint32_t id, sr_tid forked_by,
		  int64_t ts, sr_tid *out, struct sr_diag *d)
{
	struct stask *t;

	if (id == SR_TID_NONE) {
		*out = SR_TID_NONE;
		return SR_OK;
	}
	if (id >= sy->nt)
		return sr_fail(d, SR_EINTERNAL, "synth: an event of task %u",
			       id);
	t = sy->t[id];
	if (t->wid == SR_TID_NONE) {
		t->wid = sr_native_synth_task(sy->nw, &t->rec, forked_by, ts,
					      d);
		if (t->wid == SR_TID_NONE)
			return d->code;
	}
	*out = t->wid;
	return SR_OK;
}

static int on_event(void *ctx, const struct sr_event *in)
{
	struct sr_synth *sy = ctx;
	struct sr_event ev = *in;
	struct sr_diag *d = &sy->err;
	sr_tid parent = SR_TID_NONE;

	if (ev.kind == SR_EV_FORK &&
	    wid_of(sy, in->task, SR_TID_NONE, ev.ts, &parent, d))
		return d->code;
	if (wid_of(sy, in->task, SR_TID_NONE, ev.ts, &ev.task, d) ||
	    wid_of(sy, in->other, parent, ev.ts, &ev.other, d) ||
	    wid_of(sy, in->waker, SR_TID_NONE, ev.ts, &ev.waker, d) ||
	    sr_native_synth_write(sy->nw, &ev, d))
		return d->code;
	return SR_OK;
}
