/*
 * source: lines of one input to raw records (see source.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/grow.h"
#include "parse/source.h"

const struct sr_raw sr_raw_blank = {
	.cpu = -1, .ctx_pid = -1, .ctx_tgid = -1, .pid = -1, .tgid = -1,
	.pid2 = -1, .prio = -1, .prio2 = -1, .target_cpu = -1, .orig_cpu = -1,
	.policy = -1,
};

void sr_source_init(struct sr_source *s, struct sr_input *in,
		    const struct sr_fmtctx *proto, int32_t only_cpu,
		    int primary, int lenient)
{
	memset(s, 0, sizeof(*s));
	s->in = in;
	s->fc = *proto;
	s->fc.file = sr_input_name(in);
	s->fc.d = &s->scratch;
	s->fc.skipped_events = 0;
	s->fc.failed_wakeups = 0;
	s->scratch = (struct sr_diag)SR_DIAG_INIT;
	s->only_cpu = only_cpu;
	s->primary = primary;
	s->lenient = lenient;
	s->last_ts = INT64_MIN;
}

void sr_source_fini(struct sr_source *s)
{
	sr_input_close(s->in);
	s->in = NULL;
	free(s->pend);
	s->pend = NULL;
}

static int stash(struct sr_source *s, const struct sr_raw *r, struct sr_diag *d)
{
	if (s->npend == s->cappend) {
		struct sr_raw *np;

		if (s->npend >= 4096)
			return sr_fail(d, SR_EDATA, "%s:%llu: more than 4096 "
				       "lost-event markers without an event "
				       "between them", s->fc.file,
				       (unsigned long long)r->line);
		np = sr_grow(s->pend, &s->cappend, s->npend, sizeof(*np), 8, 0);
		if (!np)
			return sr_oom(d);
		s->pend = np;
	}
	s->pend[s->npend++] = *r;
	return SR_OK;
}

/* A stashed marker that the event r times, if any (removed). */
static int take_pending(struct sr_source *s, const struct sr_raw *r,
			struct sr_raw *out)
{
	for (size_t i = 0; i < s->npend; i++) {
		if (s->pend[i].cpu != -1 && s->pend[i].cpu != r->cpu)
			continue;
		*out = s->pend[i];
		memmove(&s->pend[i], &s->pend[i + 1],
			(s->npend - i - 1) * sizeof(*s->pend));
		s->npend--;
		out->ts = r->ts;
		return 1;
	}
	return 0;
}

/* owner: this cursor answers for the line (its cpu, or cpu-less + primary) */
static int line_error(struct sr_source *s, int owner, struct sr_diag *d)
{
	if (s->lenient || !owner) {
		if (owner)
			s->bad_lines++;
		s->scratch = (struct sr_diag)SR_DIAG_INIT;
		return 0;
	}
	sr_fail(d, s->scratch.code, "%s", s->scratch.msg);
	return -1;
}

/* A pattern pcre2 could not decide on this line (a match limit): the
 * line is an error, whatever the reader made of the "no match". */
static int undecided(struct sr_source *s)
{
	char why[512];

	if (!sr_match_error(s->fc.pat, why, sizeof(why)))
		return 0;
	s->scratch = (struct sr_diag)SR_DIAG_INIT;
	sr_fmt_fail(&s->fc, "%s", why);
	return 1;
}

int sr_source_next(struct sr_source *s, struct sr_raw *out,
		   struct sr_diag *d)
{
	const char *line;
	size_t len;
	int rc, owner;

	if (s->has_held) {
		*out = s->held;
		s->has_held = 0;
		return 1;
	}
	for (;;) {
		rc = sr_input_next(s->in, &line, &len, d);
		if (rc == SR_IN_ERR)
			return -1;
		if (rc == SR_IN_EOF) {
			if (s->npend == 0)
				return 0;
			*out = s->pend[0];
			memmove(&s->pend[0], &s->pend[1],
				(s->npend - 1) * sizeof(*s->pend));
			s->npend--;
			out->ts = s->last_ts == INT64_MIN ? 0 : s->last_ts;
			return 1;
		}
		s->fc.line = sr_input_lineno(s->in);
		s->fc.last_line = sr_input_unterminated(s->in);
		if (rc == SR_IN_LONG) {
			if (sr_fmt_long_line_ok(&s->fc))
				continue;
			sr_fmt_fail(&s->fc, "expected a line of at most %d "
				    "bytes, got a longer one", SR_LINE_MAX);
			if (line_error(s, s->primary, d) < 0)
				return -1;
			continue;
		}
		owner = 1;
		sr_match_clear(s->fc.pat);
		if (s->only_cpu >= 0) {
			int32_t cpu;
			int64_t ts;

			owner = s->primary;
			if (s->fc.ops->peek &&
			    s->fc.ops->peek(&s->fc, (char *)line, len, &cpu, &ts)) {
				if (cpu != s->only_cpu)
					continue;
				owner = 1;
			}
		}
		sr_raw_init(out);
		out->line = s->fc.line;
		rc = s->fc.ops->parse(&s->fc, (char *)line, len, out);
		if (rc == SR_P_RAW)
			rc = sr_raw_check(&s->fc, out);
		if (undecided(s))
			rc = SR_P_ERR;
		if (rc == SR_P_ERR) {
			if (line_error(s, owner, d) < 0)
				return -1;
			continue;
		}
		if (rc == SR_P_NONE)
			continue;
		if (s->only_cpu >= 0 && out->cpu != s->only_cpu &&
		    !(out->cpu == -1 && s->primary))
			continue;
		out->seq = out->line * 2 + (out->kind == SR_EV_LOST ? 0 : 1);
		if (out->kind == SR_EV_LOST && out->ts == INT64_MIN) {
			if (stash(s, out, d) != SR_OK)
				return -1;
			continue;
		}
		if (out->ts > s->last_ts)
			s->last_ts = out->ts;
		if (s->npend && take_pending(s, out, &s->held)) {
			struct sr_raw tmp = s->held;

			s->held = *out;
			s->has_held = 1;
			*out = tmp;
		}
		return 1;
	}
}
