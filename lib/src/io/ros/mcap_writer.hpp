#pragma once
// Internal: the MCAP encoder behind MessageWriter (format `mcap`), written from the MCAP
// specification (mcap.dev/spec). Output, in file order:
//   magic | Header (profile "ros2") | Schema | Channel
//   | { Chunk | MessageIndex per channel in it }*    (the data section; the Schema and
//                                                     Channel of /tf, /tf_static,
//                                                     /robot_description and the semantics
//                                                     topic between chunks, before
//                                                     the chunk of their first message)
//   | DataEnd (data_section_crc)
//   | Schema* | Channel* | Statistics | ChunkIndex*  (the summary section, one group each)
//   | SummaryOffset per group | Footer | magic
// Messages are ROS 2 sensor_msgs/msg/JointState, tf2_msgs/msg/TFMessage and
// std_msgs/msg/String in CDR. Everything is written sequentially
// (no seeking: a pipe works); the summary is kept in memory and written at the end.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rmodel/io/bag.hpp"
#include "rmodel/io/writer.hpp"

struct ZSTD_CCtx_s;
struct LZ4F_cctx_s;

namespace rmodel::io::detail {

/// A growable byte buffer written through a raw pointer after reserving room.
class ByteBuffer {
public:
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] const std::uint8_t* data() const noexcept { return data_.data(); }
  [[nodiscard]] std::uint8_t* data() noexcept { return data_.data(); }
  /// Makes room for `n` more bytes; returns where they go (grows only when needed).
  std::uint8_t* room(std::size_t n) {
    if (data_.size() - size_ < n) data_.resize(std::max(data_.size() * 2, size_ + n));
    return data_.data() + size_;
  }
  void commit(std::size_t n) noexcept { size_ += n; }
  void set_size(std::size_t n) noexcept { size_ = n; }
  void clear() noexcept { size_ = 0; }
  void reserve(std::size_t n) {
    if (data_.size() < n) data_.resize(n);
  }

private:
  std::vector<std::uint8_t> data_;
  std::size_t size_ = 0;
};

/// The channels the encoder writes (index into its tables; channel id = index + 1).
enum class McapChannel : std::uint8_t { joint_states, tf, tf_static, robot_description, srdf, rmodel_semantics };
inline constexpr std::size_t kMcapChannels = 6;

class McapEncoder {
public:
  explicit McapEncoder(const WriterOptions& options);
  ~McapEncoder();
  McapEncoder(const McapEncoder&) = delete;
  McapEncoder& operator=(const McapEncoder&) = delete;

  /// Magic, Header, Schema and Channel (once, before the first message).
  void begin(fmt::memory_buffer& out);
  /// Adds a JointState at time `t` (0 and no stamp when `t` is empty). False when the stamp
  /// does not fit a ROS 2 header (sec is int32): nothing is written.
  bool add(const JointState& state, std::optional<Time> t, fmt::memory_buffer& out);
  /// Adds a TFMessage on /tf or /tf_static, every transform stamped `t`. False (nothing
  /// written) when `t` does not fit a ROS 2 stamp.
  bool add_transforms(std::span<const FrameTransform> transforms, Time t, bool fixed, fmt::memory_buffer& out);
  /// Adds a String on /robot_description logged at `t`.
  bool add_robot_description(std::string_view urdf, Time t, fmt::memory_buffer& out);
  /// Adds a String on the topic of `kind` (io::semantics_topic) logged at `t`.
  bool add_semantics(std::string_view text, SemanticsText kind, Time t, fmt::memory_buffer& out);
  /// Closes the current chunk (when it holds messages): Chunk and MessageIndex to `out`.
  void close_chunk(fmt::memory_buffer& out);
  /// The last chunk, DataEnd, the summary, the footer and the magic. Once.
  void end(fmt::memory_buffer& out);
  [[nodiscard]] bool ended() const noexcept { return ended_; }

private:
  void emit(fmt::memory_buffer& out, const std::uint8_t* p, std::size_t n);
  void emit(fmt::memory_buffer& out, const ByteBuffer& b) { emit(out, b.data(), b.size()); }
  std::size_t compress();
  void schema_record(std::size_t schema);    ///< a Schema record, into scratch_
  void channel_record(std::size_t channel);  ///< a Channel record, into scratch_
  /// Emits the Schema (once) and Channel records of `channel` when not yet declared.
  void declare(McapChannel channel, fmt::memory_buffer& out);
  /// Appends one Message record on `channel` to the open chunk: its header, then `bound`
  /// bytes at most of CDR written by `payload` (a Cdr&). False when `t` has no ROS 2 stamp.
  template <class Payload>
  bool add_message(McapChannel channel, std::optional<Time> t, std::size_t bound, fmt::memory_buffer& out,
                   Payload&& payload);

  std::string topic_;
  ChunkCompression compression_;
  std::size_t chunk_size_;
  bool begun_ = false;
  bool ended_ = false;

  std::uint64_t pos_ = 0;       ///< file offset of the next byte emitted
  std::uint32_t data_crc_ = 0;  ///< running CRC of the data section (until DataEnd)
  bool in_data_ = true;

  ByteBuffer chunk_;       ///< uncompressed records of the open chunk
  ByteBuffer packed_;      ///< its compressed form
  ByteBuffer scratch_;     ///< a record's header / index being built
  ByteBuffer chunk_idx_;   ///< ChunkIndex records for the summary
  struct Entry {
    std::uint64_t time, offset;
  };
  std::vector<Entry> index_[kMcapChannels];  ///< MessageIndex entries of the open chunk, per channel
  bool index_sorted_[kMcapChannels] = {true, true, true, true, true, true};
  std::size_t chunk_messages_ = 0;            ///< messages in the open chunk
  std::uint64_t chunk_start_ = 0, chunk_end_ = 0;
  bool declared_[kMcapChannels] = {};
  bool schema_declared_[3] = {};
  std::uint64_t channel_messages_[kMcapChannels] = {};

  std::uint64_t messages_ = 0;
  std::uint32_t chunks_ = 0;
  std::uint64_t first_time_ = 0, last_time_ = 0;

  ZSTD_CCtx_s* zstd_ = nullptr;
  LZ4F_cctx_s* lz4_ = nullptr;
};

}  // namespace rmodel::io::detail
