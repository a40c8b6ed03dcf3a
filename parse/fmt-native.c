/*
 * fmt-native: our own text format (docs/trace-format.md): a magic line,
 * then "TIME CPU EVENT key=value ... flag ...".  Unlike the kernel
 * formats, an unknown event or key here is an error: the format is
 * hand-written, and a typo must not vanish silently.
 *
 * A recording's context (parse/ctxtext.h) comes as "#context " lines among
 * the comments between the magic line and the first event: comments to
 * the event parser, read before it by sr_native_context().
 */
#include <stdio.h>
#include <string.h>

#include "parse/ctxtext.h"
#include "parse/format.h"

enum nkey {
	K_PID, K_COMM, K_TGID, K_PRIO, K_NICE, K_POLICY, K_RTPRIO, K_KTHREAD,
	K_RUNNING, K_CHILD, K_BY, K_SYNC, K_TARGET, K_PREV, K_NEXT, K_STATE,
	K_PREV_PRIO, K_NEXT_PRIO, K_FROM, K_TO, K_NS, K_COUNT, K_OLD_PID,
	K_GUESSED, K_TALLY,
	K__N
};

static const struct {
	const char *name;
	uint8_t len;
	uint8_t flag; /* 1: no value */
} keys[K__N] = {
	[K_PID] = { "pid", 3, 0 }, [K_COMM] = { "comm", 4, 0 },
	[K_TGID] = { "tgid", 4, 0 }, [K_PRIO] = { "prio", 4, 0 },
	[K_NICE] = { "nice", 4, 0 }, [K_POLICY] = { "policy", 6, 0 },
	[K_RTPRIO] = { "rtprio", 6, 0 }, [K_KTHREAD] = { "kthread", 7, 1 },
	[K_RUNNING] = { "running", 7, 1 }, [K_CHILD] = { "child", 5, 0 },
	[K_BY] = { "by", 2, 0 }, [K_SYNC] = { "sync", 4, 1 },
	[K_TARGET] = { "target", 6, 0 }, [K_PREV] = { "prev", 4, 0 },
	[K_NEXT] = { "next", 4, 0 }, [K_STATE] = { "state", 5, 0 },
	[K_PREV_PRIO] = { "prev_prio", 9, 0 }, [K_NEXT_PRIO] = { "next_prio", 9, 0 },
	[K_FROM] = { "from", 4, 0 }, [K_TO] = { "to", 2, 0 }, [K_NS] = { "ns", 2, 0 },
	[K_COUNT] = { "count", 5, 0 }, [K_OLD_PID] = { "old_pid", 7, 0 },
	[K_GUESSED] = { "guessed", 7, 1 }, [K_TALLY] = { "tally", 5, 1 },
};

#define B(k) (1u << (k))

