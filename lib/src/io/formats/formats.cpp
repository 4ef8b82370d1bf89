// What is derived from the format table (format_table.cpp lists the formats, each declared
// by its own file; format_table.hpp): formats(), Format::info(), format_from_path(),
// parse_format(), to_string(Format) and the rosbag2-directory rule.
#include "io/formats/format_table.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "rmodel/base/error.hpp"

namespace rmodel::io {
namespace detail {
namespace {

char lower_ascii(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool ends_with_ci(std::string_view s, std::string_view suffix) noexcept {
  if (s.size() < suffix.size()) return false;
  s = s.substr(s.size() - suffix.size());
  for (std::size_t i = 0; i < s.size(); ++i)
    if (lower_ascii(s[i]) != suffix[i]) return false;
  return true;
}

/// The public descriptions, in the table's order (built once).
struct Described {
  std::vector<FormatInfo> infos;
  std::vector<Format> formats;
};

const Described& described() {
  static const Described d = [] {
    Described out;
    for (const FormatDescriptor* f : format_descriptors()) {
      out.infos.push_back(FormatInfo{f->name, f->aliases, f->extensions, f->magic, f->open_log != nullptr,
                                     f->make_writer != nullptr, f->rosbag2_storage});
      out.formats.push_back(format_of(*f));
    }
    return out;
  }();
  return d;
}

}  // namespace

struct FormatAccess {
  static Format make(std::string_view canonical) noexcept { return Format(canonical); }
};

const FormatDescriptor* descriptor_named(std::string_view name) noexcept {
  for (const FormatDescriptor* f : format_descriptors())
    if (f->name == name) return f;
  return nullptr;
}

const FormatDescriptor* descriptor_of(Format format) noexcept {
  return format.is_auto() ? nullptr : descriptor_named(format.name());
}

Format format_of(const FormatDescriptor& descriptor) noexcept { return FormatAccess::make(descriptor.name); }

}  // namespace detail

const FormatInfo* Format::info() const noexcept {
  if (is_auto()) return nullptr;
  const detail::Described& d = detail::described();
  for (const FormatInfo& info : d.infos)
    if (info.name == name_) return &info;
  return nullptr;
}

const std::vector<Format>& formats() { return detail::described().formats; }

const std::vector<LogFormat>& log_formats() {
  static const std::vector<LogFormat> list = [] {
    std::vector<LogFormat> out;
    const detail::Described& d = detail::described();
    for (std::size_t i = 0; i < d.infos.size(); ++i) {
      const FormatInfo& f = d.infos[i];
      out.push_back(LogFormat{d.formats[i], f.name, f.aliases, f.extensions, f.magic, f.written});
    }
    return out;
  }();
  return list;
}

Format format_from_path(std::string_view path) noexcept {
  for (const detail::FormatDescriptor* f : detail::format_descriptors())
    for (std::string_view extension : f->extensions)
      if (detail::ends_with_ci(path, extension)) return detail::format_of(*f);
  return Format{};
}

Format parse_format(std::string_view name) {
  std::string n(name);
  for (char& c : n) c = detail::lower_ascii(c);
  if (n == "auto") return Format{};
  std::string expected = "auto";
  const auto all = detail::format_descriptors();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const detail::FormatDescriptor& f = *all[i];
    if (n == f.name) return detail::format_of(f);
    for (std::string_view alias : f.aliases)
      if (n == alias) return detail::format_of(f);
    expected += i + 1 == all.size() ? " or " : ", ";
    expected += f.name;
  }
  throw InvalidArgument("unknown format '" + std::string(name) + "' (expected " + expected + ")");
}

std::string_view to_string(Format format) noexcept { return format.name(); }

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
    const detail::FormatDescriptor* storage = detail::descriptor_of(format_from_path(it->path().filename().string()));
    if (storage != nullptr && storage->rosbag2_storage && it->is_regular_file(ec))
      logs.push_back(it->path().filename());
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
