// ROS 1 bag format 2.0 reader, written from the format description (wiki.ros.org/Bags/Format/2.0):
// `#ROSBAG V2.0\n`, then records `header_len u32 | header | data_len u32 | data`; a header is
// fields `len u32 | name=value`, `op` telling the record kind. Chunks (compression none, bz2,
// lz4) hold connection and message records. Read in file order, one chunk at a time. With a
// time window (BagSource::set_log_window) the index at the end of the file (its connection
// and chunk-info records, which give each chunk's time range) is read first, and chunks
// outside the window are skipped unread.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>

#include <bzlib.h>
#include <fmt/format.h>

#include "io/formats/format_table.hpp"
#include "io/ros/bag_source.hpp"

namespace rmodel::io::detail {
namespace {

enum Op : std::uint8_t { kMsgData = 0x02, kBagHeader = 0x03, kIndex = 0x04, kChunk = 0x05, kChunkInfo = 0x06, kConn = 0x07 };
constexpr std::string_view kBagMagic("#ROSBAG V2.0\n", 13);

/// Fields of a record header (views into the record).
struct Fields {
  std::string_view op, conn, time, compression, size, topic, index_pos, chunk_pos, start_time, end_time;
  bool parse(ByteCursor c) {
    *this = {};
    while (c.left() > 0) {
      std::uint32_t n = 0;
      std::string_view f;
      if (!c.get(n) || !c.bytes(n, f)) return false;
      const auto eq = f.find('=');
      if (eq == std::string_view::npos) return false;
      const std::string_view k = f.substr(0, eq), v = f.substr(eq + 1);
      if (k == "op") op = v;
      else if (k == "conn") conn = v;
      else if (k == "time") time = v;
      else if (k == "compression") compression = v;
      else if (k == "size") size = v;
      else if (k == "topic") topic = v;
      else if (k == "index_pos") index_pos = v;
      else if (k == "chunk_pos") chunk_pos = v;
      else if (k == "start_time") start_time = v;
      else if (k == "end_time") end_time = v;
    }
    return op.size() == 1;
  }
};

template <class T>
bool le(std::string_view v, T& out) {
  if (v.size() != sizeof(T)) return false;
  ByteCursor c(reinterpret_cast<const std::uint8_t*>(v.data()), v.size());
  return c.get(out);
}

/// The value of `key` in a connection header (the data of a connection record).
std::string_view conn_field(ByteCursor c, std::string_view key) {
  while (c.left() > 0) {
    std::uint32_t n = 0;
    std::string_view f;
    if (!c.get(n) || !c.bytes(n, f)) return {};
    const auto eq = f.find('=');
    if (eq != std::string_view::npos && f.substr(0, eq) == key) return f.substr(eq + 1);
  }
  return {};
}

class Rosbag1Source final : public ChunkedLogSource {
public:
  Rosbag1Source(int fd, std::string name, BagOptions options)
      : ChunkedLogSource(fd, std::move(name), std::move(options)) {}

protected:
  [[nodiscard]] RosWire wire() const noexcept override { return RosWire::Ros1; }

