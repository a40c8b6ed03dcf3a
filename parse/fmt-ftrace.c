/*
 * fmt-ftrace: the ftrace text family: tracefs trace / trace_pipe (with or
 * without the # header, the flags column and the TGID column), trace-cmd
 * report (with or without -l flags, -R raw fields, plugin layouts, lost
 * markers), and systrace HTML (legacy JS-string and modern trace-data
 * blocks) which wraps the same lines.
 */
#include <string.h>

#include "parse/format.h"
#include "parse/tracepoint.h"

/* systrace wrapper states (c->html) */
enum {
	H_NONE = 0,   /* not HTML */
	H_OUT,        /* HTML outside the trace data */
	H_LEGACY,     /* inside var linuxPerfData = "...": JS string lines */
	H_MODERN0,    /* just after <script class="trace-data">: text or JSON? */
	H_MODERN,     /* inside a text trace-data block */
	H_JSON,       /* inside a JSON trace-data block: skipped */
};

/* Undo JS string escapes in place; returns the new length. */
static size_t js_unescape(char *s, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '\\' || i + 1 == n) {
			s[o++] = s[i];
			continue;
		}
		i++;
		switch (s[i]) {
		case 'n': s[o++] = '\n'; break;
		case 't': s[o++] = '\t'; break;
		case 'r': break;
		default: s[o++] = s[i]; break; /* backslash, quotes, slash */
		}
	}
	return o;
}

/*
 * The systrace wrapper: decide whether this HTML line carries trace text,
 * and cut it down to that text.  Returns 1 (parse what is left), 0 (skip).
 */
static int html_filter(struct sr_fmtctx *c, char **line, size_t *len)
{
	struct sr_match m;
	char *s = *line;
	size_t n = *len;

	switch (c->html) {
	case H_OUT:
		if (sr_match(c->pat, P_S_LEGACY, s, n, 0, &m)) {
			c->html = H_LEGACY;
			return 0;
		}
		if (sr_match(c->pat, P_S_MODERN, s, n, 0, &m))
			c->html = H_MODERN0;
		return 0;
	case H_LEGACY: {
		int last = 0;

		/* "...\n\" continues; "...\n";" or "...";" ends the string */
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		if (n >= 2 && s[n - 1] == ';' && s[n - 2] == '"') {
			n -= 2;
			last = 1;
		} else if (n && s[n - 1] == '\\') {
			n--;
		}
		if (n >= 2 && s[n - 2] == '\\' && s[n - 1] == 'n')
			n -= 2;
		if (last)
			c->html = H_OUT;
		if (memchr(s, '\\', n))
			n = js_unescape(s, n);
		*len = n;
		return n > 0;
	}
	case H_MODERN0:
	case H_MODERN:
	case H_JSON: {
		int end = sr_match(c->pat, P_S_END, s, n, 0, &m);
		size_t k = 0;

		if (end)
			n = m.ov[0];
		while (k < n && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (c->html == H_MODERN0 && k < n)
			c->html = (s[k] == '{' || s[k] == '[') ? H_JSON : H_MODERN;
		if (end) {
			int keep = c->html == H_MODERN && n > k;

			c->html = H_OUT;
			*len = n;
			return keep;
		}
		return c->html == H_MODERN && n > 0;
	}
	}
	return 1;
}

static int lost_marker(struct sr_fmtctx *c, const char *s, size_t n,
		       struct sr_raw *out)
{
	static const enum sr_pat ids[] = {
		P_LOST_FTRACE, P_LOST_TC, P_LOST_PLAIN, P_LOST_BARE
	};
	struct sr_match m;
	const char *p;
	size_t pn;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		if (!sr_match(c->pat, ids[i], s, n, 0, &m))
			continue;
		out->kind = SR_EV_LOST;
		out->ts = INT64_MIN; /* the next event on that cpu says when */
		out->cpu = -1;
		if (sr_grp(&m, G_CPU, &p, &pn) && sr_parse_cpu(c, p, pn, &out->cpu))
			return SR_P_ERR;
		if (sr_grp(&m, G_COUNT, &p, &pn)) {
			uint32_t v;

			if (sr_parse_u32(p, pn, UINT32_MAX, &v) == 0)
				out->value = v;
			else
				out->value = 0;
		}
		return SR_P_RAW;
	}
	return SR_P_NONE;
}

