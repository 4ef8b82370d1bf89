#pragma once
// Internal: readers of robot logs as ROS records them (MCAP, ROS 2 sqlite3, ROS 1 bag 2.0),
// behind MessageReader. Each source walks its file in file order, decodes the messages of
// the selected topics into io::Message and yields errors as values with the byte offset.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <lz4frame.h>

#include "io/read/builder.hpp"
#include "io/text/trajectory.hpp"
#include "rmodel/io/bag.hpp"
#include "rmodel/io/reader.hpp"

namespace rmodel::io::detail {

/// The largest record or chunk (uncompressed) the MCAP and ROS 1 readers accept: a bound on
/// the memory a damaged length field can make them allocate (recorders write ~1 MiB chunks).
constexpr std::uint64_t kMaxChunkBytes = std::uint64_t{1} << 28;  // 256 MiB

/// Little-endian cursor over a byte range; every read is bounds-checked (ok() turns false
/// and stays false on the first read past the end).
class ByteCursor {
public:
  ByteCursor() = default;
  ByteCursor(const std::uint8_t* data, std::size_t size) noexcept : p_(data), end_(data + size), begin_(data) {}

  [[nodiscard]] bool ok() const noexcept { return ok_; }
  [[nodiscard]] std::size_t pos() const noexcept { return static_cast<std::size_t>(p_ - begin_); }
  [[nodiscard]] std::size_t left() const noexcept { return static_cast<std::size_t>(end_ - p_); }
  [[nodiscard]] const std::uint8_t* here() const noexcept { return p_; }

