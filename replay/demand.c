/*
 * demand: turns the normalised event stream into per-task programs (CPU
 * bursts, causal and external wakes, forks, exits) for the simulator, and
 * frees each op once every consumer has passed it.  The rules, case by
 * case, are in docs/replay.md ("Demand extraction").  The containers are
 * elsewhere: names in lib/strpool, programs and arrivals in replay/ring.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/regex.h"
#include "lib/strpool.h"
#include "replay/demand.h"
#include "replay/ring.h"

enum { LEFT_NO, LEFT_THERE, LEFT_MOVED };

/* Where a task stands in the recording, as far as the events show. */
enum rstate {
	R_UNSEEN,    /* not born yet */
	R_RUNNING,   /* on a cpu since .since */
	R_RUNNABLE,  /* preempted, or woken and not yet running */
	R_BLOCKED,   /* asleep; its BLOCK op is the last op */
	R_DEAD,      /* exited */
	R_GONE,      /* left out midway (renamed into --exclude): ended */
};

/*
 * A task as the demand knows it, by thread id.  What it needs while its
 * program may still grow or be read is in .l (struct live), given back once
 * the program is complete and every consumer has read it to the end (at the
 * next event, with the op buffers); the rest stays, as the task's summary.
 */
struct live;

struct ent {
	struct sr_dtask t;
	uint8_t known;      /* slot initialised (.l made) */
	uint8_t state;      /* enum rstate */
	uint8_t included;   /* comm does not match --exclude (now), matches
			       --only, in --tree's tree */
	uint8_t in_tree;    /* in the tree of --tree's root */
	uint8_t ever;       /* was included at some point */
	uint8_t ctx_counted;/* counted pinned (1) or partial (2) by the
			       context (a task, not each reading) */
	uint8_t left;       /* R_RUNNABLE: left its cpu unseen at
			       .last_change, asleep or preempted not known
			       yet: LEFT_THERE (.cpu is that cpu) or
			       LEFT_MOVED (migrated since, to .cpu) */
	int32_t cpu;        /* R_RUNNING: where */
	uint32_t last_rec;  /* latest record of the exec chain */
	uint32_t comm;      /* current name (pool index) */
	struct live *l;     /* NULL once its program is read (or not known) */
};

struct live {
	uint8_t exit_seen;  /* sched_process_exit seen, not switched out */
	uint8_t block_open; /* its last op is a BLOCK not yet resolved */
	uint8_t shrink_queued; /* in dm->shrink */
	uint8_t charged;    /* its CPU comes from charges */
	int16_t prio;       /* its kernel prio as its ops have it (120 +
			       nice, or 99 - rt priority) */
	int8_t nice;        /* its nice as its ops have it */
	uint32_t nblocks;
	int64_t since;      /* R_RUNNING: run start */
	int64_t born;       /* when it was born (context readings of it are
			       at or after it, if it was forked) */
	int64_t last_change;
	int64_t open_ns;    /* CPU counted since the last op */
	uint32_t woke[8];   /* tasks it woke lately (any wake it was given) */
	uint8_t nwoke, woke_next;
	/* the current run: CPU is the time on cpu, or, in a trace that
	   charges tasks (sched_stat_runtime), the charges */
	int64_t pacc;       /* CPU of this run counted into open_ns */
	int64_t pcharged;   /* charges received in this run */
	int64_t mark;       /* time of the last charge (or the run start) */
	int64_t debt;       /* CPU placed past the charges of earlier runs
			       (an op between charges; irq time is not
			       charged): the next charges pay it back */
	uint64_t block_op;  /* op number of the open BLOCK */
	struct sr_ring ops; /* the program (struct sr_op), numbered */
	uint64_t cur[];     /* per consumer: next op it will read */
};

struct cpu {
	int64_t first_ts;   /* first event on it */
	int64_t switch_ts;  /* last switch on it */
	uint32_t cur;       /* thread running (any task), SR_TID_NONE idle */
	uint8_t seen, cur_known;
};

struct sr_demand {
	struct sr_demand_opts o;
	struct sr_regex *re;      /* --exclude */
	struct sr_regex *only_re; /* --only */
	struct sr_regex *tree_re; /* --tree */
	bool tree_found;        /* its root seen */
	struct ent *e;
	size_t ne, cape;
	struct cpu *cpus;
	size_t ncpus;
	struct sr_strpool names;
	struct pending {        /* per consumer, while deferred: tasks
				   whose cursor it moved, to trim */
		uint32_t *t;
		size_t n, cap;
		bool lost;      /* one could not be noted: trim all */
	} *pend;
	uint32_t *shrink;       /* tasks whose ring every consumer passed
				   since the last event: shrink it then */
	size_t nshrink, capshrink;
	uint32_t *left;         /* tasks that left a cpu unseen, not yet
				   known asleep or runnable (ent.left) */
	size_t nleft, capleft;
	struct sr_ring arr;     /* arrivals (struct sr_arrival), numbered */
	uint64_t *arrcur;       /* per consumer: next arrival it will read */
	sr_demand_resolve_fn on_resolve;
	void *resolve_ctx;
	bool started, done;
	bool charges;       /* the trace charges CPU (sched_stat_runtime) */
	bool irq_seen;      /* the trace has shown an interrupt as a waker */
	bool oom;           /* a list could not grow (the event fails) */
	struct sr_diag *d;      /* the current call's: what failed, said */
	int64_t start, now;
	int64_t before;     /* the event read before the current one */
	struct sr_demand_stats st;
};

static const char *const op_names[SR_OP__COUNT] = {
	[SR_OP_RUN] = "run", [SR_OP_WAKE] = "wake", [SR_OP_FORK] = "fork",
	[SR_OP_COMM] = "comm", [SR_OP_NICE] = "nice",
	[SR_OP_SETSCHED] = "setsched", [SR_OP_BLOCK] = "block",
	[SR_OP_EXIT] = "exit", [SR_OP_END] = "end",
};

const char *const sr_causal_names[] = { "known", "all", "none", NULL };

const char *sr_op_kind_name(enum sr_op_kind k)
{
	return (unsigned)k < SR_OP__COUNT ? op_names[k] : "?";
}

static int oom(struct sr_diag *d)
{
	return sr_oom(d);
}

/* A pcre2 pattern of an option (NULL or empty: none). */
static int regex_new(const char *pat, const char *what, struct sr_regex **re,
		     struct sr_diag *d)
{
	char msg[256];
	size_t off;
	int rc;

	*re = NULL;
	if (!pat || !pat[0])
		return SR_OK;
	rc = sr_regex_new(re, pat, SR_REGEX_NUL, msg, sizeof(msg), &off);
	if (rc == SR_EUSAGE)
		return sr_fail(d, SR_EUSAGE, "%s '%s': at offset %zu: %s",
			       what, pat, off, msg);
	return rc ? oom(d) : SR_OK;
}

int sr_demand_new(struct sr_demand **out, const struct sr_demand_opts *o,
		  struct sr_diag *d)
{
	struct sr_demand *dm;

	*out = NULL;
	if (!o->task_get || o->nconsumers < 0)
		return sr_fail(d, SR_EINTERNAL, "demand: bad options");
	dm = calloc(1, sizeof(*dm));
	if (!dm)
		return oom(d);
	dm->o = *o;
	if (regex_new(o->exclude, "--exclude", &dm->re, d) ||
	    regex_new(o->only, "--only", &dm->only_re, d) ||
	    regex_new(o->tree && !o->tree[0] ? SR_CMD_TREE : o->tree,
		      "--only-tree", &dm->tree_re, d)) {
		sr_demand_free(dm);
		return d->code;
	}
	dm->arrcur = calloc((size_t)o->nconsumers + 1, sizeof(*dm->arrcur));
	if (!dm->arrcur) {
		sr_demand_free(dm);
		return oom(d);
	}
	*out = dm;
	return SR_OK;
}

static void free_live(struct ent *e)
{
	if (e->l)
		sr_ring_free(&e->l->ops);
	free(e->l);
	e->l = NULL;
}

void sr_demand_free(struct sr_demand *dm)
{
	if (!dm)
		return;
	for (size_t i = 0; i < dm->ne; i++)
		free_live(&dm->e[i]);
	free(dm->e);
	free(dm->shrink);
	free(dm->left);
	free(dm->cpus);
	sr_strpool_free(&dm->names);
	sr_ring_free(&dm->arr);
	free(dm->arrcur);
	for (int c = 0; dm->pend && c < dm->o.nconsumers; c++)
		free(dm->pend[c].t);
	free(dm->pend);
	sr_regex_free(dm->re);
	sr_regex_free(dm->only_re);
	sr_regex_free(dm->tree_re);
	free(dm);
}

