/*
 * test-ctxtext: the recording context's text form (parse/ctxtext.h).
 *
 * 1. A context with every field known is written, read back and written
 *    again: the same text, and every field as it was (checked one by one).
 * 2. Strings of any bytes survive: quotes, backslashes, blanks, newlines,
 *    tabs and other control bytes (\xHH) in a comm and a cgroup path.
 * 3. Unknown fields are not written, and read back unknown.
 * 4. Each malformed line is refused with what was expected, the file and
 *    the offset of the line (its byte offset in the buffer plus the base).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/ctxtext.h"
#include "tests/lib/test.h"

static char *to_text(const struct sr_context *c)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	CHECK(f != NULL);
	CHECK_INT(sr_ctxtext_write(f, c, ""), 0);
	fclose(f);
	return buf;
}

static struct sr_context *full(void)
{
	struct sr_context *c = sr_context_new();

	c->release = strdup("6.18.4-test");
	c->hz = 250;
	c->preempt = strdup("dynamic:none");
	c->autogroup = 1;
	c->base_slice_ns = 3000000;
	c->rt_runtime_us = -1;
	c->rt_period_us = 1000000;
	c->ncpus = 2;
	c->root_pid = 4242;
	c->system_wide = 0;
	c->ncpu = 2;
	c->cpu = calloc(2, sizeof(*c->cpu));
	c->cpu[0] = (struct sr_ctx_cpu){ 0, 0, 0, 0, 0, 0, 1 };
	c->cpu[1] = (struct sr_ctx_cpu){ 1, 1, 0, 0, 0, 1, 1 };
	c->ncgroup = 2;
	c->cgroup = calloc(2, sizeof(*c->cgroup));
	c->cgroup[0] = (struct sr_ctx_cgroup){ strdup("/"), 100 };
	/* a blank, a quote, a backslash, a newline, a tab and \x01 */
	c->cgroup[1] = (struct sr_ctx_cgroup){
		strdup("/a b/\"q\"\\x\n\t\x01"), 50 };
	c->ntask = 2;
	c->task = calloc(2, sizeof(*c->task));
	c->task[0] = (struct sr_ctx_task){
		.ts = INT64_MIN, .pid = 4242, .tgid = 4242, .sid = 4242,
		.nice = -5, .policy = 3, .rtprio = 0, .autogroup = 40,
		.autogroup_nice = 2, .cgroup = 1, .in_tree = 1,
		.has = SR_CTX_NICE | SR_CTX_POLICY | SR_CTX_AFFINITY |
		       SR_CTX_AUTOGROUP | SR_CTX_CGROUP | SR_CTX_SESSION };
	c->task[0].cpus.nbits = 64;
	c->task[0].cpus.w = calloc(1, sizeof(uint64_t));
	c->task[0].cpus.w[0] = 0x2d; /* 0, 2-3, 5 */
	strcpy(c->task[0].comm, "sh \"x\"\\");
	c->task[1] = (struct sr_ctx_task){
		.ts = 1500, .pid = 7, .tgid = 7, .sid = -1, .policy = 1,
		.rtprio = 50, .autogroup = -1, .cgroup = UINT32_MAX,
		.has = SR_CTX_POLICY };
	strcpy(c->task[1].comm, "rt");
	c->nunread = 1;
	c->unread = calloc(1, sizeof(char *));
	c->unread[0] = strdup("debug/sched/base_slice_ns: Permission denied");
	c->nloss = 1;
	c->loss = calloc(1, sizeof(*c->loss));
	c->loss[0] = (struct sr_ctx_loss){ 1, 12 };
	return c;
}