static const struct {
	const char *name;
	uint8_t len;
	uint8_t kind;
	uint8_t dir;
	uint32_t allowed, required;
} nevents[] = {
	{ "task", 4, 0, SR_DIR_TASK,
	  B(K_PID) | B(K_COMM) | B(K_TGID) | B(K_PRIO) | B(K_NICE) |
	  B(K_POLICY) | B(K_RTPRIO) | B(K_KTHREAD) | B(K_RUNNING),
	  B(K_PID) | B(K_COMM) },
	{ "info", 4, 0, SR_DIR_INFO, B(K_PID) | B(K_COMM) | B(K_TGID) | B(K_KTHREAD),
	  B(K_PID) },
	{ "fork", 4, SR_EV_FORK, 0, B(K_PID) | B(K_CHILD) | B(K_COMM) | B(K_TGID),
	  B(K_PID) | B(K_CHILD) },
	{ "exec", 4, SR_EV_EXEC, 0, B(K_PID) | B(K_COMM) | B(K_OLD_PID),
	  B(K_PID) | B(K_COMM) },
	{ "waking", 6, SR_EV_WAKING, 0,
	  B(K_PID) | B(K_BY) | B(K_GUESSED) | B(K_SYNC) |
	  B(K_TARGET) | B(K_PRIO), B(K_PID) },
	{ "wake", 4, SR_EV_WAKEUP, 0,
	  B(K_PID) | B(K_BY) | B(K_GUESSED) | B(K_SYNC) |
	  B(K_TARGET) | B(K_PRIO), B(K_PID) },
	{ "wake_new", 8, SR_EV_WAKEUP_NEW, 0,
	  B(K_PID) | B(K_BY) | B(K_GUESSED) | B(K_SYNC) |
	  B(K_TARGET) | B(K_PRIO), B(K_PID) },
	{ "switch", 6, SR_EV_SWITCH, 0,
	  B(K_PREV) | B(K_STATE) | B(K_NEXT) | B(K_PREV_PRIO) | B(K_NEXT_PRIO),
	  B(K_PREV) | B(K_STATE) | B(K_NEXT) },
	{ "exit", 4, SR_EV_EXIT, 0, B(K_PID) | B(K_PRIO), B(K_PID) },
	{ "free", 4, SR_EV_FREE, 0, B(K_PID) | B(K_PRIO), B(K_PID) },
	{ "nice", 4, SR_EV_NICE, 0, B(K_PID) | B(K_NICE), B(K_PID) | B(K_NICE) },
	{ "policy", 6, SR_EV_SETSCHED, 0, B(K_PID) | B(K_POLICY) | B(K_RTPRIO),
	  B(K_PID) | B(K_POLICY) },
	{ "migrate", 7, SR_EV_MIGRATE, 0, B(K_PID) | B(K_FROM) | B(K_TO) | B(K_PRIO),
	  B(K_PID) | B(K_FROM) | B(K_TO) },
	{ "runtime", 7, SR_EV_RUNTIME, 0, B(K_PID) | B(K_NS), B(K_PID) | B(K_NS) },
	{ "lost", 4, SR_EV_LOST, 0, B(K_COUNT) | B(K_TALLY), 0 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	int8_t policy;
} policies[] = {
	{ "normal", SR_SCHED_NORMAL }, { "other", SR_SCHED_NORMAL },
	{ "fifo", SR_SCHED_FIFO }, { "rr", SR_SCHED_RR },
	{ "batch", SR_SCHED_BATCH }, { "idle", SR_SCHED_IDLE },
};

static const struct {
	const char *name;
	uint8_t by;
} wakers[] = {
	{ "irq", SR_BY_HARDIRQ }, { "hardirq", SR_BY_HARDIRQ },
	{ "softirq", SR_BY_SOFTIRQ }, { "idle", SR_BY_IDLE },
	{ "unknown", SR_BY_UNKNOWN },
};

/* Integer with optional sign, within [lo, hi]. */
static int num(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *v)
{
	int neg = n && s[0] == '-';
	uint64_t x = 0;

	if (neg) {
		s++;
		n--;
	}
	if (n == 0 || n > 18)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = neg ? -(int64_t)x : (int64_t)x;
	return *v < lo || *v > hi ? -1 : 0;
}

static int native_time(struct sr_fmtctx *c, const char *s, size_t n,
		       int64_t *ts)
{
	static const struct {
		const char *unit;
		int64_t mul;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		      { "s", 1000000000 } };
	struct sr_match m;
	const char *p, *u;
	size_t pn, un;
	int64_t mul = 1000000000, sec, frac = 0, scale;

	const char *dot = memchr(s, '.', n);

	if (n && ((s[0] == '-') || (s[n - 1] >= '0' && s[n - 1] <= '9' &&
				   (!dot || s + n - dot - 1 <= 9))))
		/* plain seconds (what convert writes), or the "negative"
		 * message: the shared decoder */
		return sr_parse_ts(c, s, n, ts);
	if (!sr_match(c->pat, P_N_TIME, s, n, 0, &m))
		return sr_fmt_expected(c, "a time like 12.000150000, 250us or "
				       "10ms", s, n);
	if (sr_grp(&m, G_UNIT, &u, &un))
		for (size_t i = 0; i < NELEM(units); i++)
			if (strlen(units[i].unit) == un &&
			    !memcmp(units[i].unit, u, un))
				mul = units[i].mul;
	sr_grp(&m, G_NUM, &p, &pn);
	if (num(p, pn, 0, INT64_MAX, &sec) != 0 || sec > INT64_MAX / mul)
		return sr_fmt_fail(c, "impossible timestamp '%.*s': beyond the "
				   "64-bit nanosecond range", (int)n, s);
	if (sr_grp(&m, G_FRAC, &p, &pn)) {
		scale = mul;
		for (size_t i = 0; i < pn; i++) {
			if (scale % 10)
				return sr_fmt_fail(c, "time '%.*s' is finer "
						   "than a nanosecond", (int)n, s);
			scale /= 10;
			frac += (p[i] - '0') * scale;
		}
	}
	if (sec * mul > INT64_MAX - frac)
		return sr_fmt_fail(c, "impossible timestamp '%.*s': beyond the "
				   "64-bit nanosecond range", (int)n, s);
	*ts = sec * mul + frac;
	return 0;
}

/*
 * One argument at s[pos]: key, key=value or key="quoted value".  Returns
 * the offset after it, or 0 if it is malformed.
 */
static size_t scan_arg(const char *s, size_t len, size_t pos,
		       const char **key, size_t *keylen, const char **val,
		       size_t *vallen, int *hasval, int *quoted)
{
	size_t i = pos, st;

	while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_'))
		i++;
	if (i == pos)
		return 0;
	*key = s + pos;
	*keylen = i - pos;
	*hasval = *quoted = 0;
	if (i < len && s[i] == '=') {
		i++;
		if (i < len && s[i] == '"') {
			st = ++i;
			while (i < len && s[i] != '"')
				i += (s[i] == '\\' && i + 1 < len) ? 2 : 1;
			if (i >= len)
				return 0;
			*quoted = 1;
			*val = s + st;
			*vallen = i++ - st;
		} else {
			st = i;
			while (i < len && s[i] != ' ' && s[i] != '\t' &&
			       s[i] != '"' && s[i] != '#')
				i++;
			if (i == st)
				return 0;
			*val = s + st;
			*vallen = i - st;
		}
		*hasval = 1;
	}
	if (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '#')
		return 0;
	return i;
}

static int bad_value(struct sr_fmtctx *c, const char *key, const char *what,
		     const char *v, size_t vn)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "%s=%s", key, what);
	return sr_fmt_expected(c, msg, v, vn);
}

