/*
 * diag: error values passed up to one reporter, and the exit codes.
 *
 * Functions that can fail take a `struct sr_diag *` last, fill it with
 * sr_fail() and return its code.  Only the command layer (schedreplay.c and
 * the cmd_* functions) prints it, with sr_report().  Warnings that do not
 * stop the run go straight to stderr through sr_warn().
 */
#ifndef SR_DIAG_H
#define SR_DIAG_H

#include <stdarg.h>

/* Exit statuses: the sysexits.h values. */
enum sr_status {
	SR_OK = 0,
	SR_EUSAGE = 64,     /* bad command line */
	SR_EDATA = 65,      /* bad input data */
	SR_ENOINPUT = 66,   /* input file missing or unreadable */
	SR_ENOGNUPLOT = 69, /* gnuplot unavailable or failed */
	SR_EINTERNAL = 70,  /* a bug: an invariant broke, and only that */
	SR_ENOMEM = 71,     /* out of memory (EX_OSERR): never 70 */
	SR_EIO = 74,        /* read or write error */
};

/* room for a message naming a few paths of PATH_MAX (4096) each: none
 * is cut */
#define SR_DIAG_MSG_MAX 16384

struct sr_diag {
	int code;                  /* one of enum sr_status, SR_OK if none */
	char msg[SR_DIAG_MSG_MAX]; /* "FILE:LINE: expected ..., got ..." */
};

#define SR_DIAG_INIT { SR_OK, "" }

/* Record an error in d (if d is non-NULL and holds none yet); returns code. */
int sr_fail(struct sr_diag *d, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sr_vfail(struct sr_diag *d, int code, const char *fmt, va_list ap);

/* Record "out of memory" (SR_ENOMEM) in d; returns SR_ENOMEM.  Every
 * allocation that fails says so through here or with SR_ENOMEM and its
 * own words; SR_EINTERNAL is for broken invariants only. */
int sr_oom(struct sr_diag *d);

/* A call that failed with errno e, said "WHAT: strerror(e)" with code;
 * when e is ENOMEM, "WHAT: out of memory" with SR_ENOMEM.  Returns the
 * code recorded. */
int sr_fail_errno(struct sr_diag *d, int code, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Print "schedreplay: MSG" on stderr; returns d->code. */
int sr_report(const struct sr_diag *d);

/* Print "schedreplay: warning: MSG" on stderr.  (A message's control
 * bytes, in sr_fail's and here, are written \xNN: it goes to a terminal.) */
void sr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Quote at most max bytes of s for an error message: non-printable bytes
 * become \xNN, and a cut is marked with "...".  Returns out.
 */
char *sr_quote(char *out, size_t outsz, const char *s, size_t len);

#endif
