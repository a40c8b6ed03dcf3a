/*
 * test-binary: the binary readers and the format-driven prev_state.
 *
 * 1. prev_state by the event's own format: sched_switch formats of three
 *    kernel eras (their print expressions as the kernels print them), each
 *    letter and the preempted flag decoded from numbers: I
 *    (TASK_REPORT_IDLE), W, P, N, X, Z, D|K, D|N and "+".
 * 2. A raw sched_switch record decoded through the 6.x format.
 * 3. The fixtures (tests/parse/data/bin): perf.data in file and pipe mode
 *    and trace.dat v6/v7 with and without instances give the same event
 *    stream as the text perf script / trace-cmd report printed of them;
 *    lost records become lost markers.
 * 4. trace-cmd's plugin layout: W is idle from 4.14 on, blocked either way;
 *    with the kernel stated (--uname) it is I.
 * 5. What a format must hold before libtraceevent parses it: text, its
 *    lines in the kernel's forms, its print expression's brackets and
 *    strings closed, its fields named, divisions by a field, a non-zero
 *    number or a type's size (garbage that reads as a division by zero,
 *    which libtraceevent 1.7 folds into SIGFPE, not).
 * 6. A __data_loc comm (sched_stat_runtime's since 6.x) is read only
 *    within its record: at its place when it lies inside, an error naming
 *    the record's size when its offset or length runs past the end.
 */
#include <event-parse.h>

#include "parse/tracepoint.h"
#include "parse/tracing.h"
#include "tests/parse/parsetest.h"

#define BIN "tests/parse/data/bin/"

/* A sched_switch format with the 6.x field layout and this print fmt. */
static struct tep_handle *switch_format(const char *print)
{
	static const char head[] =
		"name: sched_switch\nID: 372\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
		"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
		"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
		"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
		"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
		"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d "
		"prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d\", "
		"REC->prev_comm, REC->prev_pid, REC->prev_prio, ";
	char buf[4096];
	struct tep_handle *tep = tep_alloc();
	int n = snprintf(buf, sizeof(buf), "%s%s, REC->next_comm, "
			 "REC->next_pid, REC->next_prio\n", head, print);

	tep_set_loglevel(TEP_LOG_NONE);
	if (tep_parse_event(tep, buf, (unsigned long)n, "sched") != 0) {
		CHECK(!"the format parses");
		tep_free(tep);
		return NULL;
	}
	return tep;
}

/* Linux 4.14 on (this one from 6.18): one bit per state, 256 preempted. */
static const char fmt_414[] =
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | "
	"0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + 1) "
	"<< 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | "
	"0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, "
	"{ 0x00000002, \"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, "
	"{ 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, { 0x00000040, \"P\" }, "
	"{ 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000 | "
	"0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\"";

/* 4.8 - 4.13: the task's state bitmask, TASK_STATE_MAX 4096. */
static const char fmt_48[] =
	"REC->prev_state & (4096-1) ? __print_flags(REC->prev_state & "
	"(4096-1), \"|\", { 1, \"S\"} , { 2, \"D\" }, { 4, \"T\" }, "
	"{ 8, \"t\" }, { 16, \"X\" }, { 32, \"Z\" }, { 64, \"x\" }, "
	"{ 128, \"K\" }, { 256, \"W\" }, { 512, \"P\" }, { 1024, \"N\" }, "
	"{ 2048, \"n\" }) : \"R\", REC->prev_state & 4096 ? \"+\" : \"\"";

/* 2.6.32 - 3.1: no preempted flag yet. */
static const char fmt_2632[] =
	"REC->prev_state ? __print_flags(REC->prev_state, \"|\", { 1, \"S\"} , "
	"{ 2, \"D\" }, { 4, \"T\" }, { 8, \"t\" }, { 16, \"Z\" }, { 32, \"X\" }, "
	"{ 64, \"x\" }, { 128, \"W\" }) : \"R\", \"\"";

struct want {
	uint64_t v;
	uint8_t state;
	uint8_t preempt;
};

