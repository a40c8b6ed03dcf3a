/*
 * sleeper SECONDS [RUN_MS [PERIOD_MS]]: RUN_MS of CPU (default 1) every
 * PERIOD_MS (default 10) for SECONDS (default 5), woken by an absolute
 * timer: the interactive task of the fidelity recordings (record.sh).  The
 * loop count that makes RUN_MS is measured once at the start.
 */
#include <stdlib.h>
#include <time.h>

static volatile unsigned long x;

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		x++;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 5.0;
	double run = (argc > 2 ? atof(argv[2]) : 1.0) * 1e-3;
	long period = (argc > 3 ? atol(argv[3]) : 10) * 1000000L;
	double t0 = cpu_s();
	unsigned long n;
	struct timespec t;
	long rounds;

	spin(20000000);
	n = (unsigned long)(20000000 * run / (cpu_s() - t0));
	rounds = (long)(secs * 1e9 / (double)period);
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (long k = 0; k < rounds; k++) {
		spin(n);
		t.tv_nsec += period;
		while (t.tv_nsec >= 1000000000L) {
			t.tv_nsec -= 1000000000L;
			t.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	}
	return 0;
}
