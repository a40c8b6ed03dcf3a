/*
 * ctxtext: the context's text form, written and read through one table of
 * fields per kind of line (see ctxtext.h), so the writer and the reader
 * cannot disagree on a name, a range or what "unknown" is.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "parse/ctxtext.h"
#include "parse/event.h"
#include "parse/format.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

enum ftype {
	F_I8, F_I32, F_U32IDX, F_I64, F_TS, F_POLICY, F_STR, F_COMM, F_CPUS,
};

/* One field of a line: its key, where it lives in the line's struct, its
 * type and range, the value that means unknown (the field is then not
 * written), or the bit of a task's `has` that says it is known. */
struct field {
	const char *key;
	enum ftype type;
	size_t off;
	int64_t min, max;
	int64_t unk;
	uint32_t has;   /* task: known iff has & this (0: by unk) */
	bool req;       /* the line needs it */
};

#define I8(s, k, lo, hi, u) { #k, F_I8, offsetof(struct s, k), lo, hi, u, 0, 0 }
#define I32(s, k, lo, hi, u) { #k, F_I32, offsetof(struct s, k), lo, hi, u, 0, 0 }
#define I64(s, k, lo, hi, u) { #k, F_I64, offsetof(struct s, k), lo, hi, u, 0, 0 }
#define STR(s, k) { #k, F_STR, offsetof(struct s, k), 0, 0, 0, 0, 0 }

static const struct field kernel_f[] = {
	STR(sr_context, release),
	I32(sr_context, hz, 1, 100000, 0),
	STR(sr_context, preempt),
	I8(sr_context, autogroup, 0, 1, -1),
	I64(sr_context, base_slice_ns, 1, INT64_MAX, 0),
	I64(sr_context, rt_runtime_us, -1, INT64_MAX, INT64_MIN),
	I64(sr_context, rt_period_us, 1, INT64_MAX, 0),
};

static const struct field machine_f[] = {
	I32(sr_context, ncpus, 1, SR_CPU_MAX, 0),
	I8(sr_context, system_wide, 0, 1, -1),
	I32(sr_context, root_pid, 1, INT32_MAX, -1),
};

static const struct field cpu_f[] = {
	{ "cpu", F_I32, offsetof(struct sr_ctx_cpu, cpu), 0, SR_CPU_MAX - 1,
	  -1, 0, 1 },
	I32(sr_ctx_cpu, core, 0, INT32_MAX, -1),
	I32(sr_ctx_cpu, package, 0, INT32_MAX, -1),
	I32(sr_ctx_cpu, node, 0, INT32_MAX, -1),
	I32(sr_ctx_cpu, llc, 0, SR_CPU_MAX - 1, -1),
	I32(sr_ctx_cpu, smt, 0, SR_CPU_MAX - 1, -1),
	I8(sr_ctx_cpu, online, 0, 1, -1),
};

/* cgroup: id= is its index, checked against the count by the reader */
struct cg_line {
	int32_t id;
	struct sr_ctx_cgroup g;
};

static const struct field cgroup_f[] = {
	{ "id", F_I32, offsetof(struct cg_line, id), 0, INT32_MAX, -1, 0, 1 },
	{ "weight", F_I32, offsetof(struct cg_line, g.weight), 1, 10000, -1,
	  0, 0 },
	{ "path", F_STR, offsetof(struct cg_line, g.path), 0, 0, 0, 0, 1 },
};

