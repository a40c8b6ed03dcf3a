/*
 * parse-options: every command's options, declared once in a table that
 * both parses argv and prints --help, so help cannot drift from what is
 * accepted.
 *
 *	bool tsv = false;
 *	const char *out = NULL;
 *	int64_t cost = 0;
 *	const struct po_option opts[] = {
 *		OPT_GROUP("output"),
 *		OPT_FLAG(0, "tsv", &tsv, "tab-separated"),
 *		OPT_STRING('o', "output", &out, "FILE", "write to FILE"),
 *		OPT_NUMBER(0, "cs-cost", &cost, "TIME", "switch cost", 0,
 *			   PO_NS_PER_S, po_time_units),
 *		OPT_END(),
 *	};
 *	const struct po_cmd cmd = {
 *		.name = "stats", .operands = "TRACE",
 *		.min_operands = 1, .max_operands = 1,
 *		.about = "About.", .opts = opts,
 *	};
 *	const char *trace;
 *	size_t n;
 *	int rc = po_parse(&cmd, argc, argv, &trace, &n, d);
 *	if (rc)
 *		return rc == PO_HELP ? SR_OK : rc;
 *
 * Accepted forms: --name=value and --name value; -o value and -ovalue;
 * short flags together (-qv); "--" ends the options; "-" is an operand
 * (stdin).  Long names match exactly, never by abbreviation.  Options and
 * operands may come in any order.  -h and --help print the help on stdout
 * and return PO_HELP.  Every error is SR_EUSAGE with the reason in d
 * ("stats: unknown option '--bogus'"); schedreplay.c adds the one hint
 * line.
 */
#ifndef SR_PARSE_OPTIONS_H
#define SR_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/diag.h"

/* Returned by po_parse when -h/--help printed the help: exit 0. */
#define PO_HELP (-1)

enum po_type {
	PO_END = 0,
	PO_GROUP,    /* a heading in --help; help is its title */
	PO_FLAG,     /* bool *value set to true */
	PO_SET,      /* int *value set to min (git's OPT_SET_INT): options
			that set one variable to different values exclude
			each other ("--tsv and --json exclude each other") */
	PO_STRING,   /* const char **value set to the argument (min 1: a
			path, not empty) */
	PO_LIST,     /* const char *value[max], *count of them: repeatable */
	PO_CHOICE,   /* an int or enum *value set to the argument's index in
			choices (NULL-terminated) */
	PO_NUMBER,   /* an integer *value (int, int64_t, size_t, ...) in
			[min, max], with unit suffixes when units is set */
	PO_CALLBACK, /* cb(opt, arg, d) decides */
	PO_MOVED,    /* a name that no longer means what it did here: given,
			it is refused with help as the reason (where its
			meaning went); in no help, man page or completion */
};

/*
 * A unit suffix and what it multiplies by; the first entry with an empty
 * suffix is the unit of a bare number.  A number with a unit may have a
 * decimal fraction if the product is whole ("1.5ms").
 */
struct po_unit {
	const char *suffix;
	int64_t mul;
};

#define PO_NS_PER_S 1000000000LL
/* Times in ns: ns (default), us, ms, s. */
extern const struct po_unit po_time_units[];
/* Times in ns where a bare number is milliseconds: ms (default), ns, us, s. */
extern const struct po_unit po_time_units_ms[];
/* Times in ns where a bare number is seconds: s (default), ns, us, ms. */
extern const struct po_unit po_time_units_s[];

struct po_option;
typedef int (*po_cb)(const struct po_option *opt, const char *arg,
		     struct sr_diag *d);

struct po_option {
	enum po_type type;
	int short_name;           /* 'o', or 0 */
	const char *long_name;    /* "output", or NULL */
	void *value;
	size_t size;              /* PO_NUMBER, PO_CHOICE: sizeof(*value) */
	const char *argh;         /* the argument's name in help; NULL: none */
	const char *help;         /* may hold '\n' for more lines */
	int64_t min, max;         /* PO_NUMBER: range; PO_LIST: max in max */
	const struct po_unit *units;
	const char *const *choices;
	size_t *count;            /* PO_LIST */
	po_cb cb;
};