void sr_demand_on_resolve(struct sr_demand *dm, sr_demand_resolve_fn fn,
			  void *ctx)
{
	dm->on_resolve = fn;
	dm->resolve_ctx = ctx;
}

/* ---- names, op rings, arrivals (lib/strpool.h, replay/ring.h) ---------- */

const char *sr_demand_comm(const struct sr_demand *dm, uint32_t idx)
{
	return sr_strpool_get(&dm->names, idx);
}

static int emit(struct sr_demand *dm, struct ent *e, const struct sr_op *op)
{
	dm->st.held_ops -= sr_ring_trim(&e->l->ops, e->l->cur, dm->o.nconsumers);
	if (sr_ring_push(&e->l->ops, op, sizeof(*op)))
		return SR_ENOMEM;
	dm->st.ops++;
	if (++dm->st.held_ops > dm->st.peak_held_ops)
		dm->st.peak_held_ops = dm->st.held_ops;
	return SR_OK;
}

static struct sr_op *op_at(const struct ent *e, uint64_t idx)
{
	return sr_ring_at(&e->l->ops, idx, sizeof(struct sr_op));
}

const struct sr_op *sr_demand_op(const struct sr_demand *dm, uint32_t task,
				 uint64_t idx)
{
	if (task >= dm->ne || !dm->e[task].l)
		return NULL;
	return op_at(&dm->e[task], idx);
}

/* Its program is complete: no op will be added. */
static bool ended(const struct ent *e)
{
	return e->state == R_DEAD || e->state == R_GONE;
}

/* Its program is complete and every consumer has read all of it. */
static bool read_out(const struct sr_demand *dm, const struct ent *e)
{
	uint64_t end = sr_ring_end(&e->l->ops);

	if (!ended(e))
		return false;
	for (int c = 0; c < dm->o.nconsumers; c++)
		if (e->l->cur[c] < end)
			return false;
	return true;
}

/* The ops of task every consumer has passed dropped. */
static void trim_task(struct sr_demand *dm, uint32_t task)
{
	struct ent *e = &dm->e[task];
	uint64_t k;

	/*
	 * Ops every consumer passed are dropped now (a task that gets no
	 * more ops, one that exited, must not keep its program); memory is
	 * given back at the next event, when no op pointer handed out is in
	 * use any more: all of it once the program is complete, else what a
	 * backlog now consumed had grown the buffer to.
	 */
	k = sr_ring_trim(&e->l->ops, e->l->cur, dm->o.nconsumers);
	dm->st.held_ops -= k;
	if (!e->l->shrink_queued &&
	    ((k && sr_ring_oversized(&e->l->ops, ended(e))) || read_out(dm, e))) {
		if (dm->nshrink == dm->capshrink) {
			uint32_t *p = sr_grow(dm->shrink, &dm->capshrink,
					      dm->nshrink, sizeof(*p), 64, 0);

			if (!p)
				return; /* kept: memory, not results */
			dm->shrink = p;
		}
		dm->shrink[dm->nshrink++] = task;
		e->l->shrink_queued = 1;
	}
}

void sr_demand_consumed(struct sr_demand *dm, int c, uint32_t task,
			uint64_t idx)
{
	struct pending *pd;

	if (task >= dm->ne || c < 0 || c >= dm->o.nconsumers ||
	    !dm->e[task].l || dm->e[task].state == R_UNSEEN)
		return;
	dm->e[task].l->cur[c] = idx;
	if (!dm->pend) {
		trim_task(dm, task);
		return;
	}
	/* deferred: noted in the consumer's own list (a task noted twice
	 * is trimmed twice, the second time a no-op) */
	pd = &dm->pend[c];
	if (pd->n && pd->t[pd->n - 1] == task)
		return;
	if (pd->n == pd->cap) {
		uint32_t *v = sr_grow(pd->t, &pd->cap, pd->n, sizeof(*v), 64, 0);

		if (!v) {
			pd->lost = true; /* settle trims every task */
			return;
		}
		pd->t = v;
	}
	pd->t[pd->n++] = task;
}

int sr_demand_defer(struct sr_demand *dm)
{
	if (dm->pend || !dm->o.nconsumers)
		return SR_OK;
	dm->pend = calloc((size_t)dm->o.nconsumers, sizeof(*dm->pend));
	return dm->pend ? SR_OK : SR_EINTERNAL;
}

void sr_demand_settle(struct sr_demand *dm)
{
	bool all = false;

	if (!dm->pend)
		return;
	for (int c = 0; c < dm->o.nconsumers; c++) {
		struct pending *pd = &dm->pend[c];

		all |= pd->lost;
		for (size_t i = 0; i < pd->n && !all; i++)
			trim_task(dm, pd->t[i]);
		pd->n = 0;
		pd->lost = false;
	}
	for (size_t i = 0; all && i < dm->ne; i++)
		if (dm->e[i].l && dm->e[i].state != R_UNSEEN)
			trim_task(dm, (uint32_t)i);
}

/*
 * Give back the op buffers consumed since the last event (see above), and
 * the state of a task whose program every consumer has read to its end:
 * it keeps its summary (struct ent without .l).
 */
static void shrink_rings(struct sr_demand *dm)
{
	for (size_t i = 0; i < dm->nshrink; i++) {
		struct ent *e = &dm->e[dm->shrink[i]];

		if (read_out(dm, e)) {
			free_live(e);
			continue;
		}
		sr_ring_shrink(&e->l->ops, sizeof(struct sr_op), ended(e));
		e->l->shrink_queued = 0;
	}
	dm->nshrink = 0;
}

static int arrive(struct sr_demand *dm, struct ent *e, int64_t ts)
{
	const struct sr_arrival a = { .ts = ts, .seq = dm->st.events,
				      .task = e->t.id };

	sr_ring_trim(&dm->arr, dm->arrcur, dm->o.nconsumers);
	if (sr_ring_push(&dm->arr, &a, sizeof(a)))
		return SR_ENOMEM;
	dm->st.arrivals++;
	return SR_OK;
}

const struct sr_arrival *sr_demand_arrival(const struct sr_demand *dm,
					   uint64_t idx)
{
	return sr_ring_at(&dm->arr, idx, sizeof(struct sr_arrival));
}

void sr_demand_arrivals_consumed(struct sr_demand *dm, int c, uint64_t idx)
{
	if (c >= 0 && c < dm->o.nconsumers)
		dm->arrcur[c] = idx;
}

/* ---- tasks -------------------------------------------------------------- */

/* 1: task e, named comm, is left out (--exclude matches, --only does
 * not, or it is not in --tree's tree), 0: it is in, -1: pcre2 could not
 * decide on its name (an error, not a mismatch), said in dm->d. */
static int excluded(struct sr_demand *dm, const struct ent *e,
		    const char *comm)
{
	int m;

	if (dm->re && (m = sr_regex_decide(dm->re, "--exclude", comm,
					   dm->d)) != 0)
		return m;
	if (dm->only_re && (m = sr_regex_decide(dm->only_re, "--only", comm,
						dm->d)) != 1)
		return m < 0 ? m : 1;
	return dm->tree_re && !e->in_tree;
}

static const struct sr_task *rec_of(const struct sr_demand *dm, sr_tid id)
{
	return id == SR_TID_NONE ? NULL : dm->o.task_get(dm->o.task_ctx, id);
}

static bool is_idle(const struct sr_demand *dm, sr_tid id)
{
	const struct sr_task *r = rec_of(dm, id);

	return r && r->is_idle;
}

/* The thread id of a record (idle: NONE). */
static uint32_t thread_of(const struct sr_demand *dm, sr_tid id)
{
	const struct sr_task *r = rec_of(dm, id);

	if (!r || r->is_idle)
		return SR_TID_NONE;
	return r->thread != SR_TID_NONE ? r->thread : id;
}

static int grow_ents(struct sr_demand *dm, uint32_t id)
{
	if (id >= dm->cape) {
		struct ent *e = sr_grow(dm->e, &dm->cape, id, sizeof(*e), 256, 0);

		if (!e)
			return SR_ENOMEM;
		dm->e = e;
	}
	if (dm->ne <= id)
		dm->ne = (size_t)id + 1; /* grown as zeros */
	return SR_OK;
}

