/*
 * cmd-replay: `schedreplay replay TRACE [--policy P]... [-o DIR]`: replay
 * a trace's demand under each policy (default stock, o11int and the
 * recorded schedule) and write DIR/P/{timeline,latency,summary}.tsv.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/path.h"
#include "builtin.h"
#include "replay/replay.h"

#define DEFAULT_OUTDIR "replay-out"

static const char usage_text[] =
	"usage: schedreplay replay [OPTIONS] TRACE\n"
	"  TRACE                a trace file (plain or gzip), or - for stdin\n"
	"  -o, --output DIR     write DIR/POLICY/{timeline,latency,summary}.tsv"
	"\n                       (default: " DEFAULT_OUTDIR ")\n"
	"  --policy P           a policy (`schedreplay policies`) or observed;"
	"\n                       repeat for several (default: stock, o11int,"
	" observed);\n                       P:NAME=VALUE,... tunes it "
	"(e.g. o11int:MAX_SLEEP_AVG=2000)\n"
	"  --set NAME=VALUE     set kernel constant NAME of every policy that "
	"has it\n                       (`schedreplay policies --knobs`); "
	"repeatable\n"
	"  --rt REGEX[:PRIO]    tasks whose name matches (pcre2) run SCHED_RR "
	"at PRIO\n                       (1-99, default 50) under every "
	"policy; repeatable\n"
	"  --exclude REGEX      leave out tasks whose name matches (pcre2),"
	"\n                       e.g. '^perf$'\n"
	"  --causal MODE        which wakes a task gets in the trace it causes"
	"\n                       in the replay: known (default: where the"
	"\n                       trace tells them from interrupts, else"
	"\n                       between related tasks), all, none\n"
	"  --external MODE      absolute (default): external wakeups at their"
	"\n                       recorded time; relative: sleeps keep their"
	" recorded length\n"
	"  --cs-cost TIME       context-switch cost, 0 to 1ms (ns, or with "
	"us/ms/s;\n                       default 0)\n"
	"  --timeline WHICH     simulated timeline rows: changes (default: where"
	"\n                       a task's prio, array, state or CPU changed),"
	" all\n"
	"  --warm PCT           tasks alive at the start begin with sleep_avg"
	"\n                       PCT% of MAX_SLEEP_AVG (default 0: cold)\n"
	"  --cpus N             CPUs to simulate (only 1 for now)\n"
	"  --compat NAME        how `observed` counts, as `stats --compat`: "
	"perf, perf-6.1\n"
	"  --input-format NAME  perf, ftrace, trace-cmd, systrace, native "
	"(default: detect)\n"
	"  --lenient            skip malformed lines and report how many\n"
	"  --batch N            events read between simulator steps (results"
	"\n                       do not depend on it; for tests)\n"
	"  --check              check the policies' invariants at every "
	"instant (slow)\n"
	"  -q, --quiet          do not list the files written\n";

#define MAX_SETS 32

struct args {
	struct sr_replay_opts o;
	const char *policies[SR_REPLAY_MAX_POLICIES];
	size_t npolicies;
	const char *sets[MAX_SETS];
	const char *rt[MAX_SETS];
	const char *trace;
	bool quiet;
};

typedef int (*opt_fn)(struct args *a, const char *v, struct sr_diag *d);

/* An integer in [lo, hi], or a usage error naming the option. */
static int int_arg(const char *opt, const char *v, long long lo,
		   long long hi, long long *out, struct sr_diag *d)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(v, &end, 10);
	if (errno || end == v || *end || x < lo || x > hi)
		return sr_fail(d, SR_EUSAGE, "%s: expected an integer from "
			       "%lld to %lld, got '%s'", opt, lo, hi, v);
	*out = x;
	return SR_OK;
}

static int o_output(struct args *a, const char *v, struct sr_diag *d)
{
	if (sr_outpath_check("-o", v, d))
		return d->code;
	a->o.outdir = v;
	return SR_OK;
}

static int o_policy(struct args *a, const char *v, struct sr_diag *d)
{
	if (a->npolicies == SR_REPLAY_MAX_POLICIES)
		return sr_fail(d, SR_EUSAGE, "--policy: at most %d",
			       SR_REPLAY_MAX_POLICIES);
	a->policies[a->npolicies++] = v;
	return SR_OK;
}

