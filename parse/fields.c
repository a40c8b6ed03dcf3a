/*
 * fields: decoding the fields of the scheduler tracepoints, shared by
 * every reader that prints them in the kernel's own layout (perf script,
 * ftrace, trace-cmd, systrace): the event-name table, prev_state letters
 * and numbers, timestamps, and the error messages.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parse/format.h"
#include "parse/tasktab.h"

int sr_fmt_fail(struct sr_fmtctx *c, const char *fmt, ...)
{
	char msg[SR_DIAG_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sr_fail(c->d, SR_EDATA, "%s:%llu: %s", c->file,
		(unsigned long long)c->line, msg);
	return SR_P_ERR;
}

int sr_fmt_expected(struct sr_fmtctx *c, const char *what, const char *s,
		    size_t n)
{
	char q[200];

	sr_quote(q, sizeof(q), s, n);
	return sr_fmt_fail(c, "expected %s, got '%s'%s", what, q,
			   c->last_line ? " (last line has no newline: "
					  "input cut short?)" : "");
}

int sr_raw_check(struct sr_fmtctx *c, const struct sr_raw *r)
{
	/* every event happens on a cpu; only a lost marker may not know it */
	if (r->dir == SR_DIR_EVENT && r->cpu < 0 && r->kind != SR_EV_LOST)
		return sr_fmt_fail(c, "expected a cpu number for a %s event "
				   "(- is for lost markers only)",
				   sr_ev_kind_name(r->kind));
	/* the parent is alive while it forks: its pid is not free */
	if (r->kind == SR_EV_FORK && r->pid2 == r->pid)
		return sr_fmt_fail(c, "expected a fork's child pid to differ "
				   "from the parent's, got pid %d forking pid "
				   "%d", (int)r->pid, (int)r->pid2);
	return SR_P_RAW;
}

int sr_parse_u32(const char *s, size_t n, uint32_t max, uint32_t *v)
{
	uint64_t x = 0;

	if (n == 0 || n > 10)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x > max)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int sr_parse_cpu(struct sr_fmtctx *c, const char *s, size_t n, int32_t *cpu)
{
	uint32_t v;

	if (sr_parse_u32(s, n, SR_CPU_MAX - 1, &v) != 0) {
		char q[40];

		sr_quote(q, sizeof(q), s, n);
		return sr_fmt_fail(c, "cpu number %s out of range "
				   "(0 to %d supported)", q, SR_CPU_MAX - 1);
	}
	*cpu = (int32_t)v;
	return 0;
}

