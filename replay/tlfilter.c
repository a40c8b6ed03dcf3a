/*
 * tlfilter: timeline rows, all or collapsed to the changes (tlfilter.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "replay/tlfilter.h"

const char *const sr_tl_mode_names[] = { "changes", "all", NULL };

/* What a timeline shows of a task; a row is a change if this differs. */
/* A task's last row written, as compared (12 bytes a task: prio is
 * 0..140, array and state small enums, cpu < SR_SIM_MAX_CPUS). */
struct shown {
	int32_t prio;
	int16_t cpu;
	int8_t array, state;
	bool on_cpu, written;
};
_Static_assert(SR_SIM_MAX_CPUS <= INT16_MAX, "struct shown's cpu");

/* A task's row held until its instant ends. */
struct held {
	struct sr_tl_row row;
	struct sm_view v;
	char comm[SR_COMM_MAX];
};

struct sr_tlfilter {
	sr_tl_fn emit;
	void *ctx;
	enum sr_tl_mode mode;
	int64_t now;            /* the instant the held rows belong to */
	struct shown *last;     /* per task: last row written */
	size_t nlast;
	uint32_t *slot;         /* per task: index in held + 1, 0 = none */
	size_t nslot;
	struct held *held;      /* this instant's rows, first-seen order */
	size_t nheld, capheld, peak;
};

int sr_tlfilter_new(struct sr_tlfilter **fp, enum sr_tl_mode mode,
		    sr_tl_fn emit, void *ctx, struct sr_diag *d)
{
	struct sr_tlfilter *f = calloc(1, sizeof(*f));

	*fp = NULL;
	if (!f)
		return sr_oom(d);
	f->emit = emit;
	f->ctx = ctx;
	f->mode = mode;
	f->now = INT64_MIN;
	*fp = f;
	return SR_OK;
}

void sr_tlfilter_free(struct sr_tlfilter *f)
{
	if (!f)
		return;
	free(f->last);
	free(f->slot);
	free(f->held);
	free(f);
}

static struct shown shown_of(const struct sr_tl_row *r)
{
	return (struct shown){ .prio = r->v->prio, .cpu = (int16_t)r->cpu,
			       .array = (int8_t)r->v->array,
			       .state = (int8_t)r->v->state,
			       .on_cpu = r->v->on_cpu, .written = true };
}

/* Where a task is, as a timeline's reader follows it from event names
 * (docs/replay.md, "Output files"). */
enum where { W_NONE, W_ASLEEP, W_RUNNABLE, W_RUNNING, W_ZOMBIE, W_GONE };

static enum where where_of(const struct shown *s)
{
	if (!s->written)
		return W_NONE;
	if (s->state == SM_STATE_ZOMBIE)
		return W_ZOMBIE;
	if (s->state == SM_STATE_DEAD)
		return W_GONE;
	if (s->on_cpu)
		return W_RUNNING;
	return s->state == SM_STATE_RUNNABLE ? W_RUNNABLE : W_ASLEEP;
}

static enum where implied(const char *event)
{
	static const struct { const char *name; enum where w; } tab[] = {
		{ "fork", W_RUNNABLE }, { "wake", W_RUNNABLE },
		{ "preempt", W_RUNNABLE }, { "run", W_RUNNING },
		{ "new", W_ASLEEP }, { "block", W_ASLEEP },
		{ "exit", W_ZOMBIE }, { "reap", W_GONE },
	};

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(event, tab[i].name))
			return tab[i].w;
	return W_NONE;
}

/*
 * The event a collapsed row is written with: its last one, unless that
 * one names no move while the task did move (a tick or requeue after the
 * instant's run): then the move's own name, so that the event names of
 * the rows still say where each task is.
 */
static const char *event_of(const struct held *h, const struct shown *prev,
			    const struct shown *now)
{
	enum where to = where_of(now), from = where_of(prev);

	if (implied(h->row.event) == to || (to == from && !implied(h->row.event)))
		return h->row.event;
	switch (to) {
	case W_RUNNING: return "run";
	case W_RUNNABLE: return from == W_RUNNING ? "preempt" : "wake";
	case W_ASLEEP: return "block";
	case W_ZOMBIE: return "exit";
	case W_GONE: return "reap";
	default: return h->row.event;
	}
}

