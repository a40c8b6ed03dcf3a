/*
 * report: the self-contained HTML page (see report.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compare/style.h"
#include "compare/why.h"
#include "lib/grow.h"
#include "lib/fmt.h"
#include "lib/outfile.h"
#include "lib/path.h"
#include "parse/read-warn.h"
#include "plots/report.h"

static const char style[] =
	"*{box-sizing:border-box}\n"
	"body{font:15px/1.45 sans-serif;color:#222;margin:0 auto;max-width:1880px;padding:0 16px 32px}\n"
	"h1{font-size:24px;margin:20px 0 6px;overflow-wrap:anywhere}\n"
	"h2{font-size:19px;margin:34px 0 10px;border-bottom:1px solid #ccc;padding-bottom:3px}\n"
	"h3{font-size:16px;margin:22px 0 6px;overflow-wrap:anywhere}\n"
	"p,li{max-width:1100px}\n"
	"a{color:#1a5a96}\n"
	"nav{margin:8px 0;font-size:14px}nav a{margin-right:16px}\n"
	".legend{list-style:none;padding:0;margin:8px 0;display:flex;flex-wrap:wrap;gap:6px 22px}\n"
	".legend li{white-space:nowrap}.legend small{color:#666}\n"
	"svg.sw{vertical-align:middle;margin-right:5px}\n"
	".scope{color:#444}\n"
	"ul.head{padding-left:22px}ul.head li{margin:4px 0;overflow-wrap:anywhere}\n"
	".pair{margin-top:12px}\n"
	"table{border-collapse:collapse;font-size:13px;width:100%}\n"
	"th,td{padding:3px 6px;text-align:right;border-bottom:1px solid #e6e6e6;vertical-align:top}\n"
	"th{background:#f2f2f2;position:sticky;top:0;font-weight:600}\n"
	"td.l,th.l{text-align:left}td.t{overflow-wrap:anywhere}td.p{white-space:nowrap}\n"
	"tr.b td{border-bottom:1px solid #bbb}\n"
	"#tasks th{cursor:pointer;user-select:none}#tasks th:hover{background:#e6e6e6}\n"
	"#tasks th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
	"#tasks th[aria-sort=ascending]::after{content:\" \\25B2\"}\n"
	".d{display:block;font-size:11px;color:#666}\n"
	".better{color:#1e7a3c;font-weight:600}.worse{color:#b0281b;font-weight:600}\n"
	".unchanged{color:#555;font-weight:600}\n"
	"#groups{list-style:none;padding-left:0}#groups li{margin:3px 0}\n"
	"#groups li.vh{font-weight:600;margin-top:8px}#groups li.vg{padding-left:14px}\n"
	"#groups li.vr,#groups li.vs{color:#555;font-size:13px;padding-left:14px}\n"
	"#groups details{display:inline;margin-left:8px;font-size:13px;color:#444}\n"
	"#groups details[open]{display:block;margin-left:14px}#groups summary{cursor:pointer;color:#1a5a96}\n"
	"#groups details ul{margin:2px 0 6px;padding-left:18px}\n"
	".controls{display:flex;flex-wrap:wrap;gap:8px 18px;align-items:center;margin:10px 0;font-size:14px}\n"
	".controls input[type=search]{width:14em}\n"
	".wrap{max-height:80vh;overflow:auto;border:1px solid #ddd}\n"
	".figs{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,600px),1fr));gap:14px 22px;align-items:start}\n"
	"figure{margin:0}figure svg{width:100%;height:auto;display:block}\n"
	"figcaption{font-size:12px;color:#555;margin-top:2px}\n"
	".note{background:#fff4e0;border:1px solid #e0b060;padding:8px}\n"
	"code{background:#f4f4f4;padding:1px 4px}\n"
	"footer{font-size:12px;color:#666;margin-top:30px}\n";

/*
 * The task table: rows from the JSON in #sr-data, sorted by a click on a
 * heading (again: the other way), filtered by the search box (a comm's
 * part or a pid; several, apart: any), the class and the waits; the
 * metric chooses what the policies' columns show.
 */
