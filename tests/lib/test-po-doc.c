/*
 * test-po-doc: an option table as a man(7) section and as completion
 * words (lib/po-doc.h): roff escapes (backslash, '-', a leading '.' or
 * '\''), the groups, the -h row, the synopsis; one completion line per
 * option form with its kind and argument, the choices, the operand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/po-doc.h"
#include "tests/lib/test.h"

static bool flag, many;
static const char *str, *list[4];
static size_t nlist;
static int choice;
static int64_t num;

static const char *const colours[] = { "red", "green", NULL };

static const struct po_option opts[] = {
	OPT_GROUP("output"),
	OPT_FLAG('q', "quiet", &flag, "say nothing;\n.hidden? no"),
	OPT_PATH('o', "output", &str, "FILE", "write to C:\\tmp-ish"),
	OPT_GROUP("what \"to\" do"),
	OPT_LIST(0, "policy", list, &nlist, 4, "P", "a policy"),
	OPT_CHOICE(0, "colour", &choice, colours, "NAME", "red or green"),
	OPT_NUMBER(0, "cs-cost", &num, "TIME", "'quoted' cost", 0, 10, NULL),
	OPT_FLAG(0, "many", &many, NULL),
	OPT_END(),
};

static const struct po_cmd cmd = {
	.name = "show-me",
	.operands = "TRACE",
	.min_operands = 1,
	.max_operands = 1,
	.about = ".about starts with a dot",
	.footer = "foot-note",
	.opts = opts,
};

/* f's text, after calling fn on it (malloc'd). */
static char *render(void (*fn)(const struct po_cmd *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(&cmd, f);
	fclose(f);
	return buf;
}

static const char man_want[] =
	".SH SHOW-ME\n"
	".B schedreplay show-me\n"
	"[\\fIOPTIONS\\fR]\n"
	"\\fITRACE\\fR\n"
	".PP\n"
	"\\&.about starts with a dot\n"
	".SS \"output\"\n"
	".TP\n"
	"\\fB\\-q\\fR, \\fB\\-\\-quiet\\fR\n"
	"say nothing; .hidden? no\n"
	".TP\n"
	"\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fIFILE\\fR\n"
	"write to C:\\etmp\\-ish\n"
	".SS \"what \\(dqto\\(dq do\"\n"
	".TP\n"
	"\\fB\\-\\-policy\\fR \\fIP\\fR\n"
	"a policy\n"
	".TP\n"
	"\\fB\\-\\-colour\\fR \\fINAME\\fR\n"
	"red or green\n"
	".TP\n"
	"\\fB\\-\\-cs\\-cost\\fR \\fITIME\\fR\n"
	"\\&'quoted' cost\n"
	".TP\n"
	"\\fB\\-\\-many\\fR\n"
	".TP\n"
	"\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n"
	"this help\n"
	".PP\n"
	"foot\\-note\n";

static const char complete_want[] =
	"--quiet\tflag\t-\tsay nothing; .hidden? no\n"
	"-q\tflag\t-\tsay nothing; .hidden? no\n"
	"--output\targ\tFILE\twrite to C:\\tmp-ish\n"
	"-o\targ\tFILE\twrite to C:\\tmp-ish\n"
	"--policy\tlist\tP\ta policy\n"
	"--colour\tchoice\tred green\tred or green\n"
	"--cs-cost\targ\tTIME\t'quoted' cost\n"
	"--many\tflag\t-\t-\n"
	"--help\tflag\t-\tthis help\n"
	"-h\tflag\t-\tthis help\n"
	"operand\targ\tTRACE\t-\n";

int main(void)
{
	char *man = render(po_man), *comp = render(po_complete);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK_STR(man, man_want);
	CHECK_STR(comp, complete_want);
	free(man);
	free(comp);

	/* a description is cut at a word before 70 columns */
	{
		static const struct po_option o2[] = {
			OPT_FLAG(0, "long", &flag, "one two three four five six "
				 "seven eight nine ten eleven twelve thirteen "
				 "fourteen"),
			OPT_END(),
		};
		const struct po_cmd c2 = {
			.name = "x",
			.min_operands = 0,
			.max_operands = 0,
			.opts = o2,
		};

		f = open_memstream(&buf, &len);
		po_complete(&c2, f);
		fclose(f);
		CHECK_STR(buf, "--long\tflag\t-\tone two three four five six "
			  "seven eight nine ten eleven twelve\n"
			  "--help\tflag\t-\tthis help\n"
			  "-h\tflag\t-\tthis help\n");
		free(buf);
	}
	/* a man text: backslash, '-', and a leading quote after '\n' */
	buf = NULL;
	f = open_memstream(&buf, &len);
	po_man_text(f, "a\\b -c\n'd");
	fclose(f);
	CHECK_STR(buf, "a\\eb \\-c 'd\n");
	free(buf);
	return test_done("test-po-doc");
}
