/*
 * trace-event: the replay's schedules as Chrome JSON trace events (see
 * trace-event.h): the replay hooks turn rows and waits into records
 * spooled per policy, and sr_te_write formats them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fmt.h"
#include "lib/grow.h"
#include "lib/path.h"
#include "lib/strpool.h"
#include "replay/trace-event.h"

/* Ids as Perfetto keys them: pid a process (the trace's tgid), tid a
 * thread (the trace's pid).  Each policy has its own range, so that its
 * tracks are its own: policy k's ids are k * PID_STEP + the trace's id
 * (policy 0's are the trace's own; in decimal the trace's id is the last
 * seven digits), its CPUs a process CPU_PID + k * PID_STEP with a thread
 * per CPU after it.  A Linux id is below PID_MAX_LIMIT (2^22), so none
 * meets the CPUs'; all stay below 2^31. */
#define PID_STEP 10000000u
#define PID_MAX_LIMIT 4194304   /* include/linux/threads.h, 64-bit */
#define CPU_PID 9000000u
#define CPU_MAX 10000           /* CPU threads CPU_PID + 1 + cpu */

_Static_assert(PID_MAX_LIMIT < CPU_PID && CPU_PID + CPU_MAX < PID_STEP,
	       "a policy's tasks and CPUs keep apart");
_Static_assert((uint64_t)SR_REPLAY_MAX_POLICIES * PID_STEP <= 0x7fffffffu,
	       "ids stay below 2^31");

enum rec_kind { REC_RUN = 1, REC_WAIT, REC_PRIO };

/* One event, spooled; written out in sr_te_write. */
struct rec {
	int64_t ts, dur;
	uint32_t track;     /* the task's track index */
	uint32_t name;      /* RUN: the comm (pool offset) */
	uint32_t what;      /* RUN: the event that ended it; WAIT: cause */
	int32_t cpu;        /* RUN */
	int32_t pid;        /* RUN: the task's pid then */
	int32_t prio;       /* RUN, PRIO; -1: unknown */
	int32_t sleep_avg;  /* RUN: jiffies; -1: none */
	uint8_t kind;
};

struct task {
	uint32_t track;     /* + 1; 0: no track yet */
	bool running;
	int32_t cpu;
	int64_t since;      /* the run's start */
	uint32_t comm;      /* the comm then */
	int32_t pid;
	int32_t prio;       /* at the run's start */
	int32_t sleep_avg;
	int32_t counted;    /* last prio written to the counter; INT32_MIN */
};

/* A task's track: its ids and names, for the metadata. */
struct track {
	int32_t pid;        /* the thread */
	int32_t tgid;       /* its process (sr_te_write: from the tasks) */
	uint32_t id;        /* the replay's task id */
	uint32_t label;     /* "COMM PID" at its first sight: the counter */
	uint32_t comm;      /* its last comm: the thread's name */
};

struct pol {
	FILE *spool;
	bool used;
	struct task *t;     /* by the replay's task id */
	size_t nt;
	struct track *tr;
	size_t ntr, captr;
	uint32_t *cpu;      /* by cpu: the running task id + 1, 0: idle */
	size_t ncpu;
	int32_t maxcpu;     /* highest cpu a run was on, -1: none */
};

struct sr_te {
	struct sr_replay_hooks hooks;
	struct pol *p;
	size_t np;
	struct sr_strpool pool;
	struct sr_te_counts counts;
	int err;            /* the first error a hook met */
	char errmsg[256];
};

static int hook_fail(struct sr_te *te, int code, const char *what)
{
	if (!te->err) {
		te->err = code;
		snprintf(te->errmsg, sizeof(te->errmsg), "%s", what);
	}
	return code;
}

/* An unlinked temporary file in $TMPDIR (or the system's). */
static FILE *spool_open(struct sr_te *te)
{
	char why[200];
	FILE *f = NULL;
	int fd = sr_tmpfile("schedreplay-export");

	if (fd >= 0) {
		f = fdopen(fd, "w+b");
		if (!f)
			close(fd);
	}
	if (!f) {
		if (errno == ENOMEM) {
			hook_fail(te, SR_ENOMEM, "out of memory");
			return NULL;
		}
		snprintf(why, sizeof(why), "%.120s: cannot create a temporary "
			 "file there: %s", sr_tmpdir(), strerror(errno));
		hook_fail(te, SR_EIO, why);
	}
	return f;
}

