/*
 * event: the one normalised scheduler event every reader produces and
 * everything downstream (stats, demand extraction, convert) consumes.
 *
 * Readers deliver events one at a time, merged across CPUs in timestamp
 * order (ties keep input order).  Tasks are referred to by task id
 * (sr_tid), an index into the reader's task table (parse/tasks.h), never
 * by pid: a pid can name several tasks over a trace.
 */
#ifndef SR_EVENT_H
#define SR_EVENT_H

#include <stdint.h>

typedef uint32_t sr_tid;
#define SR_TID_NONE UINT32_MAX

enum sr_ev_kind {
	SR_EV_SWITCH,     /* task (prev) leaves cpu, other (next) runs */
	SR_EV_WAKING,     /* sched_waking: wake-up started for task */
	SR_EV_WAKEUP,     /* sched_wakeup: task made runnable */
	SR_EV_WAKEUP_NEW, /* sched_wakeup_new: forked task made runnable */
	SR_EV_FORK,       /* task (parent) forked other (child) */
	SR_EV_EXEC,       /* task exec'd; other = task record after exec */
	SR_EV_EXIT,       /* task exited (becomes a zombie) */
	SR_EV_FREE,       /* task reaped (sched_process_free) */
	SR_EV_MIGRATE,    /* task moved from orig_cpu to target_cpu */
	SR_EV_RUNTIME,    /* sched_stat_runtime: value = ns charged to task */
	SR_EV_NICE,       /* nice change: value = new nice */
	SR_EV_SETSCHED,   /* policy change: value = policy, prio = rt prio */
	SR_EV_LOST,       /* value events lost on cpu (cpu -1: unknown) */
	SR_EV__COUNT
};

/* prev_state of a switch, as the kernel's TASK_* letters. */
enum sr_task_state {
	SR_STATE_RUNNING = 'R',   /* preempted: still runnable */
	SR_STATE_SLEEPING = 'S',  /* interruptible sleep */
	SR_STATE_DISK = 'D',      /* uninterruptible sleep */
	SR_STATE_STOPPED = 'T',
	SR_STATE_TRACED = 't',
	SR_STATE_DEAD = 'X',
	SR_STATE_ZOMBIE = 'Z',
	SR_STATE_PARKED = 'P',
	SR_STATE_IDLE = 'I',      /* TASK_IDLE kernel thread sleep */
	SR_STATE_UNKNOWN = '?',
};

/* Who caused a wakeup. */
enum sr_wake_src {
	SR_WS_TASK,    /* waker = the task in whose context it happened */
	SR_WS_HARDIRQ, /* hard interrupt context (flags column) */
	SR_WS_SOFTIRQ, /* softirq context (flags column) */
	SR_WS_IDLE,    /* from the idle task: an interrupt taken in idle */
	SR_WS_UNKNOWN, /* the trace does not say */
};

enum sr_sched_policy_id {
	SR_SCHED_NORMAL = 0,
	SR_SCHED_FIFO = 1,
	SR_SCHED_RR = 2,
	SR_SCHED_BATCH = 3,
	SR_SCHED_IDLE = 5,
};

struct sr_event {
	int64_t ts;        /* nanoseconds, trace clock */
	uint64_t line;     /* input line number (1-based), 0 if none */
	int32_t cpu;       /* cpu the event was recorded on, -1 unknown */
	uint8_t kind;      /* enum sr_ev_kind */
	uint8_t prev_state;/* SWITCH: enum sr_task_state of task */
	uint8_t wsrc;      /* WAKING/WAKEUP/WAKEUP_NEW: enum sr_wake_src */
	uint8_t sync;      /* wake: 1 if known to be a sync wakeup */
	uint8_t wguess;    /* wake with wsrc == SR_WS_TASK: the waker is the
			    * task in whose context the wake was recorded, and
			    * the trace cannot say it caused it (perf script
			    * text, ftrace without the flags column) */
	uint8_t preempt;   /* SWITCH: 1 if the trace marks prev as preempted
			    * ("R+": prev_state had TASK_REPORT_MAX set), 0 for
			    * a plain "R" or any other state.  perf 6.1's
			    * `sched latency` treats only plain "R" as runnable,
			    * so stats needs the difference (docs/metrics.md). */
	sr_tid task;       /* see enum sr_ev_kind */
	sr_tid other;      /* SWITCH: next; FORK: child; EXEC: new record */
	sr_tid waker;      /* wake with wsrc == SR_WS_TASK; else NONE */
	int16_t prio;      /* kernel prio of task as traced, -1 unknown */
	int16_t other_prio;/* SWITCH: next's prio, -1 unknown */
	int32_t target_cpu;/* wake: target cpu; MIGRATE: dest cpu; else -1 */
	int32_t orig_cpu;  /* MIGRATE: source cpu; else -1 */
	int64_t value;     /* RUNTIME ns; LOST count; NICE; SETSCHED policy */
};

const char *sr_ev_kind_name(enum sr_ev_kind k);
const char *sr_wake_src_name(enum sr_wake_src s);

#endif
