/*
 * tree: the tasks of one process tree, from the trace's task table (see
 * tree.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compare/tree.h"
#include "parse/reader.h"

enum { T_UNKNOWN, T_IN, T_OUT };

struct rec_key {
	int32_t pid;
	const char *comm;
	sr_tid id;
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
static int in_tree(const struct sr_tasks *tt, sr_tid root_thread, sr_tid id,
		   unsigned char *st, sr_tid *stack)
{
	size_t depth = 0, n = sr_tasks_count(tt);
	int verdict;

	for (;;) {
		const struct sr_task *t = sr_tasks_get(tt, id);
		sr_tid base = t ? t->thread : SR_TID_NONE;
		const struct sr_task *b = base < n ? sr_tasks_get(tt, base) : NULL;

		if (st[id] != T_UNKNOWN) {
			verdict = st[id];
			break;
		}
		if (base == root_thread) {
			verdict = T_IN;
			break;
		}
		if (!b || b->parent == SR_TID_NONE || b->parent >= n ||
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

int cmp_tree_mark(struct cmp_set *s, const char *trace,
		 const struct cmp_taskre *root, size_t *nmarked,
		 struct sr_diag *d)
{
	struct sr_read_opts ro = { 0 };
	struct sr_reader *r;
	struct sr_event ev;
	const struct sr_tasks *tt;
	unsigned char *st = NULL;
	sr_tid *stack = NULL, root_thread = SR_TID_NONE;
	uint32_t *occ = NULL;
	struct rec_key *keys = NULL;
	size_t n;
	int rc;

	*nmarked = 0;
	if (sr_reader_open(&r, trace, &ro, d))
		return d->code;
	/*
	 * The root is the first task whose comm matches as the events name
	 * it: a comm can change without an exec (perf-exec becomes the
	 * recorded command's name), and the table keeps only the last one.
	 */
	tt = sr_reader_tasks(r);
	while ((rc = sr_reader_next(r, &ev, d)) == 1) {
		sr_tid ids[3] = { ev.task, ev.other, ev.waker };

		if (root_thread != SR_TID_NONE)
			continue;
		for (int k = 0; k < 3; k++) {
			const struct sr_task *t;

			if (ids[k] == SR_TID_NONE ||
			    !(t = sr_tasks_get(tt, ids[k])) || t->is_idle)
				continue;
			if (cmp_taskre_match(root, t->comm)) {
				root_thread = t->thread;
				break;
			}
		}
	}
	if (rc < 0) {
		sr_reader_close(r);
		return d->code;
	}
	n = sr_tasks_count(tt);
	if (root_thread == SR_TID_NONE) {
		sr_reader_close(r);
		return sr_fail(d, SR_EUSAGE,
			       "--tree: no task of %s has a comm matching the regex",
			       trace);
	}
	st = calloc(n + 1, 1);
	stack = malloc((n + 1) * sizeof(*stack));
	occ = calloc(n + 1, sizeof(*occ));
	keys = malloc((n + 1) * sizeof(*keys));
	if (!st || !stack || !occ || !keys) {
		rc = sr_fail(d, SR_EINTERNAL, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < s->ntasks; i++)
		s->tasks[i].in_focus = false;
	s->focus = true;
	/*
	 * Name each record as the replay does, (pid, comm, occ): occ counts
	 * the earlier records with the same pid and comm, in id order (the
	 * order of appearance).  Sorting by (pid, comm, id) puts them in runs.
	 */
	for (size_t i = 0; i < n; i++) {
		const struct sr_task *t = sr_tasks_get(tt, (sr_tid)i);

		keys[i].pid = t->pid;
		keys[i].comm = t->comm;
		keys[i].id = (sr_tid)i;
	}
	qsort(keys, n, sizeof(*keys), cmp_key);
	for (size_t i = 0; i < n; i++) {
		bool same = i && keys[i].pid == keys[i - 1].pid &&
			    !strcmp(keys[i].comm, keys[i - 1].comm);

		occ[keys[i].id] = same ? occ[keys[i - 1].id] + 1 : 1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct sr_task *t = sr_tasks_get(tt, (sr_tid)i);
		long idx;

		if (t->is_idle ||
		    in_tree(tt, root_thread, (sr_tid)i, st, stack) != T_IN)
			continue;
		idx = cmp_set_find(s, t->pid, t->comm, occ[i]);
		if (idx >= 0 && !s->tasks[idx].in_focus) {
			s->tasks[idx].in_focus = true;
			(*nmarked)++;
		}
	}
	rc = SR_OK;
out:
	free(st);
	free(stack);
	free(occ);
	free(keys);
	sr_reader_close(r);
	return rc;
}
