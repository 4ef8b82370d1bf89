#include "io/ros/bag_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/git_lfs.hpp"
#include "base/system_error_text.hpp"
#include "io/formats/format_table.hpp"
#include "rmodel/base/error.hpp"

namespace rmodel::io::detail {

namespace {
// Slicing-by-8 tables: t[0] is the byte-wise table; t[k][i] is the CRC of byte i followed by k
// zero bytes, so eight bytes are folded in per step (MCAP chunks are checked and written with
// a CRC over every byte: the byte-wise loop was the replay's largest cost).
using CrcTables = std::array<std::array<std::uint32_t, 256>, 8>;
CrcTables make_crc_tables() {
  CrcTables t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1U) ? 0xEDB88320U ^ (c >> 1) : c >> 1;
    t[0][i] = c;
  }
  for (std::size_t k = 1; k < 8; ++k)
    for (std::size_t i = 0; i < 256; ++i) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFFU];
  return t;
}
}  // namespace

std::uint32_t crc32(std::uint32_t crc, const std::uint8_t* data, std::size_t size) noexcept {
  static const CrcTables t = make_crc_tables();
  crc = ~crc;
  while (size >= 8) {
    const std::uint32_t a = (static_cast<std::uint32_t>(data[0]) | static_cast<std::uint32_t>(data[1]) << 8 |
                             static_cast<std::uint32_t>(data[2]) << 16 | static_cast<std::uint32_t>(data[3]) << 24) ^
                            crc;
    const std::uint32_t b = static_cast<std::uint32_t>(data[4]) | static_cast<std::uint32_t>(data[5]) << 8 |
                            static_cast<std::uint32_t>(data[6]) << 16 | static_cast<std::uint32_t>(data[7]) << 24;
    crc = t[7][a & 0xFFU] ^ t[6][(a >> 8) & 0xFFU] ^ t[5][(a >> 16) & 0xFFU] ^ t[4][a >> 24] ^ t[3][b & 0xFFU] ^
          t[2][(b >> 8) & 0xFFU] ^ t[1][(b >> 16) & 0xFFU] ^ t[0][b >> 24];
    data += 8;
    size -= 8;
  }
  for (std::size_t i = 0; i < size; ++i) crc = t[0][(crc ^ data[i]) & 0xFFU] ^ (crc >> 8);
  return ~crc;
}

// ---- Lz4FrameDecoder ----

Lz4FrameDecoder::~Lz4FrameDecoder() {
  if (context_ != nullptr) LZ4F_freeDecompressionContext(context_);
}

std::string Lz4FrameDecoder::run(const std::uint8_t* src, std::size_t n, std::vector<std::uint8_t>& out,
                                 std::size_t size, std::size_t& out_pos, std::size_t& hint) {
  out_pos = 0;
  hint = 1;  // 0 once the frame is complete
  if (context_ == nullptr && LZ4F_isError(LZ4F_createDecompressionContext(&context_, LZ4F_VERSION)))
    return "cannot create an lz4 context";
  LZ4F_resetDecompressionContext(context_);
  size_buffer(out, size);
  std::size_t in_pos = 0;
  while (in_pos < n && hint != 0) {
    std::size_t out_size = size - out_pos, in_size = n - in_pos;
    hint = LZ4F_decompress(context_, out.data() + out_pos, &out_size, src + in_pos, &in_size, nullptr);
    if (LZ4F_isError(hint)) return fmt::format("lz4: {}", LZ4F_getErrorName(hint));
    in_pos += in_size;
    out_pos += out_size;
    if (in_size == 0 && out_size == 0) break;
  }
  return {};
}

std::string Lz4FrameDecoder::decode(const std::uint8_t* src, std::size_t n, std::vector<std::uint8_t>& out,
                                    std::size_t size) {
  std::size_t out_pos = 0, hint = 0;
  if (std::string e = run(src, n, out, size, out_pos, hint); !e.empty()) return e;
  if (out_pos != size || hint != 0) return fmt::format("lz4 gave {} bytes, header says {}", out_pos, size);
  return {};
}

