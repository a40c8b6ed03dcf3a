/*
 * sim-int: what the parts of the simulator share (replay/sim.c the event
 * loop, replay/sim-heap.c the run-end heap, replay/sim-timer.c the timers
 * and kicks, replay/sim-why.c the attribution of waits, replay/sim-check.c
 * the invariant checks): the simulator's state and the calls between the
 * parts.  Nothing outside replay/sim*.c includes it (replay/sim.h is the
 * interface).
 */
#ifndef SR_SIM_INT_H
#define SR_SIM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/prng.h"
#include "replay/sim.h"
#include "sched-model/balance.h"
#include "sched-model/smp.h"

enum tstate {
	T_NONE,     /* not born yet */
	T_READY,    /* runnable: queued, maybe current */
	T_BLOCKED,  /* asleep in block .block */
	T_ZOMBIE,   /* exited, not switched out yet */
	T_DONE,     /* demand consumed (reaped, or asleep for good) */
};

/* Phases of one instant, in the order docs/models.md "Conventions" fixes. */
enum phase {
	PH_NONE,    /* between instants */
	PH_OPS1,    /* ops due now of the current tasks (bursts ending now) */
	PH_TICK,    /* every CPU's scheduler_tick and rebalance_tick */
	PH_WAKES,   /* external wakes and arrivals due now, in trace order */
	PH_SCHED,   /* schedule() where need_resched, then the ops due now */
};

struct stask {
	struct sm_task *pt;
	uint64_t op;        /* next op of its program */
	int64_t off;        /* CPU consumed in the RUN at .op (or open burst) */
	uint8_t state;      /* enum tstate */
	uint8_t blk;        /* T_BLOCKED: enum sr_block_end of that block */
	uint32_t block;     /* number of the block it sleeps in */
	uint32_t next_block;/* blocks passed so far */
	uint32_t comm;      /* name pool index */
	int32_t pid;
	int32_t cpu;        /* its runqueue (task_cpu), -1 before the first */
	int32_t pin;        /* the CPU its name or affinity pins it to,
			       -1: any */
	int8_t pin_aff;     /* pin is its affinity (inherited at fork) */
	int8_t pin_ctx;     /* pin (or none) is what the context read */
	int last_prio;
	int8_t rec_policy;  /* the trace's scheduling class (SM_SCHED_*) */
	int8_t rec_rtprio;  /* and rt priority, as last recorded */
	int8_t rt_forced;   /* --rt made it SCHED_RR at this prio (0: no) */
	int64_t blocked_at; /* sim time it went to sleep */
	int64_t rec_block;  /* recorded start of that sleep */
	struct pend *pend;  /* causal wakes that came before their block */
	uint32_t npend, cappend;
	int16_t early_waker;/* T_BLOCKED in BLK_EARLY: its waker's CPU */
	uint8_t early_sync; /* ... and whether the wake was sync */
	/* the attribution of its current wait */
	bool in_wait;       /* waiting runnable since wait_from */
	bool wseg;          /* .seg is open */
	int32_t wcpu;       /* in that CPU's list of waiting tasks, -1 */
	uint32_t wprev, wnext;
	int64_t wait_from;
	struct sr_wait_seg seg;
	struct sr_wait_seg *segs;
	uint32_t nsegs, capsegs;
};

/* A causal wake kept until its target reaches the block it answers. */
struct pend {
	uint32_t block;
	int16_t waker;      /* the CPU its waker ran on */
	uint8_t sync;
};

/* stask.blk beyond enum sr_block_end: asleep in a block whose wake came
   first (--early-wake requeue): woken at the instant it went to sleep */
#define BLK_EARLY 0x80

struct timer {
	int64_t t;
	uint64_t seq;       /* trace order of the wake */
	uint32_t id;
};

struct scpu {
	struct sm_rq *rq;
	uint32_t cur;       /* running task, SR_TID_NONE = idle */
	int64_t charged_to; /* its current's CPU counted up to here */
	int64_t busy_until; /* end of a context switch */
	int64_t busy_ns;
	uint64_t switches;
	int64_t progress_at;/* last time its current's demand advanced, or
			       it was idle (check()) */
	uint32_t hpos;      /* place in the run-end heap + 1; 0: not in it */
	bool soft;          /* key: the end of the CPU known so far */
	int64_t key;        /* when its current reaches its next op */
	uint32_t whead;     /* tasks waiting on it (a list), SR_TID_NONE */
	uint32_t nwait;
	int64_t kick_at;    /* a wake asked it to reschedule: it does at
			       this instant (the wake's cost), 0: none */
};

