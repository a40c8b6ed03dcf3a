/*
 * parse-bench: parse throughput of the reader on one file, one core.
 *
 *	parse-bench [--input-format NAME] FILE
 *
 * Reads every event through sr_reader_next and prints one line:
 * format, text MB, CPU seconds, MB/s of uncompressed text and events/s
 * per CPU second (one core: the reader is single-threaded; CPU time is
 * steadier than wall time on a shared machine), wall seconds, peak RSS.
 * Timings are bench output, never results.
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "parse/reader.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sr_read_opts opts = { 0 };
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_reader *r;
	struct sr_event ev;
	struct rusage ru;
	const struct sr_read_stats *st;
	unsigned long long n = 0;
	double t0, dt, mb, cpu;
	int rc, i = 1;

	if (argc > 3 && !strcmp(argv[1], "--input-format")) {
		opts.format = argv[2];
		i = 3;
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: parse-bench [--input-format NAME] FILE\n");
		return 64;
	}
	t0 = now();
	if (sr_reader_open(&r, argv[i], &opts, &d) != SR_OK)
		return sr_report(&d);
	while ((rc = sr_reader_next(r, &ev, &d)) == 1)
		n++;
	if (rc < 0) {
		sr_reader_close(r);
		return sr_report(&d);
	}
	dt = now() - t0;
	st = sr_reader_stats(r);
	mb = (double)st->bytes / 1e6;
	getrusage(RUSAGE_SELF, &ru);
	cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	      (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	if (cpu <= 0)
		cpu = 1e-6;
	printf("%-9s %7.1f MB  cpu %6.2f s  %6.1f MB/s  %9llu events "
	       "%9.0f ev/s  (wall %6.2f s)  RSS %5.1f MB%s\n",
	       sr_reader_format(r), mb, cpu, mb / cpu, n, (double)n / cpu, dt,
	       (double)ru.ru_maxrss / 1024.0,
	       st->kway ? " (per-cpu merge)" : "");
	sr_reader_close(r);
	return 0;
}
