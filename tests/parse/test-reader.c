/*
 * test-reader: the reader API on the hand-made fixtures: detection, each
 * event kind, task identity (pid reuse, exec, idle, kthreads), wake
 * sources, lost markers, native times, and convert round trips.
 */
#include "tests/parse/parsetest.h"

#define DATA "tests/parse/data/"

static void test_perf(void)
{
	struct loaded l;
	long make, bash, cc, make2;

	CHECK_CTX("perf-small");
	CHECK_INT(load(&l, DATA "perf-small.txt"), 0);
	CHECK_STR(l.format, "perf");
	CHECK_INT(l.n, 17);
	if (l.n != 17 || l.ntasks != 7)
		return;
	CHECK_INT(l.st.skipped_events, 1);
	CHECK_INT(l.st.by_kind[SR_EV_SWITCH], 5);
	CHECK_INT(l.st.ncpus, 2);
	CHECK_INT(l.ntasks, 7);
	make = task_named(&l, 1001, "make");
	bash = task_named(&l, 1000, "bash");
	cc = task_named(&l, 1002, "cc");
	CHECK_INT(make, 0);
	CHECK_INT(bash, 1);
	CHECK(l.tasks[2].is_idle && l.tasks[2].cpu == 1);
	CHECK_STR(l.tasks[2].comm, "swapper/1");
	/* fork child, then exec: a new record linked to the old */
	CHECK_INT(l.tasks[3].pid, 1002);
	CHECK_STR(l.tasks[3].comm, "make");
	CHECK_INT(l.tasks[3].parent, make);
	CHECK_INT(cc, 4);
	CHECK_INT(l.tasks[4].exec_prev, 3);
	CHECK_INT(l.tasks[4].thread, 3);
	CHECK(l.tasks[4].exited && l.tasks[4].freed && l.tasks[4].gone);
	/* pid 1002 reused after exit: a third record, not freed */
	make2 = 6;
	CHECK_INT(l.tasks[make2].pid, 1002);
	CHECK_INT(l.tasks[make2].parent, make);
	CHECK_INT(l.tasks[make2].exec_prev, SR_TID_NONE);
	CHECK(!l.tasks[make2].freed && !l.tasks[make2].exited);
	CHECK(l.tasks[5].is_idle && l.tasks[5].cpu == 0);
	/* events */
	CHECK_INT(l.ev[0].kind, SR_EV_WAKING);
	CHECK_INT(l.ev[0].ts, 100000100000LL);
	CHECK_INT(l.ev[0].wsrc, SR_WS_TASK);
	CHECK_INT(l.ev[0].waker, bash);
	CHECK_INT(l.ev[0].target_cpu, 1);
	CHECK_INT(l.ev[1].kind, SR_EV_WAKEUP);
	CHECK_INT(l.ev[1].waker, bash);
	CHECK_INT(l.ev[2].kind, SR_EV_SWITCH);
	CHECK_INT(l.ev[2].task, 2);
	CHECK_INT(l.ev[2].other, make);
	CHECK_INT(l.ev[2].prev_state, SR_STATE_RUNNING);
	CHECK_INT(l.ev[3].kind, SR_EV_FORK);
	CHECK_INT(l.ev[3].other, 3);
	CHECK_INT(l.ev[4].kind, SR_EV_WAKEUP_NEW);
	CHECK_INT(l.ev[4].waker, make);
	CHECK_INT(l.ev[6].kind, SR_EV_EXEC);
	CHECK_INT(l.ev[6].task, 3);
	CHECK_INT(l.ev[6].other, 4);
	CHECK_INT(l.ev[7].kind, SR_EV_RUNTIME);
	CHECK_INT(l.ev[7].value, 200000);
	CHECK_INT(l.ev[9].wsrc, SR_WS_IDLE);
	CHECK_INT(l.ev[10].wsrc, SR_WS_IDLE);
	CHECK_INT(l.ev[10].waker, SR_TID_NONE);
	CHECK_INT(l.ev[11].kind, SR_EV_MIGRATE);
	CHECK_INT(l.ev[11].orig_cpu, 0);
	CHECK_INT(l.ev[11].target_cpu, 1);
	CHECK_INT(l.tasks[bash].cpu, 1);
	CHECK_INT(l.ev[13].prev_state, SR_STATE_DEAD);
	CHECK_INT(l.ev[15].other, make2);
	CHECK_INT(l.ev[16].kind, SR_EV_FREE);
	CHECK_INT(l.ev[16].task, cc);
	loaded_free(&l);
}