/* Policy k's state, its spool opened at first use; NULL: te->err says. */
static struct pol *pol_get(struct sr_te *te, size_t k)
{
	struct pol *p = sr_grow(te->p, &te->np, k, sizeof(*p), 4, 0);

	if (!p) {
		hook_fail(te, SR_ENOMEM, "out of memory");
		return NULL;
	}
	te->p = p;
	p = &te->p[k];
	if (!p->used) {
		if (!(p->spool = spool_open(te)))
			return NULL;
		p->used = true;
		p->maxcpu = -1;
	}
	return p;
}

static struct task *task_get(struct sr_te *te, struct pol *p, uint32_t id,
			     int32_t pid, const char *comm)
{
	struct task *t = sr_grow(p->t, &p->nt, id, sizeof(*t), 64, 0);
	uint32_t off;

	if (!t)
		return NULL;
	p->t = t;
	t = &p->t[id];
	if (sr_strpool_add(&te->pool, comm ? comm : "", &off))
		return NULL;
	if (!t->track) {
		char label[64];
		struct track *tr = sr_grow(p->tr, &p->captr, p->ntr,
					   sizeof(*tr), 64, 0);

		if (!tr)
			return NULL;
		p->tr = tr;
		snprintf(label, sizeof(label), "%.40s %" PRId32,
			 comm ? comm : "", pid);
		tr = &p->tr[p->ntr];
		tr->pid = pid;
		tr->tgid = pid;
		tr->id = id;
		if (sr_strpool_add(&te->pool, label, &tr->label))
			return NULL;
		t->track = (uint32_t)++p->ntr;
		t->counted = INT32_MIN;
	}
	p->tr[t->track - 1].comm = off;
	p->tr[t->track - 1].pid = pid;
	return t;
}

static int put(struct sr_te *te, struct pol *p, const struct rec *r)
{
	if (fwrite(r, sizeof(*r), 1, p->spool) != 1)
		return hook_fail(te, SR_EIO, strerror(errno));
	return SR_OK;
}

/* The run of task t (id) ends at `at`, ended by `why`. */
static int run_end(struct sr_te *te, struct pol *p, uint32_t id,
		   struct task *t, int64_t at, const char *why)
{
	struct rec r;
	uint32_t what;

	t->running = false;
	if (t->cpu >= 0 && (size_t)t->cpu < p->ncpu && p->cpu[t->cpu] == id + 1)
		p->cpu[t->cpu] = 0;
	if (at <= t->since)
		return SR_OK;
	if (sr_strpool_add(&te->pool, why, &what))
		return hook_fail(te, SR_ENOMEM, "out of memory");
	memset(&r, 0, sizeof(r)); /* padding too: it is written out */
	r.kind = REC_RUN;
	r.ts = t->since;
	r.dur = at - t->since;
	r.track = t->track - 1;
	r.name = t->comm;
	r.what = what;
	r.cpu = t->cpu;
	r.pid = t->pid;
	r.prio = t->prio;
	r.sleep_avg = t->sleep_avg;
	if (t->cpu > p->maxcpu)
		p->maxcpu = t->cpu;
	return put(te, p, &r);
}

/* Observed rows have no scheduler view: the event says it. */
static int obs_on_cpu(const char *event)
{
	if (!strcmp(event, "run"))
		return 1;
	if (!strcmp(event, "preempt") || !strcmp(event, "block") ||
	    !strcmp(event, "exit"))
		return 0;
	return -1; /* wake, fork: no change */
}

