/*
 * test-taskgroups: the group each task is put in (replay/taskgroups.h),
 * from hand-made births, with and without a recording's context.  The
 * expected groups follow from the rules in taskgroups.h, written beside
 * each case; the shares from the kernel's conversions:
 *  - an autogroup of nice n weighs sched_prio_to_weight[n + 20]: nice 5
 *    is 335, nice -3 is 1991;
 *  - a cgroup of cpu.weight w weighs round(w * 1024 / 100): 50 -> 512,
 *    300 -> 3072, 1 -> 10 (10.24 rounded), 7 -> 72 (71.68 rounded up),
 *    10000 -> 102400.
 */
#include <stdlib.h>

#include "parse/context.h"
#include "replay/taskgroups.h"
#include "tests/lib/test.h"

static const struct sm_group *born(struct sr_taskgroups *g, uint32_t id,
				   uint32_t parent, int32_t pid, int32_t tgid,
				   bool kthread)
{
	const struct sm_group *grp = (const void *)1;
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_tg_task t = { id, parent, pid, tgid, kthread, 1000 };

	CHECK_INT(sr_taskgroups_assign(g, &t, &grp, &d), SR_OK);
	return grp;
}

/*
 * No context: a kernel thread is in the root; tasks alive at the start
 * (no parent) each in their process's group, shared by its threads; a
 * forked task in its parent's group, whatever its own tgid; a kthread's
 * child that is a user task in the root with its parent.
 */
static void test_inferred(void)
{
	struct sr_taskgroups *g;
	struct sr_diag d = SR_DIAG_INIT;
	const struct sm_group *kt, *a, *a2, *b, *c, *um;

	CHECK_INT(sr_taskgroups_new(&g, SR_GROUPS_AUTO, NULL, &d), SR_OK);
	kt = born(g, 0, SR_TID_NONE, 2, 2, true);
	a = born(g, 1, SR_TID_NONE, 100, 100, false);
	a2 = born(g, 2, SR_TID_NONE, 101, 100, false);  /* a thread of 100 */
	b = born(g, 3, SR_TID_NONE, 200, 200, false);
	c = born(g, 4, 1, 300, 300, false);             /* 100 forked it */
	um = born(g, 5, 0, 400, 400, false);            /* kthreadd's child */
	CHECK(kt == NULL);
	CHECK(a != NULL && a2 == a);
	CHECK(b != NULL && b != a);
	CHECK(c == a);
	CHECK(um == NULL);
	CHECK_INT(sr_taskgroups_count(g), 2);
	CHECK_INT(a->id, 1);
	CHECK_INT(b->id, 2);
	CHECK_INT(a->depth, 1);
	CHECK(a->parent == NULL);
	CHECK_INT(a->shares, 1024);
	CHECK_STR(sr_taskgroups_name(g, a), "process 100");
	CHECK_STR(sr_taskgroups_name(g, NULL), "root");
	CHECK_INT(sr_taskgroups_origin(g, b), SR_GROUP_PROCESS);
	CHECK(sr_taskgroups_of(g, 4) == a);
	CHECK(sr_taskgroups_of(g, 0) == NULL);
	CHECK(sr_taskgroups_of(g, 99) == NULL);
	/* assigned once: a second birth keeps the first group */
	CHECK(born(g, 3, 1, 200, 200, false) == b);
	CHECK_INT(sr_taskgroups_inferred(g), 5);
	CHECK_INT(sr_taskgroups_from_context(g), 0);
	sr_taskgroups_free(g);

	/* none: everything in the root, no group made */
	CHECK_INT(sr_taskgroups_new(&g, SR_GROUPS_NONE, NULL, &d), SR_OK);
	CHECK(born(g, 1, SR_TID_NONE, 100, 100, false) == NULL);
	CHECK(born(g, 2, 1, 101, 101, false) == NULL);
	CHECK_INT(sr_taskgroups_count(g), 0);
	sr_taskgroups_free(g);
}

static void ctx_task(struct sr_context *c, int32_t pid, int64_t ag,
		     int32_t agnice, uint32_t cg, uint32_t has)
{
	struct sr_ctx_task *t = &c->task[c->ntask++];

	*t = (struct sr_ctx_task){ .ts = INT64_MIN, .pid = pid, .tgid = pid,
				   .sid = -1, .autogroup = ag,
				   .autogroup_nice = agnice, .cgroup = cg,
				   .has = has };
}

/*
 * A context with autogroup on: pid 100 and 101 in autogroup 7 (nice 5:
 * 335), 102 in autogroup 0 (the root), 103 in autogroup 9 (nice -3:
 * 1991); 104 in cgroup /a/b (weight 300: 3072) under /a (weight 50: 512),
 * 105 in cgroup /a; 106 in cgroup / (the root cgroup: its autogroup 7
 * applies); 107 in a cgroup whose weight is unknown (the cpu controller
 * does not group it: its autogroup 9); 108 not in the context: inferred
 * from its parent 104 (/a/b); 109 a kernel thread the context puts in
 * autogroup 7: the root all the same.
 */
