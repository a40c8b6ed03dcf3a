/*
 * cmd-policies: `schedreplay policies`, one entry per scheduler model:
 * name, confidence and summary on one line, then its other names and,
 * where some of its rules are reconstructed rather than read, which.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "sched-model/knobs.h"
#include "sched-model/policy.h"

static const char policies_usage[] =
	"usage: schedreplay policies [--knobs [POLICY...]]\n\n"
	"List the scheduler models: name, confidence (high: every rule from\n"
	"kernel text that was read; medium: some rules reconstructed from\n"
	"neighbouring versions; model: a documented simplified model), a\n"
	"summary, other accepted names, and what is reconstructed.\n"
	"Rules and their sources: docs/models.md.\n\n"
	"--knobs lists each policy's tuning constants (all policies, or those\n"
	"named) under their kernel names: unit, default, accepted range, what\n"
	"the default follows when it is derived, and where it acts.  Set them\n"
	"with --set NAME=VALUE or --policy POLICY:NAME=VALUE,... on replay,\n"
	"diff, plot, report and sweep.\n";

static void print_knobs(const struct sm_policy *p)
{
	size_t n = sm_knob_count(p);

	printf("%s\n", p->name);
	if (!n)
		puts("  (no knobs)");
	for (size_t i = 0; i < n; i++) {
		const struct sm_knob *k = &p->knobs[i];
		char range[64];

		snprintf(range, sizeof(range), "%ld..%ld", k->min, k->max);
		printf("  %-22s %-7s default %-11ld range %s", k->name,
		       k->unit[0] ? k->unit : "-", k->def, range);
		if (k->derived)
			printf(" (default = %s)", k->derived);
		printf("\n  %-22s %s\n", "", k->what);
	}
}

static int cmd_knobs(int argc, char **argv, struct sr_diag *d)
{
	if (argc == 0) {
		for (const struct sm_policy *const *p = sm_policies; *p; p++)
			print_knobs(*p);
		return SR_OK;
	}
	for (int i = 0; i < argc; i++)
		if (!sm_policy_find(argv[i]))
			return sr_fail(d, SR_EUSAGE, "policies --knobs: unknown "
				       "policy '%s'", argv[i]);
	for (int i = 0; i < argc; i++)
		print_knobs(sm_policy_find(argv[i]));
	return SR_OK;
}

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
	if (argc > 1 && !strcmp(argv[1], "--knobs"))
		return cmd_knobs(argc - 2, argv + 2, d);
	if (argc > 1)
		return sr_fail(d, SR_EUSAGE,
			       "policies: unexpected argument '%s' (it takes none)",
			       argv[1]);
	for (const struct sm_policy *const *p = sm_policies; *p; p++)
		print_policy(*p);
	return SR_OK;
}
