/*
 * native-write: the native format writer.  Task records are declared
 * ("task" lines) just before the first event that names them, in id
 * order, so the reader assigns the same ids; records an event creates
 * itself (fork child, exec successor) are not declared.  Renames and
 * tgid changes are carried by "info" lines.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "parse/ctxtext.h"
#include "parse/native-write.h"
#include "parse/tasktab.h"

struct sr_native_writer {
	FILE *f;
	size_t declared;   /* ids below this are known to the reader */
	uint32_t *gen;     /* attr_gen last written, per id */
	size_t ngen;
};

int sr_native_writer_new(struct sr_native_writer **wp, FILE *f,
			 const char *comment, struct sr_diag *d)
{
	struct sr_native_writer *w = calloc(1, sizeof(*w));

	*wp = NULL;
	if (!w)
		return sr_oom(d);
	w->f = f;
	fputs("#schedreplay-native 1\n", f);
	if (comment && *comment)
		fprintf(f, "# %s\n", comment);
	*wp = w;
	return SR_OK;
}

int sr_native_write_context(struct sr_native_writer *w,
			    const struct sr_context *c, struct sr_diag *d)
{
	if (c && sr_ctxtext_write(w->f, c, "#context "))
		return sr_fail(d, SR_EIO, "write error");
	return SR_OK;
}

void sr_native_writer_free(struct sr_native_writer *w)
{
	if (!w)
		return;
	free(w->gen);
	free(w);
}

static void put_time(FILE *f, int64_t ts, int32_t cpu)
{
	fprintf(f, "%" PRId64 ".%09" PRId64 " ", ts / 1000000000,
		ts % 1000000000);
	if (cpu < 0)
		fputs("- ", f);
	else
		fprintf(f, "%d ", (int)cpu);
}

/*
 * comm=VALUE, quoted when it holds spaces, quotes, # or is empty.  Control
 * characters are written as '?' (the format has no escape for them); the
 * choice of quoting is made on what is written, so that reading the output
 * back and writing it again gives the same line.
 */
static void put_comm(FILE *f, const char *key, const char *comm)
{
	int plain = comm[0] != '\0';

	for (const char *p = comm; *p && plain; p++)
		if (*p == ' ' || *p == '"' || *p == '#' || *p == '\\')
			plain = 0;
	fprintf(f, plain ? " %s=" : " %s=\"", key);
	for (const char *p = comm; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc((unsigned char)*p < 0x20 ? '?' : *p, f);
	}
	if (!plain)
		fputc('"', f);
}

static const char *policy_name(int p)
{
	switch (p) {
	case SR_SCHED_NORMAL: return "normal";
	case SR_SCHED_FIFO: return "fifo";
	case SR_SCHED_RR: return "rr";
	case SR_SCHED_BATCH: return "batch";
	case SR_SCHED_IDLE: return "idle";
	default: return NULL;
	}
}

static int grow_gen(struct sr_native_writer *w, size_t n, struct sr_diag *d)
{
	uint32_t *g;

	if (n <= w->ngen)
		return SR_OK;
	g = sr_grow(w->gen, &w->ngen, n - 1, sizeof(*g), 64, 0);
	if (!g)
		return sr_oom(d);
	w->gen = g;
	return SR_OK;
}

static void declare(struct sr_native_writer *w, const struct sr_event *ev,
		    const struct sr_task *k)
{
	const char *pol = policy_name(k->policy);

	put_time(w->f, ev->ts, k->is_idle ? k->cpu : ev->cpu);
	fprintf(w->f, "task pid=%d", (int)k->pid);
	put_comm(w->f, "comm", k->comm);
	if (k->tgid >= 0 && !k->is_idle)
		fprintf(w->f, " tgid=%d", (int)k->tgid);
	if (k->nice)
		fprintf(w->f, " nice=%d", (int)k->nice);
	if (pol) {
		fprintf(w->f, " policy=%s", pol);
		if (k->rtprio)
			fprintf(w->f, " rtprio=%d", (int)k->rtprio);
	}
	if (k->kthread && !k->is_idle)
		fputs(" kthread", w->f);
	fputc('\n', w->f);
}

static void info(struct sr_native_writer *w, const struct sr_event *ev,
		 const struct sr_task *k)
{
	put_time(w->f, ev->ts, ev->cpu);
	fprintf(w->f, "info pid=%d", (int)k->pid);
	put_comm(w->f, "comm", k->comm);
	if (k->tgid >= 0)
		fprintf(w->f, " tgid=%d", (int)k->tgid);
	if (k->kthread)
		fputs(" kthread", w->f);
	fputc('\n', w->f);
}