#define T(k, t, lo, hi, u, h, r) \
	{ #k, t, offsetof(struct sr_ctx_task, k), lo, hi, u, h, r }
static const struct field task_f[] = {
	T(pid, F_I32, 1, INT32_MAX, 0, 0, 1),
	T(ts, F_TS, INT64_MIN, INT64_MAX, 0, 0, 1),
	T(tgid, F_I32, 1, INT32_MAX, -1, 0, 0),
	T(sid, F_I32, 0, INT32_MAX, -1, SR_CTX_SESSION, 0),
	T(nice, F_I32, -20, 19, 0, SR_CTX_NICE, 0),
	T(policy, F_POLICY, 0, 7, 0, SR_CTX_POLICY, 0),
	T(rtprio, F_I32, 0, 99, 0, SR_CTX_POLICY, 0),
	T(autogroup, F_I64, 0, INT64_MAX, -1, SR_CTX_AUTOGROUP, 0),
	T(autogroup_nice, F_I32, -20, 19, 0, SR_CTX_AUTOGROUP, 0),
	T(cgroup, F_U32IDX, 0, UINT32_MAX - 1, UINT32_MAX, SR_CTX_CGROUP, 0),
	T(cpus, F_CPUS, 0, 0, 0, SR_CTX_AFFINITY, 0),
	{ "tree", F_I8, offsetof(struct sr_ctx_task, in_tree), 0, 1, 0, 0, 0 },
	T(comm, F_COMM, 0, 0, 0, 0, 0),
};

/* unread: one string */
struct unread_line {
	char *what;
};

static const struct field unread_f[] = {
	{ "what", F_STR, offsetof(struct unread_line, what), 0, 0, 0, 0, 1 },
};

static const struct field loss_f[] = {
	{ "cpu", F_I32, offsetof(struct sr_ctx_loss, cpu), -1, SR_CPU_MAX - 1,
	  INT32_MIN, 0, 1 },
	{ "lost", F_I64, offsetof(struct sr_ctx_loss, lost), 0, INT64_MAX,
	  -1, 0, 1 },
};

static const struct {
	int32_t id;
	const char *name;
} policies[] = {
	{ SR_SCHED_NORMAL, "normal" }, { SR_SCHED_FIFO, "fifo" },
	{ SR_SCHED_RR, "rr" }, { SR_SCHED_BATCH, "batch" },
	{ SR_SCHED_IDLE, "idle" }, { 6, "deadline" },
};

/* ---- writing ------------------------------------------------------------ */

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void put_cpus(FILE *f, const struct sr_cpuset *s)
{
	const char *sep = "";

	for (uint32_t i = 0; i < s->nbits;) {
		uint32_t j = i;

		if (!sr_cpuset_has(s, (int32_t)i)) {
			i++;
			continue;
		}
		while (j + 1 < s->nbits && sr_cpuset_has(s, (int32_t)j + 1))
			j++;
		if (j > i)
			fprintf(f, "%s%" PRIu32 "-%" PRIu32, sep, i, j);
		else
			fprintf(f, "%s%" PRIu32, sep, i);
		sep = ",";
		i = j + 1;
	}
}

static int64_t get_int(const void *base, const struct field *fd)
{
	const char *p = (const char *)base + fd->off;

	switch (fd->type) {
	case F_I8: return *(const int8_t *)p;
	case F_I32: case F_POLICY: return *(const int32_t *)p;
	case F_U32IDX: return *(const uint32_t *)p;
	case F_I64: case F_TS: return *(const int64_t *)p;
	default: return 0;
	}
}

static bool known(const void *base, const struct field *fd, uint32_t has)
{
	const char *p = (const char *)base + fd->off;

	if (fd->has)
		return has & fd->has;
	switch (fd->type) {
	case F_STR: return *(char *const *)p != NULL;
	case F_COMM: return *p != '\0';
	case F_CPUS: return ((const struct sr_cpuset *)p)->nbits > 0;
	case F_TS: return true;
	default: return get_int(base, fd) != fd->unk;
	}
}

static void put_line(FILE *f, const char *prefix, const char *kind,
		     const struct field *fs, size_t n, const void *base,
		     uint32_t has)
{
	fprintf(f, "%s%s", prefix, kind);
	for (size_t i = 0; i < n; i++) {
		const struct field *fd = &fs[i];
		const char *p = (const char *)base + fd->off;
		int64_t v;

		if (!known(base, fd, has))
			continue;
		fprintf(f, " %s=", fd->key);
		switch (fd->type) {
		case F_STR: put_str(f, *(char *const *)p); break;
		case F_COMM: put_str(f, p); break;
		case F_CPUS: put_cpus(f, (const struct sr_cpuset *)p); break;
		case F_TS:
			v = get_int(base, fd);
			if (v == INT64_MIN)
				fputs("start", f);
			else
				fprintf(f, "%" PRId64, v);
			break;
		case F_POLICY: {
			const char *name = NULL;

			v = get_int(base, fd);
			for (size_t k = 0; k < NELEM(policies); k++)
				if (policies[k].id == v)
					name = policies[k].name;
			if (name)
				fputs(name, f);
			else
				fprintf(f, "%" PRId64, v);
			break;
		}
		default:
			fprintf(f, "%" PRId64, get_int(base, fd));
		}
	}
	fputc('\n', f);
}

int sr_ctxtext_write(FILE *f, const struct sr_context *c, const char *prefix)
{
	fprintf(f, "%s%s\n", prefix, SR_CTXTEXT_MAGIC);
	put_line(f, prefix, "kernel", kernel_f, NELEM(kernel_f), c, 0);
	put_line(f, prefix, "machine", machine_f, NELEM(machine_f), c, 0);
	for (size_t i = 0; i < c->ncpu; i++)
		put_line(f, prefix, "cpu", cpu_f, NELEM(cpu_f), &c->cpu[i], 0);
	for (size_t i = 0; i < c->ncgroup; i++) {
		struct cg_line l = { (int32_t)i, c->cgroup[i] };

		put_line(f, prefix, "cgroup", cgroup_f, NELEM(cgroup_f), &l, 0);
	}
	for (size_t i = 0; i < c->ntask; i++)
		put_line(f, prefix, "task", task_f, NELEM(task_f), &c->task[i],
			 c->task[i].has);
	for (size_t i = 0; i < c->nunread; i++) {
		struct unread_line l = { c->unread[i] };

		put_line(f, prefix, "unread", unread_f, NELEM(unread_f), &l, 0);
	}
	for (size_t i = 0; i < c->nloss; i++)
		put_line(f, prefix, "loss", loss_f, NELEM(loss_f), &c->loss[i],
			 0);
	return ferror(f) ? -1 : 0;
}

/* ---- reading ------------------------------------------------------------ */

static int why_f(char *why, size_t whysz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why_f(char *why, size_t whysz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whysz, fmt, ap);
	va_end(ap);
	return -1;
}

static int expected(char *why, size_t whysz, const char *what,
		    const char *got, size_t n)
{
	char q[120];

	sr_quote(q, sizeof(q), got, n);
	return why_f(why, whysz, "expected %s, got '%s'", what, q);
}

/* A quoted string at s[0..n) (s[0] == '"'): its unescaped bytes into a new
 * string; *used the bytes taken.  NULL with why filled on error. */
static char *unquote(const char *s, size_t n, size_t *used, char *why,
		     size_t whysz)
{
	char *out = malloc(n + 1);
	size_t o = 0, i = 1;

	if (!out) {
		why_f(why, whysz, "out of memory");
		return NULL;
	}
	for (; i < n && s[i] != '"'; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch < 0x20 || ch == 0x7f) {
			expected(why, whysz, "a printable byte or an escape "
				 "in a quoted string", s + i, 1);
			goto fail;
		}
		if (ch != '\\') {
			out[o++] = (char)ch;
			continue;
		}
		if (++i >= n)
			break;
		switch (s[i]) {
		case '"': case '\\': out[o++] = s[i]; break;
		case 'n': out[o++] = '\n'; break;
		case 't': out[o++] = '\t'; break;
		case 'x': {
			unsigned v = 0;

			for (int k = 0; k < 2; k++) {
				char h = ++i < n ? s[i] : '\0';

				if (h >= '0' && h <= '9')
					v = v * 16 + (unsigned)(h - '0');
				else if (h >= 'a' && h <= 'f')
					v = v * 16 + (unsigned)(h - 'a' + 10);
				else {
					expected(why, whysz, "two lower-case "
						 "hex digits after \\x",
						 s + i - k - 1, k + 2);
					goto fail;
				}
			}
			if (v == 0) {
				expected(why, whysz, "a byte other than NUL",
					 "\\x00", 4);
				goto fail;
			}
			out[o++] = (char)v;
			break;
		}
		default:
			expected(why, whysz, "an escape \\\" \\\\ \\n \\t or "
				 "\\xHH", s + i - 1, 2);
			goto fail;
		}
	}
	if (i >= n) {
		expected(why, whysz, "a closing '\"'", s, n);
		goto fail;
	}
	out[o] = '\0';
	*used = i + 1;
	return out;
fail:
	free(out);
	return NULL;
}

