/*
 * test-limits: each limit of docs/limits.md at its edge: the last value
 * accepted, the first refused with its FILE:LINE message and SR_EDATA.
 * Line length, cpu number, span and the sched_stat_runtime charges are
 * tested at their real values; the
 * task-record limit (ten million, too many to make here) through
 * sr_read_opts.max_tasks, the same check with a smaller bound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse/input.h"
#include "parse/format.h"
#include "parse/reader.h"
#include "tests/lib/test.h"

static char path[512];

static void put(const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* Read path to the end; status (0 ok) and message. */
static int read_all(const struct sr_read_opts *o, char *msg, uint64_t *events)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_reader *r;
	struct sr_event ev;
	int rc;

	*events = 0;
	msg[0] = '\0';
	if (sr_reader_open(&r, path, o, &d) != SR_OK) {
		strcpy(msg, d.msg);
		return d.code;
	}
	while ((rc = sr_reader_next(r, &ev, &d)) == 1)
		(*events)++;
	sr_reader_close(r);
	strcpy(msg, d.msg);
	return rc < 0 ? d.code : 0;
}

static void want(int code, const char *msg, uint64_t events,
		 int want_code, const char *want_msg, uint64_t want_events)
{
	char w[SR_DIAG_MSG_MAX + 64];

	CHECK_INT(code, want_code);
	if (want_msg) {
		snprintf(w, sizeof(w), want_msg, path);
		CHECK_STR(msg, w);
	}
	CHECK_INT(events, want_events);
}

#define MAGIC "#schedreplay-native 1\n"

static void line_length(void)
{
	struct sr_read_opts o = { 0 };
	size_t pad = SR_LINE_MAX - strlen("1.0 0 lost #");
	char *text = malloc(SR_LINE_MAX + 64), msg[SR_DIAG_MSG_MAX];
	uint64_t n;
	int code;

	/* a comment that makes the line exactly SR_LINE_MAX bytes */
	sprintf(text, MAGIC "1.0 0 lost #%*s\n", (int)pad, "");
	CHECK_CTX("line of %d bytes", SR_LINE_MAX);
	put(text);
	code = read_all(&o, msg, &n);
	want(code, msg, n, 0, "", 1);
	sprintf(text, MAGIC "1.0 0 lost #%*s\n", (int)pad + 1, "");
	CHECK_CTX("line of %d bytes", SR_LINE_MAX + 1);
	put(text);
	code = read_all(&o, msg, &n);
	want(code, msg, n, SR_EDATA, "%s:2: expected a line of at most 65536 "
	     "bytes, got a longer one", 0);
	free(text);
}

static void cpus(void)
{
	struct sr_read_opts o = { 0 };
	char msg[SR_DIAG_MSG_MAX];
	uint64_t n;
	int code;

	CHECK_CTX("cpu %d", SR_CPU_MAX - 1);
	put(MAGIC "1.0 8191 lost\n");
	code = read_all(&o, msg, &n);
	want(code, msg, n, 0, "", 1);
	CHECK_CTX("cpu %d", SR_CPU_MAX);
	put(MAGIC "1.0 8192 lost\n");
	code = read_all(&o, msg, &n);
	want(code, msg, n, SR_EDATA, "%s:2: cpu number 8192 out of range "
	     "(0 to 8191 supported)", 0);
}

