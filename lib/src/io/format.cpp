#include "rmodel/io/format.hpp"

#include <string>

#include "rmodel/error.hpp"

namespace rmodel::io {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool ends_with_ci(std::string_view s, std::string_view suffix) noexcept {
  if (s.size() < suffix.size()) return false;
  s = s.substr(s.size() - suffix.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

}  // namespace

Format format_from_path(std::string_view path) noexcept {
  if (ends_with_ci(path, ".jsonl") || ends_with_ci(path, ".ndjson")) return Format::JsonLines;
  if (ends_with_ci(path, ".json")) return Format::Json;
  if (ends_with_ci(path, ".csv")) return Format::Csv;
  if (ends_with_ci(path, ".mcap")) return Format::Mcap;
  if (ends_with_ci(path, ".db3")) return Format::Ros2Sqlite;
  if (ends_with_ci(path, ".bag")) return Format::Ros1Bag;
  if (ends_with_ci(path, ".yaml") || ends_with_ci(path, ".yml")) return Format::Yaml;
  return Format::Auto;
}

Format parse_format(std::string_view name) {
  const std::string n = lower(name);
  if (n == "auto") return Format::Auto;
  if (n == "jsonl" || n == "ndjson" || n == "json-lines" || n == "jsonlines")
    return Format::JsonLines;
  if (n == "json") return Format::Json;
  if (n == "csv") return Format::Csv;
  if (n == "mcap") return Format::Mcap;
  if (n == "db3" || n == "sqlite3") return Format::Ros2Sqlite;
  if (n == "bag" || n == "rosbag") return Format::Ros1Bag;
  if (n == "yaml" || n == "yml") return Format::Yaml;
  throw InvalidArgument("unknown format '" + std::string(name) +
                        "' (expected auto, jsonl, json, csv, mcap, db3, bag or yaml)");
}

TimeSource parse_time_source(std::string_view name) {
  const std::string n = lower(name);
  if (n == "header") return TimeSource::Header;
  if (n == "log") return TimeSource::Log;
  throw InvalidArgument("unknown time source '" + std::string(name) + "' (expected header or log)");
}

StampLayout parse_stamp_layout(std::string_view name) {
  const std::string n = lower(name);
  if (n == "none") return StampLayout::None;
  if (n == "ros1") return StampLayout::Ros1;
  if (n == "ros2") return StampLayout::Ros2;
  throw InvalidArgument("unknown stamp layout '" + std::string(name) +
                        "' (expected none, ros1 or ros2)");
}

std::string_view to_string(Format format) noexcept {
  switch (format) {
    case Format::Auto: return "auto";
    case Format::JsonLines: return "jsonl";
    case Format::Json: return "json";
    case Format::Csv: return "csv";
    case Format::Mcap: return "mcap";
    case Format::Ros2Sqlite: return "db3";
    case Format::Ros1Bag: return "bag";
    case Format::Yaml: return "yaml";
  }
  return "auto";
}

std::string_view to_string(StampLayout layout) noexcept {
  switch (layout) {
    case StampLayout::None: return "none";
    case StampLayout::Ros1: return "ros1";
    case StampLayout::Ros2: return "ros2";
  }
  return "none";
}

}  // namespace rmodel::io