/* Type-checked pointers: a wrong pointer type is a compiler warning. */
#define PO_PTR(type, p) (1 ? (p) : (type *)0)

#define OPT_END() { .type = PO_END }
#define OPT_GROUP(title) { .type = PO_GROUP, .help = (title) }
#define OPT_FLAG(s, l, v, h) \
	{ .type = PO_FLAG, .short_name = (s), .long_name = (l), \
	  .value = PO_PTR(bool, v), .help = (h) }
#define OPT_SET_INT(s, l, v, h, i) \
	{ .type = PO_SET, .short_name = (s), .long_name = (l), \
	  .value = PO_PTR(int, v), .help = (h), .min = (i) }
#define OPT_STRING(s, l, v, a, h) \
	{ .type = PO_STRING, .short_name = (s), .long_name = (l), \
	  .value = PO_PTR(const char *, v), .argh = (a), .help = (h) }
/* An output file or directory: "" is refused (lib/path.h). */
#define OPT_PATH(s, l, v, a, h) \
	{ .type = PO_STRING, .short_name = (s), .long_name = (l), \
	  .value = PO_PTR(const char *, v), .argh = (a), .help = (h), \
	  .min = 1 }
#define OPT_LIST(s, l, v, n, maxn, a, h) \
	{ .type = PO_LIST, .short_name = (s), .long_name = (l), \
	  .value = PO_PTR(const char *, v), .count = PO_PTR(size_t, n), \
	  .max = (maxn), .argh = (a), .help = (h) }
#define OPT_CHOICE(s, l, v, names, a, h) \
	{ .type = PO_CHOICE, .short_name = (s), .long_name = (l), \
	  .value = (v), .size = sizeof(*(v)), .choices = (names), \
	  .argh = (a), .help = (h) }
#define OPT_NUMBER(s, l, v, a, h, lo, hi, u) \
	{ .type = PO_NUMBER, .short_name = (s), .long_name = (l), \
	  .value = (v), .size = sizeof(*(v)), .argh = (a), .help = (h), \
	  .min = (lo), .max = (hi), .units = (u) }
#define OPT_CALLBACK(s, l, v, a, h, fn) \
	{ .type = PO_CALLBACK, .short_name = (s), .long_name = (l), \
	  .value = (v), .argh = (a), .help = (h), .cb = (fn) }

#define OPT_MOVED(l, why) \
	{ .type = PO_MOVED, .long_name = (l), .help = (why) }

/* A command: its name, operands and options. */
struct po_cmd {
	const char *name;         /* "stats" */
	const char *operands;     /* in the usage line: "TRACE" */
	size_t min_operands, max_operands;
	const char *about;        /* a paragraph after the usage line */
	const char *footer;       /* a paragraph at the end, or NULL */
	const struct po_option *opts; /* ends with OPT_END() */
};

/*
 * Parse argv (argv[0] is the command's name): options into their values,
 * operands into operands[0 .. *n-1] (room for c->max_operands).  Returns
 * SR_OK, PO_HELP, or SR_EUSAGE with the reason in d.
 */
int po_parse(const struct po_cmd *c, int argc, char **argv,
	     const char **operands, size_t *n, struct sr_diag *d);

/* The help: usage line, about, options by group, footer. */
void po_usage(const struct po_cmd *c, FILE *f);

/*
 * The one checked number parser: s as an integer in [min, max] (after
 * units, when units is set), else SR_EUSAGE naming what (an option,
 * "--warm") and what was expected.
 */
int po_number(const char *what, const char *s, int64_t min, int64_t max,
	      const struct po_unit *units, int64_t *out, struct sr_diag *d);

/* The name of opt for messages: "--output" or "-o". */
const char *po_name(const struct po_option *opt, char *buf, size_t len);

#endif
