/*
 * builtin/version: `schedreplay --version` (also -V, version): the version,
 * and the versions of the libraries this build uses, as built against and
 * as found at run time (a shared library may be newer than its header).
 */
#include <stdio.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <zlib.h>

#include "builtin.h"
#include "parse/stream.h"

#define STR_(x) #x
#define STR(x) STR_(x)

int cmd_version(int argc, char **argv, struct sr_diag *d)
{
	const struct po_option opts[] = { OPT_END() };
	const struct po_cmd cmd = {
		.name = "version",
		.min_operands = 0,
		.max_operands = 0,
		.about = "The version of schedreplay, and of the libraries it was built "
			"with (pcre2, zlib): the headers' and the libraries' found "
			"at run time; which inflates gzip (ISA-L's igzip when "
			"built with it, else zlib).",
		.opts = opts,
	};
	char pcre[64] = "?";
	uint32_t jit = 0;
	size_t n;
	int rc;

	if ((rc = po_parse(&cmd, argc, argv, NULL, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	if (pcre2_config(PCRE2_CONFIG_VERSION, pcre) < 0)
		snprintf(pcre, sizeof(pcre), "?");
	if (pcre2_config(PCRE2_CONFIG_JIT, &jit) < 0)
		jit = 0;
	printf("schedreplay %s\n", SR_VERSION);
	printf("pcre2 %s (built with %s.%s), JIT %s\n", pcre,
	       STR(PCRE2_MAJOR), STR(PCRE2_MINOR), jit ? "yes" : "no");
	printf("zlib %s (built with %s)\n", zlibVersion(), ZLIB_VERSION);
	printf("gzip inflated by %s\n", sr_stream_inflater());
	return SR_OK;
}
