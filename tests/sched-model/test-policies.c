/*
 * test-policies: the policy table (sm_policies) is what every command
 * offers: each row is complete (a name, a known confidence, a summary, a
 * colour, the entries the simulator calls), every name and alias finds its
 * own row and no other, and `schedreplay policies` lists exactly the
 * table's rows, in its order, as the rows say.  Enumerates the table:
 * a policy added is checked without a line here.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched-model/policy.h"
#include "tests/lib/test.h"

static int known_confidence(const char *c)
{
	return c && (!strcmp(c, "high") || !strcmp(c, "medium") ||
		     !strcmp(c, "model"));
}

/* the rows themselves */
static size_t check_rows(void)
{
	size_t n = 0;
	regex_t name_re, rgb_re;

	CHECK_INT(regcomp(&name_re, "^[a-z0-9][a-z0-9.-]*$", REG_EXTENDED), 0);
	CHECK_INT(regcomp(&rgb_re, "^#[0-9a-f]{6}$", REG_EXTENDED), 0);
	for (const struct sm_policy *const *pp = sm_policies; *pp; pp++, n++) {
		const struct sm_policy *p = *pp;

		CHECK_CTX("row %zu", n);
		CHECK(p->name != NULL);
		if (!p->name)
			continue;
		CHECK_CTX("%s", p->name);
		CHECK_INT(regexec(&name_re, p->name, 0, NULL, 0), 0);
		CHECK(known_confidence(p->confidence));
		CHECK(p->summary && *p->summary);
		CHECK(p->colour && regexec(&rgb_re, p->colour, 0, NULL, 0) == 0);
		CHECK(p->point > 0);
		/* what the simulator calls without asking */
		CHECK(p->rq_new && p->rq_free && p->task_new && p->fork &&
		      p->wake && p->block && p->exit && p->tick &&
		      p->schedule && p->yield && p->set_nice &&
		      p->setscheduler && p->view && p->task_free);
		/* its name and every alias find it, and only it */
		CHECK(sm_policy_find(p->name) == p);
		for (const char *const *a = p->aliases; *a; a++)
			CHECK(sm_policy_find(*a) == p);
		for (const struct sm_policy *const *q = sm_policies; *q != p;
		     q++) {
			CHECK(strcmp((*q)->name, p->name) != 0);
			for (const char *const *a = p->aliases; *a; a++)
				CHECK(strcmp((*q)->name, *a) != 0);
		}
	}
	CHECK_CTX("%s", "");
	CHECK(sm_policy_find("nosuch") == NULL);
	CHECK(sm_policy_find(NULL) == NULL);
	regfree(&name_re);
	regfree(&rgb_re);
	return n;
}

/* `schedreplay policies`: the table's rows, in order, as they say */
static void check_listing(size_t n)
{
	const char *sr = getenv("SCHEDREPLAY");
	char cmd[4200], line[4096], want[4096];
	size_t row = 0;
	const struct sm_policy *p = NULL;
	FILE *f;

	if (!sr || !*sr) {
		CHECK(!"SCHEDREPLAY is set (run through make check)");
		return;
	}
	snprintf(cmd, sizeof(cmd), "'%s' policies", sr);
	f = popen(cmd, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] != ' ') {
			/* a row's first line: name, confidence, summary */
			p = row < n ? sm_policies[row] : NULL;
			CHECK_CTX("line of row %zu: %.200s", row, line);
			CHECK(p != NULL);
			row++;
			if (!p)
				continue;
			snprintf(want, sizeof(want), "%-10s %-7s %s", p->name,
				 p->confidence, p->summary);
			CHECK_STR(line, want);
		} else if (p && strstr(line, "also:")) {
			size_t k = (size_t)snprintf(want, sizeof(want),
						    "           also:");

			for (const char *const *a = p->aliases; *a; a++)
				k += (size_t)snprintf(want + k, sizeof(want) - k,
						      " %s", *a);
			CHECK_STR(line, want);
		} else if (p) {
			snprintf(want, sizeof(want),
				 "           reconstructed: %s",
				 p->reconstructed ? p->reconstructed : "(none)");
			CHECK_STR(line, want);
		}
	}
	CHECK_CTX("%s", "");
	CHECK_INT(pclose(f), 0);
	CHECK_INT((long)row, (long)n);
}

int main(void)
{
	size_t n = check_rows();

	CHECK(n >= 11);
	check_listing(n);
	return test_done("test-policies");
}