  bool skip(std::size_t n) noexcept {
    if (!ok_ || left() < n) return fail();
    p_ += n;
    return true;
  }
  /// Advances to a multiple of `n` from `origin` bytes before begin (CDR alignment).
  bool align(std::size_t n, std::size_t origin) noexcept {
    const std::size_t off = (pos() - origin) % n;
    return off == 0 ? ok_ : skip(n - off);
  }
  /// One little-endian value: one unaligned load (a byte swap on a big-endian host).
  template <class T>
  bool get(T& v) noexcept {
    static_assert(std::is_trivially_copyable_v<T> && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8));
    if (!ok_ || left() < sizeof(T)) return fail();
    load_le(p_, v);
    p_ += sizeof(T);
    return true;
  }
  /// `n` consecutive little-endian values into `out`: one copy on a little-endian host.
  template <class T>
  bool get_array(T* out, std::size_t n) noexcept {
    if (!ok_ || left() / sizeof(T) < n) return fail();
    if constexpr (std::endian::native == std::endian::little) {
      if (n > 0) std::memcpy(out, p_, n * sizeof(T));
    } else {
      for (std::size_t i = 0; i < n; ++i) load_le(p_ + i * sizeof(T), out[i]);
    }
    p_ += n * sizeof(T);
    return true;
  }
  bool bytes(std::size_t n, std::string_view& out) noexcept {
    if (!ok_ || left() < n) return fail();
    out = std::string_view(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return true;
  }
  bool fail() noexcept {
    ok_ = false;
    p_ = end_;
    return false;
  }

private:
  template <class T>
  static void load_le(const std::uint8_t* from, T& v) noexcept {
    if constexpr (std::endian::native == std::endian::little || sizeof(T) == 1) {
      std::memcpy(&v, from, sizeof(T));
    } else {
      std::uint8_t reversed[sizeof(T)];
      for (std::size_t i = 0; i < sizeof(T); ++i) reversed[i] = from[sizeof(T) - 1 - i];
      std::memcpy(&v, reversed, sizeof(T));
    }
  }

  const std::uint8_t* p_ = nullptr;
  const std::uint8_t* end_ = nullptr;
  const std::uint8_t* begin_ = nullptr;
  bool ok_ = true;
};

/// CRC-32 (ISO-HDLC, as zlib; MCAP's checksum), continued from `crc` (0 to start).
std::uint32_t crc32(std::uint32_t crc, const std::uint8_t* data, std::size_t size) noexcept;

/// What a channel / connection carries, for the decoder.
enum class RosType : std::uint8_t { JointState, Trajectory, Other };
enum class RosWire : std::uint8_t { Cdr, Ros1 };

/// ROS type of a type name, ROS 1 (`sensor_msgs/JointState`) or ROS 2 spelling.
RosType classify_type(std::string_view type) noexcept;

/// Decodes a JointState (CDR or ROS 1 serialization) into `out.joint`, reusing its buffers
/// (names through `names`: no allocation once warm). Sets stamp seconds and ns. False with
/// `why` on malformed data.
bool decode_joint_state(RosWire wire, std::span<const std::uint8_t> data, Message& out,
                        StringListSink& names, std::string& why);

/// Decodes a JointTrajectory and expands it like a JSON trajectory (message.hpp) into
/// `pending` (line = message number); `base_ns` replaces header.stamp when given (log
/// time). False with `why` on malformed data.
bool decode_trajectory(RosWire wire, std::span<const std::uint8_t> data, std::size_t number,
                       std::optional<std::int64_t> base_ns, std::vector<PendingItem>& pending, std::string& why);

/// True when a `ros2msg` (or ROS 1 `.msg`) definition's top-level fields are the layout
/// rmodel decodes for `type`; else `why` says what differs.
bool definition_matches(RosType type, std::string_view definition, std::string& why);

/// Reading options that matter to log sources.
struct BagOptions {
  std::vector<std::string> topics;  ///< empty: every JointState topic
  TimeSource time = TimeSource::Header;
};

/// One topic seen by a source: what it is and whether it is read.
struct TopicState {
  std::string name;
  std::string type;
  RosType kind = RosType::Other;
  bool selected = false;
  bool layout_ok = true;       ///< the file's definition matches rmodel's decoder
  std::string layout_problem;  ///< why not
  std::uint64_t skipped = 0;   ///< selected messages that could not be decoded as this type
  /// Log time of the last message delivered, and the steps back in log time: a replay
  /// follows the order the reader delivers, which is reported when time goes back.
  std::int64_t last_log_ns = std::numeric_limits<std::int64_t>::min();
  std::uint64_t steps_back = 0;
  std::uint64_t first_back_number = 0;
  std::optional<std::uint64_t> first_back_offset;
  std::int64_t first_back_from = 0, first_back_to = 0;
};

/// Shared part of every log source: topic selection, decoding, pending expansion, the
/// once-per-topic reports at the end, and the error text with byte offset.
class BagSource {
public:
  BagSource(std::string name, BagOptions options) : name_(std::move(name)), options_(std::move(options)) {}
  virtual ~BagSource() = default;
  BagSource(const BagSource&) = delete;
  BagSource& operator=(const BagSource&) = delete;

  /// Ok (a message in `out`), Error (in `err`) or End.
  ReadStatus next(Message& out, ReadError& err);
  /// True when a decoded message is waiting (next() will not read the file).
  [[nodiscard]] bool pending() const noexcept { return !pending_.empty(); }
  /// Scans the whole log without decoding payloads (log-info).
  LogInfo scan();
  /// Reads the log up to its first robot description and the first message of each
  /// semantics topic it declares (robot_description.cpp); nullopt at the end or at damage
  /// before a robot description. Use a fresh source: it consumes what it reads.
  std::optional<RecordedModel> find_robot_description();

