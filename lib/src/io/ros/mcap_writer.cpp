// MCAP writer (see mcap_writer.hpp), from the MCAP specification: records are
// `opcode u8 | content length u64 | content`, little endian; strings are `u32 length | bytes`,
// byte arrays in a Chunk `u64 length | bytes`, maps `u32 byte length | entries`.
#include "io/ros/mcap_writer.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <lz4frame.h>
#include <zstd.h>

#include "io/write/format_writer.hpp"
#include "io/ros/bag_source.hpp"
#include "io/ros/mcap_records.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::io::detail {
namespace {

using namespace mcap;  // opcodes and magic

constexpr int kZstdLevel = 1;  // fast: joint states compress well at any level (design.md)

// The standard ROS 2 definition of sensor_msgs/msg/JointState with its dependencies, in
// the concatenated `ros2msg` form rosbag2 stores (each dependency after a line of 80 '='
// and `MSG: <type>`); the same text as the MCAP files of Foxglove's tools carry.
constexpr std::string_view kJointStateSchema =
    R"(# This is a message that holds data to describe the state of a set of torque controlled joints.
#
# The state of each joint (revolute or prismatic) is defined by:
#  * the position of the joint (rad or m),
#  * the velocity of the joint (rad/s or m/s) and
#  * the effort that is applied in the joint (Nm or N).
#
# Each joint is uniquely identified by its name
# The header specifies the time at which the joint states were recorded. All the joint states
# in one message have to be recorded at the same time.
#
# This message consists of a multiple arrays, one for each part of the joint state.
# The goal is to make each of the fields optional. When e.g. your joints have no
# effort associated with them, you can leave the effort array empty.
#
# All arrays in this message should have the same size, or be empty.
# This is the only way to uniquely associate the joint name with the correct
# states.

std_msgs/Header header

string[] name
float64[] position
float64[] velocity
float64[] effort

================================================================================
MSG: std_msgs/Header
# Standard metadata for higher-level stamped data types.
# This is generally used to communicate timestamped data
# in a particular coordinate frame.

# Two-integer timestamp that is expressed as seconds and nanoseconds.
builtin_interfaces/Time stamp

# Transform frame with which this data is associated.
string frame_id

================================================================================
MSG: builtin_interfaces/Time
# This message communicates ROS Time defined here:
# https://design.ros2.org/articles/clock_and_time.html

# The seconds component, valid over all int32 values.
int32 sec

# The nanoseconds component, valid in the range [0, 1e9).
uint32 nanosec
)";

// The channel metadata the `ros2` profile requires: the QoS offered by the recorded publisher,
// in rosbag2's YAML form; here a reliable, volatile publisher with the default (infinite)
// deadline, lifespan and lease, as rosbag2 records a joint_state_publisher.
constexpr std::string_view kQosProfiles =
    "- history: unknown\n  depth: 0\n  reliability: reliable\n  durability: volatile\n  deadline:\n"
    "    sec: 9223372036\n    nsec: 854775807\n  lifespan:\n    sec: 9223372036\n    nsec: 854775807\n"
    "  liveliness: automatic\n  liveliness_lease_duration:\n    sec: 9223372036\n    nsec: 854775807\n"
    "  avoid_ros_namespace_conventions: false";

// The definitions of tf2_msgs/msg/TFMessage and std_msgs/msg/String in the same concatenated
// `ros2msg` form: the fields of each message (their comments left out), dependencies after.
constexpr std::string_view kTfMessageSchema =
    "geometry_msgs/TransformStamped[] transforms\n"
    "================================================================================\n"
    "MSG: geometry_msgs/TransformStamped\n"
    "std_msgs/Header header\n"
    "string child_frame_id\n"
    "geometry_msgs/Transform transform\n"
    "================================================================================\n"
    "MSG: std_msgs/Header\n"
    "builtin_interfaces/Time stamp\n"
    "string frame_id\n"
    "================================================================================\n"
    "MSG: builtin_interfaces/Time\n"
    "int32 sec\n"
    "uint32 nanosec\n"
    "================================================================================\n"
    "MSG: geometry_msgs/Transform\n"
    "geometry_msgs/Vector3 translation\n"
    "geometry_msgs/Quaternion rotation\n"
    "================================================================================\n"
    "MSG: geometry_msgs/Vector3\n"
    "float64 x\n"
    "float64 y\n"
    "float64 z\n"
    "================================================================================\n"
    "MSG: geometry_msgs/Quaternion\n"
    "float64 x 0\n"
    "float64 y 0\n"
    "float64 z 0\n"
    "float64 w 1\n";
