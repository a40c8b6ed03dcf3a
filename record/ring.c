/*
 * ring: the recording instance (see ring.h).  Instance files through
 * libtracefs; pages read with plain non-blocking reads of each cpu's
 * trace_pipe_raw (a read gives one page, partial when it is the page the
 * kernel is writing, so a drain takes everything up to now); fork and
 * exec events decoded from the pages with libtraceevent's kbuffer and the
 * events' own formats.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "lib/qsort.h"
#include "lib/grow.h"
#include "lib/path.h"
#include "record/ring.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define INSTANCE_PREFIX "schedreplay-record-"

/*
 * The events recorded: what the readers turn into replay events
 * (docs/trace-format.md, "Events read").  sched_stat_runtime is left out:
 * the replay takes CPU time from the switches, and it would double the
 * volume.  A new event the replay needs is one row here.
 */
static const struct {
	const char *system, *event;
} events[] = {
	{ "sched", "sched_switch" },
	{ "sched", "sched_waking" },
	{ "sched", "sched_wakeup" },
	{ "sched", "sched_wakeup_new" },
	{ "sched", "sched_migrate_task" },
	{ "sched", "sched_process_fork" },
	{ "sched", "sched_process_exec" },
	{ "sched", "sched_process_exit" },
	{ "sched", "sched_process_free" },
};

struct rcpu {
	int32_t cpu;
	int in;            /* trace_pipe_raw, non-blocking */
	int out;           /* the unlinked temporary file */
	uint64_t len;      /* bytes written to out */
};

struct sr_ring {
	struct tracefs_instance *inst;
	char name[64];
	uint32_t page;
	struct rcpu *cpu;
	size_t ncpu;
	char *missing;
	/* formats of the enabled events, for the file */
	struct sr_tdw_format *fmt;
	size_t nfmt;
	char *header_page, *header_event, *cmdlines;
	size_t header_page_len, header_event_len, cmdlines_len;
	struct sr_tdw_cpu *tdw_cpu;
	/* decoding fork and exec */
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	int fork_id, exec_id;
	struct tep_format_field *f_parent, *f_child, *f_pid;
	struct sr_ring_task_ev *tev;
	size_t ntev, captev;
	struct sr_ring_cpu_stats *st;
	size_t nst;
	unsigned char *buf;
	int on;
};

static int io_fail(struct sr_diag *d, const char *what)
{
	return sr_fail(d, SR_EIO, "tracefs: %s: %s", what, strerror(errno));
}

/* A whole tracefs file of the top level (formats, headers), malloc'd. */
static char *top_file(const char *name, size_t *len)
{
	int sz = 0;
	char *s = tracefs_instance_file_read(NULL, name, &sz);

	*len = s && sz > 0 ? (size_t)sz : 0;
	return s;
}

/* Cpus listed in a sysfs cpu list ("0-3,6"), into r->cpu. */
static int online_cpus(struct sr_ring *r, struct sr_diag *d)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	char line[4096];
	const char *p;
	size_t cap = 0;

	if (!f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return sr_fail(d, SR_EIO, "/sys/devices/system/cpu/online: "
			       "cannot read the online cpus: %s",
			       strerror(errno));
	}
	fclose(f);
	for (p = line; *p && *p != '\n';) {
		char *e;
		long a = strtol(p, &e, 10), b = a;

		if (e == p)
			break;
		if (*e == '-')
			b = strtol(e + 1, &e, 10);
		for (long c = a; c <= b && c < 8192; c++) {
			struct rcpu *v = sr_grow(r->cpu, &cap, r->ncpu,
						 sizeof(*v), 8, 0);

			if (!v)
				return sr_oom(d);
			r->cpu = v;
			r->cpu[r->ncpu++] = (struct rcpu){ (int32_t)c, -1, -1,
							   0 };
		}
		p = *e == ',' ? e + 1 : e;
	}
	if (!r->ncpu)
		return sr_fail(d, SR_EIO, "/sys/devices/system/cpu/online: "
			       "expected a list of cpus, got '%s'", line);
	return SR_OK;
}

