/*
 * tree: the tasks of one process tree, from the trace's task table (see
 * tree.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/qsort.h"
#include "compare/tree.h"
#include "compare/tsv.h"
#include "lib/fmt.h"
#include "lib/grow.h"
#include "lib/path.h"

void cmp_procs_free(struct cmp_procs *pr)
{
	sr_strpool_free(&pr->names);
	free(pr->p);
	free(pr->seen);
	memset(pr, 0, sizeof(*pr));
}

/* Record id (pid, comm, ...); comm as the replay's files write it. */
static int add_proc(struct cmp_procs *pr, size_t id, int32_t pid,
		    const char *comm, uint32_t thread, uint32_t parent,
		    bool idle)
{
	struct cmp_proc *p;
	char buf[SR_COMM_MAX];

	if (id >= pr->cap) {
		p = sr_grow(pr->p, &pr->cap, id, sizeof(*p), 256, 0);
		if (!p)
			return SR_ENOMEM;
		pr->p = p;
	}
	p = &pr->p[id];
	p->pid = pid;
	p->thread = thread;
	p->parent = parent;
	p->idle = idle;
	if (id >= pr->n)
		pr->n = id + 1;
	return sr_strpool_add(&pr->names, sr_comm_clean(buf, sizeof(buf), comm),
			      &p->comm);
}

static int add_seen(struct cmp_procs *pr, uint32_t id, const char *comm)
{
	char buf[SR_COMM_MAX];

	if (pr->nseen == pr->capseen) {
		struct cmp_seen *v = sr_grow(pr->seen, &pr->capseen, pr->nseen,
					     sizeof(*v), 256, 0);

		if (!v)
			return SR_ENOMEM;
		pr->seen = v;
	}
	pr->seen[pr->nseen].id = id;
	if (sr_strpool_add(&pr->names, sr_comm_clean(buf, sizeof(buf), comm),
			   &pr->seen[pr->nseen].comm))
		return SR_ENOMEM;
	pr->nseen++;
	return SR_OK;
}

int cmp_procs_from_replay(struct cmp_procs *pr, const struct sr_replay *r,
			  struct sr_diag *d)
{
	const struct sr_tasks *tt = sr_replay_tasks(r);
	size_t n = sr_tasks_count(tt), ns = sr_replay_nseen(r);

	memset(pr, 0, sizeof(*pr));
	for (size_t i = 0; i < n; i++) {
		const struct sr_task *t = sr_tasks_get(tt, (sr_tid)i);

		if (add_proc(pr, i, t->pid, t->comm, t->thread, t->parent,
			     t->is_idle))
			return sr_oom(d);
	}
	for (size_t i = 0; i < ns; i++) {
		const char *comm;
		sr_tid id = sr_replay_seen_at(r, i, &comm);

		if (add_seen(pr, id, comm))
			return sr_oom(d);
	}
	return SR_OK;
}

/* ---- from a replay directory --------------------------------------------- */

/* A record id column: "-" is none; else below limit. */
static int id_col(struct cmp_tsv *t, size_t i, uint64_t limit, uint32_t *out,
		  struct sr_diag *d)
{
	const char *s = cmp_tsv_get(t, i);
	int64_t v;

	*out = CMP_PROC_NONE;
	if (s && !strcmp(s, "-"))
		return SR_OK;
	if (cmp_tsv_int(t, i, &v, d))
		return d->code;
	if (v < 0 || (uint64_t)v >= limit)
		return sr_fail(d, SR_EDATA, "%s:%llu: expected a task id below "
			       "%llu in column %s, got %lld", t->path,
			       (unsigned long long)t->line,
			       (unsigned long long)limit, t->cols[i].name,
			       (long long)v);
	*out = (uint32_t)v;
	return SR_OK;
}

enum { PC_ID, PC_PID, PC_THREAD, PC_PARENT, PC_IDLE, PC_COMM, PC__N };

static const struct cmp_col proc_cols[PC__N] = {
	[PC_ID] = { "id", true },
	[PC_PID] = { "pid", true },
	[PC_THREAD] = { "thread", true },
	[PC_PARENT] = { "parent", true },
	[PC_IDLE] = { "idle", true },
	[PC_COMM] = { "comm", true },
};