static int o_set(struct args *a, const char *v, struct sr_diag *d)
{
	if (a->o.tune.nsets == MAX_SETS)
		return sr_fail(d, SR_EUSAGE, "--set: at most %d", MAX_SETS);
	a->sets[a->o.tune.nsets++] = v;
	a->o.tune.sets = a->sets;
	return SR_OK;
}

static int o_rt(struct args *a, const char *v, struct sr_diag *d)
{
	if (a->o.tune.nrt == MAX_SETS)
		return sr_fail(d, SR_EUSAGE, "--rt: at most %d", MAX_SETS);
	a->rt[a->o.tune.nrt++] = v;
	a->o.tune.rt = a->rt;
	return SR_OK;
}

static int o_exclude(struct args *a, const char *v, struct sr_diag *d)
{
	a->o.exclude = v;
	return SR_OK;
}

static int o_causal(struct args *a, const char *v, struct sr_diag *d)
{
	for (int i = 0; sr_causal_names[i]; i++) {
		if (!strcmp(v, sr_causal_names[i])) {
			a->o.causal = (enum sr_causal_mode)i;
			return SR_OK;
		}
	}
	return sr_fail(d, SR_EUSAGE, "--causal: expected known, all or none, "
		       "got '%s'", v);
}

static int o_external(struct args *a, const char *v, struct sr_diag *d)
{
	if (!strcmp(v, "absolute"))
		a->o.external = SR_EXTERNAL_ABSOLUTE;
	else if (!strcmp(v, "relative"))
		a->o.external = SR_EXTERNAL_RELATIVE;
	else
		return sr_fail(d, SR_EUSAGE, "--external: expected absolute "
			       "or relative, got '%s'", v);
	return SR_OK;
}

static int o_timeline(struct args *a, const char *v, struct sr_diag *d)
{
	for (int i = 0; sr_tl_mode_names[i]; i++) {
		if (!strcmp(v, sr_tl_mode_names[i])) {
			a->o.timeline = (enum sr_tl_mode)i;
			return SR_OK;
		}
	}
	return sr_fail(d, SR_EUSAGE, "--timeline: expected changes or all, "
		       "got '%s'", v);
}

static int o_cs_cost(struct args *a, const char *v, struct sr_diag *d)
{
	static const struct { const char *unit; long long mul; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 }, { "", 1 },
	};
	size_t n = strlen(v);
	long long x;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t u = strlen(units[i].unit);
		char num[32];

		if (n <= u || n - u >= sizeof(num) ||
		    strcmp(v + n - u, units[i].unit))
			continue;
		memcpy(num, v, n - u);
		num[n - u] = 0;
		if (int_arg("--cs-cost", num, 0, LLONG_MAX / units[i].mul,
			    &x, d))
			break;
		a->o.cs_cost_ns = x * units[i].mul;
		return SR_OK;
	}
	d->code = SR_OK;
	return sr_fail(d, SR_EUSAGE, "--cs-cost: expected a time like 2000, "
		       "5us or 1ms (at most 1ms), got '%s'", v);
}

static int o_warm(struct args *a, const char *v, struct sr_diag *d)
{
	long long x;

	if (int_arg("--warm", v, 0, 100, &x, d))
		return d->code;
	a->o.init_sleep_pct = (int)x;
	return SR_OK;
}

static int o_cpus(struct args *a, const char *v, struct sr_diag *d)
{
	long long x;

	if (int_arg("--cpus", v, 1, 4096, &x, d))
		return d->code;
	a->o.cpus = (int)x;
	return SR_OK;
}

static int o_compat(struct args *a, const char *v, struct sr_diag *d)
{
	if (sr_perf_compat_parse(v, &a->o.compat))
		return sr_fail(d, SR_EUSAGE, "--compat: expected perf or "
			       "perf-6.1, got '%s'", v);
	return SR_OK;
}

static int o_format(struct args *a, const char *v, struct sr_diag *d)
{
	a->o.read.format = v;
	return SR_OK;
}

static int o_lenient(struct args *a, const char *v, struct sr_diag *d)
{
	a->o.read.lenient = true;
	return SR_OK;
}