/* "SEC.FRAC" seconds to integer ns: at most 9 decimals are kept. */
int sr_parse_ts(struct sr_fmtctx *c, const char *s, size_t n, int64_t *ns)
{
	const char *dot = memchr(s, '.', n);
	uint64_t sec = 0, frac = 0;
	size_t i, nd;
	char q[64];

	if (n && s[0] == '-') {
		sr_quote(q, sizeof(q), s, n);
		return sr_fmt_fail(c, "impossible timestamp %s: negative", q);
	}
	if (!dot)
		dot = s + n;
	for (i = 0; s + i < dot; i++) {
		if (s[i] < '0' || s[i] > '9')
			return sr_fmt_expected(c, "a timestamp SECONDS.FRACTION",
					       s, n);
		if (sec > (uint64_t)INT64_MAX / 1000000000u)
			goto overflow;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	nd = 0;
	for (i = (size_t)(dot - s) + 1; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return sr_fmt_expected(c, "a timestamp SECONDS.FRACTION",
					       s, n);
		if (nd < 9) {
			frac = frac * 10 + (uint64_t)(s[i] - '0');
			nd++;
		}
	}
	for (; nd < 9; nd++)
		frac *= 10;
	if (sec > (uint64_t)INT64_MAX / 1000000000u ||
	    sec * 1000000000u > (uint64_t)INT64_MAX - frac)
		goto overflow;
	*ns = (int64_t)(sec * 1000000000u + frac);
	return 0;
overflow:
	sr_quote(q, sizeof(q), s, n);
	return sr_fmt_fail(c, "impossible timestamp %s: beyond the 64-bit "
			   "nanosecond range (292 years)", q);
}

void sr_copy_comm(char *dst, const char *s, size_t n)
{
	if (n >= SR_COMM_MAX)
		n = SR_COMM_MAX - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

uint8_t sr_flags_irq(const char *f, size_t n)
{
	/* irqs-off, need-resched, hardirq/softirq, preempt[, migrate] */
	if (n < 3)
		return SR_CTX_TASK;
	switch (f[2]) {
	case 'h': case 'H': return SR_CTX_HARDIRQ;
	case 's': return SR_CTX_SOFTIRQ;
	case 'z': case 'Z': return SR_CTX_NMI;
	default: return SR_CTX_TASK;
	}
}

/* ---- prev_state ---- */

/* Letters as the kernel prints them (first letter decides). */
static const struct {
	char c;
	uint8_t state;
} state_letters[] = {
	{ 'R', SR_STATE_RUNNING }, { 'S', SR_STATE_SLEEPING },
	{ 'D', SR_STATE_DISK }, { 'T', SR_STATE_STOPPED },
	{ 't', SR_STATE_TRACED }, { 'X', SR_STATE_DEAD },
	{ 'x', SR_STATE_DEAD },  /* TASK_DEAD, kernels before 4.14 */
	{ 'Z', SR_STATE_ZOMBIE }, { 'P', SR_STATE_PARKED },
	{ 'I', SR_STATE_IDLE }, { 'W', SR_STATE_RUNNING }, /* waking */
	{ 'K', SR_STATE_SLEEPING }, /* wakekill alone */
	{ 'N', SR_STATE_DISK },  /* noload alone */
	{ 'n', SR_STATE_RUNNING }, /* TASK_NEW */
	{ 'p', SR_STATE_RUNNING }, /* proposed 'p' = preempted */
	{ '?', SR_STATE_UNKNOWN }, /* native: the trace did not say */
};

/*
 * Bit layouts of the numeric prev_state, per kernel era (see
 * docs/trace-format.md for where each comes from).  For the bitmask eras
 * the highest-priority set bit wins; preempt is the "still runnable" flag
 * the tracepoint adds (TASK_STATE_MAX, later TASK_REPORT_MAX).
 */
struct state_bits {
	uint32_t preempt;
	uint32_t dead;     /* TASK_DEAD / EXIT_DEAD */
	uint32_t zombie;   /* EXIT_ZOMBIE */
	uint32_t parked;
	uint32_t noload;
};

static const struct state_bits bitmask_eras[] = {
	[SR_ENC_2_6] = { 512, 64 | 32, 16, 0, 0 },
	[SR_ENC_3_9] = { 1024, 64 | 32, 16, 512, 0 },
	[SR_ENC_4_2] = { 2048, 64 | 16, 32, 512, 1024 },
	[SR_ENC_4_8] = { 4096, 64 | 16, 32, 512, 1024 },
};

static uint8_t state_from_number(int enc, uint32_t v, const char *comm,
				 uint8_t *preempt)
{
	*preempt = 0;
	if (enc == SR_ENC_UNKNOWN)
		enc = SR_ENC_4_15;
	if (enc == SR_ENC_4_15 || enc == SR_ENC_SHIFTED) {
		/* 4.14 on: 1 << (index - 1); shifted: 1 << index */
		static const uint8_t idx[] = {
			SR_STATE_SLEEPING, SR_STATE_DISK, SR_STATE_STOPPED,
			SR_STATE_TRACED, SR_STATE_DEAD, SR_STATE_ZOMBIE,
			SR_STATE_PARKED, SR_STATE_IDLE,
		};
		if (enc == SR_ENC_SHIFTED) {
			if (v == 0 || v == 1)
				return SR_STATE_RUNNING;
			if (v == 256) {
				/* I and preempted print alike: only kernel
				 * threads sleep in TASK_IDLE */
				if (sr_comm_is_kthread(comm))
					return SR_STATE_IDLE;
				*preempt = 1;
				return SR_STATE_RUNNING;
			}
			v >>= 1;
		} else if (v & 256) {
			*preempt = 1;
			return SR_STATE_RUNNING;
		}
		if (v == 0)
			return SR_STATE_RUNNING;
		for (int b = 7; b >= 0; b--)
			if (v & (1u << b))
				return idx[b];
		return SR_STATE_UNKNOWN;
	}
	const struct state_bits *e = &bitmask_eras[enc];

	if (v & e->preempt) {
		*preempt = 1;
		return SR_STATE_RUNNING;
	}
	if (v == 0)
		return SR_STATE_RUNNING;
	if (v & e->dead)
		return SR_STATE_DEAD;
	if (v & e->zombie)
		return SR_STATE_ZOMBIE;
	if ((v & 2) && e->noload && (v & e->noload))
		return SR_STATE_IDLE; /* TASK_IDLE = D | NOLOAD */
	if (v & 2)
		return SR_STATE_DISK;
	if (v & 1)
		return SR_STATE_SLEEPING;
	if (v & 4)
		return SR_STATE_STOPPED;
	if (v & 8)
		return SR_STATE_TRACED;
	if (e->parked && (v & e->parked))
		return SR_STATE_PARKED;
	if (v & 256)
		return SR_STATE_RUNNING; /* TASK_WAKING */
	return SR_STATE_UNKNOWN;
}

int sr_state_from_letters(const char *s, size_t n, uint8_t *state,
			  uint8_t *preempt)
{
	*preempt = 0;
	if (n && memchr(s, '+', n)) {
		*state = SR_STATE_RUNNING; /* TASK_REPORT_MAX: preempted */
		*preempt = 1;
		return 0;
	}
	if (n == 1 && s[0] == 'p') {
		*state = SR_STATE_RUNNING; /* proposed 'p' = preempted */
		*preempt = 1;
		return 0;
	}
	if (n >= 3 && s[0] == 'D' && memchr(s, 'N', n)) {
		*state = SR_STATE_IDLE; /* "D|N": TASK_IDLE before 4.14 */
		return 0;
	}
	for (size_t i = 0; i < sizeof(state_letters) / sizeof(state_letters[0]); i++)
		if (n && s[0] == state_letters[i].c) {
			*state = state_letters[i].state;
			return 0;
		}
	return -1;
}

int sr_state_decode(struct sr_fmtctx *c, const char *s, size_t n,
		    const char *comm, uint8_t *state, uint8_t *preempt)
{
	uint32_t v;

	*preempt = 0;
	if (n && s[0] >= '0' && s[0] <= '9') {
		if (sr_parse_u32(s, n, UINT32_MAX, &v) != 0)
			return sr_fmt_expected(c, "a prev_state letter or "
					       "number", s, n);
		*state = state_from_number(c->state_enc, v, comm, preempt);
		return 0;
	}
	if (sr_state_from_letters(s, n, state, preempt) == 0)
		return 0;
	return sr_fmt_expected(c, "a prev_state letter (R S D T t X Z P I) "
			       "or number", s, n);
}

/* ---- fields per event ---- */

static int get_pid(struct sr_fmtctx *c, const struct sr_match *m,
		   enum sr_grp g, int32_t *pid)
{
	const char *p;
	size_t n;
	uint32_t v;

	if (!sr_grp(m, g, &p, &n) || sr_parse_u32(p, n, SR_PID_MAX, &v)) {
		if (sr_grp(m, g, &p, &n))
			return sr_fmt_expected(c, "a pid below 2^30", p, n);
		return SR_P_ERR;
	}
	*pid = (int32_t)v;
	return 0;
}

static int16_t get_prio(const struct sr_match *m, enum sr_grp g)
{
	const char *p;
	size_t n;
	uint32_t v;
	int neg;

	if (!sr_grp(m, g, &p, &n))
		return -1;
	neg = n && p[0] == '-';
	if (sr_parse_u32(p + neg, n - (size_t)neg, 999, &v) != 0)
		return -1; /* beyond any kernel prio: unknown */
	if (neg)
		return -1; /* deadline tasks print -1; no other is real */
	return (int16_t)v;
}

static void get_comm(const struct sr_match *m, enum sr_grp g, char *dst)
{
	const char *p;
	size_t n;

	if (sr_grp(m, g, &p, &n))
		sr_copy_comm(dst, p, n);
	else
		dst[0] = '\0';
}

/* Try the listed field layouts in order; the first that matches wins. */
static int match_any(struct sr_fmtctx *c, const enum sr_pat *ids, size_t nids,
		     const char *s, size_t n, struct sr_match *m)
{
	for (size_t i = 0; i < nids; i++)
		if (sr_match(c->pat, ids[i], s, n, 0, m))
			return (int)i + 1;
	return 0;
}

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/*
 * prev_state in trace-cmd's own sched_switch layout ("comm:pid [prio] S
 * ==> ..."), which libtraceevent's sched_switch plugin prints from the
 * number with a table of its own, one letter per bit: "SDTtZXxW" up to
 * libtraceevent 1.7 (Debian 12's), "SDTtXZPI" with "p" for 256 in later
 * ones, and R for no bit.  Against the kernel's states that is:
 *
 *   bit   1 2 4 8 16 32 64 128            256
 *   old   S D T t Z  X  x  W              (R)
 *   new   S D T t X  Z  P  I              p
 *   4.14+ S D T t X  Z  P  I (idle)       R+ (preempted)
 *   <4.14 S D T t X/Z   x (dead) K (wakekill)
 *
 * so S, D, T, t, Z and X read as the kernel's own letters (X and Z both
 * end the task), P, I and p as the new table says, and two letters of
 * the old table depend on the kernel: W (I from 4.14, a wakekill sleep
 * before: blocked either way) and x (P from 4.14, TASK_DEAD before).
 * When the file states its kernel (trace-cmd report --uname's "Linux
 * HOST RELEASE ARCH" line) that decides; otherwise the task is counted
 * as blocked and the first such line is named in a warning.  R cannot
 * tell a preemption from a plain runnable switch-out: it reads as R.
 */
static int plugin_state(struct sr_fmtctx *c, const char *s, size_t n,
			struct sr_raw *r)
{
	static const char *const why[] = {
		['W'] = "is TASK_IDLE (I) on kernels from 4.14 and a killable "
			"sleep before",
		['x'] = "is a parked kthread (P) on kernels from 4.14 and a "
			"dead task before",
	};
	char l = s[0];

	r->preempt = 0;
	if (l == 'p') {
		r->state = SR_STATE_RUNNING;
		r->preempt = 1;
		return SR_P_RAW;
	}
	if (l != 'W' && l != 'x')
		return sr_state_decode(c, s, n, r->comm, &r->state,
				       &r->preempt) ? SR_P_ERR : SR_P_RAW;
	if (c->kernel_414 > 0) {
		r->state = l == 'W' ? SR_STATE_IDLE : SR_STATE_PARKED;
		return SR_P_RAW;
	}
	if (c->kernel_414 < 0) {
		r->state = l == 'W' ? SR_STATE_SLEEPING : SR_STATE_DEAD;
		return SR_P_RAW;
	}
	r->state = SR_STATE_SLEEPING; /* blocked, whichever it was */
	if (!(c->warned & (l == 'W' ? 1 : 2))) {
		c->warned |= l == 'W' ? 1 : 2;
		sr_warn("%s:%llu: prev_state '%c' in trace-cmd's sched_switch "
			"layout %s; the file does not say which kernel recorded "
			"it, so the task is counted as blocked (`trace-cmd "
			"report -R` prints the number, and schedreplay reads "
			"trace.dat itself)", c->file,
			(unsigned long long)c->line, l, why[(unsigned char)l]);
	}
	return SR_P_RAW;
}

static int dec_switch(struct sr_fmtctx *c, const char *s, size_t n,
		      struct sr_raw *r)
{
	static const enum sr_pat ids[] = {
		P_F_SWITCH, P_F_SWITCH_OLD, P_F_SWITCH_PLUGIN
	};
	struct sr_match m;
	const char *p;
	size_t pn;
	int which = match_any(c, ids, NELEM(ids), s, n, &m);

	if (!which)
		return sr_fmt_expected(c, "sched_switch fields 'prev_comm=COMM "
				       "prev_pid=N prev_prio=N prev_state=S "
				       "==> next_comm=COMM next_pid=N "
				       "next_prio=N'", s, n);
	if (get_pid(c, &m, G_PPID, &r->pid) || get_pid(c, &m, G_NPID, &r->pid2))
		return SR_P_ERR;
	get_comm(&m, G_PCOMM, r->comm);
	get_comm(&m, G_NCOMM, r->comm2);
	r->prio = get_prio(&m, G_PPRIO);
	r->prio2 = get_prio(&m, G_NPRIO);
	sr_grp(&m, G_STATE, &p, &pn);
	if (ids[which - 1] == P_F_SWITCH_PLUGIN && pn && !(p[0] >= '0' &&
							   p[0] <= '9'))
		return plugin_state(c, p, pn, r);
	if (sr_state_decode(c, p, pn, r->comm, &r->state, &r->preempt) != 0)
		return SR_P_ERR;
	return SR_P_RAW;
}

static int dec_wake(struct sr_fmtctx *c, const char *s, size_t n,
		    struct sr_raw *r)
{
	static const enum sr_pat ids[] = {
		P_F_WAKE, P_F_WAKE_OLD, P_F_WAKE_PLUGIN
	};
	struct sr_match m;
	const char *p;
	size_t pn;
	uint32_t v;

	if (!match_any(c, ids, NELEM(ids), s, n, &m))
		return sr_fmt_expected(c, "wakeup fields 'comm=COMM pid=N "
				       "prio=N [success=N] [target_cpu=N]'",
				       s, n);
	if (get_pid(c, &m, G_PID, &r->pid))
		return SR_P_ERR;
	get_comm(&m, G_COMM, r->comm);
	r->prio = get_prio(&m, G_PRIO);
	if (sr_grp(&m, G_TCPU, &p, &pn) && sr_parse_cpu(c, p, pn, &r->target_cpu))
		return SR_P_ERR;
	if (sr_grp(&m, G_SUCC, &p, &pn) && sr_parse_u32(p, pn, 1u << 30, &v) == 0 &&
	    v == 0) {
		/* try_to_wake_up() found it already runnable: no wakeup */
		c->failed_wakeups++;
		return SR_P_NONE;
	}
	return SR_P_RAW;
}

static int dec_fork(struct sr_fmtctx *c, const char *s, size_t n,
		    struct sr_raw *r)
{
	static const enum sr_pat ids[] = { P_F_FORK };
	struct sr_match m;

	if (!match_any(c, ids, NELEM(ids), s, n, &m))
		return sr_fmt_expected(c, "sched_process_fork fields 'comm=COMM "
				       "pid=N child_comm=COMM child_pid=N'",
				       s, n);
	if (get_pid(c, &m, G_PID, &r->pid) || get_pid(c, &m, G_CPID, &r->pid2))
		return SR_P_ERR;
	get_comm(&m, G_COMM, r->comm);
	get_comm(&m, G_CCOMM, r->comm2);
	return SR_P_RAW;
}

static int dec_exec(struct sr_fmtctx *c, const char *s, size_t n,
		    struct sr_raw *r)
{
	static const enum sr_pat ids[] = { P_F_EXEC };
	struct sr_match m;
	const char *p, *base;
	size_t pn;

	if (!match_any(c, ids, NELEM(ids), s, n, &m))
		return sr_fmt_expected(c, "sched_process_exec fields "
				       "'filename=PATH pid=N old_pid=N'", s, n);
	if (get_pid(c, &m, G_PID, &r->pid) || get_pid(c, &m, G_OPID, &r->pid2))
		return SR_P_ERR;
	/* the new comm, by the kernel's rule: the file name's last part,
	 * cut to TASK_COMM_LEN - 1 (the line's own comm can be stale: ftrace
	 * prints the pid's latest saved comm) */
	sr_grp(&m, G_FILE, &p, &pn);
	base = p;
	for (size_t i = 0; i < pn; i++)
		if (p[i] == '/')
			base = p + i + 1;
	pn -= (size_t)(base - p);
	if (pn)
		sr_copy_comm(r->comm, base, pn > 15 ? 15 : pn);
	else
		memcpy(r->comm, r->ctx_comm, sizeof(r->comm));
	return SR_P_RAW;
}

static int dec_taskprio(struct sr_fmtctx *c, const char *s, size_t n,
			struct sr_raw *r)
{
	static const enum sr_pat ids[] = { P_F_TASKPRIO };
	struct sr_match m;

	if (!match_any(c, ids, NELEM(ids), s, n, &m))
		return sr_fmt_expected(c, "fields 'comm=COMM pid=N prio=N'", s, n);
	if (get_pid(c, &m, G_PID, &r->pid))
		return SR_P_ERR;
	get_comm(&m, G_COMM, r->comm);
	r->prio = get_prio(&m, G_PRIO);
	return SR_P_RAW;
}

static int dec_migrate(struct sr_fmtctx *c, const char *s, size_t n,
		       struct sr_raw *r)
{
	static const enum sr_pat ids[] = { P_F_MIGRATE };
	struct sr_match m;
	const char *p;
	size_t pn;

	if (!match_any(c, ids, NELEM(ids), s, n, &m))
		return sr_fmt_expected(c, "sched_migrate_task fields 'comm=COMM "
				       "pid=N prio=N orig_cpu=N dest_cpu=N'",
				       s, n);
	if (get_pid(c, &m, G_PID, &r->pid))
		return SR_P_ERR;
	get_comm(&m, G_COMM, r->comm);
	r->prio = get_prio(&m, G_PRIO);
	sr_grp(&m, G_OCPU, &p, &pn);
	if (sr_parse_cpu(c, p, pn, &r->orig_cpu))
		return SR_P_ERR;
	sr_grp(&m, G_DCPU, &p, &pn);
	if (sr_parse_cpu(c, p, pn, &r->target_cpu))
		return SR_P_ERR;
	return SR_P_RAW;
}

static int dec_runtime(struct sr_fmtctx *c, const char *s, size_t n,
		       struct sr_raw *r)
{
	static const enum sr_pat ids[] = { P_F_RUNTIME };
	struct sr_match m;
	const char *p;
	size_t pn;
	uint64_t v = 0;

	if (!match_any(c, ids, NELEM(ids), s, n, &m))
		return sr_fmt_expected(c, "sched_stat_runtime fields 'comm=COMM "
				       "pid=N runtime=NS [ns]'", s, n);
	if (get_pid(c, &m, G_PID, &r->pid))
		return SR_P_ERR;
	get_comm(&m, G_COMM, r->comm);
	sr_grp(&m, G_RT, &p, &pn);
	if (pn > 18)
		return sr_fmt_expected(c, "a runtime below 10^18 ns", p, pn);
	for (size_t i = 0; i < pn; i++)
		v = v * 10 + (uint64_t)(p[i] - '0');
	r->value = (int64_t)v;
	return SR_P_RAW;
}

#define EV(name) name, sizeof(name) - 1

static const struct {
	const char *name;
	size_t len;
	uint8_t kind;
	int (*dec)(struct sr_fmtctx *, const char *, size_t, struct sr_raw *);
} events[] = {
	{ EV("sched_switch"), SR_EV_SWITCH, dec_switch },
	{ EV("sched_waking"), SR_EV_WAKING, dec_wake },
	{ EV("sched_wakeup"), SR_EV_WAKEUP, dec_wake },
	{ EV("sched_wakeup_new"), SR_EV_WAKEUP_NEW, dec_wake },
	{ EV("sched_process_fork"), SR_EV_FORK, dec_fork },
	{ EV("sched_process_exec"), SR_EV_EXEC, dec_exec },
	{ EV("sched_process_exit"), SR_EV_EXIT, dec_taskprio },
	{ EV("sched_process_free"), SR_EV_FREE, dec_taskprio },
	{ EV("sched_migrate_task"), SR_EV_MIGRATE, dec_migrate },
	{ EV("sched_stat_runtime"), SR_EV_RUNTIME, dec_runtime },
};

int sr_fields_decode(struct sr_fmtctx *c, const char *ev, size_t evlen,
		     const char *s, size_t n, struct sr_raw *out)
{
	for (size_t i = 0; i < NELEM(events); i++) {
		if (events[i].len != evlen || events[i].name[evlen - 1] != ev[evlen - 1] ||
		    memcmp(events[i].name, ev, evlen) != 0)
			continue;
		out->kind = events[i].kind;
		return events[i].dec(c, s, n, out);
	}
	c->skipped_events++;
	return SR_P_NONE;
}

/* ---- numeric prev_state: which era ---- */

int sr_state_enc_guess(struct sr_fmtctx *c, const char *head, size_t n)
{
	const char *p = head, *end = head + n;
	uint32_t vals[64];
	size_t nv = 0;
	int idle_one = 0, with1024 = 0, alone1024 = 0, alone2048 = 0;
	int alone512 = 0, all = 0, k_with = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *q = memmem(p, len, "prev_state=", 11);

		if (q && q + 11 < p + len && q[11] >= '0' && q[11] <= '9') {
			uint32_t v = 0;
			const char *r = q + 11;
			size_t k;

			while (r < p + len && *r >= '0' && *r <= '9' && v < (1u << 28))
				v = v * 10 + (uint32_t)(*r++ - '0');
			if (v == 1 && memmem(p, (size_t)(q - p), "prev_pid=0 ", 11))
				idle_one = 1;
			for (k = 0; k < nv && vals[k] != v; k++)
				;
			if (k == nv && nv < 64)
				vals[nv++] = v;
		}
		p = nl ? nl + 1 : end;
	}
	for (size_t k = 0; k < nv; k++) {
		uint32_t v = vals[k];

		all |= (int)v;
		if (v & 1024) {
			if (v == 1024)
				alone1024 = 1;
			else
				with1024 = 1;
		}
		alone2048 |= v == 2048;
		alone512 |= v == 512;
		/* 128 in one value with S or D: TASK_WAKEKILL (D|K = 130), a
		 * bitmask; from 4.14 each value is one bit (128 alone: I) */
		k_with |= (v & 128) && (v & 3);
	}
	if (nv == 0)
		c->state_enc = SR_ENC_UNKNOWN;
	else if (idle_one)
		c->state_enc = SR_ENC_SHIFTED;  /* idle is R, printed 1 */
	else if (all & 4096)
		c->state_enc = SR_ENC_4_8;      /* TASK_STATE_MAX 4096 */
	else if (alone2048 || with1024)
		c->state_enc = SR_ENC_4_2;      /* 2048 preempt, D|N idle */
	else if (all & 2048)
		c->state_enc = SR_ENC_4_8;      /* TASK_NEW */
	else if (alone1024 || (all & 512 && !alone512))
		c->state_enc = SR_ENC_3_9;      /* 1024 preempt, P 512 */
	else if (alone512)
		c->state_enc = SR_ENC_2_6;      /* 512 preempt */
	else if (k_with || (all & 64 && !(all & (16 | 32 | 128 | 256))))
		c->state_enc = SR_ENC_4_8;      /* K with S/D, or x: pre-4.14 */
	else
		c->state_enc = SR_ENC_4_15;
	return c->state_enc;
}

int sr_fields_cpu_ts(struct sr_fmtctx *c, const struct sr_match *m,
		     struct sr_raw *out)
{
	const char *p;
	size_t pn;

	sr_grp(m, G_CPU, &p, &pn);
	if (sr_parse_cpu(c, p, pn, &out->cpu))
		return SR_P_ERR;
	sr_grp(m, G_TS, &p, &pn);
	if (sr_parse_ts(c, p, pn, &out->ts))
		return SR_P_ERR;
	return SR_P_RAW;
}

int sr_fields_decode_line(struct sr_fmtctx *c, const struct sr_match *m,
			  const char *ev, size_t evlen, const char *line,
			  size_t len, struct sr_raw *out)
{
	int rc = sr_fields_decode(c, ev, evlen, line + sr_match_end(m),
				  len - sr_match_end(m), out);

	return rc != SR_P_RAW ? rc : sr_fields_cpu_ts(c, m, out);
}

int sr_fields_peek(struct sr_fmtctx *c, const struct sr_match *m,
		   int32_t *cpu, int64_t *ts)
{
	struct sr_diag *save = c->d;
	struct sr_diag quiet = SR_DIAG_INIT;
	const char *p;
	size_t pn;
	int ok;

	c->d = &quiet;
	sr_grp(m, G_CPU, &p, &pn);
	ok = sr_parse_cpu(c, p, pn, cpu) == 0;
	sr_grp(m, G_TS, &p, &pn);
	ok = ok && sr_parse_ts(c, p, pn, ts) == 0;
	c->d = save;
	return ok;
}
