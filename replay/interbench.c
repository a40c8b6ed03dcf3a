/*
 * interbench: interbench 0.31's processes and threads as synthetic
 * programs (replay/synth.h), and the figures its benchmarked thread keeps
 * (replay/interbench.h).  Each thread is a state machine stepped when it
 * runs; the times it reads are the simulator's, so what it does next
 * follows from how the policy ran it.  docs/interbench.md gives the
 * programs in words, and where they come from in interbench's source.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/qsort.h"
#include "lib/grow.h"
#include "lib/prng.h"
#include "replay/interbench.h"
#include "replay/sim.h"
#include "replay/synth.h"
#include "replay/writers.h"

/* ---- constants (docs/interbench.md, "What is modelled") ------------------ */

/* interbench's own, in its microseconds */
#define AUDIO_INTERVAL_US 50000
#define AUDIO_RUN_US (AUDIO_INTERVAL_US / 20)
#define VIDEO_INTERVAL_US (1000000 / 60)
#define VIDEO_RUN_US (VIDEO_INTERVAL_US * 40 / 100)
#define GAME_RUN_US 100000
#define BURN_THREADS 4          /* -L: ud.cpu_load */
#define US 1000LL

/* The parent process asleep before the pair starts, so that its threads
   are born warm, as those of interbench's sleeping parent are: longer
   than every O(1) policy's MAX_SLEEP_AVG (10 s in 2.6.0-test2). */
#define IB_WARM_NS (10 * SR_IB_S)
/* interbench's sleep(1) between starting the load and the benchmark */
#define IB_LEAD_NS SR_IB_S
/* the timekeeper's work once its timer fired: read the clock, post */
#define IB_TK_NS (2 * US)
/* a process's main thread reading main's go from its pipe and starting
   its thread */
#define IB_GO_NS (2 * US)
/* a burner's loop between two looks at its stop semaphore (1 ms in
   interbench; it only sets how soon a burner sees the stop) */
#define IB_BURN_CHUNK_NS (10 * SR_IB_MS)

/*
 * The disk of Write and Read: one queue, each request served in turn in
 * CHUNK / RATE, +-25 % (seeded).  2005's desktop disk streamed about
 * 40 MB/s; a request is a readahead window (VM_MAX_READAHEAD, 128 KiB) or
 * the writeback a throttled writer waits for (ratelimit's 32 pages of
 * 4 KiB).
 */
#define IB_DISK_CHUNK 131072LL
#define IB_DISK_RATE 40000000LL
#define IB_DISK_NS (IB_DISK_CHUNK * SR_IB_S / IB_DISK_RATE)
/* CPU per chunk: copying 128 KiB at 1 GB/s (131 us) and 32 read() calls
   (Read); copying and dirtying 32 new page-cache pages (Write) */
#define IB_READ_CPU_NS (160 * US)
#define IB_WRITE_CPU_NS (250 * US)
/* Write's first pass fills the dirty limit before any throttling: 40 %
   of 512 MB at 1 GB/s, in the second before the benchmark starts */
#define IB_WRITE_FILL_NS (200 * SR_IB_MS)

/* contest's compile: make -j4 of CC_UNITS files, each read (one disk
   request), compiled (CPU, seeded) and its object left to writeback */
#define CC_JOBS 4
#define CC_UNITS 60
#define CC_MIN_NS (100 * SR_IB_MS)
#define CC_MAX_NS (300 * SR_IB_MS)

/*
 * Hack: hackbench 50 (interbench's hackbench.c), rounds of 50 groups of
 * 20 receivers and 20 senders (processes), each sender writing LOOPS
 * 100-byte messages to each receiver of its group through the receiver's
 * one socket.  A socket's send buffer (SK_WMEM_MAX, 65535 bytes) holds
 * about 170 such messages (an skb of about 384 bytes each); a sender
 * blocks while its socket is full and is woken when a read has made room
 * for it.  Modelled in batches: a sender writes
 * HACK_BATCH loops (a message to each receiver per loop) in one burst to
 * every socket with room for them, the others when room is made; a
 * receiver is woken when two such bursts are queued (or its writers are
 * done) and reads what is queued in one.  A write costs about 1 us and a
 * read 0.75 us (2 M messages, hackbench 50 in about 3.5 s on one 2005 CPU).
 */
#define HACK_GROUPS 50
#define HACK_FDS 20
#define HACK_LOOPS 100
#define HACK_KIDS (HACK_GROUPS * 2 * HACK_FDS)
#define HACK_BATCH 50
#define HACK_READ_MIN (2 * HACK_BATCH)
#define HACK_SOCK_MSGS 170
#define HACK_WRITE_NS 1000
#define HACK_READ_NS 750
#define HACK_FORK_NS (50 * US)

/* ---- names ------------------------------------------------------------------ */

static const struct {
	const char *name, *label;
} task_names[SR_IB_TASK__COUNT] = {
	[SR_IB_AUDIO] = { "audio", "Audio" },
	[SR_IB_VIDEO] = { "video", "Video" },
	[SR_IB_X] = { "x", "X" },
	[SR_IB_GAMING] = { "gaming", "Gaming" },
	[SR_IB_CUSTOM] = { "custom", "Custom" },
	[SR_IB_COMPILE_JOB] = { "make", "Compile" },
};

static const struct {
	const char *name, *label, *refused;
} load_names[SR_IB_LOAD__COUNT] = {
	[SR_IB_NONE] = { "none", "None", NULL },
	[SR_IB_LVIDEO] = { "video", "Video", NULL },
	[SR_IB_LX] = { "x", "X", NULL },
	[SR_IB_BURN] = { "burn", "Burn", NULL },
	[SR_IB_WRITE] = { "write", "Write", NULL },
	[SR_IB_READ] = { "read", "Read", NULL },
	[SR_IB_COMPILE] = { "compile", "Compile", NULL },
	[SR_IB_HACK] = { "hack", "Hack", NULL },
	[SR_IB_MEMLOAD] = { "memload", "Memload",
		"Memload is not modelled: it pages 110% of RAM through swap, "
		"and what that costs the benchmarked task is page faults and "
		"swap I/O, which a CPU scheduler simulation has not got "
		"(docs/interbench.md)" },
	[SR_IB_LCUSTOM] = { "custom", "Custom", NULL },
};

const char *sr_ib_task_name(int t)
{
	return t >= 0 && t < SR_IB_TASK__COUNT ? task_names[t].name : NULL;
}

const char *sr_ib_task_label(int t)
{
	return t >= 0 && t < SR_IB_TASK__COUNT ? task_names[t].label : NULL;
}