static int on_row(void *ctx, size_t k, const struct sr_tl_row *row)
{
	struct sr_te *te = ctx;
	struct pol *p = pol_get(te, k);
	struct task *t;
	int on, cpu = row->cpu >= 0 ? row->cpu : 0, rc;

	if (!p)
		return te->err;
	if (!(t = task_get(te, p, row->task, row->pid, row->comm)))
		return hook_fail(te, SR_ENOMEM, "out of memory");
	if (cpu >= CPU_MAX) /* more than the reader's cpu limit */
		return hook_fail(te, SR_EDATA, "cpu number beyond what a "
				 "track id holds");
	on = row->v ? row->v->on_cpu : obs_on_cpu(row->event);
	if (t->running && (on == 0 || (on == 1 && t->cpu != cpu))) {
		/* on == 1: seen running on another CPU without leaving this */
		if ((rc = run_end(te, p, row->task, t, row->t,
				  on == 1 ? "moved" : row->event)))
			return rc;
	}
	if (on == 1 && !t->running) {
		uint32_t *c = sr_grow(p->cpu, &p->ncpu, (size_t)cpu,
				      sizeof(*c), 8, 0);

		if (!c)
			return hook_fail(te, SR_ENOMEM, "out of memory");
		p->cpu = c;
		/* whoever the CPU ran is off it now (one run per CPU) */
		if (c[cpu] && c[cpu] != row->task + 1) {
			uint32_t other = c[cpu] - 1;

			if ((rc = run_end(te, p, other, &p->t[other], row->t,
					  "displaced")))
				return rc;
		}
		c[cpu] = row->task + 1;
		t->running = true;
		t->cpu = cpu;
		t->since = row->t;
		t->pid = row->pid;
		t->comm = p->tr[t->track - 1].comm;
		t->prio = row->prio;
		t->sleep_avg = row->v && row->v->sleep_avg >= 0 ?
			       (int32_t)row->v->sleep_avg : -1;
	}
	if (row->prio >= 0 && row->prio != t->counted) {
		struct rec r;

		memset(&r, 0, sizeof(r));
		r.kind = REC_PRIO;
		r.ts = row->t;
		r.track = t->track - 1;
		r.prio = row->prio;
		t->counted = row->prio;
		return put(te, p, &r);
	}
	return SR_OK;
}

static int on_wait(void *ctx, size_t k, const struct sr_replay_wait *w)
{
	struct sr_te *te = ctx;
	struct pol *p = pol_get(te, k);
	struct task *t;
	struct rec r;

	if (!p)
		return te->err;
	if (!(t = task_get(te, p, w->task, w->pid, w->comm)))
		return hook_fail(te, SR_ENOMEM, "out of memory");
	if (w->to <= w->from)
		return SR_OK;
	memset(&r, 0, sizeof(r));
	r.kind = REC_WAIT;
	r.ts = w->from;
	r.dur = w->to - w->from;
	r.track = t->track - 1;
	r.what = (uint32_t)w->cause;
	return put(te, p, &r);
}

int sr_te_new(struct sr_te **out, struct sr_diag *d)
{
	struct sr_te *te = calloc(1, sizeof(*te));

	*out = NULL;
	if (!te)
		return sr_oom(d);
	te->hooks = (struct sr_replay_hooks){ on_row, on_wait, te };
	*out = te;
	return SR_OK;
}

const struct sr_replay_hooks *sr_te_hooks(struct sr_te *te)
{
	return &te->hooks;
}

/* ---- writing ------------------------------------------------------------ */

struct out {
	FILE *f;
	int64_t t0;
	bool first;
	struct sr_te_counts *n;
	const struct sr_selection *sel;
	int64_t lo, hi;     /* the window; INT64_MIN, INT64_MAX: none */
	int32_t *carry;     /* per track: its prio before the window, or
			       INT32_MIN (none, or written) */
	const struct sr_tasks *tasks; /* the tracks' tgids */
};

static void sep(struct out *o)
{
	fputs(o->first ? "\n" : ",\n", o->f);
	o->first = false;
}

static void put_us(FILE *f, const char *key, int64_t ns)
{
	char b[SR_FMT_NUM];

	fprintf(f, ",\"%s\":%s", key, sr_fmt_scaled(b, sizeof(b), ns, 3, 3));
}

static void meta(struct out *o, const char *what, uint32_t pid, uint32_t tid,
		 const char *name, int64_t sort)
{
	sep(o);
	fprintf(o->f, "{\"ph\":\"M\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
		",\"name\":\"%s_name\",\"args\":{\"name\":", pid, tid, what);
	sr_json_str(o->f, name);
	fputs("}},\n", o->f);
	fprintf(o->f, "{\"ph\":\"M\",\"pid\":%" PRIu32 ",\"tid\":%" PRIu32
		",\"name\":\"%s_sort_index\",\"args\":{\"sort_index\":%" PRId64
		"}}", pid, tid, what, sort);
	o->n->m += 2;
}

