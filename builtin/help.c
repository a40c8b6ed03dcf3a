/*
 * builtin/help: `schedreplay help [COMMAND]`, and what is made from the
 * commands' option tables: the manual page (`help --man`, one section per
 * command from its table, the policies from the policy table) and the
 * words shell completion offers (`help --complete [COMMAND]`, read by
 * completion/schedreplay.bash and completion/_schedreplay).
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "lib/po-doc.h"
#include "lib/suggest.h"
#include "sched-model/policy.h"

/* The page around the commands' sections: roff, written as it is. */
static const char man_head[] =
	".SH NAME\n"
	"schedreplay \\- replay recorded Linux scheduler traces under the "
	"2.6.0\\-test O(1) scheduler models\n"
	".SH SYNOPSIS\n"
	".B schedreplay\n"
	"\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fITRACE\\fR]\n"
	".br\n"
	".B schedreplay help\n"
	"[\\fICOMMAND\\fR]\n"
	".br\n"
	".B schedreplay \\-\\-version\n"
	".SH DESCRIPTION\n"
	"How would this recorded workload have been scheduled under another "
	"CPU scheduler policy?\n"
	".B schedreplay\n"
	"reads a scheduler trace of a real workload (perf script, ftrace, "
	"trace\\-cmd report or systrace text, plain or gzip, or its own native "
	"format), extracts what each task asked of the CPU, and replays that "
	"demand in a discrete\\-event simulator through models of the Linux "
	"2.6.0\\-test2 O(1) scheduler, of 2.6.0\\-test2\\-mm1 and of "
	"test2\\-mm1 with the O11int patch.\n"
	"It writes per\\-task priority and latency timelines and statistics, "
	"diffs policies on the same trace, draws plots with gnuplot, and "
	"exports the schedules for Perfetto.\n"
	".PP\n"
	"Options take \\fB\\-\\-opt=value\\fR or \\fB\\-\\-opt value\\fR, "
	"\\fB\\-oVALUE\\fR or \\fB\\-o VALUE\\fR; \\fB\\-\\-\\fR ends the "
	"options; \\fB\\-\\fR names standard input or output.\n"
	"Output files are written to a temporary name and renamed into place; "
	"the same input and options give the same bytes.\n"
	"On a terminal, a long read and replay shows a progress line on "
	"standard error (\\fB\\-q\\fR turns it off).\n"
	".SH COMMANDS\n";

static const char man_tail[] =
	".SH EXIT STATUS\n"
	".TP\n0\nsuccess\n"
	".TP\n64\nbad command line\n"
	".TP\n65\nbad input data (the message names FILE:LINE and what was "
	"expected)\n"
	".TP\n66\ninput file missing or unreadable\n"
	".TP\n69\ngnuplot unavailable or failed (the scripts and data are "
	"written all the same)\n"
	".TP\n70\ninternal error (a broken invariant: a bug)\n"
	".TP\n71\nout of memory\n"
	".TP\n74\nread or write error\n"
	".SH ENVIRONMENT\n"
	".TP\n.B TMPDIR\n"
	"where temporary directories and files go (default /tmp)\n"
	".TP\n.B SCHEDREPLAY_PROGRESS_DELAY\n"
	"seconds before the progress line first shows (default 2; 0 shows "
	"it from the start)\n"
	".SH EXAMPLES\n"
	"Record a workload, then compare the stock scheduler with O11int:\n"
	".PP\n.RS\n.nf\n"
	"sudo perf sched record \\-e sched:sched_wakeup \\-\\- make \\-j4\n"
	"perf script | gzip > my.perf.txt.gz\n"
	"schedreplay stats my.perf.txt.gz\n"
	"schedreplay diff my.perf.txt.gz \\-\\-tree perf\\-exec\n"
	"schedreplay report my.perf.txt.gz \\-o report\n"
	"schedreplay export my.perf.txt.gz \\-o my.json\n"
	".fi\n.RE\n"
	".PP\n"
	"Open my.json in ui.perfetto.dev or chrome://tracing.\n"
	".SH SEE ALSO\n"
	".BR perf\\-sched (1),\n"
	".BR perf\\-script (1),\n"
	".BR trace\\-cmd (1),\n"
	".BR gnuplot (1)\n"
	".PP\n"
	"The documents installed in share/doc/schedreplay under the "
	"installation prefix: README.md, and in docs/ the trace formats, the "
	"models rule by rule, the metrics, the replay, the plots and the "
	"limits.\n";

static int man_page(FILE *f, struct sr_diag *d)
{
	fprintf(f, ".\\\" schedreplay(1): made by `schedreplay help --man` "
		"from the commands' option tables\n"
		".TH SCHEDREPLAY 1 \"\" \"schedreplay %s\" \"User Commands\"\n"
		".nh\n.ad l\n",
		SR_VERSION);
	fputs(man_head, f);
	for (const struct sr_cmd *c = sr_commands; c->name; c++) {
		fprintf(f, ".TP\n.B %s\n", c->name);
		po_man_text(f, c->usage);
	}
	for (const struct sr_cmd *c = sr_commands; c->name; c++) {
		char *av[] = { (char *)c->name, "--help=man", NULL };
		int rc = c->fn(2, av, d);

		if (rc)
			return rc;
	}
	fputs(".SH SCHEDULER MODELS\n"
	      "The scheduler models \\fB\\-\\-policy\\fR accepts (as "
	      "\\fBschedreplay policies\\fR lists them), and "
	      "\\fBobserved\\fR, the recorded schedule itself:\n", f);
	for (const struct sm_policy *const *p = sm_policies; *p; p++) {
		char line[512];
		size_t n = 0;

		fprintf(f, ".TP\n.B %s\n", (*p)->name);
		for (const char *const *a = (*p)->aliases; *a; a++)
			if (n < sizeof(line))
				n += (size_t)snprintf(line + n, sizeof(line) - n,
						      "%s%s", n ? ", " : "(also ",
						      *a);
		if (n < sizeof(line))
			snprintf(line + n, sizeof(line) - n, "%s%s",
				 n ? ") " : "", (*p)->summary);
		po_man_text(f, line);
	}
	fputs(man_tail, f);
	return SR_OK;
}

int cmd_help(int argc, char **argv, struct sr_diag *d)
{
	bool man = false, complete = false;
	const struct po_option opts[] = {
		OPT_FLAG(0, "man", &man, "the manual page (man(7) source), "
			 "made from the commands' option tables"),
		OPT_FLAG(0, "complete", &complete, "for shell completion: the "
			 "commands, or COMMAND's options, one per line"),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "help",
		.operands = "[COMMAND]",
		.min_operands = 0,
		.max_operands = 1,
		.about = "The commands, or COMMAND's options (as COMMAND --help).",
		.opts = opts,
	};
	const char *name = NULL;
	const struct sr_cmd *c;
	char hint[SR_SUGGEST_HINT];
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &name, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	if (man)
		return n ? sr_fail(d, SR_EUSAGE, "help: --man takes no "
				   "COMMAND (the page has them all)")
			 : man_page(stdout, d);
	if (!n && complete) {
		for (c = sr_commands; c->name; c++)
			printf("%s\t%s\n", c->name, c->usage);
		return SR_OK;
	}
	if (!n) {
		sr_usage(stdout);
		return SR_OK;
	}
	if (!(c = sr_cmd_find(name)))
		return sr_fail(d, SR_EUSAGE, "unknown command '%s'%s", name,
			       sr_cmd_hint(name, hint, sizeof(hint)));
	{
		char *av[] = { (char *)c->name,
			       complete ? "--help=complete" : "--help", NULL };

		return c->fn(2, av, d);
	}
}