static bool parse_i64(const char *s, size_t n, int64_t *v)
{
	char buf[32], *end;
	long long x;

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!((buf[0] >= '0' && buf[0] <= '9') ||
	      (buf[0] == '-' && n > 1 && buf[1] >= '0' && buf[1] <= '9')))
		return false;
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (errno || *end)
		return false;
	*v = x;
	return true;
}

bool sr_cpuset_parse(const char *s, size_t n, struct sr_cpuset *set)
{
	size_t i = 0;
	uint32_t top = 0;

	free(set->w);
	set->w = NULL;
	set->nbits = 0;
	if (n == 0)
		return false;
	/* twice: the highest cpu first, then the bits */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			set->nbits = (top / 64 + 1) * 64;
			set->w = calloc(set->nbits / 64, sizeof(*set->w));
			if (!set->w)
				return set->nbits = 0, false;
		}
		for (i = 0; i < n;) {
			int64_t a, b;
			size_t j = i;

			while (j < n && s[j] >= '0' && s[j] <= '9')
				j++;
			if (!parse_i64(s + i, j - i, &a))
				goto bad;
			b = a;
			if (j < n && s[j] == '-') {
				size_t k = ++j;

				while (j < n && s[j] >= '0' && s[j] <= '9')
					j++;
				if (!parse_i64(s + k, j - k, &b))
					goto bad;
			}
			if (a > b || b >= SR_CPU_MAX)
				goto bad;
			if (pass == 0 && (uint32_t)b > top)
				top = (uint32_t)b;
			for (int64_t c = a; pass == 1 && c <= b; c++)
				set->w[c / 64] |= 1ull << (c % 64);
			if (j < n && s[j] != ',')
				goto bad;
			i = j + (j < n);
			if (j < n && i == n)
				goto bad; /* a trailing comma */
		}
	}
	return true;
