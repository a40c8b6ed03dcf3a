/*
 * fmt-perfdata: perf.data read directly, as `perf sched record` writes it
 * (file mode) or as `perf record -o -` streams it (pipe mode), without
 * running perf.  The layout (the kernel's tools/perf/Documentation/
 * perf.data-file-format.txt, util/header.c and util/session.c):
 *
 *	file:  header (magic PERFILE2, sizes, the attrs/data sections, a
 *	       bitmap of features), the attrs (each perf_event_attr and the
 *	       section of its sample ids), the data section (records), then
 *	       one section per feature: HEADER_TRACING_DATA (the event
 *	       formats), HEADER_OSRELEASE, HEADER_NRCPUS, ... are read.
 *	pipe:  a 16-byte header, then records only; attrs, features and the
 *	       tracing data come as PERF_RECORD_HEADER_* records first.
 *
 * Records: PERF_RECORD_SAMPLE (a tracepoint's raw data, decoded through
 * its format: tracepoint.c), COMM/FORK (a thread's name, which perf
 * script prints on each line and which names a waker), LOST and
 * LOST_SAMPLES (lost-event markers), FINISHED_ROUND (perf record's
 * ordering promise: once round n+1 is over, nothing older than the
 * newest record of round n follows, see merge.h), and the header
 * records of pipe mode.  Others are skipped.
 *
 * The file is mapped (gzip and pipes are inflated into a temporary file
 * first, input.c); the merge keeps a key per record and a record is
 * decoded from the mapping when it leaves.  Errors: "FILE:OFFSET: ...".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>

#include "lib/qsort.h"
#include "lib/grow.h"
#include "parse/binary.h"
#include "parse/load.h"
#include "parse/perfzstd.h"
#include "parse/tracepoint.h"
#include "parse/tracing.h"

/* Record types (include/uapi/linux/perf_event.h, tools/perf/util/event.h) */
enum {
	REC_LOST = 2, REC_COMM = 3, REC_EXIT = 4, REC_FORK = 7,
	REC_SAMPLE = 9, REC_LOST_SAMPLES = 13,
	REC_HEADER_ATTR = 64, REC_TRACING_DATA = 66, REC_FINISHED_ROUND = 68,
	REC_ID_INDEX = 69,
	REC_HEADER_FEATURE = 80, REC_COMPRESSED = 81, REC_COMPRESSED2 = 83,
};

/* sample_type bits */
enum {
	S_IP = 1 << 0, S_TID = 1 << 1, S_TIME = 1 << 2, S_ADDR = 1 << 3,
	S_READ = 1 << 4, S_CALLCHAIN = 1 << 5, S_ID = 1 << 6, S_CPU = 1 << 7,
	S_PERIOD = 1 << 8, S_STREAM_ID = 1 << 9, S_RAW = 1 << 10,
	S_IDENTIFIER = 1 << 16,
};
#define S_KNOWN ((1ull << 25) - 1) /* up to PERF_SAMPLE_WEIGHT_STRUCT */

/* read_format bits */
enum { RF_ENABLED = 1, RF_RUNNING = 2, RF_ID = 4, RF_GROUP = 8, RF_LOST = 16 };
#define RF_KNOWN 31ull

enum { FEAT_TRACING_DATA = 1, FEAT_OSRELEASE = 4, FEAT_NRCPUS = 7 };

#define PERF_TYPE_TRACEPOINT 2
#define ATTR_SIZE_VER0 64
#define ATTR_FLAG_SAMPLE_ID_ALL (1ull << 18)
#define FILE_HEADER_SIZE 104
#define PIPE_HEADER_SIZE 16

struct pd_attr {
	uint32_t type;
	uint64_t config;
	uint64_t sample_type;
	uint64_t read_format;
	int id_all;               /* sample_id_all: non-sample records too */
	int resolved;             /* tp looked up */
	struct sr_tp_event *tp;   /* the sched event, or NULL */
	uint64_t at;              /* file offset, for messages */
	uint16_t time_off;        /* a sample's time and cpu (0: none) */
	uint16_t cpu_off;
	uint16_t tid_off;         /* pid and tid (0: none) */
	uint16_t raw_off;         /* the raw data's size, when every field
				   * before it has a fixed size (0: not) */
};

struct pd_id {
	uint64_t id;
	uint32_t attr;
	int32_t cpu;              /* whose ring buffer (ID_INDEX, else its
				   * place in the attr's list: perf opens an
				   * event per cpu in order), -1: unknown */
};

/* misc of a LOST_SAMPLES record counting samples a BPF filter dropped on
 * purpose (perf record --filter): not lost */
#define MISC_LOST_SAMPLES_BPF (1u << 15)

#define ID_CACHE 256

struct pd_comm {
	int32_t tid;              /* -1: empty slot */
	char comm[16];
};

struct pd {
	int fd;
	const uint8_t *map;
	size_t len;
	int pipe;
	uint64_t pos, end;        /* scan position, end of the records */
	uint64_t dropped;         /* mapping released below this */
	struct pd_attr *attrs;
	size_t nattrs, capattrs;
	struct pd_id *ids;
	size_t nids, capids;
	int ids_sorted;
	uint64_t last_id;         /* the last id looked up, and its attr */
	struct pd_attr *last_attr;
	/* ids found so far, direct-mapped by hash (attr + 1; 0: none): a
	 * record's id is mostly one of a few, and a probe is cheaper than
	 * the binary search it saves; cleared when ids are added */
	struct { uint64_t id; uint32_t attr1; } idcache[ID_CACHE];
	int idcache_valid;
	int ids_first;            /* several attrs, samples led by their id
				   * (PERF_SAMPLE_IDENTIFIER), the cache
				   * valid: known_attr() probes it */
	struct tep_handle *tep;
	struct sr_tp tp;
	int have_tp;
	uint32_t *other_ids;      /* other systems' events (sorted) */
	size_t nother;
	char release[65];         /* HEADER_OSRELEASE */
	int32_t ncpus;            /* HEADER_NRCPUS (available), 0 unknown */
	struct pd_comm *comms;    /* tid -> the comm perf would print */
	size_t ccap, cused;
	/* FINISHED_ROUND: the newest time so far, and at the last round */
	int64_t max_ts, round_max;
	int rounds;
	struct sr_bin bin;        /* name, decoder context, counts */
};

/* ---- little helpers ---- */