static void put_rec(struct sr_te *te, struct out *o, size_t k,
		    const struct pol *p, const struct rec *r)
{
	uint32_t base = (uint32_t)k * PID_STEP, cpus = base + CPU_PID;
	const struct track *tr = &p->tr[r->track];
	uint32_t pid = base + (uint32_t)tr->tgid, tid = base + (uint32_t)tr->pid;

	sep(o);
	switch (r->kind) {
	case REC_RUN:
		fprintf(o->f, "{\"ph\":\"X\",\"pid\":%" PRIu32 ",\"tid\":%"
			PRIu32, cpus, cpus + 1 + (uint32_t)r->cpu);
		put_us(o->f, "ts", r->ts - o->t0);
		put_us(o->f, "dur", r->dur);
		fputs(",\"cat\":\"run\",\"name\":", o->f);
		sr_json_str(o->f, sr_strpool_get(&te->pool, r->name));
		fprintf(o->f, ",\"args\":{\"pid\":%" PRId32 ",\"tid\":%"
			PRId32, tr->tgid, r->pid);
		if (r->prio >= 0)
			fprintf(o->f, ",\"prio\":%" PRId32, r->prio);
		if (r->sleep_avg >= 0)
			fprintf(o->f, ",\"sleep_avg\":%" PRId32, r->sleep_avg);
		fputs(",\"end\":", o->f);
		sr_json_str(o->f, sr_strpool_get(&te->pool, r->what));
		fputs("}}", o->f);
		o->n->x++;
		break;
	case REC_WAIT:
		fprintf(o->f, "{\"ph\":\"X\",\"pid\":%" PRIu32 ",\"tid\":%"
			PRIu32, pid, tid);
		put_us(o->f, "ts", r->ts - o->t0);
		put_us(o->f, "dur", r->dur);
		fprintf(o->f, ",\"cat\":\"wait\",\"name\":\"wait\",\"args\":"
			"{\"cause\":\"%s\"}}",
			sr_acct_cause_name((enum sr_acct_cause)r->what));
		o->n->x++;
		break;
	default:
		fprintf(o->f, "{\"ph\":\"C\",\"pid\":%" PRIu32 ",\"tid\":%"
			PRIu32, pid, tid);
		put_us(o->f, "ts", r->ts - o->t0);
		fputs(",\"name\":", o->f);
		sr_json_str(o->f, sr_strpool_get(&te->pool, tr->label));
		fprintf(o->f, ",\"args\":{\"prio\":%" PRId32 "}}", r->prio);
		o->n->c++;
		break;
	}
}

/*
 * r as the selection has it: false when it is left out, else with runs
 * and waits cut to the window; a prio counter's value before the window
 * is carried to its start (o->carry), written before the track's next.
 */
static bool select_rec(struct sr_te *te, struct out *o, size_t k,
		       const struct pol *p, struct rec *r)
{
	const struct track *tr = &p->tr[r->track];
	int64_t a, b;

	if (!sr_sel_pid(o->sel, r->kind == REC_RUN ? r->pid : tr->pid))
		return false;
	if (r->kind == REC_PRIO) {
		if (r->ts < o->lo) {
			o->carry[r->track] = r->prio;
			return false;
		}
		if (r->ts >= o->hi)
			return false;
		if (o->carry[r->track] != INT32_MIN) {
			struct rec c = *r;

			if (r->ts > o->lo) {
				c.ts = o->lo;
				c.prio = o->carry[r->track];
				put_rec(te, o, k, p, &c);
			}
			o->carry[r->track] = INT32_MIN;
		}
		return true;
	}
	a = r->ts > o->lo ? r->ts : o->lo;
	b = r->ts + r->dur < o->hi ? r->ts + r->dur : o->hi;
	if (b <= a)
		return false;
	r->ts = a;
	r->dur = b - a;
	return true;
}

/* A track in the metadata's order: by process, then thread, then its
 * first sight. */
struct ord {
	int32_t tgid, pid;
	uint32_t i;
};