const char *sr_ib_load_name(int l)
{
	return l >= 0 && l < SR_IB_LOAD__COUNT ? load_names[l].name : NULL;
}

const char *sr_ib_load_label(int l)
{
	return l >= 0 && l < SR_IB_LOAD__COUNT ? load_names[l].label : NULL;
}

const char *sr_ib_load_refused(int l)
{
	return l >= 0 && l < SR_IB_LOAD__COUNT ? load_names[l].refused : NULL;
}

/* ---- the run's threads ----------------------------------------------------- */

/* What an emulation thread runs (interbench's threadlist functions). */
enum func {
	F_NONE, F_PERIODIC, F_X, F_GAME, F_BURN, F_WRITE, F_READ, F_COMPILE,
	F_HACK, F_MAKE,
};

/* Which process a thread is in. */
enum side { S_MAIN, S_LOAD, S_BENCH };

struct ib_run;

/* What a thread is. */
enum role { RO_MAIN, RO_PROC, RO_EMUL, RO_TK, RO_BURNER, RO_CC, RO_HACK };

struct hround;

struct th {
	struct ib_run *run;
	uint32_t id;
	enum role role;
	int state;
	enum side side;
	/* process main thread: its emulation thread; emulation thread: its
	   timekeeper; timekeeper: its emulation thread */
	struct th *peer;
	/* emulation thread: what it runs, its semaphores (interbench's
	   th->sem), whether its stop was posted (trywait_sem's answer) */
	enum func func;
	bool bench;                /* the benchmarked thread: figures */
	struct sr_synth_sem start, stop, complete;
	bool stopped;
	/* periodic_schedule */
	int64_t run_ns, interval_ns, deadline, cur_time, latency, missed_lat;
	int xi;                    /* X: i of its 0..100 loop */
	/* children it started and waits for (burners, sub-loads, cc) */
	struct th *kid[3];
	int nkids, forked, waited;
	struct sr_synth_sem kids_done;
	bool kids_stop;
	/* timekeeper */
	struct sr_synth_sem tk_start, tk_complete;
	int64_t sleep_interval, slept, start_time;
	bool tk_stop;
	/* I/O */
	int64_t io_done;
	/* cc: its compile */
	int64_t cc_ns;
	/* hackbench: its round */
	struct hround *round;
};

/* A group's sockets: messages queued, being written, being read. */
struct hgroup {
	int q[HACK_FDS], wr[HACK_FDS], rd[HACK_FDS];
	int writers;               /* its senders still writing */
	struct sr_synth_sem data[HACK_FDS], space[HACK_FDS];
};

/* A hackbench child (sender or receiver process). */
struct hkid {
	struct hround *round;
	uint32_t id;
	bool sender;
	int state;
	int group, fd;             /* receiver: its socket */
	int done;                  /* loops written, messages read */
	int batch;                 /* the batch being written or read */
	uint32_t wrote, writing;   /* sender: sockets (bits) the batch is
				      on, and being written to */
};

/* One round of hackbench 50. */
struct hround {
	struct ib_run *run;
	struct hgroup g[HACK_GROUPS];
	struct hkid kid[HACK_KIDS];
	struct sr_synth_sem ready, go, exited;
	bool going;
	int forked, readied, reaped;
};

struct ib_run {
	const struct sr_ib_spec *sp;
	struct sr_ib_result *r;
	struct sr_synth *sy;
	struct th **th;            /* by task id */
	size_t nth, capth;
	int64_t t_load, t_bench, t_stop;
	struct sr_synth_sem go_load, go_bench, stop_load, stop_bench;
	struct sr_synth_sem main_done;
	int nproc;                 /* processes main waits for */
	bool contest;
	struct sr_synth_sem contest_done;
	int64_t compile_start, compile_end;
	int64_t load_cpu0, load_cpu1;    /* the load's CPU at both */
	/* the waits, for latency.tsv */
	struct ib_wait *waits;
	size_t nwaits, capwaits;
	/* the disk */
	int64_t disk_free;
	struct sr_prng disk_rng, cc_rng;
	int cc_next;               /* units handed out */
	int err;
};

static int th_step(struct sr_synth *sy, uint32_t id, void *prog);

/* ---- the waits, as replay's latency.tsv ------------------------------------- */

struct ib_wait {
	int64_t from, to;
	uint64_t seq;              /* order of its end */
	uint32_t task;
	int32_t pid;
	uint8_t cause;
};

static int on_wait(void *ctx, uint32_t task, int64_t from, int64_t to,
		   enum sr_acct_cause cause)
{
	struct ib_run *run = ctx;
	struct ib_wait *w = sr_grow(run->waits, &run->capwaits, run->nwaits,
				    sizeof(*w), 1024, 0);

	if (!w)
		return SR_EINTERNAL;
	run->waits = w;
	w[run->nwaits] = (struct ib_wait){
		.from = from, .to = to, .seq = run->nwaits, .task = task,
		.pid = sr_synth_pid(run->sy, task), .cause = (uint8_t)cause,
	};
	run->nwaits++;
	return SR_OK;
}

