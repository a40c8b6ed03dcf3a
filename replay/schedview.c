/*
 * schedview: perf sched timehist and map of a schedule (schedview.h).
 * The rules are perf 6.1's (tools/perf/builtin-sched.c), restated:
 *
 * timehist, at each switch on cpu c at t, for the task switched out
 * (prev; a cpu's idle task is its own "<idle>"): tprev is the time of the
 * previous switch on c (0: none yet), and when tprev is known, run time
 * = t - tprev, wait time = tprev - the task's last switch-out (if it had
 * one, not after tprev), sch delay = tprev - its first wakeup since then
 * (if any, not after tprev); all 0 otherwise.  Then the task's last
 * switch-out is t and its wakeup is forgotten.  A wakeup (sched_waking,
 * _wakeup_new, or sched_wakeup until a recording shows a sched_waking:
 * perf ignores sched_wakeup when the recording has the other) counts
 * only when none is pending.  Times are seconds.microseconds, truncated;
 * durations msec.usec, truncated.  The task column is "comm[tid/pid]"
 * (pid: the thread group), "comm[tid]" for a group's leader or a task of
 * unknown group, "comm" for pid 0; it is 30 wide and widens, for the
 * lines after, to the longest name printed so far.
 *
 * map, at each switch: the task switched in gets a name the first time
 * (A0, B0, ... Z0, A1, ...; '.' for the idle task, swapper:0, one for
 * every cpu), each cpu shows its current task's name (blank before its
 * first switch), '*' marks c; "NAME => comm:tid" follows the time when
 * the name is new or the task's comm changed since it was last shown.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/grow.h"
#include "lib/path.h"
#include "lib/strpool.h"
#include "replay/schedview.h"

enum rec_kind { REC_OUT = 1, REC_IN, REC_WAKE, REC_LOST };

/* One spooled record (padding zeroed: it is written out): a switch is an
 * OUT of the task leaving and an IN of the one coming. */
struct rec {
	int64_t t;
	uint64_t n;                 /* LOST: the count */
	uint32_t key;
	int32_t tid, tgid;          /* tgid -2: look it up at the end */
	uint32_t comm;
	int32_t cpu;
	uint8_t kind;
	uint8_t how;                /* OUT: the state letter; WAKE: which */
	uint8_t pad[2];
};

/* per cpu, while a policy's rows are made into switches */
struct rcpu {
	uint32_t cur;               /* key + 1 of the task on it; 0: idle */
	int32_t tid;
	uint32_t comm;
	bool left;                  /* its task left at `at`, no other came */
	int64_t at;
};

struct sr_sv {
	FILE *spool;
	struct sr_strpool pool;
	struct rcpu *cpu;
	size_t ncpu;
};

int sr_sv_new(struct sr_sv **out, struct sr_diag *d)
{
	struct sr_sv *v = calloc(1, sizeof(*v));
	int fd;

	*out = NULL;
	if (!v)
		return sr_oom(d);
	fd = sr_tmpfile("schedreplay-view");
	if (fd < 0 || !(v->spool = fdopen(fd, "w+b"))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		free(v);
		return sr_fail(d, e == ENOMEM ? SR_EINTERNAL : SR_EIO,
			       "%s: cannot create a temporary file there: %s",
			       sr_tmpdir(), strerror(e));
	}
	*out = v;
	return SR_OK;
}

/* A record of kind about task x (NULL: none) to the spool. */
static int put(struct sr_sv *v, uint8_t kind, int64_t t, int32_t cpu,
	       const struct sr_sv_task *x, uint8_t how, uint64_t n,
	       struct sr_diag *d)
{
	struct rec r;

	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.t = t;
	r.cpu = cpu;
	r.how = how;
	r.n = n;
	r.key = SR_SV_IDLE;
	if (x) {
		r.key = x->key;
		r.tid = x->tid;
		r.tgid = x->tgid;
		if (sr_strpool_add(&v->pool, x->comm ? x->comm : "", &r.comm))
			return sr_oom(d);
	}
	if (fwrite(&r, sizeof(r), 1, v->spool) != 1)
		return sr_fail(d, SR_EIO, "temporary file: %s", strerror(errno));
	return SR_OK;
}

int sr_sv_switch(struct sr_sv *v, int64_t t, int32_t cpu,
		 const struct sr_sv_task *prev, char state,
		 const struct sr_sv_task *next, struct sr_diag *d)
{
	int rc = put(v, REC_OUT, t, cpu, prev, (uint8_t)state, 0, d);

	return rc ? rc : put(v, REC_IN, t, cpu, next, 0, 0, d);
}

