/*
 * fuzz-ftrace: the ftrace text family (parse/fmt-ftrace.c): tracefs
 * trace text, trace-cmd report, and systrace HTML, each forced by name
 * and --lenient, plus format detection.  A small reorder window makes
 * the per-cpu merge decision (merge.h) reachable from short inputs.
 */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = {
		"ftrace", "trace-cmd", "systrace", "auto",
	};
	const char *path = fz_file(0, data, size);

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		struct sr_read_opts o = {
			.format = formats[i], .reorder_window = 16,
			.input_buffer = 1,
			.lenient = i < 3,
		};
		struct sr_diag d = SR_DIAG_INIT;

		fz_read(path, &o, NULL, NULL, NULL, &d);
	}
	return 0;
}
