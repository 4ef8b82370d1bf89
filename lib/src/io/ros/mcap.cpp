// MCAP reader, written from the MCAP specification (mcap.dev/spec): the magic, then records
// `opcode u8 | length u64 | content` in little endian, ending with a Footer and the magic.
// Records are read in file order; a Chunk is decompressed whole (none, zstd, lz4 frame) and
// its records are served before the next file record is read. The summary section and the
// indexes are not needed: Schema and Channel records precede their messages in the data
// section, and records seen again in the summary are ignored.
#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <zstd.h>

#include "io/ros/bag_source.hpp"
#include "io/ros/mcap_records.hpp"

namespace rmodel::io::detail {
namespace {

using namespace mcap;  // opcodes and magic


bool get_string(ByteCursor& c, std::string_view& s) {
  std::uint32_t n = 0;
  return c.get(n) && c.bytes(n, s);
}

class McapSource final : public BagSource {
public:
  McapSource(int fd, std::string name, BagOptions options)
      : BagSource(std::move(name), std::move(options)), file_(fd), limit_(file_.regular_size()) {}
  ~McapSource() override {
    if (zstd_ != nullptr) ZSTD_freeDCtx(zstd_);
  }
  McapSource(const McapSource&) = delete;
  McapSource& operator=(const McapSource&) = delete;

protected:
  [[nodiscard]] std::string format_name() const override { return "mcap"; }

  Step read_raw(Raw& raw) override {
    if (stopped_) return Step::End;
    if (!magic_checked_) {
      magic_checked_ = true;
      std::uint8_t m[8] = {};
      const std::size_t n = file_.read(m, 8);
      if (n == 0) return stop(0, "empty file: no MCAP magic");
      if (n < 8 || std::string_view(reinterpret_cast<const char*>(m), 8) != kMagic)
        return stop(0, "not an MCAP file (bad magic)");
    }
    for (;;) {
      if (in_chunk_) {
        const Step st = chunk_record(raw);
        if (st != Step::End) return st;
        in_chunk_ = false;
        continue;
      }
      const std::uint64_t at = file_.offset();
      std::uint8_t head[9] = {};
      const std::size_t n = file_.read(head, 9);
      if (n == 0) return stop(at, "file ends without the MCAP footer (truncated)");
      if (n < 9) return stop(at, "truncated record header");
      ByteCursor hc(head, 9);
      std::uint8_t op = 0;
      std::uint64_t len = 0;
      hc.get(op);
      hc.get(len);
      if (limit_ > 0 && len > limit_ - std::min(limit_, at + 9))
        return stop(at, fmt::format("record (opcode 0x{:02x}) of {} bytes runs past the end of the file "
                                    "({} bytes): truncated",
                                    op, len, limit_));
      if (op == kFooter) {
        file_.skip(len);
        std::uint8_t m[8] = {};
        if (file_.read(m, 8) < 8 || std::string_view(reinterpret_cast<const char*>(m), 8) != kMagic)
          return stop(file_.offset(), "no MCAP magic after the footer");
        stopped_ = true;
        return Step::End;
      }
      if (op != kChunk && op != kMessage && op != kSchema && op != kChannel && op != kHeader) {
        if (op == kDataEnd) in_summary_ = true;
        if (file_.skip(len) < len) return stop(at, fmt::format("truncated record (opcode 0x{:02x})", op));
        continue;
      }
      if (len > (std::uint64_t{1} << 32) && op != kChunk) return stop(at, "record too long");
      if (op == kChunk && len > kMaxChunkBytes) return stop(at, fmt::format("chunk of {} bytes is too large", len));
      if (file_.read(body_, static_cast<std::size_t>(len)) < len)
        return stop(at, fmt::format("truncated {} record: {} bytes announced, the file ends after {}",
                                    op == kChunk ? "chunk" : "message", len, file_.offset() - at - 9));
      ByteCursor c(body_.data(), body_.size());
      switch (op) {
        case kHeader: {
          std::string_view profile, library;
          get_string(c, profile);
          get_string(c, library);
          if (!c.ok()) return stop(at, "malformed header record");
          profile_ = std::string(profile);
          update_detail();
          break;
        }
        case kSchema:
          if (!schema(c)) return stop(at, "malformed schema record");
          break;
        case kChannel:
          if (!channel(c)) return stop(at, "malformed channel record");
          break;
        case kMessage: {
          const Step st = message(c, at, raw);
          if (st != Step::End) return st;
          break;
        }
        case kChunk: {
          const Step st = open_chunk(c, at);
          if (st != Step::End) return st;
          break;
        }
        default: break;
      }
    }
  }

private:
  Step stop(std::uint64_t at, std::string why) {
    stopped_ = true;
    return fail(at, std::move(why));
  }

