/*
 * builtin/report: `schedreplay report TRACE -o DIR`: DIR/index.html, one
 * self-contained page with the verdict, a sortable task table and the
 * plots inline as SVG panels (plots/report.h).
 */
#include <stdio.h>

#include "builtin.h"
#include "lib/progress.h"
#include "compare/diff.h"
#include "compare/load.h"
#include "compare/source.h"
#include "plots/plot.h"
#include "plots/report.h"

int cmd_report(int argc, char **argv, struct sr_diag *d)
{
	struct cmp_load_opts o = { .cmd = "report" };
	struct sr_progress pg;
	bool quiet = false;
	struct pl_plot_opts po = { .format = PL_FMT_SVG, .render = true,
				   .panels = true };
	const struct po_option opts[] = {
		OPT_COMPARE(&o, "the policies compared: the first (the "
				"baseline) against each of the others "
				"(default: stock, o11int); repeat for up to 8",
			    "tasks whose comm matches this pcre2 regex"),
		OPT_GROUPS(&o),
		OPT_GROUP("output"),
		OPT_FLAG('q', "quiet", &quiet, "no progress line on a terminal"),
		OPT_PATH('o', "output", &po.outdir, "DIR",
			   "where index.html (and the plots' scripts, data "
			   "and SVG) go; required"),
		OPT_DRAW(&po),
		OPT_END(),
	};
	const struct po_cmd cmd = {
		.name = "report",
		PO_ONE_TRACE,
		.about = "Writes DIR/index.html (-o DIR is required): one "
			"self-contained page (nothing loaded from elsewhere) with "
			"the verdict, a task table to sort and filter, and the plots "
			"inline as SVG, laid out to the window's width. "
			CMP_TRACE_ABOUT,
		.opts = opts,
	};
	struct cmp_loaded ld;
	struct cmp_ndiff nd = { 0 };
	struct pl_plot_files pf = { 0 };
	struct sr_diag pd = SR_DIAG_INIT;
	size_t n;
	int rc, prc = SR_OK;

	if ((rc = po_parse(&cmd, argc, argv, &o.trace, &n, d)))
		return rc == PO_HELP ? SR_OK : rc;
	sr_progress_init(&pg, "report", quiet);
	o.progress = &pg;
	if (!po.outdir)
		return sr_fail(d, SR_EUSAGE, "report: expected -o DIR");
	rc = cmp_cmd_load(&o, 2, CMP_MAX_RUNS, &ld, d);
	if (rc == SR_OK)
		rc = cmp_ndiff_build(&nd, &ld.set, ld.re, d);
	if (rc == SR_OK)
		rc = cmp_verdict_build_n(&nd, &ld.set, d);
	if (rc == SR_OK) {
		po.re = ld.re;
		prc = pl_plot_all(&ld.set, &po, &pf, &pd);
		if (prc != SR_OK && prc != SR_ENOGNUPLOT) {
			rc = sr_fail(d, prc, "%s", pd.msg);
		} else {
			rc = pl_report_write(&nd, &pf, po.outdir,
					     prc ? "The plots could not be "
						   "drawn: gnuplot is missing "
						   "or failed (see the "
						   "message on stderr); "
						   "install it with apt-get "
						   "install gnuplot-nox and "
						   "run schedreplay report "
						   "again."
						 : NULL,
					     d);
			if (rc == SR_OK && prc) {
				/* the page is written; report why it has no plots */
				rc = sr_fail(d, prc, "%s (%s/index.html has "
						     "the tables only)",
					     pd.msg, po.outdir);
			}
			if (rc == SR_OK)
				printf("%s/index.html\n", po.outdir);
		}
	}
	cmp_ndiff_free(&nd);
	pl_plot_files_free(&pf);
	cmp_loaded_free(&ld);
	return rc;
}
