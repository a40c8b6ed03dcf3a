/*
 * fuzz-convert: `convert` must be a fixed point on its own output.
 * Whatever input parses (any format, --lenient) is written as native
 * text (parse/native-write.c); that text must read back without error,
 * writing it again must give the same lines after the comment line, and
 * both texts must leave the same task table (docs/trace-format.md: reading
 * the output back gives the same event stream and task table).  "info"
 * lines are left out of the line comparison: the writer emits one whenever
 * a task's attributes changed (attr_gen), also when two renames in one
 * event put back the name it had, which the second text no longer needs;
 * the task tables say whether anything was lost.
 */
#include <stdlib.h>
#include <string.h>

#include "parse/native-write.h"
#include "tests/fuzz/fuzz.h"

struct out {
	struct sr_native_writer *w;
	FILE *f;
};

static int write_event(void *ctx, struct sr_reader *r,
		       const struct sr_event *ev)
{
	struct out *o = ctx;
	struct sr_diag d = SR_DIAG_INIT;

	FZ_ASSERT(sr_native_write(o->w, ev, sr_reader_tasks(r), &d) == SR_OK,
		  "native write: %s", d.msg);
	return 0;
}

/* Convert path; 1 and the text in *buf if the whole input was read. */
static int convert(const char *path, const struct sr_read_opts *opts,
		   char **buf, size_t *len)
{
	struct out o;
	struct sr_diag d = SR_DIAG_INIT;
	int ok;

	*buf = NULL;
	o.f = open_memstream(buf, len);
	FZ_ASSERT(o.f != NULL, "open_memstream");
	FZ_ASSERT(sr_native_writer_new(&o.w, o.f, "fuzz", &d) == SR_OK,
		  "writer: %s", d.msg);
	ok = fz_read(path, opts, write_event, &o, NULL, &d);
	sr_native_writer_free(o.w);
	fclose(o.f);
	if (ok != 1) {
		free(*buf);
		*buf = NULL;
	}
	return ok == 1;
}

static const char *after_comment(const char *s)
{
	/* "#schedreplay-native 1\n# fuzz\n" */
	for (int i = 0; i < 2 && s; i++) {
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return s ? s : "";
}

/* Drop the "TIME CPU info ..." lines, in place. */
static void drop_info(char *s)
{
	char *out = s;

	while (*s) {
		char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);
		const char *sp = memchr(s, ' ', n);

		sp = sp ? memchr(sp + 1, ' ', n - (size_t)(sp + 1 - s)) : NULL;
		if (!sp || strncmp(sp, " info ", 6) != 0) {
			memmove(out, s, n);
			out += n;
		}
		s += n;
	}
	*out = '\0';
}

static void same_tasks(const char *pa, const char *pb,
		       const struct sr_read_opts *o)
{
	struct sr_diag d = SR_DIAG_INIT;
	struct sr_reader *ra, *rb;
	const struct sr_tasks *ta, *tb;

	FZ_ASSERT(fz_read(pa, o, NULL, NULL, &ra, &d) == 1 &&
		  fz_read(pb, o, NULL, NULL, &rb, &d) == 1, "re-read: %s",
		  d.msg);
	ta = sr_reader_tasks(ra);
	tb = sr_reader_tasks(rb);
	FZ_ASSERT(sr_tasks_count(ta) == sr_tasks_count(tb), "%zu tasks, then "
		  "%zu", sr_tasks_count(ta), sr_tasks_count(tb));
	for (size_t i = 0; i < sr_tasks_count(ta); i++) {
		const struct sr_task *x = sr_tasks_get(ta, (sr_tid)i);
		const struct sr_task *y = sr_tasks_get(tb, (sr_tid)i);

		FZ_ASSERT(x->pid == y->pid && !strcmp(x->comm, y->comm) &&
			  x->tgid == y->tgid && x->kthread == y->kthread &&
			  x->thread == y->thread && x->parent == y->parent &&
			  x->is_idle == y->is_idle, "task %zu: pid %d '%s' "
			  "tgid %d, then pid %d '%s' tgid %d", i, (int)x->pid,
			  x->comm, (int)x->tgid, (int)y->pid, y->comm,
			  (int)y->tgid);
	}
	sr_reader_close(ra);
	sr_reader_close(rb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sr_read_opts o = { .reorder_window = 64, .input_buffer = 1,
				   .lenient = true };
	struct sr_read_opts native = { .format = "native",
					.reorder_window = 64, .input_buffer = 1 };
	struct sr_diag d = SR_DIAG_INIT;
	char *a, *b;
	size_t alen, blen;
	const char *pa;

	if (!convert(fz_file(0, data, size), &o, &a, &alen))
		return 0;
	pa = fz_file(1, a, alen);
	if (!convert(pa, &native, &b, &blen)) {
		/* say why: read it again for the message */
		fz_read(pa, &native, NULL, NULL, NULL, &d);
		fz_fail("convert's output does not read back: %s\n%s", d.msg,
			a);
	}
	same_tasks(pa, fz_file(2, b, blen), &native);
	drop_info(a);
	drop_info(b);
	if (strcmp(after_comment(a), after_comment(b)) != 0)
		fz_fail("convert is not a fixed point on its output:\n"
			"--- first\n%s--- second\n%s", a, b);
	free(a);
	free(b);
	return 0;
}
