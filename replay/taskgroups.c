/*
 * taskgroups: the group of each task, from the recording's context or
 * inferred (taskgroups.h says the rules).  The groups live in chunks
 * that never move, so the struct sm_group pointers the policies keep stay
 * valid for the run; a small hash finds a group by its key (an autogroup
 * number, a process) and a list by its path (a cgroup).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "replay/taskgroups.h"

const char *const sr_group_mode_names[] = { "auto", "none", NULL };

#define CHUNK 64
#define NICE_0_SHARES 1024UL
#define CGROUP_WEIGHT_DFL 100

/* the kernel's sched_prio_to_weight[], nice -20 .. 19 (an autogroup's
   nice gives its shares so) */
static const unsigned long prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
	110, 87, 70, 56, 45, 36, 29, 23, 18, 15,
};

struct node {
	struct sm_group g;
	uint8_t origin;      /* enum sr_group_origin */
	char *name;
};

enum key_kind { K_AUTOGROUP = 1, K_PROCESS = 2 };

struct sr_taskgroups {
	enum sr_group_mode mode;
	const struct sr_context *ctx;
	struct node **chunk;        /* group id i is chunk[(i-1)/CHUNK] */
	size_t nchunk, capchunk, n;
	/* key -> id, open addressing (0: empty) */
	uint64_t *hkey;
	uint32_t *hval;
	size_t hcap, hn;
	/* by task id: its group id, 0 the root; UINT32_MAX not assigned */
	uint32_t *of;
	size_t nof;
	size_t from_ctx, inferred;
};

static struct node *node_of(const struct sr_taskgroups *g, uint32_t id)
{
	if (id < 1 || id > g->n)
		return NULL;
	return &g->chunk[(id - 1) / CHUNK][(id - 1) % CHUNK];
}

int sr_taskgroups_new(struct sr_taskgroups **out, enum sr_group_mode mode,
		      const struct sr_context *ctx, struct sr_diag *d)
{
	struct sr_taskgroups *g = calloc(1, sizeof(*g));

	*out = NULL;
	if (!g)
		return sr_oom(d);
	g->mode = mode;
	g->ctx = ctx;
	*out = g;
	return SR_OK;
}

void sr_taskgroups_free(struct sr_taskgroups *g)
{
	if (!g)
		return;
	for (uint32_t i = 1; i <= g->n; i++)
		free(node_of(g, i)->name);
	for (size_t i = 0; i < g->nchunk; i++)
		free(g->chunk[i]);
	free(g->chunk);
	free(g->hkey);
	free(g->hval);
	free(g->of);
	free(g);
}

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static uint32_t hget(const struct sr_taskgroups *g, uint64_t key)
{
	if (!g->hcap)
		return 0;
	for (size_t i = mix(key) & (g->hcap - 1);; i = (i + 1) & (g->hcap - 1)) {
		if (!g->hkey[i])
			return 0;
		if (g->hkey[i] == key)
			return g->hval[i];
	}
}

static int hput(struct sr_taskgroups *g, uint64_t key, uint32_t val)
{
	if (2 * (g->hn + 1) > g->hcap) {
		size_t cap = g->hcap ? 2 * g->hcap : 64;
		uint64_t *k = calloc(cap, sizeof(*k));
		uint32_t *v = calloc(cap, sizeof(*v));

		if (!k || !v) {
			free(k);
			free(v);
			return -1;
		}
		for (size_t i = 0; i < g->hcap; i++) {
			size_t j;

			if (!g->hkey[i])
				continue;
			for (j = mix(g->hkey[i]) & (cap - 1); k[j];
			     j = (j + 1) & (cap - 1))
				;
			k[j] = g->hkey[i];
			v[j] = g->hval[i];
		}
		free(g->hkey);
		free(g->hval);
		g->hkey = k;
		g->hval = v;
		g->hcap = cap;
	}
	{
		size_t i;

		for (i = mix(key) & (g->hcap - 1); g->hkey[i];
		     i = (i + 1) & (g->hcap - 1))
			;
		g->hkey[i] = key;
		g->hval[i] = val;
		g->hn++;
	}
	return 0;
}

