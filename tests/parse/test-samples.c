/*
 * test-samples: the recorded samples in traces/ (perf script text of real
 * workloads) read without a bad line, in time order, with the event kinds
 * perf sched record makes; the smallest survives a native round trip.
 * Fails when traces/ has no sample: they are part of the repository.
 */
#include <glob.h>
#include <sys/stat.h>

#include "tests/parse/parsetest.h"

int main(void)
{
	glob_t g;
	const char *smallest = NULL;
	off_t small_size = 0;

	if (glob("traces/*.perf.txt.gz", 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		fprintf(stderr, "test-samples: no traces/*.perf.txt.gz: the bundled samples are missing\n");
		return 1;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *p = g.gl_pathv[i];
		struct loaded l;
		struct stat st;

		CHECK_CTX("%.200s", p);
		CHECK_INT(load(&l, p), 0);
		CHECK_STR(l.format, "perf");
		CHECK(l.n > 1000);
		CHECK_INT(l.st.bad_lines, 0);
		CHECK(l.st.by_kind[SR_EV_SWITCH] > 0);
		CHECK(l.st.by_kind[SR_EV_WAKING] + l.st.by_kind[SR_EV_WAKEUP] > 0);
		CHECK(l.st.ncpus >= 1);
		for (size_t k = 1; k < l.n; k++)
			if (l.ev[k].ts < l.ev[k - 1].ts) {
				CHECK_INT(l.ev[k].ts, l.ev[k - 1].ts);
				break;
			}
		/* every task an event names exists; idle tasks are per cpu */
		for (size_t k = 0; k < l.n; k++) {
			const struct sr_event *e = &l.ev[k];

			if ((e->task != SR_TID_NONE && e->task >= l.ntasks) ||
			    (e->other != SR_TID_NONE && e->other >= l.ntasks) ||
			    (e->waker != SR_TID_NONE && e->waker >= l.ntasks)) {
				CHECK(!"event names a task outside the table");
				break;
			}
		}
		loaded_free(&l);
		if (stat(p, &st) == 0 && (!smallest || st.st_size < small_size)) {
			smallest = p;
			small_size = st.st_size;
		}
	}
	if (smallest)
		check_roundtrip(smallest, NULL);
	globfree(&g);
	return test_done("test-samples");
}