int sr_sv_wake(struct sr_sv *v, int64_t t, const struct sr_sv_task *task,
	       char how, struct sr_diag *d)
{
	return put(v, REC_WAKE, t, -1, task, (uint8_t)how, 0, d);
}

int sr_sv_lost(struct sr_sv *v, int64_t t, int32_t cpu, uint64_t n,
	       struct sr_diag *d)
{
	return put(v, REC_LOST, t, cpu, NULL, 0, n, d);
}

/* ---- a policy's rows, made into switches ---- */

static const struct sr_sv_task idle_task = { SR_SV_IDLE, 0, 0, "swapper" };

/* The cpus whose task left before t with no other coming: idle now. */
static int settle(struct sr_sv *v, int64_t t, struct sr_diag *d)
{
	int rc;

	for (size_t c = 0; c < v->ncpu; c++) {
		struct rcpu *x = &v->cpu[c];

		if (!x->left || x->at >= t)
			continue;
		x->left = false;
		if ((rc = put(v, REC_IN, x->at, (int32_t)c, &idle_task, 0, 0,
			      d)))
			return rc;
	}
	return SR_OK;
}

int sr_sv_row(struct sr_sv *v, const struct sr_tl_row *row, struct sr_diag *d)
{
	struct sr_sv_task me = { row->task, row->pid, -2, row->comm };
	struct rcpu *x;
	char state = 0;
	int rc;

	if ((rc = settle(v, row->t, d)))
		return rc;
	if (!strcmp(row->event, "wake"))
		return sr_sv_wake(v, row->t, &me, 'r', d);
	if (!strcmp(row->event, "preempt"))
		state = 'R';
	else if (!strcmp(row->event, "block"))
		state = 'S';
	else if (!strcmp(row->event, "exit"))
		state = 'X';
	else if (strcmp(row->event, "run"))
		return SR_OK; /* new, fork, migrate, expire, ...: no switch */
	if (row->cpu < 0 || row->cpu >= SR_SIM_MAX_CPUS)
		return SR_OK;
	if ((size_t)row->cpu >= v->ncpu) {
		x = sr_grow(v->cpu, &v->ncpu, (size_t)row->cpu, sizeof(*x), 8,
			    0);
		if (!x)
			return sr_oom(d);
		v->cpu = x;
	}
	x = &v->cpu[row->cpu];
	if (state) {
		/* it leaves, if it is the one on the cpu; who comes next, if
		   anyone, says a run at the same time */
		if (x->cur != row->task + 1 || x->left)
			return SR_OK;
		x->left = true;
		x->at = row->t;
		x->cur = 0;
		return put(v, REC_OUT, row->t, row->cpu, &me, (uint8_t)state, 0,
			   d);
	}
	if (x->left) {
		x->left = false;                /* one switch: out, then in */
	} else if (x->cur) {
		/* the task on it did not say it left: preempted */
		struct sr_sv_task p = { x->cur - 1, x->tid, -2,
					sr_strpool_get(&v->pool, x->comm) };

		if (x->cur == row->task + 1)
			return SR_OK;
		if ((rc = put(v, REC_OUT, row->t, row->cpu, &p, 'R', 0, d)))
			return rc;
	} else if ((rc = put(v, REC_OUT, row->t, row->cpu, &idle_task, 'R', 0,
			     d))) {
		return rc;
	}
	x->cur = row->task + 1;
	x->tid = row->pid;
	if (sr_strpool_add(&v->pool, row->comm ? row->comm : "", &x->comm))
		return sr_oom(d);
	return put(v, REC_IN, row->t, row->cpu, &me, 0, 0, d);
}

/* ---- drawing ---- */

/* A task's state while the view is drawn. */
struct thr {
	int64_t last_time, ready_to_run;
	char shortname[3];
	uint32_t shown_comm;        /* + 1: the comm the map last named */
};

struct draw {
	enum sr_sv_view view;
	FILE *f;
	int ncpus;
	const struct sr_sv *v;
	const struct sr_tasks *tasks;
	struct thr *t;              /* by key */
	size_t nt;
	struct thr *idle;           /* by cpu: its idle task */
	size_t nidle;
	int64_t *cpu_last;          /* by cpu: its last switch, 0: none */
	uint32_t *curr;             /* by cpu: map's current task key + 2
				       (1: the idle task, 0: none yet) */
	size_t ncpu;
	int comm_width;
	char next1, next2;          /* the next short name */
	bool swapper_named;
	bool waking;                /* a sched_waking seen */
};

static struct thr *thr_of(struct draw *w, uint32_t key, int32_t cpu,
			  struct sr_diag *d)
{
	struct thr *a;

