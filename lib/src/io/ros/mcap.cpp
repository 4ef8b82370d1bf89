// MCAP reader, written from the MCAP specification (mcap.dev/spec): the magic, then records
// `opcode u8 | length u64 | content` in little endian, ending with a Footer and the magic.
//
// Messages are delivered in log-time order, as `ros2 bag play` and the MCAP readers play a
// file, also when its chunks overlap in time (several writers, or a writer that closes
// chunks out of order). A regular file is first walked record by record without reading
// chunk contents (one small read per chunk): that gives every chunk's time range and, from
// the summary when there is one, every schema and channel. The chunks are then opened in
// order of their start time, and only when the next message to deliver is not earlier than
// their start, so memory holds the chunks that overlap, not the file. Messages of equal log
// time keep their file order. Records outside chunks are grouped into runs that are handled
// as uncompressed chunks. A pipe cannot be walked twice: it is read in file order, a chunk
// at a time (BagSource reports a log time that goes back).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <set>

#include <fmt/format.h>
#include <zstd.h>

#include "io/formats/format_table.hpp"
#include "io/write/format_writer.hpp"
#include "io/ros/bag_source.hpp"
#include "io/ros/mcap_records.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::io::detail {
namespace {

using namespace mcap;  // opcodes and magic


bool get_string(ByteCursor& c, std::string_view& s) {
  std::uint32_t n = 0;
  return c.get(n) && c.bytes(n, s);
}

class McapSource final : public ChunkedLogSource {
public:
  McapSource(int fd, std::string name, BagOptions options) : ChunkedLogSource(fd, std::move(name), std::move(options)) {}
  ~McapSource() override {
    if (zstd_ != nullptr) ZSTD_freeDCtx(zstd_);
  }
  McapSource(const McapSource&) = delete;
  McapSource& operator=(const McapSource&) = delete;

protected:
  Step read_raw(Raw& raw) override {
    if (stopped_) return Step::End;
    if (limit_ > 0 && in_time_order_) {
      if (!indexed_) {
        indexed_ = true;
        if (const Step st = index_file(); st != Step::End) return st;
      }
      if (in_time_order_) return next_in_time(raw);
    }
    return next_in_file(raw);
  }

private:
  // ---- file order (pipes) ----

