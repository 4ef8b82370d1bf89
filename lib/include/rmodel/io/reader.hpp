#pragma once
#include "rmodel/export.hpp"
/// @file io/reader.hpp
/// Pulls joint-state messages one at a time from a file, stdin, a file descriptor or a
/// std::istream: offline replay and online streaming are the same code path.
///
/// ```
/// namespace io = rmodel::io;
/// auto reader = io::MessageReader::open(path, {});  // "-" = stdin; the format from the path, then the content
/// auto writer = io::MessageWriter::open("-");                       // stdout
/// io::Message msg;                                                  // reused
/// for (;;) {
///   if (!reader.input_pending()) writer.flush();  // about to wait for input
///   const io::ReadStatus st = reader.next(msg);
///   if (st == io::ReadStatus::End) break;
///   if (st == io::ReadStatus::Error) {
///     warn(reader.error().to_string(reader.source()));  // "file:12: reason"
///     continue;
///   }
///   writer.write(msg);
/// }
/// writer.flush();
/// ```
///
/// - **Streaming.** JSON Lines and CSV are read line by line as bytes arrive (a message is
///   returned as soon as its line is complete; nothing waits for end of input), echo YAML
///   document by document (as soon as its `---` line arrives), so the
///   reader works behind `tail -f` or a pipe from a live robot. Memory stays bounded by
///   the longest line (see ReaderOptions::max_line_bytes). Pretty-printed JSON, JSON arrays
///   and trajectories are read whole first (see format.hpp for the detection rule).
/// - **Lines.** `\n` ends a line; a trailing `\r` is dropped (CRLF files); a last line
///   without a newline is still read; blank lines are skipped; a UTF-8 BOM at the start of
///   the input is skipped.
/// - **JSON.** JSON messages are read by rmodel's own one-pass parser (strict RFC 8259): it
///   validates every byte, reads `-0` and integers beyond 64 bits exactly as std::from_chars
///   does, explains an error with the element and line, and never allocates once warm.
/// - **Errors are values.** A bad line or message yields ReadStatus::Error with error()
///   = {line, item, reason}; the next call continues with the next line or message. Only
///   opening (missing, unreadable file, directory) and an operating-system read failure
///   throw (rmodel::IoError). An input holding no message and no error at all (empty or only
///   blanks) yields one error "empty input" with line 0. A CSV input with only a header is
///   not an error.
/// - **No allocation in steady state.** next() reuses `out`'s buffers: vectors keep their
///   capacity, a name string is rewritten only when it differs, strings no longer needed
///   are kept in a pool for later messages. Reading JSON Lines or CSV messages of a size
///   seen before allocates nothing.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rmodel/io/format.hpp"
#include "rmodel/io/message.hpp"
#include "rmodel/base/time.hpp"

