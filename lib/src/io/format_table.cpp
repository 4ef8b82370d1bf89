// The format table (format_table.hpp) and what is derived from it: format_from_path(),
// parse_format(), to_string(Format), log_formats() and the rosbag2-directory rule.
#include "io/format_table.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "io/format_writer.hpp"
#include "io/ros/bag_source.hpp"
#include "io/text_source.hpp"
#include "rmodel/error.hpp"

namespace rmodel::io {
namespace detail {
namespace {

constexpr std::array<std::string_view, 3> kJsonLinesAliases = {"ndjson", "json-lines", "jsonlines"};
constexpr std::array<std::string_view, 2> kJsonLinesExtensions = {".jsonl", ".ndjson"};
constexpr std::array<std::string_view, 1> kJsonExtensions = {".json"};
constexpr std::array<std::string_view, 1> kCsvExtensions = {".csv"};
constexpr std::array<std::string_view, 1> kYamlAliases = {"yml"};
constexpr std::array<std::string_view, 2> kYamlExtensions = {".yaml", ".yml"};
constexpr std::array<std::string_view, 1> kMcapExtensions = {".mcap"};
constexpr std::array<std::string_view, 1> kSqliteAliases = {"sqlite3"};
constexpr std::array<std::string_view, 1> kSqliteExtensions = {".db3"};
constexpr std::array<std::string_view, 1> kRosbag1Aliases = {"rosbag"};
constexpr std::array<std::string_view, 1> kRosbag1Extensions = {".bag"};

std::unique_ptr<BagSource> open_mcap(int fd, const std::string& path, const BagOptions& options) {
  return make_mcap_source(fd, path, options);
}
std::unique_ptr<BagSource> open_rosbag1(int fd, const std::string& path, const BagOptions& options) {
  return make_rosbag1_source(fd, path, options);
}
// SQLite opens databases by name.
std::unique_ptr<BagSource> open_sqlite(int /*fd*/, const std::string& path, const BagOptions& options) {
  return make_sqlite_source(path, path, options);
}

// The order is the order of --help and of parse_format()'s message. `written` is true exactly
// for the rows with a writer (test IoFormats.TableDrivesDetectionNamesAndWriters).
const FormatRow kFormatRows[] = {
    {{Format::JsonLines, "jsonl", kJsonLinesAliases, kJsonLinesExtensions, {}, true}, make_json_lines_writer,
     make_json_lines_source, nullptr},
    {{Format::Json, "json", {}, kJsonExtensions, {}, false}, nullptr, make_json_document_source, nullptr},
    {{Format::Csv, "csv", {}, kCsvExtensions, {}, true}, make_csv_writer, make_csv_source, nullptr},
    {{Format::Yaml, "yaml", kYamlAliases, kYamlExtensions, {}, false}, nullptr, make_ros_yaml_source, nullptr},
    {{Format::Mcap, "mcap", {}, kMcapExtensions, std::string_view("\x89MCAP0\r\n", 8), true}, make_mcap_writer,
     nullptr, open_mcap},
    {{Format::Ros2Sqlite, "db3", kSqliteAliases, kSqliteExtensions, std::string_view("SQLite format 3\0", 16), false},
     nullptr, nullptr, open_sqlite},
    {{Format::Ros1Bag, "bag", kRosbag1Aliases, kRosbag1Extensions, std::string_view("#ROSBAG V2.0\n", 13), false},
     nullptr, nullptr, open_rosbag1},
};

char lower_ascii(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool ends_with_ci(std::string_view s, std::string_view suffix) noexcept {
  if (s.size() < suffix.size()) return false;
  s = s.substr(s.size() - suffix.size());
  for (std::size_t i = 0; i < s.size(); ++i)
    if (lower_ascii(s[i]) != suffix[i]) return false;
  return true;
}

}  // namespace

std::span<const FormatRow> format_rows() noexcept { return kFormatRows; }

const FormatRow* format_row(Format format) noexcept {
  for (const FormatRow& row : kFormatRows)
    if (row.info.format == format) return &row;
  return nullptr;
}

}  // namespace detail

const std::vector<LogFormat>& log_formats() {
  static const std::vector<LogFormat> formats = [] {
    std::vector<LogFormat> list;
    for (const detail::FormatRow& row : detail::format_rows()) list.push_back(row.info);
    return list;
  }();
  return formats;
}

Format format_from_path(std::string_view path) noexcept {
  for (const detail::FormatRow& row : detail::format_rows())
    for (std::string_view extension : row.info.extensions)
      if (detail::ends_with_ci(path, extension)) return row.info.format;
  return Format::Auto;
}

Format parse_format(std::string_view name) {
  std::string n(name);
  for (char& c : n) c = detail::lower_ascii(c);
  if (n == "auto") return Format::Auto;
  std::string expected = "auto";
  const auto rows = detail::format_rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const LogFormat& f = rows[i].info;
    if (n == f.name) return f.format;
    for (std::string_view alias : f.aliases)
      if (n == alias) return f.format;
    expected += i + 1 == rows.size() ? " or " : ", ";
    expected += f.name;
  }
  throw InvalidArgument("unknown format '" + std::string(name) + "' (expected " + expected + ")");
}

std::string_view to_string(Format format) noexcept {
  const detail::FormatRow* row = detail::format_row(format);
  return row != nullptr ? row->info.name : std::string_view("auto");
}

void check_log_path(const std::string& path) {
  if (path == "-") return;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw IoError(path, "no such file");
  if (!std::filesystem::is_directory(path, ec) || std::filesystem::exists(std::filesystem::path(path) / "metadata.yaml", ec))
    return;
  // A rosbag2 directory whose recorder was killed, or copied without its metadata, still
  // holds its log files: name them, and the two ways on.
  std::vector<std::string> logs;
  for (std::filesystem::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    const auto extension = it->path().extension();
    if ((extension == ".mcap" || extension == ".db3") && it->is_regular_file(ec)) logs.push_back(it->path().filename());
  }
  if (logs.empty()) throw IoError(path, "is a directory, expected a file (or a rosbag2 directory with metadata.yaml)");
  std::sort(logs.begin(), logs.end());
  std::string listed;
  for (std::size_t k = 0; k < logs.size() && k < 4; ++k) listed += (k ? ", " : "") + logs[k];
  if (logs.size() > 4) listed += ", ...";
  throw IoError(path, fmt::format("is a rosbag2 directory without metadata.yaml, holding {} log file{} ({}): give "
                                  "the files themselves, or write the metadata with 'ros2 bag reindex'",
                                  logs.size(), logs.size() == 1 ? "" : "s", listed));
}

}  // namespace rmodel::io