/*
 * --tree: task th (record r, named comm) is in the tree when the task
 * that forked it is.  The root is the first task whose name matches (at
 * first sight or renamed: perf-exec); a child can be seen before the
 * task that forked it (its fork event names the child first), so the
 * root is the oldest of its ancestors whose name matches too, and the
 * tasks between them are in the tree.
 */
static int tree_mark(struct sr_demand *dm, uint32_t th,
		     const struct sr_task *r, const char *comm)
{
	uint32_t path[64], n = 0, root = th;
	const struct sr_task *x;
	int m;

	if (!dm->tree_re)
		return SR_OK;
	if (!dm->e[th].in_tree && r->parent != SR_TID_NONE) {
		uint32_t p = thread_of(dm, r->parent);

		if (p != SR_TID_NONE && p < dm->ne && dm->e[p].in_tree)
			dm->e[th].in_tree = 1;
	}
	if (dm->tree_found)
		return SR_OK;
	if ((m = sr_regex_decide(dm->tree_re, "--only-tree", comm, dm->d)) <= 0)
		return m < 0 ? dm->d->code : SR_OK;
	dm->tree_found = true;
	/* up the forks from th's first record */
	x = rec_of(dm, th);
	while (x && x->parent != SR_TID_NONE && n < 64) {
		uint32_t p = thread_of(dm, x->parent);
		const struct sr_task *px = rec_of(dm, x->parent);

		if (p == SR_TID_NONE || !px)
			break;
		path[n++] = p;
		if ((m = sr_regex_decide(dm->tree_re, "--only-tree", px->comm,
					 dm->d)) < 0)
			return dm->d->code;
		if (m)
			root = p;
		x = rec_of(dm, p);
	}
	dm->e[th].in_tree = 1;
	for (uint32_t i = 0; i < n && root != th; i++) {
		struct ent *a;

		if (grow_ents(dm, path[i]))
			return SR_ENOMEM;
		a = &dm->e[path[i]];
		a->in_tree = 1;
		if (a->known && !a->included && a->state == R_UNSEEN) {
			if ((m = excluded(dm, a, sr_demand_comm(dm, a->comm))) < 0)
				return dm->d->code;
			if (!m)
				a->included = a->ever = 1;
		}
		if (path[i] == root)
			break;
	}
	return SR_OK;
}

static struct cpu *cpu_of(struct sr_demand *dm, int32_t c)
{
	if (c < 0)
		return NULL;
	if ((size_t)c >= dm->ncpus) {
		struct cpu *p = sr_grow(dm->cpus, &dm->ncpus, (size_t)c,
					sizeof(*p), 8, 0);

		if (!p)
			return NULL;
		dm->cpus = p;
	}
	return &dm->cpus[c];
}

/*
 * CPU of a running task.  A task the trace never charged counts its time
 * on cpu; a charged one counts its charges, and between charges (to place
 * a wake or a fork) the time since the last one.  Counting never goes back.
 */
static int64_t run_pos(const struct ent *e, int64_t ts)
{
	int64_t p = e->l->charged ? e->l->pcharged + (ts > e->l->mark ? ts - e->l->mark : 0)
			       : ts - e->l->since;

	return p > e->l->pacc ? p : e->l->pacc;
}

/* CPU of the current run known for sure at ts (what may be replayed). */
static int64_t run_known(const struct ent *e, int64_t ts)
{
	int64_t p = e->l->charged ? e->l->pcharged : ts - e->l->since;

	return p > e->l->pacc ? p : e->l->pacc;
}

static void count_to(struct ent *e, int64_t p)
{
	if (p > e->l->pacc) {
		e->l->open_ns += p - e->l->pacc;
		e->t.cpu_ns += p - e->l->pacc;
		e->l->pacc = p;
	}
}

/* CPU time of a running task up to ts goes into its open burst. */
static void checkpoint(struct ent *e, int64_t ts)
{
	if (e->state == R_RUNNING)
		count_to(e, run_pos(e, ts));
}

/* The current run ends at ts (the caller sets the new state). */
static void end_run(struct ent *e, int64_t ts)
{
	if (e->state != R_RUNNING)
		return;
	count_to(e, e->l->charged ? run_known(e, ts) : run_pos(e, ts));
	if (e->l->charged && e->l->pacc > e->l->pcharged)
		e->l->debt = e->l->pacc - e->l->pcharged;
}

static void start_run(struct ent *e, int32_t c, int64_t since)
{
	e->left = 0; /* it had left runnable, if it had left unseen */
	e->state = R_RUNNING;
	e->cpu = c;
	e->l->since = since;
	e->l->mark = since;
	/* a debt counts as CPU of this run already placed */
	e->l->pacc = e->l->debt;
	e->l->debt = 0;
	e->l->pcharged = 0;
}

static int flush_run(struct sr_demand *dm, struct ent *e)
{
	struct sr_op op = { .kind = SR_OP_RUN };

	if (e->l->open_ns <= 0)
		return SR_OK;
	op.a = e->l->open_ns;
	e->l->open_ns = 0;
	e->t.bursts++;
	return emit(dm, e, &op);
}

/* An op at the task's current point: the CPU before it first. */
static int emit_at(struct sr_demand *dm, struct ent *e, int64_t ts,
		   const struct sr_op *op)
{
	int rc;

	/*
	 * A wake or a fork needs its point in the task's CPU time; a name,
	 * nice or policy change does not, and is put where the charges are,
	 * so it never counts CPU a charge did not.
	 */
	if (op->kind == SR_OP_WAKE || op->kind == SR_OP_FORK)
		checkpoint(e, ts);
	else if (e->state == R_RUNNING)
		count_to(e, run_known(e, ts));
	if ((rc = flush_run(dm, e)))
		return rc;
	return emit(dm, e, op);
}

static int resolve(struct sr_demand *dm, struct ent *e, int end,
		   int64_t wake_ts, int wsrc)
{
	struct sr_op *op = op_at(e, e->l->block_op), tmp;

	if (!e->l->block_open)
		return SR_OK;
	if (!op) {
		/* nobody reads the programs (no consumer): keep the figures */
		memset(&tmp, 0, sizeof(tmp));
		tmp.kind = SR_OP_BLOCK;
		tmp.task = e->l->nblocks - 1;
		op = &tmp;
	}
	/*
	 * A wake inferred from a later event (a charge for a task thought
	 * asleep, on a cpu thought idle) can date from before the event read
	 * before this one; the simulators may already have gone that far
	 * (they stop short of the last event read, never earlier).  It is put
	 * at that event instead: later than the charge says by at most the
	 * gap between two events, and the same whatever the batch.
	 */
	if (end == SR_BLOCK_EXTERNAL && wake_ts < dm->before)
		wake_ts = dm->before;
	op->end = (uint8_t)end;
	op->b = wake_ts;
	op->seq = dm->st.events;
	op->wsrc = (uint8_t)wsrc;
	e->l->block_open = 0;
	if (end == SR_BLOCK_CAUSAL)
		dm->st.causal_wakes++;
	else if (end == SR_BLOCK_EXTERNAL)
		dm->st.external_wakes++;
	else
		dm->st.never_woken++;
	if (dm->on_resolve)
		dm->on_resolve(dm->resolve_ctx, e->t.id, op->task, op);
	return SR_OK;
}

static int block(struct sr_demand *dm, struct ent *e, int64_t ts)
{
	struct sr_op op = { .kind = SR_OP_BLOCK, .end = SR_BLOCK_OPEN,
			    .task = e->l->nblocks, .a = ts };
	int rc;

	if ((rc = flush_run(dm, e)) || (rc = emit(dm, e, &op)))
		return rc;
	e->l->block_op = sr_ring_end(&e->l->ops) - 1;
	e->l->block_open = 1;
	e->l->nblocks++;
	e->t.blocks++;
	e->state = R_BLOCKED;
	e->l->last_change = ts;
	e->t.finish_ts = ts;
	return SR_OK;
}