static int native_parse(struct sr_fmtctx *c, char *line, size_t len,
			struct sr_raw *out)
{
	struct sr_match m;
	const char *p;
	size_t pn, k = 0, pos;
	size_t ei;
	uint32_t seen = 0;
	int64_t v;

	while (k < len && (line[k] == ' ' || line[k] == '\t'))
		k++;
	if (!c->native_magic) {
		if (sr_match(c->pat, P_N_MAGIC, line, len, 0, &m)) {
			sr_grp(&m, G_VER, &p, &pn);
			if (pn != 1 || p[0] != '1')
				return sr_fmt_fail(c, "native format version "
						   "%.*s is not supported "
						   "(this reader knows 1)",
						   (int)pn, p);
			c->native_magic = 1;
			return SR_P_NONE;
		}
		if (k == len)
			return SR_P_NONE;
		return sr_fmt_expected(c, "the magic line '#schedreplay-native "
				       "1' first", line, len);
	}
	if (k == len || line[k] == '#')
		return SR_P_NONE;
	if (!sr_match(c->pat, P_N_LINE, line, len, 0, &m))
		return sr_fmt_expected(c, "'TIME CPU EVENT key=value ...'",
				       line, len);
	sr_grp(&m, G_EV, &p, &pn);
	for (ei = 0; ei < NELEM(nevents); ei++)
		if (nevents[ei].len == pn && nevents[ei].name[0] == p[0] &&
		    !memcmp(nevents[ei].name, p, pn))
			break;
	if (ei == NELEM(nevents))
		return sr_fmt_expected(c, "an event (task info fork exec waking "
				       "wake wake_new switch exit free nice "
				       "policy migrate runtime lost)", p, pn);
	out->kind = nevents[ei].kind;
	out->dir = nevents[ei].dir;
	sr_grp(&m, G_TS, &p, &pn);
	if (native_time(c, p, pn, &out->ts))
		return SR_P_ERR;
	sr_grp(&m, G_CPU, &p, &pn);
	if (p[0] == '-') {
		if (pn != 1)
			return sr_fmt_expected(c, "a cpu number or -", p, pn);
		out->cpu = -1;
	} else if (sr_parse_cpu(c, p, pn, &out->cpu)) {
		return SR_P_ERR;
	}
	pos = sr_match_end(&m);
	for (;;) {
		const char *key, *val = NULL;
		size_t keylen, vallen = 0;
		int ki, quoted = 0, hasval = 0;
		char vbuf[SR_COMM_MAX * 2];

		while (pos < len && (line[pos] == ' ' || line[pos] == '\t'))
			pos++;
		if (pos == len || line[pos] == '#')
			break;
		k = scan_arg(line, len, pos, &key, &keylen, &val, &vallen,
			     &hasval, &quoted);
		if (!k)
			return sr_fmt_expected(c, "key=value or a flag",
					       line + pos, len - pos);
		pos = k;
		for (ki = 0; ki < K__N; ki++)
			if (keys[ki].len == keylen && keys[ki].name[0] == key[0] &&
			    !memcmp(keys[ki].name, key, keylen))
				break;
		if (ki == K__N || !(nevents[ei].allowed & B(ki))) {
			char what[160];

			snprintf(what, sizeof(what), "an argument of '%s'",
				 nevents[ei].name);
			return sr_fmt_expected(c, what, key, keylen);
		}
		if (seen & B(ki))
			return sr_fmt_fail(c, "%s= given twice", keys[ki].name);
		seen |= B(ki);
		if (keys[ki].flag == hasval) {
			return sr_fmt_fail(c, keys[ki].flag ?
					   "'%s' is a flag and takes no value" :
					   "'%s' needs a value (%s=...)",
					   keys[ki].name, keys[ki].name);
		}
		if (quoted) {
			/* \" and \\ inside quotes */
			size_t o = 0;

			for (size_t i = 0; i < vallen && o < sizeof(vbuf) - 1; i++) {
				if (val[i] == '\\' && i + 1 < vallen)
					i++;
				vbuf[o++] = val[i];
			}
			vbuf[o] = '\0';
			val = vbuf;
			vallen = o;
		}
		switch (ki) {
		case K_PID: case K_PREV: case K_CHILD: case K_NEXT:
		case K_OLD_PID: case K_TGID:
			if (num(val, vallen, 0, SR_PID_MAX, &v))
				return bad_value(c, keys[ki].name, "PID", val, vallen);
			if (ki == K_PID || ki == K_PREV)
				out->pid = (int32_t)v;
			else if (ki == K_TGID)
				out->tgid = (int32_t)v;
			else
				out->pid2 = (int32_t)v;
			break;
		case K_COMM:
			if (vallen == 0 && !quoted) /* "" = unknown */
				return bad_value(c, "comm", "NAME", val, vallen);
			sr_copy_comm(out->kind == SR_EV_FORK &&
				     out->dir == SR_DIR_EVENT ?
				     out->comm2 : out->comm, val, vallen);
			break;
		case K_PRIO: case K_PREV_PRIO: case K_NEXT_PRIO:
			if (num(val, vallen, -1, 999, &v))
				return bad_value(c, keys[ki].name, "PRIO (-1..999)",
						 val, vallen);
			if (ki == K_NEXT_PRIO)
				out->prio2 = (int16_t)v;
			else
				out->prio = (int16_t)v;
			break;
		case K_NICE:
			if (num(val, vallen, -20, 19, &v))
				return bad_value(c, "nice", "-20..19", val, vallen);
			out->nice = (int32_t)v;
			out->value = v;
			break;
		case K_POLICY: {
			size_t i;

			for (i = 0; i < NELEM(policies); i++)
				if (strlen(policies[i].name) == vallen &&
				    !memcmp(policies[i].name, val, vallen))
					break;
			if (i == NELEM(policies))
				return bad_value(c, "policy", "normal|fifo|rr|"
						 "batch|idle", val, vallen);
			out->policy = policies[i].policy;
			out->value = policies[i].policy;
			break;
		}
		case K_RTPRIO:
			if (num(val, vallen, 0, 99, &v))
				return bad_value(c, "rtprio", "0..99", val, vallen);
			out->rtprio = (int16_t)v;
			break;
		case K_KTHREAD:
			out->kthread = 1;
			break;
		case K_RUNNING:
			out->running = 1;
			break;
		case K_SYNC:
			out->sync = 1;
			break;
		case K_GUESSED:
			out->guessed = 1;
			break;
		case K_TALLY:
			out->dir = SR_DIR_TALLY;
			break;
		case K_BY: {
			size_t i;

			for (i = 0; i < NELEM(wakers); i++)
				if (strlen(wakers[i].name) == vallen &&
				    !memcmp(wakers[i].name, val, vallen))
					break;
			if (i < NELEM(wakers)) {
				out->by = wakers[i].by;
			} else if (num(val, vallen, 0, SR_PID_MAX, &v) == 0) {
				out->by = v == 0 ? SR_BY_IDLE : SR_BY_PID;
				out->by_pid = (int32_t)v;
			} else {
				return bad_value(c, "by", "PID|irq|softirq|idle|"
						 "unknown", val, vallen);
			}
			break;
		}
		case K_TARGET: case K_TO: case K_FROM:
			if (num(val, vallen, 0, SR_CPU_MAX - 1, &v))
				return bad_value(c, keys[ki].name, "CPU", val, vallen);
			if (ki == K_FROM)
				out->orig_cpu = (int32_t)v;
			else
				out->target_cpu = (int32_t)v;
			break;
		case K_STATE: {
			int rc = sr_state_decode(c, val, vallen, "", &out->state,
						 &out->preempt);

			if (rc)
				return SR_P_ERR;
			break;
		}
		case K_NS: case K_COUNT:
			if (num(val, vallen, 0, INT64_MAX, &v))
				return bad_value(c, keys[ki].name, "N", val, vallen);
			out->value = v;
			break;
		}
	}
	if ((seen & nevents[ei].required) != nevents[ei].required) {
		for (int ki = 0; ki < K__N; ki++)
			if ((nevents[ei].required & B(ki)) && !(seen & B(ki)))
				return sr_fmt_fail(c, "expected %s= in a '%s' line",
						   keys[ki].name, nevents[ei].name);
	}
	if (out->guessed && out->by != SR_BY_PID)
		return sr_fmt_fail(c, "expected by=PID with the guessed flag "
				   "(a waker read from the context of the "
				   "line), got %s", (seen & B(K_BY)) ?
				   "another by=" : "no by=");
	if (out->kind == SR_EV_EXEC && !(seen & B(K_OLD_PID)))
		out->pid2 = out->pid;
	if (out->kind == SR_EV_LOST && !(seen & B(K_COUNT)))
		out->value = 0;
	return SR_P_RAW;
}

