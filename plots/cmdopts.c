/*
 * cmdopts: one option table for diff, plot and report (see cmdopts.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/path.h"
#include "plots/cmdopts.h"
#include "plots/select.h"
#include "plots/source.h"
#include "plots/tree.h"
#include "plots/tsv.h"

static const struct {
	struct option opt;
	unsigned flag;
} table[] = {
	{ { "policy", required_argument, NULL, 'p' }, PO_POLICY },
	{ { "task", required_argument, NULL, 't' }, PO_TASK },
	{ { "period", required_argument, NULL, 'P' }, PO_PERIOD },
	{ { "title", required_argument, NULL, 'T' }, PO_TITLE },
	{ { "gnuplot", required_argument, NULL, 'g' }, PO_GNUPLOT },
	{ { "output", required_argument, NULL, 'o' }, PO_OUT },
	{ { "format", required_argument, NULL, 'f' }, PO_FORMAT },
	{ { "tsv", no_argument, NULL, 'S' }, PO_TSV },
	{ { "json", no_argument, NULL, 'J' }, PO_JSON },
	{ { "all", no_argument, NULL, 'a' }, PO_ALL },
	{ { "max-tasks", required_argument, NULL, 'm' }, PO_MAXTASKS },
	{ { "exclude", required_argument, NULL, 'x' }, PO_EXCLUDE },
	{ { "tree", required_argument, NULL, 'r' }, PO_TREE },
	{ { "set", required_argument, NULL, 's' }, PO_TUNE },
	{ { "rt", required_argument, NULL, 'R' }, PO_TUNE },
	{ { "help", no_argument, NULL, 'h' }, ~0u },
};
#define NOPTS (sizeof(table) / sizeof(table[0]))

int pl_cmdopts_parse(struct pl_cmdopts *o, int argc, char **argv,
		     unsigned allowed, const char *usage, struct sr_diag *d)
{
	struct option longopts[NOPTS + 1];
	char shortopts[8] = ":";
	size_t n = 0;
	int c;

	memset(o, 0, sizeof(*o));
	o->cmd = argv[0];
	for (size_t i = 0; i < NOPTS; i++)
		if (table[i].flag & allowed)
			longopts[n++] = table[i].opt;
	memset(&longopts[n], 0, sizeof(longopts[n]));
	if (allowed & PO_OUT)
		strcat(shortopts, "o:");
	strcat(shortopts, "h");
	optind = 0; /* glibc: a full reset */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (o->npolicies == PL_MAX_RUNS)
				return sr_fail(d, SR_EUSAGE, "%s: at most %d --policy",
					       argv[0], PL_MAX_RUNS);
			o->policies[o->npolicies++] = optarg;
			break;
		case 't':
			o->task = optarg;
			break;
		case 'P':
			if (o->nperiods == PL_MAX_PERIOD_OPTS)
				return sr_fail(d, SR_EUSAGE, "%s: at most %d --period",
					       argv[0], PL_MAX_PERIOD_OPTS);
			if (pl_parse_period_opt(optarg, &o->periods[o->nperiods], d))
				return d->code;
			o->nperiods++;
			break;
		case 'T':
			o->title = optarg;
			break;
		case 'x':
			o->exclude = optarg;
			break;
		case 'r':
			o->tree = optarg;
			break;
		case 's':
			if (o->tune.nsets == PL_MAX_TUNE_OPTS)
				return sr_fail(d, SR_EUSAGE, "%s: at most %d --set",
					       argv[0], PL_MAX_TUNE_OPTS);
			o->sets[o->tune.nsets++] = optarg;
			o->tune.sets = o->sets;
			break;
		case 'R':
			if (o->tune.nrt == PL_MAX_TUNE_OPTS)
				return sr_fail(d, SR_EUSAGE, "%s: at most %d --rt",
					       argv[0], PL_MAX_TUNE_OPTS);
			o->rt[o->tune.nrt++] = optarg;
			o->tune.rt = o->rt;
			break;
		case 'g':
			o->gnuplot = optarg;
			break;
		case 'o':
			if (sr_outpath_check("-o", optarg, d))
				return d->code;
			o->out = optarg;
			break;
		case 'f':
			o->format = optarg;
			break;
		case 'S':
			o->tsv = true;
			break;
		case 'J':
			o->json = true;
			break;
		case 'a':
			o->all = true;
			break;
		case 'm': {
			int64_t v;

			if (pl_parse_int(optarg, &v) || v < 1 || v > 64)
				return sr_fail(d, SR_EUSAGE,
					       "--max-tasks: expected 1 to 64, got '%s'",
					       optarg);
			o->max_tasks = (size_t)v;
			break;
		}
		case 'h':
			fputs(usage, stdout);
			o->help = true;
			return SR_OK;
		case ':':
			return sr_fail(d, SR_EUSAGE, "%s: option '%s' expects a value\n%s",
				       argv[0], argv[optind - 1], usage);
		default:
			return sr_fail(d, SR_EUSAGE, "%s: unknown option '%s'\n%s",
				       argv[0], argv[optind - 1], usage);
		}
	}
	if (optind != argc - 1)
		return sr_fail(d, SR_EUSAGE, "%s: expected one TRACE, got %d operands\n%s",
			       argv[0], argc - optind, usage);
	o->trace = argv[optind];
	if (o->tsv && o->json)
		return sr_fail(d, SR_EUSAGE, "%s: --tsv and --json exclude each other",
			       argv[0]);
	return SR_OK;
}