static const char script[] =
	"(function(){\"use strict\";\n"
	"var D=JSON.parse(document.getElementById(\"sr-data\").textContent);\n"
	"var T=document.getElementById(\"tasks\"),B=T.tBodies[0];\n"
	"var q=document.getElementById(\"q\"),cl=document.getElementById(\"cls\"),\n"
	" mt=document.getElementById(\"metric\"),mn=document.getElementById(\"many\"),\n"
	" ct=document.getElementById(\"count\");\n"
	"var NP=D.policies.length,key=null,dir=-1;\n"
	"function esc(s){return String(s).replace(/[&<>\"]/g,function(c){\n"
	" return{\"&\":\"&amp;\",\"<\":\"&lt;\",\">\":\"&gt;\",'\"':\"&quot;\"}[c];});}\n"
	"function val(t,p,m){var v=t[7][p];return v?v[m]:null;}\n"
	"function num(v,m){return v===null?\"\\u2013\":D.metrics[m][2]?(v/1000).toFixed(3):String(v);}\n"
	"function chg(t,p,m){var a=val(t,0,m),b=val(t,p,m),c,x;\n"
	" if(!p||a===null||b===null)return\"\";\n"
	" c=D.metrics[m][2]?(b-a)/1000:b-a;\n"
	" x=!a?(c>0?\"+\":\"\")+(D.metrics[m][2]?c.toFixed(3)+\" ms\":c):\n"
	"  b>=10*a?\"\\u00d7\"+(b/a).toFixed(0):(c>0?\"+\":\"\")+(100*(b-a)/a).toFixed(0)+\"%\";\n"
	" var k=\"\",ad=Math.abs(b-a);\n"
	" if(D.metrics[m][3]&&ad>=D.min_us&&ad*100>=Math.max(a,b)*D.min_pct)k=b<a?\"better\":\"worse\";\n"
	" return'<span class=\"d '+k+'\">'+(b===a?\"=\":x)+\"</span>\";}\n"
	"function keyof(t,k,m){if(k===\"task\")return t[1].toLowerCase();if(k===\"pid\")return t[0];\n"
	" if(k===\"class\")return D.classes[t[3]];if(k===\"waits\")return t[5];\n"
	" var v=val(t,+k,m);return v===null?-Infinity:v;}\n"
	"function ok(t){var w=q.value.trim().toLowerCase(),c=cl.value;\n"
	" if(mn.checked&&!t[6])return false;\n"
	" if(c&&(c===\"periodic\"?!t[4]:D.classes[t[3]]!==c))return false;\n"
	" if(!w)return true;\n"
	" return w.split(/[\\s,]+/).some(function(x){return /^\\d+$/.test(x)?String(t[0])===x:\n"
	"  x&&t[1].toLowerCase().indexOf(x)>=0;});}\n"
	"function draw(){var m=+mt.value,r=[],i,h=[];\n"
	" for(i=0;i<D.tasks.length;i++)if(ok(D.tasks[i]))r.push(i);\n"
	" if(key!==null)r.sort(function(a,b){var x=keyof(D.tasks[a],key,m),y=keyof(D.tasks[b],key,m);\n"
	"  return x<y?-dir:x>y?dir:a-b;});\n"
	" r.forEach(function(i){var t=D.tasks[i],s=\"<tr><td class=\\\"l t\\\">\",p;\n"
	"  s+=t[2]?'<a href=\"#task-'+t[2]+'\">'+esc(t[1])+\"</a>\":esc(t[1]);\n"
	"  s+=\"</td><td>\"+t[0]+'</td><td class=\"l\">'+D.classes[t[3]]+(t[4]?\", periodic\":\"\")+\"</td><td>\"+t[5]+\"</td>\";\n"
	"  for(p=0;p<NP;p++)s+=\"<td>\"+num(val(t,p,m),m)+chg(t,p,m)+\"</td>\";\n"
	"  h.push(s+\"</tr>\");});\n"
	" B.innerHTML=h.join(\"\");\n"
	" ct.textContent=r.length+\" of \"+D.tasks.length+\" tasks\";\n"
	" Array.prototype.forEach.call(T.tHead.rows[0].cells,function(th){\n"
	"  var k=th.getAttribute(\"data-k\");\n"
	"  if(th.hasAttribute(\"data-p\"))th.lastChild.textContent=\" \"+D.metrics[m][1];\n"
	"  if(k===key)th.setAttribute(\"aria-sort\",dir<0?\"descending\":\"ascending\");\n"
	"  else th.removeAttribute(\"aria-sort\");});}\n"
	"Array.prototype.forEach.call(T.tHead.rows[0].cells,function(th){\n"
	" th.addEventListener(\"click\",function(){var k=th.getAttribute(\"data-k\");\n"
	"  if(key===k)dir=-dir;else{key=k;dir=k===\"task\"||k===\"class\"?1:-1;}draw();});});\n"
	"[q,cl,mt,mn].forEach(function(e){e.addEventListener(\"input\",draw);e.addEventListener(\"change\",draw);});\n"
	"draw();})();\n";

