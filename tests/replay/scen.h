/*
 * scen.h: hand-built event sequences for the replay tests, without a
 * reader: a task table, a list of events, and a driver that streams them
 * into the demand and one simulator, pausing every `step` events.  Each
 * run logs its timeline and latency rows as text, to compare runs.
 */
#ifndef TEST_SCEN_H
#define TEST_SCEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/demand.h"
#include "replay/sim.h"

#define SC_MAX_TASKS 64
#define SC_MAX_EVENTS 512
#define MS 1000000LL

struct scen {
	struct sr_task tasks[SC_MAX_TASKS];
	size_t ntasks;
	struct sr_event ev[SC_MAX_EVENTS];
	size_t nev;
	/* task wakes are attributed by context only, as perf script text's
	   (sr_event.wguess); 0: the trace names each waker (native by=) */
	bool guessed;
};

static inline const struct sr_task *sc_get(const void *ctx, sr_tid id)
{
	const struct scen *sc = ctx;

	return id < sc->ntasks ? &sc->tasks[id] : NULL;
}

static inline sr_tid sc_task(struct scen *sc, int pid, const char *comm)
{
	struct sr_task *t = &sc->tasks[sc->ntasks];

	memset(t, 0, sizeof(*t));
	t->id = (sr_tid)sc->ntasks;
	t->thread = t->id;
	t->exec_prev = SR_TID_NONE;
	t->parent = SR_TID_NONE;
	t->pid = pid;
	t->tgid = pid;
	t->cpu = -1;
	t->prio = -1;
	t->policy = -1;
	t->is_idle = pid == 0;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return (sr_tid)sc->ntasks++;
}

/* A new record for an exec of task (same thread). */
static inline sr_tid sc_exec_rec(struct scen *sc, sr_tid task, const char *comm)
{
	sr_tid id = sc_task(sc, sc->tasks[task].pid, comm);

	sc->tasks[id].thread = sc->tasks[task].thread;
	sc->tasks[id].exec_prev = task;
	return id;
}

static inline struct sr_event *sc_ev(struct scen *sc, int64_t ts, int cpu,
				     int kind)
{
	struct sr_event *e = &sc->ev[sc->nev++];

	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->line = sc->nev;
	e->cpu = cpu;
	e->kind = (uint8_t)kind;
	e->task = e->other = e->waker = SR_TID_NONE;
	e->prio = e->other_prio = -1;
	e->target_cpu = e->orig_cpu = -1;
	return e;
}

static inline void sc_switch(struct scen *sc, int64_t ts, int cpu, sr_tid prev,
		      char state, sr_tid next)
{
	struct sr_event *e = sc_ev(sc, ts, cpu, SR_EV_SWITCH);

	e->task = prev;
	e->prev_state = (uint8_t)state;
	e->other = next;
}

/* waker SR_TID_NONE: external (wsrc says from where) */
static inline void sc_wake(struct scen *sc, int64_t ts, int cpu, sr_tid task,
		    sr_tid waker, int wsrc)
{
	struct sr_event *e = sc_ev(sc, ts, cpu, SR_EV_WAKEUP);

	e->task = task;
	e->waker = waker;
	e->wsrc = (uint8_t)(waker != SR_TID_NONE ? SR_WS_TASK : wsrc);
	e->wguess = waker != SR_TID_NONE && sc->guessed;
}

static inline void sc_fork(struct scen *sc, int64_t ts, int cpu, sr_tid parent,
		    sr_tid child)
{
	struct sr_event *e = sc_ev(sc, ts, cpu, SR_EV_FORK);

	e->task = parent;
	e->other = child;
	sc->tasks[child].parent = parent;
}

static inline void sc_simple(struct scen *sc, int64_t ts, int cpu, int kind,
		      sr_tid task, sr_tid other, int64_t value)
{
	struct sr_event *e = sc_ev(sc, ts, cpu, kind);

	e->task = task;
	e->other = other;
	e->value = value;
}

/* ---- running ------------------------------------------------------------ */

struct sc_run {
	struct sr_demand *dm;
	struct sr_sim *sim;
	char *log;
	size_t loglen;
	FILE *logf;
	int rc;
	struct sr_diag d;
};

static inline int sc_row(void *ctx, const struct sr_tl_row *r)
{
	struct sc_run *x = ctx;

	fprintf(x->logf, "T %lld %d %s %s %d %ld %d %s\n", (long long)r->t,
		r->pid, r->comm, r->event, r->v ? r->v->prio : r->prio,
		r->v ? r->v->time_slice : -1L, r->cpu, r->why ? r->why : "-");
	return 0;
}

static inline int sc_wait(void *ctx, uint32_t task, int64_t from, int64_t to,
		   enum sr_acct_cause cause)
{
	struct sc_run *x = ctx;

	fprintf(x->logf, "L %lld %lld %u %s\n", (long long)from,
		(long long)to, task, sr_acct_cause_name(cause));
	return 0;
}

static inline void sc_resolved(void *ctx, uint32_t task, uint32_t block,
			const struct sr_op *op)
{
	struct sc_run *x = ctx;

	if (x->sim)
		sr_sim_resolved(x->sim, task, block, op);
}

/*
 * Replay sc under pol, pausing every step events (0: only at the end).
 * t_end: end of the recording (0: the last event).  x->rc says how it went.
 */
static inline void sc_replay(struct sc_run *x, const struct scen *sc,
		      const struct sm_policy *pol,
		      const struct sr_sim_opts *opts_in, size_t step,
		      const char *exclude, int64_t t_end)
{
	struct sr_demand_opts dopts = { .exclude = exclude, .task_get = sc_get,
					.task_ctx = sc, .nconsumers = 1 };
	struct sr_sim_opts opts = { .cpus = 1, .check = true };
	struct sr_sim_hooks hooks = { .row = sc_row, .wait = sc_wait,
				      .ctx = x };

	memset(x, 0, sizeof(*x));
	if (opts_in)
		opts = *opts_in;
	opts.policy = pol;
	x->logf = open_memstream(&x->log, &x->loglen);
	if ((x->rc = sr_demand_new(&x->dm, &dopts, &x->d)))
		return;
	sr_demand_on_resolve(x->dm, sc_resolved, x);
	if ((x->rc = sr_sim_new(&x->sim, &opts, x->dm, 0, &hooks, &x->d)))
		return;
	for (size_t i = 0; i < sc->nev; i++) {
		if ((x->rc = sr_demand_event(x->dm, &sc->ev[i], &x->d)))
			return;
		if (step && (i + 1) % step == 0 &&
		    (x->rc = sr_sim_advance(x->sim, &x->d)))
			return;
	}
	if ((x->rc = sr_demand_finish(x->dm, t_end, &x->d)) ||
	    (x->rc = sr_sim_advance(x->sim, &x->d)))
		return;
	if (!sr_sim_finished(x->sim)) {
		x->rc = sr_fail(&x->d, SR_EINTERNAL, "sim not finished");
		return;
	}
	x->rc = sr_sim_finish(x->sim, &x->d);
	fflush(x->logf);
}

static inline void sc_done(struct sc_run *x)
{
	sr_sim_free(x->sim);
	sr_demand_free(x->dm);
	if (x->logf)
		fclose(x->logf);
	free(x->log);
	memset(x, 0, sizeof(*x));
}

/* Figures of a task (by thread id) after a replay. */
static inline const struct sr_task_metrics *sc_metrics(struct sc_run *x,
							 sr_tid id)
{
	return sr_acct_metrics(sr_sim_acct(x->sim), id);
}

#endif
