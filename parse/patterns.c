/*
 * patterns: the table of every line pattern, compiled once per reader
 * with pcre2 JIT.  Anchored patterns (A) are matched only at the given
 * start offset.  docs/trace-format.md lists the layouts they accept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/regex.h"
#include "parse/patterns.h"

#define A PCRE2_ANCHORED

/* Shared pieces. */
/* trace-cmd report prefixes each line of an instance buffer "NAME: " */
#define INSTANCE "(?:[^\\s:\\[\\]]+:\\s+(?=\\S.*?-\\d+\\s))?"
#define COMM "(?<comm>.*?)"
#define PRIO "(?<prio>-?\\d+)"
#define TS "(?<ts>-?\\d+\\.\\d+)"
#define EOL "\\s*$"

static const struct {
	enum sr_pat id;
	const char *name;
	uint32_t opts;
	const char *re;
} defs[] = {
	/* ---- line headers ---- */
	{ P_FTRACE_HDR, "ftrace line header", A,
	  "\\s*" INSTANCE "(?<comm>.*?)-(?<pid>\\d+)\\s+"
	  "(?:\\(\\s*(?<tgid>\\d+|-+)\\s*\\)\\s+)?"
	  "\\[(?<cpu>\\d+)\\]\\s+"
	  "(?:(?<flags>[^\\s:\\[\\]]{4,6})\\s+)?"
	  TS ":\\s+(?<ev>[^\\s:(]+)(?::\\s*|(?=[ (]))" },
	{ P_TCLAT_HDR, "trace-cmd -l line header", A,
	  "\\s*" INSTANCE "(?<comm>.*?)-(?<pid>\\d+)\\s+"
	  "(?<cpu>\\d+)(?<flags>[^\\s:\\d][^\\s:]{3,5})\\s+"
	  TS ":\\s+(?<ev>[^\\s:(]+)(?::\\s*|(?=[ (]))" },
	{ P_PERF_HDR, "perf script line header", A,
	  "\\s*(?<comm>.*?)\\s+(?<pid>-?\\d+)(?:/(?<tid>-?\\d+))?\\s+"
	  "\\[(?<cpu>\\d+)\\]\\s+" TS ":\\s+(?:\\d+\\s+)?"
	  "(?<sys>\\w+):(?<ev>\\w+):\\s*" },

	{ P_PERF_RECORD, "perf script side-band record", A,
	  "\\s*(?<comm>.*?)\\s+(?<pid>-?\\d+)(?:/(?<tid>-?\\d+))?\\s+"
	  "\\[(?<cpu>\\d+)\\]\\s+" TS ":\\s+(?<ev>PERF_RECORD_[A-Z_]+)"
	  "(?:[: ]+lost (?<count>\\d+))?" },

	/* ---- event fields ---- */
	{ P_F_SWITCH, "sched_switch fields", A,
	  "prev_comm=(?<pcomm>.*?) prev_pid=(?<ppid>\\d+) "
	  "prev_prio=(?<pprio>-?\\d+) prev_state=(?<state>\\S+)(?: ==>)? "
	  "next_comm=(?<ncomm>.*?) next_pid=(?<npid>\\d+) "
	  "next_prio=(?<nprio>-?\\d+)" EOL },
	{ P_F_SWITCH_PLUGIN, "sched_switch fields (trace-cmd plugin)", A,
	  "(?<pcomm>.*?):(?<ppid>\\d+) \\[(?<pprio>-?\\d+)\\] "
	  "(?<state>\\S+) ==> "
	  "(?<ncomm>.*?):(?<npid>\\d+) \\[(?<nprio>-?\\d+)\\]" EOL },
	{ P_F_SWITCH_OLD, "sched_switch fields (2.6.2x)", A,
	  "task (?<pcomm>.*?):(?<ppid>\\d+) \\[(?<pprio>-?\\d+)\\] "
	  "\\((?<state>\\S+)\\) ==> "
	  "(?<ncomm>.*?):(?<npid>\\d+) \\[(?<nprio>-?\\d+)\\]" EOL },
	{ P_F_WAKE, "wakeup fields", A,
	  "comm=" COMM " pid=(?<pid>\\d+) prio=" PRIO
	  "(?: success=(?<succ>\\d+))?(?: target_cpu=(?<tcpu>\\d+))?" EOL },
	{ P_F_WAKE_PLUGIN, "wakeup fields (trace-cmd plugin)", A,
	  COMM ":(?<pid>\\d+) \\[" PRIO "\\]"
	  "(?: success=(?<succ>\\d+))?(?: CPU:(?<tcpu>\\d+))?" EOL },
	{ P_F_WAKE_OLD, "wakeup fields (2.6.2x)", A,
	  "task " COMM ":(?<pid>\\d+) \\[" PRIO "\\]"
	  "(?: success=(?<succ>\\d+))?" EOL },
	{ P_F_FORK, "sched_process_fork fields", A,
	  "(?:parent_)?comm=" COMM " (?:parent_)?pid=(?<pid>\\d+) "
	  "child_comm=(?<ccomm>.*?) "
	  "child_pid=(?<cpid>\\d+)" EOL },
	{ P_F_EXEC, "sched_process_exec fields", A,
	  "filename=(?<file>.*) pid=(?<pid>\\d+) old_pid=(?<opid>\\d+)" EOL },
	{ P_F_TASKPRIO, "comm= pid= prio= fields", A,
	  "comm=" COMM " pid=(?<pid>\\d+) prio=" PRIO
	  "(?: group_dead=\\w+)?" EOL },
	{ P_F_MIGRATE, "sched_migrate_task fields", A,
	  "comm=" COMM " pid=(?<pid>\\d+) prio=" PRIO
	  " orig_cpu=(?<ocpu>\\d+) dest_cpu=(?<dcpu>\\d+)" EOL },
	{ P_F_RUNTIME, "sched_stat_runtime fields", A,
	  "comm=" COMM " pid=(?<pid>\\d+) runtime=(?<rt>\\d+)(?: \\[ns\\])?"
	  "(?: vruntime=\\d+(?: \\[ns\\])?)?" EOL },

	/* ---- markers and metadata ---- */
	{ P_LOST_FTRACE, "lost-events marker (tracefs)", A,
	  "\\s*CPU:(?<cpu>\\d+) \\[LOST (?<count>\\d+) EVENTS\\]" EOL },
	{ P_LOST_TC, "lost-events marker (trace-cmd)", A,
	  "\\s*CPU:(?<cpu>\\d+) \\[(?:(?<count>\\d+) )?EVENTS DROPPED\\]" EOL },
	{ P_LOST_PLAIN, "lost-events marker", A,
	  "\\s*CPU:? ?(?<cpu>\\d+):? LOST (?<count>\\d+) EVENTS" EOL },
	{ P_LOST_BARE, "lost-events marker (no cpu)", A,
	  "\\s*\\[LOST (?<count>\\d+) EVENTS\\]" EOL },
	{ P_META_TC, "trace-cmd report preamble", A,
	  "(?:version = \\d+|cpus=(?<ncpus>\\d+)|CPU \\d+ is empty"
	  "|trace-cmd: .*"
	  "|Linux \\S+ (?<ver>\\d+\\.\\d+)\\S* \\S+)" EOL },
	{ P_META_NCPUS, "ftrace header cpu count", 0,
	  "#P:(?<ncpus>\\d+)" },

	/* ---- native ---- */
	{ P_N_MAGIC, "native magic line", A,
	  "\\s*#schedreplay-native (?<ver>\\d+)" EOL },
	{ P_N_LINE, "native event line", A,
	  "\\s*(?<ts>[^\\s#]+)\\s+(?<cpu>-|-?\\d+)\\s+(?<ev>[a-z_]+)(?=\\s|$)" },
	{ P_N_TIME, "native time", A,
	  "(?<num>\\d+)(?:\\.(?<frac>\\d+))?(?<unit>ns|us|ms|s)?$" },

	/* ---- systrace HTML wrapper ---- */
	{ P_S_LEGACY, "systrace legacy data start", 0,
	  "var\\s+linuxPerfData\\s*=\\s*\"" },
	{ P_S_MODERN, "systrace trace-data block start", 0,
	  "<script[^>]*class=\"trace-data\"[^>]*>" },
	{ P_S_END, "script end", 0, "</script>" },
	{ P_S_HTML, "HTML document", PCRE2_CASELESS,
	  "<!DOCTYPE\\s+html|<html[\\s>]" },
};