static int ord_cmp(const void *a, const void *b)
{
	const struct ord *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Each selected track's process from the tasks (unknown: the thread's
 * own), checked to be an id Perfetto's ranges hold; the tracks in
 * metadata order into *out (n of them). */
static int track_order(const struct sr_te *te, struct pol *p,
		       const struct out *o, struct ord **out, size_t *n,
		       struct sr_diag *d)
{
	struct ord *v = malloc((p->ntr ? p->ntr : 1) * sizeof(*v));

	*out = v;
	*n = 0;
	if (!v)
		return sr_oom(d);
	for (size_t i = 0; i < p->ntr; i++) {
		struct track *tr = &p->tr[i];
		const struct sr_task *t = o->tasks ?
			sr_tasks_get(o->tasks, (sr_tid)tr->id) : NULL;

		tr->tgid = t && t->tgid >= 0 ? t->tgid : tr->pid;
		if (!sr_sel_pid(o->sel, tr->pid))
			continue;
		if (tr->pid < 0 || tr->pid >= PID_MAX_LIMIT || tr->tgid < 0 ||
		    tr->tgid >= PID_MAX_LIMIT)
			return sr_fail(d, SR_EDATA, "export: task %.60s: pid %"
				       PRId32 " (process %" PRId32 ") is not "
				       "a Linux id (0 to %d)",
				       sr_strpool_get(&te->pool, tr->comm),
				       tr->pid, tr->tgid, PID_MAX_LIMIT - 1);
		v[(*n)++] = (struct ord){ tr->tgid, tr->pid, (uint32_t)i };
	}
	qsort(v, *n, sizeof(*v), ord_cmp);
	return SR_OK;
}

/* The metadata of policy k's processes and threads: a process per
 * tgid, named after its leader (the thread whose pid it is) or else its
 * first thread; a thread per pid, named after its last track. */
static void task_meta(const struct sr_te *te, struct out *o, size_t k,
		      const char *policy, const struct pol *p,
		      const struct ord *v, size_t n)
{
	uint32_t base = (uint32_t)k * PID_STEP;
	char name[128];
	int64_t nproc = 0;

	for (size_t a = 0, b; a < n; a = b) {
		const struct track *lead = &p->tr[v[a].i];

		for (b = a; b < n && v[b].tgid == v[a].tgid; b++)
			if (v[b].pid == v[b].tgid && lead->pid != lead->tgid)
				lead = &p->tr[v[b].i];
		snprintf(name, sizeof(name), "%s: %.60s", policy,
			 sr_strpool_get(&te->pool, lead->comm));
		meta(o, "process", base + (uint32_t)v[a].tgid,
		     base + (uint32_t)v[a].tgid, name,
		     (int64_t)base + 1 + nproc++);
	}
	for (size_t a = 0; a < n; a++) {
		const struct track *tr = &p->tr[v[a].i];

		if (a + 1 < n && v[a + 1].tgid == v[a].tgid &&
		    v[a + 1].pid == v[a].pid)
			continue; /* the pid's later track names it */
		snprintf(name, sizeof(name), "%.60s %" PRId32,
			 sr_strpool_get(&te->pool, tr->comm), tr->pid);
		meta(o, "thread", base + (uint32_t)tr->tgid,
		     base + (uint32_t)tr->pid, name, (int64_t)a);
	}
}

