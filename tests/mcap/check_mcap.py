#!/usr/bin/env python3
"""Structural checker for MCAP files, written from the MCAP specification (mcap.dev/spec),
independently of rmodel's writer. Standard library only: uncompressed chunks are walked
record by record; compressed chunks (zstd, lz4) are checked at the chunk level (header,
sizes, indexes, summary) but their records cannot be opened without python3-zstandard/lz4.

Checks: magic at both ends; every record's opcode and length; Header first, Footer last;
DataEnd ends the data section and its data_section_crc; chunk uncompressed_crc; every
MessageIndex entry points at a Message record of its channel inside its chunk, with the
entry's log_time, entries sorted by log_time; every ChunkIndex points at a Chunk with the
same start/end times, sizes and compression, and its message_index_offsets point at the
MessageIndex records that follow that chunk; Statistics counts; SummaryOffset groups cover
the summary's records by opcode; Footer summary_start, summary_offset_start, summary_crc.

Usage: check_mcap.py FILE.mcap [--jsonl FILE.jsonl] [--expect-compression none|zstd|lz4]
  --jsonl: also decode each JointState message's CDR and compare header stamp, names and
           positions/velocities/efforts with the JSON Lines file (one object per message,
           rmodel's JSON Lines: "t", "name", "position", ...).
  --dump-schema: print the JointState schema's name, encoding and data, then exit.
  --same-payloads OTHER.mcap: the JointState message payloads (CDR bytes) of both files are
           equal, in order (OTHER: an uncompressed MCAP, e.g. one written by Foxglove's library).
Exit 0 when the file is valid, 1 with a message otherwise.
"""
import json
import math
import struct
import sys
import zlib

MAGIC = b"\x89MCAP0\r\n"
OP = {0x01: "Header", 0x02: "Footer", 0x03: "Schema", 0x04: "Channel", 0x05: "Message",
      0x06: "Chunk", 0x07: "MessageIndex", 0x08: "ChunkIndex", 0x09: "Attachment",
      0x0A: "AttachmentIndex", 0x0B: "Statistics", 0x0C: "Metadata", 0x0D: "MetadataIndex",
      0x0E: "SummaryOffset", 0x0F: "DataEnd"}


class Bad(Exception):
    pass


def need(cond, what):
    if not cond:
        raise Bad(what)


class Cur:
    """Little-endian reader over bytes."""

    def __init__(self, b, base=0):
        self.b, self.p, self.base = b, 0, base

    def take(self, n):
        need(self.p + n <= len(self.b), f"byte {self.base + self.p}: field runs past its record")
        v = self.b[self.p:self.p + n]
        self.p += n
        return v

    def u8(self): return self.take(1)[0]
    def u16(self): return struct.unpack("<H", self.take(2))[0]
    def u32(self): return struct.unpack("<I", self.take(4))[0]
    def u64(self): return struct.unpack("<Q", self.take(8))[0]
    def string(self): return self.take(self.u32()).decode("utf-8")
    def bytes32(self): return self.take(self.u32())
    def bytes64(self): return self.take(self.u64())
    def done(self): return self.p == len(self.b)

    def map(self, key, val):
        body = Cur(self.bytes32())
        out = {}
        while not body.done():
            k = key(body)
            out[k] = val(body)
        return out


def records(buf, start, end, where):
    """Yields (offset, opcode, content) for the records in buf[start:end]."""
    p = start
    while p < end:
        need(p + 9 <= end, f"{where} byte {p}: truncated record header")
        op, n = struct.unpack_from("<BQ", buf, p)
        need(p + 9 + n <= end, f"{where} byte {p}: record 0x{op:02x} of {n} bytes runs past the end")
        need(op in OP, f"{where} byte {p}: unknown opcode 0x{op:02x}")
        yield p, op, buf[p + 9:p + 9 + n]
        p += 9 + n


def parse_message(c):
    return dict(channel=c.u16(), sequence=c.u32(), log_time=c.u64(), publish_time=c.u64(),
                data=c.b[c.p:])