std::string Lz4FrameDecoder::decode_prefix(const std::uint8_t* src, std::size_t n, std::vector<std::uint8_t>& out,
                                           std::size_t size) {
  std::size_t out_pos = 0, hint = 0;
  std::string e = run(src, n, out, size, out_pos, hint);
  out.resize(out_pos);  // the blocks decoded before the frame ends (or before the damage)
  return e;
}

// ---- FileReader ----

FileReader::FileReader(int fd) noexcept : fd_(fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) regular_size_ = static_cast<std::uint64_t>(st.st_size);
}

bool FileReader::fill() {
  if (eof_) return false;
  pos_ = 0;
  size_ = 0;
  for (;;) {
    // Right after a seek the next record is often only looked at (a header, then another
    // seek): a small read, not a whole buffer.
    const ssize_t n = ::read(fd_, buf_.data(), after_seek_ ? std::min<std::size_t>(buf_.size(), 4096) : buf_.size());
    after_seek_ = false;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError("<log>", std::strerror(errno));
    if (n == 0) {
      eof_ = true;
      return false;
    }
    size_ = static_cast<std::size_t>(n);
    bytes_read_ += size_;
    return true;
  }
}

std::size_t FileReader::read(std::uint8_t* out, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    if (pos_ == size_ && !fill()) break;
    const std::size_t k = std::min(n - got, size_ - pos_);
    std::memcpy(out + got, buf_.data() + pos_, k);
    pos_ += k;
    got += k;
  }
  offset_ += got;
  return got;
}

std::size_t FileReader::read(std::vector<std::uint8_t>& out, std::size_t n) {
  size_buffer(out, n);
  const std::size_t got = read(out.data(), n);
  out.resize(got);
  return got;
}

std::size_t FileReader::skip(std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    if (pos_ == size_ && !fill()) break;
    const std::size_t k = std::min(n - got, size_ - pos_);
    pos_ += k;
    got += k;
  }
  offset_ += got;
  return got;
}

void FileReader::seek(std::uint64_t offset) {
  const std::uint64_t buffered_from = offset_ - pos_;
  if (offset >= buffered_from && offset < buffered_from + size_) {  // already in the buffer
    pos_ = static_cast<std::size_t>(offset - buffered_from);
    offset_ = offset;
    return;
  }
  if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) throw IoError("<log>", std::strerror(errno));
  pos_ = size_ = 0;
  eof_ = false;
  offset_ = offset;
  after_seek_ = true;
}

// ---- BagSource ----

std::size_t BagSource::add_topic(std::string name, std::string type, std::string_view definition,
                                 bool have_definition) {
  TopicState t;
  t.kind = classify_type(type);
  if (have_definition && t.kind != RosType::Other)
    t.layout_ok = definition_matches(t.kind, definition, t.layout_problem);
  if (options_.topics.empty()) {
    t.selected = t.kind == RosType::JointState;
  } else {
    t.selected = std::find(options_.topics.begin(), options_.topics.end(), name) != options_.topics.end();
  }
  t.name = std::move(name);
  t.type = std::move(type);
  topics_.push_back(std::move(t));
  return topics_.size() - 1;
}

BagSource::Step BagSource::fail(std::optional<std::uint64_t> offset, std::string reason) {
  error_.line = 0;
  error_.item = 0;
  error_.byte_offset = offset;
  error_.reason = std::move(reason);
  return Step::Error;
}

