#pragma once
// Internal: the format table. One row per log format: its names, file name endings and
// first bytes (rmodel/io/format.hpp's LogFormat), and the factories of its writer and of its
// reader (a TextSource for a text format, a BagSource for a binary log). Detection
// (format_from_path, the magic bytes), parse_format(), to_string(), MessageReader,
// MessageWriter and the command's -i/-f choices all read this table; adding a format is one
// new file plus one row here (docs/CONTRIBUTING.md).

#include <memory>
#include <span>
#include <string>

#include "rmodel/io/format.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"

namespace rmodel::io::detail {

class FormatWriter;
class BagSource;
struct BagOptions;
class TextSource;
class TextContext;

/// One row of the format table.
struct FormatRow {
  LogFormat info;
  /// The writer of this format; nullptr: not written (MessageWriter writes JSON Lines).
  std::unique_ptr<FormatWriter> (*make_writer)(const WriterOptions& options) = nullptr;
  /// A text format's reader on the lines of a MessageReader (text_source.hpp); nullptr: a
  /// binary log.
  std::unique_ptr<TextSource> (*read_text)(TextContext& context, const ReaderOptions& options) = nullptr;
  /// A binary log's reader on an open file (`fd` stays the caller's); nullptr: a text format.
  std::unique_ptr<BagSource> (*open_log)(int fd, const std::string& path, const BagOptions& options) = nullptr;
};

/// The rows, in the order help texts list the formats (Format::Auto has none).
std::span<const FormatRow> format_rows() noexcept;
/// The row of `format`, or nullptr (Format::Auto).
const FormatRow* format_row(Format format) noexcept;

}  // namespace rmodel::io::detail