constexpr std::string_view kStringSchema = "string data\n";

// What robot_state_publisher offers for /tf_static and /robot_description (and MoveIt for
// /robot_description_semantic): transient local, so that a late subscriber (and `ros2 bag
// play`) still gets the one message.
constexpr std::string_view kLatchedQosProfiles =
    "- history: unknown\n  depth: 0\n  reliability: reliable\n  durability: transient_local\n  deadline:\n"
    "    sec: 9223372036\n    nsec: 854775807\n  lifespan:\n    sec: 9223372036\n    nsec: 854775807\n"
    "  liveliness: automatic\n  liveliness_lease_duration:\n    sec: 9223372036\n    nsec: 854775807\n"
    "  avoid_ros_namespace_conventions: false";

struct SchemaText {
  std::string_view name, text;
};
constexpr SchemaText kSchemas[3] = {{"sensor_msgs/msg/JointState", kJointStateSchema},
                                    {"tf2_msgs/msg/TFMessage", kTfMessageSchema},
                                    {"std_msgs/msg/String", kStringSchema}};
/// Per channel (McapChannel order): its schema (index into kSchemas) and QoS.
constexpr std::size_t kChannelSchema[kMcapChannels] = {0, 1, 1, 2, 2, 2};
constexpr std::string_view kChannelQos[kMcapChannels] = {kQosProfiles, kQosProfiles, kLatchedQosProfiles,
                                                         kLatchedQosProfiles, kLatchedQosProfiles,
                                                         kLatchedQosProfiles};

constexpr std::uint16_t channel_id(std::size_t channel) noexcept { return static_cast<std::uint16_t>(channel + 1); }
constexpr std::uint16_t schema_id(std::size_t schema) noexcept { return static_cast<std::uint16_t>(schema + 1); }

/// Little-endian stores through a pointer.
struct Put {
  std::uint8_t* p;
  template <class T>
  void le(T v) noexcept {
    std::uint64_t u = 0;
    if constexpr (sizeof(T) == 8) {
      std::memcpy(&u, &v, 8);
    } else if constexpr (sizeof(T) == 4) {
      std::uint32_t w = 0;
      std::memcpy(&w, &v, 4);
      u = w;
    } else if constexpr (sizeof(T) == 2) {
      std::uint16_t h = 0;
      std::memcpy(&h, &v, 2);
      u = h;
    } else {
      u = static_cast<std::uint8_t>(v);
    }
    for (std::size_t i = 0; i < sizeof(T); ++i) *p++ = static_cast<std::uint8_t>(u >> (8 * i));
  }
  void u8(std::uint8_t v) noexcept { *p++ = v; }
  void u16(std::uint16_t v) noexcept { le(v); }
  void u32(std::uint32_t v) noexcept { le(v); }
  void u64(std::uint64_t v) noexcept { le(v); }
  void bytes(const void* s, std::size_t n) noexcept {
    if (n) std::memcpy(p, s, n);
    p += n;
  }
  void str(std::string_view s) noexcept {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes(s.data(), s.size());
  }
};

/// Builds one record in `b` (cleared): opcode, then the content written by `f` into at most
/// `bound` bytes; the length is filled in afterwards.
template <class F>
void record(ByteBuffer& b, std::uint8_t op, std::size_t bound, F&& f) {
  b.clear();
  Put o{b.room(9 + bound)};
  o.u8(op);
  o.u64(0);
  f(o);
  const auto n = static_cast<std::size_t>(o.p - b.data());
  Put len{b.data() + 1};
  len.u64(n - 9);
  b.commit(n);
}

std::string_view compression_name(ChunkCompression c) noexcept {
  switch (c) {
    case ChunkCompression::None: return "";
    case ChunkCompression::Lz4: return "lz4";
    case ChunkCompression::Zstd: return "zstd";
  }
  return "";
}