int pl_cmd_load(struct pl_cmdopts *o, size_t min_policies, size_t max_policies,
		struct pl_source *src, struct pl_set *set, struct pl_taskre **re,
		struct sr_diag *d)
{
	static const char *const defaults[] = { "stock", "o11int" };
	const char *replay[PL_MAX_RUNS + 1];
	size_t nreplay = 0;
	bool have_observed = false;

	memset(src, 0, sizeof(*src));
	memset(set, 0, sizeof(*set));
	*re = NULL;
	if (o->npolicies && o->npolicies > max_policies)
		return sr_fail(d, SR_EUSAGE,
			       "%s: expected %s --policy, got %zu", o->cmd,
			       max_policies == 2 ? "two (A and B)" : "fewer",
			       o->npolicies);
	if (o->task && pl_taskre_new(re, o->task, d))
		return d->code;
	if (!o->npolicies) {
		o->policies[0] = defaults[0];
		o->policies[1] = defaults[1];
		o->npolicies = 2;
	}
	if (o->npolicies < min_policies)
		return sr_fail(d, SR_EUSAGE,
			       "%s: expected two --policy (A and B), got %zu",
			       o->cmd, o->npolicies);
	for (size_t i = 0; i < o->npolicies; i++) {
		/* the directory the replay writes: the tuned label */
		if (sr_replay_label(o->policies[i], &o->tune, o->labels[i],
				    sizeof(o->labels[i]), d))
			return d->code;
		replay[nreplay++] = o->policies[i];
		o->policies[i] = o->labels[i];
		have_observed |= !strcmp(o->policies[i], "observed");
	}
	/* the recorded schedule: the reference for behaviour */
	if (!have_observed)
		replay[nreplay++] = "observed";
	if (pl_source_open(src, o->trace, replay, nreplay, o->exclude, NULL,
			   o->title, &o->tune, d))
		return d->code;
	if (pl_set_open(set, src->root, src->title, o->policies, o->npolicies, d))
		return d->code;
	set->period_opts = o->periods;
	set->nperiod_opts = o->nperiods;
	if (pl_set_load(set, d))
		return d->code;
	if (o->tree) {
		struct pl_taskre *root;
		int rc;

		if (!src->tmpdir)
			return sr_fail(d, SR_EUSAGE,
				       "--tree needs the trace file (ancestry is in its fork events), not the replay directory %s",
				       o->trace);
		if (pl_taskre_new(&root, o->tree, d))
			return d->code;
		rc = pl_tree_mark(set, o->trace, root, &set->focus_tasks, d);
		pl_taskre_free(root);
		if (rc)
			return rc;
		set->focus_regex = o->tree;
	}
	return SR_OK;
}
