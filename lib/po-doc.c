/*
 * po-doc: option tables as man(7) sections and completion words (see
 * po-doc.h).
 */
#include <ctype.h>
#include <string.h>

#include "lib/po-doc.h"

#define DESC_MAX 70 /* columns of a completion description */

void po_man_text(FILE *f, const char *text)
{
	bool bol = true; /* at the beginning of an output line */

	for (const char *p = text; *p; p++) {
		char ch = *p == '\n' ? ' ' : *p;

		if (bol && ch == ' ')
			continue;
		if (bol && (ch == '.' || ch == '\''))
			fputs("\\&", f);
		bol = false;
		if (ch == '\\')
			fputs("\\e", f);
		else if (ch == '-')
			fputs("\\-", f);
		else
			fputc(ch, f);
	}
	fputc('\n', f);
}

static void man_opt_tag(FILE *f, const struct po_option *o)
{
	fputs(".TP\n", f);
	if (o->short_name)
		fprintf(f, "\\fB\\-%c\\fR", o->short_name);
	if (o->short_name && o->long_name)
		fputs(", ", f);
	if (o->long_name) {
		fputs("\\fB\\-\\-", f);
		for (const char *p = o->long_name; *p; p++)
			fputs(*p == '-' ? "\\-" : (char[2]){ *p, 0 }, f);
		fputs("\\fR", f);
	}
	if (o->type != PO_FLAG && o->argh) {
		fputs(" \\fI", f);
		for (const char *p = o->argh; *p; p++)
			fputs(*p == '-' ? "\\-" : (char[2]){ *p, 0 }, f);
		fputs("\\fR", f);
	}
	fputc('\n', f);
}

void po_man(const struct po_cmd *c, FILE *f)
{
	const struct po_option help = {
		.type = PO_FLAG, .short_name = 'h', .long_name = "help",
		.help = "this help",
	};
	bool any = c->opts[0].type != PO_END;

	fputs(".SH ", f);
	for (const char *p = c->name; *p; p++)
		fputc(toupper((unsigned char)*p), f);
	fprintf(f, "\n.B schedreplay %s\n", c->name);
	if (any)
		fputs("[\\fIOPTIONS\\fR]\n", f);
	if (c->operands)
		fprintf(f, "\\fI%s\\fR\n", c->operands);
	if (c->about) {
		fputs(".PP\n", f);
		po_man_text(f, c->about);
	}
	for (const struct po_option *o = c->opts; o->type != PO_END; o++) {
		if (o->type == PO_GROUP) {
			fputs(".SS \"", f);
			for (const char *p = o->help; *p; p++)
				fputs(*p == '"' ? "\\(dq" : *p == '-' ? "\\-"
				      : (char[2]){ *p, 0 }, f);
			fputs("\"\n", f);
			continue;
		}
		if (o->type == PO_MOVED)
			continue;
		man_opt_tag(f, o);
		if (o->help && *o->help)
			po_man_text(f, o->help);
	}
	man_opt_tag(f, &help);
	po_man_text(f, help.help);
	if (c->footer) {
		fputs(".PP\n", f);
		po_man_text(f, c->footer);
	}
}

/* the help text on one line, cut at a word before DESC_MAX columns */
static void desc(FILE *f, const char *help)
{
	size_t n = 0, cut = 0;

	if (!help || !*help) {
		fputc('-', f);
		return;
	}
	for (; help[n] && n < DESC_MAX; n++)
		if (help[n] == ' ' || help[n] == '\n')
			cut = n;
	if (!help[n] || !cut)
		cut = n;
	for (size_t i = 0; i < cut; i++)
		fputc(help[i] == '\n' || help[i] == '\t' ? ' ' : help[i], f);
}

static void complete_one(FILE *f, const char *name, const struct po_option *o)
{
	static const char *const kind[] = {
		[PO_FLAG] = "flag", [PO_SET] = "flag", [PO_STRING] = "arg",
		[PO_LIST] = "list",
		[PO_CHOICE] = "choice", [PO_NUMBER] = "arg",
		[PO_CALLBACK] = "list",
	};

	fprintf(f, "%s\t%s\t", name, kind[o->type]);
	if (o->type == PO_CHOICE) {
		for (size_t i = 0; o->choices[i]; i++)
			fprintf(f, "%s%s", i ? " " : "", o->choices[i]);
	} else {
		fputs(o->type != PO_FLAG && o->argh ? o->argh : "-", f);
	}
	fputc('\t', f);
	desc(f, o->help);
	fputc('\n', f);
}

void po_complete(const struct po_cmd *c, FILE *f)
{
	const struct po_option help = {
		.type = PO_FLAG, .short_name = 'h', .long_name = "help",
		.help = "this help",
	};
	char name[80];

	for (const struct po_option *o = c->opts;; o++) {
		const struct po_option *x = o->type == PO_END ? &help : o;

		if (x->type == PO_GROUP || x->type == PO_MOVED)
			continue;
		if (x->long_name) {
			snprintf(name, sizeof(name), "--%s", x->long_name);
			complete_one(f, name, x);
		}
		if (x->short_name) {
			snprintf(name, sizeof(name), "-%c", x->short_name);
			complete_one(f, name, x);
		}
		if (o->type == PO_END)
			break;
	}
	if (c->operands && c->max_operands)
		fprintf(f, "operand\targ\t%s\t-\n", c->operands);
}