// CDR (XCDR1, little endian) of sensor_msgs/msg/JointState, appended at `o`: alignment is
// counted from the end of the 4-byte encapsulation header at `origin`.
struct Cdr {
  std::uint8_t* origin;
  Put o;
  void align(std::size_t n) noexcept {
    while (static_cast<std::size_t>(o.p - origin) % n != 0) *o.p++ = 0;
  }
  void u32(std::uint32_t v) noexcept {
    align(4);
    o.u32(v);
  }
  void str(std::string_view s) noexcept {
    u32(static_cast<std::uint32_t>(s.size() + 1));
    o.bytes(s.data(), s.size());
    o.u8(0);
  }
  void f64(double v) noexcept {
    align(8);
    o.le(v);
  }
  void doubles(const std::vector<double>& v) noexcept {
    u32(static_cast<std::uint32_t>(v.size()));
    if (v.empty()) return;
    align(8);
    o.bytes(v.data(), v.size() * 8);  // little-endian host (checked below)
  }
};
static_assert(std::endian::native == std::endian::little, "the MCAP writer stores doubles as in memory");

std::size_t cdr_bound(const JointState& s) noexcept {
  std::size_t n = 4 + 8 + 8 + 4 + 3 * 16;
  for (const auto& name : s.name) n += 8 + name.size();
  return n + 8 * (s.position.size() + s.velocity.size() + s.effort.size());
}

std::size_t cdr_bound(std::span<const FrameTransform> transforms) noexcept {
  std::size_t n = 4 + 8;
  for (const FrameTransform& t : transforms) n += 4 + 4 + 8 + t.parent.size() + 8 + t.child.size() + 8 + 56;
  return n;
}

}  // namespace

McapEncoder::McapEncoder(const WriterOptions& options)
    : topic_(options.topic), compression_(options.mcap_compression),
      chunk_size_(std::max<std::size_t>(options.mcap_chunk_size, 1)) {
  const std::size_t reserve = std::min<std::size_t>(chunk_size_, std::size_t{64} << 20) + (std::size_t{64} << 10);
  chunk_.reserve(reserve);
  scratch_.reserve(std::size_t{64} << 10);
  chunk_idx_.reserve(std::size_t{64} << 10);
  // Joint states and /tf come once per pose; /tf_static, /robot_description and semantics once.
  for (std::size_t ch = 0; ch < kMcapChannels; ++ch) index_[ch].reserve(ch < 2 ? 4096 : 16);
}

McapEncoder::~McapEncoder() {
  if (zstd_ != nullptr) ZSTD_freeCCtx(zstd_);
  if (lz4_ != nullptr) LZ4F_freeCompressionContext(lz4_);
}

void McapEncoder::emit(fmt::memory_buffer& out, const std::uint8_t* p, std::size_t n) {
  out.append(reinterpret_cast<const char*>(p), reinterpret_cast<const char*>(p) + n);
  if (in_data_) data_crc_ = crc32(data_crc_, p, n);
  pos_ += n;
}

void McapEncoder::begin(fmt::memory_buffer& out) {
  if (begun_) return;
  begun_ = true;
  emit(out, reinterpret_cast<const std::uint8_t*>(kMagic.data()), kMagic.size());
  record(scratch_, kHeader, 64, [](Put& o) {
    o.str("ros2");
    o.str("rmodel");
  });
  emit(out, scratch_);
  declare(McapChannel::joint_states, out);
}

void McapEncoder::schema_record(std::size_t schema) {
  const SchemaText& text = kSchemas[schema];
  record(scratch_, kSchema, 64 + text.name.size() + text.text.size(), [&](Put& o) {
    o.u16(schema_id(schema));
    o.str(text.name);
    o.str("ros2msg");
    o.str(text.text);
  });
}