static void roundtrip(void)
{
	struct sr_context *c = full(), *r = NULL;
	struct sr_diag d = SR_DIAG_INIT;
	char *a = to_text(c), *b;
	const struct sr_ctx_task *t;

	CHECK_INT(sr_ctxtext_parse(&r, a, strlen(a) + 1, "f", 0, &d), SR_OK);
	CHECK_STR(d.msg, "");
	if (!r) {
		free(a);
		sr_context_free(c);
		return;
	}
	b = to_text(r);
	CHECK_STR(b, a);
	CHECK_STR(r->release, "6.18.4-test");
	CHECK_INT(r->hz, 250);
	CHECK_STR(r->preempt, "dynamic:none");
	CHECK_INT(r->autogroup, 1);
	CHECK_INT(r->base_slice_ns, 3000000);
	CHECK_INT(r->rt_runtime_us, -1);
	CHECK_INT(r->rt_period_us, 1000000);
	CHECK_INT(r->ncpus, 2);
	CHECK_INT(r->root_pid, 4242);
	CHECK_INT(r->system_wide, 0);
	CHECK_INT(r->ncpu, 2);
	CHECK_INT(r->cpu[1].core, 1);
	CHECK_INT(r->cpu[1].smt, 1);
	CHECK_INT(r->cpu[1].online, 1);
	CHECK_INT(r->ncgroup, 2);
	CHECK_STR(r->cgroup[1].path, "/a b/\"q\"\\x\n\t\x01");
	CHECK_INT(r->cgroup[1].weight, 50);
	CHECK_INT(r->ntask, 2);
	t = sr_context_task(r, 4242, 0);
	CHECK(t != NULL);
	if (t) {
		CHECK_INT(t->ts, INT64_MIN);
		CHECK_INT(t->tgid, 4242);
		CHECK_INT(t->sid, 4242);
		CHECK_INT(t->nice, -5);
		CHECK_INT(t->policy, 3);
		CHECK_INT(t->autogroup, 40);
		CHECK_INT(t->autogroup_nice, 2);
		CHECK_INT(t->cgroup, 1);
		CHECK_INT(t->in_tree, 1);
		CHECK_INT(t->has, c->task[0].has);
		CHECK_STR(t->comm, "sh \"x\"\\");
		for (int k = 0; k < 8; k++) {
			CHECK_CTX("cpu %d", k);
			CHECK_INT(sr_cpuset_has(&t->cpus, k),
				  k == 0 || k == 2 || k == 3 || k == 5);
		}
	}
	t = sr_context_task(r, 7, 0);
	CHECK(t != NULL);
	if (t) {
		CHECK_INT(t->ts, 1500);
		CHECK_INT(t->has, SR_CTX_POLICY);  /* nothing else known */
		CHECK_INT(t->policy, 1);
		CHECK_INT(t->rtprio, 50);
		CHECK_INT(t->sid, -1);
		CHECK_INT(t->autogroup, -1);
		CHECK_INT(t->cgroup, UINT32_MAX);
		CHECK_INT(t->cpus.nbits, 0);   /* unknown: every cpu */
		CHECK(sr_cpuset_has(&t->cpus, 99));
	}
	CHECK_INT(r->nunread, 1);
	CHECK_INT(r->nloss, 1);
	CHECK_INT(r->loss[0].cpu, 1);
	CHECK_INT(r->loss[0].lost, 12);
	/* the quoted forms, as written */
	CHECK(strstr(a, "path=\"/a b/\\\"q\\\"\\\\x\\n\\t\\x01\"") != NULL);
	CHECK(strstr(a, "cpus=0,2-3,5 ") != NULL);
	CHECK(strstr(a, "ts=start ") != NULL);
	CHECK(strstr(a, "policy=batch ") != NULL);
	free(a);
	free(b);
	sr_context_free(c);
	sr_context_free(r);
}

/* An empty context: the magic line and two lines without fields. */
static void unknown(void)
{
	struct sr_context *c = sr_context_new(), *r = NULL;
	struct sr_diag d = SR_DIAG_INIT;
	char *a = to_text(c);

	CHECK_STR(a, SR_CTXTEXT_MAGIC "\nkernel\nmachine\n");
	CHECK_INT(sr_ctxtext_parse(&r, a, strlen(a), "f", 0, &d), SR_OK);
	if (r) {
		CHECK_INT(r->hz, 0);
		CHECK_INT(r->autogroup, -1);
		CHECK_INT(r->rt_runtime_us, INT64_MIN);
		CHECK_INT(r->root_pid, -1);
		CHECK_INT(r->system_wide, -1);
		CHECK(r->release == NULL);
	}
	free(a);
	sr_context_free(c);
	sr_context_free(r);
}