static void test_context(void)
{
	struct sr_context *c = sr_context_new();
	struct sr_taskgroups *g;
	struct sr_diag d = SR_DIAG_INIT;
	const struct sm_group *g7, *g7b, *root, *g9, *ab, *a, *r106, *r107;
	const struct sm_group *r108, *r109;
	uint32_t A = SR_CTX_AUTOGROUP, C = SR_CTX_CGROUP | SR_CTX_AUTOGROUP;

	CHECK(c != NULL);
	c->autogroup = 1;
	c->task = calloc(16, sizeof(*c->task));
	c->cgroup = calloc(4, sizeof(*c->cgroup));
	CHECK(c->task && c->cgroup);
	c->cgroup[0] = (struct sr_ctx_cgroup){ strdup("/a/b"), 300 };
	c->cgroup[1] = (struct sr_ctx_cgroup){ strdup("/a"), 50 };
	c->cgroup[2] = (struct sr_ctx_cgroup){ strdup("/"), 100 };
	c->cgroup[3] = (struct sr_ctx_cgroup){ strdup("/x"), -1 };
	c->ncgroup = 4;
	ctx_task(c, 100, 7, 5, UINT32_MAX, A);
	ctx_task(c, 101, 7, 5, UINT32_MAX, A);
	ctx_task(c, 102, 0, 0, UINT32_MAX, A);
	ctx_task(c, 103, 9, -3, UINT32_MAX, A);
	ctx_task(c, 104, 7, 0, 0, C);
	ctx_task(c, 105, 7, 0, 1, C);
	ctx_task(c, 106, 7, 5, 2, C);
	ctx_task(c, 107, 9, -3, 3, C);
	ctx_task(c, 109, 7, 5, UINT32_MAX, A);
	CHECK_INT(sr_context_done(c), 0);

	CHECK_INT(sr_taskgroups_new(&g, SR_GROUPS_AUTO, c, &d), SR_OK);
	g7 = born(g, 0, SR_TID_NONE, 100, 100, false);
	g7b = born(g, 1, SR_TID_NONE, 101, 101, false);
	root = born(g, 2, SR_TID_NONE, 102, 102, false);
	g9 = born(g, 3, SR_TID_NONE, 103, 103, false);
	ab = born(g, 4, SR_TID_NONE, 104, 104, false);
	a = born(g, 5, SR_TID_NONE, 105, 105, false);
	r106 = born(g, 6, SR_TID_NONE, 106, 106, false);
	r107 = born(g, 7, SR_TID_NONE, 107, 107, false);
	r108 = born(g, 8, 4, 108, 108, false);
	r109 = born(g, 9, SR_TID_NONE, 109, 109, true);
	CHECK(g7 != NULL && g7b == g7);
	CHECK_INT(g7->shares, 335);
	CHECK_STR(sr_taskgroups_name(g, g7), "autogroup-7");
	CHECK_INT(sr_taskgroups_origin(g, g7), SR_GROUP_AUTOGROUP);
	CHECK(root == NULL);
	CHECK(g9 != NULL && g9 != g7);
	CHECK_INT(g9->shares, 1991);
	CHECK(ab != NULL && a != NULL && ab->parent == a);
	CHECK_INT(ab->depth, 2);
	CHECK_INT(a->depth, 1);
	CHECK_INT(ab->shares, 3072);
	CHECK_INT(a->shares, 512);
	CHECK_STR(sr_taskgroups_name(g, ab), "/a/b");
	CHECK_INT(sr_taskgroups_origin(g, a), SR_GROUP_CGROUP);
	CHECK(r106 == g7);
	CHECK(r107 == g9);
	CHECK(r108 == ab);
	CHECK(r109 == NULL);
	CHECK_INT(sr_taskgroups_from_context(g), 8);
	CHECK_INT(sr_taskgroups_inferred(g), 1);
	sr_taskgroups_free(g);

	/* autogroup off: the root unless a cgroup says */
	c->autogroup = 0;
	CHECK_INT(sr_taskgroups_new(&g, SR_GROUPS_AUTO, c, &d), SR_OK);
	CHECK(born(g, 0, SR_TID_NONE, 100, 100, false) == NULL);
	CHECK(born(g, 1, SR_TID_NONE, 104, 104, false) != NULL);
	sr_taskgroups_free(g);
	sr_context_free(c);
}

/* cpu.weight's extremes: 1 -> 10, 10000 -> 102400; 7 -> 72, rounded */
static void test_weights(void)
{
	struct sr_context *c = sr_context_new();
	struct sr_taskgroups *g;
	struct sr_diag d = SR_DIAG_INIT;
	const struct sm_group *lo, *hi, *up;

	c->task = calloc(3, sizeof(*c->task));
	c->cgroup = calloc(3, sizeof(*c->cgroup));
	c->cgroup[0] = (struct sr_ctx_cgroup){ strdup("/lo"), 1 };
	c->cgroup[1] = (struct sr_ctx_cgroup){ strdup("/hi"), 10000 };
	c->cgroup[2] = (struct sr_ctx_cgroup){ strdup("/up"), 7 };
	c->ncgroup = 3;
	ctx_task(c, 10, -1, 0, 0, SR_CTX_CGROUP);
	ctx_task(c, 11, -1, 0, 1, SR_CTX_CGROUP);
	ctx_task(c, 12, -1, 0, 2, SR_CTX_CGROUP);
	CHECK_INT(sr_context_done(c), 0);
	CHECK_INT(sr_taskgroups_new(&g, SR_GROUPS_AUTO, c, &d), SR_OK);
	lo = born(g, 0, SR_TID_NONE, 10, 10, false);
	hi = born(g, 1, SR_TID_NONE, 11, 11, false);
	up = born(g, 2, SR_TID_NONE, 12, 12, false);
	CHECK(lo && hi && up);
	CHECK_INT(up ? up->shares : 0, 72);
	CHECK_INT(lo ? lo->shares : 0, 10);
	CHECK_INT(hi ? hi->shares : 0, 102400);
	sr_taskgroups_free(g);
	sr_context_free(c);
}

int main(void)
{
	test_inferred();
	test_context();
	test_weights();
	return test_done("test-taskgroups");
}
