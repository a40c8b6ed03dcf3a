/*
 * runstat: run a command and print what it cost, for the bench scripts:
 *
 *	runstat CMD [ARG...]   ->  "CPU_MS WALL_MS MAXRSS_KB EXIT"
 *
 * CPU is user + system time of the child as wait4() reports it (to the
 * microsecond, where /usr/bin/time prints hundredths of a second: too
 * coarse for runs of tens of milliseconds).  The command's output goes to
 * /dev/null; its stderr is kept.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double t0;
	pid_t pid;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: runstat CMD [ARG...]\n");
		return 64;
	}
	t0 = now_ms();
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 71;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, 1);
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) < 0) {
		perror("wait4");
		return 71;
	}
	printf("%.3f %.3f %ld %d\n",
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3,
	       now_ms() - t0, ru.ru_maxrss,
	       WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 0;
}