ReadStatus BagSource::next(Message& out, ReadError& err) {
  for (;;) {
    if (!pending_.empty()) return pending_.take(out, err);
    if (done_) return finish(err);
    Raw raw;
    const Step step = read_raw(raw);
    if (step == Step::End) {
      done_ = true;
      continue;
    }
    if (step == Step::Error) {
      had_error_ = true;
      err = error_;
      return ReadStatus::Error;
    }
    TopicState& t = topics_[raw.topic];
    if (!t.selected) continue;
    if (t.kind == RosType::Other || !t.layout_ok) {
      ++t.skipped;
      continue;
    }
    const RosWire wire = this->wire();
    const auto number = static_cast<std::size_t>(number_);
    if (raw.log_time_ns < t.last_log_ns && t.steps_back++ == 0) {
      t.first_back_number = number;
      t.first_back_offset = raw.offset;
      t.first_back_from = t.last_log_ns;
      t.first_back_to = raw.log_time_ns;
    }
    t.last_log_ns = raw.log_time_ns;
    if (t.kind == RosType::JointState) {
      if (!decode_joint_state(wire, raw.data, out, names_, why_)) {
        err.line = number;
        err.item = 0;
        err.byte_offset = raw.offset;
        err.reason = fmt::format("topic {}: {}", t.name, why_);
        return ReadStatus::Error;
      }
      if (options_.time == TimeSource::Log) out.joint.stamp = Time{raw.log_time_ns};
      out.line = number;
      return ReadStatus::Ok;
    }
    // A trajectory: expanded into pending items (not a hot path).
    std::optional<std::int64_t> base;
    if (options_.time == TimeSource::Log) base = raw.log_time_ns;
    if (!decode_trajectory(wire, raw.data, number, base, pending_.items(), why_)) {
      err.line = number;
      err.item = 0;
      err.byte_offset = raw.offset;
      err.reason = fmt::format("topic {}: {}", t.name, why_);
      return ReadStatus::Error;
    }
  }
}

ReadStatus BagSource::finish(ReadError& err) {
  if (!ended_) {
    ended_ = true;
    for (const auto& t : topics_) {
      if (!t.selected) continue;
      if (t.kind == RosType::Other && t.skipped > 0)
        reports_.push_back(fmt::format("topic {}: type {} is not read (only JointState and JointTrajectory): "
                                       "{} message{} skipped",
                                       t.name, t.type, t.skipped, t.skipped == 1 ? "" : "s"));
      else if (!t.layout_ok && t.skipped > 0)
        reports_.push_back(fmt::format("topic {}: the file's definition of {} differs from the standard one ({}): "
                                       "{} message{} skipped",
                                       t.name, t.type, t.layout_problem, t.skipped, t.skipped == 1 ? "" : "s"));
    }
    for (const auto& t : topics_) {
      if (t.steps_back == 0) continue;
      const std::string place = t.first_back_offset ? fmt::format("byte {}: message {}", *t.first_back_offset,
                                                                  t.first_back_number)
                                                    : fmt::format("message {}", t.first_back_number);
      reports_.push_back(fmt::format("topic {}: log time goes back {} time{}, first at {}: from {} to {} "
                                     "(messages are replayed in the order of the file)",
                                     t.name, t.steps_back, t.steps_back == 1 ? "" : "s", place,
                                     to_string(Time{t.first_back_from}), to_string(Time{t.first_back_to})));
    }
    for (const auto& want : options_.topics) {
      const bool seen =
          std::any_of(topics_.begin(), topics_.end(), [&](const TopicState& t) { return t.name == want; });
      if (!seen) reports_.push_back(fmt::format("topic {} is not in the log", want));
    }
    if (options_.topics.empty() && !(had_error_ && topics_.empty()) &&
        std::none_of(topics_.begin(), topics_.end(), [](const TopicState& t) { return t.selected; })) {
      std::string list;
      for (const auto& t : topics_) list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", t.name, t.type);
      reports_.push_back(fmt::format(
          "no sensor_msgs/JointState topic in the log (topics: {}); choose one with ReaderOptions::topics",
          list.empty() ? "none" : list));
    }
  }
  if (report_pos_ < reports_.size()) {
    err.line = 0;
    err.item = 0;
    err.byte_offset.reset();
    err.reason = reports_[report_pos_++];
    return ReadStatus::Error;
  }
  return ReadStatus::End;
}