static void states(const char *era, const char *print, const struct want *w,
		   size_t n)
{
	struct tep_handle *tep = switch_format(print);
	const struct tep_event *ev;

	CHECK_CTX("prev_state by the %s format", era);
	if (!tep)
		return;
	ev = tep_find_event_by_name(tep, "sched", "sched_switch");
	CHECK(ev != NULL);
	for (size_t i = 0; ev && i < n; i++) {
		uint8_t st = 0, pr = 9;

		CHECK_CTX("%s: prev_state %llu", era, (unsigned long long)w[i].v);
		CHECK_INT(sr_tp_state_by_format(ev, w[i].v, &st, &pr), 0);
		CHECK_INT(st, w[i].state);
		CHECK_INT(pr, w[i].preempt);
	}
	tep_free(tep);
}

static void format_states(void)
{
	static const struct want w414[] = {
		{ 0, SR_STATE_RUNNING, 0 }, { 1, SR_STATE_SLEEPING, 0 },
		{ 2, SR_STATE_DISK, 0 }, { 4, SR_STATE_STOPPED, 0 },
		{ 8, SR_STATE_TRACED, 0 }, { 16, SR_STATE_DEAD, 0 },
		{ 32, SR_STATE_ZOMBIE, 0 }, { 64, SR_STATE_PARKED, 0 },
		{ 128, SR_STATE_IDLE, 0 },      /* TASK_REPORT_IDLE: I */
		{ 256, SR_STATE_RUNNING, 1 },   /* TASK_REPORT_MAX: R+ */
	};
	static const struct want w48[] = {
		{ 0, SR_STATE_RUNNING, 0 }, { 1, SR_STATE_SLEEPING, 0 },
		{ 130, SR_STATE_DISK, 0 },      /* D|K: killable */
		{ 256, SR_STATE_RUNNING, 0 },   /* W: waking */
		{ 512, SR_STATE_PARKED, 0 },    /* P */
		{ 1024, SR_STATE_DISK, 0 },     /* N alone */
		{ 1026, SR_STATE_IDLE, 0 },     /* D|N: TASK_IDLE */
		{ 16, SR_STATE_DEAD, 0 }, { 32, SR_STATE_ZOMBIE, 0 },
		{ 64, SR_STATE_DEAD, 0 },       /* x: TASK_DEAD */
		{ 2048, SR_STATE_RUNNING, 0 },  /* n: TASK_NEW */
		{ 4096, SR_STATE_RUNNING, 1 },  /* + */
	};
	static const struct want w2632[] = {
		{ 0, SR_STATE_RUNNING, 0 }, { 2, SR_STATE_DISK, 0 },
		{ 16, SR_STATE_ZOMBIE, 0 }, { 32, SR_STATE_DEAD, 0 },
		{ 128, SR_STATE_RUNNING, 0 },   /* W: that kernel's waking */
		{ 4096, SR_STATE_UNKNOWN, 0 },  /* no letter: "0x1000" */
	};

	states("4.14+", fmt_414, w414, sizeof(w414) / sizeof(w414[0]));
	states("4.8", fmt_48, w48, sizeof(w48) / sizeof(w48[0]));
	states("2.6.32", fmt_2632, w2632, sizeof(w2632) / sizeof(w2632[0]));
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

static void raw_switch(void)
{
	struct tep_handle *tep = switch_format(fmt_414);
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_fmtctx c = { 0 };
	struct sr_tp tp;
	struct sr_tp_event *e;
	struct sr_raw r;
	uint8_t rec[64] = { 0 };

	CHECK_CTX("raw sched_switch");
	if (!tep)
		return;
	c.d = &d;
	c.file = "test";
	CHECK_INT(sr_tp_init(&tp, tep, SR_ENC_UNKNOWN, &c), SR_OK);
	e = sr_tp_find(&tp, 372);
	CHECK(e != NULL);
	if (!e) {
		tep_free(tep);
		return;
	}
	rec[2] = 0x08;                  /* common_flags: hardirq */
	put32(rec + 4, 77);             /* common_pid */
	memcpy(rec + 8, "kworker/0:1", 11);
	put32(rec + 24, 17);
	put32(rec + 28, 120);
	put64(rec + 32, 128);           /* I */
	memcpy(rec + 40, "bash", 4);
	put32(rec + 56, 4242);
	put32(rec + 60, 139);
	sr_raw_init(&r);
	CHECK_INT(sr_tp_decode(&tp, e, rec, sizeof(rec), &r, &c), SR_P_RAW);
	CHECK_INT(r.kind, SR_EV_SWITCH);
	CHECK_INT(r.pid, 17);
	CHECK_STR(r.comm, "kworker/0:1");
	CHECK_INT(r.pid2, 4242);
	CHECK_STR(r.comm2, "bash");
	CHECK_INT(r.prio, 120);
	CHECK_INT(r.prio2, 139);
	CHECK_INT(r.state, SR_STATE_IDLE);
	CHECK_INT(r.preempt, 0);
	CHECK_INT(r.irq, SR_CTX_HARDIRQ);
	CHECK_INT(r.ctx_pid, 77);
	/* a record shorter than its format: an error naming the sizes */
	sr_raw_init(&r);
	CHECK_INT(sr_tp_decode(&tp, e, rec, 40, &r, &c), SR_P_ERR);
	CHECK(strstr(d.msg, "at least 64 bytes") != NULL);
	tep_free(tep);
}

/*
 * sched_stat_runtime with its 6.x layout: a 24-byte head, then the comm
 * the __data_loc at offset 8 points to (u32: length << 16 | offset).
 * Record: "cc1\0" at 24, 28 bytes in all.  Loc 4 << 16 | 24 ends at 28,
 * the record's last byte: inside, comm "cc1", pid 4711, runtime 250000.
 * 5 << 16 | 24 ends at 29, one past the end; 8 << 16 | 24 at 32; 4 << 16
 * | 26 at 30: outside, an error naming the 28 bytes.
 */
static void runtime_comm(void)
{
	static const char fmt[] =
		"name: sched_stat_runtime\nID: 310\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
		"\tfield:u64 runtime;\toffset:16;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"comm=%s pid=%d runtime=%Lu [ns]\", "
		"__get_str(comm), REC->pid, REC->runtime\n";
	static const uint32_t outside[] = {
		5u << 16 | 24, 8u << 16 | 24, 4u << 16 | 26,
	};
	struct tep_handle *tep = tep_alloc();
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_fmtctx c = { 0 };
	struct sr_tp tp;
	struct sr_tp_event *e;
	struct sr_raw r;
	uint8_t *rec = malloc(28);  /* exactly the record: ASan sees past it */

	CHECK_CTX("sched_stat_runtime's __data_loc comm");
	tep_set_loglevel(TEP_LOG_NONE);
	CHECK_INT(tep_parse_event(tep, fmt, sizeof(fmt) - 1, "sched"), 0);
	c.d = &d;
	c.file = "test";
	CHECK_INT(sr_tp_init(&tp, tep, SR_ENC_UNKNOWN, &c), SR_OK);
	e = sr_tp_find(&tp, 310);
	CHECK(e != NULL && rec != NULL);
	if (!e || !rec) {
		free(rec);
		tep_free(tep);
		return;
	}
	memset(rec, 0, 28);
	put32(rec + 4, 4711);
	put32(rec + 8, 4u << 16 | 24);
	put32(rec + 12, 4711);
	put64(rec + 16, 250000);
	memcpy(rec + 24, "cc1", 4);
	sr_raw_init(&r);
	CHECK_INT(sr_tp_decode(&tp, e, rec, 28, &r, &c), SR_P_RAW);
	CHECK_INT(r.kind, SR_EV_RUNTIME);
	CHECK_STR(r.comm, "cc1");
	CHECK_INT(r.pid, 4711);
	CHECK_INT(r.value, 250000);
	for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
		put32(rec + 8, outside[i]);
		d = (struct sr_diag)SR_DIAG_INIT;
		sr_raw_init(&r);
		CHECK_INT(sr_tp_decode(&tp, e, rec, 28, &r, &c), SR_P_ERR);
		CHECK(strstr(d.msg, "expected a comm within the record's 28 "
			     "bytes") != NULL);
	}
	free(rec);
	tep_free(tep);
}

