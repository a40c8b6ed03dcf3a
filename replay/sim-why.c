/*
 * sim-why: the attribution of waits (docs/replay.md, "Why a task
 * waited").  While a task waits runnable, each CPU keeps a list of the
 * tasks waiting on it, and at the end of an instant that changed
 * something on a CPU (a switch, a wake, a queue or prio change the policy
 * reports, a migration; every tick for a policy whose reasons move with
 * the clock; on several CPUs, the idle CPUs changing) the policy is asked
 * again why each of them waits; a new answer, or a new running task,
 * starts a new segment.
 */
#include <stdlib.h>

#include "lib/grow.h"
#include "replay/sim-int.h"

void sim_wlist_add(struct sr_sim *s, uint32_t id, int c)
{
	struct stask *t = tk(s, id);
	struct scpu *k = &s->cpu[c];

	t->wcpu = c;
	t->wprev = SR_TID_NONE;
	t->wnext = k->whead;
	if (k->whead != SR_TID_NONE)
		tk(s, k->whead)->wprev = id;
	k->whead = id;
	k->nwait++;
	bit_set(s->wdirty, c);
}

void sim_wlist_del(struct sr_sim *s, uint32_t id)
{
	struct stask *t = tk(s, id);
	struct scpu *k;

	if (t->wcpu < 0)
		return;
	k = &s->cpu[t->wcpu];
	if (t->wprev != SR_TID_NONE)
		tk(s, t->wprev)->wnext = t->wnext;
	else
		k->whead = t->wnext;
	if (t->wnext != SR_TID_NONE)
		tk(s, t->wnext)->wprev = t->wprev;
	k->nwait--;
	bit_set(s->wdirty, t->wcpu);
	t->wcpu = -1;
}

/* The accounting just started a wait of task id (it became runnable, or
   left its CPU runnable): its attribution starts with it. */
void sim_wait_open(struct sr_sim *s, uint32_t id)
{
	struct stask *t = tk(s, id);

	if (!s->why_on || t->in_wait ||
	    sr_acct_state(s->acct, id) != SR_ACCT_RUNNABLE)
		return;
	t->in_wait = true;
	t->wseg = false;
	t->nsegs = 0;
	t->wait_from = sr_acct_since(s->acct, id);
	s->nwaiting++;
	sim_wlist_add(s, id, t->cpu >= 0 && t->cpu < s->ncpu ? t->cpu : 0);
}

static int seg_push(struct stask *t, const struct sr_wait_seg *g)
{
	if (t->nsegs == t->capsegs) {
		size_t cap = t->capsegs;
		struct sr_wait_seg *p;

		if (cap >= UINT32_MAX / 2)
			return SR_ENOMEM;
		p = sr_grow(t->segs, &cap, t->nsegs, sizeof(*p), 4, 0);
		if (!p)
			return SR_ENOMEM;
		t->segs = p;
		t->capsegs = (uint32_t)cap;
	}
	t->segs[t->nsegs++] = *g;
	return SR_OK;
}

/* Close the open segment at now (one of no length is dropped). */
static void seg_close(struct sr_sim *s, uint32_t id)
{
	struct stask *t = tk(s, id);

	if (!t->wseg)
		return;
	t->wseg = false;
	if (t->seg.start >= s->now)
		return;
	t->seg.end = s->now;
	if (seg_push(t, &t->seg))
		sim_fail(s, SR_ENOMEM, "out of memory", id);
}

/*
 * Task id runs: its wait ends now.  Its segments must tile the wait
 * exactly (from wait_from to now): anything else is a bug of the
 * attribution, reported as one.
 */
void sim_wait_close(struct sr_sim *s, uint32_t id)
{
	struct stask *t = tk(s, id);
	int64_t at;

	if (!t->in_wait)
		return;
	seg_close(s, id);
	sim_wlist_del(s, id);
	t->in_wait = false;
	s->nwaiting--;
	at = t->wait_from;
	for (uint32_t i = 0; i < t->nsegs; i++) {
		if (t->segs[i].start != at || t->segs[i].end <= at) {
			sim_fail(s, SR_EINTERNAL, "the segments of a wait do not "
			     "tile it", id);
			return;
		}
		at = t->segs[i].end;
	}
	if (at != s->now)
		sim_fail(s, SR_EINTERNAL, "the segments of a wait do not add up to "
		     "its delay", id);
}

struct running {
	uint32_t id;
	int32_t pid;
	uint32_t comm;
	int16_t prio;
};

static void running_on(struct sr_sim *s, int c, struct running *r)
{
	uint32_t id = s->cpu[c].cur;
	const struct stask *t;
	struct sm_view v;

	r->id = id;
	r->pid = -1;
	r->comm = 0;
	r->prio = -1;
	if (id == SR_TID_NONE || gone(s, id) || !(t = tk(s, id))->pt)
		return;
	s->pol->view(t->pt, &v);
	r->pid = t->pid;
	r->comm = t->comm;
	r->prio = (int16_t)v.prio;
}