LogInfo BagSource::scan() {
  LogInfo info;
  info.path = name_;
  // topics_ holds one entry per connection (ROS 1) or channel (MCAP); log-info shows one line
  // per topic name and type, as `rosbag info` does, with the number of its connections.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> index;  // topics_ entry → info.topics position
  const auto entry_of = [&](std::size_t k, std::int64_t first_ns) -> std::size_t {
    while (index.size() < topics_.size()) index.push_back(kNone);
    std::size_t& i = index[k];
    if (i != kNone) return i;
    const TopicState& t = topics_[k];
    for (std::size_t j = 0; j < info.topics.size(); ++j)
      if (info.topics[j].name == t.name && info.topics[j].type == t.type) {
        ++info.topics[j].connections;
        return i = j;
      }
    info.topics.push_back(LogTopic{t.name, t.type, 0, first_ns, first_ns, 1});
    return i = info.topics.size() - 1;
  };
  bool first = true;
  for (;;) {
    Raw raw;
    const Step st = read_raw(raw);
    if (st == Step::End) break;
    if (st == Step::Error) {
      info.problems.push_back(error_.to_string(name_));
      break;
    }
    LogTopic& t = info.topics[entry_of(raw.topic, raw.log_time_ns)];
    ++t.messages;
    t.first_ns = std::min(t.first_ns, raw.log_time_ns);
    t.last_ns = std::max(t.last_ns, raw.log_time_ns);
    ++info.messages;
    if (first) {
      info.start_ns = info.end_ns = raw.log_time_ns;
      first = false;
    }
    info.start_ns = std::min(info.start_ns, raw.log_time_ns);
    info.end_ns = std::max(info.end_ns, raw.log_time_ns);
  }
  // Connections without messages still count, and topics without messages still show.
  for (std::size_t k = 0; k < topics_.size(); ++k) (void)entry_of(k, 0);
  info.detail = profile_;
  return info;
}

// ---- detection ----

namespace {

BagOptions bag_options(const ReaderOptions& o) { return BagOptions{o.topics, o.time}; }

/// The binary log format `f` names (one that opens logs), or nullptr.
const FormatDescriptor* log_format(Format f) {
  const FormatDescriptor* d = descriptor_of(f);
  return d != nullptr && d->open_log != nullptr ? d : nullptr;
}

/// The longest magic of the binary logs: the bytes looked at to tell them.
std::size_t longest_magic() {
  std::size_t n = 0;
  for (const FormatDescriptor* d : format_descriptors())
    if (d->open_log != nullptr) n = std::max(n, d->magic.size());
  return n;
}

/// True while `head` could still grow into one of the logs' magic bytes.
bool may_become_magic(std::string_view head) {
  for (const FormatDescriptor* d : format_descriptors()) {
    const std::string_view magic = d->magic;
    if (d->open_log != nullptr && !magic.empty() && head.size() < magic.size() &&
        magic.substr(0, head.size()) == head)
      return true;
  }
  return false;
}

/// The binary log whose magic bytes `head` starts with, or nullptr.
const FormatDescriptor* log_format_of_magic(std::string_view head) {
  for (const FormatDescriptor* d : format_descriptors()) {
    const std::string_view magic = d->magic;
    if (d->open_log != nullptr && !magic.empty() && head.substr(0, magic.size()) == magic) return d;
  }
  return nullptr;
}

/// read(2) that waits when the descriptor is non-blocking: the count, 0 at the end.
std::size_t read_waiting(int fd, char* buf, std::size_t n, const std::string& name) {
  for (;;) {
    const ssize_t r = ::read(fd, buf, n);
    if (r >= 0) return static_cast<std::size_t>(r);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      pollfd p{fd, POLLIN, 0};
      (void)::poll(&p, 1, -1);
      continue;
    }
    throw IoError(name, std::strerror(errno));
  }
}