static void put_by(FILE *f, const struct sr_event *ev,
		   const struct sr_tasks *t)
{
	switch (ev->wsrc) {
	case SR_WS_TASK:
		fprintf(f, " by=%d%s", (int)sr_tasks_get(t, ev->waker)->pid,
			ev->wguess ? " guessed" : "");
		break;
	case SR_WS_HARDIRQ: fputs(" by=irq", f); break;
	case SR_WS_SOFTIRQ: fputs(" by=softirq", f); break;
	case SR_WS_IDLE: fputs(" by=idle", f); break;
	default: fputs(" by=unknown", f); break;
	}
}

void sr_native_write_tally(struct sr_native_writer *w, int64_t ts,
			   int32_t cpu, uint64_t n)
{
	put_time(w->f, ts, cpu);
	fprintf(w->f, "lost count=%" PRIu64 " tally\n", n);
}

int sr_native_write(struct sr_native_writer *w, const struct sr_event *ev,
		    const struct sr_tasks *t, struct sr_diag *d)
{
	size_t n = sr_tasks_count(t);
	const sr_tid ids[3] = { ev->task, ev->other, ev->waker };
	FILE *f = w->f;

	if (grow_gen(w, n, d) != SR_OK)
		return d->code;
	/* records new with this event, in id order */
	for (size_t id = w->declared; id < n; id++) {
		const struct sr_task *k = sr_tasks_get(t, (sr_tid)id);
		/* a fork may adopt a record a "task" line made (the
		 * child seen before its fork): that one is declared */
		int made_by_event = id == ev->other &&
			((ev->kind == SR_EV_FORK && !k->declared) ||
			 (ev->kind == SR_EV_EXEC && ev->other != ev->task));

		if (!made_by_event)
			declare(w, ev, k);
		w->gen[id] = k->attr_gen;
	}
	w->declared = n;
	for (int i = 0; i < 3; i++) {
		const struct sr_task *k;

		if (ids[i] == SR_TID_NONE)
			continue;
		k = sr_tasks_get(t, ids[i]);
		if (w->gen[ids[i]] != k->attr_gen) {
			info(w, ev, k);
			w->gen[ids[i]] = k->attr_gen;
		}
	}

	put_time(f, ev->ts, ev->cpu);
	fputs(sr_ev_kind_name(ev->kind), f);
	switch (ev->kind) {
	case SR_EV_SWITCH:
		fprintf(f, " prev=%d state=%c%s next=%d",
			(int)sr_tasks_get(t, ev->task)->pid,
			ev->prev_state ? ev->prev_state : '?',
			ev->preempt ? "+" : "",
			(int)sr_tasks_get(t, ev->other)->pid);
		if (ev->prio >= 0)
			fprintf(f, " prev_prio=%d", ev->prio);
		if (ev->other_prio >= 0)
			fprintf(f, " next_prio=%d", ev->other_prio);
		break;
	case SR_EV_WAKING:
	case SR_EV_WAKEUP:
	case SR_EV_WAKEUP_NEW:
		fprintf(f, " pid=%d", (int)sr_tasks_get(t, ev->task)->pid);
		put_by(f, ev, t);
		if (ev->sync)
			fputs(" sync", f);
		if (ev->target_cpu >= 0)
			fprintf(f, " target=%d", (int)ev->target_cpu);
		if (ev->prio >= 0)
			fprintf(f, " prio=%d", ev->prio);
		break;
	case SR_EV_FORK: {
		const struct sr_task *k = sr_tasks_get(t, ev->other);

		fprintf(f, " pid=%d child=%d",
			(int)sr_tasks_get(t, ev->task)->pid, (int)k->pid);
		put_comm(f, "comm", k->comm);
		if (k->tgid >= 0)
			fprintf(f, " tgid=%d", (int)k->tgid);
		break;
	}
	case SR_EV_EXEC: {
		const struct sr_task *o = sr_tasks_get(t, ev->task);
		const struct sr_task *k = sr_tasks_get(t, ev->other);

		fprintf(f, " pid=%d", (int)k->pid);
		put_comm(f, "comm", k->comm);
		if (o->pid != k->pid)
			fprintf(f, " old_pid=%d", (int)o->pid);
		break;
	}
	case SR_EV_EXIT:
	case SR_EV_FREE:
		fprintf(f, " pid=%d", (int)sr_tasks_get(t, ev->task)->pid);
		if (ev->prio >= 0)
			fprintf(f, " prio=%d", ev->prio);
		break;
	case SR_EV_MIGRATE:
		fprintf(f, " pid=%d from=%d to=%d",
			(int)sr_tasks_get(t, ev->task)->pid,
			(int)ev->orig_cpu, (int)ev->target_cpu);
		if (ev->prio >= 0)
			fprintf(f, " prio=%d", ev->prio);
		break;
	case SR_EV_RUNTIME:
		fprintf(f, " pid=%d ns=%" PRId64,
			(int)sr_tasks_get(t, ev->task)->pid, ev->value);
		break;
	case SR_EV_NICE:
		fprintf(f, " pid=%d nice=%" PRId64,
			(int)sr_tasks_get(t, ev->task)->pid, ev->value);
		break;
	case SR_EV_SETSCHED: {
		const char *pol = policy_name((int)ev->value);

		fprintf(f, " pid=%d policy=%s",
			(int)sr_tasks_get(t, ev->task)->pid,
			pol ? pol : "normal");
		if (ev->prio > 0)
			fprintf(f, " rtprio=%d", ev->prio);
		break;
	}
	case SR_EV_LOST:
		fprintf(f, " count=%" PRId64, ev->value);
		break;
	default:
		return sr_fail(d, SR_EINTERNAL, "cannot write event kind %d",
			       ev->kind);
	}
	fputc('\n', f);
	return SR_OK;
}