static const char *const grp_names[G__COUNT] = {
	[G_COMM] = "comm", [G_PID] = "pid", [G_TID] = "tid",
	[G_TGID] = "tgid", [G_CPU] = "cpu", [G_FLAGS] = "flags",
	[G_TS] = "ts", [G_SYS] = "sys", [G_EV] = "ev",
	[G_PCOMM] = "pcomm", [G_PPID] = "ppid", [G_PPRIO] = "pprio",
	[G_STATE] = "state", [G_NCOMM] = "ncomm", [G_NPID] = "npid",
	[G_NPRIO] = "nprio", [G_PRIO] = "prio", [G_SUCC] = "succ",
	[G_TCPU] = "tcpu", [G_CCOMM] = "ccomm", [G_CPID] = "cpid",
	[G_FILE] = "file", [G_OPID] = "opid", [G_OCPU] = "ocpu",
	[G_DCPU] = "dcpu", [G_RT] = "rt", [G_COUNT] = "count",
	[G_NCPUS] = "ncpus", [G_VER] = "ver", [G_NUM] = "num", [G_FRAC] = "frac",
	[G_UNIT] = "unit",
};

const int8_t sr_hand_grp[G__COUNT] = {
#define G1(g) [g] = (int8_t)((g) + 1)
	G1(G_COMM), G1(G_PID), G1(G_TID), G1(G_TGID), G1(G_CPU), G1(G_FLAGS),
	G1(G_TS), G1(G_SYS), G1(G_EV), G1(G_PCOMM), G1(G_PPID), G1(G_PPRIO),
	G1(G_STATE), G1(G_NCOMM), G1(G_NPID), G1(G_NPRIO), G1(G_PRIO),
	G1(G_SUCC), G1(G_TCPU), G1(G_CCOMM), G1(G_CPID), G1(G_FILE),
	G1(G_OPID), G1(G_OCPU), G1(G_DCPU), G1(G_RT), G1(G_COUNT),
	G1(G_NCPUS), G1(G_VER), G1(G_NUM), G1(G_FRAC), G1(G_UNIT),
#undef G1
};