	if (key == SR_SV_IDLE) {
		size_t i = cpu < 0 ? 0 : (size_t)cpu;

		if (i >= w->nidle) {
			if (!(a = sr_grow(w->idle, &w->nidle, i, sizeof(*a), 8,
					  0)))
				goto nomem;
			w->idle = a;
		}
		return &w->idle[i];
	}
	if (key >= w->nt) {
		if (!(a = sr_grow(w->t, &w->nt, key, sizeof(*a), 256, 0)))
			goto nomem;
		w->t = a;
	}
	return &w->t[key];
nomem:
	sr_oom(d);
	return NULL;
}

static int cpu_slots(struct draw *w, int32_t cpu, struct sr_diag *d)
{
	size_t i = (size_t)cpu, c = w->ncpu;
	int64_t *l;
	uint32_t *k;

	if (i < w->ncpu)
		return SR_OK;
	if (!(l = sr_grow(w->cpu_last, &c, i, sizeof(*l), 8, 0)))
		return sr_oom(d);
	w->cpu_last = l;
	c = w->ncpu;
	if (!(k = sr_grow(w->curr, &c, i, sizeof(*k), 8, 0)))
		return sr_oom(d);
	w->curr = k;
	w->ncpu = c;
	return SR_OK;
}

/* seconds.microseconds, truncated, as perf's timestamp__scnprintf_usec */
static char *tstamp(char *buf, size_t len, int64_t t)
{
	uint64_t u = (uint64_t)(t < 0 ? 0 : t);

	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, u / 1000000000u,
		 u % 1000000000u / 1000u);
	return buf;
}

/* msec.usec, truncated, width w before the point, then a space */
static void dur(FILE *f, int64_t ns, int w)
{
	uint64_t u = (uint64_t)(ns < 0 ? 0 : ns);

	fprintf(f, "%*" PRIu64 ".%03" PRIu64 " ", w, u / 1000000u,
		u % 1000000u / 1000u);
}

/* The thread group of r's task: recorded, or the task table's. */
static int32_t tgid_of(const struct draw *w, const struct rec *r)
{
	const struct sr_task *t;

	if (r->tgid != -2)
		return r->tgid;
	if (!w->tasks || r->key == SR_SV_IDLE ||
	    !(t = sr_tasks_get(w->tasks, (sr_tid)r->key)))
		return -1;
	return t->tgid;
}

static void timehist_header(FILE *f)
{
	fprintf(f, "%15s %6s  %-30s  %9s  %9s  %9s\n", "time", "cpu",
		"task name", "wait time", "sch delay", "run time");
	fprintf(f, "%15s %-6s  %-30s  %9s  %9s  %9s\n", "", "", "[tid/pid]",
		"(msec)", "(msec)", "(msec)");
	fprintf(f, "--------------- ------  ------------------------------  "
		"---------  ---------  ---------\n");
}

/* timehist: the line of the task switched out */
static int timehist_out(struct draw *w, const struct rec *r,
			struct sr_diag *d)
{
	struct thr *th = thr_of(w, r->key, r->cpu, d);
	int64_t t = r->t, tprev, run = 0, wait = 0, delay = 0;
	char ts[40], who[96];
	int n;

	if (!th || cpu_slots(w, r->cpu, d))
		return d->code ? d->code : SR_EINTERNAL;
	tprev = w->cpu_last[r->cpu];
	if (tprev) {
		run = t - tprev;
		if (th->ready_to_run && th->ready_to_run <= tprev)
			delay = tprev - th->ready_to_run;
		if (th->last_time && th->last_time <= tprev)
			wait = tprev - th->last_time;
	}
	if (r->key == SR_SV_IDLE) {
		n = snprintf(who, sizeof(who), "<idle>");
	} else {
		const char *comm = sr_strpool_get(&w->v->pool, r->comm);
		int32_t tgid = tgid_of(w, r);

		if (tgid == 0)
			n = snprintf(who, sizeof(who), "%s", comm);
		else if (tgid > 0 && tgid != r->tid)
			n = snprintf(who, sizeof(who), "%s[%d/%d]", comm,
				     (int)r->tid, (int)tgid);
		else
			n = snprintf(who, sizeof(who), "%s[%d]", comm,
				     (int)r->tid);
	}
	if (n > w->comm_width)
		w->comm_width = n;
	fprintf(w->f, "%15s [%04d]  %-*s ", tstamp(ts, sizeof(ts), t),
		(int)r->cpu, w->comm_width, who);
	dur(w->f, wait, 6);
	dur(w->f, delay, 6);
	dur(w->f, run, 6);
	fputc('\n', w->f);
	th->last_time = t;
	th->ready_to_run = 0;
	w->cpu_last[r->cpu] = t;
	return SR_OK;
}

