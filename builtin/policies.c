/*
 * builtin/policies: `schedreplay policies`, one line per scheduler model:
 * name, aliases, and what it is.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "sched-model/policy.h"

static const char policies_usage[] =
	"usage: schedreplay policies\n\n"
	"List the scheduler models: name, other accepted names, summary.\n"
	"Rules and their sources: docs/models.md.\n";

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
	for (const struct sm_policy *const *p = sm_policies; *p; p++) {
		char aliases[128] = "";
		size_t n = 0;

		for (const char *const *a = (*p)->aliases; *a; a++)
			n += (size_t)snprintf(aliases + n,
				n < sizeof(aliases) ? sizeof(aliases) - n : 0,
				"%s%s", n ? "," : "", *a);
		printf("%-10s %-24s %s\n", (*p)->name, aliases, (*p)->summary);
	}
	return SR_OK;
}