int sr_patterns_init(struct sr_patterns *p, struct sr_diag *d)
{
	uint32_t jit = 0;

	memset(p, 0, sizeof(*p));
	for (int id = 0; id < P__COUNT; id++)
		for (int k = 0; k < 2 * (G__COUNT + 1); k++)
			p->hov[id][k] = PCRE2_UNSET;
	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	p->jit = jit != 0;
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		enum sr_pat id = defs[i].id;
		int err;
		PCRE2_SIZE off;
		pcre2_code *c;

		c = pcre2_compile((PCRE2_SPTR)defs[i].re, PCRE2_ZERO_TERMINATED,
				  defs[i].opts | PCRE2_DOTALL, &err, &off, NULL);
		if (!c) {
			PCRE2_UCHAR buf[160];

			sr_patterns_free(p);
			if (err == PCRE2_ERROR_HEAP_FAILED)
				return sr_oom(d);
			pcre2_get_error_message(err, buf, sizeof(buf));
			return sr_fail(d, SR_EINTERNAL,
				       "pattern '%s' at offset %zu: %s",
				       defs[i].name, (size_t)off, buf);
		}
		if (p->jit && pcre2_jit_compile(c, PCRE2_JIT_COMPLETE) != 0)
			p->jit = 0;
		p->code[id] = c;
		p->md[id] = pcre2_match_data_create_from_pattern(c, NULL);
		if (!p->md[id]) {
			sr_patterns_free(p);
			return sr_oom(d);
		}
		for (int g = 0; g < G__COUNT; g++) {
			int n = pcre2_substring_number_from_name(
				c, (PCRE2_SPTR)grp_names[g]);
			p->grp[id][g] = (int8_t)(n > 0 ? n : -1);
		}
	}
	for (int id = 0; id < P__COUNT; id++)
		if (!p->code[id]) {
			sr_patterns_free(p);
			return sr_fail(d, SR_EINTERNAL,
				       "pattern %d missing from the table", id);
		}
	return SR_OK;
}

void sr_patterns_free(struct sr_patterns *p)
{
	for (int id = 0; id < P__COUNT; id++) {
		pcre2_match_data_free(p->md[id]);
		pcre2_code_free(p->code[id]);
		p->md[id] = NULL;
		p->code[id] = NULL;
	}
}

int sr_match(struct sr_patterns *p, enum sr_pat id, const char *s,
	     size_t len, size_t start, struct sr_match *m)
{
	if (sr_hand_match(id, s, len, start, p->hov[id])) {
		m->s = s;
		m->ov = p->hov[id];
		m->grp = sr_hand_grp;
		return 1;
	}
	return sr_match_re(p, id, s, len, start, m);
}

int sr_match_re(struct sr_patterns *p, enum sr_pat id, const char *s,
		size_t len, size_t start, struct sr_match *m)
{
	int rc;

	if (p->jit)
		rc = pcre2_jit_match(p->code[id], (PCRE2_SPTR)s, len, start, 0,
				     p->md[id], NULL);
	else
		rc = pcre2_match(p->code[id], (PCRE2_SPTR)s, len, start, 0,
				 p->md[id], NULL);
	if (rc <= 0) {
		if (rc < 0 && rc != PCRE2_ERROR_NOMATCH && !p->err) {
			p->err = rc;
			p->err_id = id;
		}
		return 0;
	}
	m->s = s;
	m->ov = pcre2_get_ovector_pointer(p->md[id]);
	m->grp = p->grp[id];
	return 1;
}

int sr_match_error(const struct sr_patterns *p, char *why, size_t n)
{
	char err[256];
	const char *name = "line";

	if (!p->err)
		return 0;
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (defs[i].id == p->err_id)
			name = defs[i].name;
	snprintf(why, n, "the %s pattern could not decide on this line: %s",
		 name, sr_regex_why(err, sizeof(err), p->err));
	return 1;
}
