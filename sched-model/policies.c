/*
 * policies: the table of scheduler models, lookup by name or alias, and
 * the names of the observer's change reasons; the steps every family
 * takes alike (block, exit, reap, the end of a yield, schedule()'s
 * switch, a task's class at task_new, a running task freed).  A new
 * policy is one file in sched-model/ defining its struct sm_policy
 * sm_policy_ID, plus one row ID in SM_POLICY_LIST below.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/suggest.h"
#include "sched-model/policy.h"

/* The policies, one row each, in the order `schedreplay policies` lists
 * them: X(ID) names the struct sm_policy sm_policy_ID of its file. */
#define SM_POLICY_LIST(X) \
	X(stock) \
	X(test2_mm1) \
	X(o11int) \
	X(o11_1) \
	X(o11_2) \
	X(g3) \
	X(a3) \
	X(iso) \
	X(24) \
	X(cfs) \
	X(eevdf) \
	X(eevdf618)

#define SM_POLICY_DECLARE(id) extern const struct sm_policy sm_policy_##id;
#define SM_POLICY_ROW(id) &sm_policy_##id,
SM_POLICY_LIST(SM_POLICY_DECLARE)

const struct sm_policy *const sm_policies[] = {
	SM_POLICY_LIST(SM_POLICY_ROW)
	NULL,
};

const struct sm_policy *sm_policy_find(const char *name)
{
	if (!name)
		return NULL;
	for (const struct sm_policy *const *p = sm_policies; *p; p++) {
		if (!strcmp((*p)->name, name))
			return *p;
		for (const char *const *a = (*p)->aliases; *a; a++)
			if (!strcmp(*a, name))
				return *p;
	}
	return NULL;
}

const char *sm_policy_hint(const char *name, char *buf, size_t len)
{
	struct sr_suggest s;

	sr_suggest_init(&s, name, strlen(name));
	for (const struct sm_policy *const *p = sm_policies; *p; p++) {
		sr_suggest_add(&s, (*p)->name);
		for (const char *const *a = (*p)->aliases; *a; a++)
			sr_suggest_add(&s, *a);
	}
	return sr_suggest_hint(&s, "", buf, len);
}

static const char *const change_names[SM_CH__COUNT] = {
	[SM_CH_NEW] = "new",
	[SM_CH_FORK] = "fork",
	[SM_CH_WAKE] = "wake",
	[SM_CH_RUN] = "run",
	[SM_CH_PREEMPT] = "preempt",
	[SM_CH_BLOCK] = "block",
	[SM_CH_EXPIRE] = "expire",
	[SM_CH_REQUEUE] = "requeue",
	[SM_CH_EXIT] = "exit",
	[SM_CH_REAP] = "reap",
	[SM_CH_STATE] = "state",
	[SM_CH_TICK] = "tick",
	[SM_CH_RECALC] = "recalc",
	[SM_CH_CHARGE] = "charge",
	[SM_CH_SWAP] = "swap",
	[SM_CH_YIELD] = "yield",
	[SM_CH_NICE] = "nice",
	[SM_CH_SETSCHED] = "setsched",
	[SM_CH_REFUND] = "refund",
	[SM_CH_MIGRATE] = "migrate",
};

void sm_rq_init(struct sm_rq *rq, const struct sm_policy *policy, int cpu,
		unsigned long j, const struct sm_observer *obs)
{
	rq->policy = policy;
	rq->cpu = cpu;
	rq->hz = SM_HZ;
	rq->ncpus = 1;
	sm_rq_set_jiffies(rq, j);
	if (obs)
		rq->obs = *obs;
}

void sm_task_step(struct sm_task *t, int *state, enum sm_step step,
		  const struct sm_step_ops *ops)
{
	/* from which states, to which, the observer told before leaving
	   the queue and after (-1: not) */
	static const struct step_row {
		unsigned from;
		int to;
		int before;
		enum sm_change leave;
		int after;
	} rows[] = {
		[SM_STEP_BLOCK] = { 1u << SM_STATE_RUNNABLE, SM_STATE_SLEEPING,
				    SM_CH_STATE, SM_CH_BLOCK, -1 },
		[SM_STEP_EXIT] = { ~(1u << SM_STATE_ZOMBIE | 1u << SM_STATE_DEAD),
				   SM_STATE_ZOMBIE, SM_CH_EXIT, SM_CH_EXIT, -1 },
		[SM_STEP_REAP] = { ~(1u << SM_STATE_DEAD), SM_STATE_DEAD,
				   -1, SM_CH_EXIT, SM_CH_REAP },
	};
	const struct step_row *r = &rows[step];

	if (*state < 0 || *state > SM_STATE_DEAD || !(r->from & 1u << *state))
		return;
	*state = r->to;
	if (t->on_cpu)
		ops->resched(t);
	if (r->before >= 0)
		ops->note(t, (enum sm_change)r->before);
	ops->leave(t, r->leave);
	if (r->after >= 0)
		ops->note(t, (enum sm_change)r->after);
}

