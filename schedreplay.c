/*
 * schedreplay: the command table and the one place errors are printed.
 *
 * How would this recorded workload have been scheduled under another CPU
 * scheduler policy?  Subcommands read a trace, replay it through scheduler
 * models, and write statistics, timelines, diffs and plots.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "lib/outfile.h"

#define SR_VERSION "0.1"

struct sr_cmd {
	const char *name;
	sr_cmd_fn fn;
	const char *usage; /* one line for `schedreplay help` */
};

static const struct sr_cmd commands[] = {
	{ "policies", cmd_policies, "list the scheduler models" },
	{ "convert", cmd_convert, "any supported trace to the native text format" },
	{ "stats", cmd_stats, "per-task runtime, switches and scheduling delays (like perf sched latency)" },
	{ "replay", cmd_replay, "replay a trace under each policy: timelines, latencies, summaries" },
	{ "diff", cmd_diff, "what policy B changed against A, task by task" },
	{ "plot", cmd_plot, "gnuplot plots of priorities and scheduling delays" },
	{ "report", cmd_report, "one self-contained HTML page: the diff and the plots" },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: schedreplay COMMAND [OPTIONS] [TRACE]\n"
		   "       schedreplay help [COMMAND] | --version\n\n"
		   "commands:\n");
	for (const struct sr_cmd *c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->usage);
	fprintf(f, "\n'schedreplay COMMAND --help' for a command's options.\n");
}

/* stdout flushed: a write error (a full disk) fails a run that succeeded.
 * A reader gone (| head) is not one: SIGPIPE ends us quietly, as it ends
 * other filters (lib/outfile.h). */
static int flush_stdout(int rc)
{
	if (fflush(stdout) != 0 && rc == SR_OK) {
		fprintf(stderr, "schedreplay: write error on stdout\n");
		rc = SR_EIO;
	}
	return rc;
}

static const struct sr_cmd *find(const char *name)
{
	for (const struct sr_cmd *c = commands; c->name; c++)
		if (!strcmp(name, c->name))
			return c;
	return NULL;
}

static int run(const struct sr_cmd *c, int argc, char **argv)
{
	struct sr_diag d = SR_DIAG_INIT;
	int rc;

	sr_outfile_install_signals();
	rc = c->fn(argc, argv, &d);
	if (rc != SR_OK) {
		if (d.code == SR_OK)
			sr_fail(&d, rc, "%s failed", c->name);
		sr_report(&d);
		if (rc == SR_EUSAGE)
			fprintf(stderr, "schedreplay: see 'schedreplay %s "
				"--help'\n", c->name);
	}
	return flush_stdout(rc);
}

/* The whole program: main() below, and the argv fuzz target
 * (tests/fuzz/fuzz-argv.c), which builds this file with SR_NO_MAIN. */
int sr_main(int argc, char **argv);

int sr_main(int argc, char **argv)
{
	const struct sr_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return SR_EUSAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")) {
		char *help[] = { argv[2], "--help", NULL };

		if (argc < 3) {
			usage(stdout);
			return flush_stdout(SR_OK);
		}
		if (!(c = find(argv[2]))) {
			fprintf(stderr, "schedreplay: unknown command '%s'\n"
				"schedreplay: see 'schedreplay help'\n", argv[2]);
			return SR_EUSAGE;
		}
		return run(c, 2, help);
	}
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version") ||
	    !strcmp(argv[1], "-V")) {
		printf("schedreplay %s\n", SR_VERSION);
		return flush_stdout(SR_OK);
	}
	if ((c = find(argv[1])))
		return run(c, argc - 1, argv + 1);
	fprintf(stderr, "schedreplay: unknown command '%s'\n"
		"schedreplay: see 'schedreplay help'\n", argv[1]);
	return SR_EUSAGE;
}

#ifndef SR_NO_MAIN
int main(int argc, char **argv)
{
	return sr_main(argc, argv);
}
#endif
