/*
 * test-real: real recordings parse with the counts counted independently
 * of our readers (grep over the text), or are rejected with the reason
 * docs/trace-format.md lists; each that parses survives a native round
 * trip.  Two sets: our own recording in tests/parse/data/real/ (counts:
 * its README.md), always; and, when present, the recordings of other
 * projects in ../shared/traces-real (or $SR_REAL_TRACES; counts: its
 * SOURCES.md), an optional extra that a clone does not have.
 */
#include "tests/parse/parsetest.h"

enum where { REPO, SHARED };

static const struct {
	enum where where;
	const char *file;
	const char *format;
	int rc;                  /* strict mode */
	const char *msg;         /* part of the message when rc != 0 */
	int lenient_bad;         /* bad lines counted with --lenient */
	long sw, wk, wkn, waking;
	int ncpus;
} cases[] = {
	/* tests/parse/data/real/README.md: grep -c of each event name */
	{ REPO, "pipe.ftrace.txt.gz", "ftrace", 0, NULL, 0, 514, 234, 10, 234, 2 },
	{ SHARED, "catapult/android_systrace.html.gz", "systrace", 0, NULL, 0,
	  11074, 6827, 0, 0, 2 },
	{ SHARED, "catapult/atrace_data", "ftrace", 0, NULL, 0, 72, 44, 0, 0, 1 },
	{ SHARED, "lisa/trace.txt", "trace-cmd", 0, NULL, 0, 1856, 1068, 0, 0, 6 },
	{ SHARED, "tracecompass-incubator/ftrace_syscalls.txt", "ftrace", 0, NULL, 0,
	  60, 30, 1, 30, 8 },
	{ SHARED, "tracecompass-incubator/trace-critical-path", "ftrace", 0, NULL, 0,
	  28, 12, 0, 12, 4 },
	{ SHARED, "trappy/trace_surfaceflinger.html", "systrace", 0, NULL, 0,
	  715, 421, 0, 0, 8 },
	{ SHARED, "trappy/trace_idle_unsorted.txt", "trace-cmd", 65,
	  "trace_idle_unsorted.txt:17: expected sched_switch fields", 1,
	  6, 0, 0, 0, 7 },
};

int main(void)
{
	const char *shared = test_real_traces_dir();
	char path[4096];
	int nrepo = 0, nshared = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sr_read_opts lenient = { .lenient = true };
		struct loaded l;
		int rc, strict;

		if (cases[i].where == SHARED && !shared)
			continue;
		snprintf(path, sizeof(path), "%s/%s",
			 cases[i].where == REPO ? "tests/parse/data/real" : shared,
			 cases[i].file);
		*(cases[i].where == REPO ? &nrepo : &nshared) += 1;
		CHECK_CTX("%s", cases[i].file);
		strict = rc = load(&l, path);
		CHECK_INT(rc, cases[i].rc);
		if (cases[i].msg)
			CHECK(strstr(l.msg, cases[i].msg) != NULL);
		CHECK_STR(l.format, cases[i].format);
		if (rc != 0) {
			loaded_free(&l);
			rc = load_opts(&l, path, &lenient);
			CHECK_INT(rc, 0);
			CHECK_INT(l.st.bad_lines, cases[i].lenient_bad);
		}
		CHECK_INT(l.st.by_kind[SR_EV_SWITCH], cases[i].sw);
		CHECK_INT(l.st.by_kind[SR_EV_WAKEUP], cases[i].wk);
		CHECK_INT(l.st.by_kind[SR_EV_WAKEUP_NEW], cases[i].wkn);
		CHECK_INT(l.st.by_kind[SR_EV_WAKING], cases[i].waking);
		CHECK_INT(l.st.ncpus, cases[i].ncpus);
		for (size_t k = 1; k < l.n; k++)
			if (l.ev[k].ts < l.ev[k - 1].ts) {
				CHECK_INT(l.ev[k].ts, l.ev[k - 1].ts);
				break;
			}
		loaded_free(&l);
		check_roundtrip(path, strict == 0 ? NULL : &lenient);
	}
	printf("test-real: %d recordings of ours, %d of other projects%s\n",
	       nrepo, nshared, shared ? "" : " (../shared/traces-real absent)");
	return test_done("test-real");
}