static const struct cmp_col seen_cols[] = { { "id", true }, { "comm", true } };

static int open_in(struct cmp_tsv *t, const char *root, const char *name,
		   const struct cmp_col *cols, size_t n, struct sr_diag *d)
{
	char *path = sr_path_join(root, name, NULL);
	struct stat st;
	int rc;

	if (!path)
		return sr_oom(d);
	if (stat(path, &st) != 0 && errno == ENOENT)
		rc = sr_fail(d, SR_ENOINPUT, "--tree: %s: missing: the trace's "
			     "tasks (a replay directory written before "
			     "schedreplay kept them); replay the trace again, "
			     "or give the trace itself", path);
	else
		rc = cmp_tsv_open(t, path, cols, n, d);
	free(path);
	return rc;
}

static int read_procs(struct cmp_procs *pr, const char *root,
		      struct sr_diag *d)
{
	struct cmp_tsv t;
	int rc;

	if (open_in(&t, root, "tasks.tsv", proc_cols, PC__N, d))
		return d->code;
	while ((rc = cmp_tsv_next(&t, d)) == 1) {
		int64_t id, pid, idle;
		uint32_t thread, parent;

		if (cmp_tsv_int(&t, PC_ID, &id, d) ||
		    cmp_tsv_int(&t, PC_PID, &pid, d) ||
		    cmp_tsv_int(&t, PC_IDLE, &idle, d))
			break;
		if (id != (int64_t)pr->n) {
			sr_fail(d, SR_EDATA, "%s:%llu: expected task id %zu (one "
				"row per task, in id order), got %lld", t.path,
				(unsigned long long)t.line, pr->n,
				(long long)id);
			break;
		}
		if (pid < INT32_MIN || pid > INT32_MAX) {
			sr_fail(d, SR_EDATA, "%s:%llu: expected a pid, got %lld",
				t.path, (unsigned long long)t.line,
				(long long)pid);
			break;
		}
		/* ids of other rows: checked where they are followed */
		if (id_col(&t, PC_THREAD, CMP_PROC_NONE, &thread, d) ||
		    id_col(&t, PC_PARENT, CMP_PROC_NONE, &parent, d))
			break;
		if (add_proc(pr, (size_t)id, (int32_t)pid,
			     cmp_tsv_get(&t, PC_COMM), thread, parent, idle != 0)) {
			sr_oom(d);
			break;
		}
	}
	cmp_tsv_close(&t);
	return rc < 0 || d->code ? d->code : SR_OK;
}

static int read_seen(struct cmp_procs *pr, const char *root,
		     struct sr_diag *d)
{
	struct cmp_tsv t;
	int rc;

	if (open_in(&t, root, "seen.tsv", seen_cols, 2, d))
		return d->code;
	while ((rc = cmp_tsv_next(&t, d)) == 1) {
		uint32_t id;

		if (id_col(&t, 0, pr->n, &id, d))
			break;
		if (add_seen(pr, id, cmp_tsv_get(&t, 1))) {
			sr_oom(d);
			break;
		}
	}
	cmp_tsv_close(&t);
	return rc < 0 || d->code ? d->code : SR_OK;
}

int cmp_procs_read(struct cmp_procs *pr, const char *root, struct sr_diag *d)
{
	memset(pr, 0, sizeof(*pr));
	if (read_procs(pr, root, d) || read_seen(pr, root, d))
		return d->code;
	return SR_OK;
}

/* ---- marking ---------------------------------------------------------------- */

enum { T_UNKNOWN, T_IN, T_OUT };

struct rec_key {
	int32_t pid;
	const char *comm;
	uint32_t id;
};

static int cmp_key(const void *pa, const void *pb)
{
	const struct rec_key *a = pa, *b = pb;
	int c;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	c = strcmp(a->comm, b->comm);
	if (c)
		return c;
	return (a->id > b->id) - (a->id < b->id);
}

/*
 * Is record id in the tree of root?  Its kernel task's first record was
 * forked by a record in the tree, or is the root's.  Iterative, memoised
 * in st[] (chains of make -> sh -> make ... can be deep).
 */
