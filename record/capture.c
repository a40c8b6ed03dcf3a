/*
 * capture: the context read from the machine (see capture.h).  Every file
 * is named under three roots, /proc, /sys and /boot, which a test may
 * point at a tree of its own (sr_capture_roots).
 *
 * Per task (a thread is read by its tid, /proc/TID):
 *   stat       session (6), nice (19), rt_priority (40), policy (41)
 *   status     Tgid, Cpus_allowed_list
 *   autogroup  "/autogroup-N nice K" (CONFIG_SCHED_AUTOGROUP); empty when
 *              the task is in none (the root group): autogroup 0
 *   cgroup     the cpu controller's line (v1 "N:...cpu...:PATH"), else the
 *              unified one ("0::PATH"); its group is the nearest ancestor
 *              that has cpu.weight (v2) or cpu.shares (v1), whose weight
 *              is read once per group (v1 shares as the kernel converts
 *              them: shares x 100 / 1024, rounded, within 1..10000)
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "lib/grow.h"
#include "parse/ctxtext.h"
#include "parse/event.h"
#include "parse/tasks.h"
#include "record/capture.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* A kind of failure of a live task's file, counted, said once. */
struct miss {
	char *what;      /* "autogroup: No such file or directory" */
	uint64_t n;
};

struct sr_capture {
	struct sr_context *c;
	size_t captask, capcg, capcpu, capunread;
	char proc[256], sys[256], boot[256];
	char cg_v1[512];      /* the v1 cpu controller's mount, "" none */
	char cg_v2[512];      /* the unified hierarchy's mount, "" none */
	uint8_t *tree;        /* pids of the recorded command's tree */
	size_t ntree;         /* bytes */
	uint64_t read, gone;
	struct miss *miss;
	size_t nmiss;
};

static int oom(struct sr_diag *d)
{
	return sr_oom(d);
}

static int unread(struct sr_capture *c, struct sr_diag *d, const char *fmt,
		  ...) __attribute__((format(printf, 3, 4)));

static int unread(struct sr_capture *c, struct sr_diag *d, const char *fmt,
		  ...)
{
	struct sr_context *x = c->c;
	char **v;
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return oom(d);
	v = sr_grow(x->unread, &c->capunread, x->nunread, sizeof(*v), 8, 0);
	if (!v) {
		free(s);
		return oom(d);
	}
	x->unread = v;
	x->unread[x->nunread++] = s;
	return SR_OK;
}

/* A small file whole, NUL-terminated; its length, or -1 with errno. */
static ssize_t slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;
	int e;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	e = ferror(f) ? errno : 0;
	fclose(f);
	if (e) {
		errno = e;
		return -1;
	}
	buf[n] = '\0';
	return (ssize_t)n;
}

static bool read_i64(const char *path, int64_t *v)
{
	char buf[64], *e;

	if (slurp(path, buf, sizeof(buf)) <= 0)
		return false;
	errno = 0;
	*v = strtoll(buf, &e, 10);
	return !errno && e != buf && (*e == '\n' || *e == '\0');
}

/* A cpu list of /sys or /proc, to its line's end, into a set. */
static bool cpulist(const char *s, struct sr_cpuset *set)
{
	return sr_cpuset_parse(s, strcspn(s, "\n"), set);
}

/* The lowest cpu of a list, -1 if none. */
static int32_t lowest(const char *path)
{
	char buf[4096], *e;
	long v;

	if (slurp(path, buf, sizeof(buf)) <= 0)
		return -1;
	v = strtol(buf, &e, 10);
	return e == buf || v < 0 ? -1 : (int32_t)v;
}

/* ---- mounts ------------------------------------------------------------ */

/* mountinfo's octal escapes (\040 for a blank) undone in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static bool has_word(const char *list, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t k = e ? (size_t)(e - p) : strlen(p);

		if (k == n && !strncmp(p, w, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

static void find_cgroup_mounts(struct sr_capture *c)
{
	char path[300], line[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/self/mountinfo", c->proc);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *dash = strstr(line, " - "), *mnt, *fs, *super;
		char *tok[6];
		int n = 0;

		if (!dash)
			continue;
		*dash = '\0';
		for (char *p = strtok(line, " "); p && n < 6;
		     p = strtok(NULL, " "))
			tok[n++] = p;
		if (n < 5)
			continue;
		mnt = tok[4];
		fs = strtok(dash + 3, " ");
		(void)strtok(NULL, " "); /* source */
		super = strtok(NULL, " \n");
		if (!fs)
			continue;
		unescape(mnt);
		if (!strcmp(fs, "cgroup2") && !c->cg_v2[0])
			snprintf(c->cg_v2, sizeof(c->cg_v2), "%s", mnt);
		else if (!strcmp(fs, "cgroup") && super &&
			 has_word(super, "cpu") && !c->cg_v1[0])
			snprintf(c->cg_v1, sizeof(c->cg_v1), "%s", mnt);
	}
	fclose(f);
}

