/*
 * trace-gen: a big trace for `make bench`, made from a real sample by
 * concatenating time-shifted copies of it.
 *
 *	trace-gen [--native] SAMPLE OUT MEGABYTES   copies up to MEGABYTES
 *	trace-gen [--native] --copies N SAMPLE OUT  exactly N copies
 *
 * Each copy moves every timestamp by (the sample's span + 1 ms) times the
 * copy number, keeping the number of decimals; lines without a timestamp
 * (headers, comments) are written with the first copy only.  The time of
 * a line is the first "SECONDS.FRACTION:" in it (perf script, ftrace,
 * trace-cmd), or with --native its first field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct line {
	const char *s;
	size_t n;
	long ts_at, ts_len;  /* -1: no timestamp */
	int decimals;
	long long ns;
};

static int find_ts(const char *s, size_t n, int native, long *at, long *len,
		   int *dec, long long *ns)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = i, k;
		long long sec = 0, frac = 0;

		if (s[i] < '0' || s[i] > '9' || (i && s[i - 1] >= '0' && s[i - 1] <= '9'))
			continue;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			sec = sec * 10 + (s[j++] - '0');
		if (j >= n || s[j] != '.')
			goto next;
		k = ++j;
		while (j < n && s[j] >= '0' && s[j] <= '9')
			frac = frac * 10 + (s[j++] - '0');
		if (j == k || j - k > 9)
			goto next;
		if (native ? !(j == n || s[j] == ' ' || s[j] == '\t')
			   : !(j < n && s[j] == ':'))
			goto next;
		*at = (long)i;
		*len = (long)(j - i);
		*dec = (int)(j - k);
		for (int d = *dec; d < 9; d++)
			frac *= 10;
		*ns = sec * 1000000000LL + frac;
		return 1;
next:
		if (native)
			return 0;
		i = j;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int native = 0, a = 1;
	FILE *in, *out;
	char *buf;
	long size;
	struct line *v;
	size_t nv = 0, cap = 1024;
	long long lo = -1, hi = -1, span, written = 0, want = -1, copies = -1;
	char *p, *end;

	if (argc > a && !strcmp(argv[a], "--native")) {
		native = 1;
		a++;
	}
	if (argc > a + 1 && !strcmp(argv[a], "--copies")) {
		copies = atoll(argv[a + 1]);
		a += 2;
	}
	if (argc - a != (copies < 0 ? 3 : 2) || copies == 0) {
		fprintf(stderr, "usage: trace-gen [--native] SAMPLE OUT MEGABYTES\n"
				"       trace-gen [--native] --copies N SAMPLE OUT\n");
		return 64;
	}
	if (copies < 0)
		want = atoll(argv[a + 2]) * 1000000LL;
	in = fopen(argv[a], "rb");
	if (!in || fseek(in, 0, SEEK_END) || (size = ftell(in)) <= 0) {
		fprintf(stderr, "trace-gen: cannot read %s\n", argv[a]);
		return 66;
	}
	rewind(in);
	buf = malloc((size_t)size + 1);
	v = malloc(cap * sizeof(*v));
	if (!buf || !v || fread(buf, 1, (size_t)size, in) != (size_t)size)
		return 74;
	fclose(in);
	buf[size] = '\n';
	for (p = buf, end = buf + size; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p) + 1);
		struct line *l;

		if (nv == cap)
			v = realloc(v, (cap *= 2) * sizeof(*v));
		l = &v[nv++];
		l->s = p;
		l->n = (size_t)(nl - p);
		if (find_ts(p, l->n, native, &l->ts_at, &l->ts_len, &l->decimals,
			    &l->ns)) {
			if (lo < 0 || l->ns < lo)
				lo = l->ns;
			if (l->ns > hi)
				hi = l->ns;
		} else {
			l->ts_at = -1;
		}
		p = nl + 1;
	}
	if (lo < 0) {
		fprintf(stderr, "trace-gen: no timestamps in %s\n", argv[a]);
		return 65;
	}
	span = hi - lo + 1000000;
	out = fopen(argv[a + 1], "wb");
	if (!out)
		return 73;
	for (long long copy = 0; copies < 0 ? written < want : copy < copies;
	     copy++) {
		for (size_t i = 0; i < nv; i++) {
			const struct line *l = &v[i];
			char ts[64];
			long long t, div = 1;
			int n;

			if (l->ts_at < 0) {
				if (copy == 0) {
					fwrite(l->s, 1, l->n, out);
					fputc('\n', out);
					written += (long long)l->n + 1;
				}
				continue;
			}
			t = l->ns + copy * span;
			for (int d = l->decimals; d < 9; d++)
				div *= 10;
			if (l->decimals)
				n = snprintf(ts, sizeof(ts), "%lld.%0*lld",
					     t / 1000000000LL, l->decimals,
					     (t % 1000000000LL) / div);
			else
				n = snprintf(ts, sizeof(ts), "%lld", t / 1000000000LL);
			fwrite(l->s, 1, (size_t)l->ts_at, out);
			fwrite(ts, 1, (size_t)n, out);
			fwrite(l->s + l->ts_at + l->ts_len, 1,
			       l->n - (size_t)(l->ts_at + l->ts_len), out);
			fputc('\n', out);
			written += (long long)l->n + 1 + n - l->ts_len;
		}
	}
	if (fclose(out) != 0)
		return 74;
	free(buf);
	free(v);
	return 0;
}
