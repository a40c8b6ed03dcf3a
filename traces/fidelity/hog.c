/*
 * hog SECONDS: spin on the CPU for SECONDS of wall time (default 5), never
 * sleeping: the CPU-bound task of the fidelity recordings (record.sh).
 */
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atof(argv[1]) : 5.0);
	volatile unsigned long x = 0;

	while (now() < end)
		for (int i = 0; i < 10000; i++)
			x++;
	return 0;
}
