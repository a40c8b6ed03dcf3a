/*
 * builtin/record: `schedreplay record [-o FILE] [-a] [--duration S]
 * [--buffer-size KB] [-- CMD [ARGS...]]`: the scheduler events a replay
 * uses, recorded through a tracefs instance of our own (record/ring.h),
 * and the machine's context (record/capture.h), into one trace.dat every
 * command reads (docs/record.md).
 *
 * The command is started held at a pipe, so that tracing is on and every
 * task is read before it runs; it is released, the buffers drained every
 * SR_RECORD_TICK_MS (new tasks read as their forks and execs come by),
 * and the recording stops when it exits, at --duration, or at Ctrl-C
 * (SIGINT, SIGTERM, SIGHUP), which keeps what was recorded.  record then
 * exits with the command's status.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/outfile.h"
#include "lib/path.h"
#include "parse/ctxtext.h"
#include "parse/tdwrite.h"
#include "record/capture.h"
#include "record/ring.h"

#define SR_RECORD_TICK_MS 100
#define SR_RECORD_BUFFER_KB 8192

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

static void on_child(int sig)
{
	(void)sig; /* wakes the sleep; waitpid looks */
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

struct cmdproc {
	pid_t pid;
	int gate;       /* write end: a byte releases the command */
	int err;        /* read end: errno of a failed exec */
	int status;     /* waitpid's, once reaped */
	bool reaped;
};

