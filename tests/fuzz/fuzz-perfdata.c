/*
 * fuzz-perfdata: the perf.data reader (parse/fmt-perfdata.c, the
 * tracing-data parser and the tracepoint decoder), forced by name and
 * found by its magic, through the real reader API: every record path,
 * the round merge, and every error of the forced reader names FILE:OFFSET.
 */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_binary(data, size, "perf.data");
	return 0;
}