/* End a task's program at ts (trace end, or renamed into --exclude). */
static int close_program(struct sr_demand *dm, struct ent *e, int64_t ts,
			 int final_state)
{
	struct sr_op op = { .kind = SR_OP_END };
	int rc;

	switch (e->state) {
	case R_RUNNING:
	case R_RUNNABLE:
		if (e->l->exit_seen)
			op.kind = SR_OP_EXIT;
		end_run(e, ts);
		if ((rc = emit_at(dm, e, ts, &op)))
			return rc;
		e->t.finish_ts = ts;
		break;
	case R_BLOCKED:
		if ((rc = resolve(dm, e, SR_BLOCK_NEVER, 0, SR_WS_UNKNOWN)))
			return rc;
		break;
	default:
		return SR_OK;
	}
	e->state = (uint8_t)final_state;
	e->left = 0;
	return SR_OK;
}

static void fill_info(struct sr_demand *dm, struct ent *e,
		      const struct sr_task *r)
{
	e->t.pid = r->pid;
	e->t.tgid = r->tgid > 0 ? r->tgid : r->pid;
	e->t.has_mm = !r->kthread;
	e->t.nice = r->nice;
	e->t.policy = SR_SCHED_NORMAL;
	e->t.rt_priority = 0;
	if (r->policy >= 0) {
		e->t.policy = r->policy;
		e->t.rt_priority = r->rtprio;
	} else if (r->prio >= 0 && r->prio < 100) {
		/* an RT task (prio = 99 - rt_priority): FIFO unless told */
		e->t.policy = SR_SCHED_FIFO;
		e->t.rt_priority = 99 - r->prio;
	} else if (r->nice == 0 && r->prio >= 100 && r->prio < 140) {
		e->t.nice = r->prio - 120;
	}
}

/* The kernel charges (sched_stat_runtime) only fair-class tasks. */
static bool fair(const struct ent *e)
{
	return e->t.policy != SR_SCHED_FIFO && e->t.policy != SR_SCHED_RR;
}

/* ---- the recording's context ---------------------------------------- */

/*
 * The reading of task e in force at ts: the last at or before it, else the
 * first after (parse/context.h).  A forked task's readings are stamped at
 * its fork or later: one before its birth was of an earlier task with
 * the same pid, and is none of its.
 */
static const struct sr_ctx_task *ctx_reading(const struct sr_demand *dm,
					     const struct ent *e, int64_t ts)
{
	const struct sr_ctx_task *c = sr_context_task(dm->o.ctx, e->t.pid, ts);

	if (c && e->t.forked && c->ts < e->l->born)
		return NULL;
	return c;
}

/* Where a reading lets task e run (SR_PIN_*, or the one cpu); a task
 * pinned, or allowed some cpus only, is counted once. */
static int32_t ctx_pin(struct sr_demand *dm, struct ent *e,
		       const struct sr_ctx_task *c)
{
	uint32_t n = 0;
	int32_t one = SR_PIN_ANY;

	if (!c || !(c->has & SR_CTX_AFFINITY))
		return SR_PIN_UNKNOWN;
	for (uint32_t w = 0; w < c->cpus.nbits / 64; w++) {
		n += (uint32_t)__builtin_popcountll(c->cpus.w[w]);
		if (c->cpus.w[w] && one < 0)
			one = (int32_t)(w * 64) + __builtin_ctzll(c->cpus.w[w]);
	}
	if (n == 1) {
		if (!(e->ctx_counted & 1))
			dm->st.ctx_pinned++;
		e->ctx_counted |= 1;
		return one;
	}
	if (dm->o.ctx->ncpus > 0 && n < (uint32_t)dm->o.ctx->ncpus) {
		if (!(e->ctx_counted & 2))
			dm->st.ctx_partial++;
		e->ctx_counted |= 2;
	}
	return SR_PIN_ANY;
}

/*
 * At birth: its cpus; a policy the events cannot tell (batch and idle
 * run at a fair prio, FIFO and RR at the same rt prio); its nice when the
 * events give no prio.
 */
static void ctx_birth(struct sr_demand *dm, struct ent *e,
		      const struct sr_task *r, int64_t ts)
{
	const struct sr_ctx_task *c = ctx_reading(dm, e, ts);
	bool rt;

	e->t.ctx_pin = SR_PIN_UNKNOWN;
	if (!c)
		return;
	dm->st.ctx_read++;
	e->t.ctx_pin = ctx_pin(dm, e, c);
	dm->st.ctx_cpus += e->t.ctx_pin != SR_PIN_UNKNOWN;
	rt = c->policy == SR_SCHED_FIFO || c->policy == SR_SCHED_RR;
	if ((c->has & SR_CTX_POLICY) && c->policy != e->t.policy &&
	    (rt ? !fair(e) || !r || r->prio < 0
		: fair(e) && (c->policy == SR_SCHED_BATCH ||
			      c->policy == SR_SCHED_IDLE))) {
		e->t.policy = c->policy;
		if (rt)
			e->t.rt_priority = c->rtprio;
		dm->st.ctx_policy++;
		dm->st.ctx_unmodelled += !rt;
	}
	if ((c->has & SR_CTX_NICE) && (!r || r->prio < 0) && fair(e) &&
	    e->t.nice != c->nice) {
		e->t.nice = c->nice;
		dm->st.ctx_nice++;
	}
}

/*
 * Birth: the task enters the replay.  by_fork: a FORK op of its parent
 * creates it; otherwise it arrives at ts (first seen).
 */
static int birth(struct sr_demand *dm, struct ent *e, int64_t ts,
		 struct ent *parent, int32_t cpu)
{
	const struct sr_task *r = rec_of(dm, e->last_rec);
	int rc;

	e->t.comm = e->comm;
	e->l->born = ts;
	e->t.forked = parent != NULL;
	if (r)
		fill_info(dm, e, r);
	e->t.ctx_pin = SR_PIN_UNKNOWN;
	if (dm->o.ctx)
		ctx_birth(dm, e, r, ts);
	e->t.parent = parent ? parent->t.id : SR_TID_NONE;
	if (r && e->t.parent == SR_TID_NONE && r->parent != SR_TID_NONE) {
		uint32_t p = thread_of(dm, r->parent);

		if (p != SR_TID_NONE && p < dm->ne && dm->e[p].known &&
		    dm->e[p].included && dm->e[p].state != R_UNSEEN)
			e->t.parent = p;
	}
	e->t.cpu = cpu;
	if (dm->o.groups) {
		struct sr_tg_task tt = {
			.id = e->t.id, .parent = e->t.parent, .pid = e->t.pid,
			.tgid = e->t.tgid, .kthread = !e->t.has_mm, .ts = ts,
		};

		if ((rc = sr_taskgroups_assign(dm->o.groups, &tt, &e->t.group,
					       NULL)))
			return rc;
	}
	e->l->charged = dm->charges && fair(e);
	e->l->prio = (int16_t)(fair(e) ? 120 + e->t.nice
				       : 99 - e->t.rt_priority);
	e->l->nice = (int8_t)e->t.nice;
	e->state = R_RUNNABLE;
	/* what it did before is unknown: the caller says if it was asleep */
	e->l->last_change = INT64_MIN;
	e->t.finish_ts = ts;
	if (!parent && (rc = arrive(dm, e, ts)))
		return rc;
	return SR_OK;
}

/*
 * The task of record id, or NULL for idle, unknown and left-out tasks.
 * First sight, exec records and renames are handled here.
 */
