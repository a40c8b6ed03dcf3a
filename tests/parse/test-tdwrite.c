/*
 * test-tdwrite: a trace.dat written by parse/tdwrite.c from ring-buffer
 * pages made here by hand, read back by the trace.dat reader.
 *
 * The pages follow the kernel's layout (header_page: a u64 timestamp, a
 * u64 commit count whose bit 31 says events were missed before the page
 * and bit 30 that their count is stored after the data; events: a u32 of
 * type_len (5 bits, the data's length in words) and time delta (27 bits),
 * then the data).  The formats and headers are this machine's own files
 * (tests/parse/data/tdwrite: 6.18's sched_switch and sched_wakeup).
 *
 * Expected, from what the pages hold:
 *   cpu 0, page at 1 s: switch swapper(0) -> hog(100) at +0,
 *                       wakeup player(200) at +1 ms,
 *                       switch hog -> player, hog R (preempted) at +1 ms
 *   cpu 1, page at 1.5 s, 5 events missed before it (stored count):
 *                       switch swapper -> other(300) at +0
 * so: 4 events and a lost marker of 5 on cpu 1 at 1.5 s, in time order
 * switch(1.0) wakeup(1.001) switch(1.001) lost(1.5) switch(1.5); the
 * context option read back as the one written (parse/ctxtext.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/path.h"
#include "parse/context.h"
#include "parse/ctxtext.h"
#include "parse/tdwrite.h"
#include "tests/parse/parsetest.h"

#define DATA "tests/parse/data/tdwrite/"
#define PAGE 4096

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(8192);

	*n = f ? fread(buf, 1, 8191, f) : 0;
	if (f)
		fclose(f);
	buf[*n] = '\0';
	CHECK_CTX("%s", path);
	CHECK(*n > 0);
	return buf;
}

/* The format's ID: line. */
static int format_id(const char *fmt)
{
	const char *p = strstr(fmt, "\nID: ");

	return p ? atoi(p + 5) : -1;
}

struct page {
	unsigned char b[PAGE];
	size_t used;   /* data bytes after the 16-byte header */
	uint64_t ts, last;
};

static void page_start(struct page *p, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	p->ts = p->last = ts;
	memcpy(p->b, &ts, 8);
}

static void put_event(struct page *p, uint64_t ts, const void *data,
		      size_t len)
{
	size_t words = (len + 3) / 4;
	uint32_t hdr = (uint32_t)words | (uint32_t)((ts - p->last) << 5);

	memcpy(p->b + 16 + p->used, &hdr, 4);
	memcpy(p->b + 16 + p->used + 4, data, len);
	p->used += 4 + words * 4;
	p->last = ts;
}

/* The commit count, with a stored count of events missed before it. */
static void page_end(struct page *p, uint64_t missed)
{
	uint64_t commit = p->used;

	if (missed) {
		commit |= (1ull << 31) | (1ull << 30);
		memcpy(p->b + 16 + p->used, &missed, 8);
	}
	memcpy(p->b + 8, &commit, 8);
}

static void common(unsigned char *e, int id, int32_t pid)
{
	uint16_t t = (uint16_t)id;

	memcpy(e, &t, 2);
	memcpy(e + 4, &pid, 4);
}

/* sched_switch of 6.18: prev_comm 8, prev_pid 24, prev_prio 28,
 * prev_state 32 (long), next_comm 40, next_pid 56, next_prio 60 */
static size_t sw(unsigned char *e, int id, const char *pc, int32_t pp,
		 int64_t state, const char *nc, int32_t np)
{
	int32_t prio = 120;

	memset(e, 0, 64);
	common(e, id, pp);
	strncpy((char *)e + 8, pc, 15);
	memcpy(e + 24, &pp, 4);
	memcpy(e + 28, &prio, 4);
	memcpy(e + 32, &state, 8);
	strncpy((char *)e + 40, nc, 15);
	memcpy(e + 56, &np, 4);
	memcpy(e + 60, &prio, 4);
	return 64;
}

/* sched_wakeup: comm 8, pid 24, prio 28, target_cpu 32 */
static size_t wk(unsigned char *e, int id, int32_t by, const char *c,
		 int32_t pid, int32_t cpu)
{
	int32_t prio = 120;

	memset(e, 0, 36);
	common(e, id, by);
	strncpy((char *)e + 8, c, 15);
	memcpy(e + 24, &pid, 4);
	memcpy(e + 28, &prio, 4);
	memcpy(e + 32, &cpu, 4);
	return 36;
}

