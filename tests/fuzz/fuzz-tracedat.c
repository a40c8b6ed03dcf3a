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
	fz_binary(data, size, "trace.dat");
	return 0;
}