  void update_detail() {
    std::string d = fmt::format("profile {}", profile_.empty() ? "(none)" : profile_);
    if (!compressions_.empty()) {
      d += ", chunks:";
      for (const auto& c : compressions_) d += " " + (c.empty() ? std::string("none") : c);
    }
    set_profile(std::move(d));
  }

  bool schema(ByteCursor& c) {
    std::uint16_t id = 0;
    std::string_view name, encoding, data;
    c.get(id);
    get_string(c, name);
    get_string(c, encoding);
    get_string(c, data);
    if (!c.ok()) return false;
    if (id >= schemas_.size()) schemas_.resize(std::size_t{id} + 1);
    if (!schemas_[id].known) schemas_[id] = {true, std::string(name), std::string(encoding), std::string(data)};
    return true;
  }

  bool channel(ByteCursor& c) {
    std::uint16_t id = 0, schema_id = 0;
    std::string_view topic, encoding;
    std::uint32_t map_len = 0;
    c.get(id);
    c.get(schema_id);
    get_string(c, topic);
    get_string(c, encoding);
    c.get(map_len);
    c.skip(map_len);
    if (!c.ok()) return false;
    if (id >= channels_.size()) channels_.resize(std::size_t{id} + 1, -1);
    if (channels_[id] >= 0) return true;  // seen before (summary repeats it)
    std::string type = "(no schema)";
    std::string_view def;
    bool have_def = false;
    if (schema_id < schemas_.size() && schemas_[schema_id].known) {
      type = schemas_[schema_id].name;
      def = schemas_[schema_id].data;
      have_def = schemas_[schema_id].encoding == "ros2msg";
    }
    const std::size_t t = add_topic(std::string(topic), type, def, have_def);
    if (encoding != "cdr" && topics_[t].kind != RosType::Other) {
      topics_[t].layout_ok = false;
      topics_[t].layout_problem = fmt::format("message encoding '{}', rmodel reads cdr", encoding);
    }
    channels_[id] = static_cast<std::int32_t>(t);
    return true;
  }

  Step message(ByteCursor& c, std::uint64_t at, Raw& raw) {
    std::uint16_t ch = 0;
    std::uint32_t seq = 0;
    std::uint64_t log_time = 0, publish_time = 0;
    c.get(ch);
    c.get(seq);
    c.get(log_time);
    c.get(publish_time);
    ++number_;
    if (!c.ok()) return fail(at, "message record shorter than its fixed fields");
    if (ch >= channels_.size() || channels_[ch] < 0) return fail(at, fmt::format("message on unknown channel {}", ch));
    raw.topic = static_cast<std::size_t>(channels_[ch]);
    raw.log_time_ns = static_cast<std::int64_t>(log_time);
    raw.data = std::span<const std::uint8_t>(c.here(), c.left());
    raw.offset = at;
    return Step::Message;
  }