/* ---- the kernel and the machine ---------------------------------------- */

struct kconfig {
	int32_t hz;
	const char *model;   /* the configured preemption model */
	bool dynamic, autogroup_cfg, known;
};

static void config_line(struct kconfig *k, const char *l)
{
	static const struct { const char *opt, *model; } models[] = {
		{ "CONFIG_PREEMPT_NONE=y", "none" },
		{ "CONFIG_PREEMPT_VOLUNTARY=y", "voluntary" },
		{ "CONFIG_PREEMPT=y", "full" },
		{ "CONFIG_PREEMPT_LAZY=y", "lazy" },
		{ "CONFIG_PREEMPT_RT=y", "rt" },
	};

	k->known = true;
	if (!strncmp(l, "CONFIG_HZ=", 10))
		k->hz = (int32_t)strtol(l + 10, NULL, 10);
	else if (!strncmp(l, "CONFIG_PREEMPT_DYNAMIC=y", 24))
		k->dynamic = true;
	else if (!strncmp(l, "CONFIG_SCHED_AUTOGROUP=y", 24))
		k->autogroup_cfg = true;
	for (size_t i = 0; i < NELEM(models); i++)
		if (!strncmp(l, models[i].opt, strlen(models[i].opt)) &&
		    (l[strlen(models[i].opt)] == '\n' ||
		     !l[strlen(models[i].opt)]))
			k->model = models[i].model; /* RT overrides the rest */
}

/* /proc/config.gz, else /boot/config-RELEASE. */
static int read_config(struct sr_capture *c, struct kconfig *k,
		       struct sr_diag *d)
{
	char path[600], line[512];
	gzFile z;

	snprintf(path, sizeof(path), "%s/config.gz", c->proc);
	z = gzopen(path, "rb");
	if (z) {
		while (gzgets(z, line, sizeof(line)))
			config_line(k, line);
		gzclose(z);
		return SR_OK;
	}
	if (c->c->release) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/config-%s", c->boot,
			 c->c->release);
		f = fopen(path, "re");
		if (f) {
			while (fgets(line, sizeof(line), f))
				config_line(k, line);
			fclose(f);
			return SR_OK;
		}
	}
	return unread(c, d, "the kernel's configuration (%s/config.gz, "
		      "%s/config-RELEASE): neither is there: HZ and the "
		      "preemption model unknown", c->proc, c->boot);
}

/* The preemption model: debugfs's sched/preempt names the one in use;
 * else preempt= on the command line, else the configured one. */
static int preempt_model(struct sr_capture *c, const struct kconfig *k,
			 struct sr_diag *d)
{
	char path[300], buf[256], *p;
	const char *m = k->model;

	if (!k->dynamic) {
		if (m && !(c->c->preempt = strdup(m)))
			return oom(d);
		return SR_OK;
	}
	snprintf(path, sizeof(path), "%s/kernel/debug/sched/preempt", c->sys);
	if (slurp(path, buf, sizeof(buf)) > 0 && (p = strchr(buf, '('))) {
		char *e = strchr(++p, ')');

		if (e) {
			*e = '\0';
			m = p;
		}
	} else {
		char cmd[4096];

		snprintf(path, sizeof(path), "%s/cmdline", c->proc);
		if (slurp(path, cmd, sizeof(cmd)) > 0) {
			for (char *t = strtok(cmd, " \n"); t;
			     t = strtok(NULL, " \n"))
				if (!strncmp(t, "preempt=", 8)) {
					snprintf(buf, sizeof(buf), "%s", t + 8);
					m = buf;
				}
		}
	}
	if (!m)
		m = "?";
	if (asprintf(&c->c->preempt, "dynamic:%s", m) < 0) {
		c->c->preempt = NULL;
		return oom(d);
	}
	return SR_OK;
}

/* A tunable: *ok when read, else an unread line saying why and what
 * stands in for it. */
