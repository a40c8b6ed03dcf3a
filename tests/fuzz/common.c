/*
 * common: the parts every fuzz target shares (see fuzz.h): inputs as
 * files, the event-stream checks, and one compiled pattern table per
 * process.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/patterns.h"
#include "tests/fuzz/fuzz.h"

void fz_fail_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/*
 * The reader compiles its pattern table (with JIT) at every open, a few
 * milliseconds that would be most of an iteration.  The fuzz binaries
 * are linked with -Wl,--wrap for these two functions: the table is
 * compiled once and lent to every reader.  Matching state is per table,
 * and the targets are single-threaded.
 */
int __real_sr_patterns_init(struct sr_patterns *p, struct sr_diag *d);
int __wrap_sr_patterns_init(struct sr_patterns *p, struct sr_diag *d);
void __wrap_sr_patterns_free(struct sr_patterns *p);

int __wrap_sr_patterns_init(struct sr_patterns *p, struct sr_diag *d)
{
	static struct sr_patterns once;
	static int ready;

	if (!ready) {
		if (__real_sr_patterns_init(&once, d) != SR_OK)
			return d->code;
		ready = 1;
	}
	*p = once;
	return SR_OK;
}

void __wrap_sr_patterns_free(struct sr_patterns *p)
{
	memset(p, 0, sizeof(*p));
}

/*
 * The suppressions of tests/lib/lsan.supp (why each one: there), built
 * in so that a fuzz binary run by hand, without LSAN_OPTIONS, does not
 * report libtracecmd's lost clock name on every version 6 trace.dat as a
 * leak of ours.  LeakSanitizer asks for this function; other builds
 * never call it.
 */
const char *__lsan_default_suppressions(void);

const char *__lsan_default_suppressions(void)
{
	return "leak:tracecmd_parse_trace_clock\n"
	       "leak:__vfscanf_internal\n"
	       "leak:tep_parse_event\n";
}

#define FZ_SLOTS 4

const char *fz_file(int slot, const void *data, size_t size)
{
	static int fds[FZ_SLOTS] = { -1, -1, -1, -1 };
	static char paths[FZ_SLOTS][40];
	const char *p = data;
	size_t off = 0;

	if (slot < 0 || slot >= FZ_SLOTS)
		fz_fail("no file slot %d", slot);
	if (fds[slot] < 0) {
		fds[slot] = memfd_create("fuzz-input", 0);
		if (fds[slot] < 0)
			fz_fail("memfd_create failed");
		snprintf(paths[slot], sizeof(paths[slot]), "/proc/self/fd/%d",
			 fds[slot]);
	}
	if (ftruncate(fds[slot], 0) != 0)
		fz_fail("ftruncate failed");
	while (off < size) {
		ssize_t n = pwrite(fds[slot], p + off, size - off, (off_t)off);

		if (n <= 0)
			fz_fail("pwrite failed");
		off += (size_t)n;
	}
	return paths[slot];
}

void fz_check_error(const char *path, const struct sr_diag *d)
{
	size_t n = strlen(path);

	FZ_ASSERT(d->code != SR_OK, "an error without a status");
	FZ_ASSERT(d->msg[0] != '\0', "status %d without a message", d->code);
	for (const char *c = d->msg; *c; c++)
		FZ_ASSERT(*c >= 0x20 && *c < 0x7f, "unquoted byte 0x%02x in "
			  "message '%s'", (unsigned char)*c, d->msg);
	if (d->code == SR_ENOMEM)
		return;
	FZ_ASSERT(d->code == SR_EDATA || d->code == SR_EIO,
		  "status %d for bad input: '%s'", d->code, d->msg);
	FZ_ASSERT(!strncmp(d->msg, path, n) &&
		  (d->msg[n] == ':' || d->msg[n] == ' '),
		  "message does not start with the file name: '%s'", d->msg);
}