  Step read_raw(Raw& raw) override {
    if (stopped_) return Step::End;
    if (const auto st = check_magic(kBagMagic, "empty file: no ROS bag magic", "not a ROS 1 bag 2.0 file (bad magic)"))
      return *st;
    for (;;) {
      if (const auto st = next_in_chunk(raw)) return *st;
      const std::uint64_t at = file_.offset();
      std::uint8_t len4[4] = {};
      const std::size_t n = file_.read(len4, 4);
      if (n == 0) {
        if (index_pos_ > 0 && at < index_pos_)
          return stop(at, fmt::format("file ends before its index (at byte {}): truncated", index_pos_));
        stopped_ = true;
        return Step::End;
      }
      std::uint32_t hlen = 0;
      ByteCursor lc(len4, n);
      if (!lc.get(hlen)) return stop(at, "truncated record header length");
      if (limit_ > 0 && hlen > limit_) return stop(at, fmt::format("record header of {} bytes runs past the end of the file: truncated", hlen));
      if (file_.read(head_, hlen) < hlen) return stop(at, "truncated record header");
      std::uint8_t d4[4] = {};
      std::uint32_t dlen = 0;
      ByteCursor dc(d4, file_.read(d4, 4));
      if (!dc.get(dlen)) return stop(at, "truncated record (no data length)");
      Fields f;
      if (!f.parse(ByteCursor(head_.data(), head_.size()))) return stop(at, "malformed record header (no 'op' field)");
      const auto op = static_cast<std::uint8_t>(f.op[0]);
      // A chunk cut short by the end of the file is read as far as it goes (open_chunk).
      const std::uint64_t there = limit_ > 0 ? limit_ - std::min(limit_, file_.offset()) : dlen;
      if (dlen > there && op != kChunk)
        return stop(at, fmt::format("record (op 0x{:02x}) data of {} bytes runs past the end of the file ({} bytes): truncated",
                                    op, dlen, limit_));
      if (op == kChunk && skip_chunk(at)) {
        // On to the next chunk (the index data records between are not needed), or to the
        // index at the end after the last one.
        const auto later = std::upper_bound(chunk_times_.begin(), chunk_times_.end(), ChunkTimes{at, 0, 0},
                                            [](const ChunkTimes& a, const ChunkTimes& b) { return a.at < b.at; });
        const std::uint64_t next = later != chunk_times_.end() ? later->at : index_pos_;
        file_.seek(std::min(std::max(next, file_.offset() + dlen), limit_));
        continue;
      }
      if (op == kChunk || op == kMsgData || op == kConn) {
        if (dlen > kMaxChunkBytes) return stop(at, "record too large");
        if (file_.read(data_, static_cast<std::size_t>(std::min<std::uint64_t>(dlen, there))) < dlen) {
          if (op != kChunk) return stop(at, fmt::format("truncated record: {} bytes announced", dlen));
          cut_ = CutChunk{at, file_.offset(), 8 + std::uint64_t{hlen} + dlen};
        }
      } else {
        if (file_.skip(dlen) < dlen) return stop(at, "truncated record");
        if (op == kBagHeader) {
          std::uint64_t ip = 0;
          if (le(f.index_pos, ip)) index_pos_ = ip;
        }
        continue;
      }
      ByteCursor data(data_.data(), data_.size());
      if (op == kConn) {
        if (!connection(f, data)) return stop(at, "malformed connection record");
        continue;
      }
      if (op == kMsgData) return message(f, data, at, raw);
      const Step st = open_chunk(f, at);
      if (st != Step::End) return st;
    }
  }

private:
  bool connection(const Fields& f, ByteCursor data) {
    std::uint32_t id = 0;
    if (!le(f.conn, id)) return false;
    if (id > 1'000'000) return false;
    if (id >= conns_.size()) conns_.resize(std::size_t{id} + 1, -1);
    if (conns_[id] >= 0) return true;
    std::string_view topic = f.topic;
    const std::string_view t2 = conn_field(data, "topic");
    if (!t2.empty()) topic = t2;
    const std::string_view type = conn_field(data, "type");
    const std::string_view def = conn_field(data, "message_definition");
    conns_[id] = static_cast<std::int32_t>(add_topic(std::string(topic), std::string(type), def, !def.empty()));
    return true;
  }

  Step message(const Fields& f, ByteCursor data, std::uint64_t at, Raw& raw) {
    ++number_;
    std::uint32_t id = 0;
    std::uint64_t time = 0;
    if (!le(f.conn, id) || !le(f.time, time)) return fail(at, "message record without conn or time");
    if (id >= conns_.size() || conns_[id] < 0) return fail(at, fmt::format("message on unknown connection {}", id));
    raw.topic = static_cast<std::size_t>(conns_[id]);
    raw.log_time_ns = ros1_ns(time);
    raw.data = std::span<const std::uint8_t>(data.here(), data.left());
    raw.offset = at;
    return Step::Message;
  }

