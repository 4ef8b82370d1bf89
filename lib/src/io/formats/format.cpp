// Names of stamp layouts and time sources; the formats' names are the format table's
// (format_table.cpp).
#include "rmodel/io/format.hpp"

#include <string>

#include "rmodel/base/error.hpp"

namespace rmodel::io {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace

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

std::string_view to_string(StampLayout layout) noexcept {
  switch (layout) {
    case StampLayout::None: return "none";
    case StampLayout::Ros1: return "ros1";
    case StampLayout::Ros2: return "ros2";
  }
  return "none";
}

}  // namespace rmodel::io