static int bad(struct pd *p, uint64_t at, struct sr_diag *d,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int bad(struct pd *p, uint64_t at, struct sr_diag *d,
	       const char *fmt, ...)
{
	char msg[SR_DIAG_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sr_fail(d, SR_EDATA, "%s:%llu: %s", p->bin.file,
		       (unsigned long long)at, msg);
}

int sr_is_perfdata(const char *head, size_t n)
{
	/* "2ELIFREP": the magic as a big-endian machine wrote it */
	return n >= 8 && (!memcmp(head, SR_PERF_MAGIC, 8) ||
			  !memcmp(head, "2ELIFREP", 8));
}

/* ---- attrs and ids ---- */

static int add_attr(struct pd *p, const uint8_t *a, size_t size, uint64_t at,
		    struct sr_diag *d)
{
	struct pd_attr *x;
	uint32_t asize;

	if (size < ATTR_SIZE_VER0)
		return bad(p, at, d, "expected a perf_event_attr of at least "
			   "%d bytes, got %zu", ATTR_SIZE_VER0, size);
	asize = sr_ld32(a + 4);
	if (asize < ATTR_SIZE_VER0 || asize > size)
		return bad(p, at + 4, d, "expected the attr's size between %d "
			   "and %zu, got %u", ATTR_SIZE_VER0, size, asize);
	if (p->nattrs == p->capattrs) {
		if (p->nattrs >= 65536)
			return bad(p, at, d, "expected at most 65536 event "
				   "attrs, got more");
		x = sr_grow(p->attrs, &p->capattrs, p->nattrs, sizeof(*x), 16,
			    0);
		if (!x)
			return sr_oom(d);
		p->attrs = x;
		p->last_attr = NULL;
	}
	x = &p->attrs[p->nattrs];
	memset(x, 0, sizeof(*x));
	x->type = sr_ld32(a);
	x->config = sr_ld64(a + 8);
	x->sample_type = sr_ld64(a + 24);
	x->read_format = sr_ld64(a + 32);
	x->id_all = (sr_ld64(a + 40) & ATTR_FLAG_SAMPLE_ID_ALL) != 0;
	x->at = at;
	{
		uint64_t st = x->sample_type;
		unsigned o = 8 + 8 * (!!(st & S_IDENTIFIER) + !!(st & S_IP) +
				      !!(st & S_TID));

		x->tid_off = st & S_TID ? (uint16_t)(o - 8) : 0;
		x->time_off = st & S_TIME ? (uint16_t)o : 0;
		o += 8 * (!!(st & S_TIME) + !!(st & S_ADDR) + !!(st & S_ID) +
			  !!(st & S_STREAM_ID));
		x->cpu_off = st & S_CPU ? (uint16_t)o : 0;
		o += 8 * (!!(st & S_CPU) + !!(st & S_PERIOD));
		x->raw_off = (st & S_RAW) && !(st & (S_READ | S_CALLCHAIN)) ?
			     (uint16_t)o : 0;
	}
	if (x->sample_type & ~S_KNOWN)
		return bad(p, at + 24, d, "expected sample_type bits perf.data "
			   "defines (up to 0x%llx), got unknown bits 0x%llx: "
			   "the layout of the samples cannot be known",
			   (unsigned long long)S_KNOWN,
			   (unsigned long long)(x->sample_type & ~S_KNOWN));
	if ((x->sample_type & S_READ) && (x->read_format & ~RF_KNOWN))
		return bad(p, at + 32, d, "expected read_format bits 0 to 4, "
			   "got unknown bits 0x%llx",
			   (unsigned long long)(x->read_format & ~RF_KNOWN));
	p->nattrs++;
	return SR_OK;
}

static int add_id(struct pd *p, uint64_t id, uint32_t attr, uint64_t nth,
		  uint64_t at, struct sr_diag *d)
{
	if (p->nids == p->capids) {
		struct pd_id *v;

		if (p->nids >= (1u << 24))
			return bad(p, at, d, "expected at most %u sample ids, "
				   "got more", 1u << 24);
		v = sr_grow(p->ids, &p->capids, p->nids, sizeof(*v), 64, 0);
		if (!v)
			return sr_oom(d);
		p->ids = v;
	}
	p->ids[p->nids].id = id;
	p->ids[p->nids].attr = attr;
	p->ids[p->nids].cpu = nth < SR_CPU_MAX ? (int32_t)nth : -1;
	p->nids++;
	p->ids_sorted = 0;
	p->last_attr = NULL;
	p->idcache_valid = 0;
	p->ids_first = 0;
	return SR_OK;
}

static int id_cmp(const void *a, const void *b)
{
	const struct pd_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* perf numbers the ids of a session from one: the low bits tell them
 * apart, the next ones fold in */
static inline size_t id_slot(uint64_t id)
{
	return (size_t)(id ^ (id >> 8)) & (ID_CACHE - 1);
}

/* The attr of a sample id, or NULL. */
static struct pd_attr *attr_of_id(struct pd *p, uint64_t id)
{
	size_t lo = 0, hi = p->nids, h = id_slot(id);

	if (p->last_attr && p->last_id == id)
		return p->last_attr;
	if (!p->idcache_valid) {
		memset(p->idcache, 0, sizeof(p->idcache));
		p->idcache_valid = 1;
		p->ids_first = p->nattrs > 1 &&
			       (p->attrs[0].sample_type & S_IDENTIFIER);
	} else if (p->idcache[h].attr1 && p->idcache[h].id == id) {
		p->last_id = id;
		p->last_attr = &p->attrs[p->idcache[h].attr1 - 1];
		return p->last_attr;
	}
	if (!p->ids_sorted) {
		sr_qsort(p->ids, p->nids, sizeof(*p->ids), id_cmp);
		p->ids_sorted = 1;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->ids[mid].id == id) {
			p->last_id = id;
			p->last_attr = &p->attrs[p->ids[mid].attr];
			p->idcache[h].id = id;
			p->idcache[h].attr1 = p->ids[mid].attr + 1;
			return p->last_attr;
		}
		if (p->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The entry of a sample id, or NULL (the ids sorted as attr_of_id does). */
static struct pd_id *id_entry(struct pd *p, uint64_t id)
{
	struct pd_id key = { .id = id };

	if (!p->ids_sorted) {
		sr_qsort(p->ids, p->nids, sizeof(*p->ids), id_cmp);
		p->ids_sorted = 1;
	}
	return bsearch(&key, p->ids, p->nids, sizeof(*p->ids), id_cmp);
}

/*
 * PERF_RECORD_ID_INDEX: u64 nr, then nr entries of u64 id, idx, cpu, tid:
 * which cpu each id's ring buffer is (an event per thread: cpu -1).
 */
static int id_index(struct pd *p, const uint8_t *rec, size_t size,
		    uint64_t at, struct sr_diag *d)
{
	uint64_t nr;

	if (size < 16)
		return bad(p, at, d, "expected an ID_INDEX record of at least "
			   "16 bytes, got %zu", size);
	nr = sr_ld64(rec + 8);
	if (nr > (size - 16) / 32)
		return bad(p, at + 8, d, "expected at most %zu ID_INDEX "
			   "entries in its %zu bytes, got %llu",
			   (size - 16) / 32, size, (unsigned long long)nr);
	for (uint64_t i = 0; i < nr; i++) {
		const uint8_t *e = rec + 16 + 32 * i;
		struct pd_id *x = id_entry(p, sr_ld64(e));
		uint64_t cpu = sr_ld64(e + 16);

		if (x)
			x->cpu = cpu < SR_CPU_MAX ? (int32_t)cpu : -1;
	}
	return SR_OK;
}

/*
 * Which attr a record belongs to.  With PERF_SAMPLE_IDENTIFIER the id
 * sits first (samples) or last (other records); with a single attr there
 * is no question; else every attr must lay out its ids alike (perf
 * refuses the file otherwise too).
 */
/* A record's sample id (attr_of): 0 and *id, or -1 (error told in d). */
static int rec_id(struct pd *p, const uint8_t *rec, size_t size, int sample,
		  uint64_t at, uint64_t *id, struct sr_diag *d)
{
	const struct pd_attr *a0 = &p->attrs[0];

	if (a0->sample_type & S_IDENTIFIER) {
		if (size < 16)
			return bad(p, at, d, "expected a record of at least 16 "
				   "bytes (PERF_SAMPLE_IDENTIFIER), got %zu",
				   size), -1;
		*id = sample ? sr_ld64(rec + 8) : sr_ld64(rec + size - 8);
	} else if (a0->sample_type & S_ID) {
		size_t off;

		if (sample) {
			off = 8 + 8 * (!!(a0->sample_type & S_IP) +
				       !!(a0->sample_type & S_TID) +
				       !!(a0->sample_type & S_TIME) +
				       !!(a0->sample_type & S_ADDR));
		} else {
			size_t after = 8 * (1 + !!(a0->sample_type & S_STREAM_ID) +
					    !!(a0->sample_type & S_CPU));

			off = size >= after ? size - after : size;
		}
		if (off + 8 > size)
			return bad(p, at, d, "expected a record with its sample "
				   "id at byte %zu, got %zu bytes", off, size),
			       -1;
		*id = sr_ld64(rec + off);
	} else {
		return bad(p, at, d, "expected PERF_SAMPLE_IDENTIFIER or "
			   "PERF_SAMPLE_ID in the sample_type of a file with "
			   "%zu event attrs, got neither: its records cannot "
			   "be told apart", p->nattrs), -1;
	}
	return 0;
}

static struct pd_attr *attr_of(struct pd *p, const uint8_t *rec, size_t size,
			       int sample, uint64_t at, struct sr_diag *d)
{
	struct pd_attr *a;
	uint64_t id;

	if (p->nattrs == 0) {
		bad(p, at, d, "expected the event attrs before the first "
		    "record that needs them, got none");
		return NULL;
	}
	if (p->nattrs == 1)
		return &p->attrs[0];
	if (rec_id(p, rec, size, sample, at, &id, d))
		return NULL;
	/* id 0: a record perf synthesized; perf takes the first attr then,
	 * as for any other record of an unknown id */
	a = id ? attr_of_id(p, id) : NULL;
	if (!a && (!id || !sample))
		return &p->attrs[0];
	if (!a)
		bad(p, at, d, "expected a sample id of one of the %zu event "
		    "attrs, got %llu", p->nattrs, (unsigned long long)id);
	return a;
}

/* All attrs must place the sample id alike (see attr_of). */
static int check_id_layout(struct pd *p, struct sr_diag *d)
{
	const uint64_t lay = S_IDENTIFIER | S_ID | S_IP | S_TID | S_TIME |
			     S_ADDR;

	for (size_t i = 1; i < p->nattrs; i++) {
		uint64_t a = p->attrs[0].sample_type, b = p->attrs[i].sample_type;

		if ((a & S_IDENTIFIER) && (b & S_IDENTIFIER))
			continue;
		if ((a & lay) != (b & lay) || (a & S_STREAM_ID) !=
		    (b & S_STREAM_ID) || (a & S_CPU) != (b & S_CPU) ||
		    p->attrs[0].id_all != p->attrs[i].id_all)
			return bad(p, p->attrs[i].at, d, "expected every event "
				   "attr to lay out its sample ids as the "
				   "first (sample_type 0x%llx), got 0x%llx "
				   "without PERF_SAMPLE_IDENTIFIER",
				   (unsigned long long)a,
				   (unsigned long long)b);
	}
	return SR_OK;
}

/* ---- the tracing data and the sched events ---- */

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int load_tracing(struct pd *p, const uint8_t *b, size_t n,
			uint64_t at, struct sr_diag *d)
{
	struct tracing_info ti;
	struct tep_handle *tep;

	if (p->tep)
		return SR_OK; /* the first one says it */
	if (sr_tracing_load(&tep, b, n, at, p->bin.file, &ti, d) != SR_OK)
		return d->code;
	p->tep = tep;
	p->other_ids = ti.other_ids;
	p->nother = ti.nother;
	if (p->nother)
		sr_qsort(p->other_ids, p->nother, sizeof(*p->other_ids), u32_cmp);
	p->bin.fc.line = at;
	if (sr_tp_init(&p->tp, tep, sr_state_enc_for_release(p->release),
		       &p->bin.fc) != SR_OK)
		return sr_fail(d, SR_EDATA, "%s", p->bin.scratch.msg);
	p->have_tp = 1;
	return SR_OK;
}

/* Is id another system's event the tracing data holds? */
static int other_event(const struct pd *p, uint64_t id)
{
	uint32_t v = (uint32_t)id;

	return id <= UINT32_MAX && p->nother &&
	       bsearch(&v, p->other_ids, p->nother, sizeof(v), u32_cmp);
}

/* The sched event of an attr's samples, or NULL for other events. */
static struct sr_tp_event *tp_of(struct pd *p, struct pd_attr *a, uint64_t at,
				 struct sr_diag *d, int *err)
{
	*err = 0;
	if (a->resolved)
		return a->tp;
	if (a->type != PERF_TYPE_TRACEPOINT) {
		a->resolved = 1;
		return NULL;
	}
	if (!p->have_tp) {
		bad(p, at, d, "expected the tracing data (the event formats) "
		    "before a tracepoint's samples, got none");
		*err = 1;
		return NULL;
	}
	a->tp = a->config <= INT32_MAX ? sr_tp_find(&p->tp, (int)a->config)
				       : NULL;
	if (!a->tp && !other_event(p, a->config)) {
		bad(p, a->at + 8, d, "expected the tracing data to hold the "
		    "format of tracepoint ID %llu, got none",
		    (unsigned long long)a->config);
		*err = 1;
		return NULL;
	}
	if (a->tp) {
		if (!(a->sample_type & S_RAW) || !(a->sample_type & S_TIME) ||
		    !(a->sample_type & S_CPU)) {
			bad(p, a->at + 24, d, "expected sample_type with RAW, "
			    "TIME and CPU for sched:%s (perf sched record "
			    "sets them), got 0x%llx", a->tp->ev->name,
			    (unsigned long long)a->sample_type);
			*err = 1;
			return NULL;
		}
	}
	a->resolved = 1;
	return a->tp;
}

/* ---- thread names, as perf tracks them for perf script ---- */

static struct pd_comm *comm_slot(struct pd *p, int32_t tid)
{
	size_t h;

	if (!p->ccap)
		return NULL;
	h = ((uint32_t)tid * 2654435761u) & (p->ccap - 1);
	while (p->comms[h].tid != -1 && p->comms[h].tid != tid)
		h = (h + 1) & (p->ccap - 1);
	return &p->comms[h];
}

static const char *comm_get(struct pd *p, int32_t tid)
{
	struct pd_comm *c = comm_slot(p, tid);

	return c && c->tid == tid ? c->comm : NULL;
}

static int comm_set(struct pd *p, int32_t tid, const char *s, size_t n)
{
	struct pd_comm *c;

	if ((p->cused + 1) * 2 > p->ccap) {
		size_t ncap = p->ccap ? 2 * p->ccap : 1024, ocap = p->ccap;
		struct pd_comm *old = p->comms;

		p->comms = malloc(ncap * sizeof(*p->comms));
		if (!p->comms) {
			p->comms = old;
			return -1;
		}
		for (size_t i = 0; i < ncap; i++)
			p->comms[i].tid = -1;
		p->ccap = ncap;
		for (size_t i = 0; i < ocap; i++)
			if (old[i].tid != -1)
				*comm_slot(p, old[i].tid) = old[i];
		free(old);
	}
	c = comm_slot(p, tid);
	if (c->tid == -1)
		p->cused++;
	c->tid = tid;
	if (n > sizeof(c->comm) - 1)
		n = sizeof(c->comm) - 1;
	memcpy(c->comm, s, n);
	c->comm[n] = '\0';
	return 0;
}

/* ---- records ---- */

/* Time (and cpu) of a non-sample record from its sample_id trailer. */
static int trailer(const struct pd_attr *a, const uint8_t *rec, size_t size,
		   int64_t *ts, int32_t *cpu)
{
	uint64_t st = a->sample_type;
	size_t n = 8 * (!!(st & S_TID) + !!(st & S_TIME) + !!(st & S_ID) +
			!!(st & S_STREAM_ID) + !!(st & S_CPU) +
			!!(st & S_IDENTIFIER));
	const uint8_t *q;

	*ts = INT64_MIN;
	*cpu = -1;
	if (!a->id_all || size < 8 + n)
		return -1;
	q = rec + size - n;
	if (st & S_TID)
		q += 8;
	if (st & S_TIME) {
		uint64_t t = sr_ld64(q);

		*ts = t > INT64_MAX ? INT64_MAX : (int64_t)t;
		q += 8;
	}
	q += 8 * (!!(st & S_ID) + !!(st & S_STREAM_ID));
	if (st & S_CPU)
		*cpu = (int32_t)sr_ld32(q);
	return 0;
}

struct pd_sample {
	int32_t pid, tid, cpu;
	int64_t ts;
	const uint8_t *raw;
	uint32_t raw_size;
};

/* Walk a sample's fields up to RAW (the order of perf_event.h). */
static int parse_sample(struct pd *p, const struct pd_attr *a,
			const uint8_t *rec, size_t size, uint64_t at,
			struct pd_sample *s, struct sr_diag *d)
{
	uint64_t st = a->sample_type, v;
	size_t o = 8;

#define NEED(n, what) do { \
		if ((n) > size - o) \
			return bad(p, at + o, d, "expected %s in a sample of " \
				   "%zu bytes (sample_type 0x%llx), got the " \
				   "end of the record", what, size, \
				   (unsigned long long)st); \
	} while (0)

	memset(s, 0, sizeof(*s));
	s->pid = s->tid = s->cpu = -1;
	o += 8 * (!!(st & S_IDENTIFIER) + !!(st & S_IP));
	if (st & S_TID) {
		NEED(8, "pid and tid");
		s->pid = (int32_t)sr_ld32(rec + o);
		s->tid = (int32_t)sr_ld32(rec + o + 4);
		o += 8;
	}
	if (st & S_TIME) {
		NEED(8, "the time");
		v = sr_ld64(rec + o);
		if (v > INT64_MAX)
			return bad(p, at + o, d, "impossible timestamp %llu ns: "
				   "beyond the 64-bit nanosecond range",
				   (unsigned long long)v);
		s->ts = (int64_t)v;
		o += 8;
	}
	o += 8 * (!!(st & S_ADDR) + !!(st & S_ID) + !!(st & S_STREAM_ID));
	if (st & S_CPU) {
		NEED(8, "the cpu");
		v = sr_ld32(rec + o);
		if (v >= SR_CPU_MAX)
			return bad(p, at + o, d, "cpu number %llu out of range "
				   "(0 to %d supported)",
				   (unsigned long long)v, SR_CPU_MAX - 1);
		if (p->ncpus > 0 && v >= (uint64_t)p->ncpus)
			return bad(p, at + o, d, "expected a cpu below the %d "
				   "the file says the machine had "
				   "(HEADER_NRCPUS), got cpu %llu", (int)p->ncpus,
				   (unsigned long long)v);
		s->cpu = (int32_t)v;
		o += 8;
	}
	o += 8 * !!(st & S_PERIOD);
	if (st & S_READ) {
		uint64_t rf = a->read_format;
		size_t per = 8 * (1 + !!(rf & RF_ID) + !!(rf & RF_LOST));

		if (rf & RF_GROUP) {
			NEED(8, "the read group's size");
			v = sr_ld64(rec + o);
			o += 8 + 8 * (!!(rf & RF_ENABLED) + !!(rf & RF_RUNNING));
			if (v > size / per)
				return bad(p, at + o, d, "expected a read group "
					   "within the sample, got %llu "
					   "members", (unsigned long long)v);
			o += (size_t)v * per;
		} else {
			o += per + 8 * (!!(rf & RF_ENABLED) +
					!!(rf & RF_RUNNING));
		}
	}
	if (st & S_CALLCHAIN) {
		NEED(8, "the callchain's length");
		v = sr_ld64(rec + o);
		o += 8;
		if (v > (size - o) / 8)
			NEED(size + 1, "the callchain");
		o += (size_t)v * 8;
	}
	if (st & S_RAW) {
		NEED(4, "the raw data's size");
		s->raw_size = sr_ld32(rec + o);
		o += 4;
		NEED(s->raw_size, "the raw data");
		s->raw = rec + o;
	}
	if (o > size)
		NEED(1, "the sample's fields");
#undef NEED
	return SR_OK;
}

/* The time of a sample, for ordering (decode() reads the rest later). */
static int sample_time(struct pd *p, const struct pd_attr *a,
		       const uint8_t *rec, size_t size, uint64_t at,
		       int64_t *ts, struct sr_diag *d)
{
	uint64_t v;

	if ((size_t)a->time_off + 8 > size)
		return bad(p, at, d, "expected the time in a sample of %zu "
			   "bytes (sample_type 0x%llx), got the end of the "
			   "record", size, (unsigned long long)a->sample_type);
	v = sr_ld64(rec + a->time_off);
	if (v > INT64_MAX)
		return bad(p, at + a->time_off, d, "impossible timestamp %llu "
			   "ns: beyond the 64-bit nanosecond range",
			   (unsigned long long)v);
	*ts = (int64_t)v;
	return SR_OK;
}

static int feature(struct pd *p, uint64_t feat, const uint8_t *b, size_t n,
		   uint64_t at, struct sr_diag *d);

/*
 * A header record of pipe mode (or one perf inject left in a file).
 * *skip: bytes after the record that belong to it (tracing data).
 */
static int header_record(struct pd *p, uint32_t type, const uint8_t *rec,
			 size_t size, uint64_t at, uint64_t *skip,
			 struct sr_diag *d)
{
	*skip = 0;
	switch (type) {
	case REC_HEADER_ATTR: {
		uint32_t asize;
		size_t nids;

		if (size < 8 + ATTR_SIZE_VER0)
			return bad(p, at, d, "expected a HEADER_ATTR record of "
				   "at least %d bytes, got %zu",
				   8 + ATTR_SIZE_VER0, size);
		asize = sr_ld32(rec + 8 + 4);
		if (asize < ATTR_SIZE_VER0 || asize > size - 8)
			return bad(p, at + 12, d, "expected the attr's size "
				   "between %d and %zu, got %u", ATTR_SIZE_VER0,
				   size - 8, asize);
		if (add_attr(p, rec + 8, asize, at + 8, d))
			return d->code;
		nids = (size - 8 - asize) / 8;
		for (size_t i = 0; i < nids; i++)
			if (add_id(p, sr_ld64(rec + 8 + asize + 8 * i),
				   (uint32_t)(p->nattrs - 1), i,
				   at + 8 + asize + 8 * i, d))
				return d->code;
		return check_id_layout(p, d);
	}
	case REC_TRACING_DATA: {
		uint32_t tsize;

		if (size < 12)
			return bad(p, at, d, "expected a TRACING_DATA record of "
				   "at least 12 bytes, got %zu", size);
		tsize = sr_ld32(rec + 8);
		if (tsize > p->end - (at + size))
			return bad(p, at + 8, d, "expected %u bytes of tracing "
				   "data after the record, got %llu: truncated",
				   tsize, (unsigned long long)
				   (p->end - (at + size)));
		*skip = tsize;
		return load_tracing(p, rec + size, tsize, at + size, d);
	}
	case REC_HEADER_FEATURE:
		if (size < 16)
			return bad(p, at, d, "expected a HEADER_FEATURE record "
				   "of at least 16 bytes, got %zu", size);
		return feature(p, sr_ld64(rec + 8), rec + 16, size - 16, at + 16, d);
	case REC_ID_INDEX:
		return id_index(p, rec, size, at, d);
	case REC_COMPRESSED:
	case REC_COMPRESSED2:
		/* perfzstd.c inflated every one: this came out of one */
		return bad(p, at, d, "expected the records compressed data "
			   "holds, got a compressed record inside it");
	default:
		return SR_OK;
	}
}

static int feature(struct pd *p, uint64_t feat, const uint8_t *b, size_t n,
		   uint64_t at, struct sr_diag *d)
{
	switch (feat) {
	case FEAT_TRACING_DATA:
		return load_tracing(p, b, n, at, d);
	case FEAT_OSRELEASE:
		/* perf_header_string: u32 len, char[len] */
		if (n >= 4) {
			size_t l = sr_ld32(b);

			if (l > n - 4)
				l = n - 4;
			if (l > sizeof(p->release) - 1)
				l = sizeof(p->release) - 1;
			memcpy(p->release, b + 4, l);
			p->release[l] = '\0';
			p->release[strnlen(p->release, l)] = '\0';
		}
		return SR_OK;
	case FEAT_NRCPUS:
		if (n >= 8) {
			uint32_t avail = sr_ld32(b);

			p->ncpus = avail > SR_CPU_MAX ? SR_CPU_MAX
						      : (int32_t)avail;
		}
		return SR_OK;
	default:
		return SR_OK;
	}
}

/* ---- opening ---- */

static int open_file_mode(struct pd *p, struct sr_diag *d)
{
	const uint8_t *h = p->map;
	uint64_t hsize, attr_size, ao, as, dof, dsz, fo;
	int nfeat = 0;

	if (p->len < FILE_HEADER_SIZE)
		return bad(p, p->len, d, "expected a perf.data header of %d "
			   "bytes, got the end of the file: truncated",
			   FILE_HEADER_SIZE);
	hsize = sr_ld64(h + 8);
	attr_size = sr_ld64(h + 16);
	ao = sr_ld64(h + 24);
	as = sr_ld64(h + 32);
	dof = sr_ld64(h + 40);
	dsz = sr_ld64(h + 48);
	if (hsize < FILE_HEADER_SIZE || hsize > p->len)
		return bad(p, 8, d, "expected a header size between %d and the "
			   "file's %zu bytes, got %llu", FILE_HEADER_SIZE,
			   p->len, (unsigned long long)hsize);
	if (attr_size < ATTR_SIZE_VER0 + 16 || attr_size > 4096)
		return bad(p, 16, d, "expected an attr size between %d and "
			   "4096, got %llu", ATTR_SIZE_VER0 + 16,
			   (unsigned long long)attr_size);
	if (ao > p->len || as > p->len - ao)
		return bad(p, 24, d, "expected the attrs section (%llu bytes "
			   "at %llu) within the file's %zu bytes, got it past "
			   "the end: truncated or corrupt",
			   (unsigned long long)as, (unsigned long long)ao,
			   p->len);
	if (as % attr_size)
		return bad(p, 32, d, "expected the attrs section to hold whole "
			   "attrs of %llu bytes, got %llu bytes",
			   (unsigned long long)attr_size,
			   (unsigned long long)as);
	if (dof > p->len || dsz > p->len - dof)
		return bad(p, 40, d, "expected the data section (%llu bytes at "
			   "%llu) within the file's %zu bytes, got it past the "
			   "end: truncated", (unsigned long long)dsz,
			   (unsigned long long)dof, p->len);
	/* the features first: the tracing data and the release */
	fo = dof + dsz;
	for (int b = 1; b < 256; b++) {
		uint64_t word = sr_ld64(h + 72 + 8 * (b / 64));
		uint64_t so, ss;

		if (!(word >> (b % 64) & 1))
			continue;
		if (fo + 16 * (uint64_t)(nfeat + 1) > p->len)
			return bad(p, fo + 16 * (uint64_t)nfeat, d, "expected "
				   "the section of feature %d after the data, "
				   "got the end of the file: truncated", b);
		so = sr_ld64(p->map + fo + 16 * (uint64_t)nfeat);
		ss = sr_ld64(p->map + fo + 16 * (uint64_t)nfeat + 8);
		nfeat++;
		if (so > p->len || ss > p->len - so)
			return bad(p, fo + 16 * (uint64_t)(nfeat - 1), d,
				   "expected feature %d's section (%llu bytes "
				   "at %llu) within the file's %zu bytes, got "
				   "it past the end: truncated", b,
				   (unsigned long long)ss,
				   (unsigned long long)so, p->len);
		if (b == FEAT_OSRELEASE || b == FEAT_NRCPUS) {
			if (feature(p, (uint64_t)b, p->map + so, (size_t)ss, so,
				    d))
				return d->code;
		}
	}
	for (int b = 1; b < 256; b++) {
		uint64_t word = sr_ld64(h + 72 + 8 * (b / 64));
		int k = 0;

		if (b != FEAT_TRACING_DATA || !(word >> (b % 64) & 1))
			continue;
		for (int c = 1; c < b; c++)
			k += (int)(sr_ld64(h + 72 + 8 * (c / 64)) >> (c % 64) & 1);
		if (feature(p, FEAT_TRACING_DATA,
			    p->map + sr_ld64(p->map + fo + 16 * (uint64_t)k),
			    (size_t)sr_ld64(p->map + fo + 16 * (uint64_t)k + 8),
			    sr_ld64(p->map + fo + 16 * (uint64_t)k), d))
			return d->code;
	}
	for (uint64_t o = ao; o < ao + as; o += attr_size) {
		uint64_t io = sr_ld64(p->map + o + attr_size - 16);
		uint64_t is = sr_ld64(p->map + o + attr_size - 8);

		if (add_attr(p, p->map + o, (size_t)(attr_size - 16), o, d))
			return d->code;
		if (io > p->len || is > p->len - io || is % 8)
			return bad(p, o + attr_size - 16, d, "expected the attr's "
				   "ids (%llu bytes at %llu) within the file's "
				   "%zu bytes, got them past the end",
				   (unsigned long long)is,
				   (unsigned long long)io, p->len);
		for (uint64_t i = 0; i < is / 8; i++)
			if (add_id(p, sr_ld64(p->map + io + 8 * i),
				   (uint32_t)(p->nattrs - 1), i, io + 8 * i, d))
				return d->code;
	}
	if (check_id_layout(p, d))
		return d->code;
	p->pos = dof;
	p->end = dof + dsz;
	return SR_OK;
}

/* ---- the record source ---- */

/*
 * The attr of a sample when it is known without a search: the only one,
 * or an id seen before (the id cache); NULL otherwise.
 */
static inline struct pd_attr *known_attr(struct pd *p, const uint8_t *rec,
					 size_t size)
{
	uint64_t id;
	size_t h;

	if (!p->ids_first || size < 16)
		return p->nattrs == 1 ? &p->attrs[0] : NULL;
	id = sr_ld64(rec + 8);
	if (id == p->last_id && p->last_attr)
		return p->last_attr;
	h = id_slot(id);
	if (p->idcache[h].id != id || !p->idcache[h].attr1)
		return NULL;
	p->last_id = id;
	p->last_attr = &p->attrs[p->idcache[h].attr1 - 1];
	return p->last_attr;
}

static int pd_next_slow(struct pd *p, struct sr_rkey *k, struct sr_diag *d);

/*
 * The next record's key.  Most records are samples of a sched event whose
 * attr was seen before: their key is read here, inline; anything else
 * (and anything amiss, to be told) goes the whole way, pd_next_slow().
 */
static int pd_next(void *ctx, struct sr_rkey *k, struct sr_diag *d)
{
	struct pd *p = ctx;
	uint64_t pos = p->pos;

	if (pos < p->end && p->end - pos >= 8) {
		const uint8_t *rec = p->map + pos;
		size_t size = sr_ld16(rec + 6);
		struct pd_attr *a;
		uint64_t t;

		if (sr_ld32(rec) == REC_SAMPLE && size >= 8 &&
		    size <= p->end - pos && (a = known_attr(p, rec, size)) &&
		    a->tp && (size_t)a->time_off + 8 <= size &&
		    (size_t)a->cpu_off + 4 <= size &&
		    (t = sr_ld64(rec + a->time_off)) <= INT64_MAX) {
			/* a->tp: resolved, with RAW, TIME and CPU (tp_of) */
			p->pos = pos + size;
			p->bin.records++;
			if ((int64_t)t > p->max_ts)
				p->max_ts = (int64_t)t;
			k->ts = (int64_t)t;
			k->seq = pos;
			return SR_RS_REC;
		}
	}
	return pd_next_slow(p, k, d);
}

/*
 * perf record's closing tally: when recording ends it reads each event's
 * lost-sample count (PERF_FORMAT_LOST) and writes it as a LOST_SAMPLES
 * record of time 0 after the data; the kernel's own LOST records of the
 * cpu's ring buffer counted the same samples as they were lost.  A
 * LOST_SAMPLES of a real time is the kernel's (a marker).
 */
static inline int is_tally(uint32_t type, int64_t ts)
{
	return type == REC_LOST_SAMPLES && (ts == INT64_MIN || ts == 0);
}

static int pd_next_slow(struct pd *p, struct sr_rkey *k, struct sr_diag *d)
{
	for (;;) {
		const uint8_t *rec;
		uint32_t type;
		uint16_t size;
		uint64_t at = p->pos, skip;
		struct pd_attr *a;
		int64_t ts = 0;
		int32_t cpu;
		int err;

		if (p->pos >= p->end)
			return SR_RS_END;
		if (p->end - p->pos < 8)
			return bad(p, at, d, "expected a record header (8 bytes), "
				   "got %llu bytes at the end of the data: "
				   "truncated", (unsigned long long)
				   (p->end - p->pos)), SR_RS_ERR;
		rec = p->map + p->pos;
		type = sr_ld32(rec);
		size = sr_ld16(rec + 6);
		if (size < 8)
			return bad(p, at, d, "expected a record size of at least "
				   "8, got %u: corrupt data", size), SR_RS_ERR;
		if (size > p->end - p->pos)
			return bad(p, at, d, "expected a record of %u bytes "
				   "within the data section, got %llu bytes "
				   "left: truncated", size, (unsigned long long)
				   (p->end - p->pos)), SR_RS_ERR;
		p->pos += size;
		p->bin.records++;
		switch (type) {
		case REC_SAMPLE:
			a = attr_of(p, rec, size, 1, at, d);
			if (!a)
				return SR_RS_ERR;
			if (!tp_of(p, a, at, d, &err)) {
				if (err)
					return SR_RS_ERR;
				p->bin.skipped++;
				continue;
			}
			if (sample_time(p, a, rec, size, at, &ts, d))
				return SR_RS_ERR;
			if (ts > p->max_ts)
				p->max_ts = ts;
			k->ts = ts;
			k->seq = at;
			return SR_RS_REC;
		case REC_LOST_SAMPLES:
			if (sr_ld16(rec + 4) & MISC_LOST_SAMPLES_BPF) {
				p->bin.skipped++; /* filtered, not lost */
				continue;
			}
			/* fall through */
		case REC_LOST:
		case REC_COMM:
		case REC_FORK:
			a = attr_of(p, rec, size, 0, at, d);
			if (!a)
				return SR_RS_ERR;
			trailer(a, rec, size, &ts, &cpu);
			if (ts == INT64_MIN || is_tally(type, ts))
				ts = p->max_ts; /* no time: where it stands */
			k->ts = ts < 0 ? 0 : ts;
			k->seq = at;
			return SR_RS_REC;
		case REC_FINISHED_ROUND:
			/* nothing older than round n's newest follows round
			 * n + 1: that newest is the bound */
			k->ts = p->rounds++ ? p->round_max : INT64_MIN;
			k->seq = at;
			p->round_max = p->max_ts;
			return SR_RS_ROUND;
		default:
			if (header_record(p, type, rec, size, at, &skip, d))
				return SR_RS_ERR;
			p->pos += skip;
			continue;
		}
	}
}

static int pd_decode_slow(struct pd *p, const struct sr_rkey *k,
			  struct sr_raw *out, struct sr_diag *d);

/* The waker's name of a wakeup: the task in whose context it was
 * recorded (reader.c), the only use of ctx_comm */
static void ctx_comm(struct pd *p, struct sr_raw *out)
{
	const char *comm;

	if (out->ctx_pid > 0 && (out->kind == SR_EV_WAKING ||
				 out->kind == SR_EV_WAKEUP ||
				 out->kind == SR_EV_WAKEUP_NEW)) {
		comm = comm_get(p, out->ctx_pid);
		if (comm)
			sr_copy_comm(out->ctx_comm, comm, strlen(comm));
		else /* perf's name for a thread it never saw named */
			snprintf(out->ctx_comm, sizeof(out->ctx_comm), ":%d",
				 (int)out->ctx_pid);
	}
}

/*
 * A record as it leaves the merge.  The usual one, a sample of a known
 * attr laid out as perf sched record lays it out, is decoded here; the
 * others (and anything amiss, to be told) by pd_decode_slow().
 */
static int pd_decode(void *ctx, const struct sr_rkey *k, struct sr_raw *out,
		     struct sr_diag *d)
{
	struct pd *p = ctx;
	const uint8_t *rec = p->map + k->seq;
	size_t size = sr_ld16(rec + 6);
	struct pd_attr *a;

	if (sr_ld32(rec) == REC_SAMPLE && (a = known_attr(p, rec, size)) &&
	    a->tp && a->raw_off && size >= (size_t)a->raw_off + 4) {
		uint64_t t = sr_ld64(rec + a->time_off);
		uint32_t c = sr_ld32(rec + a->cpu_off), n = sr_ld32(rec + a->raw_off);
		int32_t pid, tid;
		int rc;

		if (t <= INT64_MAX && c < SR_CPU_MAX &&
		    (p->ncpus <= 0 || c < (uint32_t)p->ncpus) &&
		    n <= size - a->raw_off - 4) {
			out->line = k->seq;
			out->seq = k->seq;
			out->ts = (int64_t)t;
			out->cpu = (int32_t)c;
			rc = sr_tp_record(&p->tp, a->tp, rec + a->raw_off + 4,
					  n, k->seq, out, &p->bin.fc, d);
			if (rc != SR_P_RAW)
				return rc;
			pid = a->tid_off ? (int32_t)sr_ld32(rec + a->tid_off) : -1;
			tid = a->tid_off ? (int32_t)sr_ld32(rec + a->tid_off + 4)
					 : -1;
			out->ctx_pid = tid >= 0 && tid <= SR_PID_MAX ? tid : -1;
			out->ctx_tgid = pid >= 0 && pid <= SR_PID_MAX && tid > 0 ?
					pid : -1;
			ctx_comm(p, out);
			return SR_P_RAW;
		}
	}
	return pd_decode_slow(p, k, out, d);
}

static int pd_decode_slow(struct pd *p, const struct sr_rkey *k,
			  struct sr_raw *out, struct sr_diag *d)
{
	const uint8_t *rec = p->map + k->seq;
	uint32_t type = sr_ld32(rec);
	size_t size = sr_ld16(rec + 6);
	struct pd_attr *a = attr_of(p, rec, size, type == REC_SAMPLE, k->seq,
				    d);
	struct pd_sample s;
	int32_t cpu;
	int64_t ts;
	int rc, err;

	if (!a)
		return SR_P_ERR;
	out->line = k->seq;
	out->seq = k->seq;
	switch (type) {
	case REC_SAMPLE:
		if (parse_sample(p, a, rec, size, k->seq, &s, d))
			return SR_P_ERR;
		out->ts = s.ts;
		out->cpu = s.cpu;
		rc = sr_tp_record(&p->tp, tp_of(p, a, k->seq, d, &err), s.raw,
				  s.raw_size, k->seq, out, &p->bin.fc, d);
		if (rc != SR_P_RAW)
			return rc;
		out->ctx_pid = s.tid >= 0 && s.tid <= SR_PID_MAX ? s.tid : -1;
		out->ctx_tgid = s.pid >= 0 && s.pid <= SR_PID_MAX && s.tid > 0 ?
				s.pid : -1;
		ctx_comm(p, out);
		return SR_P_RAW;
	case REC_LOST:
	case REC_LOST_SAMPLES:
		/* LOST: u64 id, u64 lost; LOST_SAMPLES: u64 lost */
		if (size < (type == REC_LOST ? 24u : 16u))
			return bad(p, k->seq, d, "expected a LOST record of at "
				   "least %u bytes, got %zu",
				   type == REC_LOST ? 24u : 16u, size), SR_P_ERR;
		trailer(a, rec, size, &ts, &cpu);
		out->kind = SR_EV_LOST;
		out->ts = k->ts;
		out->cpu = cpu >= 0 && cpu < SR_CPU_MAX ? cpu : -1;
		if (is_tally(type, ts)) {
			/* its cpu is its id's: the record's own says 0 */
			uint64_t id = 0;
			const struct pd_id *x;

			out->dir = SR_DIR_TALLY;
			out->cpu = -1;
			if (p->nattrs > 1 || (a->sample_type & (S_ID |
								S_IDENTIFIER)))
				if (rec_id(p, rec, size, 0, k->seq, &id, d))
					return SR_P_ERR;
			if ((x = id_entry(p, id)))
				out->cpu = x->cpu;
		}
		{
			uint64_t n = sr_ld64(rec + (type == REC_LOST ? 16 : 8));

			out->value = n > UINT32_MAX ? UINT32_MAX : (int64_t)n;
		}
		return SR_P_RAW;
	case REC_COMM:
		/* u32 pid, tid, char comm[] */
		if (size >= 17) {
			const char *c = (const char *)rec + 16;
			size_t max = size - 16, n = strnlen(c, max);

			if (comm_set(p, (int32_t)sr_ld32(rec + 12), c, n))
				return sr_oom(d),
				       SR_P_ERR;
		}
		return SR_P_NONE;
	case REC_FORK:
		/* u32 pid, ppid, tid, ptid: the child has its parent's name */
		if (size >= 24) {
			int32_t tid = (int32_t)sr_ld32(rec + 16);
			const char *pc = comm_get(p, (int32_t)sr_ld32(rec + 20));
			char name[16];

			if (!pc || tid == (int32_t)sr_ld32(rec + 20))
				return SR_P_NONE;
			/* a copy: comm_set may move the table pc points in */
			memcpy(name, pc, sizeof(name));
			if (comm_set(p, tid, name, strnlen(name, sizeof(name))))
				return sr_oom(d),
				       SR_P_ERR;
		}
		return SR_P_NONE;
	default:
		return SR_P_NONE;
	}
}

static void pd_done_below(void *ctx, uint64_t seq)
{
	struct pd *p = ctx;
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t upto;

	if (seq > p->pos)
		seq = p->pos;
	upto = seq / (uint64_t)pg * (uint64_t)pg;
	/* give back what the merge no longer needs (the feature sections
	 * past the data were read at open) */
	if (upto > p->dropped + (8u << 20)) {
		madvise((void *)(p->map + p->dropped), (size_t)(upto - p->dropped),
			MADV_DONTNEED);
		p->dropped = upto;
	}
}

static void pd_counts(void *ctx, struct sr_merge_counts *c)
{
	struct pd *p = ctx;

	sr_bin_counts(&p->bin, c);
	c->bytes = p->pos;
	c->file_read = p->pos; /* of the file mapped: the progress line */
	c->file_size = p->len;
}

static void pd_close(void *ctx)
{
	struct pd *p = ctx;

	if (!p)
		return;
	if (p->map && p->map != MAP_FAILED)
		munmap((void *)p->map, p->len);
	if (p->fd >= 0)
		close(p->fd);
	if (p->tep)
		tep_free(p->tep);
	free(p->other_ids);
	free(p->attrs);
	free(p->ids);
	free(p->comms);
	free(p->bin.file);
	free(p);
}

static const struct sr_rsrc_ops pd_ops = {
	.ordered = 0,
	.next = pd_next,
	.decode = pd_decode,
	.done_below = pd_done_below,
	.counts = pd_counts,
	.close = pd_close,
};

int sr_perfdata_open(struct sr_merge **m, struct sr_input *in,
		     const char *name, struct sr_context **ctx,
		     struct sr_diag *d)
{
	struct pd *p = calloc(1, sizeof(*p));
	struct stat st;
	int fd = -1;

	*m = NULL;
	*ctx = NULL; /* perf.data has no place for one */
	if (!p) {
		sr_input_close(in);
		return sr_oom(d);
	}
	p->fd = -1;
	p->max_ts = INT64_MIN;
	if (sr_bin_start(&p->bin, in, name, &fd, d) != SR_OK)
		goto fail;
	p->fd = fd;
	if (fstat(fd, &st) != 0) {
		sr_fail(d, SR_EIO, "%s: %s", p->bin.file, strerror(errno));
		goto fail;
	}
	p->len = (size_t)st.st_size;
	if (p->len < PIPE_HEADER_SIZE) {
		bad(p, p->len, d, "expected a perf.data header, got the end of "
		    "the file: truncated");
		goto fail;
	}
	p->map = mmap(NULL, p->len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p->map == MAP_FAILED) {
		p->map = NULL;
		sr_fail(d, SR_EIO, "%s: cannot map it: %s", p->bin.file,
			strerror(errno));
		goto fail;
	}
	madvise((void *)p->map, p->len, MADV_SEQUENTIAL);
	if (memcmp(p->map, SR_PERF_MAGIC, 8) != 0) {
		bad(p, 0, d, "expected a perf.data written in this machine's "
		    "byte order, got one of the other (magic 2ELIFREP): give "
		    "the text of `perf script -i %s` instead", p->bin.file);
		goto fail;
	}
	if (sr_perf_is_compressed(p->map, p->len)) {
		/* perf record -z: read what perf would have written without */
		int zfd;

		if (sr_perf_inflate(p->map, p->len, p->bin.file, &zfd, d) != SR_OK)
			goto fail;
		munmap((void *)p->map, p->len);
		close(p->fd);
		p->map = NULL;
		p->fd = zfd;
		if (fstat(zfd, &st) != 0) {
			sr_fail(d, SR_EIO, "%s: %s", p->bin.file, strerror(errno));
			goto fail;
		}
		p->len = (size_t)st.st_size;
		p->map = mmap(NULL, p->len, PROT_READ, MAP_PRIVATE, zfd, 0);
		if (p->map == MAP_FAILED) {
			p->map = NULL;
			sr_fail(d, SR_EIO, "%s: cannot map its inflated copy: %s",
				p->bin.file, strerror(errno));
			goto fail;
		}
	}
	if (sr_ld64(p->map + 8) == PIPE_HEADER_SIZE) {
		p->pipe = 1;
		p->pos = PIPE_HEADER_SIZE;
		p->end = p->len;
	} else if (open_file_mode(p, d) != SR_OK) {
		goto fail;
	}
	return sr_merge_open_records(m, &pd_ops, p, name, d);
fail:
	pd_close(p);
	return d->code ? d->code : SR_EINTERNAL;
}