/* Remove our instances that a killed recorder left (its pid is gone). */
static int clean_one(const char *name, void *ctx)
{
	long pid;
	char *e;

	(void)ctx;
	if (strncmp(name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
		return 0;
	pid = strtol(name + strlen(INSTANCE_PREFIX), &e, 10);
	if (*e || pid <= 0 || (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
		return 0;
	{
		struct tracefs_instance *i = tracefs_instance_alloc(NULL, name);

		if (i) {
			tracefs_instance_destroy(i);
			tracefs_instance_free(i);
		}
	}
	return 0;
}

/* Decoding fork and exec from pages: the header page and their formats. */
static int decoder(struct sr_ring *r, struct sr_diag *d)
{
	struct tep_event *fk, *ex;

	r->tep = tep_alloc();
	if (!r->tep)
		return sr_oom(d);
	tep_set_loglevel(TEP_LOG_NONE);
	if (tep_parse_header_page(r->tep, r->header_page,
				  (unsigned long)r->header_page_len,
				  (int)sizeof(long)))
		return sr_fail(d, SR_EIO, "tracefs: events/header_page: "
			       "libtraceevent cannot parse it");
	for (size_t i = 0; i < r->nfmt; i++)
		if (tep_parse_event(r->tep, r->fmt[i].text, r->fmt[i].len,
				    r->fmt[i].system))
			return sr_fail(d, SR_EIO, "tracefs: an event format "
				       "of %s libtraceevent cannot parse",
				       r->fmt[i].system);
	fk = tep_find_event_by_name(r->tep, "sched", "sched_process_fork");
	ex = tep_find_event_by_name(r->tep, "sched", "sched_process_exec");
	r->fork_id = fk ? fk->id : -1;
	r->exec_id = ex ? ex->id : -1;
	r->f_parent = fk ? tep_find_field(fk, "parent_pid") : NULL;
	r->f_child = fk ? tep_find_field(fk, "child_pid") : NULL;
	r->f_pid = ex ? tep_find_field(ex, "pid") : NULL;
	if (!r->f_parent || !r->f_child || !r->f_pid)
		return sr_fail(d, SR_EIO, "tracefs: expected "
			       "sched_process_fork (parent_pid, child_pid) "
			       "and sched_process_exec (pid), got a kernel "
			       "without them");
	/* the pages' layout: this machine's long and page (kbuffer reads
	 * the commit count and event sizes by them) */
	tep_set_long_size(r->tep, (int)sizeof(long));
	tep_set_page_size(r->tep, (int)r->page);
	r->kbuf = tep_kbuffer(r->tep);
	if (!r->kbuf)
		return sr_oom(d);
	return SR_OK;
}

static int add_missing(struct sr_ring *r, const char *ev)
{
	size_t n = r->missing ? strlen(r->missing) : 0;
	char *m = realloc(r->missing, n + strlen(ev) + 3);

	if (!m)
		return -1;
	if (n)
		strcpy(m + n, ", ");
	strcpy(m + (n ? n + 2 : 0), ev);
	r->missing = m;
	return 0;
}

static int enable_events(struct sr_ring *r, struct sr_diag *d)
{
	size_t cap = 0;

	for (size_t i = 0; i < NELEM(events); i++) {
		char path[256];
		struct sr_tdw_format *v;
		size_t len;
		char *text;

		snprintf(path, sizeof(path), "events/%s/%s/format",
			 events[i].system, events[i].event);
		text = top_file(path, &len);
		if (!text) {
			if (add_missing(r, events[i].event))
				return sr_oom(d);
			continue;
		}
		if (tracefs_event_enable(r->inst, events[i].system,
					 events[i].event)) {
			free(text);
			snprintf(path, sizeof(path), "enabling %s:%s",
				 events[i].system, events[i].event);
			return io_fail(d, path);
		}
		v = sr_grow(r->fmt, &cap, r->nfmt, sizeof(*v), 16, 0);
		if (!v) {
			free(text);
			return sr_oom(d);
		}
		r->fmt = v;
		r->fmt[r->nfmt++] = (struct sr_tdw_format){ events[i].system,
							    text, len };
	}
	return SR_OK;
}

static int open_cpus(struct sr_ring *r, struct sr_diag *d)
{
	for (size_t i = 0; i < r->ncpu; i++) {
		char path[64];

		snprintf(path, sizeof(path), "per_cpu/cpu%d/trace_pipe_raw",
			 (int)r->cpu[i].cpu);
		r->cpu[i].in = tracefs_instance_file_open(r->inst, path,
							  O_RDONLY | O_NONBLOCK);
		if (r->cpu[i].in < 0)
			return io_fail(d, path);
		r->cpu[i].out = sr_tmpfile("record");
		if (r->cpu[i].out < 0)
			return sr_fail(d, SR_EIO, "%s: cannot make a temporary "
				       "file for the recorded pages: %s",
				       sr_tmpdir(), strerror(errno));
	}
	return SR_OK;
}

int sr_ring_open(struct sr_ring **out, size_t buffer_kb, const char **missing,
		 struct sr_diag *d)
{
	struct sr_ring *r = calloc(1, sizeof(*r));
	const char *dir = tracefs_tracing_dir();
	char *sub;
	int rc;

	*out = NULL;
	*missing = "";
	if (!r)
		return sr_oom(d);
	if (!dir) {
		free(r);
		return sr_fail(d, SR_ENOINPUT, "no tracefs: mount it (mount -t "
			       "tracefs nodev /sys/kernel/tracing) or use a "
			       "kernel with CONFIG_FTRACE");
	}
	*out = r;
	tracefs_instances_walk(clean_one, NULL);
	snprintf(r->name, sizeof(r->name), INSTANCE_PREFIX "%ld",
		 (long)getpid());
	r->inst = tracefs_instance_create(r->name);
	if (!r->inst)
		return io_fail(d, "creating an instance (instances/"
			       INSTANCE_PREFIX "PID)");
	r->page = 4096;
	sub = tracefs_instance_file_read(r->inst, "buffer_subbuf_size_kb",
					 NULL);
	if (sub) {
		long kb = strtol(sub, NULL, 10);

		if (kb > 0 && kb <= 1024)
			r->page = (uint32_t)kb * 1024;
		free(sub);
	}
	r->buf = malloc(r->page);
	if (!r->buf)
		return sr_oom(d);
	if (tracefs_instance_set_buffer_size(r->inst, buffer_kb, -1) < 0)
		return io_fail(d, "setting buffer_size_kb");
	/* overwrite: a reader that falls behind loses the oldest events,
	 * and the kernel counts them in the next page it reads (a marker
	 * the readers show); without it the losses are not in the pages */
	if (tracefs_option_enable(r->inst, TRACEFS_OPTION_OVERWRITE) < 0)
		return io_fail(d, "options/overwrite");
	if (tracefs_trace_off(r->inst) < 0)
		return io_fail(d, "tracing_on");
	r->header_page = top_file("events/header_page", &r->header_page_len);
	r->header_event = top_file("events/header_event",
				   &r->header_event_len);
	if (!r->header_page || !r->header_event)
		return io_fail(d, "events/header_page");
	if ((rc = online_cpus(r, d)) || (rc = enable_events(r, d)) ||
	    (rc = decoder(r, d)) || (rc = open_cpus(r, d)))
		return rc;
	*missing = r->missing ? r->missing : "";
	return SR_OK;
}

int sr_ring_start(struct sr_ring *r, struct sr_diag *d)
{
	if (tracefs_trace_on(r->inst) < 0)
		return io_fail(d, "tracing_on");
	r->on = 1;
	return SR_OK;
}

int sr_ring_stop(struct sr_ring *r, struct sr_diag *d)
{
	if (r->on && tracefs_trace_off(r->inst) < 0)
		return io_fail(d, "tracing_on");
	r->on = 0;
	return SR_OK;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* The forks and execs of one page, into r->tev. */
static int scan_page(struct sr_ring *r, struct sr_diag *d)
{
	unsigned long long ts;
	void *ev;

	if (kbuffer_load_subbuffer(r->kbuf, r->buf) < 0)
		return SR_OK; /* an empty page */
	for (ev = kbuffer_read_event(r->kbuf, &ts); ev;
	     ev = kbuffer_next_event(r->kbuf, &ts)) {
		struct tep_record rec = { .ts = ts, .data = ev, .size = 8 };
		int id = tep_data_type(r->tep, &rec);
		unsigned long long a = 0, b = 0;
		struct sr_ring_task_ev *v;

		if (id != r->fork_id && id != r->exec_id)
			continue;
		if (id == r->fork_id &&
		    (tep_read_number_field(r->f_parent, ev, &a) ||
		     tep_read_number_field(r->f_child, ev, &b)))
			continue;
		if (id == r->exec_id &&
		    tep_read_number_field(r->f_pid, ev, &b))
			continue;
		v = sr_grow(r->tev, &r->captev, r->ntev, sizeof(*v), 64, 0);
		if (!v)
			return sr_oom(d);
		r->tev = v;
		r->tev[r->ntev++] = (struct sr_ring_task_ev){
			(int64_t)ts, id == r->fork_id ? (int32_t)a : -1,
			(int32_t)b, id == r->exec_id };
	}
	return SR_OK;
}

static int by_ts(const void *a, const void *b)
{
	const struct sr_ring_task_ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

int sr_ring_drain(struct sr_ring *r,
		  int (*on_task)(void *ctx, const struct sr_ring_task_ev *e,
				 struct sr_diag *d),
		  void *ctx, struct sr_diag *d)
{
	r->ntev = 0;
	for (size_t i = 0; i < r->ncpu; i++) {
		struct rcpu *c = &r->cpu[i];

		for (;;) {
			ssize_t n = read(c->in, r->buf, r->page);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EAGAIN)
				break;
			if (n < 0) {
				char what[64];

				snprintf(what, sizeof(what), "reading cpu %d's "
					 "buffer", (int)c->cpu);
				return io_fail(d, what);
			}
			if (n == 0)
				break;
			if ((size_t)n < r->page)
				memset(r->buf + n, 0, r->page - (size_t)n);
			if (write_all(c->out, r->buf, r->page))
				return sr_fail(d, SR_EIO, "%s: writing the "
					       "recorded pages: %s",
					       sr_tmpdir(), strerror(errno));
			c->len += r->page;
			if (on_task && scan_page(r, d))
				return d->code;
		}
	}
	if (!on_task)
		return SR_OK;
	sr_qsort(r->tev, r->ntev, sizeof(*r->tev), by_ts);
	for (size_t i = 0; i < r->ntev; i++)
		if (on_task(ctx, &r->tev[i], d))
			return d->code;
	return SR_OK;
}

static uint64_t stat_field(const char *text, const char *key)
{
	const char *p = text;
	size_t k = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, k) && p[k] == ':')
			return strtoull(p + k + 1, NULL, 10);
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return 0;
}

int sr_ring_stats(struct sr_ring *r, const struct sr_ring_cpu_stats **st,
		  size_t *n, struct sr_diag *d)
{
	if (!r->st) {
		r->st = calloc(r->ncpu ? r->ncpu : 1, sizeof(*r->st));
		if (!r->st)
			return sr_oom(d);
		for (size_t i = 0; i < r->ncpu; i++) {
			char path[64];
			char *t;

			snprintf(path, sizeof(path), "per_cpu/cpu%d/stats",
				 (int)r->cpu[i].cpu);
			t = tracefs_instance_file_read(r->inst, path, NULL);
			if (!t)
				return io_fail(d, path);
			r->st[i] = (struct sr_ring_cpu_stats){
				r->cpu[i].cpu, stat_field(t, "overrun"),
				stat_field(t, "dropped events"),
				stat_field(t, "read events"), t };
			r->nst++;
		}
	}
	*st = r->st;
	*n = r->nst;
	return SR_OK;
}

int sr_ring_tdw(struct sr_ring *r, struct sr_tdw *w, struct sr_diag *d)
{
	free(r->cmdlines);
	r->cmdlines = top_file("saved_cmdlines", &r->cmdlines_len);
	/* the file's cpus are numbered 0..n-1 (version 6): up to the highest
	 * online one, an offline one without data */
	size_t n = r->ncpu ? (size_t)r->cpu[r->ncpu - 1].cpu + 1 : 0;

	free(r->tdw_cpu);
	r->tdw_cpu = calloc(n ? n : 1, sizeof(*r->tdw_cpu));
	if (!r->tdw_cpu)
		return sr_oom(d);
	for (size_t i = 0; i < n; i++)
		r->tdw_cpu[i] = (struct sr_tdw_cpu){ -1, 0 };
	for (size_t i = 0; i < r->ncpu; i++)
		r->tdw_cpu[r->cpu[i].cpu] = (struct sr_tdw_cpu){
			r->cpu[i].out, r->cpu[i].len };
	*w = (struct sr_tdw){
		.page_size = r->page,
		.header_page = { r->header_page, r->header_page_len },
		.header_event = { r->header_event, r->header_event_len },
		.formats = r->fmt, .nformats = r->nfmt,
		.cmdlines = { r->cmdlines, r->cmdlines_len },
		.cpu = r->tdw_cpu, .ncpu = n,
	};
	return SR_OK;
}

uint64_t sr_ring_pages(const struct sr_ring *r)
{
	uint64_t n = 0;

	for (size_t i = 0; i < r->ncpu; i++)
		n += r->cpu[i].len / r->page;
	return n;
}

void sr_ring_close(struct sr_ring *r)
{
	if (!r)
		return;
	if (r->inst) {
		tracefs_trace_off(r->inst);
		for (size_t i = 0; i < r->ncpu; i++)
			if (r->cpu[i].in >= 0)
				close(r->cpu[i].in);
		tracefs_instance_destroy(r->inst);
		tracefs_instance_free(r->inst);
	}
	for (size_t i = 0; i < r->ncpu; i++)
		if (r->cpu[i].out >= 0)
			close(r->cpu[i].out);
	for (size_t i = 0; i < r->nfmt; i++)
		free((char *)r->fmt[i].text);
	for (size_t i = 0; i < r->nst; i++)
		free(r->st[i].text);
	free(r->st);
	free(r->fmt);
	free(r->cpu);
	free(r->tdw_cpu);
	free(r->tev);
	free(r->missing);
	free(r->header_page);
	free(r->header_event);
	free(r->cmdlines);
	free(r->buf);
	if (r->kbuf)
		kbuffer_free(r->kbuf);
	if (r->tep)
		tep_free(r->tep);
	free(r);
}
