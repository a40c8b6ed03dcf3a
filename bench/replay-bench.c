/*
 * replay-bench: the replay's figures for `make bench`.
 *
 *	replay-bench gen SECONDS OUT      write a synthetic desktop workload
 *	                                  (native format) of SECONDS
 *	replay-bench run TRACE [--cpus N,N...] POLICY...
 *	                                  replay TRACE under each policy on
 *	                                  its own, on each CPU count (default
 *	                                  1), and print simulated events per
 *	                                  second of CPU
 *
 * The workload: two compiler-like hogs (bursts of 10-60 ms, forking short
 * children that exit), an audio player woken by a timer every 10 ms that
 * wakes its output thread, an X server woken by input every 8 ms that
 * wakes a client, and a producer waking a consumer every 1-3 ms: about
 * 90% of one cpu.
 * It is recorded as if every task had a cpu of its own (no contention in
 * the recording), so the replay on one cpu is where the policies differ.
 * The generator is deterministic (a fixed LCG), so the same SECONDS gives
 * the same bytes.
 *
 * `run` reads the trace once into memory, then times, per policy, the
 * demand extraction and the simulator over it (CPU time, so the machine's
 * other load matters less): simulated events per second of the simulator,
 * and trace events per second of the extraction.  A first, unprinted pass
 * warms the caches.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parse/reader.h"
#include "replay/demand.h"
#include "replay/sim.h"
#include "sched-model/knobs.h"
#include "sched-model/policy.h"

/* ---- gen ------------------------------------------------------------------ */

#define US 1000LL
#define MSEC 1000000LL

static uint64_t rng = 88172645463325252ULL;

static int64_t uniform(int64_t lo, int64_t hi)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return lo + (int64_t)((rng >> 33) % (uint64_t)(hi - lo + 1));
}

enum kind { HOG, AUDIO, AUDIO_OUT, XSRV, CLIENT, PIPE_A, PIPE_B, CHILD };

struct gtask {
	int pid, cpu, kind, alive, running;
	const char *comm;
	int64_t next;       /* time of its next event, INT64_MAX: waits */
	int64_t until;      /* end of the current burst */
	int wakes;          /* pid to wake at the end of this burst, 0 none */
	int nforks;
};

#define MAXT 64

struct gen {
	FILE *f;
	struct gtask t[MAXT];
	int n, nextpid, nextcpu;
	unsigned char cpu_used[MAXT + 16];
	int64_t end;
};

static void ts(FILE *f, int64_t t)
{
	fprintf(f, "%lld.%09lld", (long long)(t / 1000000000),
		(long long)(t % 1000000000));
}

static struct gtask *add(struct gen *g, const char *comm, int kind,
			 int64_t start)
{
	struct gtask *t = &g->t[g->n++];

	memset(t, 0, sizeof(*t));
	t->pid = g->nextpid++;
	if (kind == CHILD) {
		/* the lowest cpu free, past the long-lived tasks' */
		for (t->cpu = 8; g->cpu_used[t->cpu]; t->cpu++)
			;
		g->cpu_used[t->cpu] = 1;
	} else {
		t->cpu = g->nextcpu++;
	}
	t->kind = kind;
	t->comm = comm;
	t->alive = 1;
	t->next = start;
	return t;
}

static struct gtask *by_pid(struct gen *g, int pid)
{
	for (int i = 0; i < g->n; i++)
		if (g->t[i].pid == pid && g->t[i].alive)
			return &g->t[i];
	return NULL;
}

/* t starts running at now (its own cpu), for len, then acts. */
static void run(struct gen *g, struct gtask *t, int64_t now, int64_t len)
{
	ts(g->f, now);
	fprintf(g->f, " %d switch prev=0 state=R next=%d\n", t->cpu, t->pid);
	t->running = 1;
	t->until = now + len;
	t->next = t->until;
}

static void wake(struct gen *g, int64_t now, struct gtask *t, int by)
{
	ts(g->f, now);
	if (by)
		fprintf(g->f, " %d wake pid=%d by=%d\n", t->cpu, t->pid, by);
	else
		fprintf(g->f, " %d wake pid=%d by=irq\n", t->cpu, t->pid);
}