struct sr_sim {
	struct sr_sim_opts o;
	const struct sm_policy *pol;
	struct sr_demand *dm;
	int cid;
	struct sr_sim_hooks h;
	struct sr_acct *acct;
	/* tasks by id (docs/replay.md, "Memory"): each in a slot of its own
	 * (the slots come in chunks that never move); a reaped task's slot
	 * is freed at the next instant and taken by a new task, its summary
	 * (sum, by id) stays */
	size_t nt;
	uint32_t *tslot;           /* by id: its slot, SLOT_GONE once freed */
	struct sr_sim_task *sum;   /* by id */
	size_t capid;
	struct stask **tch;        /* the slots, TCH a chunk */
	size_t ntch, captch;
	uint32_t *tfree;           /* free slots */
	size_t ntfree, captfree;
	uint32_t *reaped;          /* tasks reaped this instant */
	size_t nreaped, capreaped;
	struct scpu *cpu;
	int ncpu, nbusy;
	const struct sm_balancer_ops *bops; /* the policy's (smp.h) */
	void *bal;                 /* its balancer; NULL on one CPU */
	unsigned long cache_decay_ticks;
	uint32_t *rh;              /* run-end heap: CPU numbers */
	size_t nrh;
	uint32_t *rhstack;         /* due_cpus()'s walk */
	uint64_t *resched, *pending, *touched; /* CPU bitmaps */
	uint64_t *wdirty;          /* CPUs whose waiters to attribute anew */
	uint64_t *widle;           /* the idle CPUs they were attributed with */
	size_t nw;
	uint64_t bits1[5];         /* the five, up to 64 CPUs */
	bool why_on;               /* attribute waits */
	uint64_t nwaiting;         /* tasks waiting, on every CPU */
	bool started, finished;
	int phase;
	bool tick_instant;          /* this instant took the jiffy's tick */
	int64_t start, now, end_mark;
	int64_t last_tick;          /* instant of the last tick done */
	int64_t jbase;              /* jiffies = t / J - jbase */
	int64_t tick_ns;            /* J: a jiffy at the policy's HZ */
	int tick_hz;                /* that HZ */
	enum sr_hz_source hz_from;  /* where it came from */
	unsigned long jiffies;      /* what every rq->jiffies holds */
	uint64_t acts;              /* what happened, at instant start */
	uint64_t pops;              /* timers and arrivals taken */
	int mig_why;                /* cause of the migration being made */
	struct timer *heap;
	size_t nheap, capheap;
	uint64_t arr;               /* next arrival to take */
	uint32_t *hlist;            /* relative mode: asleep, end not known */
	size_t nh, caph;
	int64_t hz;                 /* horizon: no instant at or after it */
	uint64_t nready, live;
	uint32_t nkick;             /* CPUs with a kick to come */
	struct sr_prng wake_rng;    /* draws each kick's cost from the
				       recorded spread (one fixed stream:
				       the same replay every run) */
	uint32_t *seen;             /* check: walk stamps per task */
	size_t nseen;
	uint32_t stamp;
	int err;
	char errmsg[320];
	struct sr_sim_stats st;
};

#define TCH_BITS 8
#define TCH (1u << TCH_BITS)
#define SLOT_GONE UINT32_MAX

/* Task id's state; not for a task whose slot is gone (gone()). */
static inline struct stask *tk(const struct sr_sim *s, uint32_t id)
{
	uint32_t k = s->tslot[id];

	return &s->tch[k >> TCH_BITS][k & (TCH - 1)];
}

/* Was task id reaped at an earlier instant (its slot given back)? */
static inline bool gone(const struct sr_sim *s, uint32_t id)
{
	return s->tslot[id] == SLOT_GONE;
}

static inline const char *comm_of(const struct sr_sim *s, const struct stask *t)
{
	return sr_demand_comm(s->dm, t->comm);
}

/* ---- CPU bitmaps --------------------------------------------------------- */

static inline void bit_set(uint64_t *m, int c)
{
	m[c / 64] |= (uint64_t)1 << (c % 64);
}

static inline void bit_clear(uint64_t *m, int c)
{
	m[c / 64] &= ~((uint64_t)1 << (c % 64));
}

static inline int bit_first(const uint64_t *m, size_t nw)
{
	if (nw == 1) /* up to 64 CPUs */
		return m[0] ? __builtin_ctzll(m[0]) : -1;
	for (size_t w = 0; w < nw; w++)
		if (m[w])
			return (int)(w * 64) + __builtin_ctzll(m[w]);
	return -1;
}

/* May task t run on CPU c (its pin)? */
static inline bool allowed(const struct sr_sim *s, const struct stask *t, int c)
{
	return t->pin < 0 || t->pin == c;
}

/* A timer whose id has this bit is CPU (id without it)'s kick. */
#define KICK_TIMER 0x80000000u
/* A task keeps room for this many segments between its waits. */
#define SEGS_KEPT 16

/* sim.c */
/* The first failure stops the replay: kept, with the task and the time. */
void sim_fail(struct sr_sim *s, int code, const char *msg, uint32_t id);

/* sim-heap.c: the run-end heap */
/* Recompute CPU c's place (after something happened on it). */
void sim_rh_update(struct sr_sim *s, uint32_t c);
/* Mark pending and touched the CPUs whose current reaches an op at t. */
void sim_due_cpus(struct sr_sim *s, int64_t t);

/* sim-timer.c: external wakes and kicks */
int sim_timer_push(struct sr_sim *s, int64_t t, uint64_t seq, uint32_t id);
void sim_timer_pop(struct sr_sim *s);
void sim_kick_later(struct sr_sim *s, int c, bool idle, bool remote);
void sim_kick_done(struct sr_sim *s, int c);
int64_t sim_horizon(struct sr_sim *s);

/* sim-why.c: the attribution of waits */
void sim_wlist_add(struct sr_sim *s, uint32_t id, int c);
void sim_wlist_del(struct sr_sim *s, uint32_t id);
void sim_wait_open(struct sr_sim *s, uint32_t id);
void sim_wait_close(struct sr_sim *s, uint32_t id);
void sim_attribute(struct sr_sim *s);

/* sim-check.c: the invariants */
void sim_check(struct sr_sim *s);
void sim_check_idle_pull(struct sr_sim *s, int c);
int sim_the_end(struct sr_sim *s);

#endif