static int tunable(struct sr_capture *c, const char *root, const char *rel,
		   int64_t *v, bool *ok, const char *instead, struct sr_diag *d)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	errno = 0;
	*ok = read_i64(path, v);
	if (*ok)
		return SR_OK;
	return unread(c, d, "%s: %s: %s", path, errno ? strerror(errno)
						      : "not a number",
		      instead);
}

static int cpus(struct sr_capture *c, struct sr_diag *d)
{
	char path[600], buf[256];
	struct sr_cpuset on = { 0, NULL };
	struct sr_context *x = c->c;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", c->sys);
	if (slurp(path, buf, sizeof(buf)) <= 0 || !cpulist(buf, &on))
		return unread(c, d, "%s: %s: cpu count and topology unknown",
			      path, errno ? strerror(errno) : "not a list");
	for (uint32_t cpu = 0; cpu < on.nbits; cpu++) {
		char base[400];
		struct sr_ctx_cpu *v;
		int64_t n;
		DIR *dir;
		struct dirent *e;
		int level = -1;

		if (!sr_cpuset_has(&on, (int32_t)cpu))
			continue;
		v = sr_grow(x->cpu, &c->capcpu, x->ncpu, sizeof(*v), 8, 0);
		if (!v) {
			free(on.w);
			return oom(d);
		}
		x->cpu = v;
		v = &x->cpu[x->ncpu++];
		*v = (struct sr_ctx_cpu){ (int32_t)cpu, -1, -1, -1, -1, -1, 1 };
		snprintf(base, sizeof(base), "%s/devices/system/cpu/cpu%u",
			 c->sys, cpu);
		snprintf(path, sizeof(path), "%s/topology/core_id", base);
		if (read_i64(path, &n) && n >= 0 && n <= INT32_MAX)
			v->core = (int32_t)n;
		snprintf(path, sizeof(path), "%s/topology/physical_package_id",
			 base);
		if (read_i64(path, &n) && n >= 0 && n <= INT32_MAX)
			v->package = (int32_t)n;
		snprintf(path, sizeof(path), "%s/topology/thread_siblings_list",
			 base);
		v->smt = lowest(path);
		/* the last-level cache: the highest level's sharers */
		for (int i = 0; i < 16; i++) {
			int64_t lv;

			snprintf(path, sizeof(path), "%s/cache/index%d/level",
				 base, i);
			if (!read_i64(path, &lv))
				break;
			if (lv >= level) {
				level = (int)lv;
				snprintf(path, sizeof(path), "%s/cache/index%d/"
					 "shared_cpu_list", base, i);
				v->llc = lowest(path);
			}
		}
		dir = opendir(base);
		while (dir && (e = readdir(dir)))
			if (!strncmp(e->d_name, "node", 4) &&
			    isdigit((unsigned char)e->d_name[4]))
				v->node = (int32_t)strtol(e->d_name + 4, NULL,
							  10);
		if (dir)
			closedir(dir);
	}
	free(on.w);
	x->ncpus = (int32_t)x->ncpu;
	return SR_OK;
}