/* map: the line of the task switched in */
static int map_in(struct draw *w, const struct rec *r, struct sr_diag *d)
{
	const char *sn, *comm = sr_strpool_get(&w->v->pool, r->comm);
	bool named = false;
	char ts[40];
	int ncpu;

	if (cpu_slots(w, r->cpu, d))
		return d->code;
	if (r->key == SR_SV_IDLE) {
		/* one swapper:0 for every cpu, named '.' */
		named = !w->swapper_named;
		w->swapper_named = true;
		sn = ". ";
		comm = "swapper";
		w->curr[r->cpu] = 1;
	} else {
		struct thr *th = thr_of(w, r->key, r->cpu, d);

		if (!th)
			return d->code;
		if (!th->shortname[0]) {
			th->shortname[0] = w->next1;
			th->shortname[1] = w->next2;
			if (w->next1 < 'Z') {
				w->next1++;
			} else {
				w->next1 = 'A';
				w->next2 = w->next2 < '9' ? w->next2 + 1 : '0';
			}
			named = true;
		} else {
			/* its comm changed since it was last named */
			named = th->shown_comm != r->comm + 1;
		}
		th->shown_comm = r->comm + 1;
		sn = th->shortname;
		w->curr[r->cpu] = r->key + 2;
	}
	ncpu = w->ncpus > r->cpu + 1 ? w->ncpus : r->cpu + 1;
	fputs("  ", w->f);
	for (int c = 0; c < ncpu; c++) {
		uint32_t k = (size_t)c < w->ncpu ? w->curr[c] : 0;

		fputc(c == r->cpu ? '*' : ' ', w->f);
		if (k == 1)
			fprintf(w->f, "%2s ", ". ");
		else if (k > 1)
			fprintf(w->f, "%2s ", w->t[k - 2].shortname);
		else
			fputs("   ", w->f);
	}
	fprintf(w->f, "  %12s secs ", tstamp(ts, sizeof(ts), r->t));
	if (named)
		fprintf(w->f, "%s => %s:%d", sn, comm,
			r->key == SR_SV_IDLE ? 0 : (int)r->tid);
	fputc('\n', w->f);
	return SR_OK;
}

int sr_sv_write(struct sr_sv *v, enum sr_sv_view view, int ncpus,
		const struct sr_tasks *tasks, FILE *f, struct sr_diag *d)
{
	struct draw w = { view, f, ncpus, v, tasks, NULL, 0, NULL, 0, NULL,
			  NULL, 0, 30, 'A', '0', false, false };
	struct rec r;
	int rc;

	if ((rc = settle(v, INT64_MAX, d)))
		return rc;
	if (fflush(v->spool) != 0 || fseek(v->spool, 0, SEEK_SET) != 0)
		return sr_fail(d, SR_EIO, "temporary file: %s", strerror(errno));
	if (view == SR_SV_TIMEHIST)
		timehist_header(f);
	while (rc == SR_OK && fread(&r, sizeof(r), 1, v->spool) == 1) {
		char ts[40];
		struct thr *th;

		if ((r.kind == REC_OUT || r.kind == REC_IN) && r.cpu < 0)
			continue;
		switch (r.kind) {
		case REC_OUT:
			if (view == SR_SV_TIMEHIST)
				rc = timehist_out(&w, &r, d);
			break;
		case REC_IN:
			if (view == SR_SV_MAP)
				rc = map_in(&w, &r, d);
			break;
		case REC_WAKE:
			if (r.how == 'w')
				w.waking = true;
			if (r.key == SR_SV_IDLE || (r.how == 'u' && w.waking))
				break;
			if (!(th = thr_of(&w, r.key, -1, d))) {
				rc = d->code;
				break;
			}
			if (!th->ready_to_run)
				th->ready_to_run = r.t;
			break;
		case REC_LOST:
			if (view == SR_SV_TIMEHIST)
				fprintf(f, "%15s lost %" PRIu64 " events on cpu "
					"%d\n", tstamp(ts, sizeof(ts), r.t), r.n,
					(int)r.cpu);
			break;
		}
	}
	if (rc == SR_OK && ferror(v->spool))
		rc = sr_fail(d, SR_EIO, "temporary file: %s", strerror(errno));
	free(w.t);
	free(w.idle);
	free(w.cpu_last);
	free(w.curr);
	return rc;
}

void sr_sv_free(struct sr_sv *v)
{
	if (!v)
		return;
	if (v->spool)
		fclose(v->spool);
	sr_strpool_free(&v->pool);
	free(v->cpu);
	free(v);
}