static uint64_t key_of(enum key_kind k, uint64_t v)
{
	return ((uint64_t)k << 56) | (v & ((1ULL << 56) - 1));
}

/* A new group under parent (0: the root); 0 when out of memory. */
static uint32_t group_new(struct sr_taskgroups *g, uint32_t parent,
			  unsigned long shares, enum sr_group_origin origin,
			  const char *name)
{
	struct node *x;
	const struct node *p = node_of(g, parent);

	if (g->n == (size_t)g->nchunk * CHUNK) {
		struct node **c = sr_grow(g->chunk, &g->capchunk, g->nchunk,
					  sizeof(*c), 8, 0);

		if (!c)
			return 0;
		g->chunk = c;
		if (!(g->chunk[g->nchunk] = calloc(CHUNK, sizeof(struct node))))
			return 0;
		g->nchunk++;
	}
	x = &g->chunk[g->n / CHUNK][g->n % CHUNK];
	if (!(x->name = strdup(name)))
		return 0;
	g->n++;
	x->g.id = (uint32_t)g->n;
	x->g.parent = p ? &p->g : NULL;
	x->g.depth = p ? p->g.depth + 1 : 1;
	x->g.shares = shares;
	x->origin = (uint8_t)origin;
	return x->g.id;
}

/* The group keyed so, made when first asked for; 0 out of memory. */
static uint32_t keyed(struct sr_taskgroups *g, uint64_t key,
		      unsigned long shares, enum sr_group_origin origin,
		      const char *name)
{
	uint32_t id = hget(g, key);

	if (id)
		return id;
	id = group_new(g, 0, shares, origin, name);
	if (id && hput(g, key, id))
		return 0;
	return id;
}

/* cpu.weight 1..10000 as shares (sched_weight_from_cgroup: rounded) */
static unsigned long cgroup_shares(int32_t weight)
{
	return (unsigned long)(((uint64_t)weight * NICE_0_SHARES +
				CGROUP_WEIGHT_DFL / 2) / CGROUP_WEIGHT_DFL);
}

/* The group of cgroup path (len bytes), its ancestors made first with
   the weight the context gives them (else the default); 0: out of
   memory, *root: the path is the root cgroup. */
static uint32_t cgroup_group(struct sr_taskgroups *g, const char *path,
			     size_t len, bool *root)
{
	const struct sr_context *c = g->ctx;
	uint32_t parent = 0, id;
	int32_t weight = CGROUP_WEIGHT_DFL;
	size_t cut;
	char *name;

	while (len > 1 && path[len - 1] == '/')
		len--;
	*root = len == 0 || (len == 1 && path[0] == '/');
	if (*root)
		return 0;
	for (uint32_t i = 1; i <= g->n; i++) {
		const struct node *x = node_of(g, i);

		if (x->origin == SR_GROUP_CGROUP && strlen(x->name) == len &&
		    !memcmp(x->name, path, len))
			return i;
	}
	for (cut = len; cut > 0 && path[cut - 1] != '/'; cut--)
		;
	if (cut > 1) {
		bool r;

		parent = cgroup_group(g, path, cut - 1, &r);
		if (!parent && !r)
			return 0;
	}
	for (size_t i = 0; i < c->ncgroup; i++)
		if (c->cgroup[i].path && strlen(c->cgroup[i].path) == len &&
		    !memcmp(c->cgroup[i].path, path, len) &&
		    c->cgroup[i].weight > 0)
			weight = c->cgroup[i].weight;
	if (!(name = strndup(path, len)))
		return 0;
	id = group_new(g, parent, cgroup_shares(weight), SR_GROUP_CGROUP,
		       name);
	free(name);
	return id;
}

/*
 * From the context: *id the group (0 root) and true, or false when the
 * context does not say.  *oom on out of memory.
 */