int sr_capture_machine(struct sr_capture *c, struct sr_diag *d)
{
	struct sr_context *x = c->c;
	struct kconfig k = { 0 };
	char path[600], buf[256];
	int64_t v;
	bool ok;
	int rc;

	snprintf(path, sizeof(path), "%s/sys/kernel/osrelease", c->proc);
	if (slurp(path, buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		if (!(x->release = strdup(buf)))
			return oom(d);
	} else if ((rc = unread(c, d, "%s: %s", path, strerror(errno)))) {
		return rc;
	}
	if ((rc = read_config(c, &k, d)))
		return rc;
	if (k.hz > 0 && k.hz <= 100000)
		x->hz = k.hz;
	if ((rc = preempt_model(c, &k, d)))
		return rc;
	snprintf(path, sizeof(path), "%s/sys/kernel/sched_autogroup_enabled",
		 c->proc);
	if (read_i64(path, &v) && (v == 0 || v == 1))
		x->autogroup = (int8_t)v;
	else if (k.known && !k.autogroup_cfg)
		x->autogroup = 0; /* not built in */
	else if ((rc = unread(c, d, "%s: %s", path, strerror(errno))))
		return rc;
	if ((rc = tunable(c, c->sys, "kernel/debug/sched/base_slice_ns", &v,
			  &ok, "the model's default for the cpu count", d)))
		return rc;
	if (ok && v > 0)
		x->base_slice_ns = v;
	if ((rc = tunable(c, c->proc, "sys/kernel/sched_rt_runtime_us", &v,
			  &ok, "the kernel's default", d)))
		return rc;
	if (ok && v >= -1)
		x->rt_runtime_us = v;
	if ((rc = tunable(c, c->proc, "sys/kernel/sched_rt_period_us", &v,
			  &ok, "the kernel's default", d)))
		return rc;
	if (ok && v > 0)
		x->rt_period_us = v;
	return cpus(c, d);
}

/* ---- tasks -------------------------------------------------------------- */

static bool tree_has(const struct sr_capture *c, int32_t pid)
{
	return pid >= 0 && (size_t)pid / 8 < c->ntree &&
	       (c->tree[pid / 8] >> (pid % 8) & 1);
}

static int tree_add(struct sr_capture *c, int32_t pid, struct sr_diag *d)
{
	uint8_t *t;

	if (pid < 0)
		return SR_OK;
	t = sr_grow(c->tree, &c->ntree, (size_t)pid / 8, 1, 4096, 0);
	if (!t)
		return oom(d);
	c->tree = t;
	c->tree[pid / 8] |= (uint8_t)(1u << (pid % 8));
	return SR_OK;
}

static int miss(struct sr_capture *c, const char *file, int err,
		struct sr_diag *d)
{
	char what[160];
	struct miss *v;

	snprintf(what, sizeof(what), "%s: %s", file, strerror(err));
	for (size_t i = 0; i < c->nmiss; i++)
		if (!strcmp(c->miss[i].what, what)) {
			c->miss[i].n++;
			return SR_OK;
		}
	v = realloc(c->miss, (c->nmiss + 1) * sizeof(*v));
	if (!v)
		return oom(d);
	c->miss = v;
	v[c->nmiss].what = strdup(what);
	if (!v[c->nmiss].what)
		return oom(d);
	v[c->nmiss++].n = 1;
	return SR_OK;
}

/* The group of a cgroup path: the nearest ancestor (itself first) with a
 * weight file; its index in the context, made on first sight. */
static int cgroup_of(struct sr_capture *c, const char *mnt, bool v1,
		     const char *path, uint32_t *idx, struct sr_diag *d)
{
	struct sr_context *x = c->c;
	char p[4096], f[4700];
	int64_t w = -1;
	struct sr_ctx_cgroup *v;

	snprintf(p, sizeof(p), "%s", path);
	for (;;) {
		size_t n = strlen(p);

		snprintf(f, sizeof(f), "%s%s/%s", mnt, n > 1 ? p : "",
			 v1 ? "cpu.shares" : "cpu.weight");
		if (read_i64(f, &w) || n <= 1)
			break;
		while (n > 1 && p[n - 1] != '/')
			n--;
		p[n > 1 ? n - 1 : 1] = '\0';
	}
	if (!p[0])
		strcpy(p, "/");
	if (w >= 0 && v1) /* shares to weight, as the kernel converts */
		w = (w * 100 + 512) / 1024;
	if (w >= 0 && (w < 1 || w > 10000))
		w = w < 1 ? 1 : 10000;
	for (size_t i = x->ncgroup; i-- > 0;)
		if (!strcmp(x->cgroup[i].path, p)) {
			*idx = (uint32_t)i;
			return SR_OK;
		}
	v = sr_grow(x->cgroup, &c->capcg, x->ncgroup, sizeof(*v), 8, 0);
	if (!v)
		return oom(d);
	x->cgroup = v;
	v[x->ncgroup].path = strdup(p);
	if (!v[x->ncgroup].path)
		return oom(d);
	v[x->ncgroup].weight = (int32_t)w;
	*idx = (uint32_t)x->ncgroup++;
	return SR_OK;
}

static int task_cgroup(struct sr_capture *c, const char *dir,
		       struct sr_ctx_task *t, struct sr_diag *d)
{
	char path[600], buf[8192], *v1 = NULL, *v2 = NULL;

	snprintf(path, sizeof(path), "%s/cgroup", dir);
	if (slurp(path, buf, sizeof(buf)) < 0)
		return miss(c, "cgroup", errno, d);
	for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		char *a = strchr(l, ':'), *b = a ? strchr(a + 1, ':') : NULL;

		if (!b)
			continue;
		*b = '\0';
		if (!strcmp(a + 1, "") && !strncmp(l, "0:", 2))
			v2 = b + 1;
		else if (has_word(a + 1, "cpu"))
			v1 = b + 1;
	}
	if (v1 && c->cg_v1[0]) {
		if (cgroup_of(c, c->cg_v1, true, v1, &t->cgroup, d))
			return d->code;
	} else if (v2 && c->cg_v2[0]) {
		if (cgroup_of(c, c->cg_v2, false, v2, &t->cgroup, d))
			return d->code;
	} else {
		return miss(c, "cgroup (no cpu controller mounted)", ENOENT, d);
	}
	t->has |= SR_CTX_CGROUP;
	return SR_OK;
}