bad:
	free(set->w);
	set->w = NULL;
	set->nbits = 0;
	return false;
}

static int set_field(void *base, const struct field *fd, const char *v,
		     size_t vn, bool quoted, uint32_t *has, char *why,
		     size_t whysz)
{
	char *p = (char *)base + fd->off;
	char what[96];
	int64_t x = 0;

	if ((fd->type == F_STR || fd->type == F_COMM) != quoted) {
		snprintf(what, sizeof(what), "%s=%s", fd->key, quoted ?
			 "a number or word, unquoted" : "a quoted string");
		return expected(why, whysz, what, v, vn);
	}
	switch (fd->type) {
	case F_STR:
		free(*(char **)p);
		*(char **)p = (char *)v; /* unquoted by the caller: ours now */
		break;
	case F_COMM:
		if (vn >= SR_COMM_MAX) {
			snprintf(what, sizeof(what), "comm= of at most %d "
				 "bytes", SR_COMM_MAX - 1);
			return expected(why, whysz, what, v, vn);
		}
		memcpy(p, v, vn);
		p[vn] = '\0';
		break;
	case F_CPUS:
		if (!sr_cpuset_parse(v, vn, (struct sr_cpuset *)p)) {
			snprintf(what, sizeof(what), "cpus= a list of cpu "
				 "numbers below %d such as 0-3,6", SR_CPU_MAX);
			return expected(why, whysz, what, v, vn);
		}
		break;
	case F_TS:
		if (vn == 5 && !memcmp(v, "start", 5)) {
			*(int64_t *)p = INT64_MIN;
			break;
		}
		if (!parse_i64(v, vn, &x) || x < 0)
			return expected(why, whysz, "ts= 'start' or a time in "
					"nanoseconds (0 or more)", v, vn);
		*(int64_t *)p = x;
		break;
	case F_POLICY:
		x = -1;
		for (size_t k = 0; k < NELEM(policies); k++)
			if (strlen(policies[k].name) == vn &&
			    !memcmp(policies[k].name, v, vn))
				x = policies[k].id;
		if (x < 0 && (!parse_i64(v, vn, &x) || x < fd->min ||
			      x > fd->max))
			return expected(why, whysz, "policy= normal, fifo, "
					"rr, batch, idle, deadline or a number "
					"0 to 7", v, vn);
		*(int32_t *)p = (int32_t)x;
		break;
	default:
		if (!parse_i64(v, vn, &x) || x < fd->min || x > fd->max) {
			snprintf(what, sizeof(what), "%s= a whole number from "
				 "%" PRId64 " to %" PRId64, fd->key, fd->min,
				 fd->max);
			return expected(why, whysz, what, v, vn);
		}
		if (fd->type == F_I8)
			*(int8_t *)p = (int8_t)x;
		else if (fd->type == F_I32)
			*(int32_t *)p = (int32_t)x;
		else if (fd->type == F_U32IDX)
			*(uint32_t *)p = (uint32_t)x;
		else
			*(int64_t *)p = x;
	}
	*has |= fd->has;
	return 0;
}