void McapEncoder::channel_record(std::size_t channel) {
  static constexpr std::string_view kTopics[kMcapChannels] = {"",
                                                              "/tf",
                                                              "/tf_static",
                                                              "/robot_description",
                                                              semantics_topic(SemanticsText::srdf),
                                                              semantics_topic(SemanticsText::rmodel_json)};
  const std::string_view topic = channel == 0 ? std::string_view(topic_) : kTopics[channel];
  const std::string_view qos = kChannelQos[channel];
  record(scratch_, kChannel, 96 + topic.size() + qos.size(), [&](Put& o) {
    o.u16(channel_id(channel));
    o.u16(schema_id(kChannelSchema[channel]));
    o.str(topic);
    o.str("cdr");
    // metadata: map<string, string> of one entry, its byte length first
    o.u32(static_cast<std::uint32_t>(8 + std::string_view("offered_qos_profiles").size() + qos.size()));
    o.str("offered_qos_profiles");
    o.str(qos);
  });
}

void McapEncoder::declare(McapChannel channel, fmt::memory_buffer& out) {
  const auto c = static_cast<std::size_t>(channel);
  if (declared_[c]) return;
  declared_[c] = true;
  const std::size_t schema = kChannelSchema[c];
  if (!schema_declared_[schema]) {
    schema_declared_[schema] = true;
    schema_record(schema);
    emit(out, scratch_);
  }
  channel_record(c);
  emit(out, scratch_);
}

template <class Payload>
bool McapEncoder::add_message(McapChannel channel, std::optional<Time> t, std::size_t bound, fmt::memory_buffer& out,
                              Payload&& payload) {
  if (ended_) throw InvalidArgument("MCAP writer: write after close()");
  begin(out);
  if (t && (t->sec() < INT32_MIN || t->sec() > INT32_MAX)) return false;
  declare(channel, out);
  const auto ch = static_cast<std::size_t>(channel);
  // log_time is when the message was recorded: its stamp, but never earlier than the message
  // written before it, so that every MCAP player, which plays by log time, replays the file in
  // the order it was written (the stamp itself is in the payload, unchanged).
  std::uint64_t log_time = t && t->ns > 0 ? static_cast<std::uint64_t>(t->ns) : 0;
  if (messages_ > 0) log_time = std::max(log_time, last_time_);
  const std::size_t at = chunk_.size();
  std::uint8_t* const start = chunk_.room(9 + 22 + bound);
  Put o{start};
  o.u8(kMessage);
  o.u64(0);
  o.u16(channel_id(ch));
  o.u32(static_cast<std::uint32_t>(channel_messages_[ch] + 1));  // sequence, per channel
  o.u64(log_time);  // log_time
  o.u64(log_time);  // publish_time
  // CDR: little-endian encapsulation header, then the message
  o.u8(0);
  o.u8(1);
  o.u8(0);
  o.u8(0);
  Cdr c{o.p, o};
  payload(c);
  const auto n = static_cast<std::size_t>(c.o.p - start);
  Put len{start + 1};
  len.u64(n - 9);
  chunk_.commit(n);

  std::vector<Entry>& index = index_[ch];
  if (chunk_messages_ == 0) {
    chunk_start_ = chunk_end_ = log_time;
  } else {
    chunk_start_ = std::min(chunk_start_, log_time);
    chunk_end_ = std::max(chunk_end_, log_time);
  }
  if (!index.empty() && log_time < index.back().time) index_sorted_[ch] = false;
  index.push_back({log_time, at});
  ++chunk_messages_;
  if (messages_ == 0) first_time_ = last_time_ = log_time;
  first_time_ = std::min(first_time_, log_time);
  last_time_ = std::max(last_time_, log_time);
  ++messages_;
  ++channel_messages_[ch];
  if (chunk_.size() >= chunk_size_) close_chunk(out);
  return true;
}

bool McapEncoder::add(const JointState& s, std::optional<Time> t, fmt::memory_buffer& out) {
  return add_message(McapChannel::joint_states, t, cdr_bound(s), out, [&](Cdr& c) {
    c.u32(t ? static_cast<std::uint32_t>(static_cast<std::int32_t>(t->sec())) : 0U);
    c.u32(t ? static_cast<std::uint32_t>(t->nanosec()) : 0U);
    c.u32(1);  // frame_id "": length 1, a NUL
    c.o.u8(0);
    c.u32(static_cast<std::uint32_t>(s.name.size()));
    for (const auto& name : s.name) c.str(name);
    c.doubles(s.position);
    c.doubles(s.velocity);
    c.doubles(s.effort);
  });
}

