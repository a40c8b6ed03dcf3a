/*
 * parse-options: one table per command parses argv and prints --help
 * (see parse-options.h).
 */
#include <string.h>

#include "lib/parse-options.h"
#include "lib/path.h"
#include "lib/po-doc.h"
#include "lib/suggest.h"

const struct po_unit po_time_units[] = {
	{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	{ "s", PO_NS_PER_S }, { NULL, 0 },
};

const struct po_unit po_time_units_ms[] = {
	{ "", 1000000 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	{ "s", PO_NS_PER_S }, { NULL, 0 },
};

const struct po_unit po_time_units_s[] = {
	{ "", PO_NS_PER_S }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
	{ "s", PO_NS_PER_S }, { NULL, 0 },
};

#define HELP_COL 28   /* where help text starts in --help */
#define HELP_WIDTH 52 /* and how wide it is */
#define TEXT_WIDTH 72 /* paragraphs */

static bool takes_arg(const struct po_option *o)
{
	return o->type != PO_FLAG && o->type != PO_SET;
}

const char *po_name(const struct po_option *opt, char *buf, size_t len)
{
	if (opt->long_name)
		snprintf(buf, len, "--%s", opt->long_name);
	else
		snprintf(buf, len, "-%c", opt->short_name);
	return buf;
}

/* v with the largest unit that divides it ("1s", "250us"), or bare. */
static char *fmt_unit(char *buf, size_t len, int64_t v,
		      const struct po_unit *units)
{
	const struct po_unit *best = NULL;

	for (const struct po_unit *u = units; u && u->suffix; u++)
		if (u->suffix[0] && v % u->mul == 0 &&
		    (!best || u->mul > best->mul))
			best = u;
	if (best && v != 0)
		snprintf(buf, len, "%lld%s", (long long)(v / best->mul),
			 best->suffix);
	else
		snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

static int bad_number(const char *what, const char *s, int64_t min,
		      int64_t max, const struct po_unit *units,
		      struct sr_diag *d)
{
	char lo[32], hi[32], range[80], list[96] = "";
	size_t n = 0;
	const char *bare = NULL;

	fmt_unit(lo, sizeof(lo), min, units);
	if (max >= INT64_MAX / 4) /* no bound worth naming */
		snprintf(range, sizeof(range), "of at least %s", lo);
	else
		snprintf(range, sizeof(range), "from %s to %s", lo,
			 fmt_unit(hi, sizeof(hi), max, units));
	if (!units)
		return sr_fail(d, SR_EUSAGE, "%s: expected an integer %s, got "
			       "'%s'", what, range, s);
	for (const struct po_unit *u = units; u->suffix; u++) {
		if (!u->suffix[0]) {
			for (const struct po_unit *v = units; v->suffix; v++)
				if (v->suffix[0] && v->mul == u->mul)
					bare = v->suffix;
			continue;
		}
		if (n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      "%s%s", n ? ", " : "", u->suffix);
	}
	return sr_fail(d, SR_EUSAGE, "%s: expected a number %s with a unit "
		       "among %s (none: %s), got '%s'", what, range, list,
		       bare ? bare : "?", s);
}

int po_number(const char *what, const char *s, int64_t min, int64_t max,
	      const struct po_unit *units, int64_t *out, struct sr_diag *d)
{
	const char *p = s;
	bool neg = false;
	__int128 ip = 0, frac = 0, scale = 1, v;
	int nd = 0;
	const struct po_unit *unit = NULL;

	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (; *p >= '0' && *p <= '9'; p++, nd++) {
		ip = ip * 10 + (*p - '0');
		if (ip > INT64_MAX)
			return bad_number(what, s, min, max, units, d);
	}
	if (*p == '.' && units) {
		for (p++; *p >= '0' && *p <= '9'; p++, nd++) {
			if (scale > INT64_MAX)
				return bad_number(what, s, min, max, units, d);
			frac = frac * 10 + (*p - '0');
			scale *= 10;
		}
	}
	if (nd == 0)
		return bad_number(what, s, min, max, units, d);
	for (const struct po_unit *u = units; u && u->suffix; u++) {
		if (!strcmp(p, u->suffix)) {
			unit = u;
			break;
		}
	}
	if (!unit && *p)
		return bad_number(what, s, min, max, units, d);
	v = ip * (unit ? unit->mul : 1);
	if (unit && (frac * unit->mul) % scale)
		return bad_number(what, s, min, max, units, d);
	if (unit)
		v += frac * unit->mul / scale;
	if (neg)
		v = -v;
	if (v < min || v > max)
		return bad_number(what, s, min, max, units, d);
	*out = (int64_t)v;
	return SR_OK;
}

static void store_int(const struct po_option *o, int64_t v)
{
	if (o->size == sizeof(int32_t)) {
		int32_t x = (int32_t)v;

		memcpy(o->value, &x, sizeof(x));
	} else {
		memcpy(o->value, &v, sizeof(v));
	}
}

static int bad_choice(const char *what, const char *const *names,
		      const char *v, struct sr_diag *d)
{
	char list[256] = "", hint[SR_SUGGEST_HINT];
	size_t n = 0, k = 0;
	struct sr_suggest s;

	while (names[k])
		k++;
	for (size_t i = 0; i < k && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      i == 0 ? "" : i + 1 == k ? " or " : ", ",
				      names[i]);
	sr_suggest_init(&s, v, strlen(v));
	for (size_t i = 0; i < k; i++)
		sr_suggest_add(&s, names[i]);
	return sr_fail(d, SR_EUSAGE, "%s: expected %s, got '%s'%s", what, list,
		       v, sr_suggest_hint(&s, "", hint, sizeof(hint)));
}

/* o would set *value where another option of c set it already: name the
 * two in the table's order. */
static int set_conflict(const struct po_cmd *c, const struct po_option *o,
			struct sr_diag *d)
{
	const struct po_option *p, *first = o, *second = NULL;
	char a[64], b[64];

	for (p = c->opts; p->type != PO_END; p++) {
		if (p->type != PO_SET || p->value != o->value ||
		    p->min != *(int *)o->value)
			continue;
		first = p < o ? p : o;
		second = p < o ? o : p;
		break;
	}
	po_name(first, a, sizeof(a));
	if (!second)
		return sr_fail(d, SR_EUSAGE, "%s: %s excludes an option given "
			       "before", c->name, a);
	po_name(second, b, sizeof(b));
	return sr_fail(d, SR_EUSAGE, "%s: %s and %s exclude each other",
		       c->name, a, b);
}

static int apply(const struct po_cmd *c, const struct po_option *o,
		 const char *v, struct sr_diag *d)
{
	char name[64];
	int64_t x;

	po_name(o, name, sizeof(name));
	switch (o->type) {
	case PO_FLAG:
		*(bool *)o->value = true;
		return SR_OK;
	case PO_SET:
		if (*(int *)o->value && *(int *)o->value != (int)o->min)
			return set_conflict(c, o, d);
		*(int *)o->value = (int)o->min;
		return SR_OK;
	case PO_STRING:
		if (o->min && sr_outpath_check(name, v, d))
			return d->code;
		*(const char **)o->value = v;
		return SR_OK;
	case PO_LIST:
		if (*o->count >= (size_t)o->max)
			return sr_fail(d, SR_EUSAGE, "%s: %s at most %lld times",
				       c->name, name, (long long)o->max);
		((const char **)o->value)[(*o->count)++] = v;
		return SR_OK;
	case PO_CHOICE:
		for (size_t i = 0; o->choices[i]; i++) {
			if (!strcmp(v, o->choices[i])) {
				store_int(o, (int64_t)i);
				return SR_OK;
			}
		}
		return bad_choice(name, o->choices, v, d);
	case PO_NUMBER:
		if (po_number(name, v, o->min, o->max, o->units, &x, d))
			return d->code;
		store_int(o, x);
		return SR_OK;
	case PO_CALLBACK:
		return o->cb(o, v, d);
	case PO_MOVED:
		return sr_fail(d, SR_EUSAGE, "%s: %s %s", c->name, name, o->help);
	case PO_END:
	case PO_GROUP:
		break;
	}
	return sr_fail(d, SR_EINTERNAL, "%s: option table: bad entry %s",
		       c->name, name);
}

static const struct po_option *find_long(const struct po_option *opts,
					 const char *name, size_t len)
{
	for (const struct po_option *o = opts; o->type != PO_END; o++)
		if (o->type != PO_GROUP && o->long_name &&
		    strlen(o->long_name) == len &&
		    !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

static const struct po_option *find_short(const struct po_option *opts,
					  int c)
{
	for (const struct po_option *o = opts; o->type != PO_END; o++)
		if (o->type != PO_GROUP && o->short_name == c)
			return o;
	return NULL;
}

/* --name not in c's table: the nearest names, if any is near (a moved
 * name is in no help, so in no suggestion). */
static int unknown_long(const struct po_cmd *c, const char *a, size_t len,
			struct sr_diag *d)
{
	struct sr_suggest s;
	char hint[SR_SUGGEST_HINT];

	sr_suggest_init(&s, a, len);
	for (const struct po_option *o = c->opts; o->type != PO_END; o++)
		if (o->type != PO_GROUP && o->type != PO_MOVED)
			sr_suggest_add(&s, o->long_name);
	sr_suggest_add(&s, "help");
	return sr_fail(d, SR_EUSAGE, "%s: unknown option '--%.*s'%s", c->name,
		       (int)len, a, sr_suggest_hint(&s, "--", hint,
						     sizeof(hint)));
}

static int help(const struct po_cmd *c)
{
	po_usage(c, stdout);
	return PO_HELP;
}

/* --help=man, --help=complete: the table for the man page and for shell
 * completion (lib/po-doc.h); not listed in the help itself. */
static int help_as(const struct po_cmd *c, const char *how, struct sr_diag *d)
{
	if (!strcmp(how, "man"))
		po_man(c, stdout);
	else if (!strcmp(how, "complete"))
		po_complete(c, stdout);
	else
		return sr_fail(d, SR_EUSAGE, "%s: --help: expected man or "
			       "complete, got '%s'", c->name, how);
	return PO_HELP;
}

/* --name, --name=value, --name value; *i moves past a value taken. */
static int parse_long(const struct po_cmd *c, int argc, char **argv, int *i,
		      struct sr_diag *d)
{
	const char *a = argv[*i] + 2, *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	const struct po_option *o = find_long(c->opts, a, len);

	if (!o && !eq && !strcmp(a, "help"))
		return help(c);
	if (!o && eq && len == 4 && !strncmp(a, "help", 4))
		return help_as(c, eq + 1, d);
	if (!o)
		return unknown_long(c, a, len, d);
	if (o->type == PO_MOVED) /* refused, with or without a value */
		return apply(c, o, NULL, d);
	if (!takes_arg(o)) {
		if (eq)
			return sr_fail(d, SR_EUSAGE, "%s: --%s takes no value",
				       c->name, o->long_name);
		return apply(c, o, NULL, d);
	}
	if (eq)
		return apply(c, o, eq + 1, d);
	if (*i + 1 >= argc)
		return sr_fail(d, SR_EUSAGE, "%s: --%s expects a value",
			       c->name, o->long_name);
	return apply(c, o, argv[++*i], d);
}

/* -x, -xy (flags together), -oVALUE, -o VALUE. */
static int parse_short(const struct po_cmd *c, int argc, char **argv, int *i,
		       struct sr_diag *d)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct po_option *o = find_short(c->opts, *p);
		int rc;

		if (!o && *p == 'h')
			return help(c);
		if (!o)
			return sr_fail(d, SR_EUSAGE, "%s: unknown option '-%c'",
				       c->name, *p);
		if (!takes_arg(o)) {
			if ((rc = apply(c, o, NULL, d)))
				return rc;
			continue;
		}
		if (p[1])
			return apply(c, o, p + 1, d);
		if (*i + 1 >= argc)
			return sr_fail(d, SR_EUSAGE, "%s: -%c expects a value",
				       c->name, *p);
		return apply(c, o, argv[++*i], d);
	}
	return SR_OK;
}

static int operand(const struct po_cmd *c, const char *a,
		   const char **operands, size_t *n, struct sr_diag *d)
{
	if (*n < c->max_operands) {
		operands[(*n)++] = a;
		return SR_OK;
	}
	if (c->max_operands == 0)
		return sr_fail(d, SR_EUSAGE, "%s: unexpected argument '%s' "
			       "(it takes none)", c->name, a);
	if (c->max_operands == 1)
		return sr_fail(d, SR_EUSAGE, "%s: expected one %s, got '%s' "
			       "and '%s'", c->name, c->operands, operands[0],
			       a);
	return sr_fail(d, SR_EUSAGE, "%s: expected at most %zu operands "
		       "(%s), got '%s' as well", c->name, c->max_operands,
		       c->operands, a);
}

int po_parse(const struct po_cmd *c, int argc, char **argv,
	     const char **operands, size_t *n, struct sr_diag *d)
{
	bool end = false;
	int rc;

	*n = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (end || a[0] != '-' || a[1] == '\0')
			rc = operand(c, a, operands, n, d);
		else if (!strcmp(a, "--"))
			end = true, rc = SR_OK;
		else if (a[1] == '-')
			rc = parse_long(c, argc, argv, &i, d);
		else
			rc = parse_short(c, argc, argv, &i, d);
		if (rc)
			return rc;
	}
	if (*n < c->min_operands)
		return sr_fail(d, SR_EUSAGE, "%s: expected a%s %s argument",
			       c->name, strchr("AEIOU", c->operands[0]) ? "n" : "",
			       c->operands);
	return SR_OK;
}

/* text wrapped at spaces to width columns ('\n' breaks a line too), its
 * lines after the first indented by indent */
static void put_wrapped(FILE *f, const char *text, int indent, size_t width)
{
	const char *p = text;
	size_t col = 0;

	while (*p) {
		size_t w = strcspn(p, " \n");

		if (w == 0 && *p == ' ') { /* spaces run together */
			p++;
			continue;
		}
		if (col && col + 1 + w > width) {
			fprintf(f, "\n%*s", indent, "");
			col = 0;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += w;
		p += w;
		if (*p == '\n' && p[1]) {
			fprintf(f, "\n%*s", indent, "");
			col = 0;
		}
		if (*p)
			p++;
	}
	fputc('\n', f);
}

static void put_option(FILE *f, const struct po_option *o)
{
	int n;

	if (o->short_name && o->long_name)
		n = fprintf(f, "  -%c, --%s", o->short_name, o->long_name);
	else if (o->short_name)
		n = fprintf(f, "  -%c", o->short_name);
	else
		n = fprintf(f, "      --%s", o->long_name);
	if (takes_arg(o) && o->argh)
		n += fprintf(f, " %s", o->argh);
	if (n >= HELP_COL - 1) {
		fputc('\n', f);
		n = 0;
	}
	fprintf(f, "%*s", HELP_COL - n, "");
	put_wrapped(f, o->help ? o->help : "", HELP_COL, HELP_WIDTH);
}

void po_usage(const struct po_cmd *c, FILE *f)
{
	const struct po_option help_opt = {
		.type = PO_FLAG, .short_name = 'h', .long_name = "help",
		.help = "this help",
	};
	bool any = c->opts[0].type != PO_END;

	fprintf(f, "usage: schedreplay %s%s%s%s\n", c->name,
		any ? " [OPTIONS]" : "", c->operands ? " " : "",
		c->operands ? c->operands : "");
	if (c->about) {
		fputc('\n', f);
		put_wrapped(f, c->about, 0, TEXT_WIDTH);
	}
	for (const struct po_option *o = c->opts; o->type != PO_END; o++) {
		if (o->type == PO_GROUP)
			fprintf(f, "\n%s:\n", o->help);
		else if (o->type != PO_MOVED)
			put_option(f, o);
	}
	fputc('\n', f);
	put_option(f, &help_opt);
	if (c->footer) {
		fputc('\n', f);
		put_wrapped(f, c->footer, 0, TEXT_WIDTH);
	}
}