/* The fields of one line after its kind, into base by the table. */
static int parse_fields(const char *s, size_t n, const struct field *fs,
			size_t nf, void *base, uint32_t *has, char *why,
			size_t whysz)
{
	uint64_t seen = 0;
	size_t i = 0;

	while (i < n) {
		size_t k = i, kn, used;
		const struct field *fd = NULL;
		const char *v;
		char *str = NULL;
		size_t vn;
		bool quoted;

		if (s[i] != ' ')
			return expected(why, whysz, "one space between fields",
					s + i, n - i > 20 ? 20 : n - i);
		k = ++i;
		while (i < n && s[i] != '=' && s[i] != ' ')
			i++;
		kn = i - k;
		for (size_t j = 0; j < nf; j++)
			if (strlen(fs[j].key) == kn &&
			    !memcmp(fs[j].key, s + k, kn))
				fd = &fs[j];
		if (!fd || i >= n || s[i] != '=') {
			char what[256];
			size_t w = 0;

			w += (size_t)snprintf(what, sizeof(what), "a field");
			for (size_t j = 0; j < nf && w < sizeof(what); j++)
				w += (size_t)snprintf(what + w, sizeof(what) - w,
					       "%s%s=", j ? ", " : " ",
					       fs[j].key);
			return expected(why, whysz, what, s + k, kn);
		}
		if (seen & (1ull << (fd - fs)))
			return expected(why, whysz, "each field once", s + k,
					kn);
		seen |= 1ull << (fd - fs);
		i++;
		quoted = i < n && s[i] == '"';
		if (quoted) {
			str = unquote(s + i, n - i, &used, why, whysz);
			if (!str)
				return -1;
			v = str;
			vn = strlen(str);
			i += used;
		} else {
			size_t st = i;

			while (i < n && s[i] != ' ')
				i++;
			v = s + st;
			vn = i - st;
		}
		if (set_field(base, fd, v, vn, quoted, has, why, whysz)) {
			free(str);
			return -1;
		}
		if (fd->type == F_COMM)
			free(str);
	}
	for (size_t j = 0; j < nf; j++)
		if (fs[j].req && !(seen & (1ull << j))) {
			char what[64];

			snprintf(what, sizeof(what), "a field %s=", fs[j].key);
			return expected(why, whysz, what, s, n > 40 ? 40 : n);
		}
	return 0;
}

static void *push(void **arr, size_t *n, size_t *cap, size_t elem,
		  char *why, size_t whysz)
{
	void *a = sr_grow(*arr, cap, *n, elem, 8, 0);

	if (!a) {
		why_f(why, whysz, "out of memory");
		return NULL;
	}
	*arr = a;
	return (char *)a + (*n)++ * elem;
}

int sr_ctxread_start(struct sr_ctxread *r)
{
	memset(r, 0, sizeof(*r));
	r->c = sr_context_new();
	return r->c ? 0 : -1;
}

void sr_ctxread_abort(struct sr_ctxread *r)
{
	sr_context_free(r->c);
	r->c = NULL;
}