bool McapEncoder::add_transforms(std::span<const FrameTransform> transforms, Time t, bool fixed,
                                 fmt::memory_buffer& out) {
  const auto sec = static_cast<std::uint32_t>(static_cast<std::int32_t>(t.sec()));
  const auto nanosec = static_cast<std::uint32_t>(t.nanosec());
  return add_message(fixed ? McapChannel::tf_static : McapChannel::tf, t, cdr_bound(transforms), out, [&](Cdr& c) {
    c.u32(static_cast<std::uint32_t>(transforms.size()));
    for (const FrameTransform& f : transforms) {
      c.u32(sec);
      c.u32(nanosec);
      c.str(f.parent);
      c.str(f.child);
      for (double v : f.translation) c.f64(v);
      for (double v : f.rotation) c.f64(v);
    }
  });
}

bool McapEncoder::add_robot_description(std::string_view urdf, Time t, fmt::memory_buffer& out) {
  return add_message(McapChannel::robot_description, t, 8 + urdf.size() + 1, out, [&](Cdr& c) { c.str(urdf); });
}

bool McapEncoder::add_semantics(std::string_view text, SemanticsText kind, Time t, fmt::memory_buffer& out) {
  const McapChannel channel = kind == SemanticsText::srdf ? McapChannel::srdf : McapChannel::rmodel_semantics;
  return add_message(channel, t, 8 + text.size() + 1, out, [&](Cdr& c) { c.str(text); });
}

std::size_t McapEncoder::compress() {
  const std::size_t n = chunk_.size();
  if (compression_ == ChunkCompression::Zstd) {
    if (zstd_ == nullptr) zstd_ = ZSTD_createCCtx();
    if (zstd_ == nullptr) throw IoError("<mcap>", "cannot create a zstd context");
    const std::size_t cap = ZSTD_compressBound(n);
    std::uint8_t* dst = packed_.room(cap);
    const std::size_t r = ZSTD_compressCCtx(zstd_, dst, cap, chunk_.data(), n, kZstdLevel);
    if (ZSTD_isError(r)) throw IoError("<mcap>", std::string("zstd: ") + ZSTD_getErrorName(r));
    return r;
  }
  // lz4 frame: one frame per chunk, through a reused context.
  if (lz4_ == nullptr && LZ4F_isError(LZ4F_createCompressionContext(&lz4_, LZ4F_VERSION)))
    throw IoError("<mcap>", "cannot create an lz4 context");
  LZ4F_preferences_t prefs{};
  prefs.frameInfo.contentSize = n;
  const std::size_t cap = LZ4F_compressBound(n, &prefs) + LZ4F_HEADER_SIZE_MAX + 16;
  std::uint8_t* dst = packed_.room(cap);
  std::size_t w = LZ4F_compressBegin(lz4_, dst, cap, &prefs);
  if (LZ4F_isError(w)) throw IoError("<mcap>", std::string("lz4: ") + LZ4F_getErrorName(w));
  std::size_t k = LZ4F_compressUpdate(lz4_, dst + w, cap - w, chunk_.data(), n, nullptr);
  if (LZ4F_isError(k)) throw IoError("<mcap>", std::string("lz4: ") + LZ4F_getErrorName(k));
  w += k;
  k = LZ4F_compressEnd(lz4_, dst + w, cap - w, nullptr);
  if (LZ4F_isError(k)) throw IoError("<mcap>", std::string("lz4: ") + LZ4F_getErrorName(k));
  return w + k;
}