static void sleep_(struct gen *g, struct gtask *t, int64_t now, char st)
{
	ts(g->f, now);
	fprintf(g->f, " %d switch prev=%d state=%c next=0\n", t->cpu, t->pid,
		st);
	t->running = 0;
}

/* The end of t's burst at now: what it does next. */
static void step(struct gen *g, struct gtask *t, int64_t now)
{
	struct gtask *o;

	if (!t->running) {
		/* a timer or input interrupt: it wakes and runs */
		int64_t len = t->kind == AUDIO ? uniform(300, 700) * US :
			      t->kind == XSRV ? uniform(200, 800) * US :
			      t->kind == PIPE_A ? uniform(50, 400) * US :
			      uniform(10, 60) * MSEC;

		wake(g, now, t, 0);
		run(g, t, now, len);
		return;
	}
	switch (t->kind) {
	case HOG:
		if (t->nforks < 1000000 && uniform(0, 3) == 0 && g->n < MAXT) {
			/* fork a short child (cc1 from make) */
			o = add(g, "cc1", CHILD, INT64_MAX);
			ts(g->f, now);
			fprintf(g->f, " %d fork pid=%d child=%d comm=cc1\n",
				t->cpu, t->pid, o->pid);
			run(g, o, now, uniform(2, 8) * MSEC);
			t->nforks++;
		}
		sleep_(g, t, now, 'D');
		t->next = now + uniform(50, 150) * MSEC;
		return;
	case CHILD:
		ts(g->f, now);
		fprintf(g->f, " %d exit pid=%d\n", t->cpu, t->pid);
		sleep_(g, t, now, 'X');
		t->alive = 0;
		t->next = INT64_MAX;
		g->cpu_used[t->cpu] = 0;
		return;
	case AUDIO:
	case XSRV:
		/* wake the output thread / the client, then sleep until the
		   next period */
		o = by_pid(g, t->pid + 1);
		wake(g, now, o, t->pid);
		run(g, o, now, t->kind == AUDIO ? uniform(100, 300) * US :
				uniform(100, 500) * US);
		sleep_(g, t, now, 'S');
		t->next = now - (now % (t->kind == AUDIO ? 10 * MSEC : 8 * MSEC)) +
			  (t->kind == AUDIO ? 10 * MSEC : 8 * MSEC);
		return;
	case PIPE_A:
		/* a chunk written: the consumer reads it; the next chunk is
		   ready in 1-3 ms */
		o = by_pid(g, t->pid + 1);
		if (!o->running) {
			wake(g, now, o, t->pid);
			run(g, o, now, uniform(50, 400) * US);
		}
		sleep_(g, t, now, 'S');
		t->next = now + uniform(1, 3) * MSEC;
		return;
	default: /* AUDIO_OUT, CLIENT, PIPE_B: sleep until woken */
		sleep_(g, t, now, 'S');
		t->next = INT64_MAX;
		return;
	}
}

static int gen(int64_t seconds, const char *out)
{
	struct gen g;

	memset(&g, 0, sizeof(g));
	g.f = fopen(out, "w");
	if (!g.f) {
		perror(out);
		return 1;
	}
	g.nextpid = 1000;
	g.end = seconds * 1000000000LL;
	fprintf(g.f, "#schedreplay-native 1\n# replay-bench synthetic "
		"workload, %lld s\n", (long long)seconds);
	add(&g, "make", HOG, 1 * MSEC);
	add(&g, "make", HOG, 2 * MSEC);
	add(&g, "xmms", AUDIO, 3 * MSEC);
	add(&g, "xmms-out", AUDIO_OUT, INT64_MAX);
	add(&g, "X", XSRV, 4 * MSEC);
	add(&g, "xterm", CLIENT, INT64_MAX);
	add(&g, "producer", PIPE_A, 5 * MSEC);
	add(&g, "consumer", PIPE_B, INT64_MAX);
	for (int i = 0; i < g.n; i++) {
		fprintf(g.f, "0s %d task pid=%d comm=%s\n", g.t[i].cpu,
			g.t[i].pid, g.t[i].comm);
	}
	for (;;) {
		struct gtask *t = NULL;

		for (int i = 0; i < g.n; i++)
			if (g.t[i].alive && (!t || g.t[i].next < t->next))
				t = &g.t[i];
		if (!t || t->next >= g.end)
			break;
		step(&g, t, t->next);
		/* compact dead children */
		for (int i = 0; i < g.n; i++) {
			if (!g.t[i].alive && g.t[i].kind == CHILD) {
				g.t[i] = g.t[--g.n];
				i--;
			}
		}
	}
	if (fclose(g.f)) {
		perror(out);
		return 1;
	}
	return 0;
}