void sm_task_yielded(struct sm_task *t, const struct sm_step_ops *ops)
{
	if (t->on_cpu)
		ops->resched(t);
	ops->note(t, SM_CH_YIELD);
}

struct sm_task *sm_rq_switch(struct sm_rq *rq, struct sm_task *prev,
			     struct sm_task *next,
			     const struct sm_switch_ops *ops)
{
	rq->need_resched = false;
	if (prev != next) {
		if (prev) {
			prev->on_cpu = false;
			ops->note(prev, ops->off(prev));
		}
		rq->curr = next;
		if (next) {
			next->on_cpu = true;
			if (ops->on)
				ops->on(next);
			ops->note(next, SM_CH_RUN);
		}
	} else if (prev) {
		ops->note(prev, SM_CH_STATE);
	}
	return rq->curr;
}

enum sm_change sm_switch_why(bool queued, int state)
{
	return queued ? SM_CH_PREEMPT :
	       state == SM_STATE_ZOMBIE || state == SM_STATE_DEAD ? SM_CH_EXIT :
	       SM_CH_BLOCK;
}

void sm_rq_task_gone(struct sm_rq *rq, const struct sm_task *t)
{
	if (t->on_cpu) {
		rq->curr = NULL;
		rq->need_resched = true;
	}
}

bool sm_policy_valid(int policy, int rt_priority, int max_rt)
{
	if (policy != SM_SCHED_NORMAL && policy != SM_SCHED_FIFO &&
	    policy != SM_SCHED_RR)
		return false;
	if (rt_priority < 0 || rt_priority > max_rt)
		return false;
	return (policy == SM_SCHED_NORMAL) == (rt_priority == 0);
}

void sm_task_class(const struct sm_task_info *in, int max_rt, int *policy,
		   int *rt_priority)
{
	bool ok = sm_policy_valid(in->policy, in->rt_priority, max_rt);

	*policy = ok ? in->policy : SM_SCHED_NORMAL;
	*rt_priority = ok ? in->rt_priority : 0;
}

bool sm_change_passive(enum sm_change why)
{
	switch (why) {
	case SM_CH_STATE:
	case SM_CH_TICK:
	case SM_CH_CHARGE:
	case SM_CH_NICE:
	case SM_CH_SETSCHED:
	case SM_CH_REFUND:
		return true;
	default:
		return false;
	}
}

bool sm_view_equal(const struct sm_view *a, const struct sm_view *b)
{
	return a->prio == b->prio && a->static_prio == b->static_prio &&
		a->sleep_avg == b->sleep_avg && a->credit == b->credit &&
		a->time_slice == b->time_slice && a->array == b->array &&
		a->state == b->state && a->on_cpu == b->on_cpu &&
		a->interactive == b->interactive &&
		a->first_time_slice == b->first_time_slice &&
		a->activated == b->activated && a->last_run == b->last_run;
}

void sm_report(struct sm_rq *rq, struct sm_task *t, struct sm_reported *last,
	       enum sm_change why, bool passive, const struct sm_view *v)
{
	if (passive && last->once && sm_view_equal(v, &last->v))
		return;
	last->v = *v;
	last->once = true;
	if (rq && rq->obs.changed)
		rq->obs.changed(rq->obs.ctx, rq, t, why, v);
}

const char *sm_change_name(enum sm_change why)
{
	if ((unsigned)why >= SM_CH__COUNT || !change_names[why])
		return "?";
	return change_names[why];
}

/* ---- why a task waits ---- */