/// An unnamed file in $TMPDIR (else /tmp), gone when closed.
int make_spool_file() {
  const char* env = std::getenv("TMPDIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : "/tmp";
  int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  std::string name = dir + "/rmodel-stdin-XXXXXX";
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0)
    throw IoError(dir, fmt::format("cannot create a file to hold the log read from a pipe: {}", std::strerror(errno)));
  ::unlink(name.c_str());
  return fd;
}

void write_all(int fd, const char* data, std::size_t n, const std::string& name) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) throw IoError(name, fmt::format("cannot hold the log read from a pipe: {}", std::strerror(errno)));
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}
}  // namespace

int spool_log_from_stream(int fd, Format format, const std::string& name, std::string& head) {
  head.clear();
  struct stat st {};
  // Files and directories are read in place; pipes, sockets and terminals are streams.
  if (::fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode))) return -1;
  if (!format.is_auto() && log_format(format) == nullptr) return -1;
  // A non-blocking descriptor belongs to a caller that must not wait (a live stream polled
  // with next() == WouldBlock): its format is not sniffed, only a log format asked for is held.
  const int flags = ::fcntl(fd, F_GETFL);
  if (format.is_auto() && flags >= 0 && (flags & O_NONBLOCK) != 0) return -1;
  if (format.is_auto()) {
    // Read in small pieces, no further than a magic may reach: what is read stays the text
    // reader's when the input is text.
    const std::size_t longest = longest_magic();
    char buf[64];
    do {
      const std::size_t want = std::min(sizeof buf, longest > head.size() ? longest - head.size() : std::size_t{1});
      const std::size_t n = read_waiting(fd, buf, want, name);
      if (n == 0) break;
      head.append(buf, n);
    } while (may_become_magic(head));
    if (log_format_of_magic(head) == nullptr) return -1;  // text: the reader takes `head` first
  }
  // A log read by its path (SQLite opens databases by name and resolves /proc/self/fd links
  // to the deleted file) cannot come from a pipe.
  const FormatDescriptor* named = format.is_auto() ? log_format_of_magic(head) : log_format(format);
  if (named != nullptr && !named->pipe_refusal.empty())
    throw IoError(name, fmt::format("{}: give its path", named->pipe_refusal));
  const int spool = make_spool_file();
  try {
    write_all(spool, head.data(), head.size(), name);
    std::vector<char> buf(1 << 20);
    for (std::size_t n; (n = read_waiting(fd, buf.data(), buf.size(), name)) > 0;)
      write_all(spool, buf.data(), n, name);
    if (::lseek(spool, 0, SEEK_SET) != 0) throw IoError(name, std::strerror(errno));
  } catch (...) {
    ::close(spool);
    throw;
  }
  head.clear();
  return spool;
}

void refuse_git_lfs_pointer(int fd, const std::string& path) {
  char head[rmodel::detail::kGitLfsPointerHead] = {};
  const ssize_t n = ::pread(fd, head, sizeof head, 0);
  if (n <= 0) return;
  if (const auto pointer = rmodel::detail::git_lfs_pointer(std::string_view(head, static_cast<std::size_t>(n))))
    throw IoError(path, *pointer);
}

std::unique_ptr<BagSource> open_bag_source(int fd, const std::string& path, const ReaderOptions& options,
                                           Format& format) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return nullptr;
  if (S_ISDIR(st.st_mode)) {
    check_log_path(path);  // a rosbag2 directory, or IoError
    return make_rosbag2_dir_source(path, path, bag_options(options), format);
  }
  const FormatDescriptor* log = log_format(options.format);
  if (options.format.is_auto() && S_ISREG(st.st_mode)) {
    std::string head(longest_magic(), '\0');
    const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
    head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    log = log_format_of_magic(head);
  }
  if (log == nullptr) return nullptr;
  format = format_of(*log);
  return log->open_log(fd, path, bag_options(options));
}

