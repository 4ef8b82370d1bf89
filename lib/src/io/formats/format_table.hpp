#pragma once
// Internal: log formats as their own files declare them, and the table that lists them.
//
// Each format's file (json_lines_source.cpp, csv_source.cpp, ros/mcap.cpp, ...) defines one
// FormatDescriptor: its names, file name endings, magic bytes or first-line test, and the
// factories of its reader and writer. format_table.cpp lists the descriptors, in the order
// help texts list the formats; everything else is derived: format_from_path(), parse_format(),
// to_string(), formats(), the sniffing of binary logs (magic bytes) and of text
// (sniff_text_format), MessageReader's and MessageWriter's choice of source and writer, the
// rosbag2-directory rule, and the command's -i/-f choices, help texts, man pages and
// completions. Adding a format is its file plus its row (docs/CONTRIBUTING.md).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "rmodel/io/format.hpp"
#include "rmodel/io/reader.hpp"
#include "rmodel/io/writer.hpp"

namespace rmodel::io::detail {

class FormatWriter;
class BagSource;
struct BagOptions;
class TextSource;
class TextContext;

/// How much the first non-blank line of a text input looks like a format. The format it
/// looks most like is read; equal ones go by the table's order.
enum class Likeness : std::uint8_t {
  None,      ///< not this format
  Fallback,  ///< could be read as this format, for want of a better one (csv)
  Weak,      ///< starts as this format does ("[" for a JSON document)
  Strong,    ///< a whole record of this format (a JSON object closing on its line)
  Certain,   ///< a form only this format has (YAML's `key:`)
};

/// What a format's own file declares.
struct FormatDescriptor {
  std::string_view name{};                         ///< canonical name: `-i`, `-f`, to_string()
  std::span<const std::string_view> aliases{};     ///< other names (lower case)
  std::span<const std::string_view> extensions{};  ///< path endings (lower case, with the dot)
  std::string_view magic{};                        ///< a binary log's first bytes; empty for text
  bool rosbag2_storage = false;                  ///< a storage of rosbag2 directories
  /// A text format: how its first non-blank line looks (`line` as read, blanks kept); nullptr:
  /// never told from content.
  Likeness (*sniff_line)(std::string_view line) = nullptr;
  /// A text format named explicitly whose first line may show that the input is one of
  /// these formats instead (`json` may be `jsonl`): sniffed among them and itself.
  std::span<const std::string_view> may_be{};
  /// Its writer; nullptr: not written (MessageWriter writes JSON Lines).
  std::unique_ptr<FormatWriter> (*make_writer)(const WriterOptions& options) = nullptr;
  /// A text format's reader on the lines of a MessageReader (text_source.hpp).
  std::unique_ptr<TextSource> (*read_text)(TextContext& context, const ReaderOptions& options) = nullptr;
  /// A binary log's reader on an open file (`fd` stays the caller's; `path` names it).
  std::unique_ptr<BagSource> (*open_log)(int fd, const std::string& path, const BagOptions& options) = nullptr;
  /// Non-empty for a binary log opened by its path, not its descriptor (SQLite opens databases
  /// by name): why it cannot be read from a pipe. Empty: a pipe is held in a temporary file and
  /// read from there.
  std::string_view pipe_refusal{};
};

/// The descriptors, in the table's order.
std::span<const FormatDescriptor* const> format_descriptors() noexcept;
/// The descriptor of `format`, or nullptr (auto, or a name no format has).
const FormatDescriptor* descriptor_of(Format format) noexcept;
/// The descriptor named `name` (canonical, lower case), or nullptr.
const FormatDescriptor* descriptor_named(std::string_view name) noexcept;
/// The handle of a described format.
Format format_of(const FormatDescriptor& descriptor) noexcept;

}  // namespace rmodel::io::detail