static const char *const why_names[SM_WHY__COUNT] = {
	[SM_WHY_NONE] = "-",
	[SM_WHY_LOWER_PRIO] = "lower-prio",
	[SM_WHY_SAME_PRIO_QUEUE] = "same-prio-queue",
	[SM_WHY_NO_PREEMPT] = "no-preempt",
	[SM_WHY_EXPIRED] = "expired",
	[SM_WHY_STARVING_SWITCH] = "starving-switch",
	[SM_WHY_GRANULARITY] = "granularity",
	[SM_WHY_CREDIT] = "credit",
	[SM_WHY_TICK] = "tick",
	[SM_WHY_OTHER_CPU] = "other-cpu",
	[SM_WHY_GOODNESS] = "goodness",
	[SM_WHY_COUNTER_OUT] = "counter-out",
	[SM_WHY_VRUNTIME] = "vruntime-later",
	[SM_WHY_NOT_ELIGIBLE] = "not-eligible",
	[SM_WHY_DEADLINE] = "deadline-later",
};

static const char *const why_sub_names[SM_WHYSUB__COUNT] = {
	[SM_WHYSUB_NONE] = NULL,
	[SM_WHYSUB_STRICT] = "strict-prio",
	[SM_WHYSUB_SLICE2X] = "2x-slice",
	[SM_WHYSUB_HEAD] = "head",
	[SM_WHYSUB_SYNC] = "sync",
	[SM_WHYSUB_PULL] = "pull",
	[SM_WHYSUB_CACHE_HOT] = "cache-hot",
	[SM_WHYSUB_THRESHOLD] = "threshold",
	[SM_WHYSUB_INTERVAL] = "interval",
};

const char *sm_why_name(int code)
{
	if (code < 0 || code >= SM_WHY__COUNT)
		return "?";
	return why_names[code];
}

int sm_why_find(const char *name)
{
	for (int i = 0; i < SM_WHY__COUNT; i++)
		if (!strcmp(why_names[i], name))
			return i;
	return -1;
}

const char *sm_why_sub_name(int sub)
{
	if (sub < 0 || sub >= SM_WHYSUB__COUNT)
		return NULL;
	return why_sub_names[sub];
}

int sm_why_sub_find(const char *name)
{
	for (int i = 1; i < SM_WHYSUB__COUNT; i++)
		if (!strcmp(why_sub_names[i], name))
			return i;
	return -1;
}

int sm_why_parse_detail(const char *s, struct sm_why *w)
{
	static const char *const keys[] = { "ahead=", "credit=", "idle=" };

	w->sub = SM_WHYSUB_NONE;
	w->ahead = -1;
	w->value = -1;
	if (!strcmp(s, "-"))
		return 0;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		char tok[32];
		size_t k;

		if (!n || n >= sizeof(tok))
			return -1;
		memcpy(tok, s, n);
		tok[n] = '\0';
		for (k = 0; k < 3; k++)
			if (!strncmp(tok, keys[k], strlen(keys[k])))
				break;
		if (k < 3) {
			char *end;
			long long v = strtoll(tok + strlen(keys[k]), &end, 10);

			if (*end || end == tok + strlen(keys[k]) || v < 0 ||
			    v > INT32_MAX)
				return -1;
			if (k == 0)
				w->ahead = (int32_t)v;
			else
				w->value = v;
		} else {
			int sub = sm_why_sub_find(tok);

			if (sub < 0)
				return -1;
			w->sub = (uint8_t)sub;
		}
		s += n;
		if (*s == ',')
			s++;
	}
	return 0;
}

/* s appended at buf[*o], cut to len - 1 */
static void put_s(char *buf, size_t len, size_t *o, const char *s)
{
	while (*s && *o + 1 < len)
		buf[(*o)++] = *s++;
	buf[*o] = '\0';
}

static void put_kv(char *buf, size_t len, size_t *o, const char *k,
		   int64_t v)
{
	char d[24], *p = d + sizeof(d) - 1;
	uint64_t u = (uint64_t)v;

	*p = '\0';
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (*o)
		put_s(buf, len, o, ",");
	put_s(buf, len, o, k);
	put_s(buf, len, o, p);
}

char *sm_why_detail(char *buf, size_t len, const struct sm_why *w)
{
	const char *sub = sm_why_sub_name(w->sub);
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (sub)
		put_s(buf, len, &o, sub);
	if (w->ahead >= 0)
		put_kv(buf, len, &o, "ahead=", w->ahead);
	if (w->value >= 0 && w->code == SM_WHY_CREDIT)
		put_kv(buf, len, &o, "credit=", w->value);
	if (w->value >= 0 && w->code == SM_WHY_OTHER_CPU)
		put_kv(buf, len, &o, "idle=", w->value);
	if (!o)
		put_s(buf, len, &o, "-");
	return buf;
}
