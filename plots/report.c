/*
 * report: the self-contained HTML page (see report.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "lib/fmt.h"
#include "lib/outfile.h"
#include "lib/path.h"
#include "plots/report.h"

static const char style[] =
	"body{font-family:sans-serif;margin:24px auto;max-width:1240px;color:#222;padding:0 16px}\n"
	"h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}\n"
	"table{border-collapse:collapse;font-size:12.5px}\n"
	"th,td{padding:2px 7px;text-align:right;border-bottom:1px solid #e4e4e4;white-space:nowrap}\n"
	"th{background:#f2f2f2;position:sticky;top:0}\n"
	"td.l,th.l{text-align:left}tr.b td{border-bottom:1px solid #bbb}\n"
	".better{color:#1e7a3c;font-weight:bold}.worse{color:#b0281b;font-weight:bold}\n"
	".wrap{max-height:640px;overflow:auto;border:1px solid #ddd}\n"
	"ul.head li{margin:4px 0}\n"
	"figure{margin:28px 0}figure svg{max-width:100%;height:auto;display:block}\n"
	"figcaption{font-size:13px;color:#444;margin-top:6px}\n"
	".note{background:#fff4e0;border:1px solid #e0b060;padding:8px}\n"
	"code{background:#f4f4f4;padding:1px 4px}\n";

static void li_line(void *ctx, const char *line)
{
	FILE *f = ctx;

	while (*line == ' ')
		line++;
	fputs("<li>", f);
	sr_html_str(f, line);
	fputs("</li>\n", f);
}

static void ms_cell(FILE *f, int64_t ns)
{
	char b[40];

	fprintf(f, "<td>%s</td>", sr_fmt_ms(b, sizeof(b), ns, 3));
}

static void write_periodic(FILE *f, const struct cmp_diff *df)
{
	const struct cmp_set *s = df->s;
	size_t runs[2] = { df->a, df->b };

	if (!df->nperiodic)
		return;
	fputs("<h2>Periodic tasks (interbench's figures)</h2>\n"
	      "<p>Deadlines met: share of periods whose CPU burst was done before the next period "
	      "began, on the recording's clock (periods start at the recorded wakeups) and on the "
	      "replay's own (periods start when the replay woke the task). Desired CPU: CPU obtained within its period as a share of the CPU wanted. "
	      "SD is the true standard deviation of the delays; &ldquo;ib SD&rdquo; is the figure "
	      "interbench prints as SD, which is really a root mean square.</p>\n", f);
	fputs("<table id=\"periodic\"><tr><th class=\"l\">task</th><th>period ms</th><th class=\"l\">policy</th>"
	      "<th>deadlines met</th><th>own clock</th><th>desired CPU</th><th>avg ms</th><th>SD ms</th><th>ib SD ms</th><th>max ms</th></tr>\n", f);
	for (size_t i = 0; i < df->nperiodic; i++) {
		const struct cmp_task *t = &s->tasks[df->periodic[i]];
		char lab[128], per[32];

		cmp_task_label(t, lab, sizeof(lab));
		sr_fmt_ms(per, sizeof(per), t->period_ns, 3);
		for (int k = 0; k < 2; k++) {
			const struct cmp_figs *fg = &t->figs[runs[k]];

			fprintf(f, "<tr%s><td class=\"l\">", k ? " class=\"b\"" : "");
			if (!k)
				sr_html_str(f, lab);
			fprintf(f, "</td><td>%s</td><td class=\"l\">", k ? "" : per);
			sr_html_str(f, s->runs[runs[k]].policy);
			fprintf(f, "</td><td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td>",
				cmp_deadlines_met_pct(fg), cmp_deadlines_met_own_pct(fg),
				cmp_desired_cpu_pct(fg));
			ms_cell(f, fg->avg_ns);
			fprintf(f, "<td>%.3f</td><td>%.3f</td>", fg->sd_ns / 1e6,
				fg->ib_sd_ns / 1e6);
			ms_cell(f, fg->max_ns);
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

static void write_table(FILE *f, const struct cmp_diff *df)
{
	const struct cmp_set *s = df->s;
	size_t runs[2] = { df->a, df->b };
	bool fewer_header = false;

	fputs("<h2>Tasks</h2>\n<p>Sorted by the change in p99 scheduling delay, first the tasks "
	      "with at least 20 waits under both policies, then those with fewer (whose p99 is a "
	      "few samples); delays in ms; change = B &minus; A, ratio = B / A.</p>\n"
	      "<div class=\"wrap\">\n", f);
	fputs("<table id=\"diff\"><tr><th class=\"l\">task</th><th class=\"l\">class</th><th class=\"l\">policy</th>"
	      "<th>runtime ms</th><th>switches</th><th>avg</th><th>p95</th><th>p99</th><th>max</th>"
	      "<th>CPU %</th><th>p99 change</th><th>ratio</th></tr>\n", f);
	for (size_t ii = 0; ii < 2 * df->nrows; ii++) {
		size_t i = ii % df->nrows;
		const struct cmp_task *t = &s->tasks[df->rows[i]];
		const struct cmp_figs *fa = &t->figs[df->a], *fb = &t->figs[df->b];
		enum cmp_verdict v = fa->present && fb->present
					    ? cmp_verdict_of(t, df->a, df->b) : CMP_SAME;
		bool many = fa->ndelays >= CMP_SELECT_MIN_WAITS &&
			    fb->ndelays >= CMP_SELECT_MIN_WAITS;
		char lab[128], b[40];

		/* the first pass takes the tasks with many waits, the second
		 * the others */
		if (many != (ii < df->nrows))
			continue;
		if (!many && !fewer_header) {
			fputs("<tr><th class=\"l\" colspan=\"12\">tasks with fewer than 20 waits under a policy</th></tr>\n", f);
			fewer_header = true;
		}

		cmp_task_label(t, lab, sizeof(lab));
		for (int k = 0; k < 2; k++) {
			const struct cmp_figs *fg = k ? fb : fa;

			fprintf(f, "<tr%s><td class=\"l\">", k ? " class=\"b\"" : "");
			if (!k)
				sr_html_str(f, lab);
			fprintf(f, "</td><td class=\"l\">%s</td><td class=\"l\">",
				k ? "" : cmp_class_name(t->cls));
			sr_html_str(f, s->runs[runs[k]].policy);
			fputs("</td>", f);
			if (!fg->present) {
				fputs("<td colspan=\"9\" class=\"l\">(not in this run)</td></tr>\n", f);
				continue;
			}
			ms_cell(f, fg->runtime_ns);
			fprintf(f, "<td>%llu</td>", (unsigned long long)fg->switches);
			ms_cell(f, fg->avg_ns);
			ms_cell(f, fg->p95_ns);
			ms_cell(f, fg->p99_ns);
			ms_cell(f, fg->max_ns);
			fprintf(f, "<td>%.1f</td>", 100.0 * fg->cpu_share);
			if (k && fa->present) {
				fprintf(f, "<td class=\"%s\">%s</td>",
					v == CMP_BETTER ? "better" : v == CMP_WORSE ? "worse" : "",
					sr_fmt_ms(b, sizeof(b), fb->p99_ns - fa->p99_ns, 3));
				if (fa->p99_ns)
					fprintf(f, "<td>%.2f</td>",
						(double)fb->p99_ns / (double)fa->p99_ns);
				else
					fputs("<td>-</td>", f);
			} else {
				fputs("<td></td><td></td>", f);
			}
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n</div>\n", f);
}