  /// The time window of the reading, in log time [lo, hi) (resolved by MessageReader). With
  /// TimeSource::Log and only JointState topics (no --topic: a trajectory's points lie after
  /// its log time), chunks wholly outside it are not read (skips_chunk()).
  void set_log_window(std::int64_t lo, std::int64_t hi) noexcept {
    window_ = true;
    window_lo_ = lo;
    window_hi_ = hi;
  }
  /// Chunks and bytes read and chunks skipped (ReaderStats).
  [[nodiscard]] virtual ReaderStats stats() const noexcept { return stats_; }

protected:
  friend class Rosbag2DirSource;
  /// One raw message of the log.
  struct Raw {
    std::size_t topic = 0;  ///< index in topics_
    std::int64_t log_time_ns = 0;
    std::span<const std::uint8_t> data;
    std::optional<std::uint64_t> offset;  ///< file byte offset of its record (none in sqlite)
  };
  enum class Step { Message, Error, End };
  /// Reads the next raw message (any topic) or an error (fill error_ via fail()).
  virtual Step read_raw(Raw& raw) = 0;
  /// How its messages are serialized: CDR (ROS 2), unless the format says otherwise.
  [[nodiscard]] virtual RosWire wire() const noexcept { return RosWire::Cdr; }
  /// True when the log declares a topic `name` of type std_msgs String (so far: the topics
  /// the source knows of; a rosbag2 directory adds the file it is reading).
  [[nodiscard]] virtual bool declares_string_topic(std::string_view name) const;
  /// Adds a topic; returns its index.
  std::size_t add_topic(std::string name, std::string type, std::string_view definition,
                        bool have_definition);
  Step fail(std::optional<std::uint64_t> offset, std::string reason);
  void set_profile(std::string s) { profile_ = std::move(s); }
  /// True when a chunk whose messages have log times in [start, end] holds none inside the
  /// window that this reading returns (see set_log_window()).
  [[nodiscard]] bool skips_chunk(std::int64_t start, std::int64_t end) const noexcept {
    return window_can_skip() && (end < window_lo_ || start >= window_hi_);
  }
  /// True when a window is set that chunks can be skipped by.
  [[nodiscard]] bool window_can_skip() const noexcept {
    return window_ && options_.time == TimeSource::Log && options_.topics.empty();
  }
  ReaderStats stats_;

