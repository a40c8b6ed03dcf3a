#!/usr/bin/env python3
"""bintool: rewrite binary scheduler recordings for the repository.

    bintool.py perf-strip IN OUT [--max-samples N] [--drop TYPE,...]
        perf.data (file or pipe mode) without what names files or the machine:
        MMAP/MMAP2/KSYMBOL/BPF/CGROUP/NAMESPACES/TEXT_POKE/BUILD_ID records
        and the BUILD_ID, HOSTNAME, CMDLINE, CPUDESC, CPUID, topology,
        PMU, cache, BPF and memory features are left out; the samples,
        COMM/FORK/EXIT, LOST and FINISHED_ROUND records are kept as
        recorded, in order.  --max-samples keeps the first N samples;
        --drop leaves out the records of these types too (2: the kernel's
        PERF_RECORD_LOST, for a file whose loss only perf record's
        closing count tells).

    bintool.py perf-zstd IN OUT
        a file-mode perf.data as `perf record -z` writes it: the data
        section's records compressed as one zstd stream (the zstd command)
        cut into PERF_RECORD_COMPRESSED records, and the HEADER_COMPRESSED
        feature (for test fixtures: a recorded -z file names every mapped
        file of the machine inside its compressed records).

    bintool.py trace-dat IN OUT [--version 6|7] [--pages N] [--top]
                                [--all-systems] [--cpu-numbers N,N,...]
        trace.dat written anew from IN (a version 6 file without
        compression: `trace-cmd convert --file-version 6 --compression
        none`): the header page, the sched event formats (all systems
        with --all-systems), the saved command lines and each buffer's
        ring-buffer pages as recorded; no kallsyms, no printk formats.
        --pages keeps the first N pages of each cpu; --top makes the first
        instance buffer the top buffer (a file without instances).
        --cpu-numbers (version 7) gives each cpu's data, in order, the cpu
        number listed, as a recording of some cpus only has them (0,2: a
        gap); the CPUCOUNT option stays the count of cpus with data.

Both keep every byte of what is kept; they only leave parts out.  The
layouts are those of perf.data-file-format.txt and trace-cmd.dat.v6(5) /
trace-cmd.dat.v7(5).  traces/record.sh uses perf-strip; the test fixtures
in tests/parse/data/bin/ were made with both (see its README).
"""
import struct
import sys

# ---- perf.data ----

DROP_RECORDS = {1, 10, 16, 17, 18, 19, 20, 67}
KEEP_FEATURES = {1, 4, 5, 6, 7, 10, 12, 21}