static struct ent *ent_of(struct sr_demand *dm, sr_tid id, int64_t ts,
			  int *err)
{
	const struct sr_task *r = rec_of(dm, id);
	uint32_t th;
	struct ent *e;
	int left_out;

	if (!r || r->is_idle)
		return NULL;
	th = r->thread != SR_TID_NONE ? r->thread : id;
	if (grow_ents(dm, th)) {
		*err = SR_ENOMEM;
		return NULL;
	}
	e = &dm->e[th];
	if (!e->known) {
		e->l = calloc(1, sizeof(*e->l) +
			      (size_t)dm->o.nconsumers * sizeof(e->l->cur[0]));
		if (!e->l) {
			*err = SR_ENOMEM;
			return NULL;
		}
		e->known = 1;
		e->t.id = th;
		e->t.parent = SR_TID_NONE;
		e->last_rec = id;
		e->state = R_UNSEEN;
		if ((*err = tree_mark(dm, th, r, r->comm)))
			return NULL;
		e = &dm->e[th]; /* tree_mark may have grown them */
		if ((left_out = excluded(dm, e, r->comm)) < 0) {
			*err = dm->d->code;
			return NULL;
		}
		e->included = !left_out;
		e->ever = e->included;
		if ((*err = sr_strpool_add(&dm->names, r->comm, &e->comm)))
			return NULL;
		return e->included ? e : NULL;
	}
	if (e->state == R_GONE)
		return NULL;
	if (id == e->last_rec ? strcmp(r->comm, sr_demand_comm(dm, e->comm))
			      : id > e->last_rec) {
		/* exec into a new record, or renamed in place */
		bool inc;
		struct sr_op op = { .kind = SR_OP_COMM };

		if ((*err = tree_mark(dm, th, r, r->comm)))
			return NULL;
		e = &dm->e[th];
		if ((left_out = excluded(dm, e, r->comm)) < 0) {
			*err = dm->d->code;
			return NULL;
		}
		inc = !left_out;

		e->last_rec = id;
		if ((*err = sr_strpool_add(&dm->names, r->comm, &e->comm)))
			return NULL;
		if (e->included && !inc) {
			e->included = 0;
			if (e->state != R_UNSEEN &&
			    (*err = close_program(dm, e, ts, R_GONE)))
				return NULL;
			return NULL;
		}
		if (!e->included && inc) {
			if (e->state != R_UNSEEN) /* once out, out for good */
				return NULL;
			e->included = e->ever = 1;
			return e;
		}
		if (e->included && e->state != R_UNSEEN &&
		    e->state != R_DEAD) {
			op.task = e->comm;
			/* its cpus after the exec (taskset, numactl) */
			op.b = dm->o.ctx && e->l ? ctx_pin(dm, e,
					ctx_reading(dm, e, ts)) : SR_PIN_UNKNOWN;
			if ((*err = emit_at(dm, e, ts, &op)))
				return NULL;
		}
	}
	return e->included ? e : NULL;
}

/*
 * The task on cpu c left it unseen (missing or lost events): at ts.
 * Asleep or preempted is not known yet: it stays runnable, marked left,
 * until a later event says which (left_asleep, cpu_idle; a switch-in,
 * a charge: runnable).
 */
static void left_unseen(struct sr_demand *dm, struct cpu *p, int32_t c,
			int64_t ts)
{
	struct ent *y;

	if (!p->cur_known || p->cur == SR_TID_NONE || p->cur >= dm->ne)
		return;
	y = &dm->e[p->cur];
	if (y->state == R_RUNNING && y->cpu == c) {
		/* its run ended some time before: what was charged, or (not
		   charged) up to now */
		end_run(y, ts);
		y->state = R_RUNNABLE;
		y->l->last_change = ts;
		if (!y->left) {
			if (dm->nleft == dm->capleft) {
				uint32_t *l = sr_grow(dm->left, &dm->capleft,
						      dm->nleft, sizeof(*l),
						      16, 0);

				if (!l) {
					dm->oom = true; /* said at once */
					return;
				}
				dm->left = l;
			}
			dm->left[dm->nleft++] = y->t.id;
			y->left = LEFT_THERE;
		}
	}
	/* who runs there from now is unknown: nobody, until shown */
	p->cur = SR_TID_NONE;
	p->switch_ts = ts;
}

/* A task that left its cpu unseen was asleep: it blocked when it left. */
static int left_asleep(struct sr_demand *dm, struct ent *e)
{
	e->left = 0;
	return block(dm, e, e->l->last_change);
}

/*
 * Cpu c is seen idle: a task that left it unseen and has not run since
 * was asleep (the kernel does not idle a cpu whose runqueue holds a
 * runnable task; a task moved elsewhere is followed by its migrate
 * event).  from_now: it goes idle now; else it was idle until now, since
 * a time not known, which may be before a task migrated there arrived:
 * that says nothing of such a task.  Entries no longer undecided are
 * dropped on the way.
 */
static int cpu_idle(struct sr_demand *dm, int32_t c, bool from_now)
{
	size_t k = 0;
	int rc = SR_OK;

	for (size_t i = 0; i < dm->nleft; i++) {
		struct ent *e = &dm->e[dm->left[i]];

		if (!e->left || e->state != R_RUNNABLE) {
			e->left = 0;
			continue;
		}
		if (e->cpu == c && !rc &&
		    (from_now || e->left == LEFT_THERE)) {
			rc = left_asleep(dm, e);
			continue;
		}
		dm->left[k++] = dm->left[i];
	}
	dm->nleft = k;
	return rc;
}

/*
 * The event shows e running on cpu c at ts (switch-out, waker, fork,
 * exec, exit, charge): make it so.  If it was thought elsewhere or asleep,
 * events are missing: whoever had c left it then, and e runs from ts.
 * False if e cannot run (dead, left out).
 */
static bool ensure_running_from(struct sr_demand *dm, struct ent *e,
				int32_t c, int64_t ts, int64_t from)
{
	struct cpu *p;
	int64_t since;

	if (e->state == R_RUNNING)
		return true;
	if (e->state != R_RUNNABLE && e->state != R_BLOCKED)
		return false;
	p = cpu_of(dm, c);
	if (!p)
		return false;
	if (p->cur_known && p->cur != e->t.id) {
		if (from < p->switch_ts)
			from = p->switch_ts;
		left_unseen(dm, p, c, from);
		since = from;
	} else {
		since = p->cur_known ? p->switch_ts : p->seen ? p->first_ts : ts;
	}
	if (e->l->last_change > since)
		since = e->l->last_change;
	if (since > ts)
		since = ts;
	if (e->state == R_BLOCKED) {
		/* its wakeup is missing too: woken when it began to run */
		const struct sr_op *bop = op_at(e, e->l->block_op);
		int64_t w = from;

		if (bop && w < bop->a)
			w = bop->a;
		if (w > ts)
			w = ts;
		if (resolve(dm, e, SR_BLOCK_EXTERNAL, w, SR_WS_UNKNOWN))
			return false;
		since = w;
	}
	start_run(e, c, since);
	p->cur_known = 1;
	p->cur = e->t.id;
	return true;
}

static bool ensure_running(struct sr_demand *dm, struct ent *e, int32_t c,
			   int64_t ts)
{
	return ensure_running_from(dm, e, c, ts, ts);
}

static int born(struct sr_demand *dm, struct ent *e, int64_t ts, int32_t cpu)
{
	return e->state == R_UNSEEN ? birth(dm, e, ts, NULL, cpu) : SR_OK;
}

/* ent_of, and born if it was unseen: an event shows the task live. */
static struct ent *live(struct sr_demand *dm, sr_tid id, int64_t ts,
			int32_t cpu, int *err)
{
	struct ent *e = ent_of(dm, id, ts, err);

	if (e && (*err = born(dm, e, ts, cpu)))
		return NULL;
	return e;
}

/* ---- events ------------------------------------------------------------- */

/*
 * An event shows a task's kernel prio (sched_switch's prev_prio and
 * next_prio, the wakeups' prio): one that differs from what its program
 * has says its nice or its class changed since (setpriority, nice(1),
 * sched_setscheduler); the change becomes an op at this point.  A prio in
 * 100..139 is a normal task at nice prio - 120; below 100 a realtime one
 * at rt priority 99 - prio (FIFO unless its record says RR).
 */
static int note_prio(struct sr_demand *dm, struct ent *e, int prio,
		     int64_t ts)
{
	struct sr_op op;

	if (!e || !e->l || prio < 0 || prio >= 140 || prio == e->l->prio ||
	    e->state == R_UNSEEN || e->state == R_DEAD || e->state == R_GONE)
		return SR_OK;
	memset(&op, 0, sizeof(op));
	if (prio >= 100) {
		if (e->l->prio < 100) {
			op.kind = SR_OP_SETSCHED;
			op.a = SR_SCHED_NORMAL;
			if ((emit_at(dm, e, ts, &op)))
				return SR_ENOMEM;
			memset(&op, 0, sizeof(op));
		}
		op.kind = SR_OP_NICE;
		op.a = prio - 120;
		e->l->nice = (int8_t)op.a;
		dm->st.nice_changes++;
	} else {
		const struct sr_task *r = rec_of(dm, e->last_rec);

		op.kind = SR_OP_SETSCHED;
		op.a = r && r->policy == SR_SCHED_RR ? SR_SCHED_RR
						      : SR_SCHED_FIFO;
		op.b = 99 - prio;
		dm->st.policy_changes++;
	}
	e->l->prio = (int16_t)prio;
	return emit_at(dm, e, ts, &op);
}