/* ---- run ------------------------------------------------------------------ */

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static const struct sr_task *get(const void *ctx, sr_tid id)
{
	return sr_tasks_get(ctx, id);
}

struct one {
	struct sr_sim *sim;
};

static void resolved(void *ctx, uint32_t task, uint32_t block,
		     const struct sr_op *op)
{
	struct one *o = ctx;

	if (o->sim)
		sr_sim_resolved(o->sim, task, block, op);
}

/*
 * One replay of ev under pol on cpus CPUs: *tsim gets the simulator's CPU
 * time, *tdem the demand extraction's.
 */
static int replay_once(const struct sm_policy *pol, int cpus,
		       const struct sr_event *ev, size_t nev,
		       const struct sr_tasks *tasks, double *tsim, double *tdem,
		       struct sr_sim_stats *st, struct sr_demand_stats *ds)
{
	struct sr_demand_opts dopts = { .task_get = get, .task_ctx = tasks,
					.nconsumers = 1 };
	/* the policy configured with its defaults, as the replay does: the
	   state its runqueues share (2.4's global runqueue) */
	struct sm_sched *sched = sm_sched_new(pol, NULL);
	struct sr_sim_opts so = { .policy = pol, .sched = sched, .cpus = cpus };
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_demand *dm = NULL;
	struct one o = { NULL };
	double t0, t1;

	*tsim = 0;
	if (!sched) {
		sr_oom(&d);
		goto fail;
	}
	if (sr_demand_new(&dm, &dopts, &d) ||
	    sr_sim_new(&o.sim, &so, dm, 0, NULL, &d))
		goto fail;
	sr_demand_on_resolve(dm, resolved, &o);
	t0 = cpu_now();
	for (size_t i = 0; i < nev; i++) {
		if (sr_demand_event(dm, &ev[i], &d))
			goto fail;
		if ((i + 1) % 4096 == 0) {
			double a = cpu_now();

			if (sr_sim_advance(o.sim, &d))
				goto fail;
			*tsim += cpu_now() - a;
		}
	}
	if (sr_demand_finish(dm, nev ? ev[nev - 1].ts : 0, &d))
		goto fail;
	{
		double a = cpu_now();

		if (sr_sim_advance(o.sim, &d) || sr_sim_finish(o.sim, &d))
			goto fail;
		*tsim += cpu_now() - a;
	}
	t1 = cpu_now();
	*tdem = t1 - t0 - *tsim;
	sr_sim_stats(o.sim, st);
	sr_demand_stats(dm, ds);
	sr_sim_free(o.sim);
	sr_demand_free(dm);
	sm_sched_free(sched);
	return 0;
fail:
	fprintf(stderr, "replay-bench: %s\n", d.msg);
	sr_sim_free(o.sim);
	sr_demand_free(dm);
	sm_sched_free(sched);
	return 1;
}

/*
 * Replays repeated until the simulator has used BENCH_MIN_CPU_S of CPU
 * (a short sample runs in milliseconds: one run would measure noise);
 * the figures are the totals over the repeats.
 */
#define BENCH_MIN_CPU_S 0.3
#define BENCH_MAX_REPEATS 200

