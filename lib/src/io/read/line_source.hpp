#pragma once
// Internal: bytes from a descriptor or a stream, split into lines without waiting for the
// end of input, in one reusable buffer (bounded by the longest accepted line).

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace rmodel::io::detail {

/// Where bytes come from.
class ByteSource {
public:
  virtual ~ByteSource() = default;
  /// Reads up to `n` bytes, returning as soon as some are available: the count, 0 at end
  /// of input, -1 when a non-blocking source has nothing now. Throws IoError on failure.
  virtual long read(char* buf, std::size_t n) = 0;
  /// True when bytes are held here, so that read() returns them without waiting.
  [[nodiscard]] virtual bool holds_bytes() const noexcept { return false; }
};

/// A file descriptor (closed on destruction when owned).
class FdSource final : public ByteSource {
public:
  FdSource(int fd, std::string name, bool owned) : fd_(fd), owned_(owned), name_(std::move(name)) {}
  ~FdSource() override;
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;
  long read(char* buf, std::size_t n) override;
  /// Bytes taken from the descriptor before this source was made (a format sniffed on a
  /// pipe), served before the descriptor's own.
  void unread(std::string bytes) {
    pending_ = std::move(bytes);
    pending_at_ = 0;
  }
  [[nodiscard]] bool holds_bytes() const noexcept override { return pending_at_ < pending_.size(); }

private:
  int fd_;
  bool owned_;
  std::string name_;
  std::string pending_;
  std::size_t pending_at_ = 0;
};

/// A std::istream, read through its stream buffer without waiting for a full block.
class StreamSource final : public ByteSource {
public:
  StreamSource(std::istream& in, std::string name) : in_(&in), name_(std::move(name)) {}
  long read(char* buf, std::size_t n) override;

private:
  std::istream* in_;
  std::string name_;
};

/// Splits a byte source into lines.
class LineSplitter {
public:
  enum class Status { Line, End, WouldBlock, TooLong };

  /// `max_line` bytes at most per line (without '\n'); longer lines are skipped.
  LineSplitter(ByteSource& source, std::size_t max_line);

  /// Next line (without '\n' and a trailing '\r') and its 1-based number. The view stays
  /// valid until the next call. kPadding readable bytes follow it (see readable()).
  Status next(std::string_view& line, std::size_t& number);

  /// Bytes readable from `p` (a pointer into the last line) to the end of the buffer,
  /// padding included.
  [[nodiscard]] std::size_t readable(const char* p) const noexcept {
    return static_cast<std::size_t>(buf_.data() + buf_.size() - p);
  }

  /// True when next() would return without reading (a complete line is buffered, or the
  /// input has ended).
  [[nodiscard]] bool line_ready() const noexcept;

  /// True when the bytes buffered but not yet returned contain `needle`, or the input has
  /// ended (a YAML reader asks whether a whole document is ready).
  [[nodiscard]] bool buffered_contains(std::string_view needle) const noexcept;

  /// Appends everything not yet returned, up to the end of input, to `out`. Returns End,
  /// or WouldBlock (call again later; what was read so far is already appended).
  Status drain(std::string& out);

  /// Number of lines returned so far.
  [[nodiscard]] std::size_t lines() const noexcept { return line_no_; }

private:
  ByteSource* source_;
  std::size_t max_line_;
  std::vector<char> buf_;  ///< capacity() data bytes + kPadding
  std::size_t cap_ = 0;    ///< usable bytes of buf_
  std::size_t begin_ = 0, end_ = 0, scan_ = 0;
  std::size_t line_no_ = 0;
  bool eof_ = false;
  bool skipping_ = false;

  /// Reads more bytes; false when the source would block.
  bool fill();
};

}  // namespace rmodel::io::detail