void fz_check_offset(const char *path, const struct sr_diag *d)
{
	size_t n = strlen(path), k = n + 1;

	/* the stream's own errors (gzip, another compressor) are about the
	 * container, as for text (docs/trace-format.md): a gzip error names
	 * its compressed byte in the message */
	if (d->code != SR_EDATA || strstr(d->msg, " gzip ") ||
	    strstr(d->msg, ": compressed with "))
		return;
	while (d->msg[k] >= '0' && d->msg[k] <= '9')
		k++;
	FZ_ASSERT(!strncmp(d->msg, path, n) && d->msg[n] == ':' &&
		  k > n + 1 && d->msg[k] == ':',
		  "a binary reader's message without FILE:OFFSET: '%s'",
		  d->msg);
}

void fz_binary(const uint8_t *data, size_t size, const char *format)
{
	const char *const formats[] = { format, "auto" };
	const char *path = fz_file(0, data, size);

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		struct sr_read_opts o = { .format = formats[i],
					   .input_buffer = 1 };
		struct sr_diag d = SR_DIAG_INIT;

		if (fz_read(path, &o, NULL, NULL, NULL, &d) == 0 && i == 0)
			fz_check_offset(path, &d);
	}
}

static void check_tid(const struct sr_tasks *t, sr_tid id, const char *what,
		      const struct sr_event *ev)
{
	FZ_ASSERT(id != SR_TID_NONE && id < sr_tasks_count(t),
		  "line %llu: %s %s id %u of %zu tasks",
		  (unsigned long long)ev->line, sr_ev_kind_name(ev->kind),
		  what, (unsigned)id, sr_tasks_count(t));
}

struct order {
	int64_t last_ts;
	int64_t *cpu_ts;   /* per cpu + 1 */
	size_t ncpu;
	uint64_t events, by_kind[SR_EV__COUNT];
};

static void check_event(struct order *o, const struct sr_tasks *t,
			const struct sr_event *ev)
{
	size_t c = (size_t)(ev->cpu + 1);

	FZ_ASSERT(ev->kind < SR_EV__COUNT, "kind %d", ev->kind);
	FZ_ASSERT(ev->cpu >= -1 && ev->cpu < 8192, "cpu %d", (int)ev->cpu);
	FZ_ASSERT(ev->ts >= 0, "line %llu: time %lld",
		  (unsigned long long)ev->line, (long long)ev->ts);
	FZ_ASSERT(o->events == 0 || ev->ts >= o->last_ts,
		  "line %llu: %s at %lld after %lld: the stream is not in "
		  "time order", (unsigned long long)ev->line,
		  sr_ev_kind_name(ev->kind), (long long)ev->ts,
		  (long long)o->last_ts);
	if (c >= o->ncpu) {
		size_t n = c + 16;
		int64_t *v = realloc(o->cpu_ts, n * sizeof(*v));

		FZ_ASSERT(v != NULL, "out of memory");
		for (size_t i = o->ncpu; i < n; i++)
			v[i] = INT64_MIN;
		o->cpu_ts = v;
		o->ncpu = n;
	}
	FZ_ASSERT(ev->ts >= o->cpu_ts[c], "cpu %d goes back in time",
		  (int)ev->cpu);
	o->cpu_ts[c] = ev->ts;
	o->last_ts = ev->ts;
	o->events++;
	o->by_kind[ev->kind]++;

	switch (ev->kind) {
	case SR_EV_LOST:
		FZ_ASSERT(ev->task == SR_TID_NONE, "lost event names a task");
		FZ_ASSERT(ev->value >= 0, "lost count %lld",
			  (long long)ev->value);
		return;
	case SR_EV_SWITCH:
	case SR_EV_FORK:
	case SR_EV_EXEC:
		check_tid(t, ev->other, "other", ev);
		break;
	case SR_EV_WAKING:
	case SR_EV_WAKEUP:
	case SR_EV_WAKEUP_NEW:
		FZ_ASSERT(ev->wsrc <= SR_WS_UNKNOWN, "wake source %d", ev->wsrc);
		if (ev->wsrc == SR_WS_TASK)
			check_tid(t, ev->waker, "waker", ev);
		else
			FZ_ASSERT(ev->waker == SR_TID_NONE, "a waker for a "
				  "wake from %s", sr_wake_src_name(ev->wsrc));
		break;
	default:
		break;
	}
	check_tid(t, ev->task, "task", ev);
	if (ev->kind == SR_EV_SWITCH)
		FZ_ASSERT(ev->prev_state != 0, "switch without prev_state");
	if (ev->kind == SR_EV_RUNTIME)
		FZ_ASSERT(ev->value >= 0, "negative runtime");
}

