/*
 * raw: one trace record as a line parser decodes it, before task
 * resolution.  Tasks are still named by pid and comm here; the reader
 * turns a merged stream of these into struct sr_event with task ids.
 *
 * Private to parse/.
 */
#ifndef SR_RAW_H
#define SR_RAW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "parse/event.h"
#include "parse/tasks.h"

/* Interrupt context of the line (flags column), for wake sources. */
enum sr_irq_ctx {
	SR_CTX_TASK = 0,    /* process context, or the trace cannot say */
	SR_CTX_HARDIRQ,     /* 'h', 'H' (hardirq, hardirq in softirq) */
	SR_CTX_SOFTIRQ,     /* 's' */
	SR_CTX_NMI,         /* 'z', 'Z' */
};

/* Native-format explicit wake source ("by="), overriding pairing. */
enum sr_raw_by {
	SR_BY_NONE = 0,     /* not given: derive from context/pairing */
	SR_BY_PID,          /* by=PID: the task with pid by_pid */
	SR_BY_HARDIRQ,
	SR_BY_SOFTIRQ,
	SR_BY_IDLE,
	SR_BY_UNKNOWN,
};

/* Directives carried by raw records that are not events. */
enum sr_raw_dir {
	SR_DIR_EVENT = 0,   /* an ordinary event, kind says which */
	SR_DIR_TASK,        /* native "task": a new task record for pid */
	SR_DIR_INFO,        /* native "info": update comm/tgid of pid */
	SR_DIR_TALLY,       /* kind SR_EV_LOST: the recording's own count of
			     * events lost on cpu over the whole run (perf
			     * record's closing LOST_SAMPLES, native "lost
			     * tally"), not a point in time: reader.c keeps
			     * the larger of it and the cpu's markers */
};

struct sr_raw {
	int64_t ts;
	uint64_t line;
	uint64_t seq;          /* input order, for stable merging */
	int32_t cpu;
	uint8_t kind;          /* enum sr_ev_kind */
	uint8_t dir;           /* enum sr_raw_dir */
	uint8_t state;         /* SWITCH prev_state (enum sr_task_state) */
	uint8_t irq;           /* enum sr_irq_ctx of the line */
	uint8_t by;            /* enum sr_raw_by */
	uint8_t sync;
	uint8_t guessed;       /* native wake: by=PID given with the guessed flag */
	uint8_t kthread;       /* native task/info: kthread flag given */
	uint8_t preempt;       /* SWITCH: prev was preempted ("R+") */
	int32_t by_pid;
	/* the task whose context the line was recorded in (the header) */
	int32_t ctx_pid;       /* -1 if none */
	int32_t ctx_tgid;      /* -1 unknown */
	/* the subject: prev (switch), target (wake), parent (fork), ... */
	int32_t pid;
	int32_t tgid;          /* -1 unknown; native fork: the child's */
	/* the second task: next (switch), child (fork), old_pid (exec) */
	int32_t pid2;
	int16_t prio, prio2;
	int32_t target_cpu, orig_cpu;
	int64_t value;
	/* native task/info lines */
	int32_t nice;
	int16_t rtprio;
	int8_t policy;         /* -1 not given */
	uint8_t running;
	char ctx_comm[SR_COMM_MAX];  /* "" unknown */
	char comm[SR_COMM_MAX];      /* subject's comm, "" unknown */
	char comm2[SR_COMM_MAX];     /* second task's comm, "" unknown */
};

/*
 * A record with nothing known: every number -1 (unknown), names "".  The
 * fields before the names are copied from one constant record (inline
 * moves; a memset of them compiled to `rep stos`, slow to start, and this
 * runs for every record read).
 */
extern const struct sr_raw sr_raw_blank;

static inline void sr_raw_init(struct sr_raw *r)
{
	memcpy(r, &sr_raw_blank, offsetof(struct sr_raw, ctx_comm));
	r->ctx_comm[0] = r->comm[0] = r->comm2[0] = '\0';
}

#endif
