/*
 * builtin/policies: `schedreplay policies`, one line per scheduler model:
 * name, aliases, and what it is.
 */
#include <stdio.h>

#include "builtin.h"
#include "sched-model/policy.h"

int cmd_policies(int argc, char **argv, struct sr_diag *d)
{
	const struct po_option opts[] = { OPT_END() };
	const struct po_cmd cmd = {
		"policies", NULL, 0, 0,
		"List the scheduler models: name, other accepted names, "
		"summary. "
		"Rules and their sources: docs/models.md.", NULL, opts,
	};
	size_t nops;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, NULL, &nops, d)))
		return rc == PO_HELP ? SR_OK : rc;
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