/* latency.tsv's order: wake, run, pid, then the order the waits ended */
static int cmp_wait(const void *pa, const void *pb)
{
	const struct ib_wait *a = pa, *b = pb;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void write_waits(struct ib_run *run, FILE *f)
{
	sr_qsort(run->waits, run->nwaits, sizeof(*run->waits), cmp_wait);
	sr_latency_header(f);
	for (size_t i = 0; i < run->nwaits; i++) {
		const struct ib_wait *w = &run->waits[i];
		struct sr_lat_row r = {
			.wake = w->from, .run = w->to, .pid = w->pid,
			.comm = sr_synth_comm(run->sy, w->task),
			.cause = (enum sr_acct_cause)w->cause,
		};

		sr_latency_row(f, &r);
	}
}

static struct th *th_new(struct ib_run *run, enum role role, enum side side)
{
	struct th *t = calloc(1, sizeof(*t));

	if (!t) {
		run->err = SR_EINTERNAL;
		return NULL;
	}
	t->run = run;
	t->role = role;
	t->side = side;
	return t;
}

static int th_keep(struct ib_run *run, struct th *t)
{
	if (t->id >= run->capth) {
		size_t cap = run->capth ? run->capth : 16;
		struct th **v;

		while (cap <= t->id)
			cap *= 2;
		v = realloc(run->th, cap * sizeof(*v));
		if (!v)
			return SR_EINTERNAL;
		memset(v + run->capth, 0, (cap - run->capth) * sizeof(*v));
		run->th = v;
		run->capth = cap;
	}
	run->th[t->id] = t;
	if (t->id >= run->nth)
		run->nth = t->id + 1;
	return SR_OK;
}

/* Fork a thread named comm running prog t, from task parent. */
static struct th *fork_th(struct sr_synth *sy, uint32_t parent, struct th *t,
			  const char *comm)
{
	struct sr_synth_task st = { .comm = comm, .step = th_step,
				    .prog = t };

	if (!t)
		return NULL;
	/* a thread joins its parent's process; a process is its own */
	if (t->role != RO_PROC && t->role != RO_CC)
		st.tgid = sr_synth_tgid(sy, parent);
	sr_synth_fork(sy, parent, &st, &t->id);
	if (t->id == SR_TID_NONE || th_keep(t->run, t)) {
		free(t);
		return NULL;
	}
	return t;
}

/* ---- waits: the first op of a step ------------------------------------------ */

enum { W_PASS, W_BLOCK, W_YIELD };

static int wait_on(struct sr_synth *sy, uint32_t id, struct sr_synth_sem *s)
{
	if (!s->count && !sr_synth_fresh(sy))
		return W_YIELD;
	return sr_synth_wait(sy, id, s) ? W_BLOCK : W_PASS;
}

/* Take posts of s until *got reaches n (a post a child makes as it is
   ready or done): W_PASS once they are all taken; else the task stops
   here and comes back to it. */
static int wait_n(struct sr_synth *sy, uint32_t id, struct sr_synth_sem *s,
		  int *got, int n)
{
	while (*got < n) {
		int w = wait_on(sy, id, s);

		if (w == W_YIELD)
			return w;
		(*got)++;
		if (w == W_BLOCK)
			return w;
	}
	return W_PASS;
}

/* In a step: go on at state next, in a new step if this one has ops
   (what comes next starts with a wait). */
#define YIELD_TO(next) do { \
	t->state = (next); \
	if (!sr_synth_fresh(sy)) \
		return 0; \
} while (0)

/* In a step: wait on sem, going on at state next once it is taken. */
#define WAIT(sem, next) do { \
	int w_ = wait_on(sy, id, (sem)); \
	if (w_ == W_YIELD) \
		return 0; \
	t->state = (next); \
	if (w_ == W_BLOCK) \
		return 0; \
} while (0)

/* ---- the disk ------------------------------------------------------------------ */

/* A request submitted now: when it completes. */
static int64_t disk_submit(struct ib_run *run, int64_t now)
{
	int64_t begin = run->disk_free > now ? run->disk_free : now;
	int64_t ns = sr_prng_range(&run->disk_rng, IB_DISK_NS * 3 / 4,
				   IB_DISK_NS * 5 / 4);

	run->disk_free = begin + ns;
	return run->disk_free;
}

/* ---- interbench's figures ------------------------------------------------------ */

static void sample(struct th *t, int64_t latency)
{
	struct sr_ib_result *r = t->run->r;

	if (!t->bench)
		return;
	r->samples++;
	r->sum_latency += (double)latency;
	r->sum_latency2 += (double)latency * (double)latency;
	if (latency > r->max_latency)
		r->max_latency = latency;
}

/*
 * periodic_schedule(): the states of one call.  At its entry (P_ENTRY)
 * the thread has just been woken for the deadline it was given; it burns
 * run_ns unless it is already past the next deadline; it asks its
 * timekeeper to wake it at the next deadline (P_POST, P_WAIT), and counts
 * the latency (P_DONE).
 */
enum {
	P_ENTRY = 100, P_AFTER_BURN, P_POST, P_WAIT, P_DONE,
};

/* 1: the call is over (P_DONE passed), 0: stepping on. */
static int periodic(struct sr_synth *sy, uint32_t id, struct th *t)
{
	struct sr_ib_result *r = t->run->r;
	int64_t now = sr_synth_now(sy), n;

	switch (t->state) {
	case P_ENTRY:
		t->latency = 0;
		if (now > t->deadline + t->peer->slept)
			t->latency = now - t->deadline - t->peer->slept;
		t->missed_lat = 0;
		t->cur_time = now;
		if (t->interval_ns && now > t->deadline + t->interval_ns) {
			/* missed the deadline before consuming CPU */
			t->deadline += t->interval_ns;
			n = (now - t->deadline) / t->interval_ns + 1;
			if (t->bench) {
				r->deadlines_missed += (uint64_t)n;
				r->missed_burns += (double)n;
			}
			t->missed_lat = n * t->interval_ns;
			t->deadline += n * t->interval_ns;
			t->state = P_POST;
			return periodic(sy, id, t);
		}
		t->state = P_AFTER_BURN;
		if (t->run_ns > 0) {
			sr_synth_burn(sy, id, t->run_ns);
			return 0;
		}
		/* fall through */
	case P_AFTER_BURN:
		t->cur_time = now;
		if (t->bench)
			r->achieved_burns += 1;
		t->deadline += t->interval_ns;
		if (t->deadline >= now) {
			if (t->bench)
				r->deadlines_met++;
		} else if (t->interval_ns) {
			n = (now - t->deadline) / t->interval_ns + 1;
			if (t->bench) {
				r->deadlines_missed += (uint64_t)n;
				if (n > 1)
					r->missed_burns += (double)n;
			}
			t->missed_lat = n * t->interval_ns;
			t->deadline += n * t->interval_ns;
		} else {
			/* no interval: no sleep, and no deadline counted */
			t->deadline = now;
			t->state = P_DONE;
			return periodic(sy, id, t);
		}
		t->state = P_POST;
		/* fall through */
	case P_POST:
		t->peer->sleep_interval = t->deadline - t->cur_time;
		sr_synth_post(sy, id, &t->peer->tk_start);
		YIELD_TO(P_WAIT);
		/* fall through */
	case P_WAIT:
		WAIT(&t->peer->tk_complete, P_DONE);
		/* fall through */
	case P_DONE:
		sample(t, t->latency + t->missed_lat);
		return 1;
	default:
		t->run->err = SR_EINTERNAL;
		return 0;
	}
}

/* ---- the emulation functions -------------------------------------------------- */

enum {
	/* emulation thread */
	E_FORK_TK, E_START, E_BEGIN, E_RUN, E_END,
	/* function states from 10 */
	F_S0 = 10, F_S1, F_S2, F_S3, F_S4, F_S5, F_S6,
};

static struct th *emul_new(struct ib_run *run, enum side side, enum func f,
			   bool bench);

/* Start of the function: its first state. */
static void func_begin(struct sr_synth *sy, struct th *t)
{
	int64_t now = sr_synth_now(sy);

	switch (t->func) {
	case F_PERIODIC:
		t->deadline = now;
		t->state = P_ENTRY;
		break;
	case F_X:
		t->deadline = now;
		t->xi = 0;
		t->run_ns = 0;
		t->interval_ns = 100 * SR_IB_MS;
		t->state = P_ENTRY;
		break;
	default:
		t->state = F_S0;
		break;
	}
}

