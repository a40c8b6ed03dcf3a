/*
 * patterns: the one table of every pcre2 pattern the readers use, compiled
 * with JIT.  A new input layout is one row here plus a test.
 *
 * Capture groups are named; the names come from one list (enum sr_grp),
 * so code reads a field as sr_grp(&m, G_PID, ...) whatever the pattern.
 *
 * Private to parse/.
 */
#ifndef SR_PATTERNS_H
#define SR_PATTERNS_H

#include <stddef.h>
#include <stdint.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "lib/diag.h"

enum sr_pat {
	/* line headers: who, which cpu, when, which event */
	P_FTRACE_HDR,     /* comm-pid [(tgid)] [cpu] [flags] ts: event: */
	P_TCLAT_HDR,      /* trace-cmd report -l: comm-pid cpu+flags ts: event: */
	P_PERF_HDR,       /* perf script: comm tid [cpu] ts: sys:event: */
	P_PERF_RECORD,    /* perf script: comm tid [cpu] ts: PERF_RECORD_... */
	/* event fields, after the header */
	P_F_SWITCH,       /* prev_comm= ... [==>] next_comm= ... */
	P_F_SWITCH_PLUGIN,/* comm:pid [prio] S ==> comm:pid [prio] */
	P_F_SWITCH_OLD,   /* task comm:pid [prio] (S) ==> comm:pid [prio] */
	P_F_WAKE,         /* comm= pid= prio= [success=] [target_cpu=] */
	P_F_WAKE_PLUGIN,  /* comm:pid [prio] [success=N] [CPU:NNN] */
	P_F_WAKE_OLD,     /* task comm:pid [prio] success=N */
	P_F_FORK,
	P_F_EXEC,
	P_F_TASKPRIO,     /* exit, free */
	P_F_MIGRATE,
	P_F_RUNTIME,
	/* markers and metadata lines */
	P_LOST_FTRACE,    /* CPU:N [LOST M EVENTS] (tracefs) */
	P_LOST_TC,        /* CPU:N [M EVENTS DROPPED] (trace-cmd report) */
	P_LOST_PLAIN,     /* CPU N LOST M EVENTS */
	P_LOST_BARE,      /* [LOST M EVENTS] */
	P_META_TC,        /* trace-cmd report preamble lines */
	P_META_NCPUS,     /* "#P:8" in an ftrace header comment */
	/* native format */
	P_N_MAGIC,
	P_N_LINE,
	P_N_TIME,
	/* systrace HTML wrapper */
	P_S_LEGACY,       /* var linuxPerfData = "\ */
	P_S_MODERN,       /* <script class="trace-data" ...> */
	P_S_END,          /* </script> */
	P_S_HTML,         /* looks like an HTML document */
	P__COUNT
};

enum sr_grp {
	G_COMM, G_PID, G_TID, G_TGID, G_CPU, G_FLAGS, G_TS, G_SYS, G_EV,
	G_PCOMM, G_PPID, G_PPRIO, G_STATE, G_NCOMM, G_NPID, G_NPRIO,
	G_PRIO, G_SUCC, G_TCPU, G_CCOMM, G_CPID, G_FILE, G_OPID,
	G_OCPU, G_DCPU, G_RT, G_COUNT, G_NCPUS, G_VER,
	G_NUM, G_FRAC, G_UNIT,
	G__COUNT
};

struct sr_patterns {
	pcre2_code *code[P__COUNT];
	pcre2_match_data *md[P__COUNT];
	int8_t grp[P__COUNT][G__COUNT]; /* group number, -1 if absent */
	int jit;                        /* JIT available and used */
	/* the first match pcre2 could not decide since sr_match_clear (a
	 * match or depth limit, the JIT stack): its error code, 0 if none,
	 * and the pattern.  A reader asks after each line (sr_match_error):
	 * such a line is an error, never a line that did not match. */
	int err;
	enum sr_pat err_id;
	/* the hand matchers' groups (handmatch.c), by enum sr_grp + 1 */
	PCRE2_SIZE hov[P__COUNT][2 * (G__COUNT + 1)];
};

struct sr_match {
	const char *s;
	const PCRE2_SIZE *ov;
	const int8_t *grp;
};

int sr_patterns_init(struct sr_patterns *p, struct sr_diag *d);
void sr_patterns_free(struct sr_patterns *p);

/* Match pattern id against s[0..len) starting at start. 1 match, 0 not
 * (or pcre2 could not decide: p->err says so).  The usual lines are
 * matched by hand (handmatch.c), with the groups pcre2 would give; the
 * others by pcre2. */
int sr_match(struct sr_patterns *p, enum sr_pat id, const char *s,
	     size_t len, size_t start, struct sr_match *m);
static inline void sr_match_clear(struct sr_patterns *p)
{
	p->err = 0;
}
/* After sr_match_clear, was a match undecided?  Then why says which
 * pattern and pcre2's error ("the sched_switch fields pattern could not
 * decide on this line: match limit exceeded (error -47; an error, not a
 * mismatch)"), and 1 is returned. */
int sr_match_error(const struct sr_patterns *p, char *why, size_t n);
/* sr_match by pcre2 alone (what the hand matchers are checked against). */
int sr_match_re(struct sr_patterns *p, enum sr_pat id, const char *s,
		size_t len, size_t start, struct sr_match *m);

/*
 * handmatch.c: pattern id matched by hand, exactly as pcre2 would, into
 * ov (2 * (G__COUNT + 1) entries: the whole match, then group g's offsets
 * at 2 * (g + 1); the pattern's groups set or PCRE2_UNSET, the others
 * left alone): 1; or 0, declined: no hand matcher for id, or a line it
 * does not read (pcre2 decides then, match or not).
 */
int sr_hand_match(enum sr_pat id, const char *s, size_t len, size_t start,
		  PCRE2_SIZE *ov);
int sr_hand_has(enum sr_pat id);
/* Group g is one that pattern id's hand matcher sets. */
int sr_hand_groups(enum sr_pat id, enum sr_grp g);
/* The group map of a hand match: group g is ov[2 * (g + 1)]. */
extern const int8_t sr_hand_grp[G__COUNT];

/* Group g of a match: 1 and (*p, *n) if it took part, else 0. */
static inline int sr_grp(const struct sr_match *m, enum sr_grp g,
			 const char **p, size_t *n)
{
	int k = m->grp[g];

	if (k < 0 || m->ov[2 * k] == PCRE2_UNSET) {
		*p = m->s;
		*n = 0;
		return 0;
	}
	*p = m->s + m->ov[2 * k];
	*n = m->ov[2 * k + 1] - m->ov[2 * k];
	return 1;
}

/* Offset just past the whole match. */
static inline size_t sr_match_end(const struct sr_match *m)
{
	return m->ov[1];
}

#endif