static void check_end(const struct order *o, struct sr_reader *r)
{
	const struct sr_read_stats *st = sr_reader_stats(r);
	const struct sr_tasks *t = sr_reader_tasks(r);
	size_t n = sr_tasks_count(t);
	uint64_t sum = 0;

	FZ_ASSERT(st->events == o->events, "stats say %llu events, %llu "
		  "delivered", (unsigned long long)st->events,
		  (unsigned long long)o->events);
	for (int k = 0; k < SR_EV__COUNT; k++) {
		FZ_ASSERT(st->by_kind[k] == o->by_kind[k], "by_kind[%s]",
			  sr_ev_kind_name(k));
		sum += st->by_kind[k];
	}
	FZ_ASSERT(sum == st->events, "by_kind does not add up");
	FZ_ASSERT(st->events == 0 || st->first_ts <= st->last_ts,
		  "first_ts after last_ts");
	FZ_ASSERT(st->ncpus >= 0 && st->ncpus <= 8192, "ncpus %d",
		  (int)st->ncpus);
	FZ_ASSERT(st->nlost <= st->by_kind[SR_EV_LOST], "%zu lost ranges "
		  "from %llu markers", st->nlost,
		  (unsigned long long)st->by_kind[SR_EV_LOST]);
	for (size_t i = 0; i < st->nlost; i++) {
		const struct sr_lost_range *l = &st->lost[i];

		FZ_ASSERT(l->from_ts <= l->to_ts, "lost range %zu ends "
			  "before it starts", i);
		FZ_ASSERT(l->cpu >= -1 && l->cpu < 8192, "lost cpu %d",
			  (int)l->cpu);
	}
	for (size_t i = 0; i < n; i++) {
		const struct sr_task *k = sr_tasks_get(t, (sr_tid)i);

		FZ_ASSERT(k && k->id == i, "task %zu has id %u", i,
			  k ? (unsigned)k->id : 0u);
		FZ_ASSERT(memchr(k->comm, '\0', sizeof(k->comm)) != NULL,
			  "task %zu: comm not terminated", i);
		FZ_ASSERT(k->thread <= k->id, "task %zu: thread %u", i,
			  (unsigned)k->thread);
		FZ_ASSERT(k->exec_prev == SR_TID_NONE || k->exec_prev < k->id,
			  "task %zu: exec_prev %u", i, (unsigned)k->exec_prev);
		FZ_ASSERT(k->parent == SR_TID_NONE || k->parent < n,
			  "task %zu: parent %u", i, (unsigned)k->parent);
		FZ_ASSERT(!k->is_idle || k->pid == 0, "idle task %zu with "
			  "pid %d", i, (int)k->pid);
		FZ_ASSERT(k->pid >= 0, "task %zu: pid %d", i, (int)k->pid);
	}
}

int fz_read(const char *path, const struct sr_read_opts *opts,
	    fz_event_fn fn, void *ctx, struct sr_reader **rp,
	    struct sr_diag *d)
{
	struct sr_reader *r;
	struct sr_event ev;
	struct order o = { 0 };
	int rc;

	if (rp)
		*rp = NULL;
	if (sr_reader_open(&r, path, opts, d) != SR_OK) {
		fz_check_error(path, d);
		return 0;
	}
	while ((rc = sr_reader_next(r, &ev, d)) == 1) {
		check_event(&o, sr_reader_tasks(r), &ev);
		if (fn && (rc = fn(ctx, r, &ev)) != 0)
			break;
	}
	if (rc == 0) {
		FZ_ASSERT(d->code == SR_OK, "end of input with status %d: %s",
			  d->code, d->msg);
		check_end(&o, r);
		rc = 1;
	} else if (rc < 0) {
		fz_check_error(path, d);
		rc = 0;
	}
	free(o.cpu_ts);
	if (rp)
		*rp = r;
	else
		sr_reader_close(r);
	return rc;
}

