#pragma once
#include "rmodel/export.hpp"
/// @file io/format.hpp
/// File formats of joint-state streams and how they are chosen from a path.
///
/// Each log format is declared once, by its own file in the library (its names, file name
/// endings, magic bytes or first-line test, reader and writer), and listed in the format
/// table; formats() lists them in that order and Format::info() describes one. What follows
/// from the table: format_from_path() (the endings), parse_format() (names and aliases), the
/// detection of an input's format from its content (below), the writer MessageWriter picks,
/// and the command's `-i`/`-f` choices, help texts, man pages and completions. rmodel's
/// formats today:
///
/// | Name    | Endings            | Read                                   | Written              |
/// |---------|--------------------|----------------------------------------|----------------------|
/// | `jsonl` | `.jsonl` `.ndjson` | streamed line by line                  | one message per line |
/// | `json`  | `.json`            | detected by content (see below)        | as `jsonl`           |
/// | `csv`   | `.csv`             | streamed line by line (wide table, `rostopic echo -p`, PlotJuggler) | wide table |
/// | `yaml`  | `.yaml` `.yml`     | streamed document by document (`ros2 topic echo`, `rostopic echo`) | — (as `jsonl`) |
/// | `mcap`, `db3`, `bag` | `.mcap`, `.db3`, `.bag` | ROS logs (bag.hpp)          | `mcap` only          |
/// | auto    | anything else, `-` | by content (below)                     | `jsonl`              |
///
/// **Detection for `json`.** The first non-blank line is inspected: when it starts with `{`
/// and that object closes on the same line, the input is JSON Lines and is streamed. Otherwise
/// (a pretty-printed message, a JSON array of messages, a trajectory spread over lines) the
/// whole input is read and split into its top-level JSON values. A compact one-line file is
/// therefore the same as a JSON Lines file with one line. Streams that must never be read to
/// the end (`tail -f`, a live robot) should name `jsonl` explicitly.
///
/// **Detection for auto** (stdin, unknown extensions): a binary log's magic bytes → that log;
/// else each text format judges the first non-blank line, and the one it looks most like is
/// read. For rmodel's text formats: `---`, `key:` or `key: value` (a YAML mapping key: letters,
/// digits, `_`) or a `{` followed by an unquoted key (`--flow-style` echo output) → `yaml`; a
/// `{` whose object closes on that line → `jsonl`; another `{` or `[` → as `json`; anything
/// else → `csv` (whose header then tells rmodel's own wide table, `rostopic echo -p` output
/// starting with `%time`, and PlotJuggler's `__time` apart; see message.hpp).

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rmodel::io {

namespace detail {
struct FormatAccess;  // the library's way to a format's handle (format_table.cpp)
}

/// A log format's description, as its own file in the library declares it (one file per
/// format, listed by the format table, lib/src/io/formats/format_table.cpp). Detection, parse_format(),
/// to_string(), MessageReader, MessageWriter and the command's `-i`/`-f` choices, help texts,
/// man pages and completions are all derived from these.
struct FormatInfo {
  std::string_view name;                         ///< canonical name (`jsonl`): to_string(), `-i`, `-f`
  std::span<const std::string_view> aliases;     ///< other names parse_format() accepts (lower case)
  std::span<const std::string_view> extensions;  ///< path endings format_from_path() knows (lower case, with the dot)
  std::string_view magic;                        ///< first bytes of a binary log; empty for a text format
  bool binary = false;   ///< a binary log: read with random access, its messages numbered (numbers_messages())
  bool written = false;  ///< MessageWriter writes it (the others are written as JSON Lines)
  bool rosbag2_storage = false;  ///< a storage of rosbag2 directories (their files end in one of `extensions`)
};

/// A log format, named by its canonical name: a small value, compared by name. `Format{}` is
/// `auto` (from the path's extension, then from the content). Formats are not an enum: a new
/// format is a new file of the library, not a new value here; name one with parse_format()
/// (`io::parse_format("mcap")`) and list them with formats().
class Format {
public:
  constexpr Format() noexcept = default;

  /// `auto`, or the format's canonical name (`jsonl`, `mcap`, ...).
  [[nodiscard]] constexpr std::string_view name() const noexcept { return name_.empty() ? "auto" : name_; }
  [[nodiscard]] constexpr bool is_auto() const noexcept { return name_.empty(); }
  /// The format's description; nullptr for `auto`.
  [[nodiscard]] RMODEL_API const FormatInfo* info() const noexcept;

  friend constexpr bool operator==(Format a, Format b) noexcept { return a.name_ == b.name_; }
  friend constexpr auto operator<=>(Format a, Format b) noexcept { return a.name_ <=> b.name_; }

  // The values of the enum `Format` was until rmodel 0.1 (issue 45), kept for one release:
  // name formats with parse_format() instead.
  [[deprecated("Format{} is auto")]] static const Format Auto;
  [[deprecated("use io::parse_format(\"jsonl\")")]] static const Format JsonLines;
  [[deprecated("use io::parse_format(\"json\")")]] static const Format Json;
  [[deprecated("use io::parse_format(\"csv\")")]] static const Format Csv;
  [[deprecated("use io::parse_format(\"mcap\")")]] static const Format Mcap;
  [[deprecated("use io::parse_format(\"db3\")")]] static const Format Ros2Sqlite;
  [[deprecated("use io::parse_format(\"bag\")")]] static const Format Ros1Bag;
  [[deprecated("use io::parse_format(\"yaml\")")]] static const Format Yaml;

private:
  friend struct detail::FormatAccess;
  constexpr explicit Format(std::string_view canonical) noexcept : name_(canonical) {}
  std::string_view name_;  ///< a format's own name (static storage); empty: auto
};

inline constexpr Format Format::Auto{};
inline constexpr Format Format::JsonLines{"jsonl"};
inline constexpr Format Format::Json{"json"};
inline constexpr Format Format::Csv{"csv"};
inline constexpr Format Format::Mcap{"mcap"};
inline constexpr Format Format::Ros2Sqlite{"db3"};
inline constexpr Format Format::Ros1Bag{"bag"};
inline constexpr Format Format::Yaml{"yaml"};

/// The log formats rmodel reads, in the format table's order, which help texts follow
/// (`jsonl`, `json`, `csv`, `yaml`, `mcap`, `db3`, `bag`).
[[nodiscard]] RMODEL_API const std::vector<Format>& formats();

/// One log format as log_formats() lists it (rmodel 0.1; FormatInfo and formats() replace it).
struct LogFormat {
  Format format;
  std::string_view name;
  std::span<const std::string_view> aliases;
  std::span<const std::string_view> extensions;
  std::string_view magic;
  bool written = false;
};

/// The formats of formats(), as rmodel 0.1 listed them.
[[deprecated("use io::formats() and Format::info()")]] [[nodiscard]] RMODEL_API const std::vector<LogFormat>&
log_formats();

/// The rosbag2-directory rule, in one place: a directory is read as a log only when it holds
/// `metadata.yaml` (a ROS 2 bag directory, bag.hpp); any other path must exist. `-` (stdin)
/// passes. @throws IoError naming `path` ("no such file", or "is a directory, expected a file
/// (or a rosbag2 directory with metadata.yaml)").
RMODEL_API void check_log_path(const std::string& path);

/// Which time a log message gets (bag.hpp).
enum class TimeSource {
  Header,  ///< `header.stamp` of the message
  Log,     ///< the time the recorder received it
};

/// Parses `header` or `log`. Throws InvalidArgument otherwise.
[[nodiscard]] RMODEL_API TimeSource parse_time_source(std::string_view name);

/// How a JSON Lines writer spells the time besides the exact `t` field (seconds).
enum class StampLayout {
  None,  ///< `"t": 12.5` only
  Ros1,  ///< also `"header": {"stamp": {"secs": 12, "nsecs": 500000000}}`
  Ros2,  ///< also `"header": {"stamp": {"sec": 12, "nanosec": 500000000}}`
};

/// The format whose file name endings (FormatInfo::extensions) end `path`, case-insensitive
/// (`run.MCAP` → `mcap`); auto for anything else and `-`. For auto, MessageReader also
/// recognises the binary logs by their magic bytes and a rosbag2 directory by its
/// `metadata.yaml`.
[[nodiscard]] RMODEL_API Format format_from_path(std::string_view path) noexcept;

/// Parses a format name as given on a command line: `auto`, or a format's name or one of its
/// aliases (`ndjson` for `jsonl`, `rosbag` for `bag`), case-insensitive. Throws
/// InvalidArgument for anything else, listing the names.
[[nodiscard]] RMODEL_API Format parse_format(std::string_view name);

/// Parses a stamp layout name: `none`, `ros1`, `ros2`. Throws InvalidArgument otherwise.
[[nodiscard]] RMODEL_API StampLayout parse_stamp_layout(std::string_view name);

/// The canonical name of a format: Format::name() (`auto`, `jsonl`, `mcap`, ...).
[[nodiscard]] RMODEL_API std::string_view to_string(Format format) noexcept;

/// The canonical name of a stamp layout (`none`, `ros1`, `ros2`).
[[nodiscard]] RMODEL_API std::string_view to_string(StampLayout layout) noexcept;

}  // namespace rmodel::io
