/*
 * test-merge: cross-cpu ordering: slightly unsorted input repaired by the
 * reorder window, per-cpu blocks merged by per-cpu cursors on a file and
 * refused on a pipe, and a cpu's own time going backwards refused.
 */
#include <fcntl.h>
#include <sys/wait.h>

#include "tests/parse/parsetest.h"

static char dir[200];

/* An ftrace line: a switch on cpu at t microseconds. */
static void line(FILE *f, int cpu, long us, int prev, int next)
{
	fprintf(f, "  task-%d [%03d] d..2. %ld.%06ld: sched_switch: "
		"prev_comm=task prev_pid=%d prev_prio=120 prev_state=S ==> "
		"next_comm=task next_pid=%d next_prio=120\n",
		prev, cpu, 10 + us / 1000000, us % 1000000, prev, next);
}

static void check_sorted(const struct loaded *l, size_t want)
{
	CHECK_INT(l->n, want);
	for (size_t k = 1; k < l->n; k++)
		if (l->ev[k].ts < l->ev[k - 1].ts) {
			CHECK_INT(l->ev[k].ts, l->ev[k - 1].ts);
			return;
		}
}

static void blocks_file(const char *path, int ncpu, int per)
{
	FILE *f = fopen(path, "w");

	/* cpu 0's events, then cpu 1's, ...: per-cpu blocks */
	for (int c = 0; c < ncpu; c++)
		for (int i = 0; i < per; i++)
			line(f, c, 100 + i * 10 + c, 1000 + c, 2000 + c);
	fclose(f);
}