  Step next_in_file(Raw& raw) {
    if (const auto st = check_magic(kMagic, "empty file: no MCAP magic", "not an MCAP file (bad magic)")) return *st;
    for (;;) {
      if (const auto st = next_in_chunk(raw)) return *st;
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
      // A chunk cut short by the end of the file is read as far as it goes (decompress_chunk).
      if (limit_ > 0 && len > limit_ - std::min(limit_, at + 9) && op != kChunk)
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
        if (file_.skip(len) < len) return stop(at, fmt::format("truncated record (opcode 0x{:02x})", op));
        continue;
      }
      if (len > (std::uint64_t{1} << 32) && op != kChunk) return stop(at, "record too long");
      if (op == kChunk && len > kMaxChunkBytes) return stop(at, fmt::format("chunk of {} bytes is too large", len));
      const std::uint64_t there = limit_ > 0 ? std::min(len, limit_ - std::min(limit_, at + 9)) : len;
      if (file_.read(body_, static_cast<std::size_t>(there)) < len && op != kChunk)
        return stop(at, fmt::format("truncated message record: {} bytes announced, the file ends after {}", len,
                                    file_.offset() - at - 9));
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
          ++stats_.chunks_read;
          const bool cut = body_.size() < len;
          if (cut) cut_ = CutChunk{at, at + 9 + body_.size(), 9 + len};
          const Step st = decompress_chunk(c, at, chunk_, chunk_exact_, chunk_data_at_, cut ? &*cut_ : nullptr);
          if (st != Step::End) {  // a damaged chunk ends a reading in file order
            stopped_ = true;
            return st;
          }
          chunk_at_ = at;
          chunk_cur_ = ByteCursor(chunk_.data(), chunk_.size());
          in_chunk_ = true;
          in_cut_chunk_ = cut;
          break;
        }
        default: break;
      }
    }
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

  /// Decompresses the chunk record whose content `c` holds into `out`; `exact` tells whether
  /// offsets in `out` are file offsets from `data_at` (an uncompressed chunk). A chunk `cut`
  /// short by the end of the file (`c` holds what is there) gives what its data decodes to,
  /// unchecked (its CRC covers bytes that are not there), and says how much in `cut`.
  Step decompress_chunk(ByteCursor& c, std::uint64_t at, std::vector<std::uint8_t>& out, bool& exact,
                        std::uint64_t& data_at, CutChunk* cut = nullptr) {
    std::uint64_t start = 0, end = 0, usize = 0, records_len = 0;
    std::uint32_t crc = 0;
    std::string_view compression;
    c.get(start);
    c.get(end);
    c.get(usize);
    c.get(crc);
    get_string(c, compression);
    c.get(records_len);
    if (!c.ok() && cut != nullptr)
      return fail(at, fmt::format("the file ends at byte {}, in the header of this chunk (truncated)", cut->file_end));
    if (!c.ok() || (records_len > c.left() && cut == nullptr))
      return fail(at, "chunk: malformed header (records run past the record)");
    if (usize > kMaxChunkBytes) return fail(at, fmt::format("chunk: uncompressed size {} too large", usize));
    if (std::find(compressions_.begin(), compressions_.end(), compression) == compressions_.end()) {
      compressions_.emplace_back(compression);
      update_detail();
    }
    const std::uint8_t* src = c.here();
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(records_len, c.left()));
    const auto u = static_cast<std::size_t>(usize);
    data_at = at + 9 + c.pos();
    exact = false;
    if (cut != nullptr) return decompress_cut(compression, src, n, records_len, u, out, exact, *cut, at);
    if (compression.empty()) {
      if (records_len != usize)
        return fail(at, fmt::format("chunk: uncompressed chunk holds {} bytes, header says {}", records_len, usize));
      size_buffer(out, n);
      std::copy(src, src + n, out.begin());
      exact = true;
    } else if (compression == "zstd") {
      if (zstd_ == nullptr) zstd_ = ZSTD_createDCtx();
      size_buffer(out, u);
      const std::size_t r = ZSTD_decompressDCtx(zstd_, out.data(), u, src, n);
      if (ZSTD_isError(r)) return fail(at, fmt::format("chunk: zstd: {}", ZSTD_getErrorName(r)));
      if (r != u) return fail(at, fmt::format("chunk: zstd gave {} bytes, header says {}", r, u));
    } else if (compression == "lz4") {
      if (std::string e = lz4_.decode(src, n, out, u); !e.empty()) return fail(at, "chunk: " + e);
    } else {
      return fail(at, fmt::format("chunk: unknown compression '{}' (rmodel reads none, zstd, lz4)", compression));
    }
    if (crc != 0) {
      const std::uint32_t got = crc32(0, out.data(), out.size());
      if (got != crc)
        return fail(at, fmt::format("chunk: CRC mismatch (stored {:08x}, computed {:08x})", crc, got));
    }
    return Step::End;
  }

  /// The part of decompress_chunk() for a chunk cut short: the records there are (stored), or
  /// what a streaming decoder gives from the compressed bytes there are (zstd and lz4 decode
  /// block by block: the blocks that are whole).
  Step decompress_cut(std::string_view compression, const std::uint8_t* src, std::size_t n, std::uint64_t records_len,
                      std::size_t u, std::vector<std::uint8_t>& out, bool& exact, CutChunk& cut, std::uint64_t at) {
    cut.compression = std::string(compression);
    cut.size = compression.empty() ? records_len : u;
    if (compression.empty()) {
      if (records_len != u)
        return fail(at, fmt::format("chunk: uncompressed chunk holds {} bytes, header says {}", records_len, u));
      size_buffer(out, n);
      std::copy(src, src + n, out.begin());
      exact = true;
    } else if (compression == "zstd") {
      if (zstd_ == nullptr) zstd_ = ZSTD_createDCtx();
      (void)ZSTD_DCtx_reset(zstd_, ZSTD_reset_session_only);
      size_buffer(out, u);
      ZSTD_inBuffer in{src, n, 0};
      ZSTD_outBuffer o{out.data(), u, 0};
      for (;;) {  // until the input is spent and nothing more comes out
        const std::size_t before = o.pos, used = in.pos;
        const std::size_t r = ZSTD_decompressStream(zstd_, &o, &in);
        if (ZSTD_isError(r)) {
          out.resize(o.pos);
          return fail(at, fmt::format("chunk: zstd: {}", ZSTD_getErrorName(r)));
        }
        if (r == 0 || o.pos == u || (o.pos == before && in.pos == used)) break;
      }
      out.resize(o.pos);
    } else if (compression == "lz4") {
      if (std::string e = lz4_.decode_prefix(src, n, out, u); !e.empty()) return fail(at, "chunk: " + e);
    } else {
      return fail(at, fmt::format("chunk: unknown compression '{}' (rmodel reads none, zstd, lz4)", compression));
    }
    cut.decoded = out.size();
    cut.opened = true;
    return Step::End;
  }

  std::optional<Step> chunk_entry(ByteCursor& c, std::size_t rel, std::uint64_t at, Raw& raw) override {
    std::uint8_t op = 0;
    std::uint64_t len = 0;
    c.get(op);
    c.get(len);
    if (!c.ok() || len > c.left()) return record_past_chunk(at, rel);
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
    return std::nullopt;
  }

  // ---- log-time order (regular files) ----

  /// A chunk, or a run of records outside chunks, with the log times of its messages.
  struct Span {
    std::uint64_t at = 0;    ///< offset of the chunk record, or of the run's first record
    std::uint64_t size = 0;  ///< bytes of the chunk's content, or of the run's records
    std::int64_t start = 0;  ///< earliest log time (a chunk's header; a run's own messages)
    bool chunk = false;
    bool opened = false;
    std::int64_t end = 0;  ///< latest log time (as `start`); meaningful when `timed`
    bool timed = false;    ///< the chunk's header gave its times (a run: always)
    bool skipped = false;  ///< outside the time window: opened only to declare channels
  };
  /// One message of an opened span: where its record's content lies in the span's data.
  struct Held {
    std::int64_t log_time = 0;
    std::uint32_t pos = 0;  ///< offset of the record's content in Open::data
    std::uint32_t size = 0;
  };
  /// An opened span: its records decompressed, its messages in log-time order.
  struct Open {
    std::vector<std::uint8_t> data;
    std::vector<Held> messages;
    std::size_t next = 0;
    std::uint64_t at = 0;       ///< the span's offset (orders equal log times by file order)
    std::uint64_t data_at = 0;  ///< file offset of data[0] when `exact`
    bool exact = false;
  };
  struct ScanError {
    std::uint64_t at = 0;
    std::string why;
  };

  /// Records outside chunks that index_file() has gathered into one span, not closed yet.
  struct Run {
    std::optional<Span> span;
    std::uint64_t end = 0;  ///< offset after its last record
  };

  /// Walks the records of the file without reading chunk contents: the spans to open, and
  /// every schema and channel outside chunks (the summary repeats those of the chunks). A
  /// damage found here is reported after the messages before it.
  Step index_file() {
    std::uint8_t m[8] = {};
    if (limit_ < 8) {
      if (limit_ > 0) pread_all(m, static_cast<std::size_t>(limit_), 0);
    } else {
      pread_all(m, 8, 0);
    }
    if (limit_ < 8 || std::string_view(reinterpret_cast<const char*>(m), 8) != kMagic)
      return stop(0, "not an MCAP file (bad magic)");
    magic_checked_ = true;
    Run run;
    for (std::uint64_t at = 8;;) {
      std::uint8_t op = 0;
      std::uint64_t len = 0;
      if (!index_record_head(at, op, len) || !index_record(op, at, len, run)) break;
      at += 9 + len;
    }
    close_run(run);
    if (timed_chunks_ == 0 && std::any_of(spans_.begin(), spans_.end(), [](const Span& x) { return x.chunk; })) {
      in_time_order_ = false;
      magic_checked_ = false;
      spans_.clear();
      scan_error_.reset();
      cut_.reset();
      return Step::End;
    }
    std::stable_sort(spans_.begin(), spans_.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
    return Step::End;
  }

  /// The opcode and length of the record at `at`; false, with scan_error_, where the walk ends.
  bool index_record_head(std::uint64_t at, std::uint8_t& op, std::uint64_t& len) {
    if (at >= limit_) {
      scan_error_ = ScanError{at, "file ends without the MCAP footer (truncated)"};
      return false;
    }
    std::uint8_t head[9] = {};
    if (limit_ - at < 9) {
      scan_error_ = ScanError{at, "truncated record header"};
      return false;
    }
    pread_all(head, 9, at);
    ByteCursor hc(head, 9);
    hc.get(op);
    hc.get(len);
    const std::uint64_t body = at + 9;
    if (len > limit_ - body) {
      scan_error_ = ScanError{at, fmt::format("record (opcode 0x{:02x}) of {} bytes runs past the end of the "
                                              "file ({} bytes): truncated",
                                              op, len, limit_)};
      // A chunk cut short with its header whole: a span of what is there, whose complete
      // messages are read (the end of the file is then reported with their count).
      if (op != kChunk || len > kMaxChunkBytes || !whole_chunk_header(body)) return false;
      cut_ = CutChunk{at, limit_, 9 + len};
      len = limit_ - body;
    }
    return true;
  }

  /// Takes the record at `at` (its content: `len` bytes after the 9 of opcode and length)
  /// into the index; false where the walk ends (the footer, or scan_error_).
  bool index_record(std::uint8_t op, std::uint64_t at, std::uint64_t len, Run& run) {
    const std::uint64_t body = at + 9;
    switch (op) {
      case kFooter: {
        std::uint8_t m[8] = {};
        const std::uint64_t end = body + len;
        if (limit_ - end < 8 || !pread_all(m, 8, end) ||
            std::string_view(reinterpret_cast<const char*>(m), 8) != kMagic)
          scan_error_ = ScanError{end, "no MCAP magic after the footer"};
        return false;
      }
      case kChunk:
        close_run(run);
        return index_chunk(at, len);
      case kMessage: index_message(at, len, run); return true;
      case kSchema:
      case kChannel:
      case kHeader: return index_declaration(op, at, len);
      case kDataEnd: close_run(run); return true;
      default: return true;
    }
  }

  /// A chunk: a span of its own, its times from its header (its records are not read here).
  bool index_chunk(std::uint64_t at, std::uint64_t len) {
    const std::uint64_t body = at + 9;
    if (len > kMaxChunkBytes) {
      scan_error_ = ScanError{at, fmt::format("chunk of {} bytes is too large", len)};
      return false;
    }
    std::uint8_t times[16] = {};
    if (len < 16 || !pread_all(times, 16, body)) {
      scan_error_ = ScanError{at, "chunk: malformed header (records run past the record)"};
      return false;
    }
    ByteCursor tc(times, 16);
    std::uint64_t start = 0, end = 0;
    tc.get(start);
    tc.get(end);
    // A chunk without times (both 0: empty, or a writer that leaves them out) keeps its
    // place in the file after the span before it; when no chunk has times, the file is
    // read in file order (as a pipe is), a chunk at a time.
    const bool timed = start != 0 || end != 0;
    timed_chunks_ += timed ? 1 : 0;
    Span span{at, len, timed ? static_cast<std::int64_t>(start) : (spans_.empty() ? 0 : spans_.back().start),
              true, false};
    span.end = static_cast<std::int64_t>(end);
    span.timed = timed;
    spans_.push_back(span);
    return !cut_;
  }

  /// A message outside chunks: joins the run (a new one past kRunBytes), its log time the run's.
  void index_message(std::uint64_t at, std::uint64_t len, Run& run) {
    const std::uint64_t body = at + 9;
    std::uint8_t fixed[14] = {};  // channel, sequence, log time
    std::int64_t log_time = run.span ? run.span->start : 0;
    if (len >= 14 && pread_all(fixed, 14, body)) {
      ByteCursor fc(fixed + 6, 8);
      std::uint64_t t = 0;
      fc.get(t);
      log_time = static_cast<std::int64_t>(t);
    }
    if (run.span && body + len - run.span->at > kRunBytes) close_run(run);
    if (!run.span) {
      run.span = Span{at, 0, log_time, false, false};
      run.span->end = log_time;
    }
    run.span->start = std::min(run.span->start, log_time);
    run.span->end = std::max(run.span->end, log_time);
    run.end = body + len;
  }

  /// A header, schema or channel record outside chunks.
  bool index_declaration(std::uint8_t op, std::uint64_t at, std::uint64_t len) {
    if (len > (std::uint64_t{1} << 32)) {
      scan_error_ = ScanError{at, "record too long"};
      return false;
    }
    size_buffer(body_, static_cast<std::size_t>(len));
    pread_all(body_.data(), body_.size(), at + 9);
    ByteCursor c(body_.data(), body_.size());
    if (op == kHeader) {
      std::string_view profile, library;
      get_string(c, profile);
      get_string(c, library);
      if (!c.ok()) {
        scan_error_ = ScanError{at, "malformed header record"};
        return false;
      }
      profile_ = std::string(profile);
      update_detail();
    } else if (!(op == kSchema ? schema(c) : channel(c))) {
      scan_error_ = ScanError{at, op == kSchema ? "malformed schema record" : "malformed channel record"};
      return false;
    }
    return true;
  }

  void close_run(Run& run) {
    if (!run.span) return;
    run.span->size = run.end - run.span->at;
    run.span->timed = true;
    spans_.push_back(*run.span);
    run.span.reset();
  }

  /// True when the file holds the whole header of the chunk whose content starts at `body`
  /// (times, sizes, CRC, compression, records length).
  bool whole_chunk_header(std::uint64_t body) {
    constexpr std::size_t kFixed = 8 + 8 + 8 + 4 + 4;  // ... the compression's length
    std::uint8_t fixed[kFixed] = {};
    if (limit_ - body < kFixed || !pread_all(fixed, kFixed, body)) return false;
    ByteCursor fc(fixed + kFixed - 4, 4);
    std::uint32_t compression = 0;
    fc.get(compression);
    return limit_ - body - kFixed >= std::uint64_t{compression} + 8;
  }

  [[nodiscard]] const Held& front_of(std::uint32_t slot) const {
    const Open& o = open_[slot];
    return o.messages[o.next];
  }

  /// Heap order: the slot whose next message is later (then later in the file) sinks.
  [[nodiscard]] bool later(std::uint32_t a, std::uint32_t b) const {
    const std::int64_t ta = front_of(a).log_time, tb = front_of(b).log_time;
    return ta != tb ? ta > tb : open_[a].at > open_[b].at;
  }

  void push_slot(std::uint32_t slot) {
    heap_.push_back(slot);
    std::push_heap(heap_.begin(), heap_.end(), [this](std::uint32_t a, std::uint32_t b) { return later(a, b); });
  }

  std::uint32_t pop_slot() {
    std::pop_heap(heap_.begin(), heap_.end(), [this](std::uint32_t a, std::uint32_t b) { return later(a, b); });
    const std::uint32_t slot = heap_.back();
    heap_.pop_back();
    return slot;
  }

  /// Reads and decompresses span `s`, registers its schemas and channels, and queues its
  /// messages (sorted by log time: a chunk need not hold them in order) unless it lies
  /// outside the time window (then it was opened for its channel declarations only).
  Step open_span(std::size_t s) {
    Span& span = spans_[s];
    span.opened = true;
    ++stats_.chunks_read;
    if (span.skipped) --stats_.chunks_skipped;
    std::uint32_t slot = 0;
    if (!free_slots_.empty()) {
      slot = free_slots_.back();
      free_slots_.pop_back();
    } else {
      slot = static_cast<std::uint32_t>(open_.size());
      open_.emplace_back();
    }
    Open& o = open_[slot];
    o.messages.clear();
    o.next = 0;
    o.at = span.at;
    CutChunk* const cut = span.chunk && cut_ && cut_->at == span.at ? &*cut_ : nullptr;
    if (span.chunk) {
      size_buffer(body_, static_cast<std::size_t>(span.size));
      pread_all(body_.data(), body_.size(), span.at + 9);
      ByteCursor c(body_.data(), body_.size());
      if (const Step st = decompress_chunk(c, span.at, o.data, o.exact, o.data_at, cut); st != Step::End)
        return skip_span(slot);
    } else {
      size_buffer(o.data, static_cast<std::size_t>(span.size));
      pread_all(o.data.data(), o.data.size(), span.at);
      o.exact = true;
      o.data_at = span.at;
    }
    // The descriptor's offset tells how far the reading has come (a progress bar reads it).
    (void)::lseek(fd_, static_cast<off_t>(span.at + (span.chunk ? 9 : 0) + span.size), SEEK_SET);
    ByteCursor c(o.data.data(), o.data.size());
    std::int64_t last = span.start;
    bool sorted = true;
    while (c.left() > 0) {
      const std::size_t rel = c.pos();
      std::uint8_t op = 0;
      std::uint64_t len = 0;
      c.get(op);
      c.get(len);
      if ((!c.ok() || len > c.left()) && cut != nullptr) break;  // where the end of the file cuts it
      if (!c.ok() || len > c.left()) {
        fail(o.exact ? o.data_at + rel : span.at,
             fmt::format("chunk at byte {}: record at offset {} of its data runs past the chunk", span.at, rel));
        return skip_span(slot);
      }
      ByteCursor body(c.here(), static_cast<std::size_t>(len));
      const auto pos = static_cast<std::uint32_t>(c.pos());
      c.skip(static_cast<std::size_t>(len));
      if ((op == kSchema && !schema(body)) || (op == kChannel && !channel(body))) {
        fail(span.at, op == kSchema ? "chunk: malformed schema record" : "chunk: malformed channel record");
        return skip_span(slot);
      }
      if (op != kMessage) continue;
      std::uint64_t t = 0;
      // A record too short for its fixed fields keeps its place (the previous message's
      // time) and is reported when its turn comes.
      if (body.skip(6) && body.get(t)) {
        sorted = sorted && static_cast<std::int64_t>(t) >= last;
        last = static_cast<std::int64_t>(t);
      }
      o.messages.push_back(Held{last, pos, static_cast<std::uint32_t>(len)});
    }
    if (!sorted)
      std::stable_sort(o.messages.begin(), o.messages.end(),
                       [](const Held& a, const Held& b) { return a.log_time < b.log_time; });
    if (cut != nullptr) cut->messages = o.messages.size();
    if (span.skipped) o.messages.clear();
    if (o.messages.empty()) {
      free_slots_.push_back(slot);
    } else {
      push_slot(slot);
    }
    return Step::End;
  }

  /// A damaged span is reported (the error is set) and left out; the other spans go on.
  Step skip_span(std::uint32_t slot) {
    open_[slot].messages.clear();
    free_slots_.push_back(slot);
    return Step::Error;
  }

  /// Opens the unopened spans that lie before `at` in the file; true if there was one. Spans
  /// left out by the time window are opened only until `channel` is declared.
  Step open_spans_before(std::uint64_t at, std::uint16_t channel, bool& opened) {
    opened = false;
    for (std::size_t s = 0; s < spans_.size(); ++s) {
      if (spans_[s].opened || spans_[s].at >= at) continue;
      if (spans_[s].skipped && channel < channels_.size() && channels_[channel] >= 0) continue;
      if (const Step st = open_span(s); st != Step::End) return st;
      opened = true;
    }
    return Step::End;
  }

  Step next_in_time(Raw& raw) {
    if (spent_slot_) {  // the previous message's data is no longer needed
      free_slots_.push_back(*spent_slot_);
      spent_slot_.reset();
    }
    for (;;) {
      // A span may hold the next message when it starts no later than the earliest held one.
      while (next_span_ < spans_.size() &&
             (spans_[next_span_].opened || heap_.empty() || spans_[next_span_].start <= front_of(heap_.front()).log_time)) {
        const std::size_t s = next_span_++;
        if (spans_[s].opened || spans_[s].skipped) continue;
        if (spans_[s].timed && skips_chunk(spans_[s].start, spans_[s].end)) {
          // Outside the window: left unread (a later chunk's undeclared channel may still
          // open it, for its declarations only: open_spans_before).
          spans_[s].skipped = true;
          ++stats_.chunks_skipped;
          continue;
        }
        if (const Step st = open_span(s); st != Step::End) return st;
      }
      if (heap_.empty()) {
        if (!scan_error_) {
          stopped_ = true;
          return Step::End;
        }
        return stop(scan_error_->at, cut_ ? cut_report(*cut_) : scan_error_->why);
      }
      const std::uint32_t slot = heap_.front();
      const Held held = front_of(slot);
      Open& o = open_[slot];
      ByteCursor body(o.data.data() + held.pos, held.size);
      // A channel the spans opened so far have not declared may be declared by a chunk
      // earlier in the file (a writer declares a channel once, in the chunk of its first use).
      std::uint16_t ch = 0;
      if (ByteCursor peek = body; peek.get(ch) && (ch >= channels_.size() || channels_[ch] < 0)) {
        bool opened = false;
        if (const Step st = open_spans_before(o.at, ch, opened); st != Step::End) return st;
        if (opened) continue;
      }
      Open& popped = open_[slot];
      if (heap_.size() == 1) {  // one chunk open, the usual case: no heap to reorder
        if (++popped.next == popped.messages.size()) {
          heap_.clear();
          spent_slot_ = slot;
        }
      } else {
        pop_slot();
        if (++popped.next < popped.messages.size()) {
          push_slot(slot);
        } else {
          spent_slot_ = slot;
        }
      }
      const std::uint64_t at = popped.exact ? popped.data_at + held.pos - 9 : popped.at;
      return message(body, at, raw);
    }
  }

  /// Records outside chunks are grouped into runs of at most this many bytes.
  static constexpr std::uint64_t kRunBytes = std::uint64_t{4} << 20;

  struct Schema {
    bool known = false;
    std::string name, encoding, data;
  };

  bool in_time_order_ = true;  ///< false on a pipe, or when no chunk has its times
  bool indexed_ = false;
  std::size_t timed_chunks_ = 0;
  std::vector<Span> spans_;       ///< sorted by start time
  std::size_t next_span_ = 0;     ///< spans before it are opened
  std::vector<Open> open_;        ///< slots, reused
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint32_t> heap_;  ///< slots with messages left, earliest next message first
  std::optional<std::uint32_t> spent_slot_;
  std::optional<ScanError> scan_error_;
  std::vector<std::uint8_t> body_;
  std::vector<Schema> schemas_;
  std::vector<std::int32_t> channels_;
  std::string profile_;
  ZSTD_DCtx* zstd_ = nullptr;
};

std::unique_ptr<BagSource> open_mcap(int fd, const std::string& path, const BagOptions& options) {
  return std::make_unique<McapSource>(fd, path, options);
}

constexpr std::array<std::string_view, 1> kMcapExtensions = {".mcap"};

}  // namespace

// MCAP, ROS 2's default storage since Iron (a file, or the files of a rosbag2 directory).
extern const FormatDescriptor mcap_format = {
    .name = "mcap",
    .extensions = kMcapExtensions,
    .magic = kMagic,
    .rosbag2_storage = true,
    .make_writer = make_mcap_writer,
    .open_log = open_mcap,
};

}  // namespace rmodel::io::detail