def decode_joint_state(data):
    """CDR (XCDR1 little endian) sensor_msgs/msg/JointState: alignment counted after the
    4-byte encapsulation header; string = u32 length incl. NUL + bytes; sequence = u32 count."""
    need(len(data) >= 4 and data[0] == 0 and data[1] == 1, "CDR: encapsulation is not 00 01 (CDR_LE)")
    body = data[4:]
    pos = [0]

    def align(n):
        pos[0] += (-pos[0]) % n

    def u32():
        align(4)
        need(pos[0] + 4 <= len(body), "CDR: truncated")
        v = struct.unpack_from("<I", body, pos[0])[0]
        pos[0] += 4
        return v

    def i32():
        v = u32()
        return v - (1 << 32) if v >= 1 << 31 else v

    def string():
        n = u32()
        need(n >= 1 and pos[0] + n <= len(body) and body[pos[0] + n - 1] == 0, "CDR: bad string")
        s = body[pos[0]:pos[0] + n - 1].decode("utf-8")
        pos[0] += n
        return s

    def doubles():
        n = u32()
        if n:
            align(8)
        need(pos[0] + 8 * n <= len(body), "CDR: truncated float64[]")
        v = list(struct.unpack_from(f"<{n}d", body, pos[0]))
        pos[0] += 8 * n
        return v

    sec, nanosec = i32(), u32()
    frame = string()
    names = [string() for _ in range(u32())]
    out = dict(sec=sec, nanosec=nanosec, frame_id=frame, name=names, position=doubles(),
               velocity=doubles(), effort=doubles())
    need(pos[0] <= len(body), "CDR: truncated")
    return out


def joint_state_payloads(path):
    """The CDR payloads of the JointState messages of an uncompressed MCAP file, in file order."""
    buf = open(path, "rb").read()
    schemas, channels, out = {}, {}, []

    def walk(b, start, end):
        for _, op, body in records(b, start, end, path):
            c = Cur(body)
            if op == 0x03:
                sid, name = c.u16(), c.string()
                schemas[sid] = name
            elif op == 0x04:
                cid, sid = c.u16(), c.u16()
                channels[cid] = schemas.get(sid)
            elif op == 0x05:
                m = parse_message(c)
                if channels.get(m["channel"]) == "sensor_msgs/msg/JointState":
                    out.append(bytes(m["data"]))
            elif op == 0x06:
                c.u64(), c.u64(), c.u64(), c.u32()
                need(c.string() == "", f"{path}: compressed chunk (need an uncompressed file)")
                inner = c.bytes64()
                walk(inner, 0, len(inner))
            elif op == 0x0F:
                return
    walk(buf, 8, len(buf) - 8)
    return out