static int burner_step(struct sr_synth *sy, uint32_t id, struct th *t)
{
	struct th *e = t->peer;

	if (e->kids_stop) {
		sr_synth_post(sy, id, &e->kids_done);
		sr_synth_exit(sy, id);
		return 1;
	}
	sr_synth_burn(sy, id, IB_BURN_CHUNK_NS);
	return 0;
}

static int cc_step(struct sr_synth *sy, uint32_t id, struct th *t)
{
	int64_t now = sr_synth_now(sy);

	switch (t->state) {
	case F_S0:
		/* read the source */
		t->state = F_S1;
		if (sr_synth_sleep_until(sy, id, disk_submit(t->run, now)))
			return 0;
		/* fall through */
	case F_S1:
		t->state = F_S2;
		sr_synth_burn(sy, id, t->cc_ns);
		return 0;
	case F_S2:
		/* the object goes to the page cache: written back later */
		sr_synth_post(sy, id, &t->peer->kids_done);
		sr_synth_exit(sy, id);
		return 1;
	default:
		t->run->err = SR_EINTERNAL;
		return 0;
	}
}

static int hkid_step(struct sr_synth *sy, uint32_t id, void *prog);

/* The next child of round h, forked by task parent. */
static void hack_fork(struct sr_synth *sy, uint32_t parent, struct hround *h)
{
	int i = h->forked++, in = i % (2 * HACK_FDS);
	struct hkid *k = &h->kid[i];
	struct sr_synth_task st = { .comm = in < HACK_FDS ? "hack-recv"
							   : "hack-send",
				    .step = hkid_step, .prog = k };

	k->round = h;
	k->group = i / (2 * HACK_FDS);
	k->sender = in >= HACK_FDS;
	k->fd = in % HACK_FDS;
	sr_synth_fork(sy, parent, &st, &k->id);
}

static void hround_free(struct hround *h)
{
	if (!h)
		return;
	for (int g = 0; g < HACK_GROUPS; g++)
		for (int j = 0; j < HACK_FDS; j++) {
			sr_synth_sem_free(&h->g[g].data[j]);
			sr_synth_sem_free(&h->g[g].space[j]);
		}
	sr_synth_sem_free(&h->ready);
	sr_synth_sem_free(&h->go);
	sr_synth_sem_free(&h->exited);
	free(h);
}

enum { K_READY, K_GO, K_LOOP, K_DONE };

static int hkid_step(struct sr_synth *sy, uint32_t id, void *prog)
{
	struct hkid *k = prog;
	struct hround *h = k->round;
	struct hgroup *g = &h->g[k->group];

	switch (k->state) {
	case K_READY:
		/* write(ready_out), then poll(wakefd) */
		sr_synth_post(sy, id, &h->ready);
		k->state = K_GO;
		if (!sr_synth_fresh(sy))
			return 0;
		/* fall through */
	case K_GO:
		k->state = K_LOOP;
		if (!h->going && sr_synth_wait(sy, id, &h->go))
			return 0;
		/* fall through */
	case K_LOOP:
		if (k->sender) {
			int n = HACK_LOOPS - k->done;

			if (n > HACK_BATCH)
				n = HACK_BATCH;
			if (!n) {
				/* the last writer done: the receivers read
				   what is left */
				if (!--g->writers)
					for (int j = 0; j < HACK_FDS; j++)
						sr_synth_post_all(sy, id,
								  &g->data[j]);
				sr_synth_post(sy, id, &h->exited);
				sr_synth_exit(sy, id);
				return h->run->err;
			}
			/* the batch to every socket with room for it not
			   written yet; none has room: sleep on the first */
			int m = 0, full = -1;

			for (int j = 0; j < HACK_FDS; j++) {
				if (k->wrote >> j & 1)
					continue;
				if (g->q[j] + g->wr[j] + g->rd[j] + n >
				    HACK_SOCK_MSGS) {
					if (full < 0)
						full = j;
					continue;
				}
				g->wr[j] += n;
				k->writing |= 1u << j;
				m++;
			}
			if (!m) {
				if (sr_synth_fresh(sy))
					sr_synth_wait(sy, id, &g->space[full]);
				return h->run->err;
			}
			k->batch = n;
			k->state = K_DONE;
			sr_synth_burn(sy, id, (int64_t)n * m * HACK_WRITE_NS);
			return h->run->err;
		} else {
			int n = g->q[k->fd];

			if (k->done == HACK_LOOPS * HACK_FDS) {
				sr_synth_post(sy, id, &h->exited);
				sr_synth_exit(sy, id);
				return h->run->err;
			}
			if (!n || (n < HACK_READ_MIN && g->writers)) {
				if (sr_synth_fresh(sy))
					sr_synth_wait(sy, id, &g->data[k->fd]);
				return h->run->err;
			}
			g->q[k->fd] = 0;
			g->rd[k->fd] += n;
			k->batch = n;
			k->state = K_DONE;
			sr_synth_burn(sy, id, (int64_t)n * HACK_READ_NS);
			return h->run->err;
		}
	case K_DONE:
		if (k->sender) {
			/* the batch is queued: its receivers may read */
			for (int j = 0; j < HACK_FDS; j++) {
				if (!(k->writing >> j & 1))
					continue;
				g->wr[j] -= k->batch;
				g->q[j] += k->batch;
				if (g->q[j] >= HACK_READ_MIN)
					sr_synth_post_all(sy, id, &g->data[j]);
			}
			k->wrote |= k->writing;
			k->writing = 0;
			if (k->wrote == (1u << HACK_FDS) - 1) {
				k->wrote = 0;
				k->done += k->batch;
			}
		} else {
			int j = k->fd;

			/* read: its skbs freed; its writers woken, as many
			   as have room for a batch (the kernel wakes them
			   all; those without room would sleep again) */
			g->rd[j] -= k->batch;
			k->done += k->batch;
			for (int room = HACK_SOCK_MSGS - g->q[j] - g->wr[j] -
				       g->rd[j];
			     room >= HACK_BATCH &&
			     g->space[j].head < g->space[j].n;
			     room -= HACK_BATCH)
				sr_synth_post(sy, id, &g->space[j]);
		}
		k->state = K_LOOP;
		if (!sr_synth_fresh(sy))
			return h->run->err;
		return hkid_step(sy, id, prog);
	}
	h->run->err = SR_EINTERNAL;
	return h->run->err;
}