/* The command, forked and held until the gate opens. */
static int spawn(struct cmdproc *p, char **argv, struct sr_diag *d)
{
	int gate[2], err[2];

	if (pipe2(gate, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return sr_fail(d, SR_EIO, "pipe: %s", strerror(errno));
	p->pid = fork();
	if (p->pid < 0)
		return sr_fail(d, SR_EIO, "fork: %s", strerror(errno));
	if (p->pid == 0) {
		char b;
		int e;

		close(gate[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL); /* ours ignores it (lib/outfile.h) */
		/* its name until it execs: the tree's root by name, as
		 * perf's perf-exec (replay/demand.h, SR_CMD_TREE) */
		prctl(PR_SET_NAME, "record-exec", 0, 0, 0);
		if (read(gate[0], &b, 1) != 1)
			_exit(127); /* the recorder gave up before it began */
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(gate[0]);
	close(err[1]);
	p->gate = gate[1];
	p->err = err[0];
	return SR_OK;
}

/* Release the command; SR_OK, or its exec's failure. */
static int release(struct cmdproc *p, const char *name, struct sr_diag *d)
{
	int e = 0;
	ssize_t n;

	if (write(p->gate, "x", 1) != 1)
		return sr_fail(d, SR_EIO, "starting %s: %s", name,
			       strerror(errno));
	close(p->gate);
	p->gate = -1;
	do
		n = read(p->err, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(p->err);
	p->err = -1;
	if (n == (ssize_t)sizeof(e))
		return sr_fail(d, SR_ENOINPUT, "cannot run '%s': %s", name,
			       strerror(e));
	return SR_OK;
}

static void reap(struct cmdproc *p, int flags)
{
	int st;

	if (p->pid <= 0 || p->reaped)
		return;
	for (;;) {
		pid_t w = waitpid(p->pid, &st, flags);

		if (w < 0 && errno == EINTR)
			continue;
		if (w == p->pid) {
			p->status = st;
			p->reaped = true;
		}
		return;
	}
}

/* The command's status as a shell gives it. */
static int exit_code(const struct cmdproc *p)
{
	if (WIFEXITED(p->status))
		return WEXITSTATUS(p->status);
	if (WIFSIGNALED(p->status))
		return 128 + WTERMSIG(p->status);
	return 1;
}

static int on_task(void *ctx, const struct sr_ring_task_ev *e,
		   struct sr_diag *d)
{
	struct sr_capture *c = ctx;

	return e->exec ? sr_capture_exec(c, e->pid, e->ts, d)
		       : sr_capture_fork(c, e->parent, e->pid, e->ts, d);
}

/* trace.dat: the pages, the context option, each cpu's stats. */
static int write_file(struct sr_ring *ring, const struct sr_context *ctx,
		      const struct sr_ring_cpu_stats *st, size_t nst,
		      struct sr_outfile *o, const char *out, struct sr_diag *d)
{
	struct sr_tdw w;
	struct sr_tdw_option *opts = calloc(nst + 1, sizeof(*opts));
	char **stat_text = calloc(nst + 1, sizeof(*stat_text));
	char *ctxbuf = NULL;
	size_t ctxlen = 0;
	FILE *m;
	int rc;

	if (!opts || !stat_text) {
		rc = sr_oom(d);
		goto done;
	}
	m = open_memstream(&ctxbuf, &ctxlen);
	if (!m || sr_ctxtext_write(m, ctx, "") || fclose(m)) {
		rc = sr_oom(d);
		goto done;
	}
	opts[0] = (struct sr_tdw_option){ SR_TD_OPTION_CONTEXT, ctxbuf,
					  (uint32_t)ctxlen + 1 };
	for (size_t i = 0; i < nst; i++) {
		if (asprintf(&stat_text[i], "CPU: %d\n%s", (int)st[i].cpu,
			     st[i].text) < 0) {
			stat_text[i] = NULL;
			rc = sr_oom(d);
			goto done;
		}
		opts[i + 1] = (struct sr_tdw_option){ SR_TD_OPTION_CPUSTAT,
			stat_text[i], (uint32_t)strlen(stat_text[i]) + 1 };
	}
	if ((rc = sr_ring_tdw(ring, &w, d)))
		goto done;
	w.opts = opts;
	w.nopts = nst + 1;
	rc = sr_tdw_write(sr_outfile_fp(o), &w, out, d);
done:
	for (size_t i = 0; stat_text && i < nst; i++)
		free(stat_text[i]);
	free(stat_text);
	free(opts);
	free(ctxbuf);
	return rc;
}

/* What was recorded and lost, on stderr; a loss says what to change. */
static void summary(const char *out, double secs,
		    const struct sr_ring_cpu_stats *st, size_t nst,
		    const struct sr_capture *cap, size_t buffer_kb,
		    const struct sr_context *ctx)
{
	uint64_t events = 0, lost = 0, read, gone;

	for (size_t i = 0; i < nst; i++) {
		events += st[i].read;
		lost += st[i].overrun + st[i].dropped;
	}
	sr_capture_counts(cap, &read, &gone);
	fprintf(stderr, "schedreplay record: %s: %.1f s, %" PRIu64 " events "
		"on %zu cpus, the context of %" PRIu64 " task readings%s\n",
		out, secs, events, nst, read,
		ctx->nunread ? " (some unread: see below)" : "");
	for (size_t i = 0; i < ctx->nunread; i++)
		fprintf(stderr, "schedreplay record: not read: %s\n",
			ctx->unread[i]);
	if (!lost) {
		fprintf(stderr, "schedreplay record: no events lost\n");
		return;
	}
	fprintf(stderr, "schedreplay record: LOST %" PRIu64 " events (", lost);
	for (size_t i = 0, k = 0; i < nst; i++)
		if (st[i].overrun + st[i].dropped)
			fprintf(stderr, "%scpu %d: %" PRIu64, k++ ? ", " : "",
				(int)st[i].cpu, st[i].overrun + st[i].dropped);
	fprintf(stderr, "), marked in the file where they were lost: raise "
		"--buffer-size (now %zu KiB per cpu), or record a shorter "
		"or lighter run\n", buffer_kb);
}

int cmd_record(int argc, char **argv, struct sr_diag *d)
{
	const char *out = "trace.dat", *missing;
	bool all = false, quiet = false;
	int64_t duration = 0;
	size_t buffer_kb = SR_RECORD_BUFFER_KB;
	const struct po_option opts[] = {
		OPT_PATH('o', "output", &out, "FILE",
			 "write the recording here (default: trace.dat)"),
		OPT_FLAG('a', "all", &all, "record the whole system until "
			 "Ctrl-C or --duration, without a command"),
		OPT_NUMBER(0, "duration", &duration, "S", "stop after S "
			   "seconds (a command runs on; record waits for it)",
			   1000000, 86400 * PO_NS_PER_S, po_time_units_s),
		OPT_NUMBER(0, "buffer-size", &buffer_kb, "KB", "ring buffer "
			   "per cpu, in KiB (default 8192)", 64, 4194304,
			   NULL),
		OPT_FLAG('q', "quiet", &quiet, "no summary at the end"),
		OPT_END(),
	};
	const char **cmdv = calloc((size_t)argc + 1, sizeof(*cmdv));
	const struct po_cmd cmd = {
		.name = "record",
		.operands = "[-- CMD [ARGS...]]",
		.min_operands = 0,
		.max_operands = (size_t)argc,
		.about = "Record the scheduler events a replay uses, and the "
			"machine's context (HZ, preemption, autogroup, "
			"topology; each task's groups, affinity, nice and "
			"policy), into one trace.dat that every command reads "
			"(docs/record.md). Needs root and tracefs. With a "
			"command, records the whole machine while it runs and "
			"exits with its status; its process tree is marked.",
		.opts = opts,
	};
	struct cmdproc proc = { .pid = -1, .gate = -1, .err = -1 };
	struct sr_outfile *of = NULL;
	struct sr_ring *ring = NULL;
	struct sr_capture *cap = NULL;
	struct sr_context *ctx = NULL;
	const struct sr_ring_cpu_stats *st;
	struct sigaction sa = { 0 }, old_int, old_term, old_hup, old_chld;
	size_t ncmd = 0, nst = 0;
	int64_t t0, stop_at;
	int rc;

	if (!cmdv)
		return sr_oom(d);
	if ((rc = po_parse(&cmd, argc, argv, cmdv, &ncmd, d))) {
		free(cmdv);
		return rc == PO_HELP ? SR_OK : rc;
	}
	if (!ncmd && !all) {
		free(cmdv);
		return sr_fail(d, SR_EUSAGE, "record: expected a command (-- "
			       "CMD [ARGS...]) or -a for the whole system");
	}
	if (ncmd && all) {
		free(cmdv);
		return sr_fail(d, SR_EUSAGE, "record: -a records without a "
			       "command: give one or the other");
	}
	if (ncmd && !strcmp(out, "-")) {
		free(cmdv);
		return sr_fail(d, SR_EUSAGE, "record: -o - with a command: its "
			       "output would go into the recording; give -o "
			       "FILE (or record -a to stdout)");
	}
	if (geteuid() != 0) {
		free(cmdv);
		return sr_fail(d, SR_ENOINPUT, "record needs root: the kernel's "
			       "tracing (tracefs) and other users' /proc "
			       "entries are root's: run it with sudo");
	}
	if (sr_outpath_check("-o", out, d)) {
		free(cmdv);
		return d->code;
	}
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;  /* no SA_RESTART: the sleep wakes */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, &old_chld);

	/* the output is opened before the workload runs (a path that
	   cannot be written is said then, not after it), after the command
	   is forked (it does not inherit the file) */
	if ((ncmd && (rc = spawn(&proc, (char **)cmdv, d))) ||
	    (rc = sr_outfile_open(&of, out, d)))
		goto end;
	if ((rc = sr_capture_new(&cap, ncmd ? (int32_t)proc.pid : -1, all, d)) ||
	    (rc = sr_capture_machine(cap, d)) ||
	    (rc = sr_ring_open(&ring, buffer_kb, &missing, d)))
		goto end;
	if (*missing && !quiet)
		fprintf(stderr, "schedreplay record: this kernel has no %s: "
			"recorded without\n", missing);
	if ((rc = sr_ring_start(ring, d)) || (rc = sr_capture_scan(cap, d)))
		goto end;
	t0 = now_ns();
	stop_at = duration ? t0 + duration : INT64_MAX;
	if (ncmd && (rc = release(&proc, cmdv[0], d)))
		goto end;
	while (!stop_sig) {
		struct timespec tick = { 0, SR_RECORD_TICK_MS * 1000000L };

		if ((rc = sr_ring_drain(ring, on_task, cap, d)))
			goto end;
		if (ncmd) {
			reap(&proc, WNOHANG);
			if (proc.reaped)
				break;
		}
		if (now_ns() >= stop_at)
			break;
		nanosleep(&tick, NULL);
	}
	if ((rc = sr_ring_stop(ring, d)) ||
	    (rc = sr_ring_drain(ring, on_task, cap, d)) ||
	    (rc = sr_ring_stats(ring, &st, &nst, d)))
		goto end;
	for (size_t i = 0; i < nst; i++)
		if (st[i].overrun + st[i].dropped &&
		    (rc = sr_capture_loss(cap, st[i].cpu,
					  st[i].overrun + st[i].dropped, d)))
			goto end;
	if ((rc = sr_capture_take(cap, &ctx, d)) ||
	    (rc = write_file(ring, ctx, st, nst, of, out, d)))
		goto end;
	rc = sr_outfile_commit(of, d);
	of = NULL;
	if (rc)
		goto end;
	if (!quiet)
		summary(out, (double)(now_ns() - t0) / 1e9, st, nst, cap,
			buffer_kb, ctx);
end:
	sr_outfile_abort(of);
	sr_ring_close(ring);
	sr_capture_free(cap);
	sr_context_free(ctx);
	if (proc.gate >= 0)
		close(proc.gate); /* never released: it exits 127 */
	if (proc.err >= 0)
		close(proc.err);
	reap(&proc, 0);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	free(cmdv);
	if (rc == SR_OK && ncmd && proc.reaped)
		return SR_PASS_STATUS | exit_code(&proc);
	return rc;
}