def check(path, expect_compression=None, jsonl=None, dump_schema=False, same_payloads=None):
    buf = open(path, "rb").read()
    need(len(buf) >= 8 + 9 + 8 and buf[:8] == MAGIC, "no MCAP magic at the start")
    need(buf[-8:] == MAGIC, "no MCAP magic at the end")
    end = len(buf) - 8
    recs = list(records(buf, 8, end, "file"))
    need(recs and recs[0][1] == 0x01, "the first record is not a Header")
    need(recs[-1][1] == 0x02, "the last record is not a Footer")
    hdr = Cur(recs[0][2])
    profile, library = hdr.string(), hdr.string()

    # Footer
    foff, _, fbody = recs[-1]
    f = Cur(fbody, foff + 9)
    summary_start, summary_offset_start, summary_crc = f.u64(), f.u64(), f.u32()
    need(f.done(), "Footer has trailing bytes")

    # DataEnd: the data section ends there.
    de = [r for r in recs if r[1] == 0x0F]
    need(len(de) == 1, f"{len(de)} DataEnd records (want 1)")
    de_off = de[0][0]
    data_crc = Cur(de[0][2]).u32()
    if data_crc != 0:
        need(zlib.crc32(buf[:de_off]) == data_crc,
             f"DataEnd data_section_crc {data_crc:08x} != computed {zlib.crc32(buf[:de_off]):08x}")
    data_recs = [r for r in recs if r[0] < de_off]
    after = [r for r in recs if r[0] > de_off]
    need(summary_start == 0 or summary_start == de_off + 9 + len(de[0][2]),
         f"Footer summary_start {summary_start} is not right after DataEnd")
    if summary_crc != 0:
        crc_from = summary_start if summary_start else foff
        got = zlib.crc32(buf[crc_from:foff + 9 + 16])
        need(got == summary_crc, f"Footer summary_crc {summary_crc:08x} != computed {got:08x}")

    schemas, channels = {}, {}
    chunks = {}  # offset -> info
    messages = []  # (channel, sequence, log_time, publish_time, data)
    n_chunks = 0
    comp_seen = set()

    def on_schema(c):
        sid, name, enc, data = c.u16(), c.string(), c.string(), c.bytes32()
        need(sid != 0, "Schema id 0 is reserved")
        schemas.setdefault(sid, (name, enc, bytes(data)))
        need(schemas[sid] == (name, enc, bytes(data)), f"Schema {sid} repeated with other content")

    def on_channel(c):
        cid, sid, topic, enc = c.u16(), c.u16(), c.string(), c.string()
        meta = c.map(lambda x: x.string(), lambda x: x.string())
        need(sid == 0 or sid in schemas, f"Channel {cid} refers to unknown schema {sid}")
        channels.setdefault(cid, (sid, topic, enc, meta))
        need(channels[cid] == (sid, topic, enc, meta), f"Channel {cid} repeated with other content")

    i = 1
    while i < len(data_recs):
        off, op, body = data_recs[i]
        c = Cur(body, off + 9)
        if op == 0x03:
            on_schema(c)
        elif op == 0x04:
            on_channel(c)
        elif op == 0x05:
            m = parse_message(c)
            need(m["channel"] in channels, f"byte {off}: Message on unknown channel {m['channel']}")
            messages.append(m)
        elif op == 0x06:
            n_chunks += 1
            start_t, end_t, usize, ucrc = c.u64(), c.u64(), c.u64(), c.u32()
            comp = c.string()
            data = c.bytes64()
            need(c.done(), f"byte {off}: Chunk has trailing bytes")
            comp_seen.add(comp or "none")
            info = dict(start=start_t, end=end_t, usize=usize, comp=comp, csize=len(data),
                        length=9 + len(body), msgs={}, indexes={})
            inner = None
            if comp == "":
                need(len(data) == usize, f"byte {off}: uncompressed chunk of {len(data)} bytes, header says {usize}")
                inner = data
            if inner is not None:
                if ucrc != 0:
                    need(zlib.crc32(inner) == ucrc, f"byte {off}: chunk uncompressed_crc mismatch")
                times = []
                for roff, rop, rbody in records(inner, 0, len(inner), f"chunk at byte {off}:"):
                    rc = Cur(rbody)
                    need(rop in (0x03, 0x04, 0x05), f"chunk at byte {off}: record {OP[rop]} not allowed in a chunk")
                    if rop == 0x03:
                        on_schema(rc)
                    elif rop == 0x04:
                        on_channel(rc)
                    else:
                        m = parse_message(rc)
                        need(m["channel"] in channels, f"chunk at byte {off}: Message on unknown channel")
                        messages.append(m)
                        info["msgs"][roff] = m
                        times.append(m["log_time"])
                if times:
                    need(start_t == min(times) and end_t == max(times),
                         f"byte {off}: chunk times {start_t}..{end_t} != messages' {min(times)}..{max(times)}")
                else:
                    need(start_t == 0 and end_t == 0, f"byte {off}: chunk without messages has times")
            else:
                need(comp in ("zstd", "lz4"), f"byte {off}: unknown compression {comp!r}")
            # The MessageIndex records that follow the chunk.
            j = i + 1
            while j < len(data_recs) and data_recs[j][1] == 0x07:
                moff, _, mbody = data_recs[j]
                mc = Cur(mbody)
                cid = mc.u16()
                ebody = Cur(mc.bytes32())
                need(mc.done(), f"byte {moff}: MessageIndex has trailing bytes")
                entries = []
                while not ebody.done():
                    entries.append((ebody.u64(), ebody.u64()))
                need(entries == sorted(entries, key=lambda e: e[0]),
                     f"byte {moff}: MessageIndex entries not sorted by log_time")
                if inner is not None:
                    for t, roff in entries:
                        m = info["msgs"].get(roff)
                        need(m is not None, f"byte {moff}: MessageIndex offset {roff} is not a Message in the chunk")
                        need(m["channel"] == cid and m["log_time"] == t,
                             f"byte {moff}: MessageIndex entry ({t}, {roff}) does not match its Message")
                    want = sorted((m["log_time"], o) for o, m in info["msgs"].items() if m["channel"] == cid)
                    need(sorted(entries) == want, f"byte {moff}: MessageIndex of channel {cid} is not complete")
                info["indexes"][cid] = moff
                info["index_length"] = moff + 9 + len(mbody) - (off + info["length"])
                j += 1
            if inner is not None:
                for cid in {m["channel"] for m in info["msgs"].values()}:
                    need(cid in info["indexes"], f"byte {off}: chunk has no MessageIndex for channel {cid}")
            info.setdefault("index_length", 0)
            chunks[off] = info
            i = j
            continue
        elif op == 0x07:
            raise Bad(f"byte {off}: MessageIndex not after a Chunk")
        elif op in (0x01, 0x02, 0x0E):
            raise Bad(f"byte {off}: {OP[op]} record in the data section")
        i += 1

    # Summary section.
    summ = [r for r in after if r[1] != 0x02]
    if summary_start:
        need(summ and summ[0][0] == summary_start, "Footer summary_start does not point at a record")
    groups = {}
    stats = None
    chunk_indexes = []
    offsets_seen = []
    in_offsets = False
    for off, op, body in summ:
        c = Cur(body, off + 9)
        if op == 0x0E:
            if not in_offsets:
                need(summary_offset_start == off, f"Footer summary_offset_start {summary_offset_start} != {off}")
                in_offsets = True
            gop, gstart, glen = c.u8(), c.u64(), c.u64()
            offsets_seen.append((gop, gstart, glen))
            continue
        need(not in_offsets, f"byte {off}: {OP[op]} after the SummaryOffset records")
        need(op in (0x03, 0x04, 0x08, 0x0A, 0x0B, 0x0D), f"byte {off}: {OP[op]} not allowed in the summary")
        g = groups.setdefault(op, [off, off])
        g[1] = off + 9 + len(body)
        if op == 0x03:
            on_schema(c)
        elif op == 0x04:
            on_channel(c)
        elif op == 0x0B:
            stats = dict(message_count=c.u64(), schema_count=c.u16(), channel_count=c.u32(),
                         attachment_count=c.u32(), metadata_count=c.u32(), chunk_count=c.u32(),
                         start=c.u64(), end=c.u64(),
                         per_channel=c.map(lambda x: x.u16(), lambda x: x.u64()))
        elif op == 0x08:
            ci = dict(start=c.u64(), end=c.u64(), offset=c.u64(), length=c.u64(),
                      indexes=c.map(lambda x: x.u16(), lambda x: x.u64()),
                      index_length=c.u64(), comp=c.string(), csize=c.u64(), usize=c.u64())
            chunk_indexes.append((off, ci))
    if not in_offsets:
        need(summary_offset_start == 0, "Footer summary_offset_start set but no SummaryOffset records")
    # Every group of summary records by opcode is named by one SummaryOffset, and the groups
    # are contiguous runs of one opcode.
    for op, (gs, ge) in groups.items():
        run = [r for r in summ if gs <= r[0] < ge]
        need(all(r[1] == op for r in run), f"summary records of {OP[op]} are not contiguous")
    if offsets_seen:
        need(sorted((g, s, l) for g, s, l in offsets_seen) == sorted((op, gs, ge - gs) for op, (gs, ge) in groups.items()),
             f"SummaryOffset records {offsets_seen} do not match the summary's groups")

    # ChunkIndex → Chunk.
    need(len(chunk_indexes) in (0, len(chunks)), f"{len(chunk_indexes)} ChunkIndex records for {len(chunks)} chunks")
    for off, ci in chunk_indexes:
        ch = chunks.get(ci["offset"])
        need(ch is not None, f"ChunkIndex at byte {off}: chunk_start_offset {ci['offset']} is not a Chunk")
        for k_ci, k_ch in (("start", "start"), ("end", "end"), ("length", "length"), ("comp", "comp"),
                           ("csize", "csize"), ("usize", "usize"), ("index_length", "index_length")):
            need(ci[k_ci] == ch[k_ch], f"ChunkIndex at byte {off}: {k_ci} {ci[k_ci]} != chunk's {ch[k_ch]}")
        need(ci["indexes"] == ch["indexes"],
             f"ChunkIndex at byte {off}: message_index_offsets {ci['indexes']} != {ch['indexes']}")

    if stats is not None:
        need(stats["chunk_count"] == len(chunks), "Statistics chunk_count wrong")
        need(stats["schema_count"] == len(schemas), "Statistics schema_count wrong")
        need(stats["channel_count"] == len(channels), "Statistics channel_count wrong")
        if all(ch["comp"] == "" for ch in chunks.values()):
            need(stats["message_count"] == len(messages), "Statistics message_count wrong")
            per = {}
            for m in messages:
                per[m["channel"]] = per.get(m["channel"], 0) + 1
            need({k: v for k, v in stats["per_channel"].items() if v} == per,
                 f"Statistics channel_message_counts {stats['per_channel']} != {per}")
            if messages:
                need(stats["start"] == min(m["log_time"] for m in messages) and
                     stats["end"] == max(m["log_time"] for m in messages), "Statistics start/end wrong")

    if expect_compression is not None:
        want = "none" if expect_compression in ("", "none") else expect_compression
        need(comp_seen <= {want}, f"chunk compressions {comp_seen}, expected {want}")

    js = [(sid, s) for sid, s in schemas.items() if s[0] == "sensor_msgs/msg/JointState"]
    if dump_schema:
        for sid, (name, enc, data) in js:
            print(f"schema {sid}: {name} {enc}")
            print(data.decode("utf-8"), end="")
        for cid, (sid, topic, enc, meta) in channels.items():
            print(f"channel {cid}: schema {sid} topic {topic} encoding {enc} metadata {meta}")
        print(f"header: profile {profile!r} library {library!r}")
        return

    if jsonl is not None:
        lines = [json.loads(l) for l in open(jsonl) if l.strip()]
        jsc = {cid for cid, ch in channels.items() if ch[0] in dict(js)}
        got = [m for m in messages if m["channel"] in jsc]
        need(len(got) == len(lines), f"{len(got)} JointState messages, the JSON Lines file has {len(lines)}")
        for k, (m, want) in enumerate(zip(got, lines), 1):
            d = decode_joint_state(m["data"])
            need(d["name"] == want["name"], f"message {k}: names {d['name']} != {want['name']}")
            for field in ("position", "velocity", "effort"):
                a = d[field]
                b = [math.nan if x is None else x for x in want.get(field, [])]
                same = len(a) == len(b) and all(
                    (math.isnan(x) and math.isnan(y)) or (x == y and math.copysign(1, x) == math.copysign(1, y))
                    for x, y in zip(a, b))
                need(same, f"message {k}: {field} {a} != {b}")
            if "t" in want and want["t"] is not None:
                t = d["sec"] + d["nanosec"] / 1e9  # only compared to the nanosecond
                ns = d["sec"] * 1_000_000_000 + d["nanosec"]
                need(abs(ns - round(want["t"] * 1e9)) <= 1, f"message {k}: stamp {t} != t {want['t']}")
                need(m["log_time"] == max(ns, 0) and m["publish_time"] == m["log_time"],
                     f"message {k}: log/publish time {m['log_time']} != stamp {ns}")
            need(m["sequence"] == k, f"message {k}: sequence {m['sequence']}")
    if same_payloads is not None:
        a, b = joint_state_payloads(path), joint_state_payloads(same_payloads)
        need(len(a) == len(b), f"{len(a)} JointState payloads, {same_payloads} has {len(b)}")
        for k, (x, y) in enumerate(zip(a, b), 1):
            need(x == y, f"JointState message {k}: CDR payload differs from {same_payloads}'s "
                         f"({len(x)} vs {len(y)} bytes)")
    print(f"{path}: ok: profile {profile}, {len(schemas)} schemas, {len(channels)} channels, "
          f"{len(chunks)} chunks ({', '.join(sorted(comp_seen)) or 'none'}), {len(messages)} messages"
          f"{' read' if messages or not chunks else ' (compressed: not opened)'}")


def main(argv):
    args = argv[1:]
    jsonl = None
    comp = None
    dump = False
    if "--jsonl" in args:
        k = args.index("--jsonl")
        jsonl = args[k + 1]
        del args[k:k + 2]
    if "--expect-compression" in args:
        k = args.index("--expect-compression")
        comp = args[k + 1]
        del args[k:k + 2]
    same = None
    if "--same-payloads" in args:
        k = args.index("--same-payloads")
        same = args[k + 1]
        del args[k:k + 2]
    if "--dump-schema" in args:
        args.remove("--dump-schema")
        dump = True
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        check(args[0], comp, jsonl, dump, same)
    except Bad as e:
        print(f"{args[0]}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
