#pragma once
#include "rmodel/export.hpp"
/// @file io/writer.hpp
/// Writes joint-state messages as JSON Lines or wide CSV, to a file, stdout, a file
/// descriptor, a std::ostream or a string.
///
/// - **Exact numbers.** Doubles are written in the shortest form that parses back to the
///   same double (`0.1`, `1e-300`, `-0`, `5e-324`, `1.7976931348623157e+308`), character for
///   character what fmt's `"{}"` writes (fmt's Dragonbox digits; fixed notation for decimal
///   exponents -4..15, else `1.5e+300`).
/// - **Repeated content is copied, not formatted again.** A full pose written after each
///   partial update repeats most values and all names: the writer remembers the text of
///   the last value at each array position (re-formatting only a double whose bits
///   changed) and the text of the last few name lists (reused when the names are equal,
///   compared by content every time, so a caller may change its vectors freely).
/// - **Non-finite numbers.** JSON: NaN, +Inf, −Inf are written as `null` (read back as
///   NaN); a non-finite time is written `"t":null` without header stamp. CSV: `nan`, `inf`,
///   `-inf` (read back exactly).
/// - **JSON Lines.** One object per line, keys in this order: `t` (when Message::has_stamp),
///   `header.stamp` (StampLayout; only for a finite time within ±9.2e18 s), `cycle` (when
///   set), then `name`, `position`, `velocity`, `effort` (a joint state; empty arrays are
///   left out) or `name`, `support`, `contact` (a support state; empty `contact` left out) or
///   `sync: true` (a tick). Names are escaped as JSON requires.
/// - **CSV.** Header `t`, `cycle` (only with WriterOptions::csv_cycle), then
///   `<joint>.<field>` for each joint in order and each selected field, then `support/<chain>`
///   per configured chain. Each joint state or support state is one row; cells of joints not
///   in the message are empty (so a partial message reads back as the same partial message;
///   names come back in header order). Sync ticks are not representable (WriteStatus::Skipped).
/// - **Buffering.** Output collects in a memory buffer that is written out when it exceeds
///   64 KiB, on flush(), after every message with WriterOptions::flush_each_message, and on
///   destruction. A streaming command calls flush() before each MessageReader::next() when
///   MessageReader::input_pending() is false.
/// - **Errors.** Per-message problems are returned as WriteStatus; a failing write of the
///   operating system (disk full, closed pipe) throws rmodel::IoError from write() or flush().
///   The destructor flushes and swallows such errors: call flush() to see them.
/// - No allocation per message once the buffer and the caches have grown to the message
///   size.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rmodel/io/format.hpp"
#include "rmodel/io/message.hpp"

namespace rmodel::io {

/// Fields of a joint written as CSV columns (bit mask).
enum CsvFields : unsigned {
  CsvAuto = 0,      ///< the non-empty fields of the first joint state written
  CsvPosition = 1,  ///< `<joint>.position`
  CsvVelocity = 2,  ///< `<joint>.velocity`
  CsvEffort = 4,    ///< `<joint>.effort`
};

/// Options of a MessageWriter.
struct RMODEL_API WriterOptions {
  /// Output format: Auto = from the path's extension, JsonLines for "-" and unknown ones.
  /// `Json` writes JSON Lines.
  Format format = Format::Auto;
  /// Stamp layout written besides `t` in JSON Lines.
  StampLayout stamp = StampLayout::None;
  /// Write out after every message (lowest latency, one system call per message).
  bool flush_each_message = false;
  /// CSV: the joints, in column order. Empty: the names of the first joint state written
  /// (support states written before it are then skipped).
  std::vector<std::string> csv_joints;
  /// CSV: fields per joint (CsvFields bits).
  unsigned csv_fields = CsvAuto;
  /// CSV: chains given `support/<chain>` columns (none: support states are skipped).
  std::vector<std::string> csv_support;
  /// CSV: add a `cycle` column after `t`.
  bool csv_cycle = false;
};

/// Result of MessageWriter::write().
enum class WriteStatus {
  Written,  ///< the whole message was written
  Partial,  ///< CSV: joints or chains not among the columns were left out
  Skipped,  ///< not representable in this format (a sync tick or, without support
            ///< columns, a support state in CSV); nothing was written
};

/// Writes messages. Move-only.
class RMODEL_API MessageWriter {
public:
  /// Creates or truncates a file, or writes to stdout for "-". Throws IoError when the
  /// file cannot be created.
  [[nodiscard]] static MessageWriter open(const std::string& path, WriterOptions options = {});

  /// Writes to a file descriptor; closes it on destruction when `owns_fd`.
  MessageWriter(int fd, std::string target_name, WriterOptions options = {}, bool owns_fd = false);
  /// Writes to a stream (kept by reference; it must outlive the writer).
  MessageWriter(std::ostream& out, std::string target_name, WriterOptions options = {});
  /// Appends to a string (kept by reference; it must outlive the writer). Every message is
  /// appended immediately (no flush needed).
  MessageWriter(std::string& out, WriterOptions options = {});

  MessageWriter(MessageWriter&&) noexcept;
  MessageWriter& operator=(MessageWriter&&) noexcept;
  ~MessageWriter();

  /// Writes one message (its kind, time, cycle; line and item are not written).
  WriteStatus write(const Message& message);
  /// Writes a joint state with its stamp, and a cycle number when given.
  WriteStatus write(const JointState& state, std::optional<std::int64_t> cycle = std::nullopt);
  /// Writes a support state with its stamp, and a cycle number when given.
  WriteStatus write(const SupportState& state, std::optional<std::int64_t> cycle = std::nullopt);
  /// Writes a sync tick at `stamp` seconds, with a cycle number when given.
  WriteStatus write_sync(double stamp, std::optional<std::int64_t> cycle = std::nullopt);

  /// Writes out everything buffered. Throws IoError when the system write fails.
  void flush();

  /// The format in use (JsonLines or Csv).
  [[nodiscard]] Format format() const noexcept;

  class Impl;

private:
  std::unique_ptr<Impl> impl_;
};

/// Appends one JSON Lines message (with its trailing '\n') to `out`; the format of
/// MessageWriter. `out` keeps its capacity, so a reused string does not reallocate.
RMODEL_API void append_json_line(std::string& out, const Message& message,
                      StampLayout stamp = StampLayout::None);

/// Appends the shortest decimal form of `value` that parses back to the same double
/// (`nan`, `inf`, `-inf` for non-finite values).
RMODEL_API void append_double(std::string& out, double value);

}  // namespace rmodel::io
