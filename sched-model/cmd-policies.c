/*
 * cmd-policies: `schedreplay policies`, one entry per scheduler model:
 * name, confidence and summary on one line, then its other names and,
 * where some of its rules are reconstructed rather than read, which.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "sched-model/policy.h"

static const char policies_usage[] =
	"usage: schedreplay policies\n\n"
	"List the scheduler models: name, confidence (high: every rule from\n"
	"kernel text that was read; medium: some rules reconstructed from\n"
	"neighbouring versions; model: a documented simplified model), a\n"
	"summary, other accepted names, and what is reconstructed.\n"
	"Rules and their sources: docs/models.md.\n";

static void print_policy(const struct sm_policy *p)
{
	printf("%-10s %-7s %s\n", p->name, p->confidence, p->summary);
	if (p->aliases[0]) {
		fputs("           also:", stdout);
		for (const char *const *a = p->aliases; *a; a++)
			printf(" %s", *a);
		putchar('\n');
	}
	if (p->reconstructed)
		printf("           reconstructed: %s\n", p->reconstructed);
}

int cmd_policies(int argc, char **argv, struct sr_diag *d)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(policies_usage, stdout);
		return SR_OK;
	}
	if (argc > 1)
		return sr_fail(d, SR_EUSAGE,
			       "policies: unexpected argument '%s' (it takes none)",
			       argv[1]);
	for (const struct sm_policy *const *p = sm_policies; *p; p++)
		print_policy(*p);
	return SR_OK;
}