  Step open_chunk(ByteCursor& c, std::uint64_t at) {
    std::uint64_t start = 0, end = 0, usize = 0, records_len = 0;
    std::uint32_t crc = 0;
    std::string_view compression;
    c.get(start);
    c.get(end);
    c.get(usize);
    c.get(crc);
    get_string(c, compression);
    c.get(records_len);
    if (!c.ok() || records_len > c.left()) return stop(at, "chunk: malformed header (records run past the record)");
    if (usize > kMaxChunkBytes) return stop(at, fmt::format("chunk: uncompressed size {} too large", usize));
    if (std::find(compressions_.begin(), compressions_.end(), compression) == compressions_.end()) {
      compressions_.emplace_back(compression);
      update_detail();
    }
    const std::uint8_t* src = c.here();
    const auto n = static_cast<std::size_t>(records_len);
    const auto u = static_cast<std::size_t>(usize);
    const std::uint64_t data_at = at + 9 + c.pos();
    chunk_exact_ = false;
    if (compression.empty()) {
      if (records_len != usize)
        return stop(at, fmt::format("chunk: uncompressed chunk holds {} bytes, header says {}", records_len, usize));
      size_buffer(chunk_, n);
      std::copy(src, src + n, chunk_.begin());
      chunk_exact_ = true;
    } else if (compression == "zstd") {
      if (zstd_ == nullptr) zstd_ = ZSTD_createDCtx();
      size_buffer(chunk_, u);
      const std::size_t r = ZSTD_decompressDCtx(zstd_, chunk_.data(), u, src, n);
      if (ZSTD_isError(r)) return stop(at, fmt::format("chunk: zstd: {}", ZSTD_getErrorName(r)));
      if (r != u) return stop(at, fmt::format("chunk: zstd gave {} bytes, header says {}", r, u));
    } else if (compression == "lz4") {
      if (std::string e = lz4_.decode(src, n, chunk_, u); !e.empty()) return stop(at, "chunk: " + e);
    } else {
      return stop(at, fmt::format("chunk: unknown compression '{}' (rmodel reads none, zstd, lz4)", compression));
    }
    if (crc != 0) {
      const std::uint32_t got = crc32(0, chunk_.data(), chunk_.size());
      if (got != crc)
        return stop(at, fmt::format("chunk: CRC mismatch (stored {:08x}, computed {:08x})", crc, got));
    }
    chunk_at_ = at;
    chunk_data_at_ = data_at;
    chunk_cur_ = ByteCursor(chunk_.data(), chunk_.size());
    in_chunk_ = true;
    return Step::End;
  }

  Step chunk_record(Raw& raw) {
    ByteCursor& c = chunk_cur_;
    while (c.left() > 0) {
      const std::size_t rel = c.pos();
      const std::uint64_t at = chunk_exact_ ? chunk_data_at_ + rel : chunk_at_;
      std::uint8_t op = 0;
      std::uint64_t len = 0;
      c.get(op);
      c.get(len);
      if (!c.ok() || len > c.left())
        return stop(at, fmt::format("chunk at byte {}: record at offset {} of its data runs past the chunk", chunk_at_, rel));
      ByteCursor body(c.here(), static_cast<std::size_t>(len));
      c.skip(static_cast<std::size_t>(len));
      switch (op) {
        case kSchema:
          if (!schema(body)) return stop(at, "chunk: malformed schema record");
          break;
        case kChannel:
          if (!channel(body)) return stop(at, "chunk: malformed channel record");
          break;
        case kMessage: return message(body, at, raw);
        default: break;
      }
    }
    return Step::End;
  }

  struct Schema {
    bool known = false;
    std::string name, encoding, data;
  };

  FileReader file_;
  std::uint64_t limit_ = 0;
  bool magic_checked_ = false;
  bool stopped_ = false;
  bool in_summary_ = false;
  bool in_chunk_ = false;
  bool chunk_exact_ = false;
  std::uint64_t chunk_at_ = 0;
  std::uint64_t chunk_data_at_ = 0;
  ByteCursor chunk_cur_;
  std::vector<std::uint8_t> body_;
  std::vector<std::uint8_t> chunk_;
  std::vector<Schema> schemas_;
  std::vector<std::int32_t> channels_;
  std::vector<std::string> compressions_;
  std::string profile_;
  ZSTD_DCtx* zstd_ = nullptr;
  Lz4FrameDecoder lz4_;
};

}  // namespace

std::unique_ptr<BagSource> make_mcap_source(int fd, std::string name, BagOptions options) {
  return std::make_unique<McapSource>(fd, std::move(name), std::move(options));
}

}  // namespace rmodel::io::detail