def perf_header(d):
    """A perf.data file's header: attr_size, the attrs' offset and size,
    the data's offset and size, the four words of feature bits, the
    features set in them, and each feature's section (bit -> bytes)."""
    hsize, attr_size, ao, asz, do, dsz = struct.unpack_from('<QQQQQQ', d, 8)
    flags = list(struct.unpack_from('<4Q', d, 72))
    feats = [b for b in range(1, 256) if flags[b // 64] >> (b % 64) & 1]
    sections = {}
    for k, b in enumerate(feats):
        so, ss = struct.unpack_from('<QQ', d, do + dsz + 16 * k)
        sections[b] = d[so:so + ss]
    return attr_size, ao, asz, do, dsz, flags, feats, sections


def feature_sections(table_at, feats, sections):
    """The feature table to stand at offset table_at, each feature of feats
    (in that order) an (offset, size) pair, followed by their sections."""
    payload_at = table_at + 16 * len(feats)
    table, payload = bytearray(), bytearray()
    for b in feats:
        table += struct.pack('<QQ', payload_at + len(payload), len(sections[b]))
        payload += sections[b]
    return table + payload


def perf_strip(src, dst, max_samples=None, drop=()):
    d = open(src, 'rb').read()
    if d[:8] != b'PERFILE2':
        sys.exit('bintool: %s: not a little-endian perf.data' % src)
    if struct.unpack_from('<Q', d, 8)[0] == 16:
        return perf_strip_pipe(d, src, dst, max_samples, drop)
    attr_size, ao, asz, do, dsz, flags, feats, sections = perf_header(d)
    # attrs and their ids
    attrs = []
    for o in range(ao, ao + asz, attr_size):
        attr = d[o:o + attr_size - 16]
        io, isz = struct.unpack_from('<QQ', d, o + attr_size - 16)
        attrs.append((attr, d[io:io + isz]))
    # records
    out = bytearray()
    pos, end, nsamples = do, do + dsz, 0
    while pos < end:
        typ, misc, size = struct.unpack_from('<IHH', d, pos)
        if size < 8:
            sys.exit('bintool: %s:%d: corrupt record' % (src, pos))
        if typ == 9:
            nsamples += 1
            if max_samples is not None and nsamples > max_samples:
                break
        if typ not in DROP_RECORDS and typ not in drop:
            out += d[pos:pos + size]
        pos += size
    # layout: header, ids, attrs, data, feature table, features
    body = bytearray()
    at = 104
    id_offsets = []
    for attr, ids in attrs:
        id_offsets.append((at + len(body), len(ids)))
        body += ids
    attrs_at = at + len(body)
    for (attr, ids), (io, isz) in zip(attrs, id_offsets):
        body += attr + struct.pack('<QQ', io, isz)
    data_at = at + len(body)
    body += out
    keep = [b for b in feats if b in KEEP_FEATURES]
    body += feature_sections(at + len(body), keep, sections)
    nflags = [0, 0, 0, 0]
    for b in keep:
        nflags[b // 64] |= 1 << (b % 64)
    header = b'PERFILE2' + struct.pack('<QQ', 104, attr_size)
    header += struct.pack('<QQ', attrs_at, len(attrs) * attr_size)
    header += struct.pack('<QQ', data_at, len(out))
    header += struct.pack('<QQ', 0, 0) + struct.pack('<4Q', *nflags)
    open(dst, 'wb').write(header + body)


def perf_strip_pipe(d, src, dst, max_samples, drop=()):
    """Pipe mode: the same records left out, and the same features (they
    come as HEADER_FEATURE records); the tracing data follows its record."""
    out = bytearray(d[:16])
    pos, nsamples = 16, 0
    while pos + 8 <= len(d):
        typ, misc, size = struct.unpack_from('<IHH', d, pos)
        if size < 8:
            sys.exit('bintool: %s:%d: corrupt record' % (src, pos))
        end = pos + size
        if typ == 66:
            end += struct.unpack_from('<I', d, pos + 8)[0]
        if typ == 9:
            nsamples += 1
            if max_samples is not None and nsamples > max_samples:
                break
        keep = typ not in DROP_RECORDS and typ not in drop
        if typ == 80:
            keep = struct.unpack_from('<Q', d, pos + 8)[0] in KEEP_FEATURES
        if keep:
            out += d[pos:end]
        pos = end
    open(dst, 'wb').write(out)


def perf_zstd(src, dst):
    import subprocess
    d = open(src, 'rb').read()
    attr_size, ao, asz, do, dsz, flags, feats, sections = perf_header(d)
    # as perf does: whole records in chunks, each chunk one zstd frame in
    # one record (perf's reader wants every record to inflate to something)
    data, chunk, zlen = bytearray(), bytearray(), 0
    pos = do

    def flush():
        nonlocal zlen
        if not chunk:
            return
        z = subprocess.run(['zstd', '-q', '-c', '-3'], input=bytes(chunk),
                           stdout=subprocess.PIPE, check=True).stdout
        if 8 + len(z) > 65535:
            sys.exit('bintool: a compressed chunk over 64 KiB')
        data.extend(struct.pack('<IHH', 81, 0, 8 + len(z)) + z)
        zlen += len(z)
        chunk.clear()
    while pos < do + dsz:
        size = struct.unpack_from('<H', d, pos + 6)[0]
        if len(chunk) + size > 16384:
            flush()
        chunk.extend(d[pos:pos + size])
        pos += size
    flush()
    z = b'x' * zlen
    # version 0, type 1 (zstd), level 3, ratio, mmap_len
    sections[27] = struct.pack('<5I', 0, 1, 3, max(1, dsz // max(1, len(z))),
                               4096 * 1025)
    feats = sorted(set(feats) | {27})
    out = bytearray(d[:do]) + data
    out += feature_sections(len(out), feats, sections)
    flags[0] |= 1 << 27
    struct.pack_into('<Q', out, 48, len(data))
    struct.pack_into('<4Q', out, 72, *flags)
    open(dst, 'wb').write(out)


# ---- trace.dat ----

class Reader:
    def __init__(self, d):
        self.d, self.p = d, 0

    def take(self, n):
        b = self.d[self.p:self.p + n]
        if len(b) != n:
            sys.exit('bintool: input cut short at %d' % self.p)
        self.p += n
        return b

    def u16(self):
        return struct.unpack('<H', self.take(2))[0]

    def u32(self):
        return struct.unpack('<I', self.take(4))[0]

    def u64(self):
        return struct.unpack('<Q', self.take(8))[0]

    def cstr(self):
        e = self.d.index(b'\0', self.p)
        s = self.d[self.p:e]
        self.p = e + 1
        return s


def read_v6(path):
    d = open(path, 'rb').read()
    r = Reader(d)
    if r.take(10) != b'\x17\x08\x44tracing' or r.cstr() != b'6':
        sys.exit('bintool: %s: not a trace.dat version 6' % path)
    t = {'endian': r.take(1), 'long': r.take(1), 'page': r.u32()}
    if t['endian'] != b'\0':
        sys.exit('bintool: %s: big-endian' % path)
    r.take(12)
    t['header_page'] = r.take(r.u64())
    r.take(13)
    t['header_event'] = r.take(r.u64())
    for _ in range(r.u32()):
        r.take(r.u64())
    systems = []
    for _ in range(r.u32()):
        name = r.cstr()
        systems.append((name, [r.take(r.u64()) for _ in range(r.u32())]))
    t['systems'] = systems
    r.take(r.u32())
    r.take(r.u32())
    t['cmdlines'] = r.take(r.u64())
    cpus = r.u32()
    t['cpus'] = cpus
    tag = r.take(10)
    options, buffers = [], []
    if tag == b'options  \0':
        while True:
            oid = r.u16()
            if oid == 0:
                break
            data = r.take(r.u32())
            if oid == 3:
                off = struct.unpack_from('<Q', data, 0)[0]
                name = data[8:data.index(b'\0', 8)]
                buffers.append((name, off))
            elif oid in (4, 5, 8):
                options.append((oid, data))
        tag = r.take(10)
    if tag != b'flyrecord\0':
        sys.exit('bintool: %s: no flyrecord data' % path)

    def table(at):
        rr = Reader(d)
        rr.p = at + 10
        cs = []
        for _ in range(cpus):
            o, s = rr.u64(), rr.u64()
            cs.append(d[o:o + s])
        return cs
    t['top'] = table(r.p - 10)
    # with a TRACECLOCK option, the clock text follows the top table
    t['clock'] = None
    if any(oid == 4 for oid, _ in options):
        r.p += 16 * cpus
        t['clock'] = r.take(r.u64())
    t['instances'] = [(name, table(off)) for name, off in buffers]
    t['options'] = options
    return t


def pad_to(buf, page):
    return b'\0' * ((-len(buf)) % page)


def write_v6(t, out_path):
    page = t['page']
    h = bytearray(b'\x17\x08\x44tracing6\0' + t['endian'] + t['long'])
    h += struct.pack('<I', page)
    h += b'header_page\0' + struct.pack('<Q', len(t['header_page']))
    h += t['header_page']
    h += b'header_event\0' + struct.pack('<Q', len(t['header_event']))
    h += t['header_event']
    h += struct.pack('<I', 0)
    h += struct.pack('<I', len(t['systems']))
    for name, fmts in t['systems']:
        h += name + b'\0' + struct.pack('<I', len(fmts))
        for f in fmts:
            h += struct.pack('<Q', len(f)) + f
    h += struct.pack('<II', 0, 0)
    h += struct.pack('<Q', len(t['cmdlines'])) + t['cmdlines']
    h += struct.pack('<I', t['cpus'])
    # options: the kept ones, one BUFFER per instance (offsets patched)
    h += b'options  \0'
    for oid, data in t['options']:
        h += struct.pack('<HI', oid, len(data)) + data
    patch = []
    for name, _ in t['instances']:
        patch.append(len(h) + 6)
        data = struct.pack('<Q', 0) + name + b'\0'
        h += struct.pack('<HI', 3, len(data)) + data
    h += struct.pack('<H', 0)
    top_table = len(h)
    h += b'flyrecord\0' + b'\0' * 16 * t['cpus']
    if t['clock'] is not None:
        h += struct.pack('<Q', len(t['clock'])) + t['clock']
    inst_tables = []
    for _ in t['instances']:
        inst_tables.append(len(h))
        h += b'flyrecord\0' + b'\0' * 16 * t['cpus']
    for at, tbl in zip(patch, inst_tables):
        struct.pack_into('<Q', h, at, tbl)
    h += pad_to(h, page)

    def place(tbl_at, cpus):
        for c, data in enumerate(cpus):
            off = len(h) if data else 0
            struct.pack_into('<QQ', h, tbl_at + 10 + 16 * c, off, len(data))
            h.extend(data)
    place(top_table, t['top'])
    for tbl_at, (_, cpus) in zip(inst_tables, t['instances']):
        place(tbl_at, cpus)
    open(out_path, 'wb').write(h)


def write_v7(t, out_path, numbers=None):
    page = t['page']
    num = numbers or list(range(t['cpus']))
    if len(num) < t['cpus']:
        sys.exit('bintool: --cpu-numbers: %d cpus to number' % t['cpus'])

    strings = bytearray(b'\0')

    def sid(text):
        off = len(strings)
        strings.extend(text + b'\0')
        return off

    f = bytearray(b'\x17\x08\x44tracing7\0' + t['endian'] + t['long'])
    f += struct.pack('<I', page) + b'none\0\0'
    first_options = len(f)
    f += struct.pack('<Q', 0)

    def section(sec_id, desc, data):
        at = len(f)
        f.extend(struct.pack('<HHIQ', sec_id, 0, sid(desc), len(data)))
        f.extend(data)
        return at

    hi = section(16, b'headers', b'header_page\0' +
                 struct.pack('<Q', len(t['header_page'])) + t['header_page'] +
                 b'header_event\0' + struct.pack('<Q', len(t['header_event'])) +
                 t['header_event'])
    fe = section(17, b'ftrace events', struct.pack('<I', 0))
    ev = bytearray(struct.pack('<I', len(t['systems'])))
    for name, fmts in t['systems']:
        ev += name + b'\0' + struct.pack('<I', len(fmts))
        for x in fmts:
            ev += struct.pack('<Q', len(x)) + x
    efs = section(18, b'events format', bytes(ev))
    ks = section(19, b'kallsyms', struct.pack('<I', 0))
    pk = section(20, b'printk', struct.pack('<I', 0))
    cl = section(21, b'command lines', struct.pack('<Q', len(t['cmdlines'])) +
                 t['cmdlines'])
    # the first options section: where the others are, then DONE
    opts = bytearray()
    for oid, at in ((16, hi), (17, fe), (18, efs), (19, ks), (20, pk),
                    (21, cl)):
        opts += struct.pack('<HIQ', oid, 8, at)
    for oid, data in t['options']:
        opts += struct.pack('<HI', oid, len(data)) + data
    done_at = len(opts) + 6
    opts += struct.pack('<HIQ', 0, 8, 0)
    o1 = section(0, b'options', bytes(opts))
    struct.pack_into('<Q', f, first_options, o1)
    # buffers: a data section each, pages page-aligned
    buffers = [(b'', t['top'])] + t['instances']
    entries = []
    for name, cpus in buffers:
        at = len(f)
        f.extend(struct.pack('<HHIQ', 3, 0, sid(b'buffer ' + name), 0))
        start = len(f)
        f.extend(pad_to(f, page))
        ents = []
        for c, data in enumerate(cpus):
            if data:
                ents.append((num[c], len(f), len(data)))
                f.extend(data)
        struct.pack_into('<Q', f, at + 8, len(f) - start)
        entries.append((name, at, ents))
    o2 = bytearray()
    for name, at, ents in entries:
        data = struct.pack('<Q', at) + name + b'\0' + b'local\0'
        data += struct.pack('<II', page, len(ents))
        for c, off, size in ents:
            data += struct.pack('<IQQ', c, off, size)
        o2 += struct.pack('<HI', 3, len(data)) + data
    o2 += struct.pack('<HIQ', 0, 8, 0)
    o2_at = section(0, b'options', bytes(o2))
    struct.pack_into('<Q', f, o1 + 16 + done_at, o2_at)
    f.extend(struct.pack('<HHIQ', 15, 0, 0, len(strings)))
    f.extend(strings)
    open(out_path, 'wb').write(f)


def trace_dat(src, dst, version=7, pages=None, top=False, all_systems=False,
              numbers=None):
    t = read_v6(src)
    if not all_systems:
        t['systems'] = [s for s in t['systems'] if s[0] == b'sched']
    if top:
        if not t['instances']:
            sys.exit('bintool: %s: no instance buffer for --top' % src)
        t['top'] = t['instances'][0][1]
        t['instances'] = []
    if pages is not None:
        cut = pages * t['page']
        t['top'] = [c[:cut] for c in t['top']]
        t['instances'] = [(n, [c[:cut] for c in cs])
                          for n, cs in t['instances']]
    if version == 6:
        if numbers:
            sys.exit('bintool: --cpu-numbers: version 7 only')
        write_v6(t, dst)
    else:
        write_v7(t, dst, numbers)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    cmd, src, dst, rest = argv[1], argv[2], argv[3], argv[4:]
    opts = {}
    i = 0
    while i < len(rest):
        if rest[i] in ('--max-samples', '--version', '--pages'):
            opts[rest[i]] = int(rest[i + 1])
            i += 2
        elif rest[i] in ('--cpu-numbers', '--drop'):
            opts[rest[i]] = [int(x) for x in rest[i + 1].split(',')]
            i += 2
        elif rest[i] in ('--top', '--all-systems'):
            opts[rest[i]] = True
            i += 1
        else:
            sys.exit('bintool: unknown option %s' % rest[i])
    if cmd == 'perf-strip':
        perf_strip(src, dst, opts.get('--max-samples'), opts.get('--drop', ()))
    elif cmd == 'perf-zstd':
        perf_zstd(src, dst)
    elif cmd == 'trace-dat':
        trace_dat(src, dst, opts.get('--version', 7), opts.get('--pages'),
                  opts.get('--top', False), opts.get('--all-systems', False),
                  opts.get('--cpu-numbers'))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