int main(void)
{
	char path[256], gz[1024];
	struct loaded l;
	struct sr_read_opts small = { .reorder_window = 8 };
	FILE *f;

	if (test_mktemp(dir, sizeof(dir), "merge", 1) < 0)
		return 1;

	/* 1. interleaved, locally out of order by less than the window */
	snprintf(path, sizeof(path), "%s/jitter.txt", dir);
	f = fopen(path, "w");
	for (int i = 0; i < 200; i++) {
		line(f, 0, 1000 + i * 10 + 5, 1, 2);
		line(f, 1, 1000 + i * 10, 3, 4); /* cpu 1 printed late */
	}
	fclose(f);
	CHECK_CTX("jitter");
	CHECK_INT(load_opts(&l, path, &small), 0);
	check_sorted(&l, 400);
	CHECK_INT(l.st.kway, 0);
	CHECK_INT(l.ev[0].cpu, 1);
	loaded_free(&l);
	/* the same where no temporary file can be made: the window keeps
	 * all its records in memory (parse/merge.c keeps window/8 there and
	 * the others in a file) */
	{
		const char *was = getenv("TMPDIR");
		char *keep = was ? strdup(was) : NULL;

		setenv("TMPDIR", "/nonexistent-dir-of-the-merge-test", 1);
		CHECK_CTX("jitter, no temporary file");
		CHECK_INT(load_opts(&l, path, &small), 0);
		check_sorted(&l, 400);
		CHECK_INT(l.ev[0].cpu, 1);
		loaded_free(&l);
		if (keep)
			setenv("TMPDIR", keep, 1);
		else
			unsetenv("TMPDIR");
		free(keep);
	}

	/*
	 * 1c. the same with names longer than a window slot keeps inline
	 * (parse/merge.c keeps 48 bytes of names per record, the rest in a
	 * block of its own): every name comes out whole, in order.
	 */
	snprintf(path, sizeof(path), "%s/longnames.txt", dir);
	f = fopen(path, "w");
	for (int i = 0; i < 200; i++) {
		const char *n0 = i % 2 ? "short" : "a-thread-name-of-31-chars-01234";
		const char *n1 = "another-thread-name-of-29-chr";
		int c = i % 2, us = 1000 + (i / 2) * 10 + (c ? 0 : 5);

		fprintf(f, "  %s-%d [%03d] d..2. 10.%06d: sched_switch: "
			"prev_comm=%s prev_pid=%d prev_prio=120 prev_state=S "
			"==> next_comm=%s next_pid=%d next_prio=120\n",
			n0, 10 + c, c, us, n0, 10 + c, n1, 20 + c);
	}
	fclose(f);
	CHECK_CTX("long names");
	CHECK_INT(load_opts(&l, path, &small), 0);
	check_sorted(&l, 200);
	CHECK(task_named(&l, 10, "a-thread-name-of-31-chars-01234") >= 0);
	CHECK(task_named(&l, 11, "short") >= 0);
	CHECK(task_named(&l, 20, "another-thread-name-of-29-chr") >= 0);
	CHECK(task_named(&l, 21, "another-thread-name-of-29-chr") >= 0);
	CHECK_INT(l.ev[0].cpu, 1);
	loaded_free(&l);

	/*
	 * 1b. two busy cpus let records leave before the window is full (at
	 * the watermark); a third cpu first seen later, a little in the past
	 * (within the records still held), is still put in order.
	 */
	snprintf(path, sizeof(path), "%s/latecpu.txt", dir);
	f = fopen(path, "w");
	for (int i = 0; i < 40; i++) {
		line(f, 0, 1000 + i * 10, 1, 2);
		line(f, 1, 1000 + i * 10 + 5, 3, 4);
	}
	line(f, 2, 1000 + 38 * 10, 5, 6);  /* older than the last 3 */
	line(f, 2, 1000 + 45 * 10, 6, 5);
	fclose(f);
	{
		struct sr_read_opts win = { .reorder_window = 64 };

		CHECK_CTX("late cpu");
		CHECK_INT(load_opts(&l, path, &win), 0);
		check_sorted(&l, 82);
		CHECK_INT(l.st.kway, 0);
		CHECK_INT(l.ev[76].cpu, 0); /* same time: input order */
		CHECK_INT(l.ev[77].cpu, 2);
		loaded_free(&l);
	}

	/* 2. per-cpu blocks in a file: per-cpu cursors */
	snprintf(path, sizeof(path), "%s/blocks.txt", dir);
	blocks_file(path, 4, 50);
	CHECK_CTX("blocks, file");
	CHECK_INT(load_opts(&l, path, &small), 0);
	check_sorted(&l, 200);
	CHECK_INT(l.st.kway, 1);
	CHECK_INT(l.st.ncpus, 4);
	CHECK_INT(l.st.lines, 200);
	CHECK_INT(l.ev[0].cpu, 0);
	CHECK_INT(l.ev[1].cpu, 1);
	loaded_free(&l);
	/* the default window holds this small file whole */
	CHECK_INT(load(&l, path), 0);
	check_sorted(&l, 200);
	CHECK_INT(l.st.kway, 0);
	loaded_free(&l);

	/* 3. the same, gzip-compressed */
	snprintf(gz, sizeof(gz), "gzip -c %s > %s/blocks.txt.gz", path, dir);
	CHECK_INT(system(gz), 0);
	snprintf(gz, sizeof(gz), "%s/blocks.txt.gz", dir);
	CHECK_CTX("blocks, gzip file");
	CHECK_INT(load_opts(&l, gz, &small), 0);
	check_sorted(&l, 200);
	CHECK_INT(l.st.kway, 1);
	loaded_free(&l);

	/* 4. the same through a pipe: refused, with the reason */
	{
		int fd = open(path, O_RDONLY), save = dup(0), p[2];
		pid_t pid;

		CHECK(pipe(p) == 0);
		pid = fork();
		if (pid == 0) {
			char buf[4096];
			ssize_t n;

			close(p[0]);
			while ((n = read(fd, buf, sizeof(buf))) > 0)
				if (write(p[1], buf, (size_t)n) != n)
					break;
			_exit(0);
		}
		close(p[1]);
		dup2(p[0], 0);
		close(p[0]);
		CHECK_CTX("blocks, pipe");
		CHECK_INT(load_opts(&l, "-", &small), 65);
		CHECK(strstr(l.msg, "<stdin>:51: cpu 1: event at 10.000101000 is "
			     "older than the event at") != NULL);
		CHECK(strstr(l.msg, "cannot be re-read") != NULL);
		loaded_free(&l);
		dup2(save, 0);
		close(save);
		close(fd);
		waitpid(pid, NULL, 0);
	}

	/* 5. one cpu going back in time */
	snprintf(path, sizeof(path), "%s/back.txt", dir);
	f = fopen(path, "w");
	line(f, 0, 100, 1, 2);
	line(f, 1, 150, 3, 4);
	line(f, 0, 200, 2, 1);
	line(f, 0, 190, 1, 2);
	fclose(f);
	CHECK_CTX("backwards");
	CHECK_INT(load(&l, path), 65);
	snprintf(gz, sizeof(gz), "%s:4: cpu 0: time goes backwards: "
		 "10.000190000 after 10.000200000 (line 3)", path);
	CHECK_STR(l.msg, gz);
	loaded_free(&l);

	snprintf(gz, sizeof(gz), "rm -rf %s", dir);
	CHECK_INT(system(gz), 0);
	return test_done("test-merge");
}
