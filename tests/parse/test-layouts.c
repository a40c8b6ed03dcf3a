/*
 * test-layouts: one fixture per input layout: detection picks the right
 * reader, and the fields that differ between layouts decode right
 * (plugin and -l layouts of trace-cmd, raw numeric prev_state per kernel
 * era, 3.x and 2.6.2x field layouts, the TGID column, systrace HTML).
 * Every fixture also survives a native round trip.
 */
#include "tests/parse/parsetest.h"

#define DATA "tests/parse/data/"

static void tracecmd_plugin(void)
{
	struct loaded l;

	CHECK_CTX("tracecmd-plugin");
	CHECK_INT(load(&l, DATA "tracecmd-plugin.txt"), 0);
	CHECK_STR(l.format, "trace-cmd");
	CHECK_INT(l.n, 14);
	if (l.n != 14)
		return;
	CHECK_INT(l.ev[1].kind, SR_EV_WAKEUP_NEW);
	CHECK_INT(l.ev[1].target_cpu, 1);
	CHECK_INT(l.ev[1].prio, 120);
	CHECK_INT(l.ev[3].kind, SR_EV_SWITCH);
	CHECK_INT(l.ev[3].prev_state, SR_STATE_SLEEPING);
	CHECK(l.tasks[l.ev[3].other].is_idle);
	CHECK_INT(l.ev[5].kind, SR_EV_WAKEUP);
	CHECK_INT(l.ev[5].wsrc, SR_WS_IDLE);
	/* CPU:1 [12 EVENTS DROPPED] times itself by cpu 1's next event */
	CHECK_INT(l.ev[7].kind, SR_EV_LOST);
	CHECK_INT(l.ev[7].value, 12);
	CHECK_INT(l.ev[7].cpu, 1);
	CHECK_INT(l.ev[7].ts, 1638138336000LL);
	CHECK_INT(l.ev[8].kind, SR_EV_EXEC);
	CHECK_INT(l.ev[10].prev_state, SR_STATE_ZOMBIE);
	/* CPU:0 [EVENTS DROPPED]: count unknown */
	CHECK_INT(l.ev[11].kind, SR_EV_LOST);
	CHECK_INT(l.ev[11].value, 0);
	CHECK_INT(l.st.nlost, 2);
	CHECK_INT(l.lost[1].cpu, 0);
	CHECK_INT(l.lost[1].from_ts, 1638136489000LL);
	CHECK_INT(l.lost[1].to_ts, 1638139050000LL);
	/* the freed ls is the exec'd record, gone after its Z switch-out */
	CHECK_INT(l.ev[13].kind, SR_EV_FREE);
	CHECK_INT(l.ev[13].task, l.ev[8].other);
	CHECK(l.tasks[l.ev[13].task].freed);
	loaded_free(&l);
}

static void tracecmd_latency(void)
{
	struct loaded l;

	CHECK_CTX("tracecmd-latency");
	CHECK_INT(load(&l, DATA "tracecmd-latency.txt"), 0);
	CHECK_STR(l.format, "trace-cmd");
	CHECK_INT(l.n, 5);
	if (l.n != 5)
		return;
	CHECK_INT(l.ev[2].cpu, 1);
	CHECK_INT(l.ev[2].wsrc, SR_WS_HARDIRQ);
	CHECK_INT(l.ev[3].wsrc, SR_WS_HARDIRQ);
	CHECK_INT(l.ev[4].preempt, 1);
	loaded_free(&l);
}

/* trace-cmd report -R: numbers, era told by the values seen */
static void tracecmd_raw(void)
{
	struct loaded l;
	static const uint8_t want48[] = {
		SR_STATE_DEAD, 0, SR_STATE_RUNNING, SR_STATE_RUNNING,
		SR_STATE_SLEEPING, SR_STATE_DISK, SR_STATE_RUNNING,
		SR_STATE_DISK,
	};
	static const uint8_t wantsh[] = {
		SR_STATE_ZOMBIE, SR_STATE_RUNNING, SR_STATE_IDLE,
		SR_STATE_RUNNING, SR_STATE_RUNNING, SR_STATE_SLEEPING,
	};

	CHECK_CTX("tracecmd-raw-4.8");
	CHECK_INT(load(&l, DATA "tracecmd-raw-4.8.txt"), 0);
	CHECK_STR(l.format, "trace-cmd");
	CHECK_INT(l.n, 8);
	for (size_t i = 0; i < l.n && i < 8; i++)
		if (l.ev[i].kind == SR_EV_SWITCH)
			CHECK_INT(l.ev[i].prev_state, want48[i]);
	if (l.n == 8) {
		CHECK_INT(l.ev[3].preempt, 1);      /* 4096 */
		CHECK_INT(l.ev[5].preempt, 0);      /* 130: killable D */
	}
	loaded_free(&l);

	CHECK_CTX("tracecmd-raw-shifted");
	CHECK_INT(load(&l, DATA "tracecmd-raw-shifted.txt"), 0);
	CHECK_INT(l.n, 6);
	for (size_t i = 0; i < l.n && i < 6; i++)
		CHECK_INT(l.ev[i].prev_state, wantsh[i]);
	if (l.n == 6) {
		CHECK_INT(l.ev[2].preempt, 0);      /* kworker: 256 = I */
		CHECK_INT(l.ev[3].preempt, 1);      /* bash: 256 = R+ */
	}
	loaded_free(&l);
}