static void test_ftrace(void)
{
	struct loaded l;
	long xorg, web, ksoft;

	CHECK_CTX("ftrace-flags");
	CHECK_INT(load(&l, DATA "ftrace-flags.txt"), 0);
	CHECK_STR(l.format, "ftrace");
	CHECK_INT(l.n, 12);
	CHECK_INT(l.st.skipped_events, 1);
	if (l.n != 12)
		return;
	xorg = task_named(&l, 500, "Xorg");
	web = task_named(&l, 600, "Web Content");
	ksoft = task_named(&l, 14, "ksoftirqd/0");
	CHECK(xorg >= 0 && web >= 0 && ksoft >= 0);
	CHECK(l.tasks[ksoft].kthread);
	CHECK(!l.tasks[web].kthread);
	/* hardirq in idle: the flags column wins over the idle context */
	CHECK_INT(l.ev[0].wsrc, SR_WS_HARDIRQ);
	CHECK_INT(l.ev[1].wsrc, SR_WS_HARDIRQ);
	CHECK_INT(l.ev[3].wsrc, SR_WS_SOFTIRQ);
	CHECK_INT(l.ev[4].wsrc, SR_WS_SOFTIRQ);
	CHECK_INT(l.ev[5].wsrc, SR_WS_TASK);
	CHECK_INT(l.ev[6].waker, xorg);
	CHECK_INT(l.ev[7].prev_state, SR_STATE_RUNNING); /* R+ */
	CHECK_INT(l.ev[7].preempt, 1);
	CHECK_INT(l.ev[2].preempt, 0); /* plain R */
	CHECK_INT(l.ev[9].prev_state, SR_STATE_SLEEPING);
	/* the lost marker takes the time of the next event on its cpu */
	CHECK_INT(l.ev[10].kind, SR_EV_LOST);
	CHECK_INT(l.ev[10].cpu, 0);
	CHECK_INT(l.ev[10].ts, 50000500000LL);
	CHECK_INT(l.ev[11].kind, SR_EV_SWITCH);
	CHECK_INT(l.st.by_kind[SR_EV_LOST], 1);
	CHECK_INT(l.st.lost_events, 42);
	CHECK_INT(l.st.nlost, 1);
	CHECK_INT(l.lost[0].cpu, 0);
	CHECK_INT(l.lost[0].count, 42);
	CHECK_INT(l.lost[0].from_ts, 50000350000LL);
	CHECK_INT(l.lost[0].to_ts, 50000500000LL);
	loaded_free(&l);
}

static void test_native(void)
{
	struct loaded l;

	CHECK_CTX("native-small");
	CHECK_INT(load(&l, DATA "native-small.txt"), 0);
	CHECK_STR(l.format, "native");
	CHECK_INT(l.ntasks, 3);
	if (l.ntasks != 3)
		return;
	CHECK_STR(l.tasks[2].comm, "shell srvc 7950");
	CHECK_INT(l.tasks[2].tgid, 300);
	CHECK_INT(l.tasks[1].nice, -5);
	CHECK_INT(l.tasks[0].nice, 10);
	CHECK_INT(l.tasks[1].policy, SR_SCHED_FIFO);
	CHECK_INT(l.tasks[1].rtprio, 50);
	CHECK_INT(l.n, 10);
	if (l.n != 10)
		return;
	CHECK_INT(l.ev[0].kind, SR_EV_WAKEUP);
	CHECK_INT(l.ev[0].ts, 10000000);
	CHECK_INT(l.ev[0].wsrc, SR_WS_HARDIRQ);
	CHECK_INT(l.ev[2].kind, SR_EV_WAKING);
	CHECK_INT(l.ev[2].ts, 10500000);
	CHECK_INT(l.ev[2].waker, 1);
	CHECK_INT(l.ev[3].kind, SR_EV_WAKEUP);
	CHECK_INT(l.ev[3].wsrc, SR_WS_TASK); /* paired with the waking */
	CHECK_INT(l.ev[3].waker, 1);
	CHECK_INT(l.ev[5].prev_state, SR_STATE_DISK);
	CHECK_INT(l.ev[8].kind, SR_EV_LOST);
	CHECK_INT(l.ev[8].cpu, 1);
	CHECK_INT(l.ev[8].value, 7);
	CHECK_INT(l.ev[9].ts, 14000000);
	CHECK_INT(l.ev[9].kind, SR_EV_EXIT);
	loaded_free(&l);
}

/* A wakeup completing after its waker died names the dead record. */
static void test_native_dead_waker(void)
{
	struct loaded l;

	CHECK_CTX("native-dead-waker");
	CHECK_INT(load(&l, DATA "native-dead-waker.txt"), 0);
	CHECK_INT(l.ntasks, 3); /* waiter, dying, cpu 1's idle */
	CHECK_INT(l.n, 4);
	if (l.n == 4) {
		CHECK_INT(l.ev[3].kind, SR_EV_WAKEUP);
		CHECK_INT(l.ev[3].wsrc, SR_WS_TASK);
		CHECK_INT(l.ev[3].waker, l.ev[0].waker);
		CHECK_INT(l.tasks[l.ev[3].waker].pid, 300);
		CHECK_INT(l.tasks[l.ev[3].waker].exited, 1);
	}
	loaded_free(&l);
}

static void test_perf_sideband(void)
{
	struct loaded l;

	CHECK_CTX("perf-sideband");
	CHECK_INT(load(&l, DATA "perf-sideband.txt"), 0);
	CHECK_STR(l.format, "perf");
	CHECK_INT(l.n, 3);
	CHECK_INT(l.st.skipped_events, 3);
	if (l.n == 3) {
		CHECK_INT(l.ev[1].kind, SR_EV_LOST);
		CHECK_INT(l.ev[1].value, 27);
		CHECK_INT(l.ev[1].cpu, 0);
		CHECK_INT(l.ev[1].ts, 200000500000LL);
		CHECK_INT(l.st.nlost, 1);
		CHECK_INT(l.lost[0].from_ts, 200000100000LL);
		CHECK_INT(l.lost[0].to_ts, 200000500000LL);
	}
	loaded_free(&l);
}

int main(void)
{
	static const char *const fixtures[] = {
		DATA "perf-small.txt", DATA "ftrace-flags.txt",
		DATA "native-small.txt", DATA "perf-sideband.txt",
		DATA "native-dead-waker.txt",
	};

	test_perf();
	test_perf_sideband();
	test_ftrace();
	test_native();
	test_native_dead_waker();
	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
		check_roundtrip(fixtures[i], NULL);
	return test_done("test-reader");
}
