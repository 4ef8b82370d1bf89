#!/usr/bin/env python3
"""Writes the in-repository seeds of the ROS log fuzz targets (seeds/mcap, seeds/rosbag1,
seeds/db3): small files built here from the published format descriptions (MCAP
specification, ROS 1 bag format 2.0, rosbag2's sqlite3 tables), so that the seeds replay
under ctest without ../shared/fixtures. Run from anywhere; rewrites the files."""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ["neck_pitch", "leg1_joint1"]

def u8(v): return struct.pack("<B", v)
def u16(v): return struct.pack("<H", v)
def u32(v): return struct.pack("<I", v)
def u64(v): return struct.pack("<Q", v)

# --- ROS 2 CDR JointState (little-endian encapsulation; alignment counted after the 4-byte header)
def cdr_joint_state(sec, nsec, names, position, velocity=(), effort=()):
    out = bytearray()
    def align(n):
        while len(out) % n: out.append(0)
    def string(s):
        align(4); b = s.encode() + b"\0"; out.extend(u32(len(b)) + b)
    out.extend(struct.pack("<iI", sec, nsec)); string("")
    align(4); out.extend(u32(len(names)))
    for n in names: string(n)
    for arr in (position, velocity, effort):
        align(4); out.extend(u32(len(arr)))
        if arr: align(8)
        for v in arr: out.extend(struct.pack("<d", v))
    return b"\x00\x01\x00\x00" + bytes(out)

ROS2_DEFINITION = (
    "std_msgs/Header header\nstring[] name\nfloat64[] position\nfloat64[] velocity\nfloat64[] effort\n"
    "\n================================================================================\n"
    "MSG: std_msgs/Header\nbuiltin_interfaces/Time stamp\nstring frame_id\n"
    "\n================================================================================\n"
    "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n")

# --- MCAP
def string(s): b = s.encode(); return u32(len(b)) + b
def record(op, body): return u8(op) + u64(len(body)) + body

def mcap(compressed_chunks=False, summary=True):
    magic = b"\x89MCAP0\r\n"
    out = bytearray(magic)
    out += record(0x01, string("ros2") + string("rmodel seed"))
    schema = record(0x03, u16(1) + string("sensor_msgs/msg/JointState") + string("ros2msg") + string(ROS2_DEFINITION))
    channel = record(0x04, u16(1) + u16(1) + string("/joint_states") + string("cdr") + u32(0))
    inner = bytearray(schema + channel)
    index = []
    for i in range(3):
        t = (10 + i) * 1_000_000_000
        index.append((t, len(inner)))
        data = cdr_joint_state(10 + i, 0, NAMES, [0.1 * i, -0.5])
        inner += record(0x05, u16(1) + u32(i) + u64(t) + u64(t) + data)
    chunk_start = len(out)
    chunk = record(0x06, u64(index[0][0]) + u64(index[-1][0]) + u64(len(inner)) + u32(zlib.crc32(inner)) +
                   string("") + u64(len(inner)) + bytes(inner))
    out += chunk
    mi_start = len(out)
    entries = b"".join(u64(t) + u64(o) for t, o in index)
    out += record(0x07, u16(1) + u32(len(entries)) + entries)
    mi_len = len(out) - mi_start
    out += record(0x0F, u32(0))
    if summary:
        summary_start = len(out)
        out += schema + channel
        offsets = u16(1) + u64(mi_start)
        out += record(0x08, u64(index[0][0]) + u64(index[-1][0]) + u64(chunk_start) + u64(len(chunk)) +
                      u32(len(offsets)) + offsets + u64(mi_len) + string("") + u64(len(inner)) + u64(len(inner)))
        out += record(0x02, u64(summary_start) + u64(0) + u32(0))
    else:
        out += record(0x02, u64(0) + u64(0) + u32(0))
    return bytes(out + magic)

# --- ROS 1 bag 2.0
def fields(**kv):
    return b"".join(u32(len(k) + 1 + len(v)) + k.encode() + b"=" + v for k, v in kv.items())

def bag_record(header, data): return u32(len(header)) + header + u32(len(data)) + data

ROS1_DEFINITION = ("Header header\nstring[] name\nfloat64[] position\nfloat64[] velocity\nfloat64[] effort\n"
                   "\n================================================================================\n"
                   "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n")

def ros1_joint_state(seq, sec, nsec, names, position):
    def s(x): b = x.encode(); return u32(len(b)) + b
    out = u32(seq) + u32(sec) + u32(nsec) + s("") + u32(len(names)) + b"".join(s(n) for n in names)
    out += u32(len(position)) + b"".join(struct.pack("<d", v) for v in position) + u32(0) + u32(0)
    return out

def rosbag1():
    conn_data = fields(topic=b"/joint_states", type=b"sensor_msgs/JointState",
                       md5sum=b"3066dcd76a6cfaef579bd0f34173e9fd", message_definition=ROS1_DEFINITION.encode())
    conn = bag_record(fields(op=b"\x07", conn=u32(0), topic=b"/joint_states"), conn_data)
    inner = conn
    for i in range(3):
        inner += bag_record(fields(op=b"\x02", conn=u32(0), time=u32(10 + i) + u32(0)),
                            ros1_joint_state(i, 10 + i, 0, NAMES, [0.1 * i, -0.5]))
    header = fields(op=b"\x03", index_pos=u64(0), conn_count=u32(1), chunk_count=u32(1))
    pad = 4096 - 4 - len(header) - 4
    out = b"#ROSBAG V2.0\n" + u32(len(header)) + header + u32(pad) + b" " * pad
    out += bag_record(fields(op=b"\x05", compression=b"none", size=u32(len(inner))), inner)
    return out

def db3():
    parts = [b"sensor_msgs/msg/JointState"]
    parts += [cdr_joint_state(10 + i, 0, NAMES, [0.1 * i, -0.5]) for i in range(3)]
    return b"\n====\n".join(parts)

def write(target, name, data):
    d = os.path.join(HERE, "seeds", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

write("mcap", "summary.mcap", mcap(summary=True))
write("mcap", "no_summary.mcap", mcap(summary=False))
write("rosbag1", "plain.bag", rosbag1())
write("db3", "three_messages.db3-input", db3())
write("db3", "unknown_type.db3-input", b"std_msgs/msg/String\n====\n" + cdr_joint_state(1, 2, NAMES, [1.0]))
