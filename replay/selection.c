/*
 * selection: --pid, --start and --end (see selection.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "lib/fmt.h"
#include "replay/selection.h"

/* Far enough from the int64 ends that window arithmetic cannot wrap. */
#define TIME_MAX (INT64_MAX / 4)

/* ns as seconds without trailing zeros: 2500000000 -> "2.5". */
static char *secs(char *v, size_t len, int64_t ns)
{
	sr_fmt_s(v, len, ns, 9);
	if (strchr(v, '.')) {
		char *e = v + strlen(v);

		while (e[-1] == '0')
			*--e = '\0';
		if (e[-1] == '.')
			e[-1] = '\0';
	}
	return v;
}

static int cmp_pid(const void *pa, const void *pb)
{
	int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;

	return (a > b) - (a < b);
}

int sr_sel_opt_pid(const struct po_option *opt, const char *arg,
		   struct sr_diag *d)
{
	struct sr_selection *s = opt->value;
	const char *p = arg;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char num[32];
		int64_t v;

		if (len == 0 || len >= sizeof(num))
			return sr_fail(d, SR_EUSAGE, "--pid: expected "
				       "PID[,PID...] (pids from 0 to %d), got "
				       "'%s'", INT32_MAX, arg);
		memcpy(num, p, len);
		num[len] = '\0';
		if (po_number("--pid", num, 0, INT32_MAX, NULL, &v, d))
			return d->code;
		if (!bsearch(&(int32_t){ (int32_t)v }, s->pids, s->npids,
			     sizeof(s->pids[0]), cmp_pid)) {
			if (s->npids == SR_SEL_MAX_PIDS)
				return sr_fail(d, SR_EUSAGE, "--pid: at most "
					       "%d pids", SR_SEL_MAX_PIDS);
			s->pids[s->npids++] = (int32_t)v;
			sr_qsort(s->pids, s->npids, sizeof(s->pids[0]), cmp_pid);
		}
		if (!comma)
			return SR_OK;
		p = comma + 1;
	}
}

int sr_sel_time_parse(const char *what, const char *arg, struct sr_sel_time *t,
		      struct sr_diag *d)
{
	bool abs = arg[0] == '@';
	int64_t v;
	struct sr_diag nd = SR_DIAG_INIT;

	if (po_number(what, arg + abs, 0, TIME_MAX, po_time_units_s, &v, &nd))
		return sr_fail(d, SR_EUSAGE, "%s: expected seconds from the "
			       "trace start (2.5, or with a unit: 2500ms) or "
			       "@SECONDS, a timestamp on the trace's clock "
			       "(@5012.345678), got '%s'", what, arg);
	t->set = true;
	t->abs = abs;
	t->ns = v;
	return SR_OK;
}

int sr_sel_opt_start(const struct po_option *opt, const char *arg,
		     struct sr_diag *d)
{
	struct sr_selection *s = opt->value;

	return sr_sel_time_parse("--start", arg, &s->start, d);
}

int sr_sel_opt_end(const struct po_option *opt, const char *arg,
		   struct sr_diag *d)
{
	struct sr_selection *s = opt->value;

	return sr_sel_time_parse("--end", arg, &s->end, d);
}

int sr_sel_check(const struct sr_selection *sel, struct sr_diag *d)
{
	if (!sel || !sel->start.set || !sel->end.set ||
	    sel->start.abs != sel->end.abs)
		return SR_OK;
	if (sel->end.ns <= sel->start.ns) {
		char a[SR_FMT_NUM], b[SR_FMT_NUM];

		return sr_fail(d, SR_EUSAGE, "--end %s%s s is not after "
			       "--start %s%s s", sel->end.abs ? "@" : "",
			       secs(b, sizeof(b), sel->end.ns),
			       sel->start.abs ? "@" : "",
			       secs(a, sizeof(a), sel->start.ns));
	}
	return SR_OK;
}

bool sr_sel_windowed(const struct sr_selection *sel)
{
	return sel && (sel->start.set || sel->end.set);
}

