/*
 * cmd-convert: `schedreplay convert TRACE [-o FILE]`: any supported input
 * to the native text format.  Reading the output back gives the same
 * event stream and task table.
 */
#include <stdio.h>
#include <string.h>

#include "lib/path.h"
#include "builtin.h"
#include "lib/outfile.h"
#include "parse/native-write.h"
#include "parse/reader.h"

static const char usage_text[] =
	"usage: schedreplay convert [--input-format NAME] [--lenient] "
	"[-o FILE] TRACE\n"
	"  TRACE               a trace file (plain or gzip), or - for stdin\n"
	"  -o FILE             write here (default: stdout; - is stdout)\n"
	"  --input-format NAME perf, ftrace, trace-cmd, systrace, native "
	"(default: detect)\n"
	"  --lenient           skip malformed lines and report how many\n";

/* Warnings every command gives after a read: lost events, bad lines. */
static void report_read(const struct sr_reader *r)
{
	const struct sr_read_stats *st = sr_reader_stats(r);

	if (st->bad_lines)
		sr_warn("%s: skipped %llu malformed line%s (--lenient)",
			sr_reader_path(r), (unsigned long long)st->bad_lines,
			st->bad_lines == 1 ? "" : "s");
	for (size_t i = 0; i < st->nlost; i++) {
		const struct sr_lost_range *l = &st->lost[i];
		char cpu[24];

		if (l->cpu >= 0)
			snprintf(cpu, sizeof(cpu), "cpu %d", (int)l->cpu);
		else
			snprintf(cpu, sizeof(cpu), "an unknown cpu");
		char count[40];

		if (l->count)
			snprintf(count, sizeof(count), "%llu events",
				 (unsigned long long)l->count);
		else
			snprintf(count, sizeof(count), "an unknown number of "
				 "events");
		sr_warn("%s: %s lost on %s between %lld.%09lld and "
			"%lld.%09lld", sr_reader_path(r), count, cpu,
			(long long)(l->from_ts / 1000000000),
			(long long)(l->from_ts % 1000000000),
			(long long)(l->to_ts / 1000000000),
			(long long)(l->to_ts % 1000000000));
	}
}

int cmd_convert(int argc, char **argv, struct sr_diag *d)
{
	struct sr_read_opts opts = { 0 };
	const char *out = "-", *path = NULL;
	struct sr_reader *r = NULL;
	struct sr_outfile *o = NULL;
	struct sr_native_writer *w = NULL;
	struct sr_event ev;
	char comment[160];
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return SR_OK;
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			out = argv[++i];
			if (sr_outpath_check("-o", out, d))
				return d->code;
		} else if (!strcmp(a, "--input-format") && i + 1 < argc) {
			opts.format = argv[++i];
		} else if (!strncmp(a, "--input-format=", 15)) {
			opts.format = a + 15;
		} else if (!strcmp(a, "--lenient")) {
			opts.lenient = true;
		} else if (a[0] == '-' && a[1] != '\0') {
			fputs(usage_text, stderr);
			return sr_fail(d, SR_EUSAGE, "convert: unknown option '%s'",
				       a);
		} else if (!path) {
			path = a;
		} else {
			fputs(usage_text, stderr);
			return sr_fail(d, SR_EUSAGE, "convert: one TRACE only");
		}
	}
	if (!path) {
		fputs(usage_text, stderr);
		return sr_fail(d, SR_EUSAGE, "convert: no TRACE given");
	}
	if (sr_reader_open(&r, path, &opts, d) != SR_OK)
		return d->code;
	if (sr_outfile_open(&o, out, d) != SR_OK)
		goto fail;
	snprintf(comment, sizeof(comment), "converted by schedreplay from %s "
		 "text", sr_reader_format(r));
	if (sr_native_writer_new(&w, sr_outfile_fp(o), comment, d) != SR_OK)
		goto fail;
	while ((rc = sr_reader_next(r, &ev, d)) == 1)
		if (sr_native_write(w, &ev, sr_reader_tasks(r), d) != SR_OK)
			goto fail;
	if (rc < 0)
		goto fail;
	sr_native_writer_free(w);
	w = NULL;
	rc = sr_outfile_commit(o, d);
	o = NULL;
	if (rc == SR_OK)
		report_read(r);
	sr_reader_close(r);
	return rc;
fail:
	sr_native_writer_free(w);
	sr_outfile_abort(o);
	sr_reader_close(r);
	return d->code ? d->code : SR_EINTERNAL;
}