static void ftrace_old(void)
{
	struct loaded l;

	CHECK_CTX("ftrace-3x");
	CHECK_INT(load(&l, DATA "ftrace-3x.txt"), 0);
	CHECK_STR(l.format, "ftrace");
	/* success=0 is not a wakeup; the clock-sync line is skipped */
	CHECK_INT(l.n, 5);
	CHECK_INT(l.st.failed_wakeups, 1);
	CHECK_INT(l.st.skipped_events, 1);
	if (l.n == 5) {
		CHECK_INT(l.ev[2].prev_state, SR_STATE_DISK);   /* D|K */
		CHECK_STR(l.tasks[l.ev[2].other].comm, "Smack Packet Wr");
		CHECK_INT(l.ev[3].prev_state, SR_STATE_DEAD);   /* x */
		CHECK(l.tasks[l.ev[3].task].gone);
		CHECK_INT(l.ev[4].wsrc, SR_WS_IDLE);
		CHECK(l.tasks[l.ev[0].other].kthread);          /* kworker/ */
	}
	loaded_free(&l);

	CHECK_CTX("ftrace-2.6");
	CHECK_INT(load(&l, DATA "ftrace-2.6.txt"), 0);
	CHECK_INT(l.n, 3);
	if (l.n == 3) {
		CHECK_INT(l.ev[0].prev_state, SR_STATE_SLEEPING);
		CHECK_INT(l.ev[0].other_prio, 140);
		CHECK_STR(l.tasks[l.ev[0].task].comm, "bash");
		CHECK_INT(l.ev[1].kind, SR_EV_WAKEUP);
		CHECK_INT(l.ev[1].target_cpu, -1);
	}
	loaded_free(&l);
}

static void ftrace_tgid(void)
{
	struct loaded l;

	CHECK_CTX("ftrace-tgid");
	CHECK_INT(load(&l, DATA "ftrace-tgid.txt"), 0);
	CHECK_STR(l.format, "ftrace");
	CHECK_INT(l.n, 5);
	if (l.n == 5) {
		const struct sr_task *rt = &l.tasks[l.ev[1].waker];

		CHECK_INT(rt->pid, 7511);
		CHECK_INT(rt->tgid, 7459);
		CHECK_STR(rt->comm, "RenderThread");
		CHECK_STR(l.tasks[l.ev[1].task].comm, "shell srvc 7950");
		CHECK_INT(l.tasks[l.ev[1].task].tgid, -1); /* (-----) */
		CHECK_INT(l.tasks[l.ev[0].task].tgid, 959);
	}
	loaded_free(&l);
}

static void systrace(void)
{
	struct loaded l;

	CHECK_CTX("systrace-modern");
	CHECK_INT(load(&l, DATA "systrace-modern.html"), 0);
	CHECK_STR(l.format, "systrace");
	CHECK_INT(l.n, 2); /* the JSON block and the script are not data */
	if (l.n == 2) {
		CHECK_INT(l.ev[0].wsrc, SR_WS_HARDIRQ);
		CHECK_INT(l.ev[1].line, 9);
	}
	loaded_free(&l);

	CHECK_CTX("systrace-legacy");
	CHECK_INT(load(&l, DATA "systrace-legacy.html"), 0);
	CHECK_STR(l.format, "systrace");
	CHECK_INT(l.n, 2);
	CHECK_INT(l.st.skipped_events, 2); /* "0:" marks, clock sync */
	if (l.n == 2) {
		CHECK_INT(l.ev[0].line, 8);
		CHECK_INT(l.ev[1].waker, l.ev[0].other);
	}
	loaded_free(&l);
}

int main(void)
{
	static const char *const fixtures[] = {
		"tracecmd-plugin.txt", "tracecmd-latency.txt",
		"tracecmd-raw-4.8.txt", "tracecmd-raw-shifted.txt",
		"ftrace-3x.txt", "ftrace-2.6.txt", "ftrace-tgid.txt",
		"systrace-modern.html", "systrace-legacy.html",
	};
	char path[256];

	tracecmd_plugin();
	tracecmd_latency();
	tracecmd_raw();
	ftrace_old();
	ftrace_tgid();
	systrace();
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		snprintf(path, sizeof(path), DATA "%s", fixtures[i]);
		check_roundtrip(path, NULL);
	}
	return test_done("test-layouts");
}