static int read_all(const char *path, char **out, size_t *len, struct sr_diag *d)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return sr_fail(d, SR_EIO, "%s: cannot open: %s", path, strerror(errno));
	for (;;) {
		size_t got;

		if (n + 65536 + 1 > cap) {
			char *p = sr_grow(buf, &cap, n + 65536, 1, 262144, 0);

			if (!p) {
				free(buf);
				fclose(f);
				return sr_fail(d, SR_EINTERNAL, "out of memory");
			}
			buf = p;
		}
		got = fread(buf + n, 1, 65536, f);
		n += got;
		if (got < 65536)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return sr_fail(d, SR_EIO, "%s: read error", path);
	}
	fclose(f);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return SR_OK;
}

/*
 * Copy a gnuplot SVG inline: drop the XML prolog, and give every id and
 * reference to one a prefix so figures on one page cannot collide.
 */
static void inline_svg(FILE *f, const char *svg, const char *prefix)
{
	static const char *const pats[] = {
		" id='", " id=\"", "href='#", "href=\"#", "url(#",
	};
	const char *p = strstr(svg, "<svg");

	if (!p)
		return;
	while (*p) {
		size_t i, best = 0;
		const char *hit = NULL;

		for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
			const char *h = strstr(p, pats[i]);

			if (h && (!hit || h < hit)) {
				hit = h;
				best = i;
			}
		}
		if (!hit) {
			fputs(p, f);
			break;
		}
		fwrite(p, 1, (size_t)(hit - p) + strlen(pats[best]), f);
		fputs(prefix, f);
		p = hit + strlen(pats[best]);
	}
}