static int header(struct sr_fmtctx *c, const char *s, size_t n,
		  struct sr_match *m)
{
	return sr_match(c->pat, P_FTRACE_HDR, s, n, 0, m) ||
	       sr_match(c->pat, P_TCLAT_HDR, s, n, 0, m);
}

static int ftrace_parse(struct sr_fmtctx *c, char *line, size_t len,
			struct sr_raw *out)
{
	struct sr_match m;
	const char *p, *ev;
	size_t pn, evlen, k = 0;
	uint32_t v;
	int rc;

	if (c->html && !html_filter(c, &line, &len))
		return SR_P_NONE;
	while (k < len && (line[k] == ' ' || line[k] == '\t'))
		k++;
	if (k == len)
		return SR_P_NONE;
	if (line[k] == '#') {
		if (sr_match(c->pat, P_META_NCPUS, line, len, 0, &m) &&
		    sr_grp(&m, G_NCPUS, &p, &pn) &&
		    sr_parse_u32(p, pn, SR_CPU_MAX, &v) == 0)
			c->ncpus_hint = (int32_t)v;
		return SR_P_NONE;
	}
	if (!header(c, line, len, &m)) {
		if (line[k] == 'C' || line[k] == '[') {
			rc = lost_marker(c, line, len, out);
			if (rc != SR_P_NONE)
				return rc;
		}
		if (sr_match(c->pat, P_META_TC, line, len, 0, &m)) {
			if (sr_grp(&m, G_NCPUS, &p, &pn) &&
			    sr_parse_u32(p, pn, SR_CPU_MAX, &v) == 0)
				c->ncpus_hint = (int32_t)v;
			if (sr_grp(&m, G_VER, &p, &pn)) {
				/* trace-cmd report --uname: the kernel */
				char rel[16];

				sr_copy_comm(rel, p, pn < 15 ? pn : 15);
				c->state_enc = sr_state_enc_for_release(rel);
				c->kernel_414 = c->state_enc == SR_ENC_4_15 ?
						1 : -1;
			}
			return SR_P_NONE;
		}
		return sr_fmt_expected(c, "an ftrace event line "
				       "'COMM-PID [CPU] [FLAGS] SECONDS: EVENT: "
				       "FIELDS'", line, len);
	}
	sr_grp(&m, G_EV, &ev, &evlen);
	sr_grp(&m, G_COMM, &p, &pn);
	if (pn && p[0] == '<' && p[pn - 1] == '>')
		out->ctx_comm[0] = '\0'; /* <...>, <idle> */
	else
		sr_copy_comm(out->ctx_comm, p, pn);
	sr_grp(&m, G_PID, &p, &pn);
	if (sr_parse_u32(p, pn, SR_PID_MAX, &v) != 0)
		return sr_fmt_expected(c, "a pid below 2^30", p, pn);
	out->ctx_pid = (int32_t)v;
	if (sr_grp(&m, G_TGID, &p, &pn) && p[0] != '-' &&
	    sr_parse_u32(p, pn, SR_PID_MAX, &v) == 0)
		out->ctx_tgid = (int32_t)v;
	if (sr_grp(&m, G_FLAGS, &p, &pn))
		out->irq = sr_flags_irq(p, pn);
	return sr_fields_decode_line(c, &m, ev, evlen, line, len, out);
}

static int ftrace_peek(struct sr_fmtctx *c, char *line, size_t len,
		       int32_t *cpu, int64_t *ts)
{
	struct sr_match m;

	return header(c, line, len, &m) && sr_fields_peek(c, &m, cpu, ts);
}

/* ---- detection: how many of the first lines look like ours ---- */

static int count_lines(struct sr_fmtctx *c, const char *head, size_t n,
		       int (*fn)(struct sr_fmtctx *, const char *, size_t))
{
	const char *p = head, *end = head + n;
	int score = 0, lines = 0;

	while (p < end && lines < 200) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!nl && end - head == (ptrdiff_t)n && len > 4096)
			break;
		score += fn(c, p, len);
		lines++;
		p = nl ? nl + 1 : end;
	}
	return score;
}