static int in_tree(const struct cmp_procs *pr, uint32_t root_thread,
		   uint32_t id, unsigned char *st, uint32_t *stack)
{
	size_t depth = 0, n = pr->n;
	int verdict;

	for (;;) {
		uint32_t base = pr->p[id].thread;
		const struct cmp_proc *b = base < n ? &pr->p[base] : NULL;

		if (st[id] != T_UNKNOWN) {
			verdict = st[id];
			break;
		}
		if (base == root_thread) {
			verdict = T_IN;
			break;
		}
		if (!b || b->parent == CMP_PROC_NONE || b->parent >= n ||
		    depth >= n) {
			verdict = T_OUT;
			break;
		}
		stack[depth++] = id;
		id = b->parent;
	}
	st[id] = (unsigned char)verdict;
	while (depth)
		st[stack[--depth]] = (unsigned char)verdict;
	return verdict;
}

/*
 * The root: the first record whose name, as the events showed it, matches
 * (a comm can change without an exec: perf-exec becomes the recorded
 * command's name, and the table keeps only the last one).
 */
static int find_root(const struct cmp_procs *pr,
		     const struct cmp_taskre *root, uint32_t *thread,
		     const char **name, struct sr_diag *d)
{
	*thread = CMP_PROC_NONE;
	for (size_t i = 0; i < pr->nseen; i++) {
		uint32_t id = pr->seen[i].id;
		const char *comm = sr_strpool_get(&pr->names, pr->seen[i].comm);
		int m;

		if (id >= pr->n || pr->p[id].idle ||
		    pr->p[id].thread == CMP_PROC_NONE)
			continue;
		m = cmp_taskre_match(root, comm, d);
		if (m < 0)
			return d->code;
		if (m) {
			if (name)
				*name = comm;
			*thread = pr->p[id].thread;
			break;
		}
	}
	return SR_OK;
}

/*
 * The set's tasks of the records: every name a record was shown under
 * (seen, and its last name) is a task of the set, named as the replay
 * names it, (pid, comm, occ): occ counts the earlier records with the
 * same pid and comm, in id order (the order of appearance).  Sorting by
 * (pid, comm, id) puts them in runs.  rec_task[id]: the task of record
 * id under its last name (else under any), -1: none.
 */
struct rec_tasks {
	struct rec_key *e;      /* (pid, comm, id), then the task in .task */
	long *task;             /* by entry */
	size_t n;
	long *rec_task;         /* by record */
};

static void rec_tasks_free(struct rec_tasks *rt)
{
	free(rt->e);
	free(rt->task);
	free(rt->rec_task);
}

static int rec_tasks_of(struct rec_tasks *rt, const struct cmp_set *s,
			const struct cmp_procs *pr)
{
	size_t n = 0, m = 0, cap = pr->n + pr->nseen + 1;
	uint32_t occ = 0;

	memset(rt, 0, sizeof(*rt));
	rt->e = malloc(cap * sizeof(*rt->e));
	rt->task = malloc(cap * sizeof(*rt->task));
	rt->rec_task = malloc((pr->n + 1) * sizeof(*rt->rec_task));
	if (!rt->e || !rt->task || !rt->rec_task) {
		rec_tasks_free(rt);
		return SR_ENOMEM;
	}
	for (size_t i = 0; i < pr->n; i++) {
		rt->rec_task[i] = -1;
		if (pr->p[i].idle)
			continue;
		rt->e[n++] = (struct rec_key){ pr->p[i].pid,
			sr_strpool_get(&pr->names, pr->p[i].comm), (uint32_t)i };
	}
	for (size_t j = 0; j < pr->nseen; j++) {
		uint32_t id = pr->seen[j].id;

		if (id >= pr->n || pr->p[id].idle)
			continue;
		rt->e[n++] = (struct rec_key){ pr->p[id].pid,
			sr_strpool_get(&pr->names, pr->seen[j].comm), id };
	}
	sr_qsort(rt->e, n, sizeof(*rt->e), cmp_key);
	for (size_t i = 0; i < n; i++) {
		const struct rec_key *k = &rt->e[i];
		bool same = m && k->pid == rt->e[m - 1].pid &&
			    !strcmp(k->comm, rt->e[m - 1].comm);

		if (same && k->id == rt->e[m - 1].id)
			continue; /* the same name of the same record */
		occ = same ? occ + 1 : 1;
		rt->e[m] = *k;
		rt->task[m] = cmp_set_find(s, k->pid, k->comm, occ);
		m++;
	}
	rt->n = m;
	for (size_t i = 0; i < m; i++) {
		uint32_t id = rt->e[i].id;
		bool last = !strcmp(rt->e[i].comm,
				    sr_strpool_get(&pr->names, pr->p[id].comm));

		if (rt->task[i] >= 0 && (rt->rec_task[id] < 0 || last))
			rt->rec_task[id] = rt->task[i];
	}
	return SR_OK;
}