namespace rmodel::io {

/// One end of a time window (ReaderOptions::start, ReaderOptions::end).
struct TimeBound {
  Time time{};            ///< the instant, or the offset from the log's first message
  bool relative = false;  ///< `time` counts from the time of the log's first message
  friend bool operator==(const TimeBound&, const TimeBound&) = default;
};

/// Reads a time window's end as the command line gives it (docs/design.md, "Time windows"):
/// - decimal seconds below 10⁹ (`2.5`, `0`): relative, seconds after the log's first message;
/// - decimal seconds from 10⁹ on (`1700000000.123456789`, read exactly into nanoseconds, as
///   parse_time()): absolute, on the log's clock (the epoch for ROS stamps);
/// - `@` and decimal seconds (`@12.5`): absolute whatever the size (simulation time, logs whose
///   clock starts at 0);
/// - RFC 3339 (`2023-11-14T22:13:20.5Z`, `2023-11-14T23:13:20.5+01:00`; `T` or a space, `Z` or
///   an offset required; up to nine decimals exact, more rounded like parse_time()): absolute.
/// Throws InvalidArgument naming `option` and the value ("'--start': '-1' is ..."): a negative
/// relative time, a malformed date or time, a time beyond ±9223372036.854775807 s.
[[nodiscard]] RMODEL_API TimeBound parse_time_bound(std::string_view text, std::string_view option);

/// Options of a MessageReader.
struct RMODEL_API ReaderOptions {
  /// Input format; auto (`Format{}`) = from the path's extension, then from the content
  /// (format.hpp). Name one with parse_format(): `{.format = io::parse_format("csv")}`.
  Format format;
  /// A line longer than this many bytes (without its newline) is skipped and reported as an
  /// error instead of being buffered, so that garbage without newlines cannot exhaust
  /// memory. Must be at least 1.
  std::size_t max_line_bytes = std::size_t{64} << 20;
  /// ROS logs (bag.hpp): topics to read; empty = every JointState topic. A text log has no
  /// topics to choose from: given topics, opening one whose format is known (named, or by the
  /// extension) throws OptionError, and one told by its content (standard input) gives that as
  /// the one error of the whole input, whose messages are then not read.
  std::vector<std::string> topics{};
  /// ROS logs and `rostopic echo -p` CSV: `header.stamp` or the recorder's log time (`%time`).
  TimeSource time = TimeSource::Header;
  /// CSV: the column holding the time in seconds. Empty: `t`, `time` or PlotJuggler's
  /// `__time` (message.hpp). A name not in the header is reported on the header line.
  std::string time_column{};
  /// CSV: the joint columns are `<prefix><joint>/<field>` (or `.<field>`, or `<prefix><joint>`
  /// for a position), e.g. `/joint_states/` for PlotJuggler's
  /// `/joint_states/neck_pitch/position`; other columns are ignored. Empty: inferred when
  /// every `/.../<joint>/position|velocity|effort` column shares one prefix (message.hpp).
  std::string column_prefix{};
  /// Time window: only messages with start ≤ time < end are returned (half-open, so that
  /// windows [a, b) and [b, c) split a log without sharing a message). The time is the one
  /// the reader gives (Message::stamp(): the header stamp or the log time per `time`; a
  /// trajectory's points each by their own time). A relative bound counts from the time of the
  /// first message the reader reads (before the window; each reader its own). A message
  /// without a time is an error while a window is set. MCAP and ROS 1 bags read with
  /// TimeSource::Log skip whole chunks outside the window (ReaderStats), without changing what
  /// is returned.
  ///
  /// stream::Pipeline::run() reads a reader with a window differently: every message is
  /// returned, those outside the window too (its stages take them into their state and
  /// publish nothing of them: docs/design.md, "Time windows"), and only the chunks after the
  /// window's end are skipped. It switches a reader it is given before the reader's first
  /// message.
  std::optional<TimeBound> start{};
  std::optional<TimeBound> end{};
};

/// What a reader has done so far: how much of a ROS log it read (the other formats leave it
/// at zero).
struct ReaderStats {
  std::uint64_t chunks_read = 0;     ///< MCAP and ROS 1 chunks (and MCAP runs outside chunks) opened
  std::uint64_t chunks_skipped = 0;  ///< chunks left unread because they lie outside the time window
  std::uint64_t bytes_read = 0;      ///< bytes read from the log file (MCAP, ROS 1 bag)
  std::uint64_t outside_window = 0;  ///< messages read outside the time window (not returned, or passed to a stream::Pipeline)
  /// The earliest and the latest time of the messages read while a window is set (inside it or
  /// not; nothing without a window or before the first message): the span of what was read.
  std::optional<Time> earliest{}, latest{};
};

/// Result of MessageReader::next().
enum class ReadStatus {
  Ok,          ///< a message was stored in `out`
  Error,       ///< a bad line or message; details in MessageReader::error(); call next() again
  End,         ///< end of input; every later call returns End as well
  WouldBlock,  ///< a non-blocking descriptor has no complete line yet; call next() later
};

/// A bad line or message.
struct RMODEL_API ReadError {
  std::size_t line = 0;  ///< 1-based line where the problem is (0 = whole input / unknown)
  std::size_t item = 0;  ///< 1-based element of an array or point of a trajectory, or 0
  std::string reason;    ///< what is wrong, e.g. "'position' element 3: expected a number"
  /// Byte offset in the file of the damaged record (binary ROS logs, bag.hpp). With it, `line`
  /// is the 1-based message number in the file (0 when the damage is not inside a message).
  std::optional<std::uint64_t> byte_offset{};

  /// "source:line: reason" or "source:line: item N: reason" (drops absent parts); with a byte
  /// offset "source: byte B: message N: reason" (location()).
  [[nodiscard]] std::string to_string(const std::string& source) const;
};

/// Where a message or a problem is, in the one wording of every report: "source:LINE" and
/// "source:LINE: item N" in text logs (N: the element of a JSON array, the point of a
/// trajectory); in binary ROS logs, which have no lines and where `line` is the 1-based
/// message number (`numbered_messages`, or implied by a byte offset), "source: message N",
/// "source: byte B: message N" (B: the offset of the damaged record), then ": item N" for a
/// trajectory's point. Absent parts (0, no offset) are left out.
[[nodiscard]] RMODEL_API std::string location(const std::string& source, std::size_t line, std::size_t item,
                                              std::optional<std::uint64_t> byte_offset = std::nullopt,
                                              bool numbered_messages = false);

/// True for the binary log formats (FormatInfo::binary: `mcap`, `db3`, `bag`), whose messages
/// are numbered instead of placed on lines (Message::line is the message number).
[[nodiscard]] RMODEL_API bool numbers_messages(Format format) noexcept;

/// Reads messages one at a time. Move-only.
class RMODEL_API MessageReader {
public:
  /// Opens a path, or stdin for "-". The format is options.format, or, for Auto, the
  /// path's extension (format_from_path) and then the content.
  /// Throws IoError when the path is missing, unreadable or a directory.
  [[nodiscard]] static MessageReader open(const std::string& path, ReaderOptions options = {});