/* Policy k: close its open runs, then its metadata and its events. */
static int write_policy(struct sr_te *te, struct out *o, size_t k,
			const struct sr_replay_policy *rp, struct sr_diag *d)
{
	struct pol *p = k < te->np && te->p[k].used ? &te->p[k] : NULL;
	uint32_t cpus = (uint32_t)k * PID_STEP + CPU_PID;
	char name[128];
	struct ord *v;
	size_t nv;
	struct rec r;
	int rc;

	snprintf(name, sizeof(name), "%s: CPUs", rp->name);
	meta(o, "process", cpus, cpus, name, (int64_t)k * PID_STEP);
	if (!p)
		return SR_OK;
	for (size_t id = 0; id < p->nt; id++)
		if (p->t[id].running &&
		    run_end(te, p, (uint32_t)id, &p->t[id], rp->end, "end"))
			return sr_fail(d, te->err, "export: %s", te->errmsg);
	for (int32_t c = 0; c <= p->maxcpu; c++) {
		snprintf(name, sizeof(name), "CPU %" PRId32, c);
		meta(o, "thread", cpus, cpus + 1 + (uint32_t)c, name, c);
	}
	rc = track_order(te, p, o, &v, &nv, d);
	if (!rc)
		task_meta(te, o, k, rp->name, p, v, nv);
	free(v);
	if (rc)
		return rc;
	if (fflush(p->spool) != 0 || fseek(p->spool, 0, SEEK_SET) != 0)
		return sr_fail(d, SR_EIO, "export: temporary file: %s",
			       strerror(errno));
	free(o->carry);
	o->carry = malloc((p->ntr ? p->ntr : 1) * sizeof(*o->carry));
	if (!o->carry)
		return sr_oom(d);
	for (size_t i = 0; i < p->ntr; i++)
		o->carry[i] = INT32_MIN;
	while (fread(&r, sizeof(r), 1, p->spool) == 1)
		if (select_rec(te, o, k, p, &r))
			put_rec(te, o, k, p, &r);
	if (ferror(p->spool))
		return sr_fail(d, SR_EIO, "export: temporary file: %s",
			       strerror(errno));
	/* counters that did not change in the window: their value then */
	for (size_t i = 0; i < p->ntr; i++) {
		if (o->carry[i] == INT32_MIN || o->lo == INT64_MIN ||
		    o->lo >= rp->end)
			continue;
		memset(&r, 0, sizeof(r));
		r.kind = REC_PRIO;
		r.ts = o->lo;
		r.track = (uint32_t)i;
		r.prio = o->carry[i];
		put_rec(te, o, k, p, &r);
	}
	return SR_OK;
}

int sr_te_write(struct sr_te *te, const struct sr_replay *r,
		const char *title, const struct sr_selection *sel, FILE *f,
		struct sr_diag *d)
{
	const struct sr_replay_info *in = sr_replay_info(r);
	struct out o = { f, in->first_ts, true, &te->counts, sel,
			 INT64_MIN, INT64_MAX, NULL, sr_replay_tasks(r) };
	char b[SR_FMT_NUM];
	int rc;

	if (te->err)
		return sr_fail(d, te->err, "export: %s", te->errmsg);
	te->counts = (struct sr_te_counts){ 0 };
	/* traceEvents first: a reader that stops at a key it does not know
	 * has the events already.  No displayTimeUnit: Perfetto reads "ns"
	 * there as the unit of ts, which the format says it is not. */
	fputs("{\"traceEvents\":[", f);
	sr_sel_window(sel, in->first_ts, &o.lo, &o.hi);
	for (size_t k = 0; k < sr_replay_count(r); k++)
		if ((rc = write_policy(te, &o, k, sr_replay_get(r, k), d))) {
			free(o.carry);
			return rc;
		}
	free(o.carry);
	fputs("\n],\n\"otherData\":{\"trace\":", f);
	sr_json_str(f, title);
	fprintf(f, ",\"start_s\":%s,\"pid_step\":%u,\"lost_events\":",
		sr_fmt_s(b, sizeof(b), in->first_ts, 9), PID_STEP);
	sr_loss_json(&in->loss, f);
	fputs(",\"policies\":[", f);
	for (size_t k = 0; k < sr_replay_count(r); k++) {
		fputs(k ? "," : "", f);
		sr_json_str(f, sr_replay_get(r, k)->name);
	}
	fputs("]}}\n", f);
	return SR_OK;
}

const char *sr_te_error(const struct sr_te *te)
{
	return te->err ? te->errmsg : NULL;
}

void sr_te_counts(const struct sr_te *te, struct sr_te_counts *c)
{
	*c = te->counts;
}

void sr_te_free(struct sr_te *te)
{
	if (!te)
		return;
	for (size_t k = 0; k < te->np; k++) {
		if (te->p[k].spool)
			fclose(te->p[k].spool);
		free(te->p[k].t);
		free(te->p[k].tr);
		free(te->p[k].cpu);
	}
	free(te->p);
	sr_strpool_free(&te->pool);
	free(te);
}