static int on_switch(struct sr_demand *dm, const struct sr_event *ev)
{
	struct cpu *c = cpu_of(dm, ev->cpu);
	uint32_t pth = thread_of(dm, ev->task), nth = thread_of(dm, ev->other);
	int err = SR_OK, rc;
	struct ent *p, *n;

	if (!c) /* a switch has a cpu (sr_raw_check): cpu_of could not grow */
		return SR_ENOMEM;
	if (c->cur_known && c->cur != pth)
		left_unseen(dm, c, ev->cpu, ev->ts);
	/* idle before: whoever left the cpu unseen was asleep */
	if (dm->nleft && is_idle(dm, ev->task) &&
	    (rc = cpu_idle(dm, ev->cpu, false)))
		return rc;
	p = live(dm, ev->task, ev->ts, ev->cpu, &err);
	if (err)
		return err;
	if (p) {
		if (ensure_running(dm, p, ev->cpu, ev->ts)) {
			if ((rc = note_prio(dm, p, ev->prio, ev->ts)))
				return rc;
			end_run(p, ev->ts);
			p->l->last_change = ev->ts;
			/*
			 * After sched_process_exit the task still runs (and
			 * may sleep, in D, and be woken) until its last
			 * switch-out, dead or zombie.
			 */
			if (ev->prev_state == SR_STATE_RUNNING) {
				p->state = R_RUNNABLE;
			} else if (ev->prev_state == SR_STATE_DEAD ||
				   ev->prev_state == SR_STATE_ZOMBIE) {
				struct sr_op op = { .kind = SR_OP_EXIT };

				if ((rc = flush_run(dm, p)) ||
				    (rc = emit(dm, p, &op)))
					return rc;
				p->state = R_DEAD;
				p->t.finish_ts = ev->ts;
			} else if ((rc = block(dm, p, ev->ts))) {
				return rc;
			}
		}
	}
	n = live(dm, ev->other, ev->ts, ev->cpu, &err);
	if (err)
		return err;
	if (n) {
		if (n->state == R_BLOCKED &&
		    (rc = resolve(dm, n, SR_BLOCK_EXTERNAL, ev->ts,
				  SR_WS_UNKNOWN)))
			return rc;
		if (n->state == R_RUNNING) {
			/* thought to run elsewhere: it left there unseen */
			end_run(n, ev->ts);
			if (n->cpu >= 0 && (size_t)n->cpu < dm->ncpus &&
			    dm->cpus[n->cpu].cur == n->t.id) {
				dm->cpus[n->cpu].cur = SR_TID_NONE;
				dm->cpus[n->cpu].switch_ts = ev->ts;
			}
		}
		if ((rc = note_prio(dm, n, ev->other_prio, ev->ts)))
			return rc;
		if (n->state != R_DEAD) {
			start_run(n, ev->cpu, ev->ts);
			n->l->last_change = ev->ts;
		}
	}
	c->cur_known = 1;
	c->cur = nth;
	c->switch_ts = ev->ts;
	/* idle from now on: the same */
	if (dm->nleft && is_idle(dm, ev->other))
		return cpu_idle(dm, ev->cpu, true);
	return SR_OK;
}

static bool woke_before(const struct ent *a, uint32_t b)
{
	for (int i = 0; i < a->l->nwoke; i++)
		if (a->l->woke[i] == b)
			return true;
	return false;
}

/* Is a wake the trace gives to w one that w caused (docs/replay.md)?
 * guessed: the trace gave it to w only because it was recorded in w's
 * context (ev->wguess). */
static bool caused_by(const struct sr_demand *dm, const struct ent *w,
		      const struct ent *t, bool guessed)
{
	const struct sr_task *rw, *rt;

	switch (dm->o.causal) {
	case SR_CAUSAL_ALL:
		return true;
	case SR_CAUSAL_NONE:
		return false;
	default:
		break;
	}
	if (!guessed || dm->irq_seen)
		return true;
	if (w->t.parent == t->t.id || t->t.parent == w->t.id ||
	    woke_before(t, w->t.id))
		return true;
	rw = rec_of(dm, w->last_rec);
	rt = rec_of(dm, t->last_rec);
	return rw && rt && rw->tgid >= 0 && rw->tgid == rt->tgid;
}

static int on_wake(struct sr_demand *dm, const struct sr_event *ev)
{
	int err = SR_OK, rc;
	struct ent *t = ent_of(dm, ev->task, ev->ts, &err), *w = NULL;
	struct sr_op *bop;

	if (ev->wsrc == SR_WS_HARDIRQ || ev->wsrc == SR_WS_SOFTIRQ)
		dm->irq_seen = true;
	if (err || !t)
		return err;
	if (ev->wsrc == SR_WS_TASK && ev->waker != SR_TID_NONE &&
	    ev->waker != ev->task) {
		uint32_t wth = thread_of(dm, ev->waker);

		/* who woke whom, for the conversations of caused_by() */
		if (wth != SR_TID_NONE && wth < dm->ne && dm->e[wth].l &&
		    !woke_before(&dm->e[wth], t->t.id)) {
			struct ent *we = &dm->e[wth];

			we->l->woke[we->l->woke_next] = t->t.id;
			we->l->woke_next = (uint8_t)((we->l->woke_next + 1) % 8);
			if (we->l->nwoke < 8)
				we->l->nwoke++;
		}
	}
	if (t->state == R_UNSEEN) {
		/* first seen being woken: it arrives now, runnable */
		rc = birth(dm, t, ev->ts, NULL,
			   ev->target_cpu >= 0 ? ev->target_cpu : ev->cpu);
		t->l->last_change = ev->ts;
		return rc;
	}
	/* a task that left its cpu unseen is woken: it was asleep */
	if (t->left && t->state == R_RUNNABLE && ev->kind != SR_EV_WAKEUP_NEW &&
	    (rc = left_asleep(dm, t)))
		return rc;
	if ((rc = note_prio(dm, t, ev->prio, ev->ts)))
		return rc;
	if (t->state != R_BLOCKED || ev->kind == SR_EV_WAKEUP_NEW)
		return SR_OK;
	bop = op_at(t, t->l->block_op);
	if (bop && ev->ts < bop->a)
		return SR_OK; /* stamped before it went to sleep */
	if (ev->wsrc == SR_WS_TASK && ev->waker != SR_TID_NONE) {
		w = ent_of(dm, ev->waker, ev->ts, &err);
		if (err)
			return err;
	}
	if (w && w != t) {
		/* the event shows w on that cpu, caused or not */
		if ((rc = born(dm, w, ev->ts, ev->cpu)))
			return rc;
		if (ensure_running(dm, w, ev->cpu, ev->ts) &&
		    !caused_by(dm, w, t, ev->wguess)) {
			dm->st.task_wakes_external++;
		} else if (w->state == R_RUNNING) {
			struct sr_op op = { .kind = SR_OP_WAKE,
					    .sync = ev->sync ? 1 : 0,
					    .task = t->t.id,
					    .a = (int64_t)t->l->nblocks - 1 };

			if ((rc = emit_at(dm, w, ev->ts, &op)) ||
			    (rc = resolve(dm, t, SR_BLOCK_CAUSAL, ev->ts,
					  SR_WS_TASK)))
				return rc;
			t->state = R_RUNNABLE;
			t->l->last_change = ev->ts;
			return SR_OK;
		}
	}
	if ((rc = resolve(dm, t, SR_BLOCK_EXTERNAL, ev->ts, ev->wsrc)))
		return rc;
	/* made on another CPU than the task's: the wake's cost class */
	if (bop && ev->target_cpu >= 0 && ev->cpu >= 0)
		bop->sync = ev->cpu != ev->target_cpu;
	t->state = R_RUNNABLE;
	t->l->last_change = ev->ts;
	return SR_OK;
}

static int on_fork(struct sr_demand *dm, const struct sr_event *ev)
{
	int err = SR_OK, rc;
	struct ent *p, *c = ent_of(dm, ev->other, ev->ts, &err);

	if (err || !c || c->state != R_UNSEEN)
		return err;
	p = live(dm, ev->task, ev->ts, ev->cpu, &err);
	if (err)
		return err;
	if (p) {
		if (ensure_running(dm, p, ev->cpu, ev->ts)) {
			struct sr_op op = { .kind = SR_OP_FORK,
					    .task = c->t.id };

			if ((rc = emit_at(dm, p, ev->ts, &op)))
				return rc;
			rc = birth(dm, c, ev->ts, p, ev->cpu);
			c->l->last_change = ev->ts;
			return rc;
		}
	}
	rc = birth(dm, c, ev->ts, NULL, ev->cpu);
	c->l->last_change = ev->ts;
	return rc;
}