static void span(void)
{
	struct sr_read_opts o = { 0 };
	char msg[SR_DIAG_MSG_MAX];
	uint64_t n;
	int code;

	CHECK_INT(SR_SPAN_MAX, 86400LL * 1000000000LL);
	CHECK_CTX("span of exactly 24 hours");
	put(MAGIC "5.0 0 lost\n86405.0 1 lost\n");
	code = read_all(&o, msg, &n);
	want(code, msg, n, 0, "", 2);
	CHECK_CTX("span of 24 hours and 1 ns");
	put(MAGIC "5.0 0 lost\n86405.000000001 1 lost\n");
	code = read_all(&o, msg, &n);
	want(code, msg, n, SR_EDATA, "%s:3: expected a trace spanning at most "
	     "86400 s, got an event at 86405.000000001 s, 86400.000000001 s "
	     "after the first one (line 2): a corrupt timestamp?", 1);
	/* the first event sets the start, not the first line */
	CHECK_CTX("span measured from the earliest event");
	put(MAGIC "86405.0 0 lost\n5.0 1 lost\n");
	code = read_all(&o, msg, &n);
	want(code, msg, n, 0, "", 2);
}

static void charges(void)
{
	struct sr_read_opts o = { 0 };
	char msg[SR_DIAG_MSG_MAX];
	uint64_t n;
	int code;

	/* 10 s elapsed: the charges on cpu 0 may total 10 s + a day */
	CHECK_CTX("charges of the time elapsed plus a day");
	put(MAGIC "5.0 0 switch prev=0 state=R next=7\n"
	    "15.0 0 runtime pid=7 ns=86400000000000\n"
	    "15.0 0 runtime pid=7 ns=10000000000\n"
	    "15.0 1 runtime pid=8 ns=86410000000000\n");
	code = read_all(&o, msg, &n);
	want(code, msg, n, 0, "", 4);
	CHECK_CTX("1 ns more");
	put(MAGIC "5.0 0 switch prev=0 state=R next=7\n"
	    "15.0 0 runtime pid=7 ns=86400000000000\n"
	    "15.0 0 runtime pid=7 ns=10000000001\n");
	code = read_all(&o, msg, &n);
	want(code, msg, n, SR_EDATA, "%s:4: cpu 0: expected sched_stat_runtime "
	     "charges totalling at most the trace time so far plus a day "
	     "(86410.000000000 s), got 86410.000000001 s: implausible runtime "
	     "values (a cpu runs one task at a time)", 2);
	/* the largest value the native format takes (18 digits) */
	CHECK_CTX("ns=999999999999999999");
	put(MAGIC "5.0 0 runtime pid=7 ns=86400000000000\n"
	    "6.0 0 runtime pid=7 ns=999999999999999999\n");
	code = read_all(&o, msg, &n);
	CHECK_INT(code, SR_EDATA);
}

static void tasks(void)
{
	struct sr_read_opts o = { .max_tasks = 4 };
	char msg[SR_DIAG_MSG_MAX];
	uint64_t n;
	int code;

	CHECK_INT(SR_TASKS_LIMIT, 10000000);
	/* switch 10 -> 11 and 12 -> 13: four records */
	CHECK_CTX("4 task records, limit 4");
	put(MAGIC "1.0 0 switch prev=10 state=S next=11\n"
	    "2.0 0 switch prev=12 state=S next=13\n");
	code = read_all(&o, msg, &n);
	want(code, msg, n, 0, "", 2);
	CHECK_CTX("5 task records, limit 4");
	put(MAGIC "1.0 0 switch prev=10 state=S next=11\n"
	    "2.0 0 switch prev=12 state=S next=13\n"
	    "3.0 0 wake pid=14\n");
	code = read_all(&o, msg, &n);
	want(code, msg, n, SR_EDATA, "%s:4: expected at most 4 task records, "
	     "got more (pid reuse and exec make new ones): the trace is "
	     "beyond the supported size", 2);
	/* a bound above the limit is the limit */
	o.max_tasks = (size_t)SR_TASKS_LIMIT * 2;
	code = read_all(&o, msg, &n);
	want(code, msg, n, 0, "", 3);
}

int main(void)
{
	if (test_mktemp(path, sizeof(path), "limits", 0) < 0) {
		perror("mkstemp");
		return 1;
	}
	line_length();
	cpus();
	span();
	charges();
	tasks();
	unlink(path);
	return test_done("limits");
}