bool sr_sel_has_pids(const struct sr_selection *sel)
{
	return sel && sel->npids;
}

bool sr_sel_any(const struct sr_selection *sel)
{
	return sr_sel_windowed(sel) || sr_sel_has_pids(sel);
}

bool sr_sel_pid(const struct sr_selection *sel, int32_t pid)
{
	if (!sel || !sel->npids)
		return true;
	return bsearch(&pid, sel->pids, sel->npids, sizeof(sel->pids[0]),
		       cmp_pid) != NULL;
}

static int64_t on_clock(const struct sr_sel_time *t, int64_t first_ts)
{
	return t->abs ? t->ns : first_ts + t->ns;
}

void sr_sel_window(const struct sr_selection *sel, int64_t first_ts,
		   int64_t *lo, int64_t *hi)
{
	*lo = INT64_MIN;
	*hi = INT64_MAX;
	if (sel && sel->start.set)
		*lo = on_clock(&sel->start, first_ts);
	if (sel && sel->end.set)
		*hi = on_clock(&sel->end, first_ts);
}

int64_t sr_sel_overlap(int64_t lo, int64_t hi, int64_t from, int64_t to)
{
	int64_t a = from > lo ? from : lo, b = to < hi ? to : hi;

	return b > a ? b - a : 0;
}

static size_t put(char *buf, size_t len, size_t o, const char *fmt,
		  const char *a, const char *b)
{
	int w;

	if (o >= len)
		return o;
	w = snprintf(buf + o, len - o, fmt, a, b);
	return w < 0 ? o : o + (size_t)w;
}

static const char *tdesc(char *buf, size_t len, const struct sr_sel_time *t)
{
	char v[SR_FMT_NUM];

	snprintf(buf, len, t->abs ? "%s s on the trace's clock" :
		 "%s s after the trace start", secs(v, sizeof(v), t->ns));
	return buf;
}

void sr_sel_describe(const struct sr_selection *sel, char *buf, size_t len)
{
	size_t o = 0;
	char a[96], b[96];

	if (len)
		buf[0] = '\0';
	if (!sel)
		return;
	for (size_t i = 0; i < sel->npids; i++) {
		char n[16];

		if (i == 8) {
			snprintf(n, sizeof(n), "%zu", sel->npids - i);
			o = put(buf, len, o, ", and %s more%s", n, "");
			break;
		}
		snprintf(n, sizeof(n), "%d", (int)sel->pids[i]);
		o = put(buf, len, o, "%s%s", i ? ", " :
			sel->npids > 1 ? "pids " : "pid ", n);
	}
	if (!sr_sel_windowed(sel))
		return;
	if (o)
		o = put(buf, len, o, "%s%s", "; ", "");
	if (sel->start.set && sel->end.set)
		put(buf, len, o, "from %s to %s",
		    tdesc(a, sizeof(a), &sel->start), tdesc(b, sizeof(b),
							     &sel->end));
	else if (sel->start.set)
		put(buf, len, o, "from %s%s", tdesc(a, sizeof(a), &sel->start),
		    "");
	else
		put(buf, len, o, "up to %s%s", tdesc(b, sizeof(b), &sel->end),
		    "");
}

int sr_sel_check_span(const struct sr_selection *sel, int64_t first_ts,
		      int64_t last_ts, struct sr_diag *d)
{
	int64_t lo, hi;
	char a[SR_FMT_NUM], b[SR_FMT_NUM], c[SR_FMT_NUM];

	if (!sr_sel_windowed(sel))
		return SR_OK;
	sr_sel_window(sel, first_ts, &lo, &hi);
	if (hi > lo && lo <= last_ts && hi > first_ts)
		return SR_OK;
	return sr_fail(d, SR_EUSAGE, "--start/--end: the window holds none of "
		       "the trace, which runs from @%s to @%s on its clock "
		       "(%s s long)", sr_fmt_s(a, sizeof(a), first_ts, 6),
		       sr_fmt_s(b, sizeof(b), last_ts, 6),
		       sr_fmt_s(c, sizeof(c), last_ts - first_ts, 3));
}