static bool from_context(struct sr_taskgroups *g, const struct sr_tg_task *t,
			 uint32_t *id, bool *oom)
{
	const struct sr_context *c = g->ctx;
	const struct sr_ctx_task *k = c ? sr_context_task(c, t->pid, t->ts)
				       : NULL;

	*oom = false;
	if (!k)
		return false;
	if (k->has & SR_CTX_CGROUP && k->cgroup < c->ncgroup &&
	    c->cgroup[k->cgroup].path && c->cgroup[k->cgroup].weight > 0) {
		const char *p = c->cgroup[k->cgroup].path;
		bool root;

		*id = cgroup_group(g, p, strlen(p), &root);
		if (!root) {
			*oom = !*id;
			return true;
		}
	}
	if (c->autogroup == 0) {
		*id = 0;
		return true;
	}
	if (c->autogroup == 1 && (k->has & SR_CTX_AUTOGROUP) &&
	    k->autogroup >= 0) {
		char name[40];
		int nice = k->autogroup_nice < -20 ? -20 :
			   k->autogroup_nice > 19 ? 19 : k->autogroup_nice;

		if (k->autogroup == 0) {
			*id = 0;
			return true;
		}
		snprintf(name, sizeof(name), "autogroup-%lld",
			 (long long)k->autogroup);
		*id = keyed(g, key_of(K_AUTOGROUP, (uint64_t)k->autogroup),
			    prio_to_weight[nice + 20], SR_GROUP_AUTOGROUP,
			    name);
		*oom = !*id;
		return true;
	}
	return false;
}

int sr_taskgroups_assign(struct sr_taskgroups *g, const struct sr_tg_task *t,
			 const struct sm_group **out, struct sr_diag *d)
{
	uint32_t id = 0;
	bool oom = false;

	*out = NULL;
	if (t->id >= g->nof) {
		uint32_t *v = sr_grow(g->of, &g->nof, t->id, sizeof(*v), 256,
				      0xff);

		if (!v)
			return sr_oom(d);
		g->of = v;
	}
	if (g->of[t->id] != UINT32_MAX) {
		*out = g->of[t->id] ? &node_of(g, g->of[t->id])->g : NULL;
		return SR_OK;
	}
	if (g->mode == SR_GROUPS_NONE || t->kthread) {
		id = 0;
	} else if (from_context(g, t, &id, &oom)) {
		g->from_ctx++;
	} else if (!oom) {
		g->inferred++;
		if (t->parent != SR_TID_NONE && t->parent < g->nof &&
		    g->of[t->parent] != UINT32_MAX) {
			id = g->of[t->parent];
		} else {
			char name[40];
			int32_t tgid = t->tgid > 0 ? t->tgid : t->pid;

			snprintf(name, sizeof(name), "process %d", (int)tgid);
			id = keyed(g, key_of(K_PROCESS, (uint32_t)tgid),
				   NICE_0_SHARES, SR_GROUP_PROCESS, name);
			oom = !id;
		}
	}
	if (oom)
		return sr_oom(d);
	g->of[t->id] = id;
	*out = id ? &node_of(g, id)->g : NULL;
	return SR_OK;
}

const struct sm_group *sr_taskgroups_of(const struct sr_taskgroups *g,
					uint32_t id)
{
	if (!g || id >= g->nof || g->of[id] == UINT32_MAX || !g->of[id])
		return NULL;
	return &node_of(g, g->of[id])->g;
}

size_t sr_taskgroups_count(const struct sr_taskgroups *g)
{
	return g ? g->n : 0;
}

const struct sm_group *sr_taskgroups_get(const struct sr_taskgroups *g,
					 uint32_t id)
{
	const struct node *x = g ? node_of(g, id) : NULL;

	return x ? &x->g : NULL;
}

enum sr_group_origin sr_taskgroups_origin(const struct sr_taskgroups *g,
					  const struct sm_group *grp)
{
	const struct node *x = grp ? node_of(g, grp->id) : NULL;

	return x ? (enum sr_group_origin)x->origin : SR_GROUP_PROCESS;
}

const char *sr_taskgroups_name(const struct sr_taskgroups *g,
			       const struct sm_group *grp)
{
	const struct node *x = grp ? node_of(g, grp->id) : NULL;

	return x ? x->name : "root";
}

size_t sr_taskgroups_from_context(const struct sr_taskgroups *g)
{
	return g ? g->from_ctx : 0;
}

size_t sr_taskgroups_inferred(const struct sr_taskgroups *g)
{
	return g ? g->inferred : 0;
}