  /// ROS 1 time (`sec u32 | nsec u32`) in nanoseconds.
  static std::int64_t ros1_ns(std::uint64_t time) noexcept {
    return static_cast<std::int64_t>((time & 0xFFFFFFFFU) * 1'000'000'000U + (time >> 32));
  }

  /// True when the chunk at `at` lies outside the time window (by its chunk-info record).
  bool skip_chunk(std::uint64_t at) {
    if (!window_can_skip()) return false;
    if (!index_read_) read_index();
    const auto it = std::lower_bound(chunk_times_.begin(), chunk_times_.end(), ChunkTimes{at, 0, 0},
                                     [](const ChunkTimes& a, const ChunkTimes& b) { return a.at < b.at; });
    if (it == chunk_times_.end() || it->at != at || !skips_chunk(it->start, it->end)) return false;
    ++stats_.chunks_skipped;
    return true;
  }

  /// Reads the index at the end of the file: its connection records (a skipped chunk may be the
  /// one declaring a connection) and each chunk's time range. A damaged or missing index
  /// leaves the chunks it does not describe to be read.
  void read_index() {
    index_read_ = true;
    if (index_pos_ == 0 || limit_ == 0 || index_pos_ >= limit_) return;
    std::uint64_t at = index_pos_;
    std::vector<std::uint8_t> head, data;
    while (limit_ - at >= 8) {
      std::uint8_t len4[4] = {};
      if (!pread_all(len4, 4, at)) return;
      std::uint32_t hlen = 0;
      ByteCursor(len4, 4).get(hlen);
      if (hlen > limit_ - at - 8) return;
      head.resize(hlen);
      if (!pread_all(head.data(), hlen, at + 4) || !pread_all(len4, 4, at + 4 + hlen)) return;
      std::uint32_t dlen = 0;
      ByteCursor(len4, 4).get(dlen);
      if (dlen > limit_ - at - 8 - hlen) return;
      Fields f;
      if (!f.parse(ByteCursor(head.data(), head.size()))) return;
      const auto op = static_cast<std::uint8_t>(f.op[0]);
      if (op == kConn) {
        data.resize(dlen);
        if (!pread_all(data.data(), dlen, at + 8 + hlen) || !connection(f, ByteCursor(data.data(), data.size()))) return;
      } else if (op == kChunkInfo) {
        std::uint64_t pos = 0, start = 0, end = 0;
        if (le(f.chunk_pos, pos) && le(f.start_time, start) && le(f.end_time, end))
          chunk_times_.push_back(ChunkTimes{pos, ros1_ns(start), ros1_ns(end)});
      }
      at += 8 + std::uint64_t{hlen} + dlen;
    }
    std::sort(chunk_times_.begin(), chunk_times_.end(), [](const ChunkTimes& a, const ChunkTimes& b) { return a.at < b.at; });
  }

  Step open_chunk(const Fields& f, std::uint64_t at) {
    ++stats_.chunks_read;
    std::uint32_t size = 0;
    if (!le(f.size, size)) return stop(at, "chunk without 'size'");
    if (size > kMaxChunkBytes) return stop(at, fmt::format("chunk: uncompressed size {} too large", size));
    chunk_exact_ = false;
    if (cut_ && cut_->at == at) return open_cut_chunk(f, at, size);
    if (std::find(compressions_.begin(), compressions_.end(), f.compression) == compressions_.end()) {
      compressions_.emplace_back(f.compression);
      std::string d = "chunks:";
      for (const auto& c : compressions_) d += " " + c;
      set_profile(std::move(d));
    }
    if (f.compression == "none") {
      if (data_.size() != size) return stop(at, fmt::format("chunk: holds {} bytes, header says {}", data_.size(), size));
      size_buffer(chunk_, data_.size());
      std::copy(data_.begin(), data_.end(), chunk_.begin());
      chunk_exact_ = true;
    } else if (f.compression == "bz2") {
      size_buffer(chunk_, size);
      unsigned int out = size;
      const int r = BZ2_bzBuffToBuffDecompress(reinterpret_cast<char*>(chunk_.data()), &out,
                                               reinterpret_cast<char*>(data_.data()),
                                               static_cast<unsigned int>(data_.size()), 0, 0);
      if (r != BZ_OK) return stop(at, fmt::format("chunk: bz2 error {}", r));
      if (out != size) return stop(at, fmt::format("chunk: bz2 gave {} bytes, header says {}", out, size));
    } else if (f.compression == "lz4") {
      if (std::string e = lz4_.decode(data_.data(), data_.size(), chunk_, size); !e.empty())
        return stop(at, "chunk: " + e);
    } else {
      return stop(at, fmt::format("chunk: unknown compression '{}' (rmodel reads none, bz2, lz4)", f.compression));
    }
    chunk_at_ = at;
    chunk_data_at_ = file_.offset() - data_.size();
    chunk_cur_ = ByteCursor(chunk_.data(), chunk_.size());
    in_chunk_ = true;
    return Step::End;
  }

  /// A chunk cut short by the end of the file (data_ holds what is there): its records as far
  /// as they are there (stored), or as far as the compressed bytes decode (bz2 and lz4 decode
  /// block by block: the blocks that are whole).
  Step open_cut_chunk(const Fields& f, std::uint64_t at, std::uint32_t size) {
    CutChunk& cut = *cut_;
    cut.compression = f.compression == "none" ? std::string() : std::string(f.compression);
    cut.size = size;
    if (f.compression == "none") {
      size_buffer(chunk_, data_.size());
      std::copy(data_.begin(), data_.end(), chunk_.begin());
      chunk_exact_ = true;
    } else if (f.compression == "bz2") {
      size_buffer(chunk_, size);
      bz_stream z{};
      if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK) return stop(at, "chunk: cannot start bz2");
      z.next_in = reinterpret_cast<char*>(data_.data());
      z.avail_in = static_cast<unsigned int>(data_.size());
      z.next_out = reinterpret_cast<char*>(chunk_.data());
      z.avail_out = size;
      int r = BZ_OK;
      while (r == BZ_OK && z.avail_in > 0 && z.avail_out > 0) r = BZ2_bzDecompress(&z);
      BZ2_bzDecompressEnd(&z);
      chunk_.resize(size - z.avail_out);
      if (r != BZ_OK && r != BZ_STREAM_END) return stop(at, fmt::format("chunk: bz2 error {}", r));
    } else if (f.compression == "lz4") {
      if (std::string e = lz4_.decode_prefix(data_.data(), data_.size(), chunk_, size); !e.empty())
        return stop(at, "chunk: " + e);
    } else {
      return stop(at, fmt::format("chunk: unknown compression '{}' (rmodel reads none, bz2, lz4)", f.compression));
    }
    cut.decoded = chunk_.size();
    cut.opened = true;
    chunk_at_ = at;
    chunk_data_at_ = file_.offset() - data_.size();
    chunk_cur_ = ByteCursor(chunk_.data(), chunk_.size());
    in_chunk_ = in_cut_chunk_ = true;
    return Step::End;
  }

