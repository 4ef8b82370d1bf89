#pragma once
// Internal: the readers of the text formats behind MessageReader (JSON Lines, JSON documents,
// CSV, ROS echo YAML), one TextSource per format, as BagSource is for the binary logs. A reader
// of text holds one TextContext: its lines, its JSON parser, its message builder, the error it
// reports and the messages a trajectory expanded into. Once the format is known (named, or
// told from the first line by sniff_text_format), the format's row in the format table
// (format_table.hpp) makes its source on that context.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "io/read/builder.hpp"
#include "io/read/line_source.hpp"
#include "io/text/trajectory.hpp"
#include "rmodel/io/reader.hpp"

namespace rmodel::io::detail {

/// What the text sources of one reader share.
class TextContext {
public:
  /// Lines of at most `max_line` bytes from `source`; errors are written to `error`.
  TextContext(ByteSource& source, std::size_t max_line, ReadError& error);

  LineSplitter lines;
  const std::size_t max_line;
  ReadError& error;
  std::unique_ptr<JsonMessageParser> parser;  ///< the native parser unless a test changed it
  MessageBuilder builder;
  ParseFailure failure;
  /// Messages and errors a trajectory expanded into: the reader returns them before it asks
  /// the source for more.
  PendingQueue pending;
  /// True once the input has ended or cannot be read further: the reader returns End.
  bool done = false;

  /// Next non-blank line (a held one first) and its number; strips a byte order mark at the
  /// start of the input.
  LineSplitter::Status next_line(std::string_view& line, std::size_t& number);
  /// next_line() for a source: nullopt with a line, or what the source returns instead:
  /// WouldBlock, the end (at_end()) or the error of a skipped over-long line.
  std::optional<ReadStatus> read_line(std::string_view& line, std::size_t& number);
  /// Gives `line` back (it was read to tell the format): the next next_line() returns it. The
  /// view stays valid as long as no other line is read.
  void hold(std::string_view line, std::size_t number) noexcept;
  [[nodiscard]] bool holds_line() const noexcept { return held_; }
  /// True when a line can be returned without reading (held or buffered), or the input has ended.
  [[nodiscard]] bool line_waiting() const noexcept { return held_ || done || lines.line_ready(); }

  /// Sets the error and returns ReadStatus::Error.
  ReadStatus fail(std::size_t line, std::size_t item, std::string reason);
  /// The end of input: End, or an error when the input held nothing but blank lines.
  ReadStatus at_end();
  /// The error for line `line`, skipped for being longer than max_line.
  ReadStatus too_long(std::size_t line);

  /// Parses one JSON value (`capacity` readable bytes from text.data(), see LineSplitter) into
  /// `out`, read at `line` (and array `item`, 0 if none). nullopt when it was a trajectory,
  /// expanded into `pending`.
  std::optional<ReadStatus> parse_json(std::string_view text, std::size_t capacity, std::size_t line,
                                       std::size_t item, Message& out);

private:
  bool held_ = false;
  std::string_view held_line_;
  std::size_t held_number_ = 0;
  bool first_line_ = true;
  bool seen_content_ = false;
};

/// A reader of one text format.
class TextSource {
public:
  explicit TextSource(TextContext& context) noexcept : context_(context) {}
  virtual ~TextSource() = default;
  TextSource(const TextSource&) = delete;
  TextSource& operator=(const TextSource&) = delete;
  /// The next message (Ok), an error (Error, in the context's error), WouldBlock or End;
  /// nullopt when this call produced nothing to return (a header row, a trajectory expanded
  /// into the context's pending messages): call again.
  virtual std::optional<ReadStatus> next(Message& out) = 0;
  /// True when next() would return without waiting for input (the reader has already checked
  /// the pending messages and the bytes kept from sniffing a stream).
  [[nodiscard]] virtual bool input_pending() const noexcept = 0;

protected:
  TextContext& context_;
};

/// The position of the first character of `line` from `i` on that is not a space, tab or line
/// end (line.size() when there is none).
inline std::size_t skip_text_blanks(std::string_view line, std::size_t i = 0) noexcept {
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\n' || line[i] == '\r')) ++i;
  return i;
}

/// Tells the text format from the first non-blank line, which stays held for the source.
/// `requested` is what the reader was told: auto, a text format that may turn out to be
/// another (FormatDescriptor::may_be: `json` may be `jsonl`), or a binary log's format whose
/// input turned out to be text. The candidates (every text format; with may_be, those and the
/// requested one) judge the line (FormatDescriptor::sniff_line) and the one it looks most like
/// is `decided`; when none recognises it, the first candidate (JSON Lines, whose reader then
/// reports each line). Returns what the reader returns now, if anything: WouldBlock (call
/// again), the end of an empty input, or the error of an over-long first line (the first
/// candidate is then decided).
std::optional<ReadStatus> sniff_text_format(TextContext& context, Format requested, std::optional<Format>& decided);

}  // namespace rmodel::io::detail