/* The same events, in the same order, with the same tasks. */
static void same_stream(const char *a, const char *b)
{
	struct loaded x, y;

	CHECK_CTX("%s against %s", a, b);
	CHECK_INT(load(&x, a), 0);
	CHECK_INT(load(&y, b), 0);
	CHECK(x.n > 50);
	CHECK_INT(x.n, y.n);
	for (size_t i = 0; i < x.n && i < y.n; i++) {
		const struct sr_event *p = &x.ev[i], *q = &y.ev[i];

		CHECK_CTX("%s against %s: event %zu", a, b, i);
		CHECK_INT(p->ts, q->ts);
		CHECK_INT(p->cpu, q->cpu);
		CHECK_INT(p->kind, q->kind);
		CHECK_INT(p->prev_state, q->prev_state);
		CHECK_INT(x.tasks[p->task].pid, y.tasks[q->task].pid);
		CHECK_STR(x.tasks[p->task].comm, y.tasks[q->task].comm);
		if (p->ts != q->ts || p->kind != q->kind)
			break;  /* one report is enough */
	}
	loaded_free(&x);
	loaded_free(&y);
}

static void fixtures(void)
{
	struct loaded l;
	size_t lost = 0;

	same_stream(BIN "sleep.perf.data", BIN "sleep.perf.txt");
	same_stream(BIN "sleep.pipe.perf.data", BIN "sleep.pipe.perf.txt");
	same_stream(BIN "sleep.v7.dat", BIN "sleep.v7-raw.txt");
	same_stream(BIN "sleep.v6.dat", BIN "sleep.v7.dat");
	same_stream(BIN "sleep.v6top.dat", BIN "sleep.v7.dat");
	same_stream(BIN "sleep.v7top.dat", BIN "sleep.v7.dat");
	same_stream(BIN "sleep.v7zstd.dat", BIN "sleep.v7.dat");

	CHECK_CTX("formats by magic");
	CHECK_INT(load(&l, BIN "sleep.perf.data"), 0);
	CHECK_STR(l.format, "perf.data");
	loaded_free(&l);
	CHECK_INT(load(&l, BIN "sleep.v6.dat"), 0);
	CHECK_STR(l.format, "trace.dat");
	/* trace.dat has the interrupt context (perf script text has not) */
	for (size_t i = 0; i < l.n; i++)
		if (l.ev[i].kind == SR_EV_WAKEUP && l.ev[i].wsrc != SR_WS_TASK)
			lost++;
	CHECK(lost > 0);
	loaded_free(&l);

	CHECK_CTX("lost.perf.data");
	CHECK_INT(load(&l, BIN "lost.perf.data"), 0);
	CHECK(l.st.by_kind[SR_EV_LOST] > 0);
	CHECK(l.st.lost_events > 0);
	CHECK(l.st.nlost > 0 && l.lost[0].cpu >= 0);
	loaded_free(&l);
	CHECK_CTX("lost.v7.dat");
	CHECK_INT(load(&l, BIN "lost.v7.dat"), 0);
	CHECK(l.st.by_kind[SR_EV_LOST] > 0);
	for (size_t i = 1; i < l.n; i++)
		if (l.ev[i - 1].kind == SR_EV_LOST) {
			/* the marker precedes the record, at its time, its cpu */
			CHECK_INT(l.ev[i].ts, l.ev[i - 1].ts);
			CHECK_INT(l.ev[i].cpu, l.ev[i - 1].cpu);
		}
	loaded_free(&l);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static void plugin_layout(void)
{
	static const char body[] =
		"cpus=1\n"
		"  kworker/0:0-9     [000]  10.000100: sched_switch: "
		"kworker/0:0:9 [120] W ==> bash:100 [120]\n"
		"       bash-100   [000]  10.000200: sched_switch: "
		"bash:100 [120] x ==> rcu_preempt:15 [120]\n"
		"  rcu_preempt-15    [000]  10.000300: sched_switch: "
		"rcu_preempt:15 [120] p ==> swapper/0:0 [120]\n";
	char dir[200], path[300], text[1024];
	struct loaded l;

	if (test_mktemp(dir, sizeof(dir), "binary", 1) < 0)
		return;
	CHECK_CTX("plugin layout, kernel not stated");
	snprintf(path, sizeof(path), "%s/plugin.txt", dir);
	write_file(path, body);
	CHECK_INT(load(&l, path), 0);
	CHECK_INT(l.n, 3);
	if (l.n == 3) {
		CHECK_INT(l.ev[0].prev_state, SR_STATE_SLEEPING); /* blocked */
		CHECK_INT(l.ev[1].prev_state, SR_STATE_SLEEPING); /* blocked */
		CHECK_INT(l.ev[2].prev_state, SR_STATE_RUNNING);
		CHECK_INT(l.ev[2].preempt, 1);                    /* p */
	}
	loaded_free(&l);

	CHECK_CTX("plugin layout, 6.x kernel stated");
	snprintf(text, sizeof(text), "Linux host 6.18.44-1 x86_64\n%s", body);
	write_file(path, text);
	CHECK_INT(load(&l, path), 0);
	if (l.n == 3) {
		CHECK_INT(l.ev[0].prev_state, SR_STATE_IDLE);     /* I */
		CHECK_INT(l.ev[1].prev_state, SR_STATE_PARKED);   /* P */
	}
	loaded_free(&l);

	CHECK_CTX("plugin layout, 4.9 kernel stated");
	snprintf(text, sizeof(text), "Linux host 4.9.0-8-amd64 x86_64\n%s",
		 body);
	write_file(path, text);
	CHECK_INT(load(&l, path), 0);
	if (l.n == 3) {
		CHECK_INT(l.ev[0].prev_state, SR_STATE_SLEEPING); /* K */
		CHECK_INT(l.ev[1].prev_state, SR_STATE_DEAD);     /* x */
	}
	loaded_free(&l);
}

/* A format with one int field "len" and this print expression. */
static int check_print(const char *args)
{
	char buf[1024], why[160];
	int n = snprintf(buf, sizeof(buf), "name: x\nID: 9\nformat:\n"
			 "\tfield:int len;\toffset:8;\tsize:4;\tsigned:1;\n\n"
			 "print fmt: \"n=%%d %%%% / %%d\", %s\n", args);

	return sr_format_check(buf, (size_t)n, why, sizeof(why));
}

static void format_check(void)
{
	static const char *const good[] = {
		"REC->len", "REC->len / 250, 1", "REC->len / 1000L, 2",
		"(REC->len % 64), 3", "REC->len / sizeof(u64), 4",
		"REC->len / sizeof(unsigned int), 5", "REC->len / REC->len, 6",
		"REC->len / (REC->len), 7", "REC->len / (8), 8",
		"REC->len / 0x10, 9", "REC->len ? \"a/0\" : \"%0\", 10",
		"REC->len / 2 - 2, 11",
	};
	static const char *const bad[] = {
		"REC->len / 0", "REC->len % 0", "REC->len / (1-1)",
		"18 migration/0", "x/0 ? 1 : 2", "REC->len / 0x0",
		"REC->len / sizeof(REC->len)", "REC->len / x", "REC->len / 2.5",
		"REC->len / (2 - 2)", "REC->nope",
		/* garbage: brackets, strings, bytes, lines */
		"(REC->len", "REC->len)", "{ REC->len )", "\"open",
		"REC->len\n18 migration", "REC->len @ 2", "REC->len \x01",
		"((((((((((((((((((((((((((((((((((REC->len))))))))))))))))))))))))))))))))))",
	};
	static const char *const fields[] = {
		"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n",
		"\tfield:char comm[TASK_COMM_LEN];\toffset:8;\tsize:16;\n",
		"\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n",
		/* byte 0xc1 then '6' (an octal escape stops at 3 digits) */
		"\tfield:char comm[\3016];\toffset:8;\tsize:16;\tsigned:0;\n",
		"\tfield:char comm[1-6];\toffset:8;\tsize:16;\tsigned:0;\n",
		"\tfield:char comm[16];\toffset:8;\tsize:x;\tsigned:0;\n",
		"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;junk\n",
		"\tfield:;\toffset:8;\tsize:16;\tsigned:0;\n",
		"sh 28081\n",
	};
	char buf[512], why[160];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK_CTX("print fmt args '%s'", good[i]);
		CHECK_INT(check_print(good[i]), 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_CTX("print fmt args '%s'", bad[i]);
		CHECK_INT(check_print(bad[i]), -1);
	}
	/* field lines: the first three are the kernel's forms */
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		int n = snprintf(buf, sizeof(buf), "name: x\nID: 9\nformat:\n"
				 "%s\nprint fmt: \"x\"\n", fields[i]);

		CHECK_CTX("field line %zu", i);
		CHECK_INT(sr_format_check(buf, (size_t)n, why, sizeof(why)),
			  i < 3 ? 0 : -1);
	}
}

int main(void)
{
	format_check();
	format_states();
	raw_switch();
	runtime_comm();
	fixtures();
	plugin_layout();
	return test_done("test-binary");
}