void McapEncoder::close_chunk(fmt::memory_buffer& out) {
  if (chunk_messages_ == 0) return;
  const std::uint64_t chunk_at = pos_;
  const std::size_t usize = chunk_.size();
  const std::uint32_t ucrc = crc32(0, chunk_.data(), usize);
  const std::string_view comp = compression_name(compression_);
  const std::uint8_t* body = chunk_.data();
  std::size_t csize = usize;
  packed_.clear();
  if (compression_ != ChunkCompression::None) {
    csize = compress();
    body = packed_.data();
  }
  // Chunk: the fixed fields, then the records (copied from the buffer without a copy into
  // the record buffer).
  const std::uint64_t content = 8 + 8 + 8 + 4 + 4 + comp.size() + 8 + csize;
  record(scratch_, kChunk, 64, [&](Put& o) {
    o.u64(chunk_start_);
    o.u64(chunk_end_);
    o.u64(usize);
    o.u32(ucrc);
    o.str(comp);
    o.u64(csize);
  });
  Put len{scratch_.data() + 1};
  len.u64(content);
  emit(out, scratch_);
  emit(out, body, csize);
  const std::uint64_t chunk_length = pos_ - chunk_at;

  // A MessageIndex per channel with messages in the chunk, entries ordered by log_time (then
  // offset).
  const std::uint64_t index_at = pos_;
  std::uint64_t channel_index_at[kMcapChannels] = {};
  std::uint32_t indexed = 0;
  for (std::size_t ch = 0; ch < kMcapChannels; ++ch) {
    std::vector<Entry>& index = index_[ch];
    if (index.empty()) continue;
    if (!index_sorted_[ch])
      std::sort(index.begin(), index.end(),
                [](const Entry& a, const Entry& b) { return a.time != b.time ? a.time < b.time : a.offset < b.offset; });
    channel_index_at[ch] = pos_;
    ++indexed;
    record(scratch_, kMessageIndex, 6 + 16 * index.size(), [&](Put& o) {
      o.u16(channel_id(ch));
      o.u32(static_cast<std::uint32_t>(16 * index.size()));
      for (const Entry& e : index) {
        o.u64(e.time);
        o.u64(e.offset);
      }
    });
    emit(out, scratch_);
  }
  const std::uint64_t index_length = pos_ - index_at;

  // Its ChunkIndex, kept for the summary.
  const std::size_t at = chunk_idx_.size();
  // content: 4 u64, the map (u32 + 10 per channel), u64, string (u32 + bytes), 2 u64
  Put o{chunk_idx_.room(9 + 72 + 10 * kMcapChannels + comp.size())};
  o.u8(kChunkIndex);
  o.u64(0);
  o.u64(chunk_start_);
  o.u64(chunk_end_);
  o.u64(chunk_at);
  o.u64(chunk_length);
  o.u32(10 * indexed);  // message_index_offsets: (u16 channel, u64 offset) per indexed channel
  for (std::size_t ch = 0; ch < kMcapChannels; ++ch) {
    if (index_[ch].empty()) continue;
    o.u16(channel_id(ch));
    o.u64(channel_index_at[ch]);
  }
  o.u64(index_length);
  o.str(comp);
  o.u64(csize);
  o.u64(usize);
  const auto n = static_cast<std::size_t>(o.p - (chunk_idx_.data() + at));
  Put clen{chunk_idx_.data() + at + 1};
  clen.u64(n - 9);
  chunk_idx_.commit(n);

  ++chunks_;
  chunk_.clear();
  for (std::size_t ch = 0; ch < kMcapChannels; ++ch) {
    index_[ch].clear();
    index_sorted_[ch] = true;
  }
  chunk_messages_ = 0;
}