OpenedLog::OpenedLog(const std::string& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (fd < 0) throw IoError(path, rmodel::detail::system_error_text(errno));
  try {
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) refuse_git_lfs_pointer(fd, path);
    source = open_bag_source(fd, path, ReaderOptions{}, format);
  } catch (...) {
    ::close(fd);
    throw;
  }
}

OpenedLog::~OpenedLog() {
  source.reset();
  ::close(fd);
}

std::optional<BagSource::Step> ChunkedLogSource::check_magic(std::string_view magic, std::string_view empty_reason,
                                                             std::string_view bad_reason) {
  if (magic_checked_) return std::nullopt;
  magic_checked_ = true;
  std::vector<std::uint8_t> head;
  const std::size_t n = file_.read(head, magic.size());
  if (n == 0) return stop(0, std::string(empty_reason));
  if (n < magic.size() || std::string_view(reinterpret_cast<const char*>(head.data()), n) != magic)
    return stop(0, std::string(bad_reason));
  return std::nullopt;
}

std::optional<BagSource::Step> ChunkedLogSource::next_in_chunk(Raw& raw) {
  if (!in_chunk_) return std::nullopt;
  while (chunk_cur_.left() > 0) {
    const std::size_t rel = chunk_cur_.pos();
    if (auto st = chunk_entry(chunk_cur_, rel, chunk_record_offset(rel), raw)) {
      if (in_cut_chunk_ && *st == Step::Message) ++cut_->messages;
      return st;
    }
  }
  in_chunk_ = false;
  if (in_cut_chunk_) {
    in_cut_chunk_ = false;
    return stop_at_cut();
  }
  return std::nullopt;
}

BagSource::Step ChunkedLogSource::record_past_chunk(std::uint64_t at, std::size_t rel) {
  if (in_cut_chunk_) {  // the record the end of the file cuts
    in_chunk_ = in_cut_chunk_ = false;
    return stop_at_cut();
  }
  return stop(at, fmt::format("chunk at byte {}: record at offset {} of its data runs past the chunk", chunk_at_, rel));
}

std::string ChunkedLogSource::cut_report(const CutChunk& cut) {
  std::string s = fmt::format("the file ends at byte {}, {} bytes into this {}chunk of {} (truncated)", cut.file_end,
                              cut.file_end - cut.at, cut.compression.empty() ? "" : cut.compression + " ",
                              cut.record_size);
  if (!cut.opened) return s;  // left out by a time window, or its data could not be read
  if (!cut.compression.empty()) s += fmt::format(": its data decodes to {} of {} bytes,", cut.decoded, cut.size);
  else s += ":";
  return s + fmt::format(" {} complete message{} read from it", cut.messages, cut.messages == 1 ? "" : "s");
}

bool ChunkedLogSource::pread_all(void* out, std::size_t n, std::uint64_t at) {
  auto* p = static_cast<std::uint8_t*>(out);
  while (n > 0) {
    const ssize_t got = ::pread(fd_, p, n, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw IoError(name_, std::strerror(errno));
    if (got == 0) return false;
    stats_.bytes_read += static_cast<std::uint64_t>(got);
    p += got;
    n -= static_cast<std::size_t>(got);
    at += static_cast<std::uint64_t>(got);
  }
  return true;
}

}  // namespace rmodel::io::detail

namespace rmodel::io {

LogInfo read_log_info(const std::string& path) {
  detail::OpenedLog log(path);
  if (!log.source) {
    // An empty file is most often a recording that was never written (its recorder killed).
    std::error_code ec;
    const bool empty = std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == 0 && !ec;
    throw InvalidArgument(path + (empty ? ": empty file (0 bytes), " : ": ") +
                          "not a ROS log (expected an MCAP file, a ROS 1 bag, a .db3 or a rosbag2 directory)");
  }
  LogInfo info = log.source->scan();
  info.format = log.format;
  return info;
}

}  // namespace rmodel::io