int main(void)
{
	size_t hpn, hen, swn, wkn;
	char *hp = slurp(DATA "header_page", &hpn);
	char *he = slurp(DATA "header_event", &hen);
	char *swf = slurp(DATA "sched_switch.format", &swn);
	char *wkf = slurp(DATA "sched_wakeup.format", &wkn);
	int swid = format_id(swf), wkid = format_id(wkf);
	const struct sr_tdw_format fmts[] = {
		{ "sched", swf, swn }, { "sched", wkf, wkn },
	};
	static const char ctxtext[] = SR_CTXTEXT_MAGIC "\n"
		"kernel hz=250\nmachine ncpus=2 root_pid=100\n"
		"task pid=100 ts=start nice=5 cpus=0 comm=\"hog\"\n";
	struct sr_tdw_option opt = { SR_TD_OPTION_CONTEXT, ctxtext,
				     sizeof(ctxtext) };
	struct page p0, p1;
	unsigned char e[128];
	int fd0 = sr_tmpfile("test"), fd1 = sr_tmpfile("test");
	struct sr_tdw_cpu cpus[2] = { { fd0, PAGE }, { fd1, PAGE } };
	struct sr_tdw w = {
		.page_size = PAGE, .header_page = { hp, hpn },
		.header_event = { he, hen }, .formats = fmts, .nformats = 2,
		.cmdlines = { "100 hog\n", 8 }, .opts = &opt, .nopts = 1,
		.cpu = cpus, .ncpu = 2,
	};
	char path[4200];
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_reader *r = NULL;
	const struct sr_context *c;
	struct loaded l;
	FILE *f;
	int out;

	CHECK(swid > 0 && wkid > 0 && fd0 >= 0 && fd1 >= 0);
	page_start(&p0, 1000000000);
	put_event(&p0, 1000000000, e, sw(e, swid, "swapper/0", 0, 0, "hog",
					 100));
	put_event(&p0, 1001000000, e, wk(e, wkid, 0, "player", 200, 0));
	/* TASK_REPORT_MAX (256 on 6.x): preempted, "R+" */
	put_event(&p0, 1001000000, e, sw(e, swid, "hog", 100, 256, "player",
					 200));
	page_end(&p0, 0);
	page_start(&p1, 1500000000);
	put_event(&p1, 1500000000, e, sw(e, swid, "swapper/1", 0, 0, "other",
					 300));
	page_end(&p1, 5);
	CHECK_INT(write(fd0, p0.b, PAGE), PAGE);
	CHECK_INT(write(fd1, p1.b, PAGE), PAGE);

	snprintf(path, sizeof(path), "%s/test-tdwrite-XXXXXX", sr_tmpdir());
	out = mkstemp(path);
	f = fdopen(out, "wb");
	CHECK_INT(sr_tdw_write(f, &w, path, &d), SR_OK);
	fclose(f);

	CHECK_INT(load(&l, path), 0);
	CHECK_STR(l.msg, "");
	CHECK_STR(l.format, "trace.dat");
	CHECK_INT(l.n, 5);
	if (l.n == 5) {
		static const struct {
			int kind;
			int64_t ts;
			int cpu;
		} want[] = {
			{ SR_EV_SWITCH, 1000000000, 0 },
			{ SR_EV_WAKEUP, 1001000000, 0 },
			{ SR_EV_SWITCH, 1001000000, 0 },
			{ SR_EV_LOST, 1500000000, 1 },
			{ SR_EV_SWITCH, 1500000000, 1 },
		};

		for (size_t i = 0; i < 5; i++) {
			CHECK_CTX("event %zu", i);
			CHECK_INT(l.ev[i].kind, want[i].kind);
			CHECK_INT(l.ev[i].ts, want[i].ts);
			CHECK_INT(l.ev[i].cpu, want[i].cpu);
		}
		CHECK_INT(l.ev[2].preempt, 1);
		CHECK_INT(l.ev[3].value, 5);
	}
	CHECK_INT(l.st.nlost, 1);
	loaded_free(&l);

	/* the context, through the reader */
	CHECK_INT(sr_reader_open(&r, path, NULL, &d), SR_OK);
	c = r ? sr_reader_context(r) : NULL;
	CHECK(c != NULL);
	if (c) {
		const struct sr_ctx_task *t = sr_context_task(c, 100, 0);

		CHECK_INT(c->hz, 250);
		CHECK_INT(c->root_pid, 100);
		CHECK(t != NULL);
		if (t) {
			CHECK_INT(t->nice, 5);
			CHECK(sr_cpuset_has(&t->cpus, 0));
			CHECK(!sr_cpuset_has(&t->cpus, 1));
		}
	}
	sr_reader_close(r);

	/* a broken context is refused with its offset in the file */
	{
		static const char bad[] = SR_CTXTEXT_MAGIC "\nkernel hz=0\n";
		struct sr_tdw_option o = { SR_TD_OPTION_CONTEXT, bad,
					   sizeof(bad) };
		struct sr_diag d2 = SR_DIAG_INIT;

		w.opts = &o;
		f = fopen(path, "wb");
		CHECK_INT(sr_tdw_write(f, &w, path, &d2), SR_OK);
		fclose(f);
		CHECK_INT(load(&l, path), SR_EDATA);
		CHECK(strstr(l.msg, ": recording context: expected hz= a whole "
			     "number from 1 to 100000, got '0'") != NULL);
		loaded_free(&l);
	}
	unlink(path);
	free(hp);
	free(he);
	free(swf);
	free(wkf);
	return test_done("test-tdwrite");
}
