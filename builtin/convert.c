/*
 * builtin/convert: `schedreplay convert TRACE [-o FILE]`: any supported input
 * to the native text format.  Reading the output back gives the same
 * event stream and task table.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "lib/outfile.h"
#include "lib/progress.h"
#include "parse/native-write.h"
#include "parse/read-warn.h"
#include "parse/reader.h"

int cmd_convert(int argc, char **argv, struct sr_diag *d)
{
	struct sr_read_opts ropts = { 0 };
	const char *out = "-", *path = NULL;
	struct sr_reader *r = NULL;
	struct sr_outfile *o = NULL;
	struct sr_native_writer *w = NULL;
	struct sr_event ev;
	char comment[160];
	struct sr_progress pg;
	bool quiet = false;
	const struct po_option opts[] = {
		OPT_PATH('o', "output", &out, "FILE",
			   "write here (default: stdout; - is stdout)"),
		OPT_FLAG('q', "quiet", &quiet, "no progress line on a terminal"),
		OPT_READ(&ropts),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "convert",
		PO_ONE_TRACE,
		.about = "Any supported trace (plain or gzip; - is stdin) to the "
			"native "
			"text format (docs/trace-format.md).",
		.opts = opts,
	};
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, &path, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	sr_progress_init(&pg, "convert", quiet);
	ropts.progress = &pg;
	if (sr_reader_open(&r, path, &ropts, d) != SR_OK)
		return d->code;
	if (sr_outfile_open(&o, out, d) != SR_OK)
		goto fail;
	/* "perf text", "ftrace text"; the binary ones are files: "perf.data" */
	snprintf(comment, sizeof(comment), "converted by schedreplay from %s%s",
		 sr_reader_format(r),
		 strchr(sr_reader_format(r), '.') ? "" : " text");
	if (sr_native_writer_new(&w, sr_outfile_fp(o), comment, d) != SR_OK ||
	    sr_native_write_context(w, sr_reader_context(r), d) != SR_OK)
		goto fail;
	while ((rc = sr_reader_next(r, &ev, d)) == 1)
		if (sr_native_write(w, &ev, sr_reader_tasks(r), d) != SR_OK)
			goto fail;
	if (rc < 0)
		goto fail;
	{
		/* the recording's closing counts, after the events */
		const struct sr_read_stats *st = sr_reader_stats(r);

		for (size_t i = 0; i < st->nlost_cpu; i++)
			if (st->tally_cpu[i])
				sr_native_write_tally(w, st->last_ts,
						      (int32_t)i - 1,
						      st->tally_cpu[i]);
		if (st->tally_nocpu)
			sr_native_write_tally(w, st->last_ts, -1,
					      st->tally_nocpu);
	}
	sr_progress_end(&pg);
	sr_native_writer_free(w);
	w = NULL;
	rc = sr_outfile_commit(o, d);
	o = NULL;
	if (rc == SR_OK)
		sr_read_warn(sr_reader_path(r), sr_reader_stats(r), -1);
	sr_reader_close(r);
	return rc;
fail:
	sr_progress_end(&pg);
	sr_native_writer_free(w);
	sr_outfile_abort(o);
	sr_reader_close(r);
	return d->code ? d->code : SR_EINTERNAL;
}
