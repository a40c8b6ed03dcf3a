/*
 * builtin/policies: `schedreplay policies`, one entry per scheduler model:
 * name, confidence and summary on one line, then its other names and,
 * where some of its rules are reconstructed rather than read, which;
 * `--knobs [POLICY...]`: the tuning constants under their kernel names.
 */
#include <stdio.h>

#include "builtin.h"
#include "lib/suggest.h"
#include "sched-model/knobs.h"
#include "sched-model/policy.h"

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
		printf("  %-27s %-7s default %-11ld range %s", k->name,
		       k->unit[0] ? k->unit : "-", k->def, range);
		if (k->derived)
			printf(" (default = %s)", k->derived);
		printf("\n  %-27s %s\n", "", k->what);
	}
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
	bool knobs = false;
	const char *names[64];
	const struct po_option opts[] = {
		OPT_FLAG(0, "knobs", &knobs,
			 "each policy's tuning constants (all, or the POLICYs "
			 "named) under\ntheir kernel names: unit, default, "
			 "range, what the default follows,\nwhere it acts; "
			 "set them with --set NAME=VALUE or\n--policy "
			 "POLICY:NAME=VALUE,... on replay, diff, plot, report "
			 "and sweep"),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "policies",
		.operands = "[POLICY...]",
		.min_operands = 0,
		.max_operands = 64,
		.about = "List the scheduler models: name, confidence (high: every rule "
			"from kernel text that was read; medium: some rules "
			"reconstructed from neighbouring versions; model: a documented "
			"simplified model), a summary, other accepted names, and what "
			"is reconstructed. Rules and their sources: docs/models.md.",
		.opts = opts,
	};
	size_t nops;
	char hint[SR_SUGGEST_HINT];
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, names, &nops, d)))
		return rc == PO_HELP ? SR_OK : rc;
	if (nops && !knobs)
		return sr_fail(d, SR_EUSAGE, "policies: unexpected argument "
			       "'%s' (it takes none; POLICY names go with "
			       "--knobs)", names[0]);
	for (size_t i = 0; i < nops; i++)
		if (!sm_policy_find(names[i]))
			return sr_fail(d, SR_EUSAGE, "policies --knobs: unknown "
				       "policy '%s'%s", names[i],
				       sm_policy_hint(names[i], hint,
						      sizeof(hint)));
	if (knobs && nops) {
		for (size_t i = 0; i < nops; i++)
			print_knobs(sm_policy_find(names[i]));
		return SR_OK;
	}
	for (const struct sm_policy *const *p = sm_policies; *p; p++) {
		if (knobs)
			print_knobs(*p);
		else
			print_policy(*p);
	}
	return SR_OK;
}