char *fz_slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t cap = 0;

	*n = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*n + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 8192;
			b = realloc(b, cap);
			if (!b)
				fz_fail("out of memory");
		}
		size_t got = fread(b + *n, 1, cap - *n - 1, f);

		*n += got;
		if (!got)
			break;
	}
	fclose(f);
	b[*n] = '\0';
	return b;
}

/* The "..." literals of a gnuplot line, decoded by gnuplot's escapes
 * (backslash-backslash, backslash-quote, backslash and octal digits);
 * -1 if the line holds a ` outside a comment (a command gnuplot would
 * run, inside a "..." too), a control byte, an escape we do not write,
 * or a string not closed. */
int fz_gp_strings(const char *line, char out[][512], int max)
{
	int n = 0;

	for (const char *p = line; *p; p++) {
		size_t o = 0;

		if (*p == '#')
			break;	/* a comment: gnuplot runs nothing there */
		if (*p == '`' || (unsigned char)*p < 0x20)
			return -1;
		if (*p == '\'') {	/* single-quoted: ours, constant */
			const char *q = strchr(p + 1, '\'');

			if (!q)
				return -1;
			p = q;
			continue;
		}
		if (*p != '"')
			continue;
		if (n == max)
			return -1;
		for (p++; *p != '"'; p++) {
			char c = *p;

			if (!*p || *p == '`' || (unsigned char)*p < 0x20)
				return -1;
			if (*p == '\\') {
				p++;
				if (*p >= '0' && *p <= '7') {
					int v = 0, k = 0;

					while (k < 3 && *p >= '0' && *p <= '7')
						v = v * 8 + (*p++ - '0'), k++;
					p--;
					c = (char)v;
				} else if (*p == '\\' || *p == '"') {
					c = *p;
				} else {
					return -1; /* not an escape we write */
				}
			}
			if (o + 1 < sizeof(out[0]))
				out[n][o++] = c;
		}
		out[n++][o] = '\0';
	}
	return n;
}

/* rm -rf: a directory a run made unreadable or unwritable included; an
 * entry that will not go does not stop the walk */
static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *f)
{
	(void)st; (void)f;
	if (flag == FTW_DP || flag == FTW_D || flag == FTW_DNR)
		chmod(p, 0700);
	remove(p);
	return 0;
}

void fz_rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A file of our temporaries' pattern, NAME.tmp.PID[.XXXXXX] (lib/outfile.h);
 * a directory the command line itself named so is not one. */
static int tmp_one(const char *p, const struct stat *st, int flag,
		   struct FTW *f)
{
	const char *t = strstr(p + f->base, ".tmp.");

	(void)st;
	if (flag != FTW_F || !t || t == p + f->base)
		return 0;
	t += 5;
	return *t >= '0' && *t <= '9';
}

int fz_tmp_left(const char *path)
{
	return nftw(path, tmp_one, 16, FTW_PHYS) != 0;
}

int fz_main(int argc, char **argv, char *msg, size_t size)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *real = stderr;
	int rc;

	/* the tool's stream, not fd 2, where a sanitizer's report goes */
	stderr = open_memstream(&buf, &len);
	if (!stderr)
		fz_fail("open_memstream: %s", strerror(errno));
	rc = sr_main(argc, argv);
	fclose(stderr);
	stderr = real;
	if (len > size - 1)
		len = size - 1;
	memcpy(msg, buf, len);
	msg[len] = '\0';
	free(buf);
	for (size_t k = 0; k < len; k++)
		FZ_ASSERT((unsigned char)msg[k] >= 0x20 ? msg[k] != 0x7f :
			  msg[k] == '\n',
			  "a control byte (0x%02x) in what '%s' said: %s",
			  (unsigned char)msg[k], argc > 1 ? argv[1] : "", msg);
	return rc;
}