/* Mark the set's tasks of root's tree: in_focus (focus) or in_cmd. */
static int mark(struct cmp_set *s, const struct cmp_procs *pr,
		uint32_t root_thread, bool focus, size_t *nmarked,
		struct sr_diag *d)
{
	unsigned char *st = calloc(pr->n + 1, 1);
	uint32_t *stack = malloc((pr->n + 1) * sizeof(*stack));
	struct rec_tasks rt = { 0 };
	int rc = SR_OK;

	*nmarked = 0;
	if (!st || !stack || rec_tasks_of(&rt, s, pr)) {
		rc = sr_oom(d);
		goto out;
	}
	for (size_t i = 0; i < s->ntasks; i++) {
		if (focus)
			s->tasks[i].in_focus = false;
		else
			s->tasks[i].in_cmd = false;
	}
	for (size_t i = 0; i < rt.n; i++) {
		struct cmp_task *t;

		if (rt.task[i] < 0 ||
		    in_tree(pr, root_thread, rt.e[i].id, st, stack) != T_IN)
			continue;
		t = &s->tasks[rt.task[i]];
		if (focus ? t->in_focus : t->in_cmd)
			continue;
		if (focus)
			t->in_focus = true;
		else
			t->in_cmd = true;
		(*nmarked)++;
	}
out:
	free(st);
	free(stack);
	rec_tasks_free(&rt);
	return rc;
}

int cmp_tree_mark(struct cmp_set *s, const struct cmp_procs *pr,
		  const char *what, const struct cmp_taskre *root,
		  size_t *nmarked, struct sr_diag *d)
{
	uint32_t root_thread;

	*nmarked = 0;
	if (find_root(pr, root, &root_thread, NULL, d))
		return d->code;
	if (root_thread == CMP_PROC_NONE)
		return sr_fail(d, SR_EUSAGE,
			       "--tree: no task of %s has a comm matching the regex",
			       what);
	if (mark(s, pr, root_thread, true, nmarked, d))
		return d->code;
	s->focus = true;
	return SR_OK;
}

int cmp_tree_mark_cmd(struct cmp_set *s, const struct cmp_procs *pr,
		      const struct cmp_taskre *root, size_t *nmarked,
		      const char **name, struct sr_diag *d)
{
	uint32_t root_thread;

	*nmarked = 0;
	if (find_root(pr, root, &root_thread, name, d))
		return d->code;
	if (root_thread == CMP_PROC_NONE)
		return SR_OK;
	return mark(s, pr, root_thread, false, nmarked, d);
}

int cmp_tree_parents(struct cmp_set *s, const struct cmp_procs *pr,
		     struct sr_diag *d)
{
	struct rec_tasks rt;

	if (rec_tasks_of(&rt, s, pr))
		return sr_oom(d);
	for (size_t i = 0; i < s->ntasks; i++)
		s->tasks[i].parent = -1;
	for (size_t i = 0; i < rt.n; i++) {
		uint32_t base = pr->p[rt.e[i].id].thread, par;
		long pt;

		if (rt.task[i] < 0 || base >= pr->n)
			continue;
		par = pr->p[base].parent;
		if (par >= pr->n || (pt = rt.rec_task[par]) < 0 ||
		    pt == rt.task[i])
			continue;
		s->tasks[rt.task[i]].parent = pt;
	}
	rec_tasks_free(&rt);
	return SR_OK;
}