static int o_batch(struct args *a, const char *v, struct sr_diag *d)
{
	long long x;

	if (int_arg("--batch", v, 1, 1LL << 30, &x, d))
		return d->code;
	a->o.batch = (size_t)x;
	return SR_OK;
}

static int o_check(struct args *a, const char *v, struct sr_diag *d)
{
	a->o.check = true;
	return SR_OK;
}

static int o_quiet(struct args *a, const char *v, struct sr_diag *d)
{
	a->quiet = true;
	return SR_OK;
}

static const struct {
	const char *name, *alias;
	bool arg;
	opt_fn fn;
} opts[] = {
	{ "--output", "-o", true, o_output },
	{ "--policy", NULL, true, o_policy },
	{ "--set", NULL, true, o_set },
	{ "--rt", NULL, true, o_rt },
	{ "--exclude", NULL, true, o_exclude },
	{ "--causal", NULL, true, o_causal },
	{ "--external", NULL, true, o_external },
	{ "--cs-cost", NULL, true, o_cs_cost },
	{ "--timeline", NULL, true, o_timeline },
	{ "--warm", NULL, true, o_warm },
	{ "--cpus", NULL, true, o_cpus },
	{ "--compat", NULL, true, o_compat },
	{ "--input-format", NULL, true, o_format },
	{ "--lenient", NULL, false, o_lenient },
	{ "--batch", NULL, true, o_batch },
	{ "--check", NULL, false, o_check },
	{ "--quiet", "-q", false, o_quiet },
};

static int parse_args(int argc, char **argv, struct args *a,
		      struct sr_diag *d)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i], *v = NULL;
		size_t k, n = sizeof(opts) / sizeof(opts[0]);

		if (s[0] != '-' || !s[1]) {
			if (a->trace)
				return sr_fail(d, SR_EUSAGE, "replay: one TRACE "
					       "only, got '%s' and '%s'",
					       a->trace, s);
			a->trace = s;
			continue;
		}
		for (k = 0; k < n; k++) {
			size_t len = strlen(opts[k].name);

			if (!strcmp(s, opts[k].name) ||
			    (opts[k].alias && !strcmp(s, opts[k].alias)))
				break;
			if (opts[k].arg && !strncmp(s, opts[k].name, len) &&
			    s[len] == '=') {
				v = s + len + 1;
				break;
			}
		}
		if (k == n)
			return sr_fail(d, SR_EUSAGE, "replay: unknown option "
				       "'%s'", s);
		if (opts[k].arg && !v) {
			if (i + 1 >= argc)
				return sr_fail(d, SR_EUSAGE, "replay: %s needs "
					       "a value", s);
			v = argv[++i];
		}
		if (opts[k].fn(a, v, d))
			return d->code;
	}
	if (!a->trace)
		return sr_fail(d, SR_EUSAGE, "replay: no TRACE given");
	return SR_OK;
}

int cmd_replay(int argc, char **argv, struct sr_diag *d)
{
	struct args a;
	struct sr_replay *r;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return SR_OK;
		}
	}
	memset(&a, 0, sizeof(a));
	a.o.outdir = DEFAULT_OUTDIR;
	if (parse_args(argc, argv, &a, d)) {
		fputs(usage_text, stderr);
		return d->code;
	}
	a.o.trace = a.trace;
	a.o.policies = a.npolicies ? a.policies : NULL;
	a.o.npolicies = a.npolicies;
	if ((rc = sr_replay_run(&a.o, &r, d)))
		return rc;
	if (!a.quiet) {
		const struct sr_replay_info *in = sr_replay_info(r);

		printf("replayed %s (%s, %llu events, %d cpu%s recorded) on "
		       "1 cpu\n", a.trace, in->format,
		       (unsigned long long)in->events, (int)in->ncpus,
		       in->ncpus == 1 ? "" : "s");
		for (size_t i = 0; i < sr_replay_count(r); i++)
			printf("wrote %s/%s/{timeline,latency,summary}.tsv\n",
			       a.o.outdir, sr_replay_get(r, i)->name);
	}
	sr_replay_free(r);
	return SR_OK;
}