/* ---- a trace no reader made ---------------------------------------------- */

struct sr_native_synth {
	struct sr_native_writer *w;
	struct sr_tasks *t;
};

int sr_native_synth_new(struct sr_native_synth **out, FILE *f,
			const char *comment, struct sr_diag *d)
{
	struct sr_native_synth *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s || !(s->t = sr_tasks_new())) {
		free(s);
		return sr_oom(d);
	}
	if (sr_native_writer_new(&s->w, f, comment, d)) {
		sr_native_synth_free(s);
		return d->code;
	}
	*out = s;
	return SR_OK;
}

void sr_native_synth_free(struct sr_native_synth *s)
{
	if (!s)
		return;
	sr_native_writer_free(s->w);
	sr_tasks_free(s->t);
	free(s);
}

sr_tid sr_native_synth_task(struct sr_native_synth *s,
			    const struct sr_task *proto, sr_tid forked_by,
			    int64_t ts, struct sr_diag *d)
{
	struct sr_task *k;
	sr_tid id;

	if (forked_by == SR_TID_NONE)
		id = sr_tasks_declare(s->t, proto->pid, proto->comm, ts, d);
	else
		id = sr_tasks_fork(s->t, forked_by, proto->pid, proto->comm,
				   ts, d);
	if (id == SR_TID_NONE)
		return id;
	k = sr_tasks_mut(s->t, id);
	/* what a "task" line carries; a fork line carries the tgid */
	k->tgid = proto->tgid;
	if (forked_by == SR_TID_NONE) {
		k->nice = proto->nice;
		k->policy = proto->policy;
		k->rtprio = proto->rtprio;
	}
	return id;
}

int sr_native_synth_write(struct sr_native_synth *s, const struct sr_event *ev,
			  struct sr_diag *d)
{
	struct sr_event e = *ev;
	struct sr_task *k;

	/* a switch from or to no task: the CPU's idle task */
	if (e.kind == SR_EV_SWITCH && e.task == SR_TID_NONE &&
	    (e.task = sr_tasks_idle(s->t, e.cpu, e.ts, d)) == SR_TID_NONE)
		return d->code;
	if (e.kind == SR_EV_SWITCH && e.other == SR_TID_NONE &&
	    (e.other = sr_tasks_idle(s->t, e.cpu, e.ts, d)) == SR_TID_NONE)
		return d->code;
	ev = &e;
	if (sr_native_write(s->w, ev, s->t, d))
		return d->code;
	/* the reader's own notes (parse/reader.c) */
	switch (ev->kind) {
	case SR_EV_EXIT:
		sr_tasks_exit(s->t, ev->task);
		break;
	case SR_EV_SWITCH:
		if (ev->prev_state == SR_STATE_DEAD ||
		    ev->prev_state == SR_STATE_ZOMBIE)
			sr_tasks_gone(s->t, ev->task);
		break;
	case SR_EV_NICE:
		if ((k = sr_tasks_mut(s->t, ev->task)))
			k->nice = (int32_t)ev->value;
		break;
	case SR_EV_SETSCHED:
		if ((k = sr_tasks_mut(s->t, ev->task))) {
			k->policy = (int8_t)ev->value;
			k->rtprio = ev->prio;
		}
		break;
	default:
		break;
	}
	return SR_OK;
}