/* What the table's columns can show: a summary figure of every policy. */
static const struct {
	const char *key, *label;
	bool ms;       /* in microseconds, shown as ms */
	bool delay;    /* lower is better: the diff's verdict applies */
} metrics[] = {
	{ "p99", "p99 delay ms", true, true },
	{ "max", "max delay ms", true, true },
	{ "avg", "avg delay ms", true, true },
	{ "runtime", "runtime ms", true, false },
	{ "switches", "switches", false, false },
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

static void li_line(void *ctx, const char *line)
{
	FILE *f = ctx;

	while (*line == ' ')
		line++;
	fputs("<li>", f);
	sr_html_str(f, line);
	fputs("</li>\n", f);
}

/* The verdict's lines as list items: a group's word coloured, its
 * reasons folded under it. */
struct vhtml {
	FILE *f;
	bool open;      /* an <li> of a group is open */
	bool why;       /* its reasons' list is open */
};

static void vhtml_close(struct vhtml *h)
{
	if (h->why)
		fputs("</ul></details>", h->f);
	if (h->open)
		fputs("</li>\n", h->f);
	h->open = h->why = false;
}

static void vhtml_line(void *ctx, const struct cmp_vline *l)
{
	static const char *const cls[] = {
		[CMP_VL_HEAD] = "vh", [CMP_VL_GROUP] = "vg",
		[CMP_VL_WHY] = "vw", [CMP_VL_RULE] = "vr",
		[CMP_VL_SCOPE] = "vs",
	};
	struct vhtml *h = ctx;
	const char *t = l->text;
	size_t skip = 0;

	while (t[skip] == ' ')
		skip++;
	if (l->kind == CMP_VL_WHY && h->open) {
		fputs(h->why ? "<li>" : "<details><summary>why</summary><ul>"
				      "<li>", h->f);
		h->why = true;
		sr_html_str(h->f, t + skip);
		fputs("</li>", h->f);
		return;
	}
	vhtml_close(h);
	fprintf(h->f, "<li class=\"%s\">", cls[l->kind]);
	if (l->kind == CMP_VL_GROUP && l->word >= skip) {
		char *pre = strndup(t + skip, l->word - skip);
		char *word = strndup(t + l->word, l->wordlen);

		if (pre && word) {
			sr_html_str(h->f, pre);
			fprintf(h->f, "<b class=\"%s\">", cmp_verdict_name(l->verdict));
			sr_html_str(h->f, word);
			fputs("</b>", h->f);
			sr_html_str(h->f, t + l->word + l->wordlen);
		} else {
			sr_html_str(h->f, t + skip);
		}
		free(pre);
		free(word);
		h->open = true;
		return;
	}
	sr_html_str(h->f, t + skip);
	fputs("</li>\n", h->f);
}

static void ms_cell(FILE *f, int64_t ns)
{
	char b[40];

	fprintf(f, "<td>%s</td>", sr_fmt_ms(b, sizeof(b), ns, 3));
}

/* A policy's swatch: a short line in its colour and dash. */
static void swatch(FILE *f, const char *policy)
{
	struct cmp_style st;
	const char *dash;

	cmp_style_of(policy, &st);
	dash = cmp_style_dash_svg(st.dash);
	fprintf(f, "<svg class=\"sw\" width=\"30\" height=\"10\" viewBox=\"0 0 30 10\" aria-hidden=\"true\">"
		   "<line x1=\"1\" y1=\"5\" x2=\"29\" y2=\"5\" stroke=\"%s\" stroke-width=\"3\"%s%s%s/></svg>",
		st.rgb, *dash ? " stroke-dasharray=\"" : "", dash,
		*dash ? "\"" : "");
}

/* ---- the top: policies, scope, verdict ------------------------------------ */

static void write_top(FILE *f, const struct cmp_ndiff *nd)
{
	const struct cmp_set *s = nd->s;
	char sel[512];

	fputs("<header>\n<h1>schedreplay: ", f);
	sr_html_str(f, s->title);
	fputs("</h1>\n<p>How the recorded workload would have been scheduled under each policy, replayed on the same demand; "
	      "each is compared with the first, <b>", f);
	sr_html_str(f, s->runs[0].policy);
	fputs("</b> (the baseline). Which tasks are interactive, batch or periodic is judged from the <b>", f);
	sr_html_str(f, s->ref_policy);
	fputs("</b> run.</p>\n<ul class=\"legend\" id=\"legend\">\n", f);
	for (size_t r = 0; r < s->nruns; r++) {
		fputs("<li>", f);
		swatch(f, s->runs[r].policy);
		sr_html_str(f, s->runs[r].policy);
		if (r == 0)
			fputs(" <small>(baseline)</small>", f);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	if (s->loss && sr_loss_any(s->loss)) {
		char say[512];

		/* every figure of a recording that lost events is read with
		 * that in mind: said before the verdict */
		sr_loss_say(s->loss, say, sizeof(say));
		fputs("<p class=\"note\" id=\"lost\"><b>Lost events:</b> ", f);
		sr_html_str(f, say);
		fputs(".</p>\n", f);
	}
	sr_sel_describe(s->sel, sel, sizeof(sel));
	if (s->focus || *sel) {
		fputs("<p class=\"scope\" id=\"scope\">Shown:", f);
		if (s->focus) {
			fputs(" only the process tree of the first task whose comm matches <code>", f);
			sr_html_str(f, s->focus_regex);
			fprintf(f, "</code> (%zu tasks)%s", s->focus_tasks,
				*sel ? ";" : ".");
		}
		if (*sel) {
			fputs(" only ", f);
			sr_html_str(f, sel);
			fputc('.', f);
		}
		fputs(" Every task was replayed, from the trace's start.</p>\n", f);
	}
	fputs("<nav><a href=\"#verdict\">Verdict</a>", f);
	for (size_t i = 0; i < nd->nrows; i++) {
		const struct cmp_task *t = &s->tasks[nd->rows[i]];

		if (t->period_ns > 0 && t->figs[0].periods && t->figs[0].present) {
			fputs("<a href=\"#periodic-tasks\">Periodic tasks</a>", f);
			break;
		}
	}
	fputs("<a href=\"#task-table\">Tasks</a><a href=\"#plots\">Plots</a></nav>\n</header>\n", f);

	fputs("<section id=\"verdict\">\n<h2>Verdict</h2>\n", f);
	if (nd->verdicts) {
		struct vhtml h = { f, false, false };

		fputs("<ul class=\"head\" id=\"groups\">\n", f);
		cmp_ndiff_verdict(nd, true, vhtml_line, &h);
		vhtml_close(&h);
		fputs("</ul>\n", f);
	}
	if (nd->npairs == 1) {
		fputs("<ul class=\"head\" id=\"headline\">\n", f);
		cmp_diff_headline(&nd->pair[0], li_line, f);
		fputs("</ul>\n", f);
	} else {
		fputs("<ul class=\"head\" id=\"headline\">\n", f);
		cmp_ndiff_headline_common(nd, li_line, f);
		fputs("</ul>\n", f);
		for (size_t k = 0; k < nd->npairs; k++) {
			const char *p = s->runs[nd->pair[k].b].policy;

			fprintf(f, "<div class=\"pair\" id=\"verdict-%zu\">\n<h3>", k + 1);
			swatch(f, p);
			sr_html_str(f, p);
			fputs(" against ", f);
			sr_html_str(f, s->runs[0].policy);
			fputs("</h3>\n<ul class=\"head\">\n", f);
			cmp_diff_headline_policy(&nd->pair[k], li_line, f);
			fputs("</ul>\n</div>\n", f);
		}
	}
	fputs("</section>\n", f);
}

/* ---- periodic tasks --------------------------------------------------------- */

static void write_periodic(FILE *f, const struct cmp_ndiff *nd)
{
	const struct cmp_set *s = nd->s;
	bool any = false;

	for (size_t i = 0; i < nd->nrows; i++) {
		const struct cmp_task *t = &s->tasks[nd->rows[i]];
		char lab[128], per[32];
		size_t shown = 0, nshow = 0;

		if (t->period_ns <= 0 || !t->figs[0].periods || !t->figs[0].present)
			continue;
		if (!any) {
			fputs("<section id=\"periodic-tasks\">\n<h2>Periodic tasks (interbench's figures)</h2>\n"
			      "<p>Deadlines met: share of periods whose CPU burst was done before the next period "
			      "began, on the recording's clock (periods start at the recorded wakeups) and on the "
			      "replay's own (periods start when the replay woke the task). Desired CPU: CPU obtained within its period as a share of the CPU wanted. "
			      "SD is the true standard deviation of the delays; &ldquo;ib SD&rdquo; is the figure "
			      "interbench prints as SD, which is really a root mean square.</p>\n"
			      "<div class=\"wrap\"><table id=\"periodic\"><thead><tr><th class=\"l\">task</th><th>period ms</th><th class=\"l\">policy</th>"
			      "<th>deadlines met</th><th>own clock</th><th>desired CPU</th><th>avg ms</th><th>SD ms</th><th>ib SD ms</th><th>max ms</th></tr></thead>\n<tbody>\n", f);
			any = true;
		}
		cmp_task_label(t, lab, sizeof(lab));
		sr_fmt_ms(per, sizeof(per), t->period_ns, 3);
		for (size_t r = 0; r < s->nruns; r++)
			nshow += t->figs[r].present;
		for (size_t r = 0; r < s->nruns; r++) {
			const struct cmp_figs *fg = &t->figs[r];

			if (!fg->present)
				continue;
			shown++;
			fprintf(f, "<tr%s><td class=\"l t\">", shown == nshow ? " class=\"b\"" : "");
			if (shown == 1)
				sr_html_str(f, lab);
			fprintf(f, "</td><td>%s</td><td class=\"l p\">", shown == 1 ? per : "");
			swatch(f, s->runs[r].policy);
			sr_html_str(f, s->runs[r].policy);
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
	if (any)
		fputs("</tbody></table></div>\n</section>\n", f);
}

/* ---- the task table ------------------------------------------------------------- */

/* ns as whole microseconds, rounded half away from zero. */
static long long us(int64_t ns)
{
	return ns >= 0 ? (long long)((ns + 500) / 1000)
		       : -(long long)((-ns + 500) / 1000);
}

/* The plot order (1, 2, ...) of task index t, 0 if not drawn. */
static size_t plotted(const struct pl_plot_files *pf, long t)
{
	for (size_t i = 0; pf && i < pf->ntasks; i++)
		if (pf->tasks[i] == t)
			return i + 1;
	return 0;
}

/* The table's figures as JSON, to a buffer (f: a memstream). */
static void table_json(FILE *f, const struct cmp_ndiff *nd,
		       const struct pl_plot_files *pf)
{
	const struct cmp_set *s = nd->s;

	fputs("{\"policies\":[", f);
	for (size_t r = 0; r < s->nruns; r++) {
		fputs(r ? "," : "", f);
		sr_json_str(f, s->runs[r].policy);
	}
	fputs("],\n\"metrics\":[", f);
	for (size_t m = 0; m < NMETRICS; m++)
		fprintf(f, "%s[\"%s\",\"%s\",%d,%d]", m ? "," : "", metrics[m].key,
			metrics[m].label, metrics[m].ms, metrics[m].delay);
	fprintf(f, "],\n\"classes\":[\"%s\",\"%s\",\"%s\"],\n",
		cmp_class_name(CMP_CLASS_OTHER), cmp_class_name(CMP_CLASS_INTERACTIVE),
		cmp_class_name(CMP_CLASS_BATCH));
	fprintf(f, "\"min_pct\":%d,\"min_us\":%lld,\n\"tasks\":[", CMP_CHANGE_MIN_PCT,
		(long long)(CMP_CHANGE_MIN_NS / 1000));
	/* the diff's order: first the tasks whose p99 means something (20
	 * waits or more under every policy), then the others */
	for (size_t ii = 0, n = 0; ii < 2 * nd->nrows; ii++) {
		size_t i = ii % nd->nrows;
		const struct cmp_task *t = &s->tasks[nd->rows[i]];
		char lab[128];
		uint64_t waits = 0;
		bool many = cmp_enough_waits(s, t, 0, SIZE_MAX, CMP_SELECT_MIN_WAITS);

		if (many != (ii < nd->nrows))
			continue;
		for (size_t r = 0; r < s->nruns; r++)
			if (t->figs[r].present) {
				waits = t->figs[r].ndelays;
				break;
			}
		/* the comm with "#occ" when the pid and comm came back */
		if (t->occ > 1)
			snprintf(lab, sizeof(lab), "%s #%u", t->comm, t->occ);
		else
			snprintf(lab, sizeof(lab), "%s", t->comm);
		fprintf(f, "%s\n[%d,", n++ ? "," : "", t->pid);
		sr_json_str(f, lab);
		fprintf(f, ",%zu,%d,%d,%llu,%d,[", plotted(pf, nd->rows[i]),
			(int)t->cls, t->period_ns > 0 && t->figs[0].periods ? 1 : 0,
			(unsigned long long)waits, many ? 1 : 0);
		for (size_t r = 0; r < s->nruns; r++) {
			const struct cmp_figs *fg = &t->figs[r];

			fputs(r ? "," : "", f);
			if (!fg->present) {
				fputs("null", f);
				continue;
			}
			fprintf(f, "[%lld,%lld,%lld,%lld,%llu]", us(fg->p99_ns),
				us(fg->max_ns), us(fg->avg_ns), us(fg->runtime_ns),
				(unsigned long long)fg->switches);
		}
		fputs("]]", f);
	}
	fputs("\n]}", f);
}

static int write_tasks(FILE *f, const struct cmp_ndiff *nd,
		       const struct pl_plot_files *pf, struct sr_diag *d)
{
	const struct cmp_set *s = nd->s;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return sr_oom(d);
	table_json(m, nd, pf);
	if (fclose(m) != 0 || !buf) {
		free(buf);
		return sr_oom(d);
	}
	fputs("<section id=\"task-table\">\n<h2>Tasks</h2>\n<p>Every task shown, in the diff's order: first those with 20 "
	      "waits or more under every policy, then the others, each time the tasks a person notices first (audio, display, "
	      "terminal, then periodic and interactive tasks), the batch work last, and by the largest change in p99 scheduling delay "
	      "against the baseline under any policy; click a heading to sort by it, again for the other way. Under each policy but the baseline, its change against the baseline "
	      "(green: better, red: worse, for delays that moved by at least 10% and 0.1 ms). "
	      "A task drawn in the plots links to them.</p>\n", f);
	fputs("<div class=\"controls\">\n<label>Find <input id=\"q\" type=\"search\" placeholder=\"comm or pid\" autocomplete=\"off\"></label>\n"
	      "<label>Class <select id=\"cls\"><option value=\"\">any</option><option>interactive</option><option>batch</option>"
	      "<option>other</option><option value=\"periodic\">periodic</option></select></label>\n"
	      "<label>Show <select id=\"metric\">", f);
	for (size_t k = 0; k < NMETRICS; k++)
		fprintf(f, "<option value=\"%zu\">%s</option>", k, metrics[k].label);
	fputs("</select></label>\n<label><input id=\"many\" type=\"checkbox\"> 20 waits or more under every policy</label>\n"
	      "<span id=\"count\"></span>\n</div>\n", f);
	fputs("<div class=\"wrap\"><table id=\"tasks\"><thead><tr><th class=\"l\" data-k=\"task\">task</th><th data-k=\"pid\">pid</th>"
	      "<th class=\"l\" data-k=\"class\">class</th><th data-k=\"waits\">waits</th>", f);
	for (size_t r = 0; r < s->nruns; r++) {
		fprintf(f, "<th data-k=\"%zu\" data-p=\"%zu\">", r, r);
		swatch(f, s->runs[r].policy);
		sr_html_str(f, s->runs[r].policy);
		fprintf(f, "<span> %s</span></th>", metrics[0].label);
	}
	fputs("</tr></thead>\n<tbody></tbody></table></div>\n"
	      "<noscript><p class=\"note\">The task table is drawn by the page's script: allow JavaScript for this file "
	      "(nothing is loaded from elsewhere), or see <code>schedreplay diff --all</code>.</p></noscript>\n", f);
	/* JSON inside a script element: no "<" may close it */
	fputs("<script type=\"application/json\" id=\"sr-data\">", f);
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '<' || buf[i] == '>' || buf[i] == '&')
			fprintf(f, "\\u%04x", (unsigned char)buf[i]);
		else
			fputc(buf[i], f);
	}
	fputs("</script>\n</section>\n", f);
	free(buf);
	return SR_OK;
}

/* ---- plots ----------------------------------------------------------------- */

static int read_all(const char *path, char **out, size_t *len, struct sr_diag *d)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return sr_fail_errno(d, SR_EIO, errno, "%s: cannot open", path);
	for (;;) {
		size_t got;

		if (n + 65536 + 1 > cap) {
			char *p = sr_grow(buf, &cap, n + 65536, 1, 262144, 0);

			if (!p) {
				free(buf);
				fclose(f);
				return sr_oom(d);
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

/* Line k (from 1) of tips into buf; false when there is none. */
static bool tip_line(const char *tips, long k, char *buf, size_t len)
{
	const char *p = tips;

	if (!p || k < 1)
		return false;
	for (long i = 1; i < k; i++) {
		p = strchr(p, '\n');
		if (!p)
			return false;
		p++;
	}
	if (!*p)
		return false;
	snprintf(buf, len, "%.*s", (int)(strchr(p, '\n') ? strchr(p, '\n') - p
							  : (long)strlen(p)), p);
	return true;
}

/* The first pat in [p, end), or NULL. */
static const char *find(const char *p, const char *end, const char *pat)
{
	return memmem(p, (size_t)(end - p), pat, strlen(pat));
}

/* [p, end) with every id and reference to one given the prefix. */
static void put_ids(FILE *f, const char *p, const char *end,
		    const char *prefix)
{
	static const char *const pats[] = {
		" id='", " id=\"", "href='#", "href=\"#", "url(#",
	};

	for (;;) {
		size_t i, best = 0;
		const char *hit = NULL;

		for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
			const char *h = find(p, end, pats[i]);

			if (h && (!hit || h < hit)) {
				hit = h;
				best = i;
			}
		}
		if (!hit) {
			fwrite(p, 1, (size_t)(end - p), f);
			return;
		}
		fwrite(p, 1, (size_t)(hit - p) + strlen(pats[best]), f);
		fputs(prefix, f);
		p = hit + strlen(pats[best]);
	}
}

/* One line [p, end) of a gnuplot SVG into the page: ids prefixed
 * (figures on one page cannot collide), the plot elements' titles
 * replaced by their tooltips, the canvas's by the figure's, its <desc>
 * left out. */
static void svg_line(FILE *f, const char *p, const char *end,
		     const struct pl_figure *fig, const char *prefix)
{
	static const char plot_title[] = "<title>gnuplot_plot_";
	static const char canvas_title[] = "<title>Gnuplot</title>";
	const char *t, *close;

	if ((size_t)(end - p) >= 6 && !memcmp(p, "<desc>", 6))
		return;
	if ((t = find(p, end, canvas_title))) {
		put_ids(f, p, t, prefix);
		fputs("<title>", f);
		sr_html_str(f, fig->title);
		fputs("</title>", f);
		put_ids(f, t + strlen(canvas_title), end, prefix);
		return;
	}
	if ((t = find(p, end, plot_title)) &&
	    (close = find(t, end, "</title>"))) {
		char tip[512];
		long k = strtol(t + strlen(plot_title), NULL, 10);

		put_ids(f, p, t, prefix);
		fputs("<title>", f);
		sr_html_str(f, tip_line(fig->tips, k, tip, sizeof(tip)) ? tip
								 : fig->title);
		fputs("</title>", f);
		put_ids(f, close + strlen("</title>"), end, prefix);
		return;
	}
	put_ids(f, p, end, prefix);
}

/* A gnuplot SVG inline: from <svg, a line at a time, each without its
 * indentation. */
static void inline_svg(FILE *f, const char *svg, const struct pl_figure *fig)
{
	const char *p = strstr(svg, "<svg");
	char prefix[48];

	if (!p)
		return;
	snprintf(prefix, sizeof(prefix), "%s-", fig->name);
	while (*p) {
		const char *nl = strchr(p, '\n'), *q;
		const char *end = nl ? nl : p + strlen(p);

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		/* a group that holds nothing (gnuplot writes many) */
		if (nl && end - p > 3 && !memcmp(p, "<g ", 3) && end[-1] == '>' &&
		    end[-2] != '/') {
			for (q = nl + 1; *q == ' ' || *q == '\t'; q++)
				;
			if (!strncmp(q, "</g>", 4) && (q[4] == '\n' || !q[4])) {
				p = q[4] ? q + 5 : q + 4;
				continue;
			}
		}
		if (p < end) {
			svg_line(f, p, end, fig, prefix);
			fputc('\n', f);
		}
		p = nl ? nl + 1 : end;
	}
}

static const struct pl_figure *find_fig(const struct pl_plot_files *pf,
					const char *name)
{
	for (size_t i = 0; i < pf->n; i++)
		if (!strcmp(pf->fig[i].name, name))
			return &pf->fig[i];
	return NULL;
}

static int write_figure(FILE *f, const char *dir, const struct pl_figure *fig,
			struct sr_diag *d)
{
	char *path, *svg = NULL;
	size_t len;

	if (!fig || !fig->rendered)
		return SR_OK;
	if (!(path = sr_path_join(dir, fig->name, "svg")))
		return sr_oom(d);
	if (read_all(path, &svg, &len, d)) {
		free(path);
		return d->code;
	}
	free(path);
	fprintf(f, "<figure id=\"plot-%s\">\n", fig->name);
	inline_svg(f, svg, fig);
	free(svg);
	fputs("<figcaption>", f);
	sr_html_str(f, fig->title);
	fprintf(f, " (<code>%s.gp</code>)</figcaption>\n</figure>\n", fig->name);
	return SR_OK;
}

/* ---- a task's worst waits, in words ------------------------------------------ */

#define WORST_WAITS 3           /* per task and policy */

static bool is_task(const struct cmp_task *t, void *ctx)
{
	return t == ctx;
}

/* A wait's lines as list items: its head, its segments in a list. */
struct wait_html {
	FILE *f;
	bool open;              /* the segments' list is open */
};

static void wait_line(void *ctx, int level, const char *line)
{
	struct wait_html *h = ctx;

	if (!level) {
		fputs("<li>", h->f);
		sr_html_str(h->f, line);
		return;
	}
	if (!h->open)
		fputs("<ul>\n", h->f);
	h->open = true;
	fputs("<li>", h->f);
	sr_html_str(h->f, line);
	fputs("</li>\n", h->f);
}

/* Task t's worst waits under each policy, in words as explain says them
 * (compare/why.h: one clock, segments grouped by reason and task);
 * nothing when no run was attributed. */
static int write_worst(FILE *f, const struct cmp_set *cs, long task,
		       struct sr_diag *d)
{
	struct cmp_set *s = (struct cmp_set *)cs; /* read only: the passes */
	struct cmp_task *t = &s->tasks[task];
	bool open = false;

	for (size_t r = 0; r < s->nruns; r++) {
		const struct cmp_result *res = s->runs[r].res;
		struct cmp_why w;

		if (cmp_why_run(s, r, is_task, t, WORST_WAITS, &w, d))
			return d->code;
		if (!w.attributed || !w.nworst) {
			cmp_why_free(&w);
			continue;
		}
		if (!open) {
			fputs("<details class=\"worst\"><summary>Its worst waits, in words</summary>\n", f);
			open = true;
		}
		fputs("<p>", f);
		swatch(f, s->runs[r].policy);
		sr_html_str(f, s->runs[r].policy);
		fputs(":</p>\n<ol>\n", f);
		for (size_t i = 0; i < w.nworst; i++) {
			struct wait_html h = { f, false };

			if (cmp_why_wait_lines(s, res, w.worst[i].lat, NULL,
					       wait_line, &h)) {
				cmp_why_free(&w);
				return sr_oom(d);
			}
			fputs(h.open ? "</ul></li>\n" : "</li>\n", f);
		}
		fputs("</ol>\n", f);
		cmp_why_free(&w);
	}
	if (open)
		fputs("</details>\n", f);
	return SR_OK;
}

static int write_plots(FILE *f, const struct cmp_ndiff *nd,
		       const struct pl_plot_files *pf, const char *dir,
		       const char *plots_note, struct sr_diag *d)
{
	const struct cmp_set *s = nd->s;
	static const char *const kinds[] = { "priority", "delay-time", "delay-cdf",
					     "why" };
	const struct pl_figure *fig;

	fputs("<section id=\"plots\">\n<h2>Plots</h2>\n", f);
	if (plots_note && *plots_note) {
		fputs("<p class=\"note\" id=\"plots-note\">", f);
		sr_html_str(f, plots_note);
		fputs("</p>\n", f);
	}
	if (!pf || !pf->n) {
		fputs("</section>\n", f);
		return SR_OK;
	}
	fputs("<p>Hover over a line, a bar or a legend entry to see whose it is. Each task drawn has its panels: "
	      "its <b>priority</b> over time (higher priority up; dashed: the interactive threshold; circles: a move to another CPU), "
	      "the <b>p99 scheduling delay</b> of the waits begun in each slice of the time shown (log scale: where a policy's waits grow long, and when), "
	      "the <b>distribution</b> of its delays (CDF on a 90 / 99 / 99.9 % axis, so the tail shows; each policy's p99 marked), "
	      "and, when the replay attributed the waits, its <b>wait by reason</b> under each policy (a stacked bar: what the policy's rules made it wait for, docs/why.md), "
	      "with its worst waits in words below. The scripts and data beside this page re-draw each panel: "
	      "<code>gnuplot NAME.gp</code>.</p>\n", f);
	fputs("<div class=\"figs\" id=\"bars\">\n", f);
	if (write_figure(f, dir, find_fig(pf, "diff-bars-p99"), d) ||
	    write_figure(f, dir, find_fig(pf, "diff-bars-max"), d))
		return d->code;
	fputs("</div>\n", f);
	for (size_t i = 0; i < pf->ntasks; i++) {
		const struct cmp_task *t = &s->tasks[pf->tasks[i]];
		char lab[128];

		cmp_task_label(t, lab, sizeof(lab));
		fprintf(f, "<section class=\"task\" id=\"task-%zu\">\n<h3>", i + 1);
		sr_html_str(f, lab);
		fprintf(f, " <small>%s%s%s</small></h3>\n<div class=\"figs\">\n",
			cmp_class_name(t->cls), t->period_ns > 0 ? ", periodic" : "",
			t->starved ? ", starved in the recording" : "");
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			char name[48];

			snprintf(name, sizeof(name), "%s-%zu", kinds[k], i + 1);
			fig = find_fig(pf, name);
			if (write_figure(f, dir, fig, d))
				return d->code;
		}
		fputs("</div>\n", f);
		if (write_worst(f, s, pf->tasks[i], d))
			return d->code;
		fputs("</section>\n", f);
	}
	fputs("</section>\n", f);
	return SR_OK;
}

int pl_report_write(const struct cmp_ndiff *nd, const struct pl_plot_files *pf,
		    const char *dir, const char *plots_note, struct sr_diag *d)
{
	const struct cmp_set *s = nd->s;
	struct sr_outfile *o;
	FILE *f;
	int rc;

	if ((rc = sr_outfile_open_in(&o, dir, "index.html", NULL, d)))
		return rc;
	f = sr_outfile_fp(o);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>schedreplay: ", f);
	sr_html_str(f, s->title);
	fputs(" &mdash; ", f);
	for (size_t r = 0; r < s->nruns; r++) {
		fputs(r == 0 ? "" : r == 1 ? " against " : ", ", f);
		sr_html_str(f, s->runs[r].policy);
	}
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
	write_top(f, nd);
	write_periodic(f, nd);
	if ((rc = write_tasks(f, nd, pf, d)) ||
	    (rc = write_plots(f, nd, pf, dir, plots_note, d))) {
		sr_outfile_abort(o);
		return rc;
	}
	fputs("<footer>Written by schedreplay report. The figures are the replay's (its summary, latency and timeline rows); "
	      "docs/plots.md says how each is counted. This page loads nothing from elsewhere.</footer>\n", f);
	fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", script);
	return sr_outfile_commit(o, d);
}