  std::optional<Step> chunk_entry(ByteCursor& c, std::size_t rel, std::uint64_t at, Raw& raw) override {
    std::uint32_t hlen = 0, dlen = 0;
    ByteCursor header;
    if (c.get(hlen) && hlen <= c.left()) {
      header = ByteCursor(c.here(), hlen);
      c.skip(hlen);
    } else {
      c.fail();
    }
    if (!c.get(dlen) || dlen > c.left()) return record_past_chunk(at, rel);
    ByteCursor data(c.here(), dlen);
    c.skip(dlen);
    Fields f;
    if (!f.parse(header)) return stop(at, fmt::format("chunk at byte {}: malformed record header", chunk_at_));
    const auto op = static_cast<std::uint8_t>(f.op[0]);
    if (op == kConn) {
      if (!connection(f, data)) return stop(at, "chunk: malformed connection record");
    } else if (op == kMsgData) {
      return message(f, data, at, raw);
    }
    return std::nullopt;
  }

  struct ChunkTimes {
    std::uint64_t at = 0;  ///< offset of the chunk record
    std::int64_t start = 0, end = 0;
  };
  std::uint64_t index_pos_ = 0;
  bool index_read_ = false;
  std::vector<ChunkTimes> chunk_times_;  ///< sorted by offset
  std::vector<std::uint8_t> head_;
  std::vector<std::uint8_t> data_;
  std::vector<std::int32_t> conns_;
};

std::unique_ptr<BagSource> open_rosbag1(int fd, const std::string& path, const BagOptions& options) {
  return std::make_unique<Rosbag1Source>(fd, path, options);
}

constexpr std::array<std::string_view, 1> kRosbag1Aliases = {"rosbag"};
constexpr std::array<std::string_view, 1> kRosbag1Extensions = {".bag"};

}  // namespace

// ROS 1 bag format 2.0.
extern const FormatDescriptor rosbag1_format = {
    .name = "bag",
    .aliases = kRosbag1Aliases,
    .extensions = kRosbag1Extensions,
    .magic = kBagMagic,
    .open_log = open_rosbag1,
};

}  // namespace rmodel::io::detail
