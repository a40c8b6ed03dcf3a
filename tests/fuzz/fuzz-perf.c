/*
 * fuzz-perf: the perf script reader (parse/fmt-perf.c and the shared
 * field decoders), strict and --lenient, through the real reader API.
 * A small reorder window makes the per-cpu merge decision (merge.h)
 * reachable from short inputs.
 */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fz_file(0, data, size);
	struct sr_read_opts o = { .format = "perf", .reorder_window = 16,
				   .input_buffer = 1 };
	struct sr_diag d = SR_DIAG_INIT;

	fz_read(path, &o, NULL, NULL, NULL, &d);
	o.lenient = true;
	d = (struct sr_diag)SR_DIAG_INIT;
	fz_read(path, &o, NULL, NULL, NULL, &d);
	return 0;
}