int sr_ctxtext_line(struct sr_ctxread *r, const char *s, size_t n, char *why,
		    size_t whysz)
{
	struct sr_context *c = r->c;
	size_t k = 0;

	while (k < n && s[k] != ' ')
		k++;
	if (!r->magic) {
		if (n != strlen(SR_CTXTEXT_MAGIC) ||
		    memcmp(s, SR_CTXTEXT_MAGIC, n))
			return expected(why, whysz, "the context's first line '"
					SR_CTXTEXT_MAGIC "'", s, n);
		r->magic = 1;
		return 0;
	}
#define IS(w) (k == sizeof(w) - 1 && !memcmp(s, w, k))
	if (IS("kernel"))
		return parse_fields(s + k, n - k, kernel_f, NELEM(kernel_f), c,
				    &(uint32_t){ 0 }, why, whysz);
	if (IS("machine"))
		return parse_fields(s + k, n - k, machine_f, NELEM(machine_f),
				    c, &(uint32_t){ 0 }, why, whysz);
	if (IS("cpu")) {
		struct sr_ctx_cpu *x = push((void **)&c->cpu, &c->ncpu,
					    &r->capcpu, sizeof(*x), why, whysz);

		if (!x)
			return -1;
		*x = (struct sr_ctx_cpu){ -1, -1, -1, -1, -1, -1, -1 };
		return parse_fields(s + k, n - k, cpu_f, NELEM(cpu_f), x,
				    &(uint32_t){ 0 }, why, whysz);
	}
	if (IS("cgroup")) {
		struct cg_line l = { -1, { NULL, -1 } };
		struct sr_ctx_cgroup *x;

		if (parse_fields(s + k, n - k, cgroup_f, NELEM(cgroup_f), &l,
				 &(uint32_t){ 0 }, why, whysz)) {
			free(l.g.path);
			return -1;
		}
		if ((size_t)l.id != c->ncgroup) {
			char want[48];

			free(l.g.path);
			snprintf(want, sizeof(want), "cgroup id=%zu (the next "
				 "in order)", c->ncgroup);
			return expected(why, whysz, want, s, n);
		}
		x = push((void **)&c->cgroup, &c->ncgroup, &r->capcg,
			 sizeof(*x), why, whysz);
		if (!x) {
			free(l.g.path);
			return -1;
		}
		*x = l.g;
		return 0;
	}
	if (IS("task")) {
		struct sr_ctx_task *x = push((void **)&c->task, &c->ntask,
					     &r->captask, sizeof(*x), why,
					     whysz);

		if (!x)
			return -1;
		*x = (struct sr_ctx_task){ .tgid = -1, .sid = -1,
					   .autogroup = -1,
					   .cgroup = UINT32_MAX };
		if (parse_fields(s + k, n - k, task_f, NELEM(task_f), x,
				 &x->has, why, whysz))
			return -1;
		if (x->cgroup != UINT32_MAX && x->cgroup >= c->ncgroup)
			return expected(why, whysz, "cgroup= the id of a "
					"cgroup line above", s, n);
		return 0;
	}
	if (IS("unread")) {
		struct unread_line l = { NULL };
		char **x;

		if (parse_fields(s + k, n - k, unread_f, NELEM(unread_f), &l,
				 &(uint32_t){ 0 }, why, whysz)) {
			free(l.what);
			return -1;
		}
		x = push((void **)&c->unread, &c->nunread, &r->capunread,
			 sizeof(*x), why, whysz);
		if (!x) {
			free(l.what);
			return -1;
		}
		*x = l.what;
		return 0;
	}
	if (IS("loss")) {
		struct sr_ctx_loss *x = push((void **)&c->loss, &c->nloss,
					     &r->caploss, sizeof(*x), why,
					     whysz);

		if (!x)
			return -1;
		*x = (struct sr_ctx_loss){ INT32_MIN, 0 };
		return parse_fields(s + k, n - k, loss_f, NELEM(loss_f), x,
				    &(uint32_t){ 0 }, why, whysz);
	}
#undef IS
	return expected(why, whysz, "a context line (kernel, machine, cpu, "
			"cgroup, task, unread or loss)", s, k);
}

int sr_ctxtext_end(struct sr_ctxread *r, struct sr_context **out, char *why,
		   size_t whysz)
{
	*out = NULL;
	if (!r->magic)
		return why_f(why, whysz, "expected a context starting '%s', "
			     "got none", SR_CTXTEXT_MAGIC);
	if (sr_context_done(r->c))
		return why_f(why, whysz, "out of memory");
	*out = r->c;
	r->c = NULL;
	return 0;
}

int sr_ctxtext_parse(struct sr_context **out, const char *buf, size_t n,
		     const char *file, unsigned long long base,
		     struct sr_diag *d)
{
	struct sr_ctxread r;
	char why[512];
	size_t i = 0;

	*out = NULL;
	if (sr_ctxread_start(&r))
		return sr_oom(d);
	if (n && buf[n - 1] == '\0')
		n--;
	while (i < n) {
		const char *nl = memchr(buf + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (buf + i)) : n - i;

		if (!nl) {
			expected(why, sizeof(why), "each context line ended by "
				 "a newline", buf + i, len);
			goto bad;
		}
		if (memchr(buf + i, '\0', len)) {
			expected(why, sizeof(why), "text without NUL bytes",
				 buf + i, len);
			goto bad;
		}
		if (sr_ctxtext_line(&r, buf + i, len, why, sizeof(why)))
			goto bad;
		i += len + 1;
	}
	if (sr_ctxtext_end(&r, out, why, sizeof(why)))
		goto bad;
	return SR_OK;
bad:
	sr_ctxread_abort(&r);
	return sr_fail(d, strstr(why, "out of memory") == why ? SR_ENOMEM
							    : SR_EDATA,
		       "%s:%llu: recording context: %s", file, base + i, why);
}