  /// Reads from a file descriptor (blocking or non-blocking); closes it on destruction when
  /// `owns_fd`. `source_name` names it in errors.
  MessageReader(int fd, std::string source_name, ReaderOptions options = {}, bool owns_fd = false);

  /// Reads from a stream (kept by reference; it must outlive the reader). For stdin prefer
  /// open("-"), which reads the descriptor directly and never waits for more than is ready.
  MessageReader(std::istream& in, std::string source_name, ReaderOptions options = {});

  MessageReader(MessageReader&&) noexcept;
  MessageReader& operator=(MessageReader&&) noexcept;
  ~MessageReader();

  /// Pulls the next message into `out` (reusing its buffers). On Ok, `out` holds the
  /// message with its line (and item); on Error, error() tells why and `out` is unspecified.
  /// Throws IoError only when the operating system fails a read.
  ReadStatus next(Message& out);

  /// The last error (valid after next() returned Error, until the next call).
  [[nodiscard]] const ReadError& error() const noexcept;

  /// The source name given at construction, the path, or "<stdin>".
  [[nodiscard]] const std::string& source() const noexcept;

  /// The format in use: the requested one until the first next() resolves auto or `json`
  /// (then the text format the first line showed, e.g. `jsonl`, `json` for a whole document,
  /// `csv` or `yaml`), or the binary log found by its magic bytes.
  [[nodiscard]] Format format() const noexcept;

  /// True when a complete line or decoded message is already buffered, i.e. the next call
  /// to next() will not wait for input. A streaming command checks it right before each
  /// next() and flushes its output when it is false — so nothing it wrote waits in a buffer
  /// while it blocks for input — which keeps latency low without a write per message:
  /// `if (!reader.input_pending()) writer.flush(); status = reader.next(msg);`
  [[nodiscard]] bool input_pending() const noexcept;

  /// True when this reader can be read ahead of its consumer, on another thread
  /// (stream::RunOptions::read_ahead): a regular file or a rosbag2 directory. False for a
  /// live input (a pipe, socket, terminal or std::istream), whose messages are to be handled
  /// as they arrive, and for a merge of inputs, whose source() and format() follow the input
  /// read last and so are asked between reads.
  [[nodiscard]] bool may_read_ahead() const noexcept;

  /// Number of messages returned (Ok) and of errors returned so far.
  [[nodiscard]] std::uint64_t message_count() const noexcept;
  [[nodiscard]] std::uint64_t error_count() const noexcept;

  /// Chunks and bytes read so far, and messages left out by the time window (ReaderStats).
  /// For a merged reader, the sums over its inputs.
  [[nodiscard]] ReaderStats stats() const noexcept;

  /// The time window in the log's time, once its bounds are known: at once for absolute
  /// bounds, after the first message for a relative one (it counts from that message's time).
  /// Nothing without a window (ReaderOptions::start, end) or while a relative bound waits for
  /// the first message. For a merged reader, the window of the input that gave the last
  /// message or error.
  [[nodiscard]] std::optional<TimeWindow> window() const noexcept;

  /// Merges readers by time: next() returns the message with the earliest time among the
  /// next messages of the inputs (equal times: the earlier input first), so that for inputs
  /// each in time order the output is the stable sort of their union by time. One message per
  /// input is held (memory does not grow with the logs). A message without a time is returned
  /// as soon as it is read. An input going back in time is not reordered: its messages keep
  /// their order. Errors are returned as their input reports them; source() and format() are
  /// those of the input that gave the last message or error (its line numbers refer to it).
  /// When an input would block, next() returns WouldBlock (the order cannot be decided yet).
  [[nodiscard]] static MessageReader merge(std::vector<MessageReader> inputs);

  class Impl;
  class Merged;

private:
  friend struct ReaderAccess;  // librmodel's internal entry points (lib/src/io/read/reader.cpp)
  MessageReader() = default;
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<Merged> merged_;  ///< set by merge(): impl_ is null then
};

}  // namespace rmodel::io