static void errors(void)
{
	/* the line in error is the last; its offset follows from the lines
	 * before it: "schedreplay-context 1\n" is 22 bytes */
	static const struct {
		const char *text;
		unsigned long long at;
		const char *msg;
	} cases[] = {
		{ "kernel hz=250\n", 0, "expected the context's first line "
		  "'schedreplay-context 1', got 'kernel hz=250'" },
		/* a prefix of the magic is not the magic */
		{ "schedreplay-context\n", 0, "expected the context's first "
		  "line 'schedreplay-context 1', got 'schedreplay-context'" },
		{ SR_CTXTEXT_MAGIC "\nkernal hz=250\n", 22, "expected a "
		  "context line (kernel, machine, cpu, cgroup, task, unread "
		  "or loss), got 'kernal'" },
		{ SR_CTXTEXT_MAGIC "\nkernel hertz=250\n", 22, "expected a "
		  "field release=, hz=, preempt=, autogroup=, base_slice_ns=, "
		  "rt_runtime_us=, rt_period_us=, got 'hertz'" },
		{ SR_CTXTEXT_MAGIC "\nkernel hz=250 hz=100\n", 22,
		  "expected each field once, got 'hz'" },
		{ SR_CTXTEXT_MAGIC "\nkernel hz=0\n", 22, "expected hz= a "
		  "whole number from 1 to 100000, got '0'" },
		{ SR_CTXTEXT_MAGIC "\nkernel hz=\"250\"\n", 22, "expected "
		  "hz=a number or word, unquoted, got '250'" },
		{ SR_CTXTEXT_MAGIC "\nkernel release=6.1\n", 22, "expected "
		  "release=a quoted string, got '6.1'" },
		{ SR_CTXTEXT_MAGIC "\nkernel  hz=250\n", 22, "expected a "
		  "field release=" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start nice=20\n", 22,
		  "expected nice= a whole number from -20 to 19, got '20'" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=-5\n", 22, "expected ts= "
		  "'start' or a time in nanoseconds (0 or more), got '-5'" },
		{ SR_CTXTEXT_MAGIC "\ntask ts=start\n", 22, "expected a field "
		  "pid=, got ' ts=start'" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start cpus=3-1\n", 22,
		  "expected cpus= a list of cpu numbers below 8192 such as "
		  "0-3,6, got '3-1'" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start cpus=0,\n", 22,
		  "got '0,'" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start cpus=8192\n", 22,
		  "got '8192'" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start policy=fair\n", 22,
		  "expected policy= normal, fifo, rr, batch, idle, deadline or "
		  "a number 0 to 7, got 'fair'" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start cgroup=0\n", 22,
		  "expected cgroup= the id of a cgroup line above" },
		{ SR_CTXTEXT_MAGIC "\ncgroup id=1 path=\"/\"\n", 22, "expected "
		  "cgroup id=0 (the next in order)" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start comm=\"a\\qb\"\n", 22,
		  "expected an escape \\\" \\\\ \\n \\t or \\xHH, got '\\q'" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start comm=\"a\\x00\"\n",
		  22, "expected a byte other than NUL" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start comm=\"a\\xg0\"\n",
		  22, "expected two lower-case hex digits after \\x" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start comm=\"ab\n", 22,
		  "expected a closing '\"', got '\"ab'" },
		{ SR_CTXTEXT_MAGIC "\ntask pid=1 ts=start comm=\"0123456789"
		  "0123456789012345678901\"\n", 22, "expected comm= of at most "
		  "31 bytes" },
		{ SR_CTXTEXT_MAGIC "\nloss cpu=1\n", 22, "expected a field "
		  "lost=" },
		{ SR_CTXTEXT_MAGIC "\nmachine ncpus=2", 22, "expected each "
		  "context line ended by a newline, got 'machine ncpus=2'" },
		{ "", 0, "expected a context starting 'schedreplay-context 1', "
		  "got none" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sr_context *r = (struct sr_context *)1;
		struct sr_diag d = SR_DIAG_INIT;
		char want[256];

		CHECK_CTX("case %zu: %s", i, cases[i].text);
		CHECK_INT(sr_ctxtext_parse(&r, cases[i].text,
					   strlen(cases[i].text), "ctx.dat",
					   1000, &d), SR_EDATA);
		CHECK(r == NULL);
		snprintf(want, sizeof(want), "ctx.dat:%llu: recording context: ",
			 1000 + cases[i].at);
		CHECK(!strncmp(d.msg, want, strlen(want)));
		test_checks++;
		if (!strstr(d.msg, cases[i].msg)) {
			test_failures++;
			test_report(__FILE__, __LINE__, "message '%s' lacks "
				    "'%s'", d.msg, cases[i].msg);
		}
	}
}

int main(void)
{
	roundtrip();
	unknown();
	errors();
	return test_done("test-ctxtext");
}
