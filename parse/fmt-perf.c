/*
 * fmt-perf: `perf script` text of data recorded with `perf sched record`
 * (or perf record -e sched:...): "COMM TID [CPU] SECONDS: sched:EVENT:
 * FIELDS", optionally "PID/TID" and a sample period.  Events of other
 * subsystems are counted and skipped.
 */
#include <string.h>

#include "parse/format.h"

/*
 * --show-lost-events / --show-task-events lines: PERF_RECORD_LOST and
 * PERF_RECORD_LOST_SAMPLES are lost-events markers with their own time
 * (as the perf.data reader makes of the same records), except a
 * LOST_SAMPLES of time 0, perf record's closing count, which only adds to
 * the tally; the others are skipped (the sched tracepoints already say
 * what they say).
 */
static int side_band(struct sr_fmtctx *c, const struct sr_match *m,
		     struct sr_raw *out)
{
	const char *p;
	size_t pn;
	uint32_t v;
	int samples;

	sr_grp(m, G_EV, &p, &pn);
	if (!(pn == 16 && !memcmp(p, "PERF_RECORD_LOST", 16)) &&
	    !(pn == 24 && !memcmp(p, "PERF_RECORD_LOST_SAMPLES", 24))) {
		c->skipped_events++;
		return SR_P_NONE;
	}
	samples = pn == 24;
	out->kind = SR_EV_LOST;
	out->value = sr_grp(m, G_COUNT, &p, &pn) &&
		sr_parse_u32(p, pn, UINT32_MAX, &v) == 0 ? v : 0;
	if (sr_fields_cpu_ts(c, m, out) != SR_P_RAW)
		return SR_P_ERR;
	if (samples && out->ts == 0) {
		/* perf record's closing count (fmt-perfdata.c, is_tally),
		 * printed at time 0 on no cpu of its own: a tally */
		c->tally_lost += (uint64_t)out->value;
		return SR_P_NONE;
	}
	return SR_P_RAW;
}

static int perf_parse(struct sr_fmtctx *c, char *line, size_t len,
		      struct sr_raw *out)
{
	struct sr_match m;
	const char *p, *ev, *sys;
	size_t pn, evlen, syslen, k = 0;
	uint32_t v;

	while (k < len && (line[k] == ' ' || line[k] == '\t'))
		k++;
	if (k == len || line[k] == '#')
		return SR_P_NONE;
	if (!sr_match(c->pat, P_PERF_HDR, line, len, 0, &m)) {
		if (sr_match(c->pat, P_PERF_RECORD, line, len, 0, &m))
			return side_band(c, &m, out);
		return sr_fmt_expected(c, "a perf script line "
				       "'COMM TID [CPU] SECONDS: sched:EVENT: "
				       "FIELDS'", line, len);
	}
	sr_grp(&m, G_SYS, &sys, &syslen);
	if (syslen != 5 || memcmp(sys, "sched", 5) != 0) {
		c->skipped_events++;
		return SR_P_NONE;
	}
	sr_grp(&m, G_EV, &ev, &evlen);
	sr_grp(&m, G_COMM, &p, &pn);
	sr_copy_comm(out->ctx_comm, p, pn);
	if (sr_grp(&m, G_TID, &p, &pn)) {
		/* PID/TID */
		const char *q;
		size_t qn;

		sr_grp(&m, G_PID, &q, &qn);
		if (q[0] != '-' && sr_parse_u32(q, qn, SR_PID_MAX, &v) == 0)
			out->ctx_tgid = (int32_t)v;
	} else {
		sr_grp(&m, G_PID, &p, &pn);
	}
	if (p[0] == '-')
		out->ctx_pid = -1;
	else if (sr_parse_u32(p, pn, SR_PID_MAX, &v) == 0)
		out->ctx_pid = (int32_t)v;
	else
		return sr_fmt_expected(c, "a tid below 2^30", p, pn);
	return sr_fields_decode_line(c, &m, ev, evlen, line, len, out);
}

static int perf_peek(struct sr_fmtctx *c, char *line, size_t len,
		     int32_t *cpu, int64_t *ts)
{
	struct sr_match m;

	return sr_match(c->pat, P_PERF_HDR, line, len, 0, &m) && sr_fields_peek(c, &m, cpu, ts);
}

static int perf_detect(struct sr_fmtctx *c, const char *head, size_t n)
{
	const char *p = head, *end = head + n;
	int score = 0, lines = 0;
	struct sr_match m;

	while (p < end && lines < 200) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (sr_match(c->pat, P_PERF_HDR, p, len, 0, &m))
			score += 3;
		lines++;
		p = nl ? nl + 1 : end;
	}
	return score;
}

/* perf script text (perf sched record) */
const struct sr_fmt_ops sr_fmt_perf = {
	.detect = perf_detect,
	.parse = perf_parse,
	.peek = perf_peek,
	.expect = "perf script lines such as 'COMM PID [CPU] TIME: "
		  "sched:sched_switch: ...'",
};