/* The hackbench thread (hackbench_thread): rounds until stopped. */
static int hack_step(struct sr_synth *sy, uint32_t id, struct th *t)
{
	struct hround *h = t->round;

	switch (t->state) {
	case F_S0:
		if (!h) {
			h = calloc(1, sizeof(*h));
			if (!h) {
				t->run->err = SR_EINTERNAL;
				return 0;
			}
			h->run = t->run;
			for (int g = 0; g < HACK_GROUPS; g++)
				h->g[g].writers = HACK_FDS;
			t->round = h;
		}
		if (h->forked < HACK_KIDS) {
			hack_fork(sy, id, h);
			sr_synth_burn(sy, id, HACK_FORK_NS);
			return 0;
		}
		t->state = F_S1;
		/* fall through */
	case F_S1:
		/* wait for everyone to be ready */
		if (wait_n(sy, id, &h->ready, &h->readied, HACK_KIDS) != W_PASS)
			return 0;
		/* kick them off: one byte to the pipe they all poll */
		h->going = true;
		sr_synth_post_all(sy, id, &h->go);
		YIELD_TO(F_S2);
		/* fall through */
	case F_S2:
		/* reap them all */
		if (wait_n(sy, id, &h->exited, &h->reaped, HACK_KIDS) != W_PASS)
			return 0;
		hround_free(h);
		t->round = NULL;
		t->state = F_S0;
		if (t->peer->stopped) {
			sr_synth_post(sy, id, &t->peer->kids_done);
			sr_synth_exit(sy, id);
			return 0;
		}
		return hack_step(sy, id, t);
	}
	t->run->err = SR_EINTERNAL;
	return 0;
}

/* The CPU the load's tasks have had so far (hackbench's children are
   not in run->th: they are the load's too). */
static int64_t load_cpu(struct ib_run *run)
{
	struct sr_sim *sim = sr_synth_sim(run->sy);
	size_t n = sr_synth_ntasks(run->sy);
	int64_t sum = 0;

	for (size_t i = 0; i < n; i++) {
		const struct th *t = i < run->nth ? run->th[i] : NULL;
		bool load = t ? t->side == S_LOAD : run->sp->load == SR_IB_HACK;

		if (load)
			sum += sr_sim_cpu_ns(sim, (uint32_t)i);
	}
	return sum;
}

/* The function of emulation thread t: 1 when it has returned. */
static int func_step(struct sr_synth *sy, uint32_t id, struct th *t)
{
	struct ib_run *run = t->run;
	int64_t now = sr_synth_now(sy);
	int nb = run->sp->burn_threads > 0 ? run->sp->burn_threads
					   : BURN_THREADS;

	switch (t->func) {
	case F_PERIODIC:
		if (!periodic(sy, id, t))
			return 0;
		t->state = P_ENTRY;
		if (t->stopped)
			return 1;
		return func_step(sy, id, t);
	case F_X:
		if (!periodic(sy, id, t))
			return 0;
		/* deadline += i * 1000: the next call's deadline is i ms on */
		t->deadline += (int64_t)t->xi * SR_IB_MS;
		if (t->stopped)
			return 1;
		t->xi = t->xi == 100 ? 0 : t->xi + 1;
		t->run_ns = (int64_t)t->xi * SR_IB_MS;
		t->interval_ns = (int64_t)(100 - t->xi) * SR_IB_MS;
		t->state = P_ENTRY;
		return func_step(sy, id, t);
	case F_GAME:
		switch (t->state) {
		case F_S0:
			t->deadline = now + GAME_RUN_US * US;
			t->state = F_S1;
			sr_synth_burn(sy, id, GAME_RUN_US * US);
			return 0;
		case F_S1: {
			int64_t lat = now > t->deadline ? now - t->deadline : 0;

			if (t->bench) {
				run->r->achieved_burns += GAME_RUN_US;
				run->r->missed_burns += (double)lat / US;
			}
			sample(t, lat);
			t->state = F_S0;
			if (t->stopped)
				return 1;
			return func_step(sy, id, t);
		}
		}
		break;
	case F_NONE:
		if (t->state == F_S0)
			WAIT(&t->stop, F_S1);
		return 1;
	case F_BURN:
		switch (t->state) {
		case F_S0:
			if (t->forked < nb) {
				struct th *b = th_new(run, RO_BURNER, t->side);

				if (!b)
					return 0;
				b->peer = t;
				t->forked++;
				fork_th(sy, id, b, "burn");
				return 0;
			}
			t->state = F_S1;
			/* fall through */
		case F_S1:
			WAIT(&t->stop, F_S2);
			/* fall through */
		case F_S2:
			t->kids_stop = true;
			t->state = F_S3;
			/* fall through */
		case F_S3:
			return wait_n(sy, id, &t->kids_done, &t->waited, nb) ==
			       W_PASS;
		}
		break;
	case F_WRITE:
		switch (t->state) {
		case F_S0:
			/* the first pass fills the dirty limit unthrottled */
			t->state = F_S1;
			sr_synth_burn(sy, id, IB_WRITE_FILL_NS);
			return 0;
		case F_S1:
			if (t->stopped)
				return 1;
			t->state = F_S2;
			sr_synth_burn(sy, id, IB_WRITE_CPU_NS);
			return 0;
		case F_S2:
			/* balance_dirty_pages: wait for its writeback */
			t->state = F_S1;
			if (sr_synth_sleep_until(sy, id, disk_submit(run, now)))
				return 0;
			return func_step(sy, id, t);
		}
		break;
	case F_READ:
		switch (t->state) {
		case F_S0:
			t->io_done = disk_submit(run, now);
			t->state = F_S1;
			/* fall through */
		case F_S1:
			if (t->stopped)
				return 1;
			t->state = F_S2;
			if (sr_synth_sleep_until(sy, id, t->io_done))
				return 0;
			/* fall through */
		case F_S2:
			/* the next window is read ahead while this one is
			   copied */
			t->io_done = disk_submit(run, now);
			t->state = F_S1;
			sr_synth_burn(sy, id, IB_READ_CPU_NS);
			return 0;
		}
		break;
	case F_COMPILE:
		switch (t->state) {
		case F_S0:
			/* initialise_thread() of Burn, Write and Read */
			if (t->nkids < 3) {
				static const enum func sub[3] = { F_BURN,
					F_WRITE, F_READ };
				static const char *const name[3] = {
					"load-burn", "load-write",
					"load-read" };
				struct th *k = emul_new(run, t->side,
							sub[t->nkids], false);

				if (!k)
					return 0;
				t->kid[t->nkids++] = k;
				fork_th(sy, id, k, name[t->nkids - 1]);
				return 0;
			}
			/* start_thread() each */
			for (int i = 0; i < 3; i++)
				sr_synth_post(sy, id, &t->kid[i]->start);
			YIELD_TO(F_S1);
			/* fall through */
		case F_S1:
			WAIT(&t->stop, F_S2);
			/* fall through */
		case F_S2:
			/* stop_thread() each: stop, then wait for it */
			while (t->waited < 3) {
				struct th *k = t->kid[t->waited];

				if (!k->stopped) {
					k->stopped = true;
					sr_synth_post(sy, id, &k->stop);
					YIELD_TO(F_S2);
				}
				if (wait_n(sy, id, &k->complete, &t->waited,
					   t->waited + 1) != W_PASS)
					return 0;
			}
			return 1;
		}
		break;
	case F_MAKE:
		switch (t->state) {
		case F_S0:
			run->compile_start = now;
			run->load_cpu0 = load_cpu(run);
			t->state = F_S1;
			/* fall through */
		case F_S1:
			if (t->nkids < CC_JOBS && run->cc_next < CC_UNITS) {
				struct th *c = th_new(run, RO_CC, t->side);

				if (!c)
					return 0;
				c->peer = t;
				c->state = F_S0;
				c->cc_ns = sr_prng_range(&run->cc_rng,
							 CC_MIN_NS, CC_MAX_NS);
				run->cc_next++;
				t->nkids++;
				fork_th(sy, id, c, "cc1");
				return 0;
			}
			if (t->nkids == 0) {
				run->compile_end = now;
				run->load_cpu1 = load_cpu(run);
				return 1;
			}
			t->state = F_S2;
			/* fall through */
		case F_S2:
			/* wait(): a child is done */
			WAIT(&t->kids_done, F_S3);
			/* fall through */
		case F_S3:
			t->nkids--;
			t->state = F_S1;
			return func_step(sy, id, t);
		}
		break;
	case F_HACK:
		/* emulate_hackbench: its thread, stopped when told */
		switch (t->state) {
		case F_S0: {
			struct th *h = th_new(run, RO_HACK, t->side);

			if (!h)
				return 0;
			h->peer = t;
			h->state = F_S0;
			t->state = F_S1;
			fork_th(sy, id, h, "hackbench");
			return 0;
		}
		case F_S1:
			WAIT(&t->stop, F_S2);
			/* fall through */
		case F_S2:
			WAIT(&t->kids_done, F_S3);
			/* fall through */
		case F_S3:
			return 1;
		}
		break;
	}
	run->err = SR_EINTERNAL;
	return 0;
}

