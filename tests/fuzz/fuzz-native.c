/*
 * fuzz-native: the native text reader (parse/fmt-native.c), strict and
 * --lenient; in strict mode anything it accepts must also be accepted
 * with a large reorder window and give the same number of events.
 */
#include "tests/fuzz/fuzz.h"

static int count(void *ctx, struct sr_reader *r, const struct sr_event *ev)
{
	(*(uint64_t *)ctx)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fz_file(0, data, size);
	struct sr_read_opts o = { .format = "native", .reorder_window = 16,
				   .input_buffer = 1 };
	struct sr_diag d = SR_DIAG_INIT;
	uint64_t small = 0, big = 0;
	int ok_small, ok_big;

	ok_small = fz_read(path, &o, count, &small, NULL, &d);
	o.reorder_window = 256;
	d = (struct sr_diag)SR_DIAG_INIT;
	ok_big = fz_read(path, &o, count, &big, NULL, &d);
	if (ok_small == 1)
		FZ_ASSERT(ok_big == 1 && small == big, "window 16 read %llu "
			  "events, window 256 %s %llu",
			  (unsigned long long)small, ok_big == 1 ? "read" :
			  "failed after", (unsigned long long)big);
	o.lenient = true;
	o.reorder_window = 16;
	d = (struct sr_diag)SR_DIAG_INIT;
	fz_read(path, &o, NULL, NULL, NULL, &d);
	return 0;
}