static bool seg_same(const struct sr_wait_seg *a, const struct sr_wait_seg *b)
{
	return a->running == b->running && a->running_prio == b->running_prio &&
		a->cpu == b->cpu && a->why.code == b->why.code &&
		a->why.sub == b->why.sub && a->why.ahead == b->why.ahead &&
		a->why.value == b->why.value;
}

/*
 * Ask again why each task waiting on CPU c waits.  idle1, idle2: the two
 * lowest idle CPUs (-1: none), for other-cpu: a CPU the task may use
 * idles while it waits here.
 */
static void attribute_cpu(struct sr_sim *s, int c, int idle1, int idle2)
{
	struct running r;
	int idle = idle1 == c ? idle2 : idle1;

	running_on(s, c, &r);
	for (uint32_t id = s->cpu[c].whead; id != SR_TID_NONE;
	     id = tk(s, id)->wnext) {
		struct stask *t = tk(s, id);
		struct sr_wait_seg g = {
			.start = t->wseg ? s->now : t->wait_from,
			.running = r.id, .running_pid = r.pid,
			.running_comm = r.comm, .running_prio = r.prio,
			.cpu = (int16_t)c,
			.why = { SM_WHY_NONE, SM_WHYSUB_NONE, -1, -1 },
		};

		if (idle >= 0 && (t->pin < 0 || t->pin == idle)) {
			g.why.code = SM_WHY_OTHER_CPU;
			g.why.value = idle;
			if (s->bops->why_stays)
				g.why.sub = (uint8_t)s->bops->why_stays(
					s->bal, t->pt, c, idle);
		} else if (s->pol->why_waiting) {
			s->pol->why_waiting(s->cpu[c].rq, t->pt, &g.why);
		}
		if (t->wseg && seg_same(&g, &t->seg))
			continue;
		seg_close(s, id);
		t->seg = g;
		t->wseg = true;
	}
}

/* End of an instant: attribute the waits on the CPUs where something
   changed (see the head of this file). */
void sim_attribute(struct sr_sim *s)
{
	int idle1 = -1, idle2 = -1;
	bool all = false;

	if (!s->nwaiting) {
		for (size_t w = 0; w < s->nw; w++)
			s->wdirty[w] = 0;
		return;
	}
	if (s->tick_instant && s->pol->why_at_tick)
		all = true;
	if (s->bal) {
		bool changed = false;

		for (int c = 0; c < s->ncpu; c++) {
			bool is_idle = s->cpu[c].cur == SR_TID_NONE;
			bool was = (s->widle[c / 64] >> (c % 64)) & 1;

			if (is_idle) {
				if (idle1 < 0)
					idle1 = c;
				else if (idle2 < 0)
					idle2 = c;
			}
			if (is_idle != was) {
				changed = true;
				if (is_idle)
					bit_set(s->widle, c);
				else
					bit_clear(s->widle, c);
			}
		}
		/* an idle CPU's balance (cache-hotness, intervals) moves
		   with the ticks */
		if (changed || (s->tick_instant && idle1 >= 0))
			all = true;
	}
	for (int c = 0; c < s->ncpu; c++) {
		bool dirty = all || ((s->wdirty[c / 64] >> (c % 64)) & 1);

		if (dirty && s->cpu[c].nwait)
			attribute_cpu(s, c, idle1, idle2);
	}
	for (size_t w = 0; w < s->nw; w++)
		s->wdirty[w] = 0;
}

const struct sr_wait_seg *sr_sim_wait_segs(const struct sr_sim *s,
					   uint32_t id, size_t *n)
{
	const struct stask *t;

	if (id >= s->nt || !s->why_on || gone(s, id)) {
		*n = 0;
		return NULL;
	}
	t = tk(s, id);
	*n = t->nsegs;
	return t->segs;
}

void sr_wait_main(const struct sr_wait_seg *g, size_t n, int *why,
		  uint32_t *behind, int32_t *behind_pid)
{
	int64_t by_why[SM_WHY__COUNT] = { 0 }, best = 0, most = 0;

	*why = SM_WHY_NONE;
	*behind = SR_TID_NONE;
	*behind_pid = -1;
	for (size_t i = 0; i < n; i++) {
		int c = g[i].why.code < SM_WHY__COUNT ? g[i].why.code : 0;

		by_why[c] += g[i].end - g[i].start;
	}
	/* the first of the longest, in order of first appearance */
	for (size_t i = 0; i < n; i++) {
		int c = g[i].why.code < SM_WHY__COUNT ? g[i].why.code : 0;
		int64_t sum = 0;
		size_t j;

		if (by_why[c] > best) {
			best = by_why[c];
			*why = c;
		}
		if (g[i].running == SR_TID_NONE)
			continue;
		for (j = 0; j < i && g[j].running != g[i].running; j++)
			;
		if (j < i)
			continue; /* counted at its first segment */
		for (j = i; j < n; j++)
			if (g[j].running == g[i].running)
				sum += g[j].end - g[j].start;
		if (sum > most) {
			most = sum;
			*behind = g[i].running;
			*behind_pid = g[i].running_pid;
		}
	}
}