/* ---- threads ------------------------------------------------------------------ */

/* The states of timekeepers, process main threads and main. */
enum {
	T_FIFO = 200, T_WAIT, T_GO, T_AWAKE, T_POST,
	PR_NICE = 300, PR_FORK, PR_GO, PR_START, PR_STARTED, PR_STOPSIG,
	PR_STOP,
	PR_WAITE, PR_END,
	M_WARM = 400, M_FORK_LOAD, M_FORK_BENCH, M_GO, M_BENCH, M_RUN,
	M_STOP, M_WAIT,
};

static struct th *emul_new(struct ib_run *run, enum side side, enum func f,
			   bool bench)
{
	struct th *e = th_new(run, RO_EMUL, side);

	if (!e)
		return NULL;
	e->func = f;
	e->bench = bench;
	e->state = E_FORK_TK;
	return e;
}

static int tk_step(struct sr_synth *sy, uint32_t id, struct th *t)
{
	int64_t now = sr_synth_now(sy);

	switch (t->state) {
	case T_FIFO:
		/* the benchmarked thread's timekeeper runs SCHED_FIFO 96 */
		if (t->peer->bench)
			sr_synth_fifo(sy, id, 96);
		YIELD_TO(T_WAIT);
		/* fall through */
	case T_WAIT:
		WAIT(&t->tk_start, T_GO);
		/* fall through */
	case T_GO:
		if (t->tk_stop) {
			sr_synth_exit(sy, id);
			return 0;
		}
		t->slept = 0;
		t->start_time = now;
		t->state = T_AWAKE;
		if (t->sleep_interval > 0 &&
		    sr_synth_sleep_until(sy, id, now + t->sleep_interval))
			return 0;
		/* fall through */
	case T_AWAKE:
		if (t->sleep_interval > 0 &&
		    now - t->start_time > t->sleep_interval)
			t->slept = now - t->start_time - t->sleep_interval;
		t->sleep_interval = 0;
		t->state = T_POST;
		sr_synth_burn(sy, id, IB_TK_NS);
		return 0;
	case T_POST:
		sr_synth_post(sy, id, &t->tk_complete);
		YIELD_TO(T_WAIT);
		return tk_step(sy, id, t);
	}
	t->run->err = SR_EINTERNAL;
	return 0;
}

static int emul_step(struct sr_synth *sy, uint32_t id, struct th *t)
{
	struct ib_run *run = t->run;

	switch (t->state) {
	case E_FORK_TK: {
		struct th *k = th_new(run, RO_TK, t->side);

		if (!k)
			return 0;
		k->peer = t;
		k->state = T_FIFO;
		t->peer = k;
		t->state = E_START;
		fork_th(sy, id, k, t->bench ? "tk-bench" : "tk-load");
		return 0;
	}
	case E_START:
		WAIT(&t->start, E_BEGIN);
		/* fall through */
	case E_BEGIN:
		func_begin(sy, t);
		/* fall through */
	default:
		if (t->state >= E_RUN && t->state != E_END &&
		    !func_step(sy, id, t))
			return 0;
		/* the function returned: stop the timekeeper, complete */
		t->state = E_END;
		t->peer->tk_stop = true;
		sr_synth_post(sy, id, &t->peer->tk_start);
		sr_synth_post(sy, id, &t->complete);
		sr_synth_exit(sy, id);
		return 0;
	}
}

static const char *emul_name(const struct ib_run *run, enum side side)
{
	static const char *const load_comm[SR_IB_LOAD__COUNT] = {
		[SR_IB_NONE] = "load-none", [SR_IB_LVIDEO] = "load-video",
		[SR_IB_LX] = "load-x", [SR_IB_BURN] = "load-burn",
		[SR_IB_WRITE] = "load-write", [SR_IB_READ] = "load-read",
		[SR_IB_COMPILE] = "load-compile", [SR_IB_HACK] = "load-hack",
		[SR_IB_MEMLOAD] = "load-memload",
		[SR_IB_LCUSTOM] = "load-custom",
	};

	if (side == S_BENCH)
		return sr_ib_task_name(run->sp->task);
	return load_comm[run->sp->load];
}