static int on_exec(struct sr_demand *dm, const struct sr_event *ev)
{
	int err = SR_OK, rc;
	struct ent *e = live(dm, ev->task, ev->ts, ev->cpu, &err);

	if (err)
		return err;
	if (e) {
		ensure_running(dm, e, ev->cpu, ev->ts);
	}
	if (ev->other != SR_TID_NONE && ev->other != ev->task) {
		e = ent_of(dm, ev->other, ev->ts, &err); /* renames */
		if (err)
			return err;
		if (e && e->state == R_UNSEEN) {
			/* left out until now: enters, running from now */
			if ((rc = birth(dm, e, ev->ts, NULL, ev->cpu)))
				return rc;
			e->l->last_change = ev->ts;
			ensure_running(dm, e, ev->cpu, ev->ts);
		}
	}
	return SR_OK;
}

static int on_exit_ev(struct sr_demand *dm, const struct sr_event *ev)
{
	int err = SR_OK;
	struct ent *e = live(dm, ev->task, ev->ts, ev->cpu, &err);

	if (err || !e)
		return err;
	ensure_running(dm, e, ev->cpu, ev->ts);
	if (e->state != R_DEAD)
		e->l->exit_seen = 1;
	return SR_OK;
}

static int on_attr(struct sr_demand *dm, const struct sr_event *ev)
{
	int err = SR_OK;
	struct ent *e = ent_of(dm, ev->task, ev->ts, &err);
	struct sr_op op;

	if (err || !e || e->state == R_DEAD)
		return err;
	if (e->state == R_UNSEEN)
		return SR_OK; /* read from its record at birth */
	memset(&op, 0, sizeof(op));
	if (ev->kind == SR_EV_NICE) {
		op.kind = SR_OP_NICE;
		op.a = ev->value;
		e->l->nice = (int8_t)(ev->value < -20 ? -20 :
				      ev->value > 19 ? 19 : ev->value);
		if (e->l->prio >= 100)
			e->l->prio = (int16_t)(120 + e->l->nice);
	} else {
		op.kind = SR_OP_SETSCHED;
		op.a = ev->value;
		op.b = ev->prio > 0 ? ev->prio : 0;
		e->l->prio = (int16_t)(op.a == SR_SCHED_FIFO ||
				       op.a == SR_SCHED_RR ?
				       99 - (op.b > 99 ? 99 : op.b) :
				       120 + e->l->nice);
	}
	return emit_at(dm, e, ev->ts, &op);
}

/*
 * The trace charges CPU: from now on every fair task's CPU is its
 * charges, as `stats` counts it (docs/replay.md); what the running ones
 * ran so far stays counted.
 */
static void charges_begin(struct sr_demand *dm, int64_t ts)
{
	dm->charges = true;
	for (size_t i = 0; i < dm->ne; i++) {
		struct ent *e = &dm->e[i];

		if (!e->l || e->l->charged || e->state == R_UNSEEN ||
		    !fair(e))
			continue;
		checkpoint(e, ts);
		e->l->charged = 1;
		e->l->pcharged = 0;
		e->l->mark = ts;
	}
}

/* CPU a task used where the trace does not show it running. */
static int credit(struct sr_demand *dm, struct ent *e, int64_t ts, int64_t v)
{
	int rc;

	if (v <= 0 || (e->state != R_RUNNABLE && e->state != R_BLOCKED))
		return SR_OK;
	e->left = 0; /* it ran: it had left runnable */
	if (e->state == R_BLOCKED) {
		/* its wakeup is missing too: woken when the charge began */
		const struct sr_op *bop = op_at(e, e->l->block_op);
		int64_t w = ts - v;

		if (bop && w < bop->a)
			w = bop->a;
		if (w > ts)
			w = ts;
		if ((rc = resolve(dm, e, SR_BLOCK_EXTERNAL, w, SR_WS_UNKNOWN)))
			return rc;
		e->state = R_RUNNABLE;
		e->l->last_change = ts;
	}
	e->l->open_ns += v;
	e->t.cpu_ns += v;
	return SR_OK;
}

static int on_runtime(struct sr_demand *dm, const struct sr_event *ev)
{
	int err = SR_OK, rc;
	struct ent *e = ent_of(dm, ev->task, ev->ts, &err);
	struct cpu *c;

	if (err || !e)
		return err;
	if (e->state != R_RUNNING) {
		/*
		 * Charged while not running: the kernel charges a task that
		 * is current on some cpu, so events are missing.  On a cpu
		 * with no switch yet, or idle as far as we know, it is the
		 * one running there.  On a cpu another task holds, the charge
		 * was made from there for a task running elsewhere: it ran,
		 * we do not know where; its CPU counts all the same.
		 */
		c = cpu_of(dm, ev->cpu);
		if (!c)
			return SR_OK;
		if ((rc = born(dm, e, ev->ts, ev->cpu)))
			return rc;
		if (!dm->charges)
			charges_begin(dm, ev->ts);
		if (c->cur_known && c->cur != SR_TID_NONE)
			return credit(dm, e, ev->ts, ev->value);
		/* the charge says since when it has been running */
		if (!ensure_running_from(dm, e, ev->cpu, ev->ts,
					 ev->value > 0 ? ev->ts - ev->value
						       : ev->ts))
			return SR_OK;
	}
	if (!dm->charges)
		charges_begin(dm, ev->ts);
	if (ev->value <= 0)
		return SR_OK;
	if (!e->l->charged) {
		/* an RT task charged after all: from now on, its charges */
		checkpoint(e, ev->ts);
		e->l->charged = 1;
		e->l->pcharged = 0;
	}
	e->l->pcharged += ev->value;
	e->l->mark = ev->ts;
	return SR_OK;
}

static int on_other(struct sr_demand *dm, const struct sr_event *ev)
{
	return SR_OK;
}

/*
 * Where it ran is not demand (one cpu), but a task that left its cpu
 * unseen goes with its migrate: it is asleep only if its new cpu idles
 * (a wake that moves it says asleep by itself).
 */
static int on_migrate(struct sr_demand *dm, const struct sr_event *ev)
{
	uint32_t th = thread_of(dm, ev->task);

	if (th < dm->ne && dm->e[th].left && ev->target_cpu >= 0 &&
	    ev->target_cpu != dm->e[th].cpu) {
		dm->e[th].cpu = ev->target_cpu;
		dm->e[th].left = LEFT_MOVED;
	}
	return SR_OK;
}

typedef int (*ev_fn)(struct sr_demand *dm, const struct sr_event *ev);

static const ev_fn handlers[SR_EV__COUNT] = {
	[SR_EV_SWITCH] = on_switch,
	[SR_EV_WAKING] = on_wake,
	[SR_EV_WAKEUP] = on_wake,
	[SR_EV_WAKEUP_NEW] = on_wake,
	[SR_EV_FORK] = on_fork,
	[SR_EV_EXEC] = on_exec,
	[SR_EV_EXIT] = on_exit_ev,
	[SR_EV_FREE] = on_other,    /* reaped at exit (docs/replay.md) */
	[SR_EV_MIGRATE] = on_migrate,
	[SR_EV_RUNTIME] = on_runtime,
	[SR_EV_NICE] = on_attr,
	[SR_EV_SETSCHED] = on_attr,
	[SR_EV_LOST] = on_other,
};

/*
 * A handler's status rc, said: what failed said it in d (a name pcre2
 * could not decide on, ...), except the allocations that return a bare
 * SR_ENOMEM (lib/grow, lib/strpool, replay/ring and ours): out of memory.
 * Any other status unsaid is a bug.
 */
static int said(int rc, struct sr_diag *d)
{
	if (d->code != SR_OK)
		return d->code;
	if (rc == SR_ENOMEM)
		return sr_fail(d, SR_ENOMEM, "demand extraction: out of memory");
	return sr_fail(d, SR_EINTERNAL, "demand extraction: status %d from "
		       "an event handler that did not say why", rc);
}