void McapEncoder::end(fmt::memory_buffer& out) {
  if (ended_) return;
  begin(out);
  close_chunk(out);
  ended_ = true;
  record(scratch_, kDataEnd, 4, [&](Put& o) { o.u32(data_crc_); });
  emit(out, scratch_);
  in_data_ = false;

  // Summary: one group per record kind; the CRC runs from here through the footer's
  // summary_offset_start.
  const std::uint64_t summary_start = pos_;
  std::uint32_t crc = 0;
  auto put = [&](const std::uint8_t* p, std::size_t n) {
    crc = crc32(crc, p, n);
    emit(out, p, n);
  };
  struct Group {
    std::uint8_t op;
    std::uint64_t start, length;
  };
  Group groups[4];
  int ngroups = 0;
  auto group = [&](std::uint8_t op, const std::uint8_t* p, std::size_t n) {
    if (n == 0) return;
    groups[ngroups++] = {op, pos_, n};
    put(p, n);
  };
  // Every schema, then every channel declared, each kind one group.
  ByteBuffer declared;
  const auto keep_record = [&] {
    std::memcpy(declared.room(scratch_.size()), scratch_.data(), scratch_.size());
    declared.commit(scratch_.size());
  };
  std::uint16_t schemas = 0;
  std::uint32_t channels = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    if (!schema_declared_[k]) continue;
    ++schemas;
    schema_record(k);
    keep_record();
  }
  group(kSchema, declared.data(), declared.size());
  declared.clear();
  for (std::size_t ch = 0; ch < kMcapChannels; ++ch) {
    if (!declared_[ch]) continue;
    ++channels;
    channel_record(ch);
    keep_record();
  }
  group(kChannel, declared.data(), declared.size());
  record(scratch_, kStatistics, 64 + 10 * kMcapChannels, [&](Put& o) {
    o.u64(messages_);
    o.u16(schemas);
    o.u32(channels);
    o.u32(0);  // attachments
    o.u32(0);  // metadata
    o.u32(chunks_);
    o.u64(first_time_);
    o.u64(last_time_);
    o.u32(10 * channels);  // channel_message_counts: one entry per channel
    for (std::size_t ch = 0; ch < kMcapChannels; ++ch) {
      if (!declared_[ch]) continue;
      o.u16(channel_id(ch));
      o.u64(channel_messages_[ch]);
    }
  });
  group(kStatistics, scratch_.data(), scratch_.size());
  group(kChunkIndex, chunk_idx_.data(), chunk_idx_.size());

  const std::uint64_t summary_offset_start = pos_;
  for (int g = 0; g < ngroups; ++g) {
    record(scratch_, kSummaryOffset, 17, [&](Put& o) {
      o.u8(groups[g].op);
      o.u64(groups[g].start);
      o.u64(groups[g].length);
    });
    put(scratch_.data(), scratch_.size());
  }
  // Footer: its CRC covers the summary, the summary offsets and the footer up to and
  // including summary_offset_start.
  std::uint8_t footer[9 + 20];
  Put o{footer};
  o.u8(kFooter);
  o.u64(20);
  o.u64(summary_start);
  o.u64(summary_offset_start);
  crc = crc32(crc, footer, 9 + 16);
  o.u32(crc);
  emit(out, footer, sizeof footer);
  emit(out, reinterpret_cast<const std::uint8_t*>(kMagic.data()), kMagic.size());
}

namespace {

// MessageWriter's MCAP output: joint states, transforms and the robot description through
// the encoder; with flush_each_message every message closes its chunk.
class McapWriter final : public FormatWriter {
public:
  explicit McapWriter(const WriterOptions& options)
      : encoder_(options), flush_each_message_(options.flush_each_message) {}

  // One JointState message at its time in nanoseconds.
  WriteStatus write(const LineParts& m, fmt::memory_buffer& out) override {
    if (m.kind != MessageKind::Joint) return WriteStatus::Skipped;
    std::optional<Time> t;
    if (m.has_stamp) t = m.stamp;
    return written(encoder_.add(*m.joint, t, out), out);
  }
  WriteStatus write_transforms(std::span<const FrameTransform> transforms, Time stamp, bool fixed,
                               fmt::memory_buffer& out) override {
    return written(encoder_.add_transforms(transforms, stamp, fixed, out), out);
  }
  WriteStatus write_robot_description(std::string_view urdf, Time stamp, fmt::memory_buffer& out) override {
    return written(encoder_.add_robot_description(urdf, stamp, out), out);
  }
  WriteStatus write_semantics(std::string_view text, SemanticsText kind, Time stamp,
                              fmt::memory_buffer& out) override {
    return written(encoder_.add_semantics(text, kind, stamp, out), out);
  }
  void end(fmt::memory_buffer& out) override { encoder_.end(out); }

private:
  McapEncoder encoder_;
  bool flush_each_message_;

  WriteStatus written(bool added, fmt::memory_buffer& out) {
    if (!added) return WriteStatus::Skipped;
    if (flush_each_message_) encoder_.close_chunk(out);
    return WriteStatus::Written;
  }
};

}  // namespace

std::unique_ptr<FormatWriter> make_mcap_writer(const WriterOptions& options) {
  return std::make_unique<McapWriter>(options);
}

}  // namespace rmodel::io::detail
