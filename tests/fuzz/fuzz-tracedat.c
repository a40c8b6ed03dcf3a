/*
 * fuzz-tracedat: the trace.dat reader (parse/fmt-tracedat.c over
 * libtracecmd, and the layout checks of parse/tdcheck.c that stand
 * between the file and libtracecmd), forced by name and found by its
 * magic.  Whatever the bytes, libtracecmd must never be handed a file it
 * would read past its buffers, and every error of the forced reader
 * names FILE:OFFSET.
 */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "trace.dat", "auto" };
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
