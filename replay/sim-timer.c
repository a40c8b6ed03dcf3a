/*
 * sim-timer: the simulator's timers, external wakes by time then trace
 * order, and the kicks of wakes that take effect later; and the horizon
 * before which no external wake not read yet can fall.
 */
#include "lib/grow.h"
#include "replay/sim-int.h"

static bool tless(const struct timer *a, const struct timer *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->seq != b->seq)
		return a->seq < b->seq;
	return a->id < b->id;
}

int sim_timer_push(struct sr_sim *s, int64_t t, uint64_t seq, uint32_t id)
{
	size_t i;

	{
		struct timer *h = sr_grow(s->heap, &s->capheap, s->nheap,
					  sizeof(*h), 64, 0);

		if (!h)
			return SR_ENOMEM;
		s->heap = h;
	}
	i = s->nheap++;
	s->heap[i] = (struct timer){ t, seq, id };
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct timer tmp;

		if (!tless(&s->heap[i], &s->heap[p]))
			break;
		tmp = s->heap[i];
		s->heap[i] = s->heap[p];
		s->heap[p] = tmp;
		i = p;
	}
	return SR_OK;
}

void sim_timer_pop(struct sr_sim *s)
{
	size_t i = 0, n = --s->nheap;

	s->heap[0] = s->heap[n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct timer tmp;

		if (l < n && tless(&s->heap[l], &s->heap[m]))
			m = l;
		if (r < n && tless(&s->heap[r], &s->heap[m]))
			m = r;
		if (m == i)
			break;
		tmp = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = tmp;
		i = m;
	}
}

/*
 * A wake that asked CPU c to reschedule (it found c idle, or preempts its
 * task) takes effect when the recording says such a wake took effect
 * (replay/calib.h): c reschedules then, by a kick timer, unless something
 * else makes it reschedule first.  remote: the wake was made on another
 * CPU.
 */
void sim_kick_later(struct sr_sim *s, int c, bool idle, bool remote)
{
	struct scpu *k = &s->cpu[c];
	enum sr_wake_class cls;
	int64_t cost;

	if (!s->o.calib || !k->rq->need_resched || k->kick_at > s->now ||
	    (s->resched[c / 64] >> (c % 64) & 1))
		return;
	cls = idle ? (remote ? SR_WAKE_IDLE_REMOTE : SR_WAKE_IDLE_LOCAL)
		   : (remote ? SR_WAKE_PREEMPT_REMOTE : SR_WAKE_PREEMPT_LOCAL);
	cost = sr_calib_wake_cost_at(s->o.calib, c, cls, (uint32_t)
				     sr_prng_below(&s->wake_rng,
						   SR_CALIB_STRATA));
	if (cost <= 0)
		return;
	if (sim_timer_push(s, s->now + cost, 0, KICK_TIMER | (uint32_t)c)) {
		sim_fail(s, SR_ENOMEM, "out of memory", SR_TID_NONE);
		return;
	}
	k->kick_at = s->now + cost;
	s->nkick++;
}

/* CPU c's kick is due (or moot: it rescheduled). */
void sim_kick_done(struct sr_sim *s, int c)
{
	if (s->cpu[c].kick_at) {
		s->cpu[c].kick_at = 0;
		s->nkick--;
	}
}

/* Earliest time an external wake not known yet could fall. */
int64_t sim_horizon(struct sr_sim *s)
{
	int64_t r = sr_demand_now(s->dm), h = r;

	if (sr_demand_done(s->dm))
		return INT64_MAX;
	for (size_t i = 0; i < s->nh;) {
		struct stask *t = gone(s, s->hlist[i]) ? NULL :
				  tk(s, s->hlist[i]);

		if (!t || t->state != T_BLOCKED || t->blk != SR_BLOCK_OPEN) {
			s->hlist[i] = s->hlist[--s->nh];
			continue;
		}
		if (t->blocked_at + (r - t->rec_block) < h)
			h = t->blocked_at + (r - t->rec_block);
		i++;
	}
	return h;
}