/* stat after the comm: out[k] = field k (3, the state, is 0); false
 * without fields up to 41 (policy). */
static bool stat_fields(char *buf, char *comm, size_t commsz,
			long long *out, int nout)
{
	char *open = strchr(buf, '('), *close = strrchr(buf, ')'), *p;
	int k = 3, last = 0;

	if (!open || !close || close < open || !close[1])
		return false;
	snprintf(comm, commsz, "%.*s", (int)(close - open - 1), open + 1);
	for (int i = 0; i < nout; i++)
		out[i] = 0;
	for (p = close + 2; *p && k < nout; k++) {
		out[k] = k > 3 ? strtoll(p, NULL, 10) : 0;
		last = k;
		p = strchr(p, ' ');
		if (!p)
			break;
		p++;
	}
	return last >= 41;
}

/* One task, read now, entered at ts. */
static int read_task(struct sr_capture *c, int32_t pid, int64_t ts,
		     struct sr_diag *d)
{
	struct sr_context *x = c->c;
	char dir[300], path[600], buf[8192];
	long long f[48];
	struct sr_ctx_task *t;
	ssize_t n;
	char *p;

	snprintf(dir, sizeof(dir), "%s/%d", c->proc, (int)pid);
	snprintf(path, sizeof(path), "%s/stat", dir);
	n = slurp(path, buf, sizeof(buf));
	t = sr_grow(x->task, &c->captask, x->ntask, sizeof(*t), 256, 0);
	if (!t)
		return oom(d);
	x->task = t;
	t = &x->task[x->ntask];
	*t = (struct sr_ctx_task){ .ts = ts, .pid = pid, .tgid = -1, .sid = -1,
				   .autogroup = -1, .cgroup = UINT32_MAX,
				   .in_tree = tree_has(c, pid) };
	if (n <= 0 || !stat_fields(buf, t->comm, sizeof(t->comm), f, 48)) {
		/* gone before /proc was read (or a zombie mid-read): a
		 * task of the command's tree keeps a line that says only
		 * that, so the tree stays whole; nothing else is known */
		c->gone++;
		if (t->in_tree) {
			t->comm[0] = '\0';
			x->ntask++;
		}
		return SR_OK;
	}
	x->ntask++;
	c->read++;
	if (f[6] >= 0 && f[6] <= INT32_MAX) {
		t->sid = (int32_t)f[6];
		t->has |= SR_CTX_SESSION;
	}
	if (f[19] >= -20 && f[19] <= 19) {
		t->nice = (int32_t)f[19];
		t->has |= SR_CTX_NICE;
	}
	if (f[41] >= 0 && f[41] <= 7 && f[40] >= 0 && f[40] <= 99) {
		t->policy = (int32_t)f[41];
		t->rtprio = (int32_t)f[40];
		t->has |= SR_CTX_POLICY;
	}
	snprintf(path, sizeof(path), "%s/status", dir);
	if (slurp(path, buf, sizeof(buf)) > 0) {
		if ((p = strstr(buf, "\nTgid:")))
			t->tgid = (int32_t)strtol(p + 6, NULL, 10);
		if ((p = strstr(buf, "\nCpus_allowed_list:")) &&
		    cpulist(p + 19 + strspn(p + 19, " \t"), &t->cpus))
			t->has |= SR_CTX_AFFINITY;
	} else if (miss(c, "status", errno, d)) {
		return d->code;
	}
	snprintf(path, sizeof(path), "%s/autogroup", dir);
	n = slurp(path, buf, sizeof(buf));
	if (n == 0) {
		/* empty: in no autogroup (the root task group: kernel
		 * threads, init's session) */
		t->autogroup = 0;
		t->has |= SR_CTX_AUTOGROUP;
	} else if (n > 0 && (p = strstr(buf, "/autogroup-"))) {
		char *e;

		t->autogroup = strtoll(p + 11, &e, 10);
		p = strstr(e, "nice ");
		t->autogroup_nice = p ? (int32_t)strtol(p + 5, NULL, 10) : 0;
		if (t->autogroup_nice < -20 || t->autogroup_nice > 19)
			t->autogroup_nice = 0;
		t->has |= SR_CTX_AUTOGROUP;
	} else if (x->autogroup != 0 &&
		   miss(c, "autogroup", n < 0 ? errno : EINVAL, d)) {
		return d->code;
	}
	return task_cgroup(c, dir, t, d);
}

