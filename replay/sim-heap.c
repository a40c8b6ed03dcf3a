/*
 * sim-heap: the run-end heap, the simulator's CPUs ordered by when their
 * current task reaches its next op (the key stays put while nothing
 * happens on the CPU: its current's CPU and the time pass alike); a key
 * is soft while more input may show an op sooner.
 */
#include "replay/sim-int.h"

static bool rh_less(const struct sr_sim *s, uint32_t a, uint32_t b)
{
	const struct scpu *x = &s->cpu[a], *y = &s->cpu[b];

	if (x->key != y->key)
		return x->key < y->key;
	if (x->soft != y->soft)
		return x->soft; /* a bound of what is known first: wait */
	return a < b;
}

static void rh_put(struct sr_sim *s, size_t i, uint32_t c)
{
	s->rh[i] = c;
	s->cpu[c].hpos = (uint32_t)i + 1;
}

static void rh_up(struct sr_sim *s, size_t i)
{
	uint32_t c = s->rh[i];

	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!rh_less(s, c, s->rh[p]))
			break;
		rh_put(s, i, s->rh[p]);
		i = p;
	}
	rh_put(s, i, c);
}

static void rh_down(struct sr_sim *s, size_t i)
{
	uint32_t c = s->rh[i];

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = l;

		if (l >= s->nrh)
			break;
		if (r < s->nrh && rh_less(s, s->rh[r], s->rh[l]))
			m = r;
		if (!rh_less(s, s->rh[m], c))
			break;
		rh_put(s, i, s->rh[m]);
		i = m;
	}
	rh_put(s, i, c);
}

static void rh_remove(struct sr_sim *s, uint32_t c)
{
	size_t i;
	uint32_t last;

	if (!s->cpu[c].hpos)
		return;
	i = s->cpu[c].hpos - 1;
	s->cpu[c].hpos = 0;
	last = s->rh[--s->nrh];
	if (i == s->nrh)
		return;
	rh_put(s, i, last);
	rh_up(s, i);
	rh_down(s, s->cpu[last].hpos - 1);
}

/* CPU the current task may use before its next op; *hard: that op is
 * known (else more input may show an op sooner). */
static int64_t avail(const struct sr_sim *s, uint32_t id, bool *hard)
{
	const struct stask *t = tk(s, id);
	const struct sr_op *op = sr_demand_op(s->dm, id, t->op);

	if (op) {
		*hard = true;
		return op->kind == SR_OP_RUN ? op->a - t->off : 0;
	}
	*hard = false;
	return sr_demand_open(s->dm, id) - t->off;
}

/* Recompute CPU c's key (it stays put while nothing happens on c: its
 * current's CPU and the time pass alike). */
void sim_rh_update(struct sr_sim *s, uint32_t c)
{
	struct scpu *k = &s->cpu[c];
	int64_t from;
	bool hard;

	if (k->cur == SR_TID_NONE) {
		rh_remove(s, c);
		return;
	}
	from = k->charged_to > k->busy_until ? k->charged_to : k->busy_until;
	from += avail(s, k->cur, &hard);
	if (k->hpos && from == k->key && k->soft == !hard)
		return; /* in place already */
	k->key = from;
	k->soft = !hard;
	if (!k->hpos) {
		s->rh[s->nrh] = c;
		k->hpos = (uint32_t)++s->nrh;
	}
	rh_up(s, k->hpos - 1);
	rh_down(s, k->hpos - 1);
}

/* Mark pending the CPUs whose current reaches a known next op at t: the
   heap's entries with a hard key <= t (keys are >= t: t is the least),
   found from the root without taking them out. */
void sim_due_cpus(struct sr_sim *s, int64_t t)
{
	uint32_t *stack = s->rhstack;
	size_t n = 0;

	if (s->nrh)
		stack[n++] = 0;
	while (n) {
		size_t i = stack[--n];
		uint32_t c = s->rh[i];

		if (s->cpu[c].key > t)
			continue;
		if (!s->cpu[c].soft) {
			bit_set(s->pending, (int)c);
			bit_set(s->touched, (int)c);
		}
		/* a soft key == t sorts first, and the loop waited on it:
		   none is here; children of a key == t may still be due */
		for (size_t k = 2 * i + 1; k <= 2 * i + 2 && k < s->nrh; k++)
			stack[n++] = (uint32_t)k; /* n <= nrh: each once */
	}
}
