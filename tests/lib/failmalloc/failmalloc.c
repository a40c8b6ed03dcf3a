/*
 * failmalloc: an LD_PRELOAD library that makes one allocation fail, for
 * the tests that out of memory is said as such (status 71) wherever it
 * happens (tests/bad-input/out-of-memory.sh).
 *
 *	SR_FAILMALLOC=N         the Nth allocation (from 1) returns NULL
 *	                        (ENOMEM); 0 or unset: none fails
 *	SR_FAILMALLOC_FROM=1    the Nth and every later one fail
 *	SR_FAILMALLOC_COUNT=F   at exit, the number of allocations made is
 *	                        written to F (the range of N worth trying)
 *	SR_FAILMALLOC_TRACE=1   the failing call's stack on stderr
 *	SR_FAILMALLOC_SPARE=A,B an allocation made by a library whose file
 *	                        name holds A or B (its frames among the
 *	                        last few) never fails: libraries that crash
 *	                        on their own failed allocation (libtraceevent
 *	                        1.7 in tep_parse_event) are not ours to test
 *
 * Every entry point of the allocator that hands out memory counts:
 * malloc, calloc, realloc (to a non-zero size), reallocarray, the
 * aligned ones; strdup and the rest of libc call malloc, so they count
 * too.  The memory comes from the allocator that follows this library
 * (dlsym RTLD_NEXT): glibc's, or in the sanitizer build ASan's (run with
 * ASAN_OPTIONS=verify_asan_link_order=0), which then still checks every
 * use.  What dlsym allocates while the real functions are looked up
 * comes from a small static arena, never freed.  The library removes
 * itself from LD_PRELOAD at load: the programs the tool starts (gnuplot,
 * GNU parallel) allocate normally.
 */
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dlfcn.h>

/* glibc declares it in <malloc.h>, which would bring its own macros */
void *memalign(size_t a, size_t n);

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void *(*next_memalign)(size_t, size_t);
static void (*next_free)(void *);

/* dlsym's own allocations, before the real functions are known */
static _Alignas(64) char arena[16384];
static size_t arena_used;
static int resolving;

static void *arena_alloc(size_t n)
{
	void *p;

	n = (n + 63) & ~(size_t)63;
	if (arena_used + n > sizeof(arena))
		return NULL;
	p = arena + arena_used;
	arena_used += n;
	return p;
}

static int in_arena(const void *p)
{
	return (const char *)p >= arena && (const char *)p < arena + sizeof(arena);
}

static void resolve(void)
{
	if (next_malloc || resolving)
		return;
	resolving = 1;
	next_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	next_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	next_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
	next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	resolving = 0;
}

static atomic_ulong calls;
static unsigned long fail_at;
static int fail_from, trace, ready;
static char count_path[4096], spare[256];

static void at_exit(void)
{
	char buf[32];
	int fd, n;

	if (!count_path[0])
		return;
	fd = open(count_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%lu\n", atomic_load(&calls));
	if (write(fd, buf, (size_t)n) < 0) {
		/* nothing to do: the count is lost */
	}
	close(fd);
}

__attribute__((constructor)) static void init(void)
{
	const char *s = getenv("SR_FAILMALLOC"), *c;
	void *frames[2];

	fail_at = s ? strtoul(s, NULL, 10) : 0;
	fail_from = (s = getenv("SR_FAILMALLOC_FROM")) && *s == '1';
	trace = (s = getenv("SR_FAILMALLOC_TRACE")) && *s == '1';
	if ((s = getenv("SR_FAILMALLOC_SPARE")) && strlen(s) < sizeof(spare))
		strcpy(spare, s);
	if ((c = getenv("SR_FAILMALLOC_COUNT")) && strlen(c) < sizeof(count_path)) {
		strcpy(count_path, c);
		atexit(at_exit);
	}
	resolve();
	backtrace(frames, 2); /* loads libgcc_s now, not when failing */
	unsetenv("LD_PRELOAD");
	ready = 1;
}

/* Is a frame of the caller's last few in a library named in spare? */
static int spared(void)
{
	void *frames[8];
	int n;

	if (!spare[0])
		return 0;
	n = backtrace(frames, 8);
	for (int i = 2; i < n; i++) {
		Dl_info info;

		if (!dladdr(frames[i], &info) || !info.dli_fname)
			continue;
		for (const char *w = spare; *w;) {
			size_t len = strcspn(w, ",");
			char name[64];

			if (len && len < sizeof(name)) {
				memcpy(name, w, len);
				name[len] = '\0';
				if (strstr(info.dli_fname, name))
					return 1;
			}
			w += len + (w[len] == ',');
		}
	}
	return 0;
}

/* Should this allocation fail? */
static int fails(void)
{
	unsigned long k;

	if (!ready)
		return 0; /* the loader's and ours, before main: not counted */
	k = atomic_fetch_add(&calls, 1) + 1;
	if (!fail_at || (fail_from ? k < fail_at : k != fail_at) || spared())
		return 0;
	if (trace && k == fail_at) {
		void *frames[64];
		int n = backtrace(frames, 64);
		static const char head[] = "failmalloc: allocation failed here:\n";

		if (write(2, head, sizeof(head) - 1) < 0) {
			/* stderr closed: no trace */
		}
		backtrace_symbols_fd(frames, n, 2);
	}
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t n)
{
	resolve();
	if (!next_malloc)
		return arena_alloc(n);
	return fails() ? NULL : next_malloc(n);
}

void *calloc(size_t k, size_t n)
{
	resolve();
	if (!next_calloc) {
		void *p = n && k > (size_t)-1 / n ? NULL : arena_alloc(k * n);

		return p; /* the arena is zero */
	}
	return fails() ? NULL : next_calloc(k, n);
}

void free(void *p)
{
	if (!p || in_arena(p))
		return;
	resolve();
	if (next_free)
		next_free(p);
}

void *realloc(void *p, size_t n)
{
	resolve();
	if (in_arena(p)) {
		void *q = malloc(n);

		if (q)
			memcpy(q, p, n < (size_t)(arena + sizeof(arena) - (char *)p) ?
			       n : (size_t)(arena + sizeof(arena) - (char *)p));
		return q;
	}
	if (!next_realloc)
		return NULL;
	if (p && n == 0)
		return next_realloc(p, n);
	return fails() ? NULL : next_realloc(p, n);
}

void *reallocarray(void *p, size_t k, size_t n)
{
	if (n && k > (size_t)-1 / n) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, k * n);
}

void *memalign(size_t a, size_t n)
{
	resolve();
	if (!next_memalign)
		return NULL;
	return fails() ? NULL : next_memalign(a, n);
}

void *aligned_alloc(size_t a, size_t n)
{
	return memalign(a, n);
}

int posix_memalign(void **out, size_t a, size_t n)
{
	void *p = memalign(a, n);

	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

void *valloc(size_t n)
{
	return memalign((size_t)sysconf(_SC_PAGESIZE), n);
}