static int ftrace_line_score(struct sr_fmtctx *c, const char *s, size_t n)
{
	struct sr_match m;

	if (n >= 9 && !memcmp(s, "# tracer:", 9))
		return 1000;
	if (sr_match(c->pat, P_FTRACE_HDR, s, n, 0, &m))
		return 2;
	return 0;
}

static int tracecmd_line_score(struct sr_fmtctx *c, const char *s, size_t n)
{
	struct sr_match m;

	if ((n >= 5 && !memcmp(s, "cpus=", 5)) ||
	    (n >= 10 && !memcmp(s, "version = ", 10)))
		return 1000;
	if (sr_match(c->pat, P_TCLAT_HDR, s, n, 0, &m))
		return 3;
	if (sr_match(c->pat, P_FTRACE_HDR, s, n, 0, &m)) {
		/* plugin layouts are trace-cmd's own */
		const char *f = s + sr_match_end(&m);
		size_t fn = n - sr_match_end(&m);

		if (sr_match(c->pat, P_F_SWITCH_PLUGIN, f, fn, 0, &m) ||
		    (sr_match(c->pat, P_F_WAKE_PLUGIN, f, fn, 0, &m) &&
		     memmem(f, fn, "CPU:", 4)))
			return 3;
		return 1;
	}
	return 0;
}

static int ftrace_detect(struct sr_fmtctx *c, const char *head, size_t n)
{
	return count_lines(c, head, n, ftrace_line_score);
}

static int tracecmd_detect(struct sr_fmtctx *c, const char *head, size_t n)
{
	return count_lines(c, head, n, tracecmd_line_score);
}

/*
 * systrace is an HTML document: the input must open with its doctype or
 * <html> element (after blanks and a UTF-8 byte-order mark).  An HTML word
 * inside an ftrace line (a tracing_mark_write of "<head>") is not one.
 * Whether the document holds trace data (a trace-data script block or
 * var linuxPerfData) is known only when it is read: the trace viewer's
 * script comes first and runs to megabytes.  A document without any ends
 * in the reader's "no scheduler events" error.
 */
static int systrace_detect(struct sr_fmtctx *c, const char *head, size_t n)
{
	struct sr_match m;
	size_t k = 0;

	if (n >= 3 && !memcmp(head, "\xef\xbb\xbf", 3))
		k = 3;
	while (k < n && (head[k] == ' ' || head[k] == '\t' || head[k] == '\n' ||
			 head[k] == '\r'))
		k++;
	if (!sr_match(c->pat, P_S_HTML, head + k, n - k, 0, &m) ||
	    m.ov[0] != 0)
		return 0;
	c->html = H_OUT;
	return 100000;
}

static int systrace_parse(struct sr_fmtctx *c, char *line, size_t len,
			  struct sr_raw *out)
{
	if (!c->html)
		c->html = H_OUT;
	return ftrace_parse(c, line, len, out);
}

/* tracefs trace / trace_pipe text */
const struct sr_fmt_ops sr_fmt_ftrace = {
	.detect = ftrace_detect,
	.parse = ftrace_parse,
	.peek = ftrace_peek,
	.expect = "ftrace lines such as 'TASK-PID [CPU] TIME: sched_switch: ...'",
};

/* trace-cmd report text */
const struct sr_fmt_ops sr_fmt_tracecmd = {
	.detect = tracecmd_detect,
	.parse = ftrace_parse,
	.peek = ftrace_peek,
	.expect = "trace-cmd report lines such as 'TASK-PID [CPU] TIME: "
		  "sched_switch: ...'",
};

/* systrace / atrace HTML (legacy and trace-data blocks) */
const struct sr_fmt_ops sr_fmt_systrace = {
	.detect = systrace_detect,
	.parse = systrace_parse,
	.peek = NULL,
	.expect = "an HTML document with a <script class=\"trace-data\"> "
		  "block or var linuxPerfData = \"...\" holding ftrace lines",
};

int sr_fmt_long_line_ok(const struct sr_fmtctx *c)
{
	return c->html == H_OUT || c->html == H_JSON;
}
