/*
 * fuzz-perfdata: the perf.data reader (parse/fmt-perfdata.c, the
 * tracing-data parser and the tracepoint decoder), forced by name and
 * found by its magic, through the real reader API: every record path,
 * the round merge, and every error of the forced reader names FILE:OFFSET.
 */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "perf.data", "auto" };
	const char *path = fz_file(0, data, size);

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		struct sr_read_opts o = { .format = formats[i],
					   .input_buffer = 1 };
		struct sr_diag d = SR_DIAG_INIT;

		if (fz_read(path, &o, NULL, NULL, NULL, &d) == 0 && i == 0)
			fz_check_offset(path, &d);
	}
	return 0;
}