size_t sr_tlfilter_peak(const struct sr_tlfilter *f)
{
	return f->peak;
}

/* Pass on a held row if it shows a change from the task's last row. */
static int put(struct sr_tlfilter *f, struct held *h)
{
	struct shown s = shown_of(&h->row), *l = &f->last[h->row.task];

	if (l->written && l->prio == s.prio && l->array == s.array &&
	    l->state == s.state && l->cpu == s.cpu && l->on_cpu == s.on_cpu)
		return SR_OK;
	h->row.event = event_of(h, l, &s);
	*l = s;
	return f->emit(f->ctx, &h->row);
}

int sr_tlfilter_flush(struct sr_tlfilter *f)
{
	int rc = SR_OK;

	for (size_t i = 0; i < f->nheld; i++) {
		int r;

		f->slot[f->held[i].row.task] = 0;
		if ((r = put(f, &f->held[i])) && !rc)
			rc = r;
	}
	f->nheld = 0;
	return rc;
}

int sr_tlfilter_row(struct sr_tlfilter *f, const struct sr_tl_row *r)
{
	struct held *h;
	uint32_t id = r->task;
	int rc;

	if (f->mode == SR_TL_ALL || !r->v)
		return f->emit(f->ctx, r);
	if (r->t != f->now) {
		if ((rc = sr_tlfilter_flush(f)))
			return rc;
		f->now = r->t;
	}
	if (id >= f->nlast || id >= f->nslot) {
		/* both grown, or neither counted grown: the next row of a
		 * failed run must not index past either */
		size_t nlast = f->nlast, nslot = f->nslot;
		struct shown *l = sr_grow(f->last, &nlast, id, sizeof(*l), 64,
					  0);
		uint32_t *s;

		if (!l)
			return SR_ENOMEM;
		f->last = l;
		s = sr_grow(f->slot, &nslot, id, sizeof(*s), 64, 0);
		if (!s)
			return SR_ENOMEM;
		f->slot = s;
		f->nlast = nlast;
		f->nslot = nslot;
	}
	/* a skipped sleep, or a migration (its from and why would not
	   survive a collapse): written, after what the task's held row
	   shows; a migration is what the task shows from then on */
	if (r->demand || r->from_cpu >= 0) {
		if (f->slot[id] && (rc = put(f, &f->held[f->slot[id] - 1])))
			return rc;
		if (!r->demand)
			f->last[id] = shown_of(r);
		return f->emit(f->ctx, r);
	}
	if (f->slot[id]) {
		struct shown now = shown_of(r), then;

		h = &f->held[f->slot[id] - 1];
		then = shown_of(&h->row);
		/* a move, then another one at the same instant (woken, then
		 * run): both are written; moves undone within the instant
		 * (expire, swap, run again) are not */
		if (where_of(&then) != where_of(&now) &&
		    where_of(&then) != where_of(&f->last[id]) &&
		    (rc = put(f, h)))
			return rc;
	} else {
		if (f->nheld == f->capheld) {
			struct held *p = sr_grow(f->held, &f->capheld, f->nheld,
						 sizeof(*p), 16, 0);

			if (!p)
				return SR_ENOMEM;
			f->held = p;
			/* the rows held point into their own slots: moved */
			for (size_t i = 0; i < f->nheld; i++) {
				f->held[i].row.v = &f->held[i].v;
				f->held[i].row.comm = f->held[i].comm;
			}
		}
		h = &f->held[f->nheld++];
		f->slot[id] = (uint32_t)f->nheld;
		if (f->nheld > f->peak)
			f->peak = f->nheld;
	}
	h->row = *r;
	h->v = *r->v;
	h->row.v = &h->v;
	snprintf(h->comm, sizeof(h->comm), "%s", r->comm ? r->comm : "");
	h->row.comm = h->comm;
	return SR_OK;
}
