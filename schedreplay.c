/*
 * schedreplay: the command table and the one place errors are printed.
 *
 * How would this recorded workload have been scheduled under another CPU
 * scheduler policy?  Subcommands read a trace, replay it through scheduler
 * models, and write statistics, timelines, diffs and plots.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "lib/outfile.h"
#include "lib/suggest.h"

const struct sr_cmd sr_commands[] = {
	{ "record", cmd_record, "record a workload's scheduling and the machine's context (root)" },
	{ "policies", cmd_policies, "list the scheduler models" },
	{ "convert", cmd_convert, "any supported trace to the native text format" },
	{ "stats", cmd_stats, "per-task runtime, switches and scheduling delays (like perf sched latency)" },
	{ "replay", cmd_replay, "replay a trace under each policy: timelines, latencies, summaries" },
	{ "diff", cmd_diff, "what policy B (or each policy) changed against A, task by task" },
	{ "fidelity", cmd_fidelity, "how closely the replay under the recording kernel's model reproduces the recording" },
	{ "explain", cmd_explain, "why a task waited, under each policy: its worst waits in words, the wait by reason and by the task it waited behind" },
	{ "plot", cmd_plot, "gnuplot plots of priorities and scheduling delays" },
	{ "report", cmd_report, "one self-contained HTML page: the verdict, a task table, the plots" },
	{ "export", cmd_export, "the replayed schedules as a Chrome JSON trace (Perfetto)" },
	{ "timehist", cmd_timehist, "perf sched timehist of the recording or a replay: a line per switch" },
	{ "map", cmd_map, "perf sched map of the recording or a replay: each CPU's task per switch" },
	{ "interbench", cmd_interbench, "interbench's tasks under its loads, simulated under each policy: no recording needed" },
	{ "sweep", cmd_sweep, "a grid of replays (traces x policies x knob values) on GNU parallel, one table" },
	{ "sweep-job", cmd_sweep_job, "one job of a sweep (what its jobs.txt runs)" },
	{ NULL, NULL, NULL },
};

/* help and version, which are not in the list of commands */
static const struct sr_cmd help_cmd = { "help", cmd_help, NULL };
static const struct sr_cmd version_cmd = { "version", cmd_version, NULL };

void sr_usage(FILE *f)
{
	fprintf(f, "usage: schedreplay COMMAND [OPTIONS] [TRACE]\n"
		   "       schedreplay help [COMMAND] | --version\n\n"
		   "commands:\n");
	for (const struct sr_cmd *c = sr_commands; c->name; c++)
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

const struct sr_cmd *sr_cmd_find(const char *name)
{
	for (const struct sr_cmd *c = sr_commands; c->name; c++)
		if (!strcmp(name, c->name))
			return c;
	return NULL;
}

const char *sr_cmd_hint(const char *name, char *buf, size_t len)
{
	struct sr_suggest s;

	sr_suggest_init(&s, name, strlen(name));
	for (const struct sr_cmd *c = sr_commands; c->name; c++)
		sr_suggest_add(&s, c->name);
	sr_suggest_add(&s, help_cmd.name);
	sr_suggest_add(&s, version_cmd.name);
	return sr_suggest_hint(&s, "", buf, len);
}

static int run(const struct sr_cmd *c, int argc, char **argv)
{
	struct sr_diag d = SR_DIAG_INIT;
	int rc;

	sr_outfile_install_signals();
	rc = c->fn(argc, argv, &d);
	if (rc & SR_PASS_STATUS)
		return flush_stdout(rc & 0xff);
	if (rc != SR_OK) {
		if (d.code == SR_OK && rc == SR_ENOMEM)
			sr_oom(&d);
		else if (d.code == SR_OK)
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
		sr_usage(stderr);
		return SR_EUSAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h"))
		return run(&help_cmd, argc - 1, argv + 1);
	if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version") ||
	    !strcmp(argv[1], "-V"))
		return run(&version_cmd, argc - 1, argv + 1);
	if ((c = sr_cmd_find(argv[1])))
		return run(c, argc - 1, argv + 1);
	{
		struct sr_diag d = SR_DIAG_INIT;
		char hint[SR_SUGGEST_HINT];

		sr_fail(&d, SR_EUSAGE, "unknown command '%s'%s", argv[1],
			sr_cmd_hint(argv[1], hint, sizeof(hint)));
		sr_report(&d);
	}
	fprintf(stderr, "schedreplay: see 'schedreplay help'\n");
	return SR_EUSAGE;
}

#ifndef SR_NO_MAIN
/* Descriptors 0-2 held on /dev/null when the caller closed them, so no
 * file we open becomes stdin, stdout or stderr (and gnuplot, run with
 * our stdin, never reads a file we write). */
static void hold_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 &&
		    open("/dev/null", fd ? O_WRONLY : O_RDONLY) < 0)
			return;
}

int main(int argc, char **argv)
{
	hold_std_fds();
	return sr_main(argc, argv);
}
#endif