int sr_demand_event(struct sr_demand *dm, const struct sr_event *ev,
		    struct sr_diag *d)
{
	struct cpu *c;
	int rc;

	if (dm->done)
		return sr_fail(d, SR_EINTERNAL, "demand: event after the end");
	if (dm->started && ev->ts < dm->now)
		return sr_fail(d, SR_EDATA, "line %llu: expected events in time "
			       "order, got %lld ns after %lld ns",
			       (unsigned long long)ev->line,
			       (long long)ev->ts, (long long)dm->now);
	if (!dm->started) {
		dm->started = true;
		dm->start = ev->ts;
	}
	if (dm->nshrink)
		shrink_rings(dm);
	dm->before = dm->started ? dm->now : ev->ts;
	dm->now = ev->ts;
	dm->st.events++;
	c = cpu_of(dm, ev->cpu);
	if (ev->cpu >= 0 && !c)
		return oom(d);
	if (c && !c->seen) {
		c->seen = 1;
		c->first_ts = ev->ts;
	}
	if (ev->kind >= SR_EV__COUNT)
		return sr_fail(d, SR_EINTERNAL, "demand: event kind %d",
			       ev->kind);
	dm->d = d;
	rc = handlers[ev->kind](dm, ev);
	if (!rc && dm->oom)
		rc = SR_ENOMEM;
	return rc ? said(rc, d) : SR_OK;
}

int sr_demand_finish(struct sr_demand *dm, int64_t t_end, struct sr_diag *d)
{
	int rc;

	dm->d = d;
	if (dm->done)
		return SR_OK;
	if (!dm->started || t_end < dm->now)
		t_end = dm->now;
	dm->now = t_end;
	for (size_t i = 0; i < dm->ne; i++) {
		struct ent *e = &dm->e[i];

		if (!e->known || !e->included)
			continue;
		if ((rc = close_program(dm, e, t_end, R_DEAD)))
			return said(rc, d);
	}
	dm->done = true;
	return SR_OK;
}

bool sr_demand_done(const struct sr_demand *dm)
{
	return dm->done;
}

int64_t sr_demand_now(const struct sr_demand *dm)
{
	return dm->now;
}

int64_t sr_demand_start(const struct sr_demand *dm)
{
	return dm->start;
}

bool sr_demand_started(const struct sr_demand *dm)
{
	return dm->started;
}

size_t sr_demand_ntasks(const struct sr_demand *dm)
{
	return dm->ne;
}

const struct sr_dtask *sr_demand_task(const struct sr_demand *dm,
				      uint32_t id)
{
	const struct ent *e;

	if (id >= dm->ne)
		return NULL;
	e = &dm->e[id];
	if (!e->known || !e->ever || e->state == R_UNSEEN)
		return NULL;
	return &e->t;
}

int64_t sr_demand_open(const struct sr_demand *dm, uint32_t task)
{
	const struct ent *e;

	if (task >= dm->ne)
		return 0;
	e = &dm->e[task];
	if (!e->l)
		return 0;
	if (e->state == R_RUNNING)
		return e->l->open_ns + (run_known(e, dm->now) - e->l->pacc);
	return e->l->open_ns;
}

bool sr_demand_included(const struct sr_demand *dm, uint32_t id)
{
	return id < dm->ne && dm->e[id].known && dm->e[id].ever;
}

size_t sr_demand_left_out(const struct sr_demand *dm)
{
	size_t n = 0;

	for (size_t i = 0; i < dm->ne; i++)
		n += dm->e[i].known && !dm->e[i].ever;
	return n;
}

int32_t sr_demand_last_pid(const struct sr_demand *dm, uint32_t id)
{
	const struct sr_task *r;

	if (id >= dm->ne || !dm->e[id].known)
		return -1;
	r = rec_of(dm, dm->e[id].last_rec);
	return r ? r->pid : -1;
}

const char *sr_demand_last_comm(const struct sr_demand *dm, uint32_t id)
{
	if (id >= dm->ne || !dm->e[id].known)
		return "";
	return sr_demand_comm(dm, dm->e[id].comm);
}

void sr_demand_stats(const struct sr_demand *dm, struct sr_demand_stats *st)
{
	*st = dm->st;
}

/* ---- synthetic programs (demand.h, replay/synth.h) ----------------------- */

/* The demand's "now" while a generator writes the programs: later than
   any time a run reaches, so the simulators never wait for input. */
#define SYNTH_NOW (INT64_MAX / 4)

int sr_demand_synth_start(struct sr_demand *dm, int64_t t0)
{
	if (dm->started)
		return SR_EINTERNAL;
	dm->started = true;
	dm->start = t0;
	dm->before = dm->now = SYNTH_NOW;
	return SR_OK;
}

int sr_demand_synth_task(struct sr_demand *dm, uint32_t id, uint32_t parent,
			 int64_t ts, int32_t cpu, struct sr_diag *d)
{
	const struct sr_task *r = rec_of(dm, id);
	struct ent *e, *p = NULL;
	int err = SR_OK;

	if (!dm->started || dm->done || !r || r->is_idle ||
	    (id < dm->ne && dm->e[id].known))
		return sr_fail(d, SR_EINTERNAL, "demand: synthetic task %u "
			       "made twice or unknown", id);
	if (parent != SR_TID_NONE) {
		if (parent >= dm->ne || !dm->e[parent].l ||
		    dm->e[parent].state == R_UNSEEN)
			return sr_fail(d, SR_EINTERNAL, "demand: synthetic "
				       "task %u forked by no task", id);
	}
	dm->st.events++;
	e = ent_of(dm, id, ts, &err);
	if (!e)
		return err ? oom(d) : sr_fail(d, SR_EINTERNAL,
					      "demand: synthetic task %u left "
					      "out", id);
	if (parent != SR_TID_NONE)
		p = &dm->e[parent];
	if (birth(dm, e, ts, p, cpu < 0 ? 0 : cpu))
		return oom(d);
	return SR_OK;
}

int sr_demand_synth_op(struct sr_demand *dm, uint32_t id,
		       const struct sr_op *in, struct sr_diag *d)
{
	struct sr_op op = *in;
	struct ent *e;

	if (id >= dm->ne || !dm->e[id].l || dm->e[id].state == R_UNSEEN ||
	    dm->e[id].state == R_DEAD || dm->done)
		return sr_fail(d, SR_EINTERNAL, "demand: an op for synthetic "
			       "task %u, not running", id);
	e = &dm->e[id];
	if (dm->nshrink)
		shrink_rings(dm);
	dm->st.events++;
	switch (op.kind) {
	case SR_OP_RUN:
		if (op.a <= 0)
			return sr_fail(d, SR_EINTERNAL, "demand: a synthetic "
				       "run of %lld ns", (long long)op.a);
		e->t.cpu_ns += op.a;
		e->t.bursts++;
		break;
	case SR_OP_BLOCK:
		if (op.end != SR_BLOCK_CAUSAL && op.end != SR_BLOCK_EXTERNAL)
			return sr_fail(d, SR_EINTERNAL, "demand: a synthetic "
				       "block must end");
		op.task = e->l->nblocks++;
		op.seq = dm->st.events;
		e->t.blocks++;
		if (op.end == SR_BLOCK_CAUSAL)
			dm->st.causal_wakes++;
		else
			dm->st.external_wakes++;
		break;
	case SR_OP_EXIT:
		e->state = R_DEAD;
		break;
	case SR_OP_FORK:
		if (op.task >= dm->ne || dm->e[op.task].t.parent != id ||
		    !dm->e[op.task].t.forked)
			return sr_fail(d, SR_EINTERNAL, "demand: a synthetic "
				       "fork of a task not made for it");
		break;
	case SR_OP_WAKE:
	case SR_OP_NICE:
	case SR_OP_SETSCHED:
		break;
	default:
		return sr_fail(d, SR_EINTERNAL, "demand: synthetic op %s",
			       sr_op_kind_name((enum sr_op_kind)op.kind));
	}
	if (emit(dm, e, &op))
		return oom(d);
	return SR_OK;
}

uint32_t sr_demand_synth_blocks(const struct sr_demand *dm, uint32_t id)
{
	return id < dm->ne && dm->e[id].l ? dm->e[id].l->nblocks : 0;
}

void sr_demand_synth_end(struct sr_demand *dm, int64_t t_end)
{
	dm->before = dm->now = t_end;
	dm->done = true;
}
