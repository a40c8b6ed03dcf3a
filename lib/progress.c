/*
 * progress: the progress line on a terminal (see progress.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/progress.h"

#define LINE_MAX_COLS 512

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* SCHEDREPLAY_PROGRESS_DELAY: seconds, with decimals; else the default. */
static int64_t delay_ns(void)
{
	const char *s = getenv("SCHEDREPLAY_PROGRESS_DELAY");
	char *end;
	double v;

	if (!s || !*s)
		return SR_PROGRESS_DELAY_NS;
	v = strtod(s, &end);
	if (*end || v < 0 || v > 3600)
		return SR_PROGRESS_DELAY_NS;
	return (int64_t)(v * 1e9);
}

void sr_progress_init(struct sr_progress *p, const char *cmd, bool quiet)
{
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->fd = !quiet && isatty(STDERR_FILENO) ? STDERR_FILENO : -1;
	if (p->fd < 0)
		return;
	p->delay = delay_ns();
	p->start = now_ns();
}

static size_t columns(int fd)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col < LINE_MAX_COLS ? ws.ws_col : LINE_MAX_COLS;
	return 80;
}

/* bytes as "12.3 MB" (or kB, GB), one decimal */
static void put_bytes(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "kB", "MB", "GB", "TB" };
	uint64_t div = 1000;
	int u = 0;

	if (b < 1000) {
		snprintf(buf, len, "%llu B", (unsigned long long)b);
		return;
	}
	while (u < 3 && b >= div * 1000) {
		div *= 1000;
		u++;
	}
	snprintf(buf, len, "%llu.%llu %s", (unsigned long long)(b / div),
		 (unsigned long long)(b % div * 10 / div), unit[u]);
}

/* a rate as "850", "12.5k", "1.25M" */
static void put_rate(char *buf, size_t len, double r)
{
	if (r >= 1e6)
		snprintf(buf, len, "%.2fM", r / 1e6);
	else if (r >= 1e3)
		snprintf(buf, len, "%.1fk", r / 1e3);
	else
		snprintf(buf, len, "%.0f", r);
}

static void draw(struct sr_progress *p, int64_t now)
{
	char line[LINE_MAX_COLS + 64], out[2 * LINE_MAX_COLS + 8];
	char done[32], total[32], rate[32];
	size_t n = 0, cols = columns(p->fd) - 1, k;
	double secs = (double)(now - p->start) / 1e9;

	n += (size_t)snprintf(line + n, sizeof(line) - n, "schedreplay %s:",
			      p->cmd ? p->cmd : "");
	if (p->what[0] && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s:",
				      p->what);
	put_bytes(done, sizeof(done), p->done);
	if (p->total && n < sizeof(line)) {
		put_bytes(total, sizeof(total), p->total);
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      " %d%% of %s", (int)(p->done * 100 /
							   p->total), total);
	} else if (n < sizeof(line)) {
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s read",
				      done);
	}
	if (secs > 0 && n < sizeof(line)) {
		put_rate(rate, sizeof(rate), (double)p->events / secs);
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      ", %s events/s", rate);
	}
	if (n > sizeof(line) - 1)
		n = sizeof(line) - 1;
	if (n > cols)
		n = cols;
	/* "\r", the line, blanks over what the last one had beyond it (no
	 * escape sequences: any terminal, TERM=dumb too) */
	out[0] = '\r';
	memcpy(out + 1, line, n);
	k = n + 1;
	for (size_t i = n; i < p->len; i++)
		out[k++] = ' ';
	if (write(p->fd, out, k) < 0) {
		p->fd = -1; /* a terminal that fails: stop drawing */
		return;
	}
	p->len = k - 1;
	p->drawn = true;
	p->last = now;
	p->draws++;
}

void sr_progress_tick(struct sr_progress *p)
{
	int64_t now;

	if (!p || p->fd < 0)
		return;
	now = now_ns();
	if (now - p->start < p->delay)
		return;
	if (p->drawn && now - p->last < SR_PROGRESS_INTERVAL_NS)
		return;
	draw(p, now);
}

void sr_progress_what(struct sr_progress *p, const char *what)
{
	if (!p || p->fd < 0)
		return;
	snprintf(p->what, sizeof(p->what), "%s", what ? what : "");
	sr_progress_tick(p);
}

void sr_progress_input(struct sr_progress *p, uint64_t done, uint64_t total,
		       uint64_t events)
{
	if (!p || p->fd < 0)
		return;
	p->done = done;
	p->total = total;
	p->events = events;
	sr_progress_tick(p);
}

void sr_progress_end(struct sr_progress *p)
{
	char out[LINE_MAX_COLS + 2];
	size_t k = 0;

	if (!p || p->fd < 0)
		return;
	if (p->drawn) {
		out[k++] = '\r';
		memset(out + k, ' ', p->len);
		k += p->len;
		out[k++] = '\r';
		if (write(p->fd, out, k) < 0) {
			/* nothing to do: the terminal is gone */
		}
	}
	p->drawn = false;
	p->fd = -1;
}