int pl_report_write(const struct cmp_diff *df, const struct pl_plot_files *pf,
		    const char *dir, const char *plots_note, struct sr_diag *d)
{
	const struct cmp_set *s = df->s;
	struct sr_outfile *o;
	FILE *f;
	int rc;

	if ((rc = sr_outfile_open_in(&o, dir, "index.html", NULL, d)))
		return rc;
	f = sr_outfile_fp(o);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>schedreplay: ", f);
	sr_html_str(f, s->title);
	fputs(" &mdash; ", f);
	sr_html_str(f, s->runs[df->a].policy);
	fputs(" against ", f);
	sr_html_str(f, s->runs[df->b].policy);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>schedreplay: ", style);
	sr_html_str(f, s->title);
	fputs("</h1>\n<p>How the recorded workload would have been scheduled under <b>", f);
	sr_html_str(f, s->runs[df->a].policy);
	fputs("</b> (A) and under <b>", f);
	sr_html_str(f, s->runs[df->b].policy);
	fputs("</b> (B), replayed on the same demand. Which tasks are interactive, batch or periodic "
	      "is judged from the <b>", f);
	sr_html_str(f, s->ref_policy);
	fputs("</b> run.", f);
	if (s->focus) {
		fputs(" Shown: only the process tree of the first task whose comm matches <code>", f);
		sr_html_str(f, s->focus_regex);
		fprintf(f, "</code> (%zu tasks); every task was replayed.", s->focus_tasks);
	}
	fputs("</p>\n<h2>Headline</h2>\n<ul class=\"head\" id=\"headline\">\n", f);
	cmp_diff_headline(df, li_line, f);
	fputs("</ul>\n", f);
	write_periodic(f, df);
	write_table(f, df);
	fputs("<h2>Plots</h2>\n", f);
	if (plots_note && *plots_note) {
		fputs("<p class=\"note\" id=\"plots-note\">", f);
		sr_html_str(f, plots_note);
		fputs("</p>\n", f);
	}
	for (size_t i = 0; pf && i < pf->n; i++) {
		char *svgpath, prefix[48];
		char *svg = NULL;
		size_t len;

		if (!pf->rendered[i])
			continue;
		svgpath = sr_path_join(dir, pf->name[i], "svg");
		if (!svgpath) {
			sr_outfile_abort(o);
			return sr_fail(d, SR_EINTERNAL, "out of memory");
		}
		rc = read_all(svgpath, &svg, &len, d);
		free(svgpath);
		if (rc) {
			sr_outfile_abort(o);
			return d->code;
		}
		snprintf(prefix, sizeof(prefix), "%s-", pf->name[i]);
		fprintf(f, "<figure id=\"plot-%s\">\n", pf->name[i]);
		inline_svg(f, svg, prefix);
		free(svg);
		fputs("\n<figcaption>", f);
		sr_html_str(f, pf->caption[i]);
		fprintf(f, " (<code>%s.gp</code> and <code>%s.dat</code> beside this page re-draw it.)</figcaption>\n</figure>\n",
			pf->name[i], pf->name[i]);
	}
	fputs("<p style=\"font-size:12px;color:#666\">Written by schedreplay report. "
	      "The figures come from the replay's timeline.tsv, latency.tsv and summary.tsv; "
	      "docs/plots.md says how each is counted.</p>\n</body>\n</html>\n", f);
	return sr_outfile_commit(o, d);
}