  std::string name_;
  BagOptions options_;
  std::vector<TopicState> topics_;
  std::uint64_t number_ = 0;  ///< messages seen in the file (all topics), 1-based numbering
  ReadError error_;
  bool done_ = false;  ///< a fatal error or the end was reached

private:
  bool window_ = false;
  std::int64_t window_lo_ = 0, window_hi_ = 0;
  ReadStatus finish(ReadError& err);
  PendingQueue pending_;
  std::vector<std::string> spare_;
  StringListSink names_{spare_};
  std::string why_;
  std::string profile_;
  bool ended_ = false;
  bool had_error_ = false;
  std::size_t report_pos_ = 0;
  std::vector<std::string> reports_;
};

/// Opens the log source for `path` / `fd` when its content is a ROS log (magic bytes or a
/// rosbag2 directory), else nullptr. `format` is the detected one.
/// Throws IoError naming `path` when the regular file `fd` is a Git LFS pointer left in a
/// log's place (base/git_lfs.hpp): read as a log, it would be a bad magic or three bad lines.
/// Called once per opened file, where it is opened (MessageReader, OpenedLog), before
/// open_bag_source.
void refuse_git_lfs_pointer(int fd, const std::string& path);

std::unique_ptr<BagSource> open_bag_source(int fd, const std::string& path, const ReaderOptions& options,
                                           Format& format);

/// A ROS log opened by its path: the descriptor (closed with it) and its source, nullptr when
/// the file is not a ROS log. @throws IoError when the path cannot be opened.
struct OpenedLog {
  explicit OpenedLog(const std::string& path);
  ~OpenedLog();
  OpenedLog(const OpenedLog&) = delete;
  OpenedLog& operator=(const OpenedLog&) = delete;
  int fd = -1;
  Format format;
  std::unique_ptr<BagSource> source;
};

/// A ROS log arriving on a pipe (`cat run.mcap | rmodel aggregate -`): the logs need random
/// access to their chunks, so the stream is copied to an unnamed temporary file; a .db3 on a
/// pipe is an error (SQLite opens files by name: FormatDescriptor::pipe_refusal). With auto
/// the first bytes decide: a log's magic, or text, whose bytes read so far are left in `head`
/// for the text reader to take first. Returns the temporary file's descriptor (the caller owns it), or -1 when `fd`
/// is a file or a directory (read in place), a non-blocking descriptor in auto format, or the
/// input is text; `name` names the input in errors.
/// @throws IoError when reading the stream or holding it fails.
int spool_log_from_stream(int fd, Format format, const std::string& name, std::string& head);
/// A rosbag2 directory: its metadata.yaml's files in order, each read by the rosbag2 storage
/// its name ends as (FormatDescriptor::rosbag2_storage: `.mcap`, `.db3`); `storage` gets the
/// format of its first file.
std::unique_ptr<BagSource> make_rosbag2_dir_source(const std::string& dir, std::string name, BagOptions options,
                                                   Format& storage);

/// Sizes a byte buffer that is refilled record after record (records, chunks). Growing leaves
/// headroom, half the size again up to 16 MiB, because the records that follow are often a
/// little larger than any before (a bag's chunks close at a threshold plus one message; their
/// compressed sizes vary): so a reader stops allocating once warm, not once it has met the
/// largest record of the file.
inline void size_buffer(std::vector<std::uint8_t>& buffer, std::size_t n) {
  if (n > buffer.capacity()) buffer.reserve(n + std::min(n / 2, std::size_t{16} << 20));
  buffer.resize(n);
}

/// Decompresses whole LZ4 frames (MCAP and ROS 1 lz4 chunks) through one reused context.
class Lz4FrameDecoder {
public:
  Lz4FrameDecoder() = default;
  ~Lz4FrameDecoder();
  Lz4FrameDecoder(const Lz4FrameDecoder&) = delete;
  Lz4FrameDecoder& operator=(const Lz4FrameDecoder&) = delete;
  /// Decompresses the frame in src[0, n) into out, sized to `size` (what the container says
  /// it holds). Returns what is wrong ("lz4: <lz4's words>", "lz4 gave N bytes, header says
  /// M"), or an empty string.
  [[nodiscard]] std::string decode(const std::uint8_t* src, std::size_t n, std::vector<std::uint8_t>& out,
                                   std::size_t size);
  /// Decompresses what a frame cut short after `n` bytes holds: its complete blocks, into out
  /// (at most `size` bytes; resized to what was decoded). Returns what is wrong, or an empty
  /// string (also when the frame just ends early).
  [[nodiscard]] std::string decode_prefix(const std::uint8_t* src, std::size_t n, std::vector<std::uint8_t>& out,
                                          std::size_t size);

private:
  /// Decodes src[0, n) into out (sized to `size`) until the frame ends, the input is spent or
  /// the decoder stops; `out_pos` gets the bytes decoded, `hint` 0 when the frame ended.
  std::string run(const std::uint8_t* src, std::size_t n, std::vector<std::uint8_t>& out, std::size_t size,
                  std::size_t& out_pos, std::size_t& hint);
  LZ4F_dctx* context_ = nullptr;
};

/// Buffered sequential reads of a file descriptor with the current byte offset.
class FileReader {
public:
  explicit FileReader(int fd) noexcept;
  /// The size of the file when it is a regular file (a bound for lengths read from it), else 0.
  [[nodiscard]] std::uint64_t regular_size() const noexcept { return regular_size_; }
  /// Reads exactly n bytes into out (resized); returns the bytes read (< n at the end).
  std::size_t read(std::vector<std::uint8_t>& out, std::size_t n);
  std::size_t read(std::uint8_t* out, std::size_t n);
  /// Skips n bytes; returns the bytes skipped.
  std::size_t skip(std::size_t n);
  [[nodiscard]] std::uint64_t offset() const noexcept { return offset_; }
  /// Moves to byte `offset` of a regular file without reading what lies between.
  void seek(std::uint64_t offset);
  /// Bytes read from the descriptor so far.
  [[nodiscard]] std::uint64_t bytes_read() const noexcept { return bytes_read_; }

private:
  bool fill();
  int fd_;
  std::uint64_t regular_size_ = 0;
  std::vector<std::uint8_t> buf_ = std::vector<std::uint8_t>(std::size_t{1} << 16);
  std::size_t pos_ = 0;
  std::size_t size_ = 0;
  std::uint64_t offset_ = 0;
  std::uint64_t bytes_read_ = 0;
  bool eof_ = false;
  bool after_seek_ = false;
};

/// What the readers of chunked log files (MCAP, ROS 1 bag) share: the file with its size, its
/// magic bytes checked at the first read, positioned reads counted in the statistics, and the
/// chunk being read.
class ChunkedLogSource : public BagSource {
public:
  ChunkedLogSource(int fd, std::string name, BagOptions options)
      : BagSource(std::move(name), std::move(options)), fd_(fd), file_(fd), limit_(file_.regular_size()) {}