/* The emulation thread of a process: what interbench's threadlist entry
   of the task (bench) or load runs. */
static struct th *emul_of(struct ib_run *run, enum side side)
{
	const struct sr_ib_spec *sp = run->sp;
	bool bench = side == S_BENCH;
	const struct sr_ib_custom *c = bench ? &sp->task_custom
					      : &sp->load_custom;
	enum func f = F_NONE;
	int64_t run_us = 0, interval_us = 0;
	struct th *e;

	if (bench) {
		switch (sp->task) {
		case SR_IB_AUDIO:
			f = F_PERIODIC;
			run_us = AUDIO_RUN_US;
			interval_us = AUDIO_INTERVAL_US;
			break;
		case SR_IB_VIDEO:
			f = F_PERIODIC;
			run_us = VIDEO_RUN_US;
			interval_us = VIDEO_INTERVAL_US;
			break;
		case SR_IB_X:
			f = F_X;
			break;
		case SR_IB_GAMING:
			f = F_GAME;
			break;
		case SR_IB_CUSTOM:
			f = F_PERIODIC;
			break;
		case SR_IB_COMPILE_JOB:
			f = F_MAKE;
			break;
		}
	} else {
		switch (sp->load) {
		case SR_IB_LVIDEO:
			f = F_PERIODIC;
			run_us = VIDEO_RUN_US;
			interval_us = VIDEO_INTERVAL_US;
			break;
		case SR_IB_LX:
			f = F_X;
			break;
		case SR_IB_BURN:
			f = F_BURN;
			break;
		case SR_IB_WRITE:
			f = F_WRITE;
			break;
		case SR_IB_READ:
			f = F_READ;
			break;
		case SR_IB_COMPILE:
			f = F_COMPILE;
			break;
		case SR_IB_HACK:
			f = F_HACK;
			break;
		case SR_IB_LCUSTOM:
			f = F_PERIODIC;
			break;
		default:
			f = F_NONE;
			break;
		}
	}
	e = emul_new(run, side, f, bench && f != F_MAKE);
	if (!e)
		return NULL;
	if ((bench && sp->task == SR_IB_CUSTOM) ||
	    (!bench && sp->load == SR_IB_LCUSTOM)) {
		/* ud.custom_run = interval * cpu / 100, in microseconds */
		interval_us = c->interval_ns / US;
		run_us = interval_us * c->pct / 100;
	}
	e->run_ns = run_us * US;
	e->interval_ns = interval_us * US;
	return e;
}

/* A process's main thread (run_benchchild, run_loadchild). */
static int proc_step(struct sr_synth *sy, uint32_t id, struct th *t)
{
	struct ib_run *run = t->run;
	bool bench = t->side == S_BENCH;

	switch (t->state) {
	case PR_NICE: {
		int n = bench ? run->sp->nice_task : run->sp->nice_load;

		if (n)
			sr_synth_nice(sy, id, n);
		t->state = PR_FORK;
	}
		/* fall through */
	case PR_FORK:
		/* initialise_thread(): the emulation thread */
		t->peer = emul_of(run, t->side);
		if (!t->peer)
			return 0;
		t->state = PR_GO;
		fork_th(sy, id, t->peer, emul_name(run, t->side));
		return 0;
	case PR_GO:
		/* main tells us to start */
		WAIT(bench ? &run->go_bench : &run->go_load, PR_START);
		/* fall through */
	case PR_START:
		t->state = PR_STARTED;
		sr_synth_burn(sy, id, IB_GO_NS);
		return 0;
	case PR_STARTED:
		sr_synth_post(sy, id, &t->peer->start);
		YIELD_TO(PR_STOPSIG);
		/* fall through */
	case PR_STOPSIG:
		/* contest: the compile ends when it is done, not told */
		if (!(bench && run->contest))
			WAIT(bench ? &run->stop_bench : &run->stop_load,
			     PR_STOP);
		t->state = PR_STOP;
		/* fall through */
	case PR_STOP:
		if (!(bench && run->contest)) {
			t->peer->stopped = true;
			sr_synth_post(sy, id, &t->peer->stop);
		}
		YIELD_TO(PR_WAITE);
		/* fall through */
	case PR_WAITE:
		WAIT(&t->peer->complete, PR_END);
		/* fall through */
	case PR_END:
		sr_synth_post(sy, id, bench && run->contest ?
			      &run->contest_done : &run->main_done);
		sr_synth_exit(sy, id);
		return 0;
	}
	run->err = SR_EINTERNAL;
	return 0;
}

static int main_step(struct sr_synth *sy, uint32_t id, struct th *t)
{
	struct ib_run *run = t->run;
	struct th *p;

	switch (t->state) {
	case M_WARM:
		t->state = M_FORK_LOAD;
		if (sr_synth_sleep_until(sy, id, run->t_load))
			return 0;
		/* fall through */
	case M_FORK_LOAD:
	case M_FORK_BENCH:
		p = th_new(run, RO_PROC,
			   t->state == M_FORK_LOAD ? S_LOAD : S_BENCH);
		if (!p)
			return 0;
		p->state = PR_NICE;
		t->state = t->state == M_FORK_LOAD ? M_FORK_BENCH : M_GO;
		fork_th(sy, id, p, p->side == S_LOAD ? "ib-load" : "ib-bench");
		return 0;
	case M_GO:
		/* as root: main runs SCHED_FIFO 99 from here; the load
		   starts, the benchmark a second later */
		sr_synth_fifo(sy, id, 99);
		sr_synth_post(sy, id, &run->go_load);
		t->state = M_BENCH;
		if (sr_synth_sleep_until(sy, id, run->t_bench))
			return 0;
		/* fall through */
	case M_BENCH:
		sr_synth_post(sy, id, &run->go_bench);
		YIELD_TO(M_RUN);
		/* fall through */
	case M_RUN:
		if (run->contest) {
			WAIT(&run->contest_done, M_STOP);
		} else {
			t->state = M_STOP;
			if (sr_synth_sleep_until(sy, id, run->t_stop))
				return 0;
		}
		/* fall through */
	case M_STOP:
		run->t_stop = sr_synth_now(sy);
		if (!run->contest)
			sr_synth_post(sy, id, &run->stop_bench);
		sr_synth_post(sy, id, &run->stop_load);
		YIELD_TO(M_WAIT);
		/* fall through */
	case M_WAIT:
		if (wait_n(sy, id, &run->main_done, &t->waited, run->nproc) !=
		    W_PASS)
			return 0;
		sr_synth_exit(sy, id);
		return 0;
	}
	run->err = SR_EINTERNAL;
	return 0;
}

