#pragma once
#include "rmodel/export.hpp"
/// @file io/format.hpp
/// File formats of joint-state streams and how they are chosen from a path.
///
/// | Format      | Extensions         | Read                                   | Written              |
/// |-------------|--------------------|----------------------------------------|----------------------|
/// | `JsonLines` | `.jsonl` `.ndjson` | streamed line by line                  | one message per line |
/// | `Json`      | `.json`            | detected by content (see below)        | as `JsonLines`       |
/// | `Csv`       | `.csv`             | streamed line by line (wide table, `rostopic echo -p`, PlotJuggler) | wide table |
/// | `Yaml`      | `.yaml` `.yml`     | streamed document by document (`ros2 topic echo`, `rostopic echo`) | — (as `JsonLines`) |
/// | `Auto`      | anything else, `-` | by content (below)                     | `JsonLines`          |
///
/// **Detection for `Json`.** The first non-blank line is inspected: when it starts with `{`
/// and that object closes on the same line, the input is JSON Lines and is streamed. Otherwise
/// (a pretty-printed message, a JSON array of messages, a trajectory spread over lines) the
/// whole input is read and split into its top-level JSON values. A compact one-line file is
/// therefore the same as a JSON Lines file with one line. Streams that must never be read to
/// the end (`tail -f`, a live robot) should name `JsonLines` explicitly.
///
/// **Detection for `Auto`** (stdin, unknown extensions), on the first non-blank line: a ROS log's
/// magic bytes → that log; `---`, `key:` or `key: value` (a YAML mapping key: letters, digits,
/// `_`) or a `{` followed by an unquoted key (`--flow-style` echo output) → `Yaml`; another
/// `{` or `[` → as `Json`; anything else → `Csv` (whose header then tells rmodel's own wide
/// table, `rostopic echo -p` output starting with `%time`, and PlotJuggler's `__time` apart;
/// see message.hpp).

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rmodel::io {

/// Format of a joint-state stream.
enum class Format {
  Auto,       ///< choose from the path's extension, then from the content
  JsonLines,  ///< JSON Lines (one JSON message per line)
  Json,       ///< a `.json` file: JSON Lines, one pretty message, an array or a trajectory
  Csv,        ///< wide CSV with a header row
  Mcap,       ///< ROS 2 MCAP (`.mcap`, magic `\x89MCAP0\r\n`; see bag.hpp)
  Ros2Sqlite, ///< ROS 2 sqlite3 bag (`.db3`, or a rosbag2 directory; see bag.hpp)
  Ros1Bag,    ///< ROS 1 bag format 2.0 (`.bag`, `#ROSBAG V2.0`; see bag.hpp)
  Yaml,       ///< `ros2 topic echo` / `rostopic echo` output: `---`-separated YAML documents
};

/// One log format as the format table (lib/src/io/format_table.cpp) describes it. Detection
/// (format_from_path(), the magic bytes), parse_format(), to_string() and the command's
/// `-i`/`-f` choices and help are derived from the table.
struct LogFormat {
  Format format = Format::Auto;
  std::string_view name;                         ///< canonical name (`jsonl`): to_string(), `-i`, `-f`
  std::span<const std::string_view> aliases;     ///< other names parse_format() accepts (lower case)
  std::span<const std::string_view> extensions;  ///< path endings format_from_path() knows (lower case, with the dot)
  std::string_view magic;                        ///< first bytes of a binary log; empty for a text format
  bool written = false;                          ///< MessageWriter writes it (the others are written as JSON Lines)
};

/// The log formats rmodel reads, in the order help texts list them: `jsonl`, `json`, `csv`,
/// `yaml`, `mcap`, `db3`, `bag`.
[[nodiscard]] RMODEL_API const std::vector<LogFormat>& log_formats();

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

/// Format named by a path's extension: `.jsonl`/`.ndjson` → JsonLines, `.json` → Json,
/// `.csv` → Csv, `.mcap` → Mcap, `.db3` → Ros2Sqlite, `.bag` → Ros1Bag, `.yaml`/`.yml` → Yaml
/// (case-insensitive);
/// anything else and `-` → Auto. For Auto, MessageReader also recognises the ROS logs by
/// their magic bytes and a rosbag2 directory by its `metadata.yaml`.
[[nodiscard]] RMODEL_API Format format_from_path(std::string_view path) noexcept;

/// Parses a format name as given on a command line: `auto`, `jsonl` (or `ndjson`,
/// `json-lines`, `jsonlines`), `json`, `csv`, `yaml` (or `yml`), `mcap`, `db3` (or `sqlite3`),
/// `bag` (or `rosbag`); case-insensitive. Throws InvalidArgument for anything else.
[[nodiscard]] RMODEL_API Format parse_format(std::string_view name);

/// Parses a stamp layout name: `none`, `ros1`, `ros2`. Throws InvalidArgument otherwise.
[[nodiscard]] RMODEL_API StampLayout parse_stamp_layout(std::string_view name);

/// The canonical name of a format (`auto`, `jsonl`, `json`, `csv`, `mcap`, `db3`, `bag`, `yaml`).
[[nodiscard]] RMODEL_API std::string_view to_string(Format format) noexcept;

/// The canonical name of a stamp layout (`none`, `ros1`, `ros2`).
[[nodiscard]] RMODEL_API std::string_view to_string(StampLayout layout) noexcept;

}  // namespace rmodel::io