  [[nodiscard]] ReaderStats stats() const noexcept override {
    ReaderStats s = stats_;
    s.bytes_read += file_.bytes_read();
    return s;
  }

protected:
  /// At the first call, reads the file's first bytes: a stop with `empty_reason` when there
  /// are none, with `bad_reason` when they are not `magic`; nullopt when all is well.
  std::optional<Step> check_magic(std::string_view magic, std::string_view empty_reason, std::string_view bad_reason);
  /// Fails at byte `at`, and reads no further.
  Step stop(std::uint64_t at, std::string why) {
    stopped_ = true;
    return fail(at, std::move(why));
  }
  /// The file offset errors name for the record `rel` bytes into the chunk's data: its own
  /// when the chunk is stored uncompressed (chunk_exact_), else the chunk's.
  [[nodiscard]] std::uint64_t chunk_record_offset(std::size_t rel) const noexcept {
    return chunk_exact_ ? chunk_data_at_ + rel : chunk_at_;
  }
  /// Stops at the record `rel` bytes into the chunk's data, whose length runs past the chunk
  /// (in a chunk cut short, where its complete records end: the stop of cut_report()).
  Step record_past_chunk(std::uint64_t at, std::size_t rel);
  /// The next message (or error) of the chunk being read, its records read in turn by
  /// chunk_entry(); nullopt when no chunk is being read, or the chunk has just ended. After
  /// the last complete record of a chunk cut short (cut_), the stop that says so.
  std::optional<Step> next_in_chunk(Raw& raw);
  /// Reads the record at `c` (`rel` bytes into the chunk's data, named `at` in errors): a
  /// message or an error to return, or nullopt to go on with the next record.
  virtual std::optional<Step> chunk_entry(ByteCursor& c, std::size_t rel, std::uint64_t at, Raw& raw) = 0;
  /// Reads `n` bytes at byte `at` (not moving file_); false when the file ends first. Throws
  /// IoError when reading fails.
  bool pread_all(void* out, std::size_t n, std::uint64_t at);

  /// A chunk that the end of the file cuts short, as `mcap recover` reads one: the complete
  /// records of the data that is there (decompressed as far as it decodes) are read, then the
  /// reading stops with cut_report(). Its CRC cannot be checked.
  struct CutChunk {
    std::uint64_t at = 0;           ///< the chunk record's offset
    std::uint64_t file_end = 0;     ///< where the file ends
    std::uint64_t record_size = 0;  ///< the bytes the chunk record announces, its header included
    std::string compression = {};   ///< empty when stored uncompressed
    std::uint64_t decoded = 0;      ///< bytes of records its data gave
    std::uint64_t size = 0;         ///< bytes of records the chunk says it holds
    std::uint64_t messages = 0;     ///< complete messages read from it
    bool opened = false;            ///< its data was read (not when a time window left it out)
  };
  /// "the file ends at byte E, K bytes into this chunk of N (truncated): M complete messages
  /// read from it" (with what its compressed data decoded to).
  [[nodiscard]] static std::string cut_report(const CutChunk& cut);
  /// Stops at the chunk cut short (after its complete records).
  Step stop_at_cut() { return stop(cut_->at, cut_report(*cut_)); }

  int fd_;
  FileReader file_;
  std::uint64_t limit_ = 0;  ///< the file's size when it is a regular file
  std::optional<CutChunk> cut_;  ///< the chunk cut short by the end of the file, once met
  bool in_cut_chunk_ = false;    ///< the chunk being read (chunk_cur_) is cut_
  bool stopped_ = false;
  bool in_chunk_ = false;
  bool chunk_exact_ = false;
  std::uint64_t chunk_at_ = 0;
  std::uint64_t chunk_data_at_ = 0;
  ByteCursor chunk_cur_;
  std::vector<std::uint8_t> chunk_;
  std::vector<std::string> compressions_;
  Lz4FrameDecoder lz4_;
  bool magic_checked_ = false;  ///< check_magic() has read the first bytes
};

}  // namespace rmodel::io::detail