static int th_step(struct sr_synth *sy, uint32_t id, void *prog)
{
	struct th *t = prog;

	switch (t->role) {
	case RO_MAIN:
		main_step(sy, id, t);
		break;
	case RO_PROC:
		proc_step(sy, id, t);
		break;
	case RO_EMUL:
		emul_step(sy, id, t);
		break;
	case RO_TK:
		tk_step(sy, id, t);
		break;
	case RO_BURNER:
		burner_step(sy, id, t);
		break;
	case RO_CC:
		cc_step(sy, id, t);
		break;
	case RO_HACK:
		hack_step(sy, id, t);
		break;
	}
	return t->run->err;
}

/* ---- one run ------------------------------------------------------------------- */

int sr_ib_run(const struct sr_ib_spec *sp, struct sr_ib_result *r,
	      struct sr_diag *d)
{
	struct ib_run run = { .sp = sp, .r = r };
	struct sr_synth_opts so = {
		.policy = sp->tuning->policy, .cpus = sp->cpus,
		.check = sp->check,
		.trace = sp->trace, .trace_comment = sp->trace_comment,
	};
	struct sm_tuning tuning;
	struct th *m;
	uint32_t mid;
	int rc;

	memset(r, 0, sizeof(*r));
	r->has_deadlines = sp->task != SR_IB_GAMING;
	if (sr_ib_load_refused(sp->load))
		return sr_fail(d, SR_EUSAGE, "%s", sr_ib_load_refused(sp->load));
	if (sp->duration_ns <= 0 || sp->cpus < 1)
		return sr_fail(d, SR_EUSAGE, "interbench: a run of no length");
	if (sr_ib_tuning(sp->tuning, &tuning, d))
		return d->code;
	so.sched = sm_sched_new(tuning.policy, &tuning);
	if (!so.sched)
		return sr_oom(d);
	if (sp->latency) {
		so.wait = on_wait;
		so.wait_ctx = &run;
	}
	run.contest = sp->task == SR_IB_COMPILE_JOB;
	run.nproc = run.contest ? 1 : 2;
	run.t_load = IB_WARM_NS;
	run.t_bench = IB_WARM_NS + IB_LEAD_NS;
	run.t_stop = run.t_bench + sp->duration_ns;
	sr_prng_seed(&run.disk_rng, sr_prng_mix(sp->seed,
						sr_prng_name("disk")));
	sr_prng_seed(&run.cc_rng, sr_prng_mix(sp->seed, sr_prng_name("cc")));
	if (sr_synth_new(&run.sy, &so, d)) {
		sm_sched_free(so.sched);
		return d->code;
	}
	if (!(m = th_new(&run, RO_MAIN, S_MAIN))) {
		rc = sr_oom(d);
		goto out;
	}
	m->state = M_WARM;
	if ((rc = sr_synth_spawn(run.sy, &(struct sr_synth_task){
			.comm = "interbench", .step = th_step, .prog = m },
			0, &mid, d)))
		goto out;
	m->id = mid;
	if (th_keep(&run, m)) {
		free(m);
		rc = sr_oom(d);
		goto out;
	}
	rc = sr_synth_run(run.sy, d);
	if (!rc && run.err)
		rc = sr_fail(d, run.err, "interbench: a program went wrong");
	if (!rc && sp->latency)
		write_waits(&run, sp->latency);
	if (!rc) {
		struct sr_sim_stats st;
		struct sr_sim *sim = sr_synth_sim(run.sy);

		sr_sim_stats(sim, &st);
		r->end_ns = st.end;
		r->sim_events = st.events;
		r->tasks = sr_synth_ntasks(run.sy);
		if (run.contest) {
			r->compile_ns = run.compile_end - run.compile_start;
			for (size_t i = 0; i < run.nth; i++) {
				const struct sr_sim_task *k;
				int64_t cpu;

				if (!run.th[i])
					continue;
				k = sr_sim_task(sim, (uint32_t)i);
				cpu = k ? k->cpu_ns : 0;
				if (run.th[i]->side == S_BENCH)
					r->compile_cpu_ns += cpu;
			}
			r->load_cpu_ns = run.load_cpu1 - run.load_cpu0;
		}
	}
out:
	sr_synth_free(run.sy);
	sm_sched_free(so.sched);
	for (size_t i = 0; i < run.nth; i++) {
		struct th *t = run.th[i];

		if (!t)
			continue;
		sr_synth_sem_free(&t->start);
		sr_synth_sem_free(&t->stop);
		sr_synth_sem_free(&t->complete);
		sr_synth_sem_free(&t->kids_done);
		sr_synth_sem_free(&t->tk_start);
		sr_synth_sem_free(&t->tk_complete);
		hround_free(t->round);
		free(t);
	}
	free(run.th);
	sr_synth_sem_free(&run.go_load);
	sr_synth_sem_free(&run.go_bench);
	sr_synth_sem_free(&run.stop_load);
	sr_synth_sem_free(&run.stop_bench);
	sr_synth_sem_free(&run.main_done);
	sr_synth_sem_free(&run.contest_done);
	free(run.waits);
	return rc;
}

int sr_ib_tuning(const struct sm_tuning *in, struct sm_tuning *out,
		 struct sr_diag *d)
{
	*out = *in;
	if (sm_knob_find(in->policy, "HZ") >= 0 &&
	    !sm_tuning_is_set(in, "HZ") && !sm_tuning_get(in, "HZ", 0)) {
		char hz[16];

		snprintf(hz, sizeof(hz), "%d", SR_HZ_FALLBACK);
		if (sm_tuning_set(out, "HZ", hz, d) ||
		    sm_tuning_finish(out, d))
			return d->code;
	}
	return SR_OK;
}

/* ---- figures ---------------------------------------------------------------------- */

double sr_ib_latency_avg(const struct sr_ib_result *r)
{
	return r->samples ? r->sum_latency / (double)r->samples : 0;
}

double sr_ib_latency_sd(const struct sr_ib_result *r)
{
	double n = (double)r->samples, avg, var;

	if (r->samples < 2)
		return 0;
	avg = r->sum_latency / n;
	var = (r->sum_latency2 - n * avg * avg) / (n - 1);
	return var > 0 ? sqrt(var) : 0;
}

double sr_ib_desired_cpu(const struct sr_ib_result *r)
{
	if (r->achieved_burns <= 0)
		return 0;
	return r->achieved_burns / (r->achieved_burns + r->missed_burns) *
	       100;
}

double sr_ib_deadlines_met(const struct sr_ib_result *r)
{
	if (!r->deadlines_met)
		return 0;
	return (double)r->deadlines_met /
	       (double)(r->deadlines_met + r->deadlines_missed) * 100;
}