static int run_policy(const struct sm_policy *pol, int cpus,
		      const struct sr_event *ev, size_t nev,
		      const struct sr_tasks *tasks, bool print)
{
	struct sr_demand_stats ds;
	struct sr_sim_stats st;
	double tsim = 0, tdem = 0;
	uint64_t events = 0, busy = 0;
	int reps = 0;

	do {
		double a, b;

		if (replay_once(pol, cpus, ev, nev, tasks, &a, &b, &st, &ds))
			return 1;
		tsim += a;
		tdem += b;
		events += st.events;            /* idle ticks included */
		busy += st.events - st.idle_ticks;
		reps++;
	} while (print && tsim < BENCH_MIN_CPU_S && reps < BENCH_MAX_REPEATS);
	if (print)
		printf("   %d cpu%s %-10s %9llu sim events (%llu idle ticks) "
		       "x%d in %6.3f s CPU: %6.2f M/s, %5.1f ns/event "
		       "(%5.1f ns per event that is not an idle tick); demand "
		       "extraction %6.2f M trace events/s; ops held at most "
		       "%llu; %llu migrations; replay ends %.3f s after the "
		       "recording\n",
		       cpus, cpus == 1 ? " " : "s", pol->name,
		       (unsigned long long)st.events,
		       (unsigned long long)st.idle_ticks, reps, tsim,
		       tsim > 0 ? (double)events / tsim / 1e6 : 0,
		       events ? tsim * 1e9 / (double)events : 0,
		       busy ? tsim * 1e9 / (double)busy : 0,
		       tdem > 0 ? (double)nev * reps / tdem / 1e6 : 0,
		       (unsigned long long)ds.peak_held_ops,
		       (unsigned long long)st.migrations,
		       (double)(st.end - (nev ? ev[nev - 1].ts : 0)) / 1e9);
	return 0;
}

static int run_trace(const char *path, const int *cpus, int ncpus,
		     char **pols, int npols)
{
	struct sr_read_opts ro = { 0 };
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_reader *r;
	struct sr_event *ev = NULL, e;
	size_t n = 0, cap = 0;
	int rc, bad = 0;

	if (sr_reader_open(&r, path, &ro, &d)) {
		fprintf(stderr, "replay-bench: %s\n", d.msg);
		return 1;
	}
	while ((rc = sr_reader_next(r, &e, &d)) == 1) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			ev = realloc(ev, cap * sizeof(*ev));
			if (!ev) {
				fprintf(stderr, "replay-bench: out of memory\n");
				return 1;
			}
		}
		ev[n++] = e;
	}
	if (rc < 0) {
		fprintf(stderr, "replay-bench: %s\n", d.msg);
		return 1;
	}
	printf("   %s: %zu events, %.1f s recorded\n", path, n,
	       n ? (double)(ev[n - 1].ts - ev[0].ts) / 1e9 : 0.0);
	/* a first pass, not printed, so no figure pays for cold caches */
	if (npols > 0 && sm_policy_find(pols[0]))
		run_policy(sm_policy_find(pols[0]), cpus[0], ev, n,
			   sr_reader_tasks(r), false);
	for (int c = 0; c < ncpus; c++) {
		for (int i = 0; i < npols; i++) {
			const struct sm_policy *p = sm_policy_find(pols[i]);

			if (!p) {
				fprintf(stderr, "replay-bench: no policy %s\n",
					pols[i]);
				bad = 1;
				continue;
			}
			bad |= run_policy(p, cpus[c], ev, n,
					  sr_reader_tasks(r), true);
		}
	}
	free(ev);
	sr_reader_close(r);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "gen"))
		return gen(atoll(argv[2]), argv[3]);
	if (argc >= 4 && !strcmp(argv[1], "run")) {
		int cpus[16] = { 1 }, ncpus = 1, a = 3;

		if (argc >= 6 && !strcmp(argv[3], "--cpus")) {
			char *p = argv[4], *end;

			for (ncpus = 0; ncpus < 16 && *p; p = end) {
				long c = strtol(p, &end, 10);

				if (end == p || c < 1 || c > SR_SIM_MAX_CPUS ||
				    (*end && *end != ','))
					goto usage;
				cpus[ncpus++] = (int)c;
				if (*end)
					end++;
			}
			a = 5;
		}
		return run_trace(argv[2], cpus, ncpus, argv + a, argc - a);
	}
usage:
	fprintf(stderr, "usage: replay-bench gen SECONDS OUT | "
		"run TRACE [--cpus N,N...] POLICY...\n");
	return 64;
}