int sr_capture_new(struct sr_capture **out, int32_t root_pid,
		   bool system_wide, struct sr_diag *d)
{
	struct sr_capture *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c || !(c->c = sr_context_new())) {
		free(c);
		return oom(d);
	}
	strcpy(c->proc, "/proc");
	strcpy(c->sys, "/sys");
	strcpy(c->boot, "/boot");
	c->c->root_pid = root_pid;
	c->c->system_wide = system_wide;
	if (tree_add(c, root_pid, d)) {
		sr_capture_free(c);
		return d->code;
	}
	find_cgroup_mounts(c);
	*out = c;
	return SR_OK;
}

void sr_capture_roots(struct sr_capture *c, const char *proc,
		      const char *sys, const char *boot)
{
	snprintf(c->proc, sizeof(c->proc), "%s", proc);
	snprintf(c->sys, sizeof(c->sys), "%s", sys);
	snprintf(c->boot, sizeof(c->boot), "%s", boot);
	c->cg_v1[0] = c->cg_v2[0] = '\0';
	find_cgroup_mounts(c);
}

void sr_capture_free(struct sr_capture *c)
{
	if (!c)
		return;
	sr_context_free(c->c);
	for (size_t i = 0; i < c->nmiss; i++)
		free(c->miss[i].what);
	free(c->miss);
	free(c->tree);
	free(c);
}

int sr_capture_scan(struct sr_capture *c, struct sr_diag *d)
{
	DIR *pd = opendir(c->proc);
	struct dirent *e;

	if (!pd)
		return sr_fail(d, SR_EIO, "%s: %s", c->proc, strerror(errno));
	while ((e = readdir(pd))) {
		char path[600];
		DIR *td;
		struct dirent *te;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s/task", c->proc, e->d_name);
		td = opendir(path);
		if (!td) { /* gone, or no task folder: the process alone */
			if (read_task(c, (int32_t)atoi(e->d_name), INT64_MIN,
				      d))
				break;
			continue;
		}
		while ((te = readdir(td)))
			if (isdigit((unsigned char)te->d_name[0]) &&
			    read_task(c, (int32_t)atoi(te->d_name), INT64_MIN,
				      d))
				break;
		closedir(td);
		if (d->code)
			break;
	}
	closedir(pd);
	return d->code;
}

int sr_capture_fork(struct sr_capture *c, int32_t parent, int32_t child,
		    int64_t ts, struct sr_diag *d)
{
	if (tree_has(c, parent) && tree_add(c, child, d))
		return d->code;
	return read_task(c, child, ts, d);
}

int sr_capture_exec(struct sr_capture *c, int32_t pid, int64_t ts,
		    struct sr_diag *d)
{
	return read_task(c, pid, ts, d);
}

int sr_capture_loss(struct sr_capture *c, int32_t cpu, uint64_t lost,
		    struct sr_diag *d)
{
	struct sr_context *x = c->c;
	struct sr_ctx_loss *v = realloc(x->loss, (x->nloss + 1) * sizeof(*v));

	if (!v)
		return oom(d);
	x->loss = v;
	v[x->nloss++] = (struct sr_ctx_loss){ cpu, lost };
	return SR_OK;
}

void sr_capture_counts(const struct sr_capture *c, uint64_t *read,
		       uint64_t *gone)
{
	*read = c->read;
	*gone = c->gone;
}

int sr_capture_take(struct sr_capture *c, struct sr_context **out,
		    struct sr_diag *d)
{
	*out = NULL;
	if (c->gone && unread(c, d, "%" PRIu64 " of %" PRIu64 " tasks ended "
			      "before /proc could be read: their context "
			      "unknown", c->gone, c->gone + c->read))
		return d->code;
	for (size_t i = 0; i < c->nmiss; i++)
		if (unread(c, d, "/proc/PID/%s (%" PRIu64 " tasks)",
			   c->miss[i].what, c->miss[i].n))
			return d->code;
	if (sr_context_done(c->c))
		return oom(d);
	*out = c->c;
	c->c = NULL;
	return SR_OK;
}
