/*
 * merge-kway: the per-cpu merge of a file of per-cpu blocks (what the
 * window cannot order): one cursor per cpu, a heap of their next records;
 * and the scan of the file that decides it is needed (parse/merge.c).
 */
#include <stdlib.h>

#include "parse/merge-int.h"

static int raw_less(const struct sr_raw *a, const struct sr_raw *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static void kheap_sift_down(struct sr_merge *m, size_t i)
{
	uint32_t x = m->kheap[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= m->kn)
			break;
		if (c + 1 < m->kn && raw_less(&m->heads[m->kheap[c + 1]],
					      &m->heads[m->kheap[c]]))
			c++;
		if (!raw_less(&m->heads[m->kheap[c]], &m->heads[x]))
			break;
		m->kheap[i] = m->kheap[c];
		i = c;
	}
	m->kheap[i] = x;
}

int mg_kway_start(struct sr_merge *m, const uint8_t *cpus, int32_t ncpu,
		      struct sr_diag *d)
{
	size_t n = 0;

	for (int32_t c = 0; c < ncpu; c++)
		n += cpus[c] != 0;
	if (n > SR_KWAY_MAX_CPUS)
		return sr_fail(d, SR_EDATA, "%s: the input holds per-cpu blocks "
			       "out of time order for %zu cpus; the per-cpu "
			       "merge handles at most %d", m->path, n,
			       SR_KWAY_MAX_CPUS);
	m->cur = calloc(n, sizeof(*m->cur));
	m->heads = calloc(n, sizeof(*m->heads));
	m->kheap = calloc(n, sizeof(*m->kheap));
	if (!m->cur || !m->heads || !m->kheap)
		return sr_oom(d);
	for (int32_t c = 0; c < ncpu; c++) {
		struct sr_input *in;

		if (!cpus[c])
			continue;
		if (sr_input_open(&in, m->path, 1u << 18, d) != SR_OK)
			return d->code;
		sr_source_init(&m->cur[m->ncur], in, &m->proto, c,
			       m->ncur == 0, m->lenient);
		m->ncur++;
	}
	for (size_t i = 0; i < m->ncur; i++) {
		int rc = sr_source_next(&m->cur[i], &m->heads[i], d);

		if (rc < 0)
			return d->code;
		if (rc == 0)
			continue;
		if (mg_check_cpu_order(m, &m->heads[i], m->path, d))
			return d->code;
		m->kheap[m->kn++] = (uint32_t)i;
	}
	for (size_t i = m->kn; i-- > 0;)
		kheap_sift_down(m, i);
	m->kway = 1;
	return SR_OK;
}

int mg_kway_next(struct sr_merge *m, const struct sr_raw **out,
		     struct sr_diag *d)
{
	uint32_t i;
	int rc;

	if (m->kn == 0)
		return 0;
	i = m->kheap[0];
	m->out = m->heads[i];
	rc = sr_source_next(&m->cur[i], &m->heads[i], d);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		m->kheap[0] = m->kheap[--m->kn];
	} else if (mg_check_cpu_order(m, &m->heads[i], m->cur[i].fc.file, d)) {
		return -1;
	}
	if (m->kn)
		kheap_sift_down(m, 0);
	*out = &m->out;
	return 1;
}

/*
 * Scan the line headers of the whole file: which cpus, and would the
 * reorder heap put them in order?  Returns 1 if a per-cpu merge is needed.
 */
int mg_needs_kway(struct sr_merge *m, uint8_t **cpusp, int32_t *ncpup,
		      struct sr_diag *d)
{
	struct sr_input *in;
	struct sr_fmtctx fc = m->proto;
	struct sr_diag quiet = SR_DIAG_INIT;
	int64_t *h, released = INT64_MIN;
	size_t hn = 0;
	uint8_t *cpus = calloc(SR_CPU_MAX, 1);
	int32_t ncpu = 0;
	int blocked = 0, rc;
	const char *line;
	size_t len;

	*cpusp = NULL;
	h = malloc((m->window + 1) * sizeof(*h));
	if (!h || !cpus) {
		free(h);
		free(cpus);
		return sr_oom(d), -1;
	}
	if (sr_input_open(&in, m->path, 1u << 18, d) != SR_OK) {
		free(h);
		free(cpus);
		return -1;
	}
	fc.d = &quiet;
	while ((rc = sr_input_next(in, &line, &len, &quiet)) != SR_IN_EOF) {
		int32_t cpu;
		int64_t ts;

		if (rc == SR_IN_ERR)
			break; /* the real pass reports it */
		if (rc != SR_IN_LINE ||
		    !fc.ops->peek(&fc, (char *)line, len, &cpu, &ts))
			continue;
		if (cpu >= 0 && cpu < SR_CPU_MAX) {
			cpus[cpu] = 1;
			if (cpu + 1 > ncpu)
				ncpu = cpu + 1;
		}
		if (ts < released)
			blocked = 1;
		/* push ts; pop the minimum when over the window */
		size_t i = hn++;

		while (i > 0 && h[(i - 1) / 2] > ts) {
			h[i] = h[(i - 1) / 2];
			i = (i - 1) / 2;
		}
		h[i] = ts;
		if (hn > m->window) {
			int64_t top = h[0], last = h[--hn];

			i = 0;
			for (;;) {
				size_t c = 2 * i + 1;

				if (c >= hn)
					break;
				if (c + 1 < hn && h[c + 1] < h[c])
					c++;
				if (h[c] >= last)
					break;
				h[i] = h[c];
				i = c;
			}
			if (hn)
				h[i] = last;
			released = top;
		}
	}
	sr_input_close(in);
	free(h);
	*cpusp = cpus;
	*ncpup = ncpu;
	return blocked;
}