static int native_peek(struct sr_fmtctx *c, char *line, size_t len,
		       int32_t *cpu, int64_t *ts)
{
	struct sr_match m;
	const char *p;
	size_t pn;
	struct sr_diag *save = c->d;
	struct sr_diag quiet = SR_DIAG_INIT;
	int ok;

	if (!sr_match(c->pat, P_N_LINE, line, len, 0, &m))
		return 0;
	c->d = &quiet;
	sr_grp(&m, G_CPU, &p, &pn);
	if (p[0] == '-') {
		*cpu = -1;
		ok = 1;
	} else {
		ok = sr_parse_cpu(c, p, pn, cpu) == 0;
	}
	sr_grp(&m, G_TS, &p, &pn);
	ok = ok && native_time(c, p, pn, ts) == 0;
	c->d = save;
	return ok;
}

static int native_detect(struct sr_fmtctx *c, const char *head, size_t n)
{
	const char *p = head, *end = head + n;
	struct sr_match m;

	/* the magic line must be the first non-blank line */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t k = 0;

		while (k < len && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r'))
			k++;
		if (k < len)
			return sr_match(c->pat, P_N_MAGIC, p, len, 0, &m) ? 100000 : 0;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* schedreplay native text (docs/trace-format.md) */
const struct sr_fmt_ops sr_fmt_native = {
	.detect = native_detect,
	.parse = native_parse,
	.peek = native_peek,
	.expect = "native event lines such as '0.001 0 switch prev=PID "
		  "state=S next=PID'",
};

int sr_native_context(const char *head, size_t n, bool all, const char *file,
		      struct sr_context **ctx, struct sr_diag *d)
{
	static const char pre[] = "#context ";
	struct sr_ctxread r;
	size_t i = 0, line = 0;
	bool magic = false, any = false;
	char why[512];

	*ctx = NULL;
	while (i < n) {
		const char *nl = memchr(head + i, '\n', n - i);
		size_t full = nl ? (size_t)(nl - head - i) : n - i;
		size_t len = full, k = 0;
		const char *s = head + i;

		if (!nl && !all)
			goto more;
		line++;
		if (len && s[len - 1] == '\r')
			len--;
		while (k < len && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (!magic) {
			if (k < len) {
				if (len - k < 19 ||
				    memcmp(s + k, "#schedreplay-native", 19))
					return SR_OK; /* the parser says */
				magic = true;
			}
		} else if (len >= sizeof(pre) - 1 &&
			   !memcmp(s, pre, sizeof(pre) - 1)) {
			if (!any && sr_ctxread_start(&r))
				return sr_oom(d);
			any = true;
			if (sr_ctxtext_line(&r, s + sizeof(pre) - 1,
					    len - (sizeof(pre) - 1), why,
					    sizeof(why)))
				goto bad;
		} else if (k < len && s[k] != '#') {
			break; /* the first event: the head ends */
		}
		i += full + 1;
	}
	if (!magic || !any)
		goto none;
	if (sr_ctxtext_end(&r, ctx, why, sizeof(why)))
		goto bad;
	return SR_OK;
none:
	if (any)
		sr_ctxread_abort(&r);
	return SR_OK;
more:
	if (any)
		sr_ctxread_abort(&r);
	return 1;
bad:
	sr_ctxread_abort(&r);
	return sr_fail(d, strstr(why, "out of memory") == why ? SR_ENOMEM
							    : SR_EDATA,
		       "%s:%zu: recording context: %s", file, line, why);
}
