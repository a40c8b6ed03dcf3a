/*
 * binary: what the perf.data and trace.dat readers do alike (binary.h).
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "parse/binary.h"

int sr_bin_start(struct sr_bin *b, struct sr_input *in, const char *name,
		 int *fd, struct sr_diag *d)
{
	int rc;

	b->file = strdup(name);
	b->scratch = (struct sr_diag)SR_DIAG_INIT;
	b->fc.d = &b->scratch;
	b->fc.file = b->file;
	tep_set_loglevel(TEP_LOG_NONE);
	if (!b->file)
		rc = sr_oom(d);
	else
		rc = sr_input_to_fd(in, fd, d);
	sr_input_close(in);
	return rc;
}

void sr_bin_counts(const struct sr_bin *b, struct sr_merge_counts *c)
{
	c->lines = b->records;
	c->skipped_events = b->skipped;
	c->failed_wakeups = b->fc.failed_wakeups;
}
